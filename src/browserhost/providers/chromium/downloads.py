"""Files a tab's pages download: saved into the project, bounded in size, and told to the
action that caused them (001's ``page_download``).

A download is saved under the context key's project, ``<directory>/.browserhost/downloads/``
(without a project, ``downloads/`` in the data dir), named as the site suggested with its
name made safe as a capture's label is; never outside that folder, and never through a
``.browserhost`` or ``downloads`` that is a link. A file over :attr:`Downloads.max_bytes` is
cancelled as soon as the browser has received that much (the DevTools protocol's progress
events), or refused when it ends, and is not saved.

The action during which a download started lists it in its answer as ``downloads``; the
``download`` verb (:mod:`.download_verb`) clicks and waits for one, or waits for the next.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browserhost import config
from browserhost.captures import safe_label
from browserhost.contract import data
from browserhost.contract.limits import ACTION_TIMEOUT_S, DOWNLOAD_MAX_BYTES, DOWNLOADS_LISTED_MAX
from browserhost.sdk import seconds_left

from . import driver
from .futures import retrieve_exception

if TYPE_CHECKING:
    from playwright.async_api import Download

DOWNLOADS_DIR = Path(".browserhost") / "downloads"
DATA_DIR_DOWNLOADS = "downloads"
NAME_ATTEMPTS = 100
EXTENSION_MAX = 16
ANSWER_MARGIN_S = 4.0
"""What an action keeps of its deadline to answer in after waiting for downloads."""
KEPT_MAX = 50
"""Finished downloads a tab remembers for the ``download`` verb; older ones are forgotten."""


class DownloadRefusedError(Exception):
    """The download cannot be saved where it belongs; the message says why."""


def safe_filename(suggested: str) -> str:
    """``../../etc/report 2024.csv`` → ``etc-report-2024.csv``: the stem and extension made
    safe as a capture's label is."""
    stem, dot, extension = suggested.rpartition(".")
    if not dot:
        stem, extension = suggested, ""
    name = safe_label(stem, empty="download")
    extension = safe_label(extension, empty="")[:EXTENSION_MAX]
    return f"{name}.{extension}" if extension else name


def downloads_folder(directory: str | None) -> Path:
    """The folder a key's downloads go to, made if missing; refuses a project that is not a
    folder and a link on the way (it could lead anywhere)."""
    if directory is None:
        root, inside = config.data_dir(), Path(DATA_DIR_DOWNLOADS)
    else:
        root, inside = Path(directory), DOWNLOADS_DIR
        if not root.is_absolute() or not root.is_dir():
            raise DownloadRefusedError(f"the project {directory} is not a folder")
    folder = root
    for part in inside.parts:
        folder = folder / part
        if folder.is_symlink():
            raise DownloadRefusedError(f"{folder} is a link; downloads are never saved through one")
    try:
        # In the data dir, for this user alone, as the data dir itself; a project's are the
        # project's, as its other files.
        folder.mkdir(mode=0o700 if directory is None else 0o777, parents=True, exist_ok=True)
    except OSError as exc:
        raise DownloadRefusedError(f"{folder} could not be made ({exc.strerror})") from None
    return folder


def reserve(folder: Path, name: str) -> Path:
    """A new, empty file in ``folder`` named ``name`` (or ``name-2``...), made here so that
    no other download takes the name."""
    stem, dot, extension = name.rpartition(".")
    if not dot:
        stem, extension = name, ""
    for attempt in range(1, NAME_ATTEMPTS + 1):
        numbered = stem if attempt == 1 else f"{stem}-{attempt}"
        target = folder / (f"{numbered}.{extension}" if extension else numbered)
        try:
            with target.open("xb"):
                pass
        except FileExistsError:
            continue
        except OSError as exc:
            raise DownloadRefusedError(f"{target} could not be written ({exc.strerror})") from None
        return target
    raise DownloadRefusedError(f"{folder} holds too many files named {name}")


@dataclass
class _Started:
    """One download, from the moment the page started it."""

    download: Download
    number: int
    name: str
    saving: asyncio.Task[data.Download] | None = None
    over: bool = False
    """Cancelled for its size."""
    told: bool = False
    """An answer has listed it as saved (or not)."""
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Downloads:
    """The downloads of one tab's pages (see the module docstring). Its tab hears them:
    :meth:`started` from Playwright, :meth:`began` and :meth:`progressed` from the DevTools
    protocol."""

    max_bytes: int = DOWNLOAD_MAX_BYTES

    def __init__(self, directory: str | None) -> None:
        self.directory = directory
        self._started: list[_Started] = []
        self._count = 0
        self._more = asyncio.Event()
        self._urls: dict[str, str] = {}  # the protocol's download guid → its URL

    def mark(self) -> int:
        """Where the downloads an action causes start: give it to :meth:`take`."""
        return self._count

    def started(self, download: Download) -> None:
        started = _Started(download, self._count, safe_filename(download.suggested_filename))
        self._count += 1
        started.saving = asyncio.get_running_loop().create_task(self._save(started))
        started.saving.add_done_callback(retrieve_exception)
        started.saving.add_done_callback(lambda _: started.done.set())
        self._started.append(started)
        told = [one for one in self._started if one.told]
        for one in told[: max(0, len(told) - KEPT_MAX)]:
            self._started.remove(one)
        self._more.set()
        self._more = asyncio.Event()

    def began(self, event: dict[str, Any]) -> None:
        """``Page.downloadWillBegin``: which URL a protocol download guid is."""
        self._urls[str(event.get("guid"))] = str(event.get("url"))

    def progressed(self, event: dict[str, Any]) -> None:
        """``Page.downloadProgress``: cancel a download as soon as it grows past the limit."""
        if event.get("state") != "inProgress" or event.get("receivedBytes", 0) <= self.max_bytes:
            return
        url = self._urls.pop(str(event.get("guid")), None)
        for started in self._started:
            if started.download.url == url and not started.over and not started.done.is_set():
                started.over = True
                cancelling = asyncio.ensure_future(started.download.cancel())
                cancelling.add_done_callback(retrieve_exception)
                return

    async def caused(self, since: int) -> list[data.Download] | None:
        """The downloads an action caused, for its answer: :meth:`take`, waiting until shortly
        before the host's deadline for those still running."""
        return await self.take(since, seconds_left(ACTION_TIMEOUT_S) - ANSWER_MARGIN_S)

    async def take(self, since: int, wait_s: float) -> list[data.Download] | None:
        """What became of the downloads started since :meth:`mark` gave ``since``, waiting
        up to ``wait_s`` for those still running (told as still downloading)."""
        caused = [one for one in self._started if one.number >= since][:DOWNLOADS_LISTED_MAX]
        if not caused:
            return None
        running = [one.saving for one in caused if one.saving is not None]
        if wait_s > 0:
            await asyncio.wait(running, timeout=wait_s)
        return [self._tell(one) for one in caused]

    async def next_started(self, since: int | None, wait_s: float) -> _Started | None:
        """The first download started since ``since``, or with ``None`` the first no answer
        has told of; waits up to ``wait_s`` for one to start."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_s
        while True:
            for one in self._started:
                if (one.number >= since) if since is not None else not one.told:
                    return one
            more = self._more
            try:
                async with asyncio.timeout(max(0.0, deadline - loop.time())):
                    await more.wait()
            except TimeoutError:
                return None

    async def finished(self, started: _Started, wait_s: float) -> data.Download:
        """``started`` once it ended, within ``wait_s`` (else told as still downloading)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait_s):
                await started.done.wait()
        return self._tell(started)

    def _tell(self, started: _Started) -> data.Download:
        saving = started.saving
        if saving is None or not saving.done():
            return data.Download(
                filename=started.name,
                error="still downloading when the action answered; the download verb waits for it",
            )
        started.told = True
        return saving.result()

    async def _save(self, started: _Started) -> data.Download:
        download, name = started.download, started.name
        try:
            failure = await download.failure()  # once it has ended
            if started.over:
                return self._too_large(name)
            if failure is not None:
                return data.Download(filename=name, error=f"the download failed ({failure})")
            local = None
            with contextlib.suppress(driver.PlaywrightError):  # a remote browser's is not here
                local = await download.path()
            if local is not None and local.stat().st_size > self.max_bytes:
                return self._too_large(name)
            try:
                target = reserve(downloads_folder(self.directory), name)
            except DownloadRefusedError as exc:
                return data.Download(filename=name, error=f"not saved: {exc}")
            try:
                await download.save_as(target)
                size = target.stat().st_size
            except (driver.PlaywrightError, OSError) as exc:
                target.unlink(missing_ok=True)
                return data.Download(filename=name, error=f"not saved ({exc})")
            if size > self.max_bytes:
                target.unlink(missing_ok=True)
                return self._too_large(name)
            return data.Download(filename=target.name, path=str(target))
        finally:
            with contextlib.suppress(driver.PlaywrightError):
                await download.delete()  # the browser's own copy

    def _too_large(self, name: str) -> data.Download:
        limit = f"{self.max_bytes / 1_000_000:g} MB"
        return data.Download(filename=name, error=f"larger than {limit}; cancelled, not saved")
