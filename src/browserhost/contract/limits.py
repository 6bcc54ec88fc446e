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

PROTOCOL_VERSION: Final = 1
"""The version of the provider service protocol (paths, envelope, hello) this host speaks."""

AGENT_HOLD_S: Final = 30.0
"""How long the agent holds the surface after each action."""

SNAPSHOT_TEXT_MAX: Final = 20_000
SNAPSHOT_ELEMENTS_MAX: Final = 250
CAPTURE_LABEL_MAX: Final = 64
