"""The creatures the Soulweaver may add to the turn order: able to act, and in it not yet.

Kept per table and brought up to date from each step's changed creatures (`Table.steps`), so that a change asks
nothing of the creatures it did not touch; looked for among every creature only when the creatures that qualify
change (a creature falls, joins the order, is added or renamed) or the state is not the next step of the one known.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Protocol

from vtt.rules.model import GameState
from vtt.table.state_steps import Steps


class Stepped(Protocol):
    """A table as far as this module reads it: its current state and its last steps."""

    state: GameState
    steps: Steps


Candidates = tuple[tuple[str, str], ...]
"""(creature id, name) in the order of the state's creatures."""


def _qualifies(state: GameState, entries: frozenset[str], creature_id: str) -> bool:
    c = state.creatures.get(creature_id)
    return c is not None and c.can_act and creature_id not in entries


class OrderCandidates:
    """One table's candidates for its current state (`of`)."""

    def __init__(self) -> None:
        self._state: GameState | None = None
        self._entries: frozenset[str] = frozenset()
        self._ids: set[str] = set()
        self._listed: Candidates = ()

    def of(self, table: Stepped) -> Candidates:
        """The candidates in the table's current state: the same tuple as before when they did not change."""
        state = table.state
        if state is self._state:
            return self._listed
        step = table.steps.into(state)
        known = self._state
        if known is None or step is None or step[0] is not known:
            self._rebuild(state)
            return self._listed
        entries = self._entries if state.turn.entries == known.turn.entries else frozenset(state.turn.entries)
        looked = set(step[1]) | (entries ^ self._entries)
        # An undo may lead to a state whose creatures stand in another order (one taken out and put back): a list
        # of their ids is compared, not looked through.
        moved = len(self._ids) > 1 and list(state.creatures) != list(known.creatures)
        if self._update(known, state, entries, looked) or moved:
            self._listed = tuple((cid, c.name) for cid, c in state.creatures.items() if cid in self._ids)
        self._state, self._entries = state, entries
        return self._listed

    def _rebuild(self, state: GameState) -> None:
        self._state = state
        self._entries = frozenset(state.turn.entries)
        self._ids = {cid for cid in state.creatures if _qualifies(state, self._entries, cid)}
        self._listed = tuple((cid, c.name) for cid, c in state.creatures.items() if cid in self._ids)

    def _update(self, before: GameState, after: GameState, entries: frozenset[str], looked: Iterable[str]) -> bool:
        """Look at these creatures again; whether the list changed (a candidate came or went, or was renamed)."""
        changed = False
        for cid in looked:
            now = _qualifies(after, entries, cid)
            if now != (cid in self._ids):
                changed = True
                if now:
                    self._ids.add(cid)
                else:
                    self._ids.discard(cid)
            elif now:
                was = before.creatures.get(cid)
                changed = changed or was is None or was.name != after.creatures[cid].name
        return changed


_KNOWN: weakref.WeakKeyDictionary[Stepped, OrderCandidates] = weakref.WeakKeyDictionary()


def order_candidates(table: Stepped) -> Candidates:
    """The creatures the Soulweaver may add to the table's turn order now, shared by the Soulweaver's pages."""
    known = _KNOWN.get(table)
    if known is None:
        known = _KNOWN[table] = OrderCandidates()
    return known.of(table)
