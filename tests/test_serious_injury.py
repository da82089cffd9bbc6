"""Hand-worked tests of Serious Injury (seed-004 "Serious Injury"; seed-000 Called Shot; reference §4.4, §7).

Faces are used in order: for the Soulweaver's `harm` command the damage dice, then the part roll when no part is
given; for a Strike the attacker's Martial roll, the target's Elude roll, the damage dice, the part roll, then a
Chopping Strike's severing dice. Damage counts faces of 3 or more as Injury.

The part roll is the reference §7 d12 table (an ASSUMPTION, table setting `part_table`): 1-4 torso, 5 stomach, 6-7
left leg, 8-9 right leg, 10 left arm, 11 right arm, 12 head, rolling again: a second 12 is an eye or an ear (a third
d12: 1-3 left eye, 4-6 right eye, 7-9 left ear, 10-12 right ear). Every Severe Threshold is given explicitly.

Layout (hex, axial (q, r)): attacker `a` at (5, 5), target `t` at (6, 5).
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, of_kind, on_turn, only, run, state, weapon

from vtt.rules.damage import Hit, deal
from vtt.rules.dice import ScriptedDice
from vtt.rules.events import Event
from vtt.rules.model import BodyPart, Creature, GameState, Hold, Weapon
from vtt.rules.txn import Tx


def harm(amount: int, part: str | None = None) -> dict[str, Any]:
    return {"type": "harm", "target": "t", "amount": amount, "part": part}


def lone(threshold: int | None, **kw: Any) -> GameState:
    return state(creature("t", (5, 5), severe_threshold=threshold, **kw))


def wounded_parts(c: Creature) -> dict[str, int]:
    return {p.id: p.wounded for p in c.parts if p.wounded}


def duel(arm: Weapon, threshold: int, **t_kw: Any) -> GameState:
    """Attacker `a` (Martial 2) gripping `arm`; target `t` (Elude 2) with Severe Threshold `threshold`."""
    a = creature("a", (5, 5), weapons=[arm], grip={"right_arm": arm.id}, severe_threshold=12)
    t = creature("t", (6, 5), severe_threshold=threshold, **t_kw)
    return on_turn(state(a, t), "a")


def strike(arm: Weapon) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "target": "t", "weapon": arm.id}


# --------------------------------------------------------------------------------------------------------
# Wounded = Injury - Severe Threshold
# --------------------------------------------------------------------------------------------------------


def test_wounded_tiers_equal_how_far_grit_injury_exceeds_the_severe_threshold() -> None:
    """seed-004 Serious Injury: "After suffering Grit Injury, the effect also causes Wounded Tiers equal to the
    amount the Injury exceeds your Severe Threshold."
    Threshold 2; Harm 5 aimed at the torso: faces 3, 4, 5, 6, 7 -> Injury 5 -> 5 - 2 = 3 Wounded on the torso."""
    s, events = run(lone(2), harm(5, "torso"), [3, 4, 5, 6, 7])
    si = only(events, "serious_injury")
    assert (si.data["part"], si.data["wounded"]) == ("torso", 3)
    assert wounded_parts(s.creatures["t"]) == {"torso": 3}
    assert s.creatures["t"].ailments["Wounded"] == 3


def test_injury_equal_to_the_threshold_causes_no_wounded() -> None:
    """seed-004 Serious Injury: Wounded Tiers equal "the amount the Injury exceeds your Severe Threshold".
    Threshold 2; Harm 2 on the torso: faces 3, 3 -> Injury 2 does not exceed 2: nothing."""
    s, events = run(lone(2), harm(2, "torso"), [3, 3])
    assert not of_kind(events, "serious_injury")
    assert "Wounded" not in s.creatures["t"].ailments


def test_a_threshold_below_0_counts_as_0() -> None:
    """seed-004 Serious Injury: "If their Threshold is lower than 0, it counts as 0." (And the damage rises by 1:
    "increase the damage by the amount the subject's Severe Threshold is below 0.")
    Threshold -1; Harm 2 on the torso rolls 3d12, faces 3, 3, 3 -> Injury 3 -> 3 - 0 = 3 Wounded (not 4)."""
    s, events = run(lone(-1), harm(2, "torso"), [3, 3, 3])
    assert only(events, "serious_injury").data["wounded"] == 3
    assert wounded_parts(s.creatures["t"]) == {"torso": 3}


def test_the_severe_threshold_is_the_endure_tier_by_default() -> None:
    """reference §4.4: "How Severe Threshold is derived. ASSUMPTION: Endure Tier" (table setting
    `severe_threshold_skill`). No Threshold of its own, Endure 2; Harm 3 on the torso, faces 3, 3, 3 -> Injury 3
    -> 1 Wounded."""
    _, events = run(lone(None, skills={"Endure": 2}), harm(3, "torso"), [3, 3, 3])
    assert only(events, "serious_injury").data["wounded"] == 1


def test_wounded_tiers_add_up_on_a_part() -> None:
    """seed-004 Serious Injury; reference §1.1: "Tiers of effects that share a name add together."
    Threshold 1; Harm 3 on the left leg twice: faces 3, 3, 3 -> 2 Wounded, then 3, 3, 1 -> Injury 2 -> 1 more:
    the left leg has 3 Wounded."""
    s, _ = run(lone(1), harm(3, "left_leg"), [3, 3, 3])
    s, _ = run(s, harm(3, "left_leg"), [3, 3, 1])
    assert wounded_parts(s.creatures["t"]) == {"left_leg": 3}
    assert s.creatures["t"].ailments["Wounded"] == 3


# --------------------------------------------------------------------------------------------------------
# Rolling for a part; +half when not from a targeted attack
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("part_faces", "part"),
    [
        ([1], "torso"),
        ([4], "torso"),
        ([5], "stomach"),
        ([6], "left_leg"),
        ([7], "left_leg"),
        ([8], "right_leg"),
        ([9], "right_leg"),
        ([10], "left_arm"),
        ([11], "right_arm"),
        ([12, 5], "head"),
        ([12, 11], "head"),
        ([12, 12, 1], "left_eye"),
        ([12, 12, 6], "right_eye"),
        ([12, 12, 7], "left_ear"),
        ([12, 12, 12], "right_ear"),
    ],
)
def test_without_a_targeted_part_the_part_is_rolled_and_not_targeted_adds_half(
    part_faces: list[int], part: str
) -> None:
    """seed-004 Serious Injury: "If not already targeting a specific part, roll for a part. If not from a targeted
    attack, increase the Wounded Tier caused by half." reference §7: the d12 part table, a 12 rolls again for the
    head, an eye or an ear.
    Threshold 0; Harm 3 with no part (not a targeted attack): faces 3, 3, 3 -> Injury 3 -> 3 Wounded + half of 3
    (1) = 4, on the part the roll gives."""
    s, events = run(lone(0), harm(3), [3, 3, 3, *part_faces])
    si = only(events, "serious_injury")
    assert (si.data["part"], si.data["wounded"]) == (part, 4)
    assert [r.faces[0] for r in si.rolls] == part_faces
    assert wounded_parts(s.creatures["t"]) == {part: 4}


def test_not_from_a_targeted_attack_adds_half_rounded_down() -> None:
    """seed-004 Serious Injury: "If not from a targeted attack, increase the Wounded Tier caused by half."
    Threshold 2; Harm 5 with no part: faces 3, 3, 3, 3, 3 -> Injury 5 -> 3 + 1 (half of 3, rounded down) = 4;
    part roll 2 -> torso. Then Harm 3: faces 3, 3, 3 -> Injury 3 -> 1 + 0 = 1; part roll 3 -> torso: 5 in all."""
    s, events = run(lone(2), harm(5), [3, 3, 3, 3, 3, 2])
    assert only(events, "serious_injury").data["wounded"] == 4
    s, events = run(s, harm(3), [3, 3, 3, 3])
    assert only(events, "serious_injury").data["wounded"] == 1
    assert wounded_parts(s.creatures["t"]) == {"torso": 5}


def test_a_lost_part_rolled_falls_to_the_torso() -> None:
    """reference §7 (ASSUMPTION of the part table): a part the creature has lost falls to its torso.
    The left arm is severed; Threshold 0, Harm 2 with no part: faces 3, 3 -> 2 + 1 = 3; part roll 10 (left arm)
    -> torso."""
    t = lone(0)
    arm = t.creatures["t"].part("left_arm")
    assert isinstance(arm, BodyPart)
    arm.severed = True
    s, events = run(t, harm(2), [3, 3, 10])
    assert only(events, "serious_injury").data["part"] == "torso"
    assert wounded_parts(s.creatures["t"]) == {"torso": 3}


def test_a_strike_is_a_targeted_attack_so_the_rolled_part_gets_no_extra_half() -> None:
    """seed-004 Serious Injury: "If not already targeting a specific part, roll for a part. If not from a targeted
    attack, increase the Wounded Tier caused by half." A Strike targets the creature: the part is rolled but no
    half is added.
    Threshold 1; a sword of 4: Martial 8, 2 -> 8 against Elude 4, 1 -> 4: hit. Damage 4d12, faces 3, 3, 3, 1 ->
    Injury 3 -> 2 Wounded; part roll 8 -> right leg."""
    sword = weapon("sword", damage=4)
    _, events = run(duel(sword, 1), strike(sword), [8, 2, 4, 1, 3, 3, 3, 1, 8])
    si = only(events, "serious_injury")
    assert (si.data["part"], si.data["wounded"]) == ("right_leg", 2)
    assert not of_kind(events, "sever")


# --------------------------------------------------------------------------------------------------------
# Chopping: severing on doubles among half-Wounded d12
# --------------------------------------------------------------------------------------------------------

AXE = weapon("axe", damage=3, strike_types=("C",))
DAGGER = weapon("dagger", damage=1)


def chop_target(threshold: int) -> GameState:
    """The axe-wielder against `t` holding a dagger in its left arm."""
    return duel(AXE, threshold, weapons=[DAGGER], grip={"left_arm": "dagger"})


def test_chopping_serious_injury_rolls_half_the_wounded_in_d12_and_doubles_sever_the_part() -> None:
    """seed-004 Serious Injury: "If caused by Chopping damage, the attacker rolls d12 equal to half the Wounded
    Tier. If they roll doubles, the part is severed."
    Threshold 0. Martial 6, 2 -> 6 against Elude 5, 1 -> 5: hit; one attack face of 6 or more: Chopping +1 ->
    4d12, faces 3, 4, 5, 6 -> Injury 4 -> 4 Wounded; part roll 10 -> left arm. Half of 4 = 2d12: 7, 7 -> doubles:
    the left arm is severed. Its dagger falls into t's space (6, 5) and the arm is gone from its limbs."""
    s, events = run(chop_target(0), strike(AXE), [6, 2, 5, 1, 3, 4, 5, 6, 10, 7, 7])
    assert only(events, "serious_injury").data["wounded"] == 4
    sever = only(events, "sever")
    assert sever.rolls[0].dice == 2
    assert sever.data["severed"] is True
    t = s.creatures["t"]
    left_arm = t.part("left_arm")
    assert left_arm is not None and left_arm.severed
    assert t.limb("left_arm") is None
    assert [(i.weapon.id, i.cell, i.owner) for i in s.board.items] == [("dagger", (6, 5), "t")]


def test_a_holder_whose_holding_limb_is_severed_stops_being_a_holder_at_once() -> None:
    """seed-000 Grab: "A creature stops being a Holder if they can no longer touch the other creature with parts
    they used for the Hold." t holds h (in its space) with its left arm; "If there is no Holder or Held creature in
    a Hold, the Hold ends." a chops t: Martial 6, 2 -> 6 against Elude 5, 1 -> 5 - 2 (t's Encumbered from the
    Hold) = 3: hit; 4d12 3, 4, 5, 6 -> Injury 4 -> 4 Wounded; part roll 10 -> left arm; severing 7, 7: doubles.
    t stops being a Holder in the same Strike, and the Hold ends: h is free."""
    s0 = duel(AXE, 0)
    s0.creatures["h"] = creature("h", (6, 5))
    s0.holds["h0"] = Hold(id="h0", holders={"t": ["left_arm"]}, held=["h"])
    arm = s0.creatures["t"].limb("left_arm")
    assert arm is not None
    arm.hold_id = "h0"
    s, events = run(s0, strike(AXE), [6, 2, 5, 1, 3, 4, 5, 6, 10, 7, 7])
    assert only(events, "sever").data["severed"] is True
    assert of_kind(events, "hold_dropped")
    assert s.holds == {}


def test_chopping_without_doubles_severs_nothing() -> None:
    """seed-004 Serious Injury: "If they roll doubles, the part is severed." The same Strike, severing dice 7, 8:
    no doubles; the left arm keeps its 4 Wounded, stays a limb and still grips the dagger."""
    s, events = run(chop_target(0), strike(AXE), [6, 2, 5, 1, 3, 4, 5, 6, 10, 7, 8])
    assert only(events, "sever").data["severed"] is False
    t = s.creatures["t"]
    left_arm = t.limb("left_arm")
    assert left_arm is not None and left_arm.holding == "dagger"
    assert wounded_parts(t) == {"left_arm": 4}
    assert s.board.items == []


def test_chopping_rolls_half_the_wounded_rounded_down() -> None:
    """seed-004 Serious Injury: "the attacker rolls d12 equal to half the Wounded Tier".
    Threshold 1: the same hit (Injury 4) gives 3 Wounded; part roll 1 -> torso; half of 3 = 1d12 (face 5), which
    can never show doubles."""
    _, events = run(chop_target(1), strike(AXE), [6, 2, 5, 1, 3, 4, 5, 6, 1, 5])
    sever = only(events, "sever")
    assert sever.rolls[0].dice == 1
    assert sever.data["severed"] is False


def test_chopping_with_1_wounded_rolls_no_severing_dice() -> None:
    """seed-004 Serious Injury: "d12 equal to half the Wounded Tier": half of 1 is 0 dice.
    Threshold 3: Injury 4 -> 1 Wounded; part roll 1 -> torso; no severing roll (every scripted face is used)."""
    _, events = run(chop_target(3), strike(AXE), [6, 2, 5, 1, 3, 4, 5, 6, 1])
    assert only(events, "serious_injury").data["wounded"] == 1
    assert not of_kind(events, "sever")


def test_serious_injury_from_a_strike_that_is_not_chopping_never_severs() -> None:
    """seed-004 Serious Injury: only "If caused by Chopping damage" is there a severing roll.
    Threshold 0, a plain sword of 4: Martial 6, 2 against Elude 5, 1: hit. Damage faces 3, 4, 5, 6 -> Injury 4 ->
    4 Wounded; part roll 10 -> left arm. No severing dice."""
    sword = weapon("sword", damage=4)
    s, events = run(duel(sword, 0), strike(sword), [6, 2, 5, 1, 3, 4, 5, 6, 10])
    assert only(events, "serious_injury").data["wounded"] == 4
    assert not of_kind(events, "sever")
    assert s.creatures["t"].limb("left_arm") is not None


# --------------------------------------------------------------------------------------------------------
# Called Shot (seed-000): the rules module's Hit, as no command declares a Called Shot yet
# --------------------------------------------------------------------------------------------------------


def deal_hit(threshold: int, faces: list[int], **hit: Any) -> tuple[Tx, list[Event]]:
    tx = Tx(lone(threshold))
    dice = ScriptedDice(faces)
    events = deal(tx, Hit(target="t", **hit), dice)
    assert dice.remaining == 0
    return tx, events


def test_a_called_shot_treats_the_severe_threshold_as_half() -> None:
    """seed-000 Called Shot: "the attack strikes the part and treats Severe Threshold as half."
    Threshold 4 -> 2; 3 damage on the head: faces 3, 3, 3 -> Injury 3 -> 1 Wounded on the head. (Without the
    Called Shot, 3 does not exceed 4.)"""
    tx, events = deal_hit(4, [3, 3, 3], amount=3, part="head", called_shot=True)
    assert only(events, "serious_injury").data["wounded"] == 1
    assert wounded_parts(tx.state.creatures["t"]) == {"head": 1}
    _, plain = deal_hit(4, [3, 3, 3], amount=3, part="head")
    assert not of_kind(plain, "serious_injury")


def test_a_called_shot_doubles_a_threshold_below_0() -> None:
    """seed-000 Called Shot: "If Threshold is below 0, instead double it." seed-004: "increase the damage by the
    amount the subject's Severe Threshold is below 0" and "If their Threshold is lower than 0, it counts as 0."
    Threshold -1 -> -2: damage 1 + 2 = 3d12 on the head, faces 3, 3, 3 -> Injury 3 -> 3 Wounded."""
    _, events = deal_hit(-1, [3, 3, 3], amount=1, part="head", called_shot=True)
    assert only(events, "damage").rolls[0].dice == 3
    assert only(events, "serious_injury").data["wounded"] == 3


def test_a_called_shots_serious_injury_is_wounded_until_the_attacker_chooses_trauma() -> None:
    """seed-000 Called Shot: "If you cause Serious Injury, you may replace each Tier of Wounded with 2 Tiers of
    Trauma." Threshold 0; 2 damage on the left arm, faces 3, 3 -> Injury 2 -> 2 Wounded: Wounded, as the choice is
    the attacker's, made once it is known (test_tactics)."""
    tx, _ = deal_hit(0, [3, 3], amount=2, part="left_arm", called_shot=True)
    t = tx.state.creatures["t"]
    assert (t.ailments.get("Wounded"), t.ailments.get("Trauma")) == (2, None)
    left_arm = t.part("left_arm")
    assert left_arm is not None and (left_arm.trauma, left_arm.wounded) == (0, 2)
