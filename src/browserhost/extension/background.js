// browserhost's Chrome extension: the user's own browser as the host's "bridge" provider.
//
// It dials the host's bridge and answers the ten actions and the verbs drag and select_text
// through chrome.debugger (CDP): the agent's input arrives as trusted events, as a person's
// would. It acts only in tabs the user shared (from its popup) and tabs it opened itself.
//
//   connection.js    dialling the host, pairing, the host's messages
//   link.js          the link's state, the badge, who is in control
//   calls.js         running calls: in order per agent session, until deadline or cancel
//   stopping.js      an action's stop signal, one action at a time per tab
//   tabs.js          which tabs the agent may touch, each session's own tab
//   cdp.js           the tabs' CDP sessions, their frames and documents
//   page.js          the page script's answers, loads, settling
//   page_events.js   what a page says on its own: console problems, dialogs, drags
//   frames.js        iframes, same-origin or not
//   targets.js       the element an agent names, found and checked
//   refusals.js      the checks and words of a refusal, as the chromium provider's
//   actions.js       the ten actions
//   pointer_verbs.js drag and select_text (in_page.js: what they run in the page)
//   popup_answers.js what the popup asks
//   contract.js      the values shared with the Python side, written from them
//
// The page-side script is the chromium provider's snapshot.js, which the host sends in
// hello.ok: one copy serves both providers. It runs in the page (Runtime.evaluate), never in
// the extension.

import { attached } from "./cdp.js";
import { connect } from "./connection.js";
import { badge, link } from "./link.js";
import "./popup_answers.js";

// A module's names are its own: this is what the service worker's DevTools console (and the
// extension's tests) can read of it.
globalThis.browserhost = { link, attached, connect };

// A service worker is started again on any event; each start dials the host.
badge();
connect();
