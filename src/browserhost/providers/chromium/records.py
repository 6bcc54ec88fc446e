"""Records the chromium provider's modules share: how long it waits (:class:`Timeouts`) and
how a wait for a page to settle ended (:class:`Settled`, :data:`Opened`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from . import pagescript

if TYPE_CHECKING:
    from playwright.async_api import Page


@dataclass(frozen=True)
class Timeouts:
    """How long the provider waits for the browser, in seconds; all well inside the host's
    deadlines (45 s for ``browser.open``, 20 s for the rest)."""

    act_s: float = 5.0
    """A fill, a choice or a key press: for the element to be visible, enabled and editable.
    A click does not wait: it is checked first and refused at once (see :mod:`.targets`)."""
    open_commit_s: float = 25.0
    """``browser.open``: for the server to answer."""
    open_settle_s: float = 10.0
    """``browser.open``, then: for the page to load and stop changing; past it ``settled`` is
    false."""
    input_settle_s: float = 3.0
    """After a click or a submit: for what it started (a load, requests, rendering) to end."""
    quiet_s: float = 0.05
    """How long the document must go unchanged, with none of the page's requests in flight, to
    count as settled."""
    history_s: float = 10.0
    """``browser.back`` / ``browser.forward``: for the other page to start showing."""
    capture_s: float = 10.0
    """``browser.capture``: for the page to render a picture."""


Opened = Literal["early", "due"] | None
"""Which wait after an open a settle is (see :func:`.settle.settle`)."""


@dataclass(frozen=True)
class Settled:
    """How a wait for the page to settle ended, and the page's last read (url, title, and the
    acted-on element's state) when the wait took one."""

    done: bool
    read: dict[str, Any] | None = None

    @property
    def frame_due(self) -> bool:
        """An open answered before its page's first frame after load: see
        :func:`.settle.settle`."""
        return bool(self.read and self.read.get("due"))

    async def title(self, page: Page) -> str | None:
        """The page's title; ``None`` for a page that closed itself (``window.close()``)."""
        if page.is_closed():
            return None
        if self.read is not None and self.read.get("url") == page.url:
            return str(self.read["title"])
        return await pagescript.title(page)
