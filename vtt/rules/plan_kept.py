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
die or change: each plan holds a snapshot of what it read (`snapshot`: the dicts, lists, limbs, parts and effects
copied), so a caller that changes a creature, the Economy or the effects in place between two Strikes (the same
dicts and lists, `creatures["a"].ailments["Dazzled"] = 3`, a part's `wounded` set) finds them different from what
the plan read. Frozen models (the table settings, weapons) are held as they are: their own fields cannot be set, and
the lists of the settings are read apart (`SETTINGS_LISTS`). The walls of the board are the exception, held as the
set read: the rules replace it, never change it in place, as `Board.filled` (kept by it too) has it.

A state `apply` made or a menu was asked of (`positions.sealed`) is never changed in place, nor is anything it holds:
a plan read from such a state is kept with the objects it read there too (`seen_of`: the settings, the board, the
effects, the Holds, the attacker and the target), and a Strike on another such state holding the very same objects
finds it by them without reading them again (`found_seen`; a target that is another object, hurt by a hit, is
compared by what is read of it). A replay's states and those of the commands sent at the table are all made by `apply`.

A menu reads what its Strikes' plans read of the attacker, the effects, the spaces filled and the settings once for
all of them (`menu_reads`), as the `MenuReads` made before of reads equal to these (a few of each attacker are kept)
or a new one holding a snapshot of them: each plan is then kept by that object, compared by identity alone, with what
it reads of its target and armament (`plan_reads`).

A Strike on a wall or the ground reads the same of the state but for the target: instead, the map's bounds and the
object filling the space, if any (`surface_reads_of`); which other creatures stand on or near the space it does not
read.

The Economy a Strike's Major Action leaves is kept the same way, by what paying reads (`paid_reads`).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Hashable
from collections.abc import Set as AbstractSet
from operator import is_
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from vtt.rules.conditions import holds_of
from vtt.rules.fastmodel import records_reader
from vtt.rules.model import Board, BodyPart, Cell, Creature, Economy, Effect, GameState, Hold, Limb
from vtt.rules.objects import object_at
from vtt.rules.settings import TableSettings
from vtt.rules.turns import resolve_blocks

if TYPE_CHECKING:
    from vtt.rules.strike import Armament

T = TypeVar("T")

ATTACKER_READ = tuple(name for name in Creature.model_fields if name not in ("grit", "energy", "resolve"))
"""What a plan reads of its attacker: every field but its Pools, which damage and actions fill."""
TARGET_READ = ("id", "name", "size", "anchor", "footprint", "prone", "swallowed_by")
"""What a plan reads of its target (its parts too for a Called Shot): where it stands, its size, whether it is Prone
(`ailments.against_target_modifiers`) or swallowed (off the board), and its name for the plan's texts."""
SETTINGS_LISTS = tuple(
    name
    for name, field in TableSettings.model_fields.items()
    if any(kind in str(field.annotation) for kind in ("list[", "dict["))
)
"""The settings' fields that hold a list or a dict: the settings model is frozen, but these can change in place."""
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


_settings_lists = records_reader(TableSettings, SETTINGS_LISTS)


def _each_reader(cls: type[Any]) -> Callable[[list[Any]], list[tuple[Any, ...]]]:
    """A function of a list of `cls` (a model or record changed in place, as a limb or a part) giving each one's
    fields (of `cls.model_fields`, Python identifiers, never data) as a tuple: what is read of them by value, with
    nothing a caller may change held."""
    fields = "".join(f"x.{name}, " for name in cls.model_fields)
    namespace: dict[str, Any] = {}
    exec(f"def read_each_{cls.__name__}(xs):\n    return [({fields}) for x in xs]\n", namespace)
    reader: Callable[[list[Any]], list[tuple[Any, ...]]] = namespace[f"read_each_{cls.__name__}"]
    return reader


READ_EACH = ("limbs", "parts")
"""The attacker's lists of limbs and parts (changed in place: a limb takes a weapon, a part is Wounded), read as
their fields (`_each_reader`), each after the rest of the attacker."""
_limbs_read = _each_reader(Limb)
_parts_read = _each_reader(BodyPart)
_ATTACKER_REST = tuple(name for name in ATTACKER_READ if name not in READ_EACH)
_attacker_read = records_reader(Creature, _ATTACKER_REST)
_attacker_and_target_read = records_reader(Creature, _ATTACKER_REST, TARGET_READ)
"""What a plan reads of its attacker (but its limbs and parts), then of its target, in one call."""
_target_read = records_reader(Creature, TARGET_READ)

Reads = tuple[object, ...]


def reads_of(
    state: GameState, attacker: Creature, target: Creature, filled: AbstractSet[Cell] | None, called_shot: bool
) -> Reads | None:
    """What a plan of `attacker`'s Strike on `target` reads of `state`, given the spaces `filled` (None: those of
    the board, read as the walls and objects `Board.filled` follows from alone, without asking for the spaces;
    `called_shot`: the target's parts too): one tuple of values, compared field by field, each by identity first,
    then by equality; None when it reads more (`reads_two_creatures`): not kept."""
    if not reads_two_creatures(state, attacker):
        return None
    board = state.board
    return (
        state.settings,
        _settings_lists(state.settings),
        (board.walls, board.objects) if filled is None else filled,
        tuple(state.effects),
        _attacker_and_target_read(attacker, target),
        _limbs_read(attacker.limbs),
        _parts_read(attacker.parts),
        _aimed_parts(target) if called_shot else None,
    )


class MenuReads:
    """What every Strike plan of a menu reads of its state but the target and the armament (`menu_reads`): a
    snapshot of it, made once for all that equal it by value (the last few of each attacker), so compared by
    identity alone."""

    __slots__ = ("reads",)

    def __init__(self, reads: Reads) -> None:
        self.reads = reads


MENU_READS_KEPT = 8
"""`MenuReads` kept for each attacker, the most recently used first: a few places and turns of each."""
_menu_reads: dict[str, list[MenuReads]] = {}


def menu_reads(state: GameState, attacker: Creature, filled: AbstractSet[Cell]) -> MenuReads | None:
    """What a menu's plans of `attacker`'s Strikes read of `state` (given the spaces `filled`), but the target and the
    armament (`plan_reads`): every field of the attacker but its Pools (its limbs and parts each field by field), the
    effects, the spaces filled, the settings: the `MenuReads` made before of equal reads if it is still kept, else a
    new one; None when a plan reads more (`reads_two_creatures`): not kept. Read once for all the menu's plans."""
    if not reads_two_creatures(state, attacker):
        return None
    settings = state.settings
    reads = (
        _attacker_read(attacker),  # first: where the attacker stands tells most apart at once
        _limbs_read(attacker.limbs),
        _parts_read(attacker.parts),
        tuple(state.effects),
        filled,
        settings,
        _settings_lists(settings),
    )
    with _lock:
        made = _menu_reads.get(attacker.id)
        if made is None:
            if len(_menu_reads) >= INPUTS_KEPT:
                _menu_reads.clear()
            made = _menu_reads[attacker.id] = []
        for i, was in enumerate(made):
            if was.reads == reads:
                if i:
                    made.insert(0, made.pop(i))
                return was
        new = MenuReads(snapshot(reads))
        made.insert(0, new)
        del made[MENU_READS_KEPT:]
    return new


def plan_reads(menu: MenuReads, target: Creature, arm: Armament) -> Reads:
    """What a menu's plan of a Strike on `target` with `arm` reads of a state whose other reads are `menu`
    (`menu_reads`): which creature the target is, where it stands, its size, name, Prone and swallowing
    (`TARGET_READ`), and the armament's weapon, grips and limb (each field of it)."""
    return (menu, _target_read(target), arm.weapon, arm.grips, None if arm.limb is None else _limb_read(arm.limb))


_limb_read = records_reader(Limb, tuple(Limb.model_fields))


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
        _settings_lists(state.settings),
        (board.walls, board.objects) if filled is None else filled,
        tuple(state.effects),
        _attacker_read(attacker),
        _limbs_read(attacker.limbs),
        _parts_read(attacker.parts),
        board.cols,
        board.rows,
        object_at(board, space) if wall else None,
    )


_kept: dict[Hashable, tuple[_Kept, ...]] = {}
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


_SHARED: set[type] = {str, int, float, bool, type(None), frozenset, bytes, set, MenuReads}
"""Types whose values a snapshot holds as read (and frozen models): nobody changes them in place, but for the set of
the board's walls, which the rules replace and never change in place (`Board.filled` is kept by it too); a
`MenuReads` holds a snapshot already."""


def snapshot(value: Any) -> Any:
    """A copy of `value` (what a plan read) equal to it by `==` and sharing nothing a caller may change in place:
    tuples (but one holding nothing to copy), lists and dicts copied through, other mutable models and records
    copied deeply; values of `_SHARED` types and frozen models held as they are."""
    kind = type(value)
    if kind in _SHARED:
        return value
    if kind is tuple:
        copied = tuple(map(snapshot, value))
        return value if all(map(is_, copied, value)) else copied  # the same tuple: compared by identity first
    if kind is list:
        return list(map(snapshot, value))
    if kind is dict:
        return {key: snapshot(item) for key, item in value.items()}
    if issubclass(kind, BaseModel) and kind.model_config.get("frozen"):
        _SHARED.add(kind)
        return value
    return copy.deepcopy(value)


class _Kept:
    """A plan kept: what it read (a snapshot), the plan, and the objects of a sealed state it was last read from."""

    __slots__ = ("made", "reads", "seen")

    def __init__(self, reads: Reads, made: Any, seen: Seen | None) -> None:
        self.reads = reads
        self.made = made
        self.seen = seen


Seen = tuple[TableSettings, Board, list[Effect], dict[str, Hold], Creature, Creature | None]
"""The objects a plan reads of a sealed state (`seen_of`)."""


def seen_of(state: GameState, attacker: Creature, target: Creature | None) -> Seen:
    """What a Strike's plan reads of a state, as the objects it reads it from: the settings, the board, the list of
    effects, the Holds (whether the attacker is in one, `reads_two_creatures`), the attacker and the target (None: a
    Strike on a surface, whose space is among its inputs). In a state `positions.sealed` none of them is ever changed
    in place, so a plan read from the very same objects reads the same: found without reading them again
    (`found_seen`)."""
    return (state.settings, state.board, state.effects, state.holds, attacker, target)


def found_seen(inputs: Hashable, seen: Seen, called_shot: bool) -> Any:
    """What was kept for `inputs` and last read from the objects `seen` holds (`seen_of` of a sealed state), or None
    (then `found` by value, if `reads_two_creatures`: a plan found here was kept only when it was, and it follows
    from these objects alone). A target that is another object (a hit replaces it) is compared by what a plan reads
    of it (`TARGET_READ`, and its parts for a Called Shot), the rest by identity alone."""
    settings, board, effects, holds, attacker, target = seen
    for kept in _kept.get(inputs, ()):
        was = kept.seen
        if was is None or was[4] is not attacker or was[1] is not board or was[2] is not effects:
            continue
        if was[0] is not settings or was[3] is not holds:
            continue
        if was[5] is target:
            return kept.made
        read_from = was[5]  # held, of a sealed state: unchanged
        if target is None or read_from is None:
            continue
        if _target_read(target) == _target_read(read_from) and (
            not called_shot or _aimed_parts(target) == _aimed_parts(read_from)
        ):
            kept.seen = seen
            return kept.made
    return None


def found(inputs: Hashable, reads: Reads, seen: Seen | None = None) -> Any:
    """What was kept for `inputs` that read what `reads` holds, or None (then `keep` what is worked out). `seen`: the
    objects `reads` was read from, of a sealed state (`seen_of`), kept with the plan found."""
    for kept in _kept.get(inputs, ()):
        if kept.reads == reads:
            if seen is not None:
                kept.seen = seen
            return kept.made
    return None


def keep(inputs: Hashable, reads: Reads, made: T, seen: Seen | None = None) -> T:
    """Keep `made`, worked out for `inputs` from what `reads` holds (a snapshot of it; `seen`: the objects it was
    read from, of a sealed state), and return it."""
    kept = _Kept(snapshot(reads), made, seen)
    with _lock:
        if len(_kept) >= INPUTS_KEPT:
            _kept.clear()
        _kept[inputs] = (kept, *_kept.get(inputs, ())[: PER_INPUTS - 1])
    return made


def forget() -> None:
    """Forget every kept plan (`positions.forget`)."""
    with _lock:
        _kept.clear()
        _menu_reads.clear()
