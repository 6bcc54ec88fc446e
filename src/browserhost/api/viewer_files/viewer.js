// The browserhost viewer: the selected provider's live picture, who is in control, and a
// person's hands on it. Everything goes through the host that served this page; the token
// stays in this tab (sessionStorage), never in a URL the server sees.
"use strict";

const $ = (id) => document.getElementById(id);
const picture = $("picture");
const context2d = picture.getContext("2d");
const viewerId = crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);

let token = takeToken();
let socket = null;
let state = { controller: "none", you: false };
let pendingFrame = null;
let providerRow = null;

function takeToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) {
    sessionStorage.setItem("browserhost-token", fromHash);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem("browserhost-token");
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(answer.error || `${response.status}`), { code: answer.code });
  return answer;
}

// --- providers -------------------------------------------------------------------------

async function loadProviders() {
  const listing = await api("GET", "/api/browser-providers");
  const select = $("provider");
  select.replaceChildren(
    ...listing.providers.map((row) => new Option(row.name, row.id, false, row.id === listing.selectedId)),
  );
  if (!listing.selectedId) select.prepend(new Option("(none selected)", "", true, true));
  return listing;
}

$("provider").addEventListener("change", async (event) => {
  try {
    await api("PUT", "/api/browser-providers/selection", { id: event.target.value });
  } catch (error) {
    showControl(`Could not switch: ${error.message}`);
  }
});

// --- the socket ------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/surface`);
  socket.binaryType = "blob";
  socket.onopen = () => send({ t: "hello", token, viewer: viewerId });
  socket.onmessage = (event) => (typeof event.data === "string" ? onMessage(JSON.parse(event.data)) : onPicture(event.data));
  socket.onclose = (event) => {
    if (event.code === 4002) return askForToken("That token was not accepted.");
    showControl("Disconnected; reconnecting…");
    setTimeout(connect, 1000);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function onMessage(message) {
  switch (message.t) {
    case "ready":
      loadProviders().catch(() => {});
      break;
    case "state":
      onState(message);
      break;
    case "frame":
      pendingFrame = message;
      break;
    case "clipboard":
      writeClipboard(message.text);
      break;
    case "pairing":
      showPairing(message.pending);
      break;
    case "refused":
    case "error":
      showControl(message.message);
      setTimeout(() => onState(state), 3000);
      break;
  }
}

// The host sends a few pictures ahead of the last one acknowledged, so that the next is
// here as soon as this one is decoded. One is decoded at a time, off the main thread
// (createImageBitmap); a picture a newer one overtook while it waited is dropped undecoded.
// The newest decoded is drawn at the next animation frame, and one still waiting for it when
// a newer is decoded is dropped too. Each picture is acknowledged once, when it is decoded
// (ready to draw) or dropped: the host then sends another.
let waiting = null; // { meta, blob }: the newest picture not yet decoded
let decoding = false;
let toDraw = null; // { meta, bitmap }: the newest decoded, for the next animation frame
let frameAsked = false;

function onPicture(blob) {
  const meta = pendingFrame;
  pendingFrame = null;
  if (!meta) return;
  if (waiting) acknowledge(waiting.meta);
  waiting = { meta, blob };
  if (!decoding) decodeNewest();
}

async function decodeNewest() {
  decoding = true;
  while (waiting) {
    const { meta, blob } = waiting;
    waiting = null;
    const bitmap = await createImageBitmap(blob).catch(() => null);
    acknowledge(meta);
    if (!bitmap) continue;
    if (toDraw) toDraw.bitmap.close();
    toDraw = { meta, bitmap };
    if (!frameAsked) {
      frameAsked = true;
      requestAnimationFrame(drawNewest);
    }
  }
  decoding = false;
}

function drawNewest() {
  frameAsked = false;
  const next = toDraw;
  toDraw = null;
  if (!next) return;
  const { meta, bitmap } = next;
  if (picture.width !== bitmap.width || picture.height !== bitmap.height) {
    picture.width = bitmap.width;
    picture.height = bitmap.height;
  }
  context2d.drawImage(bitmap, 0, 0);
  bitmap.close();
  $("empty").hidden = true;
  if (meta.title) document.title = `${meta.title} — browserhost viewer`;
}

function acknowledge(meta) {
  send({ t: "drawn", seq: meta.seq });
}

// --- control, sessions, the agent's last action -----------------------------------------

function onState(next) {
  if (next.providerId !== state.providerId) {
    // Another provider: its picture is on its way; the last one's must not linger.
    if (toDraw) toDraw.bitmap.close();
    toDraw = null;
    context2d.clearRect(0, 0, picture.width, picture.height);
    picture.width = picture.height = 0;
    $("empty").hidden = false;
    loadProviders().catch(() => {});
  }
  const tookOver = next.you && !state.you;
  state = next;
  if (tookOver) askForSize();
  picture.dataset.you = String(Boolean(state.you));
  $("hand-back").hidden = !(state.controller === "user" && state.you);
  if (!state.providerId) showControl("No provider is selected.");
  else if (!state.surface) showControl(`${state.providerName} shows no picture.`);
  else if (state.controller === "user") showControl(state.you ? "You are in control" : "Another viewer is in control");
  else if (state.controller === "agent") showControl("The agent is working — click the picture to take over");
  else showControl("Nobody is in control — click the picture to take over");
  $("control").dataset.controller = state.controller;
  $("control").dataset.you = String(Boolean(state.you));
  showSessions(state.sessions || []);
  showLastAction(state.lastAction);
  showPanel(state.panel);
}

function showControl(text) {
  $("control").textContent = text;
}

function sessionLabel(session) {
  const context = session.context || {};
  const who = context.sessionId || "default session";
  const where = context.directory ? ` in ${context.directory.split("/").filter(Boolean).pop()}` : "";
  let address = session.url;
  try {
    const url = new URL(session.url);
    address = url.protocol.startsWith("http") ? url.host + url.pathname : session.url;
  } catch {}
  return `${who}${where}: ${session.title || address}${session.shown ? " (shown)" : ""}`;
}

function showSessions(sessions) {
  const select = $("session");
  $("session-label").hidden = sessions.length === 0;
  const pinned = state.pinned || "";
  const options = [new Option("Follow the agent", "", false, !pinned)];
  for (const session of sessions) {
    const option = new Option(sessionLabel(session), session.id, false, session.id === pinned);
    option.title = session.url;
    options.push(option);
  }
  select.replaceChildren(...options);
  select.value = pinned;
  const shown = sessions.find((session) => session.shown);
  if (shown) toPanel({ type: "location", url: shown.url });
  tellPanelSession(shown || null);
}

$("session").addEventListener("change", (event) => {
  send({ t: "show", id: event.target.value || null });
  event.target.blur(); // the list keeps updating
});

function showLastAction(last) {
  if (!last) return ($("last-action").textContent = "");
  const ago = Math.max(0, Math.round(Date.now() / 1000 - last.at));
  const outcome = {
    ok: "✓",
    USER_IN_CONTROL: "refused: a person is in control",
  }[last.outcome] || last.outcome;
  $("last-action").textContent = `Agent: ${last.action} ${outcome} · ${ago} s ago`;
}

setInterval(() => showLastAction(state.lastAction), 1000);

$("hand-back").addEventListener("click", () => send({ t: "handBack" }));

function showPanel(panel) {
  const frame = $("panel");
  if (!panel || !panel.url) {
    frame.hidden = true;
    return;
  }
  const surface = $("surface");
  surface.dataset.dock = panel.dock || "top";
  const across = surface.dataset.dock === "top" || surface.dataset.dock === "bottom" ? "height" : "width";
  frame.style.height = frame.style.width = "";
  frame.style[across] = `${panel.size || 40}px`;
  if (across === "height") frame.style.width = "100%";
  if (frame.getAttribute("src") !== panel.url) frame.src = panel.url;
  frame.hidden = false;
}

// --- the panel page: what it cannot do itself, and what it is told -----------------------

function toPanel(message) {
  const panel = $("panel");
  // The panel is sandboxed (an opaque origin): "*" is the only target that reaches it.
  if (!panel.hidden && panel.contentWindow) panel.contentWindow.postMessage(message, "*");
}

// The page is told the theme and the session the picture shows when it loads and when either
// changes; it stays loaded while the person switches sessions.
const darkScheme = matchMedia("(prefers-color-scheme: dark)");
let panelSession = undefined;

function tellPanelTheme() {
  toPanel({ type: "theme", theme: darkScheme.matches ? "dark" : "light" });
}

function tellPanelSession(shown, always = false) {
  const session = shown && { id: shown.id, url: shown.url, title: shown.title, context: shown.context || null };
  if (!always && JSON.stringify(session) === JSON.stringify(panelSession)) return;
  panelSession = session;
  toPanel({ type: "session", session });
}

darkScheme.addEventListener("change", tellPanelTheme);
$("panel").addEventListener("load", () => {
  tellPanelTheme();
  tellPanelSession(panelSession || null, true);
});

// A request of the page to its own provider's service goes through the host (the page has no
// token); the answer goes back to the page that asked, if the provider is still the same.
async function serviceRequest(request) {
  const providerId = state.providerId;
  const reply = (answer) => {
    if (state.providerId === providerId) toPanel({ type: "serviceResult", id: request.id, ...answer });
  };
  try {
    const path = `/api/browser-providers/${encodeURIComponent(providerId)}/panel-request`;
    const body = request.body === undefined ? null : request.body;
    const answer = await api("POST", path, { method: request.method || "GET", path: request.path, body });
    reply({ ok: true, status: answer.status, body: answer.body });
  } catch (error) {
    reply({ ok: false, code: error.code || "REQUEST_FAILED", error: error.message });
  }
}

window.addEventListener("message", (event) => {
  if (event.source !== $("panel").contentWindow || !event.data || typeof event.data !== "object") return;
  const message = event.data;
  if (message.type === "open" && typeof message.url === "string") send({ t: "open", url: message.url });
  else if (message.type === "serviceRequest" && state.providerId) serviceRequest(message);
});

// --- browsers asking to connect to the bridge ---------------------------------------------

// A browser that connects without the token waits until a person here (or `browserhost bridge
// approve ID`) allows it. Its name and origin are its own word; its id is what its own
// browserhost button shows, so the person can tell theirs from an impostor.
function showPairing(pending) {
  const shown = $("pairing");
  shown.replaceChildren(...pending.map((request) => {
    const row = document.createElement("div");
    row.className = "request";
    row.dataset.id = request.id;
    const text = document.createElement("span");
    const id = document.createElement("code");
    id.textContent = request.id;
    const from = request.origin ? ` (${request.origin})` : "";
    text.append(`${request.name}${from} wants to connect to the bridge as `, id,
      ": allow it only if its browserhost button shows the same id.");
    const allow = document.createElement("button");
    allow.type = "button";
    allow.textContent = "Allow";
    allow.addEventListener("click", () => decide(row, request.id, "approve"));
    const deny = document.createElement("button");
    deny.type = "button";
    deny.textContent = "Deny";
    deny.addEventListener("click", () => decide(row, request.id, "deny"));
    row.append(text, allow, deny);
    return row;
  }));
  shown.hidden = pending.length === 0;
}

async function decide(row, id, verb) {
  for (const button of row.querySelectorAll("button")) button.disabled = true;
  try {
    await api("POST", `/api/bridge/pending/${encodeURIComponent(id)}/${verb}`);
    row.remove();
    $("pairing").hidden = !$("pairing").children.length;
  } catch (error) {
    row.querySelector("span").textContent = `Could not ${verb} ${id}: ${error.message}`;
  }
}

// --- the person's hands ----------------------------------------------------------------

function modifiers(event) {
  const held = [];
  if (event.altKey) held.push("Alt");
  if (event.ctrlKey) held.push("Control");
  if (event.metaKey) held.push("Meta");
  if (event.shiftKey) held.push("Shift");
  return held;
}

function at(event) {
  const box = picture.getBoundingClientRect();
  const x = ((event.clientX - box.left) * picture.width) / Math.max(1, box.width);
  const y = ((event.clientY - box.top) * picture.height) / Math.max(1, box.height);
  return { x: Math.min(Math.max(0, x), picture.width), y: Math.min(Math.max(0, y), picture.height) };
}

function input(...events) {
  send({ t: "input", events });
}

picture.addEventListener("pointerdown", (event) => {
  picture.focus();
  picture.setPointerCapture(event.pointerId);
  input({ type: "pointer", action: "down", ...at(event), button: event.button, buttons: event.buttons, modifiers: modifiers(event) });
  event.preventDefault();
});
picture.addEventListener("pointerup", (event) => {
  input({ type: "pointer", action: "up", ...at(event), button: event.button, buttons: event.buttons, modifiers: modifiers(event) });
});
let moveQueued = null;
picture.addEventListener("pointermove", (event) => {
  if (!state.you) return; // looking, not acting: nothing is sent
  const queued = moveQueued === null;
  moveQueued = { type: "pointer", action: "move", ...at(event), button: 0, buttons: event.buttons, modifiers: modifiers(event) };
  if (queued) {
    requestAnimationFrame(() => {
      input(moveQueued);
      moveQueued = null;
    });
  }
});
picture.addEventListener("contextmenu", (event) => event.preventDefault());
picture.addEventListener(
  "wheel",
  (event) => {
    event.preventDefault();
    input({ type: "wheel", ...at(event), deltaX: event.deltaX, deltaY: event.deltaY, modifiers: modifiers(event) });
  },
  { passive: false },
);

const chord = (event) => (event.ctrlKey || event.metaKey) && !event.altKey;

picture.addEventListener("keydown", (event) => {
  if (chord(event) && event.key.toLowerCase() === "v") return; // the paste event sends the text
  event.preventDefault();
  input({ type: "key", action: "down", key: event.key, code: event.code, modifiers: modifiers(event) });
  if (chord(event) && event.key.toLowerCase() === "c") send({ t: "copy" });
});
picture.addEventListener("keyup", (event) => {
  if (chord(event) && event.key.toLowerCase() === "v") return;
  event.preventDefault();
  input({ type: "key", action: "up", key: event.key, code: event.code, modifiers: modifiers(event) });
});
picture.addEventListener("paste", (event) => {
  const text = event.clipboardData ? event.clipboardData.getData("text") : "";
  event.preventDefault();
  if (text) input({ type: "text", text });
});

async function writeClipboard(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
    picture.focus();
  }
}

// While the person holds control, the page is laid out at the size they see it; the agent's
// own viewport comes back when they hand back. Watching changes nothing. The size goes in
// device pixels with their ratio, and the host lays the page out in CSS pixels.
let resizeTimer = null;
function askForSize() {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    const { width, height } = $("stage").getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    if (state.you && width >= 64 && height >= 64) {
      send({ t: "resize", width: Math.round(width * ratio), height: Math.round(height * ratio), devicePixelRatio: ratio });
    }
  }, 300);
}
new ResizeObserver(askForSize).observe($("stage"));

// --- start -----------------------------------------------------------------------------

function askForToken(problem) {
  $("login").hidden = false;
  $("surface").hidden = true;
  $("workspace").hidden = true;
  $("login-error").textContent = problem || "";
}

$("login").addEventListener("submit", (event) => {
  event.preventDefault();
  token = $("token").value.trim();
  sessionStorage.setItem("browserhost-token", token);
  $("login").hidden = true;
  $("surface").hidden = false;
  $("workspace").hidden = false;
  connect();
});

if (token) connect();
else askForToken();
