"""Hand-worked tests of vtt.rules.reach (and Grab's Reach in vtt.rules.hold).

Hex geometry is pointy-top axial (q, r); neighbours E (1,0), NE (1,-1), NW (0,-1), W (-1,0), SW (-1,1),
SE (0,1). Every path below is worked out by hand.
"""

from __future__ import annotations

import math
import random

import pytest
from factories import creature, limb, weapon

from vtt.rules.grid import HexGrid
from vtt.rules.hold import grab_reach
from vtt.rules.model import Cell, Limb
from vtt.rules.reach import attack_path, base_reach, best_limb, effective_extend, limb_bonus, reach

HEX = HexGrid()
ARM = limb("arm", "arm")
HEAD = limb("head", "head")

# --------------------------------------------------------------------------------------------------------
# Base Reach by size
# --------------------------------------------------------------------------------------------------------


def test_size_minus_1_creature_has_reach_1() -> None:
    """reference §2.3: "Creatures of size −1 and larger have Reach 1." Size -1 with no limb: Reach 1."""
    tiny = creature("tiny", (0, 0), size=-1)
    assert base_reach(tiny) == 1
    assert reach(tiny, None) == 1


def test_size_0_creature_without_a_reach_limb_has_reach_1() -> None:
    """reference §2.3: "Creatures of size −1 and larger have Reach 1." Size 0, no limb: Reach 1."""
    assert reach(creature("h", (0, 0), size=0), None) == 1


def test_size_minus_2_creature_has_reach_0() -> None:
    """reference §2.3: "Smaller creatures have Reach 0 and can only reach their own space." Size -2: Reach 0."""
    mouse = creature("mouse", (0, 0), size=-2)
    assert base_reach(mouse) == 0
    assert reach(mouse, None) == 0


# --------------------------------------------------------------------------------------------------------
# Limbs add half the size, rounded up
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "expected"),
    [(0, 1), (1, 2), (2, 2), (3, 3), (4, 3), (5, 4), (6, 4)],
)
def test_reach_limb_adds_half_the_size_rounded_up(size: int, expected: int) -> None:
    """reference §2.3: "Reach-granting limbs (arms, legs, tails, tentacles, wings) add half the creature's size
    to Reach, rounding up." Reach 1 + ceil(size/2): size 1 → +1, 2 → +1, 3 → +2, 4 → +2, 5 → +3, 6 → +3."""
    assert reach(creature("c", (0, 0), size=size), ARM) == expected


@pytest.mark.parametrize("kind", ["arm", "leg", "tail", "tentacle", "wing"])
def test_every_reach_limb_kind_adds_half_the_size(kind: str) -> None:
    """reference §2.3: "Reach-granting limbs (arms, legs, tails, tentacles, wings)": a size 3 creature striking
    with any of them has Reach 1 + 2 = 3."""
    assert reach(creature("c", (0, 0), size=3), limb("part", kind)) == 3


def test_negative_size_limb_adds_nothing() -> None:
    """reference §2.3: "A negative size adds nothing." Size -1 with an arm keeps Reach 1; size -3 with an arm
    keeps Reach 0."""
    assert reach(creature("c", (0, 0), size=-1), ARM) == 1
    assert reach(creature("c", (0, 0), size=-3), ARM) == 0


def test_head_is_not_a_reach_limb() -> None:
    """reference §2.3: only "Reach-granting limbs (arms, legs, tails, tentacles, wings)" add to Reach; a size 4
    creature biting with its head has Reach 1, with its arm 1 + 2 = 3."""
    big = creature("big", (0, 0), size=4)
    assert reach(big, HEAD) == 1
    assert reach(big, ARM) == 3


def test_best_limb_prefers_a_reach_limb_over_the_head() -> None:
    """reference §2.3: Reach "depends on your manipulating limbs"; of head and arm a size 2 creature reaches
    farther with the arm (Reach 2 against 1)."""
    c = creature("c", (0, 0), size=2)
    candidates: list[Limb] = [HEAD, ARM]
    chosen = best_limb(c, candidates)
    assert chosen is not None
    assert chosen.id == "arm"


# --------------------------------------------------------------------------------------------------------
# Weapon Extend
# --------------------------------------------------------------------------------------------------------


def test_weapon_extend_adds_to_reach() -> None:
    """reference §2.3: "The weapon property Extend X adds X to Reach." Size 0, arm Reach 1, a Tier 1 spear with
    Extend 2 wielded at Martial 2: Reach 3."""
    c = creature("c", (0, 0), size=0, skills={"Martial": 2})
    spear = weapon("spear", extend=2, tier=1)
    assert effective_extend(c, spear, "Martial") == 2
    assert reach(c, ARM, spear, "Martial") == 3


def test_weapon_extend_adds_to_limb_reach_of_a_large_creature() -> None:
    """reference §2.3: limbs add half the size rounded up and Extend X adds X: size 3 with an arm (1 + 2) and an
    Extend 1 weapon it is skilled enough for: Reach 4."""
    c = creature("c", (0, 0), size=3, skills={"Martial": 2})
    assert reach(c, ARM, weapon("pike", extend=1, tier=2), "Martial") == 4


def test_weapon_tier_above_the_skill_reduces_extend() -> None:
    """reference §2.3: "A weapon whose Tier is above your Skill Tier applies the difference as a penalty to its
    Extend value." A Tier 3 weapon with Extend 2 at Martial 2: Extend 2 - 1 = 1, Reach 1 + 1 = 2."""
    c = creature("c", (0, 0), size=0, skills={"Martial": 2})
    halberd = weapon("halberd", extend=2, tier=3)
    assert effective_extend(c, halberd, "Martial") == 1
    assert reach(c, ARM, halberd, "Martial") == 2


def test_weapon_tier_equal_to_the_skill_keeps_full_extend() -> None:
    """reference §2.3: only a Tier "above your Skill Tier" is a penalty: Tier 2 with Extend 2 at Martial 2 keeps
    Extend 2."""
    c = creature("c", (0, 0), size=0, skills={"Martial": 2})
    assert effective_extend(c, weapon("spear", extend=2, tier=2), "Martial") == 2


def test_weapon_extend_penalty_uses_the_named_skill() -> None:
    """reference §6.1: the Usage Tier is compared with "the related Skill Tier (Martial for melee, Nimble for
    ranged)". Martial 3 but Nimble 1 against a Tier 3 Extend 2 weapon: Extend 2 with Martial, 0 with Nimble."""
    c = creature("c", (0, 0), size=0, skills={"Martial": 3, "Nimble": 1})
    w = weapon("spear", extend=2, tier=3)
    assert effective_extend(c, w, "Martial") == 2
    assert effective_extend(c, w, "Nimble") == 0


def test_reach_is_its_parts_added_up() -> None:
    """`reach` is `base_reach` + `limb_bonus` + `effective_extend` (with Extend) for random sizes, limbs (every kind,
    or none), weapons (Extend, Tier) and skills."""
    rng = random.Random(14)
    kinds = ["arm", "leg", "tail", "tentacle", "wing", "head", "other"]
    for _ in range(2000):
        c = creature("c", (0, 0), size=rng.randint(-4, 12), skills={"Martial": rng.randint(0, 5), "Nimble": 1})
        part = limb("part", rng.choice(kinds)) if rng.random() < 0.8 else None
        w = weapon("w", extend=rng.choice([0, 0, 1, 2, 3]), tier=rng.randint(1, 5)) if rng.random() < 0.7 else None
        skill = rng.choice(["Martial", "Nimble"])
        added = base_reach(c) + limb_bonus(c, part)
        if w is not None and w.extend:
            added += effective_extend(c, w, skill)
        assert reach(c, part, w, skill) == added
        assert limb_bonus(c, part) == (
            math.ceil(c.size / 2) if part is not None and part.grants_reach and c.size > 0 else 0
        )


# --------------------------------------------------------------------------------------------------------
# Grab: Reach - 1
# --------------------------------------------------------------------------------------------------------


def test_grab_has_one_less_reach() -> None:
    """seed-000 Grab: "Have -1 Reach with this attack." Size 0 with an arm: Reach 1 - 1 = 0 (own space only);
    size 3 with an arm: Reach 3 - 1 = 2."""
    assert grab_reach(creature("h", (0, 0), size=0), ARM) == 0
    assert grab_reach(creature("o", (0, 0), size=3), ARM) == 2


def test_grab_reach_of_a_size_1_creature() -> None:
    """seed-000 Grab: "Have -1 Reach"; size 1 arm Reach 1 + 1 = 2, so Grab Reach 1."""
    assert grab_reach(creature("c", (0, 0), size=1), ARM) == 1


# --------------------------------------------------------------------------------------------------------
# The path an attack through Reach takes
# --------------------------------------------------------------------------------------------------------


def test_attack_path_runs_through_every_space_between() -> None:
    """reference §2.3: an action using Reach "affects you as though you were in every space between you and the
    target's space". (0,0) to (3,0) runs straight East: (1,0) and (2,0) lie between."""
    path = attack_path(HEX, ((0, 0),), ((3, 0),), set())
    assert path == [(0, 0), (1, 0), (2, 0), (3, 0)]


def test_attack_path_starts_from_the_nearest_space_of_a_large_attacker() -> None:
    """reference §2.3: the path runs from you to the target; a domino (0,0),(1,0) reaching (4,0) starts at its
    nearer space (1,0), 3 steps away, and passes (2,0), (3,0)."""
    path = attack_path(HEX, ((0, 0), (1, 0)), ((4, 0),), set())
    assert path == [(1, 0), (2, 0), (3, 0), (4, 0)]


def test_attack_path_to_an_adjacent_space_has_nothing_between() -> None:
    """reference §2.3: "Reach 1 reaches the spaces at Range 1"; (0,0) to its SE neighbour (0,1) is just the
    two spaces."""
    assert attack_path(HEX, ((0, 0),), ((0, 1),), {(5, 5)}) == [(0, 0), (0, 1)]


def test_wall_between_blocks_the_attack_path() -> None:
    """reference §2.3: being "in every space between" means "obstruction along that path" applies. A wall at
    (1,0) on the only straight line (0,0)-(3,0) blocks it."""
    assert len(HEX.lines((0, 0), (3, 0))) == 1
    assert attack_path(HEX, ((0, 0),), ((3, 0),), {(1, 0)}) is None


def test_attack_path_takes_the_clear_side_of_a_tie() -> None:
    """reference §2.3: the path goes through the spaces between. (0,0) to (1,1) runs along the edge between
    (1,0) and (0,1); with a wall in (1,0) the attack passes through (0,1), and with a wall in (0,1), through
    (1,0)."""
    assert attack_path(HEX, ((0, 0),), ((1, 1),), {(1, 0)}) == [(0, 0), (0, 1), (1, 1)]
    assert attack_path(HEX, ((0, 0),), ((1, 1),), {(0, 1)}) == [(0, 0), (1, 0), (1, 1)]


def test_walls_on_both_sides_of_a_tie_block_the_attack_path() -> None:
    """reference §2.3: obstruction "along that path" — with walls in both (1,0) and (0,1), every line from
    (0,0) to (1,1) is blocked."""
    blocked: set[Cell] = {(1, 0), (0, 1)}
    assert attack_path(HEX, ((0, 0),), ((1, 1),), blocked) is None


def test_wall_off_the_line_does_not_block_the_attack_path() -> None:
    """reference §2.3: only spaces "between you and the target" matter; a wall at (1,-1) is beside the line
    (0,0)-(2,0), not on it."""
    assert attack_path(HEX, ((0, 0),), ((2, 0),), {(1, -1)}) == [(0, 0), (1, 0), (2, 0)]
