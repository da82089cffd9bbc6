"""Hand-worked tests of Wounded on the rolls other than melee attacks (reference §5.2 Wounded: effect GAP,
ASSUMPTION "penalty equal to Tier on rolls that use that part; a part at Wounded >= 6 cannot be used"; table
settings `wounded_penalty_per_tier` 1 and `wounded_unusable_at` 6).

- A defense that uses limbs (`limb_defenses`: Athletics, Elude, Nimble) takes the most Wounded limb's Tier.
- A ranged Strike is rolled with the limbs gripping the weapon.
- A Spell is Manifested with a Free Limb, and an ability is Readied in one (seed-000 Manifest, Ready).
- Balance on Uneven Ground (reference §2.5) is rolled with the legs: the most Wounded leg's Tier.

A skill roll is its highest face plus modifiers; scripted faces are used in order.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.model import Creature, GameState
from vtt.rules.settings import TableSettings

QUIET = TableSettings(defense_prompts="nobody", reactions=False)
SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Nimble": 2, "Endure": 2, "Magic": 3, "Zeal": 1}
NO_SERIOUS = 12


def wound(c: Creature, **tiers: int) -> Creature:
    """Wounded Tiers on the named parts, and their total in the creature's Ailments."""
    for pid, t in tiers.items():
        part = c.part(pid)
        assert part is not None
        part.wounded = t
    c.ailments["Wounded"] = sum(tiers.values())
    return c


def duel(defender_wounds: dict[str, int], settings: TableSettings = QUIET) -> GameState:
    """a (Martial 2, a sword in its right arm) next to d, both unhurt but for d's Wounded parts; a's turn."""
    a = creature("a", (6, 5), skills=dict(SKILLS), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    d = wound(creature("d", (5, 5), skills=dict(SKILLS), severe_threshold=NO_SERIOUS), **defender_wounds)
    return on_turn(state(a, d, settings=settings), "a")


STRIKE: dict[str, Any] = {"type": "strike", "creature": "a", "target": "d", "weapon": "sword"}


def reasons(roll: Any) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in roll.modifiers]


def test_wounded_limbs_lower_a_defense_that_uses_limbs_by_the_most_wounded_limbs_tier() -> None:
    """d's left leg is Wounded 2 and its right arm 1; its Elude defense uses its limbs: -2 (the most Wounded
    one), not -3. a's Strike: Martial 8, 1 -> 8 (DL 3); d's Elude 9, 3 -> 9 - 2 = 7: the Strike hits (without the
    wound 9 would beat 8); damage 1, 1: no Injury."""
    _, events = run(duel({"left_leg": 2, "right_arm": 1}), STRIKE, [8, 1, 9, 3, 1, 1])
    attack = only(events, "attack")
    assert reasons(attack.rolls[1]) == [(-2, "left leg Wounded (Tier 2): the most Wounded limb, on an Elude defense")]
    assert attack.rolls[1].result == 7
    assert attack.data["success"] is True


def test_a_defense_that_uses_no_limbs_ignores_wounded_limbs() -> None:
    """Table setting: a Strike attacks Endure, not a limb defense. d (left leg Wounded 4) rolls Endure 9, 3 -> 9
    against a's 8, 1 -> 8: the defense holds, no damage is rolled."""
    settings = TableSettings(defense_prompts="nobody", reactions=False, strike_defense="Endure")
    _, events = run(duel({"left_leg": 4}, settings), STRIKE, [8, 1, 9, 3])
    attack = only(events, "attack")
    assert reasons(attack.rolls[1]) == []
    assert attack.data["success"] is False


def test_a_wounded_limb_past_the_limit_still_defends_with_its_penalty() -> None:
    """A limb at Wounded 6 cannot be used, but the defense is not refused: the creature defends with the others,
    held back by the worst: Elude 12, 2 -> 12 - 6 = 6 against a's 8, 1 -> 8: hit (damage 1, 1: no Injury)."""
    _, events = run(duel({"right_leg": 6}), STRIKE, [8, 1, 12, 2, 1, 1])
    attack = only(events, "attack")
    assert attack.rolls[1].result == 6
    assert attack.data["success"] is True


BOW = weapon("longbow", damage=2, name="Longbow", ranged="launched", range=4, two_handed=True)


def archery(**wounds: int) -> GameState:
    """a grips the longbow in both arms, t 4 spaces east; a's turn."""
    a = wound(
        creature(
            "a",
            (2, 5),
            skills=dict(SKILLS),
            weapons=[BOW],
            grip={"left_arm": "longbow", "right_arm": "longbow"},
        ),
        **wounds,
    )
    t = creature("t", (6, 5), skills=dict(SKILLS), severe_threshold=NO_SERIOUS)
    return on_turn(state(a, t, cols=20, rows=10, settings=QUIET), "a")


SHOOT: dict[str, Any] = {"type": "strike", "creature": "a", "target": "t", "weapon": "longbow", "ranged": True}


def test_a_ranged_strike_takes_the_wounded_of_each_gripping_limb() -> None:
    """a's left arm is Wounded 2, and both arms grip the longbow: Nimble 7, 3 -> 7 - 2 = 5 against t's Elude 6, 2
    -> 6: a miss (unhurt, 7 would have hit)."""
    _, events = run(archery(left_arm=2), SHOOT, [7, 3, 6, 2])
    attack = only(events, "attack")
    assert reasons(attack.rolls[0]) == [(-2, "left arm Wounded (Tier 2): using the part")]
    assert attack.data["success"] is False


def test_a_ranged_weapon_gripped_by_a_limb_wounded_6_cannot_be_shot() -> None:
    """The right arm at Wounded 6 cannot be used, and it grips the longbow: the shot is refused."""
    refused(archery(right_arm=6), SHOOT, [7, 3, 6, 2, 1, 1])


def caster(**wounds: int) -> GameState:
    """m (Magic 3) knows Firebolt (Spell) and Stone Skin (Talent); t 2 spaces east; m's turn."""
    m = wound(creature("m", (5, 5), skills=dict(SKILLS), abilities=["firebolt", "stone_skin"]), **wounds)
    t = creature("t", (7, 5), skills=dict(SKILLS), severe_threshold=NO_SERIOUS)
    return on_turn(state(m, t, settings=QUIET), "m")


def cast(ability: str, **kw: Any) -> dict[str, Any]:
    return {"type": "manifest", "creature": "m", "ability": ability, **kw}


def test_a_spell_manifested_with_a_wounded_free_limb_takes_its_tier() -> None:
    """seed-000: "Manifesting a Spell also uses a Free Limb". Firebolt with the right arm, Wounded 3: Magic 8, 2, 1 ->
    8 - 3 = 5, short of DL 6: it fails (unhurt, 8 would succeed), its 1 Energy paid all the same."""
    s, events = run(caster(right_arm=3), cast("firebolt", target="t", limb="right_arm"), [8, 2, 1])
    ev = only(events, "manifest")
    assert reasons(ev.rolls[0]) == [(-3, "right arm Wounded (Tier 3): using the part")]
    assert ev.data["success"] is False
    assert not of_kind(events, "attack")
    assert s.creatures["m"].energy.pips == 1


def test_the_least_wounded_free_limb_is_used_unless_one_is_named() -> None:
    """The right arm is Wounded 3, the left arm 1: unnamed, the Spell uses the left arm: Magic 8, 2, 1 -> 8 - 1 =
    7 reaches DL 6. Firebolt attacks t's Elude with that roll: Elude 9, 2 -> 9 beats 7: no damage."""
    _, events = run(caster(right_arm=3, left_arm=1), cast("firebolt", target="t"), [8, 2, 1, 9, 2])
    ev = only(events, "manifest")
    assert reasons(ev.rolls[0]) == [(-1, "left arm Wounded (Tier 1): using the part")]
    assert ev.data["success"] is True


def test_a_free_limb_wounded_6_cannot_manifest_a_spell() -> None:
    """The right arm at Wounded 6 cannot be used: Manifesting Firebolt with it is refused."""
    refused(caster(right_arm=6), cast("firebolt", target="t", limb="right_arm"), [8, 2, 1, 9, 2])


def test_with_every_free_limb_wounded_6_no_spell_is_offered_or_manifested() -> None:
    """Both arms (m's only limbs that grip) at Wounded 6: no Free Limb can be used, so the menu offers neither
    Manifesting nor Readying Firebolt, and the command is refused in plain words; the Talent stays open."""
    s0 = caster(right_arm=6, left_arm=6)
    labels = [o.label for o in legal_actions(s0, "m")]
    assert "Manifest Firebolt" not in labels and "Ready Firebolt" not in labels
    assert "Manifest Stone Skin" in labels
    with pytest.raises(RuleError, match="M's every Free Limb is too Wounded to be used"):
        apply(s0, cast("firebolt", target="t"), ScriptedDice([8, 2, 1, 9, 2]))


def test_a_talent_uses_no_limb_and_ignores_wounded_arms() -> None:
    """A Talent is Manifested without a Free Limb: Stone Skin with both arms Wounded 3: Endure 6, 2 -> 6, DL 6:
    Manifested, no penalty."""
    _, events = run(caster(right_arm=3, left_arm=3), cast("stone_skin"), [6, 2])
    ev = only(events, "manifest")
    assert reasons(ev.rolls[0]) == []
    assert ev.data["success"] is True


def test_an_ability_readied_in_a_wounded_limb_takes_its_tier() -> None:
    """seed-000 Ready: "keep it in your Free Limb". Stone Skin readied in the left arm, Wounded 2: Endure 7, 2 ->
    7 - 2 = 5, short of DL 6: not kept Ready."""
    cmd = {"type": "ready", "creature": "m", "ability": "stone_skin", "limb": "left_arm"}
    s, events = run(caster(left_arm=2), cmd, [7, 2])
    ev = only(events, "manifest")
    assert reasons(ev.rolls[0]) == [(-2, "left arm Wounded (Tier 2): using the part")]
    assert ev.data["success"] is False
    assert all(lb.readied is None for lb in s.creatures["m"].limbs)


def uneven(**wounds: int) -> GameState:
    """m (Athletics 2) at (5, 5); (6, 5) east of it is Tier 2 Uneven Ground; m's turn."""
    m = wound(creature("m", (5, 5), skills=dict(SKILLS)), **wounds)
    return on_turn(state(m, uneven={(6, 5): 2}, settings=QUIET), "m")


STEP: dict[str, Any] = {"type": "move", "creature": "m", "to": (6, 5), "path": [(6, 5)]}


def test_balance_on_uneven_ground_takes_the_most_wounded_legs_tier() -> None:
    """reference §2.5 Balance, DL 3 + Tier 2 = 5. m's left leg is Wounded 2, its right leg 1 and its right arm 4
    (an arm does not balance): Athletics 6, 2 -> 6 - 2 = 4, short of 5: m falls Prone in (6, 5)."""
    s, events = run(uneven(left_leg=2, right_leg=1, right_arm=4), STEP, [6, 2])
    bal = only(events, "balance")
    assert reasons(bal.rolls[0]) == [(-2, "left leg Wounded (Tier 2): the most Wounded limb, on Balance")]
    assert bal.data["success"] is False
    assert s.creatures["m"].prone


def test_balance_with_unwounded_legs_has_no_wounded_penalty() -> None:
    """Only the right arm is Wounded (4): Athletics 6, 2 -> 6 reaches DL 5: m keeps its feet."""
    s, events = run(uneven(right_arm=4), STEP, [6, 2])
    bal = only(events, "balance")
    assert reasons(bal.rolls[0]) == []
    assert bal.data["success"] is True
    assert not s.creatures["m"].prone
