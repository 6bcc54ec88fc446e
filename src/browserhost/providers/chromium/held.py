"""The answer to an action that a dialog, left open for the agent (``ask`` mode), stopped
midway: what is known so far, with the dialog marked open."""

from __future__ import annotations

from typing import Any

from browserhost.contract import ProviderRequest, data, verb_name
from browserhost.contract import actions as params
from browserhost.sdk.provider import Answer

from .contexts import Tab, held_notice
from .errors import MayHaveRunError


def held_answer(request: ProviderRequest, tab: Tab) -> Answer:
    """The answer to an action a dialog stopped midway: what is known so far, with the dialog
    marked open. An action with nothing to say yet may have run (``REQUEST_FAILED``)."""
    page = tab.current()
    url = "about:blank" if page is None else page.url
    dialogs = tab.take_dialogs()
    if not dialogs:
        assert tab.held is not None
        dialogs = [data.Dialog(type=tab.held.type, message=tab.held.message, answer="open")]
    action, asked = request.action, request.parameters
    result: data.Data | dict[str, Any]
    if action == "browser.open":
        result = data.OpenData(
            url=url, title="", settled=False, viewport=tab.viewport(), dialogs=dialogs
        )
    elif action == "browser.click" and tab.partial:
        result = data.ClickData(
            clicked=tab.partial["clicked"], label=tab.partial["label"], url=url, dialogs=dialogs
        )
    elif action == "browser.type" and isinstance(asked, params.TypeParameters):
        result = data.TypeData(selector=asked.selector, url=url, dialogs=dialogs)
    elif action in ("browser.back", "browser.forward"):
        result = data.NavigationData(url=url, title="", dialogs=dialogs)
    elif verb_name(action) is not None:
        result = {"url": url, "dialogs": [d.model_dump(mode="json") for d in dialogs]}
    else:
        assert tab.held is not None
        raise MayHaveRunError(
            f"{held_notice(tab.held)} {action} was stopped by it midway and may have run."
        )
    if isinstance(result, data.Data):
        result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return {"ok": True, "data": result}
