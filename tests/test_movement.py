"""Hand-worked tests of moving on the board (reference §2.5 "Movement", §2.2 "Size", seed-000 Collision's "As you
move into an occupied space").

Hex grid, axial (q, r): the neighbours of (5, 5) are (6, 5), (6, 4), (5, 4), (4, 5), (4, 6), (5, 6). A size s
creature fills 2^(s-1) of a space (reference §2.2 DERIVED): two size 0 creatures share a space, a size 1 creature
fills it; a space holds the table's `space_capacity` (1).
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, refused, run, state

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState


def move(to: tuple[int, int], path: list[tuple[int, int]] | None = None, who: str = "m") -> dict[str, Any]:
    cmd: dict[str, Any] = {"type": "move", "creature": who, "to": to}
    if path is not None:
        cmd["path"] = path
    return cmd


def board(m_size: int = 0, o_size: int = 0, o_anchor: tuple[int, int] = (6, 5), **kw: Any) -> GameState:
    """Mover `m` at (5, 5) and another creature `o`, on the Soulweaver's turn."""
    return on_turn(state(creature("m", (5, 5), size=m_size), creature("o", o_anchor, size=o_size), **kw), "m")


def test_a_move_along_a_path_spends_1_movement_per_space() -> None:
    """reference §2.5: "Moving 1 space costs 1 Movement with a Primary movement type." m walks (5, 4), (5, 3),
    (6, 2): 3 spaces, 3 of its 5 Movement; the move event lists the path."""
    path = [(5, 4), (5, 3), (6, 2)]
    s, events = run(board(), move((6, 2), path), [])
    assert s.creatures["m"].anchor == (6, 2)
    assert s.economy["m"].movement_spent == 3
    assert only(events, "move").data["path"] == path


def test_a_move_without_a_path_takes_the_shortest_one() -> None:
    """reference §2.5: each space moved costs 1 Movement. (5, 5) to (8, 5) is 3 spaces: 3 Movement."""
    s, _ = run(board(o_anchor=(9, 9)), move((8, 5)), [])
    assert s.economy["m"].movement_spent == 3


def test_moving_around_a_wall_costs_the_longer_path() -> None:
    """reference §2.5 (a wall cannot be entered): (5, 5) to (7, 5) is 2 spaces, but a wall fills (6, 5); the
    shortest way around, e.g. (5, 6), (6, 6), (7, 5), is 3 spaces: 3 Movement."""
    s, _ = run(board(o_anchor=(9, 9), walls={(6, 5)}), move((7, 5)), [])
    assert s.creatures["m"].anchor == (7, 5)
    assert s.economy["m"].movement_spent == 3


def test_a_path_through_a_wall_is_refused() -> None:
    """reference §2.5 / §2.6: a wall fills its space; the path (6, 5), (7, 5) passes the wall at (6, 5)."""
    refused(board(o_anchor=(9, 9), walls={(6, 5)}), move((7, 5), [(6, 5), (7, 5)]))


def test_a_path_that_jumps_is_refused() -> None:
    """reference §2.5: "Moving 1 space costs 1 Movement"; a path is made of single steps. (5, 5) to (7, 5) in one
    step skips (6, 5)."""
    refused(board(o_anchor=(9, 9)), move((7, 5), [(7, 5)]))


def test_a_move_past_the_movement_pool_is_refused() -> None:
    """reference §2.5 ASSUMPTION: "Movement Pool = 5 spaces per turn". (5, 5) to (11, 5) is 6 spaces."""
    refused(board(o_anchor=(9, 9)), move((11, 5)))


def test_a_creature_may_move_through_an_occupied_space() -> None:
    """seed-000 Collision: "As you move into an occupied space" (entering one is allowed; reference §2.5 "Entering
    an occupied space is allowed"). Size 1 m passes size 1 o at (6, 5) on its way to (7, 5): 2 Movement."""
    s, _ = run(board(m_size=1, o_size=1), move((7, 5), [(6, 5), (7, 5)]), [])
    assert s.creatures["m"].anchor == (7, 5)
    assert s.economy["m"].movement_spent == 2


def test_a_move_cannot_end_where_the_creature_does_not_fit() -> None:
    """reference §2.2: size 1 fills a whole space and size 0 half of one. Size 1 m cannot stop in (6, 5), which
    size 0 o already half fills (1 + 1/2 > 1)."""
    refused(board(m_size=1), move((6, 5)))


def test_two_size_0_creatures_may_share_a_space() -> None:
    """reference §2.2: "0 (human baseline) | 1/2 | 1 hex; two can share it while Crowded". Size 0 m stops in the
    space of size 0 o."""
    s, _ = run(board(), move((6, 5)), [])
    assert s.creatures["m"].anchor == (6, 5)


def test_a_move_off_the_map_is_refused() -> None:
    """reference §2.1: play is on a map of spaces; (5, 5) on a 6 x 6 map has column 7, off its east edge."""
    s = on_turn(state(creature("m", (2, 5)), creature("o", (0, 0)), cols=6, rows=6), "m")
    refused(s, move((5, 5)))


def test_the_soulweaver_places_a_creature_without_spending_movement() -> None:
    """reference §2.5: Movement is spent by moving; the Soulweaver's free placement is not a move. m is placed at
    (9, 9): no Movement is spent."""
    s, events = run(board(), {"type": "place", "creature": "m", "to": (9, 9)}, [])
    assert s.creatures["m"].anchor == (9, 9)
    assert s.economy["m"].movement_spent == 0
    assert only(events, "place").data["to"] == (9, 9)


def test_legal_move_spaces_leave_out_spaces_where_the_creature_does_not_fit() -> None:
    """reference §2.2: a size 1 creature fills its space. Size 1 m is offered (7, 5) (through o) but not o's
    space (6, 5) nor the wall at (5, 4)."""
    s = board(m_size=1, walls={(5, 4)})
    (option,) = [o for o in legal_actions(s, "m") if o.action == "move"]
    assert (7, 5) in option.spaces
    assert (6, 5) not in option.spaces
    assert (5, 4) not in option.spaces
