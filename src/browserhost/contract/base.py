"""The one base model: snake_case in Python, camelCase on the wire."""

from pydantic import BaseModel, ConfigDict
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
