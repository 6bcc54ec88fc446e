"""The outline of each action (what the command line builds its verbs from) takes exactly
what the action's parameter model takes, and tells it in the model's words."""

from __future__ import annotations

import typing

import pytest

from browserhost.contract import ACTIONS, ActionSpec
from browserhost.contract.outline import OUTLINES

SPECS = list(ACTIONS.values())


def _choices(annotation: object) -> tuple[str, ...]:
    """The values of a ``Literal[...]`` or ``Literal[...] | None`` annotation, else none."""
    for member in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(member) is typing.Literal:
            return typing.get_args(member)
    return ()


def test_the_outline_has_the_ten_actions_in_their_order() -> None:
    assert list(OUTLINES) == list(ACTIONS)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_an_outline_takes_what_its_model_takes(spec: ActionSpec) -> None:
    outline = OUTLINES[spec.name]
    model = spec.parameters.model_fields
    assert [parameter.name for parameter in outline.parameters] == list(model)
    for parameter in outline.parameters:
        field = model[parameter.name]
        assert (field.alias or parameter.name) == parameter.name, "the wire name is the name"
        assert parameter.required == field.is_required(), parameter.name
        assert parameter.flag == (field.annotation is bool), parameter.name
        assert parameter.choices == _choices(field.annotation), parameter.name
        assert parameter.description == field.description, parameter.name


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_an_outline_says_what_its_action_says(spec: ActionSpec) -> None:
    outline = OUTLINES[spec.name]
    assert (outline.verb, outline.description, outline.timeout_s) == (
        spec.verb,
        spec.description,
        spec.timeout_s,
    )
