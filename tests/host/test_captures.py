"""Saving browser.capture images into the project the agent works in."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from browserhost.captures import save_capture
from browserhost.contract import Context
from browserhost.contract.errors import UnknownResultError
from browserhost.host import Host
from browserhost.providers.stub import register
from tests.recording import Recorder, fitting, replying

CAPTURE_NAME = re.compile(r"^\d{8}T\d{12}Z-(?P<label>[A-Za-z0-9_-]+)\.png$")


@pytest.fixture
async def host(tmp_path: Path) -> Host:
    host = Host(tmp_path / "data")
    host.catalog.install(register())
    return host


def read(path: Path) -> bytes:
    return path.read_bytes()


def files_under(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*") if path.is_file())


async def capture(host: Host, directory: object, label: object = None) -> dict[str, object]:
    parameters = {} if label is None else {"label": label}
    outcome = await host.dispatch(
        "browser.capture", parameters, Context.read({"directory": directory}), provider_id="stub"
    )
    data: dict[str, object] = outcome.data
    return data


async def test_a_capture_is_saved_under_browserhost_captures_with_timestamp_and_label(
    host: Host, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    data = await capture(host, str(project), "login form")
    saved = Path(str(data["path"]))
    assert saved.parent == project / ".browserhost" / "captures"
    match = CAPTURE_NAME.match(saved.name)
    assert match is not None
    assert match["label"] == "login-form"
    assert read(saved) == base64.b64decode(str(data["base64"]))
    assert read(saved).startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("label", ["../../x", "/etc/passwd", "..", "a/../../b", "\\..\\..\\x"])
async def test_a_label_cannot_leave_the_captures_folder(
    host: Host, tmp_path: Path, label: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    data = await capture(host, str(project), label)
    saved = Path(str(data["path"]))
    assert saved.parent == project / ".browserhost" / "captures"
    assert files_under(tmp_path) == [saved]


async def test_a_capture_without_a_label_is_named_capture(host: Host, tmp_path: Path) -> None:
    data = await capture(host, str(tmp_path))
    assert Path(str(data["path"])).name.endswith("-capture.png")


async def test_two_captures_with_the_same_label_do_not_overwrite_each_other(
    host: Host, tmp_path: Path
) -> None:
    first = await capture(host, str(tmp_path), "same")
    second = await capture(host, str(tmp_path), "same")
    assert first["path"] != second["path"]
    assert len(list((tmp_path / ".browserhost" / "captures").iterdir())) == 2


@pytest.mark.parametrize("directory", [None, "", "relative/dir", "{tmp}/no/such/dir", 42])
async def test_without_a_usable_project_directory_the_capture_is_data_only(
    host: Host, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, directory: object
) -> None:
    """A relative directory exists from the working directory and is still not used; a
    missing one is not created."""
    (tmp_path / "relative" / "dir").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    if isinstance(directory, str):
        directory = directory.format(tmp=tmp_path)
    data = await capture(host, directory)
    assert "path" not in data
    assert data["mime"] == "image/png"
    assert base64.b64decode(str(data["base64"])).startswith(b"\x89PNG")
    assert files_under(tmp_path) == []
    assert not (tmp_path / "no").exists()


async def test_a_project_where_the_folder_cannot_be_made_gets_the_image_without_a_path(
    host: Host, tmp_path: Path
) -> None:
    (tmp_path / ".browserhost").write_text("a file where the folder would go")
    data = await capture(host, str(tmp_path), "x")
    assert "path" not in data
    assert base64.b64decode(str(data["base64"])).startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"base64": "not base64!!"}, "not valid base64"),
        ({"base64": "AAAA", "mime": "text/html"}, "no base64 PNG"),
        ({"mime": "image/gif"}, "no base64 PNG"),
    ],
)
async def test_a_capture_answer_without_a_usable_image_is_an_unknown_result(
    tmp_path: Path, answer: dict[str, object], reason: str
) -> None:
    host = Host(tmp_path / "data")
    recorder = Recorder(replying({"ok": True, "data": fitting("browser.capture", **answer)}))
    host.catalog.install(recorder.record())
    with pytest.raises(UnknownResultError, match=reason) as refused:
        await host.dispatch(
            "browser.capture", {}, Context(directory=str(tmp_path)), provider_id="rec"
        )
    assert refused.value.may_have_run
    assert len(recorder.requests) == 1
    assert files_under(tmp_path) == []


def test_a_browserhost_symlink_cannot_carry_captures_out_of_the_project(tmp_path: Path) -> None:
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    (project / ".browserhost").symlink_to(elsewhere)
    saved = save_capture(
        {"base64": base64.b64encode(b"\x89PNG").decode(), "mime": "image/png"},
        str(project),
        "shot",
    )
    assert saved is None
    assert list(elsewhere.rglob("*")) == []
