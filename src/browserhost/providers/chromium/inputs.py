"""Input put into the page as a person would (a press of the mouse), and what an action that
did so answers: the page shown once it settled, and the acted-on element's state."""

from __future__ import annotations

import asyncio
import math
import re
from functools import partial
from typing import TYPE_CHECKING, Any

from browserhost.contract import data

from . import driver, navigation, pagescript
from .addresses import ERROR_PAGE_SCHEME
from .errors import BrowserGoneError, net_reason, playwright_errors
from .records import Settled
from .targets import named

if TYPE_CHECKING:
    from playwright.async_api import Page, Request

    from .access import TabAccess
    from .contexts import Tab
    from .targets import Target

NOT_AFTER_ACTION = frozenset({"options", "focused", "multiple"})
"""State an action's answer leaves out: the snapshot has it, and it says nothing new."""
STILL_LOADING = "The page is still loading; what it shows may change."


async def press(tab: Tab, page: Page, aimed: Target, action: str = "browser.click") -> None:
    """Press the mouse where a person would: the point :func:`.targets.target` checked is
    not covered by anything else. ``action`` names what pressed it, in errors."""
    x, y = aimed.point
    tab.pointer = (page, x, y)
    try:
        with playwright_errors(action):
            await leave_rest(page, aimed)
            # The press is answered once the page has handled it: a handler that never
            # returns leaves it unanswered.
            await pagescript.answering(page.mouse.click(x, y))
    except BrowserGoneError:
        # A page that closed itself in answer to the click (window.close()) is the click
        # having happened; anything else went away under it.
        if not (page.is_closed() and _connected(tab)):
            raise


async def leave_rest(page: Page, aimed: Target) -> None:
    """Start the mouse on its way to ``aimed``'s point where it rests, if something came
    under it there since it last moved (:attr:`.Target.rest`): a move of one pixel toward
    the point, before the move there. A hand's pointer leaves what is under it before it
    comes over anything else; a jump does not. A page that takes the pointer's first move
    after it drew something under a resting pointer for a move over that (a menu opened
    beneath it: jQuery UI's autocomplete then picks the item under the pointer, not the one
    clicked) sees the first move where the pointer was, as it would from a person. The move
    is answered once the page has handled it, at its next frame, before the move on: two
    moves sent together would reach it as one."""
    rest = aimed.rest
    if rest is None:
        return
    x, y = aimed.point
    far = math.hypot(x - rest[0], y - rest[1])
    if far > 1:
        step = rest[0] + (x - rest[0]) / far, rest[1] + (y - rest[1]) / far
        await pagescript.answering(page.mouse.move(*step))


async def after_input(
    access: TabAccess, tab: Tab, page: Page, popup: NextPopup
) -> tuple[Page, Settled]:
    """The page the agent sees after a click or a submit, once it has settled (bounded):
    the window the input opened (a ``target=_blank`` link, ``window.open`` in a handler),
    else the tab's current page."""
    wait_s = access.timeouts.input_settle_s
    shown = tab.current() or page
    if popup.expected:
        shown = await popup.wait(wait_s) or shown
    settled = Settled(done=True)
    if not shown.is_closed():
        settled = await access.settle(tab, shown)
    # The page asked for a window meanwhile: the browser told it at once, but the window
    # itself comes a moment later, after the opener may have settled.
    opened = await popup.wait(wait_s) if popup.asked() else None
    if opened is not None and opened is not shown and not opened.is_closed():
        shown = opened  # the tab shows it now: the next action acts on it
        settled = await access.settle(tab, shown)
    if popup.reused and shown is not tab.current() and not shown.is_closed():
        await tab.show(shown)  # a popup is shown as it opens; a tab open already is not
    if shown.is_closed():  # it closed itself: the page that opened it shows again
        shown = tab.current() or shown
    return shown, settled


def form_refused(settled: Settled) -> str | None:
    """What the answer says of a form the input sent that the browser's own check stopped
    (a required field left empty, an address without an @): it was not sent, and the page
    shows nothing of it but a bubble by the field that goes away. A form the browser does
    not check (novalidate) whose fields the page's script checked was stopped by the page,
    which shows its own words."""
    refused = settled.read.get("refused") if settled.read else None
    if not refused:
        return None
    name, selector = refused["field"], refused["selector"]
    field = f'"{name}" ({selector})' if name else selector
    said = f', which says "{refused["message"]}"' if refused["message"] else ""
    more = refused["more"]
    others = f" ({more} other field{'s' if more > 1 else ''} too)" if more else ""
    if refused.get("byPage"):  # novalidate: the page's script checked it, in its own words
        return (
            f"The form was not sent: the page's own check stopped it at the field {field}"
            f"{others}; the page says why beside it. Fix the field, then send the form again."
        )
    return (
        f"The form was not sent: the browser's own check stopped it at the field {field}"
        f"{said}{others}. Fix the field, then send the form again."
    )


def page_says(settled: Settled) -> str | None:
    """What the answer quotes of the words the page shows after the input that it did not show
    as the input began: an alert or a toast, a field's message from the page's own check of a
    form; and a message it showed meanwhile and took away (a toast of a moment). Without it an
    agent is told of success and learns of "Password is required" only from its next snapshot.
    A message by another field than the one typed into says whose it is. And a field typed
    into before that the page rewrote since the typing answered (as it lost focus: a date
    picker that read the text as another date), which the agent was told held what it typed."""
    read = settled.read or {}
    said, briefly, retyped = read.get("said"), read.get("saidBriefly"), read.get("retyped")
    told = [
        f"The page changed {field['selector']} after it was typed into: it holds "
        f'"{field["now"]}" now, not "{field["was"]}" (a suggestion picked, a field the '
        "page formats, or one it reads anew as it loses focus)."
        for field in (retyped if isinstance(retyped, list) else [])
        if isinstance(field, dict)
        and all(isinstance(field.get(key), str) for key in ("selector", "was", "now"))
    ]
    beside = read.get("saidBeside")
    beside = beside if isinstance(beside, dict) else {}
    if said:
        told.append("The page now shows: " + "; ".join(_quoted(text, beside) for text in said))
    if briefly:  # a toast gone by the answer
        told.append("The page showed, and took away again: " + "; ".join(f'"{t}"' for t in briefly))
    return " ".join(told) or None


def _quoted(text: str, beside: dict[str, Any]) -> str:
    """A message the page shows, and the field it is beside when that is another than the one
    typed into (a field's check as it lost the focus to this one)."""
    field = beside.get(text)
    return f'"{text}" (by {field}, another field)' if isinstance(field, str) else f'"{text}"'


def with_dialogs(tab: Tab, answer: dict[str, Any]) -> dict[str, Any]:
    """A verb's ``answer`` with the dialogs the page showed meanwhile, and how each was
    answered, as an action's answer says them."""
    dialogs = tab.take_dialogs()
    if dialogs:
        answer["dialogs"] = [
            dialog.model_dump(mode="json", exclude_none=True) for dialog in dialogs
        ]
    return answer


def notices(*said: str | None) -> str | None:
    """The notices an answer has to give, as one."""
    return " ".join(filter(None, said)) or None


NEW_TAB = (
    "The click opened a new tab, shown now (the answer's url is its page); the tabs verb "
    "switches back to the page it opened from."
)
"""What an answer says when the input opened a window, which the next actions act on."""
TAB_REUSED = (
    "The click loaded its page in another tab, one the session had open already (a link or "
    "window.open naming that window), shown now (the answer's url is its page); the tabs verb "
    "switches back to the page it was pressed on."
)
"""What an answer says when the input loaded a page into another open tab, not its own."""
CLOSED_ITSELF = (
    "The page closed itself as it was pressed (a popup's Close, window.close()); the tab shown "
    "now, whose page the answer's url is, is the one it was opened from."
)
"""What an answer says when the input made its page close, and another tab is shown."""


def opens_files(files: str) -> str:
    """What a click's answer says when it pressed a file input, or a label for one."""
    return (
        "The click opens the browser's file chooser, which takes no files from here: nothing "
        f"was chosen. Choose files with verb.upload on {files}."
    )


def partly_named(text: str | None, label: str) -> str:
    """What a click by text says when no element reads the text exactly, and it pressed the
    one whose name only holds it: the agent checks that is the one it meant."""
    return (
        f'No element reads exactly "{text}": this clicked the one whose name holds it, "{label}".'
    )


def double_only(clicked: str) -> str:
    """What a click's answer says when only a double click does anything to its element."""
    return (
        f"{clicked} listens for a double click and for no single one, so this click may have "
        f'done nothing to it; verb.mouse with action "click", selector {clicked} and '
        "clickCount 2 double-clicks it."
    )


def disabled_by_click(clicked: str) -> str:
    """What a click's answer says of an element it found enabled and left disabled: the
    state is the one after the click, not why nothing happened."""
    return (
        f"The click went in; the page disabled {clicked} after it: it takes one press, waits "
        "to be enabled again (the next step's fields filled, a request answered), or has "
        "nothing more to do (a last page's Next, a first page's Back)."
    )


def still_loading(settled: Settled, shown: Page) -> str | None:
    """What the answer says when the wait after the input ended with the page still loading
    the document it led to (its server slow, or a machine too busy to load it in time): its
    address and title are of that moment, and a snapshot later shows the page loaded."""
    if settled.done or shown.is_closed():
        return None
    read = settled.read or {}
    moved_on = read.get("url", shown.url) != shown.url  # last read in the document it left
    loading = navigation.awaited_server(shown) is not None or read.get("loading") or moved_on
    return STILL_LOADING if loading else None


def led_to(tab: Tab, settled: Settled, shown: Page) -> str | None:
    """What an answer after input says of the page the input led to, when there is
    something to say: that it could not be loaded, that it is still loading, or that it still
    waits for requests it sent."""
    return (
        load_failed(tab, shown)
        or still_loading(settled, shown)
        or still_asking(tab, settled, shown)
    )


def still_asking(tab: Tab, settled: Settled, shown: Page) -> str | None:
    """What the answer says when the wait after the input ended with requests the page sent
    still unanswered (a report its server builds for seconds, a page fetched in place of
    the one shown): what the page shows is of that moment."""
    if settled.done or shown.is_closed():
        return None
    pending = tab.pending(shown)
    if not pending:
        return None
    more = f" and {len(pending) - 1} more" if len(pending) > 1 else ""
    return (
        f"The page is still waiting for its server ({pending[0]}{more}); what it shows may "
        "change when that answers. Wait for what you expect (verb.wait_for), then take a "
        "snapshot; pressing again would ask again."
    )


def load_failed(tab: Tab, shown: Page) -> str | None:
    """What the answer says when the page the input led to could not be loaded: the address
    shown is then the browser's error page, which names neither the address nor why."""
    failed = tab.take_load_failed(shown)
    if failed is None or not shown.url.startswith(ERROR_PAGE_SCHEME):
        return None
    url, failure = failed
    code = re.search(r"ERR_[A-Z_]+", failure)
    why = net_reason(code.group(0)) if code else failure or "the browser did not say why"
    return (
        f"Could not load {url[:200]}: {why}. The page now shows the browser's error page; "
        "back returns to the page before."
    )


class NextPopup:
    """The next window ``page`` opens, caught from before the input that may open it;
    ``expected`` when the element says it opens one (a ``target=_blank`` link). A link or a
    form that names a window the session has open already loads its page there, and no
    window opens: that tab is the one caught (:attr:`reused`). (A handler's ``window.open``
    naming an open window is not told from that tab's own navigation, and is not caught.)"""

    def __init__(self, tab: Tab, page: Page, *, expected: bool) -> None:
        self._tab = tab
        self._page = page
        self.expected = expected
        self.reused = False
        self._asked_before = tab.windows_asked(page)
        self._opened: asyncio.Future[Page] = asyncio.get_running_loop().create_future()
        page.on("popup", self._on_popup)
        self._others = {
            other: partial(self._on_loading, other) for other in tab.pages() if other is not page
        }
        for other, heard in self._others.items():
            other.on("request", heard)

    def _on_popup(self, popup: Page) -> None:
        if not self._opened.done():
            self._opened.set_result(popup)

    def _on_loading(self, other: Page, request: Request) -> None:
        loads = request.is_navigation_request() and request.frame is other.main_frame
        # Another tab's own navigation (a refresh on a timer) is not the input's.
        if loads and not self._opened.done() and (self.expected or self.asked()):
            self.reused = True
            self._opened.set_result(other)

    def asked(self) -> bool:
        """Whether the page has asked for a window since (it may not be open yet)."""
        return self._opened.done() or self._tab.windows_asked(self._page) > self._asked_before

    async def wait(self, timeout_s: float) -> Page | None:
        try:
            async with asyncio.timeout(timeout_s):
                return await asyncio.shield(self._opened)
        except TimeoutError:
            return None

    def close(self) -> None:
        self._page.remove_listener("popup", self._on_popup)
        for other, heard in self._others.items():
            other.remove_listener("request", heard)
        self._opened.cancel()


def declared_fields(
    model: type[data.Data], info: dict[str, Any], *, exclude: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The page script's wire fields that ``model`` declares, and no others (the script also
    answers facts for the provider's own use: ``typable``, ``aim``, ...)."""
    wanted = {field.alias or name for name, field in model.model_fields.items()} - exclude
    return {key: value for key, value in info.items() if key in wanted}


async def state_after(
    aimed: Target, settled: Settled, shown: Page, *, label: str | None = None
) -> dict[str, Any]:
    """The acted-on element's state after the action, when it is still there; given the
    ``label`` it had before, its label now (``now_reads``) where the action changed it."""
    read = settled.read
    if read is None or aimed.located.frame is not shown.main_frame:
        read = await read_state(aimed)
    state = read.get("state") if read else None
    if not state:
        return {}
    fields = declared_fields(data.ElementState, state, exclude=NOT_AFTER_ACTION)
    now = read.get("label") if read else None
    if label is not None and now and now != label:
        fields["now_reads"] = now
    return fields


async def after_typing(
    access: TabAccess,
    tab: Tab,
    page: Page,
    aimed: Target,
    in_flight: frozenset[str],
    read: dict[str, Any] | None = None,
) -> Settled:
    """The page after text typed without a submit: read at once (or ``read``, as the page
    told it when the text went in), unless the input set the page doing something it shows
    later (a search field's debounce timer, a request for suggestions; ``in_flight``: the
    page's requests before the input), in which case once it has settled, as after a click,
    so the suggestions are in the next snapshot."""
    if read is None:
        read = await read_state(aimed, after_input=True)
    started = tab.in_flight(page) - in_flight
    if not started and not (read and read.get("waiting")):
        return Settled(done=True, read=read)
    return await access.settle(tab, page)


PRESS_ATTEMPTS = 3
"""How many times a click is aimed and pressed while the page keeps changing under the
pointer as it comes (:func:`missed_press`); each press the page would have got elsewhere
was kept from it."""


def missed_all(clicked: str, missed: dict[str, Any], attempts: int) -> str:
    """What a click answers when every press would have landed elsewhere."""
    return (
        f"{clicked} was not clicked: each time the pointer came over it ({attempts} tries), "
        f"the page changed under it, and the press would have reached {named(missed)} instead "
        "(a hover effect, an image still loading, a menu opening over it). The page got no "
        "press; take a new snapshot, then try again."
    )


def slipped_release(clicked: str) -> str:
    """What a click answers when the page moved its element away as it was pressed."""
    return (
        f"{clicked} got no click: the page moved it as it was pressed (a message shown above "
        "it as the field before lost focus, say), so the release missed it. The press itself "
        "reached the page; take a new snapshot, then click it again."
    )


async def missed_press(
    aimed: Target, settled: Settled, shown: Page, said: str = "missed"
) -> dict[str, Any] | None:
    """What a click's press would have reached instead of its element, where the page
    changed under the pointer as it came (``snapshot.js``'s press guard then kept the press
    from the page); ``None`` for a press that landed, or whose document is gone. With
    ``said="slipped"``: what its release reached instead, the element moved away as it was
    pressed."""
    read = settled.read
    if aimed.located.frame is not shown.main_frame:
        read = await read_state(aimed) if aimed.located.frame.page is shown else None
    missed = read.get(said) if read else None
    if not isinstance(missed, dict) or not all(
        isinstance(missed.get(key), str) for key in ("selector", "tag")
    ):
        return None  # none, or words the page itself put in the guard's place
    return {
        key: value[:MISSED_MAX]
        for key, value in missed.items()
        if key in ("selector", "tag", "label") and isinstance(value, str)
    }


MISSED_MAX = 200
"""The longest selector, tag or label of what a press missed for that is told: the page
script names it in fewer, and a page that writes its own words there is cut short."""


async def read_state(aimed: Target, *, after_input: bool = False) -> dict[str, Any] | None:
    """The acted-on element's state with its frame's address and title (and, ``after_input``,
    whether a timer the input set is pending); ``None`` when the frame went away."""
    frame = aimed.located.frame
    if frame.is_detached() or navigation.awaited_server(frame.page) is not None:
        return None  # gone, or held until the page's next document arrives
    try:
        read: dict[str, Any] = await pagescript.run(frame, "state", afterInput=after_input)
    except driver.PlaywrightError:
        return None
    return read


def _connected(tab: Tab) -> bool:
    browser = tab.context.browser
    return browser is not None and browser.is_connected()
