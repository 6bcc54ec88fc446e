"""How the extension's answers cross the bridge: a refusal comes as ``tool.result`` with
``ok: false`` and a refusal code, which the host hands to the agent as that code with the
extension's words (nothing ran); a real Chromium with the extension, a host served for real."""

from __future__ import annotations

import pytest

from browserhost.contract import ProviderRequest, normalize
from browserhost.contract.errors import ProviderRejectedError, UnsupportedError
from tests.extension.conftest import NO_TAB, SESSION, Hosted


def test_a_refusal_reaches_the_transport_as_provider_rejected_with_its_words(
    linked: Hosted,
) -> None:
    call = normalize("browser.snapshot", {})
    request = ProviderRequest("browser-no-tab", call.name, call.parameters, SESSION)
    with pytest.raises(ProviderRejectedError) as refused:
        linked.run(linked.bridge.transport.send(request, 10.0))
    assert str(refused.value).startswith(NO_TAB)


def test_an_action_the_extension_does_not_serve_is_unsupported_and_nothing_was_done(
    linked: Hosted,
) -> None:
    request = ProviderRequest("browser-fly", "verb.fly", {}, SESSION)
    with pytest.raises(UnsupportedError) as refused:
        linked.run(linked.bridge.transport.send(request, 10.0))
    assert str(refused.value) == "verb.fly is not an action this browser serves; nothing was done."


def test_the_agent_reads_the_refusal_as_provider_rejected_nothing_ran(linked: Hosted) -> None:
    with pytest.raises(ProviderRejectedError) as refused:
        linked.snapshot()
    assert refused.value.code == "PROVIDER_REJECTED"
    assert refused.value.may_have_run is False
    assert str(refused.value).startswith(NO_TAB)
