"""Property: what a creature perceives (`vision.perceived`) is what it was before the compact line-of-sight walk
(`vision_before`, the module as it was at 7ffb263): the same spaces, creatures seen and heard, Observe notes and
reasons, on random boards of either grid with creatures of sizes 0 to 4 (some standing partly or wholly off the
map), walls, a light layer, darkness, carried lights, dark sight, ailments and the table's vision settings."""

from __future__ import annotations

from dataclasses import astuple

from hypothesis import given
from hypothesis import strategies as st
from vision_before import carried_light as carried_light_before
from vision_before import perceived as perceived_before

from vtt.rules.grid import GridKind
from vtt.rules.model import Board, CarriedLight, Creature, GameState, LightLevel
from vtt.rules.settings import TableSettings
from vtt.rules.vision import Perception, carried_light, clear_sight_cache, perceived

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


def as_compared(p: Perception) -> tuple[object, ...]:
    return p.spaces, p.seen, dict(p.heard), [astuple(note) for note in p.awareness], dict(p.reasons)


@given(boards())
def test_every_creature_perceives_what_it_did_before_the_compact_walk(state: GameState) -> None:
    clear_sight_cache()
    assert carried_light(state) == carried_light_before(state)
    for cid in state.creatures:
        assert as_compared(perceived(state, cid)) == as_compared(perceived_before(state, cid))
