// The connection to the host's bridge (src/browserhost/contract/bridge.py): dialling, pairing,
// and the host's messages.
//
// With no token set, it asks the host to pair (pair: true): the host holds it until a person
// approves it in the viewer or with `browserhost bridge approve ID`, then sends a secret of its
// own (hello.paired), kept per bridge address in chrome.storage.local and presented on every
// later connection instead. A call stops at the host's deadline (expiresAt, on this machine's
// clock through hello.ok's serverTime) or at tool.cancel.

import { cancel, cancelAll, start } from "./calls.js";
import {
  ACTIONS, CLOSE_BAD_TOKEN, CLOSE_DENIED, CLOSE_FOREIGN_EXTENSION, CLOSE_NOT_APPROVED,
  CLOSE_NOT_PAIRED, CLOSE_REPLACED, DEFAULT_URL,
} from "./contract.js";
import { BACKOFF_MIN_MS, link, setControl, setStatus } from "./link.js";
import { VERBS as KEY_VERBS } from "./key_verbs.js";
import { VERBS as POINTER_VERBS } from "./pointer_verbs.js";
import { VERBS as SESSION_VERBS } from "./session_verbs.js";

const BACKOFF_MAX_MS = 30000;
const REFUSED = {
  [CLOSE_REPLACED]: "Another browser connected to the host's bridge and took this one's place.",
  [CLOSE_BAD_TOKEN]: "The host refused the token; set the one browserhost serve printed in the options.",
  [CLOSE_FOREIGN_EXTENSION]: "The host accepts another extension (serve --extension-id).",
  [CLOSE_NOT_PAIRED]: "The host does not know this browser (it was forgotten, or the host is " +
    "another): Connect again to ask for approval.",
  [CLOSE_DENIED]: "The host's user denied this browser. Connect again to ask again.",
  [CLOSE_NOT_APPROVED]: "Nobody approved this browser in time. Connect again to ask again.",
};

/** Dial at once, as after a change of options or the popup's Connect again. */
export function dialAgain() {
  link.backoff = BACKOFF_MIN_MS;
  return connect();
}

export async function connect() {
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
      t: "hello", token, actions: ACTIONS, verbs: [...POINTER_VERBS, ...KEY_VERBS, ...SESSION_VERBS], name: "Chrome extension", pageScript: true,
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
  if (code === CLOSE_NOT_PAIRED) forgetPairing(link.url);
  setControl(false); // the host gives control back when the connection ends
  // The host no longer waits for any answer: what runs stops, and nothing queued starts.
  cancelAll("the connection to the host closed");
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
    cancel(message.id, "the host cancelled it");
  }
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && ("url" in changes || "token" in changes)) dialAgain();
});
