"""Hand-worked tests of ranged attacks on a targeted space, on a wall (an object) and on the ground
(vtt/rules/ranged.py, targeted.py, ranged_offers.py).

Rules: seed-000 "To target a wall or vertical surface that fills an entire space, treat it as a size 1 object. To
target the ground or a horizontal surface that fills an entire space, take -1 on your attack roll and treat its
defense as 0." "Targeted attacks can target a space instead of a creature or object. For each occupant in the
space, the Soulweaver rolls 3d12. On doubles, this roll becomes the attack roll and is not modified by Concealment
or size." and its d12 changes ("If your melee weapon is made for a creature above size 0 ... Modify the number of
d12 by half the target's size"); Long Shot "-1 on your attack roll for each time you do". Reference §4.1: ranged
weapons roll Nimble.

The archer `a` (Nimble 2) stands at (2, 5); (2 + n, 5) is n spaces east along the row. Faces in order: the
attack roll (or the Soulweaver's 3d12), the defense roll (none for a surface), the damage dice.
"""

from __future__ import annotations

from typing import Any

from factories import creature, mod_values, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.dice import RandomDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.model import BoardObject, GameState, Weapon

BOW = weapon("longbow", damage=2, name="Longbow", ranged="launched", range=4, two_handed=True)
SPEAR = weapon("spear", damage=3, ranged="thrown", range=4)


def field(
    weapons: list[Weapon] | None = None,
    walls: set[tuple[int, int]] | None = None,
    objects: list[BoardObject] | None = None,
    t_anchor: tuple[int, int] = (12, 8),
    **t_kw: Any,
) -> GameState:
    ws = weapons or [BOW]
    grip = {"left_arm": ws[0].id, "right_arm": ws[0].id} if ws[0].two_handed else {"right_arm": ws[0].id}
    a = creature("a", (2, 5), skills={"Nimble": 2, "Martial": 2, "Elude": 2, "Zeal": 1}, weapons=ws, grip=grip)
    t = creature("t", t_anchor, **t_kw)
    return on_turn(state(a, t, cols=20, rows=12, walls=walls, objects=objects or []), "a")


def at(space: tuple[int, int], surface: str, weapon_id: str = "longbow", **kw: Any) -> dict[str, Any]:
    return {
        "type": "strike",
        "creature": "a",
        "space": space,
        "surface": surface,
        "weapon": weapon_id,
        "ranged": True,
        **kw,
    }


def test_shooting_the_ground_is_minus_1_with_defense_0() -> None:
    """seed-000: "To target the ground ..., take -1 on your attack roll and treat its defense as 0." Nimble 4, 2
    -> 4 - 1 = 3: reaches DL 3 and beats 0: a hit. Longbow damage 2d12, faces 3, 1 -> Injury 1. It is a Major
    Action."""
    s, events = run(field(), at((4, 5), "ground"), [4, 2, 3, 1])
    attack = only(events, "attack")
    assert attack.rolls[0].base_dice == 2
    assert mod_values(attack) == [-1]
    assert attack.data["surface"] == "ground"
    assert attack.data["success"] is True
    assert only(events, "damage").data["injury"] == 1
    assert s.economy["a"].major == 0


def test_shooting_the_ground_misses_on_a_roll_of_2_after_the_penalty() -> None:
    """The same -1: Nimble 3, 1 -> 2, short of DL 3: a miss, no damage rolled."""
    _, events = run(field(), at((4, 5), "ground"), [3, 1])
    assert only(events, "attack").data["success"] is False
    assert of_kind(events, "damage") == []


def test_shooting_an_object_wounds_it_beyond_its_durability() -> None:
    """seed-000: a wall is "a size 1 object"; an object's Injury beyond its Durability is Wounded (see `objects`).
    A size 1 crate of Durability 0 three spaces away: no size modifier (half of 1 is 0); Nimble 5, 1 -> 5: a hit.
    Damage 2 less 1 for a larger subject = 1d12, face 5 -> Injury 1 -> Tier 1 Wounded on the crate."""
    crate = BoardObject(id="crate", name="crate", cells=[(5, 5)], durability=0)
    s, events = run(field(objects=[crate]), at((5, 5), "wall"), [5, 1, 5])
    attack = only(events, "attack")
    assert mod_values(attack) == []
    assert attack.data["success"] is True
    assert only(events, "damage").rolls[0].dice == 1
    assert s.board.objects[0].wounded == 1


def test_a_thrown_spear_lands_on_the_ground_it_hit_or_before_the_wall() -> None:
    """The thrown weapon leaves the hand and lies where it was aimed (table setting `thrown_weapon_drops`): on the
    ground at (4, 5); at a wall at (5, 5), in the space before it on the line, (4, 5). Each: Nimble 1, 1 -> 0 or 1,
    a miss."""
    s, _ = run(field(weapons=[SPEAR]), at((4, 5), "ground", "spear"), [1, 1])
    assert [(i.weapon.id, i.cell) for i in s.board.items] == [("spear", (4, 5))]
    s, _ = run(field(weapons=[SPEAR], walls={(5, 5)}), at((5, 5), "wall", "spear"), [1, 1])
    assert [(i.weapon.id, i.cell) for i in s.board.items] == [("spear", (4, 5))]


def test_shooting_a_surface_beyond_range_needs_long_shot() -> None:
    """seed-000 Long Shot: "increase your range by the range of your weapon by taking -1 on your attack roll for
    each time you do." The ground 6 spaces away is beyond range 4: refused; with Long Shot 1 (range 8) it is shot
    at -1 (Long Shot) -1 (the ground): Nimble 5, 1 -> 3, a hit; damage faces 1, 1 -> no Injury."""
    s0 = field()
    refused(s0, at((8, 5), "ground"), [5, 1, 1, 1])
    _, events = run(s0, at((8, 5), "ground", long_shot=1), [5, 1, 1, 1])
    attack = only(events, "attack")
    assert sorted(mod_values(attack)) == [-1, -1]
    assert attack.data["success"] is True


def test_a_wall_between_blocks_a_shot_at_the_ground() -> None:
    """A ranged attack needs a line to the space that no wall interrupts: a wall at (3, 5) stands between the
    archer and (4, 5) on the row; the row is the only line, so the shot is refused and nothing changes."""
    refused(field(walls={(3, 5)}), at((4, 5), "ground"), [9, 9, 9, 9])


def test_shooting_a_space_rolls_3d12_per_occupant_without_melee_weapon_dice() -> None:
    """seed-000 targeted attack: "For each occupant in the space, the Soulweaver rolls 3d12. On doubles, this roll
    becomes the attack roll"; the d12 changes for a weapon are for "your melee weapon", so a longbow made for size
    4 (Two-handed) adds none; the target is size 0 (half 0). 3d12 faces 5, 5, 2: doubles of 5, the attack is 5
    against t's Elude 3, 1 -> 3: a hit. Damage 2d12, faces 3, 3 -> Injury 2. t grips a shield of Guard 2: no Guard
    against a shot (reference §4.6: melee attacks only)."""
    big_bow = BOW.model_copy(update={"made_for_size": 4})
    shield = weapon("shield", damage=1, guard=2)
    a = creature(
        "a",
        (2, 5),
        skills={"Nimble": 2, "Martial": 2, "Elude": 2},
        weapons=[big_bow],
        grip={"left_arm": "longbow", "right_arm": "longbow"},
    )
    t = creature("t", (6, 5), weapons=[shield], grip={"left_arm": "shield"})
    s0 = on_turn(state(a, t, cols=20, rows=12), "a")
    cmd = {"type": "strike_space", "creature": "a", "space": (6, 5), "weapon": "longbow", "ranged": True}
    s, events = run(s0, cmd, [5, 5, 2, 3, 1, 3, 3])
    space_roll = only(events, "space_roll")
    assert space_roll.rolls[0].dice == 3
    assert space_roll.data["doubles"] == 5
    attack = only(events, "attack")
    assert mod_values(attack, 1) == []
    assert attack.data["success"] is True
    assert s.creatures["t"].grit.pips == 2


def test_throwing_at_a_space_with_no_doubles_attacks_nobody_and_the_spear_lands_there() -> None:
    """seed-000: only doubles make the 3d12 the attack roll. A spear thrown at t's space (6, 5): faces 4, 2, 1, no
    doubles: t is not attacked; the spear lies in (6, 5)."""
    s0 = field(weapons=[SPEAR], t_anchor=(6, 5))
    cmd = {"type": "strike_space", "creature": "a", "space": (6, 5), "weapon": "spear", "ranged": True}
    s, events = run(s0, cmd, [4, 2, 1])
    assert of_kind(events, "attack") == []
    assert [(i.weapon.id, i.cell) for i in s.board.items] == [("spear", (6, 5))]


def test_long_shot_at_a_space_is_minus_1_on_the_soulweavers_roll() -> None:
    """seed-000 Long Shot: -1 for each increment; the space's 3d12 "becomes the attack roll", so the -1 is on it. t
    6 spaces away, range 4: Long Shot 1. Faces 4, 4, 9: doubles of 4, 9 - 1 = 8 against Elude 9, 1 -> 9: a miss.
    Without Long Shot it is refused."""
    s0 = field(t_anchor=(8, 5))
    cmd = {"type": "strike_space", "creature": "a", "space": (8, 5), "weapon": "longbow", "ranged": True}
    refused(s0, cmd, [4, 4, 9, 9, 1])
    _, events = run(s0, {**cmd, "long_shot": 1}, [4, 4, 9, 9, 1])
    assert mod_values(only(events, "space_roll")) == [-1]
    assert only(events, "attack").data["success"] is False


def test_menu_offers_shooting_a_space_the_ground_and_a_wall_and_each_is_accepted() -> None:
    """Every offered ranged space option is a command the rules accept: the spaces within the longbow's range 4
    with a line to them; a wall at (4, 6) is offered as a wall, the empty spaces as ground, t's space as a space."""
    s0 = field(walls={(4, 6)}, t_anchor=(5, 5))
    opts = {o.label: o for o in legal_actions(s0, "a") if o.params.get("ranged") and o.spaces}
    assert set(opts) == {"Shoot at a space (Longbow)", "Shoot at the ground (Longbow)", "Shoot at a wall (Longbow)"}
    assert opts["Shoot at a wall (Longbow)"].spaces == [(4, 6)]
    assert (5, 5) in opts["Shoot at a space (Longbow)"].spaces
    assert (5, 5) not in opts["Shoot at the ground (Longbow)"].spaces
    assert all(s0.creatures["a"].anchor not in o.spaces for o in opts.values())
    for o in opts.values():
        for cell in o.spaces[:5]:
            cmd: dict[str, Any] = {"type": o.command or o.action, "creature": "a", "space": cell, **o.params}
            if o.action == "strike_wall":
                cmd["surface"] = "wall"
            apply(s0, cmd, RandomDice(1))
