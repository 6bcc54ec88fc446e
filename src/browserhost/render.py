"""Action answers as text: what a person reads in a terminal and what an MCP agent reads.

Each function takes an answer's ``data`` in its wire form (camelCase keys, the shape of the
models in :mod:`browserhost.contract.data`), since both adapters hold it so: the CLI prints
it from the HTTP answer, the MCP server sends it as structured content beside the text.
The CLI's lines are :class:`rich.text.Text` (styled on a terminal, plain in a pipe); the
MCP text is plain, compact, and reads one element per line, selector first.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rich.text import Text

from browserhost.contract.limits import SNAPSHOT_TEXT_MAX

Answer = Mapping[str, Any]

quoted = json.JSONEncoder(ensure_ascii=False).encode
"""``value`` as JSON with non-ASCII kept, as ``json.dumps(value, ensure_ascii=False)`` writes
it; one encoder for every label and value of a listing, where ``json.dumps`` with options
builds a new one per call (most of the cost of quoting a short string)."""

_FLAGS = ("highlighted", "required", "invalid", "readonly", "focused", "disabled", "covered")


def element_kind(element: Answer) -> str:
    """How a one-line listing names a wire ``Element``: its role, else its tag, with its
    type when it has one (``button[submit]``)."""
    kind = element.get("role") or element.get("tag")
    kind_type = element.get("type")
    return f"{kind}[{kind_type}]" if kind_type and kind_type != kind else str(kind)


def element_notes(element: Answer) -> list[str]:
    """What a one-line listing adds about a wire ``Element``: whether its label is a guess,
    the group it answers, its state, then off-screen."""
    notes = ["guessed label"] if element.get("labelGuessed") else []
    if element.get("group"):
        notes.append(f"in {quoted(element['group'])}")
    if "value" in element:
        notes.append(f"value={quoted(element['value'])}{_value_rest(element)}")
    for name, yes, no in (
        ("checked", "checked", "unchecked"),
        ("selected", "selected", "not selected"),
        ("expanded", "expanded", "collapsed"),
        ("pressed", "pressed", "not pressed"),
    ):
        if name in element:
            value = element[name]
            notes.append(f"{name}=mixed" if value == "mixed" else yes if value else no)
    if "current" in element:
        notes.append("current" if element["current"] == "true" else f"current {element['current']}")
    if element.get("marked"):
        notes.append(f"marked {element['marked']}")
    if "sort" in element:
        notes.append(f"sorted {element['sort']}")
    if element.get("options"):
        many = "several of " if element.get("multiple") else ""
        listed = ", ".join(quoted(option) for option in element["options"])
        total = element.get("optionsTotal")
        more = f" and {total - len(element['options'])} more" if isinstance(total, int) else ""
        notes.append(f"{many}options {listed}{more}")
    elif element.get("multiple"):
        notes.append("takes several")
    notes += [flag for flag in _FLAGS if element.get(flag) is True]
    if element.get("inViewport") is False:
        notes.append("off-screen")
    return notes


def _value_rest(element: Answer) -> str:
    """What a listing adds to a value cut short: how much is left, and how to read it."""
    total = element.get("valueTotalChars")
    if not isinstance(total, int) or not isinstance(element["value"], str):
        return ""
    left = total - len(element["value"].removesuffix("…"))
    if total > SNAPSHOT_TEXT_MAX:
        return f" (+{left:,} chars; inspect reads the first {SNAPSHOT_TEXT_MAX:,})"
    return f" (+{left:,} chars; inspect it to read all)"


def snapshot_notes(snapshot: Answer) -> list[str]:
    """What a listing says about a wire ``SnapshotData`` beyond its elements and text: what was
    left out above and below the viewport, and the snapshot's notice."""
    notes = []
    if snapshot.get("elementsTruncated"):
        notes.append(
            f"elements: {len(snapshot.get('elements') or [])} listed of "
            f"{snapshot.get('interactiveElementsOnPage')}, the rest "
            f"{snapshot.get('elementsAbove', 0)} above and {snapshot.get('elementsBelow', 0)} "
            "below the viewport; scroll, or scope the snapshot with a selector"
        )
    if snapshot.get("textTruncated"):
        notes.append(
            f"text: the part around the viewport; {snapshot.get('textAboveChars', 0)} characters "
            f"above it, {snapshot.get('textBelowChars', 0)} below, "
            f"{snapshot.get('textTotalChars')} in all"
        )
    if snapshot.get("notice"):
        notes.append(str(snapshot["notice"]))
    return notes


def _listed(snapshot: Answer) -> Iterator[tuple[int, Answer, str]]:
    """Each element of a snapshot with its number and its notes in brackets (or nothing)."""
    for number, element in enumerate(snapshot.get("elements") or [], 1):
        notes = element_notes(element)
        yield number, element, f"({', '.join(notes)})" if notes else ""


def _problems(answer: Answer) -> Iterator[str]:
    for problem in answer.get("consoleProblems") or []:
        yield f"console {problem.get('level')}: {problem.get('text')}"


def _dialogs(answer: Answer) -> Iterator[str]:
    for dialog in answer.get("dialogs") or []:
        entered = f' (answered "{dialog["text"]}")' if dialog.get("text") is not None else ""
        yield f"{dialog.get('type')} {dialog.get('answer')}: {dialog.get('message')}{entered}"


def _downloads(answer: Answer) -> Iterator[str]:
    for download in answer.get("downloads") or []:
        if download.get("path"):
            yield f"Downloaded {download.get('filename')} to {download['path']}"
        else:
            yield f"Download {download.get('filename')}: {download.get('error')}"


# --- for an MCP agent ----------------------------------------------------------------------


def snapshot_text(snapshot: Answer) -> str:
    """A snapshot as a model reads it best: one line per element, selector first."""
    lines = [f"{snapshot.get('title') or '(untitled)'} — {snapshot.get('url')}"]
    viewport = snapshot.get("viewport") or {}
    lines.append(
        f"scroll {snapshot.get('scrollY')}/{snapshot.get('maxScrollY')}, viewport "
        f"{viewport.get('mode')}"
    )
    if snapshot.get("scope") not in (None, "page"):
        lines.append(f"scoped to {snapshot['scope']}")
    lines.append(f"elements ({len(snapshot.get('elements') or [])}):")
    for number, element, notes in _listed(snapshot):
        label = quoted(element.get("label") or "")
        kind = element_kind(element)
        # In backticks: `#root div` would read as one selector where it is #root, a div.
        lines.append(f"{number}. `{element.get('selector')}` {kind} {label} {notes}".rstrip())
    lines.extend(["text:", snapshot.get("text") or ""])
    lines.extend(f"({note})" for note in snapshot_notes(snapshot))
    lines.extend(_problems(snapshot))
    return "\n".join(lines)


def providers_text(listing: Answer) -> str:
    """A providers listing for an agent: which exist, which is selected, and who selects."""
    selected = listing.get("selectedId")
    lines = [
        f"{row['id']} — {row['name']}{' (selected)' if row['id'] == selected else ''}"
        for row in listing.get("providers", [])
    ]
    if not lines:
        lines.append("No browser provider is installed.")
    if selected is None:
        lines.append("None is selected: ask the user to choose one (browserhost select ID).")
    return "\n".join(lines)


# --- for a person at a terminal ------------------------------------------------------------

Lines = list[Text]


def fields_lines(answer: Answer) -> Lines:
    """Any answer, one field a line: for an action no renderer below knows."""
    return [
        Text.assemble((f"{key}: ", "dim"), value if isinstance(value, str) else quoted(value))
        for key, value in answer.items()
    ]


def _page_line(answer: Answer) -> Text:
    return Text.assemble(
        (str(answer.get("title") or "(untitled)"), "bold"), "  ", (str(answer.get("url")), "cyan")
    )


def _viewport(answer: Answer) -> str:
    viewport = answer.get("viewport") or {}
    size = f" {viewport['width']}x{viewport['height']}" if viewport.get("width") else ""
    return f"{viewport.get('mode')}{size}"


def _open_lines(answer: Answer) -> Lines:
    settled = "" if answer.get("settled", True) else "; still loading when the wait ended"
    lines = [_page_line(answer), Text(f"viewport {_viewport(answer)}{settled}", "dim")]
    lines += [Text(dialog) for dialog in _dialogs(answer)]
    if answer.get("notice"):
        lines.append(Text(f"({answer['notice']})", "yellow"))
    return lines


def _snapshot_lines(answer: Answer) -> Lines:
    scope = answer.get("scope")
    where = f"; scoped to {scope}" if scope not in (None, "page") else ""
    lines = [
        _page_line(answer),
        Text(
            f"scroll {answer.get('scrollY')}/{answer.get('maxScrollY')}, viewport "
            f"{_viewport(answer)}{where}",
            "dim",
        ),
        Text(f"\nElements ({len(answer.get('elements') or [])})", "bold"),
    ]
    for number, element, notes in _listed(answer):
        lines.append(
            Text.assemble(
                f"{number:>3}. ",
                (str(element.get("selector")), "cyan"),
                f"  {element_kind(element)}  ",
                quoted(element.get("label") or ""),
                (f"  {notes}" if notes else "", "dim"),
            )
        )
    lines += [Text("\nText", "bold"), Text(str(answer.get("text") or ""))]
    lines += [Text(f"({note})", "dim") for note in snapshot_notes(answer)]
    lines += [Text(problem, "yellow") for problem in _problems(answer)]
    return lines


def _aftermath(answer: Answer) -> Lines:
    """The acted-on element's state, and the dialogs and downloads the action caused."""
    notes = element_notes(answer)
    lines = [Text(", ".join(notes), "dim")] if notes else []
    lines += [Text(dialog) for dialog in _dialogs(answer)]
    lines += [Text(download) for download in _downloads(answer)]
    if answer.get("notice"):
        lines.append(Text(f"({answer['notice']})", "yellow"))
    return lines


def _click_lines(answer: Answer) -> Lines:
    label = quoted(answer.get("label") or "")
    now = f", which now reads {quoted(answer['nowReads'])}" if answer.get("nowReads") else ""
    return _now_at(
        answer, "Clicked ", (label, "bold"), " (", (str(answer.get("clicked")), "cyan"), f"){now}"
    )


def _type_lines(answer: Answer) -> Lines:
    return _now_at(answer, "Typed into ", (str(answer.get("selector")), "cyan"))


def _now_at(answer: Answer, *said: str | tuple[str, str]) -> Lines:
    """What an action did, where the page is now, and what came of it."""
    done = Text.assemble(*said, "  now at ", (str(answer.get("url")), "cyan"))
    return [done, *_aftermath(answer)]


def _scroll_lines(answer: Answer) -> Lines:
    edge = " (top)" if answer.get("atTop") else " (bottom)" if answer.get("atBottom") else ""
    box = f" {answer['box']}" if answer.get("box") else ""
    return [Text(f"Scrolled{box} to {answer.get('scrollY')} of {answer.get('maxScrollY')}{edge}")]


def _page_lines(answer: Answer) -> Lines:
    return [_page_line(answer)]


def _inspect_lines(answer: Answer) -> Lines:
    bounds = answer.get("bounds") or {}
    seen = "in view" if answer.get("inViewport") else "out of view"
    lines = [
        Text.assemble(
            (str(answer.get("selector")), "cyan"),
            f"  {answer.get('tag')}  ",
            quoted(answer.get("label") or ""),
        ),
        Text(
            f"at {bounds.get('x')},{bounds.get('y')} size {bounds.get('width')}x"
            f"{bounds.get('height')}, {seen}"
        ),
    ]
    notes = element_notes({**answer, "inViewport": None})
    if notes:
        lines.append(Text(", ".join(notes)))
    for name, value in (answer.get("styles") or {}).items():
        lines.append(Text.assemble((f"  {name}: ", "dim"), str(value)))
    return lines


def _capture_lines(answer: Answer) -> Lines:
    """``path`` is where the image was written: by the host, or by the CLI (``-o FILE``,
    ``written`` then says so)."""
    size = f"{answer.get('width')}x{answer.get('height')}"
    saved = answer.get("path")
    if saved is None:
        said = Text(f"Captured {size}; the host could not save it here. Use -o FILE.")
    else:
        verb = "Wrote " if answer.get("written") else "Saved "
        said = Text.assemble(verb, (str(saved), "bold"), f"  {size}")
    return [said, _page_line(answer)]


def _resize_lines(answer: Answer) -> Lines:
    return [Text(f"Viewport {_viewport(answer)}")]


TERMINAL: dict[str, Callable[[Answer], Lines]] = {
    "browser.open": _open_lines,
    "browser.snapshot": _snapshot_lines,
    "browser.click": _click_lines,
    "browser.type": _type_lines,
    "browser.scroll": _scroll_lines,
    "browser.back": _page_lines,
    "browser.forward": _page_lines,
    "browser.inspect": _inspect_lines,
    "browser.capture": _capture_lines,
    "browser.resize": _resize_lines,
}
"""Readable lines by action; an action missing here prints its fields one per line."""


def terminal_lines(action: str, answer: Answer) -> Lines:
    """What ``browserhost VERB`` prints for an answer of ``action``."""
    return TERMINAL.get(action, fields_lines)(answer)
