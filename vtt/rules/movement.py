"""Moving, Dash, the Soulweaver's free placement, and Collision (seed-000, reference §2.5).

- Each space moved adds 1 to the Movement spent; the Movement Pool (a table setting) is the limit. Dash, a
  Minor Action once a turn, adds another full pool (reference gap 6).
- Creatures may pass through occupied spaces; a move may only end where the creature fits (see `space`).
- Collision: "As you move into an occupied space, fill your Movement Pool to attack a target in the space to
  cause Collision, DL 3. Modify the damage dealt by the same way the attack roll is modified from size."
  Collision is an Overpower: the full size difference on the roll and on the damage, and no Collision with a
  creature 3 or more sizes larger. The mover ends in that space if it fits there, otherwise in the space before
  it (ASSUMPTION). A Flurry's lost d12 come off its roll and its lost damage dice off its damage. Being an
  Overpower it may be a Charge (`charge`): Dash used this turn and 2 consecutive spaces moved by the time it enters
  the space (this move's spaces count), +1 on the roll, -1 on physical defenses for 1 round, and the turn ends after
  it. It costs no Major Action (it fills the Movement Pool instead), so a Flurry has no Major Action to turn into a
  Minor one for it: there is no Minor Action Collision.
- A creature in a Hold that moves must first get out of it (see `hold`); a failed attempt still spends the
  Movement it tried to use (ASSUMPTION), so it cannot simply roll again for free.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from vtt.rules import ailments, attacks, positions, prone, tactics, terrain
from vtt.rules.checks import AttackResult
from vtt.rules.conditions import holds_of, melee_attack_modifiers
from vtt.rules.damage import Hit, deal
from vtt.rules.dice import DiceChange, DiceSource
from vtt.rules.events import Event, RuleError
from vtt.rules.fastmodel import set_fields
from vtt.rules.hold import check_touch, escape_roll_spec, leave_holds
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.overexertion import overexertion
from vtt.rules.situational import attack_roll
from vtt.rules.sizes import can_overpower, overpower_size_modifier, physical_damage_size_change
from vtt.rules.space import Occupancy, footprint, footprint_offsets, grid_of, why_cannot_pass, why_cannot_stand
from vtt.rules.turns import refuse_on_full_resolve, require_active, resolve_blocks, spend
from vtt.rules.txn import Tx
from vtt.rules.words import count

COLLISION_DL = 3


def _occupancy(tx: Tx) -> Occupancy | None:
    """Where creatures stand in `tx.state` now, for `why_cannot_stand`: read over an index kept for the state the
    command started from; None (each creature's footprint read, `space.scan`) on a board of a few creatures, or when
    no such index is kept (a replay keeps none): one placement check costs less than indexing every creature."""
    if len(tx.state.creatures) <= positions.FRESH_UP_TO:
        return None
    if tx.origin_occupancy is None and positions.of(tx.origin) is None:
        return None
    return positions.for_tx(tx)


def reachable(
    state: GameState, c: Creature, movement: int, filled: AbstractSet[Cell], goal: Cell | None = None
) -> dict[Cell, list[Cell]]:
    """Every anchor space the creature can move to with `movement` Movement, with a cheapest path to each (each
    space costs 1, more while Prone or onto Uneven Ground: see `terrain`); with `goal`, at least the path to it."""
    keep_away = ailments.approach_check(state, c)
    grid = grid_of(state)
    in_bounds, cols, rows = grid.in_bounds, state.board.cols, state.board.rows
    offsets = footprint_offsets(state, c)
    if offsets == ((0, 0),) and keep_away is None:  # the common case, a creature of one space

        def can_pass_one(cell: Cell) -> bool:
            return cell not in filled and in_bounds(cell, cols, rows)

        return terrain.reachable(state, c, movement, filled, can_pass_one, goal)

    def can_pass(cell: Cell) -> bool:
        """`why_cannot_pass` is None (on the map, no wall or object) and nothing keeps it away."""
        q, r = cell
        for dq, dr in offsets:
            spot = (q + dq, r + dr)
            if not in_bounds(spot, cols, rows) or spot in filled:
                return False
        return keep_away is None or keep_away(cell) is None

    return terrain.reachable(state, c, movement, filled, can_pass, goal)


def find_path(state: GameState, c: Creature, goal: Cell, movement: int, filled: AbstractSet[Cell]) -> list[Cell]:
    paths = reachable(state, c, movement, filled, goal)
    if goal not in paths:
        if (why := why_cannot_pass(state, c, goal, filled)) is not None:
            raise RuleError(why)
        keep_away = ailments.approach_check(state, c)
        if keep_away is not None and (why := keep_away(goal)) is not None:
            raise RuleError(why)
        raise RuleError(f"{c.name} cannot reach {goal} with {movement} Movement left")
    return paths[goal]


def check_path(state: GameState, c: Creature, path: list[Cell], filled: AbstractSet[Cell]) -> None:
    grid = grid_of(state)
    prev = c.anchor
    keep_away = ailments.approach_check(state, c)
    for step in path:
        if grid.distance(prev, step) != 1:
            raise RuleError(f"the path jumps from {prev} to {step}")
        if (why := why_cannot_pass(state, c, step, filled)) is not None:
            raise RuleError(why)
        if keep_away is not None and (why := keep_away(step)) is not None:
            raise RuleError(why)
        prev = step


def _plan_collision(state: GameState, c: Creature, path: list[Cell], target_id: str) -> None:
    target = state.creatures.get(target_id)
    if target is None:
        raise RuleError(f"there is no creature {target_id!r}")
    if target_id == c.id:
        raise RuleError(f"{c.name} cannot collide with itself")
    if not path:
        raise RuleError("a Collision needs a move into the target's space")
    entered = set(footprint(state, c, path[-1]))
    if not entered & set(footprint(state, target)):
        raise RuleError(f"the move does not enter {target.name}'s space")
    if not can_overpower(c.size, target.size):
        raise RuleError(f"{target.name} is 3 or more sizes larger: a Collision cannot affect it")


def require_charging_collision(state: GameState, c: Creature, path: list[Cell]) -> None:
    """seed-000 Charge with a Collision: Dash used this turn, and 2 consecutive spaces moved as it enters the space."""
    econ = state.economy.get(c.id)
    if econ is None or not econ.dashed:
        raise RuleError(f"{c.name} has not used Dash this turn: no Charge")
    if econ.consecutive_spaces + len(path) < tactics.CHARGE_SPACES:
        raise RuleError(f"{c.name} will not have moved {tactics.CHARGE_SPACES} consecutive spaces: no Charge")


def move(
    tx: Tx,
    creature: str,
    to: Cell,
    path: list[Cell] | None,
    collide_with: str | None,
    dice: DiceSource,
    charge: bool = False,
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    refuse_on_full_resolve(state, c.id, "move", movement=True)
    econ = tx.economy(c.id)
    left = econ.movement_left
    filled = state.board.filled()
    if path is None:
        path = find_path(state, c, to, left, filled)
    else:
        if not path or path[-1] != to:
            raise RuleError("the path must end at the destination")
        check_path(state, c, path, filled)
    if not path:
        raise RuleError(f"{c.name} is already there")
    need = terrain.path_cost(state, c, path)
    if need > left:
        per_space = prone.space_cost(state, c)
        crawl = f" ({per_space} a space while Prone)" if per_space > 1 else ""
        rough = " (Uneven Ground costs more)" if need > len(path) * per_space else ""
        raise RuleError(f"{c.name} has {left} Movement left, the move needs {need}{crawl}{rough}")
    if collide_with is not None:
        if resolve_blocks(state, c.id):
            raise RuleError(f"{c.name}'s Resolve Pool is full: only Recovery, or the DL 12 Zeal roll; no Collision")
        _plan_collision(state, c, path, collide_with)
        if charge:
            require_charging_collision(state, c, path)
    elif charge:
        raise RuleError("a Charge needs an attack: a move charges only with a Collision")
    elif (why := why_cannot_stand(state, c, to, _occupancy(tx), filled)) is not None:
        raise RuleError(why)
    params: dict[str, object] = {"path": path, "collide_with": collide_with, "charge": charge}
    if holds_of(state, c.id):
        specs = escape_roll_spec(tx, c.id, len(path), dice, params)
        if specs:
            return attacks.resolve(tx, specs[0], dice)
    return _do_move(tx, c.id, path, collide_with, dice, charge, need)


def _do_move(
    tx: Tx,
    creature: str,
    path: list[Cell],
    collide_with: str | None,
    dice: DiceSource,
    charge: bool = False,
    cost: int | None = None,
) -> list[Event]:
    """Move the creature along `path`; `cost` is what the path costs from where it stands, when worked out."""
    state = tx.state
    start = tx.get(creature).anchor
    fell_at, balance = terrain.balance_along(tx, creature, start, path, dice)
    if fell_at is not None:
        return [*balance, *_fall_on_the_way(tx, creature, start, path[: fell_at + 1])]
    econ = tx.economy(creature)
    c = tx.creature(creature)
    final = path[-1]
    events: list[Event] = list(balance)
    if cost is None:
        cost = terrain.path_cost(state, c, path, start)
    if collide_with is not None:
        spent = max(econ.movement_spent + cost, econ.movement_max)
        if why_cannot_stand(state, c, final, _occupancy(tx), state.board.filled()) is not None:
            final = path[-2] if len(path) > 1 else start
    else:
        spent = econ.movement_spent + cost
    set_fields(c, anchor=final)
    set_fields(econ, movement_spent=spent, consecutive_spaces=econ.consecutive_spaces + len(path))
    events.append(
        Event(
            kind="move",
            text=f"{c.name} moves {count(len(path), 'space')} to {final} "
            + (f"(it does not fit in {path[-1]} and stops before it) " if final != path[-1] else "")
            + f"(Movement {econ.movement_spent}/{econ.movement_max}).",
            actor=creature,
            data={"from": start, "to": final, "path": path},
        )
    )
    if collide_with is not None:
        events += _collide(tx, creature, collide_with, dice, charge)
    return events + check_touch(tx)


def _fall_on_the_way(tx: Tx, creature: str, start: Cell, path: list[Cell]) -> list[Event]:
    """A failed Balance roll (see `terrain`): the move ends Prone at the end of `path` (or in the last space of it
    where the creature fits); it pays for the spaces moved; no Collision."""
    state = tx.state
    econ = tx.economy(creature)
    c = tx.creature(creature)
    occ = _occupancy(tx)
    filled = state.board.filled()
    moved = list(path)
    while moved and why_cannot_stand(state, c, moved[-1], occ, filled) is not None:
        moved.pop()
    econ.movement_spent += terrain.path_cost(state, c, moved, start)
    final = moved[-1] if moved else start
    c.anchor = final
    c.prone = True
    econ.consecutive_spaces = 0
    return [
        Event(
            kind="move",
            text=f"{c.name} moves {count(len(moved), 'space')} to {final} and falls Prone there "
            f"(Movement {econ.movement_spent}/{econ.movement_max}).",
            actor=creature,
            data={"from": start, "to": final, "path": moved, "fell": True},
        ),
        Event(kind="prone", text=f"{c.name} falls Prone on the Uneven Ground.", actor=creature, data={"why": "uneven"}),
        *check_touch(tx),
    ]


def _collide(tx: Tx, creature: str, target_id: str, dice: DiceSource, charge: bool = False) -> list[Event]:
    state = tx.state
    c, t = tx.get(creature), tx.get(target_id)
    mods = []
    size_mod = overpower_size_modifier(c.size, t.size)
    if size_mod:
        mods.append(size_mod)
    mods += melee_attack_modifiers(state, c, t)
    mods += tactics.declared_modifiers(state, c, False, charge)
    s = state.settings
    tx.economy(creature).attacked = True
    declared = tactics.declare(tx, creature, False, charge)
    changes = ailments.attack_dice_changes(state, c)
    attack = attack_roll(
        tx, dice, c.id, f"{c.name}: Collision with {t.name}", c.skill(s.collision_skill), mods, changes
    )
    change = physical_damage_size_change(c.size, t.size)
    changes = [DiceChange(dice=change, reason="Collision damage modified by size like the roll")] if change else []
    changes += tactics.flurry_damage_changes(state, c)
    spec = attacks.AttackSpec(
        action="collision",
        attacker=c.id,
        target=target_id,
        dl=COLLISION_DL,
        defense_skill=s.collision_defense,
        attack=attack,
        params={"damage": s.collision_damage, "changes": [ch.model_dump() for ch in changes]},
    )
    return [
        *declared,
        Event(
            kind="collision",
            text=f"{c.name} fills its Movement Pool to collide with {t.name}.",
            actor=c.id,
            target=target_id,
        ),
        *attacks.resolve(tx, spec, dice),
    ]


@attacks.on_result("collision")
def _collision_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    if not result.success:
        return []
    changes = [DiceChange.model_validate(ch) for ch in spec.params["changes"]]
    hit = Hit(
        target=spec.target,
        amount=spec.params["damage"],
        attacker=spec.attacker,
        label=f"{tx.get(spec.attacker).name}'s Collision",
        changes=tuple(changes),
        physical=True,
        apply_size=False,
        attack_faces=spec.attack.faces,
        targeted=True,
    )
    return deal(tx, hit, dice)


@attacks.on_result("hold_move")
def _hold_move_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    name = tx.get(spec.attacker).name
    if not result.success:
        tried = [(int(p[0]), int(p[1])) for p in spec.params["path"]]
        spaces = terrain.path_cost(tx.state, tx.get(spec.attacker), tried)
        tx.economy(spec.attacker).movement_spent += spaces
        return [
            Event(
                kind="move_blocked",
                text=f"{name} fails to get out of the Hold and is not moved; the attempt spends {spaces} Movement.",
                actor=spec.attacker,
            )
        ]
    remaining: list[str] = list(spec.params.get("remaining", []))
    if remaining:
        nxt = spec._replace(target=remaining[0], params={**spec.params, "remaining": remaining[1:]})
        return attacks.resolve(tx, nxt, dice)
    path: list[Cell] = [(int(p[0]), int(p[1])) for p in spec.params["path"]]
    return [
        *leave_holds(tx, spec.attacker),
        *_do_move(tx, spec.attacker, path, spec.params.get("collide_with"), dice, bool(spec.params.get("charge"))),
    ]


def place(tx: Tx, creature: str, to: Cell) -> list[Event]:
    state = tx.state
    c = tx.get(creature)
    if (why := why_cannot_stand(state, c, to, _occupancy(tx))) is not None:
        raise RuleError(why)
    start = c.anchor
    tx.creature(creature).anchor = to
    return [
        Event(
            kind="place",
            text=f"The Soulweaver places {c.name} at {to}.",
            actor=creature,
            data={"from": start, "to": to},
        ),
        *check_touch(tx),
    ]


def dash(tx: Tx, creature: str, dice: DiceSource) -> list[Event]:
    """Dash: a Minor Action adding a full Movement Pool (reference §2.2 ASSUMPTION); while Exhausted it calls for
    an Overexertion roll (reference §5.2 Exhausted FACT, see `overexertion`)."""
    c = require_active(tx.state, creature)
    econ = tx.economy(creature)
    if econ.dashed:
        raise RuleError(f"{c.name} has already Dashed this turn")
    if not tx.state.settings.dash_adds_pool:
        raise RuleError("Dash is turned off at this table")
    spend(tx, creature, minor=1)
    econ = tx.economy(creature)
    pool = tx.state.settings.movement_pool if c.movement_pool is None else c.movement_pool
    econ.dashed = True
    econ.movement_max += pool
    event = Event(
        kind="dash",
        text=f"{c.name} Dashes: Movement Pool {econ.movement_max - econ.movement_spent} spaces left.",
        actor=creature,
    )
    if not ailments.tier(c, "Exhausted"):
        return [event]
    return [
        event,
        *overexertion(tx, creature, f"for Dashing while Exhausted (Tier {ailments.tier(c, 'Exhausted')})", dice),
    ]
