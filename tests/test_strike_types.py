"""Hand-worked tests of Strike types (seed-004 "Damage and Strike Types": Bashing, Chopping, Flowing with Heat,
Cold, Acid and Lightning, Mystical, Stabbing; reference §6.2) and of choosing a type per attack (weapons page,
reference §6.2: "When a weapon has several strike types, choose one as you declare each attack").

Every roll is scripted and every face must be used, in this order: the attacker's Martial roll (its faces are the
"attack roll" the Strike types count), the target's Elude defense, the damage dice, then whatever follows the
Injury (a part roll, an Endure or Zeal roll, a Lightning jump's dice).

Every target's Severe Threshold is 12 so that no Injury here causes Serious Injury.

Layout (hex, axial (q, r)): attacker `a` at (5, 5), target `t` at (6, 5); (7, 5), (8, 5), (9, 5) continue the row
east. A size 2 target at (7, 5) fills (7, 5) and (8, 5); (8, 4) is next to both.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.model import Cell, Effect, GameState, Weapon

NO_SERIOUS = 12
T_SKILLS = {"Elude": 2, "Endure": 1, "Zeal": 1}


def duel(
    arm: Weapon,
    martial: int = 2,
    a_anchor: Cell = (5, 5),
    t_anchor: Cell = (6, 5),
    t_size: int = 0,
    others: list[tuple[str, Cell]] | None = None,
    board: dict[str, Any] | None = None,
    **t_kw: Any,
) -> GameState:
    """Attacker `a` (Martial `martial`) gripping `arm` in its right arm; target `t` (Elude 2, Endure 1, Zeal 1);
    `others` are bystanders (same skills), all with Severe Threshold 12."""
    a = creature(
        "a",
        a_anchor,
        skills={"Martial": martial, "Elude": 2},
        weapons=[arm],
        grip={"right_arm": arm.id},
        severe_threshold=NO_SERIOUS,
    )
    t = creature("t", t_anchor, size=t_size, skills=T_SKILLS, severe_threshold=NO_SERIOUS, **t_kw)
    rest = [creature(cid, cell, skills=T_SKILLS, severe_threshold=NO_SERIOUS) for cid, cell in others or []]
    return on_turn(state(a, t, *rest, **(board or {})), "a")


def strike(arm: Weapon, **kw: Any) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "target": "t", "weapon": arm.id, **kw}


# --------------------------------------------------------------------------------------------------------
# Bashing
# --------------------------------------------------------------------------------------------------------

MACE = weapon("mace", damage=3, strike_types=("B",))


def test_bashing_injury_is_at_least_the_attack_faces_of_6_or_more() -> None:
    """seed-004 Bashing: "Injury you cause with the attack cannot be lower than the number of face values 6 or
    higher in your attack roll - the number of sizes the target is larger than you."
    Martial 7, 6 -> 7 against Elude 5, 2 -> 5: hit; two attack faces of 6 or more. Damage 3d12, faces 2, 1, 3 ->
    1 counted, raised to 2."""
    s, events = run(duel(MACE), strike(MACE), [7, 6, 5, 2, 2, 1, 3])
    assert only(events, "damage").data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_bashing_never_lowers_the_injury_counted() -> None:
    """seed-004 Bashing: Injury "cannot be lower than" the floor; it may be higher.
    Martial 7, 6 against Elude 5, 2: hit, floor 2. Damage faces 3, 4, 5 -> Injury 3."""
    _, events = run(duel(MACE), strike(MACE), [7, 6, 5, 2, 3, 4, 5])
    assert only(events, "damage").data["injury"] == 3


def test_bashing_attack_faces_below_6_give_no_floor() -> None:
    """seed-004 Bashing: only "face values 6 or higher in your attack roll" count.
    Martial 5, 4 -> 5 against Elude 3, 1 -> 3: hit, no face of 6 or more. Damage faces 1, 1, 2 -> Injury 0."""
    s, events = run(duel(MACE), strike(MACE), [5, 4, 3, 1, 1, 1, 2])
    assert only(events, "damage").data["injury"] == 0
    assert s.creatures["t"].grit.pips == 0


def test_bashing_floor_is_capped_at_the_damage_dice_rolled() -> None:
    """seed-004 Bashing: "This does not cause Injury to become higher than the damage rolled."
    A club of 1 damage: Martial 8, 7 -> 8 against Elude 5, 1 -> 5: hit, two faces of 6 or more, but only 1d12 is
    rolled (face 1): Injury 1, not 2."""
    club = weapon("club", damage=1, strike_types=("B",))
    s, events = run(duel(club), strike(club), [8, 7, 5, 1, 1])
    assert only(events, "damage").data["injury"] == 1
    assert s.creatures["t"].grit.pips == 1


def test_bashing_floor_is_0_when_no_damage_dice_are_rolled() -> None:
    """seed-004 Bashing: "This does not cause Injury to become higher than the damage rolled"; "Before rolling,
    you may reduce your dice rolled by any amount."
    Martial 8, 7 against Elude 5, 1: hit, floor 2; the roller rolls 0 dice: Injury 0."""
    s, events = run(duel(MACE), strike(MACE, max_dice=0), [8, 7, 5, 1])
    assert only(events, "damage").data["injury"] == 0
    assert s.creatures["t"].grit.pips == 0


def test_bashing_floor_falls_by_the_sizes_the_target_is_larger() -> None:
    """seed-004 Bashing: "... the number of face values 6 or higher in your attack roll - the number of sizes the
    target is larger than you."
    A size 2 target: Martial 3 (9, 6, 7) -> 9 + 1 (half of 2) = 10 against Elude 5, 3 -> 5: hit, three faces of 6
    or more, floor 3 - 2 = 1. A mace of 4 damage: 4 - 2 (size) = 2d12, faces 1, 2 -> 0 counted, raised to 1."""
    maul = weapon("maul", damage=4, strike_types=("B",))
    s0 = duel(maul, martial=3, a_anchor=(8, 4), t_anchor=(7, 5), t_size=2)
    s, events = run(s0, strike(maul), [9, 6, 7, 5, 3, 1, 2])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 2
    assert damage.data["injury"] == 1
    assert s.creatures["t"].grit.pips == 1


# --------------------------------------------------------------------------------------------------------
# Chopping
# --------------------------------------------------------------------------------------------------------

AXE = weapon("axe", damage=2, strike_types=("C",))


def test_chopping_deals_1_more_damage_per_attack_face_of_6_or_more() -> None:
    """seed-004 Chopping: "For each face value 6 or higher in your attack roll, deal +1 damage."
    Martial 3 (6, 11, 2) -> 11 against Elude 4, 1 -> 4: hit; faces 6 and 11 -> +2. Damage 2 + 2 = 4d12, faces
    3, 1, 5, 2 -> Injury 2."""
    s, events = run(duel(AXE, martial=3), strike(AXE), [6, 11, 2, 4, 1, 3, 1, 5, 2])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 4
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_chopping_does_not_count_an_attack_face_of_5() -> None:
    """seed-004 Chopping: "For each face value 6 or higher". Martial 3 (5, 11, 2) -> 11 against Elude 4, 1: hit;
    only 11 counts -> 2 + 1 = 3d12, faces 3, 1, 5 -> Injury 2."""
    s, events = run(duel(AXE, martial=3), strike(AXE), [5, 11, 2, 4, 1, 3, 1, 5])
    assert only(events, "damage").rolls[0].dice == 3
    assert s.creatures["t"].grit.pips == 2


# --------------------------------------------------------------------------------------------------------
# Stabbing
# --------------------------------------------------------------------------------------------------------

DAGGER = weapon("dagger", damage=3, strike_types=("S",))


def test_stabbing_lowers_physical_reduction_by_1_per_attack_face_of_6_or_more() -> None:
    """seed-004 Stabbing: "For each face value 6 or higher in your attack roll, reduce the target's physical
    reduction by 1 against the attack."
    Physical Reduction 2. Martial 6, 9 -> 9 against Elude 5, 1: hit; two faces of 6 or more: needed 3 + 2 - 2 =
    3. Damage 3d12, faces 3, 4, 2 -> Injury 2 (it would be 0 needing 5)."""
    _, events = run(duel(DAGGER, reductions={"physical": 2}), strike(DAGGER), [6, 9, 5, 1, 3, 4, 2])
    damage = only(events, "damage")
    assert damage.data["needed"] == 3
    assert damage.data["injury"] == 2


def test_stabbing_lowers_armours_physical_reduction_too() -> None:
    """seed-004 Stabbing: "reduce the target's physical reduction"; armour gives Physical Reduction (seed-004
    Flowing: "Physical Reduction of armor").
    Armour 2. Martial 6, 2 -> 6 against Elude 5, 1: hit; one face of 6 or more: needed 3 + 2 - 1 = 4. Faces 3, 4,
    12 -> Injury 2."""
    _, events = run(duel(DAGGER, armor_reduction=2), strike(DAGGER), [6, 2, 5, 1, 3, 4, 12])
    damage = only(events, "damage")
    assert damage.data["needed"] == 4
    assert damage.data["injury"] == 2


def test_stabbing_does_not_lower_an_elemental_reduction() -> None:
    """seed-004 Stabbing: it reduces "the target's physical reduction" only.
    A fire dagger against Fire Reduction 2: Martial 6, 9 against Elude 5, 1: hit; needed 3 + 2 = 5 whatever the
    faces. Damage faces 4, 5, 6 -> Injury 2."""
    fire_dagger = weapon("fdagger", damage=3, strike_types=("S",), element="fire")
    _, events = run(duel(fire_dagger, reductions={"fire": 2}), strike(fire_dagger), [6, 9, 5, 1, 4, 5, 6])
    damage = only(events, "damage")
    assert damage.data["needed"] == 5
    assert damage.data["injury"] == 2


# --------------------------------------------------------------------------------------------------------
# Flowing: armour, then Heat, Cold, Acid, Lightning
# --------------------------------------------------------------------------------------------------------


def test_flowing_ignores_the_physical_reduction_of_armour() -> None:
    """seed-004 Flowing: "Ignore Physical Reduction of armor".
    Armour 3 and a natural Physical Reduction 1: a Flowing whip (no Element) needs 3 + 1 = 4. Martial 8, 2 -> 8
    against Elude 4, 1: hit. Damage 3d12, faces 3, 4, 9 -> Injury 2."""
    whip = weapon("whip", damage=3, strike_types=("F",))
    s0 = duel(whip, armor_reduction=3, reductions={"physical": 1})
    _, events = run(s0, strike(whip), [8, 2, 4, 1, 3, 4, 9])
    damage = only(events, "damage")
    assert damage.data["needed"] == 4
    assert damage.data["injury"] == 2


def test_armour_counts_against_a_strike_that_is_not_flowing() -> None:
    """seed-004 Damage Reduction: reductions stack; only Flowing ignores armour.
    The same target against a plain sword of 3: needed 3 + 1 + 3 = 7. Faces 3, 4, 9 -> Injury 1."""
    sword = weapon("sword", damage=3)
    s0 = duel(sword, armor_reduction=3, reductions={"physical": 1})
    _, events = run(s0, strike(sword), [8, 2, 4, 1, 3, 4, 9])
    damage = only(events, "damage")
    assert damage.data["needed"] == 7
    assert damage.data["injury"] == 1


FLAME = weapon("flame", damage=2, strike_types=("F",), element="fire")


def test_heat_injury_failing_endure_at_double_the_injury_gives_tier_1_exhausted() -> None:
    """seed-004 Fire: "Flowing Fire effects become Heat. After Heat Injury, the creature rolls Endure, DL equal to
    double Injury. On failure, they suffer Tier 1 Exhausted."
    Martial 8, 2 against Elude 4, 1: hit. Damage 2d12, faces 3, 5 -> Heat Injury 2. Endure 1d12 against DL 4:
    face 3 fails -> Exhausted 1."""
    s, events = run(duel(FLAME), strike(FLAME), [8, 2, 4, 1, 3, 5, 3])
    heat = only(events, "heat")
    assert heat.data["dl"] == 4
    assert "heat" in only(events, "damage").data["types"]
    assert s.creatures["t"].ailments.get("Exhausted") == 1


def test_heat_injury_resisted_by_reaching_the_endure_dl() -> None:
    """seed-004 Fire: "... rolls Endure, DL equal to double Injury. On failure ...".
    Damage faces 3, 5 -> Injury 2; Endure face 4 reaches DL 4: no Exhausted."""
    s, _ = run(duel(FLAME), strike(FLAME), [8, 2, 4, 1, 3, 5, 4])
    assert "Exhausted" not in s.creatures["t"].ailments


def test_heat_injury_from_any_source_calls_for_the_endure_roll() -> None:
    """seed-004 Fire: "After Heat Injury, the creature rolls Endure, DL equal to double Injury. On failure, they
    suffer Tier 1 Exhausted."
    The Soulweaver deals Heat damage 2 by hand: faces 3, 3 -> Heat Injury 2; Endure 1d12 against DL 4: face 2
    fails -> Exhausted 1."""
    t = creature("t", (5, 5), skills=T_SKILLS, severe_threshold=NO_SERIOUS)
    dice = ScriptedDice([3, 3, 2])
    s, events = apply(state(t), {"type": "harm", "target": "t", "amount": 2, "element": "heat"}, dice)
    assert only(events, "damage").data["injury"] == 2
    assert of_kind(events, "heat"), [e.kind for e in events]
    assert s.creatures["t"].ailments.get("Exhausted") == 1
    assert dice.remaining == 0


FROST = weapon("frost", damage=2, strike_types=("F",), element="water")


def cold_state() -> GameState:
    s = duel(FROST)
    s.effects = [
        Effect(id="e1", name="Ward", creator="a", subject="t", rounds=3),
        Effect(id="e2", name="Blessing", creator="a", subject="t", rounds=1),
        Effect(id="e3", name="Haste", creator="a", subject="a", rounds=2),
    ]
    return s


def test_cold_injury_failing_zeal_shortens_ongoing_effects_on_the_creature_by_1_round() -> None:
    """seed-004 Water: "Flowing Water effects become Cold. After Cold Injury, the creature rolls Zeal, DL equal to
    double Injury. On failure, the duration of ongoing effects on them are reduced by 1 round."
    Martial 8, 2 against Elude 4, 1: hit. Damage faces 3, 3 -> Cold Injury 2. Zeal 1d12 against DL 4: face 3
    fails. Ward on the target 3 -> 2 rounds; Blessing on the target 1 -> 0 rounds, it ends; Haste on the attacker
    stays 2."""
    s, events = run(cold_state(), strike(FROST), [8, 2, 4, 1, 3, 3, 3])
    assert only(events, "cold").data["dl"] == 4
    assert {e.id: e.rounds for e in s.effects} == {"e1": 2, "e3": 2}


def test_cold_injury_resisted_by_reaching_the_zeal_dl() -> None:
    """seed-004 Water: "... rolls Zeal, DL equal to double Injury. On failure ...". Damage faces 3, 3 -> Injury 2;
    Zeal face 4 reaches DL 4: every duration stays."""
    s, _ = run(cold_state(), strike(FROST), [8, 2, 4, 1, 3, 3, 4])
    assert {e.id: e.rounds for e in s.effects} == {"e1": 3, "e2": 1, "e3": 2}


QUAKE = weapon("quake", damage=3, strike_types=("F",), element="earth")


def test_acid_injury_deals_continuing_acid_damage_of_half_the_injury_for_1_round() -> None:
    """seed-004 Earth: "Flowing Earth effects become Acid. After Acid Injury, deal Continuing Acid damage equal to
    half Injury for 1 round." Continuing Damage: "If an effect causes Continuing Damage and does not target a
    part, roll for a part to be affected."
    Martial 8, 2 against Elude 4, 1: hit. Damage 3d12, faces 3, 4, 5 -> Acid Injury 3 -> Continuing Acid 1 (half
    of 3, rounded down) for 1 round; the part roll 6 is the left leg."""
    s, events = run(duel(QUAKE), strike(QUAKE), [8, 2, 4, 1, 3, 4, 5, 6])
    assert "acid" in only(events, "damage").data["types"]
    (cont,) = s.creatures["t"].continuing
    assert (cont.element, cont.amount, cont.part, cont.rounds) == ("acid", 1, "left_leg", 1)


def test_acid_injury_of_1_leaves_no_continuing_damage() -> None:
    """seed-004 Earth: "... Continuing Acid damage equal to half Injury": half of 1 is 0. Damage faces 3, 1, 2
    -> Injury 1: nothing continues and no part is rolled."""
    s, _ = run(duel(QUAKE), strike(QUAKE), [8, 2, 4, 1, 3, 1, 2])
    assert s.creatures["t"].continuing == []


SHOCK = weapon("shock", damage=2, strike_types=("F",), element="air")


def test_lightning_through_water_deals_half_damage_to_another_creature_in_it() -> None:
    """seed-004 Air: "Flowing Air effects become Lightning. After Lighting damages a target contacting conductive
    material or water, deal half damage to a random target not already damaged by the lightning that is in contact
    with that material or connected water."
    Water fills (6, 5) and (7, 5): t stands in it and u at (7, 5). Martial 8, 2 against Elude 4, 1: hit. Damage
    2d12, faces 3, 3 -> Injury 2 to t. Half of 2 = 1 to u, the only other creature in the water (no pick roll):
    1d12, face 3 -> Injury 1. Half of 1 is 0: the lightning goes no further."""
    s0 = duel(SHOCK, others=[("u", (7, 5))], board={"water": {(6, 5), (7, 5)}})
    s, events = run(s0, strike(SHOCK), [8, 2, 4, 1, 3, 3, 3])
    assert only(events, "lightning").target == "u"
    assert s.creatures["t"].grit.pips == 2
    assert s.creatures["u"].grit.pips == 1
    assert s.creatures["a"].grit.pips == 0


def test_lightning_through_conductive_material_picks_a_random_target_on_it() -> None:
    """seed-004 Air: "... deal half damage to a random target not already damaged by the lightning that is in
    contact with that material".
    A rail fills (6, 5) to (9, 5): t at (6, 5), u at (8, 5), v at (9, 5) touch it; w at (6, 7) does not. Hit
    (Martial 8, 2 against Elude 4, 1), damage faces 3, 3 -> Injury 2 to t. The jump picks one of u, v with a d12
    (faces 1-12 over 2 targets in order u, v): face 4 -> (4 - 1) mod 2 = 1 -> v. v takes 1d12, face 5 ->
    Injury 1."""
    rail = [[(6, 5), (7, 5), (8, 5), (9, 5)]]
    s0 = duel(SHOCK, others=[("u", (8, 5)), ("v", (9, 5)), ("w", (6, 7))], board={"conductive": rail})
    s, events = run(s0, strike(SHOCK), [8, 2, 4, 1, 3, 3, 4, 5])
    assert only(events, "lightning").target == "v"
    assert {cid: c.grit.pips for cid, c in s.creatures.items()} == {"a": 0, "t": 2, "u": 0, "v": 1, "w": 0}


def test_lightning_does_not_jump_without_a_conductor_or_water() -> None:
    """seed-004 Air: the jump needs "a target contacting conductive material or water". No water, no rail: u
    next to t takes nothing. Hit (8, 2 against 4, 1), damage faces 3, 3 -> Injury 2 to t only."""
    s, events = run(duel(SHOCK, others=[("u", (7, 5))]), strike(SHOCK), [8, 2, 4, 1, 3, 3])
    assert not of_kind(events, "lightning")
    assert s.creatures["u"].grit.pips == 0


def test_lightnings_jump_is_lightning_damage_so_lightning_reduction_counts() -> None:
    """seed-004 Air: "deal half damage" (the lightning's damage); Damage Reduction: "The face value needed on
    damage dice against you is increased by your Damage Reduction against the damage type."
    As the water test, but u has Lightning Reduction 9: the jump's die needs 3 + 9 = 12, face 11 -> Injury 0."""
    s0 = duel(SHOCK, others=[("u", (7, 5))], board={"water": {(6, 5), (7, 5)}})
    s0.creatures["u"].reductions = {"lightning": 9}
    s, events = run(s0, strike(SHOCK), [8, 2, 4, 1, 3, 3, 11])
    jump_damage = [e for e in events if e.kind == "damage" and e.target == "u"]
    assert len(jump_damage) == 1
    assert jump_damage[0].data["needed"] == 12
    assert s.creatures["u"].grit.pips == 0


def test_lightning_jumps_on_only_after_it_damaged() -> None:
    """seed-004 Air: "After Lighting damages a target contacting conductive material or water, deal half damage to a
    random target not already damaged by the lightning". Water fills (6, 5) to (8, 5): t, u (Lightning Reduction
    9) and v stand in it. A shock of 4: hit (8, 2 against 4, 1); faces 3, 3, 3, 3 -> Injury 4 to t. Half, 2, jumps
    to u or v: pick face 1 -> u; u's dice need 12: 11, 11 -> no Injury: it damaged nobody, so it jumps no further
    and v takes nothing."""
    shock = weapon("shock", damage=4, strike_types=("F",), element="air")
    s0 = duel(shock, others=[("u", (7, 5)), ("v", (8, 5))], board={"water": {(6, 5), (7, 5), (8, 5)}})
    s0.creatures["u"].reductions = {"lightning": 9}
    s, events = run(s0, strike(shock), [8, 2, 4, 1, 3, 3, 3, 3, 1, 11, 11])
    assert [e.target for e in of_kind(events, "lightning")] == ["u"]
    assert {cid: c.grit.pips for cid, c in s.creatures.items()} == {"a": 0, "t": 4, "u": 0, "v": 0}


# --------------------------------------------------------------------------------------------------------
# Mystical
# --------------------------------------------------------------------------------------------------------


def test_mystical_damage_is_magical_so_size_does_not_change_it_and_magical_reduction_applies() -> None:
    """seed-004 Mystical: "Deals magical damage." Size: "Dealing physical damage is affected by the size of the
    subject"; Damage Reduction: "... your Damage Reduction against the damage type."
    A size 1 attacker with a Mystical rune blade of 2 on a size 0 target with Physical Reduction 3, armour 2 and
    Magical Reduction 1: no size change (2d12, not 3d12), needed 3 + 1 = 4. Martial 8, 2 -> 8 (half of 1 is 0)
    against Elude 4, 1: hit. Damage faces 4, 3 -> Injury 1."""
    rune = weapon("rune", damage=2, strike_types=("M",))
    s0 = duel(rune, reductions={"physical": 3, "magical": 1}, armor_reduction=2)
    s0.creatures["a"].size = 1
    _, events = run(s0, strike(rune), [8, 2, 4, 1, 4, 3])
    damage = only(events, "damage")
    assert damage.data["types"] == ["magical"]
    assert damage.rolls[0].dice == 2
    assert damage.data["needed"] == 4
    assert damage.data["injury"] == 1


# --------------------------------------------------------------------------------------------------------
# Choosing the Strike type per attack
# --------------------------------------------------------------------------------------------------------

STAR = weapon("star", damage=2, strike_types=("B", "S"))


def test_a_weapon_with_several_types_uses_the_one_chosen_for_the_attack() -> None:
    """reference §6.2: "When a weapon has several strike types, choose one as you declare each attack."
    A Bashing/Stabbing morning star against Physical Reduction 1, declared Stabbing: Martial 6, 7 -> 7 against
    Elude 5, 1: hit; needed 3 + 1 - 1 = 3 (Stabbing lowers it by at most the 1 Reduction there is). Damage faces
    3, 1 -> Injury 1 (Bashing's floor of 2 does not apply)."""
    _, events = run(duel(STAR, reductions={"physical": 1}), strike(STAR, strike_type="S"), [6, 7, 5, 1, 3, 1])
    damage = only(events, "damage")
    assert damage.data["needed"] == 3
    assert damage.data["injury"] == 1


def test_the_same_weapon_declared_bashing_applies_bashing() -> None:
    """reference §6.2: choose the type "as you declare each attack". Declared Bashing, the same faces: needed 3 +
    1 = 4, damage faces 3, 1 -> 0 counted, raised to the 2 attack faces of 6 or more -> Injury 2."""
    _, events = run(duel(STAR, reductions={"physical": 1}), strike(STAR, strike_type="B"), [6, 7, 5, 1, 3, 1])
    damage = only(events, "damage")
    assert damage.data["needed"] == 4
    assert damage.data["injury"] == 2


def test_a_strike_type_the_weapon_lacks_is_refused() -> None:
    """reference §6.2: the type is chosen from the weapon's own types. The morning star cannot Chop."""
    refused(duel(STAR), strike(STAR, strike_type="C"))
