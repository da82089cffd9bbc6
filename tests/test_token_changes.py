"""`map_view._same` (what `token_changes` sends) answers as the plain recursive comparison it was written as, with
its shortcut for two scalars of one type: `True` is still not `1`, a tuple still equals a list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.web.map_view import _same, token_changes


def _plain_same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_plain_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_plain_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


SCALARS = st.sampled_from([None, True, False, 0, 1, 2, 0.0, 1.0, 2.5, "", "a", "1", "True"])
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.sampled_from(["a", "b", "cells"]), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=400, deadline=None)
@given(VALUES, VALUES)
def test_same_answers_as_the_plain_comparison(a: Any, b: Any) -> None:
    assert _same(a, b) == _plain_same(a, b)
    assert _same(a, a) == _plain_same(a, a)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["id", "cells", "grit", "hidden", "size"]), VALUES, max_size=5), VALUES)
def test_a_token_sends_what_differs_by_the_plain_comparison(old: dict[str, Any], value: Any) -> None:
    for key in ("cells", "size"):
        new = {**old, key: value}
        changes = token_changes(old, new)
        plain = {k: v for k, v in new.items() if k not in old or not _plain_same(old[k], v)}
        assert changes == plain
