"""How a provider says no: :class:`ActionError`, raised with what the agent should do
differently, and the ``ok: false`` answer it becomes."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from browserhost.contract.limits import ERROR_TEXT_MAX

Answer = dict[str, Any]
_M = TypeVar("_M", bound=BaseModel)


class ActionError(Exception):
    """The action could not be done; the message goes to the agent as ``ok: false``."""


def validated(model: type[_M], value: object, what: str) -> _M:
    """``value`` read into ``model``, or :class:`ActionError` naming the first field wrong
    (``what``, the arguments or options, where no one field is: a rule of the model's own
    says what to give)."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in problem["loc"]) or what
        said = str(problem["msg"]).removeprefix("Value error, ")
        raise ActionError(f"{where}: {said}; nothing was done.") from None


def refusal(message: str) -> Answer:
    """An ``ok: false`` answer, with the text cut to the contract's limit."""
    text = message.strip() or "The action failed."
    if len(text) > ERROR_TEXT_MAX:
        text = text[: ERROR_TEXT_MAX - 1] + "…"
    return {"ok": False, "error": text}
