"""The browser verbs: one command per action of :data:`browserhost.contract.outline.OUTLINES`,
its options read from the action's outline, and ``call`` for a provider's own verbs.

A verb sends its action as given, over a bare connection: the host checks it with the
contract's rules and refuses it with their message, so the command line loads no model.
"""

from __future__ import annotations

from collections.abc import Mapping
from inspect import Parameter, Signature
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from browserhost.contract.outline import ActionOutline, ParameterOutline

from .calls import Target, run, send
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
from .output import cli_name, cli_names, print_json, print_lines
from .pairs import json_object, typed_pairs

if TYPE_CHECKING:
    from browserhost.client import Client
    from browserhost.connection import Connection

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
    (the action's parameters, then the shared options), as it reads a function's."""

    def __init__(self, outline: ActionOutline) -> None:
        self.outline = outline
        self.__annotations__: dict[str, object] = {}  # all in the signature; typer reads both
        fields = sorted(
            (_field(outline, parameter) for parameter in outline.parameters),
            key=lambda parameter: parameter.kind,  # the argument before the options
        )
        if outline.name == "browser.capture":
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
        send(
            target,
            lambda connection: act(
                connection, self.outline, parameters, output, target, timeout_ms
            ),
        )


async def act(
    connection: Connection,
    outline: ActionOutline,
    parameters: dict[str, object],
    output: Path | None,
    target: Target,
    timeout_ms: int | None = None,
) -> None:
    """Run one action and print its answer (a capture's image written first, into the
    session's project, else the directory the command runs in)."""
    answer = await connection.send(
        outline.name, parameters, timeout_s=outline.timeout_s, timeout_ms=timeout_ms
    )
    data = answer.data
    if outline.name == "browser.capture":
        label = parameters.get("label")
        project = target.project or Path.cwd()
        written = write_capture(data, output, label if isinstance(label, str) else None, project)
        data = {**data, "path": str(written), "written": output is not None}
        answer.data.update(path=str(written))
    if target.as_json:
        print_json(answer.to_wire())
    else:
        from browserhost.contract.names import notices_renamed
        from browserhost.render import terminal_lines

        print_lines(terminal_lines(outline.name, notices_renamed(data, cli_name)))


def _keyword(name: str, annotation: object, default: object) -> Parameter:
    return Parameter(name, Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def _field(outline: ActionOutline, parameter: ParameterOutline) -> Parameter:
    """The command-line parameter for one parameter of the action: choices become a Literal
    (typer shows and checks them), anything else but a flag is text."""
    name = parameter.name
    choices: Any = Literal[parameter.choices] if parameter.choices else None
    kind: Any = choices or (bool if parameter.flag else str)
    help_text = cli_names(parameter.description)
    if name == POSITIONAL.get(outline.name):
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
    if parameter.required:
        return _keyword(name, Annotated[kind, option], ...)
    return _keyword(name, Annotated[kind | None, option], None)


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
    """Run a verb of the selected provider (browserhost providers lists them, with their
    arguments)."""
    # a verb's answer is the provider's own JSON
    target = Target(api_url, api_token, True, provider, session, project)
    pairs = arg or []

    async def act(client: Client) -> None:
        from browserhost.contract.verbs import VERB_PREFIX

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


def short_help(outline: ActionOutline) -> str:
    return outline.description.split(". ")[0].removesuffix(".") + "."
