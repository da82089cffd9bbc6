"""The menu asks some rules for many values at once (issue 14 item 4): every space Reposition may move a target to,
and the Disarm, Impair and Reposition of one target together. For random small fights, each batch gives what asking
the rule one value at a time gives."""

from __future__ import annotations

from itertools import permutations

from test_menu_build import played, random_fight
from test_menu_carry import placed_around

from vtt.rules import overpower
from vtt.rules.events import RuleError
from vtt.rules.model import Creature, GameState
from vtt.rules.offers import arms
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.strike import Armament, AttackPlan

SEEDS = range(24)
ACTIONS: tuple[overpower.WeaponAction, ...] = ("disarm", "impair", "reposition")


def test_reposition_destinations_are_the_spaces_the_rule_allows_one_by_one() -> None:
    """`overpower.destinations` lists, sorted, every space `why_not_destination` allows (of all the spaces near
    either creature, a wider area than Reposition can reach), for each pair of creatures and Reach 1 and 2."""
    checked = 0
    for seed in SEEDS[::3]:
        s0 = random_fight(seed)
        for s in [*played(seed, s0, 2), *placed_around(seed, s0, 2)]:
            filled = s.board.filled()
            grid = grid_of(s)
            occ = Occupancy(s)
            for c, t in permutations(s.creatures.values(), 2):
                if t.swallowed_by is not None or c.swallowed_by is not None:
                    continue
                for rng in (1, 2):
                    near = grid.area_within(occ.cells[c.id], rng + 3) | grid.area_within(occ.cells[t.id], 2)
                    expected = sorted(
                        cell for cell in near if overpower.why_not_destination(s, occ, c, t, rng, cell, filled) is None
                    )
                    assert overpower.destinations(s, Occupancy(s), c, t, rng, filled) == expected
                    checked += len(expected)
    assert checked > 0


def test_overpowers_planned_together_are_each_planned_alone() -> None:
    """`plan_weapon_overpowers` of Disarm, Impair and Reposition gives, for each, the plan `plan_weapon_overpower`
    gives alone (with and without a Charge, as a Flurry's Minor Action or not), or fails when each fails."""
    planned = 0
    for seed in SEEDS:
        for s in played(seed, random_fight(seed), 4):
            for c, t in permutations(s.creatures.values(), 2):
                if c.swallowed_by is not None or t.swallowed_by is not None:
                    continue
                for arm in arms(s, c):
                    for charge, minor in ((False, False), (True, False), (False, True)):
                        planned += _check_together(s, c, t, arm, charge, minor)
    assert planned > 0


def _check_together(s: GameState, c: Creature, t: Creature, arm: Armament, charge: bool, minor: bool) -> int:
    filled = s.board.filled()
    alone: list[AttackPlan | None] = []
    for action in ACTIONS:
        try:
            alone.append(overpower.plan_weapon_overpower(s, Occupancy(s), c, t, action, arm, filled, charge, minor))
        except RuleError:
            alone.append(None)
    try:
        together: list[AttackPlan | None] = list(
            overpower.plan_weapon_overpowers(s, Occupancy(s), c, t, ACTIONS, arm, filled, charge, minor)
        )
    except RuleError:
        together = [None] * len(ACTIONS)
    assert together == alone
    return sum(p is not None for p in together)
