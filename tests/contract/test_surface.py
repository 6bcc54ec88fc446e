"""The surface's readers on their own: each holds its limit, whatever its callers also check."""

from __future__ import annotations

from browserhost.contract.surface import (
    FRAME_MAX_BYTES,
    INPUT_BATCH_MAX,
    read_frame,
    read_input_batch,
)

HEADERS = {
    "content-type": "image/jpeg",
    "x-surface-seq": "1",
    "x-surface-width": "640",
    "x-surface-height": "480",
}
KEY = {"type": "key", "action": "down", "key": "a"}


def test_a_frame_of_frame_max_bytes_is_read_and_one_byte_more_is_not() -> None:
    """The loopback surface stops reading at the limit, but the reader must not rely on it."""
    largest = read_frame(HEADERS, b"x" * FRAME_MAX_BYTES)
    assert largest is not None
    assert len(largest.data) == FRAME_MAX_BYTES
    assert read_frame(HEADERS, b"x" * (FRAME_MAX_BYTES + 1)) is None


def test_an_input_batch_of_input_batch_max_events_is_read_and_one_more_is_not() -> None:
    largest = read_input_batch({"events": [KEY] * INPUT_BATCH_MAX})
    assert largest is not None
    assert len(largest.events) == INPUT_BATCH_MAX
    assert read_input_batch({"events": [KEY] * (INPUT_BATCH_MAX + 1)}) is None
