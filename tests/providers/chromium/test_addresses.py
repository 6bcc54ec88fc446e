"""Which addresses are browserhost's own, read as Chromium reads a URL (no browser here: the
browser's side is in test_own_address.py)."""

from __future__ import annotations

import pytest

from browserhost.providers.chromium import ChromiumConfig
from browserhost.providers.chromium.addresses import AddressPolicy, canonical_host


@pytest.mark.parametrize(
    ("host", "canonical"),
    [
        ("LocalHost.", "localhost"),
        ("app.localhost.", "app.localhost"),
        ("%6c%6fcalhost", "localhost"),
        ("127.0.0.1.", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("0", "0.0.0.0"),
        ("[::FFFF:127.0.0.1]", "::ffff:7f00:1"),
        ("[0:0:0:0:0:0:0:1]", "::1"),
        ("example.com", "example.com"),
        ("999.1.1.1", "999.1.1.1"),  # not an address: Chromium refuses the URL
        ("1_0.0.0.1", "1_0.0.0.1"),
    ],
)
def test_a_host_reads_as_chromium_writes_it(host: str, canonical: str) -> None:
    assert canonical_host(host) == canonical


@pytest.mark.parametrize(
    ("url", "own"),
    [
        ("http://example.com:7878/docs", True),  # a name may lead to this machine
        ("https://LOCALHOST.:7878/", True),
        ("http://[::ffff:7f00:1]:7878/", True),
        ("http://127.0.0.1:7879/", False),
        ("http://127.0.0.1/", False),
        ("http://example.com/:7878/", False),
        ("ws://127.0.0.1:7878/", False),  # not a page: refused as a scheme, not as the host
    ],
)
def test_every_host_on_the_hosts_port_is_its_own(url: str, own: bool) -> None:
    assert AddressPolicy(own_port=7878, own_host="127.0.0.1").own(url) is own


@pytest.mark.parametrize(
    ("url", "own"),
    [
        ("http://localhost./", True),
        ("http://2130706433/", True),
        ("http://[::ffff:7f00:1]/", True),
        ("http://0.0.0.0/", True),
        ("http://192.168.1.5/", True),  # where it listens
        ("http://192.168.1.5:8080/", False),
        ("http://example.com/", False),
        ("http://192.168.1.6/", False),
    ],
)
def test_on_port_80_only_loopback_and_the_listening_address_are_the_hosts(
    url: str, own: bool
) -> None:
    """Every site uses port 80: blocking it on every host would block the web."""
    assert AddressPolicy(own_port=80, own_host="192.168.1.5").own(url) is own


def test_a_denied_private_network_is_denied_in_any_spelling() -> None:
    policy = AddressPolicy(private_network=False)
    for url in ("http://2130706433/", "http://0x7f.1/", "http://[::ffff:c0a8:1]/", "http://0/"):
        assert policy.refusal(url) is not None, url
    assert policy.refusal("http://93.184.215.14/") is None


@pytest.mark.parametrize(
    ("address", "host", "port"),
    [("127.0.0.1:7878", "127.0.0.1", 7878), ("::1:7878", "::1", 7878), ("[::]:80", "::", 80)],
)
def test_the_hosts_address_is_read_from_the_environment(address: str, host: str, port: int) -> None:
    config = ChromiumConfig.from_env({"BROWSERHOST_OWN_ADDRESS": address})
    assert (config.own_host, config.own_port) == (host, port)
