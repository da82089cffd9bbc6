"""Hand-worked tests of physical and magical damage (seed-004 Damage and Strike Types).

seed-004: "Attacks made with a Might or Finesse Skill are physical attacks. The Material Elements are always
physical. Magical abilities that deal damage without requiring a Might or Finesse attack deal magical damage."
Which Elements are Material is a table setting (`material_elements`, earth by default); the Might and Finesse
Skills are `physical_skills`. Damage dice need 3, raised by the Reduction against each of the damage's types.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state, weapon

from vtt.rules.abilities import Ability, AbilityEffect
from vtt.rules.manifest import is_physical
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

NO_SERIOUS = 12
QUIET: dict[str, Any] = {"defense_prompts": "nobody", "reactions": False}


def lone(settings: TableSettings | None = None, **kw: Any) -> GameState:
    return state(creature("t", (5, 5), severe_threshold=NO_SERIOUS, **kw), settings=settings)


def harm(amount: int, element: str | None, physical: bool = False) -> dict[str, Any]:
    return {"type": "harm", "target": "t", "amount": amount, "element": element, "physical": physical}


def test_the_material_elements_are_always_physical() -> None:
    """seed-004: "The Material Elements are always physical." The Soulweaver deals 2 magical earth damage to t
    (Physical Reduction 9): earth is Material, so the damage is physical and needs 3 + 9 = 12: faces 11, 11 make
    no Injury."""
    s, events = run(lone(reductions={"physical": 9}), harm(2, "earth"), [11, 11])
    assert only(events, "damage").data["types"] == ["physical", "earth"]
    assert s.creatures["t"].grit.pips == 0


def test_an_element_that_is_not_material_stays_magical() -> None:
    """seed-004: "Magical abilities that deal damage without requiring a Might or Finesse attack deal magical
    damage." With no Material Elements (table setting), the same 2 magical earth damage ignores Physical
    Reduction 9: faces 11, 11 are 2 Injury."""
    settings = TableSettings(**QUIET, material_elements=[])
    s, events = run(lone(settings, reductions={"physical": 9}), harm(2, "earth"), [11, 11])
    assert only(events, "damage").data["types"] == ["magical", "earth"]
    assert s.creatures["t"].grit.pips == 2


def test_continuing_acid_from_a_physical_hit_is_physical() -> None:
    """seed-004 Flowing Earth: "After Acid Injury, deal Continuing Acid damage equal to half Injury for 1 round";
    the hit was a physical attack (Martial, a Might Skill), so its Continuing Acid is physical too. a strikes t
    with a Flowing earth sword of 2: Martial 8, 2 against Elude 4, 1: hit; damage 3, 3: 2 Acid Injury; Continuing
    Acid 1 on the part rolled (6: the left leg), physical."""
    acid = weapon("acid_blade", damage=2, strike_types=("F",), element="earth")
    a = creature("a", (5, 5), weapons=[acid], grip={"right_arm": "acid_blade"}, severe_threshold=NO_SERIOUS)
    t = creature("t", (6, 5), severe_threshold=NO_SERIOUS)
    s, events = run(
        on_turn(state(a, t), "a"),
        {"type": "strike", "creature": "a", "target": "t", "weapon": "acid_blade"},
        [8, 2, 4, 1, 3, 3, 6],
    )
    assert of_kind(events, "acid")
    (cont,) = s.creatures["t"].continuing
    assert (cont.element, cont.amount, cont.part, cont.physical) == ("acid", 1, "left_leg", True)


def test_continuing_acid_from_a_magical_hit_is_magical() -> None:
    """The Soulweaver deals 2 magical acid damage (acid is no Material Element): faces 3, 3 -> 2 Injury; its
    Continuing Acid 1 (part roll 1: the torso) is magical."""
    s, _ = run(lone(), harm(2, "acid"), [3, 3, 1])
    (cont,) = s.creatures["t"].continuing
    assert (cont.amount, cont.part, cont.physical) == (1, "torso", False)


def _ability(kind: str, element: str | None) -> Ability:
    effect = AbilityEffect(kind="damage", amount=2, range=1, defense="Elude")
    return Ability(id="x", name="X", kind=kind, element=element, words=0 if kind == "talent" else 1, effect=effect)


def test_a_talents_attack_rolls_endure_a_might_skill_so_it_is_physical() -> None:
    """seed-004: "Attacks made with a Might or Finesse Skill are physical attacks"; a Talent's Manifest roll is
    Endure (reference §4.1), a Might Skill, and it is the attack (seed-000). A Spell's roll is Magic (Wit): its
    damage is magical, unless its Element is Material (earth)."""
    s = lone()
    assert is_physical(s, _ability("talent", None)) is True
    assert is_physical(s, _ability("spell", "fire")) is False
    assert is_physical(s, _ability("spell", "earth")) is True


def test_frost_touch_a_water_spell_deals_magical_damage() -> None:
    """seed-004: a Spell's attack is its Manifest roll with Magic, no Might or Finesse Skill, and water is not
    Material (table default): Frost Touch is magical. m (Magic 3) Manifests it on t beside it: Magic 8, 2, 1
    (DL 6) against t's Endure 4, 1: hit; 2 Flowing cold damage dice 3, 4: 2 Injury of types magical, cold, water;
    then t's Zeal against Cold (DL 4): 9, resists."""
    m = creature("m", (5, 5), skills={"Magic": 3}, abilities=["frost_touch"])
    t = creature("t", (6, 5), skills={"Endure": 2, "Zeal": 1}, severe_threshold=NO_SERIOUS)
    s, events = run(
        on_turn(state(m, t), "m"),
        {"type": "manifest", "creature": "m", "ability": "frost_touch", "target": "t"},
        [8, 2, 1, 4, 1, 3, 4, 9],
    )
    assert only(events, "damage").data["types"] == ["magical", "cold", "water"]
    assert s.creatures["t"].grit.pips == 2
