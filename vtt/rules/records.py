"""`Record`: what pydantic's models offered the rules' small records (rolls and events), for plain dataclasses.

A roll or an event is a slotted dataclass, cheap to make and to free; pydantic validates and serializes it where it
sits inside a model as it did the model it once was (same fields, same order, same JSON). `model_dump`,
`model_dump_json` and `model_validate` read and write one on its own, as the model's methods of those names did.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Literal, Self, TypeVar

from pydantic import ConfigDict, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ArgsKwargs, InitErrorDetails

_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}
R = TypeVar("R", bound="Record")


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

    __pydantic_fields__: ClassVar[dict[str, FieldInfo]]  # a pydantic dataclass's, from `pydantic.dataclasses`
    model_fields: ClassVar[dict[str, FieldInfo]]
    """A record validated by pydantic (a pydantic dataclass): its fields, as a model's `model_fields`."""

    def model_dump(self, *, mode: Literal["python", "json"] = "python", **options: Any) -> dict[str, Any]:
        """The record as a dict of its fields, in order; with mode="json", of JSON values only. `options` are
        those of a model's `model_dump` (`exclude`, `exclude_defaults`...)."""
        dumped: dict[str, Any] = _adapter(type(self)).serializer.to_python(self, mode=mode, **options)
        return dumped

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy sharing every field's value (all copied, with `deep`) but those of `update`, set as given (not
        validated), as a model's `model_copy`."""
        if not deep:
            return copy_record(self, dict(update or {}))
        out = copy.deepcopy(self)
        for name, value in (update or {}).items():
            object.__setattr__(out, name, value)
        return out

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


class WeakRecord(Record):
    """A record that weak references may refer to (`weakref.ref(record)`), as they may to a model."""

    __slots__ = ("__weakref__",)


def not_a_model(title: str, given: Any) -> ValidationError:
    """The error a model gives for input that is neither a dict nor one of it (type "model_type", at the top)."""
    error: InitErrorDetails = {"type": "model_type", "loc": (), "input": given, "ctx": {"class_name": title}}
    return ValidationError.from_exception_data(title, [error])


def read_as_the_model(cls: type[R], known: frozenset[str], data: Any, handler: Callable[[Any], R]) -> R:
    """A record's wrap validator, reading what the model it was read as that model did: keywords or a dict (each key
    not in `known` refused, `refusing_unknown_keys`), one of `cls` as it is, anything else the model's "model_type"
    error. `cls` is the record's class as its module names it: `slots=True` makes a new class, and the validator's
    own `cls` is the one before."""
    given = data.kwargs or {} if isinstance(data, ArgsKwargs) and not data.args else data
    if isinstance(given, dict):
        made: R = refusing_unknown_keys(known, given, handler, cls.__name__)
        return made
    if isinstance(data, cls):
        return handler(data)
    raise not_a_model(cls.__name__, data)


def refusing_unknown_keys(
    known: frozenset[str], given: dict[str, Any], validate: Callable[[dict[str, Any]], Any], title: str
) -> Any:
    """`validate(given)`, but each key of `given` not in `known` is an error as a model with `extra="forbid"` gives
    it (type "extra_forbidden", at that key), after the errors of the known keys, as the model lists them."""
    unknown = [key for key in given if key not in known]
    if not unknown:
        return validate(given)
    errors: list[InitErrorDetails] = []
    try:
        validate({key: value for key, value in given.items() if key in known})
    except ValidationError as exc:
        for err in exc.errors():
            loc = err["loc"]
            wrong: InitErrorDetails = {"type": err["type"], "loc": loc, "input": err["input"]}
            if "ctx" in err:
                wrong["ctx"] = err["ctx"]
            if err["type"] == "missing" and len(loc) == 1:
                wrong["input"] = given  # the model shows what it was given
            errors.append(wrong)
    errors += [{"type": "extra_forbidden", "loc": (key,), "input": given[key]} for key in unknown]
    raise ValidationError.from_exception_data(title, errors)


_COPIERS: dict[type[Any], Callable[[Any], Any]] = {}


def record_copier(cls: type[R], own: tuple[str, ...] = ()) -> Callable[[R], R]:
    """A function copying a record of `cls`: a new object and one slot write per field, generated once from the
    class's field names (Python identifiers, never data). The lists and dicts of the fields in `own` are copied
    (`.copy()`), every other value is shared."""
    names = tuple(cls.__dataclass_fields__)
    if cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]  # a frozen record refuses `out.name = ...`
        put = "    put(out, {name!r}, r.{name}{copied})\n"
    else:
        put = "    out.{name} = r.{name}{copied}\n"
    lines = "".join(put.format(name=name, copied=".copy()" if name in own else "") for name in names)
    namespace: dict[str, Any] = {"new": object.__new__, "put": object.__setattr__, "cls": cls}
    exec(f"def copy_{cls.__name__}(r):\n    out = new(cls)\n{lines}    return out\n", namespace)
    copier: Callable[[R], R] = namespace[f"copy_{cls.__name__}"]
    return copier


def copy_record(record: R, changes: dict[str, Any]) -> R:
    """A copy of `record` sharing every field's value but those of `changes`, set as given (not validated)."""
    cls = type(record)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = record_copier(cls)
    out: R = copier(record)
    for name, value in changes.items():
        object.__setattr__(out, name, value)
    return out
