"""Counted nouns in plain words: "1 space", "3 spaces", never "3 space(s)"."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` and the noun for it: `one` for exactly one, else `many` (by default `one` + "s")."""
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"
