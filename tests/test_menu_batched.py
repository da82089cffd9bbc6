"""The menu asks some rules for many values at once (issue 14 item 4): every space Reposition may move a target to,
the Disarm, Impair and Reposition of one target together, and whether a Strike may be Nimble from the plain Strike's
plan; and the moves a creature can make come from a breadth-first search made one step of depth at a time. For
random small fights, each gives what asking the rule one value at a time (or a plain search) gives."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterator
from functools import partial
from itertools import permutations

import pytest
from factories import creature, on_turn, state, weapon
from test_menu_build import played, random_fight
from test_menu_carry import placed_around

from vtt.rules import focus, hold, movement, overpower, overpower_offers, prone, strike, strike_offers, tactics
from vtt.rules.events import RuleError
from vtt.rules.grid import Grid, GridKind
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.offers import arms, plan_preview
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, footprint, grid_of, why_cannot_stand
from vtt.rules.strike import Armament, AttackPlan

SEEDS = range(24)
ACTIONS: tuple[overpower.WeaponAction, ...] = ("disarm", "impair", "reposition")


def _pairs(s: GameState) -> Iterator[tuple[Creature, Creature]]:
    """Every ordered pair of two creatures of `s` neither of which is swallowed."""
    for c, t in permutations(s.creatures.values(), 2):
        if c.swallowed_by is None and t.swallowed_by is None:
            yield c, t


def _every_other_fight_played() -> Iterator[GameState]:
    """The states of four random steps played from the random fight of every other seed."""
    for seed in SEEDS[::2]:
        yield from played(seed, random_fight(seed), 4)


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
            for c, t in _pairs(s):
                for rng in (1, 2):
                    near = grid.area_within(occ.cells[c.id], rng + 3) | grid.area_within(occ.cells[t.id], 2)
                    expected = sorted(
                        cell for cell in near if overpower.why_not_destination(s, occ, c, t, rng, cell, filled) is None
                    )
                    assert overpower.destinations(s, Occupancy(s), c, t, rng, filled) == expected
                    assert destinations_in_a_menu(s, c, t, rng) == expected
                    checked += len(expected)
    assert checked > 0


def destinations_in_a_menu(s: GameState, c: Creature, t: Creature, rng: int) -> list[Cell]:
    """`overpower.destinations` as a menu asks it: given the spaces an attack within the Reach reaches."""
    occ = Occupancy(s)
    filled = s.board.filled()
    reached = strike_offers.reach_spaces(s, occ, c, rng, grid_of(s).area_within(occ.cells[c.id], rng), filled)[0]
    return overpower.destinations(s, occ, c, t, rng, filled, reached)


def test_overpowers_planned_together_are_each_planned_alone() -> None:
    """`plan_weapon_overpowers` of Disarm, Impair and Reposition gives, for each, the plan `plan_weapon_overpower`
    gives alone (with and without a Charge, as a Flurry's Minor Action or not), or fails when each fails."""
    planned = 0
    for s in _every_other_fight_played():
        for c, t in _pairs(s):
            for arm in arms(s, c):
                for charge, minor in ((False, False), (True, False), (False, True)):
                    planned += _check_together(s, c, t, arm, charge, minor)
    assert planned > 0


def test_overpowers_planned_on_one_occupancy_with_every_weapon_are_each_planned_afresh() -> None:
    """The touch an Overpower keeps for a state (kept whatever the Reach) gives each weapon or limb, asked in
    either order on one occupancy, the plans it gives on an occupancy of its own: a shorter Reach is still refused;
    and the Grab, which tests the same touch, is planned after them as on an occupancy of its own."""
    planned = refused = 0
    for s in _every_other_fight_played():
        filled = s.board.filled()
        for c, t in _pairs(s):
            for order in (arms(s, c), arms(s, c)[::-1]):
                shared = Occupancy(s)
                for arm in order:
                    outcomes: list[list[AttackPlan] | str] = []
                    for occ in (shared, Occupancy(s)):
                        try:
                            outcomes.append(overpower.plan_weapon_overpowers(s, occ, c, t, ACTIONS, arm, filled))
                        except RuleError as e:
                            outcomes.append(str(e))
                    assert outcomes[0] == outcomes[1]
                    planned += not isinstance(outcomes[0], str)
                    refused += isinstance(outcomes[0], str)
                grabs: list[object] = []
                for occ in (shared, Occupancy(s)):
                    try:
                        gp = hold.plan_grab(s, occ, c, t, None, filled)
                        grabs.append((gp.reach, gp.distance, gp.path, gp.modifiers, gp.exposed_size))
                    except RuleError as e:
                        grabs.append(str(e))
                assert grabs[0] == grabs[1]
    assert planned > 0 and refused > 0


def _wounded(s: GameState, c: Creature, tiers: int) -> GameState:
    """`s` with `tiers` Tiers of Wounded on each of `c`'s limbs."""
    parts = [p.model_copy(update={"wounded": tiers}) if c.limb(p.id) is not None else p for p in c.parts]
    return s.model_copy(update={"creatures": {**s.creatures, c.id: c.model_copy(update={"parts": parts})}})


def test_overpower_terms_shared_by_every_weapon_give_the_terms_of_each_weapon() -> None:
    """The terms of a Disarm, an Impair and a Reposition a menu works out once for each target
    (`overpower.target_terms`, asked with every weapon and limb on one occupancy) give, with each weapon
    (`arm_terms`), the Reach, distance, path, modifiers and dice changes `weapon_terms` gives on an occupancy of
    its own, with and without a Charge, as a Flurry's Minor Action or not; none where it refuses (out of Reach, a
    wall, too large, a limb too Wounded to use)."""
    made = refused = 0
    for s0 in _every_other_fight_played():
        for c, t in _pairs(s0):
            for s in (s0, _wounded(s0, c, 1), _wounded(s0, c, s0.settings.wounded_unusable_at)):
                me = s.creatures[c.id]
                filled = s.board.filled()
                shared = Occupancy(s)
                for arm in arms(s, me):
                    rng = strike.arm_reach(s, me, arm)
                    for charge, minor in ((False, False), (True, False), (False, True)):
                        try:
                            expected: overpower.WeaponTerms | None = overpower.weapon_terms(
                                s, Occupancy(s), me, t, arm, filled, charge, minor
                            )
                        except RuleError:
                            expected = None
                        terms = overpower.target_terms(s, shared, me, t, filled, charge)
                        assert overpower.arm_terms(s, me, arm, rng, terms, minor) == expected
                        made += expected is not None
                        refused += expected is None
    assert made > 100 and refused > 100


def test_the_menus_overpower_previews_are_the_previews_of_their_plans() -> None:
    """The menu's preview of a Disarm, an Impair and a Reposition (made from `overpower.weapon_terms`) is the
    `plan_preview` of the plan the rule makes of it, with each weapon, with and without a Charge, as a Flurry's Minor
    Action or not."""
    compared = 0
    for s in _every_other_fight_played():
        filled = s.board.filled()
        for c, t in _pairs(s):
            for arm in arms(s, c):
                for charge, minor in ((False, False), (True, False), (False, True)):
                    try:
                        terms = overpower.weapon_terms(s, Occupancy(s), c, t, arm, filled, charge, minor)
                    except RuleError:
                        continue
                    for action in ACTIONS:
                        plan = overpower.plan_weapon_overpower(
                            s, Occupancy(s), c, t, action, arm, filled, charge, minor
                        )
                        preview = overpower_offers.weapon_preview(s, c, t, action, arm, terms)
                        assert preview.model_dump() == plan_preview(plan).model_dump()
                        assert (terms.path, terms.reach) == (plan.path, plan.reach)
                        compared += 1
    assert compared > 0


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


def _giant_fight(seed: int) -> GameState:
    """A size 6 creature with smaller ones around it, some walls: Nimble Strikes come up, some allowed only by the
    part of a target left exposed (a target's near spaces hide its far ones)."""
    rng = random.Random(seed)
    giant = creature("giant", (8, 8), size=6, weapons=[weapon("club", 3)], grip={"right_arm": "club"})
    near = [cell for cell in grid_of(state(giant)).area_within(giant_cells(giant), 3) if 0 <= cell[1] < 18]
    walls = set(rng.sample(near, 3))
    placed = [giant]
    for i in range(10):
        o = creature(f"s{i}", rng.choice(near), size=rng.choice([0, 1, 2, 3, 3, 4]))
        trial = state(*placed, o, cols=18, rows=18, walls=walls)
        if why_cannot_stand(trial, o, o.anchor, Occupancy(trial)) is None:
            placed.append(o)
    return on_turn(state(*placed, cols=18, rows=18, walls=walls), "giant")


def giant_cells(giant: Creature) -> tuple[Cell, ...]:
    return footprint(state(giant), giant)


def test_a_strike_may_be_nimble_exactly_when_the_nimble_strike_can_be_made() -> None:
    """The menu's Nimble choice on a Strike target (taken from the plain Strike's plan) is offered exactly when
    `plan_creature_strike` makes the Nimble Strike."""
    offered = {False: 0, True: 0}
    for seed in SEEDS:
        for s in [_giant_fight(seed), *played(seed, random_fight(seed), 3)]:
            filled = s.board.filled()
            for c, t in _pairs(s):
                for arm in arms(s, c):
                    try:
                        plan = strike.plan_creature_strike(s, Occupancy(s), c, t, arm, False, filled)
                    except RuleError:
                        continue
                    try:
                        strike.plan_creature_strike(s, Occupancy(s), c, t, arm, True, filled)
                        may = True
                    except RuleError:
                        may = False
                    assert strike_offers.strike_choices(s, c, arm, plan)["nimble"] == (
                        [False, True] if may else [False]
                    )
                    offered[may] += 1
    assert offered[True] > 0 and offered[False] > 0


def _reference_paths(grid: Grid, start: Cell, budget: int, passable: Callable[[Cell], bool]) -> dict[Cell, list[Cell]]:
    """A breadth-first search written plainly: a queue of spaces, each space's neighbours in the grid's order."""
    paths: dict[Cell, list[Cell]] = {start: []}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if len(paths[cell]) >= budget:
            continue
        for nxt in grid.neighbours(cell):
            if nxt not in paths and passable(nxt):
                paths[nxt] = [*paths[cell], nxt]
                queue.append(nxt)
    return paths


def _passable(s: GameState, anchor: Cell) -> bool:
    """The only creature of `s` may pass with its anchor at `anchor`: its spaces on the map and off the walls."""
    filled = s.board.filled()
    return all(
        cell not in filled and grid_of(s).in_bounds(cell, s.board.cols, s.board.rows)
        for cell in footprint(s, s.creatures["c"], anchor)
    )


@pytest.mark.parametrize("kind", [GridKind.HEX, GridKind.SQUARE])
def test_the_moves_a_creature_can_make_are_those_a_plain_search_finds(kind: GridKind) -> None:
    """`movement.reachable` on even ground gives every space a plain breadth-first search reaches, with the same
    path to each, in the same order, for creatures of one space and larger, Prone or not, among random walls."""
    checked = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        settings = TableSettings(grid=kind, defense_prompts="nobody", reactions=False)
        walls = {(rng.randrange(12), rng.randrange(12)) for _ in range(rng.randrange(30))}
        c = creature("c", (rng.randrange(12), rng.randrange(12)), size=rng.choice([0, 1, 2]), prone=rng.random() < 0.3)
        s = state(c, cols=12, rows=12, walls=walls - set(footprint(state(c, settings=settings), c)), settings=settings)
        for movement_left in range(0, 8):
            passable = partial(_passable, s)
            expected = _reference_paths(grid_of(s), c.anchor, prone.spaces_for(s, c, movement_left), passable)
            found = movement.reachable(s, s.creatures["c"], movement_left, s.board.filled())
            assert list(found.items()) == list(expected.items())
            checked += len(found)
    assert checked > 0


def test_focus_and_distract_targets_are_those_the_rules_allow_one_creature_at_a_time() -> None:
    """Focus's targets (found from the creatures near, the range not measured again) are every creature
    `why_not_focus` allows, each once; Distract's are, in the state's order, every creature `aware_of` finds Aware of
    the Distract offered, whether `distract_targets` works out what a Distract may follow or is told it. A
    creature's Focus is set now and then, so that it is left out."""
    found = 0
    for seed in SEEDS[::2]:
        rng = random.Random(seed)
        for s in [*played(seed, random_fight(seed), 3), *placed_around(seed, random_fight(seed), 3)]:
            for c in s.creatures.values():
                if rng.random() < 0.3:
                    c = c.model_copy(update={"focus": rng.choice(list(s.creatures))})
                    s = s.model_copy(update={"creatures": {**s.creatures, c.id: c}})
                occ = Occupancy(s)
                focus_on = focus.focus_targets(s, occ, c)
                allowed = [oid for oid in s.creatures if focus.why_not_focus(s, occ, c, oid, None) is None]
                assert sorted(focus_on) == sorted(allowed) and len(set(focus_on)) == len(focus_on)
                kinds = tactics.distract_actions(s, c.id)
                action: tactics.DistractAction = next((k for k in kinds if k != "speak"), "speak")
                aware = [oid for oid, o in s.creatures.items() if tactics.aware_of(s, c, o, occ, action)]
                expected = [] if c.swallowed_by else aware
                assert tactics.distract_targets(s, c, Occupancy(s)) == expected
                assert tactics.distract_targets(s, c, Occupancy(s), kinds) == expected  # the menu's, kinds known
                found += len(focus_on) + len(aware)
    assert found > 0
