"""Which creatures a step from one state of a game to the next changed, worked out once per step.

A state is never changed once made (`engine.apply` makes a new one and keeps every creature it did not touch as the
same object), so a creature changed between two states exactly when its object is not the same in both; `apply`
records the creatures of each step it makes (`positions.changed`). The table records each step it takes; what is
derived from a state (a seat's view, the map's tokens, the turn order's candidates) is then derived from the step
before plus the creatures the step changed, not from every creature.
"""

from __future__ import annotations

import weakref
from collections import deque

from vtt.rules import positions
from vtt.rules.model import Creature, GameState

STEPS_KEPT = 8
"""How many recent steps a table remembers (a change compares the state before with the one after)."""


class Steps:
    """The last few steps a table took, each with the creatures it changed."""

    def __init__(self, kept: int = STEPS_KEPT) -> None:
        self._steps: deque[tuple[GameState, GameState, frozenset[str]]] = deque(maxlen=kept)

    @property
    def kept(self) -> int:
        """How many steps it remembers."""
        return self._steps.maxlen or 0

    def add(self, before: GameState, after: GameState) -> frozenset[str]:
        """Record a step and return the creatures it changed."""
        changed = positions.changed(before, after)
        self._steps.append((before, after, changed))
        return changed

    def into(self, after: GameState) -> tuple[GameState, frozenset[str]] | None:
        """The latest recorded step that led to `after`: the state before it and the creatures it changed."""
        for before, made, changed in reversed(self._steps):
            if made is after:
                return before, changed
        return None

    def clear(self) -> None:
        self._steps.clear()


_STOMACHS: dict[int, tuple[weakref.ref[GameState], dict[str, list[Creature]]]] = {}
"""Who is in whose stomach, per state still in use (by its id, gone with it)."""


def stomachs(state: GameState) -> dict[str, list[Creature]]:
    """The creatures in each swallower's stomach (by the swallower's id), in the order of the state's creatures;
    worked out once per state for every seat, page and token that asks. Shared: never change it."""
    known = _STOMACHS.get(id(state))
    if known is not None and known[0]() is state:
        return known[1]
    inside: dict[str, list[Creature]] = {}
    for c in state.creatures.values():
        if c.swallowed_by is not None:
            inside.setdefault(c.swallowed_by, []).append(c)
    key = id(state)
    _STOMACHS[key] = (weakref.ref(state, lambda _: _STOMACHS.pop(key, None)), inside)
    return inside
