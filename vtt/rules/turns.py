"""Turns and the action economy (reference §3).

- Priority: each participant rolls Zeal when the fight begins; turns run from the highest Priority down
  (equal Priority keeps the creatures' order on the board, an ASSUMPTION). The Soulweaver's turn is always
  last and ends the round; the Soulweaver's creatures act in it unless the table lets them roll Priority.
- A turn gives the table's Major Actions (1) and Minor Actions (2) and a Movement Pool (5 spaces); Dash is a
  Minor Action adding another full pool (reference gap 6).
- Effects "for 1 round" end when their creator's next turn starts.
"""

from __future__ import annotations

from typing import Literal

from vtt.rules import burning
from vtt.rules.ailment_turns import reduce_at_turn_end, slowed_at_turn_start, strangled_at_turn_start
from vtt.rules.damage import continuing_damage, wake_roll
from vtt.rules.dice import DiceSource, roll
from vtt.rules.events import Event, RuleError
from vtt.rules.fastmodel import set_fields
from vtt.rules.model import SOULWEAVER, Creature, Economy, GameState, TurnOrder
from vtt.rules.txn import Tx


def rolls_priority(state: GameState, creature: Creature) -> bool:
    return creature.controller is not None or state.settings.npcs_roll_priority


def active_creatures(state: GameState) -> list[str]:
    """The creatures whose turn it is now."""
    current = state.turn.current
    if current is None:
        return []
    if current == SOULWEAVER:
        return [
            cid
            for cid, c in state.creatures.items()
            if c.controller is None and cid not in state.turn.entries and not c.dead
        ]
    c = state.creatures.get(current)
    return [current] if c is not None and not c.dead else []


def is_active(state: GameState, creature_id: str) -> bool:
    """Whether `creature_id` is among `active_creatures`, without listing them."""
    turn = state.turn
    if turn.round <= 0 or not turn.entries:  # `turn.current` is None, read without its two properties' calls
        return False
    c = state.creatures.get(creature_id)
    return c is not None and not c.dead and _has_the_turn(turn, c, creature_id)


def _has_the_turn(turn: TurnOrder, c: Creature, creature_id: str) -> bool:
    """Whether `c` (`creature_id`), alive in a fight begun with a turn order, acts now: its turn, or the Soulweaver's
    turn for one of its creatures outside the order."""
    current = turn.entries[turn.index]
    if current == SOULWEAVER:
        return c.controller is None and creature_id not in turn.entries
    return current == creature_id


def fresh_economy(state: GameState, creature: Creature) -> Economy:
    s = state.settings
    pool = s.movement_pool if creature.movement_pool is None else creature.movement_pool
    minor = s.minor_actions if creature.minor_actions is None else creature.minor_actions
    return Economy(major=s.major_actions, minor=minor, movement_max=pool)


def begin(tx: Tx, dice: DiceSource) -> list[Event]:
    state = tx.state
    if state.turn.started:
        raise RuleError("the fight has already begun", code="turn.already_begun")
    events: list[Event] = []
    priority: dict[str, int] = {}
    for cid, c in state.creatures.items():
        if not c.can_act or not rolls_priority(state, c):
            continue
        r = roll(dice, f"{c.name}: Zeal for Priority", c.skill("Zeal"))
        priority[cid] = r.result
        events.append(
            Event(kind="priority", text=f"{c.name} rolls Zeal for Priority: {r.result}.", actor=cid, rolls=[r])
        )
    order = sorted(priority, key=lambda cid: -priority[cid])
    turn = tx.turn()
    turn.priority = priority
    turn.entries = [*order, SOULWEAVER]
    turn.round = 1
    turn.index = 0
    names = ", ".join(state.creatures[c].name for c in order)
    events.append(
        Event(
            kind="round",
            text=f"Round 1 begins. Priority: {names or 'nobody'}, then the Soulweaver.",
            data={"round": 1, "order": state.turn.entries},
        )
    )
    return events + start_turn(tx, dice)


def start_turn(tx: Tx, dice: DiceSource) -> list[Event]:
    state = tx.state
    active = active_creatures(state)
    starting = set(active)
    if state.turn.current == SOULWEAVER:
        starting.add(SOULWEAVER)
    # Effects you created lose duration as your turn begins; those with none left end.
    aged = [e.model_copy(update={"rounds": e.rounds - 1}) if e.creator in starting else e for e in state.effects]
    expired = [e for e in aged if e.rounds <= 0]
    state.effects = [e for e in aged if e.rounds > 0]
    slowed: list[Event] = []
    for cid in active:
        tx.put_economy(cid, fresh_economy(state, state.creatures[cid]))
        if state.creatures[cid].focus_locked:  # seed-000 Distract: "cannot drop Focus until their next turn"
            tx.creature(cid).focus_locked = False
        slowed += slowed_at_turn_start(state, cid)
        slowed += strangled_at_turn_start(tx, cid)
    who = "the Soulweaver" if state.turn.current == SOULWEAVER else state.creatures[active[0]].name if active else "?"
    events = [
        Event(
            kind="turn",
            text=f"Round {state.turn.round}: {who}'s turn.",
            actor=state.turn.current,
            data={"round": state.turn.round, "active": active},
        )
    ]
    for e in expired:
        events.append(
            Event(
                kind="effect_ended",
                text=f"{e.name} on {state.creatures[e.subject].name} ends.",
                target=e.subject,
                data={"effect": e.id},
            )
        )
    events += slowed
    if state.turn.current == SOULWEAVER:
        events += continuing_damage(tx, dice)
        events += burning.burn(tx, dice)
    return events


def end_turn(tx: Tx, dice: DiceSource) -> list[Event]:
    state = tx.state
    if not state.turn.started:
        raise RuleError("the fight has not begun", code="turn.not_begun")
    if state.pending:
        raise RuleError("the table waits for a decision first", code="turn.decision_pending")
    ended = state.turn.current
    wake: list[Event] = []
    for cid in active_creatures(state):
        wake += reduce_at_turn_end(tx, cid, dice)
        wake += burning.at_turn_end(tx, cid, dice)
        if state.creatures[cid].unconscious:
            wake += wake_roll(tx, cid, dice)
    events = [
        Event(
            kind="turn_end",
            text="The Soulweaver ends the round."
            if ended == SOULWEAVER
            else f"{state.creatures[ended].name if ended in state.creatures else ended} ends its turn.",
            actor=ended,
        )
    ]
    turn = tx.turn()
    turn.index += 1
    if turn.index >= len(turn.entries):
        turn.index = 0
        turn.round += 1
        events.append(Event(kind="round", text=f"Round {turn.round} begins.", data={"round": turn.round}))
    # Skip the turns of the Dead and the removed, never the Soulweaver's. The Unconscious keep theirs: the end
    # of each of their turns is when they roll to wake.
    for _ in range(len(turn.entries)):
        cur = turn.current
        if cur == SOULWEAVER or (cur in state.creatures and not state.creatures[cur].dead):
            break
        turn.index += 1
        if turn.index >= len(turn.entries):
            turn.index = 0
            turn.round += 1
    return wake + events + start_turn(tx, dice)


def end_turn_after_charge(tx: Tx, attacker: str, dice: DiceSource) -> list[Event]:
    """seed-000 Charge: "Your turn ends after the attack" -- once nothing about the attack waits any more (the Charge
    itself is declared in `tactics`)."""
    econ = tx.state.economy.get(attacker)
    if econ is None or not econ.charging or tx.state.pending or tx.state.reactions:
        return []
    tx.economy(attacker).charging = False
    return end_turn_of(tx, attacker, dice)


def end_turn_of(tx: Tx, creature_id: str, dice: DiceSource) -> list[Event]:
    state = tx.state
    if state.turn.current == creature_id:
        return end_turn(tx, dice)
    econ = tx.economy(creature_id)
    econ.major = 0
    econ.minor = 0
    econ.distractable = []
    econ.turn_over = True
    econ.movement_spent = max(econ.movement_spent, econ.movement_max)
    return [
        Event(
            kind="turn_over",
            text=f"{tx.get(creature_id).name}'s turn ends after the Charge: no action or Movement is left to it.",
            actor=creature_id,
        )
    ]


def resolve_blocks(state: GameState, creature_id: str) -> bool:
    """seed-004: while the Resolve Pool is full, the only actions are Recovery and the DL 12 Zeal roll."""
    resolve = state.creatures[creature_id].resolve
    return resolve.max > 0 and resolve.pips >= resolve.max  # `resolve.full`, without the property's call


def refuse_on_full_resolve(state: GameState, creature_id: str, what: str, movement: bool = False) -> None:
    """seed-004 Resolve: "While your Resolve Pool is full, the only actions you can use are Recovery and roll Zeal
    as a Minor Acton to be able to use a Major Action this turn": no action that costs nothing (Drop Prone, a
    Hinder, dropping a Hold or Focus, a Flurry) either. Moving and standing up paid in Movement are refused too
    unless table setting `full_resolve_moves` says moving is no action."""
    if not resolve_blocks(state, creature_id):
        return
    if movement and state.settings.full_resolve_moves:
        return
    name = state.creatures[creature_id].name
    raise RuleError(
        f"{name}'s Resolve Pool is full: the only actions it can use are Recovery and the Zeal roll (DL 12) to use "
        f"a Major Action, so it cannot {what}"
    )


def spend(
    tx: Tx, creature_id: str, major: int = 0, minor: int = 0, on_full_resolve: bool = False, attack: bool = False
) -> None:
    """Pay a Major or Minor Action (`attack`: an attack's, noted in the Economy); the rules raise RuleError when it
    cannot be paid."""
    econ = tx.economy(creature_id)
    if resolve_blocks(tx.state, creature_id) and not on_full_resolve:
        name = tx.get(creature_id).name
        if minor or not econ.major_unlocked:
            raise RuleError(
                f"{name}'s Resolve Pool is full: only Recovery, or the DL 12 Zeal roll (a Minor Action) to use a "
                "Major Action this turn"
            )
    if major and econ.major < major:
        raise RuleError(f"{tx.get(creature_id).name} has no Major Action left this turn", code="turn.no_major_action")
    if minor and econ.minor < minor:
        raise RuleError(f"{tx.get(creature_id).name} has no Minor Action left this turn", code="turn.no_minor_action")
    majors: list[Literal["major", "minor"]] = ["major"] * major
    minors: list[Literal["major", "minor"]] = ["minor"] * minor
    paid: dict[str, object] = {
        "major": econ.major - major,
        "minor": econ.minor - minor,
        "distractable": [*econ.distractable, *majors, *minors],  # a new list: the state before shares the old one
    }
    if econ.consecutive_spaces:  # `break_moves`
        paid["consecutive_spaces"] = 0
    if attack:
        paid["attacked"] = True
    set_fields(econ, **paid)


def break_moves(tx: Tx, creature_id: str) -> None:
    """seed-000 Charge: "After moving 2 consecutive spaces": an action between two moves makes them not
    consecutive, so the count of spaces starts again."""
    econ = tx.state.economy.get(creature_id)
    if econ is not None and econ.consecutive_spaces:
        tx.economy(creature_id).consecutive_spaces = 0


def require_active(state: GameState, creature_id: str) -> Creature:
    c = state.creatures.get(creature_id)
    if c is None:
        raise RuleError(f"there is no creature {creature_id!r}", code="turn.no_such_creature")
    turn = state.turn
    if turn.round <= 0:  # not `turn.started` (every command asks: the property's call saved)
        raise RuleError("the fight has not begun: start it first", code="turn.not_begun")
    if c.dead or c.unconscious:  # not `c.can_act`
        raise RuleError(f"{c.name} cannot act", code="turn.cannot_act")
    if not turn.entries or not _has_the_turn(turn, c, creature_id):  # `is_active` of a creature found alive
        raise RuleError(f"it is not {c.name}'s turn", code="turn.not_your_turn")
    return c


def begun_on_turn(state: GameState, creature_id: str) -> GameState:
    """A copy of `state` with the fight begun and `creature_id` acting now, without rolling Priority: for tests,
    benchmarks and prepared situations. A Soulweaver's creature starts the Soulweaver's turn."""
    c = state.creatures[creature_id]
    s = state.model_copy(deep=True)
    if rolls_priority(s, c):
        s.turn.entries = [creature_id, SOULWEAVER]
        s.turn.priority = {creature_id: 12}
    else:
        s.turn.entries = [SOULWEAVER]
    s.turn.round = 1
    s.turn.index = 0
    for cid in active_creatures(s):
        s.economy[cid] = fresh_economy(s, s.creatures[cid])
    return s


# ---- the Soulweaver edits the order mid-fight -------------------------------------------------------------------


def joins_order(state: GameState, creature: Creature) -> bool:
    """Whether `creature` should join the order now: the fight is on, it rolls its own Priority (a player's, or
    any with `npcs_roll_priority`), it can act, and it has no place yet."""
    return (
        state.turn.started
        and creature.id not in state.turn.entries
        and creature.can_act
        and rolls_priority(state, creature)
    )


def _place_at(turn: TurnOrder, creature_id: str, position: int) -> None:
    """Put `creature_id` in the order before the entry now at `position`; the turn going on stays current."""
    turn.entries = [*turn.entries[:position], creature_id, *turn.entries[position:]]
    if position <= turn.index and turn.started:
        turn.index += 1


def join(tx: Tx, creature_id: str, dice: DiceSource, position: int | None = None) -> list[Event]:
    """A creature joins the fight's order: it rolls Zeal and the roll is its Priority (reference §3 "When a
    participant joins a timed activity, its Zeal roll is its Priority"); it is "placed after everyone already in
    Priority", just before the Soulweaver's turn, unless the Soulweaver names a `position` in the order (0 first).
    Placed after the turn going on, it acts this round; placed before it, from the next round on."""
    state = tx.state
    c = state.creatures.get(creature_id)
    if c is None:
        raise RuleError(f"there is no creature {creature_id!r}")
    if not state.turn.started:
        raise RuleError("the fight has not begun: Begin rolls Priority for everyone")
    if creature_id in state.turn.entries:
        raise RuleError(f"{c.name} is in the turn order already")
    if not c.can_act:
        raise RuleError(f"{c.name} cannot act, so it cannot take a place in the turn order")
    last = state.turn.entries.index(SOULWEAVER) if SOULWEAVER in state.turn.entries else len(state.turn.entries)
    if position is not None and position > last:
        raise RuleError("the Soulweaver's turn is always the last of the round: choose a place before it")
    r = roll(dice, f"{c.name}: Zeal for Priority", c.skill("Zeal"))
    turn = tx.turn()
    turn.priority[creature_id] = r.result
    _place_at(turn, creature_id, last if position is None else position)
    place = state.turn.entries.index(creature_id) + 1
    return [
        Event(
            kind="priority",
            text=f"{c.name} joins the fight and rolls Zeal for Priority: {r.result}. It takes place {place} of "
            f"{len(state.turn.entries)} in the turn order.",
            actor=creature_id,
            rolls=[r],
            data={"order": list(state.turn.entries)},
        )
    ]


def leave(tx: Tx, creature_id: str) -> list[Event]:
    """The Soulweaver takes a creature out of the turn order (it stays on the map). A creature of the Soulweaver's
    that rolls no Priority acts in the Soulweaver's turn again; a player's has no turn until it is added back."""
    state = tx.state
    turn = tx.turn()
    name = state.creatures[creature_id].name if creature_id in state.creatures else creature_id
    if creature_id not in turn.entries or creature_id == SOULWEAVER:
        raise RuleError(f"{name} is not in the turn order")
    if turn.current == creature_id:
        raise RuleError(f"it is {name}'s turn: end it first")
    pos = turn.entries.index(creature_id)
    turn.entries = [e for e in turn.entries if e != creature_id]
    if pos < turn.index:
        turn.index -= 1
    turn.priority = {k: v for k, v in turn.priority.items() if k != creature_id}
    return [
        Event(
            kind="order",
            text=f"The Soulweaver takes {name} out of the turn order.",
            target=creature_id,
            data={"order": list(turn.entries)},
        )
    ]


def shift(tx: Tx, creature_id: str, by: int) -> list[Event]:
    """The Soulweaver moves a creature one place earlier (`by` -1) or later (+1) in the order: it changes places
    with its neighbour. Its Priority number stays as rolled (as when a creature waits, the place, not the roll,
    changes). Neither may be the turn going on: that would take a turn from one of them or give one twice this
    round. Nobody moves past the Soulweaver's turn, always the last."""
    state = tx.state
    turn = tx.turn()
    name = state.creatures[creature_id].name if creature_id in state.creatures else creature_id
    if creature_id not in turn.entries or creature_id == SOULWEAVER:
        raise RuleError(f"{name} is not in the turn order")
    pos = turn.entries.index(creature_id)
    other = pos + by
    if other < 0:
        raise RuleError(f"{name} is first in the turn order already")
    if other >= len(turn.entries) or turn.entries[other] == SOULWEAVER:
        raise RuleError(f"{name} is last before the Soulweaver's turn already, which always ends the round")
    neighbour = turn.entries[other]
    if turn.started and turn.index in (pos, other):
        current = state.creatures[turn.entries[turn.index]].name
        raise RuleError(f"it is {current}'s turn: it cannot change places until the turn ends")
    turn.entries[pos], turn.entries[other] = neighbour, creature_id
    other_name = state.creatures[neighbour].name if neighbour in state.creatures else neighbour
    way = "before" if by < 0 else "after"
    return [
        Event(
            kind="order",
            text=f"The Soulweaver moves {name} {way} {other_name} in the turn order.",
            target=creature_id,
            data={"order": list(turn.entries)},
        )
    ]


def reroll(tx: Tx, dice: DiceSource) -> list[Event]:
    """Every creature in the order that can act rolls Zeal again, as Begin rolls it, and the order is sorted from
    the highest Priority down (equal Priority keeps their order so far; those who cannot act keep their last roll).
    Only in the Soulweaver's turn, the last of the round: everyone has had this round's turn, so the new order
    starts with the next round and nobody loses a turn or gets two."""
    state = tx.state
    turn = tx.turn()
    if not turn.started:
        raise RuleError("the fight has not begun: Begin rolls Priority for everyone")
    if turn.current != SOULWEAVER:
        raise RuleError("Priority can be rolled again only in the Soulweaver's turn, when the round's turns are over")
    events: list[Event] = []
    creatures = [e for e in turn.entries if e != SOULWEAVER]
    for cid in creatures:
        c = state.creatures[cid]
        if not c.can_act:
            continue
        r = roll(dice, f"{c.name}: Zeal for Priority", c.skill("Zeal"))
        turn.priority[cid] = r.result
        events.append(
            Event(kind="priority", text=f"{c.name} rolls Zeal for Priority again: {r.result}.", actor=cid, rolls=[r])
        )
    order = sorted(creatures, key=lambda cid: -turn.priority.get(cid, 0))
    turn.entries = [*order, SOULWEAVER]
    turn.index = len(order)
    names = ", ".join(state.creatures[c].name for c in order)
    events.append(
        Event(
            kind="order",
            text=f"New Priority from the next round: {names or 'nobody'}, then the Soulweaver.",
            data={"order": list(turn.entries)},
        )
    )
    return events


def places_before_fight(state: GameState, player: str, creature: Creature) -> bool:
    """Whether `player` may set their own `creature` down anywhere it fits before the fight begins (table
    setting `players_place_before_fight`)."""
    return state.settings.players_place_before_fight and not state.turn.started and creature.controller == player
