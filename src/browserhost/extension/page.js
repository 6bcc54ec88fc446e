// Questions to a page: the page script's answers (the chromium provider's snapshot.js, which
// the host sends in hello.ok), expressions, and the waits for a load and for the page to
// stop changing.

import { awaiting, cdp, contexts, fatal, loading, asPlace } from "./cdp.js";
import { PAGE_ANSWER_MS, STILL_LOADING } from "./contract.js";
import { link } from "./link.js";
import { takeDialogs } from "./page_events.js";
import { checkStopped, sleep } from "./stopping.js";

const LOAD_WAIT_MS = 10000;
const SETTLE_MS = 3000;
export const QUIET_MS = 50;

/** A frame's place, by frame id: waits a moment for a frame that is still loading. */
export async function reach(tabId, frameId, waitMs = 1000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = contexts.get(`${tabId}|${frameId}`);
    if (found) return found;
    if (Date.now() >= deadline) return null;
    await sleep(50);
    checkStopped(tabId);
  }
}

/** The page script's answer to `op` in a frame (a tab id: its main frame), retried when a
 * navigation replaced the document. */
export async function page(where, op, args = {}) {
  if (!link.pageScript) throw new Error("the host sent no page script");
  let place = asPlace(where);
  const request = JSON.stringify({ op, ...args });
  const expression =
    `(async () => JSON.stringify(await (${link.pageScript})(${request})) ?? null)()`;
  for (let attempt = 1; ; attempt += 1) {
    const waitMs = PAGE_ANSWER_MS + (Number(args.maxMs) || 0); // quiet waits by design
    const params = { expression, awaitPromise: true, returnByValue: true };
    if (place.context !== undefined) params.contextId = place.context;
    const reply = await cdp(place, "Runtime.evaluate", params, waitMs)
      .catch((error) => ({ failed: error }));
    if (fatal(reply.failed)) throw reply.failed;
    if (!reply.failed && !reply.exceptionDetails) {
      return reply.result.value == null ? null : JSON.parse(reply.result.value);
    }
    const why = reply.failed ? reply.failed.message
      : (reply.exceptionDetails.exception || {}).description || reply.exceptionDetails.text;
    // A document whose first element is not parsed yet (snapshot.js: "still arriving") is
    // asked again once loaded, as one that replaced the page.
    if (attempt >= 3 || !/context|navigat|destroyed|arriving/i.test(why)) throw new Error(why);
    if (place.context === undefined) {
      await loaded(place.tabId);
    } else {
      // The frame's document was replaced: ask its new one.
      const now = await reach(place.tabId, place.frameId, LOAD_WAIT_MS);
      if (!now) throw new Error(why);
      place = { ...place, ...now };
    }
  }
}

export async function evaluate(where, expression) {
  const place = asPlace(where);
  const params = { expression, returnByValue: true, awaitPromise: true };
  if (place.context !== undefined) params.contextId = place.context;
  const reply = await cdp(place, "Runtime.evaluate", params);
  if (reply.exceptionDetails) {
    throw new Error((reply.exceptionDetails.exception || {}).description || reply.exceptionDetails.text);
  }
  return reply.result ? reply.result.value : undefined;
}

/** A remote object for what `expression` answers in a frame (an element, a list of them). */
export async function handle(place, expression) {
  const params = { expression, returnByValue: false, awaitPromise: true };
  if (place.context !== undefined) params.contextId = place.context;
  const reply = await cdp(place, "Runtime.evaluate", params);
  return reply.result && reply.result.objectId;
}

export const release = (place, objectId) => {
  if (objectId) cdp(place, "Runtime.releaseObject", { objectId }).catch(() => {});
};

async function loaded(tabId, waitMs = LOAD_WAIT_MS) {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (!loading.has(tabId)) {
      const ready = await evaluate(tabId, "document.readyState").catch((error) => {
        if (fatal(error)) throw error;
        return null;
      });
      if (ready === "complete") return true;
    }
    await sleep(50); // the load's end is an event of another context; polling it is simpler
    checkStopped(tabId);
  }
  return false;
}

/** `work`, with the tab drawing frames at full rate all along. A tab in the background draws
 * one frame a second, or none, though its page says it is visible: each of the page script's
 * waits for the next frame (what an input changed, whether an element holds still) would take
 * a second, and a held mouse's moves come one a frame. A screencast keeps it drawing (its
 * frames go unread); it ends with the work. */
export async function drawing(tabId, work) {
  // A tab waiting for its next document has nothing to draw (the cast would wait for it);
  // one whose cast does not start is still acted in, at its own pace.
  if (!awaiting.has(tabId)) {
    await cdp(tabId, "Page.startScreencast", { format: "jpeg", quality: 1, maxWidth: 8, maxHeight: 8 })
      .catch((error) => { if (fatal(error)) throw error; });
  }
  try {
    return await work();
  } finally {
    await chrome.debugger.sendCommand({ tabId }, "Page.stopScreencast").catch(() => {});
  }
}

/** Wait for the load, then for the document to stop changing (and for a navigation the
 * change started); the page script's last reading. */
export async function settle(tabId, budgetMs = SETTLE_MS) {
  const deadline = Date.now() + budgetMs;
  while (await loaded(tabId, deadline - Date.now())) {
    const maxMs = Math.max(0, deadline - Date.now());
    const read = await page(tabId, "quiet", { quietMs: QUIET_MS, maxMs }).catch((error) => {
      if (fatal(error)) throw error;
      return null;
    });
    if (!read || !read.quiet) return { quiet: false, loading: loading.has(tabId) };
    if (!loading.has(tabId)) return read;
  }
  return { quiet: false, loading: true }; // the load did not end in time
}

/** What an answer after input tells of the page the input led to, once `settled`: its address
 * and title (the settle's last reading, else asked), the dialogs the input caused, and, when
 * the settle ended with the tab still loading that page, that its address and title are of
 * that moment (as the chromium provider's providers/chromium/inputs.py, still_loading). */
export async function shownAfter(tabId, settled) {
  const now = settled.url ? settled : await location(tabId);
  return {
    url: now.url, title: now.title, ...takeDialogs(tabId),
    ...(settled.loading ? { notice: STILL_LOADING } : {}),
  };
}

/** The address and title the tab shows: while it waits for its next document, the browser's
 * word for them (the page's own is held until that document comes). */
export async function location(tabId) {
  if (awaiting.has(tabId)) {
    const { url, title } = await chrome.tabs.get(tabId);
    return { url, title };
  }
  const [url, title] = await evaluate(tabId, "[location.href, document.title]") || ["", ""];
  return { url, title };
}
