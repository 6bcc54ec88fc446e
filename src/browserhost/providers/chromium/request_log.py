"""A page's requests since its document loaded, for the ``network`` verb (:mod:`.diagnostics`).

Built from the DevTools protocol's ``Network`` events the page's session already receives for
the tab's count of requests in flight (:mod:`.page_watch`), so recording costs no call to the
browser and keeps no Playwright request objects alive. Sizes are the bytes the protocol
counted on the wire (headers included); times run from the request being sent to its last
byte or its failure. The browser's own request for a site's ``/favicon.ico`` is left out, as
the snapshot's console problems leave out its failure (:func:`.page_watch.automatic_favicon`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, get_args
from urllib.parse import urlsplit

from .ring import Ring, latest

REQUESTS_KEPT = 500
"""Requests a page's log keeps; the oldest go first."""
REQUEST_URL_SHOWN_MAX = 1_000
"""Characters of a URL an answer shows (a ``data:`` URL may be megabytes)."""

ResourceType = Literal[
    "document", "stylesheet", "image", "media", "font", "script", "texttrack", "xhr", "fetch",
    "prefetch", "eventsource", "websocket", "manifest", "ping", "preflight", "other",
]  # fmt: skip
RESOURCE_TYPES: frozenset[str] = frozenset(get_args(ResourceType))
LOAD_TYPES = frozenset({"document", "stylesheet", "script", "image", "font"})
"""What a page's load event waits for."""


@dataclass(kw_only=True)
class RequestEntry:
    """One request as the log keeps it, its fields in the order an answer shows them; the
    protocol's events fill it in as they come."""

    method: str
    url: str
    status: int | None = None
    type: str
    size: int | None = None
    """Bytes received on the wire, headers included."""
    ms: int | None = None
    """From sent to its last byte or its failure; ``None`` while it runs."""
    failure: str | None = None
    """The network error (``net::ERR_...``) of one that got no answer."""
    started_s: float
    """When it was sent, on the protocol's monotonic clock."""
    request_id: str
    """The protocol's id: a redirect keeps it, so only the latest hop is still open."""

    @property
    def done(self) -> bool:
        return self.ms is not None

    @property
    def failed(self) -> bool:
        return self.failure is not None or (self.status is not None and self.status >= 400)

    def end(self, timestamp_s: float) -> None:
        self.ms = max(0, round((timestamp_s - self.started_s) * 1000))

    def shown(self) -> dict[str, Any]:
        url = self.url
        if len(url) > REQUEST_URL_SHOWN_MAX:
            url = url[:REQUEST_URL_SHOWN_MAX] + "…"
        shown: dict[str, Any] = {
            "method": self.method,
            "url": url,
            "status": self.status,
            "type": self.type,
            "size": self.size,
            "ms": self.ms,
        }
        if self.failure is not None:
            shown["failed"] = self.failure
        if not self.done:
            shown["pending"] = True
        return shown


class RequestLog:
    """One page's requests, in the order they were sent (a redirect is a request of its own),
    with where its current document's load began."""

    def __init__(self, size: int = REQUESTS_KEPT) -> None:
        self._ring: Ring[RequestEntry] = Ring(size)
        self._open: dict[str, RequestEntry] = {}  # by the protocol's request id, until done
        self._loaded_mark = 0
        self._ended = asyncio.Event()

    def sent(self, event: dict[str, Any], main_frame: str) -> None:
        """``Network.requestWillBeSent``."""
        if _automatic_favicon(event):
            return
        request_id = str(event["requestId"])
        redirect = event.get("redirectResponse")
        earlier = self._open.pop(request_id, None)
        if redirect is not None and earlier is not None:
            earlier.status = int(redirect.get("status") or 0) or None
            earlier.size = _bytes(redirect.get("encodedDataLength"))
            earlier.end(float(event["timestamp"]))
        kind = str(event.get("type") or "Other").lower()
        if kind == "document" and redirect is None and event.get("frameId") == main_frame:
            self._loaded_mark = self._ring.added  # a new document: its load starts here
        request = event["request"]
        entry = RequestEntry(
            request_id=request_id,
            method=str(request.get("method") or "GET"),
            url=str(request.get("url") or ""),
            type=kind if kind in RESOURCE_TYPES else "other",
            started_s=float(event["timestamp"]),
        )
        dropped = self._ring.add(entry)
        if dropped is not None and not dropped.done:
            self._open.pop(dropped.request_id, None)
        self._open[request_id] = entry

    def answered(self, event: dict[str, Any]) -> None:
        """``Network.responseReceived``: the status, before the body arrives."""
        entry = self._open.get(str(event["requestId"]))
        if entry is not None:
            entry.status = int(event["response"].get("status") or 0) or None

    def finished(self, event: dict[str, Any]) -> None:
        """``Network.loadingFinished``."""
        entry = self._open.pop(str(event["requestId"]), None)
        if entry is not None:
            entry.size = _bytes(event.get("encodedDataLength"))
            entry.end(float(event["timestamp"]))
            self._ended.set()

    def failed(self, event: dict[str, Any]) -> None:
        """``Network.loadingFailed``: a network error, a block, or a cancel."""
        entry = self._open.pop(str(event["requestId"]), None)
        if entry is not None:
            reason = event.get("blockedReason")
            text = str(event.get("errorText") or "failed")
            entry.failure = f"{text} (blocked: {reason})" if reason else text
            entry.end(float(event["timestamp"]))
            self._ended.set()

    async def loads_ended(self, timeout_s: float, finished: Iterable[str] = ()) -> None:
        """Until no request of the kinds a page's load waits for (its scripts, styles, images,
        fonts) is open, and each address in ``finished`` (what the page itself saw end) is
        told ended, for ``timeout_s`` at most. The page tells of its load itself, and the
        browser's word of such a request (that it was sent, that it ended), though it ended
        before, may come after."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        # The icon Chromium asks for by itself shows among the page's, and is not logged.
        unheard = {url for url in finished if not _root_favicon(url)}
        while True:
            if unheard:
                kept, _ = self._ring.after(self._loaded_mark)
                unheard -= {entry.url for entry in kept if entry.done}
            if not unheard and not any(entry.type in LOAD_TYPES for entry in self._open.values()):
                return
            left = deadline - loop.time()
            if left <= 0:
                return
            self._ended.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await self._ended.wait()

    def listing(
        self, *, url_part: str | None, types: list[str] | None, failed_only: bool, limit: int
    ) -> dict[str, Any]:
        """The requests since the current document's load that match, the latest ``limit``
        of them; ``total`` counts all that matched, ``dropped`` those the log no longer
        holds."""
        kept, dropped = self._ring.after(self._loaded_mark)
        matched = [
            entry
            for entry in kept
            if (url_part is None or url_part in entry.url)
            and (not types or entry.type in types)
            and (not failed_only or entry.failed)
        ]
        return latest("requests", matched, limit, dropped)


def _automatic_favicon(event: dict[str, Any]) -> bool:
    """Chromium asking a site for its icon by itself (once per origin, for the whole browser),
    not the page."""
    if (event.get("initiator") or {}).get("type") != "other" or event.get("type") != "Other":
        return False
    return _root_favicon(str(event["request"].get("url") or ""))


def _root_favicon(url: str) -> bool:
    address = urlsplit(url)
    return address.path == "/favicon.ico" and not address.query


def _bytes(value: object) -> int | None:
    return int(value) if isinstance(value, int | float) and value >= 0 else None
