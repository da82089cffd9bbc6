"""Checks and opposed attacks.

A check is a roll against a DL: reaching the DL succeeds (reference §1.2). An attack names the skill it
attacks; the defender rolls that skill or declines and fails (seed-004 "Skill Defense"). The attack succeeds
when it reaches its DL and beats the defense; a tie goes to the defender unless the table says otherwise
(reference §1.3, ASSUMPTION). A Fumble always fails by default (reference §1.5, ASSUMPTION): a Fumbled
attack fails, and a Fumbled defense fails whatever its result.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, computed_field

from vtt.rules.dice import Roll
from vtt.rules.words import NUMERALS

TiesTo = Literal["defender", "attacker"]


class CheckResult(BaseModel):
    """A roll against a DL."""

    model_config = ConfigDict(frozen=True)
    roll: Roll
    dl: int
    fumble_fails: bool = True

    @computed_field  # type: ignore[prop-decorator]
    @property
    def success(self) -> bool:
        if self.fumble_fails and self.roll.fumble:
            return False
        return self.roll.result >= self.dl

    @computed_field  # type: ignore[prop-decorator]
    @property
    def margin(self) -> int:
        return self.roll.result - self.dl


class AttackResult(NamedTuple):
    """An attack roll against a DL and a defense roll (or a declined defense). A plain immutable record, not a
    model: every attack makes one, nothing stores or sends it."""

    attack: Roll
    dl: int
    defense_skill: str
    defense: Roll | None = None
    ties_to: TiesTo = "defender"
    fumble_fails: bool = True

    @property
    def declined(self) -> bool:
        return self.defense is None

    @property
    def reached_dl(self) -> bool:
        if self.fumble_fails and self.attack.fumble:
            return False
        return self.attack.result >= self.dl

    @property
    def defense_result(self) -> int:
        """A declined defense fails; for margins it counts as a result of 0 (ASSUMPTION)."""
        return 0 if self.defense is None else self.defense.result

    @property
    def margin(self) -> int:
        """By how much the attack beat the defense (negative when it did not)."""
        defense = self.defense
        return self.attack.result - (0 if defense is None else defense.result)

    @property
    def success(self) -> bool:
        return attack_succeeds(self)


def attack_succeeds(result: AttackResult) -> bool:
    """`result.success`: a call from Python code runs in the caller's loop, a property's getter in one of its own."""
    attack, dl, _, defense, ties_to, fumble_fails = result  # unpacked: read by name, each field is a look-up
    if (fumble_fails and attack.fumble) or attack.result < dl:  # not `reached_dl`
        return False
    if defense is None or (fumble_fails and defense.fumble):
        return True
    margin = attack.result - defense.result
    if margin == 0:
        return ties_to == "attacker"
    return margin > 0


def judge_attack(result: AttackResult, attacker: str, defender: str) -> tuple[bool, str]:
    """Whether the attack succeeds (`attack_succeeds`, the one place the rule is written) and one plain sentence
    saying how it went (every attack asks for both)."""
    a, dl, defense_skill, defense, ties_to, fumble_fails = result  # unpacked: read by name, each field is a look-up
    rolled = a.result
    fumbled = fumble_fails and a.fumble
    if fumbled or rolled < dl:  # not `result.reached_dl`
        why = "Fumbled" if fumbled else f"rolled {NUMERALS[rolled]}, short of DL {NUMERALS[dl]}"
        return False, f"{attacker} {why}: the attack on {defender} fails."
    if defense is None:
        return True, (
            f"{attacker} rolled {NUMERALS[rolled]} (DL {NUMERALS[dl]}); {defender} declined to defend: the attack "
            "succeeds."
        )
    d = defense.result
    success = attack_succeeds(result)
    tie = " (a tie goes to the " + ties_to + ")" if rolled == d else ""
    verdict = "succeeds" if success else "fails"
    return success, (
        f"{attacker} rolled {NUMERALS[rolled]} (DL {NUMERALS[dl]}) against {defender}'s {defense_skill} "
        f"{NUMERALS[d]}{tie}: the attack {verdict}."
    )
