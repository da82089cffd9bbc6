"""Where creatures stand in the states `apply` makes, worked out from the state before instead of the whole board.

A state `apply` returns is never changed, and it shares every creature with the state its command started from
but the few the command replaced (`Tx.changed_creatures`). So its occupancy is the earlier state's, read over those
few creatures (`Occupancy.over`): placing one token among 500 looks at the spaces involved, not at every creature.

- `for_tx(tx)`: the occupancy of a command's state as it is now, for a rule checking where a creature may stand.
- `seal(tx)`: called by `apply` on the state it returns; keeps what that state's occupancy is made from (nothing is
  worked out until a later command asks).
- `of(state)`: the occupancy of a state `apply` made, or None for any other state (which a caller may still
  change, so nothing is kept for it).

The states made last are kept (`KEPT`: a few tables' latest states); an older state is indexed afresh. A replay
(`replaying()`: undo past the kept states, a restart, an import) keeps none of the states it passes through: only
its last is asked about, and keeping thousands costs more than indexing a state once when it is asked.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from vtt.rules.model import GameState
from vtt.rules.space import OVERLAY_MAX, Occupancy
from vtt.rules.txn import Tx

KEPT = 128
"""States whose occupancy (or what it is made from) is kept, the most recent ones."""


FRESH_UP_TO = 16
"""Boards of at most this many creatures are indexed afresh for each placement check."""

_replaying: ContextVar[bool] = ContextVar("replaying", default=False)


@contextmanager
def replaying() -> Iterator[None]:
    """Within it, `apply` keeps nothing for the states it makes (in this thread or task only)."""
    token = _replaying.set(True)
    try:
        yield
    finally:
        _replaying.reset(token)


class _Made:
    """A state `apply` made: its occupancy, or what it is made from (a base and the creatures changed over it)."""

    __slots__ = ("base", "changed", "occ", "state")

    def __init__(
        self, state: GameState, base: Occupancy | _Made | None, changed: frozenset[str], occ: Occupancy | None = None
    ) -> None:
        self.state = state
        self.base = base
        """The occupancy of an earlier state, or an earlier `_Made` whose own base is an occupancy or None."""
        self.changed = changed
        self.occ = occ

    def occupancy(self) -> Occupancy:
        occ = self.occ
        if occ is None:
            base = self.base
            if isinstance(base, _Made):
                base = base.occupancy()
            occ = Occupancy(self.state) if base is None else Occupancy.over(base, self.state, self.changed)
            self.occ = occ
            self.base = None
        return occ


_made: OrderedDict[int, _Made] = OrderedDict()
"""By the id of the state (held, so the id is not reused while kept); the most recent last."""
_lock = threading.Lock()


def _find(state: GameState, touch: bool = True) -> _Made | None:
    """The kept `_Made` of `state`; with `touch`, now the most recent."""
    key = id(state)
    made = _made.get(key)  # one step under the GIL, as every read here
    if made is None or made.state is not state:
        return None
    if touch:
        with _lock:
            if key in _made:
                _made.move_to_end(key)
    return made


def of(state: GameState) -> Occupancy | None:
    """The occupancy of `state` if `apply` made it (and it is among the last `KEPT`), else None."""
    made = _find(state)
    return None if made is None else made.occupancy()


def for_tx(tx: Tx) -> Occupancy:
    """Where creatures stand in `tx.state` now: the occupancy of the state the command started from, read over the
    creatures the command has replaced so far. Asked again after a creature moves, it answers anew. On a board of
    a few creatures, indexing them all costs less than indexing the state before and reading over it."""
    if len(tx.state.creatures) <= FRESH_UP_TO:
        return Occupancy(tx.state)
    base = tx.origin_occupancy
    if base is None:
        base = of(tx.origin)
        if base is None:  # a state apply did not make: indexed now, as it is
            base = Occupancy(tx.origin)
            _ = base.by_cell
        tx.origin_occupancy = base
    return Occupancy.over(base, tx.state, tx.changed_creatures())


def seal(tx: Tx) -> None:
    """`tx.state` is done (`apply` returns it): keep what its occupancy is made from."""
    if _replaying.get():
        return
    changed = tx.changed_creatures()
    base: Occupancy | _Made | None = tx.origin_occupancy
    if base is None:
        origin = _find(tx.origin, touch=False)  # its successor is what will be asked for
        if origin is not None:
            if origin.occ is not None:
                base = origin.occ
            elif origin.base is None:
                base = origin  # worked out when first asked, then shared
            elif len(origin.changed) + len(changed) <= OVERLAY_MAX:
                base, changed = origin.base, origin.changed | changed
            # else too much has changed since an occupancy was last asked for: it is indexed afresh when asked
    made = _Made(tx.state, base, changed)
    key = id(tx.state)
    with _lock:
        _made[key] = made
        _made.move_to_end(key)
        while len(_made) > KEPT:
            _made.popitem(last=False)


def forget() -> None:
    """Forget every kept state (for benchmarks of a first command, and tests)."""
    with _lock:
        _made.clear()
