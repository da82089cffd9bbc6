"""`Record`: what pydantic's models offered the rules' small records (rolls and events), for plain dataclasses.

A roll or an event is a slotted dataclass, cheap to make and to free; pydantic validates and serializes it where it
sits inside a model as it did the model it once was (same fields, same order, same JSON). `model_dump`,
`model_dump_json` and `model_validate` read and write one on its own, as the model's methods of those names did.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Self

from pydantic import ConfigDict, TypeAdapter

_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def _adapter(cls: type[Any]) -> TypeAdapter[Any]:
    found = _ADAPTERS.get(cls)
    if found is None:
        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return found


class Record:
    """Base of a slotted dataclass that pydantic reads and writes as the model it replaces."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]  # each subclass's, from `dataclass`
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict()
    """pydantic's defaults (unknown keys ignored), as the models had, not the config of the model a record sits in."""

    def model_dump(self, *, mode: Literal["python", "json"] = "python") -> dict[str, Any]:
        """The record as a dict of its fields, in order; with mode="json", of JSON values only."""
        dumped: dict[str, Any] = _adapter(type(self)).serializer.to_python(self, mode=mode)
        return dumped

    def model_dump_json(self) -> str:
        return _adapter(type(self)).serializer.to_json(self).decode()

    @classmethod
    def model_validate(cls, obj: Any) -> Self:
        """The record read from `obj` (a dict of its fields, or a record already): pydantic's ValidationError names
        each field that is missing or of the wrong type."""
        validated: Self = _adapter(cls).validate_python(obj)
        return validated

    @classmethod
    def model_validate_json(cls, text: str | bytes) -> Self:
        validated: Self = _adapter(cls).validate_json(text)
        return validated
