// Written by tests/extension/contract_js.py from the Python values; do not edit. A test holds
// it equal: after changing one of them, run `.venv/bin/python -m tests.extension.contract_js`.
// config.DEFAULT_PORT, contract/bridge.py BRIDGE_PATH
export const DEFAULT_URL = "ws://127.0.0.1:7878/ext/bridge";
// contract/actions.py ACTIONS
export const ACTIONS = ["browser.open", "browser.snapshot", "browser.click", "browser.type", "browser.scroll", "browser.back", "browser.forward", "browser.inspect", "browser.capture", "browser.resize"];
// contract/bridge.py
export const CLOSE_REPLACED = 4000;
export const CLOSE_BAD_TOKEN = 4002;
export const CLOSE_FOREIGN_EXTENSION = 4004;
export const CLOSE_NOT_PAIRED = 4005;
export const CLOSE_DENIED = 4006;
export const CLOSE_NOT_APPROVED = 4007;
// contract/bridge.py REFUSAL_CODES
export const PROVIDER_REJECTED = "PROVIDER_REJECTED";
export const UNSUPPORTED = "UNSUPPORTED";
// contract/limits.py SNAPSHOT_TEXT_MAX
export const TEXT_MAX = 20000;
// contract/limits.py SNAPSHOT_ELEMENTS_MAX
export const ELEMENTS_MAX = 250;
// contract/limits.py SNAPSHOT_FULL_TEXT_MAX
export const FULL_TEXT_MAX = 400000;
// contract/limits.py SNAPSHOT_FULL_ELEMENTS_MAX
export const FULL_ELEMENTS_MAX = 5000;
// contract/data.py
export const VIEWPORT_SIZES = {"mobile": [390, 844], "tablet": [820, 1180], "desktop": [1280, 800]};
// contract/data.py InspectData, but selector
export const INSPECT_FIELDS = ["value", "valueTotalChars", "options", "optionsTotal", "checked", "multiple", "selected", "highlighted", "expanded", "pressed", "current", "sort", "required", "invalid", "readonly", "focused", "disabled", "marked", "tag", "label", "labelGuessed", "bounds", "inViewport", "styles", "type", "role"];
// the chromium provider's
export const INSPECT_STYLES = ["display", "visibility", "opacity", "position", "z-index", "overflow", "box-sizing", "width", "height", "margin", "padding", "border", "color", "background-color", "font-family", "font-size", "font-weight", "line-height", "text-align", "cursor", "pointer-events"];
// chromium/errors.py PAGE_ANSWER_S
export const PAGE_ANSWER_MS = 8000;
// chromium/pagescript.py WAITING_ANSWER_S
export const WAITING_ANSWER_MS = 2000;
// chromium/inputs.py
export const STILL_LOADING = "The page is still loading; what it shows may change.";
// chromium/snapshots.py SEEN
export const DRAWN_SEEN = "browser.capture shows it; verb.mouse clicks it by x and y.";
// chromium/snapshots.py
export const SHAPES_SEEN = "An svg's shapes are elements a selector names (as named here) for browser.inspect, verb.drag and verb.mouse.";
export const UNLISTED_SHAPES = "Drawn beside the shapes listed, with no name or handler of their own (a box or a mark to drop on)";
export const NAMED_PICTURES = "Pictures among the text, named where no text says it";
export const SCROLL_BOXES = "Boxes that scroll by themselves hold more than they show";
export const SCROLL_BOXES_MOVED = "browser.scroll with a box's selector and a direction moves it; a long list may add its rows only as it scrolls.";
// chromium/inputs.py
export const PRESS_ATTEMPTS = 3;
// chromium/targets.py
export const HOP = " >> ";
export const FRAME_DEPTH_MAX = 4;
export const TEXT_CANDIDATES_MAX = 8;
// chromium/page_watch.py
export const PROBLEMS_MAX = 50;
// chromium/page_watch.py CONSOLE_TEXT_MAX
export const PROBLEM_TEXT_MAX = 500;
// chromium/addresses.py
export const OWN_REFUSED = "it is browserhost's own address, which the browser does not show";
// chromium/errors.py
export const BLOCKED_SCHEMES_HELP = "only http and https pages may be loaded";
// providers/pointer_verbs.py
export const DRAG_SCHEMA = {"additionalProperties": false, "properties": {"selector": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "The element to drag, as listed by a snapshot.", "title": "Selector"}, "text": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "Or its visible text.", "title": "Text"}, "toSelector": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "Drop it on this element, as listed by a snapshot.", "title": "Toselector"}, "toText": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "Or on the element with this visible text: the item it labels in a list or grid (a tile or card whose name is a small label in it, a row), dropped on at its middle.", "title": "Totext"}, "offsetX": {"anyOf": [{"maximum": 100000.0, "minimum": -100000.0, "type": "number"}, {"type": "null"}], "default": null, "description": "Or move it this many CSS pixels right (negative: left) of where it starts.", "title": "Offsetx"}, "offsetY": {"anyOf": [{"maximum": 100000.0, "minimum": -100000.0, "type": "number"}, {"type": "null"}], "default": null, "description": "And/or this many CSS pixels down (negative: up).", "title": "Offsety"}, "at": {"default": "center", "description": "Where on the element to drop it: its middle, or a fifth of its height in from its top (before) or bottom (after), of its width from its left or right where the drag goes more across than down: where a sortable list puts an item before or after the one it is dropped on. On a list itself (a board's column): at its start or end.", "enum": ["center", "before", "after"], "title": "At", "type": "string"}}, "title": "DragArguments", "type": "object"};
export const HOVER_SCHEMA = {"additionalProperties": false, "properties": {"selector": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "The element, as listed by a snapshot.", "title": "Selector"}, "text": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "Or its visible text (as a click by text finds it).", "title": "Text"}}, "title": "HoverArguments", "type": "object"};
export const HOVER_HELP = "Move the mouse over an element, named by selector or by its visible text (as a click by text finds it): menus and tooltips that open on hover. Answers what was under the pointer before (start) and after (end).";
export const MOUSE_SCHEMA = {"additionalProperties": false, "properties": {"action": {"description": "move the pointer, click, press or release a button, or turn the wheel. Given no place (x and y, selector or text), all but move act where the pointer is.", "enum": ["move", "click", "down", "up", "wheel"], "title": "Action", "type": "string"}, "x": {"anyOf": [{"maximum": 100000.0, "minimum": 0, "type": "number"}, {"type": "null"}], "default": null, "description": "CSS pixels from the viewport's left edge.", "title": "X"}, "y": {"anyOf": [{"maximum": 100000.0, "minimum": 0, "type": "number"}, {"type": "null"}], "default": null, "description": "CSS pixels from its top edge.", "title": "Y"}, "selector": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "Or the element, as listed by a snapshot: the mouse goes where a click on it would (a double or right click, a wheel over a list).", "title": "Selector"}, "text": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "Or the element's visible text (as a click by text).", "title": "Text"}, "button": {"default": "left", "enum": ["left", "right", "middle"], "title": "Button", "type": "string"}, "clickCount": {"default": 1, "description": "2 for a double click.", "maximum": 3, "minimum": 1, "title": "Clickcount", "type": "integer"}, "modifiers": {"description": "Keys held down while the mouse acts: Shift to extend a selection, Control (Meta on macOS) to open a link in a new tab.", "items": {"enum": ["Alt", "Control", "Meta", "Shift"], "type": "string"}, "maxItems": 4, "title": "Modifiers", "type": "array"}, "deltaX": {"default": 0, "description": "wheel: pixels to scroll right.", "maximum": 100000.0, "minimum": -100000.0, "title": "Deltax", "type": "number"}, "deltaY": {"default": 0, "description": "wheel: pixels to scroll down.", "maximum": 100000.0, "minimum": -100000.0, "title": "Deltay", "type": "number"}}, "required": ["action"], "title": "MouseArguments", "type": "object"};
export const MOUSE_HELP = "Use the mouse at a point of the viewport, or on an element (selector, or its visible text) where a click on it would land: move, click (clickCount 2 for a double click, button right for a context menu), down and up (press and release apart, with moves between, to draw or drag by hand), or wheel (deltaX, deltaY: scroll what is under the point), holding modifiers (Shift, Control, Alt, Meta) meanwhile. x and y are CSS pixels from the viewport's top left corner, the pixels of a browser.capture (taken at scale 1 of the viewport). Answers what was under the pointer before (start) and after (end), and the element named, if one was.";
export const MOUSE_DONE = {"move": "moved", "click": "clicked", "down": "pressed", "up": "released", "wheel": "scrolled"};
export const SELECT_TEXT_SCHEMA = {"additionalProperties": false, "properties": {"text": {"description": "The text to select, as the page shows it (its first occurrence).", "maxLength": 1000, "minLength": 1, "title": "Text", "type": "string"}, "selector": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "Look only inside this element (default: the page).", "title": "Selector"}}, "required": ["text"], "title": "SelectTextArguments", "type": "object"};
// providers/key_verbs.py
export const PRESS_KEY_SCHEMA = {"additionalProperties": false, "properties": {"key": {"anyOf": [{"maxLength": 64, "minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "A key or chord: Enter, Escape, Tab, ArrowDown, Control+a, Shift+Tab.", "title": "Key"}, "text": {"anyOf": [{"maxLength": 1000, "minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "Or first type this text key by key where the focus is (a terminal, a game, an element that is not a field), then press key if given.", "title": "Text"}, "selector": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "Focus this element first.", "title": "Selector"}}, "title": "PressKeyArguments", "type": "object"};
export const PRESS_KEY_HELP = "Press a key or a chord (Escape, Enter, ArrowDown, Control+a), on an element or page; or type a text key by key where the focus is (a terminal), then the key.";
export const KEY_NAMES = {"backspace": "Backspace", "tab": "Tab", "enter": "Enter", "escape": "Escape", "space": "Space", "pageup": "PageUp", "pagedown": "PageDown", "end": "End", "home": "Home", "arrowleft": "ArrowLeft", "arrowup": "ArrowUp", "arrowright": "ArrowRight", "arrowdown": "ArrowDown", "insert": "Insert", "delete": "Delete", "shift": "Shift", "control": "Control", "alt": "Alt", "meta": "Meta", "controlormeta": "ControlOrMeta", "capslock": "CapsLock", "contextmenu": "ContextMenu", "f1": "F1", "f2": "F2", "f3": "F3", "f4": "F4", "f5": "F5", "f6": "F6", "f7": "F7", "f8": "F8", "f9": "F9", "f10": "F10", "f11": "F11", "f12": "F12", "esc": "Escape", "return": "Enter", "del": "Delete", "ctrl": "Control", "cmd": "Meta", "command": "Meta", "win": "Meta", "super": "Meta", "option": "Alt", "opt": "Alt", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight", "pgup": "PageUp", "pgdn": "PageDown", "spacebar": "Space"};
export const NOT_A_KEY = "{key} is not a key: give a name (Enter, Escape, Tab, Backspace, Delete, ArrowDown, PageDown, Home, F5), one character, or a chord of them (Control+a, Shift+Tab); nothing was pressed. To type a text, give text.";
export const TO_THE_PAGE = "No element had the focus, so {what} went to the page itself (to its shortcuts, if it has any); to type into a field or press on an element, give its selector.";
export const NOT_FOCUSED = "{selector} does not take the focus, so nothing was pressed: the keys would go to {holder}. Give the selector of what takes them (a field, a button, or the list, menu or grid whose keys move among its items), or none to press where the focus is.";
// chromium/fields.py
export const EDITOR_UNFOCUSED = "{selector} is in a code editor ({surface}) whose own field takes the keys, and a press on {press} gave it none ({where}), so nothing was typed; click into the editor's text, then verb.press_key with text.";
export const EDITOR_TYPED = "{selector} is in a code editor ({surface}) that takes keys in a field of its own ({field}): it was pressed, all its text selected and replaced by the text as a paste puts it in, kept as given (no indents or closing brackets added). Take a snapshot to read it.";
// chromium/targets.py
export const WIDGET_ADVICE = {"slider": "set it with verb.press_key (ArrowRight, ArrowLeft, Home, End) once a click has focused it, or verb.drag its handle by offsetX", "spinbutton": "step it with verb.press_key (ArrowUp, ArrowDown) once a click has focused it, or click its arrows", "combobox": "click it, then click the option it shows", "listbox": "click the option you want in it (where it takes several, verb.mouse with modifiers [\"Control\"] adds one to those chosen)"};
export const NOT_DRAWN_YET = "A box that scrolls by itself may hold it out of view, in rows not drawn yet";
export const AMONG_WORDS = "\"{text}\" shows only among other words, in {element}, which is no control: nothing was {done}. To {act} there anyway, {act} {selector} by selector; to select those words, use verb.select_text.";
export const HIDDEN_ALIKE = "\"{text}\" names {total} controls hidden now (in closed menus, tabs or sections, or shown only while the pointer is over what holds them): {listed}. Nothing was {done}; show the one you mean first (hover or open what holds it), then {act} it by its selector.";
// chromium/pointer.py
export const CHANGED_NOTHING = "The page showed no change as {selector} was dragged: it stayed where it was, and no element, text or style of the page changed{instead}. It may be nothing the page moves by a drag; take a snapshot to check.{resize}";
export const SELECTED_INSTEAD = "; the drag selected text instead (\"{selected}\")";
export const RESIZED_BY_CORNER = " A text area is resized by its bottom-right corner, pressed with verb.mouse.";
// chromium/fields.py
export const SHIFTED = "!\"#$%&()*+:<>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ^_{|}~";
// chromium/targets.py
export const SCROLLS_SIDEWAYS = "{selector} scrolls only sideways, and browser.scroll moves up and down, so nothing was scrolled; give selector alone with an element in it to bring that into view, or use verb.mouse with action wheel and deltaX on it.";
export const BOX_SCROLLED = "browser.scroll with the box's selector and a direction moves it.";
export const PAGE_GOES_ON = "The page goes on below the view: one that adds more as it is scrolled (a feed) may show it further down; browser.scroll down, then try again.";
// providers/session_verbs.py
export const COOKIES_SCHEMA = {"additionalProperties": false, "properties": {"urls": {"anyOf": [{"items": {"maxLength": 8192, "pattern": "^https?://", "type": "string"}, "maxItems": 20, "minItems": 1, "type": "array"}, {"type": "null"}], "default": null, "description": "The http(s) addresses whose cookies to read (default: the page's own).", "title": "Urls"}}, "title": "CookiesArguments", "type": "object"};
export const COOKIES_HELP = "Read the session's cookies sent to the page (or to urls): name, value, domain, path, expires (Unix seconds; -1 for a session cookie), httpOnly, secure, sameSite. Values are the user's secrets (logins): read them only when the task needs them.";
export const SET_COOKIES_HELP = "Set cookies in the session: each with name and value, and url (or domain and path); optionally expires (Unix seconds), httpOnly, secure, sameSite. All are set, or none.";
export const SET_COOKIES_SCHEMA = {"$defs": {"CookieToSet": {"additionalProperties": false, "properties": {"name": {"maxLength": 256, "minLength": 1, "title": "Name", "type": "string"}, "value": {"maxLength": 4096, "title": "Value", "type": "string"}, "url": {"anyOf": [{"maxLength": 8192, "pattern": "^https?://", "type": "string"}, {"type": "null"}], "default": null, "description": "The address it is for (its domain and path follow); or domain and path.", "title": "Url"}, "domain": {"anyOf": [{"maxLength": 253, "minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "With path, instead of url.", "title": "Domain"}, "path": {"anyOf": [{"maxLength": 1024, "minLength": 1, "pattern": "^/", "type": "string"}, {"type": "null"}], "default": null, "description": "With domain.", "title": "Path"}, "expires": {"anyOf": [{"minimum": -1, "type": "number"}, {"type": "null"}], "default": null, "description": "Unix time in seconds; -1 or none: a session cookie.", "title": "Expires"}, "httpOnly": {"default": false, "title": "Httponly", "type": "boolean"}, "secure": {"default": false, "title": "Secure", "type": "boolean"}, "sameSite": {"anyOf": [{"enum": ["Strict", "Lax", "None"], "type": "string"}, {"type": "null"}], "default": null, "description": "\"None\" needs secure: true.", "title": "Samesite"}}, "required": ["name", "value"], "title": "CookieToSet", "type": "object"}}, "additionalProperties": false, "properties": {"cookies": {"items": {"$ref": "#/$defs/CookieToSet"}, "maxItems": 50, "minItems": 1, "title": "Cookies", "type": "array"}}, "required": ["cookies"], "title": "SetCookiesArguments", "type": "object"};
