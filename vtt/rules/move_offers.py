"""The menu's moves (seed-000, reference §5.3): standing up, Move and its Collision (plain, or as a Charge after a
Dash), Dash and Drop Prone; and the Recovery and Zeal roll of a full Resolve Pool (seed-004)."""

from __future__ import annotations

from vtt.rules import ailments, board_kept, movement, overpower_offers, prone, turns
from vtt.rules.model import Cell, Creature, Economy, GameState
from vtt.rules.offers import ActionOption, make_option
from vtt.rules.space import Occupancy, footprint_offsets, standable


def stand_up_option(state: GameState, c: Creature, econ: Economy, may_move: bool) -> list[ActionOption]:
    """Standing up from Prone, paid as the table's setting says, when it can be paid."""
    if not c.prone:
        return []
    why_not = prone.why_not_stand_up(state, c)
    cost = state.settings.stand_up_cost
    paid = {"half_movement": may_move, "minor": econ.minor > 0 and not turns.resolve_blocks(state, c.id)}
    paid["major"] = econ.major > 0 and (not turns.resolve_blocks(state, c.id) or econ.major_unlocked)
    if why_not is None and paid[cost]:
        price = {"movement": prone.stand_up_movement(state, c)} if cost == "half_movement" else {cost: 1}
        return [make_option(action="stand_up", group="Move", label="Stand up", cost=price)]
    return []


def move_options(
    state: GameState, occ: Occupancy, c: Creature, econ: Economy, filled: frozenset[Cell], can_attack: bool
) -> list[ActionOption]:
    """Move to each space it can reach and stand in, and a Collision with each creature it could move into."""
    out: list[ActionOption] = []
    paths, spaces = move_reach(state, occ, c, econ.movement_left, filled)
    per_space = {"movement": prone.space_cost(state, c)}
    out.append(make_option(action="move", group="Move", label="Move", cost=per_space, spaces=list(spaces)))
    collide = overpower_offers.collision_targets(state, occ, c, paths, 1)
    if collide and can_attack and not turns.resolve_blocks(state, c.id):
        out.append(
            make_option(
                action="collision",
                command="move",
                group="Overpower",
                label="Collision (move into them)",
                cost={"movement": econ.movement_left},
                targets=collide,
            )
        )
        out += overpower_offers.charged_collisions(state, occ, c, paths)
    return out


def move_reach(
    state: GameState, occ: Occupancy, c: Creature, movement_left: int, filled: frozenset[Cell]
) -> tuple[dict[Cell, list[Cell]], tuple[Cell, ...]]:
    """Every anchor space `c` can reach with `movement_left`, with a cheapest path to each, and those it can end a
    move in; worked out once for a state (kept with its occupancy). The paths are shared: not to be changed."""
    key = ("move_reach", c.id, movement_left, id(filled))
    found: tuple[dict[Cell, list[Cell]], tuple[Cell, ...]] | None = occ.kept.get(key)
    if found is None:
        paths, ends = _paths(state, c, movement_left, filled)
        found = occ.kept[key] = (paths, tuple(standable(state, c, ends, occ, filled)))
    return found


def _paths(
    state: GameState, c: Creature, movement_left: int, filled: frozenset[Cell]
) -> tuple[dict[Cell, list[Cell]], list[Cell]]:
    """`movement.reachable` and the spaces it reaches by a move of one space or more. For a creature of one space
    on even ground that nothing keeps away from a space, they depend on the walls, the map and the spaces its
    Movement takes it alone (the search `terrain.reachable` makes then), so they are kept for the board."""
    board, s = state.board, state.settings
    if (
        type(filled) is frozenset
        and (not board.uneven or s.uneven_move_extra == 0)
        and footprint_offsets(state, c) == ((0, 0),)
        and ailments.approach_check(state, c) is None
    ):
        key = ("move_paths", s.grid, board.cols, board.rows, c.anchor, prone.spaces_for(state, c, movement_left))
        return board_kept.kept(filled, key, lambda: _reached(state, c, movement_left, filled))
    return _reached(state, c, movement_left, filled)


def _reached(
    state: GameState, c: Creature, movement_left: int, filled: frozenset[Cell]
) -> tuple[dict[Cell, list[Cell]], list[Cell]]:
    paths = movement.reachable(state, c, movement_left, filled)
    return paths, [cell for cell, p in paths.items() if p]


def full_resolve_options(econ: Economy) -> list[ActionOption]:
    """seed-004: on a full Resolve Pool, the Zeal roll to act (a Minor Action) and Recovery (a Major Action)."""
    out: list[ActionOption] = []
    if econ.minor > 0 and not econ.major_unlocked:
        out.append(
            make_option(action="zeal_for_major", group="Turn", label="Zeal roll to act (DL 12)", cost={"minor": 1})
        )
    if econ.major > 0:
        out.append(make_option(action="recover", group="Turn", label="Recovery", cost={"major": 1}))
    return out


def dash_and_prone(state: GameState, c: Creature, econ: Economy, full_resolve: bool) -> list[ActionOption]:
    """Dash (a Minor Action, once a turn) and Drop Prone (reference §5.3: No Action, at any time; here on its
    turn)."""
    out: list[ActionOption] = []
    if econ.minor > 0 and not econ.dashed and state.settings.dash_adds_pool and not full_resolve:
        out.append(make_option(action="dash", group="Move", label="Dash", cost={"minor": 1}))
    if not c.prone and not full_resolve:
        out.append(make_option(action="drop_prone", group="Move", label="Drop Prone", cost={}))
    return out
