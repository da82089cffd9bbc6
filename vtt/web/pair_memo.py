"""A result worked out once from two shared objects (never changed in place) for every page given the same pair:
kept by the objects' identity, the last few pairs only."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

A = TypeVar("A")
B = TypeVar("B")
R = TypeVar("R")


class PairMemo(Generic[A, B, R]):
    def __init__(self, make: Callable[[A, B], R], kept: int) -> None:
        self._make = make
        self._kept = kept
        self._known: OrderedDict[tuple[int, int, Hashable], tuple[A, B, R]] = OrderedDict()

    def __call__(self, a: A, b: B, also: Hashable = None) -> R:
        """`make(a, b)`, or the result of the same pair (and `also`, a value the result depends on) asked before."""
        key = (id(a), id(b), also)
        known = self._known.get(key)
        if known is not None and known[0] is a and known[1] is b:
            return known[2]
        result = self._make(a, b)
        self._known[key] = (a, b, result)  # both kept alive with it, so that their ids stay theirs
        while len(self._known) > self._kept:
            self._known.popitem(last=False)
        return result
