"""Size differences on attack rolls and damage (seed-000 Strikes, Overpower, surfaces; seed-004 Size).

"Half" rounds toward zero: the seeds always round down, and a half size difference is a magnitude.
"""

from __future__ import annotations

from functools import cache

from vtt.rules.dice import Modifier

WALL_SIZE = 1
"""seed-000: a wall or vertical surface that fills an entire space is treated as a size 1 object."""

GROUND_PENALTY = -1
"""seed-000: targeting the ground or a horizontal surface that fills a space is -1 on the attack."""

GROUND_DEFENSE = 0
"""seed-000: ... and its defense is treated as 0."""

NIMBLE_SIZE_GAP = 4
"""seed-000: 4 or more sizes larger than the target may attack Nimble instead."""

OVERPOWER_LIMIT = 3
"""seed-000: Overpower cannot affect targets 3 or more sizes larger."""


def half(n: int) -> int:
    """Half of n, rounded toward zero."""
    return n // 2 if n >= 0 else -((-n) // 2)


def strike_size_bonus(attacker_size: int, target_size: int) -> int:
    """seed-000 Strikes: -half the difference against smaller targets, +half against larger ones."""
    return half(target_size - attacker_size)


def overpower_size_bonus(attacker_size: int, target_size: int) -> int:
    """seed-000 Overpower: -the full difference against larger targets, +the full difference against smaller."""
    return attacker_size - target_size


def can_overpower(attacker_size: int, target_size: int) -> bool:
    """seed-000 Overpower: targets 3 or more sizes larger cannot be affected."""
    return target_size - attacker_size < OVERPOWER_LIMIT


def may_attack_nimble(attacker_size: int, target_size: int) -> bool:
    """seed-000: 4 or more sizes larger than the target may attack Nimble, the penalty moving to damage."""
    return attacker_size - target_size >= NIMBLE_SIZE_GAP


def physical_damage_size_change(attacker_size: int, subject_size: int) -> int:
    """seed-004 Size: physical damage falls by the difference against larger subjects, rises against smaller."""
    return attacker_size - subject_size


def strike_size_modifier(attacker_size: int, target_size: int, note: str = "") -> Modifier | None:
    bonus = strike_size_bonus(attacker_size, target_size)
    if bonus == 0:
        return None
    rel = "larger" if bonus > 0 else "smaller"
    return Modifier(
        value=bonus,
        reason=f"Strike size: target size {target_size}{note} is {rel} than size {attacker_size} (half the difference)",
        key="size",
    )


@cache  # pure, and a Modifier is frozen: every Overpower of a menu shares one
def overpower_size_modifier(attacker_size: int, target_size: int, note: str = "") -> Modifier | None:
    bonus = overpower_size_bonus(attacker_size, target_size)
    if bonus == 0:
        return None
    rel = "smaller" if bonus > 0 else "larger"
    return Modifier(
        value=bonus,
        reason=f"Overpower size: target size {target_size}{note} is {rel} than size {attacker_size} (full difference)",
        key="size",
    )
