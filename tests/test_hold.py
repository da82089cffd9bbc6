"""Hand-worked tests of Grab and the Hold (seed-000 "Attack a target who is not Held with a Free Limb ..." and the
Hold effects that follow it).

Scripted faces are used in this order: the attack roll, then each defense roll, then damage dice. Grab rolls
Athletics against Elude (reference §4.2; table settings `grab_skill`, `grab_defense`); the seed names no DL for
it (table setting `grab_dl` = 0). Encumbered is a penalty equal to its Tier on Athletics, Elude and Nimble
defenses and on rolls for actions that use limbs (reference §5.2).

Two size 0 creatures fill half a space each, so they can share one (reference §2.2).
"""

from __future__ import annotations

from typing import Any

from factories import creature, limb, mod_values, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.model import GameState, Hold
from vtt.rules.settings import TableSettings


def grab(target: str = "t", who: str = "g") -> dict[str, Any]:
    return {"type": "grab", "creature": who, "target": target}


def pair(
    g_size: int = 0,
    g_anchor: tuple[int, int] = (5, 5),
    t_size: int = 0,
    t_anchor: tuple[int, int] = (5, 5),
    **t_kw: Any,
) -> GameState:
    """Grabber `g` and target `t` (Athletics 2, Elude 2, Martial 2), on the Soulweaver's turn."""
    g = creature("g", g_anchor, size=g_size)
    t = creature("t", t_anchor, size=t_size, **t_kw)
    return on_turn(state(g, t), "g")


def with_hold(s: GameState, holders: dict[str, str], held: list[str]) -> GameState:
    """The state with a Hold already made: each holder uses the given limb."""
    s = s.model_copy(deep=True)
    s.holds["h0"] = Hold(id="h0", holders={cid: [lid] for cid, lid in holders.items()}, held=held)
    for cid, lid in holders.items():
        part = s.creatures[cid].limb(lid)
        assert part is not None
        part.hold_id = "h0"
    return s


# --------------------------------------------------------------------------------------------------------
# Grab
# --------------------------------------------------------------------------------------------------------


def test_grab_success_puts_both_in_a_hold_as_holder_and_held() -> None:
    """seed-000 Grab: "Attack a target who is not Held with a Free Limb to cause you both to be in a Hold, with you
    being a Holder and the target being Held."
    Both size 0 in (5, 5). Athletics 7, 2 -> 7 against Elude 4, 4 -> 4: success. One Hold: Holder g (one limb,
    no longer free), Held t."""
    s, events = run(pair(), grab(), [7, 2, 4, 4])
    assert only(events, "attack").data["success"] is True
    assert len(s.holds) == 1
    (h,) = s.holds.values()
    assert list(h.holders) == ["g"]
    assert h.held == ["t"]
    (used,) = h.holders["g"]
    part = s.creatures["g"].limb(used)
    assert part is not None and not part.free
    assert only(events, "hold").target == "t"


def test_grab_costs_the_major_action() -> None:
    """reference §3: "Strikes and Overpowers are normally Major Actions" (Grab is listed among seed-000's Strikes).
    After a Grab (Athletics 7, 2 against Elude 4, 4: success) no Major Action is left."""
    s, _ = run(pair(), grab(), [7, 2, 4, 4])
    assert s.economy["g"].major == 0


def test_grab_tie_goes_to_the_defender_and_makes_no_hold() -> None:
    """seed-000 Grab: "Attack a target ... to cause you both to be in a Hold"; a tie goes to the defender
    (reference §1.3 ASSUMPTION). Athletics 5, 1 -> 5 against Elude 5, 2 -> 5: fails, no Hold."""
    s, events = run(pair(), grab(), [5, 1, 5, 2])
    assert only(events, "attack").data["success"] is False
    assert s.holds == {}
    assert all(part.free for part in s.creatures["g"].limbs)


def test_grab_has_minus_1_reach_so_size_0_cannot_grab_an_adjacent_target() -> None:
    """seed-000 Grab: "Have -1 Reach with this attack." Size 0 has Reach 1 (reference §2.3), so Grab reaches 0:
    only its own space. The target next to it at (6, 5) is out of reach."""
    refused(pair(t_anchor=(6, 5)), grab())


def test_size_1_creature_grabs_an_adjacent_target() -> None:
    """seed-000 Grab: "Have -1 Reach with this attack." Size 1 arms reach 1 + ceil(1/2) = 2 (reference §2.3), Grab
    1. The adjacent size 0 target: Strike size penalty half of 1 -> 0; Athletics 6, 1 -> 6 against Elude 2, 2
    -> 2: success."""
    s, events = run(pair(g_size=1, t_anchor=(6, 5)), grab(), [6, 1, 2, 2])
    assert mod_values(only(events, "attack")) == []
    assert [h.held for h in s.holds.values()] == [["t"]]


def test_size_1_creature_cannot_grab_2_spaces_away() -> None:
    """seed-000 Grab: "Have -1 Reach with this attack." Size 1 Grab reaches 1: a target 2 spaces away is out."""
    refused(pair(g_size=1, t_anchor=(7, 5)), grab())


def test_grab_needs_a_free_limb() -> None:
    """seed-000 Grab: "Attack a target who is not Held with a Free Limb". Both arms grip a Two-handed weapon and
    there is no other limb: refused."""
    great = weapon("greatsword", damage=3, two_handed=True)
    g = creature(
        "g",
        (5, 5),
        weapons=[great],
        limbs=[limb("left_arm", holding="greatsword"), limb("right_arm", holding="greatsword")],
    )
    t = creature("t", (5, 5))
    refused(on_turn(state(g, t), "g"), grab())


def test_grab_with_a_named_limb_that_grips_a_weapon_is_refused() -> None:
    """seed-000 Grab: "... with a Free Limb". The right arm grips a sword: it is not free."""
    g = creature("g", (5, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    t = creature("t", (5, 5))
    refused(on_turn(state(g, t), "g"), {**grab(), "limb": "right_arm"})


def test_grab_on_a_target_already_held_is_refused() -> None:
    """seed-000 Grab: "Attack a target who is not Held". t is Held by g; h (size 1, Grab Reach 1, next to it)
    tries to Grab t."""
    g = creature("g", (5, 5))
    t = creature("t", (5, 5))
    h = creature("h", (6, 5), size=1)
    s = with_hold(on_turn(state(g, t, h), "h"), {"g": "left_arm"}, ["t"])
    refused(s, grab(who="h"))


# --------------------------------------------------------------------------------------------------------
# Encumbered in a Hold, carried Bulk
# --------------------------------------------------------------------------------------------------------


def test_held_creature_has_2_tiers_of_encumbered_on_limb_actions_and_elude_defense() -> None:
    """seed-000 Hold: "While in a Hold, suffer the following effect: • Have 2 Tiers of Encumbered."
    Encumbered: "Penalty equal to Tier on Athletics, Elude and Nimble defenses and on rolls for actions that use
    limbs" (reference §5.2).
    Held t strikes its Holder g unarmed: Martial 6, 3 -> 6 - 2 = 4; g's Elude 5, 1 -> 5 - 2 = 3: success.
    Damage 1d12, face 3 -> Injury 1."""
    s0 = with_hold(pair(), {"g": "left_arm"}, ["t"])
    s, events = run(s0, {"type": "strike", "creature": "t", "target": "g"}, [6, 3, 5, 1, 3])
    attack = only(events, "attack")
    assert mod_values(attack, 0) == [-2]
    assert mod_values(attack, 1) == [-2]
    assert attack.rolls[0].result == 4
    assert attack.rolls[1].result == 3
    assert attack.data["success"] is True
    assert s.creatures["g"].grit.pips == 1


def test_larger_creature_in_a_hold_has_encumbered_reduced_by_the_size_difference() -> None:
    """seed-000 Hold: "Have 2 Tiers of Encumbered. If you are larger than the other creature, reduce the Tiers by
    your size difference."
    Size 1 Holder g (left arm) and size 0 Held t next to it: g has 2 - 1 = 1 Tier, t keeps 2. g strikes t with
    its free right arm: Strike size penalty half of 1 -> 0; Martial 5, 2 -> 5 - 1 = 4; t's Elude 4, 1 ->
    4 - 2 = 2: success. Unarmed damage 1 + 1 (smaller target) = 2d12, faces 2, 3 -> Injury 1."""
    s0 = with_hold(pair(g_size=1, t_anchor=(6, 5)), {"g": "left_arm"}, ["t"])
    s, events = run(s0, {"type": "strike", "creature": "g", "target": "t", "limb": "right_arm"}, [5, 2, 4, 1, 2, 3])
    attack = only(events, "attack")
    assert mod_values(attack, 0) == [-1]
    assert mod_values(attack, 1) == [-2]
    assert attack.data["success"] is True
    assert s.creatures["t"].grit.pips == 1


def test_bulk_of_the_other_creatures_in_the_hold_counts_as_carried() -> None:
    """seed-000 Hold: "• The Bulk of all other creatures in the Hold count towards your carried Bulk."
    Bulk Limit 10 x (Athletics + 1) = 30, 1 Tier of Encumbered per 10 Bulk over (reference gap 15 ASSUMPTION).
    t's Bulk 45 is 15 over g's limit: 1 Tier, with the Hold's 2. g strikes t with its free right arm: Martial
    9, 2 -> 9 - 2 - 1 = 6; t's Elude 4, 1 -> 2: success. Damage 1d12, face 5 -> Injury 1."""
    s0 = with_hold(pair(bulk=45), {"g": "left_arm"}, ["t"])
    _, events = run(s0, {"type": "strike", "creature": "g", "target": "t", "limb": "right_arm"}, [9, 2, 4, 1, 5])
    attack = only(events, "attack")
    assert sorted(mod_values(attack, 0)) == [-2, -1]
    assert attack.rolls[0].result == 6
    assert attack.data["success"] is True


def test_held_creature_has_its_encumbered_on_a_nimble_defense() -> None:
    """seed-000 Hold: "Have 2 Tiers of Encumbered." Encumbered: "Penalty equal to Tier on Athletics, Elude and
    Nimble defenses" (reference §5.2). seed-000 Strikes: "If you are 4 or more sizes larger than your target, you
    can instead attack against Nimble and the penalty on your roll instead applies to damage."
    Size 4 b (7 spaces around (8, 5), Reach 3) attacks the Nimble of Held t at (5, 5), 2 away from b's (7, 5):
    Martial 8, 2 -> 8 against Nimble 6, 5 -> 6 - 2 = 4: success. Damage 2 + 4 - 2 = 4d12, faces 3, 3, 3, 3 ->
    Injury 4."""
    g = creature("g", (5, 5))
    t = creature("t", (5, 5), skills={"Martial": 2, "Elude": 2, "Athletics": 2, "Nimble": 2})
    b = creature("b", (8, 5), size=4, weapons=[weapon("sword")], grip={"right_arm": "sword"})
    s0 = with_hold(on_turn(state(g, t, b), "b"), {"g": "left_arm"}, ["t"])
    cmd = {"type": "strike", "creature": "b", "target": "t", "weapon": "sword", "nimble": True}
    s, events = run(s0, cmd, [8, 2, 6, 5, 3, 3, 3, 3])
    attack = only(events, "attack")
    assert attack.data["defense_skill"] == "Nimble"
    assert mod_values(attack, 1) == [-2]
    assert attack.rolls[1].result == 4
    assert s.creatures["t"].grit.pips == 4


# --------------------------------------------------------------------------------------------------------
# Moving out of a Hold
# --------------------------------------------------------------------------------------------------------


def test_moving_out_of_a_hold_succeeds_against_athletics_and_ends_the_hold() -> None:
    """seed-000 Hold: "If an effect would move you, it attacks Athletics of each creature in the Hold with a number
    of d12 equal to the number of spaces it is trying to move you to remove you from the Hold."
    Held t moves 2 spaces to (7, 5): 2d12, faces 9, 4 -> 9 against g's Athletics 8, 3 -> 8 - 2 (Encumbered) = 6:
    success. t moves and leaves the Hold; with no Held creature left the Hold ends ("If there is no Holder or
    Held creature in a Hold, the Hold ends.") and g's arm is free again."""
    s0 = with_hold(pair(), {"g": "left_arm"}, ["t"])
    s, events = run(s0, {"type": "move", "creature": "t", "to": (7, 5), "path": [(6, 5), (7, 5)]}, [9, 4, 8, 3])
    attack = only(events, "attack")
    assert attack.rolls[0].dice == 2
    assert attack.rolls[0].result == 9
    assert attack.rolls[1].result == 6
    assert attack.data["defense_skill"] == "Athletics"
    assert s.creatures["t"].anchor == (7, 5)
    assert s.economy["t"].movement_spent == 2
    assert s.holds == {}
    assert all(part.free for part in s.creatures["g"].limbs)


def test_moving_out_of_a_hold_fails_and_the_creature_is_not_moved() -> None:
    """seed-000 Hold: "On failure against any, you are not moved."
    Held t tries 1 space: 1d12, face 5 against g's Athletics 8, 3 -> 6: fails. t stays at (5, 5), still Held."""
    s0 = with_hold(pair(), {"g": "left_arm"}, ["t"])
    s, events = run(s0, {"type": "move", "creature": "t", "to": (6, 5)}, [5, 8, 3])
    assert only(events, "attack").data["success"] is False
    assert s.creatures["t"].anchor == (5, 5)
    assert [h.held for h in s.holds.values()] == [["t"]]


def _three_in_a_hold() -> GameState:
    """a and b (Holders) and c (Held), all size 0 in (5, 5): 1.5 spaces of area, so the table's
    `space_capacity` is raised to 2 (reference §2.2 gap 3)."""
    settings = TableSettings(defense_prompts="nobody", space_capacity=2.0)
    s = state(creature("a", (5, 5)), creature("b", (5, 5)), creature("c", (5, 5)), settings=settings)
    return with_hold(on_turn(s, "c"), {"a": "left_arm", "b": "left_arm"}, ["c"])


def test_moving_out_of_a_hold_fails_if_it_fails_against_any_member() -> None:
    """seed-000 Hold: "it attacks Athletics of each creature in the Hold ... On failure against any, you are not
    moved."
    c moves 1 space: 1d12, face 8. Against a's Athletics 5, 2 -> 3: success; against b's 11, 2 -> 9: failure.
    c is not moved and stays Held."""
    s, events = run(_three_in_a_hold(), {"type": "move", "creature": "c", "to": (6, 5)}, [8, 5, 2, 11, 2])
    attacks = of_kind(events, "attack")
    assert [(e.target, e.data["success"]) for e in attacks] == [("a", True), ("b", False)]
    assert s.creatures["c"].anchor == (5, 5)
    assert [h.held for h in s.holds.values()] == [["c"]]


def test_moving_out_of_a_hold_beating_every_member_moves_the_creature() -> None:
    """seed-000 Hold: "it attacks Athletics of each creature in the Hold". 1d12, face 8: against a's Athletics 5,
    2 -> 3 and b's 6, 1 -> 4, both beaten: c moves to (6, 5) and the Hold, left with no Held, ends."""
    s, events = run(_three_in_a_hold(), {"type": "move", "creature": "c", "to": (6, 5)}, [8, 5, 2, 6, 1])
    attacks = of_kind(events, "attack")
    assert [(e.target, e.data["success"]) for e in attacks] == [("a", True), ("b", True)]
    assert s.creatures["c"].anchor == (6, 5)
    assert s.holds == {}


def test_holder_moving_away_attacks_the_held_creatures_athletics() -> None:
    """seed-000 Hold: "If an effect would move you, it attacks Athletics of each creature in the Hold" (a Holder is
    in the Hold too). g moves 1 space: 1d12, face 10, against t's Athletics 3, 2 -> 1: success; g moves and the
    Hold ends. (t's Athletics carries its 2 Tiers of Encumbered.)"""
    s0 = with_hold(pair(), {"g": "left_arm"}, ["t"])
    s, events = run(s0, {"type": "move", "creature": "g", "to": (4, 5)}, [10, 3, 2])
    attack = only(events, "attack")
    assert attack.target == "t"
    assert mod_values(attack, 1) == [-2]
    assert s.creatures["g"].anchor == (4, 5)
    assert s.holds == {}


# --------------------------------------------------------------------------------------------------------
# Dropping and losing touch
# --------------------------------------------------------------------------------------------------------


def test_drop_hold_ends_the_hold_and_its_encumbered() -> None:
    """seed-000 Hold: "Being a Holder can be Dropped. If there is no Holder or Held creature in a Hold, the Hold
    ends." After g drops, t strikes g with no Encumbered: Martial 5, 2 -> 5; Elude 4, 4 -> 4 with no penalty:
    success; damage 1d12, face 2 -> Injury 0."""
    s0 = with_hold(pair(), {"g": "left_arm"}, ["t"])
    s, events = run(s0, {"type": "drop_hold", "creature": "g"}, [])
    assert [e.kind for e in events] == ["hold_dropped", "hold_ended"]
    assert s.holds == {}
    assert all(part.free for part in s.creatures["g"].limbs)
    _, events = run(s, {"type": "strike", "creature": "t", "target": "g"}, [5, 2, 4, 4, 2])
    attack = only(events, "attack")
    assert mod_values(attack, 0) == []
    assert mod_values(attack, 1) == []
    assert attack.data["success"] is True


def test_drop_hold_by_a_creature_that_is_not_a_holder_is_refused() -> None:
    """seed-000 Hold: "Being a Holder can be Dropped." t is Held, not a Holder: it has nothing to drop."""
    refused(with_hold(pair(), {"g": "left_arm"}, ["t"]), {"type": "drop_hold", "creature": "t"})


def test_holder_that_can_no_longer_touch_the_held_stops_being_a_holder() -> None:
    """seed-000 Hold: "A creature stops being a Holder if they can no longer touch the other creature with parts
    they used for the Hold." The Soulweaver places t 2 spaces from size 0 g (its arm reaches 1 at most): g stops
    being a Holder and the Hold, with no Holder, ends."""
    s0 = with_hold(pair(), {"g": "left_arm"}, ["t"])
    s, events = run(s0, {"type": "place", "creature": "t", "to": (7, 5)}, [])
    assert [e.kind for e in events] == ["place", "hold_dropped", "hold_ended"]
    assert s.holds == {}


def test_holder_still_touching_the_held_keeps_the_hold() -> None:
    """seed-000 Hold: "A creature stops being a Holder if they can no longer touch the other creature with parts
    they used for the Hold." Size 1 g at (5, 5) holds t at (6, 5); t is placed at (6, 4), still next to g: the
    Hold stays."""
    s0 = with_hold(pair(g_size=1, t_anchor=(6, 5)), {"g": "left_arm"}, ["t"])
    s, _ = run(s0, {"type": "place", "creature": "t", "to": (6, 4)}, [])
    assert [(list(h.holders), h.held) for h in s.holds.values()] == [(["g"], ["t"])]
