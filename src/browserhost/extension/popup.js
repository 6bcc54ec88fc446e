// The toolbar button's popup: the connection, who is in control, the tabs the agent may act
// in, and what a person does here: share the tab (or stop sharing it), hand control back to
// the agent, and dial again after the host refused this browser. While the host waits for a
// person to approve this browser, it says the id to approve. The service worker holds the
// socket; this page asks it.
//
// It is about the active tab of its window; opened as a page (popup.html?tab=ID) it is about
// tab ID.
"use strict";

const shown = {
  connection: document.getElementById("connection"),
  dialling: document.getElementById("dialling"),
  address: document.getElementById("address"),
  reconnect: document.getElementById("reconnect"),
  control: document.getElementById("control"),
  handBack: document.getElementById("hand-back"),
  share: document.getElementById("share"),
  thisTab: document.getElementById("this-tab"),
  shared: document.getElementById("shared"),
  agentTabs: document.getElementById("agent-tabs"),
};
const CONNECTION = {
  on: "Connected to the host.",
  off: "Not connected to the host; dialling again.",
  refused: "The host refused this browser.",
  pending: "Not connected yet.",
};
// Pages Chrome lets no extension debug: sharing them could never work.
const SHAREABLE = /^(https?:|file:|about:blank)/;

async function thisTab() {
  const asked = new URLSearchParams(location.search).get("tab");
  if (asked) return Number(asked);
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab ? tab.id : null;
}

async function ask(question) {
  const answer = await chrome.runtime.sendMessage(question);
  if (!answer || !answer.ok) throw new Error((answer && answer.error) || "the extension did not answer");
  return answer.result;
}

function list(where, tabs) {
  where.replaceChildren(...tabs.map((tab) => {
    const item = document.createElement("li");
    item.textContent = tab.title;
    item.title = tab.url;
    return item;
  }));
  if (!tabs.length) {
    const none = document.createElement("li");
    none.className = "quiet";
    none.textContent = "none";
    where.replaceChildren(none);
  }
}

async function show() {
  const tabId = await thisTab();
  const view = await ask({ ask: "view", tabId });
  shown.connection.textContent = CONNECTION[view.status] || view.status;
  if (view.text && view.status !== "on") shown.connection.textContent += ` ${view.text}`;
  shown.connection.className = view.status;
  // Not connected: maybe the host is elsewhere; say where this dials and where to change it.
  shown.dialling.hidden = view.status !== "off";
  shown.address.textContent = view.url;
  shown.reconnect.hidden = view.status !== "refused";
  shown.control.textContent = view.userInControl
    ? "You are in control: the agent waits until you hand back."
    : "The agent is in control of its tabs.";
  shown.control.className = view.userInControl ? "user" : "";
  shown.handBack.disabled = !view.userInControl;
  const tab = view.thisTab;
  shown.share.textContent = view.thisShared ? "Stop sharing this tab" : "Share this tab";
  shown.share.disabled = !tab || !SHAREABLE.test(tab.url);
  shown.share.dataset.shared = String(view.thisShared);
  shown.thisTab.textContent = !tab ? "" : SHAREABLE.test(tab.url)
    ? `This tab: ${tab.title}` : "This tab shows a page Chrome lets no extension into.";
  list(shown.shared, view.shared);
  list(shown.agentTabs, view.agentTabs);
  document.body.dataset.ready = "true";
}

shown.handBack.addEventListener("click", async () => {
  await ask({ ask: "handBack" });
  await show();
});

shown.reconnect.addEventListener("click", async () => {
  await ask({ ask: "reconnect" });
  await show();
});

shown.share.addEventListener("click", async () => {
  const tabId = await thisTab();
  await ask({ ask: shown.share.dataset.shared === "true" ? "unshare" : "share", tabId });
  await show();
});

chrome.storage.onChanged.addListener(() => { show(); });
show();
