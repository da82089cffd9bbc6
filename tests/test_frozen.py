"""The frozen lists and dicts a menu shares (`vtt.rules.frozen`): read as lists and dicts, never changed."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from vtt.rules.frozen import NO_DICT, NO_LIST, FrozenDict, FrozenList
from vtt.rules.offers import ActionOption, make_option


def test_every_change_of_a_frozen_list_or_dict_raises() -> None:
    items = FrozenList([1, 2])
    changes: list[Callable[[], Any]] = [
        lambda: items.append(3),
        lambda: items.extend([3]),
        lambda: items.insert(0, 3),
        lambda: items.pop(),
        lambda: items.remove(1),
        lambda: items.clear(),
        lambda: items.sort(),
        lambda: items.reverse(),
        lambda: items.__setitem__(0, 3),
        lambda: items.__delitem__(0),
        lambda: items.__iadd__([3]),
        lambda: items.__imul__(2),
    ]
    values = FrozenDict({"a": 1})
    changes += [
        lambda: values.update(b=2),
        lambda: values.pop("a"),
        lambda: values.popitem(),
        lambda: values.clear(),
        lambda: values.setdefault("b", 2),
        lambda: values.__setitem__("b", 2),
        lambda: values.__delitem__("a"),
        lambda: values.__ior__({"b": 2}),
    ]
    for change in changes:
        with pytest.raises(TypeError):
            change()
    assert items == [1, 2] and values == {"a": 1}
    assert NO_LIST == [] and NO_DICT == {}


@pytest.mark.parametrize(
    "copier", [copy.copy, copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))], ids=["copy", "deep", "pickle"]
)
def test_a_copy_of_a_frozen_list_or_dict_holds_the_same_values_frozen(copier: Callable[[Any], Any]) -> None:
    items, values = FrozenList([1, [2]]), FrozenDict({"a": [1]})
    for frozen in (items, values):
        copied = copier(frozen)
        assert type(copied) is type(frozen) and copied == frozen
        with pytest.raises(TypeError):
            copied.clear()


def test_an_option_holding_frozen_values_dumps_and_validates_as_plain_lists_and_dicts() -> None:
    option = make_option(action="move", group="Move", label="Move", choose=FrozenList(["to"]))
    dumped = option.model_dump()
    assert type(dumped["choose"]) is list and type(dumped["targets"]) is list and type(dumped["cost"]) is dict
    assert ActionOption.model_validate(dumped) == option
    assert (
        option.model_dump_json()
        == ActionOption(action="move", group="Move", label="Move", choose=["to"]).model_dump_json()
    )
