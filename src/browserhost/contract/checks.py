"""What a provider tells ``browserhost doctor``: checks of its own, one finding each.

A provider whose first run needs something of the machine (a browser binary, a remote browser
that answers) offers checks: an async callable taking nothing and returning its findings, given
as ``checks`` in its catalog record, or as :meth:`Provider.checks
<browserhost.sdk.Provider.checks>`. ``doctor`` runs them for the selected provider (or every
provider, when none is selected yet) and prints each finding as one line; it never imports a
provider's modules to check them itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

Verdict = Literal["ok", "fail", "skip"]


@dataclass(frozen=True)
class Finding:
    """One check's outcome, told in one line: ``ok`` with what was found, ``fail`` with what
    to do, or ``skip`` (not needed here, and why)."""

    check: str
    verdict: Verdict
    detail: str


Checks = Callable[[], Awaitable[list[Finding]]]
"""A provider's own checks, as its catalog record gives them."""
