"""Hand-worked tests that each conflict attack rolls the skill its rule names and attacks the skill its defender
rolls, with fixtures of unequal skills: the attacker has 3 dice in the skill it should roll and 1 in every other,
the defender 3 dice in the skill it should defend with and 1 in every other. A wrong skill rolls a different number
of dice, so the scripted faces would not all be used (or would run out).

Skills by rule and table setting (defaults): Strike Martial against Elude (seed-000, `strike_skill`,
`strike_defense`); Grab Athletics against Elude (reference §1.3); Impair, Reposition, Grapple, Break Hold and
Collision Athletics against Athletics (settings); Distract Guile against Observe (settings). Every attack here rolls
2, 2, 2 (short of every DL 3, or beaten by the defense) and every defense 9, 9, 9: nothing follows the attack.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, on_turn, only, run, state, weapon

from vtt.rules.model import Creature, GameState, Hold

ALL = ("Martial", "Elude", "Athletics", "Guile", "Observe", "Nimble", "Endure", "Zeal")
ATTACK = [2, 2, 2]
DEFENSE = [9, 9, 9]


def skills(three: str) -> dict[str, int]:
    return {s: 3 if s == three else 1 for s in ALL}


def fighters(attack: str, defense: str, a_at: tuple[int, int], t_at: tuple[int, int]) -> tuple[Creature, Creature]:
    a = creature("a", a_at, skills=skills(attack), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    return a, creature("t", t_at, skills=skills(defense))


def plain(attack: str, defense: str, same_space: bool = False) -> GameState:
    a, t = fighters(attack, defense, (5, 5), (5, 5) if same_space else (6, 5))
    return on_turn(state(a, t), "a")


def holding(attack: str, defense: str, a_holds: bool) -> GameState:
    """a and t share (5, 5); a Holds t (a_holds) or t Holds a, with the left arm."""
    a, t = fighters(attack, defense, (5, 5), (5, 5))
    s = on_turn(state(a, t), "a")
    holder, held = ("a", "t") if a_holds else ("t", "a")
    s.holds["h0"] = Hold(id="h0", holders={holder: ["left_arm"]}, held=[held])
    arm = s.creatures[holder].limb("left_arm")
    assert arm is not None
    arm.hold_id = "h0"
    return s


CASES: dict[str, tuple[str, str, Any, dict[str, Any]]] = {
    "strike": ("Martial", "Elude", lambda: plain("Martial", "Elude"), {"target": "t", "weapon": "sword"}),
    "grab": ("Athletics", "Elude", lambda: plain("Athletics", "Elude", same_space=True), {"target": "t"}),
    "impair": (
        "Athletics",
        "Athletics",
        lambda: plain("Athletics", "Athletics"),
        {"target": "t", "ailment": "Dazzled", "weapon": "sword"},
    ),
    "reposition": (
        "Athletics",
        "Athletics",
        lambda: plain("Athletics", "Athletics"),
        {"target": "t", "to": (7, 5), "weapon": "sword"},
    ),
    "grapple": ("Athletics", "Athletics", lambda: holding("Athletics", "Athletics", True), {"target": "t"}),
    "break_hold": ("Athletics", "Athletics", lambda: holding("Athletics", "Athletics", False), {"target": "t"}),
    "distract": ("Guile", "Observe", lambda: plain("Guile", "Observe"), {"targets": ["t"], "action": "speak"}),
}


@pytest.mark.parametrize("action", sorted(CASES))
def test_each_attack_rolls_its_skill_against_the_defenders_skill(action: str) -> None:
    """The attack rolls 3 dice (its skill) and the defense 3 dice (the attacked skill): every face is used."""
    attack_skill, defense_skill, build, params = CASES[action]
    s, events = run(build(), {"type": action, "creature": "a", **params}, [*ATTACK, *DEFENSE])
    attack = only(events, "attack")
    assert attack.data["defense_skill"] == defense_skill
    assert attack.data["success"] is False
    assert [r.dice for r in attack.rolls] == [3, 3]
    assert attack.rolls[0].base_dice == s.creatures["a"].skill(attack_skill) == 3


def test_a_collision_rolls_athletics_against_athletics() -> None:
    """seed-000 Collision (settings: Athletics against Athletics). a (Athletics 3) moves into t's space: attack
    2, 2, 2 against t's Athletics 9, 9, 9: it fails."""
    s0 = plain("Athletics", "Athletics")
    _, events = run(s0, {"type": "move", "creature": "a", "to": (6, 5), "collide_with": "t"}, [*ATTACK, *DEFENSE])
    attack = only(events, "attack")
    assert (attack.data["defense_skill"], [r.dice for r in attack.rolls]) == ("Athletics", [3, 3])
