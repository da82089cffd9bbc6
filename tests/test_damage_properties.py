"""Property tests of damage and healing (seed-004 "Damage and Healing Rolls", pools, Serious Injury): random
sequences of the Soulweaver's Harm and Heal commands, with random scripted faces, on a creature with random pools,
Severe Threshold, Reductions, Vulnerabilities and Immunities.

Whatever happens, nothing that counts (Pips, Tiers, dice) goes below 0, a pool never holds more Pips than it can
(seed-004: Pips past a full pool spill into the next pool or into Exhausted), and the needed face reported in a
damage event is never above 12 (seed-004: "can never increase the value needed above 12").
"""

from __future__ import annotations

from typing import Any

from factories import creature, state
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.model import Creature, GameState

FACES_PER_COMMAND = 30
"""More than any one command here can use: at most 8 damage dice + 3 for a Threshold of -3, and 3 part-roll dice."""

POOLS = ("grit", "energy", "resolve")
faces = st.lists(st.integers(min_value=1, max_value=12), min_size=FACES_PER_COMMAND, max_size=FACES_PER_COMMAND)


@st.composite
def pools(draw: st.DrawFn) -> dict[str, int]:
    size = draw(st.integers(min_value=0, max_value=6))
    return {"max": size, "pips": draw(st.integers(min_value=0, max_value=size))}


@st.composite
def targets(draw: st.DrawFn) -> GameState:
    t = creature(
        "t",
        (5, 5),
        skills={"Endure": draw(st.integers(min_value=0, max_value=3)), "Zeal": 1},
        severe_threshold=draw(st.integers(min_value=-3, max_value=6)),
        grit=draw(pools()),
        energy=draw(pools()),
        resolve=draw(pools()),
        reductions={
            "physical": draw(st.integers(min_value=0, max_value=15)),
            "fire": draw(st.integers(min_value=0, max_value=15)),
        },
        armor_reduction=draw(st.integers(min_value=0, max_value=4)),
        vulnerabilities=draw(st.lists(st.sampled_from(["fire", "acid"]), max_size=2, unique=True)),
        immunities=draw(st.lists(st.sampled_from(["heat", "magical"]), max_size=1)),
    )
    return state(t)


harms = st.fixed_dictionaries(
    {
        "type": st.just("harm"),
        "target": st.just("t"),
        "amount": st.integers(min_value=0, max_value=8),
        "physical": st.booleans(),
        "element": st.sampled_from([None, "fire", "acid", "heat"]),
        "pool": st.sampled_from(POOLS),
        "part": st.sampled_from([None, "torso", "head", "left_arm"]),
    }
)
heals = st.fixed_dictionaries(
    {
        "type": st.just("heal"),
        "target": st.just("t"),
        "amount": st.integers(min_value=0, max_value=8),
        "kind": st.sampled_from([None, "fire"]),
        "pool": st.sampled_from(POOLS),
    }
)
commands = st.lists(st.tuples(st.one_of(harms, heals), faces), min_size=1, max_size=8)


def check_creature(c: Creature) -> None:
    for name in POOLS:
        pool = getattr(c, name)
        assert 0 <= pool.pips <= pool.max, (name, pool)
    assert all(tier >= 0 for tier in c.ailments.values()), c.ailments
    assert all(p.wounded >= 0 and p.trauma >= 0 for p in c.parts)
    assert all(x.amount >= 0 and x.rounds >= 0 for x in c.continuing)
    assert all(v >= 0 for v in c.continuing_injury.values())
    assert c.ruptured_conduit_risk >= 0
    assert c.wake_failures >= 0


@settings(deadline=None)
@given(start=targets(), sequence=commands)
def test_harm_and_heal_never_make_anything_negative_and_never_need_more_than_12(
    start: GameState, sequence: list[tuple[dict[str, Any], list[int]]]
) -> None:
    """seed-004: "roll a number of d12 equal to the amount of the effect"; "Effects may modify the face value
    needed, but can never increase the value needed above 12"; Grit -> Energy -> Exhausted and Resolve ->
    Exhausted spill past full pools."""
    s = start
    check_creature(s.creatures["t"])
    for command, script in sequence:
        s, events = apply(s, command, ScriptedDice(script))
        check_creature(s.creatures["t"])
        for e in events:
            for r in e.rolls:
                assert r.dice >= 0
                assert all(1 <= f <= 12 for f in r.faces)
            if e.kind == "damage":
                assert 1 <= e.data["needed"] <= 12, e.data
                assert 0 <= e.data["injury"] <= e.rolls[0].dice
            if e.kind == "heal" and e.rolls:
                assert 0 <= e.data["healed"] <= e.rolls[0].dice
