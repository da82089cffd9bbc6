"""What a creature's drag can do this turn, worked out once when the drag starts (reference §2.5, seed-000).

Every anchor space the creature can reach with the Movement it has left, by the path and at the cost `move`
itself would take and charge (`movement.reachable`, `terrain.step_cost`: Prone crawling, Uneven Ground); the
reachable spaces it may pass but not end a move on (`space.why_cannot_stand`); and for each space where it would
enter another creature's footprint, the Collision it could make there with its exact odds (`odds`), and whether
it may instead simply move in, sharing the space where there is room, and whether the Collision may be a Charge
there (Dash used and 2 consecutive spaces moved by then, `tactics`), with the Charge's odds.

The Collision odds read the board as it is before the move: a rule that would change them because of where the
mover ends up is not foreseen. A creature in a Hold must first get out of it (`held`): its odds are not included.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vtt.rules import ailments, guard, prone, tactics
from vtt.rules.conditions import defense_modifiers, holds_of, melee_attack_modifiers
from vtt.rules.damage import Hit, effective_threshold, needed_face, severe_threshold
from vtt.rules.dice import dice_count
from vtt.rules.events import RuleError
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.movement import COLLISION_DL, reachable
from vtt.rules.odds import DamagePreview, attack_chance, damage_preview
from vtt.rules.sizes import can_overpower, overpower_size_modifier, physical_damage_size_change
from vtt.rules.space import Occupancy, footprint, why_cannot_stand
from vtt.rules.terrain import path_cost
from vtt.rules.turns import refuse_on_full_resolve, require_active, resolve_blocks
from vtt.rules.txn import Tx


@dataclass(frozen=True)
class CollisionPreview:
    """A Collision the mover could make with `target` by entering its space (seed-000, `movement`)."""

    target: str
    name: str
    dice: int
    modifier: int
    dl: int
    defense_skill: str
    defense_dice: int | None
    defense_modifier: int
    chance: float
    charge_chance: float | None
    damage: DamagePreview | None

    def as_json(self) -> dict[str, object]:
        return {
            "target": self.target,
            "name": self.name,
            "dice": self.dice,
            "modifier": self.modifier,
            "dl": self.dl,
            "defense_skill": self.defense_skill,
            "defense_dice": self.defense_dice,
            "defense_modifier": self.defense_modifier,
            "chance": self.chance,
            "charge_chance": self.charge_chance,
            "damage": None if self.damage is None else self.damage.as_json(),
        }


@dataclass
class MovePreview:
    """Where a creature's anchor can go this turn. `cost` is the total Movement to reach each space and `parent`
    the space before it on the path (the start has none); a step costs `cost[space] - cost[parent[space]]`."""

    creature: str
    start: Cell
    movement_left: int
    why_not: str | None = None
    cost: dict[Cell, int] = field(default_factory=dict)
    parent: dict[Cell, Cell] = field(default_factory=dict)
    blocked: dict[Cell, str] = field(default_factory=dict)
    collisions: dict[Cell, list[CollisionPreview]] = field(default_factory=dict)
    charges: set[Cell] = field(default_factory=set)
    held: bool = False
    stand_up: dict[str, object] | None = None

    def path_to(self, cell: Cell) -> list[Cell]:
        """The anchor spaces after the start, in order, that a move to `cell` takes."""
        path: list[Cell] = []
        while cell != self.start:
            path.append(cell)
            cell = self.parent[cell]
        return path[::-1]

    def as_json(self) -> dict[str, object]:
        """A compact form for the map: spaces written "q,r"."""

        def key(c: Cell) -> str:
            return f"{c[0]},{c[1]}"

        return {
            "creature": self.creature,
            "start": key(self.start),
            "movement_left": self.movement_left,
            "why_not": self.why_not,
            "reachable": {key(c): n for c, n in self.cost.items()},
            "paths": {key(c): key(p) for c, p in self.parent.items()},
            "blocked": {key(c): why for c, why in self.blocked.items()},
            "collisions": {
                key(c): {
                    "move_in": c not in self.blocked,
                    "charge": c in self.charges,
                    "targets": [x.as_json() for x in found],
                }
                for c, found in self.collisions.items()
            },
            "held": self.held,
            "stand_up": self.stand_up,
        }


def preview_move(state: GameState, creature_id: str) -> MovePreview:
    """Everything a drag of `creature_id` may do now; `why_not` says why it cannot move at all."""
    c = state.creatures.get(creature_id)
    if c is None:
        raise RuleError(f"there is no creature {creature_id!r}")
    econ = state.economy.get(creature_id)
    left = econ.movement_left if econ is not None else 0
    out = MovePreview(creature=creature_id, start=c.anchor, movement_left=left)
    try:
        require_active(state, creature_id)
        refuse_on_full_resolve(state, creature_id, "move", movement=True)
    except RuleError as e:
        out.why_not = str(e)
        return out
    out.held = bool(holds_of(state, creature_id))
    if c.prone:
        out.stand_up = _stand_up(state, c)
    filled = state.board.filled()
    paths = reachable(state, c, left, filled)
    occ = Occupancy(state)
    may_collide = not resolve_blocks(state, creature_id)
    known: dict[str, CollisionPreview | None] = {}
    charging = econ.consecutive_spaces if econ is not None and econ.dashed else None

    def against(target: str) -> CollisionPreview | None:
        if target not in known:
            known[target] = _collision(state, c, state.creatures[target])
        return known[target]

    for cell, path in paths.items():
        out.cost[cell] = path_cost(state, c, path)
        if not path:
            continue
        out.parent[cell] = path[-2] if len(path) > 1 else c.anchor
        why = why_cannot_stand(state, c, cell, occ, filled)
        if why is not None:
            out.blocked[cell] = why
        if may_collide:
            entered = footprint(state, c, cell)
            found = [x for t in occ.occupants(entered, exclude=c.id) if (x := against(t))]
            if found:
                out.collisions[cell] = found
                if charging is not None and charging + len(path) >= tactics.CHARGE_SPACES:
                    out.charges.add(cell)
    return out


def _stand_up(state: GameState, c: Creature) -> dict[str, object]:
    cost = state.settings.stand_up_cost
    why = prone.why_not_stand_up(state, c)
    movement = prone.stand_up_movement(state, c) if cost == "half_movement" else 0
    return {"pays": cost, "movement": movement, "why_not": why, "per_space_while_prone": prone.space_cost(state, c)}


def _collision(state: GameState, c: Creature, t: Creature) -> CollisionPreview | None:
    """The Collision with `t`, as `movement._collide` would roll it; None when it cannot be made."""
    if t.swallowed_by is not None or not can_overpower(c.size, t.size):
        return None
    s = state.settings
    mods = []
    size_mod = overpower_size_modifier(c.size, t.size)
    if size_mod:
        mods.append(size_mod)
    mods += melee_attack_modifiers(state, c, t)
    mods += tactics.declared_modifiers(state, c, False, False)
    dice = dice_count(c.skill(s.collision_skill), ailments.attack_dice_changes(state, c))
    modifier = sum(m.value for m in mods)
    econ = state.economy.get(c.id)
    charge = sum(m.value for m in tactics.declared_modifiers(state, c, False, True))
    defense_dice: int | None = None
    defense_modifier = 0
    if t.can_act:
        defense_dice = t.skill(s.collision_defense)
        dmods = defense_modifiers(state, t, s.collision_defense, True)
        dmods += ailments.defense_against_modifiers(state, t, c)
        dmods += guard.guard_modifiers(state, t, True, False, None)
        defense_modifier = sum(m.value for m in dmods)

    def chance(plus: int) -> float:
        won = attack_chance(
            dice, modifier + plus, COLLISION_DL, defense_dice, defense_modifier, s.ties_to, s.fumble_always_fails
        )
        return float(won)

    return CollisionPreview(
        target=t.id,
        name=t.name,
        dice=dice,
        modifier=modifier,
        dl=COLLISION_DL,
        defense_skill=s.collision_defense,
        defense_dice=defense_dice,
        defense_modifier=defense_modifier,
        chance=chance(0),
        charge_chance=chance(charge) if econ is not None and econ.dashed else None,
        damage=_collision_damage(state, c, t),
    )


def _collision_damage(state: GameState, c: Creature, t: Creature) -> DamagePreview | None:
    """The Collision's damage dice and likely Injury, as `damage.deal` counts them (None: `t` is Immune)."""
    hit = Hit(target=t.id, amount=state.settings.collision_damage, attacker=c.id, physical=True, apply_size=False)
    if any(kind in t.immunities for kind in hit.types()):
        return None
    tx = Tx(state)
    changes = physical_damage_size_change(c.size, t.size)
    changes += sum(ch.dice for ch in tactics.flurry_damage_changes(state, c))
    threshold = effective_threshold(severe_threshold(tx, t), False)
    if threshold < 0:
        changes -= threshold
    needed, _ = needed_face(tx, hit, t, c)
    return damage_preview(max(0, hit.amount + changes), needed)
