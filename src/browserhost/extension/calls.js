// Running the host's calls: in order per agent session, side by side across sessions, one at
// a time in any one tab, each until the host's deadline or its cancel. It answers "expired" or
// "cancelled" then, saying whether anything reached the page. A refusal (nothing reached the
// page) goes as ok: false with a contract code the host passes on to the agent with its words;
// any other failure with a code of the extension's own, which the host reads as "may have run".

import { ACTIONS_BY_NAME } from "./actions.js";
import { attach, cdp, touched } from "./cdp.js";
import { PROVIDER_REJECTED, UNSUPPORTED } from "./contract.js";
import { acting, link } from "./link.js";
import { dialogs } from "./page_events.js";
import { drawing } from "./page.js";
import { NotFound, Refusal } from "./refusals.js";
import { holdTab, Stopped, until } from "./stopping.js";
import { agentTab } from "./tabs.js";

// The host stops listening at expiresAt; an answer sent this much earlier still reaches it.
const DEADLINE_MARGIN_MS = 300;

const calls = new Map(); // call id -> its AbortController, until it is answered
const queues = new Map(); // agent session key -> the end of its last call

/** The host sent an action this browser does not serve: nothing was done. */
class Unsupported extends Refusal {}

/** Stop the call `id`, if it still runs or waits. */
export function cancel(id, why) {
  const controller = calls.get(id);
  if (controller) controller.abort(new Stopped("cancelled", why));
}

/** Stop every call: the host no longer waits for any answer. */
export function cancelAll(why) {
  for (const id of calls.keys()) cancel(id, why);
}

/** Run `call` once the calls before it of its agent session are done, and answer it. */
export function start(socket, call) {
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

async function run(socket, call, key, signal, previous) {
  const began = { page: false }; // whether anything reached a page: then it may have run
  let reply;
  try {
    await until(previous, signal);
    const data = await perform(call.name, call.args || {}, key, signal, began);
    reply = { t: "tool.result", id: call.id, ok: true, result: { ok: true, data } };
  } catch (error) {
    if (error instanceof Refusal) {
      const code = error instanceof Unsupported ? UNSUPPORTED : PROVIDER_REJECTED;
      reply = { t: "tool.result", id: call.id, ok: false, error: { code, message: error.message } };
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

async function perform(name, args, key, signal, began) {
  const action = ACTIONS_BY_NAME[name];
  if (!action) throw new Unsupported(`${name} is not an action this browser serves; nothing was done.`);
  const tabId = await until(agentTab(key, name === "browser.open"), signal);
  return holdTab(tabId, signal, async () => {
    touched.delete(tabId);
    await attach(tabId);
    dialogs.delete(tabId);
    began.page = true;
    try {
      return await acting(() => drawing(tabId, () => action(tabId, args)));
    } catch (error) {
      if (error instanceof NotFound && await blank(tabId)) { // nothing was opened, not an element gone
        throw new Refusal(`Nothing is open: the page is blank, so ${name} was not run; use browser.open.`);
      }
      throw error;
    }
  });
}

// Whether the tab shows the blank page it starts on, with nothing written into it.
async function blank(tabId) {
  const expression = "location.href === 'about:blank' && !document.documentElement.innerText.trim()";
  try {
    const reply = await cdp(tabId, "Runtime.evaluate", { expression, returnByValue: true });
    return reply?.result?.value === true;
  } catch {
    return false;
  }
}
