// Code editors (CodeMirror, Ace, Monaco), which draw their lines themselves and take the keys
// in a field they hide, used as the chromium provider's fields.press_editor and into_editor
// use them: pressed on their text, all of it selected, and the text pasted, which an editor
// keeps as given (typed keys would have it indent each line and close each bracket again).

import { cdp } from "./cdp.js";
import { EDITOR_TYPED, EDITOR_UNFOCUSED } from "./contract.js";
import { pressChord } from "./key_verbs.js";
import { page } from "./page.js";
import { Refusal } from "./refusals.js";
import { target } from "./targets.js";

const filled = (template, values) =>
  template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));

/** Press the code editor `info.editor` describes on its text, as a person does to give it the
 * keys; refused where no field of the editor took the focus. */
export async function pressEditor(tabId, { info, located }, selector) {
  const { editor } = info;
  const pressed = await target(tabId, located.prefix + editor.press, "click", { fresh: true });
  const x = pressed.located.x + Number(pressed.info.aim.x);
  const y = pressed.located.y + Number(pressed.info.aim.y);
  const mouse = { x, y, button: "left", clickCount: 1 };
  await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
  await cdp(tabId, "Input.dispatchMouseEvent", { type: "mousePressed", ...mouse });
  await cdp(tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", ...mouse });
  const put = await page(located, "pasteInto", { surface: editor.surface, text: "" });
  if ("unfocused" in put) {
    const instead = put.unfocused;
    const where = instead ? `the focus went to ${instead.selector}` : "nothing took the focus";
    throw new Refusal(filled(EDITOR_UNFOCUSED, {
      selector, surface: editor.surface, press: editor.press, where,
    }));
  }
}

/** Type `value` into the code editor the target is in; answers the notice saying how. */
export async function intoEditor(tabId, aimed, selector, value) {
  const { editor } = aimed.info;
  await pressEditor(tabId, aimed, selector);
  await pressChord(tabId, ["ControlOrMeta", "a"]);
  if (!value) {
    await pressChord(tabId, ["Delete"]);
  } else {
    const put = await page(aimed.located, "pasteInto", { surface: editor.surface, text: value });
    if (!put.taken) await cdp(tabId, "Input.insertText", { text: value });
  }
  return filled(EDITOR_TYPED, { selector, surface: editor.surface, field: editor.field });
}
