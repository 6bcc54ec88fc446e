"""A text-only browser provider: pages fetched with httpx, links followed by clicking.

It shows the two things a provider package needs, and one it may offer: a
:class:`browserhost.sdk.Provider` subclass that implements the actions it supports (the host
refuses the others before sending them), and a ``register`` function named by the
``browserhost.providers`` entry point; its record asks the host to run the provider as a
service process of its own; and a :class:`browserhost.sdk.Launcher` that launches instances
of it with options of their own (``browserhost launch textbrowser --set userAgent=...``) and
changes its own settings (``browserhost configure textbrowser --set userAgent=...``).

It keeps no DOM, so its element selectors are its own names for the page's links (``link-1``,
``link-2``, ...), valid for its ``browser.click`` until the next navigation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin

import httpx
from pydantic import BaseModel, ConfigDict, Field

from browserhost.contract import Context, data
from browserhost.contract import actions as params
from browserhost.sdk import ActionError, Launcher, Provider, VerbArguments, verb
from browserhost.sdk.launching import Instance

_VIEWPORT = data.Viewport(mode="desktop", width=1280, height=800)
_SKIPPED = {"script", "style", "head", "noscript", "template"}


@dataclass
class Page:
    url: str = "about:blank"
    title: str = ""
    text: str = ""
    links: list[tuple[str, str]] = field(default_factory=list)  # (label, absolute href)


class _Reader(HTMLParser):
    """Collects the title, the visible text and the links of one HTML document."""

    def __init__(self, base: str) -> None:
        super().__init__()
        self.base, self.page = base, Page(url=base)
        self._skipping, self._in_title = 0, False
        self._href: str | None = None
        self._label: list[str] = []
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self._skipping += 1
        self._in_title = tag == "title"
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self._href, self._label = urljoin(self.base, href), []

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self._skipping = max(0, self._skipping - 1)
        if tag == "title":
            self._in_title = False
        if tag == "a" and self._href is not None:
            self.page.links.append((" ".join(self._label).strip(), self._href))
            self._href = None

    def handle_data(self, text: str) -> None:
        if self._in_title:
            self.page.title += text.strip()
        elif not self._skipping and text.strip():
            self._text.append(text.strip())
            if self._href is not None:
                self._label.append(text.strip())

    def result(self) -> Page:
        self.page.text = "\n".join(self._text)
        return self.page


@dataclass
class History:
    pages: list[Page] = field(default_factory=lambda: [Page()])
    position: int = 0

    @property
    def current(self) -> Page:
        return self.pages[self.position]


class FindArguments(VerbArguments):
    text: str = Field(min_length=1, description="Text to look for in the links' labels.")


class LaunchOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_agent: str = Field(
        "browserhost-textbrowser",
        alias="userAgent",
        title="User agent",
        description="The User-Agent its requests send.",
        max_length=200,
    )


class Settings(LaunchOptions):
    """The provider's own settings (an instance keeps the User-Agent it was launched with)."""


class TextLauncher(Launcher):
    """Launches text browsers of their own, each with its own User-Agent and histories, and
    configures the provider that runs them."""

    options = LaunchOptions
    configuration = Settings
    help = "A text browser of its own: its own User-Agent, its own histories."

    def __init__(self, provider: TextBrowser) -> None:
        self.provider = provider

    async def launch(self, browser_id: str, options: LaunchOptions) -> Provider:
        return TextBrowser(user_agent=options.user_agent)

    async def configure(self, options: Settings) -> None:
        self.provider.use_agent(options.user_agent)

    async def references(self, browser_id: str, instance: Instance) -> list[dict[str, str]]:
        assert isinstance(instance, TextBrowser)
        return [
            {"kind": "session", "id": f"{directory}|{session}", "label": f"Session {session}"}
            for directory, session in instance.sessions()
        ]


class TextBrowser(Provider):
    id = "textbrowser"
    name = "Text browser (no JavaScript)"

    def __init__(self, user_agent: str = "browserhost-textbrowser") -> None:
        self._client = httpx.AsyncClient(
            follow_redirects=True, timeout=15, headers={"User-Agent": user_agent}
        )
        self._histories: dict[tuple[str | None, str | None], History] = {}

    def launcher(self) -> Launcher:
        return TextLauncher(self)

    def use_agent(self, user_agent: str) -> None:
        self._client.headers["User-Agent"] = user_agent

    def sessions(self) -> list[tuple[str | None, str | None]]:
        return list(self._histories)

    async def aclose(self) -> None:
        await self._client.aclose()

    def _history(self, context: Context) -> History:
        return self._histories.setdefault(context.key, History())

    async def _fetch(self, url: str) -> Page:
        try:
            response = await self._client.get(url)
        except httpx.HTTPError as exc:
            raise ActionError(f"Could not load {url} ({exc}); check the address.") from exc
        if response.url.scheme not in ("http", "https"):
            raise ActionError(f"{url} redirected away from http(s), which is blocked.")
        reader = _Reader(str(response.url))
        reader.feed(response.text)
        return reader.result()

    def _visit(self, history: History, page: Page) -> None:
        del history.pages[history.position + 1 :]
        history.pages.append(page)
        history.position += 1

    async def open(self, parameters: params.OpenParameters, context: Context) -> data.OpenData:
        history = self._history(context)
        self._visit(history, await self._fetch(parameters.url))
        page = history.current
        return data.OpenData(url=page.url, title=page.title, settled=True, viewport=_VIEWPORT)

    async def snapshot(
        self, parameters: params.SnapshotParameters, context: Context
    ) -> data.SnapshotData:
        page = self._history(context).current
        elements = [
            data.Element(
                selector=_link_selector(index),
                tag="a",
                bounds=data.Bounds(x=0, y=0, width=0, height=0),
                label=label or None,
                **({} if label else {"missing_accessible_name": True}),
            )
            for index, (label, _) in enumerate(page.links)
        ]
        return data.SnapshotData(
            url=page.url, title=page.title, scope="page", scroll_y=0, max_scroll_y=0,
            text=page.text, elements=elements, viewport=_VIEWPORT,
        )  # fmt: skip

    async def click(self, parameters: params.ClickParameters, context: Context) -> data.ClickData:
        history = self._history(context)
        links = history.current.links
        if parameters.selector is not None:
            index = _link_index(parameters.selector)
            if index is None or index >= len(links):
                raise ActionError(f"No link matches {parameters.selector}; take a new snapshot.")
        else:
            found = [i for i, (label, _) in enumerate(links) if label == parameters.text]
            if len(found) != 1:
                raise ActionError(
                    f"{len(found)} links read {parameters.text!r}; click one by selector."
                )
            index = found[0]
        label, href = links[index]
        self._visit(history, await self._fetch(href))
        return data.ClickData(clicked=_link_selector(index), label=label, url=history.current.url)

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        return self._move(context, -1, "There is no earlier page to go back to.")

    async def forward(
        self, parameters: params.ForwardParameters, context: Context
    ) -> data.NavigationData:
        return self._move(context, +1, "There is no later page to go forward to.")

    @verb("Find the page's links whose label contains text, in any case.", changes_page=False)
    async def find(self, arguments: FindArguments, context: Context) -> dict[str, Any]:
        """A verb of its own: the host lists it and checks its arguments against the model."""
        wanted = arguments.text.casefold()
        links = self._history(context).current.links
        return {
            "elements": [
                {"selector": _link_selector(index), "label": label, "href": href}
                for index, (label, href) in enumerate(links)
                if wanted in label.casefold()
            ]
        }

    def _move(self, context: Context, step: int, nowhere: str) -> data.NavigationData:
        history = self._history(context)
        if not 0 < history.position + step < len(history.pages):
            raise ActionError(nowhere)
        history.position += step
        return data.NavigationData(url=history.current.url, title=history.current.title)


def _link_selector(index: int) -> str:
    return f"link-{index + 1}"


def _link_index(selector: str) -> int | None:
    number = selector.removeprefix("link-")
    return int(number) - 1 if number.isdigit() and int(number) > 0 else None


def register() -> dict[str, Any]:
    """The ``browserhost.providers`` entry point: the catalog record of a new provider.

    The host runs it as a service of its own (``python -m browserhost.sdk.service
    browserhost_textbrowser:TextBrowser``), started on the first action and stopped when idle,
    so a fault in it never takes the host down.
    """
    return TextBrowser().service_registration("browserhost_textbrowser:TextBrowser")
