// Iframes: the chromium provider's targets.locate and child_frames, over CDP. Same-origin and
// cross-origin iframes are read and acted in (a cross-origin one through the child CDP
// session Chrome attaches for it); one Chrome lets no extension into is named as such in a
// snapshot, and actions in it are refused.

import { cdp, fatal, mainPlace } from "./cdp.js";
import { FRAME_DEPTH_MAX, HOP } from "./contract.js";
import { link } from "./link.js";
import { handle, page, reach, release } from "./page.js";
import { Refusal, UNREACHABLE } from "./refusals.js";

/** The place of the frame that holds the element `selector` ends on; refuses a step that
 * does not name exactly one iframe, or one whose document this browser cannot reach. */
export async function locate(tabId, selector) {
  let place = mainPlace(tabId, selector);
  if (!selector.includes(HOP)) return place;
  for (let depth = 0; depth < FRAME_DEPTH_MAX; depth += 1) {
    const step = await page(place, "hop", { selector: place.selector });
    if (!step || !step.enterFrame) return place;
    const objectId = await handle(place, `(${link.pageScript})({ op: "stashed" })`);
    const inner = await frameOf(place, objectId, step.enterFrame, true);
    place = { ...inner, selector: step.rest, x: place.x + Number(step.x), y: place.y + Number(step.y),
      prefix: place.prefix + step.enterFrame + HOP };
  }
  throw new Refusal(`${selector} goes more than ${FRAME_DEPTH_MAX} frames deep.`);
}

/** The place of the frame an iframe element (a remote object of `place`) shows. */
async function frameOf(place, objectId, name, refuse) {
  const { node } = objectId ? await cdp(place, "DOM.describeNode", { objectId }) : {};
  if (!node || !node.frameId) {
    release(place, objectId);
    if (refuse) throw new Refusal(`${name} has no document to look into; take a new snapshot.`);
    return null;
  }
  // A frame no script has touched has no context yet (a load Chrome blocked leaves it on
  // its first, empty document): touching it from its parent makes one.
  let found = await reach(place.tabId, node.frameId, 0);
  if (!found && objectId) {
    await cdp(place, "Runtime.callFunctionOn", { objectId, returnByValue: true,
      functionDeclaration: "function () { try { return Boolean(this.contentWindow.document); } catch (e) { return false; } }",
    }).catch((error) => {
      if (fatal(error)) throw error;
    });
    found = await reach(place.tabId, node.frameId);
  }
  release(place, objectId);
  if (!found) {
    if (refuse) throw new Refusal(`${name} is an iframe this browser cannot reach: ${UNREACHABLE}. Nothing was done in it.`);
    return { unreachable: true, frameId: node.frameId };
  }
  return { ...place, ...found, frameId: node.frameId };
}

// Every iframe element of a document, its open shadow roots included.
const FRAME_ELEMENTS = `(() => {
  const found = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.localName === "iframe" || el.localName === "frame") found.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return found;
})()`;

/** The iframes shown in a place's frame (inside its selector, when it has one), each as the
 * place its own elements are read, or {unreachable, prefix} for one this browser cannot
 * enter. A frame that goes away meanwhile is left out. */
export async function childFrames(place) {
  let listId;
  try {
    listId = await handle(place, FRAME_ELEMENTS);
    if (!listId) return [];
    const within = JSON.stringify(place.selector || null);
    const boxes = (await cdp(place, "Runtime.callFunctionOn", {
      objectId: listId, returnByValue: true, awaitPromise: true,
      functionDeclaration: `async function () {
        return JSON.stringify(await (${link.pageScript})({ op: "frames", elements: this, within: ${within} }));
      }`,
    })).result.value;
    const { result: items } = await cdp(place, "Runtime.getProperties", { objectId: listId, ownProperties: true });
    const elements = new Map(items.filter((item) => /^\d+$/.test(item.name) && item.value)
      .map((item) => [Number(item.name), item.value.objectId]));
    const found = [];
    for (const [index, box] of JSON.parse(boxes).entries()) {
      if (!box) {
        release(place, elements.get(index));
        continue;
      }
      const prefix = place.prefix + box.selector + HOP;
      const inner = await frameOf(place, elements.get(index), box.selector, false);
      if (!inner) continue;
      if (inner.unreachable) {
        found.push({ unreachable: true, prefix });
        continue;
      }
      found.push({ ...inner, selector: "", x: place.x + box.x, y: place.y + box.y, prefix,
        shown: Boolean(box.inViewport) });
    }
    return found;
  } catch (error) {
    if (fatal(error)) throw error;
    return []; // the frame went away while being read
  } finally {
    release(place, listId);
  }
}

/** Add the elements and text of the iframes shown in a snapshot's frame to `read`: their
 * selectors step into the frame (`iframe#pay >> #card`), their bounds are in the page. The
 * frames it could not enter are listed in `missed`; `caps` ({textMax, elementsMax}) bound
 * the whole snapshot. */
export async function readFrames(located, read, missed, caps, depth = 0) {
  const { textMax, elementsMax } = caps;
  if (depth >= FRAME_DEPTH_MAX) return;
  for (const inner of await childFrames(located)) {
    const heading = `[frame ${inner.prefix.slice(0, -HOP.length)}]`;
    if (inner.unreachable) {
      missed.push(inner.prefix.slice(0, -HOP.length));
      const said = `${heading}\n(not read: ${UNREACHABLE})`;
      if (read.text.length < textMax) read.text = (read.text + (read.text ? "\n\n" : "") + said).slice(0, textMax);
      continue;
    }
    const room = elementsMax - read.elements.length;
    if (room <= 0) return;
    let sub;
    try {
      sub = await page(inner, "snapshot", { scope: null, textMax, elementsMax: room });
      await readFrames(inner, sub, missed, caps, depth + 1);
    } catch (error) {
      if (fatal(error)) throw error;
      continue; // the frame went away while being read
    }
    for (const element of sub.elements) {
      element.selector = inner.prefix + element.selector;
      element.bounds.x += Math.round(inner.x - located.x);
      element.bounds.y += Math.round(inner.y - located.y);
      element.inViewport = element.inViewport && inner.shown;
    }
    read.elements.push(...sub.elements);
    read.interactiveElementsOnPage += sub.interactiveElementsOnPage;
    if (sub.text && read.text.length < textMax) {
      const framed = (read.text ? "\n\n" : "") + `${heading}\n${sub.text}`;
      read.text = (read.text + framed).slice(0, textMax);
    }
    read.textTotalChars += sub.textTotalChars;
  }
}
