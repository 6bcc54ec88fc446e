"""A provider whose verbs answer JSON values that are not objects: a number and a list."""

from __future__ import annotations

from pydantic import Field

from browserhost.contract import Context
from browserhost.sdk import Provider, VerbArguments, verb


class CountArguments(VerbArguments):
    text: str = Field(description="Words to count.")


class NoArguments(VerbArguments):
    pass


class Tally(Provider):
    id = "tally"
    name = "Tally"

    @verb("Count the words of a text.", changes_page=False)
    async def count(self, arguments: CountArguments, context: Context) -> int:
        return len(arguments.text.split())

    @verb("List the page's headings.", changes_page=False)
    async def headings(self, arguments: NoArguments, context: Context) -> list[str]:
        return ["Pricing", "Plans"]
