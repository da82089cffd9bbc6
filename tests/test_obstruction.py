"""Hand-worked tests of vtt.rules.obstruction: the size of a target's unobstructed part.

seed-000 Strikes: "When your target has physical obstruction, determine their size by the portions that are not
obstructed. For targets that occupy multiple spaces, some spaces may cause obstruction against their other
spaces."

The algorithm (obstruction.py): a target space is exposed when some straight line from an attacker space to it
(both lines on a tie) has no wall, object or other target space strictly between; with e of n spaces exposed
the size is `size + floor(log2(e / n))`.

Hex geometry is pointy-top axial (q, r), cube s = -q - r; neighbours E (1,0), NE (1,-1), NW (0,-1), W (-1,0),
SW (-1,1), SE (0,1). A line from a to b takes, at each step i of n, the hex nearest a + (b - a)·i/n; where that
point lies on the edge between two hexes the line can go either way. Every line used below is worked out by
hand in the docstrings and cross-checked against `HexGrid.lines` in the test.
"""

from __future__ import annotations

import pytest

from vtt.rules.grid import HexGrid
from vtt.rules.model import Cell
from vtt.rules.obstruction import exposed_size, exposure

HEX = HexGrid()

# A size 4 creature centred on (0, 0): the centre and its 6 neighbours.
FLOWER: tuple[Cell, ...] = ((0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# A size 2 creature: a domino on (0, 0) and its East neighbour.
DOMINO: tuple[Cell, ...] = ((0, 0), (1, 0))
# A size 3 creature with a long body: 4 spaces in a row (reference §2.2 "a line of hexes").
LONG: tuple[Cell, ...] = ((0, 0), (1, 0), (2, 0), (3, 0))

# --------------------------------------------------------------------------------------------------------
# exposed_size: the arithmetic of step 3
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "exposed", "total", "expected"),
    [
        (4, 7, 7, 4),  # all of it: log2(1) = 0
        (4, 4, 7, 4),  # 7/4 = 1.75: log2 ≈ 0.81 halvings, rounded down 0
        (4, 3, 7, 3),  # 7/3 ≈ 2.33: log2 ≈ 1.22 halvings, rounded down 1
        (4, 1, 7, 2),  # 7/1: log2 ≈ 2.81 halvings, rounded down 2
        (3, 1, 4, 1),  # 4/1: log2 = 2 halvings exactly
        (3, 2, 4, 2),  # 4/2: log2 = 1 halving exactly
        (2, 1, 2, 1),  # 2/1: log2 = 1 halving
    ],
)
def test_exposed_size_loses_one_size_per_halving_of_the_exposed_part(
    size: int, exposed: int, total: int, expected: int
) -> None:
    """seed-000: "determine their size by the portions that are not obstructed"; reference §2.2 "each +1 Size
    doubles the area filled", so each whole halving of the exposed part is one size less; the number of
    halvings is rounded down (reference §1.1 "Always round down"): 7 of 7 → size, 4 of 7 → size, 3 of 7 →
    size-1, 1 of 7 → size-2, 1 of 4 → size-2."""
    assert exposed_size(size, exposed, total) == expected


def test_exposed_size_of_a_wholly_obstructed_target_is_refused() -> None:
    """obstruction.py step 4: "With no exposed space the target cannot be attacked from there", so it has no
    size for the attack."""
    with pytest.raises(ValueError, match="wholly obstructed"):
        exposed_size(2, 0, 2)


# --------------------------------------------------------------------------------------------------------
# Single-space targets
# --------------------------------------------------------------------------------------------------------


def test_single_space_target_in_the_open_keeps_its_size() -> None:
    """seed-000: only "physical obstruction" changes the size. From (0,0) to (2,0) the line passes only (1,0),
    which is empty: the size 0 target is wholly exposed and stays size 0."""
    assert HEX.lines((0, 0), (2, 0)) == [[(0, 0), (1, 0), (2, 0)]]
    exp = exposure(HEX, ((0, 0),), ((2, 0),), 0, set())
    assert exp.exposed == ((2, 0),)
    assert exp.size == 0
    assert exp.attackable is True
    assert exp.obstructed is False


def test_single_space_target_behind_a_wall_cannot_be_attacked() -> None:
    """seed-000: size comes from "the portions that are not obstructed" and a single-space target behind a wall
    has none. The only line (0,0)-(1,0)-(2,0) passes the wall at (1,0)."""
    assert HEX.lines((0, 0), (2, 0)) == [[(0, 0), (1, 0), (2, 0)]]
    exp = exposure(HEX, ((0, 0),), ((2, 0),), 0, {(1, 0)})
    assert exp.exposed == ()
    assert exp.attackable is False


def test_single_space_target_is_seen_round_a_wall_on_one_side_of_a_tie() -> None:
    """seed-000 "physical obstruction"; obstruction.py: "both lines are tried where the line runs along a tie".
    (0,0) to (2,-1) runs along the edge between (1,0) and (1,-1); a wall in (1,0) leaves the line through (1,-1)
    clear."""
    assert HEX.lines((0, 0), (2, -1)) == [[(0, 0), (1, 0), (2, -1)], [(0, 0), (1, -1), (2, -1)]]
    exp = exposure(HEX, ((0, 0),), ((2, -1),), 0, {(1, 0)})
    assert exp.exposed == ((2, -1),)
    assert exp.size == 0


def test_another_creature_obstructs_only_when_the_table_says_creatures_obstruct() -> None:
    """seed-000 "physical obstruction"; reference §2.6 (table setting creatures_obstruct): a creature standing at
    (1,0), on the only line (0,0)-(2,0), hides the target when creatures count as obstruction, and not
    otherwise."""
    with_creatures = exposure(HEX, ((0, 0),), ((2, 0),), 0, set(), {(1, 0)})
    assert with_creatures.attackable is False
    without = exposure(HEX, ((0, 0),), ((2, 0),), 0, set(), None)
    assert without.exposed == ((2, 0),)


def test_attacker_is_not_an_obstruction_to_itself() -> None:
    """seed-000 "physical obstruction": a domino attacker on (0,0),(1,0) whose own spaces are listed among the
    creatures still attacks (3,0) from (1,0) through the empty (2,0)."""
    exp = exposure(HEX, ((0, 0), (1, 0)), ((3, 0),), 0, set(), {(0, 0), (1, 0), (9, 9)})
    assert exp.exposed == ((3, 0),)


# --------------------------------------------------------------------------------------------------------
# Multi-space targets: their own spaces obstruct their other spaces
# --------------------------------------------------------------------------------------------------------


def test_domino_seen_end_on_hides_its_far_space_behind_its_near_one() -> None:
    """seed-000: "For targets that occupy multiple spaces, some spaces may cause obstruction against their other
    spaces." From (3,0) the domino (0,0),(1,0) is end-on: the only line to (0,0) passes (2,0) and its own (1,0),
    so only (1,0) is exposed: 1 of 2 spaces, size 2 - 1 = 1."""
    assert HEX.lines((3, 0), (0, 0)) == [[(3, 0), (2, 0), (1, 0), (0, 0)]]
    assert HEX.lines((3, 0), (1, 0)) == [[(3, 0), (2, 0), (1, 0)]]
    exp = exposure(HEX, ((3, 0),), DOMINO, 2, set())
    assert exp.exposed == ((1, 0),)
    assert exp.total == 2
    assert exp.size == 1
    assert exp.obstructed is True


def test_domino_seen_broadside_keeps_its_size() -> None:
    """seed-000: size comes from "the portions that are not obstructed". From (0,2), south of the domino: the
    line to (0,0) passes (0,1); the lines to (1,0) pass (1,1) or (0,1). None is a domino space, so both spaces
    are exposed and it stays size 2."""
    assert HEX.lines((0, 2), (0, 0)) == [[(0, 2), (0, 1), (0, 0)]]
    assert HEX.lines((0, 2), (1, 0)) == [[(0, 2), (1, 1), (1, 0)], [(0, 2), (0, 1), (1, 0)]]
    exp = exposure(HEX, ((0, 2),), DOMINO, 2, set())
    assert set(exp.exposed) == {(0, 0), (1, 0)}
    assert exp.size == 2
    assert exp.obstructed is False


def test_wall_hiding_half_a_domino_makes_it_one_size_smaller() -> None:
    """seed-000: "determine their size by the portions that are not obstructed". From (0,2) a wall at (0,1) is on
    the only line to (0,0); (1,0) is still seen through (1,1). 1 of 2 exposed: size 2 - 1 = 1."""
    exp = exposure(HEX, ((0, 2),), DOMINO, 2, {(0, 1)})
    assert exp.exposed == ((1, 0),)
    assert exp.size == 1


def test_long_creature_attacked_from_the_side_has_every_space_exposed() -> None:
    """seed-000: only obstructed portions reduce the size. A size 3 creature lying along row r = 0, (0,0) to
    (3,0), seen from (1,3): every line from row 3 to row 0 passes only rows 1 and 2 between, never the
    creature's row, so all 4 spaces are exposed and it stays size 3."""
    for t in LONG:
        for line in HEX.lines((1, 3), t):
            assert all(cell[1] in (1, 2) for cell in line[1:-1])
    exp = exposure(HEX, ((1, 3),), LONG, 3, set())
    assert set(exp.exposed) == set(LONG)
    assert exp.size == 3
    assert exp.obstructed is False


def test_long_creature_seen_end_on_shows_one_space_of_four() -> None:
    """seed-000: "some spaces may cause obstruction against their other spaces". From (5,0) the same size 3
    creature is end-on: the straight lines West to (2,0), (1,0), (0,0) all pass (3,0). Only (3,0) is exposed,
    1 of 4: size 3 - 2 = 1."""
    exp = exposure(HEX, ((5, 0),), LONG, 3, set())
    assert exp.exposed == ((3, 0),)
    assert exp.size == 1


def test_size_4_creature_in_the_open_shows_its_near_side() -> None:
    """seed-000: "some spaces may cause obstruction against their other spaces". A size 4 creature (7 spaces
    around (0,0)) seen from (4,-1):
    - (1,-1) is due West: line (3,-1), (2,-1) between, clear;
    - (1,0): steps at 1/3, 2/3 round to (3,-1), (2,0), clear;
    - (0,1): runs along ties; one way is (3,-1), (2,0), (1,0) — its own (1,0) — the other (3,0), (2,0), (1,1),
      clear;
    - (0,-1) is due West behind (1,-1); (0,0), (-1,0), (-1,1) all pass its own (1,0).
    3 of 7 exposed: size 4 - floor(log2(7/3)) = 4 - 1 = 3."""
    assert HEX.lines((4, -1), (1, -1)) == [[(4, -1), (3, -1), (2, -1), (1, -1)]]
    assert HEX.lines((4, -1), (1, 0)) == [[(4, -1), (3, -1), (2, 0), (1, 0)]]
    assert sorted(map(tuple, HEX.lines((4, -1), (0, 1)))) == sorted(
        [((4, -1), (3, -1), (2, 0), (1, 0), (0, 1)), ((4, -1), (3, 0), (2, 0), (1, 1), (0, 1))]
    )
    exp = exposure(HEX, ((4, -1),), FLOWER, 4, set())
    assert set(exp.exposed) == {(1, -1), (1, 0), (0, 1)}
    assert exp.total == 7
    assert exp.size == 3


def test_pillar_hiding_part_of_a_size_4_creature_makes_it_smaller() -> None:
    """seed-000: "When your target has physical obstruction, determine their size by the portions that are not
    obstructed." The same size 4 creature from (4,-1) with a pillar at (3,-1): the only lines to (1,-1) and
    (1,0) pass the pillar; (0,1) is still seen through (3,0), (2,0), (1,1). 1 of 7 exposed: size
    4 - floor(log2(7/1)) = 4 - 2 = 2."""
    exp = exposure(HEX, ((4, -1),), FLOWER, 4, {(3, -1)})
    assert exp.exposed == ((0, 1),)
    assert exp.size == 2
    assert exp.attackable is True


def test_pillar_next_to_the_attacker_hides_the_whole_size_4_creature() -> None:
    """seed-000 "physical obstruction": from (4,0) every line to the size 4 creature around (0,0) first steps
    West into (3,0) (the first step of each line rounds (3.x, ~0) to (3,0)); a pillar there hides all 7
    spaces."""
    for t in FLOWER:
        for line in HEX.lines((4, 0), t):
            assert line[1] == (3, 0)
    exp = exposure(HEX, ((4, 0),), FLOWER, 4, {(3, 0)})
    assert exp.attackable is False


def test_attacker_inside_the_target_sees_every_space() -> None:
    """obstruction.py step 2: "A space the attacker shares with the target is always exposed", and a space next
    to the attacker has nothing between. A size 0 attacker in the centre (0,0) of a size 4 creature: all 7
    exposed, size 4."""
    exp = exposure(HEX, ((0, 0),), FLOWER, 4, set())
    assert set(exp.exposed) == set(FLOWER)
    assert exp.size == 4


# --------------------------------------------------------------------------------------------------------
# exposure reads the walls and objects as they are: the same as one set of every blocking space
# --------------------------------------------------------------------------------------------------------


def _exposed_with_one_blocking_set(
    attacker: tuple[Cell, ...], target: tuple[Cell, ...], filled: set[Cell], others: set[Cell] | None
) -> tuple[Cell, ...]:
    """Step 2 as written: the walls, objects, the target's spaces and (when given) the other creatures' spaces
    but the attacker's in one set; a target space is exposed when some line from some attacker space to it has
    none of them strictly between its ends."""
    blocking = set(filled) | set(target) | ((others or set()) - set(attacker))
    return tuple(
        t
        for t in target
        if t in attacker
        or any(not any(c in blocking and c != t for c in line[1:-1]) for a in attacker for line in HEX.lines(a, t))
    )


def test_exposure_is_that_of_one_set_of_every_blocking_space_on_random_boards() -> None:
    """On random walls, attackers, targets of 1 to 7 spaces and other creatures (or none), `exposure` exposes
    exactly the spaces the single blocking set of step 2 leaves exposed, whatever it is told the walls are (a
    frozenset, a set)."""
    import random

    shapes = [((0, 0),), DOMINO, LONG, FLOWER]
    compared = 0
    for seed in range(300):
        rng = random.Random(seed)
        filled = {(rng.randint(-4, 4), rng.randint(-4, 4)) for _ in range(rng.randint(0, 25))}
        tq, tr = rng.randint(-3, 3), rng.randint(-3, 3)
        target = tuple((tq + dq, tr + dr) for dq, dr in rng.choice(shapes))
        aq, ar = rng.randint(-4, 4), rng.randint(-4, 4)
        attacker = tuple((aq + dq, ar + dr) for dq, dr in rng.choice(shapes[:2]))
        others = {(rng.randint(-4, 4), rng.randint(-4, 4)) for _ in range(rng.randint(0, 6))} or None
        for walls in (frozenset(filled - set(target)), set(filled)):
            for told in (others, None):
                exp = exposure(HEX, attacker, target, 2, walls, told)
                assert exp.exposed == _exposed_with_one_blocking_set(attacker, target, set(walls), told)
                compared += 1
    assert compared == 1200
