"""Hand-worked tests of falling Unconscious, waking and dying (seed-004 "Grit and Consciousness", "Unconscious",
"Dead"; reference §5.3).

Damage comes from the Soulweaver's `harm` command (faces: the damage dice, 3 or more is Injury) or a Strike (faces:
Martial, Elude, damage, then what follows). A wake roll is an Endure roll made when an Unconscious creature's turn
ends. Every Severe Threshold is 12 so that no Serious Injury happens.

Turn tests use player creature `p` (its own turn, then the Soulweaver's) and the Soulweaver's creature `n`, who acts
in the Soulweaver's turn.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import SOULWEAVER, Effect, GameState
from vtt.rules.turns import active_creatures

NO_SERIOUS = 12
END: dict[str, Any] = {"type": "end_turn"}
KNOCKED_OUT: dict[str, Any] = {
    "unconscious": True,
    "prone": True,
    "ailments": {"Unaware": 12},
    "grit": {"max": 4, "pips": 4},
}


def harm(amount: int, **kw: Any) -> dict[str, Any]:
    return {"type": "harm", "target": "t", "amount": amount, **kw}


def lone(**kw: Any) -> GameState:
    return state(creature("t", (5, 5), severe_threshold=NO_SERIOUS, **kw))


def table(p_kw: dict[str, Any] | None = None, n_kw: dict[str, Any] | None = None) -> GameState:
    """p (player, Endure 2) at (1, 1) on its turn; n (the Soulweaver's, Endure 1) at (8, 8)."""
    p = creature(
        "p",
        (1, 1),
        controller="alice",
        skills={"Endure": 2, "Elude": 2},
        severe_threshold=NO_SERIOUS,
        **(p_kw or {}),
    )
    n = creature("n", (8, 8), skills={"Endure": 1, "Elude": 2}, severe_threshold=NO_SERIOUS, **(n_kw or {}))
    return on_turn(state(p, n), "p")


# --------------------------------------------------------------------------------------------------------
# Falling Unconscious
# --------------------------------------------------------------------------------------------------------


def test_grit_injury_filling_the_grit_pool_knocks_out_prone_drops_what_is_held_and_gives_unaware_12() -> None:
    """seed-004 Grit and Consciousness: "After suffering Grit Injury, if your Grit Pool is full, fall Unconscious."
    Unconscious: "When you become Unconscious, fall Prone, drop all held objects, and suffer Tier 12 Unaware."
    Grit 2/4, gripping a sword (right arm) and a dagger (left arm). Harm 2, faces 3, 3 -> Grit 4/4: Unconscious,
    Prone, Unaware 12; sword and dagger lie in its space (5, 5); both arms are empty."""
    sword, dagger = weapon("sword"), weapon("dagger", damage=1)
    t0 = lone(grit={"max": 4, "pips": 2}, weapons=[sword, dagger], grip={"right_arm": "sword", "left_arm": "dagger"})
    s, events = run(t0, harm(2), [3, 3])
    assert of_kind(events, "unconscious")
    t = s.creatures["t"]
    assert (t.unconscious, t.prone, t.ailments.get("Unaware")) == (True, True, 12)
    assert sorted((i.weapon.id, i.cell, i.owner) for i in s.board.items) == [
        ("dagger", (5, 5), "t"),
        ("sword", (5, 5), "t"),
    ]
    assert all(limb.holding is None for limb in t.limbs)


def test_a_weapon_gripped_in_two_hands_is_dropped_once() -> None:
    """seed-004 Unconscious: "drop all held objects". A two-handed spear gripped by both arms is one object: one
    spear lies in the space. Grit 3/4, Harm 1, face 5 -> 4/4."""
    spear = weapon("spear", damage=3, two_handed=True)
    t0 = lone(grit={"max": 4, "pips": 3}, weapons=[spear], grip={"right_arm": "spear", "left_arm": "spear"})
    s, _ = run(t0, harm(1), [5])
    assert [i.weapon.id for i in s.board.items] == ["spear"]


def test_grit_injury_that_leaves_the_pool_short_of_full_does_not_knock_out() -> None:
    """seed-004: "... if your Grit Pool is full, fall Unconscious." Grit 1/4, Harm 2, faces 3, 3 -> 3/4: awake."""
    s, events = run(lone(grit={"max": 4, "pips": 1}), harm(2), [3, 3])
    assert not of_kind(events, "unconscious")
    assert (s.creatures["t"].unconscious, s.creatures["t"].prone) == (False, False)


def test_energy_injury_does_not_knock_out_even_with_a_full_grit_pool() -> None:
    """seed-004: "After suffering Grit Injury, if your Grit Pool is full, fall Unconscious." A creature awake with
    Grit 4/4 takes Energy damage 2, faces 3, 3: no Grit Injury, it stays awake (Energy 2/6)."""
    s, events = run(lone(grit={"max": 4, "pips": 4}), harm(2, pool="energy"), [3, 3])
    assert not of_kind(events, "unconscious")
    assert s.creatures["t"].unconscious is False
    assert s.creatures["t"].energy.pips == 2


def test_unconscious_unaware_adds_to_the_unaware_already_suffered() -> None:
    """seed-004 Unconscious: "... and suffer Tier 12 Unaware." reference §1.1 / §5.1: "Tiers of effects that share
    a name add together." Unaware 2 already; Grit 3/4, Harm 1, face 3 -> Unconscious: Unaware 2 + 12 = 14."""
    s, _ = run(lone(grit={"max": 4, "pips": 3}, ailments={"Unaware": 2}), harm(1), [3])
    assert s.creatures["t"].ailments["Unaware"] == 14


# --------------------------------------------------------------------------------------------------------
# Waking
# --------------------------------------------------------------------------------------------------------


def test_the_wake_roll_is_endure_at_dl_12_when_the_unconscious_creatures_turn_ends() -> None:
    """seed-004 Unconscious: "While Unconscious, roll Endure to wake up at the end of each of your turns, DL 12 -
    1 for each prior consecutive failure."
    p ends its turn: Endure 2d12, faces 12, 3 -> 12 reaches DL 12: awake (still Prone)."""
    s, events = run(table(KNOCKED_OUT), END, [12, 3])
    wake = only(events, "wake")
    assert (wake.target, wake.data["dl"], wake.data["woke"]) == ("p", 12, True)
    assert (s.creatures["p"].unconscious, s.creatures["p"].prone) == (False, True)
    assert s.turn.current == SOULWEAVER


def test_each_consecutive_failure_lowers_the_wake_dl_by_1() -> None:
    """seed-004 Unconscious: "... DL 12 - 1 for each prior consecutive failure."
    Round 1, p's turn ends: Endure 11, 3 -> 11 < DL 12: stays. The Soulweaver's turn ends (no roll for p). Round 2:
    10, 3 -> 10 < DL 11: stays. Round 3: 10, 1 -> 10 reaches DL 10: awake."""
    s, events = run(table(KNOCKED_OUT), END, [11, 3])
    assert only(events, "wake").data == {"dl": 12, "woke": False}
    s, events = run(s, END, [])
    assert not of_kind(events, "wake")
    s, events = run(s, END, [10, 3])
    assert only(events, "wake").data == {"dl": 11, "woke": False}
    s, _ = run(s, END, [])
    s, events = run(s, END, [10, 1])
    assert only(events, "wake").data == {"dl": 10, "woke": True}
    assert s.creatures["p"].unconscious is False


def test_the_soulweavers_unconscious_creature_rolls_to_wake_when_the_soulweavers_turn_ends() -> None:
    """seed-004 Unconscious: "roll Endure to wake up at the end of each of your turns". n acts in the Soulweaver's
    turn: p's turn ends with no roll; the Soulweaver's ends with n's Endure 1d12, face 12 -> awake."""
    s, events = run(table(n_kw=KNOCKED_OUT), END, [])
    assert not of_kind(events, "wake")
    s, events = run(s, END, [12])
    assert only(events, "wake").target == "n"
    assert s.creatures["n"].unconscious is False


# --------------------------------------------------------------------------------------------------------
# Dying
# --------------------------------------------------------------------------------------------------------


def dying() -> GameState:
    """p Unconscious with Exhausted 12 and Grit 4/4; p made a Shield on itself and a Curse on n."""
    s = table({**KNOCKED_OUT, "ailments": {"Unaware": 12, "Exhausted": 12}})
    s.effects = [
        Effect(id="e1", name="Shield", creator="p", subject="p", rounds=3),
        Effect(id="e2", name="Hex", creator="p", subject="n", rounds=3, curse=True),
    ]
    return s


def test_a_fumbled_endure_roll_at_exhausted_12_kills() -> None:
    """seed-004 Dead: "Exhausted causes you to die if you Fumble an Endure roll while it is Tier 12 or higher."
    "When you die, your body becomes a corpse object and any non-Curse ongoing abilities you Manifested end. As a
    corpse, do not remove Pips or Ailments that would normally be removed from an object."
    p's wake roll: Endure 1, 1 (2 of 2 dice show 1: a Fumble) -> dead. Its Shield ends, its Curse on n remains; it
    keeps Grit 4/4, Exhausted 12 and Unaware 12."""
    s, events = run(dying(), END, [1, 1])
    assert of_kind(events, "dead")
    p = s.creatures["p"]
    assert p.dead is True
    assert p.grit.pips == 4
    assert p.ailments == {"Unaware": 12, "Exhausted": 12}
    assert [e.id for e in s.effects] == ["e2"]


def test_a_fumbled_endure_roll_below_exhausted_12_does_not_kill() -> None:
    """seed-004 Dead: "... while it is Tier 12 or higher." Exhausted 11, wake roll 1, 1: a Fumble, a failure, but
    p lives."""
    s = table({**KNOCKED_OUT, "ailments": {"Unaware": 12, "Exhausted": 11}})
    s, events = run(s, END, [1, 1])
    assert not of_kind(events, "dead")
    assert s.creatures["p"].dead is False
    assert s.creatures["p"].unconscious is True


def test_a_failed_endure_roll_that_is_no_fumble_does_not_kill() -> None:
    """seed-004 Dead: "if you Fumble an Endure roll". Exhausted 12, wake roll 1, 5: one 1 of 2 dice is no Fumble
    (reference §1.5: more than half): 5 fails DL 12 and p lives."""
    s, events = run(dying(), END, [1, 5])
    assert not of_kind(events, "dead")
    assert s.creatures["p"].dead is False


def test_a_fumbled_endure_roll_against_heat_kills_too() -> None:
    """seed-004 Dead: "Exhausted causes you to die if you Fumble an Endure roll while it is Tier 12 or higher."
    Fire: "After Heat Injury, the creature rolls Endure".
    A (Martial 2) strikes t (Elude 2, Endure 2, Exhausted 12) with a Flowing fire sword of 2: 8, 2 against 4, 1:
    hit; damage 3, 3 -> Heat Injury 2; Endure against DL 4: 1, 1 -> a Fumble: t dies."""
    flame = weapon("flame", damage=2, strike_types=("F",), element="fire")
    a = creature("a", (5, 5), weapons=[flame], grip={"right_arm": "flame"}, severe_threshold=NO_SERIOUS)
    t = creature(
        "t",
        (6, 5),
        skills={"Elude": 2, "Endure": 2},
        ailments={"Exhausted": 12},
        severe_threshold=NO_SERIOUS,
    )
    s, events = run(
        on_turn(state(a, t), "a"),
        {"type": "strike", "creature": "a", "target": "t", "weapon": "flame"},
        [8, 2, 4, 1, 3, 3, 1, 1],
    )
    assert of_kind(events, "dead")
    assert s.creatures["t"].dead is True


def test_a_dead_creatures_turns_are_skipped() -> None:
    """seed-004 Dead: the body "becomes a corpse object": it takes no turns and rolls no more to wake.
    Priority p, q, then the Soulweaver; q is dead (and was Unconscious). p ends its turn: the Soulweaver's turn
    starts at once, with no wake roll for q."""
    q = creature(
        "q", (3, 3), controller="bob", skills={"Endure": 2}, severe_threshold=NO_SERIOUS, dead=True, **KNOCKED_OUT
    )
    s = table()
    s.creatures["q"] = q
    s.turn.entries = ["p", "q", SOULWEAVER]
    s, events = run(s, END, [])
    assert not of_kind(events, "wake")
    assert s.turn.current == SOULWEAVER


def test_the_soulweavers_dead_creature_does_not_act_in_the_soulweavers_turn() -> None:
    """seed-004 Dead: a corpse is an object. n is dead: in the Soulweaver's turn it is not among the creatures
    acting and has no actions."""
    s = table(n_kw={"dead": True})
    s, _ = run(s, END, [])
    assert s.turn.current == SOULWEAVER
    assert "n" not in active_creatures(s)
    assert legal_actions(s, "n") == []


def test_a_corpse_keeps_its_pips_and_ailments_as_the_rounds_pass() -> None:
    """seed-004 Dead: "As a corpse, do not remove Pips or Ailments that would normally be removed from an object."
    p dies on a Fumbled wake roll (1, 1); two more turns end: its Grit 4/4 and ailments stay as they were."""
    s, _ = run(dying(), END, [1, 1])
    s, _ = run(s, END, [])
    s, _ = run(s, END, [])
    p = s.creatures["p"]
    assert p.grit.pips == 4
    assert p.ailments == {"Unaware": 12, "Exhausted": 12}
