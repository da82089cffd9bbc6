"""Hand-worked tests: Hinder Attack against every attack on a target other than the hinderer (seed-000).

seed-000 Hinder Attack: "As a creature in your Reach attacks a target other than you, attack to cause -1 on their
attack roll, DL 3. If multiple attackers hinder the same attack, the attacker rolls this defense only once and uses
the same result against all." A Distract attacks creatures, a Collision attacks "a target in the space", and a
Talent whose Manifest roll is used as its attack roll ("If the ability makes an attack without specifying the attack
roll, use the result of the Manifest roll") attacks its target: each may be Hindered. A Collision is also a
movement, so Hinder Movement is offered with it and the `react` answer names which Hinder it is (`hinder_as`).

Hinder Attack rolls Martial against the actor's Martial, Hinder Movement Athletics against Athletics (table
settings). Faces: the Hinders, the actor's one defense, then the command's own rolls.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, of_kind, on_turn, only, refused, run, state, used

from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

REACTING = TableSettings(defense_prompts="nobody", reactions=True)
SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Guile": 2, "Observe": 2, "Endure": 3, "Zeal": 1}


def answer(s: GameState, hinderer: str, faces: list[int], **kw: Any) -> tuple[GameState, list[Any]]:
    """`hinderer` Hinders (with `kw`), everyone else passes; the faces go with the last answer."""
    events: list[Any] = []
    while s.pending:
        d = s.pending[0]
        last = len(s.pending) == 1
        extra = kw if d.creature == hinderer else {}
        cmd = {"type": "react", "decision": d.id, "hinder": d.creature == hinderer, **extra}
        s, events = run(s, cmd, faces if last else [])
    return s, events


def trio(actor: str = "a", target: str = "t") -> GameState:
    """The actor (blue) at (5, 5), its target (red) at (6, 5), h (red) at (4, 5): both in the actor's Reach."""
    a = creature(actor, (5, 5), skills=SKILLS, side="blue")
    t = creature(target, (6, 5), skills=SKILLS, side="red")
    h = creature("h", (4, 5), skills=SKILLS, side="red")
    return on_turn(state(a, t, h, settings=REACTING), actor)


def test_hinder_attack_on_a_distract() -> None:
    """Hinder Attack against a Distract: a Distracts t after a Major Action; h (not attacked) may Hinder, t (the
    target) may not. h: Martial 5, 1 -> 5 against a's Martial 3, 2 -> 3: success. a's Distract: Guile 6, 2 -> 6 + 2
    - 1 = 7 against t's Observe 4, 1 -> 4: t is Focused on a."""
    s0 = used(trio(), "a", "major")
    s, events = run(s0, {"type": "distract", "creature": "a", "targets": ["t"]}, [])
    assert only(events, "reaction_window").data["hinderers"] == ["h"]
    s, events = answer(s, "h", [5, 1, 3, 2, 6, 2, 4, 1])
    assert only(events, "hinder").data["success"] is True
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [
        (2, "Distract: +2 for a Major Action"),
        (-1, "Hindered by H"),
    ]
    assert s.creatures["t"].focus == "a"


def collision_field() -> GameState:
    """m (blue) at (5, 5) collides with t (red) at (7, 5) along (6, 5); h (red) at (4, 5) has m in its Reach."""
    m = creature("m", (5, 5), skills=SKILLS, side="blue")
    t = creature("t", (7, 5), skills=SKILLS, side="red")
    h = creature("h", (4, 5), skills=SKILLS, side="red")
    return on_turn(state(m, t, h, settings=REACTING), "m")


COLLIDE = {"type": "move", "creature": "m", "to": (7, 5), "path": [(6, 5), (7, 5)], "collide_with": "t"}


def test_hinder_attack_on_a_collision_takes_1_from_its_roll() -> None:
    """A Collision is an attack: h is offered Hinder Movement or Hinder Attack and answers Hinder Attack. h: Martial
    5, 1 -> 5 against m's Martial 3, 2 -> 3: success. The Collision: Athletics 6, 2 -> 6 - 1 = 5 against t's
    Athletics 4, 3 -> 4: success, damage 1d12: 5 -> 1 Injury; m moves."""
    s, _ = run(collision_field(), COLLIDE, [])
    (mine,) = s.pending
    assert mine.payload["kinds"] == {"hinder_movement": 0, "hinder_attack": 0}
    assert "Hinder Movement or Hinder Attack" in mine.prompt
    s, events = answer(s, "h", [5, 1, 3, 2, 6, 2, 4, 3, 5], hinder_as="hinder_attack")
    hinder = only(events, "hinder")
    assert (hinder.data["kind"], hinder.data["success"]) == ("hinder_attack", True)
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [(-1, "Hindered by H")]
    assert attack.rolls[0].result == 5 and attack.data["success"] is True
    assert s.creatures["t"].grit.pips == 1


def test_a_collision_hindered_without_naming_the_hinder_is_hinder_movement() -> None:
    """Without `hinder_as` the first Hinder offered is meant: Hinder Movement. h: Athletics 5, 1 -> 5 against m's
    Athletics 3, 2 -> 3: the movement is prevented, so no Collision."""
    s, _ = run(collision_field(), COLLIDE, [])
    s, events = answer(s, "h", [5, 1, 3, 2])
    assert only(events, "hinder").data["kind"] == "hinder_movement"
    only(events, "move_prevented")
    assert not of_kind(events, "attack")
    assert s.creatures["m"].anchor == (5, 5)


def test_a_hinder_not_offered_is_refused() -> None:
    """A Strike offers only Hinder Attack: answering Hinder Movement is refused and the table still waits."""
    s, _ = run(trio(), {"type": "strike", "creature": "a", "target": "t"}, [])
    refused(s, {"type": "react", "decision": s.pending[0].id, "hinder": True, "hinder_as": "hinder_movement"})


@pytest.mark.usefixtures("stone_fist")
def test_hinder_attack_on_a_talents_damaging_manifest() -> None:
    """A Talent is no Spell, so no Hinder Spell; but its damaging Manifest is an attack on t: h may Hinder Attack.
    h: Martial 5, 1 -> 5 against a's Martial 3, 2 -> 3: success. a's Manifest (Endure 3): 7, 3, 2 -> 7 - 1 = 6,
    DL 6, against t's Elude 2, 2 -> 2: a hit; damage 1d12: 5 -> 1 Injury."""
    s0 = trio()
    s0.creatures["a"].abilities = ["stone_fist"]
    s, events = run(s0, {"type": "manifest", "creature": "a", "ability": "stone_fist", "target": "t"}, [])
    assert only(events, "reaction_window").data["hinderers"] == ["h"]
    assert "Hinder Attack" in s.pending[0].prompt
    s, events = answer(s, "h", [5, 1, 3, 2, 7, 3, 2, 2, 2, 5])
    assert only(events, "hinder").data["kind"] == "hinder_attack"
    manifest = only(events, "manifest")
    assert [(m.value, m.reason) for m in manifest.rolls[0].modifiers] == [(-1, "Hindered by H")]
    assert s.creatures["t"].grit.pips == 1
