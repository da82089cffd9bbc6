"""What a menu carries over from the state before a change (issue 14 item 4): the index of who stands where is the
previous state's with the changed creatures moved (`positions.derived`), what depends on the walls alone is kept for
the board (`board_kept`), and who is near a creature is found from the index (`near`). For random small fights and
random changes, each gives what the straightforward computation gives."""

from __future__ import annotations

import random
from itertools import product

import pytest
from factories import creature, on_turn, state
from test_menu_build import played, random_fight

from vtt.rules import board_kept, near, positions
from vtt.rules.dice import RandomDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.fastmodel import shallow_copy
from vtt.rules.grid import GridKind, footprint_distance
from vtt.rules.model import GameState
from vtt.rules.space import Occupancy, grid_for, grid_of

SEEDS = range(24)


def placed_around(seed: int, s: GameState, moves: int) -> list[GameState]:
    """`s` and the states after up to `moves` Soulweaver placements of random creatures on random spaces they fit
    in (two small creatures may come to share a space)."""
    rng = random.Random(seed)
    out = [s]
    for _ in range(moves):
        cid = rng.choice(list(s.creatures))
        to = (rng.randrange(s.board.cols), rng.randrange(s.board.rows))
        try:
            s, _ = apply(s, {"type": "place", "creature": cid, "to": list(to)}, RandomDice(seed))
        except RuleError:
            continue
        out.append(s)
    return out


def _index(occ: Occupancy) -> tuple[list[tuple[object, list[str]]], list[tuple[str, tuple[object, ...]]]]:
    """The occupancy as a new one builds it: each space with its creatures, and each footprint, in their order."""
    by_cell = occ.by_cell
    return sorted((cell, list(ids)) for cell, ids in by_cell.items()), list(occ.cells.items())


def _fresh_occupancy(s: GameState) -> Occupancy:
    occ = Occupancy(s)
    _ = occ.by_cell
    return occ


@pytest.mark.parametrize("seed", SEEDS)
def test_an_occupancy_made_from_the_state_before_is_the_one_built_anew(seed: int) -> None:
    """Along random moves, Strikes and placements, the occupancy derived from the previous state's lists the same
    creatures in each space, in the same order, and the same footprints in the same order, as one built anew; the
    previous state's occupancy is left as it was."""
    s0 = random_fight(seed)
    derived_count = 0
    for states in (played(seed, s0, 8), placed_around(seed, s0, 12)):
        old, old_occ = states[0], _fresh_occupancy(states[0])
        for new in states[1:]:
            before = _index(old_occ)
            occ = positions.derived(old, old_occ, new)
            assert _index(old_occ) == before
            if occ is None:
                occ = _fresh_occupancy(new)
            else:
                derived_count += 1
                assert _index(occ) == _index(_fresh_occupancy(new))
            old, old_occ = new, occ
    assert derived_count > 0


def test_an_occupancy_is_built_anew_for_another_game() -> None:
    """A state sharing few of its creatures with the kept one (another game), or holding them in another order,
    gets its occupancy built anew; a copy of the same state gets the kept one's index."""
    spots = [(col, row) for row in range(0, 12, 2) for col in range(0, 12, 2)]
    a = on_turn(state(*(creature(f"c{i}", spot) for i, spot in enumerate(spots))), "c0")
    other = on_turn(state(*(creature(f"c{i}", spot) for i, spot in enumerate(spots))), "c0")
    ids = list(a.creatures)
    reordered = shallow_copy(a, creatures={cid: a.creatures[cid] for cid in [ids[1], ids[0], *ids[2:]]})
    occ = _fresh_occupancy(a)
    assert positions.derived(a, occ, other) is None
    assert positions.derived(a, occ, reordered) is None
    copied = positions.derived(a, occ, shallow_copy(a, creatures=dict(a.creatures)))
    assert copied is not None
    assert _index(copied) == _index(occ)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_menu_after_a_change_is_the_menu_of_a_state_seen_first(seed: int) -> None:
    """The menu of each creature asked right after a change (the previous state's menu asked first, so its
    occupancy and what it kept for the board are carried over) equals the menu of a new copy of the state asked with
    nothing kept at all."""
    offered = 0
    s0 = random_fight(seed)
    for states in (played(seed, s0, 8), placed_around(seed + 100, s0, 8)):
        positions.forget()
        legal_actions(states[0], states[0].turn.current or next(iter(states[0].creatures)))
        for new in states[1:]:
            carried = {cid: legal_actions(new, cid) for cid in new.creatures}
            for cid, menu in carried.items():
                positions.forget()
                first = legal_actions(shallow_copy(new, creatures=dict(new.creatures)), cid)
                assert [o.model_dump() for o in menu] == [o.model_dump() for o in first], cid
                offered += len(first)
            legal_actions(new, new.turn.current or next(iter(new.creatures)))  # kept again for the next state
    assert offered > 0
    board_kept.forget()


@pytest.mark.parametrize("seed", SEEDS)
def test_the_creatures_near_a_creature_are_those_a_pass_over_all_finds(seed: int) -> None:
    """`near.within` lists the creatures with a space within the radius, in the state's order, as a pass over every
    creature measuring the distance does."""
    rng = random.Random(seed)
    for s in placed_around(seed, random_fight(seed), 6):
        occ = _fresh_occupancy(s)
        grid = grid_of(s)
        for c in s.creatures.values():
            radius = rng.randrange(0, 6)
            mine = occ.cells[c.id]
            expected = [
                oid
                for oid, o in s.creatures.items()
                if o.swallowed_by is None and footprint_distance(grid, mine, occ.cells[oid]) <= radius
            ]
            assert near.within(occ, grid, mine, radius) == expected


def test_a_range_on_the_map_by_its_centre_is_on_the_map_space_by_space() -> None:
    """`near.on_map_within` is True only when every space within the radius of the cells (one space, or a space and
    its neighbour) lies on the map, on hex and square maps, near and away from every edge."""
    for kind in (GridKind.HEX, GridKind.SQUARE):
        grid = grid_for(kind)
        cols, rows = 9, 7
        told = 0
        for col in range(-2, cols + 2):
            for row in range(-2, rows + 2):
                cell = grid.from_offset(col, row)
                for cells, radius in product(((cell,), (cell, grid.neighbours(cell)[0])), range(5)):
                    on_map = all(grid.in_bounds(cell, cols, rows) for cell in grid.area_within(cells, radius))
                    if near.on_map_within(grid, cells, radius, cols, rows):
                        assert on_map, (kind, col, row, radius)
                        told += 1
        assert told > 50
