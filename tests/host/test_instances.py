"""Instances in process: launch options checked against the provider's schema, rows routed like
providers, persistent instances remembered and restored stopped; the Python client's methods."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import httpx
import pytest

from browserhost import Client, InvalidActionError, ProviderNotFoundError
from browserhost.api.app import create_app
from browserhost.contract import ACTIONS
from browserhost.contract.errors import (
    ProviderRejectedError,
    UnsupportedError,
    UserInControlError,
)
from browserhost.host import Catalog, Host, InstallError
from browserhost.host.instances import INSTANCES_FILE
from tests.conftest import TOKEN
from tests.recording import Recorder

SCHEMA = {
    "type": "object",
    "properties": {
        "keep": {"type": "boolean", "title": "Keep", "description": "Outlive the host."},
        "secret": {"type": "string", "title": "Secret", "minLength": 4},
    },
    "additionalProperties": False,
}


class Maker:
    """A provider that launches recorders, and remembers each call to its factory."""

    def __init__(self, fail_start: bool = False) -> None:
        self.created: list[tuple[str, dict[str, Any], bool]] = []
        self.recorders: dict[str, Recorder] = {}
        self.fail_start = fail_start

    def create(
        self, *, instance_id: str, options: dict[str, Any], home: Path, fresh: bool
    ) -> dict[str, Any]:
        self.created.append((instance_id, options, fresh))
        recorder = self.recorders[instance_id] = Recorder(provider_id=instance_id)
        state = {"now": "running" if fresh else "stopped"}

        async def start() -> None:
            if self.fail_start:
                raise RuntimeError("no display")
            state["now"] = "running"

        async def references(arguments: dict[str, Any]) -> dict[str, Any]:
            return {"references": [{"kind": "profile", "id": "p", "label": "Profile p"}]}

        return recorder.record(
            persistence="persistent" if options.get("keep") else "ephemeral",
            details=lambda: {"keep": bool(options.get("keep"))},
            status=lambda: state["now"],
            start=start,
            operations={"references": references},
        )

    def record(self, *operations: str) -> dict[str, Any]:
        launch = {"schema": SCHEMA, "help": "Makes browsers.", "create": self.create,
                  "operations": list(operations)}  # fmt: skip
        return Recorder(provider_id="maker").record(launch=launch)


def host_with(maker: Maker, data_dir: Path) -> Host:
    host = Host(data_dir)
    host.catalog.install(maker.record())
    host.catalog.install(Recorder(provider_id="plain").record())
    return host


async def test_an_instance_is_a_row_routed_by_selection_and_provider_id(tmp_path: Path) -> None:
    maker = Maker()
    host = host_with(maker, tmp_path)
    launched = await host.instances.launch("maker")
    assert launched["id"] == "maker~1"
    assert (launched["status"], launched["heldBy"]) == ("connected", "none")
    assert launched["control"] == {
        "kind": "provider",
        "capabilities": {"actions": sorted(ACTIONS), "screenshot": "page"},
    }
    details = launched["details"]
    assert isinstance(details, dict)
    assert details == {"keep": False, "createdAt": details["createdAt"]}
    rows = {row["id"]: row for row in host.providers().providers}
    assert rows["maker~1"]["instance"] == launched
    assert rows["maker"]["launch"] == {
        "inputSchema": SCHEMA,
        "help": "Makes browsers.",
        "operations": ["close"],
    }

    answered = await host.dispatch("browser.snapshot", {}, None, "maker~1")
    assert answered.provider_id == "maker~1"
    assert answered.to_wire()["session"] == {
        "instance": "maker~1",
        "provider": "maker",
        "status": "connected",
        "control": "provider",
        "heldBy": "agent",
    }
    host.select("maker~1")
    assert (await host.dispatch("browser.snapshot", {})).provider_id == "maker~1"
    assert len(maker.recorders["maker~1"].requests) == 2

    host.controls.take("maker~1", None, "viewer-1")
    with pytest.raises(UserInControlError):
        await host.dispatch("browser.snapshot", {})
    assert len(maker.recorders["maker~1"].requests) == 2
    await host.aclose()


async def test_every_violation_is_listed_and_the_factory_is_never_called(tmp_path: Path) -> None:
    maker = Maker()
    host = host_with(maker, tmp_path)
    with pytest.raises(InvalidActionError) as refused:
        await host.instances.launch("maker", {"keep": "yes", "secret": "x", "binary": "/bin/sh"})
    assert str(refused.value) == (
        "Recorder maker cannot launch with these options: /: Additional properties are not "
        "allowed ('binary' was unexpected) (the options are: keep, secret); /keep: 'yes' is not "
        "of type 'boolean' (Keep: Outlive the host.); /secret: 'x' is too short (Secret). "
        "Nothing was launched."
    )
    assert maker.created == []
    assert host.instances.listing() == []


async def test_names_are_numbered_unless_chosen_and_a_taken_one_is_refused(
    tmp_path: Path,
) -> None:
    host = host_with(Maker(), tmp_path)
    assert (await host.instances.launch("maker"))["id"] == "maker~1"
    assert (await host.instances.launch("maker", name="work"))["id"] == "maker~work"
    assert (await host.instances.launch("maker"))["id"] == "maker~2"
    with pytest.raises(InvalidActionError, match=r"There is an instance maker~work already"):
        await host.instances.launch("maker", name="work")
    with pytest.raises(InvalidActionError, match=r"^name must be 1\.\.64 letters"):
        await host.instances.launch("maker", name="../x")
    await host.instances.close("maker~1")
    assert (await host.instances.launch("maker"))["id"] == "maker~1"


async def test_what_cannot_launch_is_refused_by_its_code(tmp_path: Path) -> None:
    host = host_with(Maker(fail_start=True), tmp_path)
    with pytest.raises(ProviderNotFoundError, match="these launch instances: maker"):
        await host.instances.launch("nowhere")
    with pytest.raises(UnsupportedError, match="Recorder plain does not launch instances"):
        await host.instances.launch("plain")
    with pytest.raises(ProviderRejectedError, match=r"could not start maker~1: no display"):
        await host.instances.launch("maker")
    assert host.instances.listing() == []
    with pytest.raises(ProviderNotFoundError, match="There is no browser instance 'maker'"):
        await host.instances.close("maker")


async def test_a_persistent_instance_is_remembered_privately_and_restored_stopped(
    tmp_path: Path,
) -> None:
    first_maker = Maker()
    first = host_with(first_maker, tmp_path)
    await first.instances.launch("maker", {"keep": False})
    await first.instances.launch("maker", {"keep": True, "secret": "s3cret"}, "work")
    stored = tmp_path / INSTANCES_FILE
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    [remembered] = json.loads(stored.read_text())["instances"]
    assert remembered["options"] == {"keep": True, "secret": "s3cret"}
    assert "s3cret" not in json.dumps(first.providers().to_wire())
    await first.aclose()

    maker = Maker()
    again = host_with(maker, tmp_path)
    assert again.instances.restore() == ["maker~work"]
    assert maker.created == [("maker~work", {"keep": True, "secret": "s3cret"}, False)]
    [row] = again.instances.listing()
    assert (row["id"], row["persistence"]) == ("maker~work", "persistent")
    await again.instances.close("maker~work")
    assert json.loads(stored.read_text()) == {"instances": []}


async def test_a_remembered_instance_whose_provider_is_missing_is_kept(tmp_path: Path) -> None:
    first = host_with(Maker(), tmp_path)
    await first.instances.launch("maker", {"keep": True}, "work")
    other = Host(tmp_path)
    other.catalog.install(Maker().record() | {"id": "other"})
    assert other.instances.restore() == []
    await other.instances.launch("other", {"keep": True}, "mine")
    names = [
        entry["name"] for entry in json.loads((tmp_path / INSTANCES_FILE).read_text())["instances"]
    ]
    assert sorted(names) == ["mine", "work"]


def test_a_service_declares_launch_without_a_factory_and_every_launch_has_an_object_schema() -> (
    None
):
    catalog = Catalog()
    service = {"id": "svc", "provides": ["browser"], "actions": [],
               "endpoint": "http://127.0.0.1:9", "launch": {"create": print}}  # fmt: skip
    with pytest.raises(
        InstallError,
        match=r"launch\.create is a callable of an in-process provider, and only of one",
    ):
        catalog.install(service)
    declared = {"inputSchema": {"type": "object"}, "operations": ["start", "references"],
                "documentationUrl": "https://example.com/launch"}  # fmt: skip
    row = catalog.install(service | {"launch": declared}).public()
    assert row["launch"] == {"inputSchema": {"type": "object"}, "help": "",
                             "documentationUrl": "https://example.com/launch",
                             "operations": ["close", "start", "references"]}  # fmt: skip
    with pytest.raises(InstallError, match=r"launch\.operations must list some of start"):
        catalog.install(service | {"launch": {"operations": ["reboot"]}})
    with pytest.raises(InstallError, match=r"launch\.documentationUrl must be an http"):
        catalog.install(service | {"launch": {"documentationUrl": "file:///x"}})
    with pytest.raises(InstallError, match=r"launch\.create is a callable"):
        catalog.install(Recorder().record(launch={"schema": {"type": "object"}}))
    with pytest.raises(InstallError, match=r"launch\.schema must describe an object"):
        catalog.install(Recorder().record(launch={"create": print, "schema": {"type": "string"}}))
    with pytest.raises(InstallError, match=r"launch\.schema is not valid JSON Schema"):
        catalog.install(Recorder().record(launch={"create": print, "schema": {"type": 3}}))


async def test_the_client_launches_lists_and_closes(tmp_path: Path) -> None:
    host = host_with(Maker(), tmp_path)
    app = create_app(host, TOKEN)
    transport = httpx.ASGITransport(app=app)
    async with Client("http://127.0.0.1:7878", TOKEN, transport=transport) as client:
        launched = await client.launch("maker", {"keep": False}, name="a")
        assert (launched.id, launched.status, launched.persistence) == (
            "maker~a",
            "connected",
            "ephemeral",
        )
        assert [row.id for row in await client.instances()] == ["maker~a"]
        listing = await client.providers()
        assert [row.instance.id for row in listing.providers if row.instance] == ["maker~a"]
        assert (
            await client.run("browser.snapshot", provider_id="maker~a")
        ).provider_id == "maker~a"
        with pytest.raises(InvalidActionError, match=r"/keep: 'no' is not of type 'boolean'"):
            await client.launch("maker", {"keep": "no"})
        closed = await client.close_instance("maker~a")
        assert closed.status == "closed"
        assert await client.instances() == []
    await host.aclose()


def test_an_instance_id_is_a_valid_selection_that_names_what_is_missing(tmp_path: Path) -> None:
    host = host_with(Maker(), tmp_path)
    with pytest.raises(ProviderNotFoundError, match="'maker~gone'"):
        host.select("maker~gone")


async def test_an_operation_runs_only_when_declared_and_permitted_now(tmp_path: Path) -> None:
    """start is declared and offered only to a stopped persistent instance; detach is not
    declared, so it is refused whatever the state, and nothing is called."""
    first = Host(tmp_path)
    first.catalog.install(Maker().record("start", "references"))
    launched = await first.instances.launch("maker", {"keep": True}, "work")
    assert launched["operations"] == ["close", "references"]
    with pytest.raises(UnsupportedError) as refused:
        await first.instances.operate("maker~work", "start")
    assert refused.value.message == (
        "maker~work cannot start (not in its present state); it offers: close, references. "
        "Nothing was done."
    )
    with pytest.raises(UnsupportedError, match=r"cannot detach \(its provider does not offer"):
        await first.instances.operate("maker~work", "detach")
    found = await first.instances.operate("maker~work", "references")
    assert found["result"] == {"references": [{"kind": "profile", "id": "p", "label": "Profile p"}]}
    await first.aclose()

    again = Host(tmp_path)
    again.catalog.install(Maker().record("start", "references"))
    again.instances.restore()
    [row] = again.instances.listing()
    assert (row["status"], row["control"], row["operations"]) == (
        "stopped",
        {"kind": "none"},
        ["close", "start", "references"],
    )
    after = (await again.instances.operate("maker~work", "start"))["instance"]
    assert isinstance(after, dict)
    assert (after["status"], after["operations"]) == ("connected", ["close", "references"])
    await again.aclose()
