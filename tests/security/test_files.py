"""Issue 25, items 5 and 9: files and folders that are not what they claim. A storage-state
"file" that is a FIFO or a device is refused at once (it froze the host until written); a
profile folder that is a symbolic link is refused; a token file others may read is made
private, saying so; a service that fails to start gives the agent one line of its stderr and
keeps all of it in its log."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from browserhost import config
from browserhost.contract import ACTIONS
from browserhost.contract.errors import ProviderUnavailableError
from browserhost.host import Host
from browserhost.host.catalog import Catalog
from browserhost.host.services import ServiceSettings
from browserhost.providers.chromium.provider import register as chromium

from .conftest import INSTANCES, Hosted, answered_meanwhile, serving

RESCUE_S = 15.0
"""When a FIFO nobody may read from is written to anyway, so that a host that opened it (as
it did before the fix) fails the test instead of hanging it."""


@pytest.fixture
async def with_chromium(tmp_path: Path) -> AsyncIterator[Hosted]:
    async with serving(tmp_path / "data") as hosted:
        hosted.host.catalog.install(chromium())
        yield hosted


@contextlib.contextmanager
def fifo(path: Path) -> Iterator[Path]:
    os.mkfifo(path)

    def rescue() -> None:
        with contextlib.suppress(OSError):  # ENXIO: nobody is reading, as it should be
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    timer = threading.Timer(RESCUE_S, rescue)
    timer.start()
    try:
        yield path
    finally:
        timer.cancel()


async def launch(hosted: Hosted, options: dict[str, object]) -> tuple[int, dict[str, object]]:
    async with hosted.http() as http:
        body = {"provider": "chromium", "name": "probe", "options": options}
        answered = await http.post(INSTANCES, json=body)
    return answered.status_code, answered.json()


@pytest.mark.parametrize("kind", ["fifo", "device"])
async def test_a_storage_state_that_is_not_a_regular_file_is_refused_at_once(
    with_chromium: Hosted, tmp_path: Path, kind: str
) -> None:
    with contextlib.ExitStack() as stack:
        path = Path("/dev/zero") if kind == "device" else stack.enter_context(fifo(tmp_path / "s"))
        status, body = await answered_meanwhile(
            with_chromium, launch(with_chromium, {"storageState": str(path)})
        )
    assert status == 400
    assert body["code"] == "PROVIDER_REJECTED"
    assert body["error"] == (
        f"The storage-state file {path} is not a regular file. Nothing was launched."
    )
    assert with_chromium.host.instances.listing() == []


@pytest.mark.parametrize("linked", ["profiles", "profiles/work"])
async def test_a_profile_folder_that_is_a_symbolic_link_is_refused(
    with_chromium: Hosted, tmp_path: Path, linked: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    home = with_chromium.host.data_dir / "providers" / "chromium"
    link = home / linked
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(elsewhere, target_is_directory=True)
    status, body = await answered_meanwhile(
        with_chromium, launch(with_chromium, {"profile": "work"})
    )
    assert status == 400
    assert body["code"] == "PROVIDER_REJECTED"
    assert f"{link} is a symbolic link; a profile is kept only in a real folder" in str(
        body["error"]
    )
    assert list(elsewhere.iterdir()) == []
    assert with_chromium.host.instances.listing() == []


def test_a_token_file_others_may_read_is_made_private_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("BROWSERHOST_TOKEN", raising=False)
    path = config.token_path(tmp_path)
    path.write_text("shared-token\n")
    path.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="browserhost.config"):
        assert config.ensure_token(tmp_path) == "shared-token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [record.getMessage() for record in caplog.records] == [
        f"{path} could be read by other users (mode 0644); it is now 0600. If someone else may "
        "have read it, delete it and restart: a new token is written."
    ]


FAILING = "\n".join(
    [
        "Traceback (most recent call last):",
        *[f'  File "/opt/provider/secret_{n}.py", line {n}, in start' for n in range(40)],
        "RuntimeError: cannot open the display",
    ]
)
"""About 2 KB of stderr, the last line the one that says what went wrong."""


@pytest.mark.slow
async def test_a_failed_service_gives_the_agent_one_line_and_its_log_all(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    host = Host(tmp_path / "data", Catalog(ServiceSettings(log_dir=logs)))
    script = f"import sys; sys.stderr.write({FAILING!r}); sys.exit(3)"
    host.catalog.install(
        {
            "id": "failing",
            "provides": ["browser"],
            "actions": list(ACTIONS),
            "service": {"command": [sys.executable, "-c", script]},
        }
    )
    try:
        with pytest.raises(ProviderUnavailableError) as refused:
            await host.dispatch("browser.back", provider_id="failing")
    finally:
        await host.aclose()
    assert refused.value.message == (
        "failing is not reachable (the service exited with code 3 before it was ready. Its "
        "error output ended with: RuntimeError: cannot open the display). Nothing was sent."
    )
    assert FAILING in (logs / "failing.log").read_text()
