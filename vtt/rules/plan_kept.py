"""A Strike's plan kept across the states of a game: reused while what it reads is the same by value.

A Strike on a creature works out its armament, type, plan and reach (`strike._prepare`, and a menu the plan alone,
`strike.plan_creature_strike`) from the attacker, its target, the table settings, the spaces walls and objects fill
(`Board.filled`) and the effects on the state alone, as long as (`reads_two_creatures`):

- creatures do not obstruct (`creatures_obstruct`: else every other creature's spaces count, `strike._geometry`);
- every space of the map is lit (else the light each creature carries and its line of sight count,
  `vision.light_concealment`);
- the attacker is in no Hold (else the other members' sizes and Bulk count, `conditions.encumbered_parts`).

Of the attacker it reads nearly everything (skills, limbs, weapons, ailments, Wounded parts, carried Bulk, Focus):
every field but its Pools is compared. Of the target it reads which creature it is, its name, where it stands and
its size (`TARGET_READ`), and for a Called Shot its parts' size offsets and severing: not its Pools, ailments or
Wounded parts (the damage it took). Nor does it read the Economy (but a Charge's, checked each time), the turn order,
the pending decisions, the rest of the board (the items lying on it) or any other creature.

So the plan is kept with what it was worked out from, and a later state holding the same by value gets it again: A
Strikes B, B takes damage, the turn passes, A Strikes B again. Nothing is kept by the identity of an object that may
die: each plan holds what it is compared with.

A Strike on a wall or the ground reads the same of the state but for the target: instead, the map's bounds and the
object filling the space, if any (`surface_reads_of`); which other creatures stand on or near the space it does not
read.

The Economy a Strike's Major Action leaves is kept the same way, by what paying reads (`paid_reads`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar

from vtt.rules.conditions import holds_of
from vtt.rules.fastmodel import records_reader
from vtt.rules.model import Cell, Creature, Economy, GameState
from vtt.rules.objects import object_at
from vtt.rules.turns import resolve_blocks

T = TypeVar("T")

ATTACKER_READ = tuple(name for name in Creature.model_fields if name not in ("grit", "energy", "resolve"))
"""What a plan reads of its attacker: every field but its Pools, which damage and actions fill."""
TARGET_READ = ("id", "name", "size", "anchor", "footprint", "prone", "swallowed_by")
"""What a plan reads of its target (its parts too for a Called Shot): where it stands, its size, whether it is Prone
(`ailments.against_target_modifiers`) or swallowed (off the board), and its name for the plan's texts."""
PER_INPUTS = 4
"""Plans kept for one set of a Strike's inputs (its creatures, weapon, declarations): a few games' or places'."""
INPUTS_KEPT = 1024
"""Sets of inputs kept; all are dropped when it is full."""


def reads_two_creatures(state: GameState, attacker: Creature) -> bool:
    """Whether a Strike of `attacker` reads no creature of `state` but the attacker and its target (the conditions
    above)."""
    s = state.settings
    if s.creatures_obstruct or s.ambient_light != "lit":
        return False
    light = state.board.light
    if light and any(level != "lit" for level in light.values()):
        return False
    return not state.holds or not holds_of(state, attacker.id)


def _aimed_parts(c: Creature) -> list[tuple[str, str, int, bool]]:
    """What a Called Shot reads of the target's parts (`tactics.called_part`)."""
    return [(p.id, p.name, p.size_offset, p.severed) for p in c.parts]


_attacker_read = records_reader(Creature, ATTACKER_READ)
_attacker_and_target_read = records_reader(Creature, ATTACKER_READ, TARGET_READ)
"""What a plan reads of its attacker, then of its target, in one call."""

Reads = tuple[object, ...]


def reads_of(
    state: GameState,
    attacker: Creature,
    target: Creature,
    filled: AbstractSet[Cell] | None,
    called_shot: bool,
    arm: object = None,
) -> Reads | None:
    """What a plan of `attacker`'s Strike on `target` reads of `state`, given the spaces `filled` (None: those of
    the board, read as the walls and objects `Board.filled` follows from alone, without asking for the spaces;
    `called_shot`: the target's parts too; `arm`: the armament the plan is given, if any): one tuple of values,
    compared field by field, each by identity first, then by equality; None when it reads more
    (`reads_two_creatures`): not kept."""
    if not reads_two_creatures(state, attacker):
        return None
    board = state.board
    return (
        state.settings,
        (board.walls, board.objects) if filled is None else filled,
        tuple(state.effects),
        _attacker_and_target_read(attacker, target),
        _aimed_parts(target) if called_shot else None,
        arm,
    )


def surface_reads_of(
    state: GameState, attacker: Creature, filled: AbstractSet[Cell] | None, space: Cell, wall: bool
) -> Reads | None:
    """What a plan of `attacker`'s Strike on the wall (`wall`) or the ground at `space` reads of `state`: what a plan
    on a creature reads of all but the target (`filled` as there), the map's bounds and the object filling the space
    (its name and size), if any; None when it reads more (`reads_two_creatures`)."""
    if not reads_two_creatures(state, attacker):
        return None
    board = state.board
    return (
        state.settings,
        (board.walls, board.objects) if filled is None else filled,
        tuple(state.effects),
        _attacker_read(attacker),
        board.cols,
        board.rows,
        object_at(board, space) if wall else None,
    )


_kept: dict[Hashable, tuple[tuple[Reads, Any], ...]] = {}
_lock = threading.Lock()


def kept(inputs: Hashable, reads: Reads | None, make: Callable[[], T]) -> T:
    """The plan kept for a Strike's inputs that read what `reads` holds (`reads_of`) of a state no command changes
    any more; else `make`'s, kept unless `reads` is None."""
    if reads is None:
        return make()
    return _kept_for(inputs, reads, make)


def paid_reads(state: GameState, creature_id: str) -> Reads:
    """What paying a Strike's Major Action reads of `state` (`turns.spend`), by which the Economy it leaves the
    creature is kept (under `("paid", creature_id)`): the creature's Economy and whether its Resolve Pool blocks a
    Major Action. A Strike as the turn begins, or after the same steps, pays from the same Economy turn after turn."""
    before = state.economy.get(creature_id)
    return (None if before is None else _economy_read(before), resolve_blocks(state, creature_id))


ECONOMY_READ = tuple(Economy.model_fields)
"""What paying reads of the creature's Economy: every field (the Economy paying leaves is a copy of it)."""
_economy_read = records_reader(Economy, ECONOMY_READ)


def reads_as_paid(state: GameState, creature_id: str, reads: Reads) -> bool:
    """Whether `state` holds what `reads` (`paid_reads` of an earlier state) holds: its Economy read as a tuple and
    compared, without the pair `paid_reads` would build."""
    before = state.economy.get(creature_id)
    economy, blocks = reads
    return (economy is None if before is None else economy == _economy_read(before)) and blocks == resolve_blocks(
        state, creature_id
    )


def _kept_for(inputs: Hashable, reads: Reads, make: Callable[[], T]) -> T:
    """What was kept for `inputs` that read what `reads` holds; else `make`'s, kept."""
    was: T | None = found(inputs, reads)
    return keep(inputs, reads, make()) if was is None else was


def found(inputs: Hashable, reads: Reads) -> Any:
    """What was kept for `inputs` that read what `reads` holds, or None (then `keep` what is worked out)."""
    for was, made in _kept.get(inputs, ()):
        if was == reads:
            return made
    return None


def keep(inputs: Hashable, reads: Reads, made: T) -> T:
    """Keep `made`, worked out for `inputs` from what `reads` holds, and return it."""
    with _lock:
        if len(_kept) >= INPUTS_KEPT:
            _kept.clear()
        _kept[inputs] = ((reads, made), *_kept.get(inputs, ())[: PER_INPUTS - 1])
    return made


def forget() -> None:
    """Forget every kept plan (`positions.forget`)."""
    with _lock:
        _kept.clear()
