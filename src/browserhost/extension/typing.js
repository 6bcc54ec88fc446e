// What an answer after typing says when the field does not hold the text typed into it, in
// the chromium provider's words (fields.not_taken): the page turned keys away, cancelled the
// typing (a spinner set by its arrows), or disabled the field as it was focused.

const bare = (text) => text.replace(/\s+/g, "").toLowerCase();
const letters = (text) => [...text].filter((c) => /[\p{L}\p{N}]/u.test(c)).join("");

// Whether every character of `part` is in `whole`, in order (not always together).
function inOrder(part, whole) {
  let at = 0;
  for (const c of whole) if (at < part.length && c === part[at]) at++;
  return at === part.length;
}

/** The notice, or null where the field holds the text (formatted as the page formats it:
 * brackets, capitals and separators added or taken out around its letters and digits).
 * `made`: the items a tag field made of the text beside itself, emptying itself. */
export function notTaken(selector, value, state, made) {
  if (Array.isArray(made) && made.length) {
    return `The page made the text typed into ${selector} into items beside it ` +
      `(${made.map((item) => `"${item}"`).join(", ")}), as a tag field does, and took it out of the field.`;
  }
  if (state.disabled && value) {
    return `The page disabled ${selector} as the text was typed into it, so the field may ` +
      "not hold it; take a snapshot to see why (a popup, a message).";
  }
  const held = state.value;
  if (typeof held !== "string" || "valueTotalChars" in state || !value.trim()) return null;
  const typed = bare(value);
  const kept = bare(held);
  if (inOrder(typed, kept) || (letters(typed) && inOrder(letters(typed), letters(kept)))) return null;
  if (!kept) {
    return `The page turned away every key typed into ${selector}: it holds nothing. Take a ` +
      "snapshot to see why (a message, a control to set first).";
  }
  const quoted = (text) => `'${text}'`;
  if (inOrder(kept, typed)) {
    return `The page turned away some keys typed into ${selector}: it holds ${quoted(held)} of ` +
      `${quoted(value)}. Type only what it takes.`;
  }
  return `The page did not take what was typed into ${selector}: it holds ${quoted(held)}, not ` +
    `${quoted(value)}. It may turn keys away there, or be set by its own controls (arrows, ` +
    "buttons, a picker); take a snapshot to see them.";
}
