"""The chromium provider: the ten browser actions on a real Chromium, through Playwright.

Each action takes the context key's tab (its own browser context and current page, see
:mod:`.contexts`), runs one at a time on that tab, and answers the contract's ``data`` model.
Elements are named by CSS selectors from the latest snapshot; an action on a selector acts only
when it matches exactly one element. Errors the agent sees say what to do differently; they are
translated from Playwright in :mod:`.errors` only.

If the browser or the page goes away while an action runs, the action raises
:class:`~.errors.BrowserGoneError` out of :meth:`ChromiumProvider.answer` (the host reports
``REQUEST_FAILED``: it may have run), and the next action relaunches the browser.
"""

from __future__ import annotations

import asyncio
import base64
import struct
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from browserhost.contract import Context, data
from browserhost.contract import actions as params
from browserhost.contract.limits import SNAPSHOT_ELEMENTS_MAX, SNAPSHOT_TEXT_MAX
from browserhost.sdk import ActionError, Provider

from . import pagescript
from .contexts import CONTEXT_IDLE_S, ContextPool, Key, Tab, allowed_url
from .errors import BrowserGoneError, playwright_errors
from .launch import ChromiumConfig, Launcher

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page


@dataclass(frozen=True)
class Timeouts:
    """How long the provider waits for the browser, in seconds; all well inside the host's
    deadlines (45 s for ``browser.open``, 20 s for the rest)."""

    act_s: float = 5.0
    """A click or a fill: for the element to be visible, stable and not covered."""
    open_commit_s: float = 25.0
    """``browser.open``: for the server to answer."""
    open_settle_s: float = 10.0
    """``browser.open``, then: for the load event; past it ``settled`` is false."""
    input_settle_s: float = 3.0
    """After a click or a submit: for a page it started to finish loading."""
    history_s: float = 10.0
    """``browser.back`` / ``browser.forward``: for the other page to start showing."""
    capture_s: float = 10.0
    """``browser.capture``: for the page to render a picture."""


TEXT_CANDIDATES_MAX = 8
"""How many candidates an ambiguous click by text lists."""

INSPECT_STYLES = (
    "display",
    "visibility",
    "opacity",
    "position",
    "z-index",
    "overflow",
    "box-sizing",
    "width",
    "height",
    "margin",
    "padding",
    "border",
    "color",
    "background-color",
    "font-family",
    "font-size",
    "font-weight",
    "line-height",
    "text-align",
    "cursor",
    "pointer-events",
)
"""The computed styles ``browser.inspect`` reports, by CSS property name, as strings."""


class ChromiumProvider(Provider):
    """A headless Chromium (or a remote one) behind all ten actions.

    The browser starts on the first action. ``config`` says where it comes from (default: the
    environment, see :class:`~.launch.ChromiumConfig`); ``timeouts`` how long it waits for
    the browser; ``idle_s`` is how long a context key's
    browser context lives unused; ``clock`` measures that idleness.
    """

    id = "chromium"
    name = "Chromium"

    def __init__(
        self,
        config: ChromiumConfig | None = None,
        *,
        timeouts: Timeouts | None = None,
        idle_s: float = CONTEXT_IDLE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = ChromiumConfig.from_env() if config is None else config
        self.timeouts = Timeouts() if timeouts is None else timeouts
        self._launcher = Launcher(self.config)
        self._pool = ContextPool(idle_s=idle_s, clock=clock)

    async def aclose(self) -> None:
        await self._pool.aclose()
        await self._launcher.aclose()

    def page_for(self, context: Context) -> Page | None:
        """The Playwright page a context key currently shows, if any (for embedders, tests)."""
        tab = self._pool.peek(context.key)
        return None if tab is None else tab.current()

    async def close_idle(self) -> list[Key]:
        """Close the context keys idle for ``idle_s`` now; the provider also does this itself
        every minute or so. Returns the keys closed."""
        return await self._pool.reap()

    async def open(self, parameters: params.OpenParameters, context: Context) -> data.OpenData:
        url, waits = parameters.url, self.timeouts
        async with self._using(context, "browser.open") as tab:
            if parameters.viewport is not None:
                page = await tab.set_viewport(parameters.viewport, reload=False)
            else:
                page = await tab.page()
            with playwright_errors(
                "browser.open",
                url=url,
                on_timeout=f"{url} did not start loading within {waits.open_commit_s:g} s; "
                "check that the site is up, then try again.",
            ):
                await _goto(page, url, waits.open_commit_s)
            settled = await _settle(page, waits.open_settle_s)
            return data.OpenData(
                url=page.url,
                title=await pagescript.title(page),
                settled=settled,
                viewport=tab.viewport(),
            )

    async def snapshot(
        self, parameters: params.SnapshotParameters, context: Context
    ) -> data.SnapshotData:
        scope = parameters.selector
        async with self._using(context, "browser.snapshot") as tab:
            page = await tab.page()
            read = await pagescript.run(
                page,
                "snapshot",
                scope=scope,
                textMax=SNAPSHOT_TEXT_MAX,
                elementsMax=SNAPSHOT_ELEMENTS_MAX,
            )
            _check_found(read, scope)
            text: str = read["text"]
            text_total: int = read["textTotalChars"]
            elements = [data.Element.model_validate(item) for item in read["elements"]]
            on_page: int = read["interactiveElementsOnPage"]
            return data.SnapshotData(
                url=read["url"],
                title=read["title"],
                scope=scope or "page",
                scroll_y=read["scrollY"],
                max_scroll_y=read["maxScrollY"],
                text=text,
                elements=elements,
                viewport=tab.viewport(),
                console_problems=tab.drain_problems(),
                text_truncated=True if text_total > len(text) else None,
                text_total_chars=text_total if text_total > len(text) else None,
                elements_truncated=True if on_page > len(elements) else None,
                interactive_elements_on_page=on_page if on_page > len(elements) else None,
            )

    async def click(self, parameters: params.ClickParameters, context: Context) -> data.ClickData:
        async with self._using(context, "browser.click") as tab:
            page = await tab.page()
            if parameters.selector is not None:
                target = await _one(page, parameters.selector)
                selector = parameters.selector
            else:
                target = await _by_text(page, parameters.text or "")
                selector = target["selector"]
            popup = _NextPopup(page) if target["opensWindow"] else None
            try:
                await self._click(tab, page, selector)
                shown = await self._shown_after_input(tab, page, popup)
            finally:
                if popup is not None:
                    popup.close()
            return data.ClickData(clicked=selector, label=target["label"], url=shown.url)

    async def type(self, parameters: params.TypeParameters, context: Context) -> data.TypeData:
        selector, value = parameters.selector, parameters.value
        async with self._using(context, "browser.type") as tab:
            page = await tab.page()
            target = await _one(page, selector)
            if not target["typable"]:
                kind = " ".join(filter(None, (target.get("type"), target["tag"])))
                raise ActionError(
                    f"{selector} is a {kind}, not a text field; use browser.click for it."
                )
            locator = page.locator(f"css={selector}")
            with playwright_errors(
                "browser.type",
                selector=selector,
                on_timeout=f"{selector} cannot be typed into (hidden, covered, disabled or "
                "read-only); take a new snapshot.",
            ):
                if target["tag"] == "select":
                    option = _option(selector, target["options"], value)
                    await locator.select_option(value=option, timeout=self.timeouts.act_s * 1000)
                else:
                    await locator.fill(value, timeout=self.timeouts.act_s * 1000)
                if parameters.submit:
                    await locator.press("Enter", timeout=self.timeouts.act_s * 1000)
            shown = page
            if parameters.submit:
                shown = await self._shown_after_input(tab, page, None)
            return data.TypeData(selector=selector, url=shown.url)

    async def scroll(
        self, parameters: params.ScrollParameters, context: Context
    ) -> data.ScrollData:
        selector = parameters.selector
        direction = None if selector is not None else parameters.direction
        async with self._using(context, "browser.scroll") as tab:
            page = await tab.page()
            moved = await pagescript.run(page, "scroll", selector=selector, direction=direction)
            _check_found(moved, selector)
            scroll_y: int = moved["scrollY"]
            max_scroll_y: int = moved["maxScrollY"]
            return data.ScrollData(
                scroll_y=scroll_y,
                max_scroll_y=max_scroll_y,
                at_top=scroll_y <= 0,
                at_bottom=scroll_y >= max_scroll_y - 1,
                scrolled_to=selector,
                direction=direction,
            )

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        async with self._using(context, "browser.back") as tab:
            page = await tab.page()
            index, urls = await tab.history()
            # The blank page every tab starts on is not a page to go back to.
            if index <= 0 or (index == 1 and urls[0] == "about:blank"):
                raise ActionError("There is no earlier page to go back to; use browser.open.")
            await self._travel(page, -1, urls[index - 1])
            return data.NavigationData(url=page.url, title=await pagescript.title(page))

    async def forward(
        self, parameters: params.ForwardParameters, context: Context
    ) -> data.NavigationData:
        async with self._using(context, "browser.forward") as tab:
            page = await tab.page()
            index, urls = await tab.history()
            if index >= len(urls) - 1:
                raise ActionError("There is no later page to go forward to.")
            await self._travel(page, +1, urls[index + 1])
            return data.NavigationData(url=page.url, title=await pagescript.title(page))

    async def inspect(
        self, parameters: params.InspectParameters, context: Context
    ) -> data.InspectData:
        selector = parameters.selector
        async with self._using(context, "browser.inspect") as tab:
            page = await tab.page()
            target = await _one(page, selector, styles=list(INSPECT_STYLES))
            return data.InspectData(
                selector=selector,
                tag=target["tag"],
                label=target["label"],
                bounds=data.Bounds.model_validate(target["bounds"]),
                in_viewport=target["inViewport"],
                styles=target["styles"],
            )

    async def capture(
        self, parameters: params.CaptureParameters, context: Context
    ) -> data.CaptureData:
        async with self._using(context, "browser.capture") as tab:
            page = await tab.page()
            with playwright_errors(
                "browser.capture",
                on_timeout=f"The page did not render a picture within "
                f"{self.timeouts.capture_s:g} s; try again.",
            ):
                png = await page.screenshot(type="png", timeout=self.timeouts.capture_s * 1000)
            width, height = png_size(png)
            return data.CaptureData(
                base64=base64.b64encode(png).decode("ascii"),
                mime="image/png",
                width=width,
                height=height,
                url=page.url,
                title=await pagescript.title(page),
                viewport=tab.viewport(),
            )

    async def resize(
        self, parameters: params.ResizeParameters, context: Context
    ) -> data.ResizeData:
        async with self._using(context, "browser.resize") as tab:
            await tab.set_viewport(parameters.viewport)
            return data.ResizeData(viewport=tab.viewport())

    async def _click(self, tab: Tab, page: Page, selector: str) -> None:
        try:
            with playwright_errors(
                "browser.click",
                selector=selector,
                on_timeout=f"{selector} is not clickable (covered or hidden); scroll or take "
                "a new snapshot.",
            ):
                await page.locator(f"css={selector}").click(timeout=self.timeouts.act_s * 1000)
        except BrowserGoneError:
            # A page that closed itself in answer to the click (window.close()) is the click
            # having happened; anything else went away under it.
            if not (page.is_closed() and _connected(tab)):
                raise

    async def _shown_after_input(self, tab: Tab, page: Page, popup: _NextPopup | None) -> Page:
        """The page the agent sees after a click or a submit, once it has loaded (bounded):
        the window a ``target=_blank`` link opened, else the tab's current page."""
        shown = tab.current() or page
        if popup is not None:
            shown = await popup.wait(self.timeouts.input_settle_s) or shown
        if not shown.is_closed():
            await _settle(shown, self.timeouts.input_settle_s)
        return shown

    async def _travel(self, page: Page, delta: int, target: str) -> None:
        """Go ``delta`` steps through history to ``target``; a page that shows up but is still
        loading when the wait ends counts as arrived."""
        from playwright.async_api import TimeoutError as PlaywrightTimeoutError

        action = "browser.back" if delta < 0 else "browser.forward"
        which = "previous" if delta < 0 else "next"
        timeout = self.timeouts.history_s * 1000
        with playwright_errors(
            action, on_timeout=f"The {which} page did not load in time; try again."
        ):
            try:
                if delta < 0:
                    await page.go_back(timeout=timeout)
                else:
                    await page.go_forward(timeout=timeout)
            except PlaywrightTimeoutError:
                if page.url != target:
                    raise

    @asynccontextmanager
    async def _using(self, context: Context, action: str) -> AsyncIterator[Tab]:
        """The context key's tab, held for one action; reports navigations it blocked."""
        browser = await self._launcher.browser()
        with playwright_errors(action):
            tab = await self._locked_tab(browser, context.key)
            tab.welcome_popups = action in ("browser.click", "browser.type")
            try:
                # Between actions, only a page left on a forbidden address matters; a blocked
                # redirect there left Chromium's error page, which the next snapshot shows.
                earlier, current = tab.take_blocked(), tab.current()
                if earlier is not None and current is not None and not allowed_url(current.url):
                    where = await _leave_blocked(tab)
                    raise ActionError(f"{earlier} The page is now {where}; {action} was not run.")
                yield tab
                blocked = tab.take_blocked()
                if blocked is not None:
                    where = await _leave_blocked(tab)
                    raise ActionError(f"{blocked} The page is now {where}.")
            finally:
                tab.take_blocked()  # already reported, or superseded by the action's own error
                self._pool.touch(tab)
                tab.lock.release()

    async def _locked_tab(self, browser: Browser, key: Key) -> Tab:
        while True:
            tab = await self._pool.tab(browser, key)
            await tab.lock.acquire()
            if not tab.closed:
                return tab
            tab.lock.release()  # reaped while we waited: take the key's new tab


def register() -> dict[str, Any]:
    """The ``browserhost.providers`` entry point: the catalog record of a Chromium provider."""
    return ChromiumProvider().registration()


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def _check_found(answer: dict[str, Any], selector: str | None) -> None:
    error = answer.get("error")
    if error == "invalid":
        raise ActionError(
            f"{selector} is not a valid CSS selector; copy a selector from the latest snapshot."
        )
    if error == "count":
        _check_count(int(answer["count"]), selector or "")


def _check_count(count: int, selector: str) -> None:
    if count == 0:
        raise ActionError(f"No element matches {selector}; take a new snapshot.")
    if count > 1:
        raise ActionError(
            f"{selector} matches {count} elements; take a new snapshot and use a selector that "
            "matches exactly one."
        )


async def _one(page: Page, selector: str, *, styles: list[str] | None = None) -> dict[str, Any]:
    """Facts about the one element ``selector`` matches; refuses none or several."""
    found = await pagescript.run(page, "describe", selector=selector, styles=styles)
    _check_found(found, selector)
    _check_count(int(found["count"]), selector)
    return found


async def _by_text(page: Page, text: str) -> dict[str, Any]:
    """The one element an agent means by ``text``: its selector, label and opensWindow."""
    found = await pagescript.run(page, "findText", text=text, limit=TEXT_CANDIDATES_MAX)
    matches: list[dict[str, Any]] = found["matches"]
    total: int = found["total"]
    if total == 0:
        raise ActionError(
            f'No visible element has the text "{text}"; take a new snapshot and click by selector.'
        )
    if total > 1:
        listed = "; ".join(f'{m["selector"]} ({m["tag"]} "{m["label"]}")' for m in matches)
        more = f"; and {total - len(matches)} more" if total > len(matches) else ""
        raise ActionError(
            f'"{text}" matches {total} elements: {listed}{more}. Nothing was clicked; click one '
            "by its selector."
        )
    return matches[0]


def _option(selector: str, options: list[dict[str, str]], wanted: str) -> str:
    """The value of the select option whose label (else value) is ``wanted``."""
    for key in ("label", "value"):
        for option in options:
            if option[key] == wanted:
                return option["value"]
    for option in options:
        if option["label"].casefold() == wanted.casefold():
            return option["value"]
    listed = ", ".join(f'"{option["label"]}"' for option in options[:20])
    raise ActionError(f'{selector} has no option "{wanted}"; its options are {listed}.')


async def _goto(page: Page, url: str, timeout_s: float) -> None:
    from playwright.async_api import Error as PlaywrightError

    try:
        await page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
    except PlaywrightError as exc:
        # Chromium shows its error page for an earlier failed load a moment later; that
        # navigation can cut into this one. The load asked for is still wanted: try once more.
        if "interrupted by another navigation" not in str(exc):
            raise
        await page.goto(url, wait_until="commit", timeout=timeout_s * 1000)


class _NextPopup:
    """The next window ``page`` opens, caught from before the click that opens it."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._opened: asyncio.Future[Page] = asyncio.get_running_loop().create_future()
        page.on("popup", self._on_popup)

    def _on_popup(self, popup: Page) -> None:
        if not self._opened.done():
            self._opened.set_result(popup)

    async def wait(self, timeout_s: float) -> Page | None:
        try:
            async with asyncio.timeout(timeout_s):
                return await asyncio.shield(self._opened)
        except TimeoutError:
            return None

    def close(self) -> None:
        self._page.remove_listener("popup", self._on_popup)
        self._opened.cancel()


def _connected(tab: Tab) -> bool:
    browser = tab.context.browser
    return browser is not None and browser.is_connected()


async def _settle(page: Page, timeout_s: float) -> bool:
    """Wait for the load event; ``False`` when it did not come in time (not an error)."""
    from playwright.async_api import TimeoutError as PlaywrightTimeoutError

    try:
        await page.wait_for_load_state("load", timeout=timeout_s * 1000)
    except PlaywrightTimeoutError:
        return False
    return True


async def _leave_blocked(tab: Tab) -> str:
    """Move off an address that must not be shown; returns where the page is now."""
    page = tab.current()
    if page is None or page.is_closed():
        return "about:blank"
    if not allowed_url(page.url):
        await page.goto("about:blank")
    return page.url
