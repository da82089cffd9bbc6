"""A copy-on-write transaction over a GameState: `apply` never changes the state it was given.

Only what a command touches is copied, so resolving a Strike on a board of 300 creatures copies two. The state's
dicts of creatures, Economies, Holds and reactions waiting, its lists of effects and pending decisions, its turn
order and its board are copied the first time the command asks to change one of them; a creature, a limb, a body
part, an Economy, a Hold or a part lock likewise (`creature`, `limb`, `part`, `economy`, `hold`, `lock`, `effects`,
`pending`, `reactions`, `turn`, `board`). Everything else stays shared with the state the command started from,
which is why nothing read with `get` or from `state` may be changed in place, and why a rule keeps no local name for
`state.creatures`, `state.economy`, `state.holds`, `state.effects`, `state.pending`, `state.reactions` or
`state.turn` across a change (the name would still be the shared one). A rule replacing one of them with a new list
or dict needs no copy. A creature to change has its own lists of limbs and parts and dict of ailments (`_CLONED`);
its other lists and dicts are only ever replaced, never changed in place (`_REPLACED`), so they stay shared. Its limbs
and body parts themselves stay shared until `limb` or `part` copies one: a Strike that fills a Grit Pool copies no
limb, and a weapon dropped from one hand copies that hand alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from vtt.rules.events import RuleError
from vtt.rules.fastmodel import shallow_copy
from vtt.rules.model import (
    Board,
    BodyPart,
    Cell,
    Creature,
    Decision,
    Economy,
    Effect,
    GameState,
    Hold,
    Limb,
    LooseItem,
    PartLock,
    TurnOrder,
    Weapon,
)
from vtt.rules.records import record_copier
from vtt.rules.situational import Situational

if TYPE_CHECKING:
    from vtt.rules.space import Occupancy

_Piece = TypeVar("_Piece", Limb, BodyPart)


_CLONED = ("limbs", "parts", "ailments")
"""The lists and dicts of a creature that rules change in place (`tx.limb`, `tx.part`, `ailments`): a copy to change
has its own copies of them."""
_REPLACED = (
    "weapons",
    "ailment_failures",
    "ailment_sources",
    "continuing",
    "skills",
    "continuing_injury",
    "continuing_wounded",
)
"""Its lists and dicts that no one changes in place, only replaces with new ones (`m.weapons = [*m.weapons, w]`):
still shared with the creature copied. Changing one of them in place would change the state a command started
from — move such a field to `_CLONED` first."""
_clone_creature = record_copier(Creature, own=_CLONED)
"""A copy to change: the containers of `_CLONED` are its own; its pools (frozen), limbs, parts and the containers
of `_REPLACED` are still shared."""


_copy_part = record_copier(BodyPart)
"""A copy of a body part to change (a hit's Wounded Tiers), sharing nothing that changes in place."""


_copy_state = record_copier(GameState)
"""The state a command makes, as it starts: every field shared with the state the command started from."""
_NONE_YET: frozenset[Any] = frozenset()
"""What a set or dict of a Tx that nothing was put in yet holds (made when first needed)."""


class Tx:
    __slots__ = (
        "_creatures",
        "_economy",
        "_holds",
        "_locks",
        "_owned",
        "_removed",
        "cleared",
        "origin",
        "origin_occupancy",
        "situational",
        "state",
        "strike_given",
    )

    def __init__(self, state: GameState) -> None:
        self.origin = state
        """The state the command started from (never changed)."""
        self.origin_occupancy: Occupancy | None = None
        """Its occupancy, once a rule asked where creatures stand (`positions.for_tx`)."""
        self.state: GameState = _copy_state(state)
        """The state the command makes. Its fields `creatures`, `economy`, `holds`, `turn`, `board`, `effects`,
        `pending` and `reactions` are the origin's own objects until the command asks to change one (then a copy of
        it, this command's own)."""
        self._creatures: set[str] = set()
        self._removed: set[str] | frozenset[str] = _NONE_YET
        self._owned: dict[int, Limb | BodyPart] | frozenset[int] = _NONE_YET
        """The limbs and body parts copied by `limb`, `part` or `creature(body=True)`, by id (each held here, so
        its id stays its own)."""
        self._economy: set[str] | frozenset[str] = _NONE_YET
        """The creatures whose Economy this command owns (copied or made by `economy`, or put)."""
        self._holds: set[str] | frozenset[str] = _NONE_YET
        self._locks: dict[int, PartLock] | frozenset[int] = _NONE_YET
        """The part locks copied by `lock`, by id (each held here, so its id stays its own)."""
        self.cleared = False
        self.situational: tuple[Situational, ...] = ()
        """Modifiers one rule gives later rolls of this command (`vtt.rules.situational`): replaced, never changed
        in place."""
        self.strike_given: GameState | None = None
        """`origin` when this Tx resolves a Strike command `apply` was given (not a probe's, nor one another command
        dispatched): until the Strike changes anything, `state` equals it, so what its menu worked out holds."""

    def _creature_dict(self) -> dict[str, Creature]:
        creatures = self.state.creatures
        if creatures is self.origin.creatures:
            creatures = creatures.copy()
            self.state.creatures = creatures
        return creatures

    def _economy_dict(self) -> dict[str, Economy]:
        economy = self.state.economy
        if economy is self.origin.economy:
            economy = economy.copy()
            self.state.economy = economy
        return economy

    def _hold_dict(self) -> dict[str, Hold]:
        holds = self.state.holds
        if holds is self.origin.holds:
            holds = holds.copy()
            self.state.holds = holds
        return holds

    def get(self, creature_id: str) -> Creature:
        """A creature to read (may be shared with the old state: do not change it)."""
        try:
            return self.state.creatures[creature_id]
        except KeyError:
            raise RuleError(f"there is no creature {creature_id!r}") from None

    def creature(self, creature_id: str, body: bool = False) -> Creature:
        """A creature to change. Its lists and dicts of `_CLONED` are its own (replace, never change in place, those
        of `_REPLACED`); each of its limbs and body parts is still shared until `limb` or `part` copies it. With
        `body`, every limb and part is copied (for a rule that changes them all; one that changes a few asks `limb`
        or `part` for each)."""
        if creature_id in self._creatures:
            c = self.state.creatures[creature_id]
        else:
            try:  # `self.get(creature_id)` without its call
                found = self.state.creatures[creature_id]
            except KeyError:
                raise RuleError(f"there is no creature {creature_id!r}") from None
            c = _clone_creature(found)
            self._creature_dict()[creature_id] = c
            self._creatures.add(creature_id)
        if body:
            c.limbs[:] = [self._own(limb) for limb in c.limbs]
            c.parts[:] = [self._own(part) for part in c.parts]
        return c

    def _own(self, item: _Piece) -> _Piece:
        """`item` if this command copied it already, else a copy of it that is this command's own."""
        if id(item) in self._owned:
            return item
        copied = _copy_part(item) if type(item) is BodyPart else shallow_copy(item)
        owned = self._owned
        if not isinstance(owned, dict):
            owned = self._owned = {}
        owned[id(copied)] = copied
        return copied

    def limb(self, creature_id: str, limb_id: str) -> Limb | None:
        """The creature's limb `limb_id` to change (copied once, alone); None if it has no such limb."""
        return self._own_first(self.creature(creature_id).limbs, limb_id)

    def part(self, creature_id: str, part_id: str) -> BodyPart | None:
        """The creature's body part `part_id` to change (copied once, alone); None if it has no such part."""
        return self.part_of(self.creature(creature_id), part_id)

    def part_of(self, c: Creature, part_id: str) -> BodyPart | None:
        """`part` of `c`, the creature `creature` gave this command to change: its body part `part_id` to change."""
        parts = c.parts
        for i, p in enumerate(parts):  # `_own_first` of a body part, without its calls
            if p.id == part_id:
                if id(p) in self._owned:
                    return p
                copied = parts[i] = _copy_part(p)
                owned = self._owned
                if not isinstance(owned, dict):
                    owned = self._owned = {}
                owned[id(copied)] = copied
                return copied
        return None

    def _own_first(self, items: list[_Piece], item_id: str) -> _Piece | None:
        """The first of `items`, a list of a creature this command changes, with id `item_id`: copied once, in its
        place (`Creature.limb` or `Creature.part` and `own`, in one pass over the list)."""
        for i, x in enumerate(items):
            if x.id == item_id:
                copied = items[i] = self._own(x)
                return copied
        return None

    def own(self, creature_id: str, item: _Piece) -> _Piece:
        """`item`, a limb or body part of the creature as read from it, to change: copied once, in its place."""
        if id(item) in self._owned:
            return item
        c = self.creature(creature_id)
        items: list[Any] = c.limbs if isinstance(item, Limb) else c.parts
        wanted = id(item)
        for i, x in enumerate(items):
            if id(x) == wanted:
                copied = self._own(item)
                items[i] = copied
                return copied
        raise ValueError(f"{item!r} is not a limb or body part of {creature_id}")

    def put_creature(self, creature: Creature) -> None:
        """A creature new to the state, or a whole new sheet for one already in it."""
        self._creature_dict()[creature.id] = creature
        self._creatures.add(creature.id)

    def remove_creature(self, creature_id: str) -> None:
        del self._creature_dict()[creature_id]
        self._creatures.discard(creature_id)
        removed = self._removed
        if not isinstance(removed, set):
            removed = self._removed = set()
        removed.add(creature_id)

    def changed_creatures(self) -> frozenset[str]:
        """The creatures this command has replaced so far: changed, added or removed. Every other creature is the
        same object in the state it started from."""
        if self._removed:
            return frozenset(self._creatures | self._removed)
        return frozenset(self._creatures) if self._creatures else _NONE_YET

    def board(self) -> Board:
        """The board, to change (copied once)."""
        if self.state.board is self.origin.board:
            self.state.board = shallow_copy(self.state.board)
        return self.state.board

    def drop(self, owner: str, weapon: Weapon, cell: Cell) -> None:
        """An object falls into a space: it lies there for anyone to pick up."""
        board = self.board()
        board.items = [*board.items, LooseItem(weapon=weapon, cell=cell, owner=owner)]

    def hold(self, hold_id: str) -> Hold:
        """A Hold to change (copied once, with its own dicts and lists; its part locks stay shared: `lock` replaces
        one to change it)."""
        h = self.state.holds[hold_id]
        if hold_id not in self._holds:
            h = shallow_copy(
                h,
                holders={k: list(v) for k, v in h.holders.items()},
                held=list(h.held),
                extra_encumbered=dict(h.extra_encumbered),
                caused={k: dict(v) for k, v in h.caused.items()},
                locks=list(h.locks),
            )
            self._hold_dict()[hold_id] = h
            self._hold_changed().add(hold_id)
        return h

    def add_hold(self, hold: Hold) -> None:
        """A new Hold, made by this command (so it is this command's to change)."""
        self._hold_dict()[hold.id] = hold
        self._hold_changed().add(hold.id)

    def remove_hold(self, hold_id: str) -> None:
        """The Hold ends: it is no longer in the state."""
        del self._hold_dict()[hold_id]
        self._hold_changed().discard(hold_id)

    def _hold_changed(self) -> set[str]:
        holds = self._holds
        if not isinstance(holds, set):
            holds = self._holds = set()
        return holds

    def lock(self, hold_id: str, lock: PartLock) -> PartLock:
        """One part lock of a Hold, to change (copied once, in the Hold's own list)."""
        hold = self.hold(hold_id)
        if id(lock) in self._locks:
            return lock
        for i, x in enumerate(hold.locks):
            if x is lock:
                copied = shallow_copy(lock)
                hold.locks[i] = copied
                locks = self._locks
                if not isinstance(locks, dict):
                    locks = self._locks = {}
                locks[id(copied)] = copied
                return copied
        raise ValueError(f"the lock {lock!r} is not in Hold {hold_id}")

    def economy(self, creature_id: str) -> Economy:
        """The creature's Economy to change (copied once; a new one if it has none)."""
        if creature_id in self._economy:
            return self.state.economy[creature_id]
        found = self.state.economy.get(creature_id)
        e = Economy() if found is None else shallow_copy(found)
        self._economy_dict()[creature_id] = e
        self._economy_owned().add(creature_id)
        return e

    def put_economy(self, creature_id: str, economy: Economy) -> None:
        """A new Economy for the creature (its turn begins, or it joins one): this command's to change."""
        self._economy_dict()[creature_id] = economy
        self._economy_owned().add(creature_id)

    def share_economy(self, creature_id: str, economy: Economy) -> None:
        """The creature's Economy is `economy`, which other states may hold too: not this command's to change
        (`economy` copies it first)."""
        economies = self.state.economy  # `self._economy_dict()` without its call (every Strike shares one)
        if economies is self.origin.economy:
            economies = self.state.economy = economies.copy()
        economies[creature_id] = economy
        if creature_id in self._economy:
            self._economy_owned().discard(creature_id)

    def remove_economy(self, creature_id: str) -> None:
        if creature_id in self.state.economy:
            del self._economy_dict()[creature_id]
        if creature_id in self._economy:
            self._economy_owned().discard(creature_id)

    def _economy_owned(self) -> set[str]:
        owned = self._economy
        if not isinstance(owned, set):
            owned = self._economy = set()
        return owned

    def effects(self) -> list[Effect]:
        """The list of effects, to change in place (copied once)."""
        effects = self.state.effects
        if effects is self.origin.effects:
            effects = self.state.effects = effects.copy()
        return effects

    def pending(self) -> list[Decision]:
        """The list of pending decisions, to change in place (copied once)."""
        pending = self.state.pending
        if pending is self.origin.pending:
            pending = self.state.pending = pending.copy()
        return pending

    def reactions(self) -> dict[str, dict[str, Any]]:
        """The reactions waiting, by group id, to change in place (copied once)."""
        reactions = self.state.reactions
        if reactions is self.origin.reactions:
            reactions = self.state.reactions = reactions.copy()
        return reactions

    def turn(self) -> TurnOrder:
        """The turn order, to change (copied once, with its own entries and Priority)."""
        turn = self.state.turn
        if turn is self.origin.turn:
            self.state.turn = shallow_copy(turn, entries=list(turn.entries), priority=dict(turn.priority))
        return self.state.turn
