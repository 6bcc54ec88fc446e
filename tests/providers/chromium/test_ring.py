"""The bounded log behind the network and console verbs: the oldest go, and a reader learns
how many of its window went."""

from __future__ import annotations

from browserhost.providers.chromium.ring import Ring


def test_a_full_ring_drops_the_oldest_and_counts_them_per_window() -> None:
    ring: Ring[str] = Ring(3)
    assert [ring.add(x) for x in "abcde"] == [None, None, None, "a", "b"]
    assert ring.after(0) == (["c", "d", "e"], 2)
    assert ring.after(1) == (["c", "d", "e"], 1)  # "a" was before the window
    assert ring.after(3) == (["d", "e"], 0)
    assert ring.after(ring.added) == ([], 0)
