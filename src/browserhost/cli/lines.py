"""One line each about a provider's service, bridge and capacity, a verb's arguments, an
instance, a pairing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.text import Text

if TYPE_CHECKING:
    from browserhost.client import BridgeInfo, CapacityInfo, InstanceInfo, ServiceInfo


def service_line(service: ServiceInfo) -> Text:
    if service.state == "running":
        return Text(f"    service running for {duration(service.uptime_s or 0.0)}")
    if service.state == "failed":
        return Text.assemble("    service ", ("failed", "red"), f": {service.reason or '?'}")
    if service.state == "stopped":
        return Text("    service stopped (it starts on the first action)")
    return Text(f"    service {service.state}")


def bridge_line(bridge: BridgeInfo) -> Text:
    from browserhost.contract.bridge import HOW_TO_CONNECT

    if not bridge.connected:
        return Text.assemble("    ", ("no browser connected", "yellow"), f": {HOW_TO_CONNECT}")
    return Text(f"    browser connected{f': {bridge.provider}' if bridge.provider else ''}")


def capacity_line(capacity: CapacityInfo) -> Text:
    line = Text(f"    {capacity.source}: ")
    if capacity.free is not None and capacity.busy is not None:
        line.append(f"{capacity.free} free, {capacity.busy} busy")
        if capacity.problem is not None:
            line.append(" (")
            line.append(capacity.problem, "yellow")
            line.append(")")
    elif capacity.problem is not None:
        line.append(capacity.problem, "red")
    return line


def instance_line(row: InstanceInfo) -> Text:
    details = " ".join(
        key if value is True else f"{key}={value}"
        for key, value in row.details.items()
        if key != "createdAt" and value is not False and not isinstance(value, dict)
    )
    proxy = row.details.get("proxy")
    if isinstance(proxy, dict):
        details += f" proxy={proxy.get('server')}"
    colour = {"connected": "green", "running_disconnected": "yellow"}.get(row.status, "")
    held = f"  held by {row.held_by}" if row.held_by != "none" else ""
    return Text.assemble(
        (row.id, "bold"),
        "  ",
        (row.status, colour),
        held,
        f"  {row.persistence}  {details}".rstrip(),
    )


def pairing_line(pairing_id: str, name: str, origin: str | None, when: str) -> Text:
    return Text.assemble(
        (pairing_id, "bold"), f"  {name}", f"  {origin}" if origin else "", f"  {when}"
    )


def duration(seconds: float) -> str:
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


ARGUMENTS_SHOWN_MAX = 300
"""The most characters of a verb's arguments line: a provider writes its own schemas."""


def arguments_line(schema: Mapping[str, Any]) -> Text | None:
    """A verb's arguments as ``--set`` takes them: each name, * for a required one, and the
    values an argument takes where the schema lists them."""
    from browserhost.contract.json_schema import plain

    properties = plain(schema).get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return None
    required = schema.get("required")
    parts = []
    for name, spec in properties.items():
        choices = spec.get("enum") if isinstance(spec, Mapping) else None
        listed = f" ({'|'.join(map(str, choices))})" if isinstance(choices, list) else ""
        parts.append(
            f"{name}{'*' if isinstance(required, list) and name in required else ''}{listed}"
        )
    shown = ", ".join(parts)
    if len(shown) > ARGUMENTS_SHOWN_MAX:
        shown = shown[: ARGUMENTS_SHOWN_MAX - 1] + "…"
    return Text(f"      --set {shown}", "dim")
