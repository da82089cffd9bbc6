"""Hand-worked tests of Wounded per body part (seed-004 Serious Injury: "the effect also causes Wounded Tiers ...
If not already targeting a specific part, roll for a part"; seed-000 swallowing: "If there are 6 Tiers of Wounded
to the stomach, they fall out"; reference §5.2 Wounded: effect GAP, ASSUMPTION "penalty equal to Tier on rolls
that use that part; a part at Wounded >= 6 cannot be used"), table settings `wounded_penalty_per_tier` and
`wounded_unusable_at`.

a (sword in its right arm, Martial 2) stands next to d (Elude 2); both are the Soulweaver's. A Strike rolls Martial
against Elude at DL 3; scripted faces: attack, defense, damage.
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, refused, run, state, weapon

from vtt.rules.ailments import wounded_tiers, wounded_total
from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1}
STRIKE = {"type": "strike", "creature": "a", "target": "d", "weapon": "sword"}


def field(wounded: dict[str, int] | None = None, settings: TableSettings | None = None) -> GameState:
    a = creature("a", (6, 5), skills=dict(SKILLS), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    for pid, t in (wounded or {}).items():
        part = a.part(pid)
        assert part is not None
        part.wounded = t
    d = creature("d", (5, 5), skills=dict(SKILLS), severe_threshold=0)
    return on_turn(state(a, d, settings=settings), "a")


def mods(roll: Any) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in roll.modifiers]


def test_serious_injury_records_wounded_on_the_part_it_struck() -> None:
    """seed-004: Wounded Tiers equal to how far the Injury exceeds the Severe Threshold (d's is 0), on the targeted
    part: the Soulweaver deals 3 damage to d's stomach (3, 3, 3: 3 Injury): 3 Tiers of Wounded to the stomach,
    none elsewhere. Again (3, 4, 5): 6 Tiers to the stomach, the number at which a swallowed creature falls out."""
    harm = {"type": "harm", "target": "d", "amount": 3, "part": "stomach"}
    s, _ = run(field(), harm, [3, 3, 3])
    d = s.creatures["d"]
    assert (wounded_tiers(d, "stomach"), wounded_tiers(d, "torso"), wounded_total(d)) == (3, 0, 3)
    assert d.ailments["Wounded"] == 3
    s, _ = run(s, harm, [3, 4, 5])
    d = s.creatures["d"]
    assert wounded_tiers(d, "stomach") == 6 and d.ailments["Wounded"] == wounded_total(d) == 6
    assert wounded_tiers(d, "tail") == 0


def test_wounded_is_a_penalty_equal_to_tier_on_attacks_made_with_the_part() -> None:
    """ASSUMPTION "penalty equal to Tier on rolls that use that part": a's right arm, Wounded 2, grips the sword:
    Martial 8, 1 -> 6 against Elude 6, 2 -> 6: a tie, no hit."""
    _, events = run(field({"right_arm": 2}), STRIKE, [8, 1, 6, 2])
    attack = only(events, "attack")
    assert mods(attack.rolls[0]) == [(-2, "right arm Wounded (Tier 2): using the part")]
    assert attack.data["success"] is False


def test_wounded_on_another_part_does_not_change_the_attack() -> None:
    """Only the parts used: a Wounded left leg leaves the sword arm's Strike alone: 8, 1 -> 8 hits (1, 1: no
    Injury)."""
    _, events = run(field({"left_leg": 4}), STRIKE, [8, 1, 6, 2, 1, 1])
    assert mods(only(events, "attack").rolls[0]) == []


def test_wounded_applies_to_grab_with_the_limb() -> None:
    """Grab with the left arm, Wounded 1 (d shares a's space: Grab has Reach - 1): Athletics 5, 1 -> 4."""
    s0 = field({"left_arm": 1})
    s0.creatures["d"].anchor = (6, 5)
    cmd = {"type": "grab", "creature": "a", "target": "d", "limb": "left_arm"}
    _, events = run(s0, cmd, [5, 1, 2, 2])
    assert mods(only(events, "attack").rolls[0]) == [(-1, "left arm Wounded (Tier 1): using the part")]


def test_a_part_wounded_6_or_more_cannot_be_used() -> None:
    """ASSUMPTION "a part at Wounded >= 6 cannot be used": the sword arm at Wounded 6 cannot Strike (refused, and no
    target is offered for the sword); the unhurt left arm still Strikes unarmed: 7, 1 against 2, 2, a hit (1 die:
    1, no Injury)."""
    s0 = field({"right_arm": 6})
    refused(s0, STRIKE)
    sword = [o for o in legal_actions(s0, "a") if o.action == "strike" and o.params.get("weapon") == "sword"]
    assert [o.targets for o in sword] == [[]]
    _, events = run(s0, {"type": "strike", "creature": "a", "target": "d", "limb": "left_arm"}, [7, 1, 2, 2, 1])
    assert only(events, "attack").data["success"] is True


def test_the_penalty_and_the_limit_are_table_settings() -> None:
    """`wounded_unusable_at` 0: the arm at Wounded 6 still strikes, at -6 (9, 1 -> 3 against 3, 3: a tie, no hit);
    `wounded_penalty_per_tier` 0 as well: no penalty at all (9 against 2, 2: a hit, 1, 1: no Injury)."""
    keep = TableSettings(defense_prompts="nobody", reactions=False, wounded_unusable_at=0)
    _, events = run(field({"right_arm": 6}, keep), STRIKE, [9, 1, 3, 3])
    assert [v for v, _ in mods(only(events, "attack").rolls[0])] == [-6]
    none = TableSettings(defense_prompts="nobody", reactions=False, wounded_unusable_at=0, wounded_penalty_per_tier=0)
    _, events = run(field({"right_arm": 6}, none), STRIKE, [9, 1, 2, 2, 1, 1])
    assert mods(only(events, "attack").rolls[0]) == []
