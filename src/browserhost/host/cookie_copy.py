"""Copying cookies from one running instance to another: ``sync_cookies`` with
``{"fromInstance": "<id>", "domains"?: [...]}`` on the instance that receives them.

Reference 001's ``sync_cookies`` carries a scope and is sent to one instance; a copy between two
is the host's, since only the host knows both. It checks first, and on any refusal nothing is
read and nothing copied: the source exists and is another instance, its provider declares
``sync_cookies`` (it is how its cookies are read), and both are running (``connected``: a
stopped one would be started by the copy, which is not what was asked).

Then it runs the providers' own file operations, one then the other, as a person would: the
source's ``sync_cookies`` with ``toFile``, a storage-state file of the host's own in the data dir
(a folder only this user can open), and the target's with ``fromFile`` and the same
``domains``; the file is deleted whatever happens. The answer is the target's
(``copiedCookies``).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Final

from browserhost.contract.errors import InvalidActionError, UnsupportedError

from .catalog import InstalledProvider

FROM_INSTANCE: Final = "fromInstance"
COPIES: Final = "cookie-copies"
"""The folder of the data dir that holds a copy's storage-state file while it runs."""
NOTHING: Final = "No cookies were copied."

Row = InstalledProvider
"""An instance's row in the catalog."""
Run = Callable[[Row, str, dict[str, Any]], Awaitable[dict[str, Any]]]
"""Runs one operation of an instance: its row, the operation, the arguments."""


def asks_copy(arguments: object) -> bool:
    """Whether ``sync_cookies`` arguments ask for a copy from another instance."""
    return isinstance(arguments, Mapping) and FROM_INSTANCE in arguments


async def copy_cookies(
    source: Row, target: Row, scope: Mapping[str, Any], run: Run, data_dir: Path
) -> dict[str, Any]:
    """Copy ``source``'s cookies (those of ``scope["domains"]``, or all) into ``target``."""
    unknown = sorted(set(scope) - {FROM_INSTANCE, "domains"})
    if unknown:
        raise InvalidActionError(
            f"A copy from another instance takes fromInstance and optionally domains, not "
            f"{', '.join(unknown)}. {NOTHING}"
        )
    if source.id == target.id:
        raise InvalidActionError(
            f"fromInstance names {target.id} itself; name the instance to copy from. {NOTHING}"
        )
    if "sync_cookies" not in source.instance.offered:
        raise UnsupportedError(
            f"{source.id} does not offer sync_cookies (its provider does not declare it, or it "
            f"keeps no cookies of its own), so its cookies cannot be read. {NOTHING}"
        )
    for row in (source, target):
        status = row.instance.status()
        if status != "connected":
            raise UnsupportedError(
                f"{row.id} is not running ({status}); start it first (browserhost instance "
                f"{row.id} start), then copy. {NOTHING}"
            )
    narrowed = {"domains": scope["domains"]} if "domains" in scope else {}
    folder = data_dir / COPIES
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)  # made by an older run, or under another umask: the cookies are secrets
    carried = folder / f"{uuid.uuid4().hex}.json"
    try:
        await run(source, "sync_cookies", {"toFile": str(carried), **narrowed})
        return await run(target, "sync_cookies", {"fromFile": str(carried), **narrowed})
    finally:
        carried.unlink(missing_ok=True)
