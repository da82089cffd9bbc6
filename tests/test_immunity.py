"""Hand-worked tests of Immunity to Ailments and effects (seed-004 Immunity).

seed-004: "Injury, Ailments, and effects of a given type are prevented and removed." A creature's `immunities`
name types: an Ailment's name, or a type of damage or effect (physical, magical, an Element). Impair (seed-000) is
an attack with a melee weapon: Athletics against Athletics (table settings), DL 3; faces: attack, then defense.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state

from vtt.rules.model import GameState


def pair(**t_kw: Any) -> GameState:
    return on_turn(state(creature("a", (5, 5)), creature("t", (6, 5), **t_kw)), "a")


def impair(ailment: str) -> dict[str, Any]:
    return {"type": "impair", "creature": "a", "target": "t", "ailment": ailment}


def test_immunity_prevents_the_ailment_an_impair_causes() -> None:
    """seed-004 Immunity: "Ailments ... of a given type are prevented". t is Immune to Blinded. a Impairs t:
    Athletics 9, 4 -> 9 against 5, 2 -> 5: success, but t gains no Blinded."""
    s, events = run(pair(immunities=["Blinded"]), impair("Blinded"), [9, 4, 5, 2])
    assert only(events, "attack").data["success"] is True
    assert only(events, "immune").data == {"ailment": "Blinded", "immunity": "Blinded"}
    assert s.creatures["t"].ailments == {}


def test_immunity_to_physical_prevents_an_impairs_effect() -> None:
    """seed-004 Immunity: "effects of a given type are prevented"; Impair is a physical attack (seed-004: "Attacks
    made with a Might or Finesse Skill are physical attacks"). t Immune to physical: the succeeding Impair (9, 4
    against 5, 2) causes no Dazzled."""
    s, events = run(pair(immunities=["physical"]), impair("Dazzled"), [9, 4, 5, 2])
    assert of_kind(events, "immune")
    assert s.creatures["t"].ailments == {}


def test_an_impair_of_another_ailment_still_lands_on_an_immune_creature() -> None:
    """seed-004 Immunity names a type: t Immune to Blinded is still Dazzled by a succeeding Impair (9, 4 against
    5, 2): Tier 1."""
    s, _ = run(pair(immunities=["Blinded"]), impair("Dazzled"), [9, 4, 5, 2])
    assert s.creatures["t"].ailments == {"Dazzled": 1}


def test_immunity_prevents_an_ailment_the_soulweaver_gives() -> None:
    """seed-004 Immunity: "Ailments ... are prevented". The Soulweaver gives t (Immune to frightened, any case)
    Tier 2 Frightened: nothing changes."""
    s, events = run(
        pair(immunities=["frightened"]), {"type": "afflict", "target": "t", "ailment": "Frightened", "tiers": 2}, []
    )
    assert of_kind(events, "immune")
    assert s.creatures["t"].ailments == {}


def test_an_ailment_an_immune_creature_is_given_on_its_sheet_is_removed() -> None:
    """seed-004 Immunity: "... are prevented and removed." t is Immune to Slowed; the Soulweaver edits its sheet to
    Slowed 2 and Dazzled 1: Slowed is removed, Dazzled stays."""
    s0 = pair(immunities=["Slowed"])
    changes = {"ailments": {"Slowed": 2, "Dazzled": 1}}
    s, _ = run(s0, {"type": "edit_creature", "creature": "t", "changes": changes}, [])
    assert s.creatures["t"].ailments == {"Dazzled": 1}
