"""Running ``snapshot.js``, the page-side half of the provider, one evaluation per question.

Each document keeps the script (under its digest, on the symbol the script keeps its own
state on): the provider's pages are given it at every document's start
(:func:`at_document_start`), and calls send a one-line caller. A document that started
before its page was given the script answers ``false`` to the caller, and gets the whole
script in a second evaluation, which it then keeps. Calls to a page's main document go over
the DevTools protocol (:mod:`.devtools`); an iframe's through Playwright's ``evaluate``.

A page that is navigating has no document to read for a moment; an evaluation that lands in
that moment is retried once the new document exists, so an agent never sees "execution
context was destroyed" for a page that merely moved on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
from collections.abc import Awaitable, Callable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar, cast

import rjsmin

from browserhost.contract.limits import SNAPSHOT_ELEMENTS_MAX, SNAPSHOT_TEXT_MAX

from . import devtools, driver, navigation
from .errors import PAGE_ANSWER_S, PageStuckError, PageWaitingError, navigated

if TYPE_CHECKING:
    from playwright.async_api import Frame, JSHandle, Page

    Document = Page | Frame

T = TypeVar("T")

ATTEMPTS = 3
RETRY_WAIT_S = 5.0
WAITING_ANSWER_S = 2.0
"""How long a call waits for a page whose next document its server has not sent yet before
it says so: Chromium runs no script in the page meanwhile, so a longer wait only delays that."""


@cache
def source() -> str:
    """``snapshot.js`` without its comments and indentation: about half the size (310 KB
    written, 165 KB sent). Every document of the provider's pages is given the script as it
    starts, and Chromium carries it to the page and parses it on every load: when it was a
    third of its size, as written it put off the end of each document's parsing by about
    1.5 ms, minified by about 0.7 (navigation timing, medians of 150 to 300 loads)."""
    written = resources.files(__package__).joinpath("snapshot.js").read_text(encoding="utf-8")
    return rjsmin.jsmin(written)


STORE = "window[Symbol.for('browserhost')]"
"""Where ``snapshot.js`` keeps what it remembers in a document, and the document keeps it."""


@cache
def _key() -> str:
    """The script's name in a document's store: its digest, so that a document another
    version of the provider worked in is given this version's own."""
    return json.dumps("script " + hashlib.sha256(source().encode()).hexdigest()[:16])


@cache
def _keeping_statement() -> str:
    return f"({STORE} ||= {{}})[{_key()}] = ({source()})"


LISTENING_OPS = frozenset({"snapshot", "findText", "find", "fill", "typeOn"})
"""The questions that read the page's event listeners (and ``target`` with a text to type):
which elements it made clickable, whether a field's keys are listened for."""
_LISTENERS = "if (typeof getEventListeners === 'function') request.listeners = getEventListeners; "
"""Hands the script DevTools' ``getEventListeners``, where the call has it (a main document's,
see :func:`.devtools.evaluate`): the handlers a page adds with ``addEventListener``, which
its own script cannot see, tell which elements it made clickable."""


@cache
def _calling() -> str:
    """Calls the script the document keeps; ``false`` when it keeps none. Sending the whole
    script costs about 2 ms a call more than this, every call. The script answers JSON
    text: Playwright carries one string far faster than the same answer as an object it must
    walk and rebuild (a 1,000-element snapshot, 4x)."""
    return (
        f"async (request) => {{ const script = {STORE}?.[{_key()}]; {_LISTENERS}"
        "return script ? JSON.stringify(await script(request)) ?? null : false; }"
    )


@cache
def _keeping() -> str:
    """The whole script: kept in the document for the next calls, then called."""
    return (
        f"async (request) => {{ const script = {_keeping_statement()}; {_LISTENERS}"
        "return JSON.stringify(await script(request)) ?? null; }"
    )


async def run(page: Document, op: str, **arguments: object) -> Any:
    """Answer ``op`` (see ``snapshot.js``) for the page's (or frame's) current document."""
    request = {"op": op, **arguments}
    waits_s = _waits_s(request)

    # Element handles (the frames op's) travel only through Playwright's own evaluate.
    main = _main_page(page) if _plain(request) else None

    async def evaluate(function: str) -> object:
        if main is not None:
            listening = op in LISTENING_OPS or (op == "target" and "text" in arguments)
            return await devtools.evaluate(main, function, request, console_api=listening)
        return await page.evaluate(function, request)

    async def once() -> str | None:
        text = await evaluate(_calling())
        if text is False:  # a document that started before its page was given the script
            text = await evaluate(_keeping())
        return cast("str | None", text)

    text = await _retrying(page, once, waits_s)
    return None if text is None else json.loads(_whole_characters(text))


_LONE_SURROGATE = re.compile(r"(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}")
"""Half of a character in the page's JSON: ``JSON.stringify`` escapes a surrogate alone
(and only one alone) as ``\\udXXX``, after an even number of backslashes."""


def _whole_characters(text: str) -> str:
    """The page's answer with each half of a character (a page's string cut inside an emoji,
    or written so) as U+FFFD: no text holding one can be sent on as UTF-8."""
    return _LONE_SURROGATE.sub(r"\1\\ufffd", text) if "\\ud" in text else text


_LOAD_WATCH = """(() => {
  const store = window[Symbol.for("browserhost")];
  const [later, frame] = [setTimeout, requestAnimationFrame].map((native) => native.bind(window));
  // A move within the document (a step through history to a route an app pushed, another
  // fragment): the page's timers are watched from its event on, before the page's own
  // listeners, so that the wait after the step sees what the page draws a moment later.
  const moved = () => {
    try {
      store[%(key)s]({ op: "watch" }).catch(() => {});
    } catch {}
  };
  addEventListener("popstate", moved, true);
  addEventListener("hashchange", moved, true);
  // Timers of up to a second the document sets until its first frame after the load (a
  // placeholder it fills 200 ms after its load): until they have run, the page is not calm
  // (snapshot.js's `waiting`), as after a click that sets one. One such timer's handler may
  // set the next (a skeleton, then the content): followed for 2 s past that frame. A handler
  // that sets itself again as it runs (a clock, a poll) is a loop, not waited for. The watch
  // forgets every timer 3.5 s after that frame: each has run by then, unless the page kept
  // its main thread busy. Set through proxies of the browser's own functions, which read as
  // those do.
  const timers = (store.loadTimers = new Set());
  const running = new Set();
  let counting = true;
  let chainsUntil = Infinity;
  let inWatched = 0;
  store.ownTimeout = window.setTimeout; // snapshot.js's own waits are none of the page's
  window.setTimeout = new Proxy(window.setTimeout, {
    apply(set, self, args) {
      const [handler, delay] = args;
      const watched = counting || (inWatched > 0 && performance.now() < chainsUntil);
      if (!watched || typeof handler !== "function" || (Number(delay) || 0) > 1000 ||
          running.has(handler)) return Reflect.apply(set, self, args);
      const id = Reflect.apply(set, self, [function (...given) {
        timers.delete(id);
        running.add(handler);
        inWatched++;
        try {
          Reflect.apply(handler, this, given);
        } finally {
          running.delete(handler);
          inWatched--;
        }
      }, ...args.slice(1)]);
      timers.add(id);
      return id;
    },
  });
  // A timeout's id is cleared by either function, as a number or a string of one.
  for (const name of ["clearTimeout", "clearInterval"]) {
    window[name] = new Proxy(window[name], {
      apply(clear, self, args) {
        timers.delete(Number(args[0]));
        return Reflect.apply(clear, self, args);
      },
    });
  }
  addEventListener("load", () => {
    const watch = (store.afterLoad = { moved: false, looked: false });
    const changes = new MutationObserver(() => { watch.moved = true; });
    changes.observe(document, { subtree: true, childList: true, characterData: true });
    const loads = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.initiatorType !== "other")) watch.moved = true;
    });
    loads.observe({ type: "resource" });
    watch.done = new Promise((resolve) => {
      // Whether the page's first frame came before the look: on a busy machine it may come
      // later than that, and what the page does in it is then not watched.
      const look = (framed) => {
        if (watch.looked) return;
        watch.looked = true;
        counting = false;
        chainsUntil = performance.now() + 2000;
        later(() => timers.clear(), 3500);
        watch.framed = framed || document.hidden;
        changes.disconnect();
        loads.disconnect();
        resolve(watch.moved);
      };
      // A question to the page that comes in a task after the frame's callbacks ran (its
      // own) looks then (snapshot.js's `quiet`), not after the frame's paint and the tasks
      // queued before this timer's.
      watch.look = look;
      frame(() => {
        watch.drawn = true;
        later(() => look(true), 0);
      });
      // At most as long as snapshot.js's FRAME_LATE_MS, or FRAME_MS for a page not shown.
      later(() => look(false), document.hidden ? 20 : 100);
    });
  }, { once: true });
  // The top document tells the provider of its load, after the listeners its own scripts
  // added by then (as their changes show in what it tells): whether it is calm, as
  // snapshot.js's `quiet` with `early` would answer, and which document it is (its time
  // origin, epoch ms). Not by calling the kept script, whose first call compiles all of it
  // while the page waits to draw. Its elements are a part of snapshot.js's (a page with
  // only others, and no text, is judged still blank: asked, never answered too early), and
  // looked for before innerText, which lays the page out.
  const tell = window[%(binding)s];
  if (window !== top || !tell) return;
  addEventListener("DOMContentLoaded", () => addEventListener("load", () => {
    try {
      const body = document.body;
      const blank = !body || (!body.querySelector(
        "a,button,input,select,textarea,img,svg,canvas,video,iframe") && !body.innerText.trim() &&
        ![...body.querySelectorAll("*")].some((el) => el.shadowRoot));
      const busy = document.querySelector("[aria-busy=true]") !== null;
      const calm = !store.afterLoad.moved && !blank && !busy && !timers.size;
      const origin = performance.timeOrigin;
      tell(JSON.stringify({ calm, origin, url: location.href, title: document.title }));
    } catch {} // a page that broke the watch says nothing, and is asked
    // Then, the word sent, the document reads itself for the agent's first snapshot
    // (snapshot.js's readAtLoad): an agent reads a page as soon as it has opened it.
    const read = { op: "snapshot", atLoad: true, textMax: %(text)d, elementsMax: %(elements)d };
    later(() => {
      try {
        store[%(key)s](read).catch(() => {});
      } catch {}
    }, 0);
  }, { once: true }), { once: true });
})();"""

LOADED_BINDING = "__browserhostLoaded"
"""The DevTools binding a page's top document calls at its load event: whether it is calm
then, its time origin, url and title (:meth:`.Tab.told_loaded`)."""
TYPED_BINDING = "__browserhostTyped"
"""The DevTools binding a page's top document calls once text inserted into a field readied
for it is in: the field's state then, as ``state`` with ``afterInput`` answers, and the
typing's number (:meth:`.Tab.hear_typed`)."""


@cache
def at_document_start() -> str:
    """What every document of the provider's pages runs at its start (an init script).

    It keeps the page script, so that even a new document's first call sends only the caller
    (parsing an uncalled function costs the document next to nothing). And it watches, from
    the load event to the task after the next frame (100 ms at most, 20 on a hidden page, as
    ``snapshot.js``'s glance), whether the document changed or a resource finished loading
    (``afterLoad``): an ``open`` answers once its page has loaded with nothing moving, and
    its first frame after that is waited for by the next action (``quiet`` with
    ``opened``), not by the open; when the agent thinks between the two, that frame has long
    passed. A top document tells of its load itself (:data:`LOADED_BINDING`), so the open
    need not ask, and then reads itself for the agent's first snapshot (``snapshot.js``'s
    ``readAtLoad``).
    """
    watch = _LOAD_WATCH % {
        "binding": json.dumps(LOADED_BINDING),
        "key": _key(),
        "text": SNAPSHOT_TEXT_MAX,
        "elements": SNAPSHOT_ELEMENTS_MAX,
    }
    return f"{_keeping_statement()};\n{watch}"


def _waits_s(request: dict[str, Any]) -> float:
    """How long the call itself may wait in the page: its ``maxMs``, or that of the wait it
    does first (``due``, see :func:`.settle.due_frame`)."""
    due = request.get("due")
    max_ms = (due if isinstance(due, dict) else request).get("maxMs")
    return max_ms / 1000 if isinstance(max_ms, int | float) else 0.0


def _plain(value: object) -> bool:
    """Whether ``value`` is JSON all the way down (no element handles in it)."""
    if isinstance(value, dict):
        return all(_plain(item) for item in value.values())
    if isinstance(value, list | tuple):
        return all(_plain(item) for item in value)
    return value is None or isinstance(value, str | int | float | bool)


def _main_page(document: Document) -> Page | None:
    """The page whose main document ``document`` is (calls to it go over
    :mod:`.devtools`); ``None`` for an iframe's."""
    frame: type[Frame] = driver.api().Frame
    if isinstance(document, frame):
        return document.page if document.parent_frame is None else None
    return cast("Page", document)  # the other kind of document


def _page_of(document: Document) -> Page:
    """The page a document is in (an iframe's too)."""
    frame: type[Frame] = driver.api().Frame
    return document.page if isinstance(document, frame) else cast("Page", document)


STASHED = f"() => ({STORE} || {{}}).target || null"
"""The element the latest ``target`` or ``hop`` found, read without the whole script."""


async def stashed(page: Document) -> JSHandle:
    """The element the latest ``target`` or ``hop`` in this document found, as a handle."""
    return await answering(page.evaluate_handle(STASHED))


async def answering(call: Awaitable[T], waits_s: float = 0.0, answer_s: float | None = None) -> T:
    """``call``'s answer, or :class:`~.errors.PageStuckError` when the page gives none for
    ``answer_s`` (by default :data:`~.errors.PAGE_ANSWER_S`) plus ``waits_s``, what the call
    itself waits."""
    try:
        async with asyncio.timeout((PAGE_ANSWER_S if answer_s is None else answer_s) + waits_s):
            return await call
    except TimeoutError:
        raise PageStuckError() from None


async def title(page: Page) -> str:
    """The document title, waiting out a navigation like :func:`run`."""
    return await _retrying(page, page.title)


async def _retrying(page: Document, call: Callable[[], Awaitable[T]], waits_s: float = 0.0) -> T:

    attempt = 1
    while True:
        awaiting = navigation.awaited_server(_page_of(page)) is not None
        try:
            return await answering(call(), waits_s, WAITING_ANSWER_S if awaiting else None)
        except PageStuckError:
            awaited = navigation.awaited_server(_page_of(page))
            if awaited is not None:
                raise PageWaitingError(awaited.url, awaited.waited_s) from None
            if awaiting:  # its server answered just as the short wait ran out: ask again
                continue
            raise
        except driver.PlaywrightError as exc:
            if attempt >= ATTEMPTS or not navigated(str(exc)):
                raise
        attempt += 1
        await wait_for_document(page)


async def wait_for_document(page: Document) -> None:

    with contextlib.suppress(driver.PlaywrightTimeoutError):  # the retry reports what it finds
        await page.wait_for_load_state("domcontentloaded", timeout=RETRY_WAIT_S * 1000)
