// browserhost's Chrome extension: the user's own browser as the host's "bridge" provider.
//
// It dials the host's bridge (src/browserhost/contract/bridge.py) and answers the ten actions
// and the verbs drag and select_text through chrome.debugger (CDP): the agent's input arrives
// as trusted events, as a person's would. It acts only in tabs the user shared (from its
// popup) and tabs it opened itself (kept in a tab group); any other tab is never attached to.
//
//   which tab   each agent session (the host's directory and session id) gets a tab of its
//               own on its first browser.open; until then it acts in the tab the user shared
//               last, and with none shared it is refused. Calls of one session run in order;
//               calls of different sessions run side by side, one at a time in any one tab.
//   frames      same-origin and cross-origin iframes are read and acted in (a cross-origin one
//               through the child CDP session Chrome attaches for it); one Chrome lets no
//               extension into is named as such in a snapshot, and actions in it are refused.
//   deadlines   a call stops at the host's deadline (expiresAt, on this machine's clock
//               through hello.ok's serverTime) or at tool.cancel: its waits end, a navigation
//               it started is stopped, and it answers "expired" or "cancelled".
//   pairing     with no token set, it asks the host to pair (pair: true): the host holds it
//               until a person approves it in the viewer or with `browserhost bridge approve
//               ID`, then sends a secret of its own (hello.paired), kept per bridge address in
//               chrome.storage.local and presented on every later connection instead.
//   badge       off (grey)   no connection: dialling again after 0.5 s, doubling up to 30 s
//               ?   (purple) waiting for a person to approve it; the popup says its id
//               !   (red)    the host refused it (token, extension id, denied, forgotten, not
//                            approved in time, replaced): the popup's Connect again, or the
//                            options, dial again
//               on  (green)  connected
//               ... (amber)  an action is running
//               you (blue)   the person took control by acting in an agent's tab: the host
//                            refuses the agent until they hand back from the popup
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
  4005: "The host does not know this browser (it was forgotten, or the host is another): " +
    "Connect again to ask for approval.",
  4006: "The host's user denied this browser. Connect again to ask again.",
  4007: "Nobody approved this browser in time. Connect again to ask again.",
};
const NOT_PAIRED = 4005;
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
  "No tab is shared with the agent, and this agent session has opened none: browser.open " +
  "opens one in the browserhost tab group, or the user shares a tab from the browserhost button.";
// The host stops listening at expiresAt; an answer sent this much earlier still reaches it.
const DEADLINE_MARGIN_MS = 300;

const link = {
  socket: null, url: DEFAULT_URL, backoff: BACKOFF_MIN_MS, timer: null, pageScript: null, attempts: 0,
  rpcs: 0, userInControl: false, clockOffset: 0, pending: null, kept: Promise.resolve(),
};
let status = "off";
let acting = 0;
const attached = new Set();
const viewports = new Map(); // tab id -> mode, for the answers' viewport field

// --- which tabs the agent may touch -------------------------------------------------------

// In session storage, so a service worker woken again still knows them; forgotten when the
// browser closes. shared: the tabs the user shared, the latest last; opened: the tabs the
// agent opened; sessions: agent session key -> the tab it opened.
async function tabs() {
  const { shared = [], opened = [], sessions = {} } =
    await chrome.storage.session.get(["shared", "opened", "sessions"]);
  return { shared, opened, sessions };
}

// Changes to the lists one at a time: two sessions' first opens must not drop each other's tab.
let editing = Promise.resolve();
function edit(change) {
  const done = editing.then(async () => chrome.storage.session.set(await change(await tabs())));
  editing = done.catch(() => {});
  return done;
}

async function allowed(tabId) {
  const { shared, opened } = await tabs();
  return shared.includes(tabId) || opened.includes(tabId);
}

const alive = (tabId) => chrome.tabs.get(tabId).then(() => true, () => false);

async function share(tabId) {
  await edit(({ shared }) => ({ shared: [...shared.filter((id) => id !== tabId), tabId] }));
  await chrome.action.setTitle({ tabId, title: "browserhost: this tab is shared with the agent" });
}

async function unshare(tabId) {
  await edit(({ shared, opened, sessions }) => ({
    shared: shared.filter((id) => id !== tabId),
    opened: opened.filter((id) => id !== tabId),
    sessions: Object.fromEntries(Object.entries(sessions).filter(([, id]) => id !== tabId)),
  }));
  if (attached.has(tabId)) {
    await chrome.debugger.detach({ tabId }).catch(() => {});
    forget(tabId); // Chrome tells onDetach only of detaches it did not ask for
  }
  await chrome.action.setTitle({ tabId, title: "browserhost" }).catch(() => {}); // may be gone
}

chrome.tabs.onRemoved.addListener((tabId) => { unshare(tabId); });
chrome.debugger.onDetach.addListener(({ tabId }, reason) => {
  forget(tabId);
  // The user closed Chrome's "is debugging this browser" bar: the tab is no longer shared.
  if (reason === "canceled_by_user") unshare(tabId);
});

/** The tab an agent session acts in: its own, else the one the user shared last; an open
 * without a tab of its own opens one. */
async function agentTab(key, opening) {
  const { shared, opened, sessions } = await tabs();
  const own = sessions[key];
  if (own !== undefined && opened.includes(own) && await alive(own)) return own;
  if (opening) return openTab(key);
  for (const tabId of [...shared].reverse()) {
    if (await alive(tabId)) return tabId;
  }
  throw new Refusal(NO_TAB);
}

async function openTab(key) {
  const tab = await chrome.tabs.create({ url: "about:blank", active: false });
  await edit(async ({ opened, sessions }) => ({
    opened: [...opened, tab.id], sessions: { ...sessions, [key]: tab.id }, ...await groupOf(tab.id),
  }));
  return tab.id;
}

async function groupOf(tabId) {
  const { groupId } = await chrome.storage.session.get("groupId");
  const existing = groupId === undefined ? null : await chrome.tabGroups.get(groupId).catch(() => null);
  const id = await chrome.tabs.group({ tabIds: [tabId], ...(existing ? { groupId } : {}) });
  if (!existing) await chrome.tabGroups.update(id, { title: GROUP_TITLE, color: "blue" });
  return { groupId: id };
}

// --- the popup ----------------------------------------------------------------------------

// What the popup shows and the buttons it has: it asks here, so the socket stays this side's.
const ASKED = {
  view,
  share: ({ tabId }) => share(tabId),
  unshare: ({ tabId }) => unshare(tabId),
  handBack: () => handBack(),
  reconnect: () => {
    link.backoff = BACKOFF_MIN_MS;
    return connect();
  },
};

chrome.runtime.onMessage.addListener((message, sender, reply) => {
  const answer = ASKED[message && message.ask];
  if (!answer) return false;
  Promise.resolve(answer(message)).then(
    (result) => reply({ ok: true, result: result ?? null }),
    (error) => reply({ ok: false, error: String((error && error.message) || error) }),
  );
  return true; // answered later
});

async function view({ tabId }) {
  const { shared, opened } = await tabs();
  const describe = async (id) => {
    const tab = await chrome.tabs.get(id).catch(() => null);
    return tab && { id, title: tab.title || tab.url || "", url: tab.url || "" };
  };
  const listed = async (ids) => (await Promise.all(ids.map(describe))).filter(Boolean);
  const sharedTabs = await listed([...shared].reverse());
  return {
    status,
    text: (await chrome.storage.local.get("state")).state?.text || "",
    userInControl: link.userInControl,
    shared: sharedTabs,
    agentTabs: await listed(opened),
    thisTab: await describe(tabId),
    thisShared: shared.includes(tabId) || opened.includes(tabId),
  };
}

// --- the connection -----------------------------------------------------------------------

function setStatus(next, text = "") {
  status = next;
  badge();
  chrome.storage.local.set({ state: { status: next, text } });
}

function setControl(userInControl) {
  link.userInControl = userInControl;
  badge();
  chrome.storage.session.set({ control: userInControl ? "user" : "agent" }); // the popup watches
}

function takeControl() {
  if (link.userInControl || !link.socket) return;
  setControl(true);
  rpc("control.take");
}

function handBack() {
  setControl(false);
  rpc("control.handBack");
}

function rpc(method) {
  link.rpcs += 1;
  const message = { t: "rpc", id: `rpc-${link.rpcs}`, method };
  if (link.socket && link.socket.readyState === WebSocket.OPEN) link.socket.send(JSON.stringify(message));
}

function badge() {
  const [text, color] = link.userInControl ? ["you", "#1565c0"] : acting > 0 ? ["...", "#b26b00"]
    : { on: ["on", "#1a7f37"], pending: ["?", "#6a1b9a"], refused: ["!", "#c62828"] }[status]
      || ["off", "#777777"];
  chrome.action.setBadgeText({ text });
  chrome.action.setBadgeBackgroundColor({ color });
}

async function connect() {
  const attempt = ++link.attempts;
  const { url, token = "", pairings = {} } =
    await chrome.storage.local.get(["url", "token", "pairings"]);
  // Dials overlap (the worker's start and a change of options): only the latest may connect,
  // or an older socket's hello would take the bridge from it.
  if (attempt !== link.attempts) return;
  clearTimeout(link.timer); // set meanwhile, maybe, by the drop of the socket replaced here
  const old = link.socket;
  link.socket = null;
  setControl(false); // the host gives it back as that connection ends
  if (old) old.close(1000, "dialling again");
  link.url = url || DEFAULT_URL;
  link.pending = null;
  // A token, else the pairing a person approved for this address, else a request to pair.
  const pairing = token ? undefined : pairings[link.url];
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
      t: "hello", token, actions: ACTIONS, verbs: VERBS, name: "Chrome extension", pageScript: true,
      pairing, pair: !token && !pairing,
    }));
  };
  socket.onmessage = (event) => { if (link.socket === socket) receive(socket, event.data); };
  socket.onclose = (event) => { if (link.socket === socket) closed(event.code); };
}

async function forgetPairing(url) {
  const { pairings = {} } = await chrome.storage.local.get("pairings");
  delete pairings[url];
  await chrome.storage.local.set({ pairings });
}

async function keepPairing(url, id, secret) {
  const { pairings = {} } = await chrome.storage.local.get("pairings");
  await chrome.storage.local.set({ pairings: { ...pairings, [url]: { id, secret } } });
}

function closed(code) {
  link.socket = null;
  link.pending = null;
  // The host does not know the secret any more: the next dial asks a person again.
  if (code === NOT_PAIRED) forgetPairing(link.url);
  setControl(false); // the host gives control back when the connection ends
  // The host no longer waits for any answer: what runs stops, and nothing queued starts.
  for (const controller of calls.values()) {
    controller.abort(new Stopped("cancelled", "the connection to the host closed"));
  }
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
  if (message.t === "hello.pending") {
    link.pending = String(message.id);
    setStatus("pending", `Waiting for approval in the browserhost viewer (or: browserhost ` +
      `bridge approve ${link.pending}).`);
  } else if (message.t === "hello.paired") {
    link.pending = null;
    link.kept = keepPairing(link.url, String(message.id), String(message.secret));
  } else if (message.t === "hello.ok") {
    link.pageScript = message.pageScript;
    link.backoff = BACKOFF_MIN_MS;
    if (Number.isFinite(message.serverTime)) link.clockOffset = message.serverTime - Date.now();
    // "on" once a new pairing is kept: the next dial, after any restart, presents it.
    link.kept.then(() => {
      if (link.socket === socket) setStatus("on", `Connected to ${link.url}`);
    });
  } else if (message.t === "ping") {
    socket.send(JSON.stringify({ t: "pong" }));
  } else if (message.t === "tool.call") {
    start(socket, message);
  } else if (message.t === "tool.cancel") {
    const controller = calls.get(message.id);
    if (controller) controller.abort(new Stopped("cancelled", "the host cancelled it"));
  }
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && ("url" in changes || "token" in changes)) {
    link.backoff = BACKOFF_MIN_MS;
    connect();
  }
});

// --- running calls: in order per agent session, until the host's deadline or cancel -------

/** The host stopped waiting for a call (its deadline passed, it cancelled, the connection
 * closed): what it waits for ends, and its answer says whether it may have run. */
class Stopped extends Error {
  constructor(code, why) {
    super(why);
    this.code = code;
  }
}

const calls = new Map(); // call id -> its AbortController, until it is answered
const queues = new Map(); // agent session key -> the end of its last call

function start(socket, call) {
  const key = JSON.stringify([call.directory ?? null, call.sessionId ?? null]);
  const controller = new AbortController();
  calls.set(call.id, controller);
  const left = Number(call.expiresAt) - link.clockOffset - DEADLINE_MARGIN_MS - Date.now();
  const timer = setTimeout(
    () => controller.abort(new Stopped("expired", "the host's deadline passed")),
    Number.isFinite(left) ? Math.max(0, left) : 0,
  );
  const previous = queues.get(key) || Promise.resolve();
  const running = run(socket, call, key, controller.signal, previous);
  // The next call of this session waits for this one and for every one before it, even when
  // this one was stopped while it still waited.
  const tail = Promise.all([previous, running]);
  queues.set(key, tail);
  tail.then(() => { if (queues.get(key) === tail) queues.delete(key); });
  running.finally(() => {
    clearTimeout(timer);
    calls.delete(call.id);
  });
}

/** `promise`, or the signal's reason as soon as it is aborted. */
function until(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort;
  const stopped = new Promise((resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, stopped]).finally(() => signal.removeEventListener("abort", onAbort));
}

async function run(socket, call, key, signal, previous) {
  const began = { page: false }; // whether anything reached a page: then it may have run
  let reply;
  try {
    await until(previous, signal);
    const data = await perform(call.name, call.args || {}, key, signal, began);
    reply = { t: "tool.result", id: call.id, ok: true, result: { ok: true, data } };
  } catch (error) {
    if (error instanceof Refusal) {
      reply = { t: "tool.result", id: call.id, ok: true, result: { ok: false, error: error.message } };
    } else if (error instanceof Stopped) {
      const outcome = began.page ? "while it ran; it may have run" : "before it reached the page; nothing ran";
      const message = `${call.name} stopped: ${error.message} ${outcome}.`;
      reply = { t: "tool.result", id: call.id, ok: false, error: { code: error.code, message } };
    } else {
      // The tab closed, the debugger was detached, the page went away: it may have run.
      const message = String((error && error.message) || error);
      reply = { t: "tool.result", id: call.id, ok: false, error: { code: "lost", message } };
    }
  }
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(reply));
}

// One action at a time in a tab, whichever session it is for; the action's stop signal is
// where every wait on that tab looks (cdp, loaded, ...).
const tabLocks = new Map(); // tab id -> the end of the last action that asked for it
const stops = new Map(); // tab id -> the stop signal of the action running in it

async function holdTab(tabId, signal, work) {
  const previous = tabLocks.get(tabId) || Promise.resolve();
  let release;
  const mine = new Promise((resolve) => { release = resolve; });
  const tail = previous.then(() => mine);
  tabLocks.set(tabId, tail);
  try {
    await until(previous, signal);
    stops.set(tabId, signal);
    return await work();
  } finally {
    if (stops.get(tabId) === signal) stops.delete(tabId);
    release();
    tail.then(() => { if (tabLocks.get(tabId) === tail) tabLocks.delete(tabId); });
  }
}

function checkStopped(tabId) {
  const signal = stops.get(tabId);
  if (signal && signal.aborted) throw signal.reason;
}

// --- the page, over CDP -------------------------------------------------------------------

/** An answer the agent reads ("ok: false" with what to do), not a failure of the bridge. */
class Refusal extends Error {}

async function attach(tabId) {
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
  await watch(send);
}

/** What every document of the tab is watched for: its execution contexts, its dialogs, the
 * person's input, and (for cross-origin iframes) the child sessions Chrome attaches. */
async function watch(send) {
  await send("Page.enable");
  await send("Runtime.enable");
  await send("Runtime.addBinding", { name: USER_INPUT });
  await send("Page.addScriptToEvaluateOnNewDocument", { source: WATCH_USER });
  await send("Runtime.evaluate", { expression: WATCH_USER });
  // A Chrome that cannot attach to a frame's process leaves that frame unreachable, and a
  // snapshot says so.
  await send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: true })
    .catch(() => {});
}

function forget(tabId) {
  attached.delete(tabId);
  loading.delete(tabId);
  mainFrames.delete(tabId);
  for (const key of contexts.keys()) if (key.startsWith(`${tabId}|`)) contexts.delete(key);
}

// The person's own clicks and keys in a tab the agent works in: they take control from the
// agent until they hand back (the popup). The agent's input is trusted too, but only arrives
// while an action runs in that tab. A page could call the binding itself; at worst it stops
// the agent, which the person can undo.
const USER_INPUT = "browserhostUserInput";
const WATCH_USER = `for (const type of ["pointerdown", "keydown"]) {
  addEventListener(type, (event) => {
    if (event.isTrusted && typeof ${USER_INPUT} === "function") ${USER_INPUT}(type);
  }, true);
}`;

// Where a page-script question is asked: a frame of a tab, through the tab's own CDP session
// or a cross-origin frame's child session, in that frame's execution context (the main frame
// needs none); `x`, `y` are the frame's offset in the page, `prefix` the iframe steps that
// reach it (`#pay >> `), `selector` what is left to match in it.
function mainPlace(tabId, selector = "") {
  return { tabId, session: undefined, context: undefined, frameId: mainFrames.get(tabId), selector,
    x: 0, y: 0, prefix: "", shown: true };
}

const asPlace = (where) => (typeof where === "number" ? mainPlace(where) : where);

// Attached once, when an action starts: a tab closed or detached under an action is never
// attached again by it, and the action ends "may have run".
async function cdp(where, method, params = {}, waitMs = PAGE_ANSWER_MS) {
  const { tabId, session } = asPlace(where);
  if (!attached.has(tabId)) throw new Error("the tab was closed or its debugger detached");
  checkStopped(tabId);
  if (method.startsWith("Input.") || NAVIGATIONS.has(method)) touched.add(tabId);
  const target = session ? { tabId, sessionId: session } : { tabId };
  let timer;
  const stuck = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new PageStuckError()), waitMs);
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

const NAVIGATIONS = new Set(["Page.navigate", "Page.navigateToHistoryEntry"]);
const touched = new Set(); // tabs the running action sent input or a navigation to

// Chrome refuses an extension every command in a tab that shows a browser page, or another
// extension's page in a frame (a password manager's, say): no frame of it can be reached.
const BARRED = /Cannot access a chrome(-extension)?:\/\/ URL/;
function barred(mayHaveRun) {
  const said = "Chrome lets no extension into this tab: it shows a browser page, or another " +
    "extension's page in a frame, and then every command in the tab is refused";
  return mayHaveRun
    ? `${said}. It was refused midway, after input was sent: it may have run.`
    : `${said}, so nothing was done. Wait until that frame is gone, or browser.open another page.`;
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
// Each frame's page-world execution context: tab id|frame id -> {session, context}.
const contexts = new Map();

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
  if (!params || params.frameId !== mainFrames.get(tabId) || sessionId) return;
  if (method === "Page.frameStartedLoading") loading.add(tabId);
  else if (method === "Page.frameStoppedLoading") loading.delete(tabId);
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
    watch(send).catch(() => {}); // a frame gone already has nothing to read
  } else if (method === "Target.detachedFromTarget") {
    drop((place) => place.session !== params.sessionId);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A failure that ends the action, where one frame or one reading failing would not. */
const fatal = (error) =>
  error instanceof Stopped || error instanceof PageStuckError || error instanceof Refusal;

const UNREACHABLE = "Chrome lets no extension into its document (a browser page, another " +
  "extension's page, or a page it blocked)";

/** A frame's place, by frame id: waits a moment for a frame that is still loading. */
async function reach(tabId, frameId, waitMs = 1000) {
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
async function page(where, op, args = {}) {
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
    if (attempt >= 3 || !/context|navigat|destroyed/i.test(why)) throw new Error(why);
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

async function evaluate(where, expression) {
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
async function handle(place, expression) {
  const params = { expression, returnByValue: false, awaitPromise: true };
  if (place.context !== undefined) params.contextId = place.context;
  const reply = await cdp(place, "Runtime.evaluate", params);
  return reply.result && reply.result.objectId;
}

const release = (place, objectId) => {
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

/** Wait for the load, then for the document to stop changing (and for a navigation the
 * change started); the page script's last reading. */
async function settle(tabId, budgetMs = SETTLE_MS) {
  const deadline = Date.now() + budgetMs;
  while (await loaded(tabId, deadline - Date.now())) {
    const maxMs = Math.max(0, deadline - Date.now());
    const read = await page(tabId, "quiet", { quietMs: QUIET_MS, maxMs }).catch((error) => {
      if (fatal(error)) throw error;
      return null;
    });
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

// --- iframes: the chromium provider's targets.locate and child_frames, over CDP ------------

const HOP = " >> ";
const FRAME_DEPTH_MAX = 4; // targets.FRAME_DEPTH_MAX

/** The place of the frame that holds the element `selector` ends on; refuses a step that
 * does not name exactly one iframe, or one whose document this browser cannot reach. */
async function locate(tabId, selector) {
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
async function childFrames(place) {
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
 * frames it could not enter are listed in `missed`. */
async function readFrames(located, read, missed, depth = 0) {
  if (depth >= FRAME_DEPTH_MAX) return;
  for (const inner of await childFrames(located)) {
    const heading = `[frame ${inner.prefix.slice(0, -HOP.length)}]`;
    if (inner.unreachable) {
      missed.push(inner.prefix.slice(0, -HOP.length));
      const said = `${heading}\n(not read: ${UNREACHABLE})`;
      if (read.text.length < TEXT_MAX) read.text = (read.text + (read.text ? "\n\n" : "") + said).slice(0, TEXT_MAX);
      continue;
    }
    const room = ELEMENTS_MAX - read.elements.length;
    if (room <= 0) return;
    let sub;
    try {
      sub = await page(inner, "snapshot", { scope: null, textMax: TEXT_MAX, elementsMax: room });
      await readFrames(inner, sub, missed, depth + 1);
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
    if (sub.text && read.text.length < TEXT_MAX) {
      const framed = (read.text ? "\n\n" : "") + `${heading}\n${sub.text}`;
      read.text = (read.text + framed).slice(0, TEXT_MAX);
    }
    read.textTotalChars += sub.textTotalChars;
  }
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

function dialogOpened(source, { type, message }) {
  const { tabId } = source; // with a cross-origin frame's session, when it opened there
  if (!stops.has(tabId)) return;
  const seen = dialogs.get(tabId) || [];
  seen.push({ type, message: String(message).slice(0, DIALOG_TEXT_MAX), answer: "dismissed" });
  dialogs.set(tabId, seen);
  chrome.debugger.sendCommand(source, "Page.handleJavaScriptDialog", { accept: false })
    .catch(() => {}); // closed meanwhile: nothing holds the page
}

function takeDialogs(tabId) {
  const seen = dialogs.get(tabId);
  dialogs.delete(tabId);
  return seen && seen.length ? { dialogs: seen } : {};
}

// --- the ten actions ----------------------------------------------------------------------

async function perform(name, args, key, signal, began) {
  const action = ACTIONS_BY_NAME[name];
  if (!action) throw new Refusal(`${name} is not an action this browser serves.`);
  const tabId = await until(agentTab(key, name === "browser.open"), signal);
  return holdTab(tabId, signal, async () => {
    touched.delete(tabId);
    await attach(tabId);
    dialogs.delete(tabId);
    began.page = true;
    acting += 1;
    badge();
    try {
      return await action(tabId, args);
    } finally {
      acting -= 1;
      badge();
    }
  });
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
    const located = selector ? await locate(tabId, selector) : mainPlace(tabId);
    const read = await page(located, "snapshot", {
      scope: located.selector || null, textMax: TEXT_MAX, elementsMax: ELEMENTS_MAX,
    });
    checkFound(read, selector);
    const missed = [];
    await readFrames(located, read, missed);
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
    else if (!read.elements.length && !read.text) {
      answer.notice = "The page shows no text and no interactive elements; it may still be " +
        "loading. Take another snapshot in a moment, or a capture to see it.";
    } else if (read.loading) answer.notice = "The page is still loading; what it shows may change.";
    if (missed.length) {
      const which = missed.join(", ");
      const said = `The iframe${missed.length > 1 ? "s" : ""} ${which} could not be read: ` +
        `${UNREACHABLE}; what ${missed.length > 1 ? "they show is" : "it shows is"} not in this snapshot.`;
      answer.notice = answer.notice ? `${answer.notice} ${said}` : said;
    }
    return answer;
  },

  "browser.click": async (tabId, { selector, text }) => {
    const chosen = selector || await byText(tabId, text || "");
    const { info, located } = await target(tabId, chosen, "click", {
      fresh: !selector, watch: true, byText: selector ? null : text,
    });
    const x = located.x + Number(info.aim.x);
    const y = located.y + Number(info.aim.y);
    const mouse = { x, y, button: "left", clickCount: 1 };
    await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
    await cdp(tabId, "Input.dispatchMouseEvent", { type: "mousePressed", ...mouse });
    await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", ...mouse });
    const settled = await settle(tabId);
    const now = settled.url ? settled : await location(tabId);
    // A click on part of an element's text names the element it landed on, and that text.
    const part = info.aim.text !== undefined;
    const clicked = part && info.aim.hit ? located.prefix + info.aim.hit : chosen;
    return {
      clicked, label: part ? info.aim.text : info.label, url: now.url, title: now.title,
      ...takeDialogs(tabId),
      ...await stateAfter(located, settled),
    };
  },

  "browser.type": async (tabId, { selector, value, submit }) => {
    const { info, located } = await target(tabId, selector, "type", { watch: Boolean(submit) });
    if (!info.typable) {
      if (info.tag !== "input") {
        throw new Refusal(`${selector} is not a text field; take a new snapshot and pick an ` +
          "input, a select, a textarea or an editable element.");
      }
      throw new Refusal(`${selector} is a ${info.type} input, not a text field; use browser.click for it.`);
    }
    if (info.readonly) throw new Refusal(`${selector} is read-only; nothing was typed.`);
    if (info.tag === "select") {
      await choose(located, selector, info, value);
    } else {
      // Focus and select what is there, so the typed text replaces it as a person's would.
      await evaluate(located, `(async () => {
        const el = await (${link.pageScript})({ op: "stashed" });
        el.focus();
        if (typeof el.select === "function") el.select();
        else getSelection().selectAllChildren(el);
      })()`);
      if (value) await cdp(tabId, "Input.insertText", { text: value });
      else await key(tabId, "Backspace", "Backspace", 8);
    }
    if (submit) await key(tabId, "Enter", "Enter", 13, "\r");
    const settled = submit ? await settle(tabId) : { quiet: true };
    const now = settled.url ? settled : await location(tabId);
    return {
      selector, url: now.url, title: now.title, ...takeDialogs(tabId),
      ...await stateAfter(located, settled),
    };
  },

  "browser.scroll": async (tabId, { selector, direction }) => {
    const chosen = selector ? null : direction;
    const where = selector ? await locate(tabId, selector) : mainPlace(tabId);
    let moved = await page(where, "scroll", { selector: where.selector || null, direction: chosen });
    checkFound(moved, selector);
    // Pages load more as they are scrolled: the answer is the page after that.
    if ((await settle(tabId, 1000)).quiet) moved = await page(where, "position");
    return {
      scrollY: moved.scrollY, maxScrollY: moved.maxScrollY, atTop: moved.scrollY <= 0,
      atBottom: moved.scrollY >= moved.maxScrollY - 1, scrolledTo: selector || null,
      direction: chosen || null,
    };
  },

  "browser.back": (tabId) => travel(tabId, -1),
  "browser.forward": (tabId) => travel(tabId, +1),

  "browser.inspect": async (tabId, { selector }) => {
    const { info } = await target(tabId, selector, "inspect", { styles: INSPECT_STYLES });
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

  "verb.drag": (tabId, args) => drawing(tabId, () => drag(tabId, args)),
  "verb.select_text": (tabId, args) => drawing(tabId, () => selectText(tabId, args)),
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
// The settle's reading has it for an element of the main frame; one in an iframe is asked.
async function stateAfter(located, settled) {
  let read = settled;
  if (!read.state || located.context !== undefined) {
    read = await page(located, "state").catch((error) => {
      if (fatal(error)) throw error;
      return null; // the element's frame went away
    });
  }
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

// `byText`, to click: the text the element was found by; when it is only part of the
// element's text, the click is aimed at that text's own box (as the chromium provider does).
async function target(tabId, selector, purpose, { styles = null, fresh = false, watch = false,
  done = null, byText = null } = {}) {
  const located = await locate(tabId, selector);
  const info = await page(located, "target", {
    selector: located.selector, purpose, styles, fresh, watch, byText,
  });
  checkFound(info, selector);
  checkCount(Number(info.count), selector);
  if (info.changed) {
    throw new Refusal(`${selector} no longer names the element your latest snapshot listed ` +
      "(the page changed); take a new snapshot.");
  }
  if (purpose !== "inspect") {
    checkUsable(selector, info, done || (purpose === "click" ? "clicked" : "typed"));
  }
  return { info, located };
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

function checkUsable(selector, info, verb) {
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
  if (aim.moving) {
    throw new Refusal(`${selector} kept moving (the page animates it), so nothing was ${verb} at ` +
      "a point it may have left; take a new snapshot, or try again once it stops.");
  }
  const part = aim.text;
  if (aim.repeated) {
    throw new Refusal(`"${part}" appears ${aim.repeated} times in the text of ${selector}, so ` +
      "nothing was clicked; take a new snapshot and click by selector.");
  }
  if (aim.noText) {
    throw new Refusal(`"${part}" is not drawn as text inside ${selector}, so nothing was ` +
      "clicked; take a new snapshot and click by selector.");
  }
  if (aim.offText) {
    const off = aim.offText;
    const label = off.label ? ` "${off.label}"` : "";
    throw new Refusal(`A press in the middle of "${part}" in ${selector} would reach ` +
      `${off.selector} (${off.tag}${label}) and not that text, so nothing was clicked; take a ` +
      "new snapshot and click by selector.");
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

// What byText's refusals tell the agent to do instead.
const CLICKING = { done: "clicked", instead: "click by selector", pick: "click one by its selector" };

/** The selector of the one element an agent means by `text`, looking into iframes when the
 * page itself has none. */
async function byText(tabId, text, words = CLICKING) {
  const found = await page(tabId, "findText", { text, limit: TEXT_CANDIDATES_MAX });
  if (found.total === 0) {
    for (const inner of await childFrames(mainPlace(tabId))) {
      if (inner.unreachable) continue;
      const more = await page(inner, "findText", { text, limit: TEXT_CANDIDATES_MAX })
        .catch((error) => {
          if (fatal(error)) throw error;
          return { matches: [], total: 0 }; // a frame that went away has nothing to click
        });
      for (const match of more.matches) match.selector = inner.prefix + match.selector;
      found.matches.push(...more.matches);
      found.total += more.total;
    }
  }
  if (found.total === 0) {
    throw new Refusal(`No visible element has the text "${text}"; take a new snapshot and ${words.instead}.`);
  }
  if (found.total > 1) {
    const listed = found.matches.map((m) => `${m.selector} (${m.tag} "${m.label}")`).join("; ");
    const more = found.total > found.matches.length ? `; and ${found.total - found.matches.length} more` : "";
    throw new Refusal(`"${text}" matches ${found.total} elements: ${listed}${more}. Nothing was ` +
      `${words.done}; ${words.pick}.`);
  }
  return found.matches[0].selector;
}

// --- verbs beyond the ten: drag and select_text, as the chromium provider answers them -------

// Their arguments, exactly as src/browserhost/providers/pointer_verbs.py declares them
// (DragArguments and SelectTextArguments, model_json_schema()); a test holds them equal.
const DRAG_SCHEMA = {
  additionalProperties: false,
  properties: {
    selector: {
      anyOf: [{ minLength: 1, type: "string" }, { type: "null" }],
      default: null,
      description: "The element to drag, as listed by a snapshot.",
      title: "Selector",
    },
    text: {
      anyOf: [{ minLength: 1, type: "string" }, { type: "null" }],
      default: null,
      description: "Or its visible text.",
      title: "Text",
    },
    toSelector: {
      anyOf: [{ minLength: 1, type: "string" }, { type: "null" }],
      default: null,
      description: "Drop it on this element, as listed by a snapshot.",
      title: "Toselector",
    },
    toText: {
      anyOf: [{ minLength: 1, type: "string" }, { type: "null" }],
      default: null,
      description: "Or on the element with this visible text.",
      title: "Totext",
    },
    offsetX: {
      anyOf: [{ maximum: 100000.0, minimum: -100000.0, type: "number" }, { type: "null" }],
      default: null,
      description: "Or move it this many CSS pixels right (negative: left) of where it starts.",
      title: "Offsetx",
    },
    offsetY: {
      anyOf: [{ maximum: 100000.0, minimum: -100000.0, type: "number" }, { type: "null" }],
      default: null,
      description: "And/or this many CSS pixels down (negative: up).",
      title: "Offsety",
    },
  },
  title: "DragArguments",
  type: "object",
};
const SELECT_TEXT_SCHEMA = {
  additionalProperties: false,
  properties: {
    text: {
      description: "The text to select, as the page shows it (its first occurrence).",
      maxLength: 1000,
      minLength: 1,
      title: "Text",
      type: "string",
    },
    selector: {
      anyOf: [{ minLength: 1, type: "string" }, { type: "null" }],
      default: null,
      description: "Look only inside this element (default: the page).",
      title: "Selector",
    },
  },
  required: ["text"],
  title: "SelectTextArguments",
  type: "object",
};
const VERBS = [
  {
    name: "drag",
    description: "Drag an element (selector or text) onto another (toSelector or toText) or by " +
      "an offset, with the mouse as a person does: HTML5 drag and drop, sortable lists, " +
      "sliders. Answers where the pointer started and ended and what was under it there.",
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
];
// Moves between the press and the release: libraries that start a drag past a threshold, or
// on the second move, see the pointer travel.
const DRAG_STEPS = 10;
const SELECT_STEPS = 5;
// How long Chrome may take to hand over a drag the page started (Input.dragIntercepted).
const DRAG_HANDOVER_MS = 2000;
const UNDER_LABEL_MAX = 60; // snapshot.js's describeCover
const DRAGGING = { done: "dragged", instead: "drag by selector", pick: "drag one by its selector" };
const DROPPING = {
  done: "dragged", instead: "name where to drop it by toSelector", pick: "name one by toSelector",
};
const drags = new Map(); // tab id -> what takes the data of the drag a page started in it
const PRESS = { button: "left", buttons: 1, clickCount: 1 };
const HELD = { button: "left", buttons: 1 };
const RELEASE = { button: "left", buttons: 0, clickCount: 1 };

const given = (value) => value !== undefined && value !== null;
const rounded = ({ x, y }) => ({ x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 });
const between = (from, to, part) =>
  ({ x: from.x + (to.x - from.x) * part, y: from.y + (to.y - from.y) * part });

/** `work`, with the tab drawing frames at full rate all along. A tab in the background draws
 * one frame a second, or none, and the page gets a held mouse's moves with its frames: ten
 * moves would take ten seconds. A screencast keeps it drawing (its frames go unread). */
async function drawing(tabId, work) {
  await cdp(tabId, "Page.startScreencast", { format: "jpeg", quality: 1, maxWidth: 8, maxHeight: 8 });
  try {
    return await work();
  } finally {
    await chrome.debugger.sendCommand({ tabId }, "Page.stopScreencast").catch(() => {});
  }
}

/** `fn`, a function of this file that uses nothing outside itself, called in a frame with the
 * page script and `args` (a function among them passed as its source); its JSON answer. */
function inPage(place, fn, ...args) {
  const passed = args.map((arg) => (typeof arg === "function" ? `(${arg})` : JSON.stringify(arg)));
  return evaluate(place, `(${fn})(${[link.pageScript, ...passed].join(", ")})`);
}

// In the page: what is drawn at a point of this frame, named as the page script names a cover
// (selector, tag, label), or null.
async function pageUnder(script, x, y) {
  let el = document.elementFromPoint(x, y);
  while (el && el.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  const [box] = el ? await script({ op: "frames", elements: [el] }) : [null];
  if (!box || !box.selector) return null;
  const out = { selector: box.selector, tag: el.localName };
  const { label } = await script({ op: "target", selector: box.selector, purpose: "inspect" });
  if (label) out.label = label;
  return out;
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

async function drag(tabId, { selector, text, toSelector, toText, offsetX, offsetY }) {
  if (given(selector) === given(text)) {
    throw new Refusal("Give selector or text (one of them) for what to drag; nothing was dragged.");
  }
  const offset = given(offsetX) || given(offsetY);
  if (given(toSelector) + given(toText) + offset !== 1) {
    throw new Refusal("Give one destination: toSelector, toText, or an offset (offsetX, " +
      "offsetY); nothing was dragged.");
  }
  const chosen = selector || await byText(tabId, text, DRAGGING);
  const checks = { fresh: !given(selector), done: "dragged" };
  // Aimed first to bring it into view: the drop point is read in the view the drag sees.
  let { info, located } = await target(tabId, chosen, "click", checks);
  let from = { x: located.x + Number(info.aim.x), y: located.y + Number(info.aim.y) };
  let to;
  let toPlace = located;
  const view = await viewSize(tabId);
  if (offset) {
    to = { x: from.x + Number(offsetX || 0), y: from.y + Number(offsetY || 0) };
    if (to.x < 0 || to.y < 0 || to.x >= view.width || to.y >= view.height) {
      throw new Refusal(`Dragging ${chosen} by that offset would end at (${Math.round(to.x)}, ` +
        `${Math.round(to.y)}), outside the ${view.width}x${view.height} view, so nothing was ` +
        "dragged; use a smaller offset, or scroll first.");
    }
  } else {
    const destination = toSelector || await byText(tabId, toText, DROPPING);
    ({ point: to, place: toPlace } = await dropPoint(tabId, destination, view));
  }
  const startUnder = await underAt(located, from);
  // Checked again, the page's timers watched from here: the wait after the drop waits for
  // what the drop sets off (the reads above would have ended the watch).
  ({ info, located } = await target(tabId, chosen, "click", { ...checks, watch: true }));
  const press = { x: located.x + Number(info.aim.x), y: located.y + Number(info.aim.y) };
  if (offset) to = { x: to.x + press.x - from.x, y: to.y + press.y - from.y };
  from = press;
  await dragAlong(tabId, located, from, to);
  const settled = await settle(tabId);
  const now = settled.url ? settled : await location(tabId);
  return {
    dragged: chosen, label: info.label,
    start: { ...rounded(from), under: startUnder },
    end: { ...rounded(to), under: await underAt(toPlace, to) },
    url: now.url, title: now.title, ...takeDialogs(tabId),
  };
}

/** The middle of the part of `destination` the view shows, and the place of its frame. */
async function dropPoint(tabId, destination, view) {
  const { info, located } = await target(tabId, destination, "inspect");
  const box = info.bounds;
  if (!box.width || !box.height) {
    throw new Refusal(`${destination} is not visible, so nothing was dragged; open what ` +
      "contains it, or take a new snapshot.");
  }
  const left = Math.max(located.x + box.x, 0);
  const right = Math.min(located.x + box.x + box.width, view.width);
  const top = Math.max(located.y + box.y, 0);
  const bottom = Math.min(located.y + box.y + box.height, view.height);
  if (right <= left || bottom <= top) {
    throw new Refusal(`${destination} is out of view while what is dragged is in it, so nothing ` +
      "was dragged; scroll so that both show (browser.scroll), or drag by an offset.");
  }
  return { point: { x: (left + right) / 2, y: (top + bottom) / 2 }, place: located };
}

// In the page: note whether the next mouse move starts an HTML5 drag (a dragstart the page
// does not cancel), as Playwright does to know that Chrome will hand the drag over.
function pageWatchDragStart() {
  const store = window[Symbol.for("browserhost")] || (window[Symbol.for("browserhost")] = {});
  if (store.dragWatch) removeEventListener("dragstart", store.dragWatch, true);
  store.dragStart = null;
  store.dragWatch = (event) => { store.dragStart = event; };
  addEventListener("dragstart", store.dragWatch, { capture: true, once: true });
}

function pageDragStarted() {
  const store = window[Symbol.for("browserhost")];
  return Boolean(store && store.dragStart && !store.dragStart.defaultPrevented);
}

/** Press at `from`, move there in steps, release at `to`. Mouse events alone never run the
 * browser's own drag and drop: a drag the page starts is taken over from Chrome
 * (Input.setInterceptDrags) and carried on with drag events, as Playwright does. */
async function dragAlong(tabId, located, from, to) {
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
    for (let step = 1; step <= DRAG_STEPS; step += 1) {
      const at = between(from, to, step / DRAG_STEPS);
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
}

// In the page: the first occurrence of `text` in what the stashed element (`scoped`) or the
// page shows, read as a person reads it (a run of whitespace, or a block's edge, is one
// space), in its own case first, then in any. It is kept as a Range and scrolled into view;
// the answer is where its first character starts and its last one ends, or null.
async function pageTextRange(script, text, scoped) {
  const root = scoped ? await script({ op: "stashed" }) : document.body || document.documentElement;
  const store = window[Symbol.for("browserhost")] || (window[Symbol.for("browserhost")] = {});
  const fold = (value) => value.split("").map((ch) => {
    const lower = ch.toLowerCase();
    return lower.length === 1 ? lower : ch; // keeps the indexes of the text it folds
  }).join("");
  const blocks = new Map();
  const blockOf = (el) => {
    for (let at = el; at; at = at.parentElement) {
      if (!blocks.has(at)) blocks.set(at, !/^(inline|contents)/.test(getComputedStyle(at).display));
      if (blocks.get(at)) return at;
    }
    return null;
  };
  const nodes = [];
  const chars = [];
  const owner = []; // per character of the text read: its node's index (-1: a space between)
  const offset = []; // and its offset in that node
  let gap = false;
  let block = null;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || /^(script|style|noscript|template|title)$/.test(parent.localName)) continue;
    if (parent.checkVisibility && !parent.checkVisibility({ visibilityProperty: true })) continue;
    const own = blockOf(parent);
    if (own !== block) gap = true;
    block = own;
    for (let i = 0; i < node.data.length; i += 1) {
      if (/\s/.test(node.data[i])) {
        gap = true;
        continue;
      }
      if (gap && chars.length) {
        chars.push(" ");
        owner.push(-1);
        offset.push(-1);
      }
      gap = false;
      chars.push(node.data[i]);
      owner.push(nodes.length);
      offset.push(i);
    }
    nodes.push(node);
  }
  const read = chars.join("");
  const wanted = text.replace(/\s+/g, " ").trim();
  let first = wanted ? read.indexOf(wanted) : -1;
  if (first < 0 && wanted) first = fold(read).indexOf(fold(wanted));
  if (first < 0) return null;
  const last = first + wanted.length - 1;
  const range = document.createRange();
  range.setStart(nodes[owner[first]], offset[first]);
  range.setEnd(nodes[owner[last]], offset[last] + 1);
  const box = range.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
    const at = range.startContainer.parentElement;
    at.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    // What the page does on scroll is drawn by the next frame (a page not drawing has none).
    await new Promise((resolve) => { requestAnimationFrame(resolve); setTimeout(resolve, 100); });
  }
  const charBox = (at, end) => {
    const piece = document.createRange();
    piece.setStart(nodes[owner[at]], offset[at]);
    piece.setEnd(nodes[owner[at]], offset[at] + 1);
    const rects = piece.getClientRects();
    return rects.length ? rects[end ? rects.length - 1 : 0] : piece.getBoundingClientRect();
  };
  // Just inside the first character's left edge and the last one's right edge: the caret a
  // press there places is before the one and after the other.
  const head = charBox(first, false);
  const tail = charBox(last, true);
  store.selecting = { range, text: read.slice(first, last + 1) };
  return {
    start: { x: head.left + Math.min(1, head.width / 4), y: head.top + head.height / 2 },
    end: { x: tail.right - Math.min(1, tail.width / 4), y: tail.top + tail.height / 2 },
  };
}

// In the page, after the mouse selected: the exact range set where the mouse selected another
// (a press a link or a cover took, a page that snaps to words), and what is selected now.
async function pageSelected(script, under, start, end) {
  const store = window[Symbol.for("browserhost")];
  const selecting = store && store.selecting;
  if (!selecting) return null; // the document was replaced meanwhile
  store.selecting = null;
  const { range, text } = selecting;
  const selection = getSelection();
  if (selection.toString().replace(/\s+/g, " ").trim() !== text) {
    const { startContainer, startOffset, endContainer, endOffset } = range;
    selection.setBaseAndExtent(startContainer, startOffset, endContainer, endOffset);
  }
  let holder = range.commonAncestorContainer;
  if (holder.nodeType !== Node.ELEMENT_NODE) holder = holder.parentElement;
  const [box] = await script({ op: "frames", elements: [holder] });
  return {
    selected: selection.toString(), selector: box ? box.selector : null,
    start: await under(script, start.x, start.y), end: await under(script, end.x, end.y),
  };
}

/** Looks in the element `selector` names (an iframe: in its document, as a snapshot of it
 * reads), else in the page, and in its iframes when the page itself does not show the text. */
async function selectText(tabId, { text, selector }) {
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
  const settled = await settle(tabId);
  const now = settled.url ? settled : await location(tabId);
  return {
    selected: done.selected, selector: done.selector && located.prefix + done.selector,
    start: { ...rounded(from), under: named(located, done.start) },
    end: { ...rounded(to), under: named(located, done.end) },
    url: now.url, title: now.title, ...takeDialogs(tabId),
  };
}

// A service worker is started again on any event; each start dials the host.
badge();
connect();
