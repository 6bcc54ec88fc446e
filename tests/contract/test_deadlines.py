"""How a wait worked out from a caller's deadline reads in a message."""

from __future__ import annotations

import pytest

from browserhost.contract.deadlines import seconds_said


@pytest.mark.parametrize(
    ("duration_s", "said"),
    [
        (0.112217, "0.11 s"),
        (0.0871, "0.087 s"),
        (0.5, "0.5 s"),
        (0.999, "1 s"),
        (3.7512, "3.8 s"),
        (15.0, "15 s"),
        (89.96, "90 s"),
    ],
)
def test_a_worked_out_wait_reads_as_a_few_digits_of_seconds(duration_s: float, said: str) -> None:
    assert seconds_said(duration_s) == said
