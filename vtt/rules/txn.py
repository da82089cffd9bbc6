"""A copy-on-write transaction over a GameState: `apply` never changes the state it was given.

Only what a command touches is copied, so resolving a Strike on a board of 300 creatures copies two.
"""

from __future__ import annotations

from vtt.rules.dice import Modifier
from vtt.rules.events import RuleError
from vtt.rules.model import Board, BodyPart, Cell, Creature, Economy, GameState, LooseItem, Weapon


def _clone_creature(c: Creature) -> Creature:
    """A copy to change: its dicts and lists are its own; its pools (frozen), limbs and parts are still shared."""
    out = c.model_copy()
    out.limbs = list(c.limbs)
    out.weapons = list(c.weapons)
    out.ailments = dict(c.ailments)
    out.ailment_failures = dict(c.ailment_failures)
    out.ailment_sources = list(c.ailment_sources)
    out.skills = dict(c.skills)
    out.parts = list(c.parts)
    out.continuing = list(c.continuing)
    out.continuing_injury = dict(c.continuing_injury)
    out.continuing_wounded = dict(c.continuing_wounded)
    return out


class Tx:
    def __init__(self, state: GameState) -> None:
        s = state.model_copy()
        s.creatures = dict(state.creatures)
        s.economy = dict(state.economy)
        s.holds = {k: h.model_copy(deep=True) for k, h in state.holds.items()}
        s.effects = list(state.effects)
        s.pending = list(state.pending)
        s.reactions = dict(state.reactions)
        s.turn = state.turn.model_copy(
            update={"entries": list(state.turn.entries), "priority": dict(state.turn.priority)}
        )
        self.state = s
        self._creatures: set[str] = set()
        self._bodies: set[str] = set()
        self._parts: set[tuple[str, str]] = set()
        self._economy: set[str] = set()
        self._board = False
        self.cleared = False
        self.extra_attack_mods: list[Modifier] = []

    def get(self, creature_id: str) -> Creature:
        """A creature to read (may be shared with the old state: do not change it)."""
        try:
            return self.state.creatures[creature_id]
        except KeyError:
            raise RuleError(f"there is no creature {creature_id!r}") from None

    def creature(self, creature_id: str, body: bool = False) -> Creature:
        """A creature to change; with `body`, its limbs and body parts may be changed too."""
        c = self.get(creature_id)
        if creature_id not in self._creatures:
            c = _clone_creature(c)
            self.state.creatures[creature_id] = c
            self._creatures.add(creature_id)
        if body and creature_id not in self._bodies:
            c.limbs = [limb.model_copy() for limb in c.limbs]
            c.parts = [p if (creature_id, p.id) in self._parts else p.model_copy() for p in c.parts]
            self._bodies.add(creature_id)
        return c

    def part(self, creature_id: str, part_id: str) -> BodyPart | None:
        """One body part to change (copied once, alone)."""
        c = self.creature(creature_id)
        key = (creature_id, part_id)
        for i, p in enumerate(c.parts):
            if p.id == part_id:
                if creature_id not in self._bodies and key not in self._parts:
                    p = p.model_copy()
                    c.parts = [*c.parts[:i], p, *c.parts[i + 1 :]]
                    self._parts.add(key)
                return p
        return None

    def board(self) -> Board:
        """The board, to change (copied once)."""
        if not self._board:
            self.state.board = self.state.board.model_copy()
            self._board = True
        return self.state.board

    def drop(self, owner: str, weapon: Weapon, cell: Cell) -> None:
        """An object falls into a space: it lies there for anyone to pick up."""
        board = self.board()
        board.items = [*board.items, LooseItem(weapon=weapon, cell=cell, owner=owner)]

    def economy(self, creature_id: str) -> Economy:
        e = self.state.economy.get(creature_id) or Economy()
        if creature_id not in self._economy:
            e = e.model_copy()
            self.state.economy[creature_id] = e
            self._economy.add(creature_id)
        return e
