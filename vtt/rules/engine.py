"""The engine API: `legal_actions`, `apply`, `replay`.

- `legal_actions(state, creature_id)` lists every action the creature may take now, each with its legal
  targets or spaces, its cost and a preview of the roll (dice and each modifier with its reason). The token
  menu is exactly this list.
- `apply(state, command, dice) -> (state, events)` resolves one command without changing `state`; a command
  the rules do not allow raises `RuleError` naming why.
- `replay(initial, log)` folds `apply` over a command log with the dice faces each command used: the state
  after N commands is rebuilt exactly, which is what undo and crash recovery stand on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from vtt.rules import care, hold, movement, reactions, strike, targeted, turns
from vtt.rules.attacks import answer_defense
from vtt.rules.commands import (
    Begin,
    ChooseOrder,
    Command,
    Dash,
    Defend,
    DropHold,
    EditCreature,
    EndTurn,
    Grab,
    Harm,
    Heal,
    Move,
    Place,
    React,
    Recover,
    Soothe,
    Strike,
    StrikeSpace,
    ZealForMajor,
    parse_command,
)
from vtt.rules.dice import DiceChange, DiceSource, Modifier, ScriptedDice
from vtt.rules.events import Event, RuleError
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.sizes import can_overpower
from vtt.rules.space import Occupancy, footprint, grid_of, why_cannot_stand
from vtt.rules.txn import Tx

Group = Literal["Move", "Strike", "Overpower", "Tactics", "Defense", "Manifest", "Turn"]


class RollPreview(BaseModel):
    label: str
    skill: str
    dice: int
    dice_changes: list[DiceChange] = Field(default_factory=list)
    modifiers: list[Modifier] = Field(default_factory=list)
    dl: int | None = None
    defense_skill: str | None = None


class TargetOption(BaseModel):
    target: str | None = None
    space: Cell | None = None
    preview: RollPreview | None = None
    path: list[Cell] = Field(default_factory=list)
    note: str = ""


class ActionOption(BaseModel):
    action: str
    group: Group
    label: str
    cost: dict[str, int] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict)
    targets: list[TargetOption] = Field(default_factory=list)
    spaces: list[Cell] = Field(default_factory=list)
    reach: int | None = None


def apply(state: GameState, command: Command | dict[str, Any], dice: DiceSource) -> tuple[GameState, list[Event]]:
    """Resolve one command; the given state is never changed."""
    cmd = parse_command(command) if isinstance(command, dict) else command
    if state.pending and not isinstance(cmd, Defend | ChooseOrder | React):
        raise RuleError(f"the table waits for a decision first: {state.pending[0].prompt}")
    tx = Tx(state)
    events = _begin(tx, cmd, dice)
    tx.state.version = state.version + 1
    return tx.state, events


def _decision(tx: Tx, decision_id: str, kind: str) -> Any:
    for d in tx.state.pending:
        if d.id == decision_id:
            if d.kind != kind:
                raise RuleError(f"decision {decision_id} is not a {kind} decision")
            return d
    raise RuleError(f"there is no pending decision {decision_id!r}")


def _begin(tx: Tx, cmd: Command, dice: DiceSource) -> list[Event]:
    """A command that triggers reactions is checked in full, then waits for them; any other goes on at once."""
    found = reactions.trigger(tx.state, cmd)
    if found is not None:
        kind, actor, target = found
        reactions.probe(lambda: Tx(tx.state), cmd, _dispatch)
        hinderers = reactions.eligible(tx.state, kind, actor, target, cmd)
        if hinderers:
            return reactions.open_group(tx, cmd, kind, actor, hinderers)
    return _dispatch(tx, cmd, dice)


def _dispatch(tx: Tx, cmd: Command, dice: DiceSource) -> list[Event]:
    match cmd:
        case Begin():
            return turns.begin(tx, dice)
        case EndTurn():
            return turns.end_turn(tx, dice)
        case Move():
            return movement.move(tx, cmd.creature, cmd.to, cmd.path, cmd.collide_with, dice)
        case Place():
            return movement.place(tx, cmd.creature, cmd.to)
        case Dash():
            return movement.dash(tx, cmd.creature)
        case Strike():
            return strike.strike(
                tx,
                cmd.creature,
                cmd.target,
                cmd.space,
                cmd.surface,
                cmd.weapon,
                cmd.limb,
                cmd.nimble,
                dice,
                cmd.strike_type,
                cmd.max_dice,
            )
        case StrikeSpace():
            return targeted.strike_space(tx, cmd.creature, cmd.space, cmd.weapon, cmd.limb, dice, cmd.strike_type)
        case Grab():
            return hold.grab(tx, cmd.creature, cmd.target, cmd.limb, dice)
        case DropHold():
            return hold.drop_hold(tx, cmd.creature)
        case Defend():
            return answer_defense(tx, _decision(tx, cmd.decision, "defense"), cmd.roll, dice)
        case React():
            return reactions.answer(tx, _decision(tx, cmd.decision, "reaction"), cmd.hinder, dice, _dispatch)
        case ChooseOrder():
            return targeted.choose_order(tx, _decision(tx, cmd.decision, "order"), cmd.order, dice)
        case Harm():
            return care.harm(tx, cmd.target, cmd.amount, cmd.physical, cmd.element, cmd.pool, cmd.part, dice)
        case Heal():
            return care.heal_by_hand(tx, cmd.target, cmd.amount, cmd.kind, cmd.pool, dice)
        case ZealForMajor():
            return care.zeal_for_major(tx, cmd.creature, dice)
        case Recover():
            return care.recover(tx, cmd.creature)
        case Soothe():
            return care.soothe(tx, cmd.creature, cmd.target, dice)
        case EditCreature():
            return edit_creature(tx, cmd.creature, cmd.changes)
    raise RuleError(f"unknown command {cmd!r}")


EDITABLE = frozenset(
    {
        "name",
        "size",
        "skills",
        "grit",
        "energy",
        "resolve",
        "ailments",
        "prone",
        "color",
        "controller",
        "movement_pool",
        "minor_actions",
        "bulk",
        "gear_bulk",
        "footprint",
    }
)


def edit_creature(tx: Tx, creature_id: str, changes: dict[str, Any]) -> list[Event]:
    """The Soulweaver edits a sheet; every value is validated by the Creature model."""
    c = tx.get(creature_id)
    bad = sorted(set(changes) - EDITABLE)
    if bad:
        raise RuleError(f"these fields cannot be edited: {', '.join(bad)}")
    try:
        edited = Creature.model_validate({**c.model_dump(), **changes})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise RuleError(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    if "size" in changes or "footprint" in changes:
        occ = Occupancy(tx.state)
        if (why := why_cannot_stand(tx.state, edited, edited.anchor, occ)) is not None:
            raise RuleError(why)
    tx.state.creatures[creature_id] = edited
    tx._creatures.add(creature_id)
    fields = ", ".join(sorted(changes))
    return [
        Event(
            kind="edit",
            text=f"The Soulweaver edits {edited.name}: {fields}.",
            target=creature_id,
            data={"changes": changes},
        )
    ]


class LogEntry(BaseModel):
    command: dict[str, Any]
    faces: list[int] = Field(default_factory=list)


def replay(initial: GameState, log: Iterable[LogEntry]) -> tuple[GameState, list[Event]]:
    """Rebuild the state from the start and the log; each command must use exactly its recorded faces."""
    state, events = initial, []
    for i, entry in enumerate(log):
        dice = ScriptedDice(entry.faces)
        state, evs = apply(state, entry.command, dice)
        if dice.remaining:
            raise RuleError(f"log entry {i} left {dice.remaining} recorded face(s) unused")
        events += evs
    return state, events


def _preview(plan: strike.AttackPlan) -> RollPreview:
    return RollPreview(
        label=plan.label,
        skill=plan.skill,
        dice=plan.dice,
        modifiers=plan.modifiers,
        dl=plan.dl,
        defense_skill=plan.defense_skill,
    )


def legal_actions(state: GameState, creature_id: str) -> list[ActionOption]:
    """Every action `creature_id` may take now, with targets, costs and roll previews."""
    c = state.creatures.get(creature_id)
    if c is None or state.pending or not turns.is_active(state, creature_id):
        return []
    econ = state.economy.get(creature_id)
    if econ is None:
        return []
    if not c.can_act:
        return [ActionOption(action="end_turn", group="Turn", label="End turn", cost={})]
    occ = Occupancy(state)
    filled = state.board.filled()
    out: list[ActionOption] = []
    grid = grid_of(state)

    if econ.movement_left > 0:
        paths = movement.reachable(state, c, econ.movement_left, filled)
        spaces = [cell for cell, p in paths.items() if p and why_cannot_stand(state, c, cell, occ, filled) is None]
        out.append(ActionOption(action="move", group="Move", label="Move", cost={"movement": 1}, spaces=spaces))
        collide: list[TargetOption] = []
        for cell, p in paths.items():
            if not p:
                continue
            for oid in occ.occupants(footprint(state, c, cell), exclude=c.id):
                t = state.creatures[oid]
                if can_overpower(c.size, t.size) and not any(o.target == oid for o in collide):
                    collide.append(TargetOption(target=oid, space=cell, path=p))
        if collide and not turns.resolve_blocks(state, creature_id):
            out.append(
                ActionOption(
                    action="collision",
                    group="Overpower",
                    label="Collision (move into them)",
                    cost={"movement": econ.movement_left},
                    targets=collide,
                )
            )
    full_resolve = turns.resolve_blocks(state, creature_id)
    if full_resolve:
        if econ.minor > 0 and not econ.major_unlocked:
            out.append(
                ActionOption(action="zeal_for_major", group="Turn", label="Zeal roll to act (DL 12)", cost={"minor": 1})
            )
        if econ.major > 0:
            out.append(ActionOption(action="recover", group="Turn", label="Recovery", cost={"major": 1}))
    if econ.minor > 0 and not econ.dashed and state.settings.dash_adds_pool and not full_resolve:
        out.append(ActionOption(action="dash", group="Move", label="Dash", cost={"minor": 1}))

    if econ.major > 0 and (not full_resolve or econ.major_unlocked):
        arms: list[tuple[str | None, str | None]] = [(w.id, None) for w in c.weapons]
        arms += [(None, limb.id) for limb in c.limbs if limb.free]
        seen_unarmed = False
        for wid, lid in arms:
            try:
                arm = strike.armament(state, c, wid, lid)
            except RuleError:
                continue
            if arm.weapon is None:
                if seen_unarmed:
                    continue
                seen_unarmed = True
            rng = strike.arm_reach(state, c, arm)
            targets: list[TargetOption] = []
            area = grid.area_within(occ.cells[c.id], rng)
            for oid in occ.occupants(list(area), exclude=c.id):
                try:
                    plan = strike.plan_creature_strike(state, occ, c, state.creatures[oid], arm, False, filled)
                except RuleError:
                    continue
                targets.append(TargetOption(target=oid, preview=_preview(plan), path=plan.path))
            label = f"Strike with {arm.name}" if arm.weapon else "Unarmed Strike"
            params = {"weapon": wid} if wid else {"limb": None}
            out.append(
                ActionOption(
                    action="strike",
                    group="Strike",
                    label=label,
                    cost={"major": 1},
                    params=params,
                    targets=targets,
                    reach=rng,
                )
            )
            spaces = [
                cell for cell in area if cell not in filled and grid.in_bounds(cell, state.board.cols, state.board.rows)
            ]
            out.append(
                ActionOption(
                    action="strike_space",
                    group="Strike",
                    label=f"Strike a space ({arm.name})",
                    cost={"major": 1},
                    params=params,
                    spaces=sorted(spaces),
                    reach=rng,
                )
            )
            walls = sorted(cell for cell in area if cell in filled)
            if walls:
                out.append(
                    ActionOption(
                        action="strike_wall",
                        group="Strike",
                        label=f"Strike a wall ({arm.name})",
                        cost={"major": 1},
                        params=params,
                        spaces=walls,
                        reach=rng,
                    )
                )
        grab_targets: list[TargetOption] = []
        limbs = hold.grab_limbs(c)
        if limbs:
            rng = max(hold.grab_reach(c, lb) for lb in limbs)
            for oid in occ.occupants(list(grid.area_within(occ.cells[c.id], max(rng, 0))), exclude=c.id):
                try:
                    gp = hold.plan_grab(state, occ, c, state.creatures[oid], None, filled)
                except RuleError:
                    continue
                s = state.settings
                grab_targets.append(
                    TargetOption(
                        target=oid,
                        path=gp.path,
                        preview=RollPreview(
                            label=f"{c.name}: Grab",
                            skill=s.grab_skill,
                            dice=c.skill(s.grab_skill),
                            modifiers=gp.modifiers,
                            dl=s.grab_dl,
                            defense_skill=s.grab_defense,
                        ),
                    )
                )
            out.append(
                ActionOption(
                    action="grab",
                    group="Strike",
                    label="Grab",
                    cost={"major": 1},
                    targets=grab_targets,
                    reach=rng,
                )
            )
    if any(creature_id in h.holders for h in state.holds.values()):
        out.append(ActionOption(action="drop_hold", group="Overpower", label="Stop holding", cost={}))
    out.append(ActionOption(action="end_turn", group="Turn", label="End turn", cost={}))
    return out


def parse_log(entries: Sequence[dict[str, Any]]) -> list[LogEntry]:
    return [LogEntry.model_validate(e) for e in entries]
