"""Hand-worked tests of Flurry with Grab, Grapple, Break Hold, targeted attacks on a space and Collision, and of its
lost damage dice on Collision and Manifest damage (seed-000 Flurry).

seed-000 Flurry: "Declare a number. For 1 round, lose that number of d12 on attack rolls and half that number on damage
rolls. Up to the declared number times this turn, you can use any Strike or Overpower as a Minor Action. If you do,
limbs used to attack cannot be used to attack again for 1 round and if attacking with a weapon that is not
Lightweight, lose an additional 1d12 on that attack roll."

Grab and targeted attacks on a space are Strikes, Grapple, Break Hold and Collision Overpowers (seed-000 lists them
so). A Collision costs no Major Action (it fills the Movement Pool), so it has no Minor Action form.

a stands at (5, 5) with Martial 4, Athletics 4, Magic 3; t at (6, 5) with Elude 2, Athletics 2. Grab rolls Athletics
against Elude at DL 0, Grapple and Break Hold Athletics against Athletics at DL 0, Collision Athletics against
Athletics at DL 3 (table settings). Scripted faces: the attack roll, the defense roll, then damage dice; a roll is
its highest face plus modifiers, a damage face of 3 or more is 1 Injury. The Flurry costs no action (table setting
`flurry_cost`).
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, refused, run, state, weapon

from vtt.rules.engine import ActionOption, legal_actions
from vtt.rules.model import Creature, GameState, Hold
from vtt.rules.settings import TableSettings

A_SKILLS = {"Martial": 4, "Athletics": 4, "Elude": 2, "Magic": 3, "Zeal": 1}
T_SKILLS = {"Martial": 2, "Athletics": 2, "Elude": 2, "Zeal": 1}
QUIET = TableSettings(defense_prompts="nobody", reactions=False)


def field(*extra: Creature, settings: TableSettings = QUIET, t_at: tuple[int, int] = (6, 5), **a_kw: Any) -> GameState:
    a = creature("a", (5, 5), skills=A_SKILLS, **a_kw)
    return on_turn(state(a, creature("t", t_at, skills=T_SKILLS), *extra, settings=settings), "a")


def held_by_g(s: GameState, who_holds: str = "g") -> GameState:
    s.holds["h0"] = Hold(id="h0", holders={who_holds: ["left_arm"]}, held=["t"])
    arm = s.creatures[who_holds].limb("left_arm")
    assert arm is not None
    arm.hold_id = "h0"
    return s


def flurry(number: int, who: str = "a") -> dict[str, Any]:
    return {"type": "flurry", "creature": who, "number": number}


def changes(event: Any, index: int = 0) -> list[tuple[int, str]]:
    return [(ch.dice, ch.reason) for ch in event.rolls[index].dice_changes]


def flurried(s: GameState, who: str = "a") -> list[ActionOption]:
    return [o for o in legal_actions(s, who) if o.action == "flurry_attack"]


def test_flurry_makes_a_grab_a_minor_action_and_spends_the_limb() -> None:
    """Flurry: "you can use any Strike or Overpower as a Minor Action"; Grab is a Strike. t shares a's space (Grab
    has Reach - 1 = 0). Flurry of 2, Minor Grab: Athletics 4 - 2 = 2d12: 9, 1 -> 9 against Elude 3, 2 -> 3: success,
    t is Held. A Minor Action is paid, the Major is kept, 1 use is left, and the left arm that grabbed "cannot be used
    to attack again for 1 round"."""
    s, _ = run(field(t_at=(5, 5)), flurry(2), [])
    s, events = run(s, {"type": "grab", "creature": "a", "target": "t", "minor": True}, [9, 1, 3, 2])
    assert changes(only(events, "attack")) == [(-2, "Flurry: lose 2d12 on attack rolls")]
    assert [h.held for h in s.holds.values()] == [["t"]]
    econ = s.economy["a"]
    assert (econ.major, econ.minor, econ.flurry_uses) == (1, 1, 1)
    assert [e.limbs for e in s.effects if e.name == "Flurry: limbs used"] == [["left_arm"]]


def test_flurry_makes_a_grapple_a_minor_action_and_the_limb_cannot_grapple_again() -> None:
    """Grapple is an Overpower. g holds t with its left arm; a (next to them) declares a Flurry of 1 and Grapples t
    as a Minor Action with its free left arm: Athletics 4 - 1 = 3d12: 8, 2, 1 -> 8 against t's 4, 2 -> 4 - 2 = 2:
    success. a's left arm "cannot be used to attack again for 1 round": a Grapple with it is refused even as the
    Major Action; the right arm may."""
    g = creature("g", (6, 5), skills=T_SKILLS)
    s = held_by_g(field(g))
    s, _ = run(s, flurry(1), [])
    s, events = run(s, {"type": "grapple", "creature": "a", "target": "t", "minor": True}, [8, 2, 1, 4, 2])
    assert only(events, "attack").data["success"] is True
    assert s.holds["h0"].holders["a"] == ["left_arm"]
    assert (s.economy["a"].major, s.economy["a"].minor) == (1, 1)
    refused(s, {"type": "grapple", "creature": "a", "target": "t", "limb": "left_arm"}, [9, 9, 9, 9])
    run(s, {"type": "grapple", "creature": "a", "target": "t", "limb": "right_arm"}, [2, 2, 2, 9, 9])


def test_flurry_makes_a_break_hold_a_minor_action() -> None:
    """Break Hold is an Overpower. a holds t with its left arm; on t's turn t declares a Flurry of 1 and Breaks the
    Hold as a Minor Action: Athletics 2 - 1 = 1d12: 9 -> 9 - 2 (Encumbered from the Hold) = 7 against a's 5, 2, 3, 1
    -> 5 - 2 = 3: success; a caused 2 Tiers, none is left: t is free and the Hold ends. t keeps its Major Action."""
    t = creature("t", (6, 5), skills=T_SKILLS, controller="p")
    a = creature("a", (5, 5), skills=A_SKILLS)
    s = held_by_g(on_turn(state(a, t, settings=QUIET), "t"), who_holds="a")
    s, _ = run(s, flurry(1, who="t"), [])
    s, events = run(s, {"type": "break_hold", "creature": "t", "target": "a", "minor": True}, [9, 5, 2, 3, 1])
    assert changes(only(events, "attack")) == [(-1, "Flurry: lose 1d12 on attack rolls")]
    assert s.holds == {}
    assert (s.economy["t"].major, s.economy["t"].minor) == (1, 1)


def test_flurry_minor_attack_on_a_space_loses_its_dice_from_the_soulweavers_roll() -> None:
    """A targeted attack on a space is a Strike: "this roll becomes the attack roll", so the Flurry's d12 come off
    the Soulweaver's 3d12. With a Lightweight knife, Flurry of 1, Minor: 3 - 1 = 2d12: 7, 7: doubles, the attack is
    7 against t's Elude 3, 2 -> 3: success. Damage: the knife's 2d12 (half of 1 is 0 lost): 3, 1 -> 1 Injury."""
    knife = weapon("knife", damage=2, lightweight=True)
    s, _ = run(field(weapons=[knife], grip={"right_arm": "knife"}), flurry(1), [])
    cmd = {"type": "strike_space", "creature": "a", "space": (6, 5), "weapon": "knife", "minor": True}
    s, events = run(s, cmd, [7, 7, 3, 2, 3, 1])
    assert changes(only(events, "space_roll")) == [(-1, "Flurry: lose 1d12 on attack rolls")]
    assert only(events, "attack").data["success"] is True
    assert s.creatures["t"].grit.pips == 1
    assert (s.economy["a"].major, s.economy["a"].minor) == (1, 1)


def test_flurry_minor_attack_on_a_space_with_a_weapon_not_lightweight_loses_1d12_more() -> None:
    """Flurry: "if attacking with a weapon that is not Lightweight, lose an additional 1d12 on that attack roll".
    With a sword, Flurry of 1, Minor: 3 - 1 - 1 = 1d12: 5: no doubles, nobody is attacked. As the Major Action the
    same Flurry costs only its 1d12: 3 - 1 = 2d12."""
    sword = weapon("sword", damage=2)
    s, _ = run(field(weapons=[sword], grip={"right_arm": "sword"}), flurry(1), [])
    cmd = {"type": "strike_space", "creature": "a", "space": (6, 5), "weapon": "sword"}
    _, events = run(s, {**cmd, "minor": True}, [5])
    assert changes(only(events, "space_roll")) == [
        (-1, "Flurry: lose 1d12 on attack rolls"),
        (-1, "Flurry: Sword is not Lightweight, lose 1d12"),
    ]
    assert only(events, "space_miss").actor == "a"
    _, events = run(s, cmd, [5, 6])
    assert only(events, "space_roll").rolls[0].dice == 2


def test_flurry_loses_damage_dice_on_a_collision() -> None:
    """Flurry: "half that number on damage rolls" for 1 round, Collision damage too. Collision damage 3 (table
    setting). Flurry of 2, then a moves into t's space: Athletics 4 - 2 = 2d12: 9, 1 -> 9 against 3, 2 -> 3:
    success. Damage 3 - 1 = 2d12: 3, 4 -> 2 Injury."""
    settings = TableSettings(defense_prompts="nobody", reactions=False, collision_damage=3)
    s = field(settings=settings)
    s.creatures["t"].anchor = (7, 5)
    s, _ = run(s, flurry(2), [])
    cmd = {"type": "move", "creature": "a", "to": (7, 5), "path": [(6, 5), (7, 5)], "collide_with": "t"}
    s, events = run(s, cmd, [9, 1, 3, 2, 3, 4])
    assert changes(only(events, "damage")) == [(-1, "Flurry: lose 1d12 on damage rolls")]
    assert s.creatures["t"].grit.pips == 2


def test_flurry_loses_damage_dice_on_a_manifested_ability() -> None:
    """Flurry: "half that number on damage rolls" for 1 round, a Spell's damage too. Flurry of 2, then Firebolt
    (3 fire damage) on t: the Manifest roll is the attack roll, so it loses 2d12 too: Magic 3 - 2 = 1 die, 6
    reaches DL 6 and attacks t's Elude 3, 2 -> 3: success. Damage 3 - 1 = 2d12: 3, 5 -> 2 Injury."""
    s, _ = run(field(abilities=["firebolt"]), flurry(2), [])
    s, events = run(s, {"type": "manifest", "creature": "a", "ability": "firebolt", "target": "t"}, [6, 3, 2, 3, 5])
    assert changes(only(events, "damage")) == [(-1, "Flurry: lose 1d12 on damage rolls")]
    assert s.creatures["t"].grit.pips == 2


def test_legal_actions_offer_grab_grapple_break_hold_and_space_attacks_as_flurry_minor_actions() -> None:
    """With a Flurry declared, the Minor Action forms are offered for Grab (g, in a's space), a space attack, Grapple
    (g the Holder and t, Held by g, both in the Hold) and Break Hold (g); Collision is not among them (it uses no
    Major Action). Before the Flurry none is."""
    g = creature("g", (5, 5), skills=T_SKILLS)
    s0 = held_by_g(field(g))
    assert flurried(s0) == []
    s, _ = run(s0, flurry(1), [])
    commands = {o.command for o in flurried(s)}
    assert {"grab", "strike_space", "grapple", "break_hold"} <= commands
    assert "move" not in commands
    by_command = {o.command: o for o in flurried(s) if o.command in ("grab", "grapple", "break_hold")}
    assert [t.target for t in by_command["grab"].targets] == ["g"]
    assert [t.target for t in by_command["grapple"].targets] == ["g", "t"]
    assert [t.target for t in by_command["break_hold"].targets] == ["g"]
    assert all(o.cost == {"minor": 1} and o.params.get("minor") is True for o in flurried(s))


def test_a_limb_spent_in_a_flurry_cannot_grab() -> None:
    """Flurry: "limbs used to attack cannot be used to attack again for 1 round". t shares a's space. After a Minor
    unarmed Strike with the left arm (Martial 4 - 2 = 2d12: 2, 1 against Elude 9, 9: fails), a Grab with the left
    arm is refused; with the right arm it is made (Athletics 4 - 2 = 2d12: 2, 2 against 9, 9: fails)."""
    s, _ = run(field(t_at=(5, 5)), flurry(2), [])
    s, _ = run(s, {"type": "strike", "creature": "a", "target": "t", "limb": "left_arm", "minor": True}, [2, 1, 9, 9])
    refused(s, {"type": "grab", "creature": "a", "target": "t", "limb": "left_arm"}, [9, 9, 1, 1])
    run(s, {"type": "grab", "creature": "a", "target": "t", "limb": "right_arm"}, [2, 2, 9, 9])
