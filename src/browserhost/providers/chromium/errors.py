"""The one place Playwright's errors become what an agent reads.

Two outcomes, by what the agent may assume about the page::

    Exception
    ├── ActionError (browserhost.sdk)    the action could not be done: ``ok: false`` with a
    │                                    sentence saying what to do differently
    └── RuntimeError
        └── MayHaveRunError              the action reached the page, and how it ended is not
            │                            known (another navigation took over, a dialog held it)
            ├── BrowserGoneError         the browser or the page went away while the action ran
            ├── PageStuckError           the page stopped answering (a script that never
            │                            yields); the provider closes it
            └── PageWaitingError         the page waits for its server to answer its next
                                         document (no script runs meanwhile); it stays open

``MayHaveRunError`` is deliberately not an ``ActionError``: it is raised out of
:meth:`Provider.answer`, which the host reports as ``REQUEST_FAILED`` ("sent; may have run"),
never as success and never as "nothing changed". The provider relaunches the browser (or opens
a new page) on the next action.

Playwright is imported only when an error is actually being translated, so importing this
module never needs it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from browserhost.sdk import ActionError

from . import driver

BLOCKED_SCHEMES_HELP = "only http and https pages may be loaded"

PAGE_ANSWER_S = 8.0
"""How long a page may go without answering the provider before it counts as stuck. The
page script takes milliseconds; a page busy for this long has a script that never yields."""

_GONE_PATTERNS = (
    "has been closed",
    "target closed",
    "browser closed",
    "browser has disconnected",
    "connection closed",
    "target crashed",
    "page crashed",
)
ARRIVING = "the document is still arriving"
"""What ``snapshot.js`` throws in a new document that has no element yet."""
_NAVIGATED_PATTERNS = (
    "execution context was destroyed",
    "cannot find context with specified id",
    "frame was detached",  # also "navigating frame was detached"
    ARRIVING,
)
_NET_ERRORS = {
    "ERR_NAME_NOT_RESOLVED": "its host name does not resolve",
    "ERR_CONNECTION_REFUSED": "the connection was refused",
    "ERR_CONNECTION_RESET": "the connection was reset",
    "ERR_CONNECTION_TIMED_OUT": "the connection timed out",
    "ERR_ADDRESS_UNREACHABLE": "the address is unreachable",
    "ERR_INTERNET_DISCONNECTED": "the machine is offline",
    "ERR_EMPTY_RESPONSE": "the server sent an empty response",
    "ERR_TOO_MANY_REDIRECTS": "it redirects in a loop",
    "ERR_ABORTED": (
        "the load was stopped: the site answered with nothing to show (a 204 No Content, or a "
        "file to download), or another navigation took over"
    ),
    "ERR_BLOCKED_BY_CLIENT": "the browser blocked it",
    "ERR_UNSAFE_PORT": "the browser never loads pages from that port (one kept for other uses)",
}
_strict = re.compile(r"resolved to (\d+) elements")


class MayHaveRunError(RuntimeError):
    """The action reached the page and its outcome is unknown.

    Raised out of ``answer()`` on purpose (see the module docstring); the message is written
    for the agent, since the host passes it on.
    """


class BrowserGoneError(MayHaveRunError):
    """The browser or page closed or crashed during an action, so the action may have run."""


class PageStuckError(MayHaveRunError):
    """The page has not answered for :data:`PAGE_ANSWER_S`: a script on it never yields (an
    endless loop, or one dialog after another). The page is closed when this is raised out
    of an action, and the session goes on with a new one."""

    def __init__(self, action: str = "the action") -> None:
        super().__init__(
            f"The page stopped answering for {PAGE_ANSWER_S:g} s (a script on it never "
            "yields: an endless loop, or one dialog after another), so it was closed; the next "
            f"action starts on a blank page. {action} may or may not have happened."
        )


class PageWaitingError(MayHaveRunError):
    """The page has not answered because Chromium holds every script while the page waits for
    its server to answer its next document; the page stays open."""

    def __init__(self, url: str, waited_s: float, action: str = "the action") -> None:
        super().__init__(
            f"{_waiting(url, waited_s)} {action} may or may not have happened: take a "
            "snapshot in a moment, or open another address."
        )
        self.before_input = False
        """Raised while the action was still finding its element: nothing was sent."""


@contextmanager
def before_input() -> Iterator[None]:
    """The part of an action before it sends any input (finding its element): a page that
    waits for its server then (:class:`PageWaitingError`) means the action did not run."""
    try:
        yield
    except PageWaitingError as waiting:
        waiting.before_input = True
        raise


def waiting_to_read(url: str, waited_s: float) -> str:
    """Why a page waiting for its server (:class:`PageWaitingError`) could not be read."""
    return f"{_waiting(url, waited_s)} Take a snapshot again in a moment, or open another address."


def waiting_to_act(url: str, waited_s: float, action: str) -> str:
    """Why an action found no element on a page waiting for its server, and sent nothing."""
    return f"{_waiting(url, waited_s)} {action} did not run; try it again in a moment."


def _waiting(url: str, waited_s: float) -> str:
    return (
        f"The page is waiting for {url[:200]} to answer ({waited_s:.0f} s so far), and it "
        "can be neither read nor used until its next document arrives; it stays open."
    )


def gone(action: str, *, crashed: bool) -> BrowserGoneError:
    what = "page crashed" if crashed else "browser or page closed"
    return BrowserGoneError(
        f"The {what} while {action} ran, so it may or may not have happened. The browser "
        "is reopened on the next action; take a new snapshot to see where things stand."
    )


def launch_failed(exc: Exception, executable: str) -> ActionError:
    """A local Chromium that would not start."""
    return ActionError(
        f"Chromium at {executable} did not start ({_first_line(exc)}). Set BROWSERHOST_CHROMIUM "
        "to a working Chromium, or install one with `apt-get install chromium` or "
        "`playwright install chromium`."
    )


def connect_failed() -> ActionError:
    """A remote browser that could not be reached. The endpoint stays out of the message:
    answers never carry endpoints."""
    return ActionError(
        "Could not connect to the remote browser set by BROWSERHOST_CHROMIUM_ENDPOINT; check "
        "that it is running and reachable from this machine."
    )


def navigated(text: str) -> bool:
    """Whether a Playwright message says the document went away under the call: the page
    navigated, which :mod:`.pagescript` waits out and :func:`translate` reports."""
    lowered = text.lower()
    return any(pattern in lowered for pattern in _NAVIGATED_PATTERNS)


def blocked_message(what: str, why: str = BLOCKED_SCHEMES_HELP) -> str:
    return f"{what}, which was blocked: {why}."


@contextmanager
def playwright_errors(
    action: str,
    *,
    selector: str | None = None,
    url: str | None = None,
    on_timeout: str | None = None,
) -> Iterator[None]:
    """Translate a Playwright error raised in the block; anything else passes through.

    ``selector`` and ``url`` name what the agent asked for in the message; ``on_timeout`` is
    the sentence for a Playwright timeout (what the wait was for differs per call).
    """
    try:
        yield
    except driver.PlaywrightError as exc:
        raise translate(exc, action, selector=selector, url=url, on_timeout=on_timeout) from exc


def translate(
    exc: Exception,
    action: str,
    *,
    selector: str | None = None,
    url: str | None = None,
    on_timeout: str | None = None,
) -> Exception:
    """The exception to raise instead of Playwright's ``exc``."""
    text = _first_line(exc)
    lowered = text.lower()
    target = selector or "The element"
    if type(exc).__name__ == "TargetClosedError" or any(p in lowered for p in _GONE_PATTERNS):
        return gone(action, crashed="crash" in lowered)
    if isinstance(exc, driver.PlaywrightTimeoutError):
        return ActionError(
            on_timeout or f"{action} did not finish in time; take a new snapshot and try again."
        )
    if "strict mode violation" in lowered:
        match = _strict.search(text)
        many = f"{match.group(1)} elements" if match else "several elements"
        return ActionError(
            f"{target} matches {many}; take a new snapshot and use a selector that matches one."
        )
    if "while parsing css selector" in lowered or "is not a valid selector" in lowered:
        return ActionError(
            f"{target} is not a valid CSS selector; copy a selector from the latest snapshot."
        )
    if "interrupted by another navigation" in lowered:
        other = re.search(r'another navigation to "([^"]*)"', text)
        return MayHaveRunError(
            f"Another navigation (to {other.group(1) if other else 'another page'}) took over "
            f"while {action} ran, so it may or may not have happened; take a new snapshot to "
            "see where the page is."
        )
    if ARRIVING in lowered:
        return ActionError(
            f"The page's new document has started to arrive but none of it is shown yet, so "
            f"{action} did not run; try again in a moment."
        )
    if navigated(text):
        return ActionError(f"The page navigated while {action} ran; take a new snapshot.")
    if "element is not an <input>" in lowered or "cannot be filled" in lowered:
        return ActionError(
            f"{target} is not a text field; take a new snapshot and pick an input, a textarea "
            "or an editable element (use browser.click for buttons and checkboxes)."
        )
    net = re.search(r"net::(ERR_[A-Z_]+)", text)
    if net is not None:
        where = url or "the page"
        code = net.group(1)
        if code == "ERR_UNSAFE_REDIRECT":
            return ActionError(
                blocked_message(f"{where} redirected to an address that is not http or https")
            )
        reason = net_reason(code)
        advice = (
            "The page did not change."
            if code == "ERR_ABORTED"
            else "Check the address and that the site is up."
        )
        return ActionError(f"Could not load {where}: {reason}. {advice}")
    return ActionError(f"{action} failed: {text}")


def net_reason(code: str) -> str:
    """Why a load failed, as the agent reads it, from Chromium's ``ERR_...`` code."""
    if code.startswith("ERR_CERT_") or code.startswith("ERR_SSL_"):
        return f"its TLS certificate or connection is not valid ({code})"
    return _NET_ERRORS.get(code, f"the browser reported {code}")


def _first_line(exc: Exception) -> str:
    """Playwright's message without the method prefix, the call log or a stack."""
    message = getattr(exc, "message", None) or str(exc)
    line = message.strip().splitlines()[0] if message.strip() else type(exc).__name__
    line = re.sub(r"^[A-Za-z]+\.[A-Za-z_]+: ", "", line)
    return line.removeprefix("Error: ").strip()
