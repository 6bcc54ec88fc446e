// browserhost's Chrome extension: the user's own browser as the host's "bridge" provider.
//
// It dials the host's bridge (src/browserhost/contract/bridge.py) and answers the ten actions
// in one tab at a time, through chrome.debugger (CDP): the agent's input arrives as trusted
// events, as a person's would. It acts only in tabs the user shared (the toolbar button) and
// tabs it opened itself (kept in a tab group); any other tab is never attached to.
//
//   badge   off (grey)   no connection: dialling again after 0.5 s, doubling up to 30 s
//           !   (red)    the host refused it (token, extension id, replaced): set the options
//           on  (green)  connected
//           ... (amber)  an action is running
//           you (blue)   the person took control by acting in the agent's tab: the host refuses
//                        the agent until they hand back with the toolbar button
//
// The page-side script is the chromium provider's snapshot.js, which the host sends in
// hello.ok: one copy serves both providers. It runs in the page (Runtime.evaluate), never in
// the extension.
"use strict";

const DEFAULT_URL = "ws://127.0.0.1:7878/ext/bridge";
const ACTIONS = [
  "browser.open", "browser.snapshot", "browser.click", "browser.type", "browser.scroll",
  "browser.back", "browser.forward", "browser.inspect", "browser.capture", "browser.resize",
];
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 30000;
const REFUSED = {
  4000: "Another browser connected to the host's bridge and took this one's place.",
  4002: "The host refused the token; set the one browserhost serve printed in the options.",
  4004: "The host accepts another extension (serve --extension-id).",
};
const GROUP_TITLE = "browserhost";
const TEXT_MAX = 20000; // SNAPSHOT_TEXT_MAX and SNAPSHOT_ELEMENTS_MAX of contract/limits.py
const ELEMENTS_MAX = 250;
const TEXT_CANDIDATES_MAX = 8;
const LOAD_WAIT_MS = 10000;
const SETTLE_MS = 3000;
const QUIET_MS = 50;
const VIEWPORT_SIZES = { mobile: [390, 844], tablet: [820, 1180], desktop: [1280, 800] };
// browser.inspect's styles: the chromium provider's INSPECT_STYLES.
const INSPECT_STYLES = [
  "display", "visibility", "opacity", "position", "z-index", "overflow", "box-sizing", "width",
  "height", "margin", "padding", "border", "color", "background-color", "font-family",
  "font-size", "font-weight", "line-height", "text-align", "cursor", "pointer-events",
];
// ElementState's wire fields (contract/data.py).
const STATE_FIELDS = [
  "value", "options", "checked", "multiple", "selected", "expanded", "pressed", "current", "sort",
  "required", "invalid", "readonly", "focused", "disabled",
];
const NO_TAB =
  "No tab is shared with the agent: the user shares one with the browserhost toolbar button, " +
  "or browser.open opens one.";

const link = {
  socket: null, url: DEFAULT_URL, backoff: BACKOFF_MIN_MS, timer: null, pageScript: null, attempts: 0,
  rpcs: 0, userInControl: false,
};
let status = "off";
let acting = 0;
let queue = Promise.resolve();
const attached = new Set();
const viewports = new Map(); // tab id -> mode, for the answers' viewport field

// --- which tabs the agent may touch -------------------------------------------------------

// In session storage, so a service worker woken again still knows them; forgotten when the
// browser closes.
async function tabs() {
  const { shared = [], opened = [], current = null } =
    await chrome.storage.session.get(["shared", "opened", "current"]);
  return { shared, opened, current };
}

async function allowed(tabId) {
  const { shared, opened } = await tabs();
  return shared.includes(tabId) || opened.includes(tabId);
}

async function share(tabId) {
  const { shared } = await tabs();
  await chrome.storage.session.set({ shared: [...new Set([...shared, tabId])], current: tabId });
  await chrome.action.setTitle({ tabId, title: "browserhost: shared with the agent (click to stop)" });
}

async function unshare(tabId) {
  const { shared, opened, current } = await tabs();
  await chrome.storage.session.set({
    shared: shared.filter((id) => id !== tabId),
    opened: opened.filter((id) => id !== tabId),
    current: current === tabId ? null : current,
  });
  if (attached.has(tabId)) await chrome.debugger.detach({ tabId }).catch(() => {});
  await chrome.action.setTitle({ tabId, title: "browserhost: share this tab with the agent" })
    .catch(() => {}); // the tab may be gone
}

/** The toolbar button: hands control back to the agent when the person took it; else
 * shares the tab it is clicked in, or stops sharing it. */
async function toggle(tab) {
  if (link.userInControl) handBack();
  else if (await allowed(tab.id)) await unshare(tab.id);
  else await share(tab.id);
}

chrome.action.onClicked.addListener(toggle);
chrome.tabs.onRemoved.addListener((tabId) => { unshare(tabId); });
chrome.debugger.onDetach.addListener(({ tabId }, reason) => {
  attached.delete(tabId);
  loading.delete(tabId);
  // The user closed Chrome's "is debugging this browser" bar: the tab is no longer shared.
  if (reason === "canceled_by_user") unshare(tabId);
});

async function agentTab(opening) {
  const { current, opened } = await tabs();
  if (current !== null && await allowed(current)) {
    const alive = await chrome.tabs.get(current).catch(() => null);
    if (alive) return current;
  }
  if (!opening) throw new Refusal(NO_TAB);
  const tab = await chrome.tabs.create({ url: "about:blank", active: false });
  const { groupId } = await groupOf(tab.id);
  await chrome.storage.session.set({ opened: [...opened, tab.id], current: tab.id, groupId });
  return tab.id;
}

async function groupOf(tabId) {
  const { groupId } = await chrome.storage.session.get("groupId");
  const existing = groupId === undefined ? null : await chrome.tabGroups.get(groupId).catch(() => null);
  const id = await chrome.tabs.group({ tabIds: [tabId], ...(existing ? { groupId } : {}) });
  if (!existing) await chrome.tabGroups.update(id, { title: GROUP_TITLE, color: "blue" });
  return { groupId: id };
}

// --- the connection -----------------------------------------------------------------------

function setStatus(next, text = "") {
  status = next;
  badge();
  chrome.storage.local.set({ state: { status: next, text } });
}

function takeControl() {
  if (link.userInControl || !link.socket) return;
  link.userInControl = true;
  badge();
  rpc("control.take");
}

function handBack() {
  link.userInControl = false;
  badge();
  rpc("control.handBack");
}

function rpc(method) {
  link.rpcs += 1;
  const message = { t: "rpc", id: `rpc-${link.rpcs}`, method };
  if (link.socket && link.socket.readyState === WebSocket.OPEN) link.socket.send(JSON.stringify(message));
}

function badge() {
  const [text, color] = link.userInControl ? ["you", "#1565c0"] : acting > 0 ? ["...", "#b26b00"]
    : { on: ["on", "#1a7f37"], refused: ["!", "#c62828"] }[status] || ["off", "#777777"];
  chrome.action.setBadgeText({ text });
  chrome.action.setBadgeBackgroundColor({ color });
}

async function connect() {
  const attempt = ++link.attempts;
  const { url, token = "" } = await chrome.storage.local.get(["url", "token"]);
  // Dials overlap (the worker's start and a change of options): only the latest may connect,
  // or an older socket's hello would take the bridge from it.
  if (attempt !== link.attempts) return;
  clearTimeout(link.timer); // set meanwhile, maybe, by the drop of the socket replaced here
  const old = link.socket;
  link.socket = null;
  link.userInControl = false; // the host gives it back as that connection ends
  if (old) old.close(1000, "dialling again");
  link.url = url || DEFAULT_URL;
  let socket;
  try {
    socket = new WebSocket(link.url);
  } catch (error) {
    setStatus("refused", `Not a bridge address: ${link.url}`);
    return;
  }
  link.socket = socket;
  setStatus("off", `Dialling ${link.url}`);
  socket.onopen = () => {
    socket.send(JSON.stringify({
      t: "hello", token, actions: ACTIONS, name: "Chrome extension", pageScript: true,
    }));
  };
  socket.onmessage = (event) => { if (link.socket === socket) receive(socket, event.data); };
  socket.onclose = (event) => { if (link.socket === socket) closed(event.code); };
}

function closed(code) {
  link.socket = null;
  link.userInControl = false; // the host gives control back when the connection ends
  if (code in REFUSED) {
    // Dialling again would be refused the same way; saving the options dials again.
    setStatus("refused", REFUSED[code]);
    return;
  }
  setStatus("off", `Not connected; dialling ${link.url} again`);
  link.timer = setTimeout(connect, link.backoff);
  link.backoff = Math.min(link.backoff * 2, BACKOFF_MAX_MS);
}

function receive(socket, raw) {
  let message;
  try {
    message = JSON.parse(raw);
  } catch (error) {
    return; // the host sends only JSON text; anything else is not for this side
  }
  if (message.t === "hello.ok") {
    link.pageScript = message.pageScript;
    link.backoff = BACKOFF_MIN_MS;
    setStatus("on", `Connected to ${link.url}`);
  } else if (message.t === "ping") {
    socket.send(JSON.stringify({ t: "pong" }));
  } else if (message.t === "tool.call") {
    // One action at a time: they act on one tab, and the host sends them in order.
    queue = queue.then(() => run(socket, message));
  }
  // tool.cancel: the host no longer waits for the answer; CDP offers no way to take back
  // input already sent, so the action runs to its end.
}

async function run(socket, call) {
  acting += 1;
  badge();
  let reply;
  try {
    const data = await perform(call.name, call.args || {});
    reply = { t: "tool.result", id: call.id, ok: true, result: { ok: true, data } };
  } catch (error) {
    if (error instanceof Refusal) {
      reply = { t: "tool.result", id: call.id, ok: true, result: { ok: false, error: error.message } };
    } else {
      // The tab closed, the debugger was detached, the page went away: it may have run.
      const message = String((error && error.message) || error);
      reply = { t: "tool.result", id: call.id, ok: false, error: { code: "lost", message } };
    }
  } finally {
    acting -= 1;
    badge();
  }
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(reply));
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && ("url" in changes || "token" in changes)) {
    link.backoff = BACKOFF_MIN_MS;
    connect();
  }
});

// --- the page, over CDP -------------------------------------------------------------------

/** An answer the agent reads ("ok: false" with what to do), not a failure of the bridge. */
class Refusal extends Error {}

async function attach(tabId) {
  if (attached.has(tabId)) return;
  try {
    await chrome.debugger.attach({ tabId }, "1.3");
  } catch (error) {
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
  await send("Page.enable");
  await send("Runtime.enable");
  await send("Runtime.addBinding", { name: USER_INPUT });
  await send("Page.addScriptToEvaluateOnNewDocument", { source: WATCH_USER });
  await send("Runtime.evaluate", { expression: WATCH_USER });
}

// The person's own clicks and keys in a tab the agent works in: they take control from the
// agent until they hand back (the toolbar button). The agent's input is trusted too, but only
// arrives while an action runs. A page could call the binding itself; at worst it stops the
// agent, which the person can undo.
const USER_INPUT = "browserhostUserInput";
const WATCH_USER = `for (const type of ["pointerdown", "keydown"]) {
  addEventListener(type, (event) => {
    if (event.isTrusted && typeof ${USER_INPUT} === "function") ${USER_INPUT}(type);
  }, true);
}`;

// Attached once, when an action starts: a tab closed or detached under an action is never
// attached again by it, and the action ends "may have run".
async function cdp(tabId, method, params = {}, waitMs = PAGE_ANSWER_MS) {
  if (!attached.has(tabId)) throw new Error("the tab was closed or its debugger detached");
  let timer;
  const stuck = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new PageStuckError()), waitMs);
  });
  try {
    return await Promise.race([chrome.debugger.sendCommand({ tabId }, method, params), stuck]);
  } catch (error) {
    // Ask the page to stop the script that never yields (best effort: input already in the
    // page may still wait on it). The action fails instead of holding every one behind it.
    if (error instanceof PageStuckError) {
      await chrome.debugger.sendCommand({ tabId }, "Runtime.terminateExecution").catch(() => {});
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

// The chromium provider's PAGE_ANSWER_S: the page script takes milliseconds.
const PAGE_ANSWER_MS = 8000;
const NAVIGATE_WAIT_MS = 30000;

class PageStuckError extends Error {
  constructor() {
    super(`The page stopped answering for ${PAGE_ANSWER_MS / 1000} s (a script on it never ` +
      "yields: an endless loop, or one dialog after another). The action may or may not have " +
      "happened; browser.open another page to go on.");
  }
}

// Whether each tab's page is loading: a submit or a click starts a navigation a moment after
// the input, while the old document still reads "complete".
const mainFrames = new Map();
const loading = new Set();
chrome.debugger.onEvent.addListener(({ tabId }, method, params) => {
  if (method === "Runtime.bindingCalled" && params.name === USER_INPUT) {
    if (acting === 0 && attached.has(tabId)) takeControl();
    return;
  }
  if (method === "Runtime.consoleAPICalled" || method === "Runtime.exceptionThrown") {
    heard(tabId, method, params);
    return;
  }
  if (method === "Page.javascriptDialogOpening") {
    dialogOpened(tabId, params);
    return;
  }
  if (!params || params.frameId !== mainFrames.get(tabId)) return;
  if (method === "Page.frameStartedLoading") loading.add(tabId);
  else if (method === "Page.frameStoppedLoading") loading.delete(tabId);
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The page script's answer to `op`, retried when a navigation replaced the document. */
async function page(tabId, op, args = {}) {
  if (!link.pageScript) throw new Error("the host sent no page script");
  const request = JSON.stringify({ op, ...args });
  const expression =
    `(async () => JSON.stringify(await (${link.pageScript})(${request})) ?? null)()`;
  for (let attempt = 1; ; attempt += 1) {
    const waitMs = PAGE_ANSWER_MS + (Number(args.maxMs) || 0); // quiet waits by design
    const reply = await cdp(tabId, "Runtime.evaluate", {
      expression, awaitPromise: true, returnByValue: true,
    }, waitMs).catch((error) => ({ failed: error }));
    if (reply.failed instanceof PageStuckError) throw reply.failed;
    if (!reply.failed && !reply.exceptionDetails) {
      return reply.result.value == null ? null : JSON.parse(reply.result.value);
    }
    const why = reply.failed ? reply.failed.message
      : (reply.exceptionDetails.exception || {}).description || reply.exceptionDetails.text;
    if (attempt >= 3 || !/context|navigat|destroyed/i.test(why)) throw new Error(why);
    await loaded(tabId);
  }
}

async function evaluate(tabId, expression) {
  const reply = await cdp(tabId, "Runtime.evaluate", { expression, returnByValue: true });
  return reply.result ? reply.result.value : undefined;
}

async function loaded(tabId, waitMs = LOAD_WAIT_MS) {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (!loading.has(tabId)) {
      const ready = await evaluate(tabId, "document.readyState").catch(() => null);
      if (ready === "complete") return true;
    }
    await sleep(50); // the load's end is an event of another context; polling it is simpler
  }
  return false;
}

/** Wait for the load, then for the document to stop changing (and for a navigation the
 * change started); the page script's last reading. */
async function settle(tabId, budgetMs = SETTLE_MS) {
  const deadline = Date.now() + budgetMs;
  while (await loaded(tabId, deadline - Date.now())) {
    const maxMs = Math.max(0, deadline - Date.now());
    const read = await page(tabId, "quiet", { quietMs: QUIET_MS, maxMs }).catch(() => null);
    if (!read || !read.quiet) return { quiet: false };
    if (!loading.has(tabId)) return read;
  }
  return { quiet: false };
}

function viewport(tabId) {
  const mode = viewports.get(tabId) || "fill";
  const [width, height] = VIEWPORT_SIZES[mode] || [null, null];
  return { mode, width, height };
}

// The page's console errors and warnings and its uncaught exceptions, kept until the next
// snapshot tells them (the chromium provider's words and limits).
const problems = new Map(); // tab id -> [{level, text, source?}]
const PROBLEMS_MAX = 50;
const PROBLEM_TEXT_MAX = 500;

function heard(tabId, method, params) {
  let problem;
  if (method === "Runtime.exceptionThrown") {
    const details = params.exceptionDetails;
    const said = (details.exception && details.exception.description) || details.text;
    problem = { level: "error", text: `Uncaught ${String(said).split("\n")[0]}` };
  } else if (params.type === "error" || params.type === "warning") {
    const text = params.args.map((arg) => ("value" in arg ? String(arg.value) : arg.description))
      .join(" ");
    const frame = params.stackTrace && params.stackTrace.callFrames[0];
    problem = { level: params.type, text };
    if (frame && frame.url) {
      problem.source = frame.lineNumber > 0 ? `${frame.url}:${frame.lineNumber + 1}` : frame.url;
    }
  } else {
    return;
  }
  problem.text = problem.text.slice(0, PROBLEM_TEXT_MAX);
  const kept = problems.get(tabId) || [];
  kept.push(problem);
  problems.set(tabId, kept.slice(-PROBLEMS_MAX));
}

function drainProblems(tabId) {
  const kept = problems.get(tabId) || [];
  problems.delete(tabId);
  return kept;
}

// A dialog during the agent's action is dismissed and told in the answer, as the chromium
// provider does by default: it would hold the page, and every later action with it. One that
// opens while no action runs is the person's to answer.
const dialogs = new Map(); // tab id -> the dialogs of the running action
const DIALOG_TEXT_MAX = 500;

function dialogOpened(tabId, { type, message }) {
  if (acting === 0) return;
  const seen = dialogs.get(tabId) || [];
  seen.push({ type, message: String(message).slice(0, DIALOG_TEXT_MAX), answer: "dismissed" });
  dialogs.set(tabId, seen);
  chrome.debugger.sendCommand({ tabId }, "Page.handleJavaScriptDialog", { accept: false })
    .catch(() => {}); // closed meanwhile: nothing holds the page
}

function takeDialogs(tabId) {
  const seen = dialogs.get(tabId);
  dialogs.delete(tabId);
  return seen && seen.length ? { dialogs: seen } : {};
}

// --- the ten actions ----------------------------------------------------------------------

async function perform(name, args) {
  const action = ACTIONS_BY_NAME[name];
  if (!action) throw new Refusal(`${name} is not an action this browser serves.`);
  const tabId = await agentTab(name === "browser.open");
  await attach(tabId);
  dialogs.delete(tabId);
  return action(tabId, args);
}

const ACTIONS_BY_NAME = {
  "browser.open": async (tabId, { url, viewport: mode }) => {
    const why = refusalToOpen(url);
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

  "browser.snapshot": async (tabId, { selector }) => {
    const read = await page(tabId, "snapshot", {
      scope: selector || null, textMax: TEXT_MAX, elementsMax: ELEMENTS_MAX,
    });
    checkFound(read, selector);
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
    if (read.url === "about:blank") answer.notice = "Nothing is open: the page is blank; use browser.open.";
    return answer;
  },

  "browser.click": async (tabId, { selector, text }) => {
    const chosen = selector || await byText(tabId, text || "");
    const info = await target(tabId, chosen, "click", { fresh: !selector, watch: true });
    const x = Number(info.aim.x);
    const y = Number(info.aim.y);
    const mouse = { x, y, button: "left", clickCount: 1 };
    await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
    await cdp(tabId, "Input.dispatchMouseEvent", { type: "mousePressed", ...mouse });
    await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", ...mouse });
    const settled = await settle(tabId);
    const now = settled.url ? settled : await location(tabId);
    return {
      clicked: chosen, label: info.label, url: now.url, title: now.title, ...takeDialogs(tabId),
      ...stateAfter(settled),
    };
  },

  "browser.type": async (tabId, { selector, value, submit }) => {
    const info = await target(tabId, selector, "type", { watch: Boolean(submit) });
    if (!info.typable) {
      if (info.tag !== "input") {
        throw new Refusal(`${selector} is not a text field; take a new snapshot and pick an ` +
          "input, a select, a textarea or an editable element.");
      }
      throw new Refusal(`${selector} is a ${info.type} input, not a text field; use browser.click for it.`);
    }
    if (info.readonly) throw new Refusal(`${selector} is read-only; nothing was typed.`);
    if (info.tag === "select") {
      await choose(tabId, selector, info, value);
    } else {
      // Focus and select what is there, so the typed text replaces it as a person's would.
      await evaluate(tabId, `(async () => {
        const el = await (${link.pageScript})({ op: "stashed" });
        el.focus();
        if (typeof el.select === "function") el.select();
        else getSelection().selectAllChildren(el);
      })()`);
      if (value) await cdp(tabId, "Input.insertText", { text: value });
      else await key(tabId, "Backspace", "Backspace", 8);
    }
    if (submit) await key(tabId, "Enter", "Enter", 13, "\r");
    const settled = submit ? await settle(tabId) : (await page(tabId, "state")) || {};
    const now = settled.url ? settled : await location(tabId);
    return { selector, url: now.url, title: now.title, ...takeDialogs(tabId), ...stateAfter(settled) };
  },

  "browser.scroll": async (tabId, { selector, direction }) => {
    const chosen = selector ? null : direction;
    let moved = await page(tabId, "scroll", { selector: selector || null, direction: chosen });
    checkFound(moved, selector);
    // Pages load more as they are scrolled: the answer is the page after that.
    if ((await settle(tabId, 1000)).quiet) moved = await page(tabId, "position");
    return {
      scrollY: moved.scrollY, maxScrollY: moved.maxScrollY, atTop: moved.scrollY <= 0,
      atBottom: moved.scrollY >= moved.maxScrollY - 1, scrolledTo: selector || null,
      direction: chosen || null,
    };
  },

  "browser.back": (tabId) => travel(tabId, -1),
  "browser.forward": (tabId) => travel(tabId, +1),

  "browser.inspect": async (tabId, { selector }) => {
    const info = await target(tabId, selector, "inspect", { styles: INSPECT_STYLES });
    // The script also answers facts for this side's own use (aim, typable, count...).
    const fields = ["tag", "label", "bounds", "inViewport", "styles", "type", "role", ...STATE_FIELDS];
    return Object.fromEntries([["selector", selector], ...fields.filter((f) => f in info).map((f) => [f, info[f]])]);
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
};

function refusalToOpen(url) {
  let parts;
  try {
    parts = new URL(url);
  } catch (error) {
    return "it is not an address";
  }
  if (parts.protocol !== "http:" && parts.protocol !== "https:") {
    return "only http and https pages may be loaded";
  }
  // The host's own API and docs are never shown: a page's text could send the agent there.
  const own = new URL(link.url.replace(/^ws/, "http"));
  const local = (name) => ["localhost", "127.0.0.1", "[::1]"].includes(name);
  if (parts.port === own.port && (parts.hostname === own.hostname ||
      (local(parts.hostname) && local(own.hostname)))) {
    return "it is browserhost's own address, which the browser does not show";
  }
  return null;
}

async function location(tabId) {
  const [url, title] = await evaluate(tabId, "[location.href, document.title]") || ["", ""];
  return { url, title };
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

async function choose(tabId, selector, info, value) {
  const wanted = info.multiple ? value.split(",").map((one) => one.trim()) : [value];
  const values = wanted.map((one) => optionValue(selector, info.choices || [], one));
  await evaluate(tabId, `(async () => {
    const el = await (${link.pageScript})({ op: "stashed" });
    const values = ${JSON.stringify(values)};
    for (const option of el.options) option.selected = values.includes(option.value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  })()`);
}

function optionValue(selector, options, wanted) {
  for (const field of ["label", "value"]) {
    const found = options.find((option) => option[field] === wanted);
    if (found) return found.value;
  }
  const folded = options.find((option) => option.label.toLowerCase() === wanted.toLowerCase());
  if (folded) return folded.value;
  const listed = options.slice(0, 20).map((option) => `"${option.label}"`).join(", ");
  throw new Refusal(`${selector} has no option "${wanted}"; its options are ${listed}.`);
}

// The state an action's answer carries: ElementState's fields, without those the snapshot has.
function stateAfter(read) {
  const state = { ...((read && read.state) || {}) };
  for (const left of ["options", "focused", "multiple"]) delete state[left];
  return state;
}

function pngSize(base64) {
  const head = atob(base64.slice(0, 32));
  const at = (i) => ((head.charCodeAt(i) << 24) | (head.charCodeAt(i + 1) << 16) |
    (head.charCodeAt(i + 2) << 8) | head.charCodeAt(i + 3)) >>> 0;
  return [at(16), at(20)];
}

// --- the element an agent names: the chromium provider's checks (targets.py), same words ----

async function target(tabId, selector, purpose, { styles = null, fresh = false, watch = false } = {}) {
  if (selector.includes(" >> ") && await stepsIntoFrame(tabId, selector)) {
    throw new Refusal(`${selector} steps into an iframe, which this browser does not reach yet; ` +
      "use a selector of the page itself.");
  }
  const info = await page(tabId, "target", { selector, purpose, styles, fresh, watch });
  checkFound(info, selector);
  checkCount(Number(info.count), selector);
  if (info.changed) {
    throw new Refusal(`${selector} no longer names the element your latest snapshot listed ` +
      "(the page changed); take a new snapshot.");
  }
  if (purpose !== "inspect") checkUsable(selector, info, purpose);
  return info;
}

async function stepsIntoFrame(tabId, selector) {
  const step = await page(tabId, "hop", { selector });
  return Boolean(step && step.enterFrame);
}

function checkFound(answer, selector) {
  const error = answer && answer.error;
  if (error === "invalid") {
    throw new Refusal(`${selector} is not a valid CSS selector; copy a selector from the latest snapshot.`);
  }
  if (error === "nohost") {
    throw new Refusal(`${answer.partial} is neither an iframe nor an element with an open shadow ` +
      `root, so ${selector} cannot step into it; copy a selector from the latest snapshot.`);
  }
  if (error === "count") checkCount(Number(answer.count), answer.selector || selector || "");
}

function checkCount(count, selector) {
  if (count === 0) throw new Refusal(`No element matches ${selector}; take a new snapshot.`);
  if (count > 1) {
    throw new Refusal(`${selector} matches ${count} elements; take a new snapshot and use a ` +
      "selector that matches exactly one.");
  }
}

function checkUsable(selector, info, purpose) {
  const verb = purpose === "click" ? "clicked" : "typed";
  if (info.disabled) {
    throw new Refusal(`${selector} is disabled, so nothing was ${verb}; do what enables it first ` +
      "(fill the required fields, pick an option), then take a new snapshot.");
  }
  const aim = info.aim || {};
  if (aim.hidden) {
    throw new Refusal(`${selector} is not visible (hidden, or inside a closed menu, tab or ` +
      `dialog), so nothing was ${verb}; open what contains it, or take a new snapshot.`);
  }
  if (aim.inert) {
    throw new Refusal(`${selector} does not take clicks (its style lets them through to what is ` +
      `under it), so nothing was ${verb}; the page does not offer it now.`);
  }
  if (aim.outside) {
    throw new Refusal(`${selector} is outside the visible part of its container, so nothing was ` +
      `${verb}; scroll to it with browser.scroll, or take a new snapshot.`);
  }
  const cover = aim.coveredBy;
  if (cover) {
    const label = cover.label ? ` "${cover.label}"` : "";
    throw new Refusal(`${selector} is covered by ${cover.selector} (${cover.tag}${label}), so ` +
      `nothing was ${verb}. Close or dismiss what covers it first (a dialog's close button, a ` +
      "banner's accept button), then try again.");
  }
}

async function byText(tabId, text) {
  const found = await page(tabId, "findText", { text, limit: TEXT_CANDIDATES_MAX });
  if (found.total === 0) {
    throw new Refusal(`No visible element has the text "${text}"; take a new snapshot and click by selector.`);
  }
  if (found.total > 1) {
    const listed = found.matches.map((m) => `${m.selector} (${m.tag} "${m.label}")`).join("; ");
    const more = found.total > found.matches.length ? `; and ${found.total - found.matches.length} more` : "";
    throw new Refusal(`"${text}" matches ${found.total} elements: ${listed}${more}. Nothing was ` +
      "clicked; click one by its selector.");
  }
  return found.matches[0].selector;
}

// A service worker is started again on any event; each start dials the host.
badge();
connect();
