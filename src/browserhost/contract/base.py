"""The one base model: snake_case in Python, camelCase on the wire."""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class WireModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    def to_wire(self) -> dict[str, object]:
        """The JSON object a provider or the HTTP API sends; unset optional fields are left out."""
        return self.model_dump(mode="json", exclude_none=True)


def absent_when_none(description: str) -> Any:
    """An optional field left out of the answer when it has no value (absent, not null, as
    the host writes it)."""
    return Field(None, description=description, exclude_if=_is_none)


def _is_none(value: object) -> bool:
    return value is None
