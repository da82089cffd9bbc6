"""Hand-worked tests of the DLs of conflict attacks whose seed text names none (table settings `grab_dl`,
`grapple_dl`, `break_hold_dl`, `distract_dl`: 3, as every conflict attack seed-000 gives a DL: Strike, Disarm,
Impair, Reposition, Collision, the Hinders), and of the ground's defense.

Creatures are size 0 with Martial 2, Elude 2, Athletics 2 (Guile 2, Observe 2 where said). A roll is its highest
face plus modifiers; more than half the dice showing 1 is a Fumble, which fails. Faces: the attack, then the defense.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state, used, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState, Hold

SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Guile": 2, "Observe": 2}


def pair() -> GameState:
    """a and t in the same space (Grab has Reach - 1 = 0), on a's turn."""
    return on_turn(state(creature("a", (5, 5), skills=SKILLS), creature("t", (5, 5), skills=SKILLS)), "a")


def held() -> GameState:
    """g holds t in (5, 5) with its left arm; h at (6, 5); the Soulweaver's turn (all act)."""
    s = on_turn(state(creature("g", (5, 5)), creature("t", (5, 5)), creature("h", (6, 5))), "h")
    s.holds["h0"] = Hold(id="h0", holders={"g": ["left_arm"]}, held=["t"])
    arm = s.creatures["g"].limb("left_arm")
    assert arm is not None
    arm.hold_id = "h0"
    return s


def test_grab_is_dl_3() -> None:
    """Grab names no DL (seed-000): 3, as every conflict attack that names one. a's Athletics 2, 2 -> 2 is short of
    DL 3: the Grab fails though t's Elude 1, 1 Fumbles; 3, 2 against the same Fumble: t is Held."""
    grab = {"type": "grab", "creature": "a", "target": "t"}
    s, events = run(pair(), grab, [2, 2, 1, 1])
    assert (only(events, "attack").data["dl"], only(events, "attack").data["success"]) == (3, False)
    assert s.holds == {}
    s, events = run(pair(), grab, [3, 2, 1, 1])
    assert only(events, "attack").data["success"] is True
    assert [h.held for h in s.holds.values()] == [["t"]]


def test_grapple_is_dl_3() -> None:
    """Grapple names no DL (seed-000): 3. h's Athletics 2, 2 -> 2: short of DL 3 against t's Fumbled 1, 1; 3, 2:
    h joins the Hold as a Holder."""
    grapple = {"type": "grapple", "creature": "h", "target": "t"}
    s, events = run(held(), grapple, [2, 2, 1, 1])
    assert (only(events, "attack").data["dl"], only(events, "attack").data["success"]) == (3, False)
    assert "h" not in s.holds["h0"].holders
    s, _ = run(held(), grapple, [3, 2, 1, 1])
    assert "h" in s.holds["h0"].holders


def test_break_hold_is_dl_3() -> None:
    """Break Hold names no DL (seed-000): 3. t (Held: -2 Encumbered on its roll) Breaks g's Hold: Athletics 4, 2 ->
    2 is short of DL 3 against g's Fumbled 1, 1; 5, 2 -> 3 reaches it: 2 Tiers less, t is free."""
    breaking = {"type": "break_hold", "creature": "t", "target": "g"}
    s0 = held()
    s, events = run(s0, breaking, [4, 2, 1, 1])
    assert (only(events, "attack").data["dl"], only(events, "attack").data["success"]) == (3, False)
    assert s.holds["h0"].held == ["t"]
    s, events = run(s0, breaking, [5, 2, 1, 1])
    assert only(events, "attack").data["success"] is True
    assert s.holds == {}


def test_distract_is_dl_3() -> None:
    """Distract names no DL (seed-000): 3. a (Guile 2, Dazzled 3: -2 on attack rolls) Distracts t with a Minor
    Action (+1): 3, 2 -> 3 + 1 - 2 = 2 is short of DL 3 against t's Fumbled Observe 1, 1: no Focus."""
    s0 = pair()
    s0.creatures["a"].ailments["Dazzled"] = 3
    distract = {"type": "distract", "creature": "a", "targets": ["t"], "action": "minor"}
    s, events = run(used(s0, "a", "minor"), distract, [3, 2, 1, 1])
    attack = only(events, "attack")
    assert (attack.rolls[0].result, attack.data["dl"], attack.data["success"]) == (2, 3, False)
    assert s.creatures["t"].focus is None


def test_the_grounds_defense_is_0_and_its_attack_takes_minus_1() -> None:
    """seed-000: "To target the ground or a horizontal surface that fills an entire space, take -1 on your attack
    roll and treat its defense as 0." A Strike is DL 3. a strikes the ground at (6, 5) with a sword of 2: Martial
    4, 1 -> 4 - 1 = 3: reaches DL 3 and beats defense 0: a hit, damage 3, 1 -> 1 Injury to the surface. Martial
    3, 1 -> 2: short of DL 3, a miss."""
    a = creature("a", (5, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    s0 = on_turn(state(a), "a")
    ground: dict[str, Any] = {
        "type": "strike",
        "creature": "a",
        "space": (6, 5),
        "surface": "ground",
        "weapon": "sword",
    }
    _, events = run(s0, ground, [4, 1, 3, 1])
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [(-1, "attacking the ground")]
    assert attack.data["success"] is True and "defense 0" in attack.text
    assert only(events, "damage").data["injury"] == 1
    _, events = run(s0, ground, [3, 1])
    assert only(events, "attack").data["success"] is False
    assert not of_kind(events, "damage")


def test_distract_takes_the_ailments_on_attack_rolls() -> None:
    """reference §5.2: Dazzled is 1 + Tier/3 on attack rolls, Exhausted its Tier on Skill rolls; a Distract is an
    attack. a (Dazzled 3: -2; Exhausted 1: -1) Distracts with a Major Action (+2): Guile 6, 2 -> 6 + 2 - 2 - 1 = 5
    against t's Observe 4, 1 -> 4: success, t is Focused on a. The menu's preview shows the same modifiers."""
    s0 = pair()
    s0.creatures["a"].ailments.update({"Dazzled": 3, "Exhausted": 1})
    s0 = used(s0, "a", "major")
    (option,) = [o for o in legal_actions(s0, "a") if o.action == "distract"]
    assert option.targets[0].preview is not None
    assert [m.value for m in option.targets[0].preview.modifiers] == [2, -2, -1]
    s, events = run(s0, {"type": "distract", "creature": "a", "targets": ["t"]}, [6, 2, 4, 1])
    assert [m.value for m in only(events, "attack").rolls[0].modifiers] == [2, -2, -1]
    assert s.creatures["t"].focus == "a"
