// The page side of browserhost's chromium provider.
//
// Evaluated as `page.evaluate(source, request)`: one call answers one question, so a
// snapshot costs one round trip however large the page. `request.op` picks the question:
//
//   snapshot  {scope?, textMax, elementsMax} -> url, title, scroll, text, interactive elements
//   describe  {selector, styles?}            -> how many elements match; the one element's facts
//   findText  {text, limit}                  -> the elements an agent means by a visible label
//   scroll    {direction?, selector?}        -> the new scroll position
//
// Selectors are matched with document.querySelectorAll (light DOM, CSS only). Every selector
// this script writes matches exactly one element: it is either an attribute or id that an
// index of the whole document counts once, or a child-by-child path from such an anchor.
(request) => {
  const doc = document;
  const quirks = doc.compatMode === "BackCompat";
  const ROLES = [
    "button", "link", "checkbox", "radio", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "switch", "combobox", "textbox", "searchbox", "slider",
    "spinbutton", "treeitem", "listbox",
  ];
  const INTERACTIVE = [
    "a[href]", "area[href]", "button", "input:not([type=hidden])", "select", "textarea",
    "summary", "[contenteditable]:not([contenteditable=false])", "[onclick]",
    "[tabindex]:not([tabindex='-1'])", ...ROLES.map((role) => `[role=${role}]`),
  ].join(",");
  const TEST_IDS = ["data-testid", "data-test-id", "data-test", "data-qa", "data-cy"];
  const INPUT_ROLES = {
    checkbox: "checkbox", radio: "radio", button: "button", submit: "button", reset: "button",
    image: "button", range: "slider", number: "spinbutton", search: "searchbox",
    color: "", date: "", "datetime-local": "", file: "", month: "", time: "", week: "",
  };
  const NOT_TYPABLE = new Set([
    "checkbox", "radio", "button", "submit", "reset", "image", "file", "range", "color",
  ]);
  const LABEL_MAX = 100;
  const ATTR_VALUE_MAX = 80;

  const clean = (value) => (value || "").replace(/\s+/g, " ").trim();
  const cap = (value) => (value.length > LABEL_MAX ? value.slice(0, LABEL_MAX - 1) + "…" : value);
  const quote = (value) =>
    '"' + value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\a ")
      .replace(/\r/g, "\\d ") + '"';
  const tagOf = (el) => el.localName;

  // --- what an element is -----------------------------------------------------------------

  function rendered(el) {
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return null;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 ? rect : null;
  }

  function inViewport(rect) {
    return rect.right > 0 && rect.bottom > 0 && rect.left < innerWidth && rect.top < innerHeight;
  }

  function bounds(rect) {
    return {
      x: Math.round(rect.x), y: Math.round(rect.y),
      width: Math.round(rect.width), height: Math.round(rect.height),
    };
  }

  function textOf(node) {
    return clean(node instanceof HTMLElement ? node.innerText : node.textContent);
  }

  function nameOf(el) {
    const labelledBy = el.getAttribute("aria-labelledby");
    if (labelledBy) {
      const text = clean(labelledBy.split(/\s+/).map((id) => doc.getElementById(id))
        .filter(Boolean).map(textOf).join(" "));
      if (text) return text;
    }
    const aria = clean(el.getAttribute("aria-label"));
    if (aria) return aria;
    const tag = tagOf(el);
    if (tag === "input" || tag === "select" || tag === "textarea") {
      if (tag === "input" && ["button", "submit", "reset"].includes(el.type)) {
        return clean(el.value) || { submit: "Submit", reset: "Reset" }[el.type] || "";
      }
      if (tag === "input" && el.type === "image") return clean(el.alt);
      for (const label of el.labels || []) {
        let text = label.innerText || "";
        const own = label.contains(el) ? el.innerText || el.value || "" : "";
        if (own) text = text.replace(own, "");
        if (clean(text)) return clean(text);
      }
      return clean(el.getAttribute("placeholder")) || clean(el.getAttribute("title"));
    }
    const text = textOf(el);
    if (text) return text;
    for (const img of el.querySelectorAll("img[alt], [aria-label]")) {
      const alt = clean(img.getAttribute("alt") || img.getAttribute("aria-label"));
      if (alt) return alt;
    }
    const svgTitle = el.querySelector("svg title");
    return clean(svgTitle && svgTitle.textContent) || clean(el.getAttribute("title"));
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

  function typeOf(el) {
    const tag = tagOf(el);
    return tag === "input" || tag === "button" ? el.type : "";
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

  function disabled(el) {
    return el.matches(":disabled") || el.getAttribute("aria-disabled") === "true";
  }

  // --- selectors that match exactly one element --------------------------------------------

  // Counts over the whole document, built on first use: how many elements carry each id,
  // each (tag, attribute value) and each (tag, class). A candidate is used only when its
  // count is one, so uniqueness costs one pass per attribute, not one query per element.
  const counts = new Map();
  function index(name, build) {
    let table = counts.get(name);
    if (!table) {
      table = new Map();
      build((key) => table.set(key, (table.get(key) || 0) + 1));
      counts.set(name, table);
    }
    return table;
  }
  const fold = (value) => (quirks ? value.toLowerCase() : value);
  function idCount(id) {
    const table = index("#", (add) => {
      for (const el of doc.querySelectorAll("[id]")) if (el.id) add(fold(el.id));
    });
    return table.get(fold(id)) || 0;
  }
  function attrCount(attr, key) {
    const table = index(attr, (add) => {
      for (const el of doc.querySelectorAll(`[${attr}]`)) {
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
  function classCount(tag, name) {
    const table = index(".", (add) => {
      for (const el of doc.querySelectorAll("[class]")) {
        for (const item of el.classList) add(tagOf(el) + "\u0000" + fold(item));
      }
    });
    return table.get(tag + "\u0000" + fold(name)) || 0;
  }

  const readable = (value) => value && value.length <= ATTR_VALUE_MAX && !/[\n\r]/.test(value);
  const simpleIdent = (value) => /^[A-Za-z_][\w-]*$/.test(value);

  // A short selector that names the element on its own, or "" when none is unique.
  function ownSelector(el, forAnchor) {
    const tag = CSS.escape(tagOf(el));
    const id = el.id;
    if (id && simpleIdent(id) && idCount(id) === 1) return "#" + id;
    for (const attr of TEST_IDS) {
      const value = el.getAttribute(attr);
      if (readable(value) && attrCount(attr, value) === 1) return `[${attr}=${quote(value)}]`;
    }
    const name = el.getAttribute("name");
    if (readable(name)) {
      if (attrCount("name", tagOf(el) + "\u0000" + name) === 1) return `${tag}[name=${quote(name)}]`;
      const value = el.getAttribute("value");
      if (readable(value) && attrCount("name", `${tagOf(el)}\u0000${name}\u0000${value}`) === 1) {
        return `${tag}[name=${quote(name)}][value=${quote(value)}]`;
      }
    }
    const aria = el.getAttribute("aria-label");
    if (readable(aria) && attrCount("aria-label", tagOf(el) + "\u0000" + aria) === 1) {
      return `${tag}[aria-label=${quote(aria)}]`;
    }
    if (id && readable(id) && idCount(id) === 1) return "#" + CSS.escape(id);
    if (!forAnchor) {
      const href = tagOf(el) === "a" ? el.getAttribute("href") : null;
      if (readable(href) && attrCount("href", "a\u0000" + href) === 1) return `a[href=${quote(href)}]`;
      const placeholder = el.getAttribute("placeholder");
      if (readable(placeholder) && attrCount("placeholder", `${tagOf(el)}\u0000${placeholder}`) === 1) {
        return `${tag}[placeholder=${quote(placeholder)}]`;
      }
    }
    for (const item of el.classList) {
      if (item.length <= 40 && simpleIdent(item) && classCount(tagOf(el), item) === 1) {
        return `${tag}.${item}`;
      }
    }
    return "";
  }

  // `tag` when the element is the only child of its type, else `tag:nth-of-type(k)`: either
  // way exactly one child of the parent, so a chain of steps from a unique anchor is unique.
  const positions = new Map();
  function step(el) {
    const parent = el.parentElement;
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
    const own = ownSelector(el, false);
    if (own) return own;
    const path = [step(el)];
    for (let node = el.parentElement; node; node = node.parentElement) {
      if (node === doc.body) return ["body", ...path].join(" > ");
      if (node === doc.documentElement) return [":root", ...path].join(" > ");
      const anchor = ownSelector(node, true);
      if (anchor) return [anchor, ...path].join(" > ");
      path.unshift(step(node));
    }
    return path.join(" > ");
  }

  // --- reading the page ---------------------------------------------------------------------

  function interactive(root) {
    const found = new Set(root.querySelectorAll(INTERACTIVE));
    if (root.matches && root.matches(INTERACTIVE)) found.add(root);
    // Handlers assigned as properties are visible; addEventListener ones are not.
    let extra = false;
    for (const el of root.getElementsByTagName("*")) {
      if (el.onclick && !found.has(el)) {
        found.add(el);
        extra = true;
      }
    }
    const list = [...found];
    if (extra) {
      list.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    }
    const shown = [];
    for (const el of list) {
      const rect = rendered(el);
      if (rect) shown.push({ el, rect });
    }
    return shown;
  }

  function element({ el, rect }) {
    const out = { selector: selectorFor(el), tag: tagOf(el), bounds: bounds(rect) };
    out.inViewport = inViewport(rect);
    const type = typeOf(el);
    if (type) out.type = type;
    const role = roleOf(el);
    if (role && role !== out.tag) out.role = role;
    const label = cap(nameOf(el));
    if (label) out.label = label;
    else out.missingAccessibleName = true;
    if (disabled(el)) out.disabled = true;
    return out;
  }

  // The page's main scroller: the document when it scrolls, else the largest scrolling box
  // (apps that pin the body and scroll a panel).
  function scroller() {
    const root = doc.scrollingElement || doc.documentElement;
    if (root.scrollHeight - root.clientHeight > 1) return root;
    let best = null;
    let bestArea = 0;
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

  function position(box) {
    return {
      scrollY: Math.round(box.scrollTop),
      maxScrollY: Math.max(0, Math.round(box.scrollHeight - box.clientHeight)),
    };
  }

  function query(selector) {
    try {
      return { list: doc.querySelectorAll(selector) };
    } catch {
      return { error: "invalid" };
    }
  }

  function snapshot({ scope, textMax, elementsMax }) {
    let root = doc.body || doc.documentElement;
    if (scope) {
      const found = query(scope);
      if (found.error) return found;
      if (found.list.length !== 1) return { error: "count", count: found.list.length };
      root = found.list[0];
    }
    const raw = root instanceof HTMLElement ? root.innerText : root.textContent;
    const text = (raw || "").replace(/[ \t\u00a0]+/g, " ").replace(/ *\n */g, "\n")
      .replace(/\n{3,}/g, "\n\n").trim();
    const shown = interactive(root);
    let kept = shown;
    if (shown.length > elementsMax) {
      // Keep what the agent can see first, then the rest in reading order.
      const visible = shown.filter((item) => inViewport(item.rect));
      const chosen = new Set(visible.slice(0, elementsMax));
      for (const item of shown) {
        if (chosen.size >= elementsMax) break;
        chosen.add(item);
      }
      kept = shown.filter((item) => chosen.has(item));
    }
    return {
      url: location.href,
      title: doc.title,
      ...position(scroller()),
      text: text.slice(0, textMax),
      textTotalChars: text.length,
      elements: kept.map(element),
      interactiveElementsOnPage: shown.length,
    };
  }

  function describe({ selector, styles }) {
    const found = query(selector);
    if (found.error) return found;
    if (found.list.length !== 1) return { count: found.list.length };
    const el = found.list[0];
    const rect = el.getBoundingClientRect();
    const out = {
      count: 1, tag: tagOf(el), label: cap(nameOf(el)), bounds: bounds(rect),
      inViewport: inViewport(rect) && rect.width > 0 && rect.height > 0,
      typable: !(tagOf(el) === "input" && NOT_TYPABLE.has(el.type)),
      opensWindow: opensWindow(el),
    };
    if (typeOf(el)) out.type = typeOf(el);
    if (tagOf(el) === "select") {
      out.options = [...el.options].map((option) => ({ value: option.value, label: clean(option.label) }));
    }
    if (styles) {
      const computed = getComputedStyle(el);
      out.styles = Object.fromEntries(styles.map((name) => [name, computed.getPropertyValue(name)]));
    }
    return out;
  }

  function findText({ text, limit }) {
    const wanted = clean(text);
    const lower = wanted.toLowerCase();
    const items = interactive(doc.body || doc.documentElement).map(({ el }) => {
      const name = nameOf(el);
      return { el, name, text: textOf(el), lowerName: name.toLowerCase() };
    });
    const rules = [
      ["exact", (item) => item.name === wanted || item.text === wanted],
      ["exact", (item) => item.lowerName === lower || item.text.toLowerCase() === lower],
      ["partial", (item) => item.lowerName.includes(lower)],
    ];
    let how = "";
    let matches = [];
    for (const [name, rule] of rules) {
      matches = items.filter(rule).map((item) => item.el);
      if (matches.length) {
        how = name;
        break;
      }
    }
    if (!matches.length) {
      // Elements made clickable with addEventListener are invisible to the query above; the
      // innermost element whose visible text is exactly the label stands in for them.
      const walker = doc.createTreeWalker(doc.body || doc.documentElement, NodeFilter.SHOW_TEXT);
      const seen = new Set();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || seen.has(parent) || !clean(node.data).toLowerCase().includes(lower)) continue;
        seen.add(parent);
        if (textOf(parent).toLowerCase() === lower && rendered(parent)) matches.push(parent);
      }
      how = "text";
    }
    // A match inside another match is the same target: keep the innermost.
    matches = matches.filter((el) => !matches.some((other) => other !== el && el.contains(other)));
    return {
      how,
      total: matches.length,
      matches: matches.slice(0, limit).map((el) => ({
        selector: selectorFor(el), tag: tagOf(el), label: cap(nameOf(el)),
        opensWindow: opensWindow(el),
      })),
    };
  }

  function scroll({ direction, selector }) {
    const box = scroller();
    if (selector) {
      const found = query(selector);
      if (found.error) return found;
      if (found.list.length !== 1) return { error: "count", count: found.list.length };
      found.list[0].scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    } else {
      const page = box === (doc.scrollingElement || doc.documentElement);
      const screen = Math.max(1, Math.round((page ? innerHeight : box.clientHeight) * 0.9));
      const top = {
        up: box.scrollTop - screen, down: box.scrollTop + screen, top: 0, bottom: box.scrollHeight,
      }[direction];
      if (page) scrollTo({ top, behavior: "instant" });
      else box.scrollTo({ top, behavior: "instant" });
    }
    return position(box);
  }

  switch (request.op) {
    case "snapshot": return snapshot(request);
    case "describe": return describe(request);
    case "findText": return findText(request);
    case "scroll": return scroll(request);
    default: throw new Error("unknown op " + request.op);
  }
}
