"""A dialog's count field: what `whole_in` lets a dialog send (Tiers of an Ailment, minutes that pass)."""

from __future__ import annotations

import pytest

from vtt.web.bounded_number import whole_in


@pytest.mark.parametrize(
    ("value", "expected"),
    [(1, 1), (6, 6), (3.0, 3), (7, None), (0, None), (-1, None), (2.5, None), (None, None), ("3", None), (True, None)],
)
def test_whole_in_takes_only_whole_numbers_in_range(value: object, expected: int | None) -> None:
    assert whole_in(value, 1, 6) == expected
