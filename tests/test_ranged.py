"""Hand-worked tests of ranged Strikes and Long Shot (vtt/rules/ranged.py).

Rules: reference §4.1 "Melee weapons are tied to Martial and ranged weapons to Nimble"; §6.1 "Each weapon has a
Usage Tier. If it is higher than the related Skill Tier (Martial for melee, Nimble for ranged), the difference is
a penalty to the attack roll"; §6.3 "Thrown / Launched ranges ... ASSUMPTION: Use the weapon table values,
defaulting to thrown 3 and launched 10 spaces"; §5.3 Prone "Melee attackers against you get +1 and ranged
attackers -1"; seed-000 Long Shot: "When making a ranged attack, you can increase your range by the range of your
weapon by taking -1 on your attack roll for each time you do. You can increase range of a thrown attack up to 5
times and launched attack up to 15 times."

Scripted faces, in order: the attack roll (Nimble d12), the defense roll (Elude d12), the damage dice. A roll's
result is its highest face plus modifiers; a Strike is DL 3 and a tie goes to the defender; a damage face of 3 or
more is 1 Injury (1 Grit Pip).

Layout (hex, axial (q, r), a 40 x 10 map): the archer `a` stands at (2, 5); a target `distance` spaces east of it
stands at (2 + distance, 5), on the straight line along row 5. The archer (size 0) has Nimble 2 and Martial 4, so
a roll of 2 dice is Nimble and a roll of 4 would be Martial. Targets (size 0) have Elude 2 and a Severe Threshold
of 12 (no Serious Injury).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from factories import creature, mod_values, on_turn, only, refused, run, state, weapon

from vtt.rules import scenario
from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import ActionOption, apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.model import GameState, LooseItem, Weapon
from vtt.rules.settings import TableSettings

BOW = weapon("longbow", damage=2, name="Longbow", ranged="launched", range=4, two_handed=True)
SPEAR = weapon("spear", damage=3, ranged="thrown")
BOTH_ARMS = {"left_arm": "longbow", "right_arm": "longbow"}
SETTINGS = TableSettings(defense_prompts="nobody", reactions=False)


def field(
    distance: int = 4,
    weapons: list[Weapon] | None = None,
    grip: dict[str, str] | None = None,
    settings: TableSettings | None = None,
    walls: set[tuple[int, int]] | None = None,
    a_kw: dict[str, Any] | None = None,
    **t_kw: Any,
) -> GameState:
    """The archer `a` with its weapons gripped, and the target `t` `distance` spaces east; on a's turn."""
    kw = dict(a_kw or {})
    a = creature(
        "a",
        kw.pop("anchor", (2, 5)),
        skills=kw.pop("skills", {"Nimble": 2, "Martial": 4, "Elude": 2, "Athletics": 2, "Zeal": 1}),
        weapons=weapons if weapons is not None else [BOW],
        grip=grip if grip is not None else BOTH_ARMS,
        **kw,
    )
    t = creature("t", t_kw.pop("anchor", (2 + distance, 5)), **t_kw)
    return on_turn(state(a, t, cols=40, rows=10, walls=walls, settings=settings or SETTINGS), "a")


def shoot(weapon_id: str = "longbow", **kw: Any) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "target": "t", "weapon": weapon_id, "ranged": True, **kw}


def rule_error(s: GameState, command: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as info:
        apply(s, command, ScriptedDice([12] * 20))
    return str(info.value)


def options(s: GameState, action: str, label: str = "") -> list[ActionOption]:
    return [o for o in legal_actions(s, "a") if o.action == action and label in o.label]


def reasons(event: Any) -> list[str]:
    return [m.reason for m in event.rolls[0].modifiers]


# --------------------------------------------------------------------------------------------------------
# The roll: Nimble, the weapon's Tier and properties, the Strike's defense and damage
# --------------------------------------------------------------------------------------------------------


def test_ranged_strike_rolls_nimble() -> None:
    """reference §4.1: ranged weapons are tied to Nimble. The archer's Nimble 2 rolls 2 dice (its Martial 4 is not
    used): faces 7, 3 -> 7 (DL 3) against t's Elude 2 faces 5, 2 -> 5: hit. Longbow damage 2d12, faces 3, 2 -> 1
    Injury: t has 1 Grit Pip."""
    s, events = run(field(), shoot(), [7, 3, 5, 2, 3, 2])
    attack = only(events, "attack")
    roll = attack.rolls[0]
    assert (roll.label, roll.base_dice, roll.faces, roll.result) == ("A: Shoot Longbow at T", 2, (7, 3), 7)
    assert roll.modifiers == ()
    assert attack.data["defense_skill"] == "Elude"
    assert attack.data["success"] is True
    assert only(events, "damage").data["injury"] == 1
    assert s.creatures["t"].grit.pips == 1


def test_ranged_weapon_usage_tier_above_nimble_and_accurate_change_the_roll() -> None:
    """reference §6.1: a Usage Tier above the Skill Tier (Nimble for ranged) is a penalty; §6.3 Accurate: +1. A
    Tier 4 Accurate longbow with Nimble 2 (Martial 4 does not matter): +1 - 2. Faces 9, 1 -> 9 - 1 = 8 against Elude
    8, 8 -> 8: a tie, the defender wins and no damage is rolled."""
    bow = BOW.model_copy(update={"tier": 4, "accurate": True})
    s, events = run(field(weapons=[bow]), shoot(), [9, 1, 8, 8])
    attack = only(events, "attack")
    assert mod_values(attack) == [1, -2]
    assert reasons(attack) == ["Longbow is Accurate", "Longbow's usage Tier 4 is above Nimble 2"]
    assert attack.rolls[0].result == 8
    assert attack.data["success"] is False
    assert s.creatures["t"].grit.pips == 0


def test_ranged_strike_takes_the_strike_size_modifier_of_the_exposed_part() -> None:
    """seed-000 Strikes: against larger targets gain half the size difference; "When your target has physical
    obstruction, determine their size by the portions that are not obstructed." A size 2 target fills (6, 2) and
    (7, 2), 4 and 5 spaces from the archer: both in sight, +1 (half of 2). With a wall at (4, 4) only (6, 2) is
    in sight: 1 of 2 spaces is size 1, and half of 1 rounds to 0: no size modifier. (Each: Nimble 2, 1 against
    Elude 9, 9: a miss.)"""
    _, events = run(field(anchor=(6, 2), size=2), shoot(), [2, 1, 9, 9])
    assert mod_values(only(events, "attack")) == [1]
    assert only(events, "range").data["exposed_size"] == 2
    _, events = run(field(anchor=(6, 2), size=2, walls={(4, 4)}), shoot(), [2, 1, 9, 9])
    assert mod_values(only(events, "attack")) == []
    assert only(events, "range").data["exposed_size"] == 1


def test_defense_against_a_ranged_strike_waits_for_the_players_choice() -> None:
    """seed-004: "When a Skill is attacked, roll that Skill against the attacker to avoid the attack" -- the same
    defense decision as a melee Strike (`defense_prompts` "players"). Player p's t is asked; Nimble 9, 1 -> 9; t
    rolls Elude 5, 2 -> 5: hit; damage 3, 3 -> 2 Injury."""
    s0 = field(settings=TableSettings(reactions=False), controller="p")
    s, events = run(s0, shoot(), [9, 1])
    (decision,) = s.pending
    assert (decision.kind, decision.to, decision.payload["defense_skill"]) == ("defense", "p", "Elude")
    s, events = run(s, {"type": "defend", "decision": decision.id, "roll": True}, [5, 2, 3, 3])
    assert only(events, "attack").data["success"] is True
    assert s.creatures["t"].grit.pips == 2


# --------------------------------------------------------------------------------------------------------
# Range and Long Shot
# --------------------------------------------------------------------------------------------------------


def test_target_at_the_weapons_range_needs_no_long_shot() -> None:
    """reference §2.4 / §6.3: the weapon's range (the longbow's 4). t 4 spaces away: no modifier; 7, 1 -> 7 against
    6, 6 -> 6: hit; damage 12, 2 -> 1 Injury."""
    s, events = run(field(4), shoot(), [7, 1, 6, 6, 12, 2])
    assert mod_values(only(events, "attack")) == []
    assert only(events, "range").data == {
        "path": [(2, 5), (3, 5), (4, 5), (5, 5), (6, 5)],
        "range": 4,
        "long_shot": 0,
        "reach": 4,
        "exposed_size": 0,
    }
    assert s.creatures["t"].grit.pips == 1


def test_long_shot_adds_the_weapon_range_at_minus_one_each() -> None:
    """seed-000 Long Shot: "increase your range by the range of your weapon by taking -1 on your attack roll for
    each time you do." Range 4, t 9 spaces away: twice gives 4 + 4 + 4 = 12 >= 9. Faces 9, 4 -> 9 - 2 = 7 against
    Elude 5, 1 -> 5: hit; damage 3, 3 -> 2 Injury."""
    s, events = run(field(9), shoot(long_shot=2), [9, 4, 5, 1, 3, 3])
    attack = only(events, "attack")
    assert mod_values(attack) == [-2]
    assert reasons(attack) == ["Long Shot: range 4 increased 2 times to 12, -1 each"]
    assert attack.rolls[0].result == 7
    assert attack.data["success"] is True
    assert only(events, "range").data["reach"] == 12
    assert s.creatures["t"].grit.pips == 2


@pytest.mark.parametrize("increments", [0, 1])
def test_long_shot_too_few_increments_leave_the_target_out_of_range(increments: int) -> None:
    """seed-000 Long Shot: each increment adds the weapon's range 4 once. t is 9 spaces away: 4 and 8 fall short,
    so without Long Shot or with 1 increment the attack is refused, naming the 2 it needs."""
    s0 = field(9)
    assert "Long Shot 2 would reach it" in rule_error(s0, shoot(long_shot=increments))
    refused(s0, shoot(long_shot=increments), [9, 4, 5, 1, 3, 3])


def test_long_shot_beyond_the_need_still_costs_minus_one_each() -> None:
    """seed-000 Long Shot: "taking -1 on your attack roll for each time you do" -- t at 3 is in range already, but
    an increment taken is still -1: 5, 1 -> 4 against 4, 1 -> 4, a tie the defender wins."""
    _, events = run(field(3), shoot(long_shot=1), [5, 1, 4, 1])
    attack = only(events, "attack")
    assert mod_values(attack) == [-1]
    assert attack.data["success"] is False


def test_long_shot_thrown_reaches_five_increments() -> None:
    """seed-000 Long Shot: "up to 5 times" for a thrown attack. The spear (thrown, no range of its own: the table's
    3) at t 18 spaces away: 3 x (1 + 5) = 18. Faces 12, 1 -> 12 - 5 = 7 against 3, 2 -> 3: hit; damage 3d12 3, 3,
    1 -> 2 Injury."""
    s, events = run(
        field(18, weapons=[SPEAR], grip={"right_arm": "spear"}), shoot("spear", long_shot=5), [12, 1, 3, 2, 3, 3, 1]
    )
    assert mod_values(only(events, "attack")) == [-5]
    assert s.creatures["t"].grit.pips == 2


def test_long_shot_thrown_refuses_a_sixth_increment() -> None:
    """seed-000 Long Shot: "You can increase range of a thrown attack up to 5 times". t 19 spaces away would need 6
    increments of 3: refused, whether 5 or 6 are asked for; and 6 are refused even against a target in range."""
    s0 = field(19, weapons=[SPEAR], grip={"right_arm": "spear"})
    assert rule_error(s0, shoot("spear", long_shot=6)) == (
        "Long Shot increases the range of a thrown attack up to 5 times, not 6"
    )
    assert "beyond even Long Shot 5" in rule_error(s0, shoot("spear", long_shot=5))
    refused(s0, shoot("spear", long_shot=6), [12, 1, 3, 2, 3, 3, 1])
    refused(field(2, weapons=[SPEAR], grip={"right_arm": "spear"}), shoot("spear", long_shot=6), [12, 1, 3, 2, 3, 3, 1])


def test_long_shot_launched_allows_fifteen_increments_and_refuses_a_sixteenth() -> None:
    """seed-000 Long Shot: "launched attack up to 15 times". A range 2 bow, t 32 spaces away: 2 x (1 + 15) = 32.
    With 15: faces 12, 12 -> 12 - 15 = -3, short of DL 3 (defense 5, 5); with 16: refused."""
    bow = BOW.model_copy(update={"range": 2})
    s0 = field(32, weapons=[bow])
    _, events = run(s0, shoot(long_shot=15), [12, 12, 5, 5])
    attack = only(events, "attack")
    assert mod_values(attack) == [-15]
    assert attack.data["success"] is False
    assert rule_error(s0, shoot(long_shot=16)) == (
        "Long Shot increases the range of a launched attack up to 15 times, not 16"
    )


def test_long_shot_needs_a_ranged_attack() -> None:
    """seed-000 Long Shot: "When making a ranged attack" -- a melee Strike with `long_shot` is refused."""
    s0 = field(1, weapons=[SPEAR], grip={"right_arm": "spear"})
    refused(s0, {"type": "strike", "creature": "a", "target": "t", "weapon": "spear", "long_shot": 1})


@pytest.mark.parametrize(
    ("w", "settings", "in_range", "needs_one"),
    [
        (SPEAR, SETTINGS, 3, 4),
        (SPEAR, SETTINGS.model_copy(update={"thrown_range_default": 4}), 4, 5),
        (BOW.model_copy(update={"range": None}), SETTINGS, 10, 11),
        (BOW.model_copy(update={"range": None}), SETTINGS.model_copy(update={"launched_range_default": 6}), 6, 7),
    ],
    ids=["thrown-3", "thrown-setting-4", "launched-10", "launched-setting-6"],
)
def test_weapon_without_a_range_uses_the_tables_default(
    w: Weapon, settings: TableSettings, in_range: int, needs_one: int
) -> None:
    """reference §6.3 ASSUMPTION: "defaulting to thrown 3 and launched 10 spaces" (table settings
    `thrown_range_default`, `launched_range_default`). At the default range no Long Shot is needed; one space
    farther, one increment is: the plain shot is refused and the menu sends `long_shot` 1."""
    grip = {"right_arm": w.id} if w.ranged == "thrown" else {"left_arm": w.id, "right_arm": w.id}
    label = "Throw" if w.ranged == "thrown" else "Shoot"
    near = field(in_range, weapons=[w], grip=grip, settings=settings)
    (option,) = options(near, label.lower())
    assert [(t.target, t.params) for t in option.targets] == [("t", {})]
    far = field(needs_one, weapons=[w], grip=grip, settings=settings)
    refused(far, shoot(w.id), [12, 1, 3, 2, 3, 3, 1])
    (option,) = options(far, label.lower())
    assert [(t.target, t.params) for t in option.targets] == [("t", {"long_shot": 1})]


# --------------------------------------------------------------------------------------------------------
# Line of sight, Prone
# --------------------------------------------------------------------------------------------------------


def test_ranged_target_behind_a_wall_is_not_offered() -> None:
    """seed-000: size comes from "the portions that are not obstructed"; a target with no unobstructed portion
    cannot be attacked. The wall at (4, 5) lies on the only line from the archer to t 4 spaces east: t is not
    offered and the shot is refused; u at (2, 3), 2 spaces north, is offered."""
    s0 = field(4, walls={(4, 5)})
    s0.creatures["u"] = creature("u", (2, 3))
    (option,) = options(s0, "shoot")
    assert [t.target for t in option.targets] == ["u"]
    assert "no line of sight" in rule_error(s0, shoot())
    refused(s0, shoot(), [7, 3, 5, 2, 3, 2])


def test_creatures_in_the_line_obstruct_a_shot_when_the_table_says_so() -> None:
    """reference §2.6 / table setting `creatures_obstruct`: other creatures count as physical obstruction. u at
    (4, 5) stands on the only line to t 4 spaces east: by default t is offered; with the setting on it is not."""
    s0 = field(4)
    s0.creatures["u"] = creature("u", (4, 5))
    (option,) = options(s0, "shoot")
    assert [t.target for t in option.targets] == ["t", "u"]
    blocked = s0.model_copy(update={"settings": SETTINGS.model_copy(update={"creatures_obstruct": True})})
    (option,) = options(blocked, "shoot")
    assert [t.target for t in option.targets] == ["u"]
    refused(blocked, shoot(), [7, 3, 5, 2, 3, 2])


def test_prone_target_gives_ranged_attackers_minus_one() -> None:
    """reference §5.3 Prone ASSUMPTION: "Melee attackers against you get +1 and ranged attackers -1" (table
    setting `prone_ranged_against`). t is Prone: 8, 2 -> 8 - 1 = 7 against Elude 6, 6 -> 6: hit; damage 3, 1 -> 1
    Injury."""
    s, events = run(field(prone=True), shoot(), [8, 2, 6, 6, 3, 1])
    attack = only(events, "attack")
    assert mod_values(attack) == [-1]
    assert reasons(attack) == ["T is Prone: -1 to ranged attackers"]
    assert attack.rolls[0].result == 7
    assert s.creatures["t"].grit.pips == 1


def test_prone_archer_loses_a_d12_on_its_ranged_attack() -> None:
    """reference §5.3 Prone ASSUMPTION: "-1d12 on physical attacks" -- a ranged Strike is one. Nimble 2 - 1 = 1
    die: 7 against 2, 2 -> 2: hit; damage 1, 1 -> no Injury."""
    _, events = run(field(a_kw={"prone": True}), shoot(), [7, 2, 2, 1, 1])
    roll = only(events, "attack").rolls[0]
    assert [ch.dice for ch in roll.dice_changes] == [-1]
    assert roll.faces == (7,)


# --------------------------------------------------------------------------------------------------------
# Weapons: launched and thrown
# --------------------------------------------------------------------------------------------------------


def test_thrown_weapon_leaves_the_hand_and_lands_in_the_targets_space() -> None:
    """A thrown attack throws the weapon: the spear leaves the archer's right arm and lies in t's space (4, 5),
    even on a miss (2, 1 -> 2, short of DL 3; defense 4, 4). It is no longer gripped, so a second throw (a second
    Major Action by table setting) is refused."""
    settings = SETTINGS.model_copy(update={"major_actions": 2})
    s, events = run(
        field(2, weapons=[SPEAR], grip={"right_arm": "spear"}, settings=settings), shoot("spear"), [2, 1, 4, 4]
    )
    assert only(events, "thrown").data == {"item": "spear", "to": (4, 5)}
    a = s.creatures["a"]
    arm = a.limb("right_arm")
    assert arm is not None and arm.holding is None
    assert s.board.items == [LooseItem(weapon=SPEAR, cell=(4, 5), owner="a")]
    refused(s, shoot("spear"), [2, 1, 4, 4])


def test_thrown_weapon_stays_in_hand_when_the_table_does_not_track_it() -> None:
    """Table setting `thrown_weapon_drops` off: the spear stays gripped and nothing lies on the board."""
    settings = SETTINGS.model_copy(update={"thrown_weapon_drops": False})
    s, events = run(
        field(2, weapons=[SPEAR], grip={"right_arm": "spear"}, settings=settings), shoot("spear"), [2, 1, 4, 4]
    )
    assert not [e for e in events if e.kind == "thrown"]
    arm = s.creatures["a"].limb("right_arm")
    assert arm is not None and arm.holding == "spear"
    assert s.board.items == []


def test_thrown_weapon_is_still_a_melee_weapon_rolling_martial() -> None:
    """A thrown spear is also a melee weapon: a Strike without `ranged` on t next to the archer rolls Martial 4
    (faces 7, 2, 3, 4 -> 7) against Elude 5, 2 -> 5: hit; damage 3d12 3, 3, 1 -> 2 Injury; the spear stays in
    hand."""
    s, events = run(
        field(1, weapons=[SPEAR], grip={"right_arm": "spear"}),
        {"type": "strike", "creature": "a", "target": "t", "weapon": "spear"},
        [7, 2, 3, 4, 5, 2, 3, 3, 1],
    )
    assert only(events, "attack").rolls[0].base_dice == 4
    assert s.creatures["t"].grit.pips == 2
    arm = s.creatures["a"].limb("right_arm")
    assert arm is not None and arm.holding == "spear"


def test_launched_weapon_is_not_a_melee_weapon() -> None:
    """seed-000 Strike: "Attack a target with a melee weapon"; a bow is a launched weapon. A melee Strike with it on
    t next to the archer is refused, and the menu has no melee Strike with it."""
    s0 = field(1)
    assert "not a melee weapon" in rule_error(
        s0, {"type": "strike", "creature": "a", "target": "t", "weapon": "longbow"}
    )
    assert options(s0, "strike", "Longbow") == []
    assert len(options(s0, "shoot")) == 1


# --------------------------------------------------------------------------------------------------------
# Tactics
# --------------------------------------------------------------------------------------------------------


def test_called_shot_applies_to_a_ranged_strike_with_long_shot() -> None:
    """seed-000 Called Shot: "suffer -1 on physical attack rolls and when you make a physical attack that has a
    single target, you can choose to target a specific part". t 9 spaces away, Long Shot 2, at the torso (2 sizes
    smaller): 12, 1 -> 12 - 2 - 1 = 9 against Elude 4, 2 -> 4: beaten by 5 >= 2, the torso is struck. Damage 3, 3
    -> 2 Injury."""
    s, events = run(field(9), shoot(long_shot=2, called_shot="torso"), [12, 1, 4, 2, 3, 3])
    attack = only(events, "attack")
    assert mod_values(attack) == [-2, -1]
    assert only(events, "called_shot").data == {"part": "torso", "needed": 2, "margin": 5, "struck": True}
    assert s.creatures["t"].grit.pips == 2


def test_hinder_attack_applies_to_a_ranged_strike() -> None:
    """seed-000 Hinder Attack: "As a creature in your Reach attacks a target other than you, attack to cause -1 on
    their attack roll, DL 3." Player p's archer shoots t; h next to it (sword, Reach 1) hinders: Martial 9, 1 -> 9
    against the archer's Martial 4 defense 2, 2, 2, 2 -> 2 (table settings `hinder_attack_skill` and
    `hinder_attack_defense`): success. The shot: 8, 1 -> 8 - 1 = 7 against Elude 5, 2 -> 5: hit; damage 3, 3 -> 2
    Injury."""
    s0 = field(4, settings=TableSettings(defense_prompts="nobody"), a_kw={"controller": "p"})
    s0.creatures["h"] = creature("h", (1, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    s, events = run(s0, shoot(), [])
    assert only(events, "reaction_window").data["hinderers"] == ["h"]
    (decision,) = s.pending
    s, events = run(s, {"type": "react", "decision": decision.id, "hinder": True}, [9, 1, 2, 2, 2, 2, 8, 1, 5, 2, 3, 3])
    attack = only(events, "attack")
    assert reasons(attack) == ["Hindered by H"]
    assert attack.rolls[0].result == 7
    assert s.creatures["t"].grit.pips == 2


def test_charge_is_not_made_with_a_ranged_strike() -> None:
    """seed-000 Charge: "After moving 2 consecutive spaces, if you have used Dash this turn, use an action that
    includes using a Strike or Overpower" -- the melee Strike (seed-000 "Attack a target with a melee weapon").
    The archer Dashes and moves 2 spaces to (2, 5): a ranged Strike with `charge` is refused and not offered."""
    s0 = field(4, a_kw={"anchor": (0, 5)})
    s, _ = run(s0, {"type": "dash", "creature": "a"}, [])
    s, _ = run(s, {"type": "move", "creature": "a", "to": (2, 5), "path": [(1, 5), (2, 5)]}, [])
    assert "Charge" in rule_error(s, shoot(charge=True))
    assert not [o for o in legal_actions(s, "a") if o.action == "charge" and "Shoot" in o.label]
    assert len(options(s, "shoot")) == 1


def test_flurry_minor_ranged_strike_loses_the_flurrys_d12_and_the_weapons() -> None:
    """seed-000 Flurry: "lose that number of d12 on attack rolls"; "you can use any Strike ... as a Minor Action. If
    you do, ... if attacking with a weapon that is not Lightweight, lose an additional 1d12". A Flurry of 1, then a
    Minor Action shot with the longbow: Nimble 3 - 1 - 1 = 1 die: 8 against Elude 5, 2 -> 5: hit. Damage loses half
    of 1 = 0 d12: 3, 3 -> 2 Injury. The Major Action is left."""
    s0 = field(a_kw={"skills": {"Nimble": 3, "Elude": 2, "Zeal": 1}})
    s, _ = run(s0, {"type": "flurry", "creature": "a", "number": 1}, [])
    (option,) = [o for o in legal_actions(s, "a") if o.action == "flurry_attack" and "Shoot" in o.label]
    assert option.params == {"weapon": "longbow", "ranged": True, "minor": True}
    s, events = run(s, shoot(minor=True), [8, 5, 2, 3, 3])
    assert [ch.dice for ch in only(events, "attack").rolls[0].dice_changes] == [-1, -1]
    assert s.creatures["t"].grit.pips == 2
    assert (s.economy["a"].major, s.economy["a"].minor) == (1, 1)


# --------------------------------------------------------------------------------------------------------
# legal_actions
# --------------------------------------------------------------------------------------------------------


def test_legal_shoot_offers_each_target_with_the_fewest_long_shot_increments() -> None:
    """seed-000 Long Shot, with a range 2 bow (15 increments: up to 32 spaces). near (2 away) needs none; mid (9
    away) needs 4 (2 x 5 = 10 >= 9, 2 x 4 = 8 < 9), shown as -4 "Long Shot" in its preview; edge (32 away) needs 15;
    beyond (33 away) is out of reach."""
    bow = BOW.model_copy(update={"range": 2})
    s0 = field(2, weapons=[bow])
    for cid, q in (("mid", 11), ("edge", 34), ("beyond", 35)):
        s0.creatures[cid] = creature(cid, (q, 5))
    (option,) = options(s0, "shoot")
    assert (option.label, option.group, option.command, option.cost, option.reach) == (
        "Shoot (Longbow)",
        "Strike",
        "strike",
        {"major": 1},
        2,
    )
    assert option.params == {"weapon": "longbow", "ranged": True}
    assert [(t.target, t.params) for t in option.targets] == [
        ("t", {}),
        ("mid", {"long_shot": 4}),
        ("edge", {"long_shot": 15}),
    ]
    mid = option.targets[1].preview
    assert mid is not None
    assert (mid.skill, mid.dice, mid.dl, mid.defense_skill) == ("Nimble", 2, 3, "Elude")
    assert [(m.value, m.reason.split(":")[0]) for m in mid.modifiers] == [(-4, "Long Shot")]
    (called,) = options(s0, "called_shot", "Shoot")
    assert (called.label, called.group, called.choose) == ("Called Shot: Shoot (Longbow)", "Tactics", ["called_shot"])
    assert called.targets[1].params == {"long_shot": 4}
    assert called.targets[1].preview is not None
    assert [m.value for m in called.targets[1].preview.modifiers] == [-4, -1]


def test_legal_throw_and_melee_strike_with_a_thrown_spear() -> None:
    """A thrown spear offers "Throw (Spear)" as well as the melee Strike with it (t next to the archer)."""
    s0 = field(1, weapons=[SPEAR], grip={"right_arm": "spear"})
    (throw,) = options(s0, "throw")
    assert (throw.label, throw.params) == ("Throw (Spear)", {"weapon": "spear", "ranged": True})
    assert [t.target for t in throw.targets] == ["t"]
    assert [t.target for t in options(s0, "strike", "Spear")[0].targets] == ["t"]


def test_legal_ranged_strike_absent_without_a_gripped_ranged_weapon() -> None:
    """A weapon "has to be Gripped to be used" (reference §4.5) and a Two-handed one with 2 limbs (§6.3): a bow
    carried but not gripped, or gripped with one arm only, offers no Shoot."""
    assert options(field(grip={}), "shoot") == []
    assert options(field(grip={"right_arm": "longbow"}), "shoot") == []
    assert "must grip Longbow with 2 limbs" in rule_error(field(grip={"right_arm": "longbow"}), shoot())


def test_legal_ranged_strike_absent_without_a_major_action_or_in_a_defensive_stance() -> None:
    """A ranged Strike is a Major Action (reference §3) and an attack: after one shot (1, 1 against 5, 5: a miss)
    none is left; in a Defensive Stance ("you cannot attack") none is offered."""
    s, _ = run(field(), shoot(), [1, 1, 5, 5])
    assert options(s, "shoot") == []
    refused(s, shoot(), [7, 3, 5, 2, 3, 2])
    s, _ = run(field(), {"type": "defensive_stance", "creature": "a"}, [])
    assert options(s, "shoot") == []


# --------------------------------------------------------------------------------------------------------
# The example scenario
# --------------------------------------------------------------------------------------------------------


def test_long_shot_scenario_outcome_exactly() -> None:
    """maps/scenarios/long_shot.json as its description works it out: Long Shot 1 is rejected (10 < 12), Long Shot
    2 is -2 on Wren's Nimble roll (10 - 2 = 8 against 4), Kell's javelin at the Prone Goblin B is -1 (Long Shot)
    -1 (Prone) and lands in its space; both goblins end at Grit 2/4."""
    path = Path(__file__).resolve().parents[1] / "maps" / "scenarios" / "long_shot.json"
    result = scenario.run(scenario.load_scenario(json.loads(path.read_text(encoding="utf-8"))))
    events = result.events
    (rejected,) = [e for e in events if e["kind"] == "rejected"]
    assert rejected["command"] == 1
    assert rejected["data"]["reason"].endswith("Long Shot 2 would reach it")
    attacks = [e for e in events if e["kind"] == "attack"]
    assert [(a["rolls"][0]["faces"], a["rolls"][0]["result"]) for a in attacks] == [([10, 6, 2], 8), ([9, 3], 7)]
    assert [[m["value"] for m in a["rolls"][0]["modifiers"]] for a in attacks] == [[-2], [-1, -1]]
    assert [a["data"]["success"] for a in attacks] == [True, True]
    s = result.state
    assert (s.creatures["goblin_a"].grit.pips, s.creatures["goblin_b"].grit.pips) == (2, 2)
    assert [(i.weapon.id, i.cell, i.owner) for i in s.board.items] == [("javelin", (5, 4), "kell")]
