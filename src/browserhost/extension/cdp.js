// The tabs' CDP sessions (chrome.debugger): attaching to a tab, sending it commands that stop
// with the action, and following its documents (frames, execution contexts, loads) and what
// the person does in it.

import { PAGE_ANSWER_MS, WAITING_ANSWER_MS } from "./contract.js";
import { takeControl } from "./link.js";
import { dialogOpened, drags, heard } from "./page_events.js";
import { BARRED, barred, Refusal } from "./refusals.js";
import { checkStopped, Stopped, stops, until } from "./stopping.js";

export const attached = new Set();
// Whether each tab's page is loading: a submit or a click starts a navigation a moment after
// the input, while the old document still reads "complete".
const mainFrames = new Map();
export const loading = new Set();
// Each tab whose page waits for its next document, since when (Date.now()): from the start of
// a navigation until the document commits. Chrome holds every evaluation in the page until
// then, so a slow server is not a page that stopped answering.
export const awaiting = new Map();
// Each frame's page-world execution context: tab id|frame id -> {session, context}.
export const contexts = new Map();
// Where the agent's hover and mouse left the pointer in each tab, in viewport pixels, and the
// buttons a mouse `down` left held: {x, y, buttons}.
export const pointers = new Map();

export async function attach(tabId) {
  if (attached.has(tabId)) return;
  try {
    await chrome.debugger.attach({ tabId }, "1.3");
  } catch (error) {
    if (BARRED.test(String((error && error.message) || error))) throw new Refusal(barred(false));
    // Still attached from before this worker was started again: take the session back.
    await chrome.debugger.detach({ tabId }).catch(() => {});
    await chrome.debugger.attach({ tabId }, "1.3").catch(() => {
      throw new Refusal("The tab is being debugged by something else (DevTools?); close that, " +
        "then try again.");
    });
  }
  attached.add(tabId);
  const send = (method, params = {}) => chrome.debugger.sendCommand({ tabId }, method, params);
  const { frameTree } = await send("Page.getFrameTree");
  mainFrames.set(tabId, frameTree.frame.id);
  await watch(send, frameTree.frame.id);
}

/** What every document of the tab is watched for: its execution contexts, its dialogs, the
 * person's input, and (for cross-origin iframes) the child sessions Chrome attaches. */
async function watch(send, frameId) {
  await send("Page.enable");
  await send("Runtime.enable");
  await send("Runtime.addBinding", { name: USER_INPUT, executionContextName: WATCHING_WORLD });
  await send("Page.addScriptToEvaluateOnNewDocument", { source: WATCH_USER, worldName: WATCHING_WORLD });
  const { executionContextId } = await send("Page.createIsolatedWorld", { frameId, worldName: WATCHING_WORLD });
  await send("Runtime.evaluate", { expression: WATCH_USER, contextId: executionContextId });
  // A Chrome that cannot attach to a frame's process leaves that frame unreachable, and a
  // snapshot says so.
  await send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: true })
    .catch(() => {});
}

export function forget(tabId) {
  attached.delete(tabId);
  loading.delete(tabId);
  awaiting.delete(tabId);
  mainFrames.delete(tabId);
  pointers.delete(tabId);
  for (const key of contexts.keys()) if (key.startsWith(`${tabId}|`)) contexts.delete(key);
}

// The person's own clicks and keys in a tab the agent works in: they take control from the
// agent until they hand back (the popup). The agent's input is trusted too, but only arrives
// while an action runs in that tab. The watch and its binding live in a world of their own,
// which the page's scripts cannot reach: a page can neither remove the watch (and so keep a
// person's input from taking control) nor call the binding.
const USER_INPUT = "browserhostUserInput";
const WATCHING_WORLD = "browserhost watch";
const WATCH_USER = `for (const type of ["pointerdown", "keydown"]) {
  addEventListener(type, (event) => {
    if (event.isTrusted && typeof ${USER_INPUT} === "function") ${USER_INPUT}(type);
  }, true);
}`;

// Where a page-script question is asked: a frame of a tab, through the tab's own CDP session
// or a cross-origin frame's child session, in that frame's execution context (the main frame
// needs none); `x`, `y` are the frame's offset in the page, `prefix` the iframe steps that
// reach it (`#pay >> `), `selector` what is left to match in it.
export function mainPlace(tabId, selector = "") {
  return { tabId, session: undefined, context: undefined, frameId: mainFrames.get(tabId), selector,
    x: 0, y: 0, prefix: "", shown: true };
}

export const asPlace = (where) => (typeof where === "number" ? mainPlace(where) : where);

const NAVIGATIONS = new Set(["Page.navigate", "Page.navigateToHistoryEntry"]);
export const touched = new Set(); // tabs the running action sent input or a navigation to

class PageStuckError extends Error {
  constructor() {
    super(`The page stopped answering for ${PAGE_ANSWER_MS / 1000} s (a script on it never ` +
      "yields: an endless loop, or one dialog after another). The action may or may not have " +
      "happened; browser.open another page to go on.");
  }
}

/** An evaluation Chrome held while the page waits for its server to send the next document:
 * it did not run; the action did if it had sent input or a navigation before. */
function waitingForServer(tabId) {
  const waited = Math.round((Date.now() - awaiting.get(tabId)) / 1000);
  const said = `The page is waiting for its server to send the next page (for ${waited} s), ` +
    "and Chrome runs nothing in it until then";
  if (touched.has(tabId)) {
    return new Error(`${said}: the action may or may not have happened; take a snapshot in a ` +
      "moment.");
  }
  return new Refusal(`${said}; nothing was done. Try again in a moment, or open another address.`);
}

/** A failure that ends the action, where one frame or one reading failing would not. */
export const fatal = (error) =>
  error instanceof Stopped || error instanceof PageStuckError || error instanceof Refusal;

// Attached once, when an action starts: a tab closed or detached under an action is never
// attached again by it, and the action ends "may have run".
export async function cdp(where, method, params = {}, waitMs = PAGE_ANSWER_MS) {
  const { tabId, session } = asPlace(where);
  if (!attached.has(tabId)) throw new Error("the tab was closed or its debugger detached");
  checkStopped(tabId);
  if (method.startsWith("Input.") || NAVIGATIONS.has(method)) touched.add(tabId);
  const target = session ? { tabId, sessionId: session } : { tabId };
  let timer;
  // The call's own waiting (a quiet read's maxMs) and then the page's answer, which a page
  // waiting for its next document cannot give: saying so sooner than PAGE_ANSWER_MS.
  const held = awaiting.has(tabId) && method.startsWith("Runtime.");
  const limitMs = held ? Math.max(waitMs - PAGE_ANSWER_MS, 0) + WAITING_ANSWER_MS : waitMs;
  const stuck = new Promise((resolve, reject) => {
    timer = setTimeout(
      () => reject(awaiting.has(tabId) ? waitingForServer(tabId) : new PageStuckError()), limitMs);
  });
  try {
    return await until(Promise.race([chrome.debugger.sendCommand(target, method, params), stuck]),
      stops.get(tabId));
  } catch (error) {
    // Ask the page to stop the script that never yields (best effort: input already in the
    // page may still wait on it). The action fails instead of holding every one behind it.
    if (error instanceof PageStuckError) {
      await chrome.debugger.sendCommand(target, "Runtime.terminateExecution").catch(() => {});
    }
    // A load the stopped action started is stopped with it: the tab is left on a page.
    if (error instanceof Stopped && NAVIGATIONS.has(method)) {
      await chrome.debugger.sendCommand({ tabId }, "Page.stopLoading").catch(() => {});
    }
    // Chrome refuses the command itself, so it did not run; input sent before it did.
    if (BARRED.test(String(error && error.message))) {
      const mayHaveRun = touched.has(tabId);
      throw mayHaveRun ? new Error(barred(true)) : new Refusal(barred(false));
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

chrome.debugger.onEvent.addListener((source, method, params) => {
  const { tabId, sessionId } = source;
  if (method === "Runtime.bindingCalled" && params.name === USER_INPUT) {
    if (!stops.has(tabId) && attached.has(tabId)) takeControl();
    return;
  }
  if (method === "Runtime.consoleAPICalled" || method === "Runtime.exceptionThrown") {
    heard(tabId, method, params);
    return;
  }
  if (method === "Page.javascriptDialogOpening") {
    dialogOpened(source, params);
    return;
  }
  if (method === "Input.dragIntercepted") {
    const handOver = drags.get(tabId);
    if (handOver) handOver(params.data);
    return;
  }
  if (method.startsWith("Runtime.executionContext") || method.startsWith("Target.")) {
    followContexts(tabId, sessionId, method, params);
    return;
  }
  if (method === "Page.frameNavigated" && !sessionId && params.frame.id === mainFrames.get(tabId)) {
    awaiting.delete(tabId); // its next document came
    return;
  }
  if (!params || params.frameId !== mainFrames.get(tabId) || sessionId) return;
  if (method === "Page.frameStartedLoading") {
    loading.add(tabId);
    awaiting.set(tabId, Date.now());
  } else if (method === "Page.frameStoppedLoading") {
    loading.delete(tabId);
    awaiting.delete(tabId);
  }
});

function followContexts(tabId, session, method, params) {
  const drop = (keep) => {
    for (const [key, place] of contexts) {
      if (key.startsWith(`${tabId}|`) && !keep(place)) contexts.delete(key);
    }
  };
  if (method === "Runtime.executionContextCreated") {
    const { id, auxData = {} } = params.context;
    if (auxData.isDefault && auxData.frameId) {
      contexts.set(`${tabId}|${auxData.frameId}`, { session, context: id });
    }
  } else if (method === "Runtime.executionContextDestroyed") {
    drop((place) => place.session !== session || place.context !== params.executionContextId);
  } else if (method === "Runtime.executionContextsCleared") {
    drop((place) => place.session !== session);
  } else if (method === "Target.attachedToTarget") {
    if (params.targetInfo.type !== "iframe") return;
    const send = (name, args = {}) =>
      chrome.debugger.sendCommand({ tabId, sessionId: params.sessionId }, name, args);
    // An out-of-process frame's target is its frame.
    watch(send, params.targetInfo.targetId).catch(() => {}); // a frame gone has nothing to read
  } else if (method === "Target.detachedFromTarget") {
    drop((place) => place.session !== params.sessionId);
  }
}
