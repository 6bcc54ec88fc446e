// The verb press_key, as the chromium provider answers it: a key, a chord, or a text typed key
// by key where the focus is, sent as a person's keyboard sends them (CDP Input events,
// trusted). Keys are named as Playwright names them on its US layout, and by the usual other
// names (providers/key_verbs.py, through contract.js).

import { cdp } from "./cdp.js";
import {
  KEY_NAMES, NOT_A_KEY, NOT_FOCUSED, PRESS_KEY_HELP, PRESS_KEY_SCHEMA, SHIFTED, TO_THE_PAGE,
} from "./contract.js";
import { pressEditor } from "./editors.js";
import { link } from "./link.js";
import { evaluate, page, settle, shownAfter } from "./page.js";
import { described as describedElement, formRefused, Refusal } from "./refusals.js";
import { target } from "./targets.js";

export const VERBS = [
  { name: "press_key", description: PRESS_KEY_HELP, inputSchema: PRESS_KEY_SCHEMA, changesPage: true },
];

// Keys by name: [code, Windows key code, text typed, location (1: the left one)].
const NAMED = {
  Backspace: ["Backspace", 8], Tab: ["Tab", 9], Enter: ["Enter", 13, "\r"], Escape: ["Escape", 27],
  Space: ["Space", 32, " "], PageUp: ["PageUp", 33], PageDown: ["PageDown", 34], End: ["End", 35],
  Home: ["Home", 36], ArrowLeft: ["ArrowLeft", 37], ArrowUp: ["ArrowUp", 38],
  ArrowRight: ["ArrowRight", 39], ArrowDown: ["ArrowDown", 40], Insert: ["Insert", 45],
  Delete: ["Delete", 46], Shift: ["ShiftLeft", 16, "", 1], Control: ["ControlLeft", 17, "", 1],
  Alt: ["AltLeft", 18, "", 1], Meta: ["MetaLeft", 91, "", 1], CapsLock: ["CapsLock", 20],
  ContextMenu: ["ContextMenu", 93],
  ...Object.fromEntries(Array.from({ length: 12 }, (_, n) => [`F${n + 1}`, [`F${n + 1}`, 112 + n]])),
};
// CDP's modifiers bit for each modifier key held.
export const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

// The characters of the US layout: each with its key's code and key code, and the character
// the same key types with Shift held.
const CHARACTERS = new Map();
function layout(plain, shifted, code, keyCode) {
  CHARACTERS.set(plain, { code, keyCode, shifted });
  CHARACTERS.set(shifted, { code, keyCode, shifted });
}
for (let n = 0; n < 26; n += 1) {
  const upper = String.fromCharCode(65 + n);
  layout(upper.toLowerCase(), upper, `Key${upper}`, 65 + n);
}
for (let n = 0; n < 10; n += 1) layout(String(n), ")!@#$%^&*("[n], `Digit${n}`, 48 + n);
for (const [plain, shifted, code, keyCode] of [
  [";", ":", "Semicolon", 186], ["=", "+", "Equal", 187], [",", "<", "Comma", 188],
  ["-", "_", "Minus", 189], [".", ">", "Period", 190], ["/", "?", "Slash", 191],
  ["`", "~", "Backquote", 192], ["[", "{", "BracketLeft", 219], ["\\", "|", "Backslash", 220],
  ["]", "}", "BracketRight", 221], ["'", '"', "Quote", 222],
]) layout(plain, shifted, code, keyCode);
CHARACTERS.set(" ", { code: "Space", keyCode: 32, shifted: " " });
// Typed text's line breaks and tabs are keys.
const TYPED_AS = { "\n": "Enter", "\r": "Enter", "\t": "Tab" };

/** The key `name` (a name Playwright knows, or one character of the layout) as CDP sends
 * it, with Shift held or not; null for a name that is no key. */
function described(name, shift) {
  const named = NAMED[name];
  if (named) {
    const [code, keyCode, text = "", where = 0] = named;
    return { key: name === "Space" ? " " : name, code, keyCode, text, location: where };
  }
  const character = CHARACTERS.get(name);
  if (!character) return null;
  const key = shift && /^[a-z]$/.test(name) ? name.toUpperCase() : shift ? character.shifted : name;
  return { key, code: character.code, keyCode: character.keyCode, text: key, location: 0 };
}

/** The parts of a chord in the names Playwright takes, as key_verbs.chord_parts reads them. */
function chordParts(key) {
  if (key === "+") return [key];
  let parts = key.split("+");
  if (key.endsWith("++")) parts = [...key.slice(0, -2).split("+"), "+"];
  return parts.map((part) => (part.length > 1 ? KEY_NAMES[part.toLowerCase()] || part : part));
}

/** The chord a person presses for a key typed with Shift held (a capital B, a ?): with Shift,
 * as the chromium provider's fields.shifted presses it. */
const withShift = (chord) =>
  chord.length === 1 && chord[0] !== "+" && SHIFTED.includes(chord[0]) ? ["Shift", ...chord] : chord;

/** ControlOrMeta is the key that edits with letters where the browser runs: Meta on a Mac. */
const onThisKeyboard = (name) =>
  name !== "ControlOrMeta" ? name : /Mac/.test(navigator.platform) ? "Meta" : "Control";

/** A Python repr of a plain string, as the chromium provider's refusal quotes the name. */
const quoted = (text) => (text.includes("'") && !text.includes('"') ? `"${text}"` :
  `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`);

// The chromium provider's key_verbs.py to_the_page: keys or a text that went to the page
// itself, nothing having the focus (not a Tab alone, which moves it into the page).
function toThePage(text, key) {
  if ((key === "Tab" || key === "Shift+Tab") && !text) return "";
  const what = [text && quoted(text), key].filter(Boolean).join(" and ");
  return what ? TO_THE_PAGE.replace("{what}", what) : "";
}

async function send(tabId, type, description, held) {
  const modifiers = [...held].reduce((bits, name) => bits | (MODIFIER_BITS[name] || 0), 0);
  // A key pressed with a modifier other than Shift types nothing (Control+a selects).
  const text = [...held].some((name) => name !== "Shift") ? "" : description.text;
  const event = {
    type: type === "keyUp" ? "keyUp" : text ? "keyDown" : "rawKeyDown",
    modifiers, key: description.key, code: description.code, location: description.location,
    windowsVirtualKeyCode: description.keyCode, nativeVirtualKeyCode: description.keyCode,
  };
  if (type !== "keyUp" && text) Object.assign(event, { text, unmodifiedText: text });
  await cdp(tabId, "Input.dispatchKeyEvent", event);
}

/** Press the chord `names` (modifiers first, released after, the last key once). */
export async function pressChord(tabId, chord) {
  const held = new Set();
  const names = chord.map(onThisKeyboard);
  const keys = names.map((name, index) => {
    const shift = names.slice(0, index).includes("Shift");
    return { name, description: described(name, shift) };
  });
  try {
    // A modifier's own events carry its bit, as a keyboard's do (a Control keydown: ctrlKey).
    for (const { name, description } of keys.slice(0, -1)) {
      held.add(name);
      await send(tabId, "keyDown", description, held);
    }
    const last = keys[keys.length - 1].description;
    await send(tabId, "keyDown", last, held);
    await send(tabId, "keyUp", last, held);
  } finally {
    // Released even when a press failed: a held Control would change the person's own keys.
    for (const { name, description } of keys.slice(0, -1).reverse()) {
      if (held.delete(name)) await send(tabId, "keyUp", description, held).catch(() => {});
    }
  }
}

/** `work`, with the modifier keys `names` (Shift, Control, Alt, Meta) held down meanwhile, as
 * a person holds them while using the mouse; released after, even when it fails. */
export async function holding(tabId, names, work) {
  const held = new Set();
  try {
    for (const name of names) {
      held.add(name);
      await send(tabId, "keyDown", described(name, false), held);
    }
    return await work();
  } finally {
    for (const name of [...names].reverse()) {
      if (held.delete(name)) await send(tabId, "keyUp", described(name, false), held).catch(() => {});
    }
  }
}

export async function pressKey(tabId, { key, text, selector }) {
  const names = key === undefined || key === null ? null : chordParts(key);
  if (names && names.some((name) => !described(onThisKeyboard(name), false))) {
    throw new Refusal(NOT_A_KEY.replace("{key}", quoted(key)));
  }
  const given = selector !== undefined && selector !== null;
  // Where the keys go, as the chromium provider's press_key says it: to the element given,
  // which must keep the focus (or be the item what holds it has the keys on), or where the
  // focus is.
  const holder = async () => {
    const focused = await page(tabId, "focused").catch(() => null);
    return focused && focused.selector ? `${focused.selector} (${describedElement(focused)})` : null;
  };
  let before = null;
  if (given) {
    const aimed = await target(tabId, selector, "type", { watch: true, keyboard: true });
    // A code editor's keys go to a field it hides, which a press on its text focuses.
    const holds = aimed.info.editor ? await pressEditor(tabId, aimed, selector).then(() => true)
      : await evaluate(aimed.located, `(async () => {
        const el = await (${link.pageScript})({ op: "stashed" });
        el.focus();
        return (${link.pageScript})({ op: "keysReach" });
      })()`);
    if (!holds) {
      throw new Refusal(NOT_FOCUSED.replace("{selector}", selector)
        .replace("{holder}", await holder() || "the page itself"));
    }
  } else {
    before = await holder();
  }
  for (const character of text || "") {
    const name = TYPED_AS[character] || character;
    if (described(name, false)) await pressChord(tabId, withShift([name]));
    else await cdp(tabId, "Input.insertText", { text: character }); // é, 中, an emoji
  }
  if (names) await pressChord(tabId, withShift(names));
  const settled = await settle(tabId);
  // The value the keys left on what they were pressed on, and where the keys go now (a Tab
  // moved them), as the chromium provider's press_key answers them.
  const now = (settled && settled.state) || {};
  const focus = await holder();
  const shown = await shownAfter(tabId, settled);
  // Enter that sent a form the browser's own check stopped, as the chromium provider says it.
  const notice = [formRefused(settled || {}).notice, shown.notice,
    !given && !before && toThePage(text, names && names.join("+"))].filter(Boolean).join(" ");
  return {
    ...(names ? { key: names.join("+") } : {}),
    ...(text ? { typed: text } : {}),
    ...(given && "value" in now ? { value: now.value } : {}),
    ...(focus ? { focus } : {}),
    ...shown,
    ...(notice ? { notice } : {}),
  };
}
