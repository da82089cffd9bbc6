"""Where creatures stand in each state of a game: one occupancy per state, derived from the state before.

A state `apply` returns is never changed, and it shares every creature with the state its command started from but
the few the command replaced (`Tx.changed_creatures`). `apply` records each state it makes (`seal`) with the state
before and those creatures; nothing more is worked out until someone asks:

- `changed(before, after)`: the creatures a step added, removed or replaced (the table's seat views, `derived`).
- `occupancy(state)`: the occupancy a menu reads, its index of spaces built; for a recorded state it is the state
  before's read over the changed creatures (`Occupancy.over`), not every creature placed again; for another state
  it is derived from a state asked about just before when that holds nearly the same creatures (`derived`), else
  built. What the menu works out from it is kept on it (`kept`, `Occupancy.kept`).
- `for_tx(tx)`: where creatures stand in a command's state as it is now (a placement check).
- `known(state)`: the occupancy already worked out for a state, if any (a Strike reuses the plan its menu made).
- `sealed(state)`: whether `apply` made the state or a menu was asked of it (a Strike finds the plan it keeps across
  states by the objects such a state holds, `plan_kept.found_seen`).

The states recorded or asked about last are kept (`KEPT`, a few tables' recent states); what menus worked out is
kept for the last `RESULTS_KEPT` of them. A replay (`replaying()`: undo past the kept states, a restart, an import)
records none of the states it passes through, only its last step (for `changed`). Every function may be called from
several threads at once.

What is kept here is kept by the state object: a state `apply` made or a menu was asked of is not changed in place
(hand `apply` or `legal_actions` a copy: `shallow_copy(state, creatures=dict(state.creatures))` with the creature
changed replaced, or a deep copy). A creature moved, swallowed or hurt in place in such a state is not seen by its
occupancy (made from the state before and the creatures `apply` replaced), by what its menus worked out (`kept`) or
by a Strike chosen from its menu (which reuses those), nor, on a board of more than `FRESH_UP_TO` creatures, by the
count of watched creatures `start` gives. Checking them by value would mean a pass over every creature for each
command (300 on the benchmark's big boards) and, for a Strike chosen from its menu, comparing what its plan read of
the attacker and target again (the check a Strike on a new state makes, `plan_kept`): several per cent of the Strike.
A state nothing is kept of (a new state, or a copy) is read as it is here; on a board of a few creatures the watched
count is made anew each time, kept state or not. (`plan_kept` keeps a snapshot of what a Strike read: a change made
in place to a creature it read is seen, tests/test_kept_in_place.py.)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import compress
from operator import is_not
from typing import Any, TypeVar

from vtt.rules import board_kept, menu_shared, plan_kept
from vtt.rules.model import GameState
from vtt.rules.space import OVERLAY_MAX, Occupancy
from vtt.rules.txn import Tx

T = TypeVar("T")

KEPT = 128
"""States whose occupancy (or what it is made from) is kept, the most recently used ones."""
RESULTS_KEPT = 8
"""Occupancies handed to menus whose worked-out results (`Occupancy.kept`) are kept, the most recent ones."""
FRESH_UP_TO = 16
"""Boards of at most this many creatures are indexed afresh for each placement check."""
CHANGED_MIN = 8
"""Up to this many changed creatures are always read over the state before's occupancy, on a board of any size."""
CHANGED_MAX_SHARE = 4
"""Above one creature in this many changed (and `CHANGED_MIN`), the occupancy is built anew: deriving costs more."""
DERIVE_FROM = 8
"""How many of the states asked about last a state `apply` did not record is tried against (`derived`)."""

_replaying: ContextVar[bool] = ContextVar("replaying", default=False)
_replayed: ContextVar[tuple[GameState, GameState, frozenset[str]] | None] = ContextVar("replayed", default=None)
"""The last step `apply` made while replaying, in this thread or task: the state before, the state made and the
creatures it changed (`changed` answers for it without a pass over every creature)."""


@contextmanager
def replaying() -> Iterator[None]:
    """Within it, `apply` records nothing for the states it makes (in this thread or task only) but its last step."""
    token = _replaying.set(True)
    step_token = _replayed.set(None)
    try:
        yield
    finally:
        _replayed.reset(step_token)
        _replaying.reset(token)


def scan_changed(before: GameState, after: GameState) -> frozenset[str]:
    """The creatures added, removed or replaced between two states of one game, by a pass over every creature."""
    old, new = before.creatures, after.creatures
    if old is new:
        return frozenset()
    found = set(compress(new, map(is_not, map(old.get, new), new.values())))
    return frozenset(found.union(old.keys() - new.keys()))


class _Entry:
    """A state: the state `apply` made it from and the creatures that step changed; its occupancy, or what it is
    made from (a base and the creatures changed over it)."""

    __slots__ = ("base", "before", "occ", "ordered", "over", "state", "step", "watched")

    def __init__(
        self,
        state: GameState,
        before: GameState | None = None,
        step: frozenset[str] = frozenset(),
        base: Occupancy | _Entry | None = None,
        over: frozenset[str] = frozenset(),
        occ: Occupancy | None = None,
        ordered: bool = False,
    ) -> None:
        self.state = state
        self.before = before
        self.step = step
        """The creatures changed from `before` (exactly those `scan_changed` finds)."""
        self.base = base
        """The occupancy of an earlier state, or an earlier entry whose own base is an occupancy or None."""
        self.over = over
        """The creatures changed since the base's state."""
        self.ordered = ordered
        """Whether the state is known to hold the base's state's creatures in the same order (`Occupancy.over`)."""
        self.occ = occ
        self.watched: int | None = None
        """How many of its creatures are swallowed or hold an Ailment source (`start`), once known."""

    def occupancy(self) -> Occupancy:
        """Its occupancy, worked out now if it was not (with `_lock` held)."""
        occ = self.occ
        if occ is None:
            base = self.base
            if isinstance(base, _Entry):
                base = base.occupancy()
            occ = Occupancy(self.state) if base is None else Occupancy.over(base, self.state, self.over, self.ordered)
            self.occ = occ
            self.base = None
        return occ


_new_entry = _Entry.__new__
_entries: OrderedDict[int, _Entry] = OrderedDict()
"""By the id of the state (held, so the id is not reused while kept); the most recently used last."""
_results: OrderedDict[int, Occupancy] = OrderedDict()
"""The occupancies handed to menus, by id (held); the most recent last."""
_lock = threading.Lock()
"""Held by whoever adds to or removes from `_entries` or `_results`, or works out an entry's occupancy; but `seal`,
which adds the state its thread made, one step under the GIL, and `_find`, which reorders."""


def _find(state: GameState) -> _Entry | None:
    """The entry of `state`, now the most recently used."""
    key = id(state)
    entry = _entries.get(key)  # one step under the GIL, as every read here
    if entry is None or entry.state is not state:
        return None
    # Without `_lock`: one step under the GIL too (no Python code runs in it), only reordering the entries; a
    # `contextlib.suppress` would cost more than the step.
    try:  # noqa: SIM105
        _entries.move_to_end(key)
    except KeyError:  # pushed out or forgotten meanwhile by another thread
        pass
    return entry


def _keep(entry: _Entry) -> None:
    """Keep `entry` as the most recently used (with `_lock` held; `seal` adds without it, each of its steps one step
    under the GIL, so an entry seen here may be gone at the next)."""
    key = id(entry.state)
    _entries.pop(key, None)  # asked about while it was made: now the most recent
    _entries[key] = entry
    _drop_oldest()


def _drop_oldest() -> None:
    """Forget the least recently used states beyond `KEPT`."""
    while len(_entries) > KEPT:
        try:
            _entries.popitem(False)  # `last=False`, without parsing a keyword
        except KeyError:  # emptied meanwhile by another thread (`forget`)
            return


def changed(before: GameState, after: GameState) -> frozenset[str]:
    """The creatures added, removed or replaced between two states of one game: recorded by `apply` when it made
    `after` from `before` (or, replaying, when it was the last step), else found by a pass over every creature."""
    entry = _entries.get(id(after))
    if entry is not None and entry.state is after and entry.before is before:
        return entry.step
    replayed = _replayed.get()
    if replayed is not None and replayed[1] is after and replayed[0] is before:
        return replayed[2]
    return scan_changed(before, after)


def _few(count: int, state: GameState) -> bool:
    """Whether `count` changed creatures are few enough for an occupancy to be read over the state before's."""
    return count <= max(CHANGED_MIN, len(state.creatures) // CHANGED_MAX_SHARE)


def derived(old: GameState, old_occ: Occupancy, new: GameState) -> Occupancy | None:
    """The occupancy of `new` read over `old_occ` (the occupancy of `old`), its index built; or None when `new` does
    not hold the same creatures as `old` in the same order, most of them unchanged (another game, a map loaded, a
    creature added or removed: then it is built anew)."""
    if old_occ._state is not old:
        return None
    before, after = old.creatures, new.creatures
    if len(before) != len(after) or list(before) != list(after):
        return None
    step = changed(old, new)
    if not _few(len(step), new):
        return None
    occ = Occupancy.over(old_occ, new, step, True)
    _ = occ.by_cell
    return occ


def occupancy(state: GameState) -> Occupancy:
    """The occupancy of `state` with its index of spaces built, worked out once for the state (the menus of every
    creature asked of it share it)."""
    with _lock:
        entry = _find(state)
        if entry is None:
            entry = _Entry(state, occ=_from_recent(state))
            _keep(entry)
        occ = entry.occupancy()
        _ = occ.by_cell
        key = id(occ)
        _results[key] = occ
        _results.move_to_end(key)
        while len(_results) > RESULTS_KEPT:
            _results.popitem(last=False)[1].kept.clear()
    return occ


def _from_recent(state: GameState) -> Occupancy:
    """The occupancy of a state `apply` did not record: derived from a state asked about just before (the most
    recent first), else built."""
    tried = 0
    for entry in reversed(list(_entries.values())):  # a copy: `_find` reorders without the lock, and iterating an
        # OrderedDict reordered meanwhile would raise; `list` copies it in one step under the GIL (no Python code)
        occ = entry.occ
        if occ is None or occ._by_cell is None:
            continue
        found = derived(entry.state, occ, state)
        if found is not None:
            return found
        tried += 1
        if tried >= DERIVE_FROM:
            break
    occ = Occupancy(state)
    _ = occ.by_cell
    return occ


def known(state: GameState) -> Occupancy | None:
    """The occupancy worked out for `state` already (by a menu or a rule), if any; nothing is worked out here. The
    state is now the most recently used: the states `apply` makes from it do not push it out."""
    entry = _find(state)
    return None if entry is None else entry.occ


def of(state: GameState) -> Occupancy | None:
    """The occupancy of `state` if it is kept (recorded by `apply`, or asked of by a menu), else None."""
    entry = _find(state)
    if entry is None:
        return None
    occ = entry.occ
    if occ is None:
        with _lock:
            occ = entry.occupancy()
    return occ


def for_tx(tx: Tx) -> Occupancy:
    """Where creatures stand in `tx.state` now: the occupancy of the state the command started from, read over the
    creatures the command has replaced so far. Asked again after a creature moves, it answers anew. On a board of
    a few creatures, indexing them all costs less than indexing the state before and reading over it."""
    if len(tx.state.creatures) <= FRESH_UP_TO:
        return Occupancy(tx.state)
    base = tx.origin_occupancy
    if base is None:
        base = of(tx.origin)
        if base is None:  # a state apply did not make: indexed now, as it is (its maker may still change it)
            base = Occupancy(tx.origin)
            _ = base.by_cell
        tx.origin_occupancy = base
    return Occupancy.over(base, tx.state, tx.changed_creatures())


def seal(tx: Tx, watched_count: int | None = None) -> None:
    """`tx.state` is done (`apply` returns it): record the step that made it, what its occupancy is made from and
    how many of its creatures are watched if known (`start`) (replaying, the step alone, in place of the last)."""
    state, origin = tx.state, tx.origin
    old, new = origin.creatures, state.creatures
    step = _NO_STEP
    ordered = True  # the same creatures in the same order: each one replaced in its place, none added or removed
    if old is not new:  # a creature was replaced; one put back as the very object it was is no change
        replaced = tx._creatures
        if tx._removed:
            replaced = replaced | tx._removed
            ordered = False
        for cid in replaced:
            if old.get(cid) is new.get(cid):
                step = frozenset(cid for cid in replaced if old.get(cid) is not new.get(cid)) or _NO_STEP
                break
        else:  # each one replaced, as nearly always: the set as it is, without a list to build it from
            step = frozenset(replaced) if replaced else _NO_STEP
    if _replaying.get():
        _replayed.set((origin, state, step))
        return
    if ordered:
        for cid in step:
            if cid not in old:  # added
                ordered = False
                break
    over = step
    base: Occupancy | _Entry | None = tx.origin_occupancy
    if base is None:
        found = _entries.get(id(origin))  # as `_find(origin)` but not touched: its successor is what will be asked for
        if found is not None and found.state is origin:
            if found.occ is not None:
                base = found.occ
            elif found.base is None:
                base = found  # worked out when first asked, then shared
            elif len(found.over) + len(step) <= OVERLAY_MAX:
                base, over, ordered = found.base, found.over | step, ordered and found.ordered
            # else too much has changed since an occupancy was last asked for: it is built when asked
    if base is not None and len(over) > CHANGED_MIN and not _few(len(over), state):
        base = None
    entry = _new_entry(_Entry)  # as `_Entry(state, origin, step, base, over)`, without a call of its __init__
    entry.state, entry.before, entry.step, entry.base, entry.over, entry.occ = state, origin, step, base, over, None
    entry.ordered = ordered
    entry.watched = watched_count
    key = id(state)
    if key in _entries:  # asked about while it was made (rare): now the most recent
        with _lock:
            _keep(entry)
        return
    _entries[key] = entry  # `_keep(entry)` without `_lock`: only this thread makes `state`
    if len(_entries) > KEPT:
        try:  # noqa: SIM105 (`_drop_oldest()` without its call: one state added, one to push out)
            _entries.popitem(False)  # `last=False`, without parsing a keyword
        except KeyError:  # emptied meanwhile by another thread (`forget`)
            pass


_NO_STEP: frozenset[str] = frozenset()


def start(tx: Tx) -> int | None:
    """A command starts from `tx.origin`: how many of its creatures are swallowed or hold an Ailment source (what
    `apply`'s checks and after-command rules act on: with none, they have nothing to refuse or end), as `apply`
    recorded it for a state of more it made (`seal`), counted once for another such state kept (a menu was asked of
    it) and each time for a state of a few creatures (`FRESH_UP_TO`), kept or not; None for a state of more that
    nothing is kept of (the checks cost less than a count). Its occupancy, if worked out, is handed to `tx` on the
    way: a placement check (`for_tx`) and `seal` read it without a search. The state is now the most recently used
    (`_find`): a state commands are given again and again (the table's, while the Soulweaver drags tokens from it)
    is not pushed out by the states they make, and its placement checks keep reading its occupancy."""
    state = tx.origin
    entry = _find(state)
    few = len(state.creatures) <= FRESH_UP_TO
    if entry is not None:
        tx.origin_occupancy = entry.occ
        if few:  # counted as it is now: a caller may have swallowed a creature in place since it was kept
            return _count_watched(state)
        count = entry.watched
        if count is None:
            count = entry.watched = _count_watched(state)
        return count
    return _count_watched(state) if few else None


def _count_watched(state: GameState) -> int:
    count = 0
    for c in state.creatures.values():
        if c.swallowed_by is not None or c.ailment_sources:
            count += 1
    return count


def kept(occ: Occupancy, key: tuple[Hashable, ...], make: Callable[[], T]) -> T:
    """What `make` works out from the state of `occ` alone, made once for that state. Shared by every menu asked of
    it: not to be changed (hand out a copy of a list)."""
    found: Any = occ.kept.get(key, _NONE)
    if found is _NONE:
        found = occ.kept[key] = make()
    return found  # type: ignore[no-any-return]


_NONE = object()


def forget() -> None:
    """Forget every kept state, what is kept for boards (`board_kept`), the Strikes' plans (`plan_kept`) and the
    options shared by menus (`menu_shared`): for benchmarks of a first call, and tests comparing with a computation
    from scratch."""
    with _lock:
        _entries.clear()
        _results.clear()
    board_kept.forget()
    plan_kept.forget()
    menu_shared.forget()


def sealed(state: GameState) -> bool:
    """Whether `state` is one `apply` made (recorded, or the last step of a replay) or a menu was asked of: by the
    contract above, neither it nor anything it holds (its creatures, their limbs and parts, its Economy, effects,
    settings, board) is changed in place, so what was read of an object it holds holds for as long as the object
    lives (`plan_kept` finds a plan by such objects, `strike._prepare`)."""
    entry = _entries.get(id(state))
    if entry is not None and entry.state is state:
        return True
    replayed = _replayed.get()
    return replayed is not None and replayed[1] is state
