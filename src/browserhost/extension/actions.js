// The ten actions and the verbs, in a tab the agent may act in, with the chromium provider's
// answers: the agent's input arrives as trusted events (CDP Input), as a person's would.

import { awaiting, cdp, fatal, mainPlace } from "./cdp.js";
import {
  DRAWN_SEEN, ELEMENTS_MAX, FULL_ELEMENTS_MAX, FULL_TEXT_MAX, INSPECT_FIELDS, INSPECT_STYLES,
  NAMED_PICTURES, PRESS_ATTEMPTS, SCROLL_BOXES, SCROLL_BOXES_MOVED, SCROLLS_SIDEWAYS, SHAPES_SEEN,
  STILL_LOADING, TEXT_MAX, UNLISTED_SHAPES, VIEWPORT_SIZES,
} from "./contract.js";
import { intoEditor } from "./editors.js";
import { locate, readFrames } from "./frames.js";
import { link } from "./link.js";
import { evaluate, location, page, QUIET_MS, settle, shownAfter } from "./page.js";
import { pressKey } from "./key_verbs.js";
import { drainProblems, takeDialogs } from "./page_events.js";
import { drag, hover, mouse, selectText } from "./pointer_verbs.js";
import { cookies, setCookies } from "./session_verbs.js";
import {
  chased, checkFound, checkTakesText, checkUsable, described, formRefused, missedAll, notShowing,
  optionValue, Refusal, refusalToOpen, scrollBoxesNamed, slippedRelease, UNREACHABLE,
} from "./refusals.js";
import { byText, leaveRest, target } from "./targets.js";
import { notTaken } from "./typing.js";

const NAVIGATE_WAIT_MS = 30000;
const viewports = new Map(); // tab id -> mode, for the answers' viewport field
// State an action's answer leaves out: the snapshot has it, and it says nothing new.
const NOT_AFTER_ACTION = ["options", "focused", "multiple"];

export const ACTIONS_BY_NAME = {
  "browser.open": async (tabId, { url, viewport: mode }) => {
    const why = refusalToOpen(url, link.url);
    if (why) throw new Refusal(`${url} was not opened: ${why}.`);
    if (mode) await resize(tabId, mode);
    const { errorText } = await cdp(tabId, "Page.navigate", { url }, NAVIGATE_WAIT_MS);
    if (errorText) throw new Refusal(`${url} did not load (${errorText}); check the address.`);
    const settled = await settle(tabId);
    const { url: shown, title } = await location(tabId);
    return {
      url: shown, title, opened: true, settled: Boolean(settled.quiet), viewport: viewport(tabId),
      ...takeDialogs(tabId),
    };
  },

  "browser.snapshot": async (tabId, { selector, full }) => {
    const located = selector ? await locate(tabId, selector) : mainPlace(tabId);
    const [textMax, elementsMax] = full ? [FULL_TEXT_MAX, FULL_ELEMENTS_MAX] : [TEXT_MAX, ELEMENTS_MAX];
    const read = await page(located, "snapshot", { scope: located.selector || null, textMax, elementsMax });
    checkFound(read, selector);
    const missed = [];
    await readFrames(located, read, missed, { textMax, elementsMax });
    const total = read.textTotalChars;
    const onPage = read.interactiveElementsOnPage;
    const cut = total > read.text.length;
    const more = onPage > read.elements.length;
    const answer = {
      url: read.url, title: read.title, scope: selector || "page", scrollY: read.scrollY,
      maxScrollY: read.maxScrollY, text: read.text, elements: read.elements,
      viewport: viewport(tabId), consoleProblems: drainProblems(tabId),
    };
    if (cut) {
      Object.assign(answer, {
        textTruncated: true, textTotalChars: total, textAboveChars: read.textAboveChars,
        textBelowChars: Math.max(0, total - read.textAboveChars - read.text.length),
      });
    }
    if (more) {
      Object.assign(answer, {
        elementsTruncated: true, interactiveElementsOnPage: onPage,
        elementsAbove: read.elementsAbove, elementsBelow: read.elementsBelow,
      });
    }
    const drawn = (read.drawn || []).join(", ");
    const shapes = (read.shapes || []).join(", ");
    const seen = drawn.includes("(svg ") || shapes ? `${DRAWN_SEEN} ${SHAPES_SEEN}` : DRAWN_SEEN;
    if (read.url === "about:blank") answer.notice = "Nothing is open: the page is blank; use browser.open.";
    else if (!read.elements.length && !read.text) {
      answer.notice = drawn
        ? `This shows no text and no interactive elements, only drawing: ${drawn}. ${seen}`
        : "The page shows no text and no interactive elements; it may still be " +
          "loading. Take another snapshot in a moment, or a capture to see it.";
    } else if (read.loading) answer.notice = STILL_LOADING;
    else {
      const pictures = (read.pictures || []).join(", ");
      const said = [drawn && `Drawn, with nothing to read in it: ${drawn}.`,
        shapes && `${UNLISTED_SHAPES}: ${shapes}.`, (drawn || shapes) && seen,
        pictures && `${NAMED_PICTURES}: ${pictures}.`, scrollBoxes(read.scrollBoxes || [])];
      if (said.some(Boolean)) answer.notice = said.filter(Boolean).join(" ");
    }
    if (missed.length) {
      const which = missed.join(", ");
      const said = `The iframe${missed.length > 1 ? "s" : ""} ${which} could not be read: ` +
        `${UNREACHABLE}; what ${missed.length > 1 ? "they show is" : "it shows is"} not in this snapshot.`;
      answer.notice = answer.notice ? `${answer.notice} ${said}` : said;
    }
    return answer;
  },

  "browser.click": async (tabId, { selector, text }) => {
    let chosen = selector || await byText(tabId, text || "");
    // With the press guard: a press the page would get anywhere else is kept from it, and
    // the click aimed again as the page now shows it (the chromium provider's PRESS_ATTEMPTS).
    const aim = () => target(tabId, chosen, "click", {
      fresh: !selector, watch: true, byText: text || null, guard: true,
    });
    let { info, located } = await aim();
    // Given a text as well as a selector: the element the selector names must show it.
    if (selector && text && info.showsText === false) throw new Refusal(notShowing(selector, text, info.label));
    // The row a virtual list drew the item in as it scrolled: the one aimed at again.
    const asked = chosen;
    chosen = info.chased || chosen;
    // A click on part of an element's text names the element it landed on, and that text.
    const part = () => info.aim.text !== undefined;
    const clicked = () => (part() && info.aim.hit ? located.prefix + info.aim.hit : chosen);
    let settled;
    for (let attempt = 1; ; attempt++) {
      const x = located.x + Number(info.aim.x);
      const y = located.y + Number(info.aim.y);
      const mouse = { x, y, button: "left", clickCount: 1 };
      await leaveRest(tabId, { info, located }, { x, y });
      await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
      await cdp(tabId, "Input.dispatchMouseEvent", { type: "mousePressed", ...mouse });
      await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", ...mouse });
      settled = await settle(tabId);
      const missed = await missedPress(located, settled);
      if (!missed) break;
      if (attempt === PRESS_ATTEMPTS) {
        throw new Refusal(missedAll(clicked(), missed, PRESS_ATTEMPTS));
      }
      ({ info, located } = await aim());
    }
    if (await missedPress(located, settled, "slipped")) throw new Refusal(slippedRelease(clicked()));
    const shown = await shownAfter(tabId, settled);
    const state = await stateAfter(located, settled);
    const answer = {
      clicked: clicked(), label: part() ? info.aim.text : info.label, ...shown,
      ...formRefused(settled), ...state,
    };
    if (info.opensFiles && !answer.notice) {
      answer.notice = "The click opens the browser's file chooser, which takes no files from " +
        `here: nothing was chosen. Choose files with verb.upload on ${info.opensFiles}.`;
    }
    // The state is the one after the click, not why nothing happened.
    if (state.disabled && !answer.notice) {
      answer.notice = `The click went in; the page disabled ${clicked()} after it: it takes one press, ` +
        "waits to be enabled again (the next step's fields filled, a request answered), or has " +
        "nothing more to do (a last page's Next, a first page's Back).";
    }
    if (chosen !== asked) {
      const said = chased(asked, chosen, "clicked");
      answer.notice = answer.notice ? `${answer.notice} ${said}` : said;
    }
    return withPageSays(answer, settled);
  },

  "browser.type": async (tabId, { selector: asked, value, submit }) => {
    const { info, located } = await target(tabId, asked, "type", { watch: true });
    const selector = info.chased || asked;
    if (!info.editor) checkTakesText(selector, info); // an editor takes the keys in its own field
    let editorNotice = null;
    if (info.tag === "select") {
      await choose(located, selector, info, value);
    } else if (info.editor) {
      editorNotice = await intoEditor(tabId, { info, located }, selector, value);
    } else {
      // Focus and select what is there, so the typed text replaces it as a person's would.
      // Watched from here for what the page makes of the text as it loses focus.
      await evaluate(located, `(async () => {
        const el = await (${link.pageScript})({ op: "stashed" });
        el.focus();
        if (typeof el.select === "function") el.select();
        else getSelection().selectAllChildren(el);
        await (${link.pageScript})({ op: "watchTyped" });
      })()`);
      if (value) await cdp(tabId, "Input.insertText", { text: value });
      else await key(tabId, "Backspace", "Backspace", 8);
    }
    let sends = {};
    if (submit) {
      // What the text set off first (a list filtered as it is typed): Enter picks what the
      // page shows for the whole text.
      await settle(tabId);
      // Which of a form's several buttons Enter sends it as (its first, whatever it says).
      sends = await page(located, "enterSends");
      await key(tabId, "Enter", "Enter", 13, "\r");
    }
    // Text that set the page doing something it shows later (a debounced search for
    // suggestions): the answer, and the next snapshot, are the page after it.
    const typed = submit ? {} : await page(located, "state", { afterInput: true });
    const settled = submit || typed.waiting ? await settle(tabId)
      : { quiet: true, retyped: typed.retyped, madeItems: typed.madeItems };
    const state = await stateAfter(located, settled);
    // After a submit, what the field holds if anything (a date the page parsed as Enter went).
    const refused = info.tag !== "select" && !editorNotice && (!submit || state.value) &&
      notTaken(selector, value, state, settled.madeItems);
    const notice = [editorNotice, refused, submit && formRefused(settled).notice, sends.enterSends && enterSent(sends),
      selector !== asked && chased(asked, selector, "typed into")].filter(Boolean).join(" ");
    return withPageSays({
      selector, ...await shownAfter(tabId, settled), ...(notice ? { notice } : {}), ...state,
    }, settled);
  },

  "browser.scroll": async (tabId, { selector, direction }) => {
    const where = selector ? await locate(tabId, selector) : mainPlace(tabId);
    let moved = await page(where, "scroll", {
      selector: where.selector || null, direction: direction || null,
    });
    if (moved.error === "sideways") throw new Refusal(SCROLLS_SIDEWAYS.replace("{selector}", selector));
    if (moved.error === "noScroll") {
      throw new Refusal(`${selector} does not scroll (what it holds fits in it), so nothing was ` +
        `scrolled; give direction alone to scroll the page, or selector alone to bring ` +
        `${selector} into view.`);
    }
    checkFound(moved, selector);
    if (selector) checkUsable(selector, moved, "scrolled to");
    const box = moved.box || null;
    // Given both, the element itself, or the box that scrolls it, moved: its position is the
    // answer's (the chromium provider's scroll).
    const itself = selector && direction ? box : null;
    // Pages load more as they are scrolled: the answer is the page after that.
    if ((await settle(tabId, 1000)).quiet) moved = await page(where, "position", { selector: itself });
    const named = itself === where.selector ? selector : (where.prefix || "") + itself;
    return {
      scrollY: moved.scrollY, maxScrollY: moved.maxScrollY, atTop: moved.scrollY <= 0,
      atBottom: moved.scrollY >= moved.maxScrollY - 1, scrolledTo: itself ? null : selector || null,
      direction: direction || null, ...(itself || box ? { box: itself ? named : box } : {}),
    };
  },

  "browser.back": (tabId) => travel(tabId, -1),
  "browser.forward": (tabId) => travel(tabId, +1),

  "browser.inspect": async (tabId, { selector }) => {
    const { info } = await target(tabId, selector, "inspect", { styles: INSPECT_STYLES });
    // The script also answers facts for this side's own use (aim, typable, count...).
    const fields = INSPECT_FIELDS.filter((field) => field in info).map((field) => [field, info[field]]);
    return Object.fromEntries([["selector", selector], ...fields]);
  },

  "browser.capture": async (tabId) => {
    const { data } = await cdp(tabId, "Page.captureScreenshot", { format: "png" });
    const [width, height] = pngSize(data);
    const { url, title } = await location(tabId);
    return { base64: data, mime: "image/png", width, height, url, title, viewport: viewport(tabId) };
  },

  "browser.resize": async (tabId, { viewport: mode }) => {
    await resize(tabId, mode);
    return { viewport: viewport(tabId) };
  },

  "verb.hover": hover,
  "verb.mouse": mouse,
  "verb.drag": drag,
  "verb.select_text": selectText,
  "verb.press_key": pressKey,
  "verb.cookies": cookies,
  "verb.set_cookies": setCookies,
};

// The boxes in view that scroll by themselves (snapshot.js's scrollBoxes), in one sentence:
// the chromium provider's snapshots.py scroll_boxes.
function scrollBoxes(boxes) {
  return boxes.length ? `${SCROLL_BOXES}: ${scrollBoxesNamed(boxes)}. ${SCROLL_BOXES_MOVED}` : "";
}

// An Enter in a form with several buttons that send it: the browser sends it as a press on
// the first would (the chromium provider's provider.py enter_sends).
function enterSent({ enterSends: first, sendsCount }) {
  return `Enter sent the form as a press on its first button, ${first.selector} (${described(first)}), ` +
    `would (it has ${sendsCount} that send it); to send it with another, click that one.`;
}

// The words the page shows after the input that it did not as the input began (an alert,
// a toast, a field's message) and those it showed meanwhile and took away, quoted after the answer's notice, and a field typed into
// before that the page changed since, in the chromium provider's words
// (providers/chromium/inputs.py, page_says).
function withPageSays(answer, { said, saidBriefly, saidBeside, retyped }) {
  const fields = Array.isArray(retyped) ? retyped.filter((field) =>
    field && ["selector", "was", "now"].every((key) => typeof field[key] === "string")) : [];
  const told = fields.map((field) => `The page changed ${field.selector} after it was typed ` +
    `into: it holds "${field.now}" now, not "${field.was}" (a suggestion picked, a field ` +
    "the page formats, or one it reads anew as it loses focus).");
  const beside = saidBeside && typeof saidBeside === "object" ? saidBeside : {};
  const quoted = (text) => typeof beside[text] === "string"
    ? `"${text}" (by ${beside[text]}, another field)` : `"${text}"`;
  if (said && said.length) told.push("The page now shows: " + said.map(quoted).join("; "));
  if (saidBriefly && saidBriefly.length) {
    told.push("The page showed, and took away again: " + saidBriefly.map((text) => `"${text}"`).join("; "));
  }
  if (!told.length) return answer;
  const notice = told.join(" ");
  return { ...answer, notice: answer.notice ? `${answer.notice} ${notice}` : notice };
}

async function resize(tabId, mode) {
  viewports.set(tabId, mode);
  const size = VIEWPORT_SIZES[mode];
  if (!size) {
    await cdp(tabId, "Emulation.clearDeviceMetricsOverride");
    return;
  }
  await cdp(tabId, "Emulation.setDeviceMetricsOverride", {
    width: size[0], height: size[1], deviceScaleFactor: 0, mobile: mode === "mobile",
  });
}

async function travel(tabId, delta) {
  const { currentIndex, entries } = await cdp(tabId, "Page.getNavigationHistory");
  const index = currentIndex + delta;
  // The blank page every tab starts on is not a page to go back to.
  if (delta < 0 && (index < 0 || (index === 0 && entries[0].url === "about:blank"))) {
    throw new Refusal("There is no earlier page to go back to; use browser.open.");
  }
  if (delta > 0 && index >= entries.length) throw new Refusal("There is no later page to go forward to.");
  await cdp(tabId, "Page.navigateToHistoryEntry", { entryId: entries[index].id });
  await settle(tabId);
  return { ...(await location(tabId)), ...takeDialogs(tabId) };
}

async function key(tabId, keyName, code, keyCode, text) {
  const common = { key: keyName, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
  await cdp(tabId, "Input.dispatchKeyEvent", { type: "keyDown", ...common, ...(text ? { text } : {}) });
  await cdp(tabId, "Input.dispatchKeyEvent", { type: "keyUp", ...common });
}

async function choose(located, selector, info, value) {
  const wanted = info.multiple ? value.split(",").map((one) => one.trim()) : [value];
  const values = wanted.map((one) => optionValue(selector, info.choices || [], one));
  await evaluate(located, `(async () => {
    const el = await (${link.pageScript})({ op: "stashed" });
    const values = ${JSON.stringify(values)};
    for (const option of el.options) option.selected = values.includes(option.value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  })()`);
}

/** What a click's press would have reached instead of its element (the page script's press
 * guard kept it from the page), from the settle's reading of the main frame or else a
 * reading of its own; null for a press that landed, or whose document is gone. With `said`
 * "slipped": what its release reached instead, the element moved away as it was pressed. */
async function missedPress(located, settled, said = "missed") {
  if (awaiting.has(located.tabId)) return null;
  const read = located.context === undefined && settled.url !== undefined ? settled
    : await page(located, "state").catch((error) => {
      if (fatal(error)) throw error;
      return null;
    });
  const missed = read && read[said];
  // Words the page itself put in the guard's place, naming no element, are not taken.
  const named = missed && typeof missed.selector === "string" && typeof missed.tag === "string";
  return named ? missed : null;
}

// How long an action waits for the iframe it acted in to stop changing.
const FRAME_SETTLE_MS = 1000;

// The state an action's answer carries: ElementState's fields, without those the snapshot has.
// The settle's reading has it for an element of the main frame. The settle watched only the
// main frame, so an element in an iframe is asked once its frame is quiet too: what the action
// changed there (input to a cross-origin frame may even be handled after the page answered)
// is then done.
async function stateAfter(located, settled) {
  let read = settled;
  const inFrame = located.context !== undefined;
  // A page waiting for its next document answers nothing, and its element is on its way out.
  if (awaiting.has(located.tabId)) return {};
  if (inFrame || !read.state) {
    const asked = inFrame ? page(located, "quiet", { quietMs: QUIET_MS, maxMs: FRAME_SETTLE_MS })
      : page(located, "state");
    read = await asked.catch((error) => {
      if (fatal(error)) throw error;
      return null; // the element's frame went away
    });
  }
  const state = { ...((read && read.state) || {}) };
  for (const left of NOT_AFTER_ACTION) delete state[left];
  return state;
}

function pngSize(base64) {
  const head = atob(base64.slice(0, 32));
  const at = (i) => ((head.charCodeAt(i) << 24) | (head.charCodeAt(i + 1) << 16) |
    (head.charCodeAt(i + 2) << 8) | head.charCodeAt(i + 3)) >>> 0;
  return [at(16), at(20)];
}

function viewport(tabId) {
  const mode = viewports.get(tabId) || "fill";
  const [width, height] = VIEWPORT_SIZES[mode] || [null, null];
  return { mode, width, height };
}
