"""Property: for any action and JSON-ish parameters, nothing invalid is ever sent.

Either the host refuses with INVALID_ACTION and the provider receives nothing, or the provider
receives exactly one request whose parameters are the normalized ones, and those satisfy every
rule. The rules are checked against an independent transcription of the reference
``normalizeBrowserAction``, not against the implementation's own models.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from browserhost.contract import ACTIONS, normalize
from browserhost.contract.errors import InvalidActionError
from browserhost.host import Host
from tests.recording import Recorder
from tests.strategies import anything, parameters_for

VIEWPORTS = ("mobile", "tablet", "desktop", "fill")
DIRECTIONS = ("up", "down", "top", "bottom")
URL_REFUSALS = (
    "url must be an absolute http(s) URL. Nothing was sent.",
    "url must use http or https. Nothing was sent.",
)


class Refused(Exception):
    pass


def _text(value: object) -> str | None:
    # The reference trims with JS String.trim(); Python's str.strip() differs on a few exotic
    # code points. The implementation uses strip() too, so the oracle follows it.
    return value.strip() if isinstance(value, str) and value.strip() else None


def _viewport(value: object, required: bool) -> str | None:
    mode = _text(value)
    if mode is None:
        if required:
            raise Refused("viewport is required for browser.resize. Nothing was sent.")
        return None
    if mode not in VIEWPORTS:
        raise Refused("viewport must be mobile, tablet, desktop, or fill. Nothing was sent.")
    return mode


def expected(action: object, parameters: object) -> dict[str, Any]:
    """The reference rules, transcribed; ``url`` is returned trimmed, not yet normalized."""
    if not isinstance(action, str) or action not in ACTIONS:
        raise Refused("Unknown browser action")
    source = {} if parameters is None else parameters
    if not isinstance(source, dict):
        raise Refused("parameters must be an object. Nothing was sent.")
    sent: dict[str, Any] = {}
    if action == "browser.resize":
        sent["viewport"] = _viewport(source.get("viewport"), True)
    if action == "browser.capture" and (label := _text(source.get("label"))):
        sent["label"] = label
    if action == "browser.open":
        if viewport := _viewport(source.get("viewport"), False):
            sent["viewport"] = viewport
        url = _text(source.get("url"))
        if url is None:
            raise Refused("url is required for browser.open. Nothing was sent.")
        if url != "about:blank" and urlsplit(url).scheme.lower() not in ("http", "https"):
            raise Refused("url must ")
        sent["url"] = url
    if action == "browser.click":
        selector, text = _text(source.get("selector")), _text(source.get("text"))
        if not selector and not text:
            raise Refused("browser.click requires selector or text. Nothing was sent.")
        sent |= {k: v for k, v in (("selector", selector), ("text", text)) if v}
    if action == "browser.snapshot" and (selector := _text(source.get("selector"))):
        sent["selector"] = selector
    if action == "browser.inspect":
        if not (selector := _text(source.get("selector"))):
            raise Refused("selector is required for browser.inspect. Nothing was sent.")
        sent["selector"] = selector
    if action == "browser.type":
        if not (selector := _text(source.get("selector"))):
            raise Refused("selector is required for browser.type. Nothing was sent.")
        if not isinstance(source.get("value"), str):
            raise Refused("value is required for browser.type. Nothing was sent.")
        sent |= {"selector": selector, "value": source["value"]}
        sent["submit"] = source.get("submit") is True
    if action == "browser.scroll":
        selector, direction = _text(source.get("selector")), _text(source.get("direction"))
        if not selector and not direction:
            raise Refused("browser.scroll requires direction or selector. Nothing was sent.")
        if direction and direction not in DIRECTIONS:
            raise Refused("direction must be up, down, top, or bottom. Nothing was sent.")
        sent |= {k: v for k, v in (("selector", selector), ("direction", direction)) if v}
    return sent


def _dispatch(action: object, raw: object) -> tuple[Recorder, InvalidActionError | None]:
    recorder = Recorder()
    host = Host(Path("/nonexistent-data-dir"))  # providerId is explicit: the dir is never read
    host.catalog.install(recorder.record())

    async def run() -> InvalidActionError | None:
        try:
            await host.dispatch(action, raw, provider_id=recorder.id)
        except InvalidActionError as refused:
            return refused
        finally:
            await host.aclose()
        return None

    return recorder, asyncio.run(run())


@pytest.mark.parametrize("action", list(ACTIONS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_nothing_invalid_is_ever_sent(action: str, data: st.DataObject) -> None:
    check_one(action, data.draw(parameters_for(action)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=anything)
def test_nothing_invalid_is_ever_sent_for_any_action_and_parameters(
    case: tuple[object, object],
) -> None:
    check_one(*case)


def reference(action: object, raw: object) -> dict[str, Any] | str:
    """The parameters the reference would send, or the message it would refuse with."""
    try:
        return expected(action, raw)
    except Refused as refusal:
        return str(refusal)


def check_one(action: object, raw: object) -> None:
    recorder, refused = _dispatch(action, raw)
    rules = reference(action, raw)
    if isinstance(rules, str):
        assert refused is not None, "the reference refuses this, the host sent it"
        assert refused.message.startswith(rules.removesuffix("Nothing was sent."))
        assert refused.message.endswith("Nothing was sent.")
        assert recorder.requests == []
        return
    if refused is not None:
        # Only the URL rule needs a real URL parser; every other refusal is a defect.
        assert action == "browser.open", refused.message
        # Keys it has no parameter for are named after the rule (what was misspelled).
        said = refused.message
        assert any(said.startswith(url.removesuffix("Nothing was sent.")) for url in URL_REFUSALS)
        assert said.endswith("Nothing was sent.")
        assert recorder.requests == []
        return
    assert len(recorder.requests) == 1
    sent = recorder.wire[0]["parameters"]
    assert sent == normalize(action, raw).parameters.to_wire()
    if action == "browser.open" and sent["url"] == "about:blank":
        assert rules.pop("url") == sent.pop("url")
    elif action == "browser.open":
        url = sent.pop("url")
        parts = urlsplit(url)
        assert parts.scheme in ("http", "https"), url
        assert parts.hostname, url
        assert normalize("browser.open", {"url": url}).parameters.to_wire()["url"] == url
        rules.pop("url")
    assert sent == rules


@settings(max_examples=200, deadline=None)
@given(
    scheme=st.from_regex(r"\A[a-zA-Z][a-zA-Z0-9+.-]{0,10}\Z").filter(
        lambda scheme: scheme.lower() not in ("http", "https")
    ),
    rest=st.sampled_from(["///etc/passwd", "//example.com/", "alert(1)", "text/html,<p>x", ""]),
)
def test_no_address_but_http_https_and_the_blank_page_is_ever_sent(scheme: str, rest: str) -> None:
    url = f"{scheme}:{rest}"
    recorder, refused = _dispatch("browser.open", {"url": url})
    if url == "about:blank":
        assert refused is None
        assert recorder.wire[0]["parameters"]["url"] == "about:blank"
        return
    assert refused is not None, url
    assert refused.message in URL_REFUSALS
    assert recorder.requests == []
