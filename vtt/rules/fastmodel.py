"""Building and copying pydantic models and slotted records without validation, for the hot path of `apply`.

Only for values the rules built themselves (already of the field's type); anything read from outside goes
through `model_validate`. `shallow_copy` is `model_copy(update=...)` and `construct` is `model_construct`
without the bookkeeping that makes those slow. Each takes a model or a record (`vtt.rules.records.Record`).
"""

from __future__ import annotations

import copy
import ctypes
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from vtt.rules.records import Record, copy_record

M = TypeVar("M", bound=BaseModel | Record)
R = TypeVar("R", bound=Record)

_Defaults = tuple[dict[str, Any], dict[str, Callable[[], Any]]]
_DEFAULTS: dict[type[BaseModel | Record], _Defaults] = {}


def _copier(default: Any) -> Callable[[], Any]:
    return lambda: copy.deepcopy(default)


def _defaults(cls: type[BaseModel | Record]) -> _Defaults:
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


_object_new = object.__new__


def _slot_setter(name: str) -> Callable[[BaseModel, Any], None]:
    setter: Callable[[BaseModel, Any], None] = BaseModel.__dict__[name].__set__
    return setter


# Each of the four slots every model instance has, set as `object.__setattr__(model, name, value)` sets it, without
# looking the name up (a third of the cost of building a small model).
put_dict = _slot_setter("__dict__")
put_fields_set = _slot_setter("__pydantic_fields_set__")
put_extra = _slot_setter("__pydantic_extra__")
put_private = _slot_setter("__pydantic_private__")


_Builder = tuple[dict[str, Any], dict[str, Callable[[], Any]]] | None
_BUILDERS: dict[type[BaseModel], _Builder] = {}
"""Each model class -> the defaults `construct` gives the fields not given (worked out once per class), or None
for a model built by `model_construct` (one with private attributes or extra fields)."""


def _builder(cls: type[BaseModel]) -> _Builder:
    if cls.__private_attributes__ or cls.model_config.get("extra") == "allow":
        found: _Builder = None
    else:
        found = _DEFAULTS.get(cls) or _defaults(cls)
    _BUILDERS[cls] = found
    return found


def construct(cls: type[M], **values: Any) -> M:
    """`cls(**values)` without validation: the fields not given take their defaults."""
    if not issubclass(cls, BaseModel):
        return _construct_record(cls, values)
    found = _BUILDERS[cls] if cls in _BUILDERS else _builder(cls)
    if found is None:
        return cls.model_construct(**values)
    plain, made = found
    given = set(values)
    data = {**plain, **values} if plain else values  # the call's own dict
    if made:
        for name, factory in made.items():
            if name not in given:
                data[name] = factory()
    out = _object_new(cls)
    put_dict(out, data)
    put_fields_set(out, given)
    put_extra(out, None)
    put_private(out, None)
    return out


def _construct_record(cls: type[R], values: dict[str, Any]) -> R:
    plain, made = _DEFAULTS.get(cls) or _defaults(cls)
    out = _object_new(cls)
    for name, value in plain.items():
        if name not in values:
            _set(out, name, value)
    for name, factory in made.items():
        if name not in values:
            _set(out, name, factory())
    for name, value in values.items():
        _set(out, name, value)
    return out


_set = object.__setattr__


def set_fields(model: BaseModel | Record, **values: Any) -> None:
    """`model.field = value` for each of `values` (a model that does not validate assignment), without pydantic's
    per-assignment bookkeeping: for values the rules built themselves."""
    if isinstance(model, Record):
        for name, value in values.items():
            _set(model, name, value)
        return
    model.__dict__.update(values)
    model.__pydantic_fields_set__.update(values)


TUPLE_DISPLAY_MAX = 30
"""The longest tuple display Python builds at once: a longer one is built through a list (appended to, then
copied), at nearly twice the cost."""


def shallow_copy(model: M, **changes: Any) -> M:
    """`model.model_copy(update=changes)`: a copy sharing every field's value but those in `changes`, which are
    set as given (not validated)."""
    if isinstance(model, Record):
        return copy_record(model, changes)
    out = _object_new(type(model))
    data = model.__dict__.copy()
    fields_set = model.__pydantic_fields_set__.copy()
    if changes:
        data.update(changes)
        fields_set.update(changes)
    put_dict(out, data)
    put_fields_set(out, fields_set)
    extra = model.__pydantic_extra__
    put_extra(out, None if extra is None else dict(extra))
    private = model.__pydantic_private__
    put_private(out, None if private is None else dict(private))
    return out


_GETATTRO = 18 * ctypes.sizeof(ctypes.c_void_p)
"""Where a type object holds its attribute-read function (`tp_getattro`), in CPython's layout."""


def _getattro(cls: type) -> ctypes.c_void_p:
    return ctypes.c_void_p.from_address(id(cls) + _GETATTRO)


def _plain_getattr() -> int | None:
    """The address of CPython's own attribute read (`PyObject_GenericGetAttr`), where a type's read function may be
    set to it: CPython 3.11 only (3.12 specialises reads through a `__getattr__`), and only when `object`'s read
    function is found where it is expected."""
    if sys.implementation.name != "cpython" or sys.version_info[:2] != (3, 11):
        return None
    plain = ctypes.cast(ctypes.pythonapi.PyObject_GenericGetAttr, ctypes.c_void_p).value
    return plain if plain is not None and _getattro(object).value == plain else None


_PLAIN = _plain_getattr()


def _needs_hook(cls: type[BaseModel]) -> bool:
    return bool(
        cls.__private_attributes__
        or cls.model_config.get("extra") == "allow"
        or cls.__getattribute__ is not object.__getattribute__
        or cls.__getattr__ is not BaseModel.__getattr__  # type: ignore[attr-defined]
    )


def read_plainly(classes: Iterable[type[BaseModel]]) -> None:
    """Attributes of these models' instances are read as any object's are, without pydantic's `__getattr__`.

    `BaseModel` defines `__getattr__` (for private attributes and extra fields), and CPython 3.11 does not specialise
    an attribute read on a class whose MRO has one: every `board.walls` or `economy.major` is then the generic
    lookup and two type lookups (about 470 machine instructions, against about 30 specialised), a fifth of a
    Strike's work. A model with neither private attributes nor extra fields has no use for the hook (it only raises
    the AttributeError the plain read raised, with the same message), so its type's read function is set to the
    one CPython gives a class without `__getattr__`. Nothing is changed elsewhere than on CPython 3.11, nor for a
    model that needs the hook; a later change of the class's `__getattr__` puts the hook back."""
    if _PLAIN is None:
        return
    hook = _getattro(BaseModel).value
    for cls in classes:
        slot = _getattro(cls)
        if slot.value == hook and not _needs_hook(cls):
            slot.value = _PLAIN
            ctypes.pythonapi.PyType_Modified(ctypes.py_object(cls))


def reads_plainly(cls: type) -> bool:
    """Whether attributes of `cls`'s instances are read without a `__getattr__` hook."""
    return _getattro(cls).value == _getattro(object).value


def models_of(package: str) -> Iterator[type[BaseModel]]:
    """Every model class defined in `package` or its modules, among those imported so far."""
    seen: set[type[BaseModel]] = set()
    todo = list(BaseModel.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        todo.extend(cls.__subclasses__())
        if cls.__module__ == package or cls.__module__.startswith(package + "."):
            yield cls


def records_reader(cls: type[M], *groups: tuple[str, ...]) -> Callable[..., tuple[Any, ...]]:
    """A function of one model or record of `cls` per group of field names in `groups` (of `cls`, Python
    identifiers, never data), giving the first one's fields of the first group, then the second one's of the second,
    and so on, in order, as one tuple, or past `TUPLE_DISPLAY_MAX` values as a tuple of tuples of at most that many:
    `(r0.a, r0.b, r1.a, ...)` written out, in one call however many records it reads."""
    unknown = {name for names in groups for name in names} - set(cls.model_fields)
    if unknown:
        raise ValueError(f"{cls.__name__} has no field {sorted(unknown)}")
    reads = [f"r{i}.{name}" for i, names in enumerate(groups) for name in names]
    chunks = [reads[i : i + TUPLE_DISPLAY_MAX] for i in range(0, len(reads), TUPLE_DISPLAY_MAX)]
    displays = ["(" + "".join(f"{read}, " for read in chunk) + ")" for chunk in chunks]
    body = displays[0] if len(displays) == 1 else "(" + ", ".join(displays) + ")"
    params = ", ".join(f"r{i}" for i in range(len(groups)))
    namespace: dict[str, Any] = {}
    exec(f"def read_{cls.__name__}_records({params}):\n    return {body}\n", namespace)
    reader: Callable[..., tuple[Any, ...]] = namespace[f"read_{cls.__name__}_records"]
    return reader
