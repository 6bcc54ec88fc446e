"""The one exception tree of browserhost, and the wire codes it maps to.

Every failure an agent can see has a code and an HTTP status. The tree groups codes by what
the caller may assume about the browser::

    BrowserhostError                       code, status, message, may_have_run
    ├── NothingRanError                    the request never reached a provider
    │   ├── InvalidActionError             INVALID_ACTION        400
    │   ├── InvalidSelectionError          INVALID_SELECTION     400
    │   ├── NoProviderError                NO_PROVIDER           409
    │   ├── ProviderNotFoundError          PROVIDER_NOT_FOUND    404
    │   ├── CatalogUnavailableError        CATALOG_UNAVAILABLE   503
    │   ├── SelectionUnavailableError      SELECTION_UNAVAILABLE 503
    │   ├── ProviderUnavailableError       PROVIDER_UNAVAILABLE  503
    │   ├── ActionCancelledError           CANCELLED             499
    │   ├── UnsupportedError               UNSUPPORTED           501
    │   └── UserInControlError             USER_IN_CONTROL       423  a person holds the surface
    ├── ProviderRejectedError              PROVIDER_REJECTED     400  the provider said no
    └── MayHaveRunError                    the request was handed over; the page may have changed
        ├── RequestFailedError             REQUEST_FAILED        504
        └── UnknownResultError             UNKNOWN_RESULT        502

``may_have_run`` is true exactly for the last branch: the host never replays such a request and
never describes it as "nothing changed".
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar


class ErrorCode(StrEnum):
    INVALID_ACTION = "INVALID_ACTION"
    INVALID_SELECTION = "INVALID_SELECTION"
    NO_PROVIDER = "NO_PROVIDER"
    PROVIDER_NOT_FOUND = "PROVIDER_NOT_FOUND"
    CATALOG_UNAVAILABLE = "CATALOG_UNAVAILABLE"
    SELECTION_UNAVAILABLE = "SELECTION_UNAVAILABLE"
    PROVIDER_UNAVAILABLE = "PROVIDER_UNAVAILABLE"
    CANCELLED = "CANCELLED"
    UNSUPPORTED = "UNSUPPORTED"
    USER_IN_CONTROL = "USER_IN_CONTROL"
    PROVIDER_REJECTED = "PROVIDER_REJECTED"
    REQUEST_FAILED = "REQUEST_FAILED"
    UNKNOWN_RESULT = "UNKNOWN_RESULT"


class BrowserhostError(Exception):
    """A failure with a contract code. ``str(error)`` is the text an agent reads.

    A class that stands for a code names it and its HTTP status where it is declared
    (``class X(NothingRanError, code=ErrorCode.X, status=400)``); its subclasses share both.
    """

    code: ClassVar[ErrorCode]
    status: ClassVar[int]
    may_have_run: ClassVar[bool] = False

    def __init_subclass__(
        cls, *, code: ErrorCode | None = None, status: int | None = None, **kwargs: object
    ) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None and status is not None:
            cls.code, cls.status = code, status
            ERRORS_BY_CODE[code] = cls

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def error(self) -> str:
        """The wire name of the message (``{ok: false, code, error}``)."""
        return self.message

    def to_wire(self) -> dict[str, object]:
        return {"ok": False, "code": self.code.value, "error": self.message}


ERRORS_BY_CODE: dict[ErrorCode, type[BrowserhostError]] = {}
"""The class that stands for each code, as each declares it."""


class NothingRanError(BrowserhostError):
    """The request never reached a provider: the page is as it was."""


class InvalidActionError(NothingRanError, code=ErrorCode.INVALID_ACTION, status=400):
    """The action, its parameters or a verb's arguments are not what the contract takes."""


class InvalidSelectionError(NothingRanError, code=ErrorCode.INVALID_SELECTION, status=400):
    """The provider to select is not named by a valid id."""


class NoProviderError(NothingRanError, code=ErrorCode.NO_PROVIDER, status=409):
    """No provider is selected and the action named none."""


class ProviderNotFoundError(NothingRanError, code=ErrorCode.PROVIDER_NOT_FOUND, status=404):
    """The provider named, or the one selected, is not installed now."""


class CatalogUnavailableError(NothingRanError, code=ErrorCode.CATALOG_UNAVAILABLE, status=503):
    """The catalog or the stored selection could not be read."""


class SelectionUnavailableError(NothingRanError, code=ErrorCode.SELECTION_UNAVAILABLE, status=503):
    """A new selection could not be saved; the previous one stays."""


class ProviderUnavailableError(NothingRanError, code=ErrorCode.PROVIDER_UNAVAILABLE, status=503):
    """The provider could not be reached, so the request was not sent."""


class ActionCancelledError(NothingRanError, code=ErrorCode.CANCELLED, status=499):
    """The caller cancelled before the request was sent."""


class UnsupportedError(NothingRanError, code=ErrorCode.UNSUPPORTED, status=501):
    """The provider does not offer this action or verb."""


class UserInControlError(NothingRanError, code=ErrorCode.USER_IN_CONTROL, status=423):
    """A person has taken over the provider's surface (a login, a CAPTCHA); the agent waits
    until they hand back."""


class ProviderRejectedError(BrowserhostError, code=ErrorCode.PROVIDER_REJECTED, status=400):
    """The provider answered ``ok: false``; the message is the provider's own text."""


class MayHaveRunError(BrowserhostError):
    """The request was handed to the provider and then lost: the page may have changed."""

    may_have_run = True


class RequestFailedError(MayHaveRunError, code=ErrorCode.REQUEST_FAILED, status=504):
    """No answer came back in time, or the connection was lost after sending."""


class UnknownResultError(MayHaveRunError, code=ErrorCode.UNKNOWN_RESULT, status=502):
    """The answer is not a browser result, so what happened to the page is not known."""


def error_from_wire(code: str, message: str) -> BrowserhostError:
    """Rebuild the typed error from a ``{code, error}`` answer (used by clients)."""
    try:
        cls = ERRORS_BY_CODE[ErrorCode(code)]
    except ValueError:
        cls = UnknownResultError
        message = f"{code}: {message}"
    return cls(message)
