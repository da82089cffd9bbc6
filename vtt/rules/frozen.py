"""Lists and dicts that refuse every change: a menu's values shared by every option and every menu that holds them
(the empty defaults of `offers.make_option` and the like, the `Ask`s of a command), so none is made per option.

They are lists and dicts to everything that reads them (pydantic dumps them as such, and they compare equal to
any list or dict with the same items); an attempt to change one raises `TypeError`. A copy (`copy`, pickling) is
frozen too.
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

T = TypeVar("T")


def _refuse(self: object, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"a shared {type(self).__name__} is not to be changed: copy it")


class FrozenList(list[T]):
    __slots__ = ()

    append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return FrozenList, (list(self),)


class FrozenDict(dict[str, Any]):
    __slots__ = ()

    update = pop = popitem = clear = setdefault = _refuse
    __setitem__ = __delitem__ = __ior__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return FrozenDict, (dict(self),)


NO_LIST: FrozenList[Any] = FrozenList()
NO_DICT = FrozenDict()
"""The empty list and dict every option, target and preview without a value of its own holds."""
