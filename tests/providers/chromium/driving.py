"""Driving the provider as the host does: validated parameters in, wire answers out."""

from __future__ import annotations

import itertools
import json
from typing import TYPE_CHECKING, Any

from browserhost.contract import Context, ProviderRequest, data, normalize, verb_name
from browserhost.providers.chromium import ChromiumProvider, Timeouts
from browserhost.sdk import Provider

if TYPE_CHECKING:
    from playwright.async_api import Browser

TEST_TIMEOUTS = Timeouts(act_s=2.0, open_settle_s=5.0)
"""Short enough that a refused click does not stall the suite, long enough for a loaded CI."""

_ids = itertools.count()


async def act(
    provider: Provider, context: Context, action: str, /, **parameters: object
) -> dict[str, Any]:
    """One action, or a verb (``verb.<name>``), through :meth:`Provider.answer`; returns the
    wire answer (what the host reads)."""
    request_id = f"test-{next(_ids)}"
    if verb_name(action) is not None:
        request = ProviderRequest(request_id, action, parameters, context)
    else:
        call = normalize(action, parameters)
        request = ProviderRequest(request_id, call.name, call.parameters, context)
    return await provider.answer(request)


async def ok(provider: Provider, context: Context, action: str, /, **parameters: object) -> Any:
    """The ``data`` of an action that must succeed."""
    answer = await act(provider, context, action, **parameters)
    assert answer["ok"] is True, answer
    return answer["data"]


async def refused(
    provider: Provider, context: Context, action: str, /, **parameters: object
) -> str:
    """The error text of an action that must answer ``ok: false``."""
    answer = await act(provider, context, action, **parameters)
    assert answer["ok"] is False, answer
    assert set(answer) == {"ok", "error"}
    error: str = answer["error"]
    return error


def assert_shape(model: type[data.Data], wire: dict[str, Any]) -> None:
    """``wire`` has exactly the documented fields of ``model``, with the documented types."""
    parsed = model.model_validate_json(json.dumps(wire), strict=True)
    _no_extras(parsed)


def _no_extras(value: object) -> None:
    if isinstance(value, data.Data):
        assert not value.model_extra, f"undocumented fields in {type(value).__name__}"
        for name in type(value).model_fields:
            _no_extras(getattr(value, name))
    elif isinstance(value, list):
        for item in value:
            _no_extras(item)


async def out_line(provider: Provider, context: Context) -> str:
    """What the page's own ``#out`` line says: the widget pages write there what happened."""
    inspected = await ok(provider, context, "browser.inspect", selector="#out")
    label: str = inspected["label"]
    return label


async def in_page(provider: ChromiumProvider, context: Context, script: str) -> Any:
    """Run ``script`` in the context key's current page, as the page's own code would."""
    page = provider.page_for(context)
    assert page is not None
    return await page.evaluate(script)


async def browser_pid(browser: Browser) -> int:
    """The process id of a (local) browser, as the browser itself reports it."""
    session = await browser.new_browser_cdp_session()
    info = await session.send("SystemInfo.getProcessInfo")
    await session.detach()
    pids = [int(p["id"]) for p in info["processInfo"] if p["type"] == "browser"]
    assert len(pids) == 1, info
    return pids[0]
