// Functions that run in the page, not here: each is passed by its source (pointer_verbs.js's
// inPage) and so uses nothing outside itself, but for the page script (`script`) and the
// arguments it is given.

// In the page: what is drawn at a point of this frame, named as the page script names a cover
// (selector, tag, label), or null.
export async function pageUnder(script, x, y) {
  let el = document.elementFromPoint(x, y);
  while (el && el.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  const [box] = el ? await script({ op: "frames", elements: [el] }) : [null];
  if (!box || !box.selector) return null;
  const out = { selector: box.selector, tag: el.localName };
  const { label } = await script({ op: "target", selector: box.selector, purpose: "inspect" });
  if (label) out.label = label;
  return out;
}

// In the page: note whether the next mouse move starts an HTML5 drag (a dragstart the page
// does not cancel), as Playwright does to know that Chrome will hand the drag over.
export function pageWatchDragStart() {
  const store = window[Symbol.for("browserhost")] || (window[Symbol.for("browserhost")] = {});
  if (store.dragWatch) removeEventListener("dragstart", store.dragWatch, true);
  store.dragStart = null;
  store.dragWatch = (event) => { store.dragStart = event; };
  addEventListener("dragstart", store.dragWatch, { capture: true, once: true });
}

export function pageDragStarted() {
  const store = window[Symbol.for("browserhost")];
  return Boolean(store && store.dragStart && !store.dragStart.defaultPrevented);
}

// In the page: the first occurrence of `text` in what the stashed element (`scoped`) or the
// page shows, read as a person reads it (a run of whitespace, or a block's edge, is one
// space), in its own case first, then in any. It is kept as a Range and scrolled into view;
// the answer is where its first character starts and its last one ends, or null.
export async function pageTextRange(script, text, scoped) {
  const root = scoped ? await script({ op: "stashed" }) : document.body || document.documentElement;
  const store = window[Symbol.for("browserhost")] || (window[Symbol.for("browserhost")] = {});
  const fold = (value) => value.split("").map((ch) => {
    const lower = ch.toLowerCase();
    return lower.length === 1 ? lower : ch; // keeps the indexes of the text it folds
  }).join("");
  const blocks = new Map();
  const blockOf = (el) => {
    for (let at = el; at; at = at.parentElement) {
      if (!blocks.has(at)) blocks.set(at, !/^(inline|contents)/.test(getComputedStyle(at).display));
      if (blocks.get(at)) return at;
    }
    return null;
  };
  const nodes = [];
  const chars = [];
  const owner = []; // per character of the text read: its node's index (-1: a space between)
  const offset = []; // and its offset in that node
  let gap = false;
  let block = null;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || /^(script|style|noscript|template|title|textarea)$/.test(parent.localName)) continue;
    if (parent.checkVisibility && !parent.checkVisibility({ visibilityProperty: true })) continue;
    const own = blockOf(parent);
    if (own !== block) gap = true;
    block = own;
    for (let i = 0; i < node.data.length; i += 1) {
      if (/\s/.test(node.data[i])) {
        gap = true;
        continue;
      }
      if (gap && chars.length) {
        chars.push(" ");
        owner.push(-1);
        offset.push(-1);
      }
      gap = false;
      chars.push(node.data[i]);
      owner.push(nodes.length);
      offset.push(i);
    }
    nodes.push(node);
  }
  // The text a field holds is its value, which no text node holds: the first field (`root`
  // itself, or one shown in it) that holds `wanted` has it selected, focused, as keys there
  // would leave it (the chromium provider's selectInField); null where none holds it.
  async function inField(wanted) {
    const typed = (el) => el.localName === "textarea" || (el.localName === "input" &&
      !/^(color|date|time|datetime-local|month|range|week)$/.test(el.type) && el.selectionStart !== null);
    const fields = root.matches && root.matches("input, textarea") ? [root] : [...root.querySelectorAll("input, textarea")];
    for (const field of fields) {
      if (!typed(field) || (field !== root && !field.checkVisibility())) continue;
      let at = field.value.indexOf(wanted);
      if (at < 0) at = fold(field.value).indexOf(fold(wanted));
      if (at < 0) continue;
      field.focus();
      field.setSelectionRange(at, at + wanted.length);
      const [box] = await script({ op: "frames", elements: [field] });
      return { field: true, selected: field.value.slice(at, at + wanted.length), selector: box ? box.selector : null };
    }
    return null;
  }
  const read = chars.join("");
  const wanted = text.replace(/\s+/g, " ").trim();
  let first = wanted ? read.indexOf(wanted) : -1;
  if (first < 0 && wanted) first = fold(read).indexOf(fold(wanted));
  if (first < 0) return wanted ? inField(wanted) : null;
  const last = first + wanted.length - 1;
  const range = document.createRange();
  range.setStart(nodes[owner[first]], offset[first]);
  range.setEnd(nodes[owner[last]], offset[last] + 1);
  const box = range.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
    const at = range.startContainer.parentElement;
    at.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    // What the page does on scroll is drawn by the next frame (a page not drawing has none).
    await new Promise((resolve) => { requestAnimationFrame(resolve); setTimeout(resolve, 100); });
  }
  const charBox = (at, end) => {
    const piece = document.createRange();
    piece.setStart(nodes[owner[at]], offset[at]);
    piece.setEnd(nodes[owner[at]], offset[at] + 1);
    const rects = piece.getClientRects();
    return rects.length ? rects[end ? rects.length - 1 : 0] : piece.getBoundingClientRect();
  };
  // Just inside the first character's left edge and the last one's right edge: the caret a
  // press there places is before the one and after the other.
  const head = charBox(first, false);
  const tail = charBox(last, true);
  store.selecting = { range, text: read.slice(first, last + 1) };
  return {
    start: { x: head.left + Math.min(1, head.width / 4), y: head.top + head.height / 2 },
    end: { x: tail.right - Math.min(1, tail.width / 4), y: tail.top + tail.height / 2 },
  };
}

// In the page, after the mouse selected: the exact range set where the mouse selected another
// (a press a link or a cover took, a page that snaps to words), and what is selected now.
export async function pageSelected(script, under, start, end) {
  const store = window[Symbol.for("browserhost")];
  const selecting = store && store.selecting;
  if (!selecting) return null; // the document was replaced meanwhile
  store.selecting = null;
  const { range, text } = selecting;
  const selection = getSelection();
  if (selection.toString().replace(/\s+/g, " ").trim() !== text) {
    const { startContainer, startOffset, endContainer, endOffset } = range;
    selection.setBaseAndExtent(startContainer, startOffset, endContainer, endOffset);
  }
  let holder = range.commonAncestorContainer;
  if (holder.nodeType !== Node.ELEMENT_NODE) holder = holder.parentElement;
  const [box] = await script({ op: "frames", elements: [holder] });
  return {
    selected: selection.toString(), selector: box ? box.selector : null,
    start: await under(script, start.x, start.y), end: await under(script, end.x, end.y),
  };
}
