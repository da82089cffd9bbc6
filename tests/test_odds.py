"""The exact odds of `odds` against a brute-force enumeration of every face of small rolls, each outcome
decided by the rules code itself (`dice._derived` through `Roll`, `checks.CheckResult`, `checks.AttackResult`,
`Roll.count_at_least`): reference §1.1-§1.6, seed-004 ("Skill Defense", damage dice reaching 3)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from vtt.rules import odds
from vtt.rules.checks import AttackResult, CheckResult, TiesTo
from vtt.rules.dice import Modifier, Roll


def every_roll(dice: int, modifier: int) -> list[Roll]:
    mods = (Modifier(value=modifier, reason="test"),) if modifier else ()
    return [
        Roll(label="r", base_dice=dice, faces=f, modifiers=mods) for f in itertools.product(range(1, 13), repeat=dice)
    ]


@pytest.mark.parametrize("dice", [0, 1, 2, 3])
@pytest.mark.parametrize("modifier", [0, -2, 3])
def test_skill_roll_distribution_is_the_highest_face_plus_modifiers_with_fumbles(dice: int, modifier: int) -> None:
    """reference §1.1/§1.5: result = highest face + modifier; Fumble when more than half the dice show 1;
    0 dice gives the modifier alone and no Fumble (§1.3 ASSUMPTION)."""
    rolls = every_roll(dice, modifier)
    share = Fraction(1, len(rolls))
    clean: dict[int, Fraction] = {}
    fumbled: dict[int, Fraction] = {}
    for r in rolls:
        into = fumbled if r.fumble else clean
        into[r.result] = into.get(r.result, Fraction(0)) + share
    got = odds.skill_roll(dice, modifier)
    assert got.clean == clean
    assert got.fumbled == fumbled


@pytest.mark.parametrize("dice", [0, 1, 2, 3])
@pytest.mark.parametrize("dl", [0, 3, 6, 12, 14])
@pytest.mark.parametrize("fumble_fails", [True, False])
def test_check_chance_is_the_share_of_rolls_reaching_the_dl(dice: int, dl: int, fumble_fails: bool) -> None:
    """reference §1.2: reaching the DL succeeds; §1.5 ASSUMPTION: a Fumble fails when the table says so."""
    rolls = every_roll(dice, 1)
    wins = sum(CheckResult(roll=r, dl=dl, fumble_fails=fumble_fails).success for r in rolls)
    assert odds.check_chance(dice, 1, dl, fumble_fails) == Fraction(wins, len(rolls))


@pytest.mark.parametrize(("dice", "defense"), [(1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (0, 2), (2, 0), (2, None)])
@pytest.mark.parametrize("ties_to", ["defender", "attacker"])
@pytest.mark.parametrize("fumble_fails", [True, False])
def test_attack_chance_is_the_share_of_attack_and_defense_faces_that_succeed(
    dice: int, defense: int | None, ties_to: TiesTo, fumble_fails: bool
) -> None:
    """reference §1.3 and seed-004 "Skill Defense": the attack must reach its DL (3) and beat the defense roll;
    ties go to the defender (or attacker, by setting); a declined defense fails."""
    attacks = every_roll(dice, 1)
    defenses: list[Roll | None] = [None] if defense is None else list(every_roll(defense, 0))
    wins = 0
    for a in attacks:
        for d in defenses:
            res = AttackResult(
                attack=a, dl=3, defense_skill="Elude", defense=d, ties_to=ties_to, fumble_fails=fumble_fails
            )
            wins += res.success
    got = odds.attack_chance(dice, 1, 3, defense, 0, ties_to, fumble_fails)
    assert got == Fraction(wins, len(attacks) * len(defenses))


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
def test_doubles_chance_is_the_share_of_rolls_with_doubles(dice: int) -> None:
    """reference §1.4: doubles are two or more dice of one roll showing the same face."""
    rolls = every_roll(dice, 0)
    assert odds.doubles_chance(dice) == Fraction(sum(bool(r.doubles) for r in rolls), len(rolls))


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("needed", [1, 3, 6, 12])
def test_injury_distribution_counts_faces_reaching_the_needed_value(dice: int, needed: int) -> None:
    """seed-004 / reference §1.6: each damage die reaching the needed value (3 by default) is 1 Injury."""
    rolls = every_roll(dice, 0)
    want = [Fraction(0)] * (dice + 1)
    for r in rolls:
        want[r.count_at_least(needed)] += Fraction(1, len(rolls))
    assert odds.injury_distribution(dice, needed) == want


def test_damage_preview_gives_the_dice_and_likely_injury_range() -> None:
    """seed-004: 4 damage dice needing 3. By hand: each die counts with 10/12 = 5/6. P(0)=1/1296, P(1)=20/1296,
    P(2)=150/1296, P(3)=500/1296, P(4)=625/1296. Below 2: 21/1296 (under a tenth), below 3: 171/1296 (over):
    the likely range starts at 2; above 3 alone is 625/1296 (over a tenth): it ends at 4. Expected 4*5/6."""
    p = odds.damage_preview(4, 3)
    assert p.chances == [Fraction(n, 1296) for n in (1, 20, 150, 500, 625)]
    assert (p.dice, p.needed, p.likely_low, p.likely_high) == (4, 3, 2, 4)
    assert p.expected == Fraction(10, 3)
    assert p.as_json()["likely"] == [2, 4]


def test_a_worked_opposed_roll() -> None:
    """reference §1.3: 1d12 attack, DL 3, against a declined defense: succeeds on 3..12 (10/12), but a 1 on a
    lone die is a Fumble (§1.5) and is already short of DL 3. Against 1d12 with ties to the defender: attack face
    a in 3..12 beats defense faces 2..a-1 (a-2 of them) plus a Fumbled defense (face 1): a-1 faces, total
    sum(2..11) = 65 of 144."""
    assert odds.attack_chance(1, 0, 3, None) == Fraction(10, 12)
    assert odds.attack_chance(1, 0, 3, 1) == Fraction(65, 144)
