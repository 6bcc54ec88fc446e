"""Which records the catalog installs, how it reaches them, and discovery by entry points."""

from __future__ import annotations

import re
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

import pytest

from browserhost import config
from browserhost.contract import ACTIONS, records
from browserhost.contract.surface import Surface
from browserhost.host import Catalog, InstallError
from browserhost.host import catalog as catalog_module
from browserhost.transports.endpoint import EndpointTransport
from browserhost.transports.inprocess import InProcessTransport
from browserhost.transports.loopback_surface import LoopbackSurface
from tests.recording import Recorder


def record(**fields: Any) -> dict[str, Any]:
    return {
        "id": "p1",
        "provides": ["browser"],
        "actions": list(ACTIONS),
        "answer": Recorder(),
        **fields,
    }


@pytest.mark.parametrize(
    "declaration",
    [
        {"provides": ["browser"]},
        {"contributes": {"service": {"provides": ["browser"]}}},
        {"service": {"provides": ["browser"]}, "provides": ["browser"]},
        {"provides": ["storage", "browser"]},
        {"provides": ["browser", "browser"]},
        {"service": {"provides": ["browser", "terminal"]}, "provides": ["storage"]},
        {"provides": "storage", "contributes": {"service": {"provides": ["browser"]}}},
        {"provides": ["browser"], "contributes": {"service": {"provides": []}}},
    ],
)
def test_a_record_whose_first_provides_list_contains_browser_is_installed(
    declaration: dict[str, Any],
) -> None:
    """Other roles may stand beside "browser"; only the first list counts."""
    catalog = Catalog()
    catalog.install({"id": "p1", "answer": Recorder(), "actions": [], **declaration})
    assert [p.public() for p in catalog.all()] == [
        {"id": "p1", "name": "p1", "surface": False, "verbs": []}
    ]


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        ({}, r'does not declare provides: \["browser"\]'),
        ({"provides": "browser"}, r'does not declare provides: \["browser"\]'),
        ({"provides": []}, '^provides does not list "browser"'),
        ({"provides": ["storage"]}, '^provides does not list "browser"'),
        (
            {"service": {"provides": ["storage"]}, "provides": ["browser"]},
            '^service.provides does not list "browser", .* the first provides list decides',
        ),
        (
            {"provides": [], "contributes": {"service": {"provides": ["browser"]}}},
            '^provides does not list "browser"',
        ),
    ],
)
def test_a_record_whose_first_provides_list_lacks_browser_is_refused_naming_it(
    declaration: dict[str, Any], message: str
) -> None:
    catalog = Catalog()
    with pytest.raises(InstallError, match=message):
        catalog.install({"id": "p1", "answer": Recorder(), "actions": [], **declaration})
    assert catalog.all() == []


def test_a_record_with_more_roles_keeps_them_when_read_and_written_back() -> None:
    declared = records.read(record(provides=["storage", "browser", 7]))
    assert declared.to_record()["provides"] == ["storage", "browser"]


@pytest.mark.parametrize("version", [0, 2, "1", True, None])
def test_a_record_of_another_protocol_version_is_refused_naming_both(version: object) -> None:
    with pytest.raises(InstallError) as refused:
        Catalog().install(record(protocolVersion=version))
    said = f"the record declares provider protocol version {version!r} and this host speaks"
    assert f"{said} version 1;" in str(refused.value)


def test_a_record_without_a_protocol_version_is_read_as_the_current_one() -> None:
    """Records written before the field are this version's."""
    assert records.read(record()).protocol_version == 1
    assert records.read(record(protocolVersion=1)).protocol_version == 1


def test_a_disabled_record_is_refused() -> None:
    with pytest.raises(InstallError, match="disabled"):
        Catalog().install(record(enabled=False))


@pytest.mark.parametrize("bad_id", [None, 5, "", "-x", ".x", "a/b", "a b", "p1\n", "x" * 129])
def test_an_id_outside_the_pattern_is_refused(bad_id: object) -> None:
    with pytest.raises(InstallError, match="id must match"):
        Catalog().install(record(id=bad_id))


@pytest.mark.parametrize("good_id", ["a", "9", "Server-Chrome_2.1", "x" * 128])
def test_an_id_inside_the_pattern_is_installed(good_id: str) -> None:
    assert Catalog().install(record(id=good_id)).id == good_id


@pytest.mark.parametrize(
    ("name", "shown"), [(None, "p1"), (7, "p1"), ("  Server Chrome  ", "Server Chrome")]
)
def test_the_name_is_trimmed_and_defaults_to_the_id(name: object, shown: str) -> None:
    fields = {} if name is None else {"name": name}
    assert Catalog().install(record(**fields)).name == shown


@pytest.mark.parametrize("name", ["", "   ", "n" * 201])
def test_a_blank_or_overlong_name_is_refused(name: str) -> None:
    with pytest.raises(InstallError, match="name"):
        Catalog().install(record(name=name))


def test_a_record_with_no_way_to_answer_is_refused() -> None:
    with pytest.raises(InstallError, match="answer handler or a loopback endpoint"):
        Catalog().install(
            {
                "id": "p1",
                "provides": ["browser"],
                "actions": list(ACTIONS),
                "answer": "not callable",
            }
        )


def test_answer_wins_over_endpoint() -> None:
    provider = Catalog().install(record(endpoint="http://evil.example/"))
    assert isinstance(provider.transport, InProcessTransport)


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://user:pw@127.0.0.1:9000",
        "http://user@127.0.0.1:9000",
        "http://127.0.0.2:9000",
        "http://evil.example",
        "http://127.0.0.1.evil.example",
        "http://localhost.evil.example/",
        "http://127.0.0.1@evil.example/",
        "http://0.0.0.0:9000",
        "http://[::ffff:127.0.0.1]:9000",
        "file:///x",
        "ws://127.0.0.1:9000",
        "127.0.0.1:9000",
        "",
        None,
        9000,
    ],
)
async def test_an_endpoint_that_is_not_plain_loopback_http_is_rejected_at_install(
    endpoint: object,
) -> None:
    catalog = Catalog()
    with pytest.raises(InstallError, match="loopback endpoint"):
        catalog.install(
            {"id": "p1", "provides": ["browser"], "actions": list(ACTIONS), "endpoint": endpoint}
        )
    assert catalog.all() == []


@pytest.mark.parametrize(
    ("endpoint", "problem"),
    [
        (" http://127.0.0.1:9000", "a space or control character"),
        ("http://127.0.0.1:9000 ", "a space or control character"),
        ("http://127.0.0.1:9000\x00", "a space or control character"),
        ("\x00http://127.0.0.1:9000", "a space or control character"),
        ("http://127.0.\t0.1:9000", "a space or control character"),
        ("http://127.0.0.1:90\n00", "a space or control character"),
        ("http://local\rhost:9000/", "a space or control character"),
        ("http://127.0.0.1:9000/browser\x7f-control", "a space or control character"),
        ("http://127.0.0.1:0", "a port from 1 to 65535"),
        ("http://[::1]:0/browser-control", "a port from 1 to 65535"),
        ("http://127.0.0.1:99999", "a port from 1 to 65535"),
    ],
)
def test_an_endpoint_the_url_parser_would_tidy_up_is_refused_naming_the_field(
    endpoint: str, problem: str
) -> None:
    """Python's URL parser drops tabs and newlines and strips leading spaces and NULs, so
    such an endpoint would be called at an address other than the one written."""
    catalog = Catalog()
    with pytest.raises(InstallError) as refused:
        catalog.install(
            {"id": "p1", "provides": ["browser"], "actions": list(ACTIONS), "endpoint": endpoint}
        )
    assert str(refused.value).startswith(f"endpoint {endpoint!r} ")
    assert problem in str(refused.value)
    assert catalog.all() == []


@pytest.mark.parametrize("token", ["", "two words", "line\nbreak", "t\u00f8ken", 5, ["t"]])
def test_a_token_that_cannot_be_a_bearer_token_is_refused_naming_the_field(token: object) -> None:
    catalog = Catalog()
    with pytest.raises(InstallError, match=r"^token must be"):
        catalog.install(
            {"id": "p1", "provides": ["browser"], "actions": list(ACTIONS), "endpoint": "http://127.0.0.1:9000",
             "token": token}
        )  # fmt: skip
    assert catalog.all() == []


@pytest.mark.parametrize(
    ("endpoint", "posted_to"),
    [
        ("http://127.0.0.1:9000", "http://127.0.0.1:9000/browser-control"),
        ("http://127.0.0.1:9000/", "http://127.0.0.1:9000/browser-control"),
        ("https://localhost:9443/v1/act", "https://localhost:9443/v1/act"),
        ("http://[::1]:9000", "http://[::1]:9000/browser-control"),
    ],
)
async def test_a_loopback_endpoint_is_installed_and_a_bare_origin_posts_to_browser_control(
    endpoint: str, posted_to: str
) -> None:
    catalog = Catalog()
    provider = catalog.install(
        {"id": "p1", "provides": ["browser"], "actions": list(ACTIONS), "endpoint": endpoint}
    )
    assert isinstance(provider.transport, EndpointTransport)
    assert catalog_module.loopback_url(endpoint) == posted_to
    await catalog.aclose()


async def test_the_public_row_never_shows_endpoint_or_handler() -> None:
    catalog = Catalog()
    catalog.install(
        {
            "id": "svc",
            "name": "Service",
            "provides": ["browser"],
            "actions": list(ACTIONS),
            "endpoint": "http://127.0.0.1:1",
        }
    )
    catalog.install(record(id="inproc"))
    assert [p.public() for p in catalog.all()] == [
        {"id": "svc", "name": "Service", "surface": False, "verbs": []},
        {"id": "inproc", "name": "inproc", "surface": False, "verbs": []},
    ]
    await catalog.aclose()


def test_declared_actions_are_what_the_provider_is_sent() -> None:
    provider = Catalog().install(record(actions=["browser.open"]))
    assert provider.actions == frozenset({"browser.open"})
    assert Catalog().install(record(actions=[])).actions == frozenset()


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (None, "actions must list the browser actions the provider implements.*no default"),
        (["browser.open", "browser.teleport"], "actions lists 'browser.teleport', which is not"),
        (["browser.open", "browser.open"], "actions lists 'browser.open' twice"),
    ],
)
def test_actions_missing_unknown_or_repeated_are_refused(
    actions: list[str] | None, message: str
) -> None:
    declared = record()
    if actions is None:
        del declared["actions"]
    else:
        declared["actions"] = actions
    with pytest.raises(InstallError, match=message):
        Catalog().install(declared)


@pytest.mark.parametrize("taken", ["browserhost", "builtin", "default", "none"])
def test_a_reserved_id_is_refused(taken: str) -> None:
    with pytest.raises(InstallError, match=f"id '{taken}' is a reserved id"):
        Catalog().install(record(id=taken))


@pytest.mark.parametrize("taken", ["stub", "chromium"])
def test_a_built_in_id_is_refused_to_another_package_and_to_a_service(taken: str) -> None:
    with pytest.raises(InstallError, match=f"id '{taken}' is a built-in provider's id"):
        Catalog().install(record(id=taken), builtin=False)
    with pytest.raises(InstallError, match=f"id '{taken}' is a built-in provider's id"):
        Catalog().install(record(id=taken, answer=None, service={"python": "a.b:C"}))


def test_actions_that_are_not_a_list_are_refused_at_install() -> None:
    with pytest.raises(InstallError, match="actions must be a list"):
        Catalog().install(record(actions="browser.open"))


async def test_uninstall_closes_the_provider() -> None:
    closed: list[str] = []

    async def close() -> None:
        closed.append("p1")

    catalog = Catalog()
    catalog.install(record(close=close))
    await catalog.uninstall("p1")
    assert catalog.get("p1") is None
    assert closed == ["p1"]


# Entry-point discovery. The plugins below are what the fake entry points load.


def good_plugin() -> dict[str, Any]:
    return record(id="good")


def other_plugin() -> dict[str, Any]:
    return record(id="other")


def broken_plugin() -> dict[str, Any]:
    raise RuntimeError("this plugin needs a browser that is not installed")


def invalid_plugin() -> dict[str, Any]:
    return {"id": "invalid", "provides": ["browser"], "actions": []}


def impostor_plugin() -> dict[str, Any]:
    return record(id="stub")


def tworoles_plugin() -> dict[str, Any]:
    return record(id="tworoles", service={"provides": ["storage"]}, provides=["browser"])


def spaced_plugin() -> dict[str, Any]:
    return {
        "id": "spaced",
        "provides": ["browser"],
        "actions": list(ACTIONS),
        "endpoint": " http://127.0.0.1:9000",
    }


def fake_entry_points(monkeypatch: pytest.MonkeyPatch, names: list[str]) -> None:
    points = [
        EntryPoint(name, f"{__name__}:{name}_plugin", catalog_module.ENTRY_POINT_GROUP)
        for name in names
    ]
    # and one whose module is not installed at all
    points.append(
        EntryPoint("missing", "tests.no_such_module:register", catalog_module.ENTRY_POINT_GROUP)
    )

    def only_these(*, group: str) -> list[EntryPoint]:
        return [point for point in points if point.group == group]

    monkeypatch.setattr(catalog_module, "entry_points", only_these)


def test_a_provider_that_fails_to_load_is_skipped_not_fatal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_entry_points(monkeypatch, ["good", "broken", "invalid", "other"])
    catalog = Catalog()
    assert catalog.discover() == ["good", "other"]
    assert [p.id for p in catalog.all()] == ["good", "other"]


def test_every_refused_record_is_logged_with_its_id_and_reason_and_the_rest_loads(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake_entry_points(monkeypatch, ["good", "impostor", "tworoles", "other"])
    catalog = Catalog()
    assert catalog.discover() == ["good", "other"]
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert refusals == [
        "browser provider record 'stub' (entry point 'impostor') refused: id 'stub' is a "
        "built-in provider's id; choose another",
        "browser provider record 'tworoles' (entry point 'tworoles') refused: service.provides "
        'does not list "browser", so the record is not a browser provider; add it there: the '
        "first provides list decides (service.provides, then provides, then "
        "contributes.service.provides)",
    ]


def test_a_record_with_a_bad_endpoint_is_skipped_and_the_rest_loads(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake_entry_points(monkeypatch, ["good", "spaced", "other"])
    catalog = Catalog()
    assert catalog.discover() == ["good", "other"]
    assert "endpoint ' http://127.0.0.1:9000' has a space or control character" in caplog.text


def test_browserhost_providers_narrows_which_entry_points_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_entry_points(monkeypatch, ["good", "broken", "other"])
    monkeypatch.setenv("BROWSERHOST_PROVIDERS", " other , broken,")
    catalog = Catalog()
    assert catalog.discover(config.enabled_providers()) == ["other"]


@pytest.mark.parametrize(
    ("raw", "narrowed"),
    [
        (None, None),
        ("", None),
        ("  ", None),
        ("stub", ["stub"]),
        ("stub, chromium,", ["stub", "chromium"]),
    ],
)
def test_browserhost_providers_unset_or_blank_loads_all(
    monkeypatch: pytest.MonkeyPatch, raw: str | None, narrowed: list[str] | None
) -> None:
    if raw is None:
        monkeypatch.delenv("BROWSERHOST_PROVIDERS", raising=False)
    else:
        monkeypatch.setenv("BROWSERHOST_PROVIDERS", raw)
    assert config.enabled_providers() == narrowed


def test_every_built_in_entry_point_loads() -> None:
    """The installed package's own entry points (stub, and chromium when present) all load."""
    catalog = Catalog()
    names = [point.name for point in entry_points(group=catalog_module.ENTRY_POINT_GROUP)]
    assert "stub" in names
    assert sorted(catalog.discover()) == sorted(names)


# --- surfaces and panels ---------------------------------------------------------------------


class StillSurface(Surface):
    """A surface that shows nothing: enough for the catalog, which only installs it."""


def panel_file(tmp_path: Path, name: str = "panel.html", text: str = "<p>bar</p>") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


async def test_an_in_process_surface_and_panel_are_installed_and_listed_without_the_path(
    tmp_path: Path,
) -> None:
    surface = StillSurface()
    entry = panel_file(tmp_path)
    installed = Catalog().install(
        record(surface=surface, panel={"entry": entry, "dock": "left", "size": 120})
    )
    assert installed.surface is surface
    assert installed.public() == {
        "id": "p1",
        "name": "p1",
        "surface": True,
        "verbs": [],
        "panel": {"dock": "left", "size": 120},
    }
    assert installed.panel is not None
    entry.write_text("changed on disk later")
    assert await installed.panel.page() == b"<p>bar</p>", "the page is read once, at install"


def test_a_panel_without_dock_or_size_is_docked_on_top_40_px_high(tmp_path: Path) -> None:
    installed = Catalog().install(
        record(surface=StillSurface(), panel={"entry": str(panel_file(tmp_path))})
    )
    assert installed.public()["panel"] == {"dock": "top", "size": 40}


async def test_a_service_record_with_surface_true_is_reached_at_its_origin_with_its_token() -> None:
    catalog = Catalog()
    installed = catalog.install(
        {
            "id": "svc",
            "provides": ["browser"],
            "actions": list(ACTIONS),
            "endpoint": "http://127.0.0.1:9100/v1/act",
            "token": "s3cret",
            "surface": True,
            "panel": {"entry": "/surface/panel", "dock": "bottom", "size": 200},
        }
    )
    try:
        assert isinstance(installed.surface, LoopbackSurface)
        assert installed.public() == {
            "id": "svc",
            "name": "svc",
            "surface": True,
            "verbs": [],
            "panel": {"dock": "bottom", "size": 200},
        }
        assert "s3cret" not in str(installed.public())
        assert "9100" not in str(installed.public())
    finally:
        await catalog.aclose()


@pytest.mark.parametrize(
    ("declared", "named"),
    [
        ({"panel": {"dock": "top"}, "surface": StillSurface()}, "panel.dock"),
        ({"panel": {"size": 40}, "surface": StillSurface()}, "panel.size"),
        ({"panel": {"entry": "PANEL", "dock": "left"}}, "panel.dock"),
        ({"panel": {"entry": "PANEL", "size": 60}}, "panel.size"),
    ],
)
def test_dock_or_size_without_both_a_surface_and_a_panel_entry_is_refused(
    tmp_path: Path, declared: dict[str, Any], named: str
) -> None:
    panel = dict(declared["panel"])
    if panel.get("entry") == "PANEL":
        panel["entry"] = panel_file(tmp_path)
    catalog = Catalog()
    with pytest.raises(InstallError, match=named.replace(".", r"\.")):
        catalog.install(record(**{**declared, "panel": panel}))
    assert catalog.all() == []


@pytest.mark.parametrize(
    ("panel", "problem"),
    [
        ({"dock": "middle"}, "panel.dock must be one of top, bottom, left, right"),
        ({"size": 23}, "panel.size must be from 24 to 480"),
        ({"size": 481}, "panel.size must be from 24 to 480"),
        ({"size": "40"}, "panel.size must be a whole number"),
        ({"size": True}, "panel.size must be a whole number"),
        ({"entry": "ENTRY.txt"}, "is not an .html file"),
        ({"entry": "ENTRY-missing.html"}, "cannot be read"),
        ({"entry": 7}, "panel.entry must be the path"),
    ],
)
def test_a_malformed_panel_is_refused_with_what_to_fix(
    tmp_path: Path, panel: dict[str, Any], problem: str
) -> None:
    entry = panel.get("entry", "ENTRY.html")
    if isinstance(entry, str):
        name = entry.replace("ENTRY", "panel")
        entry = tmp_path / name if "missing" in name else panel_file(tmp_path, name)
    with pytest.raises(InstallError, match=re.escape(problem)):
        Catalog().install(record(surface=StillSurface(), panel={**panel, "entry": entry}))


@pytest.mark.parametrize(
    "entry", ["surface/panel", "//evil.example/x", "/a/../b", "/panel?x=1", "/pa nel", 5]
)
def test_a_service_panel_entry_must_be_a_plain_path_on_the_service(entry: object) -> None:
    with pytest.raises(
        InstallError, match=re.escape("panel.entry must be a path on the provider service")
    ):
        Catalog().install(
            {
                "id": "svc",
                "provides": ["browser"],
                "actions": list(ACTIONS),
                "endpoint": "http://127.0.0.1:9100",
                "surface": True,
                "panel": {"entry": entry},
            }
        )


@pytest.mark.parametrize(
    ("declared", "problem"),
    [
        ({"answer": Recorder(), "surface": True}, "must be a browserhost.sdk.Surface object"),
        ({"answer": Recorder(), "surface": object()}, "must be a browserhost.sdk.Surface object"),
        ({"endpoint": "http://127.0.0.1:9100", "surface": "yes"}, "must be true or false"),
    ],
)
def test_a_surface_of_the_wrong_kind_is_refused(declared: dict[str, Any], problem: str) -> None:
    with pytest.raises(InstallError, match=re.escape(problem)):
        Catalog().install(
            {"id": "p1", "provides": ["browser"], "actions": list(ACTIONS), **declared}
        )


def docked_plugin() -> dict[str, Any]:
    return {"id": "docked", "provides": ["browser"], "actions": list(ACTIONS), "answer": Recorder(),
            "panel": {"dock": "top"}}  # fmt: skip


def test_a_record_docking_a_panel_it_does_not_have_is_skipped_and_the_rest_loads(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake_entry_points(monkeypatch, ["good", "docked", "other"])
    catalog = Catalog()
    assert catalog.discover() == ["good", "other"]
    assert "panel.dock" in caplog.text


def test_the_stub_is_listed_with_its_surface_and_panel() -> None:
    catalog = Catalog()
    catalog.discover(["stub"])
    [stub] = catalog.all()
    assert stub.public()["surface"] is True
    assert stub.public()["panel"] == {"dock": "top", "size": 40}
