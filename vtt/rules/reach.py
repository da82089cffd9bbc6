"""Reach (reference §2.3, seed-000 Grab and Strike).

- Creatures of size -1 and larger have Reach 1; smaller ones Reach 0 (they reach only their own space).
- A Reach-granting limb (arm, leg, tail, tentacle, wing) adds half the creature's size, rounded up; a negative
  size adds nothing.
- A weapon's Extend X adds X (less the amount its usage Tier is above the wielder's skill), and attacks on
  targets closer than X take -2.
- Grab has -1 Reach.
- An action using Reach acts as though it were in every space between you and the target: the attack path is
  the line of spaces from the nearest of your spaces to the nearest of the target's, and a wall or object on
  it blocks the attack (when every alternative line on a tie is blocked).
"""

from __future__ import annotations

import math
from collections.abc import Set as AbstractSet

from vtt.rules.grid import Grid
from vtt.rules.model import Cell, Creature, Limb, Weapon

EXTEND_CLOSE_PENALTY = -2


def base_reach(creature: Creature) -> int:
    return 1 if creature.size >= -1 else 0


def limb_bonus(creature: Creature, limb: Limb | None) -> int:
    if limb is None or not limb.grants_reach or creature.size <= 0:
        return 0
    return (creature.size + 1) // 2  # half the size, rounded up


def effective_extend(creature: Creature, weapon: Weapon, skill: str) -> int:
    over = max(0, weapon.tier - creature.skill(skill))
    return max(0, weapon.extend - over)


def reach(creature: Creature, limb: Limb | None, weapon: Weapon | None = None, skill: str = "Martial") -> int:
    """The Reach of an attack made with `limb` (and the `weapon` it grips)."""
    value = base_reach(creature) + limb_bonus(creature, limb)
    if weapon is not None and weapon.extend:  # without Extend, a weapon adds nothing
        value += effective_extend(creature, weapon, skill)
    return value


def farthest(creature: Creature) -> int:
    """A bound no attack of the creature reaches beyond, whatever limb and weapon it uses (each `reach` is at most
    it: the largest limb bonus and the longest Extend among its weapons), read off its size and weapons alone."""
    limb = math.ceil(creature.size / 2) if creature.size > 0 else 0
    return base_reach(creature) + limb + max((w.extend for w in creature.weapons), default=0)


def best_limb(creature: Creature, candidates: list[Limb]) -> Limb | None:
    """The candidate limb that reaches farthest (a reach limb beats another part)."""
    if not candidates:
        return None
    return max(candidates, key=lambda limb: limb_bonus(creature, limb))


def attack_path(
    grid: Grid, from_cells: tuple[Cell, ...], to_cells: tuple[Cell, ...], blocked: AbstractSet[Cell]
) -> list[Cell] | None:
    """The spaces an attack passes through from the attacker to the target, or None when every line is
    blocked. Tried from every nearest pair of spaces; the first clear line wins."""
    if len(from_cells) == 1 and len(to_cells) == 1:
        for line in grid.lines(from_cells[0], to_cells[0]):
            if not any(cell in blocked for cell in line[1:-1]):
                return line
        return None
    best = min(grid.distance(a, b) for a in from_cells for b in to_cells)
    for a in from_cells:
        for b in to_cells:
            if grid.distance(a, b) != best:
                continue
            for line in grid.lines(a, b):
                if not any(cell in blocked for cell in line[1:-1]):
                    return line
    return None
