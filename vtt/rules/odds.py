"""Exact odds of rolls, for previews before a player commits (reference §1.1-§1.6, seed-004).

A skill roll of N d12 comes to the single highest face plus flat modifiers; 0 dice comes to 0 plus modifiers and
cannot Fumble or roll doubles (reference §1.3 ASSUMPTION, as `dice`). A Fumble is more than half the dice
showing 1 (§1.5). A check succeeds when it reaches its DL; an attack succeeds when it reaches its DL and beats
the defense, a tie going as the table says, a Fumble failing when the table says so (as `checks`). A damage roll
counts the faces reaching the needed value (§1.6). Every probability is an exact `Fraction`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, perm

from vtt.rules.checks import TiesTo
from vtt.rules.dice import SIDES


@dataclass(frozen=True)
class Distribution:
    """The chance of each result of a skill roll, split by whether the roll Fumbled."""

    clean: dict[int, Fraction]
    fumbled: dict[int, Fraction]

    def fumble_chance(self) -> Fraction:
        return sum(self.fumbled.values(), Fraction(0))


def _max_counts(dice: int, low: int) -> dict[int, int]:
    """How many ways `dice` dice with faces low..12 show each highest face."""
    if dice == 0:
        return {}
    out: dict[int, int] = {}
    for top in range(low, SIDES + 1):
        out[top] = (top - low + 1) ** dice - (top - low) ** dice
    return out


def skill_roll(dice: int, modifier: int = 0) -> Distribution:
    """The exact distribution of a skill roll of `dice` d12 plus `modifier`."""
    if dice < 0:
        raise ValueError("a roll cannot use fewer than 0 dice")
    if dice == 0:
        return Distribution(clean={modifier: Fraction(1)}, fumbled={})
    total = SIDES**dice
    clean: dict[int, int] = {}
    fumbled: dict[int, int] = {}
    for ones in range(dice + 1):
        rest = dice - ones
        into = fumbled if 2 * ones > dice else clean
        ways = comb(dice, ones)
        if rest == 0:
            into[1] = into.get(1, 0) + ways
            continue
        for top, n in _max_counts(rest, 2).items():
            into[top] = into.get(top, 0) + ways * n
    return Distribution(
        clean={face + modifier: Fraction(n, total) for face, n in clean.items() if n},
        fumbled={face + modifier: Fraction(n, total) for face, n in fumbled.items() if n},
    )


@lru_cache(maxsize=4096)
def check_chance(dice: int, modifier: int, dl: int, fumble_fails: bool = True) -> Fraction:
    """The chance a check reaches its DL (reference §1.2)."""
    d = skill_roll(dice, modifier)
    out = sum((p for r, p in d.clean.items() if r >= dl), Fraction(0))
    if not fumble_fails:
        out += sum((p for r, p in d.fumbled.items() if r >= dl), Fraction(0))
    return out


@lru_cache(maxsize=4096)
def attack_chance(
    dice: int,
    modifier: int,
    dl: int,
    defense_dice: int | None,
    defense_modifier: int = 0,
    ties_to: TiesTo = "defender",
    fumble_fails: bool = True,
) -> Fraction:
    """The chance an attack succeeds against a defender rolling `defense_dice` d12 plus `defense_modifier`
    (None: the defense is declined or cannot be rolled). Mirrors `checks.AttackResult.success`."""
    att = skill_roll(dice, modifier)
    hits = [(r, p) for r, p in att.clean.items() if r >= dl]
    if not fumble_fails:
        hits += [(r, p) for r, p in att.fumbled.items() if r >= dl]
    if defense_dice is None:
        return sum((p for _, p in hits), Fraction(0))
    dfn = skill_roll(defense_dice, defense_modifier)
    defense: list[tuple[int, Fraction, bool]] = [(r, p, False) for r, p in dfn.clean.items()]
    defense += [(r, p, True) for r, p in dfn.fumbled.items()]
    out = Fraction(0)
    for a, pa in hits:
        for d, pd, fumbled in defense:
            if (fumbled and fumble_fails) or a > d or (a == d and ties_to == "attacker"):
                out += pa * pd
    return out


def doubles_chance(dice: int) -> Fraction:
    """The chance that two or more of `dice` d12 show the same face (reference §1.4)."""
    if dice <= 1:
        return Fraction(0)
    if dice > SIDES:
        return Fraction(1)
    return 1 - Fraction(perm(SIDES, dice), SIDES**dice)


def injury_distribution(dice: int, needed: int) -> list[Fraction]:
    """The chance of each Injury count 0..dice when `dice` damage d12 each count on `needed` or more (§1.6)."""
    if dice < 0:
        raise ValueError("a roll cannot use fewer than 0 dice")
    needed = min(max(needed, 1), SIDES)
    hit = Fraction(SIDES - needed + 1, SIDES)
    return [comb(dice, k) * hit**k * (1 - hit) ** (dice - k) for k in range(dice + 1)]


@dataclass(frozen=True)
class DamagePreview:
    """What a damage roll is likely to do: its dice, the face each needs, and the Injury it likely comes to."""

    dice: int
    needed: int
    likely_low: int
    likely_high: int
    expected: Fraction
    chances: list[Fraction]

    def as_json(self) -> dict[str, object]:
        return {
            "dice": self.dice,
            "needed": self.needed,
            "likely": [self.likely_low, self.likely_high],
            "expected": float(self.expected),
            "chances": [float(p) for p in self.chances],
        }


LIKELY_TAIL = Fraction(1, 10)


def damage_preview(dice: int, needed: int) -> DamagePreview:
    """The Injury a damage roll likely comes to: the range leaving at most a tenth of the chance below it and a
    tenth above it."""
    dice = max(0, dice)
    needed = min(max(needed, 1), SIDES)
    chances = injury_distribution(dice, needed)
    below = Fraction(0)
    low = 0
    for k, p in enumerate(chances):
        if below + p > LIKELY_TAIL:
            low = k
            break
        below += p
    above = Fraction(0)
    high = dice
    for k in range(dice, -1, -1):
        if above + chances[k] > LIKELY_TAIL:
            high = k
            break
        above += chances[k]
    expected = sum((k * p for k, p in enumerate(chances)), Fraction(0))
    return DamagePreview(dice=dice, needed=needed, likely_low=low, likely_high=high, expected=expected, chances=chances)
