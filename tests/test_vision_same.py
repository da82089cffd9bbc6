"""Property: the spaces in a creature's line of sight (`vision.line_of_sight`, one walk over all its spaces) are those
of the walk before it (`vision_before`, one walk per space, merged, as at 7ffb263), on random boards of either grid
with creatures of sizes 0 to 4 (some standing partly or wholly off the map), walls, other creatures blocking or not,
within the whole map or a radius; and what a creature perceives on them, checked by vision's own tests."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from vision_before import line_of_sight as line_of_sight_before

from vtt.rules.grid import GridKind
from vtt.rules.model import Board, CarriedLight, Creature, GameState, LightLevel
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy
from vtt.rules.vision import clear_sight_cache, line_of_sight

LEVELS: tuple[LightLevel, ...] = ("lit", "dim", "dark")


@st.composite
def boards(draw: st.DrawFn) -> GameState:
    cols, rows = draw(st.integers(1, 14)), draw(st.integers(1, 14))
    space = st.tuples(st.integers(-3, cols + 2), st.integers(-3, rows + 2))
    on_map = st.tuples(st.integers(0, cols - 1), st.integers(0, rows - 1))
    walls = draw(st.sets(on_map, max_size=cols * rows // 3))
    light = draw(st.dictionaries(on_map, st.sampled_from(LEVELS), max_size=cols * rows // 2))
    creatures: dict[str, Creature] = {}
    for n in range(draw(st.integers(1, 6))):
        lamp = draw(st.none() | st.builds(CarriedLight, bright=st.integers(0, 4), dim=st.integers(0, 6)))
        ailments = draw(st.dictionaries(st.sampled_from(("Blinded", "Deafened", "Anosmatic")), st.integers(1, 3)))
        creatures[f"c{n}"] = Creature(
            id=f"c{n}",
            name=f"c{n}",
            anchor=draw(st.one_of(on_map, space)),
            size=draw(st.integers(0, 4)),
            light=lamp,
            dark_sight=draw(st.integers(0, 3)),
            ailments=ailments,
        )
    settings = TableSettings(
        grid=draw(st.sampled_from(list(GridKind))),
        ambient_light=draw(st.sampled_from(LEVELS)),
        creatures_obstruct=draw(st.booleans()),
        sight_automatic=draw(st.booleans()),
        hearing_automatic=draw(st.booleans()),
        smell_automatic=draw(st.booleans()),
    )
    return GameState(
        settings=settings, board=Board(cols=cols, rows=rows, walls=walls, light=light), creatures=creatures
    )


@given(boards(), st.integers(0, 6))
def test_a_creature_sees_the_spaces_the_walk_of_each_of_its_spaces_saw(state: GameState, radius: int) -> None:
    clear_sight_cache()
    occ = Occupancy(state)
    filled = state.board.filled()
    for cid in state.creatures:
        cells = occ.cells[cid]
        if radius and not all(0 <= q < state.board.cols and 0 <= r < state.board.rows for q, r in cells):
            continue  # the walk before, within a radius, failed (IndexError) from a space off the map
        others = frozenset(cell for other, taken in occ.everyone().items() if other != cid for cell in taken)
        for blocking in (filled, filled | (others - set(cells))):
            seen = line_of_sight(state, cells, blocking, radius)
            assert seen == line_of_sight_before(state, cells, blocking, radius)
