"""The session verbs' arguments: ``cookies``, ``set_cookies`` and ``wait_for_close``.

One declaration for every built-in provider that offers them (chromium, the stub, and the
extension, whose JavaScript declares the same schemas), so an agent's call means the same
thing whichever browser answers. A cookie is read and set with the fields Playwright's
``context.cookies(urls)`` and ``context.add_cookies`` use; its value is the user's secret (a
login), so ``cookies`` is read only for the addresses asked, by default the page's own.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from browserhost.contract.limits import URL_MAX
from browserhost.contract.verbs import VERB_TIMEOUT_S
from browserhost.sdk import ActionError, VerbArguments

COOKIE_URLS_MAX = 20
COOKIES_SET_MAX = 50
COOKIE_VALUE_MAX = 4_096
"""Browsers keep a cookie's name and value to about 4 KB together."""
CLOSE_WAIT_MAX_S = VERB_TIMEOUT_S - 5
"""The longest wait_for_close: inside the host's deadline for a verb, with time to answer."""

_HTTP_URL = r"^https?://"

COOKIES_HELP = (
    "Read the session's cookies sent to the page (or to urls): name, value, domain, path, "
    "expires (Unix seconds; -1 for a session cookie), httpOnly, secure, sameSite. Values are "
    "the user's secrets (logins): read them only when the task needs them."
)
SET_COOKIES_HELP = (
    "Set cookies in the session: each with name and value, and url (or domain and path); "
    "optionally expires (Unix seconds), httpOnly, secure, sameSite. All are set, or none."
)

WAIT_FOR_CLOSE_HELP = (
    "Wait until the session's page is closed: by the page itself, by the person, or by the "
    "provider; up to timeoutS. Answers who closed it."
)
NOTHING_OPEN = (
    "Nothing is open in this session, so there is nothing to wait for; open a page first."
)

SameSite = Literal["Strict", "Lax", "None"]
HttpUrl = Annotated[str, Field(pattern=_HTTP_URL, max_length=URL_MAX)]


class CookiesArguments(VerbArguments):
    urls: list[HttpUrl] | None = Field(
        None,
        min_length=1,
        max_length=COOKIE_URLS_MAX,
        description="The http(s) addresses whose cookies to read (default: the page's own).",
    )


class CookieToSet(VerbArguments):
    name: str = Field(min_length=1, max_length=256)
    value: str = Field(max_length=COOKIE_VALUE_MAX)
    url: str | None = Field(
        None,
        pattern=_HTTP_URL,
        max_length=URL_MAX,
        description="The address it is for (its domain and path follow); or domain and path.",
    )
    domain: str | None = Field(
        None, min_length=1, max_length=253, description="With path, instead of url."
    )
    path: str | None = Field(
        None, min_length=1, max_length=1_024, pattern="^/", description="With domain."
    )
    expires: float | None = Field(
        None, ge=-1, description="Unix time in seconds; -1 or none: a session cookie."
    )
    http_only: bool = False
    secure: bool = False
    same_site: SameSite | None = Field(None, description='"None" needs secure: true.')


class SetCookiesArguments(VerbArguments):
    cookies: list[CookieToSet] = Field(min_length=1, max_length=COOKIES_SET_MAX)


class WaitForCloseArguments(VerbArguments):
    timeout_s: float = Field(
        CLOSE_WAIT_MAX_S, gt=0, le=CLOSE_WAIT_MAX_S, description="How long to wait, in seconds."
    )


def still_open(url: str, timeout_s: float) -> str:
    """The refusal of a wait_for_close that ran out: the page is still open."""
    return (
        f"The page ({url}) was still open after {timeout_s:g} s; nothing was done. Wait "
        "again, or take a snapshot."
    )


def cookie_problem(cookie: CookieToSet) -> str | None:
    """What makes a cookie unsettable, said for the agent; ``None`` when it can be set."""
    where = "url" if cookie.url is not None else None
    if where is not None and (cookie.domain is not None or cookie.path is not None):
        return "give url, or domain and path, not both"
    if where is None and (cookie.domain is None or cookie.path is None):
        return "needs url, or domain and path"
    if cookie.same_site == "None" and not cookie.secure:
        return 'sameSite "None" needs secure: true'
    return None


def refuse_unsettable(cookies: list[CookieToSet]) -> str | None:
    """The refusal of a set_cookies call, naming each cookie that cannot be set; ``None``
    when all can."""
    problems = [
        f"cookie {index} ({cookie.name}) {problem}"
        for index, cookie in enumerate(cookies)
        if (problem := cookie_problem(cookie)) is not None
    ]
    if not problems:
        return None
    return f"{'; '.join(problems)}. No cookie was set."


def cookie_urls(asked: list[str] | None, page_url: str) -> list[str]:
    """The addresses to read cookies for: those asked, else the page's own; refuses a page
    that has none (a blank page)."""
    if asked is not None:
        return asked
    if not page_url.startswith(("http://", "https://")):
        raise ActionError(
            f"The page is {page_url}, which has no cookies; open a page or give urls. Nothing "
            "was read."
        )
    return [page_url]
