"""Hand-worked tests of vtt.rules.checks: rolls against a DL and attacks against defenses.

Rolls come from ScriptedDice; every expected outcome is worked out by hand from the rule text.
"""

from __future__ import annotations

from vtt.rules.checks import AttackResult, CheckResult, judge_attack
from vtt.rules.dice import Modifier, Roll, ScriptedDice, roll


def _roll(faces: list[int], *mods: int, label: str = "roll") -> Roll:
    """A roll of exactly these faces (one d12 each) with flat modifiers."""
    return roll(ScriptedDice(faces), label, len(faces), [Modifier(value=m, reason=f"{m:+d}") for m in mods])


# --------------------------------------------------------------------------------------------------------
# Checks against a DL
# --------------------------------------------------------------------------------------------------------


def test_check_reaching_the_dl_exactly_succeeds() -> None:
    """reference §1.2: "Reaching the DL (result ≥ DL) succeeds." Manifest is DL 6 (seed-000 "Manifesting a
    Spell or a Talent is DL 6"): faces 2, 6 give 6, which reaches 6."""
    check = CheckResult(roll=_roll([2, 6]), dl=6)
    assert check.success is True
    assert check.margin == 0


def test_check_above_the_dl_succeeds_with_its_margin() -> None:
    """reference §1.2: result ≥ DL succeeds. Faces 8, 3 with +1 give 9 against DL 6: success by 3."""
    check = CheckResult(roll=_roll([8, 3], 1), dl=6)
    assert check.success is True
    assert check.margin == 3


def test_check_below_the_dl_fails() -> None:
    """reference §1.2: "A DL is the number a roll must reach." Faces 5, 4 give 5 against DL 6: fails by 1."""
    check = CheckResult(roll=_roll([5, 4]), dl=6)
    assert check.success is False
    assert check.margin == -1


def test_penalty_can_drop_a_check_below_its_dl() -> None:
    """reference §1.1: "-N" subtracts from the result. Faces 6, 1 with -1 give 5 against DL 6: fails."""
    check = CheckResult(roll=_roll([6, 1], -1), dl=6)
    assert check.success is False


def test_fumble_fails_even_when_the_result_reaches_the_dl() -> None:
    """reference §1.5: "A Fumble is always a failure." Faces 1, 1, 1 with +5 give 6 against DL 3, but three
    of three dice show 1: it fails."""
    check = CheckResult(roll=_roll([1, 1, 1], 5), dl=3)
    assert check.roll.result == 6
    assert check.success is False


def test_fumble_need_not_fail_when_the_table_turns_that_off() -> None:
    """reference §1.5: "A Fumble is always a failure" is an ASSUMPTION, a table setting. Turned off, faces 1,
    1, 1 with +5 give 6 and reach DL 3."""
    check = CheckResult(roll=_roll([1, 1, 1], 5), dl=3, fumble_fails=False)
    assert check.success is True


def test_two_ones_of_four_is_no_fumble_so_the_check_can_succeed() -> None:
    """reference §1.5: "more than half of the dice rolled show 1" — faces 1, 1, 3, 7 (2 of 4) give 7 and
    reach DL 6."""
    check = CheckResult(roll=_roll([1, 1, 3, 7]), dl=6)
    assert check.success is True


def test_waking_check_at_dl_twelve_succeeds_on_a_twelve() -> None:
    """seed-004 Unconscious: "roll Endure to wake up ... DL 12 - 1 for each prior consecutive failure" only
    works if 12 reaches DL 12 (reference §1.2): faces 12, 4 succeed."""
    check = CheckResult(roll=_roll([12, 4]), dl=12)
    assert check.success is True


# --------------------------------------------------------------------------------------------------------
# Attacks against defenses
# --------------------------------------------------------------------------------------------------------


def test_attack_beating_the_defense_succeeds_with_its_margin() -> None:
    """reference §1.3: "The attack succeeds when attackResult ≥ DL and attackResult > defenseResult ... The
    margin is attackResult − defenseResult." Strike DL 3 (seed-000 "DL 3"): 9 against Elude 6, margin 3."""
    result = AttackResult(attack=_roll([9, 4]), dl=3, defense_skill="Elude", defense=_roll([6, 2]))
    assert result.success is True
    assert result.margin == 3
    assert result.declined is False


def test_attack_below_the_defense_fails() -> None:
    """reference §1.3: the attack needs "attackResult > defenseResult": 7 against 10 fails, margin -3."""
    result = AttackResult(attack=_roll([7, 5]), dl=3, defense_skill="Elude", defense=_roll([10, 2]))
    assert result.success is False
    assert result.margin == -3


def test_tie_goes_to_the_defender_by_default() -> None:
    """reference §1.3: "ties go to the defender" (ASSUMPTION, the default). 7 against 7: the attack fails."""
    result = AttackResult(attack=_roll([7, 3]), dl=3, defense_skill="Elude", defense=_roll([7, 2]))
    assert result.margin == 0
    assert result.success is False


def test_tie_goes_to_the_attacker_when_the_table_says_so() -> None:
    """reference §1.3: "Provide a table option for "ties to attacker"." 7 against 7 with that option: the
    attack succeeds."""
    result = AttackResult(attack=_roll([7, 3]), dl=3, defense_skill="Elude", defense=_roll([7, 2]), ties_to="attacker")
    assert result.success is True


def test_declined_defense_fails() -> None:
    """seed-004 Skill Defense: "You may choose not to roll and fail the defense." A declined defense against
    an attack of 4 at DL 3: the attack succeeds."""
    result = AttackResult(attack=_roll([4, 2]), dl=3, defense_skill="Elude", defense=None)
    assert result.declined is True
    assert result.success is True


def test_attack_below_its_dl_fails_even_against_a_declined_defense() -> None:
    """reference §1.3: "The attack succeeds when attackResult ≥ DL and ..." — the DL still applies. Faces 2,
    1 give 2 against DL 3 with the defense declined: the attack fails."""
    result = AttackResult(attack=_roll([2, 1]), dl=3, defense_skill="Elude", defense=None)
    assert result.reached_dl is False
    assert result.success is False


def test_attack_below_its_dl_fails_even_when_it_beats_the_defense() -> None:
    """reference §1.3: success needs "attackResult ≥ DL and attackResult > defenseResult". 2 against a Tier 0
    defense of 0 (an Ambush) at DL 3: the attack beats the defense by 2 but fails."""
    tier_zero = roll(ScriptedDice([]), "Elude (Ambushed)", 0)
    result = AttackResult(attack=_roll([2]), dl=3, defense_skill="Elude", defense=tier_zero)
    assert result.margin == 2
    assert result.success is False


def test_attack_penalty_counts_against_the_defense() -> None:
    """seed-000 Called Shot: "suffer -1 on physical attack rolls". Faces 8 with -1 give 7 against a defense of
    7: a tie, which goes to the defender."""
    result = AttackResult(attack=_roll([8, 2], -1), dl=3, defense_skill="Elude", defense=_roll([7]))
    assert result.attack.result == 7
    assert result.success is False


def test_fumbled_attack_fails_even_against_a_declined_defense() -> None:
    """reference §1.5: "A Fumble is always a failure." Faces 1, 1, 9 with +2 give 11 at DL 3, but 2 of 3
    dice show 1: the attack fails although the defense was declined."""
    result = AttackResult(attack=_roll([1, 1, 9], 2), dl=3, defense_skill="Elude", defense=None)
    assert result.attack.result == 11
    assert result.success is False


def test_fumbled_defense_fails_even_with_a_high_result() -> None:
    """reference §1.5: "A Fumble is always a failure" (ASSUMPTION, on by default); a defense is a roll "to avoid
    the attack" (seed-004 Skill Defense). Defense faces 1, 1, 12 show 1 on 2 of 3 dice: a Fumble, so the
    defense fails like a declined one, and an attack of 8 at DL 3 succeeds although 12 > 8."""
    defense = _roll([1, 1, 12])
    assert defense.fumble is True
    result = AttackResult(attack=_roll([8, 4]), dl=3, defense_skill="Elude", defense=defense)
    assert result.success is True


def test_fumbled_defense_is_only_a_number_when_fumbles_need_not_fail() -> None:
    """reference §1.5: "A Fumble is always a failure" is a table ASSUMPTION; with it off, the fumbled defense of
    12 (faces 1, 1, 12) beats an attack of 8."""
    result = AttackResult(
        attack=_roll([8, 4]), dl=3, defense_skill="Elude", defense=_roll([1, 1, 12]), fumble_fails=False
    )
    assert result.success is False


def test_zero_dice_defense_of_a_ground_surface_is_beaten_by_any_attack_reaching_the_dl() -> None:
    """seed-000: the ground's "defense as 0"; a 0-dice roll is "0 plus modifiers" (reference §1.3). An attack
    of 3 at DL 3 against defense 0 succeeds by 3."""
    ground = roll(ScriptedDice([]), "ground defense", 0)
    result = AttackResult(attack=_roll([3, 2]), dl=3, defense_skill="none", defense=ground)
    assert result.success is True
    assert result.margin == 3


def test_called_shot_margin_is_attack_minus_defense() -> None:
    """seed-000 Called Shot: "the amount you need to exceed the defense roll equals the number of sizes that
    the specified part is smaller"; a head is 5 smaller. 11 against 6 exceeds it by 5."""
    result = AttackResult(attack=_roll([11, 3]), dl=3, defense_skill="Elude", defense=_roll([6, 6]))
    assert result.margin == 5


def test_judge_attack_says_a_tie_goes_to_the_defender() -> None:
    """reference §1.3: ties "go to the defender"; the sentence shown to the table says so and that it fails."""
    result = AttackResult(attack=_roll([7, 3]), dl=3, defense_skill="Elude", defense=_roll([7, 2]))
    assert judge_attack(result, "Grog", "Mira") == (
        False,
        "Grog rolled 7 (DL 3) against Mira's Elude 7 (a tie goes to the defender): the attack fails.",
    )
