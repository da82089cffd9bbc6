"""What the menu keeps of a state between calls of `engine.legal_actions`.

A table asks for the menu of each creature a seat controls after every change, several times for one state, and a
state is never changed once made (`apply` returns a new one). So the occupancy of a state (which creature stands in
which space, built from every creature on the board) is built once for it and shared by those calls, with what is
worked out from it (`Occupancy.kept`: attack paths, Reposition spaces, Strike plans). The few states asked about
last are kept. A Strike applied to a state whose menu was asked for reuses the plan its menu made (`strike.strike`).
A state made by `apply` from one of them shares all but a few of its creatures with it, so its occupancy is that
state's with those few moved (`derived_occupancy`), not built from every creature again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from vtt.rules import board_kept
from vtt.rules.derived_occupancy import derived
from vtt.rules.model import GameState
from vtt.rules.space import Occupancy

T = TypeVar("T")

KEPT_STATES = 8
"""States whose occupancy is kept: a few tables' latest states, each asked for several creatures."""

_kept: dict[int, tuple[GameState, Occupancy]] = {}
_lock = threading.Lock()


def occupancy(state: GameState) -> Occupancy:
    """The occupancy of `state`, built the first time it is asked for."""
    key = id(state)
    with _lock:
        found = _kept.pop(key, None)
        if found is not None and found[0] is state:
            _kept[key] = found  # now the most recent
            return found[1]
        occ = _made_from_kept(state)
        _kept[key] = (state, occ)  # the state is held, so its id is not reused while it is kept
        while len(_kept) > KEPT_STATES:
            del _kept[next(iter(_kept))]
        return occ


def kept_occupancy(state: GameState) -> Occupancy | None:
    """The occupancy kept for `state` by a menu asked of it, if any; nothing is kept when there is none."""
    found = _kept.get(id(state))
    return found[1] if found is not None and found[0] is state else None


def _made_from_kept(state: GameState) -> Occupancy:
    """The occupancy of `state`, derived from a kept state's when it is one `apply` made from it (the most recent
    first), else built; its index of spaces is built at once in either case, so both list the same in one order."""
    for old, old_occ in reversed(_kept.values()):
        occ = derived(old, old_occ, state)
        if occ is not None:
            return occ
    occ = Occupancy(state)
    _ = occ.by_cell
    return occ


def forget() -> None:
    """Forget every kept occupancy, and what is kept for boards (`board_kept`): for benchmarks of a first call, and
    tests comparing with a computation from scratch."""
    with _lock:
        _kept.clear()
    board_kept.forget()


def kept(occ: Occupancy, key: tuple[Hashable, ...], make: Callable[[], T]) -> T:
    """What `make` works out from the state of `occ` alone, made once for that state. Shared by every menu asked of
    it: not to be changed (hand out a copy of a list)."""
    found: Any = occ.kept.get(key, _NONE)
    if found is _NONE:
        found = occ.kept[key] = make()
    return found  # type: ignore[no-any-return]


_NONE = object()
