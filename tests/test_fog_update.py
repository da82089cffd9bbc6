"""Fog of war, worked out per move in proportion to what changed (`Fog.perception`): when only creatures other
than the seat's own changed (no light carried, creatures not obstructing), the seat's last perception is updated
for those creatures alone, and says exactly what working it out from scratch (`vision.seat_perception`) says."""

from __future__ import annotations

import random

from factories import creature

from vtt.rules.grid import GridKind, make_grid
from vtt.rules.model import Board, CarriedLight, Cell, Creature, GameState
from vtt.rules.settings import TableSettings
from vtt.rules.vision import Perception, seat_perception
from vtt.table.fog import Fog

COLS, ROWS = 14, 10
WALLS = frozenset({(5, 0), (5, 1), (5, 2), (5, 3), (9, 6), (9, 7), (10, 6), (2, 7)})
OWN = ("a", "b")


def _state(light: bool = False, **settings: object) -> GameState:
    made = [
        creature("a", (0, 0), controller="alice"),
        creature("b", (3, 8), controller="alice", size=1),
        *(creature(f"m{i}", (7 + i % 5, 1 + 2 * (i // 5)), size=-1 if i % 3 else 0) for i in range(8)),
    ]
    if light:
        made[2] = made[2].model_copy(update={"light": CarriedLight(bright=2, dim=4)})
    table = TableSettings.model_validate(
        {"grid": GridKind.SQUARE, "fog_of_war": True, "ambient_light": "dark" if light else "lit", **settings}
    )
    return GameState(
        settings=table, board=Board(cols=COLS, rows=ROWS, walls=set(WALLS)), creatures={c.id: c for c in made}
    )


def _same(a: Perception, b: Perception) -> None:
    assert a.spaces == b.spaces
    assert a.seen == b.seen
    assert dict(a.heard) == dict(b.heard)
    assert dict(a.reasons) == dict(b.reasons)
    assert sorted(map(repr, a.awareness)) == sorted(map(repr, b.awareness))


def _free(state: GameState, c: Creature, rng: random.Random) -> GameState:
    """`state` with `c` moved to a random space where it fits (off walls and other creatures)."""
    grid = make_grid("square")
    taken = set(WALLS) | {
        cell
        for other in state.creatures.values()
        if other.id != c.id
        for cell in grid.footprint(other.anchor, other.size)
    }
    while True:
        anchor: Cell = (rng.randrange(COLS), rng.randrange(ROWS))
        cells = grid.footprint(anchor, c.size)
        if all(grid.in_bounds(x, COLS, ROWS) and x not in taken for x in cells):
            moved = c.model_copy(update={"anchor": anchor})
            return state.model_copy(update={"creatures": {**state.creatures, c.id: moved}})


def _walk(state: GameState, steps: int, seed: int, movers: tuple[str, ...]) -> tuple[Fog, int]:
    """Move random creatures among `movers` `steps` times; after each, the fog's answer is checked against one
    worked out from scratch. Returns the fog and how many answers were updates."""
    rng = random.Random(seed)
    fog = Fog()
    fog.perception(state, OWN)
    seen: set[str] = set()
    for _ in range(steps):
        state = _free(state, state.creatures[rng.choice(movers)], rng)
        found = fog.perception(state, OWN)
        _same(found, seat_perception(state, OWN))
        seen |= found.seen - set(OWN)
    assert seen  # the walk saw some of the others at times (the check above is not between two empty answers)
    return fog, fog.updated


def test_other_creatures_moving_update_the_seats_perception_as_a_fresh_one() -> None:
    fog, updated = _walk(_state(), 40, seed=3, movers=tuple(f"m{i}" for i in range(1, 8)))
    assert updated == 40 and fog.computed == 41  # every move after the first perception is an update


def test_the_seats_own_creature_moving_works_it_out_anew() -> None:
    _fog, updated = _walk(_state(), 20, seed=5, movers=("a", "m1", "b", "m2"))
    assert 0 < updated < 20  # the own creatures' moves are not updates


def test_a_carried_light_moving_works_it_out_anew() -> None:
    """m0 carries a light in the dark: its move changes which spaces the seat sees."""
    _fog, updated = _walk(_state(light=True), 20, seed=7, movers=("m0", "m3"))
    assert 0 < updated < 20


def test_creatures_that_obstruct_sight_work_it_out_anew_on_every_move() -> None:
    fog, updated = _walk(_state(creatures_obstruct=True), 15, seed=11, movers=("m1", "m4"))
    assert updated == 0 and fog.computed == 16
