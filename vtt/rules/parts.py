"""Rolling for a part (seed-004 "roll for a part"; reference §7, the table is an ASSUMPTION and a setting).

The default d12 table weighs each part by 2^(-sizes smaller): 1-4 torso, 5 stomach, 6-7 left leg, 8-9 right
leg, 10 left arm, 11 right arm, 12 the head, rolling again: a second 12 is an eye or an ear (a third d12:
1-3 left eye, 4-6 right eye, 7-9 left ear, 10-12 right ear). A part the creature lacks, or has lost, falls to
its torso, or to its first remaining part.
"""

from __future__ import annotations

from vtt.rules.dice import DiceSource, Roll, roll
from vtt.rules.kept_texts import Texts
from vtt.rules.model import Creature

DEFAULT_TABLE: list[tuple[int, int, str]] = [
    (1, 4, "torso"),
    (5, 5, "stomach"),
    (6, 7, "left_leg"),
    (8, 9, "right_leg"),
    (10, 10, "left_arm"),
    (11, 11, "right_arm"),
    (12, 12, "head"),
]
SMALL_PARTS = [(1, 3, "left_eye"), (4, 6, "right_eye"), (7, 9, "left_ear"), (10, 12, "right_ear")]


def _lookup(table: list[tuple[int, int, str]], face: int) -> str:
    for low, high, part in table:
        if low <= face <= high:
            return part
    raise ValueError(f"the part table has no entry for {face}")


def _by_face(table: list[tuple[int, int, str]]) -> tuple[str, ...]:
    """The part of each face of a d12 (index 0 unused)."""
    return ("", *(_lookup(table, face) for face in range(1, 13)))


_DEFAULT_BY_FACE = _by_face(DEFAULT_TABLE)


def _present(c: Creature, part_id: str) -> str:
    p = c.part(part_id)
    if p is not None and not p.severed:
        return part_id
    torso = c.part("torso")
    if torso is not None and not torso.severed:
        return "torso"
    remaining = [p.id for p in c.parts if not p.severed]
    return remaining[0] if remaining else part_id


def _part_roll_label(name: str) -> str:
    return f"part roll for {name}"


_PART_ROLL_LABELS = Texts(_part_roll_label)


def roll_part(c: Creature, dice: DiceSource, table: list[tuple[int, int, str]] | None = None) -> tuple[str, list[Roll]]:
    """The part a roll for a part lands on, with the rolls made."""
    first = roll(dice, _PART_ROLL_LABELS[c.name,], 1)
    if table is not None:  # a table of the table's own: no second roll for the head
        return _present(c, _lookup(table or DEFAULT_TABLE, first.result)), [first]
    part = _DEFAULT_BY_FACE[first.result]
    if part != "head":
        for p in c.parts:  # `_present`, of a part found at once
            if p.id == part:
                if not p.severed:
                    return part, [first]
                break
        return _present(c, part), [first]
    rolls = [first, roll(dice, f"part roll for {c.name}: the head, or an eye or ear on 12", 1)]
    if rolls[-1].result == 12:
        rolls.append(roll(dice, f"part roll for {c.name}: which eye or ear", 1))
        part = _lookup(SMALL_PARTS, rolls[-1].result)
    return _present(c, part), rolls
