// The state of the link to the host, what the toolbar button shows of it, and who is in
// control. connection.js dials and answers; the rest of the extension reads this.
//
//   badge   off (grey)   no connection: dialling again after 0.5 s, doubling up to 30 s
//           ?   (purple) waiting for a person to approve it; the popup says its id
//           !   (red)    the host refused it (token, extension id, denied, forgotten, not
//                        approved in time, replaced): the popup's Connect again, or the
//                        options, dial again
//           on  (green)  connected
//           ... (amber)  an action is running
//           you (blue)   the person took control by acting in an agent's tab: the host
//                        refuses the agent until they hand back from the popup

import { DEFAULT_URL } from "./contract.js";

export const BACKOFF_MIN_MS = 500;

export const link = {
  status: "off", socket: null, url: DEFAULT_URL, backoff: BACKOFF_MIN_MS, timer: null,
  pageScript: null, attempts: 0, rpcs: 0, userInControl: false, clockOffset: 0, pending: null,
  kept: Promise.resolve(), acting: 0,
};

/** The status and what the popup and the options page say of it (they read storage). */
export function setStatus(next, text = "") {
  link.status = next;
  badge();
  chrome.storage.local.set({ state: { status: next, text, url: link.url } });
}

export function badge() {
  const [text, color] = link.userInControl ? ["you", "#1565c0"] : link.acting > 0 ? ["...", "#b26b00"]
    : { on: ["on", "#1a7f37"], pending: ["?", "#6a1b9a"], refused: ["!", "#c62828"] }[link.status]
      || ["off", "#777777"];
  chrome.action.setBadgeText({ text });
  chrome.action.setBadgeBackgroundColor({ color });
}

/** `work`, with the badge saying an action runs meanwhile. */
export async function acting(work) {
  link.acting += 1;
  badge();
  try {
    return await work();
  } finally {
    link.acting -= 1;
    badge();
  }
}

export function setControl(userInControl) {
  link.userInControl = userInControl;
  badge();
  chrome.storage.session.set({ control: userInControl ? "user" : "agent" }); // the popup watches
}

export function takeControl() {
  if (link.userInControl || !link.socket) return;
  setControl(true);
  rpc("control.take");
}

export function handBack() {
  setControl(false);
  rpc("control.handBack");
}

function rpc(method) {
  link.rpcs += 1;
  const message = { t: "rpc", id: `rpc-${link.rpcs}`, method };
  if (link.socket && link.socket.readyState === WebSocket.OPEN) link.socket.send(JSON.stringify(message));
}
