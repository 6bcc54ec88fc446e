"""Futures whose outcome nobody awaits."""

from __future__ import annotations

import asyncio
from typing import Any


def retrieve_exception(future: asyncio.Future[Any]) -> None:
    """A done-callback for a future left to finish on its own (an ack to a page that closed,
    an action a dialog held that was answered early): its failure is nobody's concern, and
    retrieving it keeps asyncio from logging "exception was never retrieved"."""
    if not future.cancelled():
        future.exception()
