// The page side of browserhost's chromium provider.
//
// Evaluated as `frame.evaluate(source, request)` in one frame: one call answers one question,
// so a snapshot costs one round trip however large the page. `request.op` picks the question:
//
//   snapshot  {scope?, textMax, elementsMax,  -> url, title, scroll, text around the viewport,
//              atLoad?}                           interactive elements with their state, frames
//                                                 (`atLoad`: the document's own read at its
//                                                 load, kept for its first snapshot and not
//                                                 answered: readAtLoad)
//   target    {selector, purpose, styles?,    -> the one element a selector names, checked for
//              fresh?, watch?, text?,             the purpose (click: where to press it, or
//              valueMax?, byText?, told?,         the part of its text byText names, and
//              guard?}                            with `guard` a press elsewhere kept from the
//                                                page, and where the pointer rests if something
//                                                came under it; type with text: a text field
//                                                readied for it, its state after the text
//                                                told through `told`)
//   stashed   {}                              -> that element, as a handle for Playwright
//   reveal    {}                              -> nothing: that element is scrolled into the
//                                                middle of the top document's view
//   focused   {}                              -> the element the keys go to, if any (its
//                                                selector, tag and name)
//   watchDrag {}, dragEnded {}                -> whether a drag the browser carries began,
//                                                and whether its drop was taken
//   watchTyped {}                             -> nothing: that field, typed into, is watched
//                                                for what the page makes of the text later
//                                                (stateNow's `retyped`)
//   hop       {selector}                      -> where a selector steps into an iframe, if it does
//   frames    {elements, within?}             -> selector and content box of iframe elements
//   findText  {text, limit, drop?}            -> the elements an agent means by a visible label
//                                                (with `drop`, the items those label: dropItem)
//   find      {text, regex, limit}            -> interactive elements whose text matches, and
//                                                other visible text with the elements near it
//   scroll    {direction?, selector?}         -> the new scroll position (of the element, with
//                                                both)
//   position  {selector?}                     -> the scroll position (of the element)
//   quiet     {quietMs, maxMs, glance?,       -> waits (from the load event) until the document
//              load?, opened?, early?, keep?}    stops changing
//   state     {afterInput?}                   -> the stashed element's state, the url and title
//                                                (and whether a timer the input set is pending)
//   fill      {value} or {values}             -> the stashed field made ready for text to be
//                                                typed (focused, its text selected), or set
//   typeOn    {value}                         -> the field the page moved the focus to as the
//                                                last one filled, made ready for the rest
//   pointer   {points, watch?}                -> the element under each viewport point, and
//                                                the viewport's size
//   watch     {}                              -> the page's timers watched from now, for the
//                                                wait after a move within the document
//   dropTarget {selector, fresh?}             -> where to drop the dragged (stashed) element on
//                                                another, checked as a click's target
//   selectText {text, selector?}              -> where a press and release select the text
//   selected  {set?}                          -> the selection after them, set exactly if off
//
// Selectors are CSS, matched in one document or shadow root; ` >> ` steps into the iframe or
// the open shadow root of the element named before it (`#pay >> #card`, `todo-app >> .add`).
// Every selector this script writes matches exactly one element: it is an attribute or id
// that an index of its root counts once, or a child-by-child path from such an anchor. State
// classes (active, selected, hover, ...) are never used: they move to other elements.
//
// The function reads in sections: visibility, naming, state, selectors, listing, motion,
// targets, find, fields, the pointer and scrolling, each opening with the bounds it uses;
// the op is answered at its end.
async (request) => {
  const doc = document;
  const quirks = doc.compatMode === "BackCompat";
  const STORE = Symbol.for("browserhost");
  const store = window[STORE] || (window[STORE] = {}); // the provider may have made it
  store.remembered ||= new Map();

  const LABEL_MAX = 100;
  const UNREAD = new Set(["script", "style", "noscript", "template", "head", "title"]);

  // Composed (NFC): a page that writes "é" as "e" and an accent reads as one that writes it
  // whole, as the agent types it. Only text with a combining mark is composed: normalize
  // costs on every label of every snapshot.
  const COMBINING = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u3099\u309a\u1160-\u11ff]/;
  const composed = (text) => (COMBINING.test(text) ? text.normalize("NFC") : text);
  // Soft hyphens show only where a word breaks at the end of a line; a zero-width space (a
  // tag field's caret holder) or byte-order mark never.
  const UNDRAWN_CHAR = /[\u00ad\u200b\ufeff]/;
  const UNDRAWN_CHARS = new RegExp(UNDRAWN_CHAR.source, "g");
  const clean = (value) => composed((value || "").replace(UNDRAWN_CHARS, "").replace(/\s+/g, " ").trim());
  // The first `max` UTF-16 units of `value`, not ending inside a character (an emoji is two).
  const upTo = (value, max) => value.slice(0, /[\ud800-\udbff]/.test(value[max - 1] || "") ? max - 1 : max);
  const cap = (value, max = LABEL_MAX) => (value.length > max ? upTo(value, max - 1) + "\u2026" : value);
  const quote = (value) =>
    '"' + value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\a ")
      .replace(/\r/g, "\\d ") + '"';
  const tagOf = (el) => el.localName;
  // The next frame, asked of the page's own requestAnimationFrame whether or not its frames
  // are being watched (watchTimers): this script's waits are not the page's.
  const frame = () => new Promise((resolve) => {
    const ask = store.timers ? store.timers.original.frame : window.requestAnimationFrame;
    ask.call(window, () => resolve());
  });

  // --- visibility: where an element is drawn, and what a press there reaches --------------

  // Whether the text under `node` may show: a slot, or an element styled display: contents
  // (a web component's host, often: Shoelace's alert, dialog, tooltip), has no box of its
  // own, which checkVisibility says is not shown; it is drawn as what it holds.
  const mayShow = (node, options) =>
    !node.checkVisibility || node.checkVisibility(options) || tagOf(node) === "slot" ||
    getComputedStyle(node).display === "contents";

  // The element's box when a person could see it: drawn, not empty, and not placed where no
  // scrolling reaches (left of or above the page, as "visually hidden" helpers do).
  function rendered(el) {
    if (tagOf(el) === "area") return regionOf(el);
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) {
      return null;
    }
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return null;
    if (rect.width <= 1 && rect.height <= 1) return null;
    if (forReadersAlone(el, rect)) return null;
    if (rect.right + scrollX <= 0 || rect.bottom + scrollY <= 0) {
      // Above or left of a box scrolled along (a list scrolled down) is where scrolling the
      // box back reaches.
      let [x, y] = [rect.right + scrollX, rect.bottom + scrollY];
      for (let up = el.parentElement || el.getRootNode().host; up && (x <= 0 || y <= 0);
        up = up.parentElement || up.getRootNode().host) {
        x += Math.abs(up.scrollLeft);
        y += scrolledFromTop(up);
      }
      if (x <= 0 || y <= 0) return null;
    }
    return rect;
  }

  // Clipped to nothing whatever its size: `clip-path: inset()` whose sides meet (50% all
  // round, or 100% from one side: the start of a wipe that reveals it), a circle of no size;
  // or, placed, `clip: rect()` of no area.
  function clippedWhole(style) {
    const path = style.clipPath;
    if (path.startsWith("inset(")) {
      const sides = path.slice(6, path.lastIndexOf(")")).replace(/\s+round\b.*$/, "").trim().split(/\s+/)
        .map((side) => /^(\d+(?:\.\d+)?)%$/.exec(side));
      const [top, right = top, bottom = top, left = right] = sides.slice(0, 4).map((side) => (side ? Number(side[1]) : 0));
      if (top + bottom >= 100 || left + right >= 100) return true;
    } else if (/^circle\(0(px|%)?[\s)]/.test(path)) {
      return true;
    }
    return (style.position === "absolute" || style.position === "fixed") && clippedToNothing(style);
  }

  // Text a page hides while its box stays (a trap for whoever reads the page's text): drawn
  // in a transparent colour (not as a gradient's clip, which shows), at a font size of 0, or
  // indented out of the page; unless something inside it draws its own text otherwise.
  const TRANSPARENT = /^(transparent|rgba\([^)]*,\s*0\))$/;
  function unseenText(el, style) {
    const unseen = (look) => (TRANSPARENT.test(look.color) && TRANSPARENT.test(look.webkitTextFillColor) &&
      !look.backgroundClip.includes("text") && look.textShadow === "none" && !parseFloat(look.webkitTextStrokeWidth)) ||
      parseFloat(look.fontSize) === 0;
    if (unseen(style)) return ![...el.querySelectorAll("*")].some((inner) => !unseen(getComputedStyle(inner)));
    return indentedAway(el, style);
  }

  function indentedAway(el, style) {
    const indent = parseFloat(style.textIndent);
    if (indent < 0 && el.firstChild) {
      const rect = el.getBoundingClientRect();
      return indent + rect.left + scrollX + rect.width <= 0 && !el.firstElementChild;
    }
    return false;
  }

  // "Visually hidden": drawn in a box of a pixel or two, clipped to nothing, for screen
  // readers alone (a note, the form control a widget draws in its place).
  function forReadersAlone(el, rect, style = null) {
    if (rect.width > 2 && rect.height > 2) return false;
    return clippedToNothing(style || getComputedStyle(el));
  }

  // Clipped to no area at all: `clip: rect(0, 0, 0, 0)`, or Drupal's rect(1px, 1px, 1px, 1px),
  // whose bottom is its top; or clip-path inset(50%).
  function clippedToNothing(style) {
    const clip = /^rect\((-?[\d.]+)px, (-?[\d.]+)px, (-?[\d.]+)px, (-?[\d.]+)px\)$/.exec(style.clip);
    const [top, right, bottom, left] = clip ? clip.slice(1).map(Number) : [];
    return (clip && (bottom <= top || right <= left)) || style.clipPath.startsWith("inset(50%");
  }

  // An image map's region (<area>): drawn nowhere itself, it is the part of the picture that
  // uses its map which its shape covers (coords in CSS pixels from the picture's corner), as
  // a box; null where no picture shown uses the map. A press on the picture there is one on
  // the region.
  function regionOf(area) {
    const img = mapPicture(area);
    const shown = img && rendered(img);
    if (!shown) return null;
    const at = (area.getAttribute("coords") || "").split(/[\s,]+/).filter(Boolean).map(Number);
    if (at.some((n) => !Number.isFinite(n))) return null;
    const shape = (area.getAttribute("shape") || "rect").toLowerCase();
    let box; // left, top, right, bottom
    if (shape === "default") box = [0, 0, img.clientWidth, img.clientHeight];
    else if (shape.startsWith("circ") && at.length >= 3) box = [at[0] - at[2], at[1] - at[2], at[0] + at[2], at[1] + at[2]];
    else if (shape.startsWith("poly") && at.length >= 6) {
      const [xs, ys] = [at.filter((_, i) => i % 2 === 0), at.filter((_, i) => i % 2 === 1)];
      box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    } else if (at.length >= 4) box = [Math.min(at[0], at[2]), Math.min(at[1], at[3]), Math.max(at[0], at[2]), Math.max(at[1], at[3])];
    else return null;
    const [left, top] = [shown.left + img.clientLeft, shown.top + img.clientTop];
    const [x1, y1] = [Math.max(box[0], 0), Math.max(box[1], 0)];
    const [x2, y2] = [Math.min(box[2], img.clientWidth), Math.min(box[3], img.clientHeight)];
    return x2 > x1 && y2 > y1 ? new DOMRect(left + x1, top + y1, x2 - x1, y2 - y1) : null;
  }

  // The picture that uses the map an <area> is in (`usemap="#name"`).
  function mapPicture(area) {
    const map = area.closest("map");
    const name = map && (map.name || map.id);
    return name ? [...area.getRootNode().querySelectorAll("img[usemap]")]
      .find((img) => img.getAttribute("usemap") === `#${name}`) : null;
  }

  // The boxes read while a snapshot lists the elements (see clippers): the page does not
  // change under that read.
  const listedBoxes = new Map();

  // Wholly outside a box that clips `el` (clippers) and that a person cannot scroll
  // (overflow hidden or clip: a collapsed section, a clipped card, a carousel's track), below
  // the page itself. Script can scroll such a box; a person cannot. A box between them that a
  // person scrolls may bring it in, and ends the search.
  function clippedAway(el, rect, boxes) {
    for (const { overflowX, overflowY, box, whole } of clippers(el, boxes)) {
      if (whole) return true;
      // A box of no height (or width) that hides what overflows it shows none of it, even
      // scrolled to it (an editor's field, as the focus scrolls its holder).
      if ((!box.height && unscrolled(overflowY)) || (!box.width && unscrolled(overflowX))) return true;
      const { across, along } = outside(rect, box);
      if ((across && unscrolled(overflowX)) || (along && unscrolled(overflowY))) return true;
      if (across || along) return false; // outside a box a person scrolls
    }
    return false;
  }

  // Wholly outside a box that clips `el` (clippers): drawn, but not where a person sees it
  // until that box is scrolled (a list scrolled in a box of its own).
  function scrolledAway(el, rect, boxes) {
    for (const { overflowX, overflowY, box, whole } of clippers(el, boxes)) {
      if (whole) return true;
      const { across, along } = outside(rect, box);
      if ((across && overflowX !== "visible") || (along && overflowY !== "visible")) return true;
    }
    return false;
  }

  // The boxes that clip `el`, nearest first, each with its overflow and its place: those it
  // is drawn in (through the slots of shadow trees) with an overflow other than visible, and
  // only those it is positioned in (an absolute one escapes boxes that are not positioned, a
  // fixed one all but a transformed one). What has no box of its own (display contents, a
  // slot) or is inline clips nothing; the page's own scrolling (body, html) is the viewport's.
  // `boxes` keeps what was read of each box for the next element of the same snapshot.
  function* clippers(el, boxes = new Map()) {
    const drawnIn = (node) => node.assignedSlot || node.parentElement || node.getRootNode().host;
    const read = (up) => {
      if (!boxes.has(up)) {
        const look = getComputedStyle(up);
        const { overflowX, display, transform, position } = look;
        const overflowY = personsOverflowY(up);
        const whole = clippedWhole(look); // clips all it holds away, placed or not
        const clips = overflowX !== "visible" || overflowY !== "visible" || whole;
        const box = clips ? up.getBoundingClientRect() : null;
        boxes.set(up, { overflowX, overflowY, display, transform, position, clips, box, whole });
      }
      return boxes.get(up);
    };
    // Whether `up` or a box it is drawn in clips: kept with each box, for an element in no
    // such box (most) is then known at its parent's.
    const clipsFrom = (up) => {
      if (!up || up === doc.body || up === doc.documentElement) return false;
      const style = read(up);
      if (style.clipsFrom === undefined) style.clipsFrom = style.clips || clipsFrom(drawnIn(up));
      return style.clipsFrom;
    };
    if (!clipsFrom(drawnIn(el))) return;
    let position = getComputedStyle(el).position;
    for (let up = drawnIn(el); up && up !== doc.body && up !== doc.documentElement; up = drawnIn(up)) {
      const style = read(up);
      if (style.whole) yield style;
      if (style.display === "contents" || style.display === "inline") continue;
      const transformed = style.transform !== "none";
      if (position === "fixed" && !transformed) continue;
      if (position === "absolute" && style.position === "static" && !transformed) continue;
      position = style.position;
      if (style.clips && !style.whole) yield style;
    }
  }

  // An overflow that shows part of what the box holds and lets no person scroll to the rest.
  const unscrolled = (overflow) => overflow === "hidden" || overflow === "clip";

  // A box's overflow down the page as a person meets it: a list whose overflow is hidden
  // and that holds more than it shows is scrolled by the wheel over it all the same (a
  // virtual list turns the wheel into scrolling itself, a time picker's column shows its
  // scrollbar under the pointer), unlike a card or a panel cut short, or a carousel.
  function personsOverflowY(el) {
    const { overflowY } = getComputedStyle(el);
    return overflowY === "hidden" && wheelList(el) ? "auto" : overflowY;
  }
  function wheelList(el) {
    if (el.clientHeight < WHEEL_LIST_MIN || el.scrollHeight - el.clientHeight <= 1) return false;
    if (/^(listbox|menu|tree|grid|list)$/.test(roleOf(el)) || /^(ul|ol)$/.test(tagOf(el))) return true;
    // Or items alike, one after another, in it or a box or two down (a holder's inner track).
    for (let box = el, depth = 0; box && depth < 3; box = box.firstElementChild, depth++) {
      const kids = box.children;
      if (kids.length >= WHEEL_LIST_ITEMS && [...kids].every((kid) => tagOf(kid) === tagOf(kids[0]))) return true;
    }
    return false;
  }
  const WHEEL_LIST_MIN = 40; // CSS pixels: a row or two at least shown
  const WHEEL_LIST_ITEMS = 4;

  // Whether `rect` lies wholly beside `box` (across) or wholly above or below it (along).
  function outside(rect, box) {
    return {
      across: rect.right <= box.left || rect.left >= box.right,
      along: rect.bottom <= box.top || rect.top >= box.bottom,
    };
  }

  function inViewport(rect) {
    return rect.right > 0 && rect.bottom > 0 && rect.left < innerWidth && rect.top < innerHeight;
  }

  // How far above or below the view `rect` lies: 0 in it.
  const fromView = (rect) =>
    inViewport(rect) ? 0 : rect.bottom <= 0 ? -rect.bottom : Math.max(0, rect.top - innerHeight);

  function bounds(rect) {
    return {
      x: Math.round(rect.x), y: Math.round(rect.y),
      width: Math.round(rect.width), height: Math.round(rect.height),
    };
  }

  // A native checkbox, radio or range that libraries hide and draw themselves: what a
  // person sees and presses is its styled label, which toggles it, or else the box it sits
  // in (see-through on top of it, or clipped inside it). Returns that, else null.
  function faceOf(el) {
    if (inClosedDetails(el)) return null; // drawn nowhere, whatever box holds it
    const tag = tagOf(el);
    if (tag === "select") return overlaidFace(el);
    if (tag === "input" && roleOf(el) === "combobox") return comboboxFace(el);
    if (tag !== "input" && tag !== "textarea") return null;
    if (!CONCEALABLE.has(el.type)) return seeThroughInComponent(el) ? drawnAround(el) : null;
    const rect = rendered(el);
    const style = getComputedStyle(el);
    const concealed = !rect || rect.width < 4 || rect.height < 4 || style.opacity === "0" ||
      clippedToNothing(style) || hiddenUnder(el, rect);
    if (!concealed) return null;
    if (el.type !== "range") { // a range's label only focuses it
      for (const label of el.labels || []) {
        const box = rendered(label);
        if (box && box.width >= 4 && box.height >= 4) return label;
      }
    }
    return el.type === "file" ? null : drawnAround(el);
  }

  // What a closed <details> holds besides its summary, which the browser does not draw.
  function inClosedDetails(el) {
    const details = el.closest("details:not([open])");
    const summary = details && details.querySelector(":scope > summary");
    return Boolean(details) && !(summary && summary.contains(el));
  }
  // What opens the closed <details> around `el`: its summary (or, with none, the box).
  function closedSummary(el) {
    let details = el.closest("details:not([open])");
    // The outermost closed one whose summary shows: inner ones open after it.
    for (let up = details.parentElement?.closest("details:not([open])"); up; up = up.parentElement?.closest("details:not([open])")) {
      details = up;
    }
    return details.querySelector(":scope > summary") || details;
  }

  const CONCEALABLE = new Set(["checkbox", "radio", "file", "range"]);
  // A text field a web component draws see-through until it is filled or focused (Material
  // Web's, under its label): the box it is drawn in, a press on which focuses it. Only in a
  // shadow tree: on a page's own form, a field no one can see may be a trap for robots.
  const seeThroughInComponent = (el) => el.getRootNode() instanceof ShadowRoot &&
    el.checkVisibility({ visibilityProperty: true }) &&
    !el.checkVisibility({ visibilityProperty: true, opacityProperty: true });

  // The box a control the page draws sits in, where no label names it (an aria-label its
  // only name, as Material UI's bare checkboxes, switches and slider thumbs have): the first
  // around it a person can see, of a control's size at least, and holding no other field.
  function drawnAround(el) {
    let box = el.parentElement;
    for (let depth = 0; box && box !== doc.body && depth < FACE_DEPTH; depth++, box = box.parentElement) {
      const around = rendered(box);
      if (!around || around.width < FIELD_MIN || around.height < FIELD_MIN) continue;
      return [...box.querySelectorAll(FIELDS)].every((other) => other === el) ? box : null;
    }
    return null;
  }

  // A select drawn see-through over the box that shows its choice (Pikaday's month and year:
  // a person presses the box, and the select, on top there, opens): that box.
  function overlaidFace(el) {
    if (getComputedStyle(el).opacity !== "0") return null;
    const rect = el.getBoundingClientRect();
    if (rect.width < FIELD_MIN || rect.height < FIELD_MIN) return null;
    const hit = hitAt(rect.x + rect.width / 2, rect.y + rect.height / 2);
    const box = el.parentElement;
    return hit === el && box && rendered(box) ? box : null;
  }

  // A combobox's search field a library keeps out of sight inside its own box (react-select
  // hides it once an option is chosen, and draws it a few pixels wide before): that box, the
  // first around it a person can see and press, which shows what is chosen.
  function comboboxFace(el) {
    const rect = rendered(el);
    if (rect && rect.width >= FIELD_MIN && getComputedStyle(el).opacity !== "0") {
      // In sight, under the choice its box draws over it (Ant Design's): that box, which a
      // press on the choice opens.
      if (!inViewport(rect)) return null;
      const hit = hitAt(rect.x + rect.width / 2, rect.y + rect.height / 2);
      const box = hit && !reaches(hit, el) ? choiceBox(el) : null;
      return box && box.contains(hit) ? box : null;
    }
    let first = null;
    let box = el.parentElement;
    for (let depth = 0; box && box !== doc.body && depth < FACE_DEPTH; depth++, box = box.parentElement) {
      const around = rendered(box);
      // In a panel not shown (a closed list's search field): not drawn at all.
      if (!around && getComputedStyle(box).display === "none") return null;
      if (!around || around.width < FACE_MIN_WIDTH || around.height < FIELD_MIN) continue;
      if (clean(box.textContent)) return box; // the box that shows the choice, or a prompt
      first ||= box;
    }
    return first;
  }
  const FIELD_MIN = 8;
  const FACE_MIN_WIDTH = 40;
  const FACE_DEPTH = 4;

  // Under its own label, or under an element drawn over it (a styled box): the control is
  // not what a click at its centre reaches.
  function hiddenUnder(el, rect) {
    if (!inViewport(rect)) return false;
    const hit = hitAt(rect.x + rect.width / 2, rect.y + rect.height / 2);
    if (hit === null || reaches(hit, el)) return false;
    // Or under the box that holds it and draws it (a slider's thumb over its range).
    return reaches(el, hit) || [...(el.labels || [])].some((label) => reaches(hit, label));
  }

  // The element drawn at a point, looking into open shadow roots.
  function hitAt(x, y) {
    let hit = doc.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }

  // Whether `node` is `el` or inside it as drawn: through shadow roots and the slots that
  // show light-DOM children inside a shadow tree.
  function reaches(node, el) {
    for (let at = node; at; at = at.assignedSlot || at.parentNode || at.host) {
      if (at === el) return true;
    }
    return false;
  }

  // Why a press at `point`, inside `el`'s box, reaches `hit` and not `el`: a box around `el`
  // that shows only part of what it holds cuts the point off, one a person scrolls (outside)
  // or one they cannot (clipped); or `el` lets the pointer through there (through), to what
  // holds it or, in a drawing, to a shape drawn under it: a shape drawn as an outline, a
  // slice around a hole, an element whose style turns the pointer off; or `hit` covers it.
  function missedAt(el, point, hit) {
    const cut = cutOff(el, point);
    if (cut) return cut;
    if (!hit) return { outside: true };
    if (reaches(el, hit) || drawnUnder(el, hit)) return { through: describeCover(hit) };
    return { coveredBy: describeCover(coverOf(hit)) };
  }

  // Whether a box that clips `el` (clippers) leaves `point` out of the part of it it shows:
  // `{outside}` when a person can scroll that box, `{clipped}` when not.
  function cutOff(el, point) {
    for (const { overflowX, overflowY, box } of clippers(el)) {
      if (overflowX !== "visible" && (point.x < box.left || point.x >= box.right)) {
        return unscrolled(overflowX) ? { clipped: true } : { outside: true };
      }
      if (overflowY !== "visible" && (point.y < box.top || point.y >= box.bottom)) {
        return unscrolled(overflowY) ? { clipped: true } : { outside: true };
      }
    }
    return null;
  }

  // Whether `hit` is drawn under `el` in the drawing (svg) both are in: a drawing paints its
  // shapes in document order, so what `el` holds or what comes before it is under it.
  function drawnUnder(el, hit) {
    const drawing = drawingOf(el);
    return Boolean(drawing && drawing === drawingOf(hit) &&
      hit.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  }

  // The outermost svg a node is drawn in, through svgs nested in it; null outside one.
  function drawingOf(node) {
    let drawing = null;
    for (let at = node; at instanceof SVGElement; at = at.parentElement) {
      if (tagOf(at) === "svg") drawing = at;
    }
    return drawing;
  }

  // Whether a press at a point where `hit` is drawn lands on `el`. Over text a shadow host
  // shows through a slot, the hit test answers the host itself: that lands on `el` when `el`
  // is in the host's shadow tree and holds a slot with something assigned.
  function landsOn(hit, el) {
    if (!hit) return false;
    if (reaches(hit, el)) return true;
    if (!hit.shadowRoot || !reaches(el, hit)) return false;
    const slots = tagOf(el) === "slot" ? [el] : [...el.querySelectorAll("slot")];
    return slots.some((slot) => slot.assignedNodes({ flatten: true }).length > 0);
  }

  // Whether `hit` is in a label of the control `el`: a press there is a press on the control
  // (a floating label drawn over its field, a styled box over its hidden checkbox).
  const labelsIt = (hit, el) => Boolean(el.labels?.length && hit?.closest?.("label")?.control === el);

  // Whether a press where `hit` is drawn is a press on `el`: on it, on the face drawn for it
  // (faceOf), or on one of its labels. The check before a click and its press guard alike.
  const pressLands = (hit, el, face) => landsOn(hit, face || el) || landsOn(hit, el) || labelsIt(hit, el);

  // --- naming: what a person reads on an element, and what it is --------------------------

  // Icon fonts name their picture in a class (`fa fa-star`, `icon-reply`, `glyphicon
  // glyphicon-retweet`, `bi bi-trash`); the word is the best guess at an unnamed icon's name.
  // FONT_ICON_STYLE is a class of the same prefix that sizes or animates it, not a picture.
  const FONT_ICON = /^(?:fa|glyphicon|icon|bi|mdi|ti|la|bx|octicon)-([a-z][\w-]*)$/i;
  const FONT_ICON_STYLE = new RegExp("^(?:\\d*x[sl]?|lg|sm|fw|li|ul|border|inverse|spin|" +
    "pulse|beat|fade|bounce|shake|flip(?:-\\w+)?|stack(?:-\\w+)?|rotate-\\d+|pull-\\w+|solid|" +
    "regular|light|thin|duotone|brands|sharp|layers)$", "i");
  const GENERIC_CLASS = new RegExp("^(?:btn|button|icon|icons|ico|action|actions|control|" +
    "controls|ctrl|link|item|clickable|pointer|js|ui|css|sc|tool|tools|toolbar|wrap|wrapper|" +
    "inner|outer|container|box|small|large|big|left|right|top|bottom|primary|secondary|form|" +
    "input|field|radio|checkbox|check|root|base)$"); // a component's part: MuiIconButton-root
  const ICON_VARIANT = /-(?:o|outline|outlined|fill|filled|line|alt|solid|round|rounded)$/i;
  // A class that says what state an element is in, not what it is: it moves between elements.
  const STATE_CLASS = new RegExp(
    "(^|[-_])(active|selected|hover|hovered|focus|focused|focus-visible|highlight|highlighted|" +
    "open|opened|current|checked|disabled|enabled|expanded|collapsed|visible|hidden|show|" +
    "shown|in|out|pressed|loading|loaded|error|invalid|valid|dirty|pristine|touched|" +
    "untouched|empty|filled|on|off|state|is|has|was|first|last|odd|even|completed|complete|" +
    "done|editing|dragging|sorted|asc|desc|ascending|descending|unread|pending|busy|success|" +
    "failed|warning|current-page|toggled|animating|entering|leaving|clicked|chosen|picked|" +
    "indeterminate|mixed|unchecked|required|readonly|focusvisible|liked|starred|favorited|" +
    "favourited|bookmarked|saved|followed|following|subscribed|upvoted|downvoted|pinned)($|[-_])", "i");
  const INPUT_ROLES = {
    checkbox: "checkbox", radio: "radio", button: "button", submit: "button", reset: "button",
    image: "button", range: "slider", number: "spinbutton", search: "searchbox",
    color: "", date: "", "datetime-local": "", file: "", month: "", time: "", week: "",
  };

  // What a person reads on an element. innerText follows the layout but neither shows what a
  // shadow tree's slots display nor leaves out decorations hidden from assistive technology.
  // innerText runs an inline box's words into those beside it however far apart they are
  // drawn ("Inbox12" for a count's badge); the walk keeps them apart.
  function textOf(node) {
    if (!(node instanceof HTMLElement)) return clean(node.textContent);
    if (!node.querySelector("slot, [aria-hidden=true]") && tagOf(node) !== "slot" &&
        !holdsApart(node)) {
      return clean(node.innerText);
    }
    return clean(flatText(node));
  }

  // An inline box whose words stand apart from those beside it: an inline-block (a count's
  // badge), or an inline element with room on a side about a space wide (a pill's margin or
  // padding; see drawnApart).
  function keepsApart(el, style) {
    if (style.display !== "inline") return /^inline-/.test(style.display);
    const space = parseFloat(style.fontSize) / 5;
    return room(el, "Left") > space || room(el, "Right") > space;
  }
  const APART_LOOKED_MAX = 30;

  // Whether words inside `node` are drawn apart from others beside them (looking at its
  // first few elements only: a label's are few).
  function holdsApart(node) {
    if (!node.firstElementChild) return false;
    const walker = doc.createTreeWalker(node, NodeFilter.SHOW_ELEMENT);
    for (let looked = 0; looked < APART_LOOKED_MAX && walker.nextNode(); looked++) {
      const el = walker.currentNode;
      if (el.textContent.trim() && keepsApart(el, getComputedStyle(el))) return true;
    }
    return false;
  }

  // A text node's words in the case its element shows them in, as innerText gives them.
  function shownCase(text, parent) {
    const transform = parent ? getComputedStyle(parent).textTransform : "none";
    if (transform === "uppercase") return text.toUpperCase();
    if (transform === "lowercase") return text.toLowerCase();
    if (transform === "capitalize") {
      return text.replace(/(^|[^\p{L}\p{N}'\u2019])(\p{Ll})/gu,
        (_, before, letter) => before + letter.toUpperCase());
    }
    return text;
  }

  // An editable box's text as lines, as a textarea's value holds them: a block in it (an
  // editor's paragraph, a list item) and a <br> end a line, so that text typed with Enter
  // reads back with its line breaks, and an empty paragraph is an empty line. White space
  // the page collapses is one space, and none at a line's ends; where it keeps it (pre-wrap,
  // as most editors), it is as typed.
  function editorText(el) {
    const lines = [[]]; // each line's pieces: [text, kept]
    const line = () => lines[lines.length - 1];
    const holds = () => line().some(([text, kept]) => kept || text.trim());
    const endBlock = () => holds() ? lines.push([]) : (lines[lines.length - 1] = []);
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        const space = node.parentElement ? getComputedStyle(node.parentElement).whiteSpace : "normal";
        if (!/^(pre|break-spaces)/.test(space)) {
          line().push([node.data.replace(/\s+/g, " "), false]);
          return;
        }
        node.data.split("\n").forEach((part, i) => {
          if (i) lines.push([]);
          line().push([part, true]);
        });
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE || UNREAD.has(tagOf(node))) return;
      if (node.getAttribute("aria-hidden") === "true" || !mayShow(node, { visibilityProperty: true })) return;
      if (tagOf(node) === "br") {
        lines.push([]);
        return;
      }
      const block = !/^(inline|contents)/.test(getComputedStyle(node).display);
      if (block) endBlock();
      node.childNodes.forEach(walk);
      if (block) endBlock();
    };
    el.childNodes.forEach(walk);
    const text = lines.map((pieces) => {
      let out = "";
      pieces.forEach(([piece, kept], i) => {
        if (!kept && out.endsWith(" ") && !(pieces[i - 1] || [])[1]) piece = piece.replace(/^ /, "");
        out += piece;
      });
      const [first, last] = [pieces[0], pieces[pieces.length - 1]];
      if (first && !first[1]) out = out.replace(/^ /, "");
      if (last && !last[1]) out = out.replace(/ $/, "");
      return out;
    });
    while (text.length && !text[text.length - 1]) text.pop();
    return text.join("\n");
  }

  // A box's words as shown, cells and blocks apart ("Widget B $10 7", not "Widget B$107");
  // a long text's as written, not laid out for a few words quoted from it.
  const SHOWN_WORDS_MAX = 1000;
  const shownWords = (box) =>
    (box.textContent.length <= SHOWN_WORDS_MAX ? textOf(box) : clean(box.textContent));

  // `skip`: an element left out, with what matches `aside` (a selector).
  function flatText(node, skip = null, aside = null) {
    if (node.nodeType === Node.TEXT_NODE) return shownCase(node.data, node.parentElement);
    if (node.nodeType !== Node.ELEMENT_NODE || node === skip || UNREAD.has(tagOf(node))) return "";
    if (aside && node.matches(aside)) return "";
    if (node.getAttribute("aria-hidden") === "true") return "";
    const slot = tagOf(node) === "slot";
    if (!mayShow(node, { visibilityProperty: true })) return "";
    const shown = slot && node.assignedNodes({ flatten: true }).length
      ? node.assignedNodes({ flatten: true }) : [...node.childNodes];
    // Inline pieces run together ("Mon<b>day</b>"); a block, or a box drawn apart, is a word
    // of its own.
    return shown.map((child) => {
      const text = flatText(child, skip, aside);
      if (child.nodeType !== Node.ELEMENT_NODE) return text;
      const style = getComputedStyle(child);
      return style.display === "contents" || (style.display === "inline" && !keepsApart(child, style))
        ? text : ` ${text} `;
    }).join("");
  }

  function byId(el, id) {
    const root = el.getRootNode();
    return root.getElementById ? root.getElementById(id) : doc.getElementById(id);
  }

  // The name the page gives `el` in ARIA: what aria-labelledby points at, else aria-label.
  function ariaName(el) {
    const labelledBy = el.getAttribute("aria-labelledby");
    if (labelledBy) {
      const text = clean(labelledBy.split(/\s+/).map((id) => byId(el, id))
        .filter(Boolean).map(textOf).join(" "));
      if (text) return text;
    }
    return clean(el.getAttribute("aria-label"));
  }

  // What shuts `el` off while something else is open: an inert box around it (Headless UI
  // makes the page so while a list is open), or a modal dialog it is not in while the page
  // lets no pointer reach the rest (Radix sets pointer-events none on the body); else null.
  function shutOff(el) {
    const inert = el.closest("[inert]");
    if (inert) return inert;
    if (getComputedStyle(el).pointerEvents !== "none" || getComputedStyle(doc.body).pointerEvents !== "none") return null;
    const dialog = [...doc.querySelectorAll(DIALOGS)].find((box) => rendered(box) && !box.contains(el));
    return dialog || null;
  }

  // Controls of one name, one to an item (each row's Delete or Edit, each card's "Select"),
  // or of none (a row's icon buttons), say whose item they are in: the words of the smallest
  // box around each that holds no other of them. An agent tells them apart without counting.
  function inRows(elements) {
    const named = new Map();
    for (const item of elements) {
      if (item.out.group) continue;
      const label = item.out.label || "";
      named.set(label, [...(named.get(label) || []), item.el]);
    }
    // The names every item's controls share (Edit, Delete) are no item's words: a row's Edit
    // is in "Ada Lovelace", not in "Delete".
    // Not a number or a short mark ("1", "+"), which may be part of an item's own words.
    const shared = [...named].filter(([label, alike]) => alike.length > 1 && label.length >= 3 && /\p{L}/u.test(label))
      .map(([label]) => label).sort((a, b) => b.length - a.length);
    const itemWords = (box, own) => clean([own, ...shared].reduce(withoutWords, textOf(box)));
    for (const { el, out } of elements) {
      const label = out.label || "";
      const alike = named.get(label);
      if (!alike || alike.length < 2) continue;
      // Unnamed ones side by side (a row's edit and delete icons) are one item's.
      // One inside another is one item's too (a grid's cell and the checkbox in it, which
      // lends the cell its name).
      const others = (label ? alike : alike.filter((other) => !sideBySide(el, other)))
        .filter((other) => !reaches(el, other) && !reaches(other, el));
      if (!others.length) continue;
      // Out through shadow roots: a tag's remove button drawn in the tag's own tree (Shoelace's).
      const outOf = (node) => node.parentElement || node.getRootNode().host;
      let up = outOf(el);
      for (let depth = 0; up && up !== doc.body && depth < OWNER_DEPTH; depth++, up = outOf(up)) {
        if (others.some((other) => reaches(other, up))) break;
        const words = itemWords(up, label);
        if (/[\p{L}\p{N}]/u.test(words)) {
          out.group = cap(words, OWNER_WORDS);
          break;
        }
      }
    }
  }
  const OWNER_DEPTH = 6;
  const OWNER_WORDS = 40;
  // `text` without `words` where they stand as words of their own: a row's "Editor" keeps
  // its letters when the rows' "Edit" buttons' name is taken out.
  // A word is cut where it stands alone; a mark anywhere (select2's "×" before its tag).
  const withoutWords = (text, words) => {
    if (!words) return text;
    const before = /^[\p{L}\p{N}]/u.test(words) ? "(?<![\\p{L}\\p{N}])" : "";
    const after = /[\p{L}\p{N}]$/u.test(words) ? "(?![\\p{L}\\p{N}])" : "";
    const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return text.replace(new RegExp(before + escaped + after, "gu"), " ");
  };
  // In one box, or in boxes side by side in one (a row's cells).
  const sideBySide = (el, other) => {
    const [a, b] = [el.parentElement, other.parentElement];
    return a === b || Boolean(a && b && a.parentElement && a.parentElement === b.parentElement);
  };

  // The named group a radio or checkbox answers, as a screen reader announces it: its
  // fieldset's legend, its radio group's ARIA name. It tells two groups of "Yes" and "No"
  // apart.
  function groupOf(el) {
    const group = el.closest("fieldset, [role=radiogroup], [role=group]");
    if (!group) return "";
    const legend = tagOf(group) === "fieldset" && group.querySelector(":scope > legend");
    return ariaName(group) || (legend ? textOf(legend) : "");
  }

  // What a label that holds its field holds beside the words that name it: the list of
  // suggestions a field's script put in it, and the words it says to screen readers as they
  // change (Awesomplete's "1 results found").
  const LABEL_ASIDE = "ul, ol, [role=listbox], [role=status], [aria-live]";

  // What the first of a control's labels that says anything says; a label that wraps its
  // control names it by its own text, not the control's.
  function labelsText(el) {
    for (const label of el.labels || []) {
      const text = label.contains(el) ? clean(flatText(label, el, LABEL_ASIDE)) : textOf(label);
      if (text) return text;
    }
    return "";
  }

  function nameOf(el) {
    const aria = ariaName(el);
    if (aria) return aria;
    const tag = tagOf(el);
    if (tag === "input" || tag === "select" || tag === "textarea") {
      if (tag === "input" && ["button", "submit", "reset"].includes(el.type)) {
        return clean(el.value) || { submit: "Submit", reset: "Reset" }[el.type] || "";
      }
      if (tag === "input" && el.type === "image") return clean(el.alt);
      return labelsText(el) || clean(el.getAttribute("placeholder")) || clean(el.getAttribute("title"));
    }
    // A button a label names (`<label for>`): Radix's checkbox, switch and radio are buttons
    // named so, with only a tick drawn inside.
    const labelled = (tag === "button" || tag === "progress" || tag === "meter") && labelsText(el);
    if (labelled) return labelled;
    let text = roleOf(el) === "combobox" ? shownChoice(el, true) : textOf(el);
    // An item's own words, not a button's in it: a chosen item's "Acme", not "AcmeRemove item".
    if (text && ITEM_ROLES.has(roleOf(el))) {
      for (const button of el.querySelectorAll("button, [role=button]")) {
        const own = textOf(button);
        if (own && own !== text) text = clean(text.replace(own, ""));
      }
    }
    // A letter or a sign ("B", "×") says less than the title the page gives it ("Bold").
    const title = text && text.length <= 2 && clean(el.getAttribute("title"));
    if (title && title !== text) return `${text} (${title})`;
    if (text) return text;
    for (const img of el.querySelectorAll("img[alt], [aria-label]")) {
      const alt = clean(img.getAttribute("alt") || img.getAttribute("aria-label"));
      if (alt) return alt;
    }
    const svgTitle = el.querySelector("svg title");
    const named = clean(svgTitle && svgTitle.textContent) || clean(el.getAttribute("title")) ||
      clean(el.getAttribute("alt"));
    if (named) return named;
    // Words a stylesheet writes name it (a picker's "Heading 1"); a glyph ("↩") defers to
    // the picture its class names.
    const drawn = drawnText(el);
    return /\p{L}{2}/u.test(drawn) || !iconWord(el) ? drawn : "";
  }

  // Text a stylesheet draws before or after an element or its first few descendants (an icon
  // button's "★" or "×"), which names it as it names it for assistive technology; an icon
  // whose class names its picture goes by that word instead (iconWord: "reply", not "↩").
  // An icon font's glyphs are private characters that read as nothing.
  function drawnText(el) {
    const inside = el.getElementsByTagName("*"); // read lazily: only the first few
    for (const node of [el, ...Array.from({ length: Math.min(8, inside.length) }, (_, i) => inside[i])]) {
      for (const pseudo of ["::before", "::after"]) {
        const content = getComputedStyle(node, pseudo).content;
        if (!content.startsWith('"')) continue;
        const text = clean(content.slice(1, -1).replace(/\\(.)/g, "$1").replace(/[\ue000-\uf8ff]/g, ""));
        if (text) return text;
      }
    }
    return "";
  }

  // What a combobox's box shows chosen: its text, without a placeholder ("Select a
  // country…" is no choice) or the list it holds open inside itself.
  // `prompt`: with a placeholder's words, as what names a combobox that has no label.
  // `field`: the combobox's own search field in the box, whose name is no choice; an option
  // its list marks selected is one, even drawn as a placeholder (Element Plus draws it so).
  function shownChoice(box, prompt = false, field = null) {
    const parts = [];
    const named = field ? clean(labelOf(field, null)) : "";
    const listed = field ? selectedInList(field) : new Set();
    const walker = doc.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = clean(node.data);
      // A sign alone ("×" to remove a choice, "▾" to open) is no part of one.
      if (!/[\p{L}\p{N}]/u.test(text) || (named && named.includes(text))) continue;
      const aside = besideChoice(node.parentElement, box, prompt);
      if (!aside || (listed.has(text) && rendered(node.parentElement))) parts.push(text);
    }
    return parts.join(" ");
  }

  // The words of the options a combobox's list (aria-controls, aria-owns) marks selected;
  // not the one marked so only for the keys on it (Tom Select's), unless its look says
  // chosen too.
  function selectedInList(field) {
    const id = field.getAttribute("aria-controls") || field.getAttribute("aria-owns");
    const list = id ? field.getRootNode().getElementById?.(id.split(" ")[0]) : null;
    if (!list) return new Set();
    return new Set([...list.querySelectorAll("[aria-selected=true]")]
      .filter((option) => !selectedByKeys(option) || markOf(option) === "selected")
      .map((option) => clean(option.textContent)));
  }

  // The box a combobox's search field sits in, one line high, where the page shows what is
  // chosen beside the field or under it (Ant Design, Element Plus): the first around it as
  // wide as a field.
  function choiceBox(el) {
    const rect = rendered(el);
    if (!rect) return null;
    let first = null;
    let box = el.parentElement;
    for (let depth = 0; box && box !== doc.body && depth < FACE_DEPTH; depth++, box = box.parentElement) {
      const around = rendered(box);
      if (!around) continue;
      if (around.height > Math.max(2 * rect.height, CHOICE_BOX_HEIGHT)) break;
      // A box of two fields (a date range's, "To" between them) shows no choice of one.
      if ([...box.querySelectorAll(FIELDS)].some((other) => other !== el)) break;
      if (around.width < FACE_MIN_WIDTH) continue;
      if (clean(box.textContent)) return box;
      first ||= box;
    }
    return first;
  }
  const CHOICE_BOX_HEIGHT = 48;
  // Text in a combobox's box that shows no choice: a placeholder, the list it opens (drawn
  // apart from the box, or not at all; inside it while it is open), a button to remove or
  // clear a choice ("Remove item"), a field's own, or text not drawn.
  function besideChoice(holder, box, prompt) {
    if (!rendered(holder)) return true;
    const open = box.getAttribute("aria-expanded") === "true";
    for (let at = holder; at && at !== box; at = at.parentElement) {
      const classes = at.getAttribute("class") || "";
      if ((!prompt && /placeholder/i.test(classes)) || (CHOICE_ASIDE.test(roleOf(at)) && !CHOSEN_ITEM.test(classes)) ||
          (open && POPUP_ROLE.test(roleOf(at))) ||
          /^(input|select|textarea|button)$/.test(tagOf(at)) || /^(absolute|fixed)$/.test(getComputedStyle(at).position)) {
        return true;
      }
    }
    return false;
  }
  const CHOICE_ASIDE = /^(button|menu)$/;
  // A choice drawn as a chip a press removes (Material UI's multiple Autocomplete): a choice.
  const CHOSEN_ITEM = /\b\w*(chip|tag|token)\b/i;
  const POPUP_ROLE = /^(listbox|tree|grid)$/; // what an open one holds (its chosen items are a listbox too)

  // For an element with no name at all: the picture its icon class or sprite names
  // (`fa-star`, `<use href="#icon-reply">`), as words; "" when there is none. A guess.
  function iconWord(el) {
    // Material UI names each icon in a test id (`data-testid="CancelIcon"`): "cancel".
    const tested = (tagOf(el) === "svg" ? el : el.querySelector("svg"))?.getAttribute("data-testid") || "";
    const icon = /^([A-Z][A-Za-z]+?)(?:Outlined|Rounded|Sharp|TwoTone)?Icon$/.exec(tested);
    if (icon) return icon[1].replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
    const drawn = materialIcon(el);
    if (drawn) return drawn;
    for (const node of [el, ...el.querySelectorAll("[class], use")]) {
      let words;
      if (tagOf(node) === "use") {
        const href = node.getAttribute("href") || node.getAttribute("xlink:href") || "";
        words = [(href.split("#")[1] || "").replace(/^icon-/i, "")];
      } else {
        words = [...node.classList].map((name) => (FONT_ICON.exec(name) || [])[1]);
      }
      for (const word of words) {
        if (word && !FONT_ICON_STYLE.test(word)) {
          return clean(word.replace(ICON_VARIANT, "").replace(/[-_]/g, " "));
        }
      }
    }
    // What the page keeps as its action, where a class names only the widget: Air
    // Datepicker's arrows, data-action "prev" and "next" (jQuery UI's, data-handler).
    const action = el.dataset?.action || el.dataset?.handler || "";
    if (/^[a-z][\w-]{1,20}$/i.test(action)) return clean(action.replace(/[-_]/g, " ")).toLowerCase();
    return pictureWord(el) || classWord(el) || drawnMark(el);
  }

  // What an icon drawn with bare shapes shows, where it is one of the marks controls are
  // drawn with everywhere, whatever the icon set: an X (two strokes corner to corner, or a
  // filled cross) closes, three bars open a menu. Its shapes are probed, in the box they
  // fill together, where the mark's strokes run and where they do not.
  const MARKS = [
    { word: "close", on: [[0.25, 0.25], [0.75, 0.75], [0.75, 0.25], [0.25, 0.75], [0.5, 0.5]],
      off: [[0.5, 0.12], [0.5, 0.88], [0.12, 0.5], [0.88, 0.5]], square: true },
    { word: "menu", on: [[0.5, 0.03], [0.5, 0.5], [0.5, 0.97], [0.2, 0.5], [0.8, 0.5]],
      off: [[0.5, 0.27], [0.5, 0.73]], square: false },
  ];
  const MARK_SHAPES_MAX = 4;
  function drawnMark(el) {
    const svg = tagOf(el) === "svg" ? el : el.querySelector("svg");
    if (!svg || svg.querySelector("text, image, use, [transform]")) return "";
    const shapes = [...svg.querySelectorAll("path, line, polyline, polygon, rect")];
    if (!shapes.length || shapes.length > MARK_SHAPES_MAX) return "";
    let box;
    try {
      box = svg.getBBox();
    } catch {
      return "";
    }
    if (!(box.width > 0 && box.height > 0)) return "";
    const point = svg.createSVGPoint();
    const drawnAt = ([fx, fy]) => {
      point.x = box.x + box.width * fx;
      point.y = box.y + box.height * fy;
      return shapes.some((shape) => shape.isPointInFill(point) || shape.isPointInStroke(point));
    };
    const square = Math.abs(box.width - box.height) <= 0.2 * Math.max(box.width, box.height);
    const mark = MARKS.find((one) => (!one.square || square) && one.on.every(drawnAt) && !one.off.some(drawnAt));
    return mark ? mark.word : "";
  }

  // A Material icon drawn as bare paths (Material UI's builds for production leave its test
  // ids out): the most common, known by their path data's FNV-1a hash in base 36, as
  // @mui/icons-material draws them, filled and outlined, and as Material UI's own controls
  // draw theirs (a chip's delete, a select's arrow, a pagination's steps).
  const MATERIAL_ICONS = "uzhj7g:delete 1j3w0tn:delete 14oxxzr:edit ltv7xj:edit firhkm:close 5solia:add ik71az:remove bcznrs:search 8av3fh:menu m8byx9:more_vert 1v5tix8:more_horiz gt1zfs:settings b1igr5:settings 51jhcx:favorite 1l2w6x2:favorite_border 9wel9t:share mrdvda:download 1105m6g:file_download vkwute:upload brhtrb:cloud_upload 17l43mu:refresh 134azp2:arrow_back 1rfewp0:arrow_forward oi0uox:arrow_upward lmp7s0:arrow_downward miqa2f:chevron_left 4kmk5x:chevron_right ozx0z6:expand_more f9sw6m:expand_less 1mro51p:check 28cz1v:info yrdssg:info 1yg669u:help ygulud:visibility 1axry8l:visibility 1j0l0tg:visibility_off 1fpp6zd:visibility_off 1m97x8n:content_copy z28pm0:save 5wwn5m:save 10m7omu:send 1au4kdm:star 17z06k0:star_border 13j1f7w:person 150slp:person 7lf46x:account_circle fm3jcp:notifications 1xasj82:notifications 1n91f4d:home 1tgeqwn:home 1nmlzq6:logout 130ktcs:filter_list 1xe7yae:sort rs8ius:print yvpibr:email 1kpscnc:email 18lna3b:phone kpgiu4:cancel jh5dv8:cancel 14z6w2r:check_circle 11efbaq:check_circle 1tmb9gz:add_circle giy41e:play_arrow vpxyt4:pause 1cpoomw:arrow_down aow020:arrow_up xxc5wj:arrow_left aafkxs:arrow_right 5l5rr4:first_page 1u3avko:last_page 16vc8di:undo 1lf0y1k:redo 1196n3s:archive 16vpqpu:open_in_new au66e1:attach_file co4jtu:lock tob23g:lock 112yr3h:today 1ujv26h:thumb_up h4riyh:thumb_up 1avtlha:thumb_down 5y00x7:reply i5hx6i:bookmark umxl75:bookmark 13qw7rt:bookmark_border 19uo2k8:shopping_cart a6ttbd:shopping_cart s61ikg:dark_mode 1ynvyd0:light_mode 14eopjq:link fliuwm:image 1f80te7:image 18dd8c8:folder 1nkqepz:folder 1610sd5:warning 1u0vv3a:block 1purc9j:drag_indicator t6gbg5:sync 133lt6y:history 2sygbr:mic llfy2h:chat 50thkj:chat viu7ol:flag 8n5g8:flag 7p0087:fullscreen 1qgjypa:zoom_in c14rp2:zoom_out 1h6px5l:tune gqrvhm:add 1j1b2o1:arrow_downward 1fyunyb:arrow_drop_down 1hom8nc:cancel mlt7bz:check_circle 45tw2i:close moxo64:first_page p5laji:arrow_left shxwza:arrow_right 18peuj0:last_page p8c4wg:more_horiz 76fxbv:navigate_before 220kx:navigate_next 1abue3p:warning";
  let materialIcons = null;
  function materialIcon(el) {
    const svg = tagOf(el) === "svg" ? el : el.querySelector("svg");
    if (!svg || svg.getAttribute("viewBox") !== "0 0 24 24") return "";
    let hash = 0x811c9dc5;
    const drawn = [...svg.querySelectorAll("path")].map((path) => path.getAttribute("d") || "").join(" ");
    for (let i = 0; i < drawn.length; i++) hash = Math.imul(hash ^ drawn.charCodeAt(i), 0x01000193) >>> 0;
    materialIcons ||= new Map(MATERIAL_ICONS.split(" ").map((entry) => entry.split(":")));
    return (materialIcons.get(hash.toString(36)) || "").replace(/_/g, " ");
  }

  // The words in the file name of the picture an element shows, an image in it, its own
  // background or the picture a stylesheet draws in its place (`content: url(...)`, on it
  // or before it) (`icons/trash.svg`: "trash", `ic_arrow_left_24px.png`: "arrow left"); a
  // hashed or numbered name says nothing.
  function pictureWord(el) {
    const img = tagOf(el) === "img" ? el : el.querySelector("img");
    let url = img ? img.currentSrc || img.src : "";
    const urlIn = (value) => (/url\("?([^")]*)"?\)/.exec(value) || [])[1] || "";
    if (!url) {
      const style = getComputedStyle(el);
      url = urlIn(style.backgroundImage) || urlIn(style.content) || urlIn(getComputedStyle(el, "::before").content);
    }
    if (!url || url.startsWith("data:")) return "";
    const stem = url.split(/[?#]/)[0].split("/").pop().replace(/\.\w+$/, "");
    const words = stem.split(/[-_.\s@]+/);
    if (words.some((word) => /\d/.test(word) && !/^\d+(px|x)?$/.test(word))) return ""; // a hash
    // A picture the page swaps in for a state (`star-clicked.png`, `like-hover.png`) names
    // the same thing: the state is no word of the name.
    const named = words.filter((word) => /^[a-z]{2,}$/i.test(word) && !PICTURE_WORD.test(word) &&
      !STATE_CLASS.test(word));
    return named.length && named.length <= 4 ? named.join(" ").toLowerCase() : "";
  }
  // Words of a picture's file that name its variant, not what it shows (`left-arrow-white`).
  const PICTURE_WORD = /^(?:ic|ico|icon|icons|img|image|btn|button|sprite|svg|png|px|white|black|gr[ae]y|dark|light)$/i;

  // The name a snapshot guesses for an element the page names nowhere (drawn `rect`): a
  // field's loose label, a row's box by its row, else its icon's, with the colour it is
  // filled with where it is a swatch. A field's classes name its kind or its library's parts
  // (`el-checkbox__original`), never what it is for: no icon is guessed for one.
  const guessedName = (el, rect = el.getBoundingClientRect()) =>
    looseLabel(el) || rowLabel(el) || fieldWithin(el) ||
    [el.matches(FIELDS) ? "" : iconWord(el), colourWord(el, rect)].filter(Boolean).join(" ");

  // A control that holds one field and takes its presses (Vuetify's select, around its
  // input): that field's name.
  function fieldWithin(el) {
    if (el.matches(FIELDS)) return "";
    const fields = el.querySelectorAll(FIELDS);
    return fields.length === 1 ? clean(nameOf(fields[0])) : "";
  }

  // A checkbox or radio in a tree's node or a list's item that names it nowhere: the words
  // on its own line (the node's, not its children's). Outside such an item, the words after
  // it in the box it sits in with no other field, two levels up at most: `<div><input>
  // Olives</div>`, a switch drawn in a label of its own, `<p><label>…</label> Dark mode</p>`
  // (words before it there may be a question, or another thing's).
  const ITEM_BOX_DEPTH = 2;
  function itemLabel(el) {
    const item = el.closest("[role=treeitem], [role=option], li");
    let depth = 0;
    const within = (up) => (item ? item.contains(up) : up !== doc.body && depth++ < ITEM_BOX_DEPTH);
    for (let up = el.parentElement; up && within(up); up = up.parentElement) {
      if ([...up.querySelectorAll(BOXES)].some((other) => other !== el)) return "";
      const text = shortLabel(textOf(up));
      // A switch is written after its words, as a settings row draws it: "Notifications [o ]".
      if (text && !item && clean(textBefore(el, up)) && roleOf(el) !== "switch") return "";
      if (text) return text;
    }
    return "";
  }

  function textBefore(el, box) {
    const before = doc.createRange();
    before.setStart(box, 0);
    before.setEndBefore(el);
    return before.toString();
  }

  // A checkbox, radio or switch in a table's row that names it nowhere (a row's selection box): the
  // row's first cell of text, as a person tells the rows apart; in the header row, "all
  // rows", which such a box selects.
  function rowLabel(el) {
    const box = tagOf(el) === "input" ? el.type : roleOf(el);
    if (box !== "checkbox" && box !== "radio" && box !== "switch") return "";
    const row = el.closest("tr, [role=row]");
    if (!row) return itemLabel(el);
    const cells = [...row.querySelectorAll("td, th, [role=cell], [role=gridcell], [role=columnheader], [role=rowheader]")];
    if (cells.length && cells.every((cell) => tagOf(cell) === "th" || roleOf(cell) === "columnheader")) return "all rows";
    for (const cell of cells) {
      if (cell.contains(el) || cell.querySelector(FIELDS)) continue;
      const text = shortLabel(textOf(cell));
      if (text) return text;
    }
    return "";
  }

  // A label the page wrote beside a field but tied to nothing, as a person reads it: the text
  // before it (`Date: [box]`, `Color:<br>[box]`, a <label> with no `for` and no control
  // inside); where it is the first thing in a box of its own, the one caption after it in
  // that box (its name written under it), or the text before that box (a caption above it,
  // the row's header cell). Not text that holds a control or names one, nor a sentence.
  const LOOSE_LABEL_MAX = 50;
  const LOOSE_LABEL_DEPTH = 3;
  const UNLABELLED_LOOSE = new Set(["checkbox", "radio", "button", "submit", "reset", "image"]);
  const FIELDS = "input:not([type=hidden]), select, textarea";
  const BOXES = `${FIELDS}, [role=checkbox], [role=radio], [role=switch]`;
  function looseLabel(el) {
    if (!["input", "select", "textarea"].includes(tagOf(el)) || UNLABELLED_LOOSE.has(el.type)) return "";
    let at = el;
    for (let depth = 0; depth < LOOSE_LABEL_DEPTH && at.parentElement; depth++) {
      for (let before = at.previousSibling; before; before = before.previousSibling) {
        if (before.nodeType === Node.TEXT_NODE) {
          if (clean(before.data)) return shortLabel(clean(before.data));
          continue;
        }
        if (before.nodeType !== Node.ELEMENT_NODE || UNREAD.has(tagOf(before)) || !rendered(before)) continue;
        const text = captionText(before);
        if (text === null) return "";
        if (text) return shortLabel(text);
        // Nothing to read (a line break, an icon, a message not shown): what comes before it.
      }
      // The first thing in a box of its own that holds, after it, only a caption (a field
      // with its name written under it): that caption.
      if (at === el) {
        const caption = captionAfter(el);
        if (caption) return caption;
      }
      // The first thing in its box: the box's own label, where the box holds nothing else.
      at = at.parentElement;
      if (["form", "body", "fieldset", "table"].includes(tagOf(at)) || at.querySelectorAll(FIELDS).length > 1 ||
          clean(at.textContent) !== clean(el.textContent)) return "";
    }
    return "";
  }
  function captionAfter(el) {
    const box = el.parentElement;
    if (!box || box === doc.body || box.querySelectorAll(FIELDS).length !== 1) return "";
    const after = [...box.childNodes].slice([...box.childNodes].indexOf(el) + 1).filter((node) =>
      node.nodeType === Node.TEXT_NODE ? clean(node.data) : node.nodeType === Node.ELEMENT_NODE && tagOf(node) !== "br");
    if (after.length !== 1) return "";
    const [caption] = after;
    return shortLabel((caption.nodeType === Node.TEXT_NODE ? clean(caption.data) : captionText(caption)) || "");
  }
  // What an element beside a field says of it: its text, or null where it holds a control or
  // is another field's label (it names that, not this one).
  function captionText(el) {
    const controls = el.matches(INTERACTIVE) || el.querySelector(INTERACTIVE);
    const tied = tagOf(el) === "label" && (el.hasAttribute("for") || el.control);
    return controls || tied ? null : seenText(el);
  }
  // `el`'s text less what in it is not seen (a tooltip faded out, at opacity 0), which
  // innerText reads.
  function seenText(el) {
    const unseen = [...el.querySelectorAll("*")].filter((inner) =>
      !mayShow(inner, { opacityProperty: true, visibilityProperty: true }));
    if (!unseen.length) return textOf(el);
    const walker = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const parts = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!unseen.some((hidden) => hidden.contains(node))) parts.push(node.data);
    }
    return clean(parts.join(" "));
  }
  const shortLabel = (text) => (text.length <= LOOSE_LABEL_MAX && !/[.!?]$/.test(text) ? text : "");

  // For a colour swatch, a small empty box filled with one colour beside others like it in
  // another (a palette; not icons on a common backdrop), or an SVG shape filled otherwise
  // than another in its picture (a chart's slices, shapes to pick from): the colour's name,
  // as a person would call it ("red", "light blue"); "" otherwise.
  const COLOUR_CALLED = /colou?r|swatch/i;
  function colourWord(el, rect) {
    // A field's colour is what it is typed on: six code boxes, one lit, are no swatches.
    if (tagOf(el) === "select" || takesText(el)) return "";
    const shape = SVG_SHAPES.has(tagOf(el)) && el instanceof SVGElement;
    if (!shape && (rect.width > SWATCH_MAX || rect.height > SWATCH_MAX || el.firstElementChild ||
        clean(el.textContent))) return "";
    const fill = (node) => {
      const style = getComputedStyle(node);
      if (shape) return style.fill;
      return style.backgroundImage === "none" ? style.backgroundColor : "";
    };
    const colour = fill(el);
    const rgba = /rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)/.exec(colour);
    if (!rgba || (rgba[4] !== undefined && Number(rgba[4]) < 0.5)) return "";
    const around = shape && el.ownerSVGElement
      ? el.ownerSVGElement.querySelectorAll([...SVG_SHAPES].join(",")) : el.parentNode.children;
    const alike = [...around].filter((other) => other !== el && (shape
      ? SVG_SHAPES.has(tagOf(other))
      : tagOf(other) === tagOf(el) && other.className === el.className && !other.firstElementChild));
    // Alone, a box the page itself calls a colour (`#query-color`, `.swatch`) shows one.
    const calledColour = !shape && COLOUR_CALLED.test(`${el.id} ${el.getAttribute("class") || ""}`);
    if (!calledColour && !alike.some((other) => fill(other) && fill(other) !== colour)) return "";
    const named = NAMED_COLOURS.get(rgba.slice(1, 4).join(","));
    if (named) return named;
    const [r, g, b] = rgba.slice(1, 4).map((n) => Number(n) / 255);
    const high = Math.max(r, g, b);
    const low = Math.min(r, g, b);
    const light = (high + low) / 2;
    const chroma = high - low;
    const saturation = chroma / (1 - Math.abs(2 * light - 1)) || 0;
    // A pale tint has little chroma but is no grey to a person (a light red, a mint green).
    if (chroma < 0.12 && (saturation < 0.25 || light < 0.12 || light > 0.93)) {
      if (light < 0.15) return "black";
      if (light > 0.9) return "white";
      return light < DARK ? "dark gray" : light > 0.7 ? "light gray" : "gray";
    }
    let hue = high === r ? ((g - b) / chroma) % 6 : high === g ? (b - r) / chroma + 2 : (r - g) / chroma + 4;
    hue = (hue * 60 + 360) % 360;
    let name = HUES.find(([end]) => hue < end)[1];
    // Brown: a dark orange. A red of any lightness stays a red (light, dark), as blues do: the
    // shades of one colour go by one word.
    if (hue >= 15 && hue < 45 && light < 0.45 && saturation < 0.85) name = "brown";
    // A bright, full purple is the magenta a person names (CSS magenta, fuchsia).
    if (name === "purple" && hue >= 285 && light >= 0.4 && saturation >= 0.6) name = "magenta";
    const shade = light < DARK ? "dark " : light > 0.75 ? "light " : "";
    return shade + name;
  }
  const SWATCH_MAX = 80; // CSS pixels: a swatch, not a panel or a banner
  const SVG_SHAPES = new Set(["circle", "ellipse", "rect", "polygon", "path"]);
  const HUES = [[15, "red"], [45, "orange"], [70, "yellow"], [165, "green"], [190, "cyan"],
    [255, "blue"], [310, "purple"], [345, "pink"], [361, "red"]];
  // A colour that is one of CSS's named colours (`fill="olive"`) goes by that name, most
  // likely the page's own word for it ("the olive box"); of synonyms, one (aqua for cyan,
  // magenta for fuchsia, gray for grey).
  const NAMED_COLOURS = new Map([
    ["0,0,0", "black"], ["192,192,192", "silver"], ["128,128,128", "gray"],
    ["255,255,255", "white"], ["128,0,0", "maroon"], ["255,0,0", "red"], ["128,0,128", "purple"],
    ["255,0,255", "magenta"], ["0,128,0", "green"], ["0,255,0", "lime"], ["128,128,0", "olive"],
    ["255,255,0", "yellow"], ["0,0,128", "navy"], ["0,0,255", "blue"], ["0,128,128", "teal"],
    ["0,255,255", "aqua"], ["255,165,0", "orange"], ["255,215,0", "gold"],
    ["255,192,203", "pink"], ["165,42,42", "brown"],
  ]);
  // Lightness under which a colour is dark: CSS's half-strength colours (maroon, navy, olive,
  // teal, green beside lime) are just over a quarter.
  const DARK = 0.3;

  // Last: what the plain classes of the element's own say it is (`<span class="reply">`,
  // `btn-like`; `spinner-button spinner-up`: "spinner up", told apart from its "spinner
  // down"), past generic and state words and a library's short prefix (`ql-bold`: "bold").
  // Of an element of one or two classes; of more, only a class that names a control's part
  // (`ui-spinner-up`, `ui-slider-handle`): utility classes (`flex p-2 rounded`) and
  // generated ones (`sc-bdVaJa`) name no picture.
  function classWord(el) {
    const names = el.classList.length > 2 ? [...el.classList].filter((name) => CONTROL_PART.test(name)).slice(0, 1) : el.classList;
    const words = new Set();
    for (const name of names) {
      if (UTILITY_CLASS.test(name)) continue;
      const parts = name.split(/[-_]+/);
      if (parts.length > 1 && /^[a-z]{1,3}$/.test(parts[0]) && !CONTROL_PART.test(parts[0])) parts.shift();
      parts.forEach((word, at) => {
        // A letter that ends a class names a kind (`mark-x`, `mark-o`: whose mark it is).
        const letter = at > 0 && at === parts.length - 1 && /^[a-z]$/.test(word);
        // Two letters are mostly a shorthand (`ib`, an icon button; `bt`), a word rarely.
        const word2 = /^[a-z]{3,}$/.test(word) || /^(?:up|go|ok|no)$/.test(word);
        if ((letter || word2) && !GENERIC_CLASS.test(word) && !STATE_CLASS.test(word)) {
          words.add(word);
        }
      });
    }
    return [...words].join(" ");
  }
  // A utility class sets one style (Tailwind's `-rotate-180`, `bg-white`, `md:flex`,
  // `w-[3px]`): it says how an element looks, never what it is.
  const UTILITY_CLASS = new RegExp("^-?(?:bg|text|font|p[xytrblse]?|m[xytrblse]?|w|h|min|max|" +
    "size|border|rounded|shadow|ring|outline|flex|grid|gap|space|col|row|justify|items|content|" +
    "self|place|order|z|top|right|bottom|left|inset|rotate|scale|translate|skew|origin|" +
    "opacity|leading|tracking|cursor|select|transition|duration|ease|delay|animate|overflow|" +
    "object|aspect|fill|stroke|decoration|divide|shrink|grow|basis|float|align|whitespace|" +
    "truncate|sr|hidden|block|inline|absolute|relative|fixed|sticky)(?:-|$)|[:\\[/]");
  const CONTROL_PART = new RegExp("(?:^|[-_])(?:up|down|next|prev|previous|close|plus|minus|" +
    "increment|decrement|increase|decrease|add|remove|delete|edit|search|menu|more|expand|" +
    "collapse|handle|toggle|play|pause|clear|send|reply|share|like|star|backdrop|caret|arrow|" +
    "chevron|dropdown|calendar)(?:$|[-_])", "i");

  // What an element is called; a control hidden behind its label goes by the label's text.
  function labelOf(el, face) {
    if (tagOf(el) === "input" && roleOf(el) === "combobox") {
      const name = nameOf(el);
      const box = name ? null : face || choiceBox(el);
      return clean(name || (box ? promptIn(box, el) : ""));
    }
    return clean(nameOf(el) || (face ? faceText(face, el) : ""));
  }

  // The words the box of a combobox's search field shows while nothing is chosen (its
  // placeholder), which name it where nothing else does; never the choice it shows.
  function promptIn(box, field) {
    const chosen = selectedInList(field);
    const parts = [];
    for (const shown of box.querySelectorAll("[class*=placeholder i]")) {
      const text = textOf(shown);
      if (text && !chosen.has(text) && rendered(shown)) parts.push(text);
    }
    return parts.join(" ");
  }

  // What a control's face shows, without the control's own text (a select's options).
  function faceText(face, el) {
    if (!face.contains(el)) return textOf(face);
    const parts = [];
    const walker = doc.createTreeWalker(face, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!el.contains(node) && clean(node.data)) parts.push(clean(node.data));
    }
    return parts.join(" ");
  }

  function roleOf(el) {
    const explicit = clean(el.getAttribute("role")).split(" ")[0];
    if (explicit) return explicit;
    switch (tagOf(el)) {
      case "a": case "area": return el.hasAttribute("href") ? "link" : "";
      case "button": return "button";
      case "select": return el.multiple || el.size > 1 ? "listbox" : "combobox";
      case "textarea": return "textbox";
      case "input": return el.type in INPUT_ROLES ? INPUT_ROLES[el.type] : "textbox";
      default: return el.isContentEditable ? "textbox" : "";
    }
  }

  // A button's type says something only in a form or when the page set it.
  function typeOf(el) {
    const tag = tagOf(el);
    if (tag === "button") return el.form || el.hasAttribute("type") ? el.type : "";
    return tag === "input" ? el.type : "";
  }

  // A link or a form submit that loads into another window (target="_blank" and the like).
  function opensWindow(el) {
    const link = el.closest("a[href], area[href]");
    let target = link ? link.target : "";
    if (!link && el.form && (tagOf(el) === "button" || el.type === "submit" || el.type === "image")) {
      target = el.formTarget || el.form.target;
    }
    return Boolean(target) && !["_self", "_parent", "_top"].includes(target.toLowerCase());
  }

  // --- state: what a person sees of a control ---------------------------------------------

  const VALUE_MAX = 200;
  const OPTIONS_MAX = 25;
  const NO_VALUE = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "password"]);

  // Disabled by itself, or by the list item holding it (jQuery UI marks a menu's item so).
  function disabled(el) {
    if (el.matches(":disabled") || el.getAttribute("aria-disabled") === "true") return true;
    const item = el.parentElement;
    return Boolean(item && tagOf(item) === "li" && item.getAttribute("aria-disabled") === "true");
  }

  const tristate = (value) => (value === "mixed" ? "mixed" : value === "true");

  // What a person sees of a control's state: its value, checked, selected, expanded, pressed,
  // and whether it is required, invalid, read-only or focused. Only what applies is set.
  // A password's value is never read. A value longer than valueMax is cut, and says its length.
  // A class that says an element is on or picked where no state of its own does (`active`,
  // `is-selected`, `ql-active`, `clicked`, `liked`), on it or on the list item holding it: a page that
  // shows a toggle, a chosen card or the current tab only by its look marks it so.
  // A post's like or star, a video's save, an author's follow, pressed on: marked so too.
  const MARK_CLASS = new RegExp("(?:^|[-_])(active|selected|checked|pressed|clicked|toggled|" +
    "current|chosen|picked|liked|starred|favorited|favourited|bookmarked|saved|followed|" +
    "following|subscribed|upvoted|downvoted|pinned)(?:$|[-_])", "i");
  const UNMARKED = /(?:^|[-_])(?:not|non|un)[-_]/i;
  // A switch or tab drawn on by a class of "on" alone (`on`, `is-on`, `switch--on`,
  // `toggle-on`): not a word that only ends so (`add-on`, `icon-on-left`).
  const ON_CLASS = /^(?:(?:is|state)[-_])?on$|^[a-z]+(?:--|__)on$|^(?:switch|toggle|sw|btn|button)[-_]on$/i;
  function markOf(el) {
    for (const node of [el, el.parentElement]) {
      if (!node || (node !== el && tagOf(node) !== "li")) continue;
      for (const name of node.classList) {
        const found = MARK_CLASS.exec(name);
        if (found && !UNMARKED.test(name)) return found[1].toLowerCase();
        if (ON_CLASS.test(name)) return "on";
      }
    }
    return "";
  }

  // A day of a date grid that belongs to the month before or after the one shown, told
  // apart from this month's day of the same number by a class alone (flatpickr's
  // prevMonthDay, jQuery UI's ui-datepicker-other-month on its cell, MUI's dayOutsideMonth,
  // react-day-picker's rdp-day_outside; bootstrap-datepicker's day marked old or new). Only
  // a day's number: a "next month" arrow is none.
  const OTHER_MONTH = /(?:prev|previous|next|other|outside|adjacent)[-_]?(?:current[-_]?)?month|day[-_]*outside/i;
  function otherMonth(el) {
    if (!/^\d{1,2}$/.test(clean(el.textContent))) return false;
    for (let node = el, up = 0; node && up < 3; node = node.parentElement, up++) {
      const marks = node.classList;
      if ([...marks].some((name) => OTHER_MONTH.test(name))) return true;
      if (marks.contains("day") && (marks.contains("old") || marks.contains("new"))) return true;
    }
    return false;
  }

  // What tells a day of a calendar from another that reads the same: of another month by its
  // class, or drawn faint among its calendar's days (fadedDay); "" for neither.
  const dayMark = (el) => (otherMonth(el) ? "other month" : fadedDay(el) ? "faded" : "");

  // A day whose number is drawn faint (of little contrast with what is behind it) in a
  // calendar of at least two weeks whose days are mostly not: of the month before or after,
  // or one that may not be picked, drawn so with no class that says which (`other`,
  // `muted`). A person tells the two "1"s of a month's grid apart so. Each calendar's days
  // are read once a question.
  const FAINT_CONTRAST = 3;
  const DAY = /^\d{1,2}$/;
  const fadedIn = new Map();
  function fadedDay(el) {
    if (!DAY.test(clean(el.textContent))) return false;
    const number = el.firstElementChild
      ? [...el.querySelectorAll("*")].find((inner) => !inner.firstElementChild && DAY.test(clean(inner.textContent)))
      : el;
    const calendar = number && (el.closest("table, [role=grid]") || el.parentElement?.parentElement);
    if (!calendar) return false;
    if (!fadedIn.has(calendar)) {
      const days = [...calendar.querySelectorAll("*")]
        .filter((day) => !day.firstElementChild && DAY.test(clean(day.textContent)) && rendered(day));
      const faint = new Set(days.filter((day) => contrastOf(day, calendar) < FAINT_CONTRAST));
      fadedIn.set(calendar, days.length >= 14 && faint.size < days.length / 2 ? faint : new Set());
    }
    return fadedIn.get(calendar).has(number);
  }

  // The contrast ratio (WCAG's, 1 to 21) of `el`'s text with what is drawn behind it: its
  // colour through the opacity of the boxes it is in, up to `top`, over the nearest
  // background colour (white where none is set).
  function contrastOf(el, top) {
    const rgba = (value) => (value.match(/[\d.]+/g) || []).map(Number);
    const [r, g, b, a = 1] = rgba(getComputedStyle(el).color);
    let alpha = a;
    let behind = null;
    for (let node = el; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (node === el || top.contains(node)) alpha *= Number(style.opacity);
      const [br, bg, bb, ba = 1] = rgba(style.backgroundColor);
      if (!behind && ba > 0.5) behind = [br, bg, bb];
      if (behind && !top.contains(node)) break;
    }
    behind ||= [255, 255, 255];
    const drawn = [r, g, b].map((part, i) => part * alpha + behind[i] * (1 - alpha));
    const light = ([red, green, blue]) => {
      const linear = [red, green, blue].map((part) => {
        const share = part / 255;
        return share <= 0.03928 ? share / 12.92 : ((share + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
    };
    const [lighter, darker] = [light(drawn), light(behind)].sort((x, y) => y - x);
    return (lighter + 0.05) / (darker + 0.05);
  }

  // Where the knob of a slider that says nothing of its value (jQuery UI's, no ARIA) sits
  // on its track, which is all it shows: "20% along its track" (from the left, or from the
  // bottom of an upright one). Null for anything else: a knob by its class, in a track
  // several times its size, one of the two named as a slider's.
  const SLIDER_CLASS = /slid|range|thumb|knob|track|seek|scrub/i;
  function alongTrack(el) {
    const track = el.parentElement;
    const own = el.getAttribute("class") || "";
    if (!track || !KNOB_CLASS.test(own) || !SLIDER_CLASS.test(own + " " + (track.getAttribute("class") || ""))) {
      return null;
    }
    const knob = el.getBoundingClientRect();
    const bar = track.getBoundingClientRect();
    const [middleX, middleY] = [knob.x + knob.width / 2, knob.y + knob.height / 2];
    let share;
    if (bar.width >= 3 * knob.width && bar.width > bar.height) share = (middleX - bar.left) / bar.width;
    else if (bar.height >= 3 * knob.height && bar.height > bar.width) share = (bar.bottom - middleY) / bar.height;
    else return null;
    return `${Math.round(100 * Math.min(Math.max(share, 0), 1))}% along its track`;
  }

  // The option the keys are on in the list a focused field drives, or a focused list or menu
  // holds (its aria-activedescendant): Enter would choose it. A field's list marks it
  // aria-selected too, as the pattern advises for a combobox's list, and nothing is chosen
  // by that; a list that holds the focus itself marks what is chosen so (several, in one
  // that takes several; the one the keys are on, where the choice follows them).
  function keysHolder(el) {
    const field = el.id && deepActive();
    return field && field !== el && field.getAttribute("aria-activedescendant") === el.id &&
      /^(combobox|textbox|searchbox|menu|menubar|listbox|tree|grid)$/.test(roleOf(field)) ? field : null;
  }
  const highlighted = (el) => Boolean(keysHolder(el));
  // Whether keys pressed now reach `el`: it holds the focus, or what does has its keys on it.
  const keysReach = (el) => el.getRootNode().activeElement === el || highlighted(el);
  // Whether `el` is marked aria-selected only for the keys its field's list has on it.
  const selectedByKeys = (el) => {
    const holder = keysHolder(el);
    return Boolean(holder) && /^(combobox|textbox|searchbox)$/.test(roleOf(holder));
  };

  function state(el, valueMax = VALUE_MAX) {
    const out = {};
    const tag = tagOf(el);
    const role = roleOf(el);
    const type = tag === "input" ? el.type : "";
    let box; // the box a combobox's out-of-sight search field shows its choice in
    let along; // where a knob that tells no value sits on its track
    if (tag === "input" && (type === "checkbox" || type === "radio")) {
      // A page that keeps aria-checked on its own input keeps it as the state it shows
      // (Element Plus's switch, whose input's own checked drifts from it).
      const said = el.getAttribute("aria-checked");
      out.checked = /^(true|false|mixed)$/.test(said || "") ? tristate(said)
        : type === "checkbox" && (el.indeterminate || el.dataset.indeterminate === "true") ? "mixed" : el.checked;
    } else if (["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"].includes(role)) {
      out.checked = tristate(el.getAttribute("aria-checked"));
    }
    if (tag === "select") {
      if (el.multiple) out.multiple = true;
      const chosen = [...el.selectedOptions].map((option) => clean(option.label));
      valueIn(out, chosen.join(", "), valueMax);
      out.options = [...el.options].slice(0, OPTIONS_MAX).map((option) => clean(option.label));
      if (el.options.length > OPTIONS_MAX) out.optionsTotal = el.options.length;
    } else if ((box = tag === "input" && role === "combobox" && !el.value && (faceOf(el) || choiceBox(el)))) {
      valueIn(out, shownChoice(box, false, el), valueMax); // what its box shows chosen
    } else if ((tag === "input" && !NO_VALUE.has(type)) || tag === "textarea") {
      // A file input's value is a made-up path: the names of the files chosen are what it shows.
      const chosen = type === "file" ? [...el.files].map((file) => file.name).join(", ") : el.value;
      valueIn(out, chosen, valueMax);
    } else if (tag === "progress") {
      // How far along, or "busy" where it says nothing of that (no value: indeterminate).
      valueIn(out, el.position < 0 ? "busy" : `${Math.round(el.position * 100)}%`, valueMax);
    } else if (tag === "meter") {
      valueIn(out, `${el.value} (${el.min} to ${el.max})`, valueMax);
    } else if (role === "spinbutton" || role === "slider" || role === "progressbar" || role === "meter") {
      // Its words, with the number where they do not show it ("November (11)"): typed, the
      // number is what it takes.
      const [text, now] = [clean(el.getAttribute("aria-valuetext")), clean(el.getAttribute("aria-valuenow"))];
      const value = text && now && !text.includes(now) ? `${text} (${now})` : text || now;
      if (value) valueIn(out, value, valueMax);
    } else if (!role && (along = alongTrack(el))) {
      valueIn(out, along, valueMax);
    } else if (el.isContentEditable && tagOf(el) !== "input") {
      valueIn(out, editorText(el), valueMax);
    } else if (role === "combobox") {
      valueIn(out, shownChoice(el), valueMax);
    } else if (role === "listbox") {
      if (el.getAttribute("aria-multiselectable") === "true") out.multiple = true;
      // The option the keys are on is marked selected as they move, and is no choice, unless
      // its look says chosen too (Element Plus's is-selected).
      const chosen = [...el.querySelectorAll("[aria-selected=true]")]
        .filter((option) => !selectedByKeys(option) || markOf(option) === "selected").map(nameOf).join(", ");
      if (chosen) valueIn(out, chosen, valueMax);
    }
    const selected = el.getAttribute("aria-selected");
    if (highlighted(el)) out.highlighted = true;
    if (selected !== null && !selectedByKeys(el)) out.selected = selected === "true";
    const expanded = el.getAttribute("aria-expanded");
    if (expanded !== null) out.expanded = expanded === "true";
    else if (tag === "summary" && el.parentElement && tagOf(el.parentElement) === "details") {
      out.expanded = el.parentElement.open;
    }
    const current = el.getAttribute("aria-current");
    if (current !== null && current !== "false") out.current = current === "true" ? "true" : current;
    // A header cell's, for the button in it that sorts by it (Material UI's sort label).
    const sort = el.getAttribute("aria-sort") || el.closest("th, [role=columnheader]")?.getAttribute("aria-sort");
    if (sort === "ascending" || sort === "descending") out.sort = sort;
    const pressed = el.getAttribute("aria-pressed");
    if (pressed !== null && pressed !== "undefined") out.pressed = tristate(pressed);
    if (out.checked === undefined && out.selected === undefined && out.pressed === undefined &&
        out.current === undefined) {
      const mark = markOf(el) || dayMark(el);
      if (mark) out.marked = mark;
    }
    if (el.required || el.getAttribute("aria-required") === "true") out.required = true;
    const invalid = el.getAttribute("aria-invalid");
    // A value the browser's own check refuses (a number past its max, a date before its
    // min), however it came in; an empty required field only once a person has been at it.
    const refused = el.willValidate && el.value !== "" && !el.validity.valid;
    if ((invalid !== null && invalid !== "false") || refused || safeMatches(el, ":user-invalid")) {
      out.invalid = true;
    }
    if (el.readOnly || el.getAttribute("aria-readonly") === "true") out.readonly = true;
    // An iframe's document keeps its last focused element while the focus is elsewhere.
    if (deepActive() === el && (window === top || doc.hasFocus())) out.focused = true;
    if (disabled(el)) out.disabled = true;
    return out;
  }

  // A value cut short says how long it is whole (valueTotalChars), for the agent to read it
  // with inspect or a snapshot scoped to it.
  function valueIn(out, value, max) {
    out.value = cap(value, max);
    if (value.length > max) out.valueTotalChars = value.length;
  }

  function safeMatches(el, selector) {
    try {
      return el.matches(selector);
    } catch {
      return false;
    }
  }

  function deepActive() {
    let active = doc.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) {
      active = active.shadowRoot.activeElement;
    }
    return active;
  }

  // --- selectors that match exactly one element -------------------------------------------

  const STABLE_ATTRS = [
    "data-testid", "data-test-id", "data-test", "data-qa", "data-cy", "data-id", "data-value",
  ];
  const ATTR_VALUE_MAX = 80;
  const HOP = " >> ";

  // Per root (the document or a shadow root): how many elements carry each id, each
  // (tag, attribute value) and each (tag, class). A candidate is used only when its count is
  // one, so uniqueness costs one pass per attribute, not one query per element.
  const indexes = new Map();

  function counter(root, name, build) {
    let tables = indexes.get(root);
    if (!tables) indexes.set(root, (tables = new Map()));
    let table = tables.get(name);
    if (!table) {
      table = new Map();
      build((key) => table.set(key, (table.get(key) || 0) + 1));
      tables.set(name, table);
    }
    return table;
  }

  const fold = (value) => (quirks ? value.toLowerCase() : value);

  function idCount(root, id) {
    const table = counter(root, "#", (add) => {
      for (const el of root.querySelectorAll("[id]")) if (el.id) add(fold(el.id));
    });
    return table.get(fold(id)) || 0;
  }

  function attrCount(root, attr, key) {
    const table = counter(root, attr, (add) => {
      for (const el of root.querySelectorAll(`[${attr}]`)) {
        const value = el.getAttribute(attr);
        add(value);
        add(tagOf(el) + "\u0000" + value);
        if (attr === "name" && el.hasAttribute("value")) {
          add(tagOf(el) + "\u0000" + value + "\u0000" + el.getAttribute("value"));
        }
      }
    });
    return table.get(key) || 0;
  }

  function classCount(root, tag, name) {
    const table = counter(root, ".", (add) => {
      for (const el of root.querySelectorAll("[class]")) {
        for (const item of el.classList) add(tagOf(el) + "\u0000" + fold(item));
      }
    });
    return table.get(tag + "\u0000" + fold(name)) || 0;
  }

  const readable = (value) => value && value.length <= ATTR_VALUE_MAX && !/[\n\r]/.test(value);
  const simpleIdent = (value) => /^[A-Za-z_][\w-]*$/.test(value);
  // Not a class that says a state, nor a BEM modifier (`select2-container--below`, which
  // flips as the dropdown opens the other way), nor a state cut short (`sel`, `act`).
  const stableClass = (name) =>
    name.length <= 40 && simpleIdent(name) && !STATE_CLASS.test(name) && !/\d{3}/.test(name) &&
    !name.includes("--") && !SHORT_STATE.test(name);
  const SHORT_STATE = /^(?:sel|act|cur|chk|dis|exp|opn|hl|hi|above|below|dropup)$/i;
  // A label that tells the element's state as well as its name ("Change country, currently
  // selected United States") changes with it: no name to find the element by again.
  const STATE_WORDS = /\b(?:selected|currently|current|checked|unchecked|expanded|collapsed|pressed|active)\b/i;

  // A short selector that names the element on its own in its root, or "".
  function ownSelector(el, root, forAnchor) {
    const tag = CSS.escape(tagOf(el));
    const withTag = (attr, value) => `${tag}[${attr}=${quote(value)}]`;
    const id = el.id;
    if (id && simpleIdent(id) && idCount(root, id) === 1) return "#" + id;
    for (const attr of STABLE_ATTRS) {
      const value = el.getAttribute(attr);
      if (readable(value) && attrCount(root, attr, value) === 1) return `[${attr}=${quote(value)}]`;
    }
    const name = el.getAttribute("name");
    if (readable(name)) {
      if (attrCount(root, "name", tagOf(el) + "\u0000" + name) === 1) return withTag("name", name);
      const value = el.getAttribute("value");
      if (readable(value) && attrCount(root, "name", `${tagOf(el)}\u0000${name}\u0000${value}`) === 1) {
        return `${tag}[name=${quote(name)}][value=${quote(value)}]`;
      }
    }
    for (const attr of ["aria-label", "aria-controls", "for"]) {
      const value = el.getAttribute(attr);
      if (attr === "aria-label" && STATE_WORDS.test(value || "")) continue;
      if (readable(value) && attrCount(root, attr, tagOf(el) + "\u0000" + value) === 1) {
        return withTag(attr, value);
      }
    }
    if (id && readable(id) && idCount(root, id) === 1) return "#" + CSS.escape(id);
    if (!forAnchor) {
      for (const attr of ["href", "placeholder", "title", "alt"]) {
        const value = el.getAttribute(attr);
        if (readable(value) && attrCount(root, attr, tagOf(el) + "\u0000" + value) === 1) {
          return withTag(attr, value);
        }
      }
    }
    for (const item of el.classList) {
      if (stableClass(item) && classCount(root, tagOf(el), item) === 1) return `${tag}.${item}`;
    }
    return "";
  }

  // `tag` when the element is the only child of its type, else `tag:nth-of-type(k)`: either
  // way exactly one child of the parent, so a chain of steps from a unique anchor is unique.
  const positions = new Map();

  function step(el) {
    const parent = el.parentElement || el.parentNode;
    const tag = CSS.escape(tagOf(el));
    if (!parent) return tag;
    let table = positions.get(parent);
    if (!table) {
      table = { of: new Map(), total: new Map() };
      for (const child of parent.children) {
        const type = child.localName + "|" + child.namespaceURI;
        const seen = (table.total.get(type) || 0) + 1;
        table.total.set(type, seen);
        table.of.set(child, seen);
      }
      positions.set(parent, table);
    }
    const type = el.localName + "|" + el.namespaceURI;
    return table.total.get(type) === 1 ? tag : `${tag}:nth-of-type(${table.of.get(el)})`;
  }

  function selectorFor(el) {
    const root = el.getRootNode();
    const inner = selectorIn(el, root);
    return root instanceof ShadowRoot ? selectorFor(root.host) + HOP + inner : inner;
  }

  function selectorIn(el, root) {
    const own = ownSelector(el, root, false);
    if (own) return own;
    const path = [step(el)];
    for (let node = el.parentElement; node; node = node.parentElement) {
      if (node === doc.body) return ["body", ...path].join(" > ");
      if (node === doc.documentElement) return [":root", ...path].join(" > ");
      const anchor = ownSelector(node, root, true);
      if (anchor) return [anchor, ...path].join(" > ");
      path.unshift(step(node));
    }
    // The top of a shadow tree: a path from there is checked, since it has no unique anchor.
    const chain = path.join(" > ");
    return root.querySelectorAll(chain).length === 1 ? chain : "";
  }

  // `a >> b`: the parts of a selector, split at hops outside quotes and brackets.
  function hops(selector) {
    const parts = [];
    let depth = 0;
    let quoteChar = "";
    let start = 0;
    for (let i = 0; i < selector.length; i++) {
      const ch = selector[i];
      if (quoteChar) {
        if (ch === "\\") i++;
        else if (ch === quoteChar) quoteChar = "";
      } else if (ch === '"' || ch === "'") quoteChar = ch;
      else if (ch === "[" || ch === "(") depth++;
      else if (ch === "]" || ch === ")") depth--;
      else if (depth === 0 && selector.startsWith(HOP, i)) {
        parts.push(selector.slice(start, i).trim());
        start = i + HOP.length;
        i += HOP.length - 1;
      }
    }
    parts.push(selector.slice(start).trim());
    return parts;
  }

  // The elements a selector names in this frame: {list}, {error}, or {enterFrame} when it
  // steps into an iframe, which the provider follows in that frame.
  function resolve(selector) {
    const parts = hops(selector);
    let root = doc;
    for (let i = 0; i < parts.length; i++) {
      let list;
      try {
        list = root.querySelectorAll(parts[i]);
      } catch {
        return { error: "invalid" };
      }
      if (i === parts.length - 1) return { list };
      if (list.length !== 1) return { list, partial: parts.slice(0, i + 1).join(HOP) };
      const host = list[0];
      if (host.contentDocument !== undefined && (tagOf(host) === "iframe" || tagOf(host) === "frame")) {
        const box = contentBox(host);
        store.target = host;
        return {
          enterFrame: parts.slice(0, i + 1).join(HOP),
          rest: parts.slice(i + 1).join(HOP),
          x: box.x, y: box.y,
        };
      }
      if (!host.shadowRoot) return { error: "nohost", partial: parts.slice(0, i + 1).join(HOP) };
      root = host.shadowRoot;
    }
    return { list: [] };
  }

  function contentBox(el) {
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const px = (name) => parseFloat(style.getPropertyValue(name)) || 0;
    return {
      x: rect.x + px("border-left-width") + px("padding-left"),
      y: rect.y + px("border-top-width") + px("padding-top"),
    };
  }

  // --- listing: a snapshot's elements, and its text around the viewport -------------------

  const ROLES = [
    "button", "link", "checkbox", "radio", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "switch", "combobox", "textbox", "searchbox", "slider",
    "spinbutton", "treeitem", "listbox", "gridcell", "progressbar", "meter",
  ];
  const INTERACTIVE = [
    "a", "area[href]", "button", "input:not([type=hidden])", "select", "textarea",
    "summary", "[contenteditable]:not([contenteditable=false])", "[onclick]", "[draggable=true]",
    "progress", "meter", // no controls, but what they show is read nowhere else
    "[tabindex]:not([tabindex='-1'])", ...ROLES.map((role) => `[role=${role}]`),
  ].join(",");
  const CHUNK_MAX = 2000;

  // Handlers a page assigns as properties or attributes, which script can see. A hover
  // handler marks a target too: a tooltip's trigger, a chart's shape. Each read costs, on
  // every element of every snapshot: these five are the ones pages use. Those it adds with
  // addEventListener only DevTools sees (request.listeners, in a main document): a press
  // handler on an element with few children (an icon, a cell, a box of colour) marks it, not
  // one on a container the page listens on for all it holds (the body, an app's root).
  function handled(el) {
    // A read at the load keeps the elements it asked of, for the snapshot that takes it over
    // to ask again: a handler set as a property since changes no element.
    if (asked) asked.handlers.push(el);
    if (el.onmouseover || el.onmouseenter) return true;
    const holder = el.childElementCount > LISTENED_CHILDREN_MAX || ITEM_HOLDERS.has(tagOf(el)) ||
      el === doc.body || el === doc.documentElement;
    return holder ? pressProperty(el) : ownHandler(el);
  }
  const pressProperty = (el) => Boolean(el.onclick || el.onmousedown || el.onpointerdown);
  const handlerProperty = (el) => Boolean(el.onmouseover || el.onmouseenter || pressProperty(el));
  // A press handler set on `el` itself (a property, or a listener where DevTools' are at hand;
  // where they are not, in a read at the load, the elements asked of are kept: asked).
  function ownHandler(el) {
    if (pressProperty(el)) return true;
    if (!listeners && asked) asked.listeners.push(el);
    return listened(el);
  }
  const listened = (el) => {
    if (!listeners) return false;
    const on = listeners(el);
    return PRESS_EVENTS.some((type) => on[type]?.length);
  };
  // A read at the load's: the elements whose press listeners only DevTools can tell, and all
  // whose handlers it asked of (see keepRead).
  let asked = null;
  const listeners = typeof request.listeners === "function" ? request.listeners : null;
  const PRESS_EVENTS = ["click", "mousedown", "mouseup", "pointerdown", "pointerup", "dblclick"];

  // Whether only a double click does anything to `el` (a cell edited in place): it or what
  // holds it listens for one, and nothing from it up to the window listens for a single
  // press. Only where DevTools' listeners are at hand; a page that listens at its root for
  // both (React's) is not told apart.
  function doubleOnly(el) {
    if (!listeners) return false;
    const single = (at) => PRESS_EVENTS.some((type) => type !== "dblclick" && listeners(at)[type]?.length);
    let double = false;
    for (let up = el; up; up = up.parentElement || (up.parentNode && up.parentNode.host)) {
      if (pressProperty(up) || single(up)) return false;
      double ||= Boolean(up.ondblclick || listeners(up).dblclick?.length);
    }
    return double && !single(doc) && !single(window);
  }
  const LISTENED_CHILDREN_MAX = 3; // an icon and a label, and a badge
  const ITEM_HOLDERS = new Set(["ul", "ol", "dl", "menu", "table", "thead", "tbody", "tr", "nav", "form"]);

  // Elements styled as clickable. The cursor is inherited, so the children of a clickable
  // card all have `cursor: pointer` too: of a run of them the outermost is a target, and an
  // element inside it only when the page set the cursor on that element itself (a style rule
  // that selects it, or its style attribute): each action of a row of them, a star on a
  // clickable card. What merely inherits it (a card's title and price) is part of the card;
  // words told apart only by a handler on their container are invisible to script, and a
  // click by text aims at the word itself.
  function pointerTarget(el) {
    if (el.children.length > 50) return false;
    const style = getComputedStyle(el);
    if (style.cursor !== "pointer") return false;
    const parent = el.parentElement || (el.parentNode && el.parentNode.host);
    return !parent || getComputedStyle(parent).cursor !== "pointer" || pointerSetOn(el);
  }

  // Per document or shadow root, the selectors of its style rules that set `cursor: pointer`
  // (a rule that selects by position alone, `.toolbar *`, names no element); read once per
  // question, and only for a page with pointer cursors inside pointer cursors. Another
  // origin's stylesheet cannot be read.
  const pointerRules = new Map();

  function pointerSetOn(el) {
    if (el.hasAttribute("style") && el.style.cursor === "pointer") return true;
    const root = el.getRootNode();
    let selector = pointerRules.get(root);
    if (selector === undefined) {
      const found = [];
      const read = (rules) => {
        for (const rule of rules) {
          if (rule instanceof CSSStyleRule) {
            const text = rule.selectorText;
            if (rule.style.cursor === "pointer" && !/\*\s*(,|$)/.test(text)) found.push(text);
          } else if (rule.styleSheet) {
            readSheet(rule.styleSheet);
          } else if (rule.cssRules && !(rule.media && !matchMedia(rule.media.mediaText).matches)) {
            read(rule.cssRules);
          }
        }
      };
      const readSheet = (sheet) => {
        if (sheet.disabled) return;
        try {
          read(sheet.cssRules);
        } catch {
          // another origin's
        }
      };
      for (const sheet of root.styleSheets || []) readSheet(sheet);
      for (const sheet of root.adoptedStyleSheets || []) readSheet(sheet);
      // One rule Chromium keeps but matches() refuses would spoil the whole list.
      selector = found.filter((text) => {
        try {
          el.matches(text);
          return true;
        } catch {
          return false;
        }
      }).join(",");
      pointerRules.set(root, selector);
    }
    return selector !== "" && safeMatches(el, selector);
  }

  // `roots` gets the open shadow roots found under `top`, after it.
  function interactive(top, roots = [top]) {
    const found = new Set();
    const loose = [];
    if (top.matches && top.matches(INTERACTIVE)) found.add(top);
    if (top.shadowRoot) roots.push(top.shadowRoot); // a web component's own controls
    // The top and every open shadow root under it, found as the loop goes.
    for (let i = 0; i < roots.length; i++) {
      for (const el of roots[i].querySelectorAll(INTERACTIVE)) found.add(el);
      // Elements with press handlers (handled), or styled as clickable.
      for (const el of roots[i].querySelectorAll("*")) {
        if (el.shadowRoot) roots.push(el.shadowRoot);
        if (!found.has(el) && (handled(el) || pointerTarget(el))) loose.push(el);
      }
    }
    const faces = new Map();
    const shown = [];
    // Drawn, and not cut away by a box a person cannot scroll to it (a collapsed section).
    const seen = (el) => {
      const rect = rendered(el);
      return rect && !clippedAway(el, rect, listedBoxes) ? rect : null;
    };
    for (const el of found) {
      const face = faceOf(el);
      if (face) faces.set(face, el);
      const rect = seen(face || el);
      if (rect) shown.push({ el, rect, face });
    }
    // A row of marks the page listens on as a whole (a star rating, a row of swatches): a
    // press on one of them is what it takes, not on the row, whose middle may be none.
    const markRows = new Set();
    for (const el of [...loose]) {
      const marks = markRow(el);
      if (!marks) continue;
      markRows.add(el);
      loose.push(...marks.filter((mark) => !found.has(mark)));
    }
    for (const el of loose) {
      if (markRows.has(el)) continue;
      if (faces.has(el) || (tagOf(el) === "label" && el.control && found.has(el.control))) continue;
      // Drawn in the label of a control listed itself (a radio card's styled box, a switch's
      // track), with no handler of its own: a press there is a press on the label, and so on
      // the control.
      const label = el.closest("label");
      if (label && label.control && found.has(label.control) && !ownHandler(el)) continue;
      // A clickable-looking wrapper of real controls is not a target of its own, nor a
      // component's host whose shadow tree draws one (Material Web's button). A column's
      // header is, with a filter field in it (Tabulator's): a press on it sorts.
      const header = el.getAttribute("role") === "columnheader" || tagOf(el) === "th";
      // A column's resize handle drawn again in every row of a grid's body (Tabulator's):
      // the one in its header is listed.
      if (/resize/i.test(el.getAttribute("class") || "") && !el.childElementCount && !clean(el.textContent) &&
        el.closest("[role=row], tr")?.querySelector(":scope > [role=gridcell], :scope > td")) continue;
      if (!header && (el.querySelector(INTERACTIVE) || el.shadowRoot?.querySelector(INTERACTIVE))) continue;
      const rect = seen(el);
      if (rect) shown.push({ el, rect, face: null, loose: true });
    }
    const nested = new Set(shown.map((item) => item.el));
    const kept = shown.filter(({ el, loose }) => {
      // The inner box of a listed item that shows all it shows (a time picker's cell in its
      // row): a press on it is a press on the item.
      if (loose && [el.parentElement, el.parentElement?.parentElement].some((up) =>
        nested.has(up) && up.children.length === 1 && clean(up.textContent) === clean(el.textContent))) return false;
      // Text a control shows that lets the pointer through to it (Radix's chosen value in its
      // trigger): a press there is a press on the control.
      if (loose && getComputedStyle(el).pointerEvents === "none" && el.parentElement?.closest(INTERACTIVE)) return false;
      // A part drawn in the shadow tree of a component listed itself (Shoelace's radio and its
      // span.radio): a press there is a press on the component. A slot a component listens
      // on is what it shows (Shoelace's dropdown's trigger), listed on its own.
      if (loose && (tagOf(el) === "slot" || listedHost(el, nested))) return false;
      const role = el.getAttribute("role");
      if (role !== "presentation" && role !== "none") return true;
      // A part the page styles as a press of its own does its own thing (the × on a tag in
      // select2's box removes that tag; a press elsewhere in the box opens its list).
      if (loose && pointerSetOn(el)) return true;
      for (let up = el.parentElement; up; up = up.parentElement) if (nested.has(up)) return false;
      return true;
    });
    kept.sort((a, b) => (order(a.el, b.el)));
    return kept;
  }

  // The children of `el`, which the page listens on for presses itself, where they are
  // MARKS_MIN to MARKS_MAX of one tag, each a drawn mark or picture with no words (★, a
  // swatch, an icon): a press on each does its own thing. Null otherwise.
  const [MARKS_MIN, MARKS_MAX] = [2, 10];
  function markRow(el) {
    const marks = [...el.children];
    if (marks.length < MARKS_MIN || marks.length > MARKS_MAX || !ownHandler(el)) return null;
    const tag = tagOf(marks[0]);
    return marks.every((mark) => tagOf(mark) === tag && !/[\p{L}\p{N}]{2}/u.test(mark.textContent) &&
      !mark.querySelector(INTERACTIVE) && rendered(mark)) ? marks : null;
  }

  // Whether a shadow tree `el` is drawn in, or one around it, belongs to an element of `listed`.
  function listedHost(el, listed) {
    for (let host = el.getRootNode().host; host; host = host.getRootNode().host) {
      if (listed.has(host)) return true;
    }
    return false;
  }

  function order(a, b) {
    if (a === b) return 0;
    const relation = a.compareDocumentPosition(b);
    // Nodes of different trees (a shadow root's) are told apart arbitrarily: order their hosts.
    if (!(relation & Node.DOCUMENT_POSITION_DISCONNECTED)) {
      if (relation & Node.DOCUMENT_POSITION_FOLLOWING) return -1;
      if (relation & Node.DOCUMENT_POSITION_PRECEDING) return 1;
    }
    const hostOf = (el) => (el.getRootNode().host || el);
    const [ha, hb] = [hostOf(a), hostOf(b)];
    if (ha === b) return 1; // a host comes before what its shadow root holds
    if (hb === a) return -1;
    return ha === a && hb === b ? 0 : order(ha, hb);
  }

  // Whether an element whose middle something smaller than it is drawn over (a slice's
  // label, a badge) shows elsewhere, where a press lands on it: a person presses it there.
  // Something as big as it or bigger (an overlay, a dialog) hides it all.
  const ASIDE = [[0.3, 0.3], [0.7, 0.3], [0.3, 0.7], [0.7, 0.7], [0.5, 0.15], [0.5, 0.85], [0.15, 0.5], [0.85, 0.5]];
  const smaller = (hit, rect) => {
    const over = coverOf(hit).getBoundingClientRect();
    return over.width * over.height < rect.width * rect.height;
  };
  function clearAside(el, face, rect, hit) {
    if (!smaller(hit, rect)) return false;
    return ASIDE.some(([fx, fy]) => {
      const x = rect.x + rect.width * fx;
      const y = rect.y + rect.height * fy;
      return inViewport({ left: x, top: y, right: x, bottom: y }) && pressLands(hitAt(x, y), el, face);
    });
  }

  // Drawn over, in view, by something that is not its own container (a clipped element, one
  // half scrolled out of its box, one that lets clicks through with pointer-events: none, is
  // not "covered").
  function coveredAt(el, face, rect) {
    const x = Math.min(Math.max(rect.x + rect.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(rect.y + rect.height / 2, 0), innerHeight - 1);
    const hit = hitAt(x, y);
    return Boolean(hit && !landsOn(hit, el) && !(face && landsOn(hit, face)) && !reaches(el, hit) &&
      !labelsIt(hit, el) && getComputedStyle(el).pointerEvents !== "none" &&
      !clearAside(el, face, rect, hit) && !cutOff(face || el, { x, y }));
  }

  function element({ el, rect, face }, valueMax = VALUE_MAX) {
    const out = { selector: selectorFor(el), tag: tagOf(el), bounds: bounds(rect) };
    out.inViewport = inViewport(rect) && !scrolledAway(face || el, rect, listedBoxes);
    if (out.inViewport && (coveredAt(el, face, rect) || shutOff(el))) out.covered = true;
    const type = typeOf(el);
    if (type) out.type = type;
    const role = roleOf(el);
    // "presentation" says only that the page hid the element's own role: it tells no one what it does.
    if (role && role !== out.tag && role !== "presentation" && role !== "none") out.role = role;
    const label = cap(labelOf(el, face));
    if (label) out.label = label;
    else {
      out.missingAccessibleName = true;
      const guess = cap(guessedName(el, rect));
      if (guess) Object.assign(out, { label: guess, labelGuessed: true });
    }
    if (role === "radio" || role === "checkbox" || role === "switch") {
      const group = cap(groupOf(el));
      if (group && group !== label) out.group = group;
    }
    Object.assign(out, state(el, valueMax));
    return out;
  }

  // The page's main scroller: the document when it scrolls, else the largest scrolling box
  // (apps that pin the body and scroll a panel).
  // What scrolls the page: the document, else the biggest box that scrolls (an app that pins
  // its page and scrolls a panel of its own). `pageLike`: a box at least PANEL_SHARE of the
  // view, as a snapshot reports the page's scroll: an open dropdown's list is no page.
  function scroller(pageLike = false) {
    const root = doc.scrollingElement || doc.documentElement;
    if (root.scrollHeight - root.clientHeight > 1) return root;
    let best = null;
    let bestArea = pageLike ? PANEL_SHARE * innerWidth * innerHeight : 0;
    for (const el of doc.body ? doc.body.getElementsByTagName("*") : []) {
      if (el.scrollHeight - el.clientHeight <= 1) continue;
      const area = el.clientWidth * el.clientHeight;
      if (area <= bestArea) continue;
      const overflow = getComputedStyle(el).overflowY;
      if (overflow === "auto" || overflow === "scroll" || overflow === "overlay") {
        best = el;
        bestArea = area;
      }
    }
    return best || root;
  }

  const PANEL_SHARE = 0.3;

  // Boxes in view that scroll by themselves and hide part of what they hold (a list, a side
  // panel, a chat), besides `main`, whose scroll the snapshot reports: what they hide may not
  // be on the page yet (a long list draws its rows as it scrolls), so the agent is told they
  // are there. The largest first, of `candidates` (a snapshot's: those its text layout found
  // styled to scroll, or to hide what overflows them).
  function scrollBoxes(candidates, main) {
    const found = [];
    for (const el of candidates) {
      if (el.scrollHeight - el.clientHeight < SCROLL_BOX_HIDDEN_MIN || el === main) continue;
      if (el.matches(FIELDS) || !/^(auto|scroll|overlay)$/.test(personsOverflowY(el))) continue;
      const rect = rendered(el);
      if (rect && inViewport(rect)) found.push({ el, area: el.clientWidth * el.clientHeight });
    }
    return found.sort((a, b) => b.area - a.area).slice(0, SCROLL_BOXES_MAX).map(({ el }) => ({
      selector: selectorFor(el),
      role: roleOf(el) || undefined,
      name: cap(ariaName(el)) || undefined,
      ...position(el),
    }));
  }
  const SCROLL_BOX_HIDDEN_MIN = 24; // about a line: less is a border's or a rounding's
  const SCROLL_BOXES_MAX = 4;

  // A box laid out from its end (a chat's column-reverse: the newest message first in the
  // markup, drawn at the bottom) starts scrolled to its bottom, at 0, and counts up into
  // negative numbers: how far it is from its top is what a person sees.
  const fromEnd = (box) => {
    if (box.scrollTop < 0) return true;
    const { flexDirection, display } = getComputedStyle(box);
    return flexDirection === "column-reverse" && display.endsWith("flex");
  };
  const scrolledFromTop = (box) =>
    box.scrollTop < 0 || (box.scrollTop === 0 && fromEnd(box))
      ? box.scrollTop + Math.max(0, box.scrollHeight - box.clientHeight)
      : box.scrollTop;

  function position(box) {
    return {
      scrollY: Math.round(scrolledFromTop(box)),
      maxScrollY: Math.max(0, Math.round(box.scrollHeight - box.clientHeight)),
    };
  }

  const tidy = (raw) => (raw || "").replace(UNDRAWN_CHARS, "").replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n").replace(/\n{3,}/g, "\n\n").trim();
  // Code as read: tidy, but each line keeps its indent (see runsApart).
  const indented = (raw) => (raw || "").replace(UNDRAWN_CHARS, "").replace(/\u00a0/g, " ").replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n").replace(/^\s*\n/, "").trimEnd();

  // The text in pieces small enough to place on the page: each piece knows where it is drawn,
  // so the text an agent reads can follow the viewport.
  // A piece inside a fixed or sticky box (a header, a toolbar) is drawn in the viewport
  // wherever the page is scrolled, so it does not say where the reader is.
  const NO_LAYOUT = {
    unseen: [], runs: new Map(), holders: new Set(), sealed: [], scrollers: [], reordered: new Map(),
    pictured: new Set(),
  };

  // The rows of a grid that places them by position, not in the order it keeps them (AG
  // Grid moves its rows with transforms as it sorts them, their nodes staying put), top to
  // bottom; null where they are in order, or `el` holds anything but rows.
  const ROWS_PLACED_MAX = 500;
  function rowsByPlace(el) {
    const rows = el.children;
    if (rows.length < 2 || rows.length > ROWS_PLACED_MAX) return null;
    for (const row of rows) if (row.getAttribute("role") !== "row") return null;
    const tops = new Map([...rows].map((row) => [row, row.getBoundingClientRect().top]));
    const sorted = [...rows].sort((a, b) => tops.get(a) - tops.get(b));
    return sorted.some((row, i) => row !== rows[i]) ? sorted : null;
  }

  // `items` ({el}, in document order) with those in rows placed out of order (rowsByPlace)
  // in the order they are drawn, each grid keeping its place among the others.
  function inPlaceOrder(items, reordered) {
    if (!reordered.size) return items;
    const place = (el) => {
      for (let up = el; up && up.parentElement; up = up.parentElement) {
        const rows = reordered.get(up.parentElement);
        if (rows) return { box: up.parentElement, at: rows.indexOf(up) };
      }
      return null;
    };
    const placed = items.map((item, i) => ({ item, i, where: place(item.el) }));
    const grids = new Map();
    for (const one of placed) {
      if (!one.where) continue;
      if (!grids.has(one.where.box)) grids.set(one.where.box, []);
      grids.get(one.where.box).push(one);
    }
    for (const list of grids.values()) {
      const slots = list.map((one) => one.i);
      [...list].sort((a, b) => a.where.at - b.where.at || a.i - b.i).forEach((one, k) => { one.i = slots[k]; });
    }
    const out = [];
    for (const one of placed) out[one.i] = one.item;
    return out;
  }

  // Of custom elements with no children and no open shadow root (`candidates`), those drawn
  // with a size (most likely content in a closed shadow root, which no script reads), by
  // their selectors: the first SEALED_MAX. Not an editable one, which is empty (Trix's
  // editor before anything is typed).
  function sealedComponents(candidates, unseen) {
    const found = [];
    for (const el of candidates) {
      if (found.length >= SEALED_MAX) break;
      if (!customElements.get(tagOf(el)) || el.isContentEditable || unseen.some((hidden) => hidden.contains(el))) continue;
      const rect = rendered(el);
      if (rect && rect.width * rect.height >= SEALED_AREA_MIN) found.push(selectorFor(el));
    }
    return found;
  }
  const SEALED_MAX = 3;
  const SEALED_AREA_MIN = 400; // CSS pixels: a widget, not a spacer

  // Pictures drawn in view that hold nothing to read (a canvas, an SVG of shapes and no
  // words: a chart, a shape to count, a board; listed unnamed, or not listed), so the agent
  // knows what they are: a capture shows them, and verb.mouse presses them by point. By
  // their selectors and sizes, the first DRAWN_MAX of at least DRAWN_MIN pixels a side; an
  // SVG scope too.
  function drawings(root, shown) {
    const listed = new Set(shown.map(({ el }) => el));
    const found = [];
    for (const el of [root, ...root.querySelectorAll("canvas, svg")]) {
      if (found.length >= DRAWN_MAX) break;
      const tag = tagOf(el);
      if ((tag !== "canvas" && tag !== "svg") || el.ownerSVGElement) continue;
      // Listed with a name of its own, it is read; unnamed (`svg ""`), only a picture shows it.
      if (listed.has(el) ? nameOf(el) : tag === "svg" &&
          (clean(el.textContent) || shown.some((item) => el.contains(item.el)))) continue;
      const rect = rendered(el);
      if (!rect || rect.width < DRAWN_MIN || rect.height < DRAWN_MIN || !inViewport(rect)) continue;
      found.push(`${selectorFor(el)} (${tag} ${Math.round(rect.width)}x${Math.round(rect.height)}${shapesIn(el)})`);
    }
    return found;
  }

  // What an svg draws, by kind, and the selector of its first shape (`: 2 rects, 1 circle,
  // the first #chart > g > rect:nth-of-type(1)`): its shapes are elements a selector names,
  // to inspect, drag and press, which a canvas's are not.
  function shapesIn(el) {
    if (tagOf(el) !== "svg") return "";
    const shapes = el.querySelectorAll(DRAWN_SHAPES);
    const counts = new Map();
    for (const shape of shapes) counts.set(tagOf(shape), (counts.get(tagOf(shape)) || 0) + 1);
    const kinds = [...counts].slice(0, 4).map(([kind, count]) => `${count} ${kind}${count > 1 ? "s" : ""}`);
    if (!kinds.length) return "";
    return `: ${kinds.join(", ")}, ${shapes.length > 1 ? "the first " : ""}${selectorFor(shapes[0])}`;
  }
  const DRAWN_SHAPES = "rect, circle, ellipse, line, polyline, polygon, path";

  // Pictures a page names (an image's alt or title, an element drawn as an image with a
  // label) whose names no text holds: symbols set among the text (a dish's "vegan" icon, a
  // "verified" badge) and pictures of their own (a word drawn as an image, a chart); and
  // small boxes it calls a colour, which show one (the colour an instruction asks for);
  // each by its name or colour and the words before it, the first NAMED_PICTURES_MAX in
  // view; none inside a listed element, which it names.
  const PICTURES = "img[alt], img[title], [role=img][aria-label], svg[aria-label]";
  const COLOUR_BOXES = "[id*=color i], [class*=color i], [id*=colour i], [class*=colour i], " +
    "[class*=swatch i]";
  const NAMED_PICTURES_MAX = 8;
  const SYMBOL_MAX = 48; // CSS pixels a side: an icon or a badge, not a photo

  function namedPictures(root, shown) {
    const listed = new Set(shown.map(({ el }) => el));
    const found = [];
    const besides = new Map();
    for (const picture of root.querySelectorAll(`${PICTURES}, ${COLOUR_BOXES}`)) {
      if (found.length >= NAMED_PICTURES_MAX) break;
      if (within(picture, listed)) continue;
      const rect = rendered(picture);
      if (!rect || !inViewport(rect) || scrolledAway(picture, rect, listedBoxes)) continue;
      const named = picture.matches(PICTURES) ? nameOf(picture) : "";
      const small = rect.width <= SYMBOL_MAX && rect.height <= SYMBOL_MAX;
      const colour = named || !small ? "" : colourWord(picture, rect);
      if (!named && !colour) continue;
      // Its name written beside it too (an avatar by its person's name, a flag by its
      // country's): the text says it. As drawn: not a script's source.
      const holder = picture.parentElement;
      if (holder && !besides.has(holder)) besides.set(holder, textOf(holder).toLowerCase());
      if (named && holder && besides.get(holder).includes(named.toLowerCase())) continue;
      const before = wordsBefore(picture);
      const what = named ? `"${named}"` : `a ${colour} box`;
      found.push(before ? `${what} after "${before}"` : what);
    }
    return found;
  }

  // The last few words written before `el` in the box that holds it.
  function wordsBefore(el) {
    let text = "";
    for (let at = el; at && !text && at !== doc.body; at = at.parentElement) {
      for (let node = at.previousSibling; node && !text; node = node.previousSibling) {
        text = clean(node.nodeType === Node.TEXT_NODE ? node.data : node.nodeType === Node.ELEMENT_NODE ? textOf(node) : "");
      }
    }
    return text.split(" ").slice(-4).join(" ");
  }

  // The shapes of a drawing that has some listed (shapes the page handles, to drag or press)
  // drawn beside those with nothing to list them by: where a drag drops them, what they are
  // sorted into (an outline box, a target circle). The first SHAPES_MAX of at least
  // SHAPE_MIN pixels a side, in view, by their selectors, sizes and places (x,y in the view).
  function unlistedShapes(root, shown) {
    const listed = new Set(shown.map(({ el }) => el));
    const withListed = new Set(shown.map(({ el }) => drawingOf(el)));
    const found = [];
    for (const svg of root.querySelectorAll("svg")) {
      if (svg.ownerSVGElement || !withListed.has(svg)) continue;
      for (const shape of svg.querySelectorAll(DRAWN_SHAPES)) {
        if (found.length >= SHAPES_MAX) return found;
        if (within(shape, listed)) continue;
        const rect = rendered(shape);
        if (!rect || rect.width < SHAPE_MIN || rect.height < SHAPE_MIN || !inViewport(rect)) continue;
        const size = `${Math.round(rect.width)}x${Math.round(rect.height)}`;
        found.push(`${selectorFor(shape)} (${tagOf(shape)} ${size} at ${Math.round(rect.x)},${Math.round(rect.y)})`);
      }
    }
    return found;
  }
  const SHAPES_MAX = 3;
  const SHAPE_MIN = 16; // CSS pixels: a box to drop in, not a line or a dot
  const DRAWN_MAX = 3;
  const DRAWN_MIN = 48; // CSS pixels: a picture, not an icon

  // Of `hosts` (elements with a shadow root) and the hosts in their shadow trees and theirs,
  // those whose own shadow tree holds text to read (a web component's heading, a price),
  // which innerText leaves out; with every element that holds one, up to `top`, across
  // shadow roots.
  function textHolders(hosts, top, found = new Set()) {
    for (const el of hosts) {
      const walker = doc.createTreeWalker(el.shadowRoot, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        if (/\S/.test(walker.currentNode.data) && !UNREAD.has(tagOf(walker.currentNode.parentNode))) {
          for (let up = el; up && !found.has(up); up = up === top ? null : up.parentNode || up.host) {
            if (up.nodeType === Node.ELEMENT_NODE) found.add(up);
          }
          break;
        }
      }
      const inner = [...el.shadowRoot.querySelectorAll("*")].filter((host) => host.shadowRoot);
      textHolders(inner, top, found);
    }
    return found;
  }
  // `layout` (textLayout): the elements whose text is left out (`unseen`, none of them `el`'s
  // ancestor), and the runs to read as a person does (see runsApart).
  // `parent`: the element `el` is drawn in (a shadow tree's host, a slot's parent).
  const inItsLine = (display) => display.startsWith("inline") || display === "table-cell";
  function chunks(el, out, pinned = false, layout = NO_LAYOUT, parent = el.parentNode) {
    const slot = tagOf(el) === "slot"; // drawn as what it shows, with no box of its own
    // innerText of an element that is not drawn (a script, a hidden panel) is its source text.
    if (UNREAD.has(tagOf(el)) || !mayShow(el)) return out;
    const { unseen, holders, reordered } = layout;
    if (unseen.includes(el)) return out;
    // innerText reads neither a shadow tree's text nor what its slots show: such an element
    // is read a piece at a time, as it is drawn (its shadow tree, a slot's assigned nodes).
    const drawnElsewhere = slot || holders.has(el) ||
      (el.getRootNode() instanceof ShadowRoot && el.querySelector("slot"));
    const text = drawnElsewhere ? "" : tidy(el.innerText);
    if (!text && !drawnElsewhere) return out;
    const { position, display, whiteSpace } = getComputedStyle(el);
    const fixed = pinned || position === "fixed" || position === "sticky";
    const whole = !drawnElsewhere && !unseen.some((hidden) => el.contains(hidden)) &&
      ![...reordered.keys()].some((grid) => el.contains(grid));
    // Code is read whole, its indents kept (runsApart), and so is text in no element.
    if (whole && (text.length <= CHUNK_MAX || !el.children.length || KEEPS_INDENTS.test(whiteSpace))) {
      const rect = el.getBoundingClientRect();
      if (text.length <= CHUNK_MAX) {
        const inline = inItsLine(display) && parent;
        out.push({ text, el, top: rect.top, bottom: rect.bottom, pinned: fixed, inline });
        return out;
      }
      // Too long for one piece (a long listing): a piece a line, each placed down the box
      // as far as it comes in the text, for the text shown to follow the viewport.
      const lines = runsApart(el, layout, text).split("\n");
      const step = rect.height / lines.length;
      lines.forEach((line, i) => {
        const top = rect.top + i * step;
        out.push({ text: line, top, bottom: top + step, pinned: fixed });
      });
      return out;
    }
    const shown = slot && el.assignedNodes({ flatten: true });
    const children = reordered.get(el) ||
      (el.shadowRoot ? el.shadowRoot.childNodes : shown?.length ? shown : el.childNodes);
    // The element whose line its inline pieces are in: an inline box's or a cell's are in
    // its parent's (a link's words in its sentence, a cell's in its row, with hidden words
    // in the link or the cell left out).
    const line = slot || (inItsLine(display) && parent) ? parent : el;
    let broken = false; // a line break (<br>) since the last piece
    const start = out.length;
    for (const node of children) {
      if (node.nodeType === Node.ELEMENT_NODE && tagOf(node) === "br") {
        broken = true;
        continue;
      }
      const first = out.length;
      if (node.nodeType === Node.ELEMENT_NODE) chunks(node, out, fixed, layout, line);
      else if (node.nodeType === Node.TEXT_NODE && clean(node.data)) {
        const range = doc.createRange();
        range.selectNodeContents(node);
        const rect = range.getBoundingClientRect();
        if (rect.width || rect.height) {
          const piece = { text: clean(node.data), top: rect.top, bottom: rect.bottom };
          out.push({ ...piece, pinned: fixed, inline: line });
        }
      }
      const piece = out[first];
      if (piece && broken) {
        piece.broken = true;
        broken = false;
      } else if (piece && piece.inline && piece.inline === out[first - 1]?.inline &&
          readsOn(first === start && line !== el ? el : node)) {
        // The first piece of a box read in its parent's line reads on from the piece before
        // as the box does, whatever hidden words come first in it.
        piece.glued = true;
      }
    }
    return out;
  }

  // Pieces read one after another: on one line where both are inline in the same element
  // (words and links of a paragraph; a piece's `inline` is that element) and no line break
  // (<br>) is between them, a space between unless the page set none (readsOn), else on
  // lines of their own.
  // A piece that is an element's whole text has its runs read as a person does (runsApart)
  // here, only once it is chosen to be read.
  function joined(pieces, layout = NO_LAYOUT) {
    const between = (piece, i) => {
      if (i === 0) return "";
      if (!piece.inline || piece.inline !== pieces[i - 1].inline || piece.broken) return "\n";
      return piece.glued ? "" : " ";
    };
    const read = (piece) => (piece.el ? runsApart(piece.el, layout, piece.text) : piece.text);
    return pieces.map((piece, i) => between(piece, i) + read(piece)).join("");
  }

  // --- words as a person reads them ----------------------------------------------------
  // innerText reads siblings with nothing between them in the source as one word; a person
  // reads them so only where they are drawn so. "un<b>believ</b>able" is one word, and so are
  // letters in boxes of their own (an animated heading); two buttons side by side, a price
  // and the label a margin sets off, breadcrumbs whose separators are drawn by CSS are not.

  // The first (or `last`) text node in `node` with a character to draw, or null.
  function textEdge(node, last) {
    if (node.nodeType === Node.TEXT_NODE) return /\S/.test(node.data) ? node : null;
    if (node.nodeType !== Node.ELEMENT_NODE || UNREAD.has(tagOf(node))) return null;
    for (let child = last ? node.lastChild : node.firstChild; child;
      child = last ? child.previousSibling : child.nextSibling) {
      const found = textEdge(child, last);
      if (found) return found;
    }
    return null;
  }

  // Where the first (or `last`) character of `node`'s text is drawn, or null.
  function charBox(node, last) {
    const text = textEdge(node, last);
    if (!text) return null;
    const at = last ? text.data.search(/\S\s*$/) : text.data.search(/\S/);
    const range = doc.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + 1);
    const rect = range.getBoundingClientRect();
    return rect.width || rect.height ? rect : null;
  }

  // Whether the text of `after` is drawn apart from that of `before`, its sibling: a gap
  // wider than a fifth of the font size between the last character of one and the first of
  // the other (about a space: a margin, padding, a border, a separator drawn by CSS, a field
  // between two labels), or on another line.
  function drawnApart(before, after) {
    // Their parent may be a shadow root, whose text its host styles.
    const parent = before.parentNode.nodeType === Node.ELEMENT_NODE ? before.parentNode : before.parentNode.host;
    const space = ((parent && parseFloat(getComputedStyle(parent).fontSize)) || 16) / 5;
    // The room the two keep on the sides that face says so at once (a button's padding).
    if (room(before, "Right") + room(after, "Left") > space) return true;
    const end = charBox(before, true);
    const start = charBox(after, false);
    if (!end || !start) return false;
    if (start.top >= end.bottom - 1 || end.top >= start.bottom - 1) return true;
    const gap = Math.max(start.left - end.right, end.left - start.right);
    return gap > space;
  }

  // The room an element keeps on one `side` of its text: its margin, border and padding.
  function room(node, side) {
    if (node.nodeType !== Node.ELEMENT_NODE) return 0;
    const style = getComputedStyle(node);
    return parseFloat(style[`margin${side}`]) + parseFloat(style[`border${side}Width`]) +
      parseFloat(style[`padding${side}`]);
  }

  // Whether `node`'s text reads on from its previous sibling's with no space between, as a
  // person reads it: nothing in the source sets them apart (white space), and nothing drawn.
  function readsOn(node) {
    const before = node.previousSibling;
    if (!before || (node.nodeType === Node.TEXT_NODE && /^\s/.test(node.data))) return false;
    if (before.nodeType === Node.TEXT_NODE ? !/\S$/.test(before.data)
      : before.nodeType !== Node.ELEMENT_NODE) return false;
    return !drawnApart(before, node) || attached(before.textContent, node.textContent);
  }

  // Whether the text `after` reads on from `before` whatever is drawn between them: closing
  // punctuation after a word ("fetch()," after code set in a box), a word after an opening
  // bracket or quote.
  const attached = (before, after) => /^[,.;:!?%)\]}\u2019\u201d\u00bb\u2026]/.test(after) ||
    /^["'](\s|$)/.test(after) || /[(\[{\u2018\u201c\u00ab]$/.test(before) || /(^|\s)["']$/.test(before);

  // `node`'s text as innerText reads it in its parent's: a text node's white space collapsed
  // (not trimmed: a run's texts are joined as they touch), an element's tidied.
  // An element keeps a space at an edge where its own text ends in one and its parent's
  // innerText keeps it: a label's "Name " before the field inside it.
  const heardOf = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.data.replace(UNDRAWN_CHARS, "").replace(/\s+/g, " ");
    const raw = node.innerText || "";
    const words = tidy(raw);
    if (!words) return words;
    return (/^[ \t\u00a0]/.test(raw) ? " " : "") + words + (/[ \t\u00a0]$/.test(raw) ? " " : "");
  };

  // A select a person sees closed shows its chosen option alone; innerText reads every
  // option, a line each. Its text is its own run (see runsApart), read as `chosen`.
  const closedSelect = (node) => tagOf(node) === "select" && !node.multiple && node.size <= 1;
  const chosen = (select) => clean(select.selectedOptions[0]?.label);

  // `el`'s text as innerText reads it (`read`), with each run in it (see textLayout) read as a
  // person does: the run's text as innerText reads it is found in `el`'s, in document order,
  // and replaced by the run with a space wherever its texts are drawn apart ("OKCancel" by
  // "OK Cancel"), by a closed select's chosen option, by code with its indents, or by text
  // struck out between two tildes each side, as Markdown writes it ("~~$59.99~~").
  function runsApart(el, layout, read = tidy(el.innerText)) {
    let text = read;
    let from = 0;
    for (const run of layout.runs.get(el) || []) {
      const rows = run.rows && readRows(run, layout);
      if (run.rows && !rows) continue; // items with lines of their own (cards): read as they are
      const heard = rows ? [] : run.nodes.map(heardOf);
      if (heard.length) {
        heard[0] = heard[0].trimStart();
        heard[heard.length - 1] = heard[heard.length - 1].trimEnd();
      }
      const together = rows ? rows.together : heard.join("");
      const at = together ? foundWhole(text, together, from, Boolean(run.cells)) : -1;
      if (at < 0) continue;
      const end = at + together.length; // struck out already: an item of rows read first
      if (run.struck && text.startsWith("~~", at - 2) && text.startsWith("~~", end)) continue;
      let before = text.slice(0, at);
      let after = text.slice(at + together.length);
      let seen;
      if (rows) {
        seen = rows.seen;
      } else if (run.drawn) { // words a style sheet draws before or after it
        const { before, after: last } = run.drawn;
        seen = before + (before && /\S$/.test(before) && /^[\p{L}\p{N}]/u.test(together) ? " " : "") +
          together + (last && /^\S/.test(last) && /[\p{L}\p{N}]$/u.test(together) ? " " : "") + last;
      } else if (run.code) {
        seen = indented(run.nodes[0].innerText);
      } else if (run.select) {
        seen = chosen(run.nodes[0]);
      } else if (run.upward) { // items drawn from the bottom up: read top down
        const items = [...run.nodes[0].children].map((item) => [item, item.getBoundingClientRect()])
          .filter(([, rect]) => rect.width || rect.height).sort(([, a], [, b]) => a.top - b.top);
        seen = items.map(([item]) => tidy(item.innerText)).filter(Boolean).join("\n");
      } else if (run.numbered) {
        seen = together;
        let at = 0;
        for (const { item, marker } of run.numbered) {
          const said = tidy(item.innerText);
          const found = said ? seen.indexOf(said, at) : -1;
          if (found < 0) continue;
          seen = `${seen.slice(0, found)}${marker} ${seen.slice(found)}`;
          at = found + marker.length + 1 + said.length;
        }
      } else if (run.cells) { // a line between the rows, as the blocks in them left none
        seen = run.cells.map((cell) => (emptyCell(cell) ? EMPTY_CELL : tidy(cell.innerText)))
          .filter(Boolean).join(" ");
        before = before.replace(/\n\n+$/, "\n");
        after = after.replace(/^\n\n+/, "\n");
      } else if (run.struck) {
        seen = `~~${together}~~`;
        // The price after it, touching in the source and set apart by a margin: a word apart.
        const next = run.nodes[0].nextSibling;
        if (next && /^[^\s,.;:!?)]/.test(after) && textEdge(next, false) && drawnApart(run.nodes[0], next)) {
          seen += " ";
        }
      } else {
        const space = (so, piece, i) => {
          if (run.raised[i] && /[\p{L}\p{N}]$/u.test(so)) return "^"; // "$49^99", "mc^2"
          return so && run.apart[i] && !attached(so, piece) && !/\s$/.test(so) && !/^\s/.test(piece)
            ? " " : "";
        };
        seen = heard.reduce((so, piece, i) => so + space(so, piece, i) + piece, "");
      }
      if (run.inline) { // a box in a line: on a line of its own only without words beside it
        if (before && besideWords(run.inline, "previousSibling")) {
          before = before.replace(/\s*$/, " ");
        }
        if (besideWords(run.inline, "nextSibling")) after = after.replace(/^\s*/, before || seen ? " " : "");
        else if (tagOf(run.inline.nextElementSibling || run.inline) === "br") {
          after = after.replace(/^\s*/, "\n"); // the line break after it, once
        }
        if (!seen && /\s$/.test(before)) after = after.replace(/^\s+/, ""); // an empty select
      }
      text = before + seen + after;
      from = before.length; // a run inside one of this run's boxes comes next
    }
    return text.replace(/^\n+|\s+$/g, ""); // an empty select first or last
  }

  // Where `part` is in `text` from `from` on, as whole words (or, `line`, as whole lines)
  // where it is so anywhere: a calendar's row reading "1" is the line "1", not the "1" of
  // "2016" or "1. Story" above it. Else where it first is.
  function foundWhole(text, part, from, line) {
    const at = wholeIndex(text, part, from, line);
    return at >= 0 ? at : text.indexOf(part, from);
  }
  // Where `part` is in `text` from `from` on as whole words (or lines); -1 where it is not.
  function wholeIndex(text, part, from, line) {
    const joins = line ? (char) => char !== undefined && char !== "\n"
      : (char, edge) => /[\p{L}\p{N}]/u.test(char || "") && /[\p{L}\p{N}]/u.test(edge);
    const whole = (at) => !joins(text[at - 1], part[0]) &&
      !joins(text[at + part.length], part[part.length - 1]);
    for (let at = text.indexOf(part, from); at >= 0; at = text.indexOf(part, at + 1)) {
      if (whole(at)) return at;
    }
    return -1;
  }

  // Whether `node` has words beside it in its line (`side`: "previousSibling" or
  // "nextSibling"): text, or an element in the line.
  function besideWords(node, side) {
    let next = node[side];
    while (next && next.nodeType !== Node.ELEMENT_NODE && !(next.nodeType === Node.TEXT_NODE &&
      /\S/.test(next.data))) next = next[side];
    if (!next || tagOf(next) === "br") return false; // a line break ends the line
    return next.nodeType === Node.TEXT_NODE ||
      getComputedStyle(next).display.startsWith("inline");
  }

  // Whether a text with words is `el`'s sibling, before or after it.
  const besideText = (el) => [el.previousSibling, el.nextSibling].some((node) =>
    node && node.nodeType === Node.TEXT_NODE && /\S/.test(node.data));

  // Whether `el` touches a sibling in the source, with no white space between.
  const touching = (el) =>
    (el.previousSibling && !/\s$/.test(el.previousSibling.data ?? "x")) ||
    (el.nextSibling && !/^\s/.test(el.nextSibling.data ?? "x"));

  // The siblings around `el` that touch one another in the source, all in the line: `nodes`,
  // and for each, whether its text is drawn apart from the text before it in the run
  // (`apart`, see drawnApart). innerText runs their texts together.
  function runAround(el) {
    const inLine = (node) => node.nodeType === Node.TEXT_NODE ||
      (node.nodeType === Node.ELEMENT_NODE && !closedSelect(node) && tagOf(node) !== "br" &&
        getComputedStyle(node).display.startsWith("inline"));
    const touch = (a, b) =>
      !(a.nodeType === Node.TEXT_NODE && !/\S$/.test(a.data)) &&
      !(b.nodeType === Node.TEXT_NODE && !/^\S/.test(b.data)) && inLine(a) && inLine(b);
    let first = el;
    while (first.previousSibling && touch(first.previousSibling, first)) first = first.previousSibling;
    const nodes = [];
    for (let node = first; node; node = node.nextSibling) {
      nodes.push(node);
      if (!(node.nextSibling && touch(node, node.nextSibling))) break;
    }
    let before = null;
    const apart = nodes.map((node) => {
      if (!textEdge(node, false)) return false;
      const set = before !== null && drawnApart(before, node);
      before = node;
      return set;
    });
    // A number set raised after a word or a number (cents, an exponent, a footnote's mark)
    // reads after a caret: innerText reads "$49<sup>99</sup>" as a price of 4999. Raised is
    // set as a superscript, or at the top in a smaller size than what it follows (a
    // price's cents, vertical-align: top).
    const sizeOf = (node) => parseFloat(getComputedStyle(
      node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement).fontSize);
    const raised = nodes.map((node, i) => {
      if (node.nodeType !== Node.ELEMENT_NODE || !/^\d{1,4}$/.test(clean(node.textContent))) return false;
      const align = getComputedStyle(node).verticalAlign;
      if (align === "super") return true;
      const up = align === "top" || align === "text-top" || parseFloat(align) > 0;
      return up && i > 0 && sizeOf(node) < sizeOf(nodes[i - 1]);
    });
    return { nodes, apart, raised };
  }

  // When `el` (styled `style`) shows only part of what it holds and a person cannot scroll it
  // (overflow hidden or clip): the elements in it wholly outside it, added to `cut` (its
  // children, and theirs within CLIP_DEPTH where a child lies partly outside: a carousel's
  // track holds the slides), and whether it shows nothing at all (a collapsed panel of
  // height 0, whose own text is hidden too).
  function clipping(el, style, cut) {
    const acrossFixed = unscrolled(style.overflowX);
    const alongFixed = unscrolled(style.overflowY) && !wheelList(el);
    if (!(acrossFixed || alongFixed) || el === doc.body || el === doc.documentElement) return false;
    if ((alongFixed && el.clientHeight === 0) || (acrossFixed && el.clientWidth === 0)) return true;
    // What it holds may fit its scrolling and still lie outside it: a track moved along to
    // its last slide puts the others left of the box, where no scrolling reaches.
    if (!el.firstElementChild) return false;
    // What it shows is inside its border: a slide past the border's inner edge is cut.
    const outer = el.getBoundingClientRect();
    const [left, top] = [outer.left + el.clientLeft, outer.top + el.clientTop];
    const box = { left, top, right: left + el.clientWidth, bottom: top + el.clientHeight };
    const look = (parent, depth) => {
      for (const child of parent.children) {
        let rect = child.getBoundingClientRect();
        if (!rect.width || !rect.height) {
          // A box of no area at the edge (a map's holder of controls placed against the map)
          // is no sign of where what it holds is drawn: each of them says for itself.
          if (depth < CLIP_DEPTH && (rect.width || rect.height)) look(child, depth + 1);
          continue;
        }
        rect = withOverflow(child, rect);
        const { across, along } = outside(rect, box);
        if ((acrossFixed && across) || (alongFixed && along)) {
          cut.add(child);
        } else if (depth < CLIP_DEPTH && (rect.left < box.left || rect.right > box.right ||
            rect.top < box.top || rect.bottom > box.bottom)) {
          look(child, depth + 1);
        }
      }
    };
    look(el, 1);
    return false;
  }
  const CLIP_DEPTH = 3;

  // `el`'s box (`rect`) with what it lets overflow it: a carousel's track is as wide as one
  // slide, and the slide on show is drawn past its end (the track moved along by a transform).
  function withOverflow(el, rect) {
    const { overflowX, overflowY } = getComputedStyle(el);
    const wide = overflowX === "visible" && el.scrollWidth > el.clientWidth;
    const tall = overflowY === "visible" && el.scrollHeight > el.clientHeight;
    if (!wide && !tall) return rect;
    const right = wide ? rect.left + el.scrollWidth * (rect.width / el.offsetWidth || 1) : rect.right;
    const bottom = tall ? rect.top + el.scrollHeight * (rect.height / el.offsetHeight || 1) : rect.bottom;
    return { left: rect.left, top: rect.top, right, bottom, width: right - rect.left, height: bottom - rect.top };
  }
  const KEEPS_INDENTS = /^(pre|pre-wrap|break-spaces)$/; // white-space a page keeps
  // Text whose spaces say something where they are kept: indents, or columns lined up.
  const SPACED = /(^|\n)[ \t]+\S|\S(\t| {2,})\S/;
  // Lines of code a code editor draws a box each, in a fixed-width font, one or more of them
  // indented in spaces no layout collapses (Monaco's, whose box lets white space collapse).
  const MONOSPACE = /mono|courier|consolas|menlo|monaco/i;
  const drawnCode = (el, style) => el.childElementCount > 1 && style.display === "block" &&
    MONOSPACE.test(style.fontFamily) && [...el.children].some((line) => /^\u00a0\u00a0/.test(line.textContent));

  // A data table's row (its table has headers) read a line, its cells apart, where innerText
  // would not: an empty cell beside one that is not ("Ann", an empty cell and "Oslo" read
  // "Ann Oslo", and "Oslo" moves to the column before; an empty cell reads as EMPTY_CELL), or
  // cells a line each, their text set in blocks (a calendar's days: "2 3 4 5 6 7 8", not a
  // column of numbers). A cell holding an element (an icon, a control) is not empty, and a
  // table laid out for the page's sake (spacer cells, no headers) reads as before.
  const EMPTY_CELL = "\u2014";
  function cellsApart(row) {
    const cells = [...row.children].filter((cell) => /^(td|th)$/.test(tagOf(cell)) &&
      (!cell.checkVisibility || cell.checkVisibility()));
    if (cells.length < 2 || !row.closest("table")?.querySelector("th, thead")) return null;
    const blanks = cells.filter(emptyCell).length;
    if (blanks && blanks < cells.length) return cells;
    const said = cells.map((cell) => tidy(cell.innerText));
    const lined = !blanks && !said.some((text) => text.includes("\n")) &&
      tidy(row.innerText).includes("\n");
    return lined ? cells : null;
  }
  // The numbers an ordered list draws before its items ("1.", "c.", "iv."), which innerText
  // leaves out: "the third step" is found by them. Each item with its marker; null for a list
  // drawn without them (a menu styled as a plain list).
  function markers(list) {
    const items = [...list.children].filter((item) => {
      const style = getComputedStyle(item);
      return style.display === "list-item" && style.listStyleType !== "none";
    });
    if (!items.length) return null;
    const step = list.reversed ? -1 : 1;
    let number = list.hasAttribute("start") ? list.start : list.reversed ? items.length : 1;
    return items.map((item) => {
      if (item.hasAttribute("value")) number = item.value;
      const marker = `${counted(number, getComputedStyle(item).listStyleType)}.`;
      number += step;
      return { item, marker };
    });
  }
  function counted(number, type) {
    if (number > 0 && /^(lower|upper)-(alpha|latin)$/.test(type)) {
      let letters = "";
      for (let n = number; n > 0; n = Math.floor((n - 1) / 26)) {
        letters = String.fromCharCode(97 + ((n - 1) % 26)) + letters;
      }
      return type.startsWith("upper") ? letters.toUpperCase() : letters;
    }
    if (number > 0 && number < 4000 && /^(lower|upper)-roman$/.test(type)) {
      let roman = "";
      let n = number;
      for (const [value, digits] of ROMAN) for (; n >= value; n -= value) roman += digits;
      return type.startsWith("upper") ? roman.toUpperCase() : roman;
    }
    return String(number);
  }
  const ROMAN = [[1000, "m"], [900, "cm"], [500, "d"], [400, "cd"], [100, "c"], [90, "xc"],
    [50, "l"], [40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"]];
  const emptyCell = (cell) => !clean(cell.textContent) && !cell.querySelector(":not(br)");
  const ROW = /^(inline-)?(flex|grid)$/;
  // Boxes floated side by side, as a page laid out before flex boxes sets a row of them; or
  // words beside a box floated to one side of their line (a row's price or date set to its
  // right), which innerText reads on a line of its own, before the words it is written first.
  const floatsAcross = (el, style) => /^(block|list-item)$/.test(style.display) && el.childElementCount > 0 && (
    (el.childElementCount > 1 &&
      [el.firstElementChild, el.lastElementChild].every((item) => getComputedStyle(item).float !== "none")) ||
    (el.childElementCount <= FLOATS_BESIDE_MAX &&
      [...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && /\S/.test(node.data)) &&
      [...el.children].some((item) => getComputedStyle(item).float !== "none")));
  const FLOATS_BESIDE_MAX = 8;

  // The items of the flex or grid box `el` (styled `style`) in the rows a person reads, when
  // some row holds more than one: innerText reads each item on a line of its own (a navbar, a
  // label and its value, a grid's cells), a person a row a line. `nodes`: the items drawn, in
  // the document's order (innerText's); `rows`: each row's, in the order they are drawn.
  // Null for a column, or rows not laid out down the page in the document's order.
  function rowsOf(el, style) {
    if (style.display.endsWith("flex") && style.flexDirection.startsWith("column")) return null;
    const nodes = [];
    const rows = [];
    let row = null;
    let left = -Infinity; // an item out of the flow (placed by itself) reads after the one before
    let loose = []; // such items before the first row
    for (const node of el.childNodes) {
      let rect = null;
      if (node.nodeType === Node.ELEMENT_NODE) {
        const { display, position } = getComputedStyle(node);
        if (display === "none") continue;
        if (position !== "absolute" && position !== "fixed") rect = node.getBoundingClientRect();
      } else if (node.nodeType === Node.TEXT_NODE && /\S/.test(node.data)) {
        const range = doc.createRange();
        range.selectNodeContents(node);
        rect = range.getBoundingClientRect();
      } else {
        continue;
      }
      if (rect && !rect.width && !rect.height) continue;
      nodes.push(node);
      if (!rect) {
        (row ? row.items : loose).push({ node, left });
        continue;
      }
      if (!row || rect.top >= row.bottom || rect.bottom <= row.top) {
        if (row && rect.bottom <= row.top) return null; // above the row before
        rows.push((row = { top: rect.top, bottom: rect.bottom, items: loose }));
        loose = [];
      }
      left = style.direction === "rtl" ? -rect.right : rect.left;
      row.items.push({ node, left, rect });
    }
    if (!rows.some((one) => one.items.length > 1)) return null;
    if (loose.length) rows[rows.length - 1].items.push(...loose);
    const drawn = rows.map((one) => one.items.sort((a, b) => a.left - b.left).map((item) => item.node));
    return { nodes, rows: drawn, board: isBoard(rows) };
  }

  // Rows of boxes of one size, as many a row (the last may hold fewer), some empty and some
  // not: a game's squares, a month's days drawn in boxes. innerText reads nothing for an
  // empty one, and which square holds which mark is lost ("X O" for "X, empty, O"); each
  // empty box reads as EMPTY_CELL.
  function isBoard(rows) {
    const across = rows[0].items.length;
    if (rows.length < 2 || across < 2) return false;
    if (rows.some((row, i) => row.items.length !== across && (i < rows.length - 1 || row.items.length > across))) {
      return false;
    }
    const boxes = rows.flatMap((row) => row.items);
    const [{ rect: first }] = boxes;
    if (!first || boxes.some(({ node, rect }) => node.nodeType !== Node.ELEMENT_NODE || !rect ||
        Math.abs(rect.width - first.width) > 1 || Math.abs(rect.height - first.height) > 1)) {
      return false;
    }
    const empty = boxes.filter(({ node }) => emptyCell(node)).length;
    return empty > 0 && empty < boxes.length;
  }

  // A run of rows (rowsOf) as innerText reads it (`together`: an item a line) and as a
  // person does (`seen`: a row a line, its items apart where they are drawn apart, each read
  // with its own runs); null when an item holds lines of its own (a card).
  function readRows(run, layout) {
    const read = new Map(run.nodes.map((node) => [node, heardOf(node).trim()]));
    const together = run.nodes.map((node) => read.get(node)).filter(Boolean).join("\n");
    const lines = [];
    for (const row of run.rows) {
      let line = "";
      let before = null;
      for (const node of row) {
        const said = run.board && emptyCell(node) ? EMPTY_CELL : node.nodeType === Node.TEXT_NODE
          ? read.get(node) : runsApart(node, layout, read.get(node));
        if (!said) continue;
        if (said.includes("\n")) return null;
        if (line && (run.board || drawnApart(before, node)) && !attached(line, said)) line += " ";
        line += said;
        before = node;
      }
      if (line) lines.push(line);
    }
    return { together, seen: lines.join("\n") };
  }

  // Words a style sheet draws before or after elements under `root` (`::after { content:
  // "NEW" }`, a required field's " *", a count's attr(data-count)), which innerText leaves
  // out and a person reads: each element's `{before, after}`, where it has any.
  // Found through the page's own style rules that draw text so (read once for each state of
  // its sheets), not by asking every element for its pseudo-elements' style. Counters
  // (`counter()`, which the style the browser tells does not work out), glyphs of icon fonts
  // and signs alone (a breadcrumb's "/") are not words; sheets of another origin cannot be
  // read, and are not.
  function wordsDrawnBeside(root) {
    const found = new Map();
    const selector = drawingSelector();
    if (!selector) return found;
    let drawn;
    try {
      drawn = root.querySelectorAll(selector);
    } catch {
      return found;
    }
    if (drawn.length > WORDS_DRAWN_MAX) return found;
    for (const el of drawn) {
      const [before, after] = ["::before", "::after"].map((pseudo) => {
        const style = getComputedStyle(el, pseudo);
        return style.display === "none" || style.visibility === "hidden" ? "" : drawnWords(style.content);
      });
      if (before || after) found.set(el, { before, after });
    }
    return found;
  }
  const DRAWS_BESIDE = /::?(before|after)\b/;
  function drawingSelector() {
    const state = sheetsLook(doc).join("\u0000");
    if (store.drawing?.state === state) return store.drawing.selector;
    const parts = new Set();
    for (const rule of styleRules()) {
      const content = rule.style && rule.style.content;
      if (!content || !drawsWords(content)) continue;
      for (const part of rule.selectorText.split(",")) {
        if (!DRAWS_BESIDE.test(part)) continue;
        const bare = part.replace(new RegExp(DRAWS_BESIDE.source, "g"), "").trim() || "*";
        try {
          doc.createDocumentFragment().querySelector(bare); // a part alone that is no selector
          parts.add(bare);
        } catch {}
      }
    }
    // Rules of many kinds drawing words (a page's own icon font named in words): matched
    // against every element of every snapshot, they would cost more than the words tell.
    store.drawing = { state, selector: parts.size <= DRAWING_RULES_MAX ? [...parts].join(",") : "" };
    return store.drawing.selector;
  }
  // The words a `content` value draws, or "": its strings, where they hold a letter, a digit
  // or a required field's asterisk (not an icon font's glyph, a sign alone); none where it
  // counts (`counter()`, which the style the browser tells does not work out).
  function drawnWords(content) {
    if (/counter\(/.test(content)) return "";
    const strings = [...content.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)]
      .map((found) => (found[1] ?? found[2])
        .replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_, hex) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)))
        .replace(/\\(.)/g, "$1"));
    // White space kept at its edges, as it sets the words apart from the element's own.
    const words = strings.join("").replace(/[\ue000-\uf8ff]/g, "").replace(UNDRAWN_CHARS, "").replace(/\s+/g, " ");
    return /[\p{L}\p{N}*]/u.test(words) ? words : "";
  }
  // Whether a rule's `content` may draw words: an attribute's value, or strings of words.
  const drawsWords = (content) => /attr\(/.test(content) ? !/counter\(/.test(content) : drawnWords(content) !== "";
  const WORDS_DRAWN_MAX = 100; // elements: a page drawing more words so is read without them
  const DRAWING_RULES_MAX = 40;

  // Where innerText does not read `root` as a person does, in one pass over its elements:
  // `unseen`, text laid out where no one sees it: under opacity 0 (a tooltip or a menu faded
  // out), moved by a transform wholly off the page, where no scrolling reaches (a closed
  // drawer), or scaled to nothing (a popup shrunk away), or wholly outside a box that shows
  // part of what it holds and that a person cannot scroll (see clippedAway: a collapsed section, the end of a card cut short);
  // innerText keeps it. The topmost such elements, in document order.
  // `runs`, for each element, the runs in its text that innerText reads otherwise than a
  // person, in document order: siblings that touch in the source but are drawn apart
  // (runAround: two buttons with nothing between them, a label set off by a margin), the
  // items of a flex or grid box read a row a line (rowsOf), closed selects, text whose
  // spaces are kept and say something (SPACED: code's indents, columns), and text struck out (a price before a sale, a task done),
  // and words a style sheet draws beside an element's own (wordsDrawnBeside).
  function textLayout(root) {
    // Scaled to nothing, not only moved (a map's pane of no size, its markers and popups
    // drawn out of it where a translation puts them).
    const shrunk = (transform) => {
      if (transform === "none") return false;
      try {
        const { a, b, c, d } = new DOMMatrixReadOnly(transform);
        return Math.abs(a * d - b * c) < 1e-3;
      } catch {
        return true;
      }
    };
    const found = [];
    const runs = new Map();
    let lastRun = null;
    let code = null; // the last element read with its indents
    let struck = null; // the last element read as struck out
    const inside = (run, holder) => { // the run is in `holder`'s text, and its ancestors'
      for (let up = holder; up; up = up === root ? null : up.parentNode) {
        if (!runs.has(up)) runs.set(up, []);
        runs.get(up).push(run);
      }
    };
    const generated = wordsDrawnBeside(root);
    const findRuns = (el, style) => {
      if (code?.contains(el)) return; // read as it is (runsApart)
      if (style.textDecorationLine.includes("line-through") && !struck?.contains(el) &&
          clean(el.textContent)) {
        inside({ nodes: [(struck = el)], struck: true }, el);
      }
      const drawn = generated.get(el);
      if (drawn && clean(el.innerText)) inside({ nodes: [el], drawn }, el);
      let laid;
      let cells;
      let numbered;
      if (closedSelect(el)) {
        inside({ nodes: [el], select: true, inline: el }, el);
      } else if (style.display === "table-row" && (cells = cellsApart(el))) {
        inside({ nodes: [el], cells }, el);
      } else if (tagOf(el) === "ol" && (numbered = markers(el))) {
        inside({ nodes: [el], numbered }, el);
      } else if (style.flexDirection === "column-reverse" && style.display.endsWith("flex") &&
          el.children.length > 1) {
        inside({ nodes: [el], upward: true }, el); // a chat's messages, newest put first
      } else if ((KEEPS_INDENTS.test(style.whiteSpace) && SPACED.test(el.textContent)) || drawnCode(el, style)) {
        inside({ nodes: [(code = el)], code: true }, el); // tidy would lose its indents
      } else if ((ROW.test(style.display) || floatsAcross(el, style)) && el.childNodes.length > 1 &&
          (laid = rowsOf(el, style))) {
        const inline = style.display.startsWith("inline") && el; // in its sentence's line
        inside({ nodes: laid.nodes, rows: laid.rows, board: laid.board, inline }, el);
      } else if (el !== root && style.display.startsWith("inline") &&
          !lastRun?.nodes.includes(el) && touching(el)) {
        lastRun = runAround(el);
        if ([...lastRun.apart, ...lastRun.raised].some(Boolean)) inside(lastRun, el.parentNode);
      }
    };
    if (root.nodeType === Node.ELEMENT_NODE) findRuns(root, getComputedStyle(root));
    const cut = new Set(); // what a clipping box hides (clipping), found below it in document order
    const width = Math.max(doc.documentElement.scrollWidth, innerWidth);
    const height = Math.max(doc.documentElement.scrollHeight, innerHeight);
    const shadowed = root.shadowRoot ? [root] : [];
    const sealed = []; // custom elements with nothing open to read: see sealedComponents
    const reordered = new Map(); // a grid's rows in the order drawn: see rowsByPlace
    const scrollers = []; // boxes styled to scroll, or to hide what a wheel may scroll: see scrollBoxes
    const pictured = new Set(); // boxes drawn with their text indented away
    const visit = (el) => {
      if (el.shadowRoot) shadowed.push(el);
      if (found.length && found[found.length - 1].contains(el)) return;
      if (cut.has(el)) {
        found.push(el);
        return;
      }
      if (!el.firstChild) { // no text in it; a field or a box drawn between two texts (a
        // legend's swatch, an icon) may set them apart
        if (!el.shadowRoot && tagOf(el).includes("-")) sealed.push(el);
        else if (touching(el) && (tagOf(el) === "input" || besideText(el))) {
          findRuns(el, getComputedStyle(el));
        }
        return;
      }
      const style = getComputedStyle(el);
      if (style.display === "none" || style.display === "contents") return;
      if (style.overflowY !== "visible" && style.overflowY !== "clip") scrollers.push(el);
      const placedRows = rowsByPlace(el);
      if (placedRows) reordered.set(el, placedRows);
      // A box whose words are indented away to show its picture instead (a logo's link) is
      // drawn all the same: its text is not read, but it is listed.
      if (indentedAway(el, style) &&
          (!TRANSPARENT.test(style.backgroundColor) || style.backgroundImage !== "none")) {
        pictured.add(el);
      }
      if (clipping(el, style, cut) || style.opacity === "0" || clippedWhole(style) || unseenText(el, style) ||
          (style.position === "absolute" && forReadersAlone(el, el.getBoundingClientRect(), style))) {
        found.push(el);
      } else if (style.transform !== "none" || style.position !== "static") {
        // Moved off the page (`left: -9999px`, a transform), or scaled to nothing; not a box
        // of no size of its own that what it holds is drawn out of (select2's dropdown, in
        // an absolute box around an absolute one).
        const rect = el.getBoundingClientRect();
        const { right, bottom } = withOverflow(el, rect);
        const nothing = !rect.width && !rect.height &&
          (shrunk(style.transform) || !(el.scrollWidth || el.scrollHeight));
        if (right + scrollX <= 0 || bottom + scrollY <= 0 ||
            rect.left + scrollX >= width || rect.top + scrollY >= height || nothing) found.push(el);
      }
      findRuns(el, style);
    };
    for (const el of root.querySelectorAll("*")) visit(el);
    const holders = textHolders(shadowed, root);
    // The shadow trees read as drawn (see chunks) have their runs too: a component's select.
    for (const host of holders) {
      for (const el of host.shadowRoot ? host.shadowRoot.querySelectorAll("*") : []) visit(el);
    }
    return {
      unseen: found.filter((el) => clean(el.textContent)), runs, holders, sealed, scrollers, reordered, pictured,
    };
  }

  // The text to show: all of it when it fits, else textMax characters starting at the top of
  // the viewport (or ending at the bottom of the page), and how much is left above and below.
  // Read as `layout` (textLayout) says where it has to be.
  function readText(root, textMax, layout) {
    if (!(root instanceof HTMLElement)) {
      const all = tidy(root.textContent);
      return { text: upTo(all, textMax), total: all.length, above: 0 };
    }
    const pieces = layout.unseen.length || layout.holders.size || layout.reordered.size
      ? chunks(root, [], false, layout) : null;
    let all = pieces ? joined(pieces, layout) : tidy(root.innerText);
    // Runs set apart only add to the text: one too long already is read around the viewport.
    if (!pieces && all.length <= textMax) all = runsApart(root, layout, all);
    if (all.length <= textMax) return { text: all, total: all.length, above: 0 };
    return textAround(pieces || chunks(root, [], false, layout), textMax, layout);
  }

  // textMax characters of the pieces, starting where the most of the text in view fits (at
  // the top of the viewport, on a page that scrolls as a whole), or ending at the bottom of
  // the page; and how many are left above.
  function textAround(pieces, textMax, layout) {
    const total = pieces.reduce((sum, piece) => sum + piece.text.length + 1, -1);
    let first = mostInView(pieces, textMax);
    if (first < 0) first = pieces.findIndex((piece) => piece.bottom > 0 && !piece.pinned);
    if (first < 0) first = pieces.length - 1;
    let last = first;
    let size = pieces[first].text.length;
    while (last + 1 < pieces.length && size + 1 + pieces[last + 1].text.length <= textMax) {
      size += 1 + pieces[++last].text.length;
    }
    // Text before it in the page, to fill the room; not text the page draws below the view
    // (the rest of a long sidebar written before the article in view).
    const below = (piece) => !piece.pinned && piece.top >= innerHeight;
    while (first > 0 && size + 1 + pieces[first - 1].text.length <= textMax && !below(pieces[first - 1])) {
      size += 1 + pieces[--first].text.length;
    }
    const above = pieces.slice(0, first).reduce((sum, piece) => sum + piece.text.length + 1, 0);
    const text = joined(pieces.slice(first, last + 1), layout);
    return { text: wordsUpTo(text, textMax), total, above };
  }

  // The first piece in view from which textMax characters hold the most of the text in view;
  // -1 when none is in view. A box that scrolls by itself puts the text it has scrolled past
  // between what the page shows above it and what it shows (a chat's log, a mail's list):
  // starting at the first piece in view, that part would be all the text there is room for.
  // A piece taller than the view (a sidebar of hundreds of links beside the article) counts
  // for the share of its text the view shows, not for all of it.
  function mostInView(pieces, textMax) {
    const shown = pieces.map((piece) => {
      if (piece.pinned || piece.bottom <= 0 || piece.top >= innerHeight) return 0;
      const tall = piece.bottom - piece.top;
      const seen = Math.min(piece.bottom, innerHeight) - Math.max(piece.top, 0);
      return tall > innerHeight ? Math.ceil(piece.text.length * seen / tall) : piece.text.length;
    });
    let [best, most, end, size, held] = [-1, 0, 0, -1, 0];
    for (let start = 0; start < pieces.length; start++) {
      if (end <= start) [end, size, held] = [start, -1, 0];
      // The pieces from `start` that fit, one at least (cut at the end if it alone is longer).
      while (end < pieces.length && (end === start || size + 1 + pieces[end].text.length <= textMax)) {
        size += 1 + pieces[end].text.length;
        held += shown[end++];
      }
      if (shown[start] && held > most) [best, most] = [start, held];
      size -= 1 + pieces[start].text.length;
      held -= shown[start];
    }
    return best;
  }

  // At most `max` characters of `text`, ending at a word's end where one is near.
  function wordsUpTo(text, max) {
    if (text.length <= max) return text;
    const end = Math.max(text.lastIndexOf(" ", max), text.lastIndexOf("\n", max));
    return upTo(text, end > max - WORD_MAX ? end : max);
  }
  const WORD_MAX = 40; // a longer "word" (an address, a hash) is cut where it must be

  function frameBoxes({ elements, within }) {
    const found = within ? resolve(within) : null;
    const scope = found && found.list && found.list.length === 1 ? found.list[0] : null;
    return elements.map((el) => {
      if (within && !(scope && reaches(el, scope))) return null;
      const rect = el && rendered(el);
      if (!rect) return null;
      const box = contentBox(el);
      return { selector: selectorFor(el), x: box.x, y: box.y, width: rect.width, height: rect.height, inViewport: inViewport(rect) };
    });
  }

  // What an answer listed, remembered by selector for the next action (see `changed`);
  // `seen`, what is remembered of them, when worked out already (a read kept at the load).
  function remember(items, whole, seen = remembrance(items)) {
    if (whole) store.remembered = new Map();
    for (const [selector, entry] of seen) store.remembered.set(selector, entry);
  }
  const remembrance = (items) =>
    items.map((item) => [item.out.selector, { ref: new WeakRef(item.el), print: fingerprint(item.el) }]);

  // What tells one element from its look-alikes once the page has drawn it again: its name,
  // and the words around it (the row a checkbox or an icon button sits in).
  function fingerprint(el) {
    return printedName(el) + "\u0000" + aroundText(el) + "\u0000" + itemKey(el) + "\u0000" + rowKey(el);
  }

  // The words of the first cell of the table row `el` is in that has words of its own (a
  // person's name, an order's number): a table sorted or filtered draws another row's
  // Delete where this one's was, alike in name and in the cell around it.
  function rowKey(el) {
    const row = el.closest("tr, [role=row]");
    if (!row) return "";
    for (const cell of row.querySelectorAll("td, th, [role=cell], [role=gridcell], [role=rowheader]")) {
      if (cell.contains(el) || cell.querySelector(FIELDS)) continue;
      const text = upTo(textOf(cell), ROW_KEY_MAX);
      if (text) return text;
    }
    return "";
  }
  const ROW_KEY_MAX = 60;

  // Which item of a list the row around `el` stands for, where the page says so (a virtual
  // list's index or key): a row drawn again for another item says another.
  const ITEM_KEY = /^(?:data-(?:idx|index|item-?index|row-?index|row-?key|row-?id|key|id)|aria-(?:rowindex|posinset)|row-index)$/;
  function itemKey(el) {
    let up = el.parentElement;
    for (let depth = 0; up && up !== doc.body && depth < OWNER_DEPTH; depth++, up = up.parentElement) {
      for (const { name, value } of up.attributes) if (ITEM_KEY.test(name)) return `${name}=${value}`;
    }
    return "";
  }
  // Its name, or the words a person reads as its name (a row's first cell, a word before it).
  const printedName = (el) => upTo(clean(nameOf(el) || rowLabel(el) || looseLabel(el)), LABEL_MAX);

  // The words of the nearest small box around `el` that has any: a row's, a card's. None
  // where that box is a long list's (more than AROUND_CHILDREN children).
  const AROUND_CHILDREN = 12;
  const boxWords = new Map(); // read once a question: the elements of a row share their boxes
  function aroundText(el) {
    let up = el.parentElement;
    for (let depth = 0; up && up !== doc.body && depth < OWNER_DEPTH; depth++, up = up.parentElement) {
      if (up.childElementCount > AROUND_CHILDREN) return "";
      if (!boxWords.has(up)) boxWords.set(up, upTo(clean(up.textContent), AROUND_MAX));
      if (boxWords.get(up)) return boxWords.get(up);
    }
    return "";
  }
  const AROUND_MAX = 200;

  function snapshot({ scope, textMax, elementsMax, atLoad }) {
    let root = doc.body || doc.documentElement;
    if (scope) {
      const found = resolve(scope);
      if (found.error || found.enterFrame) return found;
      if (found.list.length !== 1) return { error: "count", count: found.list.length };
      root = found.list[0];
    }
    const layout = root instanceof HTMLElement ? textLayout(root) : NO_LAYOUT;
    const read = readText(root, textMax, layout);
    const { unseen, pictured } = layout;
    const shown = inPlaceOrder(interactive(root).filter(({ el, face }) => !unseen.some((hidden) =>
      hidden.contains(face || el) && !(hidden === (face || el) && pictured.has(hidden)))), layout.reordered);
    let kept = shown;
    if (shown.length > elementsMax) {
      // What the agent can see, then the nearest above and below it, in reading order.
      const far = new Map(shown.map((item) => [item, fromView(item.rect)]));
      const chosen = new Set([...shown].sort((a, b) => far.get(a) - far.get(b)).slice(0, elementsMax));
      kept = shown.filter((item) => chosen.has(item));
    }
    const keptSet = new Set(kept);
    const left = shown.filter((item) => !keptSet.has(item));
    // Scoped to a part of the page, values are whole while they fit in textMax together.
    let room = scope ? textMax : 0;
    const elements = kept.map((item) => {
      const out = element(item, Math.max(VALUE_MAX, room));
      room -= out.value === undefined ? 0 : out.value.length;
      return { el: item.el, out };
    });
    inRows(elements);
    const main = scroller(true);
    const answer = {
      url: location.href,
      title: doc.title,
      ...position(main),
      text: read.text,
      textTotalChars: read.total,
      textAboveChars: read.above,
      elements: elements.map((item) => item.out),
      interactiveElementsOnPage: shown.length,
      elementsAbove: left.filter((item) => item.rect.bottom <= 0).length,
      elementsBelow: left.filter((item) => item.rect.bottom > 0).length,
      loading: doc.readyState !== "complete",
      sealed: sealedComponents(layout.sealed, unseen),
      drawn: drawings(root, shown),
      shapes: unlistedShapes(root, shown),
      pictures: namedPictures(root, shown),
      scrollBoxes: scrollBoxes(scope ? [root, ...layout.scrollers] : layout.scrollers, main),
    };
    // The read a document takes at its load is no one's to remember until it is asked for.
    if (atLoad) keepRead(answer, elements, { textMax, elementsMax }, [main, ...layout.scrollers]);
    else remembered(elements, !scope);
    return answer;
  }

  function remembered(elements, whole, seen) {
    remember(elements, whole, seen);
    store.read = true;
  }

  // A top document reads itself at its load only while it is calm (as `quiet` with `early`
  // would answer), its first snapshot not taken yet, no action under way, and with up to
  // READ_AT_LOAD_MAX elements: a read of that many takes about 45 ms on two busy cores, one
  // of a small page's 130, 7; what is asked meanwhile waits it out.
  const READ_AT_LOAD_MAX = 1000;

  function readAtLoad(request) {
    if (store.read || store.kept || store.timers || doc.getElementsByTagName("*").length > READ_AT_LOAD_MAX) {
      return null;
    }
    const afterLoad = store.afterLoad;
    if (afterLoad && !afterLoad.moved && doc.readyState === "complete" && !blank() && !waiting()) {
      asked = { listeners: [], handlers: [] };
      snapshot(request);
    }
    return null;
  }

  // The read a document takes of itself at its load (pagescript.at_document_start), kept for
  // its first snapshot: an agent reads a page as soon as it has opened it, and the read is
  // then under way or done before it is asked for, while the renderer would otherwise be
  // busy drawing the page's first frame. It stands for a read taken when asked while nothing
  // that read shows could have changed since: no element, text or attribute changed, no
  // resource or font loaded, no focus, key, pointer or toggle, nothing moving, the page
  // looking as it did (lookOf), and for KEPT_MS at most. Anything else drops it: the
  // snapshot reads anew.
  // The page's own read cannot see the handlers it added with addEventListener, nor tell
  // whether one set as a property since: the elements it asked of are asked again when it is
  // taken over (DevTools' listeners at hand).
  const KEPT_MS = 1000;
  const MOVES = ["scroll", "resize", "focusin", "focusout", "input", "change", "keydown",
    "pointerdown", "pointermove", "wheel", "toggle"];

  function keepRead(answer, elements, caps, scrollers) {
    // A document's observer sees nothing inside its shadow roots: each is watched too.
    const roots = [doc, ...shadowRoots(doc)];
    // What is moving as it is read may look otherwise by the time it is asked for, with
    // nothing to tell of it (an opacity fading in): not kept.
    if (running(roots)) return;
    const changes = new MutationObserver(() => drop());
    // What the snapshot that takes it over remembers of its elements, worked out now: while
    // nothing changes it holds, and the renderer has time now, not once the frame is drawn.
    const kept = { answer, elements, caps, scrollers, roots, changes, asked, changed: false,
      remembered: remembrance(elements), properties: asked.handlers.map(handlerProperty) };
    kept.looked = lookOf(kept);
    for (const root of roots) {
      changes.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
    }
    const loads = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.initiatorType !== "other")) drop();
    });
    loads.observe({ type: "resource" });
    // Passive: a wheel or pointer listener that is not would hold up the page's scrolling.
    for (const move of MOVES) window.addEventListener(move, drop, { capture: true, passive: true });
    if (doc.fonts) doc.fonts.addEventListener("loadingdone", drop);
    later(drop, KEPT_MS);
    function drop() {
      kept.changed = true;
      if (store.kept === kept) store.kept = null;
      changes.disconnect();
      loads.disconnect();
      for (const move of MOVES) window.removeEventListener(move, drop, true);
      if (doc.fonts) doc.fonts.removeEventListener("loadingdone", drop);
    }
    kept.drop = drop;
    store.kept = kept;
  }

  // What a read shows, said again as cheaply as the page can, for what changes with no
  // event or mutation to tell of it: the text as the page draws it (a style sheet changed
  // through script, a custom element's state, an animation that ended: the browser's own
  // innerText, no slower in a document's first read), each listed element's box, the
  // state of every control listed or not (a hidden box checked shows a panel; a value or
  // validity set by script), the address (history.replaceState), the viewport, the scrolls
  // (told at the next frame), the shadow roots and the custom elements not defined yet (a
  // component that draws itself later), each style sheet's rules, media and whether it is on
  // (a rule added through script shows a button of an icon alone, which changes no text),
  // the document made editable, and the animations in effect (one started and ended since,
  // which holds its end: a text faded out). Not told: a rule's declarations changed, a rule
  // added inside another, a constructed sheet's text replaced, a custom element's states.
  function lookOf({ elements, scrollers, roots }) {
    const box = (el) => { const r = el.getBoundingClientRect(); return `${r.x},${r.y},${r.width},${r.height}`; };
    const controls = roots.flatMap((root) => [...root.querySelectorAll("input,select,textarea,option")]);
    const control = (el) => [el.value, el.checked, el.indeterminate, el.selected, el.disabled,
      el.validity ? el.validity.valid : ""].join(",");
    return [location.href, innerWidth, innerHeight, scrollX, scrollY, doc.body ? doc.body.innerText : "",
      ...scrollers.flatMap((el) => [el.scrollTop, el.scrollLeft]), ...elements.map(({ el }) => box(el)),
      ...controls.map(control), shadowRoots(doc).length, doc.querySelectorAll(":not(:defined)").length,
      ...roots.flatMap(sheetsLook), doc.designMode,
      roots.reduce((count, root) => count + root.getAnimations().length, 0),
    ].join("\u0000");
  }
  const sheetsLook = (root) => [...root.styleSheets, ...(root.adoptedStyleSheets || [])].map((sheet) => {
    let rules = -1;
    try {
      rules = sheet.cssRules.length;
    } catch {} // another origin's sheet: its rules are not the page's to read
    return `${sheet.disabled ? "off" : "on"} ${rules} ${sheet.media.mediaText}`;
  });

  const running = (roots) =>
    roots.some((root) => root.getAnimations().some((animation) => animation.playState === "running"));

  // The read kept at the load, if it can stand for a snapshot asked with these limits; it
  // stays watched until `stillKept` says whether it still shows the page.
  function keptFor({ scope, textMax, elementsMax }) {
    const kept = store.kept;
    store.kept = null;
    if (!kept || kept.changed) return null;
    if (scope || textMax !== kept.caps.textMax || elementsMax !== kept.caps.elementsMax) {
      kept.drop();
      return null;
    }
    return kept;
  }

  function stillKept(kept) {
    const still = !kept.changed && kept.changes.takeRecords().length === 0 && !running(kept.roots) &&
      lookOf(kept) === kept.looked && !(listeners && kept.asked.listeners.some(listened)) &&
      kept.asked.handlers.every((el, i) => handlerProperty(el) === kept.properties[i]);
    kept.drop();
    return still;
  }

  // An element from an earlier snapshot that the selector no longer names: acting on what the
  // selector names now would act on something else.
  // An item of a list drawn again may be the same element showing another item (a list
  // filtered as typed keeps its first nodes): an item's name is what it is. Then where it
  // was listed as what (`{was, now}`).
  function changed(selector, el) {
    const seen = store.remembered.get(selector);
    if (!seen) return false;
    const before = seen.ref.deref();
    const [was, wasAround, wasKey, wasRow] = seen.print.split("\u0000");
    // A table's row that holds another now (sorted, filtered, a page of it turned).
    const otherRow = () => {
      const row = wasRow ? rowKey(el) : wasRow;
      return row !== wasRow && { was: cap(wasRow, 60), now: cap(row, 60), around: true };
    };
    if (before === el) {
      // An item drawn again as another (a list filtered in place), or a row's box whose
      // row now holds another (a table sorted in place).
      const now = printedName(el);
      const named = ITEM_ROLES.has(roleOf(el)) || (!nameOf(el) && rowLabel(el));
      if (named && now !== was) return { was: cap(was, 60), now: cap(now, 60) };
      const moved = otherRow();
      if (moved) return moved;
      // A row a long list draws again for another item as it scrolls (a virtual list): its
      // name and the words around it were both replaced, not added to or cut (a choice or a
      // message shown beside a field, a button that now reads "Unfollow"). Not a name of its
      // own words or value, which it changes itself (a slider's thumb that reads "5").
      const around = aroundText(el);
      const redrawn = { was: cap(wasAround, 60), now: cap(around, 60), around: true };
      if (wasKey && itemKey(el) !== wasKey) return redrawn; // the page says another item's
      const own = clean(el.textContent);
      if (MOVING_VALUE.has(roleOf(el)) || (own && now.includes(own))) return false;
      return replaced(was, now) && replaced(wasAround, around) ? redrawn : false;
    }
    if (before && before.isConnected) return true;
    return otherRow() || fingerprint(el) !== seen.print;
  }
  // The box of its own that scrolls `el`, if one does, not the page.
  function scrollBox(el) {
    let box = el.parentElement;
    while (box && !scrollsItself(box)) box = box.parentElement;
    return box && box !== doc.scrollingElement && box !== doc.documentElement && box !== doc.body ? box : null;
  }

  // The one element other than `el`, in the box that scrolls it, that shows what `print`
  // (fingerprint) tells: the item `el` showed before its list drew it again for another.
  function drawnAgain(el, print) {
    const alike = [...(scrollBox(el) || doc).getElementsByTagName(el.localName)]
      .filter((other) => other !== el && fingerprint(other) === print);
    return alike.length === 1 ? alike[0] : null;
  }
  const ITEM_ROLES = new Set(["option", "menuitem", "menuitemradio", "menuitemcheckbox", "treeitem"]);
  const MOVING_VALUE = new Set(["slider", "spinbutton", "progressbar", "scrollbar", "meter"]);
  const replaced = (was, now) => Boolean(was && now && !was.includes(now) && !now.includes(was));

  function describeCover(el) {
    const out = { selector: selectorFor(el), tag: tagOf(el) };
    const label = cap(nameOf(el), 60);
    if (label) out.label = label;
    return out;
  }

  // --- motion: what is still moving, and the wait after an action -------------------------

  // How long the wait after an action waits for what it set moving (a transition, an
  // animation, a panel stepped open by script, a dialog still empty), and how long a click
  // waits for its element to hold still.
  const MOTION_MS = 1000;
  const FRAMES_AWAITED = 3;
  const STILL_MS = 50;

  // The element's box once it held still for two frames and STILL_MS (within MOTION_MS),
  // else null: a slow glide moves less than a pixel from one frame to the next.
  async function still(el) {
    const until = performance.now() + MOTION_MS;
    // An animation of the element or of what holds it may jump (a steps() timing): it is
    // waited out, not sampled.
    const own = motions(-Infinity, around(el)).filter((animation) => {
      const moved = animation.effect && animation.effect.target;
      return moved && reaches(el, moved);
    });
    for (const animation of own) {
      const left = until - performance.now();
      if (left <= 0) return null;
      const ended = await Promise.race([
        animation.finished.then(() => true, () => true),
        new Promise((resolve) => later(() => resolve(false), left)),
      ]);
      if (!ended) return null;
    }
    let before = el.getBoundingClientRect();
    let since = performance.now();
    let frames = 0;
    while (performance.now() < until) {
      await frame();
      const now = el.getBoundingClientRect();
      if (["x", "y", "width", "height"].some((side) => now[side] !== before[side])) {
        [before, since, frames] = [now, performance.now(), 0];
      } else if (++frames >= 2 && performance.now() - since >= STILL_MS) {
        return rendered(el);
      }
    }
    return null;
  }

  const TIMER_MAX = 1000;
  const TIMER_WATCH_MS = 5000;
  const STEP_INTERVAL_MAX = 50; // ms: an interval this short steps an animation, a longer one polls
  const LEAVE_MS = 1000;

  // Timers of up to TIMER_MAX ms that the page sets from now on (a toast shown 300 ms after a
  // click, a request sent after a debounce): the wait after an action waits for them too. A
  // handler that schedules itself again as it runs is a loop (a clock, a poll), and is let go.
  function watchTimers() {
    unwatchTimers();
    const original = {
      set: window.setTimeout, clear: window.clearTimeout,
      frame: window.requestAnimationFrame, cancelFrame: window.cancelAnimationFrame,
      every: window.setInterval, clearEvery: window.clearInterval,
    };
    const pending = new Map();
    const seen = new Map(); // each timer's handler, and the delay it was last set for
    const running = new Set(); // the handlers of those running now
    // Animation frames the page asks for from now on: script that animates (jQuery's
    // animations) steps in them, and its first steps may change nothing yet.
    const frames = { pending: new Set(), ran: 0, lastRan: 0 };
    window.requestAnimationFrame = function (callback) {
      if (typeof callback !== "function") return original.frame.call(window, callback);
      const id = original.frame.call(window, (time) => {
        frames.pending.delete(id);
        frames.ran++;
        frames.lastRan = performance.now();
        callback(time);
      });
      frames.pending.add(id);
      return id;
    };
    window.cancelAnimationFrame = function (id) {
      frames.pending.delete(id);
      return original.cancelFrame.call(window, id);
    };
    // A short interval steps as frames do (jQuery before 3 animates on a 13 ms one): its
    // ticks count as frames the page asked for, until it is cleared.
    window.setInterval = function (handler, delay, ...rest) {
      if (typeof handler !== "function" || (Number(delay) || 0) > STEP_INTERVAL_MAX) {
        return original.every.call(window, handler, delay, ...rest);
      }
      const id = original.every.call(window, (...args) => {
        frames.ran++;
        frames.lastRan = performance.now();
        handler(...args);
      }, delay, ...rest);
      frames.pending.add(`every ${id}`);
      return id;
    };
    window.clearInterval = function (id) {
      frames.pending.delete(`every ${id}`);
      return original.clearEvery.call(window, id);
    };
    const until = performance.now() + TIMER_WATCH_MS;
    window.setTimeout = function (handler, delay, ...rest) {
      const ms = Number(delay) || 0;
      if (typeof handler !== "function" || ms > TIMER_MAX || performance.now() > until) {
        return original.set.call(window, handler, delay, ...rest);
      }
      // A handler that sets itself again as it runs is a loop (a clock, a poll): not waited
      // for, unless for less than before, as a debounce waits out what is left of its delay.
      // Set again from elsewhere (each key typed puts off a search) it is waited for.
      if (running.has(handler) && seen.has(handler) && ms >= seen.get(handler)) {
        for (const [id, known] of pending) if (known === handler) pending.delete(id);
        return original.set.call(window, handler, delay, ...rest);
      }
      seen.set(handler, ms);
      const id = original.set.call(window, (...args) => {
        pending.delete(id);
        running.add(handler);
        try {
          handler(...args);
        } finally {
          running.delete(handler);
        }
      }, delay, ...rest);
      pending.set(id, handler);
      return id;
    };
    window.clearTimeout = function (id) {
      pending.delete(id);
      return original.clear.call(window, id);
    };
    // A navigation the action starts (a link, a form submitted by Enter) begins in a task of
    // its own, maybe after the first frame: until the new document replaces this one, this
    // one is not quiet (for LEAVE_MS at most; the provider then sees its request in flight).
    const leaving = { at: 0 };
    const navigated = (event) => {
      if (!event.destination.sameDocument) leaving.at = performance.now();
    };
    if (window.navigation) navigation.addEventListener("navigate", navigated);
    // A form the browser's own check stops (a required field left empty, an address without
    // an @) is not sent: the browser fires `invalid` at each field that failed, and shows
    // the first one's message. A field in a form's component's shadow tree (Shoelace's
    // input) is told only in that tree: `invalid` stays in it.
    const refused = [];
    const invalid = (event) => { if (event.target instanceof Element) refused.push(event.target); };
    const checked = [doc, ...[...doc.querySelectorAll("form *")].map((el) => el.shadowRoot).filter(Boolean)];
    for (const root of checked) root.addEventListener("invalid", invalid, true);
    store.refused = refused;
    store.saidBefore = new Set(sayings().map(({ text }) => text));
    // Words the page shows for a moment only (a toast gone within a second) are gone by the
    // answer: each message is looked at in the frame after a change, and its last words kept.
    const glimpsed = (store.glimpsed = new Map());
    let looking = false;
    const glimpse = () => {
      if (!looking) return;
      looking = false;
      for (const { el, text } of sayings()) {
        if (!store.saidBefore.has(text) && (glimpsed.has(el) || glimpsed.size < GLIMPSED_MAX)) {
          glimpsed.set(el, text);
        }
      }
    };
    const changes = new MutationObserver(() => {
      if (looking) return;
      looking = true;
      original.frame.call(window, glimpse);
      original.set.call(window, glimpse, GLIMPSE_MS); // a tab not shown draws no frames
    });
    changes.observe(doc, {
      subtree: true, childList: true, characterData: true, attributeFilter: ["class", "style", "hidden"],
    });
    store.timers = {
      original, pending, frames, leaving, navigated, invalid, checked, changes, since: performance.now(),
    };
  }

  // The browser's own setTimeout, whether or not the page's timers are being watched (as it
  // loads, see pagescript.py's watch, or after an action): this script's own waits are not
  // the page's timers, and must not count among them.
  function later(handler, ms) {
    const set = store.ownTimeout || (store.timers ? store.timers.original.set : window.setTimeout);
    return set.call(window, handler, ms);
  }

  function unwatchTimers() {
    const timers = store.timers;
    if (!timers) return;
    window.setTimeout = timers.original.set;
    window.clearTimeout = timers.original.clear;
    window.requestAnimationFrame = timers.original.frame;
    window.cancelAnimationFrame = timers.original.cancelFrame;
    window.setInterval = timers.original.every;
    window.clearInterval = timers.original.clearEvery;
    if (window.navigation) navigation.removeEventListener("navigate", timers.navigated);
    for (const root of timers.checked) root.removeEventListener("invalid", timers.invalid, true);
    timers.changes.disconnect();
    store.timers = null;
  }

  // A page with nothing on it yet (a shell its script has still to fill) is not done. The
  // elements are looked for first: innerText lays the page out, which a page that has any
  // (most) is spared. A web component draws its content in its shadow tree, which neither
  // reads. (pagescript.at_document_start judges a page at its load the same way.)
  function blank() {
    return !doc.body ||
      (!doc.body.querySelector(`${INTERACTIVE},img,svg,canvas,video,iframe`) &&
        !clean(doc.body.innerText) && ![...doc.body.querySelectorAll("*")].some((el) => el.shadowRoot));
  }

  // Animations and transitions under way that will end (an infinite one, a spinner, never
  // does) and began at `since` or later (performance.now() time; a pending one has yet to).
  // `roots`: where to look (by default the document and every shadow root in it).
  function motions(since, roots = null) {
    if (!doc.getAnimations) return [];
    // A document's list leaves out its shadow trees' animations: each root keeps its own.
    const all = (roots || [doc, ...shadowRoots(doc)]).flatMap((root) => root.getAnimations());
    return all.filter((animation) => {
      if (animation.playState !== "running" && !animation.pending) return false;
      const timing = animation.effect && animation.effect.getComputedTiming();
      if (!timing || !Number.isFinite(timing.endTime)) return false;
      return animation.startTime === null || animation.startTime >= since;
    });
  }

  // The document and the shadow roots that hold `el`.
  function around(el) {
    const roots = [doc];
    for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
      roots.push(root);
    }
    return roots;
  }

  function shadowRoots(top) {
    const roots = [];
    for (const el of top.querySelectorAll("*")) {
      if (el.shadowRoot) roots.push(el.shadowRoot, ...shadowRoots(el.shadowRoot));
    }
    return roots;
  }

  const DIALOGS = "dialog[open],[role=dialog],[role=alertdialog],[aria-modal=true]";

  // A dialog that opened with nothing in it yet: the page is still drawing it. Looked for in
  // the document and, from the element drawn at the middle of the view up, in the shadow
  // roots that hold it (a web component's dialog).
  function emptyDialog() {
    const found = [...doc.querySelectorAll(DIALOGS)];
    for (let at = hitAt(innerWidth / 2, innerHeight / 2); at; at = at.parentNode || at.host) {
      if (at.nodeType !== Node.ELEMENT_NODE) continue;
      if (at.matches(DIALOGS)) found.push(at);
      if (at.shadowRoot) found.push(...at.shadowRoot.querySelectorAll(DIALOGS));
    }
    return found.some((el) => !el.querySelector(INTERACTIVE) &&
      !(el.shadowRoot && el.shadowRoot.querySelector(INTERACTIVE)) && rendered(el) &&
      !clean(flatText(el)));
  }

  // Something the page or the action started is still to come: a timer the action set (or
  // the document as it loaded, see pagescript.py's watch), a navigation it began, or an
  // element marked aria-busy.
  function waiting() {
    const leaving = store.timers ? store.timers.leaving.at : 0;
    return (store.timers ? store.timers.pending.size : 0) > 0 || store.loadTimers?.size > 0 ||
      (leaving > 0 && performance.now() - leaving < LEAVE_MS) ||
      doc.querySelector("[aria-busy=true]") !== null;
  }

  // Animations that started this long before the action are taken as its own: an
  // animation's start time is the time of the frame it starts in, which may be before the
  // action's input (a transition started in an input's handler, between frames).
  const INPUT_LEAD_MS = 250;
  // The next frame is waited for up to a little over one frame at 60 Hz on a hidden page,
  // which draws none; a visible one's comes later on a busy machine, and is waited for.
  const FRAME_MS = 20;
  const FRAME_LATE_MS = 100;

  // Resolves once the document has not changed for quietMs, no resource finished loading in
  // that time, no timer the action set is pending and nothing is marked aria-busy; or after
  // maxMs. A page with nothing on it yet counts as still changing; a text that changes again
  // and again (a clock, a ticker) counts once. With `glance`, a page on which nothing at all
  // moved by the next frame (and the task after it; FRAME_LATE_MS at most) is quiet then:
  // what an action does at once is done by the time its input is answered, and whatever it
  // starts later (a request, a timer, a frame callback) shows in that frame or as pending.
  // With `load`, the wait starts at the document's load event (within maxMs), in the same
  // round trip.
  async function quiet({ quietMs, maxMs, glance, load, opened, early, keep }) {
    const called = performance.now();
    // What the action set moving is waited for until MOTION_MS from here, and no longer.
    const since = opened ? -Infinity : (store.timers ? store.timers.since : called) - INPUT_LEAD_MS;
    const restless = () =>
      performance.now() - called < MOTION_MS && (motions(since).length > 0 || emptyDialog());
    if (load && doc.readyState !== "complete") {
      await new Promise((resolve) => {
        window.addEventListener("load", resolve, { once: true });
        later(resolve, maxMs);
      });
      if (doc.readyState !== "complete") return { quiet: false, loading: true, ...stateNow() };
      maxMs -= performance.now() - called;
    }
    // A document an open loaded has its glance taken from its load event by the watch the
    // provider adds to each new document (pagescript.at_document_start). With `early`, a
    // page that has loaded with nothing moving is answered at once, the frame still `due`:
    // the next action asks again without `early`, and waits for it then.
    const afterLoad = opened && glance ? store.afterLoad : undefined;
    if (afterLoad) {
      const calm = () => !afterLoad.moved && !blank() && !waiting() && !restless();
      if (early && !afterLoad.looked && calm()) return { quiet: true, due: true, ...stateNow() };
      store.afterLoad = null;
      if (afterLoad.drawn) afterLoad.look(true); // this task comes after the frame's callbacks
      await afterLoad.done;
      if (afterLoad.framed && calm()) return { quiet: true, glanced: true, ...stateNow() };
      // It was still changing at its load, or its first frame came too late to be watched:
      // it must stay still for quietMs.
      glance = false;
    }
    return new Promise((resolve) => {
      const start = performance.now();
      let last = start;
      let restyled = 0;
      const ticking = new Set();
      const changed = (records) => {
        for (const record of records) {
          if (record.type === "attributes") {
            // Script stepping styles frame by frame (jQuery's animations) moves the page
            // without changing its content; a loop that never ends is let go at MOTION_MS.
            restyled = performance.now();
            if (restyled - called < MOTION_MS) last = restyled;
            continue;
          }
          const textOnly = record.type === "characterData" ||
            [...record.addedNodes, ...record.removedNodes].every((n) => n.nodeType === Node.TEXT_NODE);
          if (textOnly) {
            const node = record.type === "characterData" ? record.target.parentNode : record.target;
            if (ticking.has(node)) continue;
            ticking.add(node);
          }
          last = performance.now();
        }
      };
      const observer = new MutationObserver(changed);
      observer.observe(doc, {
        subtree: true, childList: true, characterData: true,
        attributes: true, attributeFilter: ["style", "class", "hidden", "open"],
      });
      // A resource the page itself loaded may change it; the browser's own fetch of the
      // favicon (initiator "other") does not.
      const resources = new PerformanceObserver((list) => {
        if (list.getEntries().some((entry) => entry.initiatorType !== "other")) last = performance.now();
      });
      resources.observe({ type: "resource" });
      const finish = (calm) => {
        observer.disconnect();
        resources.disconnect();
        // With `keep`, the page's timers are still watched for the next wait of the same
        // settle: what an answer to a request the action sent sets off (htmx's swap delay).
        if (!keep) unwatchTimers();
        // Still restyled as the wait ended: the next click makes sure its element holds still.
        store.restless = restyled > 0 && performance.now() - restyled < FRAME_LATE_MS;
        resolve({ quiet: calm, ...stateNow() });
      };
      const check = () => {
        const now = performance.now();
        // Moving counts as changing: what the page does when it comes to rest (at
        // transitionend, say) is waited for too. Frames the page asked for count for their
        // first few, and for as long as the last one restyled something (a loop that then
        // changes nothing, a canvas, is let go). On a busy machine frames come further apart
        // than quietMs: a step of script still pending is motion, not calm.
        const stepping = frames && frames.pending.size > 0 &&
          (frames.ran < FRAMES_AWAITED || restyled >= frames.lastRan);
        if (restless() || (stepping && now - called < MOTION_MS)) last = now;
        const calm = now - last >= quietMs && settledFrame(now) && !blank() && !waiting();
        if (calm || now - start >= maxMs) return finish(calm);
        later(check, Math.max(10, Math.min(quietMs - (now - last), maxMs - (now - start))));
      };
      // What the action started by the next frame (a transition, a step of script) shows only
      // once that frame has come; on a busy machine it comes late, and is waited for (up to
      // MOTION_MS). A hidden page draws none.
      let drawn = false;
      const settledFrame = (now) => drawn || doc.hidden || now - start >= MOTION_MS;
      const frames = store.timers ? store.timers.frames : null;
      (store.timers ? store.timers.original.frame : requestAnimationFrame).call(window, () => {
        drawn = true;
      });
      if (!glance) return later(check, quietMs);
      let looked = false;
      const look = () => {
        if (looked) return;
        looked = true;
        const stepping = frames && frames.pending.size > 0;
        const still = last === start && !stepping && settledFrame(performance.now());
        if (still && !blank() && !waiting() && !restless()) return finish(true);
        later(check, Math.max(10, quietMs - (performance.now() - last)));
      };
      (frames ? store.timers.original.frame : requestAnimationFrame).call(window, () => later(look, 0));
      later(look, doc.hidden ? FRAME_MS : FRAME_LATE_MS); // one not drawing is looked at then
    });
  }

  // A top document whose parser has not reached its end yet (its bytes still arriving, or the
  // parser yielding between chunks on a busy machine) would be read half-built: the read waits
  // for its end, up to PARSE_WAIT_MS, and says it is still loading if it did not come. Not an
  // iframe's: a page's frames are read one after another, and one that streams for ever (an
  // ad, a push channel) would hold up every snapshot.
  const PARSE_WAIT_MS = 1000;

  async function parsed() {
    if (doc.readyState !== "loading" || window !== top) return;
    await new Promise((resolve) => {
      doc.addEventListener("DOMContentLoaded", resolve, { once: true });
      later(resolve, PARSE_WAIT_MS);
    });
  }

  // A snapshot taken while an open's first frame is still due (the provider's `frame_due`)
  // waits for it, as `quiet` with `opened` does, in the same call: whether the page settled
  // is `settled`. The read the document took at its load (keepRead) stands for this one
  // while it still shows the page. Else a page calm so far is read while the frame is
  // awaited (the first read of a document, its functions compiled, takes about as long as
  // the wait), and the read is kept when that frame changed nothing: no element, text,
  // attribute, motion or load. Otherwise it is read again after the wait.
  async function afterFirstFrame(request) {
    const kept = keptFor(request);
    const afterLoad = store.afterLoad;
    const early = !kept && afterLoad && !afterLoad.looked && !afterLoad.moved &&
      doc.readyState === "complete" && !blank() && !waiting();
    let changed = false;
    const changes = early && new MutationObserver(() => { changed = true; });
    if (changes) changes.observe(doc, { subtree: true, childList: true, characterData: true, attributes: true });
    const read = early ? snapshot(request) : null;
    const waited = await quiet({ ...request.due, glance: true, load: true, opened: true });
    if (changes) {
      changed ||= changes.takeRecords().length > 0;
      changes.disconnect();
    }
    if (kept && stillKept(kept) && waited.glanced) {
      remembered(kept.elements, true, kept.remembered);
      return { ...kept.answer, settled: true };
    }
    if (read && waited.glanced && !changed) return { ...read, settled: true };
    return { ...snapshot(request), settled: waited.quiet };
  }

  // --- targets: the element a selector names, and where a click on it lands ---------------

  const NOT_TYPABLE = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "file"]);

  // Where a click on `el` lands, after bringing it into view and letting it stop moving; or
  // what covers it. A transient cover (a closing menu, a fading overlay) is waited out briefly.
  // Where in an element a press may go when its centre is on a control inside it: fractions
  // of its width and height, tried nearest the centre first.
  const SPOTS = [0.5, 0.3, 0.7, 0.15, 0.85, 0.04, 0.96];
  const OWN_CONTROL_SHARE = 0.5;

  // The control a page draws in place of a form control of its own that it hides (a
  // styled select over the real one: Select2, Chosen, bootstrap-select): the first element
  // shown after it, or after the boxes it is alone in, where a person presses it; the one to
  // use instead. Nothing for other elements, or where the next thing shown is another field
  // or nothing to press.
  const STAND_IN_DEPTH = 3;
  // See-through until the pointer is over what holds it (a number field's arrows, a row's
  // actions): the nearest box around it a person sees, which a hover there shows it in.
  function shownOnHover(el) {
    if (!el.checkVisibility) return {};
    if (!el.checkVisibility({ visibilityProperty: true })) {
      // Hidden (visibility), where a style rule shows it while the pointer is over a box
      // around it (a row's actions in a table that shows them so).
      const over = hoveredToShow(el);
      return over && rendered(over) ? { hoverShows: describeCover(over) } : {};
    }
    const rect = el.getBoundingClientRect();
    if (rect.width < 4 || rect.height < 4) return {};
    // A field drawn only once focused (a date field's parts before it is): a click there.
    const field = el.isContentEditable || el.matches(FIELDS);
    for (let up = el.parentElement, depth = 0; up && up !== doc.body && depth < HOVER_DEPTH; up = up.parentElement, depth++) {
      if (rendered(up)) return field ? { focusShows: describeCover(up) } : { hoverShows: describeCover(up) };
    }
    return {};
  }
  const HOVER_DEPTH = 4;

  // The box around `el` whose hover a style rule of the page's shows `el` in (`.row:hover
  // .actions { visibility: visible }`): that rule's hovered part, the nearest box around
  // `el` it names; null where none does (a closed menu's items, shown by a click).
  function hoveredToShow(el) {
    const shows = (style) => style.visibility === "visible" ||
      (style.display !== "" && style.display !== "none") || (style.opacity !== "" && style.opacity !== "0");
    for (const rule of styleRules()) {
      if (!rule.selectorText.includes(":hover") || !rule.style || !shows(rule.style)) continue;
      for (const selector of rule.selectorText.split(",")) {
        const at = selector.indexOf(":hover");
        if (at < 0 || !safeMatches(el, selector.replace(/:hover/g, ""))) continue;
        let over = null;
        try {
          over = el.parentElement && el.parentElement.closest(selector.slice(0, at).trim() || ":not(*)");
        } catch {} // a part that is no selector alone (inside :is(), say)
        if (over && over !== doc.body && over !== doc.documentElement) return over;
      }
    }
    return null;
  }

  // Every style rule with a selector in the document's sheets (those inside @media, @supports
  // and nesting too), but another origin's, which this script may not read.
  function* styleRules() {
    const walk = function* (list) {
      for (const rule of list) {
        if (rule.cssRules) yield* walk(rule.cssRules);
        if (rule.selectorText) yield rule;
      }
    };
    for (const sheet of [...doc.styleSheets, ...(doc.adoptedStyleSheets || [])]) {
      let list;
      try {
        list = sheet.cssRules;
      } catch {
        continue;
      }
      yield* walk(list);
    }
  }

  function standIn(el) {
    if (!["select", "input", "textarea"].includes(tagOf(el))) return {};
    const shown = (sibling, step) => {
      while (sibling && !rendered(sibling)) sibling = sibling[step];
      return sibling;
    };
    // A pointer cursor marks it, its own or the wrapper's around both (Selectric's); never a
    // button that sends the form, which stands in for no field.
    const pressedIn = (near) => {
      if (!near || near.matches(FIELDS)) return null;
      const pressed = near.matches(INTERACTIVE) || getComputedStyle(near).cursor === "pointer"
        ? near : near.querySelector(INTERACTIVE);
      if (pressed && pressed.matches(FIELDS)) return null; // another field, with a name of its own
      const sends = pressed && (pressed.type === "submit" && pressed.form);
      return pressed && rendered(pressed) && !sends ? pressed : null;
    };
    const opens = (control) => control && (roleOf(control) === "combobox" ||
      control.hasAttribute("aria-haspopup") || control.hasAttribute("aria-expanded"));
    let at = el;
    for (let depth = 0; depth < STAND_IN_DEPTH && at !== doc.body; depth++, at = at.parentElement) {
      if (at !== el && at.querySelectorAll(FIELDS).length > 1) break; // not its box alone
      // The control beside it that opens a list (Radix draws its trigger before the select
      // it hides), else the one after it.
      const before = pressedIn(shown(at.previousElementSibling, "previousElementSibling"));
      const after = pressedIn(shown(at.nextElementSibling, "nextElementSibling"));
      const pressed = [before, after].find(opens) || after;
      if (pressed) return { standIn: describeCover(pressed) };
      if (shown(at.nextElementSibling, "nextElementSibling")?.matches(FIELDS)) break;
    }
    return {};
  }

  // `el` scrolled to the middle of the view; one larger than the view or the box that scrolls
  // it (a long list) only as far as needed, where its middle would take it far from the part
  // a person sees.
  function intoView(el, inline = "center") {
    if (tagOf(el) === "area") { // drawn as a part of its picture
      const img = mapPicture(el);
      if (img) intoView(img, inline);
      return;
    }
    const rect = el.getBoundingClientRect();
    const box = scrollBox(el);
    const [high, wide] = box ? [Math.min(innerHeight, box.clientHeight), Math.min(innerWidth, box.clientWidth)]
      : [innerHeight, innerWidth];
    el.scrollIntoView({
      block: rect.height > high ? "nearest" : "center",
      inline: rect.width > wide ? "nearest" : inline,
      behavior: "instant",
    });
  }

  // A range's thumb, where its value puts it (drawn `box`): a press there keeps the value,
  // where one on the track's middle moves it there, and a drag starts from it. Along the
  // track as the element is turned (a slider rotated to run the other way) or set right
  // to left; a thumb as wide as the track is high, at most THUMB_MAX.
  function thumbAt(el, box) {
    if (tagOf(el) !== "input" && roleOf(el) === "slider") return knobOf(el, box);
    if (tagOf(el) !== "input" || el.type !== "range" || !el.offsetWidth) return null;
    const style = getComputedStyle(el);
    const [min, max] = [Number(el.min || 0), Number(el.max || 100)];
    const share = max > min ? (Number(el.value) - min) / (max - min) : 0.5;
    // Upright (a vertical writing mode) it runs down from its top, or up from its bottom
    // right to left.
    const upright = !style.writingMode.startsWith("horizontal");
    const [length, thick] = upright ? [el.offsetHeight, el.offsetWidth] : [el.offsetWidth, el.offsetHeight];
    const half = Math.min(thick, THUMB_MAX) / 2;
    let along = (share - 0.5) * (length - 2 * half);
    if (style.direction === "rtl") along = -along;
    if (upright) return { x: box.x + box.width / 2, y: box.y + box.height / 2 + along };
    const turn = style.transform === "none" ? new DOMMatrix() : new DOMMatrix(style.transform);
    return { x: box.x + box.width / 2 + turn.a * along, y: box.y + box.height / 2 + turn.b * along };
  }
  const THUMB_MAX = 16;
  // The knob of a slider the page draws (role slider on its track), where a drag of it
  // starts: the small element in it that takes the press (a handler of its own, a grab
  // cursor, or a thumb, handle or knob by its class). Null for a slider that is its knob.
  const KNOB_CLASS = /thumb|handle|knob/i;
  function knobOf(el, box) {
    for (const inner of el.querySelectorAll("*")) {
      const rect = rendered(inner);
      if (!rect || rect.width * rect.height > KNOB_SHARE * box.width * box.height) continue;
      if (ownHandler(inner) || KNOB_CLASS.test(inner.getAttribute("class") || "") ||
          /^(grab|pointer|ew-resize|col-resize)$/.test(getComputedStyle(inner).cursor)) {
        return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
      }
    }
    return null;
  }
  const KNOB_SHARE = 0.5;

  async function aim(el, face, purpose) {
    const target = face || el;
    let rect = rendered(target);
    if (!rect && inClosedDetails(el)) return { hidden: true, closedIn: describeCover(closedSummary(el)) };
    if (!rect) return { hidden: true, ...standIn(el), ...shownOnHover(target) };
    // The page holds it out of reach while something else is open (a list, a dialog): it
    // takes no pointer or keys until that closes.
    const blocker = shutOff(target);
    if (blocker) return { blocked: describeCover(blocker) };
    // Scrolled into view, it would be shown where no person can scroll it to.
    if (clippedAway(target, rect)) return { clipped: true, ...standIn(el) };
    const fits = rect.top >= 0 && rect.left >= 0 && rect.bottom <= innerHeight && rect.right <= innerWidth;
    const centre = (box) => {
      const { x, y } = thumbAt(target, box) || { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      return { x: Math.min(Math.max(x, 1), innerWidth - 1), y: Math.min(Math.max(y, 1), innerHeight - 1) };
    };
    // A small control inside the element (a card's Delete button, a link in a checkbox's
    // label) is another control: a press on it is not a press on the element, which is
    // pressed beside it where it can be. One that fills most of the element (a tab that is
    // all link but its padding) is the element's own, and is pressed as the element.
    const innerControl = (hit) => {
      const control = purpose === "click" && hit && hit.closest ? hit.closest(INTERACTIVE) : null;
      if (!control || control === target || control === el || !target.contains(control)) return null;
      const own = target.getBoundingClientRect();
      const its = control.getBoundingClientRect();
      return its.width * its.height < OWN_CONTROL_SHARE * own.width * own.height ? control : null;
    };
    const onItself = (hit) => pressLands(hit, el, face);
    // The centre, or the point nearest it on the element and on no control inside it; where
    // the centre lands on something else (a slice's label, a badge, a button laid half over
    // it), the point nearest the centre where it shows, as a person presses it; null where
    // it shows nowhere (a dialog or its backdrop over all of it).
    const clearAt = (box) => {
      const point = centre(box);
      const hit = hitAt(point.x, point.y);
      if (!onItself(hit)) return hit && !reaches(target, hit) ? besideControls(box) : null;
      return innerControl(hit) ? besideControls(box) || point : point;
    };
    const besideControls = (box) => {
      const points = [];
      for (const fx of SPOTS) {
        for (const fy of SPOTS) {
          const x = box.x + box.width * fx;
          const y = box.y + box.height * fy;
          if (x >= 1 && y >= 1 && x <= innerWidth - 1 && y <= innerHeight - 1) {
            points.push({ x, y, off: Math.hypot(fx - 0.5, fy - 0.5) });
          }
        }
      }
      points.sort((a, b) => a.off - b.off);
      for (const { x, y } of points) {
        const hit = hitAt(x, y);
        if (onItself(hit) && !innerControl(hit)) return { x, y };
      }
      return null;
    };
    if (!fits) {
      // A click waits one frame after scrolling, for what the page does on scroll (a header
      // it shows over the point); typing goes to the focused field, wherever a header is.
      intoView(target);
      if (purpose === "click") await frame();
      rect = rendered(target);
      if (!rect) return { hidden: true };
    }
    // Something on the page is moving (an animation that will end, in the document or the
    // shadow trees around the element, or script that restyled the page until the last wait
    // ended): press where the element rests, not where it passes. One that does not hold
    // still within MOTION_MS is refused. Typing goes to the focused field wherever it is.
    if (purpose === "click" && (motions(-Infinity, around(target)).length || store.restless)) {
      rect = await still(target);
      if (!rect) return { moving: true };
    }
    // In view and clear at its centre now: the common case needs no more frames to pass.
    const clear = clearAt(rect);
    if (clear) return clear;
    let hit = null;
    let centred = !fits;
    for (let tries = 0; tries < 20; tries++) {
      rect = target.getBoundingClientRect();
      await frame();
      const again = target.getBoundingClientRect();
      if (again.x !== rect.x || again.y !== rect.y) continue;
      const point = clearAt(rect);
      if (point) return point;
      const middle = centre(rect);
      hit = hitAt(middle.x, middle.y);
      if (!centred) {
        // A sticky header or a docked bar over it: in the middle of the view it is clear.
        centred = true;
        intoView(target);
        continue;
      }
      if (tries >= 4) break;
    }
    if (getComputedStyle(target).pointerEvents === "none") {
      // A field the control around it takes the presses for (Vuetify's select): that one.
      const around = target.parentElement?.closest(INTERACTIVE);
      return around && rendered(around) && getComputedStyle(around).pointerEvents !== "none"
        ? { inert: true, pressedBy: describeCover(around) } : { inert: true };
    }
    // Not covered at its middle but cut off there, or not drawn there (a ring of a donut
    // chart, an L-shaped box, an outline): pressed where it is, if anywhere.
    const missed = missedAt(target, centre(rect), hit);
    if (missed.coveredBy) return missed;
    const beside = besideControls(rect);
    if (beside) return beside;
    // Longer than the box that scrolls it (an editor's whole text): no scroll shows it all.
    if (missed.outside) {
      for (const { box } of clippers(target)) {
        if (rect.height > box.bottom - box.top || rect.width > box.right - box.left) return { outside: true, larger: true };
      }
    }
    return missed;
  }

  // The element to name as a cover: the outermost ancestor that is fixed or absolute (an
  // overlay, a dialog, a banner), else the element hit.
  function coverOf(hit) {
    let best = hit;
    for (let up = hit; up && up !== doc.body; up = up.parentElement) {
      const position = getComputedStyle(up).position;
      if (position === "fixed" || position === "absolute" || position === "sticky") best = up;
    }
    return best;
  }

  // What paints an SVG element, which `styles` are given for too: its colour does not.
  const SVG_PAINT = ["fill", "stroke"];

  async function target({ selector, purpose, styles, fresh, watch, text, valueMax, byText, told, guard }) {
    forgetRetyped();
    const found = resolve(selector);
    if (found.error || found.enterFrame) return found;
    if (found.partial !== undefined) return { error: "count", count: found.list.length, selector: found.partial };
    if (found.list.length !== 1) return { count: found.list.length };
    let el = found.list[0];
    store.target = el;
    store.targetSelector = selector;
    store.typedOn = null;
    let face = faceOf(el);
    const rect = (face || el).getBoundingClientRect();
    const named = labelOf(el, face);
    const out = {
      count: 1, tag: tagOf(el), label: cap(named || guessedName(el, rect)),
      bounds: bounds(rect),
      inViewport: inViewport(rect) && rect.width > 0 && rect.height > 0 && !scrolledAway(face || el, rect),
      typable: !(tagOf(el) === "input" && NOT_TYPABLE.has(el.type)) &&
        (["input", "textarea", "select"].includes(tagOf(el)) || el.isContentEditable),
      opensWindow: opensWindow(el),
      ...state(el, valueMax || VALUE_MAX),
    };
    if (!named && out.label) out.labelGuessed = true;
    // A click given a selector and a text too: whether what the selector names shows it.
    if (byText) {
      const shown = `${textOf(face || el)} ${named} ${out.label} ${tagOf(el) === "input" ? el.value : ""}`;
      out.showsText = clean(shown).toLowerCase().includes(clean(byText).toLowerCase());
    }
    // A press on a file input, or on a label for one, opens the browser's file chooser.
    const files = tagOf(el) === "input" ? el : el.closest("label")?.control;
    if (files && tagOf(files) === "input" && files.type === "file") out.opensFiles = selectorFor(files);
    if (purpose === "click" && doubleOnly(el)) out.doubleOnly = true;
    // No field, yet it reads keys itself, or a box around it does (a terminal, a game):
    // keys pressed, not text set, reach it.
    if (purpose === "type" && !out.typable && ownKeys(el)) out.readsKeys = true;
    const role = roleOf(el);
    if (role && role !== out.tag) out.role = role;
    else if (!role && alongTrack(el)) out.knob = true; // a slider's, telling no value
    if (typeOf(el)) out.type = typeOf(el);
    if (tagOf(el) === "select") {
      out.choices = [...el.options].map((option) => ({ value: option.value, label: clean(option.label) }));
    }
    if (purpose !== "inspect" && !fresh) out.changed = changed(selector, el) || undefined;
    if (store.rest.cameUnder) out.rest = { x: store.rest.x, y: store.rest.y };
    if (styles) {
      const computed = getComputedStyle(el);
      // An SVG element is painted by its fill and stroke, not its colour: a green letter.
      const asked = el instanceof SVGElement ? [...styles, ...SVG_PAINT] : styles;
      out.styles = Object.fromEntries(asked.map((name) => [name, computed.getPropertyValue(name)]));
    }
    if (purpose === "click" || purpose === "type") {
      // A control the page enables a moment later (after a timer, a check of its own) is
      // waited for, as long as a motion is.
      if (out.disabled && !out.changed && await enabledWithin(el, MOTION_MS)) delete out.disabled;
      if (!out.changed && !out.disabled) {
        // A click by text that names part of the element's text is aimed at that text.
        const part = purpose === "click" && byText ? textPart(el, face, byText) : null;
        Object.assign(out, { aim: part ? await aimAtText(el, part) : await aim(el, face, purpose) });
        const seen = !fresh && store.remembered.get(selector);
        const moved = seen && (face || el).getBoundingClientRect();
        if (seen && (moved.x !== rect.x || moved.y !== rect.y)) {
          // Scrolled into view. A long list that draws only the rows in view (a virtual list)
          // draws its rows again for other items as it scrolls: this element may be another
          // item's now, and the one row that shows the item listed is then the one aimed at.
          // What the page does on the scroll of a box of its own, where such lists are (a
          // click waits for it anyway; typing into a field the page scrolled to does not).
          if (purpose === "type" && scrollBox(el)) await frame();
          for (const read of [boxWords, positions, indexes]) read.clear(); // drawn again since
          const same = fingerprint(el) !== seen.print && drawnAgain(el, seen.print);
          const redrawn = !same && changed(selector, el);
          if (same) {
            [el, face] = [same, faceOf(same)];
            store.target = el;
            out.chased = store.targetSelector = selectorFor(el);
            store.remembered.set(out.chased, { ref: new WeakRef(el), print: seen.print });
            out.bounds = bounds((face || el).getBoundingClientRect());
            out.aim = await aim(el, face, purpose);
          } else if (redrawn) {
            out.changed = redrawn;
            delete out.aim;
          }
        }
      }
      if (watch && out.aim && out.aim.x !== undefined) {
        watchTimers();
        if (purpose === "click" && guard) guardPress(el, face);
      }
    }
    // A code editor's drawn text, or the field of its own it hides: typed into through the
    // editor, as a person clicks its text and types (see editorOf).
    if (purpose === "type" && (!out.typable || (out.aim && out.aim.x === undefined))) {
      const editor = editorOf(el);
      if (editor) out.editor = editor;
    }
    // Read-only until a person is at it (a password field that keeps autofill out so, and
    // lets the keys in once it has the focus): focused as a click would, and asked again.
    if (purpose === "type" && out.readonly && el.readOnly && el.getAttribute("aria-readonly") !== "true" &&
        unlockedByFocus(el)) {
      el.focus();
      if (!el.readOnly) delete out.readonly;
    }
    // Text to type into a field nothing stands in the way of: readied in this same call. The
    // conditions are the ones targets.py refuses a type on, so a field readied here is never
    // one the provider then refuses.
    const clear = !out.changed && !out.disabled && out.typable && !out.readonly &&
      out.aim !== undefined && out.aim.x !== undefined;
    if (purpose === "type" && typeof text === "string" && clear && takesText(el)) {
      out.ready = readyForText(el, text);
      if (out.ready.typeIt && told) out.ready.typing = tellTyped(told);
      watchTyped(el);
    }
    return out;
  }

  // Whether `el`'s own focus handler is one that makes it editable (its code names readonly):
  // a field read-only for any other reason is not focused by a type it refuses.
  function unlockedByFocus(el) {
    const handlers = [el.onfocus, el.onfocusin];
    if (listeners) for (const type of ["focus", "focusin"]) handlers.push(...(listeners(el)[type] || []).map((one) => one.listener));
    return handlers.some((handler) => typeof handler === "function" && /readonly/i.test(String(handler)));
  }

  // A code editor (CodeMirror, Ace, Monaco) draws its text itself and takes the keys in a
  // field of its own that it hides (a textarea of no size, clipped or see-through; an edit
  // context): a person clicks the text, and the keys go there. For `el`, that field or a
  // part of the editor that draws no field: the editor's box (`surface`), the element to
  // press (`press`: `el` where it is a drawn part, else the box) and its field; null where
  // `el` is in no such editor (a box whose fields show, a field hidden for good).
  const EDITOR_DEPTH = 6;
  const [EDITOR_MIN_WIDTH, EDITOR_MIN_HEIGHT] = [60, 16];
  function editorOf(el) {
    // Hidden by the editor itself: of next to no size, see-through or clipped away. A field
    // a dialog covers, or one the page shows, is none; nor is a one-line field (a widget's
    // search box, a date's), which no code editor takes its keys in.
    const hiddenField = (node) => {
      const look = getComputedStyle(node);
      if (look.display === "none" || look.visibility !== "visible") return false; // takes no focus
      const rect = node.getBoundingClientRect();
      return rect.width * rect.height < 64 || look.opacity === "0" || !rendered(node) ||
        clippedAway(node, rect, new Map());
    };
    // A field that takes an editor's keys: a textarea, or an edit context (Monaco's).
    const keyField = (node) => !node.disabled && !node.readOnly &&
      (tagOf(node) === "textarea" || Boolean(node.editContext));
    for (let box = el, up = 0; box && box !== doc.body && up < EDITOR_DEPTH; box = box.parentElement, up++) {
      if (keyField(box)) continue; // the field itself: its editor is further out
      const fields = [...box.querySelectorAll("textarea, [role=textbox]")].filter(keyField);
      const others = box.querySelector("input:not([type=hidden]), select, [contenteditable]");
      if (!fields.length && !others) continue; // a part of the editor with no field in it
      if (fields.length !== 1 || others || box.matches("form, fieldset, label") || !hiddenField(fields[0])) {
        return null;
      }
      const rect = rendered(box);
      if (!rect || rect.width < EDITOR_MIN_WIDTH || rect.height < EDITOR_MIN_HEIGHT) continue; // its holder
      const drawn = !el.matches(FIELDS) && !keyField(el) && rendered(el); // a part of its text
      const press = drawn && drawn.width >= EDITOR_MIN_WIDTH / 4 && drawn.height >= EDITOR_MIN_HEIGHT / 2 ? el : box;
      return { surface: selectorFor(box), press: selectorFor(press), field: selectorFor(fields[0]) };
    }
    return null;
  }

  // `text` put into the field that has the focus as a paste puts it (a code editor keeps it
  // as given, where typed keys would have it indent lines and close brackets itself), once
  // that field is in the editor `surface`: whether the page took it (`taken`: it handled
  // the paste itself, as editors do), or what has the focus instead (`unfocused`). With no
  // text, only whether the focus is there.
  function pasteInto({ surface, text }) {
    const el = deepActive();
    const box = resolve(surface).list?.[0];
    if (!el || !box || !box.contains(el) || el === box && !el.editContext && !takesText(el)) {
      return { unfocused: el && el !== doc.body ? describeCover(el) : null };
    }
    if (!text) return { taken: false };
    const data = new DataTransfer();
    data.setData("text/plain", text);
    const event = new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true, composed: true });
    el.dispatchEvent(event);
    return { taken: event.defaultPrevented };
  }

  // Fields typed into are watched (the latest few): the value each typing answered (its
  // last reading in stateNow) against the value it holds as a later action on another
  // element answers. A page may change it as it loses focus (a date picker that parses the
  // text, or drops what it could not read; a number it clamps) after the typing said what it
  // holds: `retyped` says so, in the readings of the action that found it (the next one's
  // target forgets it). A field emptied is not told: most often the page took the text in
  // (a message sent, a guess read), and a page that dropped it shows that in its next
  // snapshot.
  const TYPED_WATCHED = 5;

  function watchTyped(el) {
    // Not a password, nor a combobox, whose choice the page writes in it.
    if ((tagOf(el) === "input" && el.type === "password") || el.isContentEditable) return;
    if (roleOf(el) === "combobox") return;
    const others = (store.typed || []).filter((typed) => typed.ref.deref() !== el);
    const typed = { ref: new WeakRef(el), selector: selectorFor(el), value: null };
    store.typed = [...others, typed].slice(-TYPED_WATCHED);
  }

  function retyped(el) {
    const changed = [];
    store.typed = (store.typed || []).filter((typed) => {
      const field = typed.ref.deref();
      if (!field || !field.isConnected || (field !== el && !field.value)) return false;
      if (field === el && typed.now === undefined) typed.value = field.value; // the typing's own reading
      if (typed.now === undefined && typed.value !== null && field.value !== typed.value) typed.now = field.value;
      if (typed.now !== undefined) {
        changed.push({ selector: typed.selector, was: cap(typed.value, 60), now: cap(typed.now, 60) });
      }
      return true;
    });
    return changed;
  }

  function forgetRetyped() {
    if (store.typed) store.typed = store.typed.filter((typed) => typed.now === undefined);
  }

  // Between the check of where a click lands and its press, the pointer's arrival can change
  // the page under it (a hover rule that swaps an icon for one still loading, a menu that
  // opens over it). A press whose first event would reach anything else is stopped, with its
  // release and click (until the click, GUARD_MS at most), before any of the page's handlers,
  // and said in stateNow's `missed` until the next click's guard: the provider aims again,
  // and the page never sees a click where none was asked for. Only the first event is
  // judged: a page may redraw the element as it is pressed, and its release then lands on
  // the new one. A release that missed an element the page moved away as it was pressed
  // (a message shown above it as the field before it lost focus) clicks nothing there: it is
  // said in `slipped`, with what the release reached; not one the page hid or removed.
  const GUARDED = ["pointerdown", "mousedown", "pointerup", "mouseup", "click"];
  const GUARD_MS = 3000;
  const SLIP_PX = 2;

  function guardPress(el, face) {
    if (store.pressGuard) store.pressGuard.stop();
    const guard = (store.pressGuard = { missed: null, slipped: null });
    let judged = false;
    let pressedAt = null;
    // One the press put away (an option a list chose on mousedown, then hid) was pressed
    // and answered: it did not move from under the release, it is gone, as a removed one.
    const slipped = (hit) => {
      const moved = el.isConnected && rendered(face || el);
      if (!moved || pressLands(hit, el, face)) return;
      if (Math.abs(moved.x - pressedAt.x) + Math.abs(moved.y - pressedAt.y) < SLIP_PX) return;
      guard.slipped = hit ? describeCover(hit) : { selector: "", tag: "" };
    };
    const check = (event) => {
      if (!event.isTrusted) return;
      if (!judged) {
        judged = true;
        const first = event.composedPath()[0];
        const hit = first instanceof Element ? first : first?.parentElement || null;
        if (!pressLands(hit, el, face)) {
          guard.missed = hit ? describeCover(hit) : { selector: "", tag: "" };
        }
      }
      if (guard.missed) {
        event.preventDefault();
        event.stopImmediatePropagation();
      } else if (event.type === "mousedown") {
        pressedAt = (face || el).getBoundingClientRect();
      } else if (event.type === "mouseup" && pressedAt) {
        const first = event.composedPath()[0];
        slipped(first instanceof Element ? first : first?.parentElement || null);
      }
      if (event.type === "click") guard.stop();
    };
    const clear = store.timers ? store.timers.original.clear : window.clearTimeout;
    const timer = later(() => guard.stop(), GUARD_MS);
    guard.stop = () => {
      for (const type of GUARDED) removeEventListener(type, check, true);
      clear.call(window, timer);
    };
    for (const type of GUARDED) addEventListener(type, check, true);
    // A file input the page's own handler clicks as the press is answered (a drop zone's
    // hidden one) opens the browser's file chooser: said in stateNow's `opensFiles`.
    const chooser = (event) => {
      const input = event.composedPath()[0];
      if (input !== el && tagOf(input) === "input" && input.type === "file") store.choosing = selectorFor(input);
    };
    store.choosing = null;
    if (store.stopChooser) store.stopChooser();
    addEventListener("click", chooser, true);
    const chooserTimer = later(() => store.stopChooser(), GUARD_MS);
    store.stopChooser = () => {
      removeEventListener("click", chooser, true);
      clear.call(window, chooserTimer);
    };
  }

  // Whether a disabled element is enabled within ms: its own attributes or those of what
  // holds it (a fieldset) change.
  function enabledWithin(el, ms) {
    return new Promise((resolve) => {
      const done = () => {
        watcher.disconnect();
        resolve(!disabled(el));
      };
      const watcher = new MutationObserver(() => { if (!disabled(el)) done(); });
      watcher.observe(doc, { subtree: true, attributes: true, attributeFilter: ["disabled", "aria-disabled"] });
      later(done, ms);
    });
  }

  // --- what the page says of an action ------------------------------------------------

  // Words a page shows of what was just done: an alert or a toast (role alert or status, a
  // live region, or only a class that says so: toast, snackbar, alert, flash, notification),
  // or a field's message beside it (an element whose class says error, err or invalid, as
  // form libraries mark theirs, with no control in it). Read as an action begins (watchTimers)
  // and after it; what it shows then that it did not show before is what the answer quotes.
  const SAYING = "[role=alert],[role=status],[aria-live=assertive],[aria-live=polite]," +
    "[class*=error i],[class*=invalid i],[class*=toast i],[class*=snackbar i],[class*=alert i]," +
    "[class*=flash i],[class*=notification i],[class~=err i],[class*=-err i],[class*=_err i]";
  const SAYING_MAX = 200; // characters: longer is a region of the page, not a message
  const SAID_MAX = 3;
  const GLIMPSED_MAX = 20; // messages looked at during one action
  const GLIMPSE_MS = 50;
  const UNDER_WAY = /(\u2026|\.\.\.)$/;

  function sayings() {
    const found = [];
    for (const el of doc.querySelectorAll(SAYING)) {
      if (el.matches(FIELDS) || el.querySelector(FIELDS) || (tagOf(el) === "label" && el.control) ||
        el.matches(INTERACTIVE)) continue; // a button styled for danger says nothing by being shown
      const text = clean(el.innerText);
      if (!text || text.length > SAYING_MAX || !rendered(el)) continue;
      found.push({ el, text });
    }
    // The innermost of those that hold one another: the message, not its box as well.
    return found.filter(({ el }) => !found.some((other) => other.el !== el && el.contains(other.el)));
  }

  // What the page shows now that it did not as the action began (`said`), and the messages
  // it showed meanwhile that are gone (`briefly`: hidden, removed or emptied, not only put
  // in other words, as a count of results is), but for words of work under way ("Saving…").
  // `acted`: the field the action typed into, if it did; a new message beside another field
  // is said to be that field's (`beside`: its text to the field's selector), not left to read
  // as this one's (a check a field runs as it loses the focus to the one typed into next).
  function saidSince(acted = null) {
    const before = store.saidBefore;
    if (!before) return { said: [], briefly: [], beside: {} };
    const said = [];
    const beside = {};
    const now = sayings();
    for (const { el, text } of now) {
      if (before.has(text) || said.includes(text)) continue;
      said.push(text);
      const field = acted && fieldOfMessage(el);
      if (field && field !== acted) beside[text] = selectorFor(field);
    }
    const briefly = [];
    for (const [el, text] of store.glimpsed || []) {
      const gone = !now.some((shown) => shown.el === el || shown.text === text) &&
        (!el.isConnected || !rendered(el) || !clean(el.innerText));
      if (gone && !UNDER_WAY.test(text) && !briefly.includes(text)) briefly.push(text);
    }
    return { said: said.slice(0, SAID_MAX), briefly: briefly.slice(0, SAID_MAX), beside };
  }

  // The field a message is about: the one that names it (aria-describedby,
  // aria-errormessage), else the only field in the box around it, up to MESSAGE_BOX_DEPTH
  // boxes up; null when the box holds several.
  function fieldOfMessage(el) {
    if (el.id) {
      const id = CSS.escape(el.id);
      const naming = doc.querySelector(`[aria-describedby~="${id}"], [aria-errormessage~="${id}"]`);
      if (naming) return naming;
    }
    let up = el.parentElement;
    for (let depth = 0; up && up !== doc.body && depth < MESSAGE_BOX_DEPTH; depth++, up = up.parentElement) {
      const fields = up.querySelectorAll(FIELDS);
      if (fields.length) return fields.length === 1 ? fields[0] : null;
    }
    return null;
  }
  const MESSAGE_BOX_DEPTH = 3;

  // The checkbox or radio a press on `el` sets when `el` is a part of its label (a radio
  // card's styled box): its state is what the press changed.
  function labelledToggle(el) {
    if (el.matches(INTERACTIVE)) return null;
    const control = el.closest("label")?.control;
    return control && tagOf(control) === "input" && ["checkbox", "radio"].includes(control.type) ? control : null;
  }

  function stateNow() {
    let el = store.target;
    // Drawn again by the action (a table its change handler rebuilt): the element its selector
    // names now, of the same kind, is the one the answer reads.
    if (el && !el.isConnected && store.targetSelector) {
      const found = resolve(store.targetSelector);
      const again = found.list && found.list.length === 1 ? found.list[0] : null;
      if (again && tagOf(again) === tagOf(el) && again.type === el.type) el = again;
    }
    const out = { url: location.href, title: doc.title };
    if (store.enterWatch && store.enterWatch.el === el) out.enterSent = store.enterWatch.sent;
    // What a person sees of it: nothing once the action hid it (an option of a menu that
    // closed, whose own state the page no longer keeps).
    const face = el && el.isConnected ? faceOf(el) : null;
    if (el && el.isConnected && rendered(face || el)) {
      const toggle = labelledToggle(el);
      out.state = toggle ? { ...state(el), ...state(toggle) } : state(el);
      out.label = cap(labelOf(el, face)); // a toggle's new words (Like, then Liked)
      // What the action made of its own element (a tree item the keys opened, its words
      // now its children's too) the answer tells: the next action on the same selector
      // takes it as it is now, not for another element drawn in its place.
      const seen = store.remembered && store.remembered.get(store.targetSelector);
      if (seen && seen.ref.deref() === el) seen.print = fingerprint(el);
    }
    // A field typed into whose keys the page sent on into another by moving the focus there
    // as they came (a comment box that jumps to the search field): where they went.
    const focusNow = el && el === (store.typedOn || store.target) && takesText(el) ? deepActive() : null;
    if (focusNow && focusNow !== el && focusNow.isConnected && takesText(focusNow)) {
      out.focusMoved = { selector: selectorFor(focusNow), value: cap(state(focusNow).value ?? "") };
    }
    const near = store.typedNear;
    if (near && el === near.el && el.isConnected) {
      const items = madeItems(near);
      if (items.length) out.madeItems = items.map((item) => cap(item));
    }
    if (store.choosing) out.opensFiles = store.choosing;
    if (store.pressGuard && store.pressGuard.missed) out.missed = store.pressGuard.missed;
    if (store.pressGuard && store.pressGuard.slipped) out.slipped = store.pressGuard.slipped;
    const changedSince = retyped(el);
    if (changedSince.length) out.retyped = changedSince;
    const { said, briefly, beside } = saidSince(el && el.isConnected && el.matches(FIELDS) ? el : null);
    if (said.length) out.said = said;
    if (Object.keys(beside).length) out.saidBeside = beside;
    if (briefly.length) out.saidBriefly = briefly;
    // Kept until the next action that watches for it.
    const refused = store.refused;
    if (refused && refused.length) {
      const first = refused[0];
      // A form the browser does not check (novalidate) was checked by the page's script:
      // the page shows its own words, not the browser's.
      const byPage = Boolean(first.form && first.form.noValidate);
      out.refused = {
        field: labelOf(first, null) || first.getAttribute("name") || "",
        selector: selectorFor(first),
        message: byPage ? "" : first.validationMessage || "",
        more: new Set(refused).size - 1,
        ...(byPage ? { byPage } : {}),
      };
    }
    return out;
  }

  // The state after typing that waits for nothing: and whether the input set a timer the
  // page is still to run (a search field's debounce), which the provider then waits for.
  function afterInput() {
    const pending = store.timers ? store.timers.pending.size > 0 : false;
    return pending ? { ...stateNow(), waiting: true } : stateNow();
  }

  // Text inserted at once into a readied field makes one input event. The page tells the
  // provider the state after it through DevTools' binding `told` (in a top document), once
  // the page's own handlers have run, and the work they queued for right after them (a
  // framework's update): the provider then need not ask, a round trip fewer. A page that
  // cancels the input makes no event, and is asked. Each readied field has its own number,
  // which the provider waits to hear.
  function tellTyped(told) {
    const tell = window[told];
    if (window !== top || typeof tell !== "function") return undefined;
    if (store.typing) removeEventListener("input", store.typing);
    const id = (store.typings = (store.typings || 0) + 1);
    const heard = (event) => {
      if (!event.isTrusted) return; // the page's own, dispatched while the text's is handled
      removeEventListener("input", heard);
      if (store.typing !== heard) return;
      store.typing = null;
      Promise.resolve().then(() => tell(JSON.stringify({ typing: id, ...afterInput() })));
    };
    // Heard last, as the event leaves the window.
    addEventListener("input", heard);
    store.typing = heard;
    return id;
  }

  // --- a click on part of an element's text -----------------------------------------------

  // The text `el` shows, read as flatText reads it, lower-cased one character at a time: each
  // character with the text node and offset it is drawn from, and as the page writes it.
  // A line break or a block between two pieces reads as a space, drawn from nowhere.
  function shownChars(el) {
    const lower = [];
    const raw = [];
    const at = [];
    const space = (node, offset) => {
      if (!lower.length || lower[lower.length - 1] === " ") return;
      lower.push(" ");
      raw.push(" ");
      at.push(node ? [node, offset] : null);
    };
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        for (let i = 0; i < node.data.length; i++) {
          const ch = node.data[i];
          if (/\s/.test(ch)) {
            space(node, i);
            continue;
          }
          [...ch.toLowerCase()].forEach((low, k) => {
            lower.push(low);
            raw.push(k ? "" : ch);
            at.push([node, i]);
          });
        }
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE || UNREAD.has(tagOf(node))) return;
      if (node.getAttribute("aria-hidden") === "true") return;
      const slot = tagOf(node) === "slot";
      if (!mayShow(node, { visibilityProperty: true })) return;
      const apart = tagOf(node) === "br" || !/^(inline|contents)/.test(getComputedStyle(node).display);
      if (apart) space(null);
      const assigned = slot ? node.assignedNodes({ flatten: true }) : [];
      for (const child of assigned.length ? assigned : node.childNodes) walk(child);
      if (apart) space(null);
    };
    for (const child of el.childNodes) walk(child);
    return { lower: lower.join(""), raw, at };
  }

  // For a click by text that names only part of what `el` shows (one file of a folder whose
  // files have no element of their own, one word of "Reply Forward"): that text, as a Range
  // and as the page writes it. Null when `wanted` is the element's whole text or its name,
  // is not in its text, or `el` is a control (a button, a link, a widget role), which is one
  // target wherever it is pressed: it is clicked as any other. The text must be there once:
  // as a word, else as part of one.
  function textPart(el, face, wanted) {
    const lower = clean(wanted).toLowerCase();
    // A control is pressed as a whole; an editable box's text is what it holds, and a word
    // of it is pressed where it is (a double click selects that word).
    if (!lower || (ROLES.includes(roleOf(el)) && !el.isContentEditable)) return null;
    const own = textOf(el).toLowerCase();
    if (own === lower || !own.includes(lower) || labelOf(el, face).toLowerCase() === lower) return null;
    const shown = shownChars(el);
    const starts = [];
    for (let i = shown.lower.indexOf(lower); i >= 0; i = shown.lower.indexOf(lower, i + 1)) starts.push(i);
    const letter = /[\p{L}\p{N}]/u;
    const words = starts.filter((i) =>
      !letter.test(shown.lower[i - 1] || "") && !letter.test(shown.lower[i + lower.length] || ""));
    const found = words.length ? words : starts;
    if (found.length !== 1) {
      const text = clean(wanted);
      return found.length ? { repeated: found.length, text } : { noText: true, text };
    }
    const [first, last] = [shown.at[found[0]], shown.at[found[0] + lower.length - 1]];
    const range = doc.createRange();
    range.setStart(first[0], first[1]);
    range.setEnd(last[0], last[1] + 1);
    return { range, text: shown.raw.slice(found[0], found[0] + lower.length).join("") };
  }

  // Where a press at a point puts the caret: a text node and offset, where the page can tell.
  function caretAt(x, y) {
    if (doc.caretPositionFromPoint) {
      const at = doc.caretPositionFromPoint(x, y);
      return at && { node: at.offsetNode, offset: at.offset };
    }
    const range = doc.caretRangeFromPoint && doc.caretRangeFromPoint(x, y);
    return range && { node: range.startContainer, offset: range.startOffset };
  }

  // Where a click on part of `el`'s text lands: the middle of that text's own box (its first
  // line, when it wraps), once a press there reaches an element that holds the text and,
  // where the page can tell, puts the caret inside it. Else why not: what covers it, or what
  // inside `el` a press there would reach instead (a badge drawn over the word).
  async function aimAtText(el, part) {
    if (!part.range) return part;
    const { range } = part;
    const box = () => [...range.getClientRects()].find((rect) => rect.width > 0 && rect.height > 0);
    let rect = box();
    if (!rect) return { hidden: true };
    const fits = (r) => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    if (!fits(rect)) {
      const holder = range.startContainer.parentElement || el;
      holder.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      rect = box();
      // A holder taller than the view: the text itself is brought to its middle.
      if (rect && !fits(rect)) {
        scrollBy({
          left: rect.x + rect.width / 2 - innerWidth / 2,
          top: rect.y + rect.height / 2 - innerHeight / 2,
          behavior: "instant",
        });
      }
      await frame();
    }
    let hit = null;
    let x, y;
    for (let tries = 0; tries < 5; tries++) {
      if (tries) await frame();
      rect = box();
      if (!rect) return { hidden: true };
      x = Math.min(Math.max(rect.x + rect.width / 2, 1), innerWidth - 1);
      y = Math.min(Math.max(rect.y + rect.height / 2, 1), innerHeight - 1);
      hit = hitAt(x, y);
      const holds = hit && landsOn(hit, el) &&
        (reaches(range.startContainer, hit) || reaches(range.endContainer, hit));
      const caret = holds ? caretAt(x, y) : null;
      const onText = !caret || caret.node.nodeType !== Node.TEXT_NODE ||
        range.isPointInRange(caret.node, caret.offset);
      if (holds && onText) {
        const out = { x, y, text: part.text };
        if (hit !== el) out.hit = selectorFor(hit);
        return out;
      }
    }
    if (hit && landsOn(hit, el)) return { offText: describeCover(hit), text: part.text };
    if (getComputedStyle(el).pointerEvents === "none") {
      // Text that lets the pointer through to the card or button around it that listens
      // (a product card's title): a person's press there is one on that, and so is this.
      const through = hit && hit !== el && hit.contains(el) && takesPress(hit);
      return through ? { x, y, text: part.text, hit: selectorFor(hit) } : { inert: true };
    }
    // The text's own holder may sit in a box of its own inside `el` that cuts it off.
    return cutOff(range.startContainer.parentElement || el, { x, y }) || missedAt(el, { x, y }, hit);
  }

  // --- find: what an agent names by its visible text --------------------------------------

  // What a drop aimed at a text lands on: the item the text names in a list or grid (a tile
  // whose name is a small label at its top, a card, a row), dropped on at its middle as a
  // person drops on the thing and not on its label; a sortable list that waits for the
  // pointer to pass an item's middle (jQuery UI's) moves nothing for a drop on the label.
  // The nearest of the element and the boxes that hold it, ITEM_DEPTH up at most, that is a
  // list item, a row or cell, a draggable element, or one of siblings alike (the same tag and
  // classes); never one that holds what is dragged (the latest `target`), which cannot be
  // dropped inside itself. None such: the element itself.
  const ITEM = "li, tr, td, th, [draggable=true], [role=listitem], [role=option], [role=row], " +
    "[role=gridcell], [role=cell], [role=treeitem]";
  const ITEM_DEPTH = 4;

  function dropItem(el) {
    const dragged = store.target && store.target.isConnected ? store.target : null;
    let at = el;
    for (let depth = 0; at && depth <= ITEM_DEPTH; depth++, at = at.parentElement) {
      if (at === doc.body || at === doc.documentElement || (dragged && at.contains(dragged))) break;
      if (rendered(at) && (at.matches(ITEM) || hasAlike(at))) return at;
    }
    return el;
  }

  // Whether a sibling of `el` is of its kind: its tag and its classes, but for those that say
  // what state it is in (the one hovered, the one dragged).
  function hasAlike(el) {
    const kind = (node) => tagOf(node) + "." +
      [...node.classList].filter((name) => !STATE_CLASS.test(name)).sort().join(".");
    const own = kind(el);
    return Boolean(el.parentElement) &&
      [...el.parentElement.children].some((other) => other !== el && kind(other) === own);
  }

  const FOUND_TEXT_MAX = 160;
  const NEAR_MAX = 3;
  // What a text found on the page belongs with: its list item, row, section or form.
  const NEAR_SCOPE = "li, tr, [role=row], [role=listitem], section, article, form, fieldset, " +
    "dialog, [role=dialog], details";

  function findText({ text, limit, drop }) {
    const wanted = clean(text);
    const lower = wanted.toLowerCase();
    const items = interactive(doc.body || doc.documentElement).map(({ el, face }) => {
      const name = labelOf(el, face);
      const own = clean(face ? faceText(face, el) : textOf(el));
      return { el, name, text: own, lowerName: name.toLowerCase(), lowerText: own.toLowerCase() };
    });
    // Exact before contained; and an element that merely holds several candidates (a menu,
    // a list) is never the target when something inside it matches. An unnamed icon goes by
    // the name a snapshot guessed for it (`span "trash"`), before a name that only contains
    // the text ("Empty trash bin"). A name holding the text as words ("privacy FAQ" for
    // "Privacy") comes before other text that reads exactly so, and that before a name
    // holding it inside a word ("21.50" for "5", "Java" for "Jav").
    let hidden;
    const rules = [
      ["exact", (item) => item.name === wanted || item.text === wanted],
      ["exact", (item) => item.lowerName === lower || item.lowerText === lower],
      ["guessed", (item) => !item.name && guessedName(item.el).toLowerCase() === lower],
      ["partial", (item) => wholeIndex(item.lowerName, lower, 0) >= 0],
      ["text", () => false], // what shows exactly the text, below
      ["partial", (item) => item.lowerName.includes(lower)],
    ];
    // Drawn over in view (the page under an open dialog or menu): not what a person can mean
    // while another shows the text.
    const drawnOver = (el) => {
      const face = faceOf(el);
      const rect = rendered(face || el);
      return Boolean(rect) && inViewport(rect) && coveredAt(el, face, rect);
    };
    let how = "";
    let matches = [];
    let covered = null; // what a rule found, all drawn over: if no later rule finds better
    for (const [name, rule] of rules) {
      if (name !== "exact" && name !== "guessed") {
        // A control hidden now (in a closed menu, tab or dialog) that reads exactly the text
        // is what the agent means, not one that merely holds the words.
        if (hidden === undefined) hidden = hiddenNamed(lower);
        if (hidden) return { how: "hidden", total: 0, matches: [], hidden };
      }
      matches = name === "text" ? shownAs(lower) : items.filter(rule).map((item) => item.el);
      if (name === "partial") {
        matches = matches.filter((el) => !items.some((other) => other.el !== el && reaches(other.el, el)));
        // A list the page listens on as a whole holds the item that reads exactly the text
        // (a nested list's "Write tests"): that item, not the list's middle.
        if (matches.length) {
          const exact = shownAs(lower);
          matches = matches.map((el) => exact.find((inner) => inner !== el && el.contains(inner)) || el);
        }
      }
      if (matches.length && !covered && matches.every(drawnOver)) {
        // An open dialog's "DELETE" (its words in capitals as drawn) under the page's
        // covered "Delete" buttons: the dialog's is meant.
        covered = { how: name, matches };
        continue;
      }
      if (matches.length) {
        how = name;
        break;
      }
    }
    if (!matches.length && covered) ({ how, matches } = covered);
    matches = [...new Set(matches.map(pressTaker))];
    // A match inside another match is the same target: keep the innermost. A label of a
    // matched control is that control.
    matches = matches.filter((el) => !matches.some((other) => other !== el && reaches(other, el)));
    matches = matches.filter((el) => !(tagOf(el) === "label" && el.control && matches.includes(el.control)));
    // Of several, those drawn over in view are not what a person can mean: the one they see.
    if (matches.length > 1) {
      const open = matches.filter((el) => !drawnOver(el));
      if (open.length) matches = open;
    }
    // The options of a list drawn open on the page (a select of several rows) are its
    // controls, not text that only shows the words.
    if (how === "text" && matches.length && matches.every((el) => tagOf(el) === "option")) how = "option";
    // The option of a select a person opens and picks from: the browser draws its list
    // itself, outside the page, so no press on the page reaches it.
    let option = null;
    if (!matches.length) {
      for (const select of doc.querySelectorAll("select")) {
        const listed = [...select.options].find((one) => clean(one.label).toLowerCase() === lower);
        if (!listed) continue;
        // A select a library hides behind its own control (select2, tom-select): that one.
        const { standIn: shownFor } = rendered(select) ? {} : standIn(select);
        if (rendered(select) || shownFor) {
          option = { select: selectorFor(select), label: clean(listed.label), ...(shownFor ? { standIn: shownFor } : {}) };
          break;
        }
      }
    }
    // Text that runs from plain words into one control ("after pears more", its "more" a
    // link): that control, which is what a person presses for it.
    if (!matches.length && !option) {
      matches = spannedControls(wanted, items);
      if (matches.length) how = "across";
    }
    if (drop) matches = [...new Set(matches.map(dropItem))];
    // Of more than are listed, those the agent sees first, then the nearest to the view (a
    // feed's seventy Likes: the ones around where it is).
    const shownFirst = matches.length > limit ? nearestFirst(matches) : matches;
    // Each as a snapshot lists it: several alike say whose row they are in.
    const listed = shownFirst.slice(0, limit).map((el) => {
      const group = cap(groupOf(el));
      const marked = dayMark(el); // the one thing alike days differ by
      return {
        el,
        out: {
          selector: selectorFor(el), tag: tagOf(el), label: cap(nameOf(el) || guessedName(el)),
          ...(group ? { group } : {}), ...(marked ? { marked } : {}), opensWindow: opensWindow(el),
        },
      };
    });
    inRows(listed);
    const none = !matches.length && !option;
    // Words among others of an element that is no control (a word of a paragraph): where.
    const among = none && shownAs(lower, true);
    return {
      how, ...(option ? { option } : {}), ...(none ? elsewhere(doc.body || doc.documentElement) : {}),
      ...(among ? { among: { selector: selectorFor(among), tag: tagOf(among), label: cap(clean(textOf(among))) } } : {}),
      total: matches.length, matches: listed.map(({ out }) => out),
    };
  }

  // The controls `wanted` runs into from the plain words before or after it: each place the
  // page shows the text that takes in words outside any control and the words of exactly
  // one, gives that one. A place that spans two controls ("Home About") gives neither.
  function spannedControls(wanted, items) {
    const controls = new Set(items.map((item) => item.el));
    const holder = (node) => {
      for (let up = node.parentElement || node.parentNode.host; up; up = up.parentElement || up.parentNode?.host) {
        if (controls.has(up)) return up;
      }
      return null;
    };
    const read = readableText(doc.body || doc.documentElement);
    const shown = lowerSameLength(read.text);
    const lower = lowerSameLength(wanted);
    const found = new Set();
    for (let at = shown.indexOf(lower); at >= 0 && lower; at = shown.indexOf(lower, at + 1)) {
      const touched = new Set();
      let plain = false;
      for (let i = at; i < at + lower.length; i++) {
        const place = read.at[i]; // none for a space the layout puts between blocks
        const control = place && holder(place[0]);
        if (control) touched.add(control);
        else if (place && /[\p{L}\p{N}]/u.test(read.text[i])) plain = true;
      }
      if (touched.size === 1 && plain) found.add([...touched][0]);
    }
    return [...found];
  }

  // What a press on `el` reaches: `el`, or for text that lets the pointer through (a card's
  // title under pointer-events: none) the control around it that takes the press, if any.
  function pressTaker(el) {
    if (getComputedStyle(el).pointerEvents !== "none") return el;
    for (let up = el.parentElement; up && up !== doc.body; up = up.parentElement) {
      if (getComputedStyle(up).pointerEvents === "none") continue;
      return takesPress(up) ? up : el;
    }
    return el;
  }
  // Whether `el` is a control a press is meant for: listed as one, or made one by script.
  const takesPress = (el) => el.matches(INTERACTIVE) || handled(el) || pointerTarget(el);

  // `elements` in view first, then by how far each lies from the view; in reading order
  // otherwise.
  function nearestFirst(elements) {
    const far = new Map(elements.map((el) => [el, fromView(el.getBoundingClientRect())]));
    return [...elements].sort((a, b) => far.get(a) - far.get(b));
  }

  // The innermost elements drawn whose own text is exactly `lower` (any case): elements made
  // clickable with addEventListener and no pointer cursor, a slider's scale, a plain label.
  // Where a text found nowhere under `top` may yet be (targets.py's elsewhere says it): in
  // rows a box in view that scrolls by itself has not drawn (`boxes`), or further down a page
  // that goes on below the view (`pageBelow`: a feed that adds more as it is scrolled).
  function elsewhere(top) {
    const main = scroller(true);
    const boxes = scrollBoxes(top.getElementsByTagName("*"), main);
    const { scrollY, maxScrollY } = position(main);
    return { ...(boxes.length ? { boxes } : {}), ...(maxScrollY - scrollY > 1 ? { pageBelow: true } : {}) };
  }

  // With `within`, the first element that shows the text among other words instead (a
  // word of a paragraph), or null.
  function shownAs(lower, within = false) {
    const found = [];
    const seen = new Set();
    const look = (root) => {
      const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || seen.has(parent) || !clean(node.data).toLowerCase().includes(lower)) continue;
        seen.add(parent);
        if (within) {
          if (rendered(parent)) return parent;
          continue;
        }
        // Beside its text an element may show only marks, no word: a drag handle's "☰", a
        // bullet, an arrow. Or it holds other elements after its own words, which are the text
        // (a board's column, "Done" over its cards): the press goes to those words.
        const shown = textOf(parent).toLowerCase();
        const own = clean(node.data).toLowerCase() === lower;
        if ((own || !/[\p{L}\p{N}]/u.test(shown.replace(lower, ""))) && rendered(parent)) found.push(parent);
      }
      return null;
    };
    // The page's own text first; a web component's open shadow roots where it has none.
    let inside = look(doc.body || doc.documentElement);
    for (const root of (inside || found.length) ? [] : shadowRoots(doc)) inside ||= look(root);
    return within ? inside : found;
  }

  // A control not drawn now whose name is exactly `lower` (any case): in a closed menu, tab,
  // section or dialog. With what opens it, where the page says so: a control naming its box
  // (aria-controls, a target or a link to its id), or one just before that box (a dropdown's
  // toggle, a section's header); else the box, for a hover to open.
  // Several alike (each row's Delete, shown on hover): the first, and `alike`, up to
  // HIDDEN_ALIKE_MAX of them, each with the row it is in, and `alikeTotal`.
  function hiddenNamed(lower) {
    // Its name as a person would read it shown: what its labels or it hold, drawn or not.
    const named = (el) => clean(nameOf(el)) ||
      clean(el.labels && el.labels.length ? [...el.labels].map((label) => label.textContent).join(" ") : el.textContent);
    const found = [];
    let total = 0;
    for (const el of doc.querySelectorAll(INTERACTIVE)) {
      if (rendered(el) || named(el).toLowerCase() !== lower) continue;
      // Out to the box hidden itself (display none, a closed menu), not past one merely of
      // no size (a body whose children are all placed absolutely).
      let box = el;
      while (box.parentElement && !rendered(box.parentElement) &&
        !(box.parentElement.checkVisibility?.({ visibilityProperty: true }) ?? false)) box = box.parentElement;
      const holder = box.parentElement;
      if (!holder || holder === doc.body && box === el) continue; // hidden for good, not closed
      const id = box.id && CSS.escape(box.id);
      const opener = (id && doc.querySelector(`[aria-controls~="${id}"], [data-bs-target="#${id}"],` +
          ` [data-target="#${id}"], a[href="#${id}"]`)) ||
        [box.previousElementSibling, holder].find((near) => near && rendered(near) &&
          (near.matches(INTERACTIVE) || near.matches("[aria-haspopup], [aria-expanded]") || handled(near)));
      const out = { selector: selectorFor(el), tag: tagOf(el), label: cap(named(el)) };
      if (opener && rendered(opener)) {
        out.opener = { selector: selectorFor(opener), tag: tagOf(opener), label: cap(nameOf(opener) || guessedName(opener)) };
        // A menu's top item that is a link to another page opens on hover; a click leaves.
        if (opener.matches("a[href]") && !/^(#|javascript:)/i.test(opener.getAttribute("href"))) out.opener.leaves = true;
      } else if (holder !== doc.body) {
        out.within = { selector: selectorFor(holder), tag: tagOf(holder), label: cap(clean(textOf(holder)), 60) };
      }
      total += 1;
      if (found.length < HIDDEN_ALIKE_MAX) found.push({ el, out });
    }
    if (total < 2) return found.length ? found[0].out : null;
    inRows(found);
    const alike = found.map(({ out }) => ({ selector: out.selector, tag: out.tag, label: out.label, group: out.group }));
    return { ...found[0].out, alike, alikeTotal: total };
  }
  const HIDDEN_ALIKE_MAX = 5;

  // What matches anywhere on the page, without scrolling, in reading order: interactive
  // elements whose name or text matches, as a snapshot lists them with the text around each
  // (their container's); and any other visible text (a heading, a list item, a cell), as the
  // innermost element that shows it, with the interactive elements nearest to it.
  function find({ text, regex, limit }) {
    // `absent`: nothing under the element can match; `unlikely`: the element's own shown text
    // (innerText, which costs a layout walk) need not be read.
    let test, at, absent, unlikely, holds;
    if (regex) {
      let pattern;
      try {
        pattern = new RegExp(text, "i");
      } catch {
        return { error: "regex" };
      }
      test = (value) => pattern.test(value);
      at = (value) => value.search(pattern);
      // An anchored pattern (^zone) may match an element's text and not its container's, so
      // each element is judged by its own textContent, which runs blocks together unspaced.
      absent = () => false;
      unlikely = (el) => !pattern.test(clean(el.textContent));
      holds = (el) => pattern.test(clean(el.textContent));
    } else {
      const lower = clean(text).toLowerCase();
      const squashed = lower.replace(/\s/g, "");
      test = (value) => value.toLowerCase().includes(lower);
      at = (value) => value.toLowerCase().indexOf(lower);
      // textContent runs blocks together where the layout puts a space: compared unspaced.
      // Composed as `lower` is, where that can matter (a wanted text of other than ASCII).
      const own = /[^\x00-\x7f]/.test(lower) ? (el) => composed(el.textContent) : (el) => el.textContent;
      absent = (el) => !own(el).toLowerCase().replace(/\s/g, "").includes(squashed);
      unlikely = () => false;
      holds = (el) => !absent(el);
    }
    const top = doc.body || doc.documentElement;
    const roots = [top];
    const shown = interactive(top, roots);
    const controls = new Set(shown.map((item) => item.el));
    const hits = [];
    // Text inside a matching control, or naming one (its label), is that control's match.
    const theirs = new Set();
    for (const item of shown) {
      if (!test(labelOf(item.el, item.face)) && !test(textOf(item.el))) continue;
      hits.push({ el: item.el, item });
      theirs.add(item.el);
      if (item.face) theirs.add(item.face);
      for (const label of item.el.labels || []) theirs.add(label);
      for (const id of clean(item.el.getAttribute("aria-labelledby")).split(" ")) {
        const named = id && byId(item.el, id);
        if (named) theirs.add(named);
      }
    }
    const ownText = (el) =>
      [...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && test(clean(node.data)));
    // The innermost element whose shown text matches; one whose own words match too (a list
    // item "sum()" that holds a link "sum of squares"). True when `el` or one inside it matched;
    // UNDRAWN when one inside that is not drawn holds the whole text (a note for screen
    // readers alone), which the boxes around it then do not show either (their innerText
    // has it all the same). One drawn as what it holds (display: contents) is drawn.
    const UNDRAWN = 2;
    const visit = (el) => {
      if (UNREAD.has(tagOf(el)) || absent(el)) return false;
      let inner = false;
      let undrawnInside = false;
      for (const child of el.children) {
        const got = visit(child);
        if (got === true) inner = true;
        else if (got === UNDRAWN) undrawnInside = true;
      }
      if (controls.has(el)) return inner || theirs.has(el);
      if (inner ? !ownText(el) : unlikely(el)) return inner;
      if (!inner && undrawnInside && !ownText(el)) return UNDRAWN;
      const rect = rendered(el); // innerText of an element not drawn is its source text
      const shownText = rect ? textOf(el) : "";
      if (!test(shownText)) {
        const undrawn = !rect && holds(el) && tagOf(el) !== "slot" && getComputedStyle(el).display !== "contents";
        return inner || (undrawn ? UNDRAWN : false);
      }
      if (!within(el, theirs)) hits.push({ el, rect, text: shownText });
      return true;
    };
    for (const root of roots) {
      if (root === top) visit(top);
      else for (const child of root.children) visit(child);
    }
    // A picture is found by its name, which no text on the page holds (an icon "vegan").
    for (const picture of top.querySelectorAll(PICTURES)) {
      const name = nameOf(picture);
      const rect = name && test(name) && !within(picture, theirs) && rendered(picture);
      if (rect) hits.push({ el: picture, rect, text: name });
    }
    hits.sort((a, b) => order(a.el, b.el));
    // The controls it lists, remembered as a snapshot's are: a feed that adds a post above
    // them before the click makes their selectors name another post's.
    const listed = [];
    const listing = (item) => {
      const out = element(item);
      listed.push({ el: item.el, out });
      return out;
    };
    const found = hits.slice(0, limit).map((hit) => {
      if (hit.item) {
        const out = listing(hit.item);
        const box = hit.el.parentElement;
        const around = box ? shownWords(box) : "";
        if (around && around !== labelOf(hit.el, hit.item.face)) {
          out.context = around.length > CONTEXT_MAX ? wordsAround(hit.el, box, CONTEXT_MAX) : around;
        }
        return out;
      }
      const out = { text: excerpt(hit.text, at(hit.text)), tag: tagOf(hit.el) };
      const selector = selectorFor(hit.el);
      if (selector) out.selector = selector;
      out.inViewport = Boolean(hit.rect) && inViewport(hit.rect) && !scrolledAway(hit.el, hit.rect, listedBoxes) &&
        !clippedAway(hit.el, hit.rect, listedBoxes);
      out.near = nearby(hit.el, shown, top).map(listing);
      return out;
    });
    remember(listed, false);
    return { total: hits.length, elements: found, ...(hits.length ? {} : elsewhere(top)) };
  }

  function within(el, set) {
    for (let up = el; up; up = up.parentElement || (up.parentNode && up.parentNode.host)) {
      if (set.has(up)) return true;
    }
    return false;
  }

  // `value` cut to FOUND_TEXT_MAX characters around `index`, where the match starts.
  // The words just before and after `el` in `box` (the sentence a link is in), up to `max`
  // characters: of two links alike in a long paragraph ("more", "more"), each its own.
  const CONTEXT_MAX = 160;
  function wordsAround(el, box, max) {
    const own = clean(el.textContent);
    const room = Math.max(0, max - own.length - 4);
    // The text of `box` before and after `el`, up to `room` characters each way, its blocks
    // (lines, list items) apart as drawn: a range's text runs them together ("appleItem 73").
    const blockOf = (node) => {
      for (let up = node.parentElement; up && up !== box; up = up.parentElement) {
        if (!getComputedStyle(up).display.startsWith("inline")) return up;
      }
      return box;
    };
    const read = (forward) => {
      const walker = doc.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      walker.currentNode = el;
      let text = "";
      let last = null;
      for (let node = forward ? walker.nextNode() : walker.previousNode(); node && text.length <= room;
        node = forward ? walker.nextNode() : walker.previousNode()) {
        if (el.contains(node)) continue;
        const block = blockOf(node);
        const apart = last && last !== block ? " " : "";
        text = forward ? text + apart + node.data : node.data + apart + text;
        last = block;
      }
      return clean(text);
    };
    const before = read(false);
    const after = read(true);
    let head = before.slice(Math.max(0, before.length - Math.max(Math.ceil(room / 2), room - after.length)));
    let tail = after.slice(0, room - head.length);
    // Cut between words, not inside one.
    if (head.length < before.length) head = "\u2026" + head.replace(/^\S*\s/, "");
    if (tail.length < after.length) tail = tail.replace(/\s\S*$/, "") + "\u2026";
    return `${head} ${own} ${tail}`.trim();
  }

  function excerpt(value, index) {
    if (value.length <= FOUND_TEXT_MAX) return value;
    const start = Math.max(0, Math.min(index - 40, value.length - FOUND_TEXT_MAX + 1));
    const head = start > 0 ? "\u2026" : "";
    const piece = value.slice(start, start + FOUND_TEXT_MAX - head.length);
    return start + piece.length < value.length ? head + piece.slice(0, -1) + "\u2026" : head + piece;
  }

  // The interactive elements that go with a text, nearest first: those inside it, then those
  // of the smallest box around it that holds any (its row, however the page builds rows), then
  // of the next box up, and so on within its list item, row or section; in each box those
  // after the text first, then those before it, nearest first.
  function nearby(el, shown, top) {
    let scope = null;
    for (let at = el; at && !scope; at = at.getRootNode().host) scope = at.closest(NEAR_SCOPE);
    scope ||= top;
    let left = shown.filter((item) => reaches(item.el, scope));
    const near = [];
    for (let box = el; box && left.length && near.length < NEAR_MAX;
      box = box === scope ? null : box.parentNode || box.host) {
      if (box.nodeType !== Node.ELEMENT_NODE) continue;
      const inside = left.filter((item) => reaches(item.el, box));
      left = left.filter((item) => !inside.includes(item));
      const after = inside.filter((item) => order(item.el, el) > 0);
      const before = inside.filter((item) => order(item.el, el) <= 0).reverse();
      near.push(...after, ...before);
      // A box a clipping box hides (a carousel's slide not on show): what is near it on
      // show belongs to another (another slide's button).
      if (clippedAway(box, box.getBoundingClientRect(), listedBoxes)) break;
    }
    return near.slice(0, NEAR_MAX);
  }

  // --- fields: a value set as a picker sets it, or text readied to be typed ---------------

  // Fields the browser takes no typed text for: their value is set, as a picker would.
  const SET_VALUE = new Set(["color", "date", "time", "datetime-local", "month", "range", "week"]);

  // Readies the stashed field for a new value, as a person would: a text field is focused
  // with all its text selected, so the text the keyboard types next replaces it
  // (`{typeIt: true}`); a select gets the options whose values are `values` chosen, a date,
  // time, colour or range field gets `value`, each with the input and change events a
  // picker sends. A value such a field does not take leaves it as it was.
  function fill({ value, values }) {
    const el = store.target;
    if (!el || !el.isConnected) return { error: "gone" };
    const changedBy = (field) => {
      field.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
      field.dispatchEvent(new Event("change", { bubbles: true }));
      return {};
    };
    if (tagOf(el) === "select") {
      const chosen = [];
      for (const wanted of values) {
        const option = [...el.options].find((one) => one.value === wanted && !chosen.includes(one));
        if (!option) return { error: "option", option: wanted };
        if (option.disabled || (option.parentElement && option.parentElement.disabled)) {
          return { error: "disabledOption", option: clean(option.label) };
        }
        chosen.push(option);
        if (!el.multiple) break;
      }
      el.focus();
      // The choice it holds already: a person picking it again sets nothing off.
      if ([...el.options].every((option) => option.selected === chosen.includes(option))) return {};
      for (const option of el.options) option.selected = chosen.includes(option);
      return changedBy(el);
    }
    if (takesText(el)) return readyForText(el, value);
    if (tagOf(el) !== "input") return { error: "untypable" };
    // Tried first on a field alike in a document with no window, which the browser takes no
    // value into that this one would not: one it refuses is refused unseen, where the page's
    // own field would log a warning in its console as the page's.
    const probe = doc.implementation.createHTMLDocument("").createElement("input");
    for (const name of ["type", "min", "max", "step"]) if (el.hasAttribute(name)) probe.setAttribute(name, el.getAttribute(name));
    probe.value = value.trim();
    if (probe.value !== value.trim()) {
      // A number a range cannot take: out of its bounds, or off its steps.
      if (el.type === "range" && value.trim() !== "" && Number.isFinite(Number(value))) {
        return { error: "range", min: el.min || "0", max: el.max || "100", step: el.step || "1" };
      }
      return { error: "malformed", type: el.type };
    }
    el.focus();
    // Through the browser's own setter, as a picker sets it: a framework that tracks the
    // value set through the element (React) takes a set through that for its own doing, and
    // reads the events after it as no change at all.
    const { set } = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value");
    set.call(el, value.trim());
    return changedBy(el);
  }

  // Whether the keyboard types into the field (a text field, a textarea, an editable box),
  // rather than a picker setting its value.
  function takesText(el) {
    if (tagOf(el) === "input") return !SET_VALUE.has(el.type);
    return tagOf(el) === "textarea" || (tagOf(el) !== "select" && el.isContentEditable);
  }

  // A text of items apart (commas, semicolons): what a tag field (Tagify, a chip input)
  // makes into items beside itself as they are typed, emptying itself. Where it shows them:
  // the box three out from the field (a label, a form's row, the widget), the page's body at
  // most. Which of the items typed show there more often than before the typing.
  const SEPARATED = /[,;]/;
  function nearBox(el) {
    let box = el;
    for (let up = 0; up < 3 && box.parentElement && box.parentElement !== doc.body; up++) box = box.parentElement;
    return box;
  }
  function madeItems({ el, value, before }) {
    const now = clean(nearBox(el).innerText);
    const count = (text, piece) => text.split(piece).length - 1;
    const items = value.split(SEPARATED).map((piece) => clean(piece)).filter(Boolean);
    const held = clean(state(el).value ?? "");
    return items.filter((item) => !held.includes(item) && count(now, item) > count(before, item));
  }

  // Focus the field and select what it holds, for typed text to replace it. A text longer
  // than the field keeps (its maxlength) is cut there by the browser: `keeps` says so.
  // `keys`: the page listens for keys on the field or around it, so the text is typed key
  // by key (see listenedFor); `enterIdle`: a one-line field whose Enter sends no form (see
  // formIdle), with nothing that listens for what Enter sets off.
  const SENDS = "button:not([type]), button[type=submit], input[type=submit], input[type=image]";
  // Enter in a form's field sends it as a press on the form's first button that sends it
  // would: of several, which one (a dialog's Cancel written before its Create).
  function enterSends(el) {
    const sends = el.form ? [...el.form.elements].filter((control) => control.matches(SENDS)) : [];
    return sends.length > 1 && !sends[0].disabled ? { enterSends: describeCover(sends[0]), sendsCount: sends.length } : {};
  }
  // The fields that keep Enter from sending a form that has no button to send it, where
  // there are several (HTML's implicit submission).
  const BLOCKS_ENTER = new Set(["text", "search", "url", "tel", "email", "password", "date", "month",
    "week", "time", "datetime-local", "number"]);
  // Why Enter in a field of `form` sends nothing: its first button that sends it is disabled
  // (`disabled`: that button), or it has none and more than one field (`unsent`: its first
  // other button, a wizard's Next, or null); null where Enter sends it.
  function formIdle(form) {
    if (form.querySelector("input[type=image]")) return null; // a button form.elements leaves out
    const controls = [...form.elements];
    const first = controls.find((control) => control.matches(SENDS));
    if (first) return first.matches(":disabled") ? { disabled: describeCover(first) } : null; // its fieldset's too
    const fields = controls.filter((control) => tagOf(control) === "input" && BLOCKS_ENTER.has(control.type));
    if (fields.length < 2) return null;
    const other = controls.find((control) => control.matches("button, input[type=button]") && rendered(control));
    return { unsent: other ? describeCover(other) : null };
  }
  // Whether an Enter in `el` sent anything after all (`enterSent` in stateNow): a form
  // whose button the page enabled as the text went in sends itself, with a click on that
  // button and a submit event. Watched from a field readied as one whose Enter sends nothing.
  function watchEnter(el) {
    if (el && !store.enterHeard) {
      store.enterHeard = true;
      const heard = () => {
        if (store.enterWatch) store.enterWatch.sent = true;
      };
      for (const type of ["click", "submit"]) addEventListener(type, heard, { capture: true, passive: true });
    }
    store.enterWatch = el ? { el, sent: false } : null;
  }
  function readyForText(el, value) {
    const tag = tagOf(el);
    store.typedNear = SEPARATED.test(value) ? { el, value, before: clean(nearBox(el).innerText) } : null;
    const keeps = el.maxLength >= 0 && value.length > el.maxLength ? { keeps: el.maxLength } : {};
    const heard = listenedFor(el, ENTER_EVENTS);
    const keys = KEY_EVENTS.some((type) => heard.has(type)) ? { keys: true } : {};
    if (tag === "input") {
      if (el.type === "number" && Number.isNaN(Number(value.trim()))) return { error: "number" };
      // Focused first, as a person's click or tab comes before the keys that select: a page
      // that moves the caret as the field gains the focus (a mask's, to its end) would
      // otherwise have the selection undone, and the typing added to what it held.
      el.focus();
      el.select();
      // Known for sure (DevTools' listeners at hand): Enter here would do nothing at all.
      // A page that reacts to the text as it goes in (a list filtered as typed) has done so.
      const why = listeners && !heard.size ? (el.form ? formIdle(el.form) : {}) : null;
      const idle = why ? { enterIdle: listenedFor(el, ["input"]).size ? "asTyped" : true, ...why } : {};
      watchEnter(why ? el : null);
      return { typeIt: true, ...keeps, ...keys, ...idle, ...enterSends(el) };
    } else if (tag === "textarea") {
      el.focus();
      el.selectionStart = 0;
      el.selectionEnd = el.value.length;
      return { typeIt: true, ...keeps, ...keys };
    } else {
      let host = el;
      while (host.parentElement && host.parentElement.isContentEditable) host = host.parentElement;
      host.focus();
      const selection = window.getSelection();
      // An empty editor has nothing to replace: where its own focus put the caret stays, with
      // the formats it holds there (Quill's bold, pressed before the typing).
      if (!clean(el.textContent) && selection.rangeCount && el.contains(selection.anchorNode)) {
        return { typeIt: true, ...keys };
      }
      const range = doc.createRange();
      range.selectNodeContents(el);
      if (!clean(el.textContent)) range.collapse(true);
      selection.removeAllRanges();
      selection.addRange(range);
    }
    return { typeIt: true, ...keys };
  }

  // Which of `types` the page listens for where `el` gets them: on it, a container of it, the
  // document or the window (an autocomplete that reads keyup, a field that refuses some keys
  // on keypress, an app that listens at its root). Text inserted at once makes the input
  // events alone; a page that listens for keys needs each key pressed. None known where
  // DevTools' listeners are not at hand (an iframe's document).
  // `page` false: on it and the boxes around it short of the body only (the page's own
  // shortcuts, on the document or window, are not the element's).
  function listenedFor(el, types, page = true) {
    const heard = new Set();
    if (!listeners) return heard;
    const look = (target) => {
      const all = listeners(target);
      for (const type of types) if (target["on" + type] || all[type]?.length) heard.add(type);
    };
    for (let node = el; node && (page || node !== doc.body); node = node.parentNode || node.host) {
      // A shadow root on the way is listened on too (a web component's own keys).
      if (node.nodeType === Node.ELEMENT_NODE || node instanceof ShadowRoot || (page && node === doc)) look(node);
    }
    if (page) look(window);
    return heard;
  }
  const KEY_EVENTS = ["keydown", "keypress", "keyup"];
  // Whether `el`, or a box around it, reads keys itself (see listenedFor's `page`).
  const ownKeys = (el) => listenedFor(el, KEY_EVENTS, false).size > 0;
  // What Enter in a one-line field can set off besides a form it submits: a key handler, a
  // change handler (Enter commits the value), a search field's own event.
  const ENTER_EVENTS = [...KEY_EVENTS, "beforeinput", "change", "search"];

  // After a text its field kept only the start of: a page that moves the focus on as a box
  // fills (a code in one-character boxes) takes the rest in the field it focused, as from a
  // person typing on. That field readied for the rest; the same field (`same`) where the
  // focus stayed (by the next frame: a page may move it once it has drawn the box filled; on
  // a busy machine that frame comes late, and is waited for) and it has room for more again;
  // nothing where it is full, or the focus moved to what takes no text.
  async function typeOn({ value }) {
    const focused = () => {
      let el = doc.activeElement;
      while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
      return el;
    };
    const typedLast = store.typedOn || store.target;
    if (focused() === typedLast) {
      await new Promise((resolve) => {
        frame().then(() => later(resolve, 0));
        later(resolve, doc.hidden ? FRAME_MS : MOTION_MS);
      });
    }
    const el = focused();
    if (!el || !["input", "textarea"].includes(tagOf(el)) || !takesText(el) || el.readOnly ||
        disabled(el)) return {};
    if (el === typedLast) {
      // The page took characters out as they went in (a phone number's brackets): it has room
      // for more where the caret is, as for a person's next keys.
      // Only at its end: a page that put the caret back to the start would have the rest
      // typed before the start.
      const room = el.maxLength - el.value.length + Math.abs(el.selectionEnd - el.selectionStart);
      if (el.maxLength < 0 || room <= 0 || el.selectionEnd !== el.value.length) return {};
      return { typeIt: true, same: true, ...(value.length > room ? { keeps: room } : {}) };
    }
    store.typedOn = el;
    return readyForText(el, value);
  }

  // --- the pointer: what is under it, where a drag drops, text to select ------------------

  // Where the pointer rests in this document, and whether something came under it since it
  // last moved (drawn there: the browser tells a mouseover, and no move). A page may take
  // the pointer's next move for one over what came (jQuery UI's menus do: the item a menu
  // opened under is chosen at the next move, wherever it goes), so a press elsewhere starts
  // the pointer's way where it rests (target's `rest`). Watched from the document's first call.
  function watchRest() {
    if (store.rest) return;
    const rest = (store.rest = {});
    const moved = (event) => {
      if (!event.isTrusted) return;
      Object.assign(rest, { x: event.clientX, y: event.clientY, cameUnder: event.type === "mouseover" });
    };
    addEventListener("mouseover", moved, { capture: true, passive: true });
    addEventListener("mousemove", moved, { capture: true, passive: true });
  }

  // The element drawn at a viewport point, named as a snapshot names elements (the page
  // itself without its text as a label); null outside the viewport or over nothing.
  function under(x, y) {
    if (!(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return null;
    const hit = hitAt(x, y);
    if (!hit) return null;
    if (hit === doc.body || hit === doc.documentElement) return { selector: selectorFor(hit), tag: tagOf(hit) };
    return describeCover(hit);
  }

  // What is under each point, and the viewport's size. With `watch`, the timers the page
  // sets from now on are watched for the wait after the pointer acts, as a click's `target`
  // watches them: this is then the last question before the input.
  function pointer({ points, watch }) {
    if (watch) watchTimers();
    return { width: innerWidth, height: innerHeight, under: points.map(({ x, y }) => under(x, y)) };
  }

  // The middle of the part of a box inside the viewport; null when none of it is.
  function visibleCentre(rect) {
    const left = Math.max(rect.left, 0);
    const right = Math.min(rect.right, innerWidth);
    const top = Math.max(rect.top, 0);
    const bottom = Math.min(rect.bottom, innerHeight);
    if (right <= left || bottom <= top) return null;
    return { x: (left + right) / 2, y: (top + bottom) / 2 };
  }

  // A drag the browser carries (HTML drag and drop), watched from before the press until
  // the answer: whether the page began one (dragstart), and whether anything took its drop
  // (a drop event, or a drop effect at its end: a drop in an iframe shows only that).
  // A drag watched from its press to its answer: whether the page's own drag and drop began
  // and took a drop, and whether the page changed at all (`still`: the element dragged where
  // it was, scrolled as it was, holding the value it held; no element, text or attribute of
  // the page changed, no field took input, nothing but a drawing's pixels could have moved),
  // with any text the drag selected instead (`selected`: a text area's, dragged on its text).
  function watchDrag() {
    dragEnded();
    const el = store.target;
    const seen = { started: false, dropped: false, effect: null, changed: false };
    const placeOf = () => el && el.isConnected
      ? JSON.stringify([el.getBoundingClientRect(), el.scrollTop, el.scrollLeft, el.value, scrollX, scrollY]) : null;
    const was = placeOf();
    const selectedBefore = getSelection().toString();
    const changes = new MutationObserver(() => { seen.changed = true; });
    changes.observe(doc, { subtree: true, childList: true, characterData: true, attributes: true });
    const changed = () => { seen.changed = true; };
    const listeners = {
      dragstart: () => { seen.started = true; },
      drop: () => { seen.dropped = true; },
      dragend: (event) => { seen.effect = event.dataTransfer ? event.dataTransfer.dropEffect : null; },
      input: changed,
      change: changed,
    };
    for (const [type, listener] of Object.entries(listeners)) addEventListener(type, listener, true);
    const stop = () => {
      if (changes.takeRecords().length) seen.changed = true;
      changes.disconnect();
      for (const [type, listener] of Object.entries(listeners)) removeEventListener(type, listener, true);
      // A drawing (a canvas, a video) changes what it shows with no change to the page's elements.
      const drawing = el && (el.closest(DRAWINGS) || el.querySelector(DRAWINGS));
      seen.still = !seen.changed && !seen.started && !drawing && placeOf() === was;
      if (seen.still && el && typeof el.selectionStart === "number" && el.selectionEnd > el.selectionStart) {
        seen.selected = el.value.slice(el.selectionStart, el.selectionEnd);
      } else if (seen.still && !getSelection().isCollapsed && getSelection().toString() !== selectedBefore) {
        seen.selected = clean(getSelection().toString());
      }
    };
    store.dropWatch = { seen, stop };
    return {};
  }

  const DRAWINGS = "canvas, video, embed, object";

  function dragEnded() {
    const watch = store.dropWatch;
    store.dropWatch = null;
    if (!watch) return {};
    watch.stop();
    return watch.seen;
  }

  // The element the latest `target` found, brought to the middle of the view through every
  // document around it: an iframe's own document shows it, but the page has the iframe
  // scrolled out of its window.
  async function reveal() {
    const el = store.target;
    if (el && el.isConnected) el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    await frame();
    return {};
  }

  // Where to drop the element the latest `target` found (the one dragged) on the element
  // `selector` names: the middle of its visible part, brought into view (`from` is then where
  // the dragged element moved to, still in view). Refused as a click's target is, except
  // that the dragged element may be what covers it. `carried`: the drag is under way, its
  // element pressed and the page scrolled to the drop, wherever the element is now.
  // `at`: "before" or "after" moves the drop a fifth in from the element's top or bottom
  // (left or right where the drag goes more across than down); see dropPlace.
  async function dropTarget({ selector, fresh, at, carried }) {
    const found = resolve(selector);
    if (found.error || found.enterFrame) return found;
    if (found.partial !== undefined) return { error: "count", count: found.list.length, selector: found.partial };
    if (found.list.length !== 1) return { error: "count", count: found.list.length };
    const named = found.list[0];
    const dragged = store.target;
    if (!dragged || !dragged.isConnected) return { gone: true };
    if (!fresh && changed(selector, named)) return { changed: true };
    // Before or after on a list itself (the dragged item's own, or one like it: a board's
    // other column) is at its start or end: before its first item, after its last.
    const el = (at && at !== "center" && endItem(named, dragged, at)) || named;
    if (reaches(el, dragged)) return { inside: true };
    let rect = rendered(el);
    // Dragged as the browser drags (draggable): a drop zone may show only once it begins.
    if (!rect) return { hidden: true, ...(dragged.closest("[draggable=true]") ? { draggable: true } : {}) };
    // Scrolled out of a box of its own (a list in a short panel, a board's far column) is as
    // out of view as off the page: brought into it.
    let to = scrolledAway(el, rect) ? null : visibleCentre(rect);
    let from;
    if (!to) {
      el.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "instant" });
      await frame();
      rect = rendered(el);
      to = rect && visibleCentre(rect);
      if (!to) return { hidden: true };
      const box = rendered(dragged);
      from = box && visibleCentre(box);
      if (!carried && (!from || !landsOn(hitAt(from.x, from.y), dragged))) {
        // A box of their own scrolls them apart (a long list in a short box): no viewport
        // shows both; the box scrolls itself as a dragged item nears its edge.
        let box = el.parentElement;
        while (box && box !== doc.body && !(box.contains(dragged) && scrollsItself(box))) box = box.parentElement;
        return box && box !== doc.body ? { apartIn: selectorFor(box) } : { apart: true };
      }
    }
    const start = from || visibleCentre(rendered(dragged) || rect) || to;
    // Before or after along the list the element is in (one list beside another: a drag
    // across between them still drops above or below an item), else the way the drag goes.
    const axis = at ? listAxis(el) : null;
    const across = axis ? axis === "x" : Math.abs(to.x - start.x) > Math.abs(to.y - start.y);
    // Dropped on an item of its own list, the dragged one takes that item's place.
    const toward = el.parentElement === dragged.parentElement
      ? Math.sign(across ? to.x - start.x : to.y - start.y) : 0;
    const { via, place } = dropPlace(rect, to, across, at, toward);
    to = place;
    store.dropOn = el;
    const hit = hitAt(to.x, to.y);
    if (!landsOn(hit, el) && !(hit && reaches(hit, dragged))) {
      const missed = missedAt(el, to, hit);
      // A shape's see-through inside shows the drawing under it, which takes the drop there
      // as it takes a person's: a page that moves shapes by hand judges where they land.
      if (!missed.through || !drawnUnder(el, hit)) return missed;
    }
    return { count: 1, tag: tagOf(named), label: cap(labelOf(named, null)), to, from, via, across };
  }

  // The first (`at` before) or last item of the list `el` is or holds that is like the one
  // `dragged` is in (its own list, or another of the same tag and class), other than
  // `dragged`; null where `el` is no such list, or an empty one.
  function endItem(el, dragged, at) {
    const from = dragged.parentElement;
    if (!from) return null;
    const alike = (list) => list === from ||
      (tagOf(list) === tagOf(from) && list.getAttribute("class") === from.getAttribute("class"));
    const list = alike(el) ? el : [...el.querySelectorAll(tagOf(from))].find(alike);
    if (!list) return null;
    const items = [...list.children].filter((item) => item !== dragged && rendered(item));
    return (at === "before" ? items[0] : items[items.length - 1]) || null;
  }

  // The way the items of the list `el` is in follow one another: "y" stacked, "x" side by
  // side, as its neighbours are drawn, or as its box lays out one alone; null where neither
  // tells (a grid).
  function listAxis(el) {
    const rect = el.getBoundingClientRect();
    for (const next of [el.previousElementSibling, el.nextElementSibling]) {
      const other = next && rendered(next);
      if (!other) continue;
      const [dx, dy] = [Math.abs(other.x - rect.x), Math.abs(other.y - rect.y)];
      if (dx !== dy) return dy > dx ? "y" : "x";
    }
    const holder = el.parentElement;
    if (!holder) return null;
    const { display, flexDirection } = getComputedStyle(holder);
    if (display.endsWith("flex")) return flexDirection.startsWith("row") ? "x" : "y";
    if (display.endsWith("grid")) return null;
    return getComputedStyle(el).display.startsWith("inline") ? "x" : "y";
  }

  // Where to drop `at` on the element the latest dropTarget found, as it is drawn now: a
  // sortable list moves its items aside as the drag passes over them.
  function redrop({ at, across }) {
    const el = store.dropOn;
    const rect = el && el.isConnected && rendered(el);
    const middle = rect && visibleCentre(rect);
    return middle ? { to: dropPlace(rect, middle, across, at).place } : { gone: true };
  }

  // Where to drop on an element whose visible part's middle is `middle`: there ("center"),
  // or a fifth of its visible part in from the edge that comes first in reading order
  // ("before": the top, or the left where the drag goes more `across` than down) or last
  // ("after"); then `via` is the fifth at the other edge, where the drag passes first. So
  // the drag ends moving toward the side asked for: a sortable list that goes by where the
  // pointer is puts the item on that side, and so does one that goes by which way the
  // pointer moves over an item (jQuery UI's). (The extension's dropPoint does the same.)
  // Without `at`, on an item of the dragged one's own list, the drop is a tenth past the
  // middle the way the drag goes (`toward`, -1 or 1): so the dragged item takes that one's
  // place in a list that moves it only once its middle passes the item's (jQuery UI's moved
  // nothing from the exact middle going up), and a tree still takes it as into the item.
  function dropPlace(rect, middle, across, at, toward = 0) {
    const [low, high] = across
      ? [Math.max(rect.left, 0), Math.min(rect.right, innerWidth)]
      : [Math.max(rect.top, 0), Math.min(rect.bottom, innerHeight)];
    const point = (at) => (across ? { x: at, y: middle.y } : { x: middle.x, y: at });
    if (at !== "before" && at !== "after") {
      return { place: toward ? point((across ? middle.x : middle.y) + toward * (high - low) / 10) : middle };
    }
    // A fifth in: a tree that takes a drop in an item's middle half as into it (Element
    // Plus's, Ant Design's) takes one at a quarter as either.
    const [first, last] = [low + (high - low) / 5, high - (high - low) / 5];
    return at === "before" ? { place: point(first), via: point(last) }
      : { place: point(last), via: point(first) };
  }

  // The text a person reads under `top`, whitespace collapsed, and where each of its
  // characters is in the DOM ([text node, offset]; null for a space between blocks or
  // lines). Open shadow trees are read as drawn; what is not drawn (soft hyphens and
  // zero-width spaces too), and fields' text, are left out.
  function readableText(top) {
    let text = "";
    const at = [];
    let broken = false;
    const add = (ch, place) => {
      if (ch === " " && (!text || text.endsWith(" "))) return;
      text += ch;
      at.push(place);
    };
    const visit = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        const data = node.data;
        for (let i = 0; i < data.length; i++) {
          if (UNDRAWN_CHAR.test(data[i])) continue;
          if (/\s/.test(data[i])) {
            add(" ", [node, i]);
            continue;
          }
          if (broken) add(" ", null);
          broken = false;
          add(data[i], [node, i]);
        }
        return;
      }
      if (node.nodeType === Node.DOCUMENT_FRAGMENT_NODE) {
        for (const child of node.childNodes) visit(child);
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const tag = tagOf(node);
      if (UNREAD.has(tag) || tag === "textarea" || tag === "select") return;
      if (tag === "br") {
        broken = true; // a line break reads as a space between its lines' words
        return;
      }
      const style = getComputedStyle(node);
      if (style.display === "none") return;
      const contents = style.display === "contents";
      if (!contents && node.checkVisibility &&
          !node.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return;
      const block = !contents && !style.display.startsWith("inline");
      if (block) broken = true;
      const slotted = tag === "slot" ? node.assignedNodes({ flatten: true }) : [];
      const children = node.shadowRoot ? [node.shadowRoot] : slotted.length ? slotted : node.childNodes;
      for (const child of children) visit(child);
      if (block) broken = true;
    };
    visit(top);
    return { text, at };
  }

  // Where `wanted` is in `text` (`read`'s text, or a copy of it the same length): the first
  // place that crosses no line or block (a phrase of a paragraph, before the same words
  // ending one item of a list and starting the next), else the first; -1 where it is not.
  function inOneRun(read, text, wanted) {
    let first = -1;
    for (let at = text.indexOf(wanted); at >= 0 && wanted; at = text.indexOf(wanted, at + 1)) {
      if (first < 0) first = at;
      if (!read.at.slice(at, at + wanted.length).includes(null)) return at;
    }
    return first;
  }

  // Where `wanted` is in `text` when neither's spaces count, case aside: the indexes in `text`
  // of its first and last characters; -1 where it is not.
  function spacedApart(text, wanted) {
    const kept = [];
    let squeezed = "";
    for (let i = 0; i < text.length; i++) {
      if (text[i] === " ") continue;
      squeezed += text[i];
      kept.push(i);
    }
    const bare = wanted.replace(/ /g, "");
    const at = bare ? lowerSameLength(squeezed).indexOf(lowerSameLength(bare)) : -1;
    return at < 0 ? { index: -1, endIndex: -1 } : { index: kept[at], endIndex: kept[at + bare.length - 1] };
  }

  // A lower-case copy of the same length, so that an index in it is one in the original.
  const lowerSameLength = (value) =>
    [...value].map((ch) => (ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch)).join("");

  function charRect(node, offset) {
    const range = doc.createRange();
    range.setStart(node, offset);
    range.setEnd(node, Math.min(offset + 1, node.data.length));
    return range.getBoundingClientRect();
  }

  // Where a press pulls a selection of `text` from, to where it ends: the first occurrence in
  // `selector`'s element (or the page) of the text as shown, whitespace collapsed, matched
  // case-sensitively first, then not. It is brought into view, and must be drawn, selectable
  // and not covered. `mouse` is false where a press would do something else (a link's text
  // drags the link, a button's is pressed): the selection is then set without it. Watches
  // selection changes until `selected`, to tell a page that took the selection (a highlighter
  // that wraps it and clears it) from a mouse that selected nothing.
  async function selectText({ text, selector }) {
    let top = doc.body || doc.documentElement;
    let wanted = clean(text);
    if (selector) {
      const found = resolve(selector);
      if (found.error || found.enterFrame) return found;
      if (found.partial !== undefined) return { error: "count", count: found.list.length, selector: found.partial };
      if (found.list.length !== 1) return { error: "count", count: found.list.length };
      top = found.list[0];
      if (tagOf(top) === "iframe" || tagOf(top) === "frame") return { frame: true };
      if (textField(top)) return selectInField(top, wanted) || { missing: true };
    }
    const read = readableText(top);
    // As the page writes it: composed, or decomposed ("e" and an accent), which clean is not.
    let index = -1;
    for (const form of new Set([wanted, wanted.normalize("NFD")])) {
      index = inOneRun(read, read.text, form);
      if (index < 0) index = inOneRun(read, lowerSameLength(read.text), lowerSameLength(form));
      if (index >= 0) {
        wanted = form;
        break;
      }
    }
    let endIndex = index + wanted.length - 1;
    if (index < 0) {
      // Words the page sets apart by a margin or a box of their own, with no space between
      // them in its text ("John" and "Smith" in two spans): the snapshot reads them apart.
      ({ index, endIndex } = spacedApart(read.text, wanted));
    }
    if (index < 0) {
      // The text a field holds is its value, which the page's text leaves out.
      for (const field of top.querySelectorAll("input, textarea")) {
        const chosen = textField(field) && rendered(field) && selectInField(field, wanted);
        if (chosen) return chosen;
      }
      return { missing: true };
    }
    const [startNode, startOffset] = read.at[index];
    const [endNode, endOffset] = read.at[endIndex];
    // A text node right under a shadow root is drawn as part of its host.
    const owner = (node) => node.parentElement || node.parentNode.host;
    const first = owner(startNode);
    const last = owner(endNode);
    const unselectable = (el) => (getComputedStyle(el).userSelect || getComputedStyle(el).webkitUserSelect) === "none";
    if (unselectable(first) || unselectable(last)) return { unselectable: true };
    const inView = (rect) => rect.top >= 0 && rect.left >= 0 && rect.bottom <= innerHeight && rect.right <= innerWidth;
    let start = charRect(startNode, startOffset);
    const endAt = charRect(endNode, endOffset);
    // Out of the view, or scrolled out of a box that scrolls by itself (a list in a panel).
    if (!inView(start) || !inView(endAt) || scrolledAway(first, start) || scrolledAway(last, endAt)) {
      // Its line in the upper part of the view, where most of what follows it fits too.
      first.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "instant" });
      start = charRect(startNode, startOffset);
      if (start.top < 0 || start.bottom > innerHeight / 2) scrollBy({ top: start.top - innerHeight / 4, behavior: "instant" });
      await frame();
      start = charRect(startNode, startOffset);
    }
    const end = charRect(endNode, endOffset);
    if (!inView(start)) return { hidden: true };
    if (!inView(end)) return { long: true };
    // A quarter into the first character and three quarters into the last: the caret goes
    // before the one and after the other.
    const from = { x: start.left + start.width / 4, y: start.top + start.height / 2 };
    const to = { x: end.right - end.width / 4, y: end.top + end.height / 2 };
    for (const [point, el] of [[from, first], [to, last]]) {
      const hit = hitAt(point.x, point.y);
      if (!landsOn(hit, el) && !(hit && hit.shadowRoot && reaches(el, hit))) {
        return { coveredBy: describeCover(coverOf(hit || el)) };
      }
    }
    let around = first;
    while (around && !reaches(endNode, around)) around = around.parentElement || (around.parentNode && around.parentNode.host);
    const pressy = "a[href], area[href], button, label, summary, [draggable=true], [role=button], [role=link], [onclick]";
    const mouse = !first.closest(pressy) && !last.closest(pressy);
    // A press inside a selection would drag the selected text: it goes first, as a person's
    // click elsewhere would clear it.
    if (mouse && !getSelection().isCollapsed) getSelection().removeAllRanges();
    const matched = read.text.slice(index, endIndex + 1);
    const seen = { matched: false };
    const watch = () => {
      if (clean(getSelection().toString()) === matched) seen.matched = true;
    };
    if (store.selecting) unwatchSelection(store.selecting.watch);
    // Read at the release too, before the page's own listeners can take the selection.
    doc.addEventListener("selectionchange", watch);
    window.addEventListener("mouseup", watch, true);
    store.selecting = { startNode, startOffset, endNode, endOffset: endOffset + 1, matched, seen, watch };
    return { from, to, mouse, selector: selectorFor(around || first) };
  }

  // A field whose text can be selected: a text area, or an input that takes typed text.
  const textField = (el) => ["input", "textarea"].includes(tagOf(el)) && takesText(el) &&
    el.selectionStart !== null;

  // The first occurrence of `wanted` in the field's value selected, as keys or a drag inside
  // the field would leave it (the field focused); null where it holds no such text. Its
  // words may be apart in the value as the agent's text does not set them (a text area's
  // lines): any run of white space between them.
  function selectInField(field, wanted) {
    let at = field.value.indexOf(wanted);
    if (at < 0) at = lowerSameLength(field.value).indexOf(lowerSameLength(wanted));
    let length = wanted.length;
    if (at < 0) {
      const words = wanted.split(" ").map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
      const spaced = new RegExp(words.join("\\s+"), "i").exec(field.value);
      if (!spaced) return null;
      at = spaced.index;
      length = spaced[0].length;
    }
    field.focus();
    field.setSelectionRange(at, at + length);
    store.selecting = { field };
    return { field: true, selector: selectorFor(field) };
  }

  // The selection once the press and release that made it are handled (or, with `set`,
  // instead of them): what the page reports as selected. A selection the mouse left off by
  // some characters is set exactly, with nothing more dispatched; one the page took away
  // after it was made is left as the page has it.
  function selected({ set }) {
    const wanted = store.selecting;
    store.selecting = null;
    if (!wanted) return { gone: true };
    const { field } = wanted;
    if (field) return { selected: field.value.slice(field.selectionStart, field.selectionEnd) };
    unwatchSelection(wanted.watch);
    const selection = getSelection();
    const now = selection.toString();
    const exact = clean(now) === wanted.matched;
    const taken = !now && wanted.seen.matched;
    if (set || (!exact && !taken)) {
      try {
        selection.setBaseAndExtent(wanted.startNode, wanted.startOffset, wanted.endNode, wanted.endOffset);
      } catch {
        return { gone: true }; // the page rewrote the text under it
      }
    }
    return { selected: selection.toString() };
  }

  function unwatchSelection(watch) {
    doc.removeEventListener("selectionchange", watch);
    window.removeEventListener("mouseup", watch, true);
  }

  // --- scrolling --------------------------------------------------------------------------

  // With a selector alone, brings its element into view; with a direction alone, scrolls the
  // page (or the box that holds most of it) that way; with both, scrolls the element itself,
  // a box that scrolls (a list, a text area), that way: `noScroll` when it does not.
  async function scroll({ direction, selector }) {
    const box = scroller();
    watchTimers();
    if (selector) {
      const found = resolve(selector);
      if (found.error || found.enterFrame) return found;
      if (found.list.length !== 1) return { error: "count", count: found.list.length };
      const el = found.list[0];
      if (!direction) {
        const rect = el.getBoundingClientRect();
        if ((el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) ||
          (!rect.width && !rect.height)) return { aim: { hidden: true } };
        if (clippedAway(el, rect)) return { aim: { clipped: true } };
        // A box a person cannot scroll stays as the page drew it: script scrolling a
        // carousel's frame to a slide would show half of two, and its controls none.
        const fixed = [];
        for (let up = el.parentElement; up && up !== doc.body; up = up.parentElement) {
          const { overflowX } = getComputedStyle(up);
          if (unscrolled(overflowX) || unscrolled(personsOverflowY(up))) fixed.push([up, up.scrollLeft, up.scrollTop]);
        }
        intoView(el, "nearest");
        for (const [up, left, top] of fixed) up.scrollTo({ left, top, behavior: "instant" });
        return position(box);
      }
      // The body or the root named: the page, which the document scrolls (not the body).
      if (el === doc.body || el === doc.documentElement) {
        const page = doc.scrollingElement || doc.documentElement;
        await scrollAlong(page, direction);
        return { ...position(page), page: true };
      }
      if (!scrollsItself(el)) {
        // A list that fits the box that scrolls it (a dropdown's list in its scrolling wrap),
        // or one that scrolls a box inside it (Radix's listbox, its viewport): that box moves.
        const moves = (box) => scrollsItself(box) && rendered(box);
        let up = el.parentElement;
        while (up && up !== doc.body && !moves(up)) up = up.parentElement;
        if (!up || up === doc.body) {
          up = [...el.querySelectorAll(":scope > *, :scope > * > *")].find(moves);
        }
        if (!up) {
          // A wide table's box: its scroll runs across, which no direction here names.
          const across = el.scrollWidth - el.clientWidth > 1 &&
            /^(auto|scroll|overlay)$/.test(getComputedStyle(el).overflowX);
          return { error: across ? "sideways" : "noScroll" };
        }
        await scrollAlong(up, direction);
        return { ...position(up), box: selectorFor(up) };
      }
      await scrollAlong(el, direction);
      return { ...position(el), box: selector };
    }
    await scrollAlong(box, direction);
    // Not the page: which box moved.
    return box === (doc.scrollingElement || doc.documentElement) ? position(box) : { ...position(box), box: selectorFor(box) };
  }

  // To the bottom a screen at a time, a frame drawn after each (BOTTOM_STEPS at most, then
  // the rest at once), as a person's wheel passes what lies between: a list that loads more
  // as its last item comes into view (htmx's "revealed", an infinite feed) with more of the
  // page below it sees it pass.
  const BOTTOM_STEPS = 25;
  async function scrollAlong(box, direction) {
    const page = box === (doc.scrollingElement || doc.documentElement);
    const screen = Math.max(1, Math.round((page ? innerHeight : box.clientHeight) * 0.9));
    const to = (top) => (page ? scrollTo({ top, behavior: "instant" }) : box.scrollTo({ top, behavior: "instant" }));
    if (direction === "bottom") {
      for (let step = 0; step < BOTTOM_STEPS && scrolledFromTop(box) + box.clientHeight < box.scrollHeight - 1; step++) {
        const before = box.scrollTop;
        to(before + screen);
        if (box.scrollTop === before) break;
        await Promise.race([frame(), new Promise((drawn) => later(drawn, FRAME_LATE_MS))]);
      }
    }
    const top = fromEnd(box) ? -box.scrollHeight : 0;
    to({ up: box.scrollTop - screen, down: box.scrollTop + screen, top, bottom: box.scrollHeight }[direction]);
  }

  function scrollsItself(el) {
    if (el === doc.scrollingElement || el === doc.documentElement || el === doc.body) return true;
    return el.scrollHeight - el.clientHeight > 1 && /^(auto|scroll|overlay)$/.test(personsOverflowY(el));
  }

  // --- the answer: one question a call ----------------------------------------------------

  // A document that has just replaced the page's has no element until the parser inserts
  // its first: the question is asked again once it has (pagescript waits as after a navigation).
  if (!doc.documentElement && doc.readyState === "loading") {
    throw new Error("browserhost: the document is still arriving");
  }

  watchRest();

  // A timer watch that no wait ended (the action was refused) ends at the next question.
  const keepsWatch = ["quiet", "state", "stashed", "position", "fill", "typeOn", "watchTyped", "enterSends",
    "keysReach"];
  if (store.timers && !keepsWatch.includes(request.op) && !request.atLoad) unwatchTimers();
  // The read kept at the load stands only for the first snapshot: any other question drops
  // it, and with it its watch's listeners, which DevTools would count among the page's own.
  if (store.kept && !(request.op === "snapshot" && (request.due || request.atLoad))) store.kept.drop();

  return answer(request);

  function answer(request) {
    switch (request.op) {
      case "snapshot":
        if (request.atLoad) return readAtLoad(request);
        return request.due ? afterFirstFrame(request) : parsed().then(() => snapshot(request));
      case "target": return target(request);
      case "stashed": return store.target;
      case "enterSends": return tagOf(store.target) === "input" ? enterSends(store.target) : {};
      case "keysReach": return keysReach(store.target);
      case "reveal": return reveal();
      case "pasteInto": return pasteInto(request);
      case "focused": { const el = deepActive(); return el && el !== doc.body && el !== doc.documentElement ? describeCover(el) : {}; }
      case "watchDrag": return watchDrag();
      case "dragEnded": return dragEnded();
      case "watchTyped": return watchTyped(store.target);
      case "hop": { const found = resolve(request.selector); return found.enterFrame ? found : {}; }
      case "frames": return frameBoxes(request);
      case "findText": return findText(request);
      case "find": return find(request);
      case "scroll": return scroll(request);
      case "position": return position(request.selector ? resolve(request.selector).list[0] : scroller());
      case "quiet": return quiet(request);
      case "state": return request.afterInput ? afterInput() : stateNow();
      case "fill": return fill(request);
      case "typeOn": return typeOn(request);
      case "pointer": return pointer(request);
      case "watch": watchTimers(); return {};
      case "dropTarget": return dropTarget(request);
      case "redrop": return redrop(request);
      case "selectText": return selectText(request);
      case "selected": return selected(request);
      default: throw new Error("unknown op " + request.op);
    }
  }
}
