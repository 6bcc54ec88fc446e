"""A session's recording as one self-contained HTML page: ``browserhost trace export --html``.

Everything is in the page: the pictures as ``data:`` URLs, the style inline, no script. Its
content security policy lets it load nothing else, so opening it makes no request. Each step
is a line (number, action, outcome, time) that opens on its picture, parameters, answer and
error; failed steps are marked.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from html import escape
from typing import Final

from browserhost.contract.recording import RecordedStep, Recording

POLICY: Final = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

STYLE: Final = """
:root { color-scheme: light dark; --line: #d1d5db; --muted: #6b7280; --bad: #b91c1c; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 16px; }
h1 { font-size: 18px; margin: 0 0 4px; }
.muted { color: var(--muted); }
ol { list-style: none; padding: 0; }
li { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; }
li.failed { border-color: var(--bad); }
summary { cursor: pointer; padding: 6px 10px; display: flex; gap: 12px; align-items: baseline; }
summary .seq { color: var(--muted); min-width: 3em; }
summary .action { font-weight: 600; }
summary .outcome { margin-left: auto; }
li.failed .outcome { color: var(--bad); font-weight: 600; }
.step { display: flex; gap: 16px; padding: 8px 10px 12px; flex-wrap: wrap; }
.step img { max-width: 480px; border: 1px solid var(--line); align-self: flex-start; }
.step .text { flex: 1; min-width: 280px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0 10px; font-size: 12px; }
.error { color: var(--bad); }
"""


def recording_page(recording: Recording) -> str:
    """The recording (with its pictures inlined) as one HTML page."""
    steps = sorted(recording.steps, key=lambda step: (step.started_at, step.seq))
    session = recording.session_id or "(no session)"
    failures = sum(step.failed for step in steps)
    when = ""
    if steps:
        first, last = _time(steps[0].started_at), _time(steps[-1].started_at)
        when = f" from {first} to {last}"
    items = "\n".join(_step(step) for step in steps) or '<li class="muted">No steps.</li>'
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{POLICY}">
<meta name="referrer" content="no-referrer">
<title>browserhost recording: {escape(session)}</title>
<style>{STYLE}</style>
</head>
<body>
<h1>browserhost recording: {escape(session)}</h1>
<p class="muted">{len(steps)} steps, {failures} failed{escape(when)} (UTC).</p>
<ol>
{items}
</ol>
</body>
</html>
"""


def _step(step: RecordedStep) -> str:
    marked = ' class="failed"' if step.failed else ""
    outcome = "✓ ok" if not step.failed else f"✗ {step.outcome}"
    picture = ""
    if step.picture is not None and step.picture.base64 is not None:
        picture = (
            f'<img alt="The page after step {step.seq}" width="{step.picture.width}" '
            f'height="{step.picture.height}" '
            f'src="data:image/jpeg;base64,{escape(step.picture.base64)}">'
        )
    parts = [
        f'<p class="muted">{_time(step.started_at)} UTC · {escape(step.provider_id or "")}</p>'
    ]
    if step.error is not None:
        parts.append(f'<p class="error">{escape(step.error)}</p>')
    parts.append(f"<strong>Parameters</strong><pre>{_json(step.parameters)}</pre>")
    if step.answer is not None:
        parts.append(f"<strong>Answer</strong><pre>{_json(step.answer)}</pre>")
    return (
        f"<li{marked}><details><summary>"
        f'<span class="seq">#{step.seq}</span>'
        f'<span class="action">{escape(step.action)}</span>'
        f'<span class="outcome">{escape(outcome)}</span>'
        f'<span class="muted">{step.duration_ms} ms</span>'
        f'</summary><div class="step">{picture}<div class="text">{"".join(parts)}</div>'
        "</div></details></li>"
    )


def _json(value: object) -> str:
    return escape(json.dumps(value, indent=2, ensure_ascii=False))


def _time(epoch_s: float) -> str:
    return datetime.fromtimestamp(epoch_s, UTC).strftime("%Y-%m-%d %H:%M:%S")
