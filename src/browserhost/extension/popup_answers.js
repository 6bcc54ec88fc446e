// What the popup shows and the buttons it has: it asks here, so the socket stays this side's.

import { dialAgain } from "./connection.js";
import { handBack, link } from "./link.js";
import { share, tabs, unshare } from "./tabs.js";

const ASKED = {
  view,
  share: ({ tabId }) => share(tabId),
  unshare: ({ tabId }) => unshare(tabId),
  handBack: () => handBack(),
  reconnect: () => dialAgain(),
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
    status: link.status,
    text: (await chrome.storage.local.get("state")).state?.text || "",
    url: link.url,
    userInControl: link.userInControl,
    shared: sharedTabs,
    agentTabs: await listed(opened),
    thisTab: await describe(tabId),
    thisShared: shared.includes(tabId) || opened.includes(tabId),
  };
}
