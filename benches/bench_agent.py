"""Scripted agent tasks on widget-library pages over stdio MCP: successes, calls and characters
read.

    .venv/bin/python benches/bench_agent.py [--chromium /usr/bin/chromium]

The official SDK client spawns ``browserhost mcp --select chromium`` (an embedded host with the
Chromium provider) and runs every task in that one session, one after another, against the
widget pages of the chromium tests' site (``tests/providers/chromium/widgets/``). Each task is
a small fixed policy playing a text-only agent: it decides only from the text the tools
returned (element lines of ``browser_snapshot`` parsed for selectors, labels and state notes,
click answers, error texts), never from the page itself, and it checks success the same way
(a value or state note on an element line, or an ``out:`` line in the page text).

Per task it measures what an agent pays: the ``tools/call`` requests made, the characters of
text content read back (snapshots dominate), and the wall time. A task that cannot go on (an
element it needs is not listed, a call fails unexpectedly) or whose check fails counts as a
failure, printed with the last error text; the exit status stays 0.

Prints a table and totals and writes ``benches/results/bench_agent.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.providers.chromium.site import serving

RESULTS = Path(__file__).parent / "results" / "bench_agent.json"

ELEMENT_LINE = re.compile(r'^(\d+)\. `(.+?)` (\S+) ("(?:[^"\\]|\\.)*")(?: \((.*)\))?$')
"""``N. `<selector>` <role> "<label>" (notes)``: the label is JSON, the notes optional."""
VALUE_NOTE = re.compile(r'value=("(?:[^"\\]|\\.)*")(?:, )?')


class Failed(Exception):
    """The agent cannot go on, or what it saw does not show the task done."""


@dataclass(frozen=True)
class Element:
    selector: str
    role: str
    label: str
    value: str | None
    flags: frozenset[str]
    """The other notes: ``checked``, ``selected``, ``invalid``, ``covered``, ``off-screen``..."""


@dataclass(frozen=True)
class Snapshot:
    elements: list[Element]
    lines: list[str]
    """The page text after ``text:``, one entry per line."""

    def shows(self, line: str) -> bool:
        return any(seen.strip() == line for seen in self.lines)


def parse_snapshot(text: str) -> Snapshot:
    head, _, body = text.partition("\ntext:\n")
    elements = []
    for line in head.splitlines():
        match = ELEMENT_LINE.match(line)
        if match is None:
            continue
        notes = match[5] or ""
        value = VALUE_NOTE.search(notes)
        rest = VALUE_NOTE.sub("", notes)
        elements.append(
            Element(
                selector=match[2],
                role=match[3],
                label=json.loads(match[4]),
                value=json.loads(value[1]) if value else None,
                flags=frozenset(flag for flag in rest.split(", ") if flag),
            )
        )
    return Snapshot(elements, body.splitlines())


def find(
    snapshot: Snapshot, label: str, role: str = "", within: str = "", exact: bool = True
) -> Element:
    """The first listed element with this label (or containing it), role prefix and selector
    prefix."""
    for element in snapshot.elements:
        named = element.label == label if exact else label.lower() in element.label.lower()
        if named and element.role.startswith(role) and element.selector.startswith(within):
            return element
    raise Failed(f"no element labelled {label!r} (role {role or 'any'}) is listed")


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(f"not seen: {what}")


def page_part(text: str) -> str:
    """An answer's text without the lines that mark it as the page's (untrusted) content."""
    lines = text.split("\n")
    if len(lines) >= 2 and lines[0].startswith("[page content "):
        return "\n".join(lines[1:-1])
    return text


class Agent:
    """One MCP session, counted: every call and every character of text it returns."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.calls = 0
        self.chars_read = 0
        self.last_error = ""

    async def call(self, tool: str, arguments: dict[str, Any]) -> tuple[bool, str]:
        result = await self.client.call_tool(tool, arguments)
        self.calls += 1
        text = "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))
        self.chars_read += len(text)
        if result.is_error:
            self.last_error = f"{tool} {json.dumps(arguments)}: {text}"
        return bool(result.is_error), text

    async def act(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """A call the policy needs to succeed; its answer data."""
        failed, text = await self.call(tool, arguments)
        if failed:
            raise Failed(f"{tool} failed")
        answer: dict[str, Any] = json.loads(page_part(text))
        return answer

    async def snapshot(self, selector: str | None = None) -> Snapshot:
        failed, text = await self.call(
            "browser_snapshot", {"selector": selector} if selector else {}
        )
        if failed:
            raise Failed("browser_snapshot failed")
        return parse_snapshot(page_part(text))

    async def click(self, element: Element) -> dict[str, Any]:
        return await self.act("browser_click", {"selector": element.selector})

    async def type(self, element: Element, value: str) -> dict[str, Any]:
        return await self.act("browser_type", {"selector": element.selector, "value": value})


# The policies: each opens its page, acts on what it read, and checks what it saw.


async def docs_by_text(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    await agent.act("browser_click", {"text": "Zebra stripes guide"})
    page = await agent.snapshot()
    if not page.shows("out: open Zebra stripes guide"):
        # The link was far down: the outcome line may be above the part of the text shown.
        await agent.act("browser_scroll", {"direction": "top"})
        page = await agent.snapshot()
    expect(page.shows("out: open Zebra stripes guide"), "out: open Zebra stripes guide")


async def docs_by_search(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    await agent.type(find(page, "search", exact=False), "zebra")
    page = await agent.snapshot()
    await agent.click(find(page, "Zebra stripes guide", role="link"))
    page = await agent.snapshot()
    expect(page.shows("out: open Zebra stripes guide"), "out: open Zebra stripes guide")


async def datepicker(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    await agent.click(find(page, "Date:"))
    page = await agent.snapshot()
    await agent.click(find(page, "14", role="link"))
    page = await agent.snapshot()
    expect(find(page, "Date:").value == "12/14/2026", 'Date: value="12/14/2026"')


async def autocomplete(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    await agent.type(find(page, "Tags:"), "ja")
    page = await agent.snapshot()
    await agent.click(find(page, "Java"))
    page = await agent.snapshot()
    expect(find(page, "Tags:").value == "Java", 'Tags: value="Java"')


async def tabs(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    await agent.click(find(page, "Aenean lacinia", role="tab"))
    page = await agent.snapshot()
    expect("selected" in find(page, "Aenean lacinia", role="tab").flags, "Aenean lacinia selected")
    expect(any(line.startswith("Panel three text") for line in page.lines), "panel three text")


async def selectmenu(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    combobox = find(page, "Medium", role="combobox")
    await agent.click(combobox)
    page = await agent.snapshot()
    await agent.click(find(page, "Fast", role="option"))
    page = await agent.snapshot()
    chosen = next((e for e in page.elements if e.selector == combobox.selector), None)
    expect(chosen is not None and chosen.value == "Fast", 'combobox value="Fast"')


async def spinner(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    field = find(page, "Select a value:", role="spinbutton")
    after = page.elements[page.elements.index(field) + 1 :]
    # Its arrows: named by their classes ("spinner up"), else the first button with no name.
    buttons = [e for e in after if e.role.startswith("button")]
    up = next((e for e in buttons if "up" in e.label.split()), None)
    up = up or next((e for e in buttons if not e.label), None)
    if up is None:
        raise Failed("no button named up, nor an unnamed one, listed after the spinbutton")
    for _ in range(7 - int(field.value or 0)):
        await agent.click(up)
    page = await agent.snapshot()
    expect(find(page, "Select a value:").value == "7", 'spinbutton value="7"')


async def dialog_form(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    await agent.act("browser_click", {"text": "Create new user"})
    page = await agent.snapshot()
    name, create = find(page, "Name", role="textbox"), find(page, "Create an account")
    await agent.type(name, "")
    await agent.click(create)
    page = await agent.snapshot()
    expect("invalid" in find(page, "Name", role="textbox").flags, "Name invalid")
    await agent.type(name, "Ada Lovelace")
    await agent.click(create)
    page = await agent.snapshot()
    expect(page.shows("out: created Ada Lovelace"), "out: created Ada Lovelace")


async def checkboxradio(agent: Agent, url: str) -> None:
    choices = ("Paris", "4 Star", "I agree to the terms")
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    for label in choices:
        await agent.click(find(page, label))
    page = await agent.snapshot()
    for label in choices:
        expect("checked" in find(page, label).flags, f"{label} checked")


async def frames(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    await agent.type(find(page, "Card number", within="#cross >> "), "4242")
    await agent.click(find(page, "Pay", within="#cross >> "))
    page = await agent.snapshot("#cross")
    expect(page.shows("inner: paid 4242"), "inner: paid 4242 in #cross")


async def overlay(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    buy = find(page, "Buy now")
    refused, text = await agent.call("browser_click", {"selector": buy.selector})
    expect(refused and "#cookie-banner" in text, "the refusal naming #cookie-banner")
    # The refusal quotes what covers the button: click the listed button quoted in it.
    cover = text.partition("covered by")[2].partition("so nothing")[0]
    dismiss = next((e for e in page.elements if e.label and e.label in cover), None)
    if dismiss is None:
        raise Failed("no listed element is named in the cover")
    await agent.click(dismiss)
    await agent.click(buy)
    page = await agent.snapshot()
    expect(page.shows("out: bought"), "out: bought")


async def spa(agent: Agent, url: str) -> None:
    await agent.act("browser_open", {"url": url})
    page = await agent.snapshot()
    await agent.click(find(page, "Load more"))
    page = await agent.snapshot()
    links = [e for e in page.elements if e.role == "link"]
    expect(len(links) == 24, f"24 item links (listed: {len(links)})")


Policy = Callable[[Agent, str], Awaitable[None]]

TASKS: list[tuple[str, str, Policy]] = [
    ("docs-index by text", "docs-index.html", docs_by_text),
    ("docs-index by search", "docs-index.html", docs_by_search),
    ("datepicker", "datepicker.html", datepicker),
    ("autocomplete", "autocomplete.html", autocomplete),
    ("tabs", "tabs.html", tabs),
    ("selectmenu", "selectmenu.html", selectmenu),
    ("spinner", "spinner.html", spinner),
    ("dialog-form", "dialog-form.html", dialog_form),
    ("checkboxradio", "checkboxradio.html", checkboxradio),
    ("frames", "frames.html", frames),
    ("overlay", "overlay.html", overlay),
    ("spa", "spa.html", spa),
]


@dataclass(frozen=True)
class Row:
    task: str
    ok: bool
    calls: int
    chars_read: int
    seconds: float
    failure: str
    """What the policy could not do or did not see; empty when the task succeeded."""
    last_error: str
    """The text of the last failed call, if any."""


async def run_tasks(chromium: str) -> list[Row]:
    rows = []
    with serving() as site, tempfile.TemporaryDirectory() as scratch:
        project, data_dir = Path(scratch) / "project", Path(scratch) / "data"
        project.mkdir()
        parameters = StdioServerParameters(
            command=str(Path(sys.executable).with_name("browserhost")),
            args=["mcp", "--select", "chromium"],
            env={"BROWSERHOST_DATA_DIR": str(data_dir), "BROWSERHOST_CHROMIUM": chromium},
            cwd=project,
        )
        async with Client(stdio_client(parameters), read_timeout_seconds=60) as client:
            for name, page, policy in TASKS:
                agent = Agent(client)
                start = time.perf_counter()
                failure = ""
                try:
                    await policy(agent, site.url(f"/w/{page}"))
                except Failed as error:
                    failure = str(error)
                seconds = round(time.perf_counter() - start, 2)
                rows.append(
                    Row(
                        name,
                        not failure,
                        agent.calls,
                        agent.chars_read,
                        seconds,
                        failure,
                        agent.last_error,
                    )
                )
    return rows


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    options = parser.parse_args()
    rows = await run_tasks(options.chromium)
    header = f"{'task':<22} {'ok':>3} {'calls':>6} {'chars read':>11} {'seconds':>8}"
    print(header)
    print("-" * len(header))
    for row in rows:
        ok = "yes" if row.ok else "no"
        print(f"{row.task:<22} {ok:>3} {row.calls:>6} {row.chars_read:>11,} {row.seconds:>8.2f}")
    totals = {
        "successes": sum(row.ok for row in rows),
        "tasks": len(rows),
        "calls": sum(row.calls for row in rows),
        "chars_read": sum(row.chars_read for row in rows),
        "median_chars_per_task": statistics.median(row.chars_read for row in rows),
    }
    print("-" * len(header))
    print(
        f"successes {totals['successes']} of {totals['tasks']}, {totals['calls']} calls, "
        f"{totals['chars_read']:,} characters read, "
        f"median {totals['median_chars_per_task']:,.0f} characters per task"
    )
    for row in rows:
        if not row.ok:
            print(f"\nFAILED {row.task}: {row.failure}\n  last error: {row.last_error or '(none)'}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "chromium": options.chromium,
                "python": platform.python_version(),
                "machine": platform.machine(),
                "rows": [asdict(row) for row in rows],
                "totals": totals,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
