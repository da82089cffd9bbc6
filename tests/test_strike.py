"""Hand-worked tests of Strikes (seed-000 "Strikes", the melee-weapon Strike, attacking surfaces; seed-004 damage
and size; the weapons page for weapon properties, see reference §6).

Every roll is scripted. The faces are used in this order: the attacker's Martial roll, the defender's defense
roll, then the damage dice. A skill roll's result is its highest face plus modifiers; damage counts the faces of
3 or more as Injury. Each expected value is worked out by hand in the docstring.

Layout (hex, axial (q, r)): (5, 5)'s neighbours are (6, 5), (6, 4), (5, 4), (4, 5), (4, 6), (5, 6); (7, 5) is 2
spaces east of (5, 5) and the line between them passes (6, 5).
"""

from __future__ import annotations

from typing import Any

from factories import creature, limb, mod_values, on_turn, only, refused, run, state, weapon

from vtt.rules.events import Event
from vtt.rules.model import GameState

SWORD = weapon("sword", damage=2)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def strike(target: str = "t", weapon_id: str | None = "sword", **kw: Any) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "target": target, "weapon": weapon_id, **kw}


def duel(
    a_size: int = 0,
    a_anchor: tuple[int, int] = (5, 5),
    t_size: int = 0,
    t_anchor: tuple[int, int] = (6, 5),
    weapons: list[Any] | None = None,
    grip: dict[str, str] | None = None,
    t_skills: dict[str, int] | None = None,
    walls: set[tuple[int, int]] | None = None,
) -> GameState:
    """Attacker `a` (Martial 2) gripping its weapon, target `t` (Elude 2), on the Soulweaver's turn."""
    a = creature(
        "a",
        a_anchor,
        size=a_size,
        weapons=weapons if weapons is not None else [SWORD],
        grip=grip if grip is not None else {"right_arm": "sword"},
    )
    t = creature("t", t_anchor, size=t_size, skills=t_skills)
    return on_turn(state(a, t, walls=walls), "a")


def surface(space: tuple[int, int], kind: str) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "space": space, "surface": kind, "weapon": "sword"}


# --------------------------------------------------------------------------------------------------------
# DL 3, the defense, ties, damage as Injury
# --------------------------------------------------------------------------------------------------------


def test_strike_beating_the_defense_deals_weapon_damage_as_grit_injury() -> None:
    """seed-000 Strike: "Attack a target with a melee weapon to cause damage and effects of the weapon, DL 3."
    seed-004: "roll a number of d12 equal to the amount of the effect ... For damage, the value needed is 3 and
    the result is also called Injury."
    Martial 2 faces 7, 3 -> 7 (>= DL 3) against Elude 2 faces 5, 2 -> 5: success. Sword damage 2 -> 2d12, faces
    3, 2: one face reaches 3 -> Injury 1 -> 1 Grit Pip."""
    s, events = run(duel(), strike(), [7, 3, 5, 2, 3, 2])
    attack = only(events, "attack")
    assert attack.data["success"] is True
    assert attack.rolls[0].result == 7
    assert attack.rolls[1].result == 5
    damage = only(events, "damage")
    assert damage.rolls[0].faces == (3, 2)
    assert damage.data["injury"] == 1
    assert s.creatures["t"].grit.pips == 1


def test_strike_roll_of_2_misses_dl_3_even_against_a_lower_defense() -> None:
    """seed-000 Strike: "Attack a target with a melee weapon ..., DL 3."
    Martial 2 faces 2, 1 -> 2. The target has Elude 0: its defense rolls no dice and comes to 0 (reference §1.3
    ASSUMPTION). 2 beats 0 but is short of DL 3: the Strike fails and no damage is rolled."""
    s, events = run(duel(t_skills={"Elude": 0}), strike(), [2, 1])
    attack = only(events, "attack")
    assert attack.rolls[0].result == 2
    assert attack.rolls[1].result == 0
    assert attack.data["success"] is False
    assert "damage" not in kinds(events)
    assert s.creatures["t"].grit.pips == 0


def test_strike_roll_of_exactly_3_reaches_the_dl() -> None:
    """seed-000 Strike: "..., DL 3." Reaching the DL succeeds (reference §1.2).
    Martial faces 3, 1 -> 3 against Elude faces 2, 1 -> 2: success. Damage 2d12 faces 12, 1 -> Injury 1."""
    s, events = run(duel(), strike(), [3, 1, 2, 1, 12, 1])
    assert only(events, "attack").data["success"] is True
    assert s.creatures["t"].grit.pips == 1


def test_strike_tie_with_the_defense_goes_to_the_defender() -> None:
    """seed-004 "Skill Defense": "roll that Skill against the attacker to avoid the attack"; a tie goes to the
    defender (reference §1.3 ASSUMPTION, table default `ties_to="defender"`).
    Martial faces 6, 1 -> 6 against Elude faces 6, 2 -> 6: a tie, the Strike fails, no damage dice."""
    s, events = run(duel(), strike(), [6, 1, 6, 2])
    assert only(events, "attack").data["success"] is False
    assert s.creatures["t"].grit.pips == 0


# --------------------------------------------------------------------------------------------------------
# Size: half the difference on the roll, the full difference on damage
# --------------------------------------------------------------------------------------------------------


def test_damage_dice_rise_by_the_size_difference_against_a_smaller_target() -> None:
    """seed-004 Size: "Against subject larger than you, reduce your damage equal to the size difference. Against
    smaller subjects, instead increase your damage."
    Size 1 attacker, size 0 target: the roll's size penalty is half of 1 -> 0 (round down). Martial 8, 2 -> 8
    against Elude 4, 1 -> 4: success. Damage 2 + 1 = 3d12, faces 3, 4, 2 -> Injury 2."""
    s, events = run(duel(a_size=1), strike(), [8, 2, 4, 1, 3, 4, 2])
    attack = only(events, "attack")
    assert mod_values(attack) == []
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 3
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_strike_against_a_smaller_target_takes_half_the_size_difference_as_a_penalty() -> None:
    """seed-000 Strikes: "Against targets smaller than you, suffer a penalty on your roll equal to half the size
    difference."
    Size 2 attacker (spaces (5, 5), (6, 5)) on a size 0 target at (7, 5): penalty half of 2 = -1. Martial faces
    6, 2 -> 6 - 1 = 5 against Elude 5, 1 -> 5: a tie, the Strike fails (without the penalty it would succeed)."""
    _, events = run(duel(a_size=2, t_anchor=(7, 5)), strike(), [6, 2, 5, 1])
    attack = only(events, "attack")
    assert mod_values(attack) == [-1]
    assert attack.rolls[0].result == 5
    assert attack.data["success"] is False


def test_strike_against_a_smaller_target_deals_the_full_size_difference_more_damage() -> None:
    """seed-000 Strikes: "Against targets smaller than you, suffer a penalty on your roll equal to half the size
    difference." seed-004 Size: "Against smaller subjects, instead increase your damage."
    Size 2 attacker on a size 0 target: Martial 9, 2 -> 9 - 1 = 8 against Elude 5, 1 -> 5: success. Damage
    2 + 2 = 4d12, faces 3, 1, 5, 2 -> Injury 2."""
    s, events = run(duel(a_size=2, t_anchor=(7, 5)), strike(), [9, 2, 5, 1, 3, 1, 5, 2])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 4
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_strike_against_a_larger_target_gains_half_the_size_difference() -> None:
    """seed-000 Strikes: "Against larger targets, gain that amount as bonus." seed-004 Size: "Against subject
    larger than you, reduce your damage equal to the size difference."
    Size 0 attacker at (8, 4) is next to both spaces (7, 5), (8, 5) of a size 2 target (none obstructed): bonus
    half of 2 = +1. Martial 5, 2 -> 6 against Elude 5, 3 -> 5: success (a tie without the bonus). A damage 3
    weapon: 3 - 2 = 1d12, face 6 -> Injury 1."""
    club = weapon("club", damage=3)
    s0 = duel(a_anchor=(8, 4), t_size=2, t_anchor=(7, 5), weapons=[club], grip={"right_arm": "club"})
    s, events = run(s0, strike(weapon_id="club"), [5, 2, 5, 3, 6])
    attack = only(events, "attack")
    assert mod_values(attack) == [1]
    assert attack.data["success"] is True
    assert only(events, "damage").rolls[0].dice == 1
    assert s.creatures["t"].grit.pips == 1


def test_attacker_4_sizes_larger_may_attack_nimble_with_the_penalty_on_damage() -> None:
    """seed-000 Strikes: "If you are 4 or more sizes larger than your target, you can instead attack against
    Nimble and the penalty on your roll instead applies to damage."
    Size 4 attacker (7 spaces around (5, 5)), size 0 target at (7, 5). The roll penalty (half of 4 = 2) moves to
    damage: Martial 6, 2 -> 6 with no modifier against Nimble 5, 3 -> 5: success. Damage 2 + 4 (size) - 2
    (moved penalty) = 4d12, faces 3, 3, 1, 2 -> Injury 2."""
    s0 = duel(a_size=4, t_anchor=(7, 5), t_skills={"Elude": 2, "Nimble": 2})
    s, events = run(s0, strike(nimble=True), [6, 2, 5, 3, 3, 3, 1, 2])
    attack = only(events, "attack")
    assert attack.data["defense_skill"] == "Nimble"
    assert mod_values(attack) == []
    assert attack.data["success"] is True
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 4
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_attacker_4_sizes_larger_not_attacking_nimble_keeps_the_penalty_on_the_roll() -> None:
    """seed-000 Strikes: "Against targets smaller than you, suffer a penalty on your roll equal to half the size
    difference."
    Size 4 on size 0 against Elude: -2 on the roll. Martial 6, 2 -> 4 against Elude 5, 3 -> 5: fails."""
    s0 = duel(a_size=4, t_anchor=(7, 5), t_skills={"Elude": 2, "Nimble": 2})
    _, events = run(s0, strike(), [6, 2, 5, 3])
    attack = only(events, "attack")
    assert attack.data["defense_skill"] == "Elude"
    assert mod_values(attack) == [-2]
    assert attack.data["success"] is False


def test_attacking_nimble_is_refused_at_only_3_sizes_larger() -> None:
    """seed-000 Strikes: "If you are 4 or more sizes larger than your target, you can instead attack against
    Nimble". Size 3 (spaces (5, 5), (6, 5), (5, 6), (6, 6)) on size 0 at (7, 5) is only 3 sizes larger."""
    refused(duel(a_size=3, t_anchor=(7, 5)), strike(nimble=True))


# --------------------------------------------------------------------------------------------------------
# Weapon properties
# --------------------------------------------------------------------------------------------------------


def test_accurate_weapon_gains_1_on_the_attack_roll() -> None:
    """Weapons page (reference §6.3): "Accurate: Gain +1 on attack rolls."
    Martial 5, 2 -> 5 + 1 = 6 against Elude 5, 4 -> 5: success (a tie without Accurate). Damage 2d12, faces 1,
    3 -> Injury 1."""
    rapier = weapon("rapier", damage=2, accurate=True)
    s0 = duel(weapons=[rapier], grip={"right_arm": "rapier"})
    s, events = run(s0, strike(weapon_id="rapier"), [5, 2, 5, 4, 1, 3])
    attack = only(events, "attack")
    assert mod_values(attack) == [1]
    assert attack.data["success"] is True
    assert s.creatures["t"].grit.pips == 1


def test_devastating_weapon_deals_1_more_damage_die_per_12_rolled() -> None:
    """Weapons page (reference §6.3): "When an attack is Devastating, for each face value 12 in the attack roll,
    it deals +1 damage."
    Martial 12, 12 -> 12 against Elude 11, 2 -> 11: success. Two 12s: damage 2 + 2 = 4d12, faces 12, 3, 2, 1 ->
    Injury 2."""
    maul = weapon("maul", damage=2, devastating=True)
    s0 = duel(weapons=[maul], grip={"right_arm": "maul"})
    s, events = run(s0, strike(weapon_id="maul"), [12, 12, 11, 2, 12, 3, 2, 1])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 4
    assert s.creatures["t"].grit.pips == 2


def test_twelves_add_no_damage_dice_without_devastating() -> None:
    """Weapons page (reference §6.3): "If you roll any face value 12 in your attack roll, the attack is
    Devastating" applies to Devastating weapons only. Martial 12, 12 against Elude 11, 2: success; the sword's
    damage stays 2d12, faces 12, 3 -> Injury 2."""
    s, events = run(duel(), strike(), [12, 12, 11, 2, 12, 3])
    assert only(events, "damage").rolls[0].dice == 2
    assert s.creatures["t"].grit.pips == 2


def test_weapon_usage_tier_above_martial_is_a_penalty_on_the_attack() -> None:
    """Weapons page (reference §6.1): "Suffer a penalty on your attack roll, Guard value, and Extend value equal
    to the amount the weapon's Tier exceeds your related Skill Tier."
    Tier 4 weapon, Martial 2: -2. Martial 7, 1 -> 5 against Elude 5, 2 -> 5: a tie, the Strike fails."""
    halberd = weapon("halberd", damage=2, tier=4)
    s0 = duel(weapons=[halberd], grip={"right_arm": "halberd"})
    _, events = run(s0, strike(weapon_id="halberd"), [7, 1, 5, 2])
    attack = only(events, "attack")
    assert mod_values(attack) == [-2]
    assert attack.data["success"] is False


def test_extend_adds_its_value_to_reach() -> None:
    """Weapons page (reference §2.3): "Extend X: Increase your Reach by the Extend value."
    Size 0 (Reach 1) with Extend 1: Reach 2, so the target 2 spaces away at (7, 5) is in Reach; it is in the
    added area, so no -2. Martial 6, 2 -> 6 against Elude 4, 2 -> 4: success; damage faces 3, 3 -> Injury 2."""
    spear = weapon("spear", damage=2, extend=1)
    s0 = duel(t_anchor=(7, 5), weapons=[spear], grip={"right_arm": "spear"})
    s, events = run(s0, strike(weapon_id="spear"), [6, 2, 4, 2, 3, 3])
    assert only(events, "reach").data["reach"] == 2
    attack = only(events, "attack")
    assert mod_values(attack) == []
    assert attack.data["success"] is True
    assert s.creatures["t"].grit.pips == 2


def test_extend_is_minus_2_against_a_target_closer_than_the_added_area() -> None:
    """Weapons page (reference §2.3): "Extend X: Increase your Reach by the Extend value. Suffer -2 on attack
    rolls against targets who are closer than the added area."
    Size 0 (Reach 1) with Extend 1: the added area is distance 2; the adjacent target (distance 1) is closer
    than it: -2. Martial 6, 2 -> 4 against Elude 4, 3 -> 4: a tie, the Strike fails (no damage dice)."""
    spear = weapon("spear", damage=2, extend=1)
    s0 = duel(weapons=[spear], grip={"right_arm": "spear"})
    _, events = run(s0, strike(weapon_id="spear"), [6, 2, 4, 3])
    attack = only(events, "attack")
    assert mod_values(attack) == [-2]
    assert attack.data["success"] is False


def test_extend_2_is_minus_2_against_an_adjacent_target() -> None:
    """Weapons page (reference §2.3): "Suffer -2 on attack rolls against targets who are closer than the added
    area." Size 0 with Extend 2: Reach 3, the added area is distances 2-3; the adjacent target is closer: -2.
    Martial 7, 2 -> 5 against Elude 5, 1 -> 5: a tie, the Strike fails."""
    pike = weapon("pike", damage=2, extend=2)
    s0 = duel(weapons=[pike], grip={"right_arm": "pike"})
    _, events = run(s0, strike(weapon_id="pike"), [7, 2, 5, 1])
    attack = only(events, "attack")
    assert mod_values(attack) == [-2]
    assert attack.data["success"] is False


def test_usage_tier_above_martial_lowers_extend() -> None:
    """Weapons page (reference §6.1): "Suffer a penalty on your ... Extend value equal to the amount the weapon's
    Tier exceeds your related Skill Tier." Tier 3 Extend 1 weapon with Martial 2: Extend 1 - 1 = 0, Reach 1, so
    the target 2 spaces away is out of Reach."""
    spear = weapon("spear", damage=2, extend=1, tier=3)
    refused(duel(t_anchor=(7, 5), weapons=[spear], grip={"right_arm": "spear"}), strike(weapon_id="spear"))


def test_two_handed_weapon_cannot_strike_gripped_in_one_limb() -> None:
    """reference §6.3 (Two-handed, ASSUMPTION, table setting `two_handed_grip` = 2): it needs 2 limbs to Grip;
    weapons page: "Weapons must be Gripped to be used." One gripping arm: refused."""
    great = weapon("greatsword", damage=3, two_handed=True)
    refused(duel(weapons=[great], grip={"right_arm": "greatsword"}), strike(weapon_id="greatsword"))


def test_two_handed_weapon_strikes_gripped_in_two_limbs() -> None:
    """reference §6.3 (Two-handed needs 2 gripping limbs). Gripped in both arms it strikes: Martial 8, 1 -> 8
    against Elude 3, 3 -> 3: success. Damage 3d12 (no extra grip bonus: exactly what it needs), faces 3, 3, 3
    -> Injury 3."""
    great = weapon("greatsword", damage=3, two_handed=True)
    s0 = duel(weapons=[great], grip={"right_arm": "greatsword", "left_arm": "greatsword"})
    s, events = run(s0, strike(weapon_id="greatsword"), [8, 1, 3, 3, 3, 3, 3])
    assert only(events, "damage").rolls[0].dice == 3
    assert s.creatures["t"].grit.pips == 3


def test_gripping_with_more_limbs_than_required_deals_1_more_damage() -> None:
    """Weapons page (reference §6.1): "While you Grip a melee weapon with more parts than required, it deals +1
    physical damage." A one-handed sword in both arms: Martial 8, 2 against Elude 3, 1: success; damage
    2 + 1 = 3d12, faces 3, 4, 5 -> Injury 3."""
    s0 = duel(grip={"right_arm": "sword", "left_arm": "sword"})
    s, events = run(s0, strike(), [8, 2, 3, 1, 3, 4, 5])
    assert only(events, "damage").rolls[0].dice == 3
    assert s.creatures["t"].grit.pips == 3


# --------------------------------------------------------------------------------------------------------
# Unarmed Strikes
# --------------------------------------------------------------------------------------------------------


def test_unarmed_strike_with_a_free_limb_uses_no_weapon_property() -> None:
    """reference §4.5: "Every limb and distal counts as a Tier 1 melee weapon for Unarmed Strikes"; "A limb
    cannot attack while it is doing another task." The free left arm strikes; the Accurate rapier in the right
    arm adds nothing. Martial 5, 2 -> 5 against Elude 5, 1 -> 5: a tie, the Strike fails."""
    rapier = weapon("rapier", damage=2, accurate=True)
    s0 = duel(weapons=[rapier], grip={"right_arm": "rapier"})
    _, events = run(s0, strike(weapon_id=None, limb="left_arm"), [5, 2, 5, 1])
    attack = only(events, "attack")
    assert mod_values(attack) == []
    assert attack.data["success"] is False


def test_unarmed_strike_deals_the_unarmed_damage() -> None:
    """reference §6.3 (gap 20, table setting `unarmed_damage` = 1): unarmed is 1 damage die. Left arm: Martial
    7, 2 -> 7 against Elude 4, 4 -> 4: success; damage 1d12, face 3 -> Injury 1."""
    s, events = run(duel(), strike(weapon_id=None, limb="left_arm"), [7, 2, 4, 4, 3])
    assert only(events, "damage").rolls[0].dice == 1
    assert s.creatures["t"].grit.pips == 1


def test_unarmed_strike_with_a_limb_gripping_a_weapon_is_refused() -> None:
    """reference §4.5: "A limb cannot attack while it is doing another task." The right arm grips the sword."""
    refused(duel(), strike(weapon_id=None, limb="right_arm"))


def test_unarmed_strike_without_any_free_limb_is_refused() -> None:
    """reference §4.5: "A limb cannot attack while it is doing another task." Two arms, both gripping a
    Two-handed weapon, and no other limb: no free limb to strike with."""
    great = weapon("greatsword", damage=3, two_handed=True)
    a = creature(
        "a",
        (5, 5),
        weapons=[great],
        limbs=[limb("left_arm", holding="greatsword"), limb("right_arm", holding="greatsword")],
    )
    t = creature("t", (6, 5))
    refused(on_turn(state(a, t), "a"), strike(weapon_id=None))


# --------------------------------------------------------------------------------------------------------
# Reach and obstruction
# --------------------------------------------------------------------------------------------------------


def test_strike_on_a_target_out_of_reach_is_refused_and_changes_nothing() -> None:
    """reference §2.3: "Reach ... is the number of spaces away that you can reach. Creatures of size −1 and larger
    have Reach 1". The target 2 spaces away is beyond a size 0 sword's Reach 1."""
    refused(duel(t_anchor=(7, 5)), strike())


def test_strike_through_a_wall_is_refused_and_changes_nothing() -> None:
    """reference §2.3: "An action that uses Reach affects you as though you were in every space between you and the
    target's space"; seed-000: "When your target has physical obstruction, determine their size by the portions
    that are not obstructed." Extend 1 (Reach 2) on the target at (7, 5) with a wall filling (6, 5) between."""
    spear = weapon("spear", damage=2, extend=1)
    refused(duel(t_anchor=(7, 5), weapons=[spear], grip={"right_arm": "spear"}, walls={(6, 5)}), strike("t", "spear"))


def test_reach_event_path_covers_every_space_between() -> None:
    """reference §2.3: "An action that uses Reach affects you as though you were in every space between you and the
    target's space". Extend 2 (Reach 3) on a target 3 spaces east: the path is (5, 5), (6, 5), (7, 5), (8, 5).
    Martial 2, 1 -> 2, short of DL 3; Elude 3, 1: the Strike fails."""
    pike = weapon("pike", damage=2, extend=2)
    s0 = duel(t_anchor=(8, 5), weapons=[pike], grip={"right_arm": "pike"})
    _, events = run(s0, strike(weapon_id="pike"), [2, 1, 3, 1])
    reach = only(events, "reach")
    assert reach.data["reach"] == 3
    assert reach.data["path"] == [(5, 5), (6, 5), (7, 5), (8, 5)]


# --------------------------------------------------------------------------------------------------------
# Walls and the ground
# --------------------------------------------------------------------------------------------------------


def test_wall_is_a_size_1_object_for_the_strike_size_modifier() -> None:
    """seed-000: "To target a wall or vertical surface that fills an entire space, treat it as a size 1 object."
    Size 3 attacker (spaces (5, 5), (6, 5), (5, 6), (6, 6)) on the wall at (7, 5): half of 3 - 1 = -1. Martial
    3, 1 -> 2: short of DL 3, a miss; no damage."""
    s0 = duel(a_size=3, t_anchor=(9, 9), walls={(7, 5)})
    _, events = run(s0, surface((7, 5), "wall"), [3, 1])
    attack = only(events, "attack")
    assert mod_values(attack) == [-1]
    assert attack.data["success"] is False
    assert "damage" not in kinds(events)


def test_damage_to_a_wall_is_changed_by_its_size_1() -> None:
    """seed-000: "To target a wall ..., treat it as a size 1 object." seed-004 Size: "Dealing physical damage is
    affected by the size of the subject ... Against subject larger than you, reduce your damage equal to the size
    difference."
    Size 0 with the sword on the adjacent wall at (6, 5): no roll modifier (half of 1 = 0); Martial 5, 2 -> 5
    against the wall's defense 0: a hit. Damage 2 - 1 = 1d12, face 4 -> Injury 1."""
    s0 = duel(t_anchor=(9, 9), walls={(6, 5)})
    _, events = run(s0, surface((6, 5), "wall"), [5, 2, 4])
    assert only(events, "attack").data["success"] is True
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 1
    assert damage.data["injury"] == 1


def test_ground_is_minus_1_on_the_attack_with_defense_0_hit() -> None:
    """seed-000: "To target the ground or a horizontal surface that fills an entire space, take -1 on your attack
    roll and treat its defense as 0." Martial 4, 2 -> 3: reaches DL 3 and beats 0: a hit. Damage 2d12, faces 3,
    2 -> Injury 1."""
    s0 = duel(t_anchor=(9, 9))
    _, events = run(s0, surface((6, 5), "ground"), [4, 2, 3, 2])
    attack = only(events, "attack")
    assert mod_values(attack) == [-1]
    assert attack.data["success"] is True
    assert only(events, "damage").data["injury"] == 1


def test_ground_is_minus_1_on_the_attack_miss() -> None:
    """seed-000: "To target the ground ..., take -1 on your attack roll and treat its defense as 0." Martial 3, 2
    -> 2: short of DL 3 (it would reach 3 without the -1): a miss, no damage."""
    s0 = duel(t_anchor=(9, 9))
    _, events = run(s0, surface((6, 5), "ground"), [3, 2])
    assert only(events, "attack").data["success"] is False
    assert "damage" not in kinds(events)


# --------------------------------------------------------------------------------------------------------
# Action cost
# --------------------------------------------------------------------------------------------------------


def test_strike_costs_the_major_action_and_a_second_is_refused() -> None:
    """reference §3: "Strikes and Overpowers are normally Major Actions"; 1 Major Action a turn (table setting
    `major_actions` = 1). After one Strike (Martial 2, 1 -> 2, a miss; Elude 3, 1) the next is refused, armed or
    unarmed."""
    s, _ = run(duel(), strike(), [2, 1, 3, 1])
    assert s.economy["a"].major == 0
    refused(s, strike())
    refused(s, strike(weapon_id=None, limb="left_arm"))
