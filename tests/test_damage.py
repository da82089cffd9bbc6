"""Hand-worked tests of damage and healing rolls (seed-004 "Damage and Healing Rolls", "Damage Reduction",
"Immunity", "Vulnerable", "Size"; reference §1.6).

Every roll is scripted and every face must be used. Damage counts the faces that reach the needed value (3 plus
the Reductions that apply); healing counts the faces of 6 or more. The Soulweaver's `harm` command deals damage of
a chosen type with no attacker, so no size change applies to it; Strikes are used where the attacker's size
matters (faces in order: the attacker's Martial roll, the defender's Elude roll, then the damage dice).

Every target's Severe Threshold is given explicitly: 12 where a test is not about Serious Injury, so no Injury
here exceeds it.

Layout (hex, axial (q, r)): (5, 5) and (6, 5) are neighbours; a size 2 attacker at (5, 5) fills (5, 5) and
(6, 5) and is next to (7, 5).
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state, weapon

from vtt.rules.damage import Hit, deal
from vtt.rules.dice import DiceChange, ScriptedDice, roll
from vtt.rules.model import ContinuingDamage, GameState
from vtt.rules.strike import strike_hit
from vtt.rules.txn import Tx

NO_SERIOUS = 12
"""A Severe Threshold no Injury in these tests exceeds."""


def harm(amount: int, target: str = "t", **kw: Any) -> dict[str, Any]:
    return {"type": "harm", "target": target, "amount": amount, **kw}


def heal(amount: int, target: str = "t", **kw: Any) -> dict[str, Any]:
    return {"type": "heal", "target": target, "amount": amount, **kw}


def lone(**kw: Any) -> GameState:
    """A single size 0 target `t` at (5, 5)."""
    kw.setdefault("severe_threshold", NO_SERIOUS)
    return state(creature("t", (5, 5), **kw))


def duel(a_size: int = 0, t_anchor: tuple[int, int] = (6, 5), t_size: int = 0, **t_kw: Any) -> GameState:
    """Attacker `a` (Martial 2, size `a_size`, sword of 2 damage) at (5, 5); target `t` (Elude 2)."""
    t_kw.setdefault("severe_threshold", NO_SERIOUS)
    a = creature("a", (5, 5), size=a_size, weapons=[weapon("sword", damage=2)], grip={"right_arm": "sword"})
    t = creature("t", t_anchor, size=t_size, severe_threshold=t_kw.pop("severe_threshold"), **t_kw)
    return on_turn(state(a, t), "a")


def strike(**kw: Any) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "target": "t", "weapon": "sword", **kw}


# --------------------------------------------------------------------------------------------------------
# The damage roll: d12 equal to the amount, faces of 3 or more
# --------------------------------------------------------------------------------------------------------


def test_damage_rolls_d12_equal_to_the_amount_and_counts_faces_reaching_3_as_injury() -> None:
    """seed-004: "To determine damage or healing, roll a number of d12 equal to the amount of the effect. Your
    result is the number of face values rolled that reach or exceed a needed value." "For damage, the value
    needed is 3 and the result is also called Injury."
    Harm 4 -> 4d12, faces 3, 2, 12, 1: 3 and 12 reach 3 -> Injury 2 -> Grit 2/6."""
    s, events = run(lone(), harm(4), [3, 2, 12, 1])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 4
    assert damage.data["needed"] == 3
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_damage_of_zero_rolls_no_dice_and_deals_no_injury() -> None:
    """seed-004: "roll a number of d12 equal to the amount of the effect." Harm 0 -> 0d12 -> Injury 0."""
    s, events = run(lone(), harm(0), [])
    assert only(events, "damage").data["injury"] == 0
    assert s.creatures["t"].grit.pips == 0


# --------------------------------------------------------------------------------------------------------
# Damage Reduction
# --------------------------------------------------------------------------------------------------------


def test_damage_reduction_raises_the_needed_face() -> None:
    """seed-004 Damage Reduction: "The face value needed on damage dice against you is increased by your Damage
    Reduction against the damage type."
    Physical Reduction 2: physical Harm 3 needs 3 + 2 = 5. Faces 4, 5, 12 -> 5 and 12 count -> Injury 2."""
    s, events = run(lone(reductions={"physical": 2}), harm(3), [4, 5, 12])
    damage = only(events, "damage")
    assert damage.data["needed"] == 5
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_every_reduction_that_applies_is_added() -> None:
    """seed-004 Damage Reduction: "If more than one reduction would apply, benefit from each of them."
    Physical fire Harm against Physical Reduction 1, armour's Physical Reduction 1 and Fire Reduction 2: needed
    3 + 1 + 1 + 2 = 7. Faces 6, 7, 12 -> Injury 2."""
    t = lone(reductions={"physical": 1, "fire": 2}, armor_reduction=1)
    _, events = run(t, harm(3, element="fire"), [6, 7, 12])
    damage = only(events, "damage")
    assert damage.data["needed"] == 7
    assert damage.data["injury"] == 2


def test_a_reduction_against_another_type_does_not_apply() -> None:
    """seed-004 Damage Reduction: "... increased by your Damage Reduction against the damage type."
    Fire Reduction 4 against plain physical Harm 2: needed stays 3. Faces 3, 4 -> Injury 2."""
    _, events = run(lone(reductions={"fire": 4}), harm(2), [3, 4])
    damage = only(events, "damage")
    assert damage.data["needed"] == 3
    assert damage.data["injury"] == 2


def test_physical_reduction_does_not_apply_to_magical_damage() -> None:
    """seed-004 Damage Reduction: "... against the damage type"; "Magical abilities that deal damage without
    requiring a Might or Finesse attack deal magical damage."
    Physical Reduction 4 and armour 2 against magical Harm 2: needed 3. Faces 3, 2 -> Injury 1."""
    t = lone(reductions={"physical": 4}, armor_reduction=2)
    _, events = run(t, harm(2, physical=False), [3, 2])
    damage = only(events, "damage")
    assert damage.data["needed"] == 3
    assert damage.data["injury"] == 1


def test_the_needed_value_is_never_above_12() -> None:
    """seed-004: "Effects may modify the face value needed, but can never increase the value needed above 12."
    Physical Reduction 15: 3 + 15 = 18, held at 12. Faces 11, 12 -> only the 12 counts -> Injury 1."""
    s, events = run(lone(reductions={"physical": 15}), harm(2), [11, 12])
    damage = only(events, "damage")
    assert damage.data["needed"] == 12
    assert damage.data["injury"] == 1
    assert s.creatures["t"].grit.pips == 1


def test_physical_damage_to_a_smaller_creature_treats_its_reduction_lower_by_half_the_size_difference() -> None:
    """seed-004 Damage Reduction: "When dealing physical damage to a creature smaller than you, treat their
    Reduction lower equal to half your size difference."
    Size 2 attacker, size 0 target at (7, 5) with Physical Reduction 2: needed 3 + 2 - half of 2 = 4. The roll:
    Martial 9, 2 -> 9 - 1 (half the size difference) = 8 against Elude 5, 1 -> 5: hit. Damage 2 + 2 (size) =
    4d12, faces 4, 3, 12, 1 -> 4 and 12 reach 4 -> Injury 2."""
    s0 = duel(a_size=2, t_anchor=(7, 5), reductions={"physical": 2})
    s, events = run(s0, strike(), [9, 2, 5, 1, 4, 3, 12, 1])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 4
    assert damage.data["needed"] == 4
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_a_same_size_attacker_does_not_lower_the_reduction() -> None:
    """seed-004 Damage Reduction: the lowering is only "to a creature smaller than you".
    Size 0 on size 0 with Physical Reduction 2: needed 5. Martial 9, 2 against Elude 5, 1: hit. Damage 2d12,
    faces 4, 5 -> Injury 1."""
    _, events = run(duel(reductions={"physical": 2}), strike(), [9, 2, 5, 1, 4, 5])
    damage = only(events, "damage")
    assert damage.data["needed"] == 5
    assert damage.data["injury"] == 1


# --------------------------------------------------------------------------------------------------------
# Immunity and Vulnerable
# --------------------------------------------------------------------------------------------------------


def test_immunity_prevents_injury_of_the_type() -> None:
    """seed-004 Immunity: "Injury, Ailments, and effects of a given type are prevented and removed."
    Immune to fire: fire Harm 3 rolls no dice and deals no Injury."""
    s, events = run(lone(immunities=["fire"]), harm(3, element="fire"), [])
    assert of_kind(events, "immune")
    assert not of_kind(events, "pips")
    assert s.creatures["t"].grit.pips == 0


def test_immunity_to_one_type_does_not_stop_another() -> None:
    """seed-004 Immunity: "... of a given type". Immune to fire, plain physical Harm 2, faces 3, 3 -> Injury 2."""
    s, _ = run(lone(immunities=["fire"]), harm(2), [3, 3])
    assert s.creatures["t"].grit.pips == 2


def test_immunity_removes_continuing_damage_of_the_type() -> None:
    """seed-004 Immunity: "Injury, Ailments, and effects of a given type are prevented and removed."
    An acid-immune creature carries Continuing Acid damage 2 on its torso for 2 rounds. When the Soulweaver's
    turn starts it is dealt: the Injury is prevented (no dice) and the acid effect is removed, not left for the
    next round."""
    p = creature("p", (1, 1), controller="alice", severe_threshold=NO_SERIOUS)
    acid = ContinuingDamage(id="cd1", element="acid", amount=2, part="torso", rounds=2)
    t = creature("t", (5, 5), immunities=["acid"], continuing=[acid], severe_threshold=NO_SERIOUS)
    s, events = run(on_turn(state(p, t), "p"), {"type": "end_turn"}, [])
    assert of_kind(events, "immune")
    assert s.creatures["t"].grit.pips == 0
    assert s.creatures["t"].continuing == []


def test_vulnerable_is_minus_6_reduction() -> None:
    """seed-004 Vulnerable: "Have -6 Reduction against a given damage."
    Vulnerable to fire: fire Harm 2 needs 3 - 6 = -3, so every face counts: faces 1, 2 -> Injury 2."""
    s, events = run(lone(vulnerabilities=["fire"]), harm(2, element="fire"), [1, 2])
    damage = only(events, "damage")
    assert damage.data["needed"] <= 1
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_vulnerable_stacks_with_a_reduction_of_the_same_type() -> None:
    """seed-004 Vulnerable: "Have -6 Reduction"; Damage Reduction: "If more than one reduction would apply,
    benefit from each of them." Fire Reduction 6 and Vulnerable to fire: needed 3 + 6 - 6 = 3. Faces 2, 3 ->
    Injury 1."""
    t = lone(reductions={"fire": 6}, vulnerabilities=["fire"])
    _, events = run(t, harm(2, element="fire"), [2, 3])
    damage = only(events, "damage")
    assert damage.data["needed"] == 3
    assert damage.data["injury"] == 1


def test_healing_of_a_type_the_creature_is_vulnerable_to_has_no_effect() -> None:
    """seed-004 Vulnerable: "Healing from effects of the type has no effect on you".
    Vulnerable to radiant with 3 Grit Pips: radiant healing 3 rolls nothing and removes nothing."""
    t = lone(vulnerabilities=["radiant"], grit={"max": 6, "pips": 3})
    s, _ = run(t, heal(3, kind="radiant"), [])
    assert s.creatures["t"].grit.pips == 3


# --------------------------------------------------------------------------------------------------------
# Healing: faces of 6 or more
# --------------------------------------------------------------------------------------------------------


def test_healing_counts_faces_of_6_or_more() -> None:
    """seed-004: "For healing, the value needed is 6."
    4 Grit Pips, healing 3: faces 6, 5, 12 -> 6 and 12 count -> 2 Pips removed -> Grit 2/6."""
    s, events = run(lone(grit={"max": 6, "pips": 4}), heal(3), [6, 5, 12])
    assert only(events, "heal").data["healed"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_healing_other_kinds_works_on_a_vulnerable_creature() -> None:
    """seed-004 Vulnerable: only "Healing from effects of the type" has no effect.
    Vulnerable to fire, 2 Energy Pips, untyped healing 2 of Energy: faces 7, 9 -> 2 -> Energy 0/6."""
    t = lone(vulnerabilities=["fire"], energy={"max": 6, "pips": 2})
    s, _ = run(t, heal(2, pool="energy"), [7, 9])
    assert s.creatures["t"].energy.pips == 0


# --------------------------------------------------------------------------------------------------------
# Size
# --------------------------------------------------------------------------------------------------------


def test_physical_damage_rises_by_the_size_difference_against_a_smaller_subject() -> None:
    """seed-004 Size: "Against smaller subjects, instead increase your damage." "Attacks made with a Might or
    Finesse Skill are physical attacks." (a Strike rolls Martial, reference §4.1).
    Size 1 attacker (one space) on a size 0 target: no roll modifier (half of 1 is 0). Martial 8, 2 -> 8 against
    Elude 4, 1 -> 4: hit. Damage 2 + 1 = 3d12, faces 3, 1, 6 -> Injury 2."""
    s, events = run(duel(a_size=1), strike(), [8, 2, 4, 1, 3, 1, 6])
    damage = only(events, "damage")
    assert damage.data["types"] == ["physical"]
    assert damage.rolls[0].dice == 3
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_physical_damage_falls_by_the_size_difference_against_a_larger_subject() -> None:
    """seed-004 Size: "Against subject larger than you, reduce your damage equal to the size difference."
    Size 0 attacker on a size 1 target: roll bonus half of 1 = 0. Martial 8, 2 -> 8 against Elude 4, 1 -> 4:
    hit. Damage 2 - 1 = 1d12, face 9 -> Injury 1."""
    s, events = run(duel(t_size=1), strike(), [8, 2, 4, 1, 9])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 1
    assert s.creatures["t"].grit.pips == 1


def test_damage_from_a_spell_effect_ignores_size() -> None:
    """seed-004 Size: "Dealing physical damage is affected by the size of the subject unless the damage is from
    a Spell effect."
    A size 2 caster's physical Spell damage 2 on a size 0 subject stays 2d12: faces 3, 3 -> Injury 2."""
    a = creature("a", (5, 5), size=2, severe_threshold=NO_SERIOUS)
    t = creature("t", (7, 5), severe_threshold=NO_SERIOUS)
    tx = Tx(state(a, t))
    dice = ScriptedDice([3, 3])
    events = deal(tx, Hit(target="t", amount=2, attacker="a", physical=True, from_spell=True), dice)
    assert dice.remaining == 0
    assert only(events, "damage").rolls[0].dice == 2
    assert tx.state.creatures["t"].grit.pips == 2


# --------------------------------------------------------------------------------------------------------
# Severe Threshold below 0 raises damage
# --------------------------------------------------------------------------------------------------------


def test_damage_rises_by_how_far_the_severe_threshold_is_below_0() -> None:
    """seed-004: "When dealing damage, increase the damage by the amount the subject's Severe Threshold is below
    0."
    Severe Threshold -2: Harm 2 on the torso rolls 2 + 2 = 4d12, faces 3, 3, 1, 1 -> Injury 2. (The Serious
    Injury that follows, with the Threshold counted as 0, is tested in test_serious_injury.)"""
    s, events = run(lone(severe_threshold=-2), harm(2, part="torso"), [3, 3, 1, 1])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 4
    assert [c.dice for c in damage.rolls[0].dice_changes] == [2]
    assert damage.data["injury"] == 2
    assert s.creatures["t"].grit.pips == 2


def test_a_severe_threshold_of_0_adds_no_damage() -> None:
    """seed-004: only a Threshold "below 0" raises damage. Threshold 0: Harm 2 on the torso rolls 2d12, faces 3,
    1 -> Injury 1."""
    _, events = run(lone(severe_threshold=0), harm(2, part="torso"), [3, 1])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 2
    assert damage.data["injury"] == 1


# --------------------------------------------------------------------------------------------------------
# Rolling fewer dice
# --------------------------------------------------------------------------------------------------------


def test_the_roller_may_roll_fewer_damage_dice() -> None:
    """seed-004: "Before rolling, you may reduce your dice rolled by any amount."
    Sword 2 on a same-size target, rolling at most 1: Martial 8, 2 against Elude 4, 1: hit. Damage 1d12, face
    3 -> Injury 1."""
    s, events = run(duel(), strike(max_dice=1), [8, 2, 4, 1, 3])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 1
    assert s.creatures["t"].grit.pips == 1


def test_rolling_fewer_dice_counts_from_the_damage_after_size() -> None:
    """seed-004: "Before rolling, you may reduce your dice rolled by any amount."
    A size 1 attacker's sword deals 2 + 1 = 3 dice; rolling at most 2: Martial 8, 2 against Elude 4, 1: hit.
    Damage 2d12, faces 3, 12 -> Injury 2."""
    s, events = run(duel(a_size=1), strike(max_dice=2), [8, 2, 4, 1, 3, 12])
    assert only(events, "damage").rolls[0].dice == 2
    assert s.creatures["t"].grit.pips == 2


def test_the_roller_may_roll_no_damage_dice_at_all() -> None:
    """seed-004: "... reduce your dice rolled by any amount." At most 0: the Strike hits (Martial 8, 2 against
    Elude 4, 1) and rolls no damage dice: Injury 0."""
    s, events = run(duel(), strike(max_dice=0), [8, 2, 4, 1])
    assert only(events, "damage").rolls[0].dice == 0
    assert s.creatures["t"].grit.pips == 0


def test_a_limit_above_the_damage_changes_nothing() -> None:
    """seed-004: you may "reduce" your dice, never add. At most 5 with a sword of 2: Martial 8, 2 against Elude
    4, 1: hit; damage stays 2d12, faces 3, 3 -> Injury 2."""
    s, events = run(duel(), strike(max_dice=5), [8, 2, 4, 1, 3, 3])
    assert only(events, "damage").rolls[0].dice == 2
    assert s.creatures["t"].grit.pips == 2


def test_the_size_change_on_physical_damage_is_the_one_the_rule_words() -> None:
    """seed-004 Size: physical damage rises by the size difference against smaller subjects and falls against larger
    ones; the change `deal` rolls with (shared between hits of the same sizes) is the one built from the rule's
    words, for every pair of sizes and again on a second hit."""
    for attacker_size in range(-2, 6):
        for target_size in range(-2, 6):
            s = state(
                creature("a", (2, 2), size=attacker_size),
                creature("t", (12, 12), size=target_size, severe_threshold=NO_SERIOUS),
            )
            diff = attacker_size - target_size
            rel = "smaller" if diff > 0 else "larger"
            plain = [DiceChange(dice=diff, reason=f"physical damage against a {rel} subject (size {target_size})")]
            for _ in range(2):
                hit = Hit(target="t", amount=8, attacker="a")
                damage = deal(Tx(s), hit, ScriptedDice([1] * (8 + max(0, diff))))[0].rolls[0]
                assert list(damage.dice_changes) == (plain if diff else []), (attacker_size, target_size)


def test_a_strike_hit_is_the_same_from_its_models_and_from_their_json() -> None:
    """A Strike's params hold models when the defense is rolled at once and their JSON when a pending defense stored
    them: both give the same Hit (with a Devastating weapon's twelves added)."""
    axe = weapon("axe", 3, devastating=True, element="fire", strike_types=("C",))
    changes = [DiceChange(dice=1, reason="gripped with more limbs than it needs")]
    params: dict[str, Any] = {"damage": 3, "changes": changes, "weapon": axe, "strike_type": "C", "max_dice": 2}
    stored = {**params, "changes": [c.model_dump(mode="json") for c in changes], "weapon": axe.model_dump(mode="json")}
    for faces in ([12, 12, 4], [5, 7, 1], [12, 3, 3]):
        attack = roll(ScriptedDice(faces), "attack", 3)
        from_models = strike_hit("a", "t", params, attack, "A's Strike")
        assert from_models == strike_hit("a", "t", stored, attack, "A's Strike")
        assert from_models.changes[: len(changes)] == tuple(changes)
        assert len(from_models.changes) == len(changes) + (faces.count(12) > 0)


def test_a_strike_hit_holds_every_field_a_hit_of_its_params_names_and_the_defaults_for_the_rest() -> None:
    """seed-000 Strike: the Hit a Strike deals is physical, targeted, with the size change, of the weapon's element
    and the chosen Strike type, the attack's faces, the Called Shot's part and the dice the roller chose; every other
    field of `Hit` (its pool, Continuing Damage, a Lightning jump, a Material Element) keeps its default."""
    axe = weapon("axe", 3, element="fire", strike_types=("C",))
    attack = roll(ScriptedDice([9, 2]), "attack", 2)
    cases: list[tuple[dict[str, Any], str | None, bool]] = [
        ({"damage": 3, "changes": [], "weapon": axe, "strike_type": "C", "max_dice": 2}, None, False),
        ({"damage": 1, "changes": [], "weapon": None, "strike_type": None, "max_dice": None}, None, False),
        (
            {"damage": 2, "changes": [], "weapon": axe, "strike_type": None, "max_dice": None, "part": "head"},
            "head",
            False,
        ),
        (
            {"damage": 2, "changes": [], "weapon": None, "strike_type": None, "part": "head", "called_shot": True},
            "head",
            True,
        ),
    ]
    for params, part, called in cases:
        weapon_of_params = params["weapon"]
        expected = Hit(
            target="t",
            amount=params["damage"],
            attacker="a",
            label="A's Strike",
            element=weapon_of_params.element if weapon_of_params else None,
            strike_type=params["strike_type"],
            attack_faces=(9, 2),
            part=part,
            called_shot=called,
            max_dice=params.get("max_dice"),
        )
        hit = strike_hit("a", "t", params, attack, "A's Strike")
        assert type(hit) is Hit and hit == expected
        assert hit._asdict() == expected._asdict()
