"""Hand-worked tests of Blinded and Deafened (reference §5.2: "Every target has Sight Concealment Tier equal to your
Blinded Tier, counted from you", Deafened the same for Sound) and Concealment on attacks (reference §2.6 GAP, gap 9
ASSUMPTION: "A penalty equal to the Concealment Tier against that target for the relevant sense, normally sight"),
table settings `attack_senses`, `concealment_attack_per_tier`, `concealment_defense_per_tier`.

a (sword, Martial 2, Athletics 2) and d (Elude 2) are the Soulweaver's, side by side. A Strike rolls Martial against
Elude at DL 3; scripted faces: attack, defense, damage.
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, run, state, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1}
STRIKE = {"type": "strike", "creature": "a", "target": "d", "weapon": "sword"}
BLIND_2 = "Blinded (Tier 2): every target has Sight Concealment 2, on attack rolls"


def field(a_ailments: dict[str, int], d_ailments: dict[str, int] | None = None, **settings: Any) -> GameState:
    a = creature("a", (6, 5), skills=dict(SKILLS), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    a.ailments = dict(a_ailments)
    d = creature("d", (5, 5), skills=dict(SKILLS), ailments=d_ailments or {})
    table = TableSettings(defense_prompts="nobody", reactions=False, **settings)
    return on_turn(state(a, d, settings=table), "a")


def mods(roll: Any) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in roll.modifiers]


def test_blinded_is_a_penalty_equal_to_its_tier_on_attacks() -> None:
    """Blinded 2: d has Sight Concealment 2 from a: a's Martial 7, 1 -> 5 against Elude 5, 2 -> 5: a tie, the
    defender wins."""
    _, events = run(field({"Blinded": 2}), STRIKE, [7, 1, 5, 2])
    attack = only(events, "attack")
    assert mods(attack.rolls[0]) == [(-2, BLIND_2)]
    assert attack.data["success"] is False


def test_blinded_applies_to_grab_and_shows_in_the_preview() -> None:
    """Grab is an attack on a target too (Reach - 1: d shares a's space): Athletics 9, 1 -> 7. The Strike preview
    of legal_actions carries the same -2."""
    s0 = field({"Blinded": 2})
    s0.creatures["d"].anchor = (6, 5)
    _, events = run(s0, {"type": "grab", "creature": "a", "target": "d"}, [9, 1, 2, 2])
    assert mods(only(events, "attack").rolls[0]) == [(-2, BLIND_2)]
    previews = [
        t.preview
        for o in legal_actions(s0, "a")
        if o.action == "strike" and o.params.get("weapon") == "sword"
        for t in o.targets
        if t.target == "d" and t.preview is not None
    ]
    assert [[(m.value, m.reason) for m in p.modifiers] for p in previews] == [[(-2, BLIND_2)]]


def test_blinded_applies_to_striking_a_surface() -> None:
    """ "Every target": the ground at (6, 4) too: -1 for the ground and -2 for Blinded."""
    cmd = {"type": "strike", "creature": "a", "space": [6, 4], "surface": "ground", "weapon": "sword"}
    _, events = run(field({"Blinded": 2}), cmd, [7, 1, 1, 1])
    (attack,) = [e for e in events if e.rolls and e.rolls[0].label.startswith("A: Strike on the ground")]
    assert [v for v, _ in mods(attack.rolls[0])] == [-1, -2]


def test_a_targeted_attack_on_a_space_is_not_modified_by_concealment() -> None:
    """seed-000: "On doubles, this roll becomes the attack roll and is not modified by Concealment or size." Blinded
    a strikes d's space: the Soulweaver's 4, 4, 1 -> doubles, attack 4 with no modifier, against Elude 2, 1 -> 2:
    a hit (damage 1, 1: no Injury)."""
    cmd = {"type": "strike_space", "creature": "a", "space": [5, 5], "weapon": "sword"}
    _, events = run(field({"Blinded": 2}), cmd, [4, 4, 1, 2, 1, 1, 1])
    roll = only(events, "space_roll").rolls[0]
    assert mods(roll) == [] and roll.result == 4
    assert only(events, "attack").data["success"] is True


def test_deafened_does_not_change_attacks_that_use_sight() -> None:
    """Deafened 3 gives Sound Concealment; attacks use sight (`attack_senses`): no modifier, 7, 1 -> 7 hits."""
    _, events = run(field({"Deafened": 3}), STRIKE, [7, 1, 5, 2, 1, 1])
    assert mods(only(events, "attack").rolls[0]) == []


def test_with_several_senses_the_attacker_uses_its_least_concealed_one() -> None:
    """`attack_senses` sight and sound: Blinded 2 alone leaves sound clear, no penalty; Blinded 2 and Deafened 1 give
    the Sound Concealment 1: 7, 1 -> 6 against 5, 2 -> 5, a hit."""
    senses: Any = ["sight", "sound"]
    _, events = run(field({"Blinded": 2}, attack_senses=senses), STRIKE, [7, 1, 5, 2, 1, 1])
    assert mods(only(events, "attack").rolls[0]) == []
    _, events = run(field({"Blinded": 2, "Deafened": 1}, attack_senses=senses), STRIKE, [7, 1, 5, 2, 1, 1])
    assert mods(only(events, "attack").rolls[0]) == [
        (-1, "Deafened (Tier 1): every target has Sound Concealment 1, on attack rolls")
    ]


def test_concealment_on_a_blinded_defender_is_a_table_setting() -> None:
    """The reference says nothing of defending blind (GAP): by default Blinded d defends as usual (6, 1 against
    6, 2: a tie, no hit); with `concealment_defense_per_tier` 1, Blinded 1 is -1: 6 - 1 = 5, a hit."""
    _, events = run(field({}, {"Blinded": 1}), STRIKE, [6, 1, 6, 2])
    assert mods(only(events, "attack").rolls[1]) == []
    _, events = run(field({}, {"Blinded": 1}, concealment_defense_per_tier=1), STRIKE, [6, 1, 6, 2, 1, 1])
    attack = only(events, "attack")
    assert mods(attack.rolls[1]) == [(-1, "Blinded (Tier 1): every target has Sight Concealment 1, on defense rolls")]
    assert attack.data["success"] is True


def test_the_concealment_penalty_per_tier_is_a_table_setting() -> None:
    """`concealment_attack_per_tier` 0: Blinded changes no attack."""
    _, events = run(field({"Blinded": 2}, concealment_attack_per_tier=0), STRIKE, [7, 1, 5, 2, 1, 1])
    assert mods(only(events, "attack").rolls[0]) == []
