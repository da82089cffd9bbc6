"""Building and copying pydantic models without validation, for the hot path of `apply`.

Only for values the rules built themselves (already of the field's type); anything read from outside goes
through `model_validate`. `shallow_copy` is `model_copy(update=...)` and `construct` is `model_construct`
without the bookkeeping that makes those slow.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

M = TypeVar("M", bound=BaseModel)

_Defaults = tuple[dict[str, Any], dict[str, Callable[[], Any]]]
_DEFAULTS: dict[type[BaseModel], _Defaults] = {}


def _copier(default: Any) -> Callable[[], Any]:
    return lambda: copy.deepcopy(default)


def _defaults(cls: type[BaseModel]) -> _Defaults:
    plain: dict[str, Any] = {}
    made: dict[str, Callable[[], Any]] = {}
    for name, field in cls.model_fields.items():
        if field.default_factory is not None:
            made[name] = field.default_factory  # type: ignore[assignment]
        elif field.default is not PydanticUndefined:
            default = field.default
            try:
                hash(default)
                plain[name] = default
            except TypeError:  # a mutable default: each model gets its own copy, as pydantic does
                made[name] = _copier(default)
    _DEFAULTS[cls] = (plain, made)
    return plain, made


_set = object.__setattr__
_object_new = object.__new__


_BUILDERS: dict[type[BaseModel], Callable[[dict[str, Any]], Any]] = {}
"""Each model class -> how `construct` builds one from the given values (worked out once per class)."""


def _builder(cls: type[M]) -> Callable[[dict[str, Any]], M]:
    if cls.__private_attributes__ or cls.model_config.get("extra") == "allow":
        return lambda values: cls.model_construct(**values)
    plain, made = _DEFAULTS.get(cls) or _defaults(cls)
    new = cls.__new__

    def build(values: dict[str, Any]) -> M:
        data = {**plain, **values}
        if made:
            for name, factory in made.items():
                if name not in values:
                    data[name] = factory()
        out = new(cls)
        _set(out, "__dict__", data)
        _set(out, "__pydantic_fields_set__", set(values))
        _set(out, "__pydantic_extra__", None)
        _set(out, "__pydantic_private__", None)
        return out

    return build


def construct(cls: type[M], **values: Any) -> M:
    """`cls(**values)` without validation: the fields not given take their defaults."""
    build = _BUILDERS.get(cls)
    if build is None:
        build = _BUILDERS[cls] = _builder(cls)
    return build(values)  # type: ignore[no-any-return]


def set_fields(model: BaseModel, **values: Any) -> None:
    """`model.field = value` for each of `values` (a model that does not validate assignment), without pydantic's
    per-assignment bookkeeping: for values the rules built themselves."""
    model.__dict__.update(values)
    model.__pydantic_fields_set__.update(values)


def shallow_copy(model: M, **changes: Any) -> M:
    """`model.model_copy(update=changes)`: a copy sharing every field's value but those in `changes`, which are
    set as given (not validated)."""
    out = _object_new(type(model))
    if changes:
        _set(out, "__dict__", {**model.__dict__, **changes})
        _set(out, "__pydantic_fields_set__", model.__pydantic_fields_set__ | changes.keys())
    else:
        _set(out, "__dict__", model.__dict__.copy())
        _set(out, "__pydantic_fields_set__", model.__pydantic_fields_set__.copy())
    extra = model.__pydantic_extra__
    _set(out, "__pydantic_extra__", None if extra is None else dict(extra))
    private = model.__pydantic_private__
    _set(out, "__pydantic_private__", None if private is None else dict(private))
    return out
