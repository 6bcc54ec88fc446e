// The verbs beyond the ten: hover, drag, select_text and mouse, as the chromium provider
// answers them, with the mouse as a person does (CDP Input events, trusted).

import { awaiting, cdp, fatal, mainPlace, pointers } from "./cdp.js";
import {
  CHANGED_NOTHING, DRAG_SCHEMA, HOP, HOVER_HELP, HOVER_SCHEMA, MOUSE_HELP, MOUSE_SCHEMA,
  RESIZED_BY_CORNER, SELECT_TEXT_SCHEMA, SELECTED_INSTEAD,
} from "./contract.js";
import { childFrames, locate } from "./frames.js";
import { pageDragStarted, pageSelected, pageTextRange, pageUnder, pageWatchDragStart } from "./in_page.js";
import { link } from "./link.js";
import { evaluate, page, settle, shownAfter } from "./page.js";
import { holding, MODIFIER_BITS } from "./key_verbs.js";
import { drags } from "./page_events.js";
import {
  DRAGGING, DROPPING, HOVERING, Refusal, checkDroppable, checkFound, mouseWords,
} from "./refusals.js";
import { sleep, stops, until } from "./stopping.js";
import { byText, leaveRest, target } from "./targets.js";

// Their arguments are the Python ones (providers/pointer_verbs.py, through contract.js).
export const VERBS = [
  { name: "hover", description: HOVER_HELP, inputSchema: HOVER_SCHEMA, changesPage: true },
  {
    name: "drag",
    description: "Drag an element (selector or text) onto another (toSelector or toText) or by " +
      "an offset, with the mouse as a person does: HTML5 drag and drop, sortable lists, " +
      "sliders. Answers where the pointer started and ended and what was under it there; for " +
      "a slider, the value it was left at.",
    inputSchema: DRAG_SCHEMA,
    changesPage: true,
  },
  {
    name: "select_text",
    description: "Select a text with the mouse as a person does (its first occurrence on the " +
      "page, or inside an element), for pages that act on a selection: highlight, comment, quote.",
    inputSchema: SELECT_TEXT_SCHEMA,
    changesPage: true,
  },
  { name: "mouse", description: MOUSE_HELP, inputSchema: MOUSE_SCHEMA, changesPage: true },
];
// Moves between the press and the release: libraries that start a drag past a threshold, or
// on the second move, see the pointer travel.
const DRAG_STEPS = 10;
const REST_FRAMES = 3; // the chromium provider's pointer.py REST_FRAMES
const SELECT_STEPS = 5;
// How long Chrome may take to hand over a drag the page started (Input.dragIntercepted).
const DRAG_HANDOVER_MS = 2000;
const UNDER_LABEL_MAX = 60; // snapshot.js's describeCover
const PRESS = { button: "left", buttons: 1, clickCount: 1 };
const HELD = { button: "left", buttons: 1 };
const RELEASE = { button: "left", buttons: 0, clickCount: 1 };

const given = (value) => value !== undefined && value !== null;
const rounded = ({ x, y }) => ({ x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 });
const between = (from, to, part) =>
  ({ x: from.x + (to.x - from.x) * part, y: from.y + (to.y - from.y) * part });

/** `fn`, a function of in_page.js, called in a frame with the page script and `args` (a
 * function among them passed as its source); its JSON answer. */
function inPage(place, fn, ...args) {
  const passed = args.map((arg) => (typeof arg === "function" ? `(${arg})` : JSON.stringify(arg)));
  return evaluate(place, `(${fn})(${[link.pageScript, ...passed].join(", ")})`);
}

/** What is drawn at a page point, asked in the frame of `place`. */
async function underAt(place, point) {
  return named(place, await inPage(place, pageUnder, point.x - place.x, point.y - place.y));
}

/** pageUnder's answer in `place`, as the agent reads it: its selector steps into the frame. */
function named(place, under) {
  if (!under) return null;
  const out = { ...under, selector: place.prefix + under.selector };
  if (out.label && out.label.length > UNDER_LABEL_MAX) {
    out.label = `${out.label.slice(0, UNDER_LABEL_MAX - 1)}…`;
  }
  return out;
}

async function viewSize(tabId) {
  const { cssVisualViewport: view } = await cdp(tabId, "Page.getLayoutMetrics");
  return { width: view.clientWidth, height: view.clientHeight };
}

export async function drag(tabId, { selector, text, toSelector, toText, offsetX, offsetY, at }) {
  if (given(selector) === given(text)) {
    throw new Refusal("Give selector or text (one of them) for what to drag; nothing was dragged.");
  }
  const offset = given(offsetX) || given(offsetY);
  if (given(toSelector) + given(toText) + offset !== 1) {
    throw new Refusal("Give one destination: toSelector, toText, or an offset (offsetX, " +
      "offsetY); nothing was dragged.");
  }
  if (offset && given(at) && at !== "center") {
    throw new Refusal("at places the drop on an element: give toSelector or toText; nothing " +
      "was dragged.");
  }
  const chosen = selector || await byText(tabId, text, DRAGGING);
  const checks = { fresh: !given(selector), done: "dragged" };
  // Aimed first to bring it into view: the drop point is read in the view the drag sees.
  let { info, located } = await target(tabId, chosen, "click", checks);
  let from = { x: located.x + Number(info.aim.x), y: located.y + Number(info.aim.y) };
  let to;
  let toPlace = located;
  let via = null;
  if (offset) {
    const view = await viewSize(tabId);
    to = { x: from.x + Number(offsetX || 0), y: from.y + Number(offsetY || 0) };
    if (to.x < 0 || to.y < 0 || to.x >= view.width || to.y >= view.height) {
      throw new Refusal(`Dragging ${chosen} by that offset would end at (${Math.round(to.x)}, ` +
        `${Math.round(to.y)}), outside the ${view.width}x${view.height} view, so nothing was ` +
        "dragged; use a smaller offset, or scroll first.");
    }
  } else {
    // A text names the item it labels (a tile, not its label): snapshot.js's dropItem.
    const destination = toSelector || await byText(tabId, toText, DROPPING, { drop: true });
    ({ point: to, place: toPlace, via } = await dropPoint(
      tabId, chosen, located, destination, { fresh: given(toText), at: at || "center" },
    ));
  }
  const startUnder = await underAt(located, from);
  // Whether a drag the browser carries begins, and its drop is taken (snapshot.js).
  await page(located, "watchDrag", {});
  // Checked again, the page's timers watched from here: the wait after the drop waits for
  // what the drop sets off (the reads above would have ended the watch).
  ({ info, located } = await target(tabId, chosen, "click", { ...checks, watch: true }));
  const press = { x: located.x + Number(info.aim.x), y: located.y + Number(info.aim.y) };
  if (offset) to = { x: to.x + press.x - from.x, y: to.y + press.y - from.y };
  from = press;
  to = await dragAlong(tabId, located, from, to, via);
  const settled = await settle(tabId);
  const shown = await shownAfter(tabId, settled);
  // A document the drop replaced, or a frame it removed, tells nothing.
  const ended = await page(located, "dragEnded", {}).catch(() => ({})) || {};
  if (ended.started && !ended.dropped && ended.effect === "none") {
    const onto = toSelector || (given(toText) ? `"${toText}"` : "the drop point");
    throw new Refusal(`${chosen} was dragged, but the page did not take it where it was dropped, ` +
      `on ${onto}: the drag ended with nothing dropped, so nothing moved. Drop it on an element ` +
      "that takes it (take a new snapshot to see where it is now).");
  }
  // A slider dragged: the value it was left at (the chromium provider's drag).
  const now = (settled && settled.state) || {};
  const slider = info.type === "range" || info.role === "slider" || info.knob;
  // The page showed no change at all (the chromium provider's changed_nothing).
  const still = ended.still && CHANGED_NOTHING.replace("{selector}", chosen)
    .replace("{instead}", ended.selected ? SELECTED_INSTEAD.replace("{selected}", ended.selected) : "")
    .replace("{resize}", info.tag === "textarea" ? RESIZED_BY_CORNER : "");
  const notice = [shown.notice, still].filter(Boolean).join(" ");
  return {
    dragged: chosen, label: info.label,
    start: { ...rounded(from), under: startUnder },
    end: { ...rounded(to), under: await underAt(toPlace, to) },
    ...(slider && "value" in now ? { value: now.value } : {}),
    ...shown,
    ...(notice ? { notice } : {}),
  };
}

/** Where to release what is dragged (`chosen`, in `dragged`'s frame) on `destination`, as
 * the chromium provider's _drop_point finds it (snapshot.js's dropTarget), and the place of
 * its frame; for `at` before or after, `via`: where on it to pass first, and where to
 * release once there. Refuses a drop a person could not make. */
async function dropPoint(tabId, chosen, dragged, destination, { fresh, at }) {
  const located = await locate(tabId, destination);
  if (located.prefix !== dragged.prefix) {
    throw new Refusal(`${destination} is in another frame than ${chosen}, so nothing was ` +
      "dragged; drag within one frame.");
  }
  const found = await page(located, "dropTarget", { selector: located.selector, fresh, at });
  checkFound(found, destination);
  checkDroppable(chosen, destination, found);
  const point = { x: located.x + found.to.x, y: located.y + found.to.y };
  if (!found.via) return { point, place: located, via: null };
  // As the element is drawn once the drag passed `via` (a sortable list moved it).
  const placed = async () => {
    const now = await page(located, "redrop", { at, across: found.across });
    return now.gone ? point : { x: located.x + now.to.x, y: located.y + now.to.y };
  };
  return { point, place: located, via: { x: located.x + found.via.x, y: located.y + found.via.y, placed } };
}

/** Resolves once the page has drawn its next frame. */
const pageNextFrame = () => new Promise((drawn) => requestAnimationFrame(() => drawn()));

/** Press at `from`, move to `to` in steps, release there; or move to `via` first, and release
 * where its `placed` says once there. Where it released. Mouse events alone never run the
 * browser's own drag and drop: a drag the page starts is taken over from Chrome
 * (Input.setInterceptDrags) and carried on with drag events, as Playwright does. */
async function dragAlong(tabId, located, from, to, via = null) {
  await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", ...from });
  await inPage(located, pageWatchDragStart);
  let handOver;
  const handed = new Promise((resolve) => { handOver = resolve; });
  drags.set(tabId, handOver);
  let data = null;
  let dropped = false;
  await cdp(tabId, "Input.setInterceptDrags", { enabled: true });
  try {
    await cdp(tabId, "Input.dispatchMouseEvent", { type: "mousePressed", ...from, ...PRESS });
    const moved = async (start, end) => {
      for (let step = 1; step <= DRAG_STEPS; step += 1) {
        // A frame drawn between moves: the page's own drag and drop hands a list its
        // dragover once a frame, and a list sorted by it (SortableJS) moved the item one
        // place for a whole drag's moves sent at once.
        if (step > 1 || start !== from) await inPage(located, pageNextFrame);
        const at = between(start, end, step / DRAG_STEPS);
        if (data) {
          await cdp(tabId, "Input.dispatchDragEvent", { type: "dragOver", ...at, data });
          continue;
        }
        await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", ...at, ...HELD });
        if (!await inPage(located, pageDragStarted)) continue;
        const timeout = sleep(DRAG_HANDOVER_MS).then(() => null);
        data = await until(Promise.race([handed, timeout]), stops.get(tabId));
        if (!data) throw new Error("The page started a drag Chrome did not hand over; it may have run.");
        await cdp(tabId, "Input.dispatchDragEvent", { type: "dragEnter", ...at, data });
      }
    };
    if (via) {
      const passed = { x: via.x, y: via.y };
      await moved(from, passed);
      to = await via.placed();
      await moved(passed, to);
    } else {
      await moved(from, to);
    }
    // Held over the drop a moment, as a person's hand is (the chromium provider's
    // REST_FRAMES): the page hears the pointer there again.
    for (let rest = 0; rest < REST_FRAMES; rest += 1) {
      await inPage(located, pageNextFrame);
      if (data) await cdp(tabId, "Input.dispatchDragEvent", { type: "dragOver", ...to, data });
      else await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", ...to, ...HELD });
    }
    if (data) await cdp(tabId, "Input.dispatchDragEvent", { type: "drop", ...to, data });
    else await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", ...to, ...RELEASE });
    dropped = true;
  } finally {
    drags.delete(tabId);
    // Sent past a stop too (cdp would refuse them then): the person's own drags in this tab
    // must reach the page again, and a drag left half-way is let go.
    const send = (method, params) =>
      chrome.debugger.sendCommand({ tabId }, method, params).catch(() => {});
    if (data && !dropped) await send("Input.dispatchDragEvent", { type: "dragCancel", ...to, data });
    await send("Input.setInterceptDrags", { enabled: false });
  }
  return to;
}

/** Looks in the element `selector` names (an iframe: in its document, as a snapshot of it
 * reads), else in the page, and in its iframes when the page itself does not show the text. */
export async function selectText(tabId, { text, selector }) {
  if (!text.trim()) throw new Refusal("Give the text to select, not only spaces; nothing was selected.");
  let located = mainPlace(tabId);
  let found;
  if (given(selector)) {
    let element = await target(tabId, selector, "inspect");
    if (element.info.tag === "iframe" || element.info.tag === "frame") {
      element = await target(tabId, `${selector}${HOP}:root`, "inspect");
    }
    located = element.located;
    found = await inPage(located, pageTextRange, text, true);
  } else {
    found = await inPage(located, pageTextRange, text, false);
    for (const inner of found ? [] : await childFrames(located)) {
      if (inner.unreachable) continue;
      found = await inPage(inner, pageTextRange, text, false).catch((error) => {
        if (fatal(error)) throw error;
        return null; // a frame that went away shows no text
      });
      if (found) {
        located = inner;
        break;
      }
    }
  }
  if (!found) {
    const where = given(selector) ? `inside ${selector}` : "on the page";
    throw new Refusal(`"${text}" is not ${where}, so nothing was selected; take a new snapshot ` +
      "and give the text as it shows there.");
  }
  // In a field's value: selected there, the field focused (no press).
  if (found.field) return { selected: found.selected, selector: found.selector && located.prefix + found.selector };
  const from = { x: located.x + found.start.x, y: located.y + found.start.y };
  const to = { x: located.x + found.end.x, y: located.y + found.end.y };
  await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", ...from });
  await cdp(tabId, "Input.dispatchMouseEvent", { type: "mousePressed", ...from, ...PRESS });
  for (let step = 1; step <= SELECT_STEPS; step += 1) {
    const at = between(from, to, step / SELECT_STEPS);
    await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", ...at, ...HELD });
  }
  await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", ...to, ...RELEASE });
  const inFrame = (point) => ({ x: point.x - located.x, y: point.y - located.y });
  const done = await inPage(located, pageSelected, pageUnder, inFrame(from), inFrame(to));
  if (!done) throw new Error("The page was replaced as its text was selected; it may have run.");
  const shown = await shownAfter(tabId, await settle(tabId));
  return {
    selected: done.selected, selector: done.selector && located.prefix + done.selector,
    start: { ...rounded(from), under: named(located, done.start) },
    end: { ...rounded(to), under: named(located, done.end) },
    ...shown,
  };
}

// CDP's bits for the mouse buttons an event says are held.
const BUTTON_BITS = { left: 1, right: 2, middle: 4 };

/** What is under each viewport point of the tab's top document, and the viewport's size
 * (the page script's `pointer`); `watch` starts watching the page's timers for the wait
 * after the input, so it must be the last question before it. */
const pointed = (tabId, points, watch = false) => page(tabId, "pointer", { points, watch });

const at = ({ x, y }, under) => ({ ...rounded({ x, y }), under });
const heldButton = (buttons) =>
  Object.keys(BUTTON_BITS).find((name) => buttons & BUTTON_BITS[name]) || "none";

/** The element `selector` or `text` names, checked as a click's target (shown, enabled, not
 * covered), and where a click on it lands. */
async function aimedAt(tabId, selector, text, words) {
  const chosen = given(selector) ? selector : await byText(tabId, text, words);
  const aimed = await target(tabId, chosen, "click", {
    fresh: !given(selector), done: words.done, byText: given(selector) ? null : text,
  });
  const { info, located } = aimed;
  const point = { x: located.x + Number(info.aim.x), y: located.y + Number(info.aim.y) };
  return { selector: chosen, label: info.label, point, leaveRest: (held) => leaveRest(tabId, aimed, point, held) };
}

/** The answer once the page settled after the input: the pointer's start and end with what
 * was under it there, the page shown, the dialogs the input caused, and whether the page is
 * still loading a document the input led to. */
async function pointerAnswer(tabId, start, before, end, buttons = 0) {
  pointers.set(tabId, { x: end.x, y: end.y, buttons });
  const shown = await shownAfter(tabId, await settle(tabId));
  // A tab waiting for its next document runs no script: what is under the pointer is unread.
  const after = awaiting.has(tabId) ? null : (await pointed(tabId, [end])).under[0];
  return { start: at(start, before), end: at(end, after), ...shown };
}

export async function hover(tabId, { selector, text }) {
  if (given(selector) === given(text)) {
    throw new Refusal("Give selector or text (one of them) for what to hover; nothing was done.");
  }
  const aimed = await aimedAt(tabId, selector, text, HOVERING);
  const last = pointers.get(tabId);
  const start = last || aimed.point;
  const before = (await pointed(tabId, [start], true)).under[0];
  const buttons = last ? last.buttons : 0; // a button the mouse verb holds down stays down
  const held = { buttons, button: heldButton(buttons) };
  await aimed.leaveRest(held);
  await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", ...aimed.point, ...held });
  return {
    hovered: aimed.selector, label: aimed.label,
    ...await pointerAnswer(tabId, start, before, aimed.point, buttons),
  };
}

export async function mouse(tabId, args) {
  const { action, x, y, selector, text, button = "left", clickCount = 1 } = args;
  const { modifiers = [], deltaX = 0, deltaY = 0 } = args;
  if (given(x) !== given(y)) {
    throw new Refusal("Give both x and y for a point of the viewport; nothing was done.");
  }
  const places = given(x) + given(selector) + given(text);
  if (places > 1) {
    throw new Refusal("Give one place: x and y, selector, or text; nothing was done.");
  }
  if (places === 0 && action === "move") {
    throw new Refusal("move needs a place: x and y, selector, or text; nothing was done.");
  }
  if (action === "wheel" && !deltaX && !deltaY) {
    throw new Refusal("wheel needs deltaX or deltaY, the pixels to scroll; nothing was done.");
  }
  const last = pointers.get(tabId);
  let point = given(x) ? { x: Number(x), y: Number(y) } : null;
  let named = {};
  if (places === 0) {
    if (!last) {
      throw new Refusal(`The pointer is not on this page yet, so nothing was ` +
        `${mouseWords(action).done}; give x and y, selector, or text.`);
    }
    point = { x: last.x, y: last.y }; // where the pointer is: released where it was pressed
  } else if (!point) {
    const aimed = await aimedAt(tabId, selector, text, mouseWords(action));
    ({ point } = aimed);
    named = { selector: aimed.selector, label: aimed.label };
  }
  const start = last || point;
  const before = await pointed(tabId, [start], true);
  if (!(point.x >= 0 && point.y >= 0 && point.x < before.width && point.y < before.height)) {
    throw new Refusal(`(${point.x}, ${point.y}) is outside the viewport, which is ` +
      `${before.width}x${before.height} CSS pixels (x and y from 0 up to those); nothing was done.`);
  }
  const bits = modifiers.reduce((sum, name) => sum | MODIFIER_BITS[name], 0);
  // The buttons an earlier `down` left pressed: moves carry them, as a person's drag does.
  let buttons = last ? last.buttons : 0;
  const event = (type, more = {}) => cdp(tabId, "Input.dispatchMouseEvent",
    { type, ...point, modifiers: bits, buttons, button: heldButton(buttons), ...more });
  const bit = BUTTON_BITS[button];
  await holding(tabId, modifiers, async () => {
    await event("mouseMoved");
    if (action === "click") {
      // As a person's double click: a press and release for each click, counted up.
      for (let count = 1; count <= clickCount; count += 1) {
        await event("mousePressed", { button, buttons: buttons | bit, clickCount: count });
        await event("mouseReleased", { button, buttons, clickCount: count });
      }
    } else if (action === "down") {
      buttons |= bit;
      await event("mousePressed", { button, clickCount });
    } else if (action === "up") {
      buttons &= ~bit;
      await event("mouseReleased", { button, clickCount });
    } else if (action === "wheel") {
      await event("mouseWheel", { deltaX: Number(deltaX), deltaY: Number(deltaY) });
    }
  });
  return { ...named, ...await pointerAnswer(tabId, start, before.under[0], point, buttons) };
}
