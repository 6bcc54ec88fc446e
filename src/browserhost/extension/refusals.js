// What the agent reads when an action is refused before anything reaches the page: the
// chromium provider's checks and words (providers/chromium/targets.py, fields.py, provider.py
// _by_text), so an agent reads the same whichever browser serves it. No chrome API here:
// tests/extension/test_refusals.py runs these beside the Python ones and compares.

import {
  AMONG_WORDS, BLOCKED_SCHEMES_HELP, BOX_SCROLLED, HIDDEN_ALIKE, MOUSE_DONE, NOT_DRAWN_YET,
  OWN_REFUSED, PAGE_GOES_ON, WIDGET_ADVICE,
} from "./contract.js";

/** An answer the agent reads ("ok: false" with what to do), not a failure of the bridge. */
export class Refusal extends Error {}

/** No element is what the agent named: a selector that matches none, a text none shows. */
export class NotFound extends Refusal {}

export const NO_TAB =
  "No tab is shared with the agent, and this agent session has opened none: browser.open " +
  "opens one in the browserhost tab group, or the user shares a tab from the browserhost button.";

export const UNREACHABLE = "Chrome lets no extension into its document (a browser page, another " +
  "extension's page, or a page it blocked)";

// Chrome refuses an extension every command in a tab that shows a browser page, or another
// extension's page in a frame (a password manager's, say): no frame of it can be reached.
export const BARRED = /Cannot access a chrome(-extension)?:\/\/ URL/;
export function barred(mayHaveRun) {
  const said = "Chrome lets no extension into this tab: it shows a browser page, or another " +
    "extension's page in a frame, and then every command in the tab is refused";
  return mayHaveRun
    ? `${said}. It was refused midway, after input was sent: it may have run.`
    : `${said}, so nothing was done. Wait until that frame is gone, or browser.open another page.`;
}

/** Why `url` may not be opened, or null; `bridgeUrl` is the host's own address. */
export function refusalToOpen(url, bridgeUrl) {
  let parts;
  try {
    parts = new URL(url);
  } catch (error) {
    return "it is not an address";
  }
  if (parts.protocol !== "http:" && parts.protocol !== "https:") return BLOCKED_SCHEMES_HELP;
  // The host's own API and docs are never shown: a page's text could send the agent there.
  const own = new URL(bridgeUrl.replace(/^ws/, "http"));
  const local = (name) => ["localhost", "127.0.0.1", "[::1]"].includes(name);
  if (parts.port === own.port && (parts.hostname === own.hostname ||
      (local(parts.hostname) && local(own.hostname)))) {
    return OWN_REFUSED;
  }
  return null;
}

/** The page script's `error` answers: a broken selector, a wrong count. */
export function checkFound(answer, selector) {
  const error = answer && answer.error;
  if (error === "invalid") {
    throw new Refusal(`${selector} is not a valid CSS selector; copy a selector from the latest snapshot.`);
  }
  if (error === "nohost") {
    throw new Refusal(`${answer.partial} is neither an iframe nor an element with an open shadow ` +
      `root, so ${selector} cannot step into it; copy a selector from the latest snapshot.`);
  }
  if (error === "count") checkCount(Number(answer.count), answer.selector || selector || "");
}

// A form the input sent that the browser's own check stopped, in the chromium provider's
// words (providers/chromium/inputs.py, form_refused): it was not sent.
export function formRefused({ refused }) {
  if (!refused) return {};
  const field = refused.field ? `"${refused.field}" (${refused.selector})` : refused.selector;
  const said = refused.message ? `, which says "${refused.message}"` : "";
  const others = refused.more ? ` (${refused.more} other field${refused.more > 1 ? "s" : ""} too)` : "";
  if (refused.byPage) {
    return {
      notice: `The form was not sent: the page's own check stopped it at the field ${field}` +
        `${others}; the page says why beside it. Fix the field, then send the form again.`,
    };
  }
  return {
    notice: `The form was not sent: the browser's own check stopped it at the field ${field}` +
      `${said}${others}. Fix the field, then send the form again.`,
  };
}

// One of the elements a text matches, as a refusal lists it (the chromium provider's
// targets.candidate): its group and its mark, where it has them, tell alike ones apart.
export function candidate(match) {
  const group = match.group ? ` in "${match.group}"` : "";
  const marked = match.marked ? `, marked ${match.marked}` : "";
  return `${match.selector} (${match.tag} "${match.label}"${group}${marked})`;
}

// What the agent hears when the element asked for showed another item once scrolled into
// view (a virtual list draws its rows again as it scrolls), and the element that shows the
// item listed was the one acted on instead (the chromium provider's targets.chased).
export function chased(asked, selector, done) {
  return `${asked} showed another item once scrolled into view (the list draws its rows again ` +
    `as it scrolls): the item your snapshot listed there is ${selector} now, which was ${done}.`;
}

export function checkCount(count, selector) {
  if (count === 0) throw new NotFound(`No element matches ${selector}; take a new snapshot.`);
  if (count > 1) {
    throw new Refusal(`${selector} matches ${count} elements; take a new snapshot and use a ` +
      "selector that matches exactly one.");
  }
}

/** An element the page script named (a cover, what a press would reach): its tag and
 * label, as `div "We use cookies"`. */
export const described = (element) => (element.label ? `${element.tag} "${element.label}"` : element.tag);

/** Whether a person could act on the element now; `verb` says what would have been done. */
export function checkUsable(selector, info, verb) {
  if (info.disabled) {
    throw new Refusal(`${selector} is disabled, so nothing was ${verb}; do what enables it first ` +
      "(fill the required fields, pick an option) or wait for the page to (verb.wait_for), then " +
      "take a new snapshot.");
  }
  const aim = info.aim || {};
  if (aim.closedIn) {
    throw new Refusal(`${selector} is in a closed section, so nothing was ${verb}; open it ` +
      `first (click ${aim.closedIn.selector} (${described(aim.closedIn)})), then take a new snapshot.`);
  }
  if (aim.standIn) {
    throw new Refusal(`${selector} is hidden, so nothing was ${verb}: the page shows its own ` +
      `control in its place, ${aim.standIn.selector} (${described(aim.standIn)}); use that ` +
      "instead (click it, then the option it shows).");
  }
  if (aim.blocked) {
    throw new Refusal(`${selector} is out of reach while something else is open: the page shuts ` +
      `it off (${aim.blocked.selector} (${described(aim.blocked)})), so nothing was ${verb}. ` +
      "Close what is open first (press Escape, or choose in it), then try again.");
  }
  if (aim.focusShows) {
    throw new Refusal(`${selector} is see-through until it has the focus (a field drawn only ` +
      `then), so nothing was ${verb}; click what holds it, ${aim.focusShows.selector} ` +
      `(${described(aim.focusShows)}), first, then take a new snapshot.`);
  }
  if (aim.hoverShows) {
    throw new Refusal(`${selector} is see-through until the pointer is over what holds it, ` +
      `${aim.hoverShows.selector} (${described(aim.hoverShows)}), so nothing was ${verb}; hover ` +
      "that first (verb.hover), then take a new snapshot.");
  }
  if (aim.hidden) {
    throw new Refusal(`${selector} is not visible (hidden, or inside a closed menu, tab or ` +
      `dialog), so nothing was ${verb}; open what contains it, or take a new snapshot.`);
  }
  if (aim.clipped) {
    throw new Refusal(`${selector} is hidden inside a box that shows only part of what it holds ` +
      "and that a person cannot scroll (a collapsed section, a clipped card or list), so " +
      `nothing was ${verb}; open or expand what holds it first (its header, a "more" button, ` +
      "an arrow), or take a new snapshot.");
  }
  if (aim.pressedBy) {
    throw new Refusal(`${selector} lets clicks through to the control around it, ` +
      `${aim.pressedBy.selector} (${described(aim.pressedBy)}), so nothing was ${verb}; click that ` +
      "instead (then the option it shows, for a list).");
  }
  if (aim.inert) {
    throw new Refusal(`${selector} does not take clicks (its style lets them through to what is ` +
      `under it), so nothing was ${verb}; the page does not offer it now.`);
  }
  if (aim.moving) {
    throw new Refusal(`${selector} kept moving (the page animates it), so nothing was ${verb} at ` +
      "a point it may have left; try again once it stops, or, for one that never does, use " +
      "verb.mouse at x and y where it is going (browser.inspect gives its bounds).");
  }
  const part = aim.text;
  if (aim.repeated) {
    throw new Refusal(`"${part}" appears ${aim.repeated} times in the text of ${selector}, so ` +
      `nothing was ${verb}; take a new snapshot and use its selector.`);
  }
  if (aim.noText) {
    throw new Refusal(`"${part}" is not drawn as text inside ${selector}, so nothing was ` +
      `${verb}; take a new snapshot and use its selector.`);
  }
  if (aim.offText) {
    throw new Refusal(`A press in the middle of "${part}" in ${selector} would reach ` +
      `${aim.offText.selector} (${described(aim.offText)}) and not that text, so nothing was ` +
      `${verb}; take a new snapshot and use its selector.`);
  }
  if (aim.larger) {
    throw new Refusal(`${selector} is larger than the box that scrolls it (an editor's whole ` +
      "text), and no point of it a press would take is in that box's view, so nothing was " +
      `${verb}. Click a part of it you see (a line, by its text), then type with ` +
      "verb.press_key (text; Control+a first selects all of it).");
  }
  if (aim.outside) {
    throw new Refusal(`${selector} is outside the visible part of its container, so nothing was ` +
      `${verb}; scroll to it with browser.scroll, or take a new snapshot.`);
  }
  const through = aim.through;
  if (through) {
    throw new Refusal(`A press inside ${selector} reaches ${through.selector} ` +
      `(${described(through)}) under it: ${selector} lets the pointer through there (drawn as ` +
      `an outline, say), so nothing was ${verb}; press a point on its drawn part with ` +
      "verb.mouse (x and y as a capture shows them).");
  }
  const cover = aim.coveredBy;
  if (cover) {
    throw new Refusal(`${selector} is covered by ${cover.selector} (${described(cover)}), so ` +
      `nothing was ${verb}. Close or dismiss what covers it first (a dialog's close button or ` +
      "Escape (verb.press_key), a banner's accept or reject button; a tooltip or a menu that " +
      "showed on hover goes once the pointer moves off: verb.mouse with action move), then " +
      "try again.");
  }
}

/** What a click answers when every press would have landed elsewhere, in the chromium
 * provider's words (providers/chromium/inputs.py missed_all): the page got none of them. */
export const missedAll = (clicked, missed, attempts) =>
  `${clicked} was not clicked: each time the pointer came over it (${attempts} tries), the page ` +
  `changed under it, and the press would have reached ${missed.selector} (${described(missed)}) ` +
  "instead (a hover effect, an image still loading, a menu opening over it). The page got no " +
  "press; take a new snapshot, then try again.";

/** What a click given a selector and a text answers when the element does not show the
 * text, in the chromium provider's words (providers/chromium/targets.py not_showing). */
export const notShowing = (selector, text, label) =>
  `${selector} ${label ? `reads "${label}", not "${text}"` : `does not show "${text}"`}, so ` +
  "nothing was clicked: give the selector or the text alone, or take a new snapshot.";

/** What a click answers when the page moved its element away as it was pressed, in the
 * chromium provider's words (providers/chromium/inputs.py slipped_release). */
export const slippedRelease = (clicked) =>
  `${clicked} got no click: the page moved it as it was pressed (a message shown above it as ` +
  "the field before lost focus, say), so the release missed it. The press itself reached the " +
  "page; take a new snapshot, then click it again.";

/** Whether browser.type can type into the element. */
export function checkTakesText(selector, info) {
  if (!info.typable) {
    const advice = WIDGET_ADVICE[info.role];
    if (advice) {
      throw new Refusal(`${selector} is a ${info.role} the page draws, not a text field, so ` +
        `nothing was typed; ${advice}.`);
    }
    if (info.knob) {
      throw new Refusal(`${selector} is the knob of a slider the page draws, not a text field, ` +
        "so nothing was typed; verb.drag it by offsetX (its value reads where it sits on its track).");
    }
    if (info.readsKeys) {
      throw new Refusal(`${selector} is not a text field but reads the keys pressed on it, so ` +
        `nothing was typed; verb.press_key with selector ${selector} and text types them into ` +
        "it key by key, as a person does.");
    }
    if (info.tag !== "input") {
      throw new Refusal(`${selector} is not a text field; take a new snapshot and pick an ` +
        "input, a select, a textarea or an editable element (a cell or a label the page edits " +
        "in place shows its field once clicked, or double-clicked).");
    }
    throw new Refusal(`${selector} is a ${info.type} input, not a text field; use browser.click for it.`);
  }
  if (info.readonly && info.role === "combobox") {
    throw new Refusal(`${selector} is a read-only combobox, so nothing was typed; click it, then ` +
      "click the option you want (a snapshot lists them).");
  }
  if (info.readonly) {
    throw new Refusal(`${selector} is read-only; nothing was typed. Where the page sets it with a ` +
      "picker (a calendar, a list), click it and choose there.");
  }
}

/** The value of the select option whose label (else value) is `wanted`. */
export function optionValue(selector, options, wanted) {
  for (const field of ["label", "value"]) {
    const found = options.find((option) => option[field] === wanted);
    if (found) return found.value;
  }
  const folded = options.find((option) => option.label.toLowerCase() === wanted.toLowerCase());
  if (folded) return folded.value;
  const listed = options.slice(0, 20).map((option) => `"${option.label}"`).join(", ");
  throw new Refusal(`${selector} has no option "${wanted}"; its options are ${listed}.`);
}

// What a refusal to find an element by its text tells the agent to do instead.
export const CLICKING = { act: "click", done: "clicked", instead: "click by selector", pick: "click one by its selector" };
export const DRAGGING = { act: "drag", done: "dragged", instead: "drag by selector", pick: "drag one by its selector" };
export const HOVERING = { act: "hover", done: "hovered", instead: "hover by selector", pick: "hover one by its selector" };
export const POINTING = { act: "pick", done: "done", instead: "pick by selector", pick: "pick one by its selector" };
/** A mouse verb's words: what its refusals say was not done follows its action (a move
 * refused is no click). */
export const mouseWords = (action) => ({ ...POINTING, done: MOUSE_DONE[action] || POINTING.done });
export const DROPPING = {
  done: "dragged", instead: "name where to drop it by toSelector", pick: "name one by toSelector",
};

/** A drop of `selector` on `to` a person could make, by the page script's dropTarget answer
 * (`found`); else the refusal, in the chromium provider's words (pointer.py check_droppable). */
export function checkDroppable(selector, to, found) {
  const named = (element) => `${element.selector} (${described(element)})`;
  const refusals = [
    ["gone", () => `${selector} went away, so nothing was dragged; take a new snapshot.`],
    ["changed", () => `${to} no longer names the element your latest snapshot listed (the ` +
      "page changed), so nothing was dragged; take a new snapshot."],
    ["inside", () => `${to} is ${selector} itself or inside it, so nothing was dragged; drop ` +
      "it on another element, or give an offset."],
    ["hidden", () => `${to} is not visible, so nothing was dragged; open what contains it, or ` +
      "take a new snapshot."],
    ["apartIn", (box) => `${selector} and ${to} do not show together in ${box}, the box that ` +
      `scrolls them, so nothing was dragged. Drag by hand with verb.mouse: down on ${selector}, ` +
      `move to the edge of ${box} nearest ${to} and wait (verb.wait_for seconds) while it ` +
      `scrolls, then move onto ${to} and up.`],
    ["apart", () => `${selector} and ${to} do not fit in the viewport together, so nothing was ` +
      "dragged; drag it nearer in steps (by offset), or use a larger viewport."],
    ["outside", () => `${to} is outside the visible part of its container, so nothing was ` +
      "dragged; scroll to it with browser.scroll, or take a new snapshot."],
    ["clipped", () => `${to} is cut off where the drop would go by a box that shows only part ` +
      "of what it holds and that a person cannot scroll (a clipped card or list), so nothing " +
      "was dragged; open or expand what holds it first, or drag by an offset to a part of it " +
      "that shows."],
    ["through", (through) => `A drop inside ${to} reaches ${named(through)} under it: ${to} ` +
      "lets the pointer through there (pointer-events: none, say), so nothing was dragged; " +
      `drop it on ${named(through)} instead, or by an offset (offsetX, offsetY).`],
    ["coveredBy", (cover) => `${to} is covered by ${named(cover)}, so nothing was dragged. ` +
      "Close or dismiss what covers it first, then try again."],
  ];
  for (const [flag, refusal] of refusals) {
    if (found[flag]) throw new Refusal(refusal(found[flag]));
  }
}

/** The one element `found` (the page script's findText answers) holds, else the refusal. */
export function checkFoundText(text, found, words) {
  const option = found.option;
  if (found.total === 0 && option && option.standIn) {
    throw new Refusal(`"${text}" is an option of the select ${option.select}, which the page ` +
      `hides and shows its own control for, ${option.standIn.selector} ` +
      `(${described(option.standIn)}): nothing was ${words.done}. Click that control, then ` +
      `the option "${option.label}" it shows.`);
  }
  if (found.total === 0 && option) {
    throw new Refusal(`"${text}" is an option of the select ${option.select}, whose list the ` +
      `browser draws itself: nothing was ${words.done}. Choose it with browser.type on ` +
      `${option.select} with the value "${option.label}".`);
  }
  const hidden = found.hidden;
  if (found.total === 0 && hidden?.alike) {
    const more = hidden.alikeTotal > hidden.alike.length ? `; and ${hidden.alikeTotal - hidden.alike.length} more` : "";
    throw new Refusal(HIDDEN_ALIKE.replace("{text}", text).replace("{total}", hidden.alikeTotal)
      .replace("{listed}", hidden.alike.map(candidate).join("; ") + more).replace("{done}", words.done)
      .replace("{act}", words.act));
  }
  if (found.total === 0 && hidden) {
    const named = (el) => `${el.selector} (${described(el)})`;
    const how = hidden.opener?.leaves
      ? `open it with ${named(hidden.opener)} first (hover it with verb.hover: it is a link)`
      : hidden.opener ? `open it with ${named(hidden.opener)} first (click it, or hover it)`
      : hidden.within ? `open ${named(hidden.within)}, which holds it, first (hover it, or click it)`
        : "open what holds it first";
    throw new Refusal(`"${text}" is ${named(hidden)}, hidden now (in a closed menu, tab or ` +
      `section), so nothing was ${words.done}; ${how}, then ${words.act} it.`);
  }
  const among = found.among;
  if (found.total === 0 && among) {
    throw new Refusal(AMONG_WORDS.replace("{text}", text)
      .replace("{element}", `${among.selector} (${described(among)})`).replace("{done}", words.done)
      .replaceAll("{act}", words.act).replace("{selector}", among.selector));
  }
  if (found.total === 0) {
    const boxes = found.boxes?.length ? ` ${NOT_DRAWN_YET}: ${scrollBoxesNamed(found.boxes)}; ${BOX_SCROLLED}` : "";
    const below = found.pageBelow ? ` ${PAGE_GOES_ON}` : "";
    throw new NotFound(`No visible element has the text "${text}"; take a new snapshot and ${words.instead}.${boxes}${below}`);
  }
  if (found.total > 1) {
    const listed = found.matches.map(candidate).join("; ");
    const more = found.total > found.matches.length ? `; and ${found.total - found.matches.length} more` : "";
    throw new Refusal(`"${text}" matches ${found.total} elements: ${listed}${more}. Nothing was ` +
      `${words.done}; ${words.pick}.`);
  }
}

// Boxes that scroll by themselves (snapshot.js's scrollBoxes) as the agent finds them: the
// chromium provider's targets.py scroll_boxes_named.
export function scrollBoxesNamed(boxes) {
  return boxes.map((box) => [`\`${box.selector}\``, box.role, box.name && `"${box.name}"`,
    `(scroll ${box.scrollY}/${box.maxScrollY})`].filter(Boolean).join(" ")).join(", ");
}
