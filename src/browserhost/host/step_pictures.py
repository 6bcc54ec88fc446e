"""A recorded step's picture: the page right after the answer, small, within bounded time.

1. the provider's surface's :meth:`~browserhost.contract.surface.Surface.still`: one picture
   of the page now (by default its current frame, or a newer one if the page paints within
   :attr:`PictureTaking.paint_s`; chromium takes a small screenshot unless its screencast
   already runs, so an unwatched agent pays for no stream);
2. none when the surface gives none within :attr:`PictureTaking.wait_s`, or fails;
3. scaled into :data:`~browserhost.contract.recording.PICTURE_BOX` as a JPEG, in a worker
   thread (Pillow decodes a JPEG at a fraction of its size for that).
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass

from browserhost.contract.recording import PICTURE_BOX
from browserhost.contract.surface import DIMENSION_MAX, Surface

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PictureTaking:
    """When a step's picture is taken, how long it may take in all, how long it waits for a
    later paint, how many are taken at once (the next steps go without one), and how they
    are kept.

    ``pause_s``: the picture is taken once the session has started no other action for this
    long after the answer. An agent thinking between actions always pauses so, and its
    picture costs nothing on the way of the next action; a caller that sends its next
    action sooner leaves that step without a picture of its own (its next one shows what
    followed). ``0`` takes every step's picture at once."""

    pause_s: float = 0.25
    wait_s: float = 4.0
    paint_s: float = 0.3
    at_once: int = 4
    quality: int = 60
    max_bytes: int = 256 * 1024


async def take_picture(surface: Surface, taking: PictureTaking) -> tuple[bytes, int, int] | None:
    """The surface's picture now, as a JPEG thumbnail with its size; ``None`` when none
    comes in time."""
    try:
        async with asyncio.timeout(taking.wait_s):
            frame = await surface.still(PICTURE_BOX, taking.wait_s, taking.paint_s)
        if frame is None:
            return None
    except TimeoutError:
        return None
    except Exception:  # a provider's failure: the step goes without a picture
        log.debug("no picture for a step of the recording", exc_info=True)
        return None
    return await asyncio.to_thread(thumbnail, frame.data, taking)


def thumbnail(image: bytes, taking: PictureTaking) -> tuple[bytes, int, int] | None:
    """``image`` (JPEG or PNG) scaled into the picture box as a JPEG, with its size; ``None``
    when it is not a picture Pillow reads, or too large a one."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(image)) as opened:
            if opened.width > DIMENSION_MAX or opened.height > DIMENSION_MAX:
                return None
            opened.draft("RGB", PICTURE_BOX)
            small = opened.convert("RGB")
        small.thumbnail(PICTURE_BOX)
        written = io.BytesIO()
        small.save(written, "JPEG", quality=taking.quality, optimize=True)
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError):
        return None
    data = written.getvalue()
    if len(data) > taking.max_bytes:
        return None
    return data, small.width, small.height
