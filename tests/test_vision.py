"""What a creature perceives (vtt/rules/vision.py): line of sight, light, Blinded, hearing, seats and memory.

Maps are drawn on the square grid, (x, y) = (column, row): `#` a wall, `.` a floor, a capital letter the anchor of
the creature of that id. In an expected map `x` marks a space the viewer does NOT perceive. The lines of sight were
worked out by hand with the square grid's lines (`Grid.lines`: the minor axis moves by the rounded fraction).
"""

from __future__ import annotations

import pytest

from vtt.rules.grid import GridKind
from vtt.rules.mapfile import MapError, load_map, map_json
from vtt.rules.model import Board, CarriedLight, Cell, Creature, GameState
from vtt.rules.settings import TableSettings
from vtt.rules.vision import Perception, light_concealment, perceived, remember, seat_perception


def draw(rows: str, **settings: object) -> GameState:
    lines = rows.strip().splitlines()
    walls: set[Cell] = set()
    creatures: dict[str, Creature] = {}
    for y, line in enumerate(lines):
        for x, ch in enumerate(line.strip()):
            if ch == "#":
                walls.add((x, y))
            elif ch.isupper():
                creatures[ch] = Creature(id=ch, name=ch, anchor=(x, y))
    board = Board(cols=len(lines[0].strip()), rows=len(lines), walls=walls)
    table = TableSettings.model_validate({"grid": GridKind.SQUARE, **settings})
    return GameState(settings=table, board=board, creatures=creatures)


def unseen(rows: str) -> set[Cell]:
    return {
        (x, y) for y, line in enumerate(rows.strip().splitlines()) for x, ch in enumerate(line.strip()) if ch == "x"
    }


def every_space(state: GameState) -> set[Cell]:
    return {(x, y) for y in range(state.board.rows) for x in range(state.board.cols)}


def not_perceived(state: GameState, p: Perception) -> set[Cell]:
    return every_space(state) - p.spaces


def test_a_pillar_hides_the_spaces_straight_behind_it() -> None:
    """Reference §2.6 (obstruction): from A at (1, 2) the line to (4, 2) passes the pillar at (3, 2), and (5, 2),
    (6, 2) come only after (4, 2). (4, 1): the line (1,2)→(4,1) runs (2,2) (3,1) (4,1), clear; (5, 3): its space
    before is (4, 3), reached through (2,2) (3,3): clear. So only the three spaces in a row behind it are hidden."""
    state = draw(
        """
        .......
        .......
        .A.#...
        .......
        .......
        """
    )
    expected = """
        .......
        .......
        ...#xxx
        .......
        .......
        """
    assert not_perceived(state, perceived(state, "A")) == unseen(expected)


def test_a_corner_hides_what_lies_round_it() -> None:
    """Reference §2.6: A at (1, 1), a wall from (3, 2) down to (3, 3) and along to (6, 3). Worked by hand, with the
    space before each on its line: (4, 2) ← (3, 2), a wall: hidden, and (5, 2) ← (4, 2), (6, 2) ← (5, 2) behind it;
    (4, 3) ← (3, 2): hidden; (5, 3) ← (4, 3) or (4, 2) (a tie), both hidden; (5, 4) ← (4, 3), a wall; (4, 4) ←
    (3, 3), a wall; (6, 4) ← (5, 3). But (3, 4) ← (2, 3) ← (2, 2) or (1, 2): seen round the end of the wall,
    and (3, 3) ← (2, 2): the near walls are seen themselves."""
    state = draw(
        """
        .......
        .A.....
        ...#...
        ...####
        .......
        """
    )
    p = perceived(state, "A")
    assert (3, 2) in p.spaces and (3, 3) in p.spaces and (3, 4) in p.spaces
    expected = """
        .......
        .......
        ....xxx
        ....xxx
        ....xxx
        """
    assert not_perceived(state, p) == unseen(expected)


def test_a_large_creature_half_behind_a_wall_is_seen() -> None:
    """Reference §2.6: B is size 3, 2×2 from (4, 1). From A at (0, 1) the wall at (2, 0), (2, 1) hides (4, 1) (its
    line runs (1,1) (2,1)); (4, 2) is reached by (1,1) (2,2) (3,2), clear. One of its spaces is perceived: B is
    seen."""
    state = draw(
        """
        ..#...
        A.#...
        ......
        ......
        """
    )
    state.creatures["B"] = Creature(id="B", name="B", anchor=(4, 1), size=3)
    p = perceived(state, "A")
    assert (4, 1) not in p.spaces
    assert (4, 2) in p.spaces
    assert "B" in p.seen
    assert "B" not in p.heard


def test_darkness_and_a_carried_torch() -> None:
    """Darkness: a dark space is not seen. B's torch (bright 1, dim 2) lights (2..4, y) and dims (1, y) and (5, y)
    around (3, 0); A at (0, 0) sees B in its light. C at (6, 0) stands in the dark, 6 spaces from A: not seen, and
    its moving (Magnitude 2 + size 0 = 2, reference §2.6) reaches -1 + 2 = 1 space: not heard. The table would roll
    Observe at DL 6 - 2 + (6 multiples of the range, the first free: 5) = 9."""
    state = draw(
        """
        A..B..C
        .......
        """,
        ambient_light="dark",
    )
    state.creatures["B"] = state.creatures["B"].model_copy(update={"light": CarriedLight(bright=1, dim=2)})
    p = perceived(state, "A")
    assert "B" in p.seen
    assert "C" not in p.seen and "C" not in p.heard
    assert p.spaces == {(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)}
    (note,) = [n for n in p.awareness if n.creature == "C"]
    assert (note.sense, note.dl) == ("sound", 9)
    assert "DL 9" in note.reason


def test_a_wall_stops_a_carried_light() -> None:
    """The torch's light goes in straight lines: behind the wall at (1, 0) the space (0, 0) stays dark, so A,
    standing there, cannot see itself lit, and B does not see A."""
    state = draw("A#B", ambient_light="dark")
    state.creatures["B"] = state.creatures["B"].model_copy(update={"light": CarriedLight(bright=3, dim=3)})
    p = perceived(state, "B")
    assert (0, 0) not in p.spaces
    assert "A" not in p.seen


def test_the_map_light_layer_and_dark_sight() -> None:
    """A space the map names dark is dark under a lit sky; a creature with dark sight 2 sees into it within 2
    spaces, not farther."""
    state = draw("A.BC")
    state.board.light = {(2, 0): "dark", (3, 0): "dark"}
    assert {"B", "C"}.isdisjoint(perceived(state, "A").seen)
    state.creatures["A"] = state.creatures["A"].model_copy(update={"dark_sight": 2})
    p = perceived(state, "A")
    assert "B" in p.seen
    assert "C" not in p.seen


def test_blinded_sees_nothing_but_hears_a_creature_next_to_it() -> None:
    """Blinded (reference §5.2): every target has Sight Concealment; a Blinded creature sees no space. B, 1 space
    away, moves with a sound of Magnitude 2 reaching 1 space (§2.6): heard, its space known."""
    state = draw("AB.")
    state.creatures["A"] = state.creatures["A"].model_copy(update={"ailments": {"Blinded": 1}})
    p = perceived(state, "A")
    assert p.spaces == frozenset()
    assert "B" not in p.seen
    assert p.heard == {"B": ((1, 0),)}


def test_a_creature_heard_but_not_seen_behind_a_wall() -> None:
    """B is size 2 (two spaces, (2, 0) and (3, 0)) behind the wall at (1, 0). Its moving makes a sound of Magnitude
    2 + 2 = 4, reaching -1 + 4 = 3 spaces (§2.6); it is 2 away: heard, not seen. Deafened 1 puts a roll in its
    place: DL 6 - 4 + 0 (within the range) + 1 (Sound Concealment of Deafened 1) = 3."""
    state = draw("A#...")
    state.creatures["B"] = Creature(id="B", name="B", anchor=(2, 0), size=2)
    p = perceived(state, "A")
    assert "B" not in p.seen
    assert p.heard == {"B": ((2, 0), (3, 0))}
    state.creatures["A"] = state.creatures["A"].model_copy(update={"ailments": {"Deafened": 1}})
    p = perceived(state, "A")
    assert "B" not in p.heard
    (note,) = p.awareness
    assert (note.sense, note.dl) == ("sound", 3)


def test_sight_beyond_its_range_asks_for_a_roll_when_not_automatic() -> None:
    """§2.6 Sight: base DL 0, range 4 for a size 0 subject; at 9 spaces that is two multiples past the first: DL 2.
    With `sight_automatic` on (the default) it is simply seen."""
    state = draw("A........B")
    assert "B" in perceived(state, "A").seen
    state.settings = state.settings.model_copy(update={"sight_automatic": False})
    p = perceived(state, "A")
    assert "B" not in p.seen
    (note,) = [n for n in p.awareness if n.sense == "sight"]
    assert note.dl == 2


def test_creatures_obstruct_when_the_table_says_so() -> None:
    """With `creatures_obstruct` on, B at (1, 0) hides (2, 0) and C there from A."""
    state = draw("ABC.")
    assert "C" in perceived(state, "A").seen
    state.settings = state.settings.model_copy(update={"creatures_obstruct": True})
    p = perceived(state, "A")
    assert "B" in p.seen
    assert (2, 0) not in p.spaces and "C" not in p.seen


def test_a_seat_perceives_what_any_of_its_creatures_does() -> None:
    """A and B stand on either side of a wall: A sees X, B sees Y; the seat sees both, and the union of spaces."""
    state = draw(
        """
        A.X#Y.B
        ...#...
        """
    )
    a, b = perceived(state, "A"), perceived(state, "B")
    assert "Y" not in a.seen and "X" not in b.seen
    seat = seat_perception(state, ["A", "B"])
    assert {"A", "B", "X", "Y"} <= seat.seen
    assert seat.spaces == a.spaces | b.spaces
    assert (4, 0) in seat.spaces and (2, 0) in seat.spaces


def test_remembered_terrain_keeps_what_was_seen() -> None:
    """After A walks round the wall, what it saw before stays remembered; the function does not change its input."""
    state = draw(
        """
        A#...
        .#...
        .....
        """
    )
    first = remember(frozenset(), perceived(state, "A"))
    assert (2, 0) not in first
    state.creatures["A"] = state.creatures["A"].model_copy(update={"anchor": (2, 2)})
    now = perceived(state, "A")
    second = remember(first, now)
    assert first <= second and now.spaces <= second
    assert (2, 0) in second


@pytest.mark.parametrize("grid", ["hex", "square"])
def test_with_no_walls_every_space_of_the_map_is_in_sight(grid: str) -> None:
    """The lines from the viewer reach every space of an open map, on both grids."""
    state = GameState(
        settings=TableSettings(grid=GridKind(grid)),
        board=Board(cols=30, rows=20),
        creatures={"A": Creature(id="A", name="A", anchor=(3, 4))},
    )
    p = perceived(state, "A")
    assert p.spaces == {_cell(grid, c, r) for r in range(20) for c in range(30)}


def _cell(grid: str, col: int, row: int) -> Cell:
    return (col - (row - (row & 1)) // 2, row) if grid == "hex" else (col, row)


def test_a_map_file_light_layer_loads_and_writes_back() -> None:
    """docs/map-format.md: `board.light` is `[q, r, level]` each, checked to lie on the map."""
    state = load_map({"grid": "square", "board": {"cols": 4, "rows": 2, "light": [[1, 0, "dark"], [2, 1, "dim"]]}})
    assert state.board.light == {(1, 0): "dark", (2, 1): "dim"}
    assert load_map(map_json(state)).board.light == state.board.light
    with pytest.raises(MapError, match=r"board\.light\[0\]"):
        load_map({"grid": "square", "board": {"cols": 4, "rows": 2, "light": [[9, 0, "dark"]]}})
    with pytest.raises(MapError, match=r"board\.light"):
        load_map({"grid": "square", "board": {"cols": 4, "rows": 2, "light": [[1, 0, "murky"]]}})


def test_concealment_from_light() -> None:
    """Settings `dim_concealment` (1) and `dark_concealment` (3): B in a dim space has Sight Concealment 1 for A,
    C in a lit one none, D in the dark (not seen) 3."""
    state = draw("BAC.D")
    state.board.light = {(0, 0): "dim", (4, 0): "dark"}
    assert light_concealment(state, "A", "B") == (1, "the target is seen only in dim light")
    assert light_concealment(state, "A", "C") == (0, "the target is seen in light")
    assert light_concealment(state, "A", "D")[0] == 3
