"""What the menu works out from a board's walls and objects alone, kept across states.

Most commands leave the walls and objects as they were: the new state's board then gives the very same set of filled
spaces (`Board.filled`, kept until the walls or objects are replaced). What depends only on those spaces, the kind of
grid, the map's size and a creature's spaces (the moves a creature of one space can make, the spaces in its Reach an
attack reaches past the walls) is the same for the next state, so it is worked out once for a few boards.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from vtt.rules.model import Cell

T = TypeVar("T")

BOARDS = 8
"""Boards (sets of filled spaces) whose values are kept: a few tables' boards."""
PER_BOARD = 4096
"""Values kept for one board; all are dropped when it is full (each a creature's moves from one space, or the like)."""

_kept: dict[frozenset[Cell], dict[tuple[Hashable, ...], Any]] = {}
_lock = threading.Lock()


def kept(filled: frozenset[Cell], key: tuple[Hashable, ...], make: Callable[[], T]) -> T:
    """What `make` works out from `filled` and what `key` names alone (the key must name everything else it reads:
    the kind of grid, the map's size...), made once. Shared: not to be changed (hand out a copy of a list)."""
    with _lock:
        board = _kept.get(filled)
        found: Any = board.get(key, _NONE) if board is not None else _NONE
    if found is not _NONE:
        return found  # type: ignore[no-any-return]
    made = make()
    with _lock:
        board = _kept.get(filled)
        if board is None:
            if len(_kept) >= BOARDS:
                del _kept[next(iter(_kept))]
            board = _kept[filled] = {}
        elif len(board) >= PER_BOARD:
            board.clear()
        board[key] = made
    return made


def forget() -> None:
    """Forget every kept value (for a benchmark of a first call, and for tests comparing with a computation
    from scratch)."""
    with _lock:
        _kept.clear()


_NONE = object()
