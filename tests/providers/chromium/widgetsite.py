"""Static pages that build their DOM the way real widget libraries do, for the chromium tests.

The pages live in :data:`WIDGETS_DIR` (jQuery UI widgets, Bootstrap controls, a page built by
script after load, frames and shadow DOM, native dialogs, overlays, state attributes); one page,
``docs-index.html``, is generated here: a documentation index of :data:`DOCS_ENTRIES` links.

Every page shows what happened in ``<p id="out">`` and keeps the same strings in ``window.log``.
A test site serves them under ``/w/``: ``widget_page(name)`` for the body (``None`` when there is
no such page) and ``content_type(name)`` for its header.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import cache
from pathlib import Path

WIDGETS_DIR: Path = Path(__file__).with_name("widgets")
"""The folder of static widget pages (and ``items.json``)."""

DOCS_ENTRIES = 1438
"""How many links the generated documentation index holds."""

ZEBRA_ENTRY = 1400
"""The entry of the documentation index whose link text is :data:`ZEBRA_TEXT`."""

ZEBRA_TEXT = "Zebra stripes guide"

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_WORDS: dict[str, tuple[str, ...]] = {
    "A": ("abortController", "assert", "asyncHooks", "atob"),
    "B": ("buffer", "blob", "broadcastChannel", "btoa"),
    "C": ("console", "crypto", "childProcess", "cluster"),
    "D": ("dgram", "dns", "diagnosticsChannel", "domain"),
    "E": ("events", "errors", "esm", "eventTarget"),
    "F": ("fs", "fetch", "formData", "fileHandle"),
    "G": ("globalThis", "gc", "getRandomValues", "globals"),
    "H": ("http", "https", "http2", "headers"),
    "I": ("inspector", "intl", "immediate", "iterator"),
    "J": ("json", "jsonModules", "jobQueue", "jitless"),
    "K": ("keyObject", "kill", "keepAlive", "kvStorage"),
    "L": ("loaders", "locks", "localStorage", "logger"),
    "M": ("module", "messageChannel", "mimeType", "microtask"),
    "N": ("net", "navigator", "nodeApi", "nextTick"),
    "O": ("os", "observer", "onceEvent", "options"),
    "P": ("path", "process", "perfHooks", "punycode"),
    "Q": ("querystring", "queueMicrotask", "quicSession", "quota"),
    "R": ("readline", "repl", "report", "request"),
    "S": ("stream", "stringDecoder", "sqlite", "signal"),
    "T": ("timers", "tls", "traceEvents", "tty"),
    "U": ("url", "util", "utf8", "urlPattern"),
    "V": ("v8", "vm", "validator", "version"),
    "W": ("wasi", "worker", "webStreams", "webCrypto"),
    "X": ("xmlHttpRequest", "x509Certificate", "xdr", "xpath"),
    "Y": ("yield", "yaml", "yargs", "yarnPnp"),
    "Z": ("zlib", "zstd", "zone", "zipStream"),
}

_MEMBERS = (
    "signal", "close", "open", "read", "write", "create", "destroy", "from",
    "toString", "on", "once", "pipe", "abort", "get", "set", "has",
    "keys", "values", "entries", "reset", "flush", "start", "stop", "size",
)  # fmt: skip


def docs_letter(entry: int) -> str:
    """The heading (A to Z) that entry ``entry`` (1-based) of the documentation index sits under."""
    return _LETTERS[(entry - 1) * len(_LETTERS) // DOCS_ENTRIES]


def docs_name(entry: int) -> str:
    """The link text of entry ``entry`` (1-based), unique within the index."""
    if entry == ZEBRA_ENTRY:
        return ZEBRA_TEXT
    words = _WORDS[docs_letter(entry)]
    word = words[(entry - 1) // len(_MEMBERS) % len(words)]
    return f"{word}.{_MEMBERS[(entry - 1) % len(_MEMBERS)]} (entry {entry})"


_DOCS_SCRIPT = """
<script>
  window.log = [];
  const out = document.getElementById("out");
  function record(message) {
    const text = "out: " + message;
    window.log.push(text);
    out.textContent = text;
  }

  const search = document.getElementById("search");
  const count = document.getElementById("count");
  const main = document.querySelector("main");
  search.addEventListener("input", () => {
    const term = search.value.trim().toLowerCase();
    let shown = 0;
    for (const list of main.querySelectorAll("ul")) {
      let here = 0;
      for (const item of list.children) {
        const match = item.textContent.toLowerCase().includes(term);
        item.style.display = match ? "" : "none";
        here += match ? 1 : 0;
      }
      list.style.display = here ? "" : "none";
      list.previousElementSibling.style.display = here ? "" : "none";
      shown += here;
    }
    count.textContent = shown + (shown === 1 ? " entry" : " entries");
    record(`search ${search.value} (${shown} shown)`);
  });
  main.addEventListener("click", (event) => {
    const link = event.target.closest("a");
    if (link) record("open " + link.textContent);
  });
</script>
"""


@cache
def _docs_index() -> str:
    """A documentation site's index: a search header, then every entry under its letter."""
    groups: dict[str, list[str]] = {}
    for entry in range(1, DOCS_ENTRIES + 1):
        groups.setdefault(docs_letter(entry), []).append(
            f'<li id="api-{entry}"><a href="#api-{entry}">{html.escape(docs_name(entry))}</a></li>'
        )
    parts = [
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<link rel="icon" href="data:,">\n'
        "<title>API index</title>\n<style>\n"
        "  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; color: #222; }\n"
        "  header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ddd;"
        " padding: 8px 24px; display: flex; gap: 1em; align-items: center; }\n"
        "  header p { margin: 0; color: #666; }\n"
        "  main { padding: 0 24px; }\n"
        "  main ul { list-style: none; padding: 0; }\n"
        "  #out { margin: 16px 24px; padding: 6px 8px; background: #f4f4f4;"
        " border: 1px solid #ddd; font-family: monospace; }\n"
        "</style>\n</head>\n<body>\n<header><strong>API docs</strong>"
        ' <input id="search" type="search" aria-label="Search the docs">'
        f' <p id="count">{DOCS_ENTRIES} entries</p></header>\n'
        '<p id="out">out: none</p>\n<main>\n'
    ]
    for letter, items in groups.items():
        parts.append(f'<h2 id="letter-{letter}">{letter}</h2>\n<ul>\n')
        parts.append("\n".join(items))
        parts.append("\n</ul>\n")
    parts.append("</main>\n")
    parts.append(_DOCS_SCRIPT)
    parts.append("</body>\n</html>\n")
    return "".join(parts)


_GENERATED: dict[str, Callable[[], str]] = {"docs-index.html": _docs_index}


def widget_page(name: str) -> bytes | None:
    """The body of page ``name`` (a bare file name such as ``"tabs.html"``), or ``None``."""
    generate = _GENERATED.get(name)
    if generate is not None:
        return generate().encode()
    if not name or name.startswith(".") or "/" in name or "\\" in name:
        return None
    path = WIDGETS_DIR / name
    return path.read_bytes() if path.is_file() else None


def content_type(name: str) -> str:
    """The ``Content-Type`` to serve page ``name`` with."""
    return "application/json" if name.endswith(".json") else "text/html; charset=utf-8"
