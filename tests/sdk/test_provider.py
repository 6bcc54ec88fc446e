"""The provider base class: what a subclass supports is what it implements."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

from browserhost.contract import ACTIONS, Context, ProviderRequest, data
from browserhost.contract import actions as params
from browserhost.contract.errors import UnknownResultError, UnsupportedError
from browserhost.contract.limits import PROTOCOL_VERSION
from browserhost.host import Host
from browserhost.providers.chromium import ChromiumProvider
from browserhost.providers.stub import StubProvider
from browserhost.sdk import Provider, seconds_left


class OnlyOpens(Provider):
    id = "opens"
    name = "Only opens"

    async def open(self, parameters: params.OpenParameters, context: Context) -> data.OpenData:
        viewport = data.Viewport(mode="desktop", width=1280, height=800)
        return data.OpenData(url=parameters.url, title="", settled=True, viewport=viewport)


def test_a_provider_supports_the_actions_it_implements() -> None:
    assert OnlyOpens.actions == {"browser.open"}
    assert OnlyOpens().registration()["actions"] == ["browser.open"]


def test_the_built_in_providers_implement_all_ten_actions() -> None:
    assert StubProvider.actions == set(ACTIONS)
    assert ChromiumProvider.actions == set(ACTIONS)


def test_a_registration_declares_the_protocol_version_it_was_made_for() -> None:
    assert OnlyOpens().registration()["protocolVersion"] == PROTOCOL_VERSION


class TellsItsTime(Provider):
    id = "time"
    name = "Tells its time"

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        return data.NavigationData(url="about:blank", title=f"{seconds_left(20.0):.0f}")


async def test_a_method_reads_the_time_left_before_the_hosts_deadline(tmp_path: Path) -> None:
    host = Host(tmp_path)
    host.catalog.install(TellsItsTime().registration())
    told = await host.dispatch("browser.back", provider_id="time", timeout_ms=60_000)
    assert told.data["title"] in ("59", "60")  # the caller's minute, not the action's 20 s


async def test_a_method_called_without_a_deadline_gets_the_default() -> None:
    request = ProviderRequest("r", "browser.back", params.BackParameters(), Context())
    answer = await TellsItsTime().answer(request)
    assert answer["data"]["title"] == "20"


async def test_an_action_a_provider_does_not_implement_is_never_sent(tmp_path: Path) -> None:
    provider = OnlyOpens()
    host = Host(tmp_path)
    host.catalog.install(provider.registration())
    opened = await host.dispatch("browser.open", {"url": "https://a.test/"}, provider_id="opens")
    with pytest.raises(UnsupportedError, match=r"does not support browser\.snapshot"):
        await host.dispatch("browser.snapshot", {}, provider_id="opens")
    await host.aclose()
    assert opened.data["url"] == "https://a.test/"


class AnswersWithAnotherModel(Provider):
    id = "another"
    name = "Answers with another model"

    async def back(
        self, parameters: params.BackParameters, context: Context
    ) -> data.NavigationData:
        # As an untyped provider could: a model, but not the one back answers.
        return cast(data.NavigationData, data.Viewport.of("desktop"))


async def test_data_from_any_model_but_the_actions_own_is_checked_like_any_answer(
    tmp_path: Path,
) -> None:
    host = Host(tmp_path)
    host.catalog.install(OnlyOpens().registration())
    host.catalog.install(AnswersWithAnotherModel().registration())
    opened = await host.dispatch("browser.open", {"url": "https://a.test/"}, provider_id="opens")
    with pytest.raises(UnknownResultError, match="does not fit it"):
        await host.dispatch("browser.back", provider_id="another")
    await host.aclose()
    assert opened.data == {
        "url": "https://a.test/",
        "title": "",
        "opened": True,
        "settled": True,
        "viewport": {"mode": "desktop", "width": 1280, "height": 800},
    }
