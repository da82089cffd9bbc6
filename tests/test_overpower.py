"""Hand-worked tests of the Overpower actions Disarm, Impair, Reposition, Grapple and Break Hold (seed-000).

seed-000 Overpower: "Against a larger target, suffer a penalty on your roll equal to the size difference. Against a
smaller target, gain a bonus instead. You cannot affect targets 3 or more sizes larger than you."

Scripted faces are used in this order: the attack roll, then each defense roll, then any further roll. Every
Overpower rolls Athletics against Athletics (table settings), except Disarm against a weapon, which the holder
defends with the skill melee weapons attack with (Martial). Creatures are size 0 with Martial 2, Elude 2 and
Athletics 2 unless said; a size 0 creature has Reach 1 and two of them can share a space (reference §2.2, §2.3).
An unarmed limb is a Tier 1 weapon, not above Martial 2, so it adds no modifier. While in a Hold a size 0
creature has 2 Tiers of Encumbered: -2 on its rolls for actions using limbs and on its Athletics defense.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, mod_values, of_kind, on_turn, only, refused, run, state, weapon
from pydantic import ValidationError

from vtt.rules.conditions import hold_encumbered
from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import ActionOption, apply, legal_actions
from vtt.rules.model import GameState, Hold, PartLock
from vtt.rules.settings import TableSettings


def options(s: GameState, who: str, action: str) -> list[ActionOption]:
    return [o for o in legal_actions(s, who) if o.action == action]


def targets(s: GameState, who: str, action: str) -> list[str]:
    return sorted(t.target or "" for o in options(s, who, action) for t in o.targets)


def with_hold(s: GameState, holders: dict[str, list[str]], held: list[str]) -> GameState:
    """The state with a Hold "h0" already made: each holder uses the given limbs."""
    s = s.model_copy(deep=True)
    s.holds["h0"] = Hold(id="h0", holders=dict(holders), held=held)
    for cid, limb_ids in holders.items():
        for lid in limb_ids:
            part = s.creatures[cid].limb(lid)
            assert part is not None
            part.hold_id = "h0"
    return s


def hold_of(s: GameState) -> Hold:
    (h,) = s.holds.values()
    return h


# --------------------------------------------------------------------------------------------------------
# Overpower size
# --------------------------------------------------------------------------------------------------------


def test_overpower_size_penalty_is_the_full_difference_against_a_larger_target() -> None:
    """seed-000 Overpower: "Against a larger target, suffer a penalty on your roll equal to the size difference."
    Size 0 a Impairs size 2 t (spaces (6, 5), (7, 5)) next to it: -2 (a Strike would take half, -1). Athletics
    9, 4 -> 9 - 2 = 7 against Athletics 5, 2 -> 5: success, Tier 1 Blinded."""
    s0 = on_turn(state(creature("a", (5, 5)), creature("t", (6, 5), size=2)), "a")
    s, events = run(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Blinded"}, [9, 4, 5, 2])
    attack = only(events, "attack")
    assert mod_values(attack) == [-2]
    assert attack.rolls[0].result == 7
    assert s.creatures["t"].ailments == {"Blinded": 1}


def test_overpower_size_bonus_is_the_full_difference_against_a_smaller_target() -> None:
    """seed-000 Overpower: "Against a smaller target, gain a bonus instead." Size 2 a (spaces (4, 5), (5, 5), arms
    Reach 2) Impairs size 0 t at (6, 5): +2. Athletics 3, 1 -> 3 + 2 = 5 against Athletics 4, 4 -> 4: success."""
    s0 = on_turn(state(creature("a", (4, 5), size=2), creature("t", (6, 5))), "a")
    s, events = run(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Slowed"}, [3, 1, 4, 4])
    attack = only(events, "attack")
    assert mod_values(attack) == [2]
    assert attack.data["success"] is True
    assert s.creatures["t"].ailments == {"Slowed": 1}


def test_overpower_cannot_affect_a_target_3_sizes_larger() -> None:
    """seed-000 Overpower: "You cannot affect targets 3 or more sizes larger than you." Size 0 a next to size 3 t:
    Impair is refused and legal_actions offers no Overpower on t."""
    s0 = on_turn(state(creature("a", (5, 5)), creature("t", (6, 5), size=3)), "a")
    refused(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Blinded"})
    assert targets(s0, "a", "impair") == []
    assert targets(s0, "a", "reposition") == []


def test_overpower_costs_the_major_action_and_counts_as_an_attack() -> None:
    """reference §3: "Strikes and Overpowers are normally Major Actions." After an Impair (Athletics 8, 1 against
    Athletics 3, 3: success) no Major Action is left, and a has attacked this turn."""
    s0 = on_turn(state(creature("a", (5, 5)), creature("t", (6, 5))), "a")
    s, _ = run(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Muted"}, [8, 1, 3, 3])
    assert s.economy["a"].major == 0
    assert s.economy["a"].attacked is True


# --------------------------------------------------------------------------------------------------------
# Disarm
# --------------------------------------------------------------------------------------------------------


def _disarm_field(**t_kw: Any) -> GameState:
    """a at (5, 5) unarmed; t at (6, 5) grips a sword in its right arm."""
    t_kw.setdefault("weapons", [weapon("sword")])
    t_kw.setdefault("grip", {"right_arm": "sword"})
    return on_turn(state(creature("a", (5, 5)), creature("t", (6, 5), **t_kw)), "a")


def disarm(to: tuple[int, int] = (7, 5), item: str = "sword") -> dict[str, Any]:
    return {"type": "disarm", "creature": "a", "target": "t", "item": item, "to": to}


def test_disarm_drops_the_weapon_into_the_chosen_adjacent_space() -> None:
    """seed-000 Disarm: "Attack target creature with a melee weapon to cause them to drop target object they are
    holding into target space adjacent to them, DL 3. ... If the targeted object is a weapon, the creature instead
    rolls defense of the skill used to attack with it."
    a Disarms t's sword (a Martial weapon) unarmed: Athletics 8, 2 -> 8 (DL 3) against Martial 5, 3 -> 5:
    success. The sword lies in (7, 5), next to t, and t's right arm is empty."""
    s, events = run(_disarm_field(), disarm(), [8, 2, 5, 3])
    attack = only(events, "attack")
    assert (attack.data["dl"], attack.data["defense_skill"], attack.data["success"]) == (3, "Martial", True)
    (item,) = s.board.items
    assert (item.weapon.id, item.cell, item.owner) == ("sword", (7, 5), "t")
    limb = s.creatures["t"].limb("right_arm")
    assert limb is not None and limb.holding is None


def test_disarm_defense_gains_1_for_each_gripping_limb_beyond_the_first() -> None:
    """seed-000 Disarm: "If the object is Gripped by multiple limbs, they gain +1 on their defenses for each limb
    beyond the first." t grips a greatsword with both arms: +1. Athletics 7, 1 -> 7 against Martial 6, 2 -> 6 + 1
    = 7: a tie goes to the defender (reference §1.3), so t keeps the greatsword."""
    great = weapon("greatsword", two_handed=True)
    s0 = _disarm_field(weapons=[great], grip={"left_arm": "greatsword", "right_arm": "greatsword"})
    s, events = run(s0, disarm(item="greatsword"), [7, 1, 6, 2])
    attack = only(events, "attack")
    assert mod_values(attack, 1) == [1]
    assert attack.data["success"] is False
    assert s.board.items == []
    assert [lb.holding for lb in s.creatures["t"].limbs][:2] == ["greatsword", "greatsword"]


def test_disarm_of_a_launched_weapon_defends_with_nimble() -> None:
    """seed-000 Disarm: "If the targeted object is a weapon, the creature instead rolls defense of the skill used to
    attack with it"; a sling attacks with Nimble (reference §4.1, table setting `ranged_skill`). t (Martial 1,
    Nimble 3) grips a sling: a's Athletics 8, 2 -> 8 against Nimble 9, 2, 1 (three dice) -> 9: t keeps it."""
    sling = weapon("sling", damage=1, ranged="launched")
    skills = {"Martial": 1, "Nimble": 3, "Athletics": 2, "Elude": 2}
    s0 = _disarm_field(weapons=[sling], grip={"right_arm": "sling"}, skills=skills)
    s, events = run(s0, disarm(item="sling"), [8, 2, 9, 2, 1])
    attack = only(events, "attack")
    assert (attack.data["defense_skill"], attack.data["success"]) == ("Nimble", False)
    assert attack.rolls[1].dice == 3
    assert s.board.items == []


def test_disarm_of_a_melee_weapon_defends_with_martial_not_another_skill() -> None:
    """seed-000 Disarm: the defense is "the skill used to attack with" the weapon: a sword attacks with Martial
    (`strike_skill`). t (Martial 3, Nimble 1, Athletics 1) grips a sword: a's Athletics 8, 2 -> 8 against Martial
    4, 9, 1 (three dice) -> 9: t keeps it."""
    s0 = _disarm_field(skills={"Martial": 3, "Nimble": 1, "Athletics": 1, "Elude": 1})
    s, events = run(s0, disarm(), [8, 2, 4, 9, 1])
    attack = only(events, "attack")
    assert (attack.data["defense_skill"], attack.data["success"]) == ("Martial", False)
    assert attack.rolls[1].dice == 3
    assert s.board.items == []


def test_disarm_needs_dl_3() -> None:
    """seed-000 Disarm: "..., DL 3." Athletics 2, 1 -> 2 is short of DL 3: it fails although t's Martial 1, 1
    Fumbles."""
    s, events = run(_disarm_field(), disarm(), [2, 1, 1, 1])
    assert only(events, "attack").data["success"] is False
    assert s.board.items == []


def test_disarm_into_a_space_not_adjacent_to_the_target_is_refused() -> None:
    """seed-000 Disarm: "... into target space adjacent to them". (8, 5) is 2 spaces from t."""
    refused(_disarm_field(), disarm(to=(8, 5)))


def test_disarm_of_an_object_the_target_does_not_hold_is_refused() -> None:
    """seed-000 Disarm: "... drop target object they are holding". t holds no axe."""
    refused(_disarm_field(), disarm(item="axe"))


def test_legal_disarm_lists_creatures_holding_something_with_their_items_and_drop_spaces() -> None:
    """seed-000 Disarm: "target object they are holding into target space adjacent to them". t holds a sword: it is
    listed with the sword and the 6 spaces around (6, 5) (a's (5, 5) among them); u at (4, 5) holds nothing and is
    not listed."""
    s0 = _disarm_field()
    s0.creatures["u"] = creature("u", (4, 5))
    (option,) = options(s0, "a", "disarm")
    (target,) = option.targets
    assert target.target == "t"
    assert target.choices["item"] == ["sword"]
    assert sorted(target.choices["to"]) == sorted([(7, 5), (5, 5), (6, 4), (6, 6), (7, 4), (5, 6)])
    assert option.choose == ["item", "to"]
    assert target.preview is not None and target.preview.defense_skill == "Martial"


# --------------------------------------------------------------------------------------------------------
# Impair
# --------------------------------------------------------------------------------------------------------


def test_impair_adds_a_tier_of_the_chosen_ailment() -> None:
    """seed-000 Impair: "Attack target creature with a melee weapon to cause Tier 1 of your choice of Blinded,
    Dazzled, Deafened, Muted, Slowed, or Unstable, DL 3." Tiers of the same name add together (reference §5.1):
    t is Slowed 1 already. Athletics 6, 6 -> 6 against Athletics 2, 5 -> 5: success, Slowed 2."""
    s0 = on_turn(state(creature("a", (5, 5)), creature("t", (6, 5), ailments={"Slowed": 1})), "a")
    s, events = run(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Slowed"}, [6, 6, 2, 5])
    assert only(events, "attack").data["dl"] == 3
    assert s.creatures["t"].ailments == {"Slowed": 2}


def test_impair_failing_causes_nothing() -> None:
    """seed-000 Impair. Athletics 4, 2 -> 4 against Athletics 9, 1 -> 9: fails; t has no ailment."""
    s0 = on_turn(state(creature("a", (5, 5)), creature("t", (6, 5))), "a")
    s, _ = run(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Deafened"}, [4, 2, 9, 1])
    assert s.creatures["t"].ailments == {}


def test_impair_only_causes_the_listed_ailments() -> None:
    """seed-000 Impair: "your choice of Blinded, Dazzled, Deafened, Muted, Slowed, or Unstable". Frightened is not
    one of them: the command itself is invalid."""
    s0 = on_turn(state(creature("a", (5, 5)), creature("t", (6, 5))), "a")
    with pytest.raises(ValidationError):
        apply(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Frightened"}, ScriptedDice([]))
    (option,) = options(s0, "a", "impair")
    assert option.targets[0].choices["ailment"] == ["Blinded", "Dazzled", "Deafened", "Muted", "Slowed", "Unstable"]


def test_impair_uses_the_weapons_reach() -> None:
    """seed-000 Impair: "Attack target creature with a melee weapon". A spear (Extend 1) reaches t 2 spaces away;
    unarmed a cannot. Athletics 5, 3 -> 5 against Athletics 4, 1 -> 4: success, Tier 1 Dazzled."""
    a = creature("a", (5, 5), weapons=[weapon("spear", extend=1)], grip={"right_arm": "spear"})
    s0 = on_turn(state(a, creature("t", (7, 5))), "a")
    refused(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Dazzled", "limb": "left_arm"})
    cmd = {"type": "impair", "creature": "a", "target": "t", "ailment": "Dazzled", "weapon": "spear"}
    s, _ = run(s0, cmd, [5, 3, 4, 1])
    assert s.creatures["t"].ailments == {"Dazzled": 1}
    assert [o.label for o in options(s0, "a", "impair")] == ["Impair with Spear"]


def test_impair_preview_is_the_roll_it_makes() -> None:
    """The preview legal_actions gives is made by the same planning code as the resolution: size 0 a against size 2
    t previews -2 (Overpower size) on 2 Athletics dice, DL 3 against Athletics; the roll carries the same."""
    s0 = on_turn(state(creature("a", (5, 5)), creature("t", (6, 5), size=2)), "a")
    (option,) = options(s0, "a", "impair")
    preview = option.targets[0].preview
    assert preview is not None
    assert (preview.skill, preview.dice, preview.dl, preview.defense_skill) == ("Athletics", 2, 3, "Athletics")
    _, events = run(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Muted"}, [9, 4, 5, 2])
    assert list(only(events, "attack").rolls[0].modifiers) == preview.modifiers


# --------------------------------------------------------------------------------------------------------
# Reposition
# --------------------------------------------------------------------------------------------------------


def reposition(to: tuple[int, int], who: str = "a", target: str = "t") -> dict[str, Any]:
    return {"type": "reposition", "creature": who, "target": target, "to": to}


def _pair() -> GameState:
    return on_turn(state(creature("a", (5, 5)), creature("t", (6, 5))), "a")


def test_reposition_moves_the_target_one_space_farther() -> None:
    """seed-000 Reposition: "Attack a target with a melee weapon to move the target one space farther from you, DL
    3." t at (6, 5) goes to (7, 5), 2 spaces from a (outside a's Reach 1). Athletics 8, 1 -> 8 against Athletics 4,
    4 -> 4: success."""
    s, events = run(_pair(), reposition((7, 5)), [8, 1, 4, 4])
    assert only(events, "attack").data["dl"] == 3
    assert s.creatures["t"].anchor == (7, 5)
    assert only(events, "repositioned").data["to"] == (7, 5)


def test_reposition_may_move_the_target_to_any_space_in_reach() -> None:
    """seed-000 Reposition: "If not being done as the result of another attack succeeding against a target in your
    Reach, you may move the target to any space in your Reach." t goes from (6, 5) to (4, 5), on a's other side
    (1 space from a, 2 from where t stood). Athletics 7, 7 -> 7 against Athletics 6, 2 -> 6: success."""
    s, _ = run(_pair(), reposition((4, 5)), [7, 7, 6, 2])
    assert s.creatures["t"].anchor == (4, 5)


def test_reposition_failing_leaves_the_target_in_place() -> None:
    """seed-000 Reposition. Athletics 5, 2 -> 5 against Athletics 5, 5 -> 5: a tie goes to the defender."""
    s, _ = run(_pair(), reposition((7, 5)), [5, 2, 5, 5])
    assert s.creatures["t"].anchor == (6, 5)


def test_reposition_beyond_reach_and_not_one_space_farther_is_refused() -> None:
    """seed-000 Reposition: one space farther, or any space in your Reach (1). (8, 5) and (8, 4) are 2 spaces from
    t and 3 from a: neither."""
    refused(_pair(), reposition((8, 5)))
    refused(_pair(), reposition((8, 4)))


def test_reposition_into_a_wall_is_refused() -> None:
    """seed-000 Reposition moves the target into a space; a space a wall fills holds nobody (reference §2.6)."""
    s0 = on_turn(state(creature("a", (5, 5)), creature("t", (6, 5)), walls={(7, 5)}), "a")
    refused(s0, reposition((7, 5)))


def test_legal_reposition_lists_the_destinations() -> None:
    """seed-000 Reposition: one space farther, or any space in Reach. For t at (6, 5) and a at (5, 5) (Reach 1):
    the 6 spaces around a (t's own place excepted; a's own space too, as two size 0 creatures share it) and the
    spaces next to t that are 2 from a; never (8, 5)."""
    (option,) = options(_pair(), "a", "reposition")
    (target,) = option.targets
    to = set(target.choices["to"])
    assert {(4, 5), (5, 5), (5, 4), (5, 6), (6, 4), (4, 6), (7, 5), (7, 4), (6, 6)} == to
    assert option.choose == ["to"]


def _held_t() -> GameState:
    """g Holds t (both size 0 in (5, 5), g with its left arm); a at (6, 5)."""
    s0 = on_turn(state(creature("g", (5, 5)), creature("t", (5, 5)), creature("a", (6, 5))), "a")
    return with_hold(s0, {"g": ["left_arm"]}, ["t"])


def test_reposition_of_a_held_target_attacks_athletics_of_each_other_member() -> None:
    """seed-000 Hold: "If an effect would move you, it attacks Athletics of each creature in the Hold with a number
    of d12 equal to the number of spaces it is trying to move you to remove you from the Hold."
    a Repositions t one space farther, to (4, 5): Athletics 8, 2 -> 8 against t's Athletics 3, 2 -> 3 - 2
    (Encumbered) = 1: success. Then 1d12, face 7, against g's Athletics 5, 1 -> 5 - 2 = 3: success. t leaves the
    Hold, which ends with no Held, and stands at (4, 5)."""
    s, events = run(_held_t(), reposition((4, 5)), [8, 2, 3, 2, 7, 5, 1])
    first, second = of_kind(events, "attack")
    assert mod_values(first, 1) == [-2]
    assert (second.target, second.rolls[0].dice, second.data["success"]) == ("g", 1, True)
    assert s.creatures["t"].anchor == (4, 5)
    assert s.holds == {}


def test_reposition_of_a_held_target_failing_against_a_member_does_not_move_it() -> None:
    """seed-000 Hold: "On failure against any, you are not moved." As above, but the 1d12 shows 3 against g's 3:
    a tie goes to g. t stays at (5, 5), Held."""
    s, events = run(_held_t(), reposition((4, 5)), [8, 2, 3, 2, 3, 5, 1])
    assert [e.data["success"] for e in of_kind(events, "attack")] == [True, False]
    assert s.creatures["t"].anchor == (5, 5)
    assert hold_of(s).held == ["t"]


# --------------------------------------------------------------------------------------------------------
# Grapple
# --------------------------------------------------------------------------------------------------------


def _grapple_field() -> GameState:
    """g Holds t in (5, 5) with its left arm; h stands at (6, 5), next to them. All three are the Soulweaver's and
    act on its turn."""
    s0 = on_turn(state(creature("g", (5, 5)), creature("t", (5, 5)), creature("h", (6, 5))), "h")
    return with_hold(s0, {"g": ["left_arm"]}, ["t"])


def _head_held() -> GameState:
    """As `_grapple_field`, and g's left arm holds t's head (a Called Shot Grapple made before)."""
    s0 = _grapple_field()
    s0.holds["h0"].locks.append(PartLock(held="t", part="head", holder="g", limb="left_arm"))
    return s0


def grapple(who: str = "h", target: str = "t", **kw: Any) -> dict[str, Any]:
    return {"type": "grapple", "creature": who, "target": target, **kw}


def test_grapple_adds_a_tier_of_encumbered_and_joins_the_hold_as_holder() -> None:
    """seed-000 Grapple: "Attack target creature in a Hold with a Free Limb or a part used in the Hold to increase
    the Tier of Encumbered they suffer from Hold by 1 and join the Hold as a Holder."
    h Grapples t with a free arm: Athletics 8, 3 -> 8 against t's Athletics 4, 2 -> 4 - 2 = 2: success. t now has
    3 Tiers from the Hold; h is a Holder with its left arm, which is no longer free."""
    s, events = run(_grapple_field(), grapple(), [8, 3, 4, 2])
    assert only(events, "attack").data["success"] is True
    h = hold_of(s)
    assert h.holders == {"g": ["left_arm"], "h": ["left_arm"]}
    assert hold_encumbered(s, h, "t") == 3
    limb = s.creatures["h"].limb("left_arm")
    assert limb is not None and not limb.free


def test_grapple_needs_a_target_in_a_hold() -> None:
    """seed-000 Grapple: "Attack target creature in a Hold". t is in no Hold: refused, and not offered."""
    s0 = on_turn(state(creature("h", (6, 5)), creature("t", (5, 5))), "h")
    refused(s0, grapple())
    assert options(s0, "h", "grapple") == []


def test_grapple_with_a_part_already_used_in_the_hold() -> None:
    """seed-000 Grapple: "... with a Free Limb or a part used in the Hold". Holder g Grapples with the left arm it
    holds t with (its roll has its own 2 Tiers of Encumbered): Athletics 9, 1 -> 7 against 4, 1 -> 2: success. t
    has 3 Tiers; g still holds with the left arm only and its right arm stays free."""
    s, events = run(_grapple_field(), grapple(who="g"), [9, 1, 4, 1])
    assert mod_values(only(events, "attack")) == [-2]
    h = hold_of(s)
    assert h.holders == {"g": ["left_arm"]}
    assert hold_encumbered(s, h, "t") == 3
    limb = s.creatures["g"].limb("right_arm")
    assert limb is not None and limb.free


def test_grapple_with_a_called_shot_keeps_the_part_from_use_while_in_the_hold() -> None:
    """seed-000 Grapple: "If you use Called Shot on this attack, the creature cannot use the targeted part while
    in the Hold." Called Shot: "For 1 round, suffer -1 on physical attack rolls"; the attack must exceed the
    defense by the sizes the part is smaller (an arm: 4).
    h Grapples t's right arm: Athletics 10, 1 -> 10 - 1 = 9 against 4, 2 -> 2: beaten by 7. t cannot strike with
    its right arm; it still can with its left."""
    s, events = run(_grapple_field(), grapple(called_shot="right_arm"), [10, 1, 4, 2])
    assert mod_values(only(events, "attack")) == [-1]
    assert only(events, "called_shot").data == {"part": "right_arm", "needed": 4, "margin": 7}
    assert [(x.held, x.part, x.holder) for x in hold_of(s).locks] == [("t", "right_arm", "h")]
    refused(s, {"type": "strike", "creature": "t", "target": "g", "limb": "right_arm"})
    run(s, {"type": "strike", "creature": "t", "target": "g", "limb": "left_arm"}, [2, 1, 5, 5])


def test_grapple_called_shot_short_of_the_parts_offset_is_an_ordinary_grapple() -> None:
    """seed-000 Called Shot: "If your attack succeeds and exceeds the defense by an amount based on the target".
    h aims at t's head (5): Athletics 6, 1 -> 6 - 1 = 5 against 3, 1 -> 3 - 2 = 1: beaten by 4, short of 5: the
    Grapple succeeds (t has 3 Tiers) but the head is not held. With Athletics 7, 1 -> 6, beaten by exactly 5: it
    is."""
    s, events = run(_grapple_field(), grapple(called_shot="head"), [6, 1, 3, 1])
    assert only(events, "attack").data["success"] is True
    assert hold_of(s).locks == []
    assert hold_encumbered(s, hold_of(s), "t") == 3
    s, _ = run(_grapple_field(), grapple(called_shot="head"), [7, 1, 3, 1])
    assert [x.part for x in hold_of(s).locks] == ["head"]


def test_grapple_called_shot_must_use_a_free_limb_once_as_many_parts_are_held_as_limbs_used() -> None:
    """seed-000 Grapple: "If you already affect as many parts this way as the Free Limbs you used for the Hold, you
    must use a Free Limb for this attack." g holds t with its left arm and already holds t's head with it: a
    second Called Shot Grapple with the left arm is refused; with the free right arm it is made (Athletics 12, 1 ->
    12 - 2 - 1 = 9 against 3, 3 -> 1: beaten by 8 >= 4) and g then holds with both arms."""
    s0 = _head_held()
    refused(s0, grapple(who="g", called_shot="left_arm", limb="left_arm"))
    s, _ = run(s0, grapple(who="g", called_shot="left_arm"), [12, 1, 3, 3])
    assert hold_of(s).holders == {"g": ["left_arm", "right_arm"]}
    assert [(x.part, x.limb) for x in hold_of(s).locks] == [("head", "left_arm"), ("left_arm", "right_arm")]


def test_grapple_to_suffocate_through_a_held_head_causes_strangled_until_the_head_is_free() -> None:
    """seed-000 Grapple: "While you have a head affected in this way, you can use Grapple to attempt to suffocate the
    subject. On success, cause Tier 1 Strangled until the head is no longer affected."
    g holds t's head. Athletics 9, 2 -> 7 against 3, 3 -> 1: success: Tier 1 Strangled (and the Grapple's
    Encumbered Tier, table setting `suffocate_also_grapples`). When g stops being a Holder the head is free and
    Strangled ends."""
    s, events = run(_head_held(), grapple(who="g", suffocate=True), [9, 2, 3, 3])
    assert s.creatures["t"].ailments == {"Strangled": 1}
    assert hold_encumbered(s, hold_of(s), "t") == 3
    assert only(events, "ailment").data == {"ailment": "Strangled", "tier": 1}
    s, _ = run(s, {"type": "drop_hold", "creature": "g"}, [])
    assert s.creatures["t"].ailments == {}
    assert s.holds == {}


def test_grapple_to_suffocate_without_a_held_head_is_refused() -> None:
    """seed-000 Grapple: "While you have a head affected in this way, you can use Grapple to attempt to suffocate".
    h holds no head of t."""
    refused(_grapple_field(), grapple(suffocate=True))


def test_legal_grapple_lists_every_creature_in_a_hold_in_reach() -> None:
    """seed-000 Grapple: "Attack target creature in a Hold". h next to the Hold: Grapple t (Held) and g (the
    Holder, in the Hold too); a Called Shot Grapple lists t's parts with the margin each needs; Break Hold lists
    g."""
    s0 = _grapple_field()
    assert targets(s0, "h", "grapple") == ["g", "t"]
    (called,) = [o for o in options(s0, "h", "called_shot") if o.command == "grapple"]
    target = next(x for x in called.targets if x.target == "t")
    assert target.margins["head"] == 5 and target.margins["torso"] == 2
    assert target.preview is not None and [m.value for m in target.preview.modifiers] == [-1]
    assert targets(s0, "h", "break_hold") == ["g"]


def test_grapple_a_held_creature_can_grapple_its_holder() -> None:
    """seed-000 Grapple: "Attack target creature in a Hold with a Free Limb ... to increase the Tier of Encumbered
    they suffer from Hold by 1 and join the Hold as a Holder." The Holder g is a creature in a Hold.
    t (Held by g) Grapples g with its free right arm: Athletics 9, 1 -> 9 - 2 (its Hold's Encumbered) = 7 against
    g's Athletics 4, 2 -> 4 - 2 = 2: success. g now suffers 3 Tiers from the Hold; t is a Holder with its right arm
    (and still Held)."""
    s, events = run(_grapple_field(), grapple(who="t", target="g", limb="right_arm"), [9, 1, 4, 2])
    assert only(events, "attack").data["success"] is True
    h = hold_of(s)
    assert h.holders == {"g": ["left_arm"], "t": ["right_arm"]}
    assert h.held == ["t"]
    assert hold_encumbered(s, h, "g") == 3
    assert hold_encumbered(s, h, "t") == 2


def test_grapple_a_third_creature_can_pile_on_a_holder() -> None:
    """seed-000 Grapple: "Attack target creature in a Hold". h Grapples the Holder g with a free arm: Athletics 8, 3
    -> 8 against g's 4, 2 -> 4 - 2 = 2: success: g suffers 3 Tiers from the Hold; h joins it as a Holder."""
    s, events = run(_grapple_field(), grapple(target="g"), [8, 3, 4, 2])
    assert only(events, "attack").data["success"] is True
    h = hold_of(s)
    assert h.holders == {"g": ["left_arm"], "h": ["left_arm"]}
    assert hold_encumbered(s, h, "g") == 3
    assert hold_encumbered(s, h, "t") == 2


# --------------------------------------------------------------------------------------------------------
# Break Hold
# --------------------------------------------------------------------------------------------------------


def break_hold(who: str = "t", target: str = "g", **kw: Any) -> dict[str, Any]:
    return {"type": "break_hold", "creature": who, "target": target, **kw}


def _t_held_by_g() -> GameState:
    s0 = on_turn(state(creature("g", (5, 5)), creature("t", (5, 5), controller="p")), "t")
    return with_hold(s0, {"g": ["left_arm"]}, ["t"])


def test_break_hold_removes_2_tiers_and_frees_the_grabbed_creature() -> None:
    """seed-000 Break Hold: "Attack target Holder with a Free Limb or part you are using in the Hold to reduce the
    Tier of Encumbered they suffer and are causing to target Grabbed creature by 2. If this removes all Encumbered
    from the Grabbed creature, they are removed from the Grab."
    Held t attacks its Holder g with a free arm: Athletics 9, 2 -> 9 - 2 (t's Encumbered) = 7 against g's
    Athletics 5, 1 -> 5 - 2 = 3: success. g caused t its 2 Tiers: none is left, t leaves the Hold, which ends."""
    s, events = run(_t_held_by_g(), break_hold(), [9, 2, 5, 1])
    assert mod_values(only(events, "attack")) == [-2]
    assert only(events, "break_hold").data["lowered"] == 2
    assert s.holds == {}
    assert all(lb.free for lb in s.creatures["g"].limbs)


def test_break_hold_failing_keeps_the_hold() -> None:
    """seed-000 Break Hold. Athletics 6, 2 -> 4 against g's 7, 1 -> 5: fails; t is still Held with 2 Tiers."""
    s, _ = run(_t_held_by_g(), break_hold(), [6, 2, 7, 1])
    assert hold_encumbered(s, hold_of(s), "t") == 2


def test_break_hold_on_a_grappler_removes_only_what_it_causes() -> None:
    """seed-000 Break Hold: "... reduce the Tier of Encumbered they suffer and are causing to target Grabbed
    creature by 2." Grapple: "increase the Tier of Encumbered they suffer from Hold by 1".
    h (at (6, 5)) Grapples t: Athletics 8, 3 -> 8 against 4, 2 -> 2: t has 3 Tiers (2 from g, 1 from h). Then t
    Breaks h's Hold: Athletics 10, 1 -> 10 - 3 = 7 against h's Athletics 4, 4 -> 4 - 2 = 2: success. h caused 1:
    t keeps 2 (g's) and is still Held; h's own Tiers fall by 2 to 0."""
    s0 = on_turn(state(creature("g", (5, 5)), creature("t", (5, 5)), creature("h", (6, 5))), "h")
    s0 = with_hold(s0, {"g": ["left_arm"]}, ["t"])
    s, _ = run(s0, grapple(), [8, 3, 4, 2])
    s, events = run(s, break_hold(target="h", limb="right_arm"), [10, 1, 4, 4])
    assert only(events, "break_hold").data["lowered"] == 1
    h = hold_of(s)
    assert h.held == ["t"]
    assert hold_encumbered(s, h, "t") == 2
    assert hold_encumbered(s, h, "h") == 0


def test_break_hold_freeing_a_held_part_removes_it_and_only_1_tier() -> None:
    """seed-000 Break Hold: "If the Holder has targeted a specific part, you can remove the affected part and part
    used to attack it from the Hold. If you do, only reduce the Encumbered Tier by 1."
    g holds t with both arms, its right arm holding t's left arm. t (free right arm) frees its left arm: Athletics
    9, 1 -> 7 against g's 3, 2 -> 1: success. t's left arm is free again, g's right arm leaves the Hold, t keeps 1
    Tier and is still Held by g's left arm."""
    s0 = with_hold(_t_held_by_g(), {"g": ["left_arm", "right_arm"]}, ["t"])
    s0.holds["h0"].locks.append(PartLock(held="t", part="left_arm", holder="g", limb="right_arm"))
    t_arm = s0.creatures["t"].limb("left_arm")
    assert t_arm is not None
    t_arm.hold_id = "h0"
    s, events = run(s0, break_hold(free_part="left_arm"), [9, 1, 3, 2])
    assert only(events, "break_hold").data["lowered"] == 1
    h = hold_of(s)
    assert h.holders == {"g": ["left_arm"]}
    assert h.locks == []
    assert hold_encumbered(s, h, "t") == 1
    freed = s.creatures["t"].limb("left_arm")
    assert freed is not None and freed.free


def test_break_hold_on_a_creature_that_is_not_a_holder_is_refused() -> None:
    """seed-000 Break Hold: "Attack target Holder". t is Held, not a Holder; h (next to them) cannot Break Hold on
    it."""
    s0 = on_turn(state(creature("g", (5, 5)), creature("t", (5, 5)), creature("h", (6, 5))), "h")
    s0 = with_hold(s0, {"g": ["left_arm"]}, ["t"])
    refused(s0, break_hold(who="h", target="t"))


def test_break_hold_freeing_a_part_the_holder_does_not_hold_is_refused() -> None:
    """seed-000 Break Hold: "If the Holder has targeted a specific part, you can remove the affected part". g holds
    none of t's parts."""
    refused(_t_held_by_g(), break_hold(free_part="head"))


def test_break_hold_is_offered_only_against_holders_in_reach() -> None:
    """seed-000 Break Hold: "Attack target Holder". Held t is offered Break Hold on g; with no Hold it is not."""
    assert targets(_t_held_by_g(), "t", "break_hold") == ["g"]
    s0 = on_turn(state(creature("g", (5, 5)), creature("t", (5, 5), controller="p")), "t")
    assert options(s0, "t", "break_hold") == []


def test_overpower_against_a_player_waits_for_the_defense() -> None:
    """reference §1.3: the defender makes an opposed roll or declines. With `defense_prompts` "players", Impair on
    a player's creature waits; declining fails the defense: Athletics 3, 2 -> 3 (DL 3) succeeds."""
    settings = TableSettings(defense_prompts="players", reactions=False)
    s0 = on_turn(state(creature("a", (5, 5)), creature("t", (6, 5), controller="p"), settings=settings), "a")
    s, _ = run(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Unstable"}, [3, 2])
    (decision,) = s.pending
    s, _ = run(s, {"type": "defend", "decision": decision.id, "roll": False}, [])
    assert s.creatures["t"].ailments == {"Unstable": 1}


def test_hinder_attack_applies_to_an_overpower() -> None:
    """seed-000 Hinder Attack: "As a creature in your Reach attacks a target other than you, attack to cause -1 on
    their attack roll, DL 3." Overpowers are attacks. a (blue) Impairs t (red) with h (red) next to a: h Hinders
    (Martial 8, 1 -> 8 against a's Martial 3, 2 -> 3: success), then a's Impair takes -1: Athletics 6, 1 -> 5
    against Athletics 4, 4 -> 4: success."""
    settings = TableSettings(defense_prompts="nobody", reactions=True)
    a, t, h = creature("a", (5, 5), side="blue"), creature("t", (6, 5), side="red"), creature("h", (4, 5), side="red")
    s0 = on_turn(state(a, t, h, settings=settings), "a")
    s, events = run(s0, {"type": "impair", "creature": "a", "target": "t", "ailment": "Muted"}, [])
    assert only(events, "reaction_window").data["hinderers"] == ["h"]
    (decision,) = s.pending
    s, events = run(s, {"type": "react", "decision": decision.id, "hinder": True}, [8, 1, 3, 2, 6, 1, 4, 4])
    assert only(events, "hinder").data["success"] is True
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [(-1, "Hindered by H")]
    assert s.creatures["t"].ailments == {"Muted": 1}


def test_no_overpower_is_offered_without_a_major_action() -> None:
    """reference §3: "Strikes and Overpowers are normally Major Actions." After h's Grapple (Athletics 8, 3 against
    4, 2: success) no Overpower of any kind is offered to h, nor accepted."""
    s, _ = run(_grapple_field(), grapple(), [8, 3, 4, 2])
    left = {o.action for o in legal_actions(s, "h")}
    assert left.isdisjoint({"disarm", "impair", "reposition", "grapple", "break_hold", "called_shot", "charge"})
    refused(s, {"type": "impair", "creature": "h", "target": "t", "ailment": "Muted"})
    refused(s, break_hold(who="h"))
