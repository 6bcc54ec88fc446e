"""Dialogs and the actions around them: the answer to an action that a dialog, left open for
the agent (``ask`` mode), stopped midway (what is known so far, with the dialog marked open),
and the answer the dialog verb planned, which only the next action that acts may spend."""

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


TELLING = frozenset({"browser.open", "browser.click", "browser.type"})
"""The actions of the ten whose answers have a notice; every verb's may."""
PLAN_SPENDERS = TELLING | {"browser.back", "browser.forward"}
"""The actions of the ten that may show a dialog; a verb may where it changes the page."""


def plan_dropped(planned: tuple[bool, str | None]) -> str:
    """What an answer says when the dialog verb's planned answer found no dialog to take."""
    answer = "accept" if planned[0] else "dismiss"
    return (
        f"No alert, confirm or prompt came up, so the plan to {answer} the next one "
        "(verb.dialog) was dropped; plan it again right before the action that shows one."
    )


def spend_plan(
    tab: Tab | None, planned: tuple[bool, str | None], request: ProviderRequest, answer: Answer
) -> None:
    """After an action that acts, drop ``planned`` if no dialog took it, saying so in the
    answer where it can."""
    if tab is None or tab.dialog_plan is not planned or not answer.get("ok"):
        return
    tab.dialog_plan = None
    result = answer.get("data")
    if isinstance(result, dict) and (verb_name(request.action) or request.action in TELLING):
        said = result.get("notice")
        result["notice"] = f"{said} {plan_dropped(planned)}" if said else plan_dropped(planned)
