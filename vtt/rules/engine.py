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
from typing import Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from vtt.rules import (
    ailments,
    board_edit,
    burning,
    called_trauma,
    care,
    defense_offers,
    enraged,
    focus,
    focus_offers,
    fog_marks,
    gear,
    gear_offers,
    hold,
    hold_offers,
    manifest,
    manifest_offers,
    menu_shared,
    minutes,
    move_offers,
    movement,
    offers,
    overpower,
    overpower_offers,
    positions,
    prone,
    ranged,
    ranged_offers,
    reactions,
    setting_groups,
    stance,
    strike,
    strike_offers,
    swallow,
    swallow_offers,
    tactic_offers,
    tactics,
    targeted,
    turns,
)
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
    MarkFog,
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
from vtt.rules.dice import DiceSource, ScriptedDice
from vtt.rules.events import Event, RuleError
from vtt.rules.fastmodel import models_of, read_plainly
from vtt.rules.limits import plain_message
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.offers import ActionOption, Group, RollPreview, TargetOption
from vtt.rules.space import Occupancy, grid_of, why_cannot_stand
from vtt.rules.txn import Tx
from vtt.rules.words import count

on_result("distract")(tactics.distract_result)

__all__ = ["ActionOption", "Group", "LogEntry", "RollPreview", "TargetOption", "apply", "legal_actions", "replay"]


def apply(state: GameState, command: Command | dict[str, Any], dice: DiceSource) -> tuple[GameState, list[Event]]:
    """Resolve one command; the given state is never changed."""
    cmd = parse_command(command) if isinstance(command, dict) else command
    if state.pending and not cmd.ANSWERS_DECISION:
        raise RuleError(
            f"the table waits for a decision first: {state.pending[0].prompt}", code="turn.decision_pending"
        )
    tx = Tx(state)
    if type(cmd) is Strike:
        tx.strike_given = state
    watched = positions.start(tx)
    checked = watched != 0  # with nobody swallowed, the swallowed check refuses nothing
    events = _begin(tx, cmd, dice, checked) if state.settings.reactions else _dispatch(tx, cmd, dice, checked)
    if watched is None:
        watched_made = None
        if tx.state.board.water or _may_spill_or_lapse(tx, state):
            events += _after(tx, state)
    else:
        watched_made = _watched_made(tx, watched)
        if watched_made:
            events += _after(tx, state)
            watched_made = _watched_made(tx, watched)
        elif tx.state.board.water:  # nobody swallowed nor holding a source: no stomach spills, no source ends
            events += burning.douse(tx)
    made = tx.state
    made.version = state.version + 1
    positions.seal(tx, watched_made)
    return tx.state, events


def _after(tx: Tx, before: GameState) -> list[Event]:
    """The rules that act after any command: a full stomach spills, water puts out Burning, Ailments whose source
    ended lapse."""
    events = swallow.spill(tx) if tx._creatures else []  # a stomach only spills when the command changed its owner
    if tx.state.board.water:  # Burning is only put out by water
        events += burning.douse(tx)
    return events + ailments.lapse_sources(tx, before)


def _may_spill_or_lapse(tx: Tx, before: GameState) -> bool:
    """Whether a stomach may spill or a source lapse after a command on a state whose watched creatures were not
    counted (`positions.start`): only if the command changed a creature now dead (others' sources may name it),
    holding a source or with a full stomach, or changed something else a source stands on."""
    after = tx.state
    creatures = after.creatures
    for cid in tx._creatures:
        c = creatures.get(cid)
        if c is not None and (c.dead or c.ailment_sources or swallow.full_stomach(c)):
            return True
    if tx._removed or after.effects is not before.effects or after.holds is not before.holds:
        return ailments.others_sources_may_end(tx, before)
    return False  # nothing a source stands on was replaced (`others_sources_may_end` without its call)


def _watched_made(tx: Tx, before: int) -> int:
    """How many creatures of the state `tx` makes are swallowed or hold an Ailment source (`positions.start`), from
    how many of the state it started from were (`before`) and the creatures it replaced."""
    old, new = tx.origin.creatures, tx.state.creatures
    count = before
    for cid in tx._creatures | tx._removed if tx._removed else tx._creatures:
        if (was := old.get(cid)) is not None and (was.swallowed_by is not None or was.ailment_sources):
            count -= 1
        if (now := new.get(cid)) is not None and (now.swallowed_by is not None or now.ailment_sources):
            count += 1
    return count


def _decision(tx: Tx, decision_id: str, kind: str) -> Any:
    for d in tx.state.pending:
        if d.id == decision_id:
            if d.kind != kind:
                raise RuleError(f"decision {decision_id} is not a {kind} decision")
            return d
    raise RuleError(f"there is no pending decision {decision_id!r}")


def _begin(tx: Tx, cmd: Command, dice: DiceSource, checked: bool) -> list[Event]:
    """With reactions on, a command that triggers them is checked in full, then waits for them; any other goes on
    at once (`checked` as `_dispatch`'s)."""
    found = reactions.offers(tx.state, cmd)
    if found is not None and found[1]:
        actor, hinderers = found
        reactions.probe(lambda: Tx(tx.state), cmd, _dispatch)
        return reactions.open_group(tx, cmd, actor, hinderers)
    return _dispatch(tx, cmd, dice, checked)


def _dispatch(tx: Tx, cmd: Command, dice: DiceSource, checked: bool = True) -> list[Event]:
    """Resolve `cmd` by its handler once what limits its actor allows it (without `checked`, the state holds nobody
    swallowed: the swallowed check is not asked)."""
    state = tx.state
    if state.effects:  # a Stance is an effect
        attacker = cmd.attacker()
        if attacker is not None and attacker in state.creatures:
            stance.require_can_attack(state, attacker)
    if cmd.SENT_BY != "soulweaver":  # the Soulweaver's own commands are not limited
        actor = getattr(cmd, "creature", None)
        c = state.creatures.get(actor) if isinstance(actor, str) else None
        if checked:
            swallow.check_command(state, cmd, actor, c)
        if c is not None and c.ailments.get(enraged.ENRAGED):
            enraged.check_command(state, cmd, c)
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
    return movement.dash(tx, cmd.creature, dice)


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


@handles(MarkFog)
def _mark_fog(tx: Tx, cmd: MarkFog, dice: DiceSource) -> list[Event]:
    return fog_marks.mark_fog(tx, cmd)


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
        "in_conflict",
        "overexertion_rolls",
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
        occ = positions.for_tx(tx)
        if (why := why_cannot_stand(tx.state, edited, edited.anchor, occ)) is not None:
            raise RuleError(why)
    tx.put_creature(edited)
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
    with positions.replaying():
        for i, entry in enumerate(log):
            dice = ScriptedDice(entry.faces)
            state, evs = apply(state, entry.command, dice)
            if dice.remaining:
                raise RuleError(f"log entry {i} left {count(dice.remaining, 'recorded face')} unused")
            events += evs
    return state, events


def legal_actions(state: GameState, creature_id: str) -> list[ActionOption]:
    """Every action `creature_id` may take now, with targets, costs, roll previews and the command each sends."""
    return offers.kept_menu(state, creature_id, _options)


def _options(state: GameState, occ: Occupancy, creature_id: str) -> list[ActionOption]:
    c = state.creatures.get(creature_id)
    if c is None or state.pending or not turns.is_active(state, creature_id):
        return []
    econ = state.economy.get(creature_id)
    if econ is None:
        return []
    if not c.can_act:
        return [menu_shared.finished(creature_id, "end_turn", "Turn", "End turn")]
    if c.swallowed_by is not None:
        return swallow_offers.swallowed_options(state, c, econ)
    filled = state.board.filled()
    out: list[ActionOption] = []
    grid = grid_of(state)
    can_attack = not stance.in_stance(state, creature_id)

    full_resolve = turns.resolve_blocks(state, creature_id)
    may_move = not full_resolve or state.settings.full_resolve_moves
    out += move_offers.stand_up_option(state, c, econ, may_move)
    if econ.movement_left > 0 and may_move:
        out += move_offers.move_options(state, occ, c, econ, filled, can_attack)
    if full_resolve:
        out += move_offers.full_resolve_options(econ)
    out += move_offers.dash_and_prone(state, c, econ, full_resolve)

    major_ok = econ.major > 0 and (not full_resolve or econ.major_unlocked)
    if major_ok and can_attack:
        charge_ok = tactics.can_charge(state, creature_id)
        reached: dict[int, tuple[set[Cell], list[str]]] = {}  # by Reach: the arms of one Reach reach the same
        for arm in offers.arms(state, c):
            rng = strike.arm_reach(state, c, arm)
            if rng not in reached:
                around = grid.area_within(occ.cells[c.id], rng)
                reached[rng] = (around, occ.occupants(list(around), exclude=c.id))
            area, in_reach = reached[rng]
            out += strike_offers.melee_options(state, occ, c, arm, area, in_reach)
            out += strike_offers.called_and_charged(state, occ, c, arm, in_reach, charge_ok)
            out += overpower_offers.weapon_overpower_options(state, occ, c, arm, area, in_reach, False)
            if charge_ok:
                out += overpower_offers.weapon_overpower_options(state, occ, c, arm, area, in_reach, True)
        out += ranged_offers.ranged_options(state, occ, c)
        out += ranged_offers.offer_ranged_spaces(state, occ, c)
        grab_option = strike_offers.grab_option(state, occ, c)
        if grab_option is not None:
            out.append(grab_option)
        out += hold_offers.hold_options(state, occ, c, False)
        if charge_ok:
            out += hold_offers.hold_options(state, occ, c, True)
            out += strike_offers.charged_more(state, occ, c)
    minor_ok = econ.minor > 0 and not full_resolve
    if can_attack:
        out += tactic_offers.tactic_options(state, occ, c, major_ok, minor_ok)
    out += manifest_offers.manifest_options(state, occ, c, major_ok, minor_ok)
    out += focus_offers.focus_options(state, occ, c, major_ok, minor_ok)
    out += gear_offers.offer_pick_up(state, occ, c)
    out += defense_offers.defense_options(state, occ, c, econ, major_ok, full_resolve)
    out += hold_offers.drop_hold_option(state, c, full_resolve)
    out.append(menu_shared.finished(creature_id, "end_turn", "Turn", "End turn"))
    return enraged.filter_options(state, c, out)


def parse_log(entries: Sequence[dict[str, Any]]) -> list[LogEntry]:
    return [LogEntry.model_validate(e) for e in entries]


read_plainly(models_of("vtt.rules"))
