"""Named limits of the browser provider contract.

Every number a provider author or an agent may run into lives here, so the host, the SDK and
the docs quote one value.
"""

from typing import Final

OPEN_TIMEOUT_S: Final = 45.0
"""How long ``browser.open`` may take before the host gives up on the answer."""

ACTION_TIMEOUT_S: Final = 20.0
"""How long every other action may take."""

ANSWER_MAX_BYTES: Final = 12_000_000
"""The largest provider answer the host reads; a screenshot is the biggest one expected."""

REQUEST_BODY_MAX_BYTES: Final = 1024 * 1024
"""The largest request body the HTTP API accepts."""

URL_MAX: Final = 8_192
"""The longest URL ``browser.open`` takes, in characters (what web servers commonly accept)."""
TEXT_MAX: Final = 4_096
"""The longest selector, text to click or capture label, in characters."""
VALUE_MAX: Final = 100_000
"""The longest value ``browser.type`` takes, in characters."""

VERBS_MAX: Final = 32
"""The most verbs one provider may declare."""
VERB_SCHEMA_MAX_BYTES: Final = 8_000
"""The largest input schema a verb may declare, as JSON."""
VERB_PATTERN_MAX_CHARS: Final = 1_000
"""The longest ``pattern`` a verb's input schema may hold."""
VERB_ARGUMENTS_MAX_BYTES: Final = 256_000
"""The largest arguments a verb call may carry, as JSON."""

ERROR_TEXT_MAX: Final = 2_000
"""A provider's ``ok: false`` error text is 1..2,000 characters."""

PROVIDER_ID_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
"""A provider record's id."""
INSTANCE_SEPARATOR: Final = "~"
"""Joins a provider's id and an instance's name (``chromium~work``): a character no record id
may hold, so an instance never takes a provider's id."""
INSTANCE_NAME_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"
TARGET_ID_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(~[A-Za-z0-9][A-Za-z0-9_-]{0,63})?$"
"""What an action, a selection or ``providerId`` names: a provider, or one of its instances."""
PROVIDER_NAME_MAX: Final = 200

PROVIDER_PATH: Final = "/browser-control"
"""Where a loopback provider service receives actions when its endpoint is a bare origin. A
``GET`` there is the service's hello: ``{protocolVersion, actions, surface}``."""

CANCEL_PATH: Final = "/browser-control/cancel"
"""Where a service is told to abandon an action it was sent: ``{"requestId": ...}``."""

LIFECYCLE_PATH: Final = "/browser-control/lifecycle"
"""Where a service is sent an instance's lifecycle: ``{"operation", "browserId", ...}``
(:mod:`browserhost.contract.lifecycle`)."""
LIFECYCLE_TIMEOUT_S: Final = 60.0
"""How long the host waits for a launch, a start, a close or another lifecycle operation."""

PROTOCOL_VERSION: Final = 1
"""The version of the provider protocol (paths, envelope, hello, record) this host speaks:
every envelope it sends and every record the SDK builds carries it as ``protocolVersion``."""

CALLER_TIMEOUT_MIN_MS: Final = 100
CALLER_TIMEOUT_MAX_MS: Final = 120_000
"""The range of a caller's own ``timeoutMs`` for one action, which replaces the action's wait
(``OPEN_TIMEOUT_S``, ``ACTION_TIMEOUT_S``); the provider gets it as an absolute deadline."""

DOWNLOAD_MAX_BYTES: Final = 100 * 1024 * 1024
"""The largest file a page may download; a bigger one is cancelled, and the answer says so."""
DOWNLOADS_LISTED_MAX: Final = 10
"""The most downloads one answer lists."""

SNAPSHOT_TEXT_MAX: Final = 20_000
SNAPSHOT_ELEMENTS_MAX: Final = 250
"""What a snapshot shows of a big page, around the viewport: characters of text, elements."""
SNAPSHOT_FULL_TEXT_MAX: Final = 400_000
SNAPSHOT_FULL_ELEMENTS_MAX: Final = 5_000
"""The hard limits of a snapshot, which ``full: true`` asks for: a page's text and elements
at once, a few megabytes of JSON at most, well inside ``ANSWER_MAX_BYTES``."""
CAPTURE_LABEL_MAX: Final = 64
