// The element an agent names, found and checked before anything is done to it, as the
// chromium provider's targets.py does (the checks and their words are in refusals.js).

import { cdp, fatal, mainPlace } from "./cdp.js";
import { TEXT_CANDIDATES_MAX } from "./contract.js";
import { childFrames, locate } from "./frames.js";
import { page } from "./page.js";
import { CLICKING, checkCount, checkFound, checkFoundText, checkUsable, Refusal } from "./refusals.js";

/** The one element `selector` names, checked for `purpose` ("click", "type", "inspect"):
 * its facts and the place of its frame. `done` says what a refusal says was not done;
 * `byText`, to click: the text the element was found by; when it is only part of the
 * element's text, the click is aimed at that text's own box (as the chromium provider does). */
/** What keeps a pointer from an element and not the keys (targets.py's _POINTER_ONLY). */
const POINTER_ONLY = ["coveredBy", "through", "inert", "pressedBy", "outside", "offText"];

export async function target(tabId, selector, purpose, { styles = null, fresh = false, watch = false,
  done = null, byText = null, guard = false, keyboard = false } = {}) {
  let located;
  let info;
  for (const revealed of [false, true]) {
    located = await locate(tabId, selector);
    info = await page(located, "target", {
      selector: located.selector, purpose, styles, fresh, watch, byText, guard,
    });
    const top = located.frameId === mainPlace(tabId).frameId;
    if (top || revealed || !info || !info.aim || await inWindow(tabId, located, info.aim)) break;
    // Its frame shows it, but the page has that frame scrolled out of the window.
    await page(located, "reveal", {});
  }
  checkFound(info, selector);
  checkCount(Number(info.count), selector);
  if (info.changed) {
    const { was, now, around } = info.changed;
    const renamed = now === undefined ? ""
      : around ? `: it is in "${now}" now, listed in "${was}"` : `: it reads "${now}" now, listed as "${was}"`;
    throw new Refusal(`${selector} no longer names the element your latest snapshot listed ` +
      `(the page changed${renamed}), so nothing was ` +
      `${done || (purpose === "click" ? "clicked" : "typed")}; take a new snapshot.`);
  }
  // Only keys reach it, which need no pointer: what covers it does not keep them from it.
  if (keyboard && info.aim) {
    for (const only of POINTER_ONLY) delete info.aim[only];
  }
  if (purpose !== "inspect") {
    checkUsable(selector, info, done || (purpose === "click" ? "clicked" : "typed"));
  }
  return { info, located };
}

/** Whether the point where an element in an iframe is pressed (its `aim`, in its frame) is in
 * the page's window (targets.py's _in_window). */
async function inWindow(tabId, located, aim) {
  const window = await page(mainPlace(tabId), "pointer", { points: [] });
  const [x, y] = [located.x + Number(aim.x), located.y + Number(aim.y)];
  return x >= 0 && y >= 0 && x < Number(window.width) && y < Number(window.height);
}

/** Start the mouse on its way to `to` where it rests, if something came under it there since
 * it last moved (the target's `rest`, in its frame): a move of one pixel toward `to` first, as
 * the chromium provider's leave_rest does, answered once the page has handled it; with the
 * buttons `held` down. */
export async function leaveRest(tabId, { info, located }, to, held = {}) {
  if (!info.rest) return;
  const rest = { x: located.x + Number(info.rest.x), y: located.y + Number(info.rest.y) };
  const far = Math.hypot(to.x - rest.x, to.y - rest.y);
  if (far <= 1) return;
  const step = { x: rest.x + (to.x - rest.x) / far, y: rest.y + (to.y - rest.y) / far };
  await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", ...step, ...held });
}

/** The selector of the one element an agent means by `text`, looking into iframes when the
 * page itself has none; with `drop`, the item the text labels, to drop on (snapshot.js's
 * dropItem). */
export async function byText(tabId, text, words = CLICKING, { drop = false } = {}) {
  const found = await page(tabId, "findText", { text, limit: TEXT_CANDIDATES_MAX, drop });
  if (found.total === 0) {
    for (const inner of await childFrames(mainPlace(tabId))) {
      if (inner.unreachable) continue;
      const more = await page(inner, "findText", { text, limit: TEXT_CANDIDATES_MAX, drop })
        .catch((error) => {
          if (fatal(error)) throw error;
          return { matches: [], total: 0 }; // a frame that went away has nothing to click
        });
      for (const match of more.matches) match.selector = inner.prefix + match.selector;
      found.matches.push(...more.matches);
      found.total += more.total;
    }
  }
  checkFoundText(text, found, words);
  return found.matches[0].selector;
}
