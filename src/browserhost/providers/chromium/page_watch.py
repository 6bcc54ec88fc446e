"""What a tab's pages tell while the agent works, heard from each page's start.

A page a tab adopts is watched (:meth:`PageWatch._watch`) for:

- console errors and warnings, and uncaught exceptions, of the current page (the next
  snapshot lists them), and every console message of each page (:meth:`PageWatch.console_of`);
- dialogs, answered as planned or configured, or left open for the agent;
- requests in flight, from the DevTools protocol's own events (:meth:`PageWatch.loading`),
  and each page's requests since its document loaded (:meth:`PageWatch.requests_of`);
- the word each top document sends at its load event (:meth:`PageWatch.told_loaded`);
- navigations the address policy refuses, told as one sentence (:meth:`PageWatch.take_blocked`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from browserhost.contract import data

from . import devtools, driver, navigation, pagescript
from .addresses import ERROR_PAGE_SCHEME, AddressPolicy
from .console_log import ConsoleEntry, ConsoleLog, stack_source
from .downloads import Downloads
from .errors import blocked_message
from .futures import retrieve_exception
from .launch import DialogMode
from .request_log import RequestLog

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, ConsoleMessage, Dialog, Frame, Page, Request

CONSOLE_PROBLEMS_MAX = 50
"""Console problems kept between two snapshots; older ones are dropped."""

CONSOLE_TEXT_MAX = 500
FAILED_LOAD_PREFIX = "Failed to load resource"
# Requests a page waits on before it is done changing (as the DevTools protocol names their
# types); media, beacons, websockets and event streams may never finish and hold nothing back.
AWAITED_RESOURCES = frozenset({"Document", "Fetch", "XHR", "Script", "Stylesheet"})
REQUEST_SAID_MAX = 120
"""How much of a request's address an answer quotes when the page still waits for it."""
AUTOMATIC_FAVICON_PATH = "/favicon.ico"
TOLD_GRACE_S = 0.25
"""How long after Playwright saw a page's load its document's own word of it may come (it
is sent in the load event itself); a document that says nothing by then is asked."""
TYPED_TOLD_MAX = 64 * 1024
"""The longest word of a typed field's state read (its value, label, url and title fit in a
few KB); a longer one is left unread, and the page asked."""


@dataclass(frozen=True)
class LoadAsked:
    """When a load was asked for (:meth:`PageWatch.asking_load`): the document to wait for
    starts after ``ms`` (epoch ms), and its load event is the page's ``loads``-th or later."""

    ms: float
    loads: int


def _source(message: ConsoleMessage) -> str | None:
    """``https://a.test/app.js:12``, or the resource's URL for a failed load."""
    location = message.location
    url = location.get("url") or None
    if url is None:
        return None
    line = location.get("lineNumber") or 0
    return f"{url}:{line + 1}" if line > 0 else url


def automatic_favicon(message: ConsoleMessage) -> bool:
    """A failed load of ``/favicon.ico`` at the root of a site. Chromium asks a site for it by
    itself (once per origin, for the whole browser), so the failure is the browser's, not
    the page's.

    Playwright leaves every request for a URL ending in ``/favicon.ico`` out of a page's
    network events, so the message's source URL is all there is to go by; a page that asks
    for its root ``/favicon.ico`` itself (an ``<img>``, say) loses that failure too.
    """
    if not message.text.startswith(FAILED_LOAD_PREFIX):
        return False
    source = urlsplit(message.location["url"])
    return source.path == AUTOMATIC_FAVICON_PATH and not source.query


class PageWatch:
    """What the pages of one tab tell (see the module docstring), kept until the running
    action or the next snapshot takes it.

    The base of :class:`~.tab.Tab`, which says which page is current (:meth:`current`): only
    the current page's console is heard.
    """

    downloads: Downloads
    """The tab's downloads, which hear the DevTools protocol's download events from here."""

    def __init__(
        self,
        *,
        dialogs: DialogMode = "dismiss",
        dialog_shown: asyncio.Event | None = None,
        policy: AddressPolicy | None = None,
    ) -> None:
        self.policy = AddressPolicy() if policy is None else policy
        """Which addresses the page may show."""
        self.dialog_mode: DialogMode = dialogs
        """What happens to a dialog nobody planned for (see :class:`~.launch.ChromiumConfig`)."""
        self.dialog_shown = asyncio.Event() if dialog_shown is None else dialog_shown
        """Set while a dialog is left open (``ask`` mode): the page is stopped until it is
        answered, and so is whatever action was running on it."""
        self.opened: str | None = None
        """The address the last ``open`` asked for."""
        self.failed_open: str | None = None
        """The address of the last ``open`` whose load failed: its answer said so, and
        Chromium may tell of that failed request late, while the next action runs."""
        self.held: Dialog | None = None
        """The dialog left open for the agent, in ``ask`` mode."""
        self.behind: asyncio.Future[Any] | None = None
        """The action that was running when :attr:`held` showed; it goes on once it is
        answered."""
        self.acting = False
        """True while an action runs: a dialog then is reported in its answer."""
        self.dialog_plan: tuple[bool, str | None] | None = None
        """How to answer the next dialog (accept?, prompt text), set by the dialog verb;
        without one, dialogs are dismissed."""
        self._problems: deque[tuple[data.ConsoleProblem, bool]] = deque(maxlen=CONSOLE_PROBLEMS_MAX)
        """For the next snapshot, each with whether the current page's document said it
        itself (its console, its uncaught errors): those go when another document comes."""
        self._blocked: str | None = None
        # Requests in flight: id, and the method and url with the document loader they are for.
        self._loading: dict[Page, dict[str, tuple[str, str]]] = {}
        self._loads: dict[Page, int] = {}  # documents each page loaded
        self._load_events: dict[Page, int] = {}  # load events of each page's main frame
        self._moves: dict[Page, int] = {}  # navigations of each page's frames, of any kind
        self._windows_asked: dict[Page, int] = {}  # windows each page asked the browser for
        self._load_failed: dict[Page, tuple[str, str]] = {}  # address, net::ERR_... of each
        self._preparing: dict[Page, asyncio.Task[None]] = {}
        self._loaded = asyncio.Event()
        self._told: dict[Page, dict[str, Any]] = {}  # each page's latest word at a load event
        self._told_more = asyncio.Event()
        self._typed: dict[Page, tuple[int, asyncio.Future[dict[str, Any]]]] = {}
        self._dialogs: list[data.Dialog] = []
        self._cancelled_unasked: str | None = None  # a confirm or prompt no plan answered
        self._requests: dict[Page, RequestLog] = {}
        self._console: dict[Page, ConsoleLog] = {}

    def current(self) -> Page | None:
        """The current page without opening one (for callers that only look)."""
        raise NotImplementedError

    def drain_problems(self) -> list[data.ConsoleProblem]:
        problems = [problem for problem, _ in self._problems]
        self._problems.clear()
        return problems

    def _on_document(self, page: Page, navigated: dict[str, Any]) -> None:
        """``Page.frameNavigated``, a new document (one in the same document is told
        otherwise): what the current page's last document said is not this one's."""
        frame = navigated["frame"]
        if frame.get("parentId") is not None:
            return
        self._drop_earlier_requests(page, str(frame.get("loaderId")))
        if self.current() is page:
            kept = [(problem, said) for problem, said in self._problems if not said]
            self._problems.clear()
            self._problems.extend(kept)

    def _drop_earlier_requests(self, page: Page, loader: str) -> None:
        """Forget the requests in flight of the documents the page's new one replaced (the
        new document's own request is its loader's): Chromium does not always tell of their
        end (a document still streaming its body when the next one came), and the new page
        does not wait for them, nor is it said to wait for their server."""
        waiting = self._loading.get(page)
        if not waiting:
            return
        for request_id, (_, by) in list(waiting.items()):
            if by != loader:
                del waiting[request_id]
                navigation.server_answered(page, request_id)
        if not waiting:
            self._loaded.set()

    def requests_of(self, page: Page) -> RequestLog:
        """The page's requests (the ``network`` verb reads them)."""
        return self._requests.setdefault(page, RequestLog())

    def console_of(self, page: Page) -> ConsoleLog:
        """The page's console messages and uncaught errors (the ``console`` verb reads them)."""
        return self._console.setdefault(page, ConsoleLog())

    def take_dialogs(self) -> list[data.Dialog] | None:
        """The dialogs shown since the action began, or ``None``."""
        dialogs, self._dialogs = self._dialogs, []
        return dialogs or None

    def take_cancelled(self) -> str | None:
        """What the answer says of a confirm or prompt dismissed since the action began
        because nothing said how to answer it: the page took it as Cancel, which an agent
        reading "dismissed" may not know it can change."""
        kind, self._cancelled_unasked = self._cancelled_unasked, None
        if kind is None:
            return None
        return (
            f"The page asked a question (a {kind}) and got Cancel, the answer given when the "
            "dialog verb has not said otherwise: what it did next is what it does on Cancel. "
            "To answer OK, call the dialog verb with accept true, then do this again."
        )

    def take_held(self) -> tuple[Dialog, asyncio.Future[Any] | None]:
        """The dialog left open, and the action it stopped, for the agent to answer."""
        held, behind = self.held, self.behind
        assert held is not None
        self.held = self.behind = None
        self.dialog_shown.clear()
        return held, behind

    def take_blocked(self) -> str | None:
        """The blocked navigation since the last call, as a sentence, or ``None``."""
        blocked, self._blocked = self._blocked, None
        return blocked

    def loading(self, page: Page) -> int:
        """How many of the page's own requests are in flight (see :data:`AWAITED_RESOURCES`)."""
        return len(self._loading.get(page, ()))

    def in_flight(self, page: Page) -> frozenset[str]:
        """The ids of the page's own requests in flight (:meth:`loading`)."""
        return frozenset(self._loading.get(page, ()))

    def pending(self, page: Page) -> list[str]:
        """The page's own requests in flight, each as its method and address."""
        return [what for what, _ in self._loading.get(page, {}).values()]

    async def network_quiet(self, page: Page, timeout_s: float) -> bool:
        """Wait (bounded) until none of the page's requests is in flight."""
        try:
            async with asyncio.timeout(timeout_s):
                while self.loading(page):
                    self._loaded.clear()
                    await self._loaded.wait()
        except TimeoutError:
            return False
        return True

    def asking_load(self, page: Page) -> LoadAsked:
        """Mark a load about to be asked for, for :meth:`told_loaded` to wait on."""
        return LoadAsked(ms=time.time() * 1000, loads=self._load_events.get(page, 0) + 1)

    async def told_loaded(self, page: Page, asked: LoadAsked, timeout_s: float) -> Any:
        """What the page's document loaded since ``asked`` told at its load event
        (:data:`.pagescript.LOADED_BINDING`), waiting up to ``timeout_s``; ``None`` when it
        did not load by then, or did not tell within :data:`TOLD_GRACE_S` of the load
        Playwright saw. The time origin tells the document waited for from an earlier one
        whose load came late. Both are heard as they come, from events the page sends anyway:
        a Playwright wait for the load costs two more messages each way to its driver."""

        async def heard(news: Callable[[], Any]) -> Any:
            while not page.is_closed():
                if (found := news()) is not None:
                    return found
                self._told_more.clear()
                await self._told_more.wait()
            return None

        def told() -> Any:
            news = self._told.get(page)
            return news if news is not None and news["origin"] >= asked.ms else None

        async def silent() -> None:
            await heard(lambda: self._load_events.get(page, 0) >= asked.loads or None)
            await asyncio.sleep(TOLD_GRACE_S)

        telling, loading = asyncio.ensure_future(heard(told)), asyncio.ensure_future(silent())
        try:
            await asyncio.wait(
                (telling, loading), timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            for task in (telling, loading):
                task.cancel()
                task.add_done_callback(retrieve_exception)
        return telling.result() if telling.done() and not telling.cancelled() else None

    def _watch(self, page: Page) -> None:
        page.on("console", lambda message: self._on_console(page, message))
        page.on("pageerror", lambda error: self._on_page_error(page, error))
        page.on("framenavigated", lambda frame: self._on_navigated(page, frame))
        page.on("load", lambda _: self._on_load(page))
        page.on("crash", lambda _: navigation.server_forgotten(page))
        page.on("requestfailed", lambda request: self._on_request_failed(page, request))
        page.on("dialog", self._on_dialog)
        preparing = asyncio.get_running_loop().create_task(self._prepare(page))
        # A page that closed at once is not prepared.
        preparing.add_done_callback(retrieve_exception)
        self._preparing[page] = preparing

    async def _prepared(self, page: Page) -> None:
        """Wait for the page's preparing (:meth:`_prepare`) to end, the first time it is used."""
        preparing = self._preparing.pop(page, None)
        if preparing is not None:
            with contextlib.suppress(driver.PlaywrightError):  # it closed already: found next time
                await preparing

    def _forget(self, page: Page) -> None:
        """Drop what was heard of a page that closed; the waits on it end."""
        if self.held is not None and self.held.page is page:
            self.held = None  # it went with its page; the action it held goes on
            self.dialog_shown.clear()
        preparing = self._preparing.pop(page, None)
        if preparing is not None:
            preparing.cancel()
        self._loading.pop(page, None)
        self._loads.pop(page, None)
        self._moves.pop(page, None)
        self._windows_asked.pop(page, None)
        self._load_failed.pop(page, None)
        self._load_events.pop(page, None)
        self._loaded.set()
        self._told.pop(page, None)
        self._told_more.set()
        self._typed.pop(page, None)
        self._requests.pop(page, None)
        self._console.pop(page, None)

    async def _prepare(self, page: Page) -> None:
        """Ready a page before its first action (a popup too): give it the script each of its
        documents runs at its start (:func:`.pagescript.at_document_start`) and the binding
        through which they tell of their load (:meth:`told_loaded`), and count its requests
        in flight from the DevTools protocol's own events.

        Playwright's request events would do, but a page that listens to them keeps every
        request and response it ever made (in the host and in Playwright's driver) until it
        closes: memory that grows with every action in a long session. Failed requests are
        few, so Playwright still reports those (a blocked redirect). Playwright's own
        ``expose_binding`` would do for the load too, but it answers each call with another
        evaluation in the page, just when the page draws its first frame; a protocol binding
        answers nothing (and needs the ``Runtime`` domain on).
        """
        await page.add_init_script(pagescript.at_document_start())

        async def watching(session: CDPSession) -> None:
            # A session that replaces one that broke off never hears of requests that were
            # in flight on the old one: the count starts again.
            self._loading.pop(page, None)
            self._loaded.set()
            devtools.listen(
                session, "Runtime.bindingCalled", lambda called: self._on_told(page, called)
            )
            await session.send("Runtime.enable")
            await asyncio.gather(
                *(
                    session.send("Runtime.addBinding", {"name": name})
                    for name in (pagescript.LOADED_BINDING, pagescript.TYPED_BINDING)
                )
            )
            tree = await session.send("Page.getFrameTree")
            main = tree["frameTree"]["frame"]["id"]
            devtools.listen(
                session,
                "Network.requestWillBeSent",
                lambda sent: self._on_request(page, sent, main),
            )
            devtools.listen(
                session,
                "Network.responseReceived",
                lambda got: navigation.server_answered(page, got["requestId"]),
            )
            devtools.listen(
                session, "Network.loadingFinished", lambda done: self._on_request_done(page, done)
            )
            devtools.listen(
                session, "Network.loadingFailed", lambda fail: self._on_request_done(page, fail)
            )
            requests = self.requests_of(page)
            devtools.listen(
                session, "Network.requestWillBeSent", lambda sent: requests.sent(sent, main)
            )
            devtools.listen(session, "Network.responseReceived", requests.answered)
            devtools.listen(session, "Network.loadingFinished", requests.finished)
            devtools.listen(session, "Network.loadingFailed", requests.failed)
            # The events only: by default Chromium keeps a copy of each document's and each
            # fetch's body for every session that enables Network (up to 200 MB a page),
            # which nothing reads through this session (Playwright reads bodies through its
            # own). Measured: 20 sessions each fetching 220 KB of JSON 11 times took 1.3 to
            # 2.7 MiB less a session in Chromium (medians of 6 and of 3 runs).
            await session.send(
                "Network.enable", {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0}
            )
            devtools.listen(
                session, "Page.frameNavigated", lambda moved: self._on_document(page, moved)
            )
            devtools.listen(session, "Page.downloadWillBegin", self.downloads.began)
            devtools.listen(session, "Page.downloadProgress", self.downloads.progressed)
            devtools.listen(session, "Page.windowOpen", lambda _: self._on_window_asked(page))
            await session.send("Page.enable")  # for the download, new document, window events

        await devtools.watch(page, watching)
        if page.url.startswith(ERROR_PAGE_SCHEME):
            # A window whose first load failed before it could be listened to: one blocked
            # in the network stack is told as :meth:`_on_request_failed` tells the others.
            history = await devtools.ask_page(page, "Page.getNavigationHistory")
            failed = str(history["entries"][history["currentIndex"]]["url"])
            why = self.policy.own_refusal(failed)
            if why is not None:
                self._blocked = blocked_message(f"The page navigated to {failed[:200]}", why)

    def _warn(self, text: str) -> None:
        """Tell the agent in the next snapshot."""
        warning = data.ConsoleProblem(level="warning", text=text[:CONSOLE_TEXT_MAX])
        self._problems.append((warning, False))

    def hear_typed(self, page: Page, typing: int) -> asyncio.Future[dict[str, Any]]:
        """What the page tells of the field readied for typing ``typing`` once the text is in
        (:data:`.pagescript.TYPED_BINDING`); it is heard only until the next call."""
        heard = asyncio.get_running_loop().create_future()
        self._typed[page] = (typing, heard)
        return heard

    def _on_told(self, page: Page, called: dict[str, Any]) -> None:
        if called["name"] == pagescript.LOADED_BINDING:
            self._told[page] = json.loads(called["payload"])
            self._told_more.set()
        elif called["name"] == pagescript.TYPED_BINDING:
            typing, heard = self._typed.get(page, (None, None))
            payload = called["payload"]
            # The page can call the binding itself: only the word awaited is read, and only
            # one of a state's size.
            if heard is None or heard.done() or len(payload) > TYPED_TOLD_MAX:
                return
            with contextlib.suppress(ValueError):
                told = json.loads(payload)
                if isinstance(told, dict) and told.get("typing") == typing:
                    heard.set_result(told)

    def _on_console(self, page: Page, message: ConsoleMessage) -> None:
        if not automatic_favicon(message):
            entry = ConsoleEntry(message.type, message.text[:CONSOLE_TEXT_MAX], _source(message))
            self.console_of(page).add(entry)
        if (
            self.current() is page
            and message.type in ("error", "warning")
            and not automatic_favicon(message)
        ):
            level = "error" if message.type == "error" else "warning"
            text, source = message.text[:CONSOLE_TEXT_MAX], _source(message)
            self._problems.append(
                (data.ConsoleProblem(level=level, text=text, source=source), True)
            )

    def _on_page_error(self, page: Page, error: driver.PlaywrightError) -> None:
        text = f"Uncaught {error.name or 'Error'}: {error.message}"[:CONSOLE_TEXT_MAX]
        self.console_of(page).add(ConsoleEntry("error", text, stack_source(error.stack)))
        if self.current() is page:
            self._problems.append((data.ConsoleProblem(level="error", text=text), True))

    async def _on_dialog(self, dialog: Dialog) -> None:
        """Leaving a page is allowed; any other dialog is answered as the agent planned with
        the dialog verb, else as the user configured: dismissed, accepted, or left open for
        the agent. The action's answer (or the next snapshot) says which."""
        if dialog.type == "beforeunload":  # the agent's plan is for the next real dialog
            with contextlib.suppress(driver.PlaywrightError):
                await dialog.accept()
            self._warn(
                "The page asked whether to leave it (it may have had unsaved changes); it was left."
            )
            return
        plan, self.dialog_plan = self.dialog_plan, None
        if plan is None and self.dialog_mode == "ask":
            self.held = dialog
            self.dialog_shown.set()
            self._note_dialog(dialog, "open")
            return
        accept, text = plan if plan is not None else (self.dialog_mode == "accept", None)
        answer: Literal["accepted", "dismissed"] = "accepted" if accept else "dismissed"
        entered = None
        if accept and dialog.type == "prompt":
            entered = text if text is not None else dialog.default_value
        with contextlib.suppress(driver.PlaywrightError):  # the page may be gone already
            if accept:
                await dialog.accept(entered or "")
            else:
                await dialog.dismiss()
        if plan is None and not accept and dialog.type in ("confirm", "prompt") and self.acting:
            self._cancelled_unasked = dialog.type
        self._note_dialog(dialog, answer, entered)

    def _note_dialog(
        self,
        dialog: Dialog,
        answer: Literal["accepted", "dismissed", "open"],
        entered: str | None = None,
    ) -> None:
        """Tell the agent: in the running action's answer, else in the next snapshot."""
        message = dialog.message[:CONSOLE_TEXT_MAX]
        if self.acting:
            kind = dialog.type if dialog.type in ("alert", "confirm", "prompt") else "alert"
            said = data.Dialog(type=kind, message=message, answer=answer, text=entered)
            self._dialogs.append(said)
            return
        if answer == "open":
            self._warn(held_notice(dialog))
        else:
            with_text = f' (answered "{entered}")' if entered is not None else ""
            self._warn(f"{answer.capitalize()} {_a(dialog.type)} dialog: {message}{with_text}")

    def _on_request(self, page: Page, sent: dict[str, Any], main_frame: str) -> None:
        kind = sent.get("type")
        if kind == "Document":
            # An iframe's own document may load in a process of its own, which reports its
            # end elsewhere; the page's load event waits for it anyway.
            if sent.get("frameId") != main_frame:
                return
            navigation.server_asked(page, sent["requestId"], str(sent["request"]["url"]))
        # A worker's own script (a Worker made from a URL or a blob) is fetched for the
        # worker, which alone hears its end: sent with no loader of the page's, it is no
        # request the page waits on.
        if kind in AWAITED_RESOURCES and sent.get("loaderId"):
            asked = sent.get("request") or {}
            what = f"{asked.get('method', 'GET')} {str(asked.get('url', ''))[:REQUEST_SAID_MAX]}"
            loader = str(sent.get("loaderId"))
            self._loading.setdefault(page, {})[sent["requestId"]] = (what, loader)

    def _on_request_done(self, page: Page, event: dict[str, Any]) -> None:
        navigation.server_answered(page, event["requestId"])
        waiting = self._loading.get(page)
        if waiting is not None and event["requestId"] in waiting:
            del waiting[event["requestId"]]
            if not waiting:
                self._loaded.set()

    def windows_asked(self, page: Page) -> int:
        """How many windows the page has asked the browser for (``window.open``, a link or a
        form that targets a new one). Chromium tells it as the page asks, some tens of ms
        before Playwright's ``popup`` event, which waits for the new window to be ready."""
        return self._windows_asked.get(page, 0)

    def _on_window_asked(self, page: Page) -> None:
        self._windows_asked[page] = self._windows_asked.get(page, 0) + 1

    def moves(self, page: Page) -> int:
        """How many times a frame of the page navigated, within its document or to another
        (each may change its session history)."""
        return self._moves.get(page, 0)

    def _on_navigated(self, page: Page, frame: Frame) -> None:
        self._moves[page] = self._moves.get(page, 0) + 1
        if frame is not page.main_frame:
            return
        self._loads[page] = self._loads.get(page, 0) + 1
        self.console_of(page).loaded()
        why = self.policy.refusal(frame.url)
        # A failed request may have told it first, and better (a redirect names where from):
        # its event and this one come in either order.
        if why is not None and self._blocked is None:
            self._blocked = blocked_message(f"The page navigated to {frame.url[:200]}", why)

    def _on_load(self, page: Page) -> None:
        self._load_events[page] = self._load_events.get(page, 0) + 1
        self._told_more.set()

    def _on_request_failed(self, page: Page, request: Request) -> None:
        if request.url in (self.opened, self.failed_open):
            return  # the open reports its own failed load; its event may come late
        failure = request.failure or ""
        top = _top_navigation(page, request)
        own = self.policy.own_refusal(request.url) if top else None
        if own is not None:
            # Blocked in the network stack (:mod:`.own_address`), which leaves Chromium's
            # error page: say why instead.
            came = request.redirected_from
            what = f"The page navigated to {request.url[:200]}"
            if came is not None:
                what = f"{came.url[:200]} redirected to {request.url[:200]}"
            self._blocked = blocked_message(what, own)
        elif "ERR_UNSAFE_REDIRECT" in failure and top:
            self._blocked = blocked_message(
                f"{request.url[:200]} redirected to an address that is not http or https"
            )
        elif top:
            self._load_failed[page] = (request.url, failure)

    def take_load_failed(self, page: Page) -> tuple[str, str] | None:
        """The address the page last failed to load as its document, and Chromium's
        ``net::ERR_...`` for it (a link to a server that is down), if it has not been taken."""
        return self._load_failed.pop(page, None)


def _top_navigation(page: Page, request: Request) -> bool:

    if not request.is_navigation_request():
        return False
    try:
        return request.frame is page.main_frame
    except driver.PlaywrightError:
        return True  # a window's first load, sent before its frame existed


def _a(kind: str) -> str:
    return f"an {kind}" if kind == "alert" else f"a {kind}"


def held_notice(dialog: Dialog) -> str:
    """What the agent is told about a dialog left open for it."""
    return (
        f"{_a(dialog.type).capitalize()} dialog is open and holds the page: "
        f"{dialog.message[:CONSOLE_TEXT_MAX]!r}. Answer it with the dialog verb (accept or "
        "dismiss); nothing else runs until then."
    )
