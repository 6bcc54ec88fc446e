"""The extension's shared values: ``contract.js`` is what the Python side says today."""

from __future__ import annotations

from tests.extension.contract_js import CONTRACT_JS, generated


def test_contract_js_holds_the_python_values() -> None:
    assert CONTRACT_JS.read_text() == generated(), (
        "src/browserhost/extension/contract.js is out of date: run "
        "`.venv/bin/python -m tests.extension.contract_js` and commit what it writes."
    )
