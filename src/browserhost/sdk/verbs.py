"""Declaring a provider's own verbs: a decorated method and a pydantic model of its arguments.

::

    class FindArguments(VerbArguments):
        text: str = Field(description="Text to look for.")

    class MyProvider(Provider):
        @verb("Find elements by their text anywhere on the page.", changes_page=False)
        async def find(self, arguments: FindArguments, context: Context) -> dict[str, object]:
            ...

The verb's name is the method's name, its JSON Schema the model's; the host checks the
arguments against that schema before sending, and :meth:`Provider.answer` reads them into
the model again, so the method gets typed values. It may answer any JSON value: an object, a
list, a number (within the host's answer cap).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar, get_type_hints

from pydantic import BaseModel, ConfigDict

from browserhost.contract import VerbSpec
from browserhost.contract.base import WireModel

VerbMethod = Callable[..., Awaitable[Any]]
M = TypeVar("M", bound=VerbMethod)

_MARK = "__browserhost_verb__"


class VerbArguments(WireModel):
    """Base of a verb's arguments: camelCase on the wire, unknown keys refused."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class DeclaredVerb:
    """A verb as a provider class holds it: its declaration, method name and arguments model."""

    spec: VerbSpec
    method: str
    arguments: type[BaseModel]


def verb(description: str, *, changes_page: bool = True) -> Callable[[M], M]:
    """Mark a provider method as a verb. ``changes_page=False`` for one that only reads."""

    def mark(method: M) -> M:
        setattr(method, _MARK, (description, changes_page))
        return method

    return mark


def declared_verbs(cls: type) -> dict[str, DeclaredVerb]:
    """The verbs a provider class declares with :func:`verb`, by name."""
    found: dict[str, DeclaredVerb] = {}
    for name in dir(cls):
        method = getattr(cls, name, None)
        marked = getattr(method, _MARK, None)
        if marked is None:
            continue
        description, changes_page = marked
        try:
            model = get_type_hints(method).get("arguments")
        except NameError as exc:  # hints are read when the provider class is created
            raise TypeError(
                f"verb {name!r}: define its arguments model before the provider class ({exc})"
            ) from None
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"verb {name!r} needs an 'arguments' parameter typed with a model")
        schema = model.model_json_schema(by_alias=True)
        spec = VerbSpec(
            name=name, description=description, input_schema=schema, changes_page=changes_page
        )
        found[name] = DeclaredVerb(spec, name, model)
    return found
