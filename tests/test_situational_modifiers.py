"""Hand-worked tests: a successful Hinder reaches every kind of attack through the one situational mechanism.

seed-000 Hinder Attack: "As a creature in your Reach attacks a target other than you, attack to cause -1 on their
attack roll, DL 3." Hinder Spell: "As a creature in your Reach begins to Manifest a Spell, attack to cause -1 on
their roll, DL 3." The -1 is a situational modifier on the transaction (`vtt.rules.situational`) that the one
function making an attack roll always adds: each attack below must show it, with its key and the hinderer as its
source. An attack that made its roll without reading it would miss the -1 and fail here.

a (blue) at (5, 5) attacks t (red) at (6, 5); h (red) at (4, 5) has a in its Reach and Hinders. Everyone has
Martial, Elude, Athletics, Guile and Observe 2, Endure 3. Hinder Attack rolls Martial against the actor's Martial
(table settings). In every test h rolls 5, 1 -> 5 against a's 3, 2 -> 3: the Hinder succeeds. Faces: the Hinder,
the actor's one defense, then the command's own rolls.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, on_turn, only, run, state, used, weapon

from vtt.rules.dice import Modifier, Roll
from vtt.rules.model import GameState, Hold
from vtt.rules.settings import TableSettings

REACTING = TableSettings(defense_prompts="nobody", reactions=True)
SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Guile": 2, "Observe": 2, "Endure": 3, "Zeal": 1}
HINDERED = Modifier(value=-1, reason="Hindered by H", key="hinder_attack", source="h")
HINDER_WINS = [5, 1, 3, 2]


def trio(**extra: Any) -> GameState:
    a = creature("a", (5, 5), skills=SKILLS, side="blue")
    t = creature("t", (6, 5), skills=SKILLS, side="red")
    h = creature("h", (4, 5), skills=SKILLS, side="red")
    return on_turn(state(a, t, h, *extra.values(), settings=REACTING), "a")


def hindered(s: GameState, command: dict[str, Any], faces: list[int], **kw: Any) -> tuple[GameState, list[Any]]:
    """`command`, then h Hinders (with `kw`) and everyone else passes; the faces go with the last answer."""
    s, events = run(s, command, [])
    assert only(events, "reaction_window").data["hinderers"] == ["h"]
    while s.pending:
        d = s.pending[0]
        last = len(s.pending) == 1
        answer = {"type": "react", "decision": d.id, "hinder": d.creature == "h", **(kw if d.creature == "h" else {})}
        s, events = run(s, answer, faces if last else [])
    assert only(events, "hinder").data["success"] is True
    return s, events


def attack_roll(events: list[Any], kind: str = "attack") -> Roll:
    roll: Roll = only(events, kind).rolls[0]
    return roll


def test_hinder_attack_takes_1_from_a_melee_strike() -> None:
    """a Strikes t unarmed (a limb is a Tier 1 weapon, not above Martial 2: no modifier). Martial 7, 1 -> 7 - 1 = 6
    against t's Elude 4, 2 -> 4: a hit; unarmed damage 1d12: 5 -> 1 Injury."""
    s, events = hindered(trio(), {"type": "strike", "creature": "a", "target": "t"}, [*HINDER_WINS, 7, 1, 4, 2, 5])
    roll = attack_roll(events)
    assert roll.modifiers == (HINDERED,)
    assert roll.result == 6
    assert s.creatures["t"].grit.pips == 1


def test_hinder_attack_takes_1_from_a_ranged_strike() -> None:
    """a (Nimble 2, the ranged skill) shoots t with a Tier 1 Longbow (2 damage dice, range 4) from (5, 5) to
    (9, 5): in range. Nimble 8, 1 -> 8 - 1 = 7 against t's Elude 5, 2 -> 5: a hit; damage 3, 3 -> 2 Injury."""
    bow = weapon("longbow", damage=2, name="Longbow", ranged="launched", range=4, two_handed=True)
    s0 = trio()
    s0.creatures["a"] = creature(
        "a",
        (5, 5),
        skills={**SKILLS, "Nimble": 2},
        side="blue",
        weapons=[bow],
        grip={"left_arm": "longbow", "right_arm": "longbow"},
    )
    s0.creatures["t"].anchor = (9, 5)
    shoot = {"type": "strike", "creature": "a", "target": "t", "weapon": "longbow", "ranged": True}
    s, events = hindered(s0, shoot, [*HINDER_WINS, 8, 1, 5, 2, 3, 3])
    roll = attack_roll(events)
    assert roll.modifiers == (HINDERED,)
    assert roll.result == 7
    assert s.creatures["t"].grit.pips == 2


def test_hinder_attack_takes_1_from_a_distract() -> None:
    """After a Major Action, a Distracts t (+2 for a Major Action): Guile 6, 2 -> 6 + 2 - 1 = 7 against t's Observe
    4, 1 -> 4: t is Focused on a."""
    s0 = used(trio(), "a", "major")
    s, events = hindered(s0, {"type": "distract", "creature": "a", "targets": ["t"]}, [*HINDER_WINS, 6, 2, 4, 1])
    roll = attack_roll(events)
    assert roll.modifiers[-1] == HINDERED
    assert [m.key for m in roll.modifiers] == ["distract", "hinder_attack"]
    assert roll.result == 7
    assert s.creatures["t"].focus == "a"


def test_hinder_attack_takes_1_from_a_collision() -> None:
    """a moves into t's space (7, 5) along (6, 5) to collide; h answers Hinder Attack (not Hinder Movement).
    Athletics 6, 2 -> 6 - 1 = 5 against t's Athletics 4, 3 -> 4: success; damage 1d12: 5 -> 1 Injury."""
    s0 = trio()
    s0.creatures["t"].anchor = (7, 5)
    collide = {"type": "move", "creature": "a", "to": (7, 5), "path": [(6, 5), (7, 5)], "collide_with": "t"}
    s, events = hindered(s0, collide, [*HINDER_WINS, 6, 2, 4, 3, 5], hinder_as="hinder_attack")
    roll = attack_roll(events)
    assert roll.modifiers == (HINDERED,)
    assert roll.result == 5
    assert s.creatures["t"].grit.pips == 1


def test_hinder_attack_takes_1_from_a_grab() -> None:
    """t shares a's space (Grab Reach is Reach - 1 = 0). a Grabs t with a free arm: Athletics 6, 1 -> 6 - 1 = 5
    against t's Elude 4, 2 -> 4: success, t is Held."""
    s0 = trio()
    s0.creatures["t"].anchor = (5, 5)
    s, events = hindered(s0, {"type": "grab", "creature": "a", "target": "t"}, [*HINDER_WINS, 6, 1, 4, 2])
    roll = attack_roll(events)
    assert roll.modifiers == (HINDERED,)
    assert roll.result == 5
    assert any("t" in hold.held for hold in s.holds.values())


def test_hinder_attack_takes_1_from_a_grapple() -> None:
    """g (blue, a's ally) Holds t with its left arm in t's space; a Grapples t with a free arm. Athletics 6, 1 ->
    6 - 1 = 5 against t's Athletics 4, 2 -> 4 - 2 (2 Tiers of Encumbered in the Hold) = 2: success, a joins the
    Hold as a Holder."""
    s0 = trio(g=creature("g", (6, 5), skills=SKILLS, side="blue"))
    s0.holds["h0"] = Hold(id="h0", holders={"g": ["left_arm"]}, held=["t"])
    arm = s0.creatures["g"].limb("left_arm")
    assert arm is not None
    arm.hold_id = "h0"
    s, events = hindered(s0, {"type": "grapple", "creature": "a", "target": "t"}, [*HINDER_WINS, 6, 1, 4, 2])
    roll = attack_roll(events)
    assert roll.modifiers == (HINDERED,)
    assert roll.result == 5
    assert "a" in s.holds["h0"].holders


@pytest.mark.usefixtures("stone_fist")
def test_hinder_attack_takes_1_from_a_talents_manifest_attack() -> None:
    """A Talent's damaging Manifest is an attack (its Manifest roll is the attack roll). Endure 7, 3, 2 -> 7 - 1 =
    6, DL 6, against t's Elude 2, 2 -> 2: a hit; damage 1d12: 5 -> 1 Injury."""
    s0 = trio()
    s0.creatures["a"].abilities = ["stone_fist"]
    manifest = {"type": "manifest", "creature": "a", "ability": "stone_fist", "target": "t"}
    s, events = hindered(s0, manifest, [*HINDER_WINS, 7, 3, 2, 2, 2, 5])
    roll = attack_roll(events, "manifest")
    assert roll.modifiers == (HINDERED,)
    assert roll.result == 6
    assert s.creatures["t"].grit.pips == 1


def test_hinder_spell_takes_1_from_the_manifest_roll() -> None:
    """a (Magic 3) Manifests Firebolt on t, 3 spaces away; h Hinders the Spell: Martial 5, 1 -> 5 against a's one
    Magic defense 3, 2, 1 -> 3: success. Firebolt: Magic 7, 3, 2 -> 7 - 1 = 6, still DL 6; it attacks t's Elude 2,
    2 -> 2 and deals 3 damage dice 3, 3, 3 -> 3 Injury."""
    s0 = trio()
    s0.creatures["a"].skills["Magic"] = 3
    s0.creatures["a"].abilities = ["firebolt"]
    s0.creatures["t"].anchor = (8, 5)
    manifest = {"type": "manifest", "creature": "a", "ability": "firebolt", "target": "t"}
    s, events = hindered(s0, manifest, [5, 1, 3, 2, 1, 7, 3, 2, 2, 2, 3, 3, 3])
    roll = attack_roll(events, "manifest")
    assert roll.modifiers == (Modifier(value=-1, reason="Hindered by H", key="hinder_spell", source="h"),)
    assert roll.result == 6
    assert s.creatures["t"].grit.pips == 3
