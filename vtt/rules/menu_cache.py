"""What the menu keeps of a state between calls of `engine.legal_actions`.

A table asks for the menu of each creature a seat controls after every change, several times for one state, and a
state is never changed once made (`apply` returns a new one). So the occupancy of a state (which creature stands in
which space, built from every creature on the board) is built once for it and shared by those calls, with what is
worked out from it (`Occupancy.kept`: attack paths, Reposition spaces, Strike plans). The few states asked about
last are kept. A Strike applied to a state whose menu was asked for reuses the plan its menu made (`strike.strike`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

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
        occ = Occupancy(state)
        _kept[key] = (state, occ)  # the state is held, so its id is not reused while it is kept
        while len(_kept) > KEPT_STATES:
            del _kept[next(iter(_kept))]
        return occ


def kept_occupancy(state: GameState) -> Occupancy | None:
    """The occupancy kept for `state` by a menu asked of it, if any; nothing is kept when there is none."""
    found = _kept.get(id(state))
    return found[1] if found is not None and found[0] is state else None


def forget() -> None:
    """Forget every kept occupancy (for benchmarks of a first call)."""
    with _lock:
        _kept.clear()


def kept(occ: Occupancy, key: tuple[Hashable, ...], make: Callable[[], T]) -> T:
    """What `make` works out from the state of `occ` alone, made once for that state. Shared by every menu asked of
    it: not to be changed (hand out a copy of a list)."""
    found: Any = occ.kept.get(key, _NONE)
    if found is _NONE:
        found = occ.kept[key] = make()
    return found  # type: ignore[no-any-return]


_NONE = object()
