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

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError

from vtt.rules import (
    ailments,
    board_edit,
    burning,
    called_trauma,
    care,
    enraged,
    focus,
    gear,
    hold,
    manifest,
    minutes,
    movement,
    overpower,
    prone,
    ranged,
    ranged_offers,
    reactions,
    setting_groups,
    stance,
    strike,
    swallow,
    tactics,
    targeted,
    turns,
)
from vtt.rules.abilities import LIBRARY, Ability
from vtt.rules.attacks import answer_defense, on_result
from vtt.rules.commands import (
    AddCreature,
    Afflict,
    Begin,
    BreakHold,
    ChangeSettings,
    ChooseOrder,
    ChooseTrauma,
    Command,
    CompleteReady,
    Dash,
    Defend,
    DefensiveStance,
    Disarm,
    Dismiss,
    Distract,
    DropFocus,
    DropHold,
    DropProne,
    EditBoard,
    EditCreature,
    EndTurn,
    Flurry,
    Grab,
    Grapple,
    Harm,
    Heal,
    Impair,
    JoinOrder,
    LeaveOrder,
    Manifest,
    Move,
    PassTime,
    PickUp,
    Place,
    React,
    Ready,
    Recover,
    RemoveCreature,
    Reposition,
    RerollPriority,
    ResizeBoard,
    SetBackground,
    SetFocus,
    ShiftOrder,
    Soothe,
    StandUp,
    Strike,
    StrikeSpace,
    StrikeStomach,
    ZealForMajor,
    parse_command,
)
from vtt.rules.dice import DiceChange, DiceSource, Modifier, ScriptedDice
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.limits import plain_message
from vtt.rules.model import Cell, Creature, Economy, GameState
from vtt.rules.reach import attack_path
from vtt.rules.sizes import can_overpower
from vtt.rules.space import Occupancy, footprint, grid_of, standable, why_cannot_stand
from vtt.rules.txn import Tx
from vtt.rules.words import count

on_result("distract")(tactics.distract_result)

Group = Literal["Move", "Strike", "Overpower", "Tactics", "Defense", "Manifest", "Turn"]


class RollPreview(BaseModel):
    label: str
    skill: str
    dice: int
    dice_changes: list[DiceChange] = Field(default_factory=list)
    modifiers: list[Modifier] = Field(default_factory=list)
    dl: int | None = None
    defense_skill: str | None = None
    damage: int = Field(0, description="The damage dice a hit rolls before the target's size and Threshold.")
    damage_changes: list[DiceChange] = Field(default_factory=list)


class TargetOption(BaseModel):
    target: str | None = None
    space: Cell | None = None
    preview: RollPreview | None = None
    path: list[Cell] = Field(default_factory=list)
    note: str = ""
    choices: dict[str, list[Any]] = Field(
        default_factory=dict, description="Command field -> the values it may take against this target."
    )
    margins: dict[str, int] = Field(
        default_factory=dict, description="Called Shot: part id -> by how much the attack must beat the defense."
    )
    params: dict[str, Any] = Field(
        default_factory=dict, description="Command fields sent with this target (a ranged Strike's `long_shot`)."
    )


class ActionOption(BaseModel):
    action: str
    group: Group
    label: str
    cost: dict[str, int] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict)
    targets: list[TargetOption] = Field(default_factory=list)
    spaces: list[Cell] = Field(default_factory=list)
    reach: int | None = None
    choose: list[str] = Field(
        default_factory=list, description="Command fields to pick from the chosen target's `choices`."
    )
    command: str | None = Field(
        None, description="The command type to send when it is not `action` (Called Shot, Charge): params go with it."
    )
    several: list[str] = Field(
        default_factory=list, description="Fields of `choose` taking a list: any of their `choices`, no repeats."
    )
    optional: list[str] = Field(
        default_factory=list,
        description="Fields of `choose` that may be left out: the command then plays as with the first of their "
        "`choices` (a Strike's Nimble, Strike Type and fewer damage dice). A menu may send without asking them.",
    )


def apply(state: GameState, command: Command | dict[str, Any], dice: DiceSource) -> tuple[GameState, list[Event]]:
    """Resolve one command; the given state is never changed."""
    cmd = parse_command(command) if isinstance(command, dict) else command
    if state.pending and not cmd.ANSWERS_DECISION:
        raise RuleError(
            f"the table waits for a decision first: {state.pending[0].prompt}", code="turn.decision_pending"
        )
    tx = Tx(state)
    events = _begin(tx, cmd, dice)
    events += swallow.spill(tx)
    events += burning.douse(tx)
    events += ailments.lapse_sources(tx, state)
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
    found = reactions.offers(tx.state, cmd) if tx.state.settings.reactions else None
    if found is not None and found[1]:
        actor, hinderers = found
        reactions.probe(lambda: Tx(tx.state), cmd, _dispatch)
        return reactions.open_group(tx, cmd, actor, hinderers)
    return _dispatch(tx, cmd, dice)


def _dispatch(tx: Tx, cmd: Command, dice: DiceSource) -> list[Event]:
    attacker = cmd.attacker()
    if attacker is not None and attacker in tx.state.creatures:
        stance.require_can_attack(tx.state, attacker)
    swallow.check_command(tx.state, cmd)
    enraged.check_command(tx.state, cmd)
    handler = HANDLERS.get(type(cmd))
    if handler is None:
        raise RuleError(f"unknown command {cmd!r}")
    return handler(tx, cmd, dice)


# ---- the registry: each kind of command and the rule that resolves it ---------------------------------------

C = TypeVar("C", bound=BaseModel)
Handler = Callable[[Tx, C, DiceSource], list[Event]]
HANDLERS: dict[type[BaseModel], Handler[Any]] = {}
"""Each command model -> the function that resolves a command of that kind."""


def handles(kind: type[C]) -> Callable[[Handler[C]], Handler[C]]:
    """Register the decorated function as the handler of `kind`."""

    def register(handler: Handler[C]) -> Handler[C]:
        if kind in HANDLERS:
            raise ValueError(f"{kind.__name__} has a handler already")
        HANDLERS[kind] = handler
        return handler

    return register


@handles(Begin)
def _begin_fight(tx: Tx, cmd: Begin, dice: DiceSource) -> list[Event]:
    return turns.begin(tx, dice)


@handles(JoinOrder)
def _join_order(tx: Tx, cmd: JoinOrder, dice: DiceSource) -> list[Event]:
    return turns.join(tx, cmd.creature, dice, cmd.position)


@handles(LeaveOrder)
def _leave_order(tx: Tx, cmd: LeaveOrder, dice: DiceSource) -> list[Event]:
    return turns.leave(tx, cmd.creature)


@handles(ShiftOrder)
def _shift_order(tx: Tx, cmd: ShiftOrder, dice: DiceSource) -> list[Event]:
    return turns.shift(tx, cmd.creature, -1 if cmd.direction == "up" else 1)


@handles(RerollPriority)
def _reroll_priority(tx: Tx, cmd: RerollPriority, dice: DiceSource) -> list[Event]:
    return turns.reroll(tx, dice)


@handles(EndTurn)
def _end_turn(tx: Tx, cmd: EndTurn, dice: DiceSource) -> list[Event]:
    return turns.end_turn(tx, dice)


@handles(Move)
def _move(tx: Tx, cmd: Move, dice: DiceSource) -> list[Event]:
    return movement.move(tx, cmd.creature, cmd.to, cmd.path, cmd.collide_with, dice, cmd.charge)


@handles(Place)
def _place(tx: Tx, cmd: Place, dice: DiceSource) -> list[Event]:
    return [*swallow.release_for_place(tx, cmd.creature), *movement.place(tx, cmd.creature, cmd.to)]


@handles(Dash)
def _dash(tx: Tx, cmd: Dash, dice: DiceSource) -> list[Event]:
    return movement.dash(tx, cmd.creature)


@handles(Strike)
def _strike(tx: Tx, cmd: Strike, dice: DiceSource) -> list[Event]:
    if cmd.ranged or cmd.long_shot:
        return ranged.ranged_strike(tx, cmd, dice)
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
        cmd.called_shot,
        cmd.charge,
        cmd.minor,
    )


@handles(StrikeSpace)
def _strike_space(tx: Tx, cmd: StrikeSpace, dice: DiceSource) -> list[Event]:
    return targeted.strike_space(
        tx,
        cmd.creature,
        cmd.space,
        cmd.weapon,
        cmd.limb,
        dice,
        cmd.strike_type,
        cmd.charge,
        cmd.minor,
        cmd.ranged,
        cmd.long_shot,
    )


@handles(PickUp)
def _pick_up(tx: Tx, cmd: PickUp, dice: DiceSource) -> list[Event]:
    return gear.pick_up(tx, cmd.creature, cmd.item)


@handles(Grab)
def _grab(tx: Tx, cmd: Grab, dice: DiceSource) -> list[Event]:
    return hold.grab(tx, cmd.creature, cmd.target, cmd.limb, dice, cmd.charge, cmd.minor)


@handles(DropHold)
def _drop_hold(tx: Tx, cmd: DropHold, dice: DiceSource) -> list[Event]:
    return hold.drop_hold(tx, cmd.creature)


@handles(Disarm)
def _disarm(tx: Tx, cmd: Disarm, dice: DiceSource) -> list[Event]:
    return overpower.disarm(
        tx, cmd.creature, cmd.target, cmd.item, cmd.to, cmd.weapon, cmd.limb, cmd.charge, cmd.minor, dice
    )


@handles(Impair)
def _impair(tx: Tx, cmd: Impair, dice: DiceSource) -> list[Event]:
    return overpower.impair(
        tx, cmd.creature, cmd.target, cmd.ailment, cmd.weapon, cmd.limb, cmd.charge, cmd.minor, dice
    )


@handles(Reposition)
def _reposition(tx: Tx, cmd: Reposition, dice: DiceSource) -> list[Event]:
    return overpower.reposition(tx, cmd.creature, cmd.target, cmd.to, cmd.weapon, cmd.limb, cmd.charge, cmd.minor, dice)


@handles(Grapple)
def _grapple(tx: Tx, cmd: Grapple, dice: DiceSource) -> list[Event]:
    return overpower.grapple(
        tx,
        cmd.creature,
        cmd.target,
        cmd.limb,
        cmd.called_shot,
        cmd.suffocate,
        cmd.charge,
        dice,
        cmd.distal,
        cmd.strike_type,
        cmd.swallow,
        cmd.minor,
    )


@handles(BreakHold)
def _break_hold(tx: Tx, cmd: BreakHold, dice: DiceSource) -> list[Event]:
    return overpower.break_hold(
        tx, cmd.creature, cmd.target, cmd.held, cmd.limb, cmd.free_part, cmd.charge, dice, cmd.minor
    )


@handles(StrikeStomach)
def _strike_stomach(tx: Tx, cmd: StrikeStomach, dice: DiceSource) -> list[Event]:
    return swallow.strike_stomach(
        tx, cmd.creature, cmd.target, cmd.weapon, cmd.limb, cmd.strike_type, cmd.max_dice, cmd.minor, dice
    )


@handles(SetFocus)
def _set_focus(tx: Tx, cmd: SetFocus, dice: DiceSource) -> list[Event]:
    return focus.set_focus(tx, cmd.creature, cmd.target, cmd.space)


@handles(DropFocus)
def _drop_focus(tx: Tx, cmd: DropFocus, dice: DiceSource) -> list[Event]:
    return focus.drop_focus(tx, cmd.creature)


@handles(PassTime)
def _pass_time(tx: Tx, cmd: PassTime, dice: DiceSource) -> list[Event]:
    return minutes.pass_time(tx, cmd.minutes, dice)


@handles(DefensiveStance)
def _defensive_stance(tx: Tx, cmd: DefensiveStance, dice: DiceSource) -> list[Event]:
    return stance.enter_stance(tx, cmd.creature)


@handles(Flurry)
def _flurry(tx: Tx, cmd: Flurry, dice: DiceSource) -> list[Event]:
    return tactics.flurry(tx, cmd.creature, cmd.number)


@handles(Distract)
def _distract(tx: Tx, cmd: Distract, dice: DiceSource) -> list[Event]:
    targets = [*([cmd.target] if cmd.target else []), *cmd.targets]
    return tactics.distract(tx, cmd.creature, targets, cmd.action, cmd.expects, cmd.sound_at, dice)


@handles(Defend)
def _defend(tx: Tx, cmd: Defend, dice: DiceSource) -> list[Event]:
    return answer_defense(tx, _decision(tx, cmd.decision, "defense"), cmd.roll, dice)


@handles(React)
def _react(tx: Tx, cmd: React, dice: DiceSource) -> list[Event]:
    return reactions.answer(tx, _decision(tx, cmd.decision, "reaction"), cmd.hinder, dice, _dispatch, cmd.hinder_as)


@handles(ChooseTrauma)
def _choose_trauma(tx: Tx, cmd: ChooseTrauma, dice: DiceSource) -> list[Event]:
    return called_trauma.answer(tx, _decision(tx, cmd.decision, "trauma"), cmd.trauma)


@handles(ChooseOrder)
def _choose_order(tx: Tx, cmd: ChooseOrder, dice: DiceSource) -> list[Event]:
    return targeted.choose_order(tx, _decision(tx, cmd.decision, "order"), cmd.order, dice)


@handles(Afflict)
def _afflict(tx: Tx, cmd: Afflict, dice: DiceSource) -> list[Event]:
    return ailments.afflict(tx, cmd.target, cmd.ailment, cmd.tiers, cmd.source, cmd.ends_with_source)


@handles(StandUp)
def _stand_up(tx: Tx, cmd: StandUp, dice: DiceSource) -> list[Event]:
    return prone.stand_up(tx, cmd.creature)


@handles(DropProne)
def _drop_prone(tx: Tx, cmd: DropProne, dice: DiceSource) -> list[Event]:
    return prone.drop_prone(tx, cmd.creature)


@handles(Harm)
def _harm(tx: Tx, cmd: Harm, dice: DiceSource) -> list[Event]:
    return care.harm(tx, cmd.target, cmd.amount, cmd.physical, cmd.element, cmd.pool, cmd.part, dice)


@handles(Heal)
def _heal(tx: Tx, cmd: Heal, dice: DiceSource) -> list[Event]:
    return care.heal_by_hand(tx, cmd.target, cmd.amount, cmd.kind, cmd.pool, dice)


@handles(ZealForMajor)
def _zeal_for_major(tx: Tx, cmd: ZealForMajor, dice: DiceSource) -> list[Event]:
    return care.zeal_for_major(tx, cmd.creature, dice)


@handles(Recover)
def _recover(tx: Tx, cmd: Recover, dice: DiceSource) -> list[Event]:
    return care.recover(tx, cmd.creature)


@handles(Soothe)
def _soothe(tx: Tx, cmd: Soothe, dice: DiceSource) -> list[Event]:
    return care.soothe(tx, cmd.creature, cmd.target, dice)


@handles(EditCreature)
def _edit_creature(tx: Tx, cmd: EditCreature, dice: DiceSource) -> list[Event]:
    """A creature given to a player mid-fight joins the turn order at once, rolling Priority as a late joiner
    does (`turns.join`): before, it had no turn of its own and, no longer the Soulweaver's, none in the
    Soulweaver's turn either. Automatic, because no table wants a player's creature that never acts, and the
    Soulweaver can still move it or take it out of the order."""
    events = edit_creature(tx, cmd.creature, cmd.changes)
    if "controller" in cmd.changes and turns.joins_order(tx.state, tx.state.creatures[cmd.creature]):
        events += turns.join(tx, cmd.creature, dice)
    return events


@handles(ChangeSettings)
def _change_settings(tx: Tx, cmd: ChangeSettings, dice: DiceSource) -> list[Event]:
    return change_settings(tx, cmd.changes)


@handles(Manifest)
def _manifest(tx: Tx, cmd: Manifest, dice: DiceSource) -> list[Event]:
    return manifest.manifest(tx, cmd.creature, cmd.ability, cmd.target, cmd.boosted, cmd.limb, dice)


@handles(Ready)
def _ready(tx: Tx, cmd: Ready, dice: DiceSource) -> list[Event]:
    if cmd.target not in (None, cmd.creature):
        raise RuleError("a Readied ability is kept in the creature's own limb: it has no target yet")
    return manifest.ready(tx, cmd.creature, cmd.ability, cmd.boosted, cmd.limb, dice)


@handles(CompleteReady)
def _complete_ready(tx: Tx, cmd: CompleteReady, dice: DiceSource) -> list[Event]:
    return manifest.complete_ready(tx, cmd.creature, cmd.target, cmd.limb, dice)


@handles(Dismiss)
def _dismiss(tx: Tx, cmd: Dismiss, dice: DiceSource) -> list[Event]:
    return manifest.dismiss(tx, cmd.creature, cmd.effect, cmd.limb, cmd.target)


@handles(EditBoard)
def _edit_board(tx: Tx, cmd: EditBoard, dice: DiceSource) -> list[Event]:
    return board_edit.edit_board(tx, cmd)


@handles(SetBackground)
def _set_background(tx: Tx, cmd: SetBackground, dice: DiceSource) -> list[Event]:
    return board_edit.set_background(tx, cmd)


@handles(AddCreature)
def _add_creature(tx: Tx, cmd: AddCreature, dice: DiceSource) -> list[Event]:
    """A creature added mid-fight that rolls its own Priority joins the order at once, rolling Zeal and placed
    after everyone already in Priority (`turns.join`, reference §3), so it takes a turn this round."""
    events = board_edit.add_creature(tx, cmd)
    added = tx.state.creatures[events[0].target or ""]
    if turns.joins_order(tx.state, added):
        events += turns.join(tx, added.id, dice)
    return events


@handles(RemoveCreature)
def _remove_creature(tx: Tx, cmd: RemoveCreature, dice: DiceSource) -> list[Event]:
    return board_edit.remove_creature(tx, cmd.creature)


@handles(ResizeBoard)
def _resize_board(tx: Tx, cmd: ResizeBoard, dice: DiceSource) -> list[Event]:
    return board_edit.resize_board(tx, cmd)


EDITABLE = frozenset(
    {
        "name",
        "species",
        "size",
        "skills",
        "grit",
        "energy",
        "resolve",
        "ailments",
        "prone",
        "color",
        "picture",
        "controller",
        "movement_pool",
        "minor_actions",
        "bulk",
        "gear_bulk",
        "footprint",
        "abilities",
        "hidden",
        "notes",
    }
)


def change_settings(tx: Tx, changes: dict[str, Any]) -> list[Event]:
    """The Soulweaver changes table settings; every value is validated by `TableSettings`. The grid kind is fixed
    once a game exists (its map was drawn for it)."""
    if not changes:
        raise RuleError("no setting was changed: change one, then save")
    current = tx.state.settings
    unknown = sorted(set(changes) - set(type(current).model_fields))
    if unknown:
        raise RuleError(f"this table has no setting called {', '.join(unknown)}: choose one from the Settings list")
    if "grid" in changes and changes["grid"] != current.grid:
        raise RuleError("the grid cannot change during a game (its map was drawn for it): start a new game instead")
    try:
        settings = type(current).model_validate({**current.model_dump(), **changes})
    except ValidationError as exc:
        raise RuleError(setting_groups.setting_error(exc.errors()[0])) from None
    tx.state.settings = settings
    shown = "; ".join(
        f"{setting_groups.label(k)}: {setting_groups.shown_value(getattr(settings, k))}"
        for k in type(current).model_fields
        if k in changes
    )
    return [
        Event(kind="settings", text=f"The Soulweaver changes the table settings: {shown}.", data={"changes": changes})
    ]


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
        raise RuleError(f"{'.'.join(str(p) for p in first['loc'])}: {plain_message(first)}") from None
    ailments.remove_immune(edited)
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
            raise RuleError(f"log entry {i} left {count(dice.remaining, 'recorded face')} unused")
        events += evs
    return state, events


def _preview(plan: strike.AttackPlan) -> RollPreview:
    return RollPreview(
        label=plan.label,
        skill=plan.skill,
        dice=plan.dice,
        dice_changes=plan.dice_changes,
        modifiers=plan.modifiers,
        dl=plan.dl,
        defense_skill=plan.defense_skill,
        damage=plan.damage,
        damage_changes=plan.damage_changes,
    )


def _arms(state: GameState, c: Creature) -> list[strike.Armament]:
    """What the creature can attack with now: each usable weapon, and unarmed once (its best free limb)."""
    out: list[strike.Armament] = []
    options: list[tuple[str | None, str | None]] = [(w.id, None) for w in c.weapons]
    options += [(None, limb.id) for limb in c.limbs if limb.free]
    seen_unarmed = False
    for wid, lid in options:
        try:
            arm = strike.armament(state, c, wid, lid)
        except RuleError:
            continue
        if arm.weapon is None:
            if seen_unarmed:
                continue
            seen_unarmed = True
        out.append(arm)
    return out


STRIKE_CHOICES = ("nimble", "strike_type", "max_dice")
REFINEMENTS = ("strike_type", "max_dice")
"""Choices a menu may leave at their first value without asking; attacking Nimble and suffocating are asked for."""


def _strike_choices(
    state: GameState, occ: Occupancy, c: Creature, t: Creature, arm: strike.Armament, filled: AbstractSet[Cell]
) -> dict[str, list[Any]]:
    """A Strike's open choices on `t`: attacking Nimble (when 4 or more sizes larger, seed-000), the Strike Type of
    a weapon with several (reference §6.2), and rolling fewer damage dice (seed-004: "you may reduce your dice rolled
    by any amount")."""
    nimble: list[Any] = [False]
    try:
        strike.plan_creature_strike(state, occ, c, t, arm, True, filled)
    except RuleError:
        pass
    else:
        nimble.append(True)
    types = list(arm.weapon.strike_types) if arm.weapon is not None else []
    most = arm.weapon.damage if arm.weapon is not None else state.settings.unarmed_damage
    return {
        "nimble": nimble,
        "strike_type": types if len(types) > 1 else [None],
        "max_dice": [None, *range(most)],
    }


def _arm_params(arm: strike.Armament) -> dict[str, Any]:
    return {"weapon": arm.weapon.id} if arm.weapon else {"limb": None}


def _charged(option: ActionOption) -> ActionOption:
    """The option as a Charge (seed-000): the same command with `charge` set."""
    return option.model_copy(
        update={
            "action": "charge",
            "command": option.command or option.action,
            "group": "Tactics",
            "label": f"Charge: {option.label}",
            "params": {**option.params, "charge": True},
        }
    )


def _strike_options(
    state: GameState, occ: Occupancy, c: Creature, arm: strike.Armament, area: list[str], charge_ok: bool
) -> list[ActionOption]:
    """Called Shot and Charge Strikes with `arm` on the creatures in `area`, when they have a target."""
    filled = state.board.filled()
    rng = strike.arm_reach(state, c, arm)
    out: list[ActionOption] = []
    called: list[TargetOption] = []
    for oid in area:
        t = state.creatures[oid]
        try:
            plan = strike.plan_creature_strike(state, occ, c, t, arm, False, filled, called_shot=True)
        except RuleError:
            continue
        parts = [p for p in t.parts if not p.severed]
        called.append(
            TargetOption(
                target=oid,
                preview=_preview(plan),
                path=plan.path,
                choices={"called_shot": [p.id for p in parts]},
                margins={p.id: p.size_offset for p in parts},
            )
        )
    name = f"Strike with {arm.name}" if arm.weapon else "Unarmed Strike"
    if called:
        out.append(
            ActionOption(
                action="called_shot",
                command="strike",
                group="Tactics",
                label=f"Called Shot: {name}",
                cost={"major": 1},
                params=_arm_params(arm),
                targets=called,
                reach=rng,
                choose=["called_shot"],
            )
        )
    if charge_ok:
        charged: list[TargetOption] = []
        for oid in area:
            try:
                plan = strike.plan_creature_strike(state, occ, c, state.creatures[oid], arm, False, filled, charge=True)
            except RuleError:
                continue
            charged.append(TargetOption(target=oid, preview=_preview(plan), path=plan.path))
        if charged:
            out.append(
                ActionOption(
                    action="charge",
                    command="strike",
                    group="Tactics",
                    label=f"Charge: {name}",
                    cost={"major": 1},
                    params={**_arm_params(arm), "charge": True},
                    targets=charged,
                    reach=rng,
                )
            )
    return out


def _ranged_options(state: GameState, occ: Occupancy, c: Creature, minor: bool = False) -> list[ActionOption]:
    """Shoot or Throw with each gripped ranged weapon, and its Called Shot unless `minor` (a Flurry's Minor
    Action): every target in range or Long Shot range, with the fewest increments it needs (seed-000)."""
    filled = state.board.filled()
    grid = grid_of(state)
    mine = occ.cells[c.id]
    out: list[ActionOption] = []
    for w in c.weapons:
        if w.ranged is None:
            continue
        try:
            arm = ranged.ranged_armament(state, c, w.id)
        except RuleError:
            continue
        rng = ranged.weapon_range(state, w)
        farthest = rng * (1 + ranged.LONG_SHOT_MAX[w.ranged])
        plain: list[TargetOption] = []
        called: list[TargetOption] = []
        for oid, cells in occ.everyone().items():
            dist = footprint_distance(grid, mine, cells)
            if oid == c.id or dist > farthest:
                continue
            t = state.creatures[oid]
            n = ranged.long_shot_needed(dist, rng)
            extra = {"long_shot": n} if n else {}
            try:
                plan = ranged.plan_ranged_strike(state, occ, c, t, arm, n, filled, minor=minor)
            except RuleError:
                continue
            plain.append(TargetOption(target=oid, preview=_preview(plan), path=plan.path, params=extra))
            if minor:
                continue
            aimed = ranged.plan_ranged_strike(state, occ, c, t, arm, n, filled, called_shot=True)
            parts = [p for p in t.parts if not p.severed]
            called.append(
                TargetOption(
                    target=oid,
                    preview=_preview(aimed),
                    path=aimed.path,
                    params=extra,
                    choices={"called_shot": [p.id for p in parts]},
                    margins={p.id: p.size_offset for p in parts},
                )
            )
        label = f"{ranged.verb(w)} ({w.name})"
        params = {"weapon": w.id, "ranged": True}
        if plain:
            out.append(
                ActionOption(
                    action=ranged.verb(w).lower(),
                    command="strike",
                    group="Strike",
                    label=label,
                    cost={"major": 1},
                    params=params,
                    targets=plain,
                    reach=rng,
                )
            )
        if called:
            out.append(
                ActionOption(
                    action="called_shot",
                    command="strike",
                    group="Tactics",
                    label=f"Called Shot: {label}",
                    cost={"major": 1},
                    params=params,
                    targets=called,
                    reach=rng,
                    choose=["called_shot"],
                )
            )
    return out


def _flurried(option: ActionOption) -> ActionOption:
    """The option as a Flurry's Minor Action (seed-000): the same command with `minor` set."""
    return option.model_copy(
        update={
            "action": "flurry_attack",
            "command": option.command or option.action,
            "group": "Tactics",
            "label": f"Flurry (Minor Action): {option.label}",
            "cost": {"minor": 1},
            "params": {**option.params, "minor": True},
        }
    )


def _tactic_options(
    state: GameState, occ: Occupancy, c: Creature, major_ok: bool, minor_ok: bool
) -> list[ActionOption]:
    """Declaring a Flurry, Distract, and the Minor Action Strikes and Overpowers of a Flurry (seed-000)."""
    out: list[ActionOption] = []
    s = state.settings
    out += _flurry_declaration(state, c, major_ok, minor_ok)
    full_resolve = turns.resolve_blocks(state, c.id)
    actions = tactics.distract_actions(state, c.id) if not full_resolve else []
    aware = tactics.distract_targets(state, c, occ) if actions else []
    if aware:
        preview = RollPreview(
            label=f"{c.name}: {tactics.DISTRACT}",
            skill=s.distract_skill,
            dice=c.skill(s.distract_skill),
            dice_changes=ailments.attack_dice_changes(state, c, physical=False),
            modifiers=[*tactics.distract_modifiers(actions[0]), *ailments.attack_roll_modifiers(state, c)],
            dl=s.distract_dl,
            defense_skill=s.distract_defense,
        )
        grid = grid_of(state)
        sounds: list[Cell | None] = [None]
        sounds += sorted(
            cell
            for cell in grid.area_within(occ.cells[c.id], s.distract_range)
            if grid.in_bounds(cell, state.board.cols, state.board.rows)
        )
        choices: dict[str, list[Any]] = {"action": actions, "targets": aware, "expects": aware, "sound_at": sounds}
        out.append(
            ActionOption(
                action="distract",
                group="Tactics",
                label="Distract",
                cost={},
                targets=[TargetOption(target=oid, preview=preview, choices=choices) for oid in aware],
                reach=s.distract_range,
                choose=["action", "targets", "expects", "sound_at"],
                several=["targets", "expects"],
                optional=["action", "expects", "sound_at"],
            )
        )
    if not minor_ok or tactics.flurry_uses(state, c.id) <= 0:
        return out
    filled = state.board.filled()
    grid = grid_of(state)
    for arm in _arms(state, c):
        rng = strike.arm_reach(state, c, arm)
        in_reach = occ.occupants(list(grid.area_within(occ.cells[c.id], rng)), exclude=c.id)
        targets: list[TargetOption] = []
        for oid in in_reach:
            try:
                plan = strike.plan_creature_strike(state, occ, c, state.creatures[oid], arm, False, filled, minor=True)
            except RuleError:
                continue
            targets.append(TargetOption(target=oid, preview=_preview(plan), path=plan.path))
        if targets:
            label = f"Strike with {arm.name}" if arm.weapon else "Unarmed Strike"
            option = ActionOption(
                action="strike", group="Strike", label=label, params=_arm_params(arm), targets=targets, reach=rng
            )
            out.append(_flurried(option))
        out += [_flurried(o) for o in _weapon_overpower_options(state, occ, c, arm, in_reach, False, minor=True)]
    out += [_flurried(o) for o in _ranged_options(state, occ, c, minor=True)]
    return out + _flurried_more(state, occ, c)


def _weapon_overpower_options(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    arm: strike.Armament,
    area: list[str],
    charge: bool,
    minor: bool = False,
) -> list[ActionOption]:
    """Disarm, Impair and Reposition with `arm`, each when it has a target."""
    filled = state.board.filled()
    rng = strike.arm_reach(state, c, arm)
    out: list[ActionOption] = []
    actions: list[overpower.WeaponAction] = ["disarm", "impair", "reposition"]
    for action in actions:
        targets: list[TargetOption] = []
        for oid in area:
            t = state.creatures[oid]
            try:
                plan = overpower.plan_weapon_overpower(state, occ, c, t, action, arm, filled, charge, minor)
            except RuleError:
                continue
            choices: dict[str, list[Any]]
            if action == "disarm":
                items = overpower.held_items(t)
                spaces = overpower.drop_spaces(state, occ, t)
                if not items or not spaces:
                    continue
                choices = {"item": [w.id for w in items], "to": spaces}
            elif action == "impair":
                choices = {"ailment": list(overpower.IMPAIR_AILMENTS)}
            else:
                dests = overpower.destinations(state, occ, c, t, plan.reach, filled)
                if not dests:
                    continue
                choices = {"to": dests}
            targets.append(TargetOption(target=oid, preview=_preview(plan), path=plan.path, choices=choices))
        if not targets:
            continue
        option = ActionOption(
            action=action,
            group="Overpower",
            label=f"{overpower.NAMES[action]} with {arm.name}",
            cost={"major": 1},
            params=_arm_params(arm),
            targets=targets,
            reach=rng,
            choose={"disarm": ["item", "to"], "impair": ["ailment"], "reposition": ["to"]}[action],
        )
        out.append(_charged(option) if charge else option)
    return out


def _hold_options(state: GameState, occ: Occupancy, c: Creature, charge: bool) -> list[ActionOption]:
    """Grapple (plain and with a Called Shot) and Break Hold, each when it has a target."""
    filled = state.board.filled()
    out: list[ActionOption] = []
    grapple: list[TargetOption] = []
    called: list[TargetOption] = []
    with_distal: list[TargetOption] = []
    swallowing: list[TargetOption] = []
    seen: set[str] = set()
    for h in state.holds.values():
        for oid in h.members:
            if oid == c.id or oid not in state.creatures or oid in seen:
                continue
            seen.add(oid)
            t = state.creatures[oid]
            try:
                lp = overpower.plan_grapple(state, occ, c, t, None, filled, charge=charge)
            except RuleError:
                pass
            else:
                heads = any(x.holder == c.id and x.held == oid and x.part == overpower.HEAD for x in h.locks)
                grapple.append(
                    TargetOption(
                        target=oid,
                        preview=_preview(lp.plan),
                        path=lp.plan.path,
                        choices={"suffocate": [False, True] if heads else [False]},
                    )
                )
            with_distal += _grapple_variant(state, occ, c, t, charge, with_distal=True)
            swallowing += _grapple_variant(state, occ, c, t, charge, swallowing=True)
            parts: list[str] = []
            first: overpower.LimbPlan | None = None
            for p in [] if charge else t.parts:
                try:
                    cp = overpower.plan_grapple(state, occ, c, t, None, filled, called_shot=p.id)
                except RuleError:
                    continue
                first = first or cp
                parts.append(p.id)
            if first is not None:
                margins = {pid: part.size_offset for pid in parts if (part := t.part(pid)) is not None}
                called.append(
                    TargetOption(
                        target=oid,
                        preview=_preview(first.plan),
                        path=first.plan.path,
                        choices={"called_shot": parts},
                        margins=margins,
                    )
                )
    breaks: list[TargetOption] = []
    holders = sorted({hid for h in state.holds.values() for hid in h.holders if hid != c.id})
    for hid in holders:
        holder = state.creatures[hid]
        plans: list[overpower.LimbPlan] = []
        for h in state.holds.values():
            for gid in h.held if hid in h.holders else []:
                try:
                    plans.append(overpower.plan_break_hold(state, occ, c, holder, gid, None, filled, charge=charge))
                except RuleError:
                    continue
        if plans:
            # a part to free must be locked on every creature offered as `held`, so any pair of choices is allowed
            locked = [{x.part for x in lp.hold.locks if x.holder == hid and x.held == lp.held} for lp in plans]
            free: list[Any] = [None, *sorted(set.intersection(*locked))]
            choices: dict[str, list[Any]] = {"held": [lp.held for lp in plans], "free_part": free}
            breaks.append(
                TargetOption(target=hid, preview=_preview(plans[0].plan), path=plans[0].plan.path, choices=choices)
            )
    if grapple:
        suffocate = ["suffocate"] if any(len(t.choices["suffocate"]) > 1 for t in grapple) else []
        option = ActionOption(
            action="grapple",
            group="Overpower",
            label="Grapple",
            cost={"major": 1},
            targets=grapple,
            choose=suffocate,
        )
        out.append(_charged(option) if charge else option)
    out += _grapple_variant_options(with_distal, swallowing, charge)
    if called and not charge:
        out.append(
            ActionOption(
                action="called_shot",
                command="grapple",
                group="Tactics",
                label="Called Shot: Grapple",
                cost={"major": 1},
                targets=called,
                choose=["called_shot"],
            )
        )
    if breaks:
        open_choices = [f for f in ("held", "free_part") if any(len(t.choices[f]) > 1 for t in breaks)]
        option = ActionOption(
            action="break_hold",
            group="Overpower",
            label="Break Hold",
            cost={"major": 1},
            targets=breaks,
            choose=open_choices,
        )
        out.append(_charged(option) if charge else option)
    return out


def _manifest_preview(state: GameState, c: Creature, ab: Ability, dl: int | None = None) -> RollPreview:
    skill = manifest.skill_of(state, ab)
    return RollPreview(
        label=f"{c.name}: Manifest {ab.name}",
        skill=skill,
        dice=c.skill(skill),
        modifiers=ailments.manifest_modifiers(c, state, skill),
        dl=manifest.dl_of(state, c, ab)[0] if dl is None else dl,
        defense_skill=ab.effect.defense or "Elude" if ab.effect.attacks else None,
    )


def _manifest_options(
    state: GameState, occ: Occupancy, c: Creature, major_ok: bool, minor_ok: bool
) -> list[ActionOption]:
    """Manifest, Ready, completing a Readied ability and Dismiss (seed-000), each exactly when it is allowed."""
    out: list[ActionOption] = []
    econ = state.economy[c.id]
    for aid in c.abilities:
        ab = LIBRARY.get(aid)
        if ab is None or not major_ok:
            continue
        note = "; ".join(manifest.dl_of(state, c, ab)[1])
        boosts = [b for b in (False, True) if manifest.why_not_manifest(state, c, ab, b, readying=False) is None]
        attacking_ok = not ab.effect.attacks or not stance.in_stance(state, c.id)
        if boosts and attacking_ok:
            preview = _manifest_preview(state, c, ab)
            choices = {"boosted": boosts} if len(boosts) > 1 else {}
            options = [
                TargetOption(target=tid, preview=preview, note=note, choices=choices)
                for tid in manifest.targets(state, occ, c, ab)
            ]
            if options:
                out.append(
                    ActionOption(
                        action="manifest",
                        group="Manifest",
                        label=f"Manifest {ab.name}",
                        cost={"major": 1, "energy": 1, "words": ab.word_cost(False)},
                        params={"ability": ab.id},
                        targets=options,
                        reach=ab.effect.range,
                        choose=["boosted"] if choices else [],
                    )
                )
        readies = [b for b in (False, True) if manifest.why_not_manifest(state, c, ab, b, readying=True) is None]
        if readies:
            out.append(
                ActionOption(
                    action="ready",
                    group="Manifest",
                    label=f"Ready {ab.name}",
                    cost={"major": 1, "energy": 1, "words": ab.word_cost(False)},
                    params={"ability": ab.id},
                    targets=[
                        TargetOption(
                            target=c.id,
                            preview=_manifest_preview(state, c, ab),
                            note=note or "kept in a Free Limb with no effect until completed",
                            choices={"boosted": readies} if len(readies) > 1 else {},
                        )
                    ],
                    choose=["boosted"] if len(readies) > 1 else [],
                )
            )
    for limb in manifest.readied_limbs(c) if minor_ok else []:
        assert limb.readied is not None
        ab = LIBRARY[limb.readied.ability]
        if ab.effect.attacks and stance.in_stance(state, c.id):
            continue
        preview = _manifest_preview(state, c, ab, limb.readied.dl).model_copy(
            update={"dice": 0, "modifiers": [Modifier(value=limb.readied.roll.result, reason="the Readied roll")]}
        )
        done = [TargetOption(target=tid, preview=preview) for tid in manifest.targets(state, occ, c, ab)]
        if done:
            out.append(
                ActionOption(
                    action="complete_ready",
                    group="Manifest",
                    label=f"Complete {ab.name} ({limb.readied.roll.result})",
                    cost={"minor": 1},
                    params={"limb": limb.id},
                    targets=done,
                    reach=ab.effect.range,
                )
            )
    cost = state.settings.dismiss_cost
    unblocked = not turns.resolve_blocks(state, c.id) or econ.major_unlocked
    dismiss_paid = (cost == "none" and unblocked) or (cost == "major" and major_ok) or (cost == "minor" and minor_ok)
    for e in manifest.ongoing(state, c.id) if dismiss_paid else []:
        if manifest.why_not_dismiss(state, c, e) is None:
            out.append(
                ActionOption(
                    action="dismiss",
                    group="Manifest",
                    label=f"Dismiss {e.name} on {state.creatures[e.subject].name}",
                    cost={} if cost == "none" else {cost: 1},
                    params={"effect": e.id},
                    targets=[TargetOption(target=e.subject, note=f"{count(e.rounds, 'round')} left")],
                )
            )
    return out


# --------------------------------------------------------------------------------------------------------
# Grab, space attacks, Grapple and Break Hold as a Charge or a Flurry's Minor Action; a Charging Collision;
# Grapple with a Distal or to swallow; the swallowed; Focus
# --------------------------------------------------------------------------------------------------------


def _flurry_declaration(state: GameState, c: Creature, major_ok: bool, minor_ok: bool) -> list[ActionOption]:
    """Declaring a Flurry, offered only while a Minor Action is left to use it with."""
    s = state.settings
    if tactics.flurry_effect(state, c.id) is not None or not minor_ok or (s.flurry_cost == "major" and not major_ok):
        return []
    return [
        ActionOption(
            action="flurry",
            group="Tactics",
            label="Flurry",
            cost={} if s.flurry_cost == "none" else {s.flurry_cost: 1},
            targets=[TargetOption(target=c.id, choices={"number": list(range(1, s.flurry_max + 1))})],
            choose=["number"],
        )
    ]


def _grab_option(state: GameState, occ: Occupancy, c: Creature, charge: bool = False) -> ActionOption | None:
    """Grab (a Strike): every target in its Reach - 1, with the roll's preview; None with no limb to Grab with."""
    spent = tactics.spent_limbs(state, c.id)
    limbs = [lb for lb in hold.grab_limbs(c) if lb.id not in spent]
    if not limbs:
        return None
    s = state.settings
    filled = state.board.filled()
    rng = max(hold.grab_reach(c, lb) for lb in limbs)
    targets: list[TargetOption] = []
    for oid in occ.occupants(list(grid_of(state).area_within(occ.cells[c.id], max(rng, 0))), exclude=c.id):
        try:
            gp = hold.plan_grab(state, occ, c, state.creatures[oid], None, filled, charge)
        except RuleError:
            continue
        preview = RollPreview(
            label=f"{c.name}: Grab",
            skill=s.grab_skill,
            dice=c.skill(s.grab_skill),
            dice_changes=ailments.attack_dice_changes(state, c),
            modifiers=gp.modifiers,
            dl=s.grab_dl,
            defense_skill=s.grab_defense,
        )
        targets.append(TargetOption(target=oid, path=gp.path, preview=preview))
    return ActionOption(action="grab", group="Strike", label="Grab", cost={"major": 1}, targets=targets, reach=rng)


def _space_option(state: GameState, occ: Occupancy, c: Creature, arm: strike.Armament) -> ActionOption | None:
    """A targeted attack on a space with `arm`: every open space in its Reach."""
    grid = grid_of(state)
    filled = state.board.filled()
    rng = strike.arm_reach(state, c, arm)
    area = grid.area_within(occ.cells[c.id], rng)
    spaces = sorted(
        cell for cell in area if cell not in filled and grid.in_bounds(cell, state.board.cols, state.board.rows)
    )
    if not spaces:
        return None
    return ActionOption(
        action="strike_space",
        group="Strike",
        label=f"Strike a space ({arm.name})",
        cost={"major": 1},
        params=_arm_params(arm),
        spaces=spaces,
        reach=rng,
    )


def _charged_more(state: GameState, occ: Occupancy, c: Creature) -> list[ActionOption]:
    """seed-000 Charge with a Grab or a targeted attack on a space (both Strikes)."""
    out: list[ActionOption] = []
    grab = _grab_option(state, occ, c, charge=True)
    if grab is not None and grab.targets:
        out.append(_charged(grab))
    for arm in _arms(state, c):
        option = _space_option(state, occ, c, arm)
        if option is not None:
            out.append(_charged(option))
    return out


def _flurried_more(state: GameState, occ: Occupancy, c: Creature) -> list[ActionOption]:
    """seed-000 Flurry: a Grab or a targeted attack on a space (Strikes), a Grapple or a Break Hold (Overpowers) as
    a Minor Action."""
    out: list[ActionOption] = []
    grab = _grab_option(state, occ, c)
    if grab is not None and grab.targets:
        out.append(_flurried(grab))
    for arm in _arms(state, c):
        option = _space_option(state, occ, c, arm)
        if option is not None:
            out.append(_flurried(option))
    return out + [_flurried(o) for o in _hold_options(state, occ, c, False)]


def _charged_collisions(
    state: GameState, occ: Occupancy, c: Creature, paths: dict[Cell, list[Cell]]
) -> list[ActionOption]:
    """seed-000 Charge with a Collision: after Dash, a move that makes 2 consecutive spaces as it enters the space."""
    econ = state.economy[c.id]
    if not econ.dashed:
        return []
    targets: list[TargetOption] = []
    for cell, p in paths.items():
        if not p or econ.consecutive_spaces + len(p) < tactics.CHARGE_SPACES:
            continue
        for oid in occ.occupants(footprint(state, c, cell), exclude=c.id):
            if can_overpower(c.size, state.creatures[oid].size) and not any(o.target == oid for o in targets):
                targets.append(TargetOption(target=oid, space=cell, path=p))
    if not targets:
        return []
    option = ActionOption(
        action="collision",
        command="move",
        group="Overpower",
        label="Collision (move into them)",
        cost={"movement": econ.movement_left},
        targets=targets,
    )
    return [_charged(option)]


def _grapple_variant(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    t: Creature,
    charge: bool,
    with_distal: bool = False,
    swallowing: bool = False,
) -> list[TargetOption]:
    """The target of a Grapple dealing Distal damage, or of a Grapple to swallow, when it can be made."""
    filled = state.board.filled()
    try:
        lp = overpower.plan_grapple(
            state, occ, c, t, None, filled, charge=charge, with_distal=with_distal, swallowing=swallowing
        )
    except RuleError:
        return []
    choices: dict[str, list[Any]] = {}
    if with_distal and lp.limb.distal is not None and len(lp.limb.distal.strike_types) > 1:
        choices["strike_type"] = list(lp.limb.distal.strike_types)
    note = f"with {lp.limb.distal.name}" if with_distal and lp.limb.distal is not None else ""
    return [TargetOption(target=t.id, preview=_preview(lp.plan), path=lp.plan.path, note=note, choices=choices)]


def _grapple_variant_options(
    with_distal: list[TargetOption], swallowing: list[TargetOption], charge: bool
) -> list[ActionOption]:
    out: list[ActionOption] = []
    if with_distal:
        option = ActionOption(
            action="grapple_distal",
            command="grapple",
            group="Overpower",
            label="Grapple, dealing Distal damage",
            cost={"major": 1},
            params={"distal": True},
            targets=with_distal,
            choose=["strike_type"] if all("strike_type" in t.choices for t in with_distal) else [],
        )
        out.append(_charged(option) if charge else option)
    if swallowing:
        option = ActionOption(
            action="swallow",
            command="grapple",
            group="Overpower",
            label="Grapple: swallow",
            cost={"major": 1},
            params={"swallow": True},
            targets=swallowing,
        )
        out.append(_charged(option) if charge else option)
    return out


def _swallowed_options(state: GameState, c: Creature, econ: Economy) -> list[ActionOption]:
    """seed-000: a swallowed creature can attack the stomach it is in (as a Major Action, or a Flurry's Minor
    Action), declare a Flurry, drop its Focus, use Recovery or the Zeal roll on a full Resolve Pool, and end its
    turn. (Dismiss stays a command: the menu's Dismiss is built with the board in mind.)"""
    full = turns.resolve_blocks(state, c.id)
    major_ok = econ.major > 0 and (not full or econ.major_unlocked)
    minor_ok = econ.minor > 0 and not full
    end = ActionOption(action="end_turn", group="Turn", label="End turn", cost={})
    sw = state.creatures.get(c.swallowed_by or "")
    if sw is None:
        return [end]
    stomach = swallow.has_stomach(sw)
    out: list[ActionOption] = []
    if full and econ.minor > 0 and not econ.major_unlocked:
        out.append(
            ActionOption(action="zeal_for_major", group="Turn", label="Zeal roll to act (DL 12)", cost={"minor": 1})
        )
    if full and econ.major > 0:
        out.append(ActionOption(action="recover", group="Turn", label="Recovery", cost={"major": 1}))
    skill = state.settings.strike_skill
    can_attack = not stance.in_stance(state, c.id)
    for arm in _arms(state, c) if can_attack and stomach else []:
        for minor in (False, True):
            if not (minor_ok and tactics.flurry_uses(state, c.id) > 0) if minor else not major_ok:
                continue
            mods, changes = swallow.stomach_plan(state, c, sw, arm, minor)
            preview = RollPreview(
                label=f"{c.name}: Strike on {sw.name}'s stomach with {arm.name}",
                skill=skill,
                dice=c.skill(skill),
                dice_changes=changes,
                modifiers=mods,
                dl=strike.STRIKE_DL,
            )
            option = ActionOption(
                action="strike_stomach",
                group="Strike",
                label=f"Strike {sw.name}'s stomach ({arm.name})",
                cost={"major": 1},
                params=_arm_params(arm),
                targets=[TargetOption(target=sw.id, preview=preview, note="an unattended object, Durability 2")],
            )
            out.append(_flurried(option) if minor else option)
    if can_attack:
        out += _flurry_declaration(state, c, major_ok, minor_ok)
    out += [o for o in _focus_options(state, Occupancy(state), c, major_ok, minor_ok) if o.action == "drop_focus"]
    return [*out, end]


def _focus_options(state: GameState, occ: Occupancy, c: Creature, major_ok: bool, minor_ok: bool) -> list[ActionOption]:
    """Focus on a creature or a space (a Minor Action), and dropping Focus, each when allowed."""
    out: list[ActionOption] = []
    s = state.settings
    if minor_ok and not c.focus_locked and c.swallowed_by is None:
        targets = [TargetOption(target=oid) for oid in focus.focus_targets(state, occ, c)]
        spaces = focus.focus_spaces(state, occ, c)
        if targets or spaces:
            out.append(
                ActionOption(
                    action="focus",
                    group="Tactics",
                    label="Focus",
                    cost={"minor": 1},
                    targets=targets,
                    spaces=spaces,
                    reach=s.focus_range,
                )
            )
    cost = s.drop_focus_cost
    paid = (cost == "none" and not turns.resolve_blocks(state, c.id)) or (cost == "major" and major_ok)
    paid = paid or (cost == "minor" and minor_ok)
    if paid and focus.why_not_drop(c) is None:
        out.append(
            ActionOption(
                action="drop_focus", group="Tactics", label="Drop Focus", cost={} if cost == "none" else {cost: 1}
            )
        )
    return out


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
    if c.swallowed_by is not None:
        return _swallowed_options(state, c, econ)
    occ = Occupancy(state)
    filled = state.board.filled()
    out: list[ActionOption] = []
    grid = grid_of(state)
    can_attack = not stance.in_stance(state, creature_id)

    full_resolve = turns.resolve_blocks(state, creature_id)
    may_move = not full_resolve or state.settings.full_resolve_moves
    if c.prone:
        why_not = prone.why_not_stand_up(state, c)
        cost = state.settings.stand_up_cost
        paid = {"half_movement": may_move, "minor": econ.minor > 0 and not turns.resolve_blocks(state, creature_id)}
        paid["major"] = econ.major > 0 and (not turns.resolve_blocks(state, creature_id) or econ.major_unlocked)
        if why_not is None and paid[cost]:
            price = {"movement": prone.stand_up_movement(state, c)} if cost == "half_movement" else {cost: 1}
            out.append(ActionOption(action="stand_up", group="Move", label="Stand up", cost=price))
    if econ.movement_left > 0 and may_move:
        paths = movement.reachable(state, c, econ.movement_left, filled)
        spaces = standable(state, c, [cell for cell, p in paths.items() if p], occ, filled)
        per_space = {"movement": prone.space_cost(state, c)}
        out.append(ActionOption(action="move", group="Move", label="Move", cost=per_space, spaces=spaces))
        collide: list[TargetOption] = []
        for cell, p in paths.items():
            if not p:
                continue
            for oid in occ.occupants(footprint(state, c, cell), exclude=c.id):
                t = state.creatures[oid]
                if can_overpower(c.size, t.size) and not any(o.target == oid for o in collide):
                    collide.append(TargetOption(target=oid, space=cell, path=p))
        if collide and can_attack and not turns.resolve_blocks(state, creature_id):
            out.append(
                ActionOption(
                    action="collision",
                    group="Overpower",
                    label="Collision (move into them)",
                    cost={"movement": econ.movement_left},
                    targets=collide,
                )
            )
            out += _charged_collisions(state, occ, c, paths)
    if full_resolve:
        if econ.minor > 0 and not econ.major_unlocked:
            out.append(
                ActionOption(action="zeal_for_major", group="Turn", label="Zeal roll to act (DL 12)", cost={"minor": 1})
            )
        if econ.major > 0:
            out.append(ActionOption(action="recover", group="Turn", label="Recovery", cost={"major": 1}))
    if econ.minor > 0 and not econ.dashed and state.settings.dash_adds_pool and not full_resolve:
        out.append(ActionOption(action="dash", group="Move", label="Dash", cost={"minor": 1}))
    if not c.prone and not full_resolve:  # reference §5.3: No Action, at any time (here: offered on its turn)
        out.append(ActionOption(action="drop_prone", group="Move", label="Drop Prone", cost={}))

    major_ok = econ.major > 0 and (not full_resolve or econ.major_unlocked)
    if major_ok and can_attack:
        charge_ok = tactics.can_charge(state, creature_id)
        for arm in _arms(state, c):
            rng = strike.arm_reach(state, c, arm)
            targets: list[TargetOption] = []
            area = grid.area_within(occ.cells[c.id], rng)
            in_reach = occ.occupants(list(area), exclude=c.id)
            for oid in in_reach:
                try:
                    plan = strike.plan_creature_strike(state, occ, c, state.creatures[oid], arm, False, filled)
                except RuleError:
                    continue
                choices = _strike_choices(state, occ, c, state.creatures[oid], arm, filled)
                targets.append(TargetOption(target=oid, preview=_preview(plan), path=plan.path, choices=choices))
            label = f"Strike with {arm.name}" if arm.weapon else "Unarmed Strike"
            params = _arm_params(arm)
            out.append(
                ActionOption(
                    action="strike",
                    group="Strike",
                    label=label,
                    cost={"major": 1},
                    params=params,
                    targets=targets,
                    reach=rng,
                    choose=[f for f in STRIKE_CHOICES if any(len(t.choices.get(f, [])) > 1 for t in targets)],
                    optional=list(REFINEMENTS),
                )
            )
            mine = occ.cells[c.id]
            spaces = [
                cell
                for cell in area
                if cell not in filled
                and grid.in_bounds(cell, state.board.cols, state.board.rows)
                and attack_path(grid, mine, (cell,), filled) is not None
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
            ground = [cell for cell in spaces if not occ.at(cell)]
            if ground:
                out.append(
                    ActionOption(
                        action="strike_ground",
                        command="strike",
                        group="Strike",
                        label=f"Strike the ground ({arm.name})",
                        cost={"major": 1},
                        params={**params, "surface": "ground"},
                        spaces=sorted(ground),
                        reach=rng,
                    )
                )
            walls = sorted(
                cell
                for cell in area
                if cell in filled and attack_path(grid, mine, (cell,), filled) is not None  # the ends are never blocked
            )
            if walls:
                out.append(
                    ActionOption(
                        action="strike_wall",
                        command="strike",
                        group="Strike",
                        label=f"Strike a wall ({arm.name})",
                        cost={"major": 1},
                        params=params,
                        spaces=walls,
                        reach=rng,
                    )
                )
            out += _strike_options(state, occ, c, arm, in_reach, charge_ok)
            out += _weapon_overpower_options(state, occ, c, arm, in_reach, False)
            if charge_ok:
                out += _weapon_overpower_options(state, occ, c, arm, in_reach, True)
        out += _ranged_options(state, occ, c)
        out += ranged_offers.offer_ranged_spaces(state, occ, c)
        grab_option = _grab_option(state, occ, c)
        if grab_option is not None:
            out.append(grab_option)
        out += _hold_options(state, occ, c, False)
        if charge_ok:
            out += _hold_options(state, occ, c, True)
            out += _charged_more(state, occ, c)
    if can_attack:
        out += _tactic_options(state, occ, c, major_ok, econ.minor > 0 and not full_resolve)
    out += _manifest_options(state, occ, c, major_ok, econ.minor > 0 and not full_resolve)
    out += _focus_options(state, occ, c, major_ok, econ.minor > 0 and not full_resolve)
    out += gear.offer_pick_up(state, occ, c)
    stance_cost = state.settings.defensive_stance_cost
    stance_paid = major_ok if stance_cost == "major" else econ.minor > 0 and not full_resolve
    if stance_paid and stance.why_no_stance(state, creature_id) is None:
        out.append(
            ActionOption(action="defensive_stance", group="Defense", label="Defensive Stance", cost={stance_cost: 1})
        )
    soothe_cost = state.settings.soothe_cost
    if major_ok if soothe_cost == "major" else econ.minor > 0 and not full_resolve:
        soothed = [TargetOption(target=oid) for oid in care.soothe_targets(state, c)]
        if soothed:
            out.append(
                ActionOption(action="soothe", group="Defense", label="Soothe", cost={soothe_cost: 1}, targets=soothed)
            )
    if any(creature_id in h.holders for h in state.holds.values()) and not full_resolve:
        out.append(ActionOption(action="drop_hold", group="Overpower", label="Stop holding", cost={}))
    out.append(ActionOption(action="end_turn", group="Turn", label="End turn", cost={}))
    return enraged.filter_options(state, c, out)


def parse_log(entries: Sequence[dict[str, Any]]) -> list[LogEntry]:
    return [LogEntry.model_validate(e) for e in entries]
