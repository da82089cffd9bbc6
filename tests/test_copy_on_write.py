"""Copy-on-write states and the occupancy kept from one state to the next (`txn`, `positions`, `space`).

- `apply` resolves a command "without changing `state`" (engine): random commands on random small boards, with
  Holds made, Grappled, broken and dropped (seed-000 Grab, Grapple, Break Hold) and the turn order changed, leave
  the state given exactly as it was, and every Hold the command did not change is the same object in the new state
  (shared, not copied); so is every limb and body part it did not change (`Tx.limb`, `Tx.part`, `Tx.own` copy one
  at a time), and the state's dicts of creatures, Economies and Holds and its turn order when the command left
  them as they were.
- A creature ends a move or a placement only where it fits (space: a creature of size s fills 2^(s-1) of each
  space of its footprint, a space holds 1): a placement is refused or accepted exactly as the whole board's
  occupancy, indexed afresh, says; and the occupancy of each state `apply` makes, read over the state before,
  equals the one indexed afresh (the same creatures in each space, in the same order).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from factories import armed_pair_and_hidden_rat, creature, on_turn, run, state, weapon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtt.rules import positions
from vtt.rules.dice import DiceError, RandomDice, ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.events import RuleError
from vtt.rules.grid import GridKind
from vtt.rules.model import SOULWEAVER, BodyPart, Cell, Effect, GameState, Hold, Limb, PartLock, Pool
from vtt.rules.settings import TableSettings
from vtt.rules.space import OVERLAY_MAX, Occupancy, grid_of, why_cannot_stand
from vtt.rules.txn import Tx

SWORD = weapon("sword")
SIZES = (-1, 0, 0, 1, 1, 1, 2)
SKILLS = {"Martial": 4, "Elude": 1, "Athletics": 4, "Zeal": 1}


def _board(
    rng: random.Random, n: int, side: int, kind: GridKind = GridKind.HEX, walls: int = 4, hold: bool = False
) -> GameState:
    """`n` creatures at most (of sizes -1 to 2, half of them with a sword) where each fits, on a `side` × `side`
    board with a few walls; with `hold`, the first two (size 0, sharing a space) in a Hold, the Holder keeping the
    Held's head from use half the time. The fight begun on the first one's turn."""
    settings = TableSettings(defense_prompts="nobody", reactions=False, grid=kind)
    s = state(cols=side, rows=side, settings=settings)
    grid = grid_of(s)
    cells = [grid.from_offset(col, row) for row in range(side) for col in range(side)]
    s.board.walls = set(rng.sample(cells, walls))
    if hold:
        spot = rng.choice([cell for cell in cells if cell not in s.board.walls])
        s.creatures = {cid: creature(cid, spot, skills=dict(SKILLS)) for cid in ("g", "t")}
        locks = [PartLock(held="t", part="head", holder="g", limb="left_arm")] if rng.random() < 0.5 else []
        s.holds["h0"] = Hold(id="h0", holders={"g": ["left_arm"]}, held=["t"], locks=locks)
        arm = s.creatures["g"].limb("left_arm")
        assert arm is not None
        arm.hold_id = "h0"
    for i in range(n * 3):
        if len(s.creatures) >= n:
            break
        armed = rng.random() < 0.5
        c = creature(
            f"c{i}",
            rng.choice(cells),
            size=rng.choice(SIZES),
            controller=rng.choice((None, "alice")),
            weapons=[SWORD] if armed else None,
            grip={"right_arm": "sword"} if armed else None,
            skills=dict(SKILLS),
        )
        if why_cannot_stand(s, c, c.anchor, Occupancy(s)) is None:
            s.creatures[c.id] = c
    return on_turn(s, next(iter(s.creatures)))


def _near(s: GameState, cell: Cell, rng: random.Random, radius: int = 2) -> Cell:
    return rng.choice(sorted(grid_of(s).area_within([cell], radius)))


def _command(s: GameState, rng: random.Random) -> dict[str, Any]:
    """One command of a random kind: what the creature acting now (any NPC on the Soulweaver's turn) tries, or a
    Soulweaver's placement or sheet edit."""
    ids = sorted(s.creatures)
    current = s.turn.current
    actors = [current] if current not in (None, SOULWEAVER) else [c for c in ids if s.creatures[c].controller is None]
    actor = rng.choice(actors or ids)
    c = s.creatures[actor]
    grid = grid_of(s)
    nearest = sorted((grid.distance(c.anchor, s.creatures[o].anchor), o) for o in ids if o != actor)
    other = nearest[0][1] if nearest and rng.random() < 0.8 else rng.choice(ids)
    holders = sorted({h for hold in s.holds.values() for h in hold.holders})
    held = sorted({h for hold in s.holds.values() for h in hold.held})
    kinds = ["place", "place", "move", "strike", "grab", "grab", "grapple", "grapple", "grapple", "break_hold"]
    kinds += ["break_hold", "drop_hold", "reposition", "end_turn", "edit_size", "harm", "harm", "add", "disarm"]
    kinds += ["join_order", "leave_order", "shift_order", "reroll_priority"]
    kinds += ["remove"] if len(ids) > 3 and rng.random() < 0.5 else []
    kind = rng.choice(kinds)
    in_hold = [cid for cid in actors if cid in holders or cid in held]
    if kind in ("grapple", "break_hold") and in_hold and rng.random() < 0.7:
        actor = rng.choice(in_hold)
    match kind:
        case "place":
            who = rng.choice(ids)
            return {"type": "place", "creature": who, "to": _near(s, s.creatures[who].anchor, rng)}
        case "move":
            return {"type": "move", "creature": actor, "to": _near(s, c.anchor, rng)}
        case "strike":
            return {"type": "strike", "creature": actor, "target": other}
        case "grab":
            return {"type": "grab", "creature": actor, "target": other}
        case "grapple":
            target = rng.choice(held or ids)
            extra: dict[str, Any] = rng.choice([{}, {"called_shot": "head"}, {"suffocate": True}])
            return {"type": "grapple", "creature": actor, "target": target, **extra}
        case "break_hold":
            return {"type": "break_hold", "creature": actor, "target": rng.choice(holders or ids)}
        case "drop_hold":
            return {"type": "drop_hold", "creature": rng.choice(holders or ids)}
        case "reposition":
            return {
                "type": "reposition",
                "creature": actor,
                "target": other,
                "to": _near(s, s.creatures[other].anchor, rng),
            }
        case "disarm":
            to = _near(s, s.creatures[other].anchor, rng)
            return {"type": "disarm", "creature": actor, "target": other, "item": SWORD.id, "to": to}
        case "edit_size":
            return {"type": "edit_creature", "creature": other, "changes": {"size": rng.choice(SIZES)}}
        case "harm":
            return {"type": "harm", "target": other, "amount": rng.randint(1, 6)}
        case "add":
            return {
                "type": "add_creature",
                "creature": {"name": "Newcomer", "size": rng.choice(SIZES)},
                "at": _near(s, c.anchor, rng, 3),
            }
        case "remove":
            return {"type": "remove_creature", "creature": other}
        case "join_order" | "leave_order":
            return {"type": kind, "creature": rng.choice(ids)}
        case "shift_order":
            return {"type": "shift_order", "creature": rng.choice(ids), "direction": rng.choice(["up", "down"])}
        case "reroll_priority":
            return {"type": "reroll_priority"}
    return {"type": "end_turn"}


def _same_occupancy(kept: Occupancy, fresh: Occupancy, s: GameState) -> None:
    """The kept occupancy answers as the fresh one, space by space, and so does its whole index, built by an
    occupancy read over it (the kept one is left as it is, read over an earlier one, for the next command)."""
    grid = grid_of(s)
    cells = [grid.from_offset(col, row) for row in range(s.board.rows) for col in range(s.board.cols)]
    for cell in cells:
        assert kept.at(cell) == fresh.at(cell), cell
    assert kept.occupants(cells) == fresh.occupants(cells)
    whole = Occupancy.over(kept, s, frozenset())
    assert whole.by_cell == fresh.by_cell
    assert whole.everyone() == fresh.everyone()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_apply_leaves_the_state_it_was_given_as_it_was_and_shares_every_hold_it_did_not_change(seed: int) -> None:
    """engine: `apply` never changes the state it is given (refused or not); seed-000 Grab, Grapple (Called Shot,
    suffocating) and Break Hold make and change Holds: a Hold the command did not change is the same object in the
    new state, and the new state's kept occupancy equals the one indexed afresh. Scripted dice: 40 faces drawn from
    the seed for each command."""
    rng = random.Random(seed)
    s = _board(rng, rng.randint(3, 7), 8, hold=rng.random() < 0.6)
    for _ in range(40):
        cmd = _command(s, rng)
        before = s.model_dump()
        holds = dict(s.holds)
        try:
            after, _ = apply(s, cmd, ScriptedDice([rng.randint(1, 12) for _ in range(40)]))
        except (RuleError, DiceError):
            assert s.model_dump() == before, cmd
            continue
        assert s.model_dump() == before, cmd
        for hid, hold in holds.items():
            if hid in after.holds and after.holds[hid] == hold:
                assert after.holds[hid] is hold, (cmd, hid)
        _unchanged_limbs_and_parts_shared(s, after, cmd)
        _unchanged_containers_shared(s, after, cmd)
        assert positions.changed(s, after) == positions.scan_changed(s, after), cmd
        kept = positions.of(after)
        assert kept is not None
        _same_occupancy(kept, Occupancy(after), after)
        s = after


def _unchanged_limbs_and_parts_shared(before: GameState, after: GameState, cmd: dict[str, Any]) -> None:
    """Every limb and body part of a creature in both states that the command left as it was is the same object in
    both: only what a command changes is copied (a sheet edit validates a whole new sheet)."""
    if cmd["type"] == "edit_creature":
        return
    for cid, c in after.creatures.items():
        old = before.creatures.get(cid)
        if old is None or old is c:
            continue
        pairs: tuple[tuple[Sequence[Limb | BodyPart], Sequence[Limb | BodyPart]], ...]
        pairs = ((c.limbs, old.limbs), (c.parts, old.parts))
        for new_items, old_items in pairs:
            was: dict[str, Limb | BodyPart] = {}
            for x in old_items[::-1]:  # the first of an id wins, as `limb` and `part` find it
                was[x.id] = x
            for item in new_items:
                if item.id in was and item == was[item.id]:
                    assert item is was[item.id], (cmd, cid, item.id)


def _unchanged_containers_shared(before: GameState, after: GameState, cmd: dict[str, Any]) -> None:
    """The state's dicts of creatures, Economies and Holds and its turn order are copied only by a command that
    changes them (`Tx` copies each on its first change): a dict holding the very same objects as before is the same
    object in both states, and so is the turn order after a command that does not change it."""
    for name in ("creatures", "economy", "holds"):
        old, new = getattr(before, name), getattr(after, name)
        if old.keys() == new.keys() and all(new[k] is v for k, v in old.items()):
            assert new is old, (cmd, name)
    if cmd["type"] not in TURN_COMMANDS:
        assert after.turn is before.turn, cmd


TURN_COMMANDS = frozenset(
    {"end_turn", "join_order", "leave_order", "shift_order", "reroll_priority", "add_creature", "remove_creature"}
)
"""The commands of `_command` that may change the turn order."""


def _head_held() -> GameState:
    """g Holds t in (5, 5) with its left arm, and that arm keeps t's head from use (a Called Shot Grapple made
    before); h stands next to them. All three are the Soulweaver's."""
    s = on_turn(state(creature("g", (5, 5)), creature("t", (5, 5)), creature("h", (6, 5))), "h")
    s.holds["h0"] = Hold(
        id="h0",
        holders={"g": ["left_arm"]},
        held=["t"],
        locks=[PartLock(held="t", part="head", holder="g", limb="left_arm")],
    )
    arm = s.creatures["g"].limb("left_arm")
    assert arm is not None
    arm.hold_id = "h0"
    return s


def test_suffocating_changes_a_copy_of_the_hold_and_its_lock_and_an_unrelated_command_shares_the_hold() -> None:
    """seed-000 Grapple: "While you have a head affected in this way, you can use Grapple to attempt to suffocate"
    (test_overpower's hand-worked case: Athletics 9, 2 -> 7 against 3, 3 -> 1: success, Tier 1 Strangled, +1
    Encumbered Tier from the Hold). The new state's Hold and head lock are copies that count it; the state before
    keeps its own, unchanged. An End Turn changes no Hold: the Hold after it is the same object."""
    s0 = _head_held()
    hold0 = s0.holds["h0"].model_dump()
    lock0 = s0.holds["h0"].locks[0]
    s1, _ = run(s0, {"type": "grapple", "creature": "g", "target": "t", "suffocate": True}, [9, 2, 3, 3])
    assert s0.holds["h0"].model_dump() == hold0
    assert s0.holds["h0"].locks[0] is lock0 and lock0.strangled == 0
    assert s1.holds["h0"] is not s0.holds["h0"]
    assert s1.holds["h0"].locks[0].strangled == 1
    assert s1.holds["h0"].extra_encumbered == {"t": 1}
    assert s1.creatures["t"].ailments == {"Strangled": 1}
    s2, _ = run(s1, {"type": "end_turn"}, [])
    assert s2.holds["h0"] is s1.holds["h0"]
    s3, _ = run(s1, {"type": "drop_hold", "creature": "g"}, [])
    assert s3.holds == {} and s3.creatures["t"].ailments == {}
    assert s1.holds["h0"].locks[0].strangled == 1 and s1.creatures["t"].ailments == {"Strangled": 1}


def _placements(s: GameState, rng: random.Random, count: int) -> None:
    """`count` random placements from `s`, each on the state the last one made: refused or accepted exactly as
    `why_cannot_stand` over the whole board indexed afresh says, with the same words."""
    accepted = refused = 0
    for _ in range(count):
        who = rng.choice(sorted(s.creatures))
        c = s.creatures[who]
        to = _near(s, c.anchor, rng, 3)
        expected = why_cannot_stand(s, c, to, Occupancy(s))
        try:
            after, _ = apply(s, {"type": "place", "creature": who, "to": to}, ScriptedDice([]))
        except RuleError as exc:
            assert expected is not None and str(exc) == expected, (who, to, str(exc))
            refused += 1
            continue
        assert expected is None, (who, to, expected)
        accepted += 1
        kept = positions.of(after)
        assert kept is not None
        _same_occupancy(kept, Occupancy(after), after)
        s = after
    assert accepted > 0 and refused > 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from([GridKind.HEX, GridKind.SQUARE]))
def test_a_placement_is_refused_or_accepted_as_the_whole_board_says(seed: int, kind: GridKind) -> None:
    """space: a creature ends a placement only where it fits (on the map, off walls, 2^(s-1) of a space per size
    s, a space holding 1: two size 0 creatures share one). On a crowded random board, 3 × `OVERLAY_MAX`
    placements in a row (so the kept occupancy is read over an earlier one, then indexed again) are each refused or
    accepted as the whole board indexed afresh says."""
    rng = random.Random(seed)
    _placements(_board(rng, 40, 16, kind, walls=20), rng, 3 * OVERLAY_MAX)


def test_a_state_apply_did_not_make_is_indexed_afresh_each_time() -> None:
    """space: a creature does not fit beside a size 1 creature. A state built by hand is not kept (its maker may
    still change it): after a placement from it, moving a creature of that state by hand is seen by the next
    placement from it."""
    s = on_turn(state(creature("a", (5, 5), size=1), creature("b", (8, 8), size=1)), "a")
    apply(s, {"type": "place", "creature": "a", "to": (5, 6)}, ScriptedDice([]))
    assert positions.of(s) is None
    s.creatures["b"].anchor = (5, 7)
    refused_to = why_cannot_stand(s, s.creatures["a"], (5, 7), Occupancy(s))
    assert refused_to is not None
    try:
        apply(s, {"type": "place", "creature": "a", "to": (5, 7)}, ScriptedDice([]))
    except RuleError as exc:
        assert str(exc) == refused_to
    else:
        raise AssertionError("a was placed on b")


def test_a_creature_falling_unconscious_copies_the_hand_that_drops_its_sword_and_shares_every_other_limb_and_part() -> (
    None
):
    """seed-004 Unconscious: when the Grit Pool is full the creature falls Unconscious and Prone and drops what it
    holds. Harm 2 (physical, 2d12 needing 3+: faces 12, 12 -> 2 Injury) fills H's Grit Pool of 2: H drops its Sword.
    The new state's right arm is a copy holding nothing; the state before still grips the Sword; every other limb and
    every body part is the same object in both states."""
    sword = weapon("sword")
    h = creature("h", (5, 5), weapons=[sword], grip={"right_arm": "sword"}, grit=Pool(max=2))
    s0 = on_turn(state(h, creature("o", (9, 9))), "o")
    before = s0.model_dump()
    s1, events = run(s0, {"type": "harm", "target": "h", "amount": 2}, [12, 12])
    assert any(e.kind == "unconscious" for e in events)
    assert s0.model_dump() == before
    old, new = s0.creatures["h"], s1.creatures["h"]
    assert new.unconscious and not old.unconscious
    for was, now in zip(old.limbs, new.limbs, strict=True):
        if was.id == "right_arm":
            assert now is not was and now.holding is None and was.holding == "sword"
        else:
            assert now is was
    assert all(now is was for was, now in zip(old.parts, new.parts, strict=True))


def test_a_serious_injury_copies_the_wounded_part_alone() -> None:
    """seed-004 Serious Injury: Injury over the Severe Threshold wounds a part (Tx.part copies that part alone).
    Harm 3 on T with Severe Threshold 0, physical 3d12 needing 3+: faces 12, 12, 12 -> 3 Injury, 3 over the
    threshold, +1 (half, not a targeted attack) = Tier 4 Wounded on the part the part roll names (a scripted 1):
    that part alone is a copy; the others and every limb are shared."""
    t = creature("t", (5, 5), severe_threshold=0, grit=Pool(max=6))
    s0 = on_turn(state(t, creature("o", (9, 9))), "o")
    before = s0.model_dump()
    dice = ScriptedDice([12, 12, 12, *[1] * 10])
    s1, events = apply(s0, {"type": "harm", "target": "t", "amount": 3}, dice)
    assert s0.model_dump() == before
    injured = [e for e in events if e.kind == "serious_injury"]
    assert len(injured) == 1 and injured[0].data["wounded"] == 4
    part_id = injured[0].data["part"]
    old, new = s0.creatures["t"], s1.creatures["t"]
    for was, now in zip(old.parts, new.parts, strict=True):
        if was.id == part_id:
            assert now is not was and now.wounded == 4 and was.wounded == 0
        else:
            assert now is was
    assert all(now is was for was, now in zip(old.limbs, new.limbs, strict=True))


def test_the_effects_decisions_and_reactions_are_copied_only_by_a_command_that_changes_them() -> None:
    """`Tx.effects`, `Tx.pending`, `Tx.reactions`: a Strike waiting on a defense adds a decision to a copy of the
    pending list and shares the effects and reactions; the defense answered, the next Defensive Stance adds an
    effect to a copy of the effects and shares the pending list it leaves empty. Each state given keeps its own."""
    s = armed_pair_and_hidden_rat(TableSettings(defense_prompts="everyone", reactions=False))
    s.effects.append(Effect(id="e0", name="Glare", creator="orc", subject="ayla", rounds=2))
    given = (list(s.effects), list(s.pending), dict(s.reactions))
    waiting, _ = run(s, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}, [9, 9])
    assert (list(s.effects), list(s.pending), dict(s.reactions)) == given
    assert waiting.effects is s.effects and waiting.reactions is s.reactions and waiting.pending is not s.pending
    assert [d.kind for d in waiting.pending] == ["defense"]
    (decision,) = waiting.pending
    answered, _ = apply(waiting, {"type": "defend", "decision": decision.id, "roll": False}, RandomDice(1))
    assert answered.pending == [] and [d.kind for d in waiting.pending] == ["defense"]
    assert answered.effects is s.effects
    tx = Tx(answered)
    tx.effects().append(Effect(id="e9", name="Stance", creator="ayla", subject="ayla"))
    tx.reactions()["r1"] = {}
    assert tx.effects() is tx.state.effects and tx.reactions() is tx.state.reactions and tx.pending() == []
    assert [e.id for e in answered.effects] == ["e0"] and answered.reactions == {}
    assert [e.id for e in tx.state.effects] == ["e0", "e9"] and tx.state.pending is not answered.pending
