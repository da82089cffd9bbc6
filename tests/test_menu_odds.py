"""What the token menu shows of a roll (issue 12 item 3): the chance it succeeds against the chosen target, exact by
the d12 rule, and a Strike's damage dice with its likely Injury; and a plain sentence for every kind of action the
rules offer."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import get_args

from factories import creature, on_turn, state, weapon

from vtt.rules import ranged
from vtt.rules.dice import RandomDice
from vtt.rules.engine import ActionOption, apply, legal_actions
from vtt.rules.menu_explain import EXPLANATIONS, explain
from vtt.rules.menu_odds import injury_text, percent, strike_damage, success_chance
from vtt.rules.model import GameState
from vtt.rules.overpower import WeaponAction
from vtt.rules.scenario import load_scenario
from vtt.web.map_pick import space_fields
from vtt.web.menu_facts import option_facts

RULES = Path(__file__).resolve().parents[1] / "vtt" / "rules"
BUILDERS = [RULES / "engine.py", RULES / "offers.py", *sorted(RULES.glob("*_offers.py"))]
"""The menu's builders: `engine.legal_actions` and the option builders of each action family."""


def _option(s: GameState, actor: str, action: str) -> ActionOption:
    return next(o for o in legal_actions(s, actor) if o.action == action)


def _enumerated_strike_chance(attack_dice: int, modifier: int, defense_dice: int) -> Fraction:
    """reference §1.1-§1.5 by brute force: every face of every die. The attack's result is its highest face plus
    the modifier; it succeeds when it did not Fumble (more than half its dice showing 1), reaches DL 3 and beats the
    defense's highest face, or the defense Fumbled (ties go to the defender)."""
    wins = 0
    total = 0
    for faces in itertools.product(range(1, 13), repeat=attack_dice + defense_dice):
        attack, defense = faces[:attack_dice], faces[attack_dice:]
        total += 1
        if 2 * attack.count(1) > attack_dice:
            continue
        result = max(attack) + modifier
        defense_fumbled = 2 * defense.count(1) > defense_dice
        if result >= 3 and (defense_fumbled or result > max(defense)):
            wins += 1
    return Fraction(wins, total)


def test_strike_odds_shown_are_the_exact_d12_rule_against_the_defender() -> None:
    """seed-000 Strike: "Attack a target with a melee weapon ..., DL 3"; "Against targets smaller than you, suffer
    a penalty on your roll equal to half the size difference": Martial 2d12 − 1 against a size −2 target's Elude
    1d12. The menu's percentage is the share of all 12³ face combinations that succeed."""
    a = creature("a", (5, 5), weapons=[weapon("sword", 3)], grip={"right_arm": "sword"})
    t = creature("t", (6, 5), size=-2, skills={"Elude": 1})
    s = on_turn(state(a, t), "a")
    option = next(o for o in legal_actions(s, "a") if o.action == "strike" and o.params.get("weapon") == "sword")
    preview = option.targets[0].preview
    assert preview is not None
    assert (preview.dice, sum(m.value for m in preview.modifiers), preview.defense_skill) == (2, -1, "Elude")
    exact = _enumerated_strike_chance(2, -1, 1)
    assert success_chance(s, "a", "t", preview) == exact
    facts = option_facts(s, "a", option, {"t": "Tom"}, no_target=False)
    assert facts.targets["t"].chance == exact
    assert f"Tom: {percent(exact)}" in facts.tip
    assert facts.detail == f"Major · {percent(exact)} to succeed"
    assert "d12" not in facts.detail + facts.tip


def test_a_defender_that_cannot_act_does_not_defend() -> None:
    """seed-004: a creature that cannot act makes no defense roll (`attacks.resolve`): the chance is the check
    alone, Martial 2d12 reaching DL 3 without a Fumble: 1 − P(highest below 3) − P(both dice 1) counted once."""
    a = creature("a", (5, 5), weapons=[weapon("sword", 3)], grip={"right_arm": "sword"})
    t = creature("t", (6, 5), skills={"Elude": 5}, unconscious=True)
    s = on_turn(state(a, t), "a")
    option = next(o for o in legal_actions(s, "a") if o.action == "strike" and o.params.get("weapon") == "sword")
    preview = option.targets[0].preview
    assert preview is not None
    # faces below 3 on both dice: 2 × 2 = 4 of 144 (the Fumble 1-1 among them)
    assert success_chance(s, "a", "t", preview) == Fraction(140, 144)


def test_strike_damage_preview_worked_out_by_hand() -> None:
    """seed-004: "Roll a number of d12s equal to the damage amount. Each die that reaches the needed value counts
    as 1 ... the needed value is 3"; "Damage Reduction raises the needed face value"; size: "Against a smaller one,
    add [the size difference]"; Reduction against a smaller target is lowered by half the size difference (half
    of 1 is 0). A size 1 attacker's Sword (3 dice) on a size 0 target with Physical Reduction 2: 4 dice needing 5.
    Each die counts with chance 8/12 = 2/3; the counts 0..4 have chances 1, 8, 24, 32, 16 in 81. "Likely" leaves at
    most a tenth below and above: 0 alone is 1/81 (1 and below is 9/81, still under a tenth; 2 and below is more),
    so the range starts at 1; 4 alone is 16/81, over a tenth, so it ends at 4."""
    a = creature("a", (5, 5), size=1, weapons=[weapon("sword", 3)], grip={"right_arm": "sword"})
    t = creature("t", (7, 5), reductions={"physical": 2})
    s = on_turn(state(a, t), "a")
    option = next(o for o in legal_actions(s, "a") if o.action == "strike" and o.params.get("weapon") == "sword")
    preview = next(x.preview for x in option.targets if x.target == "t")
    assert preview is not None and preview.damage == 3
    d = strike_damage(s, "a", "t", preview, "sword")
    assert d is not None
    assert (d.dice, d.needed) == (4, 5)
    assert d.chances == [Fraction(n, 81) for n in (1, 8, 24, 32, 16)]
    assert (d.likely_low, d.likely_high) == (1, 4)
    assert injury_text(d) == "4 dice, likely 1 to 4 Injury"
    facts = option_facts(s, "a", option, {"t": "Tom"}, no_target=False)
    assert "damage 4 dice, likely 1 to 4 Injury" in facts.tip


def test_no_damage_shown_to_an_immune_target_or_for_an_overpower() -> None:
    """seed-004: "Immunity prevents and removes Injury"; Impair deals no damage (seed-000)."""
    a = creature("a", (5, 5), weapons=[weapon("sword", 3)], grip={"right_arm": "sword"})
    t = creature("t", (6, 5), immunities=["physical"])
    s = on_turn(state(a, t), "a")
    strike = next(o for o in legal_actions(s, "a") if o.action == "strike" and o.params.get("weapon") == "sword")
    assert strike.targets[0].preview is not None
    assert strike_damage(s, "a", "t", strike.targets[0].preview, "sword") is None
    impair = _option(s, "a", "impair")
    assert impair.targets[0].preview is not None and impair.targets[0].preview.damage == 0
    assert strike_damage(s, "a", "t", impair.targets[0].preview, "sword") is None


def _offered_actions() -> set[str]:
    """Every `action` a `legal_actions` option may carry: the literal ones in its builders, and the ones they make
    from data (a ranged weapon's verb, the weapon Overpowers, a Flurry's Minor Action)."""
    source = "\n".join(path.read_text() for path in BUILDERS)
    found = set(re.findall(r'action="([a-z_]+)"', source))
    found |= {verb.lower() for verb in ranged.VERBS.values()}
    found |= set(get_args(WeaponAction))
    found |= set(re.findall(r'"action": "([a-z_]+)"', source))
    return found


def test_every_action_kind_the_rules_offer_is_explained() -> None:
    offered = _offered_actions()
    assert {"strike", "reposition", "throw", "shoot", "flurry_attack", "charge", "drop_prone"} <= offered
    missing = sorted(a for a in offered if not explain(a))
    assert missing == []
    assert all(text.endswith(".") and "(s)" not in text for text in EXPLANATIONS.values())


def test_the_demo_creatures_options_are_all_explained() -> None:
    """Every option the demo map's creatures have on their turn has its sentence."""
    demo = Path(__file__).resolve().parents[1] / "maps" / "demo.json"
    s = load_scenario(json.loads(demo.read_text())).state
    s, _ = apply(s, {"type": "begin"}, RandomDice(1))
    for cid in s.creatures:
        for o in legal_actions(on_turn(s, cid), cid):
            assert explain(o.action), o.action


def test_a_reposition_destination_is_a_space_to_click_and_an_ailment_is_not() -> None:
    """seed-000 Reposition: "move the target to any space in your Reach" (picked on the map); Impair: "your
    choice of Blinded, Dazzled..." (asked in words)."""
    a = creature("a", (5, 5), weapons=[weapon("sword", 3)], grip={"right_arm": "sword"})
    t = creature("t", (6, 5))
    s = on_turn(state(a, t), "a")
    reposition = _option(s, "a", "reposition")
    assert space_fields(reposition, reposition.targets[0]) == ["to"]
    impair = _option(s, "a", "impair")
    assert space_fields(impair, impair.targets[0]) == []


def test_a_much_larger_target_leaves_no_damage_dice() -> None:
    """seed-004: "Against a larger subject, subtract the size difference from your damage": a size 0 Sword (2 dice)
    on a size 3 target rolls no dice, and the menu says so in words."""
    a = creature("a", (5, 5), weapons=[weapon("sword", 2)], grip={"right_arm": "sword"})
    t = creature("t", (6, 5), size=3)
    s = on_turn(state(a, t), "a")
    option = next(o for o in legal_actions(s, "a") if o.action == "strike" and o.params.get("weapon") == "sword")
    preview = next(x.preview for x in option.targets if x.target == "t")
    assert preview is not None
    d = strike_damage(s, "a", "t", preview, "sword")
    assert d is not None and d.dice == 0
    assert injury_text(d) == "no dice left, no Injury"
