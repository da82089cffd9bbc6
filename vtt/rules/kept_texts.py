"""Texts kept by the values they are made of, for texts the rules make on every hit from a few names and numbers.

Formatting numbers and joining pieces costs several times a dict's look-up of the values; a str never changes, so
every event or roll showing the same values may share one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TEXTS_KEPT = 4096
"""At most this many texts of one kind are kept; the next one clears them."""


class Texts(dict[tuple[Any, ...], str]):
    """Texts by the values they are made of, `texts[a, b, ...]`: `make(a, b, ...)` the first time, then the same
    str, found with no Python frame. Each place of a key holds values of one type (a bool or a float equal to an
    int would find the int's text)."""

    def __init__(self, make: Callable[..., str]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: tuple[Any, ...]) -> str:
        if len(self) >= TEXTS_KEPT:
            self.clear()
        text = self[key] = self.make(*key)
        return text
