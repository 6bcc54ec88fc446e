"""Schemathesis hooks for tests/api/test_openapi.py, loaded through SCHEMATHESIS_HOOKS.

Two things differ from a plain run.

browser.capture writes into ``context.directory`` when that is an existing absolute folder,
and generated data may well say ``"/"``. Every directory string is pointed at the test's own
project folder just before the request is sent, so a run can never write into the repository
or the root of the machine. Only the value changes, never its type, so what the checks judge
(a string where a string is expected) is what was generated.

``positive_data_acceptance`` is replaced by a wrapper that runs it on every response but one:
400 PROVIDER_REJECTED, a well-formed action the page could not do ("No element matches #x").
The contract fixes that status at 400, and whether it happens depends on the page, which no
schema can describe. A 400 for any other reason (INVALID_ACTION for data the schema allows)
still fails the run. ``not_a_server_error`` is replaced the same way for 501 UNSUPPORTED: the
contract's answer when the provider does not offer what was asked (the stub has no
configuration and no panel requests), not a fault of the server. ``negative_data_rejection``
is replaced for 413 BODY_TOO_LARGE: a generated body that breaks the schema by a string past
its ``maxLength`` can also be over the server's 1 MiB bound, and is then refused for its size
before it is parsed, with the contract's own status, which the check's list of rejections lacks.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import schemathesis
from schemathesis import Case, CheckContext, HookContext, Response
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

PROJECT_ENV = "BROWSERHOST_SCHEMATHESIS_PROJECT"


@schemathesis.hook
def before_call(context: HookContext, case: Case[Any], kwargs: dict[str, object]) -> None:
    body = case.body
    if not isinstance(body, dict):
        return
    where = body.get("context")
    if isinstance(where, dict) and isinstance(where.get("directory"), str):
        where["directory"] = os.environ[PROJECT_ENV]


def _code(response: Response) -> object:
    try:
        answer = response.json()
    except ValueError:
        return None
    return answer.get("code") if isinstance(answer, dict) else None


Check = Callable[[CheckContext, Response, Case[Any]], bool | None]


def _but(check: Check, status: int, code: str) -> None:
    """Register ``check`` run on every response but a ``status`` answered with ``code``, as
    ``<check>_but_<code>``; the run excludes ``check`` itself."""

    def wrapper(ctx: CheckContext, response: Response, case: Case[Any]) -> bool | None:
        if response.status_code == status and _code(response) == code:
            return None
        return check(ctx, response, case)

    wrapper.__name__ = f"{check.__name__}_but_{code.lower()}"
    schemathesis.check(wrapper)


_but(positive_data_acceptance, 400, "PROVIDER_REJECTED")
_but(not_a_server_error, 501, "UNSUPPORTED")
_but(negative_data_rejection, 413, "BODY_TOO_LARGE")
