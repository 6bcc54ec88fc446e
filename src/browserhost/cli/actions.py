"""The browser verbs: one command per action of :data:`browserhost.contract.ACTIONS`, its
options read from the action's parameter model, and ``call`` for a provider's own verbs."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from inspect import Parameter, Signature
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from browserhost.contract import VERB_PREFIX, ActionSpec

from .calls import Target, run
from .captures import check_output, write_capture
from .options import (
    JsonOption,
    PairsOption,
    ProjectOption,
    ProviderOption,
    SessionOption,
    TimeoutOption,
    TokenOption,
    UrlOption,
    object_option,
)
from .output import cli_names, print_json, print_lines
from .pairs import json_object, typed_pairs

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo

    from browserhost.client import Client

POSITIONAL = {"browser.open": "url", "browser.resize": "viewport"}
"""The one field a verb takes as an argument: ``browserhost open URL``."""

OutputOption = Annotated[
    Path | None,
    typer.Option(
        "-o",
        "--output",
        metavar="FILE",
        dir_okay=False,
        help="Write the image to FILE instead of the project's .browserhost/captures/.",
    ),
]

_SHARED = {
    "provider": ProviderOption,
    "session": SessionOption,
    "timeout_ms": TimeoutOption,
    "project": ProjectOption,
    "api_url": UrlOption,
    "api_token": TokenOption,
    "as_json": JsonOption,
}


class ActionVerb:
    """The command of one action. Typer reads its parameters from :attr:`__signature__`
    (the model's fields, then the shared options), as it reads a function's."""

    def __init__(self, spec: ActionSpec) -> None:
        self.spec = spec
        self.__annotations__: dict[str, object] = {}  # all in the signature; typer reads both
        fields = sorted(
            (_field(spec, name, info) for name, info in spec.parameters.model_fields.items()),
            key=lambda parameter: parameter.kind,  # the argument before the options
        )
        if spec.name == "browser.capture":
            fields.append(_keyword("output", OutputOption, None))
        shared = [
            _keyword(name, annotation, False if name == "as_json" else None)
            for name, annotation in _SHARED.items()
        ]
        self._signature = Signature([*fields, *shared])

    @property
    def __signature__(self) -> Signature:
        return self._signature

    def __call__(self, **values: Any) -> None:
        target = Target(
            values.pop("api_url"),
            values.pop("api_token"),
            values.pop("as_json"),
            values.pop("provider"),
            values.pop("session"),
            values.pop("project"),
        )
        output: Path | None = values.pop("output", None)
        timeout_ms: int | None = values.pop("timeout_ms")
        parameters = {key: value for key, value in values.items() if value is not None}
        check_output(output)
        run(target, lambda client: act(client, self.spec, parameters, output, target, timeout_ms))


async def act(
    client: Client,
    spec: ActionSpec,
    parameters: dict[str, object],
    output: Path | None,
    target: Target,
    timeout_ms: int | None = None,
) -> None:
    """Run one action and print its answer (a capture's image written first, into the
    session's project, else the directory the command runs in)."""
    answer = await client.run(spec.name, parameters, timeout_ms=timeout_ms)
    data = answer.data
    if spec.name == "browser.capture":
        label = parameters.get("label")
        project = target.project or Path.cwd()
        written = write_capture(data, output, label if isinstance(label, str) else None, project)
        data = {**data, "path": str(written), "written": output is not None}
        answer.data.update(path=str(written))
    if target.as_json:
        print_json(answer.to_wire())
    else:
        from browserhost.render import terminal_lines

        print_lines(terminal_lines(spec.name, data))


def _keyword(name: str, annotation: object, default: object) -> Parameter:
    return Parameter(name, Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def _field(spec: ActionSpec, name: str, info: FieldInfo) -> Parameter:
    """The command-line parameter for one field of the action's parameter model: a Literal
    stays a Literal (typer shows and checks its choices), anything else but a flag is text."""
    choices = _literal(info.annotation)
    kind: Any = choices or (bool if info.annotation is bool else str)
    help_text = cli_names(info.description or "")
    if name == POSITIONAL.get(spec.name):
        argument = typer.Argument(metavar=name.upper(), help=help_text, show_default=False)
        return Parameter(
            name, Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[kind, argument]
        )
    flag = f"--{name.replace('_', '-')}"
    if kind is bool:
        return _keyword(name, Annotated[bool, typer.Option(flag, help=help_text)], False)
    option = typer.Option(
        flag, metavar=None if choices else name.upper(), show_default=False, help=help_text
    )
    if info.is_required():
        return _keyword(name, Annotated[kind, option], ...)
    return _keyword(name, Annotated[kind | None, option], None)


def _literal(annotation: object) -> object:
    """The Literal of a field (``Literal[...]`` or ``Literal[...] | None``), else None."""
    for member in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(member) is typing.Literal:
            return member
    return None


CALL_EXAMPLE = '{"text": "Pricing"}'


def call(
    verb: Annotated[str, typer.Argument(metavar="VERB", help="The verb's name, e.g. find.")],
    arg: PairsOption = None,
    arguments: Annotated[str | None, object_option("--json", "arguments", CALL_EXAMPLE)] = None,
    provider: ProviderOption = None,
    session: SessionOption = None,
    timeout_ms: TimeoutOption = None,
    project: ProjectOption = None,
    api_url: UrlOption = None,
    api_token: TokenOption = None,
) -> None:
    """Run a verb of the selected provider (browserhost providers lists them)."""
    # a verb's answer is the provider's own JSON
    target = Target(api_url, api_token, True, provider, session, project)
    pairs = arg or []

    async def act(client: Client) -> None:
        sent = json_object(arguments, "--json", CALL_EXAMPLE)
        if pairs:
            schema = await _verb_schema(client, verb, target.provider)
            sent.update(typed_pairs(pairs, schema, "--arg"))
        answer = await client.run(f"{VERB_PREFIX}{verb}", sent, timeout_ms=timeout_ms)
        print_json(answer.to_wire())

    run(target, act)


async def _verb_schema(client: Client, verb: str, provider: str | None) -> Mapping[str, Any]:
    listing = await client.providers()
    wanted = provider or listing.selected_id
    for row in listing.providers:
        if row.id == wanted:
            for declared in row.verbs:
                if declared.name == verb:
                    return declared.input_schema
    return {}


def short_help(spec: ActionSpec) -> str:
    return spec.description.split(". ")[0].removesuffix(".") + "."
