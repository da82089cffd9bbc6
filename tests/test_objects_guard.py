"""Hand-worked tests of objects on the map attacked and broken, and of Guard (vtt/rules/objects.py, guard.py).

Rules: seed-000 "To target a wall or vertical surface that fills an entire space, treat it as a size 1 object"
and the stomach, "an unattended object with 2 Durability and 0 Physical Reduction ... If there are 6 Tiers of
Wounded to the stomach, they fall out"; seed-004 Damage Reduction, Size and Strike Types; reference §4.6 Guard:
"Weapons have a Guard value, and a weapon Tier above your Skill Tier lowers it by the difference. An object that is
itself being attacked cannot be used to Guard" and its ASSUMPTION "add that value to your defense results against
physical melee attacks you can perceive. Only the highest Guard among your Gripped objects applies, and Guard does
not apply while you are Unaware or Prone" (table setting `guard_on_defense`).

Every roll is scripted, in order: the attack roll, the defense roll (a surface's defense rolls no dice), the damage
dice. A roll's result is its highest face plus modifiers; a damage die counts as Injury at the face needed or more.
Layout (hex, axial): (5, 5) and (6, 5) are neighbours.
"""

from __future__ import annotations

from typing import Any

from factories import creature, mod_values, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import BoardObject, GameState
from vtt.rules.settings import TableSettings

SWORD4 = weapon("sword", damage=4)


def field(obj: BoardObject, weapons: list[Any] | None = None, **a_kw: Any) -> GameState:
    """a (Martial 2, size 0) at (5, 5) gripping its sword; the object beside it at (6, 5); t far away."""
    a = creature("a", (5, 5), weapons=weapons or [SWORD4], grip={"right_arm": (weapons or [SWORD4])[0].id}, **a_kw)
    t = creature("t", (12, 12))
    return on_turn(state(a, t, objects=[obj]), "a")


def hit_object(space: tuple[int, int] = (6, 5)) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "space": space, "surface": "wall", "weapon": "sword"}


def crate(**kw: Any) -> BoardObject:
    return BoardObject(id="crate", name="crate", cells=[(6, 5)], **kw)


def test_strike_on_an_object_counts_injury_against_its_physical_reduction_and_durability() -> None:
    """seed-004: "The face value needed on damage dice against you is increased by your Damage Reduction"; the
    stomach is "an unattended object with 2 Durability and 0 Physical Reduction" and Wounded follows Injury beyond
    the Durability (the stomach's ASSUMPTION, `objects`).
    A crate of size 1, Durability 1, Physical Reduction 1. Martial 5, 2 -> 5: DL 3 and the defense 0 of an
    unattended object: a hit. Damage: sword 4 less 1 for a subject 1 size larger (seed-004 Size) = 3d12; faces 4,
    3, 9 need 3 + 1 = 4: two reach it -> Injury 2, 1 beyond the Durability 1 -> Tier 1 Wounded on the crate."""
    s, events = run(field(crate(size=1, durability=1, reduction=1)), hit_object(), [5, 2, 4, 3, 9])
    assert only(events, "attack").data["success"] is True
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 3
    assert (damage.data["needed"], damage.data["injury"]) == (4, 2)
    assert only(events, "object_wounded").data["wounded"] == 1
    (obj,) = s.board.objects
    assert (obj.wounded, obj.broken) == (1, False)
    assert (6, 5) in s.board.filled()


def test_object_is_struck_at_its_own_size() -> None:
    """seed-000 Strikes: "Against larger targets, gain that amount as bonus" (half the size difference); a wall is
    "a size 1 object", so an object has a size of its own. seed-004: "Against subject larger than you, reduce your
    damage equal to the size difference."
    A size 3 pillar: +half(3 - 0) = +1 on the roll; Martial 2, 1 -> 2 + 1 = 3, reaching DL 3: a hit. Damage 4 - 3 =
    1d12, face 3 -> Injury 1, not beyond Durability 2: no Wounded."""
    pillar = BoardObject(id="pillar", name="pillar", cells=[(6, 5)], size=3, durability=2)
    s, events = run(field(pillar), hit_object(), [2, 1, 3])
    attack = only(events, "attack")
    assert mod_values(attack) == [1]
    assert attack.data["success"] is True
    damage = only(events, "damage")
    assert (damage.rolls[0].dice, damage.data["injury"]) == (1, 1)
    assert of_kind(events, "object_wounded") == []
    assert s.board.objects[0].wounded == 0


def test_object_breaks_at_6_wounded_and_stops_filling_its_space() -> None:
    """The stomach "an unattended object with 2 Durability" gives way at "6 Tiers of Wounded" (seed-000); table
    setting `object_broken_at` 6. A crate of size 1, Durability 0, already Tier 5 Wounded. Martial 4, 1 -> 4: a
    hit. Damage 3d12 (4 less 1 for size 1), faces 3, 3, 1 -> Injury 2, all beyond Durability 0 -> Tier 7 >= 6: it
    breaks. It stays on the map, marked broken, and its space is no longer filled: a Strike on it as a wall is
    refused, and the ground there can be struck."""
    s, events = run(field(crate(durability=0, wounded=5)), hit_object(), [4, 1, 3, 3, 1])
    assert only(events, "object_wounded").data["object_wounded"] == 7
    assert only(events, "object_broken").data["object"] == "crate"
    (obj,) = s.board.objects
    assert (obj.wounded, obj.broken) == (7, True)
    assert (6, 5) not in s.board.filled()
    later = on_turn(s, "a")
    refused(later, hit_object(), [9, 9, 9, 9, 9])
    _, ground = run(later, {**hit_object(), "surface": "ground"}, [1, 1])
    assert only(ground, "attack").data["surface"] == "ground"


def test_object_never_breaks_when_the_setting_is_0() -> None:
    """Table setting `object_broken_at` 0: never. The same hit as above leaves the crate at Tier 7, unbroken."""
    s0 = field(crate(durability=0, wounded=5))
    s0 = s0.model_copy(update={"settings": s0.settings.model_copy(update={"object_broken_at": 0})})
    s, events = run(s0, hit_object(), [4, 1, 3, 3, 1])
    assert of_kind(events, "object_broken") == []
    assert (s.board.objects[0].wounded, s.board.objects[0].broken) == (7, False)


def test_stabbing_lowers_an_objects_physical_reduction() -> None:
    """seed-004 Stabbing: "For each face value 6 or higher in your attack roll, reduce the target's physical
    reduction by 1 against the attack." A Stabbing sword (damage 4) on a size 1 crate with Physical Reduction 2:
    Martial 7, 6 -> 7, a hit with two faces of 6 or more: the face needed is 3 + 2 - 2 = 3. Damage 3d12, faces 3, 2,
    5 -> Injury 2 (without the Stabbing it would need 5: Injury 1)."""
    stab = weapon("sword", damage=4, strike_types=("S",))
    _, events = run(field(crate(reduction=2), weapons=[stab]), hit_object(), [7, 6, 3, 2, 5])
    damage = only(events, "damage")
    assert (damage.data["needed"], damage.data["injury"]) == (3, 2)


def test_plain_wall_keeps_no_wounded() -> None:
    """A wall that is not an object has no Durability: the Injury is told and nothing is kept (seed-000: a wall is
    targeted as a size 1 object; nothing gives it a Durability). Martial 5, 2 -> 5; damage 4 - 1 = 3d12, faces 3,
    3, 3 -> Injury 3."""
    a = creature("a", (5, 5), weapons=[SWORD4], grip={"right_arm": "sword"})
    s0 = on_turn(state(a, creature("t", (12, 12)), walls={(6, 5)}), "a")
    s, events = run(s0, hit_object(), [5, 2, 3, 3, 3])
    assert only(events, "damage").data["injury"] == 3
    assert of_kind(events, "object_wounded") == []
    assert (6, 5) in s.board.walls


# --------------------------------------------------------------------------------------------------------
# Guard
# --------------------------------------------------------------------------------------------------------

SHIELD = weapon("shield", damage=1, guard=2)


def duel(t_weapons: list[Any], t_grip: dict[str, str], settings: TableSettings | None = None, **t_kw: Any) -> GameState:
    """a (Martial 2) gripping a sword at (5, 5); t (Martial 2, Elude 2) beside it at (6, 5) gripping `t_grip`."""
    a = creature("a", (5, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    skills = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1}
    t = creature("t", (6, 5), skills=skills, weapons=t_weapons, grip=t_grip, **t_kw)
    return on_turn(state(a, t, settings=settings), "a")


STRIKE = {"type": "strike", "creature": "a", "target": "t", "weapon": "sword"}


def test_guard_adds_to_the_defense_against_a_melee_strike() -> None:
    """reference §4.6 ASSUMPTION: "While you Grip an object with a Guard value, add that value to your defense
    results against physical melee attacks you can perceive." t grips a shield of Guard 2 (Tier 1, Martial 2: not
    lowered). a's Martial 5, 1 -> 5 against Elude 4, 2 -> 4 + 2 = 6: the Strike fails (without Guard 5 beats 4)."""
    _, events = run(duel([SHIELD], {"left_arm": "shield"}), STRIKE, [5, 1, 4, 2])
    attack = only(events, "attack")
    assert mod_values(attack, 1) == [2]
    assert attack.rolls[1].result == 6
    assert attack.data["success"] is False


def test_guard_is_lowered_by_a_weapon_tier_above_the_skill() -> None:
    """reference §4.6: "a weapon Tier above your Skill Tier lowers it by the difference." A Tier 3 shield of Guard
    2 with Martial 2: Guard 2 - 1 = 1. Martial 5, 1 -> 5 against Elude 4, 2 -> 4 + 1 = 5: a tie, the defender's
    (reference §1.3): the Strike fails."""
    heavy = weapon("shield", damage=1, guard=2, tier=3)
    _, events = run(duel([heavy], {"left_arm": "shield"}), STRIKE, [5, 1, 4, 2])
    attack = only(events, "attack")
    assert mod_values(attack, 1) == [1]
    assert attack.data["success"] is False


def test_only_the_highest_guard_applies() -> None:
    """reference §4.6: "Only the highest Guard among your Gripped objects applies." A shield of Guard 2 and a
    dagger of Guard 1: +2 only. Martial 7, 1 -> 7 against Elude 4, 2 -> 6: the Strike succeeds; damage 2d12, faces
    1, 1 -> no Injury."""
    dagger = weapon("dagger", damage=1, guard=1)
    s0 = duel([SHIELD, dagger], {"left_arm": "shield", "right_arm": "dagger"})
    _, events = run(s0, STRIKE, [7, 1, 4, 2, 1, 1])
    attack = only(events, "attack")
    assert mod_values(attack, 1) == [2]
    assert attack.data["success"] is True


def test_no_guard_while_prone_or_unaware() -> None:
    """reference §4.6: "Guard does not apply while you are Unaware or Prone." t Prone: melee attackers get +1
    (§5.3): Martial 5, 1 -> 6 against Elude 4, 2 -> 4 with no Guard: a hit, damage 2d12 faces 1, 1. t Unaware
    (Tier 1): Martial 5, 1 -> 5 against 4 with no Guard: a hit, damage faces 1, 1."""
    _, events = run(duel([SHIELD], {"left_arm": "shield"}, prone=True), STRIKE, [5, 1, 4, 2, 1, 1])
    assert mod_values(only(events, "attack"), 1) == []
    assert only(events, "attack").data["success"] is True
    _, events = run(duel([SHIELD], {"left_arm": "shield"}, ailments={"Unaware": 1}), STRIKE, [5, 1, 4, 2, 1, 1])
    assert mod_values(only(events, "attack"), 1) == []
    assert only(events, "attack").data["success"] is True


def test_no_guard_against_a_ranged_attack() -> None:
    """reference §4.6: Guard counts "against physical melee attacks": not against a shot. a (Nimble 2) shoots a
    longbow (range 4) at t 1 space away: Nimble 5, 1 -> 5 against Elude 4, 2 -> 4 with no Guard: a hit; damage
    2d12, faces 1, 1."""
    bow = weapon("longbow", damage=2, ranged="launched", range=4, two_handed=True)
    a = creature(
        "a",
        (5, 5),
        skills={"Nimble": 2, "Martial": 2, "Elude": 2},
        weapons=[bow],
        grip={"left_arm": "longbow", "right_arm": "longbow"},
    )
    t = creature("t", (6, 5), weapons=[SHIELD], grip={"left_arm": "shield"})
    s0 = on_turn(state(a, t), "a")
    shot = {"type": "strike", "creature": "a", "target": "t", "weapon": "longbow", "ranged": True}
    _, events = run(s0, shot, [5, 1, 4, 2, 1, 1])
    assert mod_values(only(events, "attack"), 1) == []
    assert only(events, "attack").data["success"] is True


def test_object_targeted_cannot_be_used_for_guard() -> None:
    """seed-000 Strike: "When targeting an object, the object cannot be used for Guard." a Disarms t's shield
    (Guard 2), t also grips a dagger of Guard 1: only the dagger's Guard counts. Disarm defends with the skill the
    shield attacks with, Martial 2 (seed-000 Disarm). a unarmed, Athletics 6, 1 -> 6 against Martial 4, 2 -> 4 + 1
    = 5: the shield drops."""
    dagger = weapon("dagger", damage=1, guard=1)
    s0 = duel([SHIELD, dagger], {"left_arm": "shield", "right_arm": "dagger"})
    s0 = s0.model_copy(
        update={"creatures": {**s0.creatures, "a": creature("a", (5, 5), skills={"Athletics": 2, "Martial": 2})}}
    )
    disarm = {"type": "disarm", "creature": "a", "target": "t", "item": "shield", "to": (7, 5)}
    s, events = run(s0, disarm, [6, 1, 4, 2])
    attack = only(events, "attack")
    assert attack.data["defense_skill"] == "Martial"
    assert mod_values(attack, 1) == [1]
    assert attack.data["success"] is True
    assert [i.weapon.id for i in s.board.items] == ["shield"]


def test_guard_setting_off_gives_no_guard() -> None:
    """Table setting `guard_on_defense` off: the shield adds nothing. Martial 5, 1 -> 5 against Elude 4, 2 -> 4: a
    hit; damage faces 1, 1."""
    off = TableSettings(defense_prompts="nobody", reactions=False, guard_on_defense=False)
    _, events = run(duel([SHIELD], {"left_arm": "shield"}, settings=off), STRIKE, [5, 1, 4, 2, 1, 1])
    assert mod_values(only(events, "attack"), 1) == []
    assert only(events, "attack").data["success"] is True


def test_menu_offers_no_space_or_wall_behind_an_object() -> None:
    """A targeted attack on a space or a Strike on a wall needs a line no other wall or object interrupts (the rules
    refuse "a wall blocks ... attack"), so the menu offers neither behind the crate: a at (3, 3) grips a spear of
    Extend 1 (Reach 2), the crate at (2, 3): (1, 3) is within Reach 2 but not offered; the crate is."""
    spear = weapon("spear", damage=2, extend=1)
    a = creature("a", (3, 3), weapons=[spear], grip={"right_arm": "spear"})
    crate_ = BoardObject(id="crate", name="crate", cells=[(2, 3)], durability=1)
    s0 = on_turn(state(a, creature("t", (12, 12)), objects=[crate_]), "a")
    options = legal_actions(s0, "a")
    space = next(o for o in options if o.action == "strike_space" and o.params.get("weapon") == "spear")
    assert space.reach == 2
    assert (1, 3) not in space.spaces
    assert (4, 3) in space.spaces
    wall = next(o for o in options if o.action == "strike_wall" and o.params.get("weapon") == "spear")
    assert wall.spaces == [(2, 3)]
    assert wall.command == "strike"
    refused(s0, {"type": "strike_space", "creature": "a", "space": (1, 3), "weapon": "spear"}, [9] * 9)


def test_guard_counts_on_the_one_defense_against_a_hinder() -> None:
    """A Hinder is a physical melee attack by a creature in Reach (seed-000 "attack to prevent the movement, DL 3"):
    Guard counts on the actor's one defense against it. a grips a shield of Guard 2 and moves to (6, 4); h, beside
    it at (4, 5), Hinders Movement: h's Athletics 3, 1 -> 3 (DL 3) against a's Athletics 2, 1 -> 2 + 2 = 4: the
    Hinder fails and a moves (without Guard, 3 beats 2 and the move would be prevented)."""
    reacting = TableSettings(defense_prompts="nobody", reactions=True)
    a = creature("a", (5, 5), side="blue", weapons=[SHIELD], grip={"left_arm": "shield"})
    h = creature("h", (4, 5), side="red")
    s = on_turn(state(a, h, settings=reacting), "a")
    s, _ = run(s, {"type": "move", "creature": "a", "to": [6, 4]}, [])
    (decision,) = s.pending
    s, events = run(s, {"type": "react", "decision": decision.id, "hinder": True}, [3, 1, 2, 1])
    hindered = only(events, "hinder")
    assert [m.value for m in hindered.rolls[1].modifiers] == [2]
    assert hindered.data["success"] is False
    assert s.creatures["a"].anchor == (6, 4)
