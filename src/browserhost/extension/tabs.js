// Which tabs the agent may touch: the tabs the user shared (from the popup) and the tabs it
// opened itself (kept in a tab group); any other tab is never attached to. Each agent session
// (the host's directory and session id) gets a tab of its own on its first browser.open;
// until then it acts in the tab the user shared last, and with none shared it is refused.

import { attached, forget } from "./cdp.js";
import { NO_TAB, Refusal } from "./refusals.js";

const GROUP_TITLE = "browserhost";

// In session storage, so a service worker woken again still knows them; forgotten when the
// browser closes. shared: the tabs the user shared, the latest last; opened: the tabs the
// agent opened; sessions: agent session key -> the tab it opened.
export async function tabs() {
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

const alive = (tabId) => chrome.tabs.get(tabId).then(() => true, () => false);

export async function share(tabId) {
  await edit(({ shared }) => ({ shared: [...shared.filter((id) => id !== tabId), tabId] }));
  await chrome.action.setTitle({ tabId, title: "browserhost: this tab is shared with the agent" });
}

export async function unshare(tabId) {
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
export async function agentTab(key, opening) {
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
