"""Counted nouns in plain words: "1 space", "3 spaces", never "3 space(s)"; numbers in words made once."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` and the noun for it: `one` for exactly one, else `many` (by default `one` + "s")."""
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"


class _Numerals(dict[int, str]):
    """`str(n)` of any int `n`: made once for the small ones (a roll's result, a DL), made anew for any other."""

    def __missing__(self, n: int) -> str:
        return str(n)


NUMERALS = _Numerals({n: str(n) for n in range(-64, 256)})
"""`NUMERALS[n]` is `str(n)`: a text reads the small ints' numerals already made, not made again."""
