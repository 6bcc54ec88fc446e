"""The HTTP API's paths, spelled once for the routes that serve them and the client that
calls them. Imports nothing, so :mod:`browserhost.client` can use it without FastAPI."""

PROVIDERS_PATH = "/api/browser-providers"
SELECTION_PATH = "/api/browser-providers/selection"
ACTIONS_PATH = "/api/browser-providers/actions"
INSTANCES_PATH = "/api/browser-providers/instances"
PENDING_PATH = "/api/bridge/pending"
PAIRED_PATH = "/api/bridge/paired"
"""The bridge's pairing: browsers waiting for a person's approval, and those approved."""
RECORDINGS_PATH = "/api/recordings"
RECORDING_STEPS_PATH = "/api/recordings/steps"
RECORDING_PICTURE_PATH = "/api/recordings/pictures/{seq}"
"""The session recordings: the sessions recorded, one session's steps, a step's picture."""
