"""The menu's moves (seed-000, reference §5.3): standing up, Move and its Collision (plain, or as a Charge after a
Dash), Dash and Drop Prone; and the Recovery and Zeal roll of a full Resolve Pool (seed-004)."""

from __future__ import annotations

from vtt.rules import ailments, board_kept, movement, overpower_offers, prone, turns
from vtt.rules.model import Cell, Creature, Economy, GameState
from vtt.rules.move_search import Moves, from_paths, search_one_space
from vtt.rules.offers import MAJOR, MINOR, ActionOption, make_option
from vtt.rules.space import Occupancy, fill, footprint_offsets, grid_of, standable


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
) -> tuple[Moves, tuple[Cell, ...]]:
    """Every anchor space `c` can reach with `movement_left`, with a cheapest path to each, and those it can end a
    move in; worked out once for a state (kept with its occupancy). Shared: not to be changed."""
    key = ("move_reach", c.id, movement_left, id(filled))
    found: tuple[Moves, tuple[Cell, ...]] | None = occ.kept.get(key)
    if found is None:
        moves, open_ground = _paths(state, c, movement_left, filled)
        if open_ground:
            found = (moves, tuple(_room(state, c, moves.order[1:], occ)))
        else:
            found = (moves, tuple(standable(state, c, moves.order[1:], occ, filled)))
        occ.kept[key] = found
    return found


def _paths(state: GameState, c: Creature, movement_left: int, filled: frozenset[Cell]) -> tuple[Moves, bool]:
    """`movement.reachable` as `Moves`, and whether the creature is of one space (then every space it reaches is on
    the map, with no wall or object). For a creature of one space on even ground that nothing keeps away from a
    space, they depend on the walls, the map and the spaces its Movement takes it alone (the search
    `move_search.search_one_space` makes then), so they are kept for the board."""
    board, s = state.board, state.settings
    one_space = footprint_offsets(state, c) == ((0, 0),)
    if (
        type(filled) is frozenset
        and (not board.uneven or s.uneven_move_extra == 0)
        and one_space
        and ailments.approach_check(state, c) is None
    ):
        levels = prone.spaces_for(state, c, movement_left)
        key = ("move_paths", s.grid, board.cols, board.rows, c.anchor, levels)
        grid = grid_of(state)
        moves = board_kept.kept(
            filled, key, lambda: search_one_space(grid, c.anchor, levels, filled, board.cols, board.rows)
        )
        return moves, True
    return from_paths(movement.reachable(state, c, movement_left, filled)), one_space


def _room(state: GameState, c: Creature, cells: list[Cell], occ: Occupancy) -> list[Cell]:
    """`standable` of a creature of one space over spaces on the map with no wall or object: those with room for it
    beside the creatures there."""
    by_cell = occ.by_cell
    creatures = state.creatures
    me = c.id
    capacity = state.settings.space_capacity + 1e-9
    mine = fill(c)
    full = {
        cell
        for cell in by_cell.keys() & cells  # the few spaces with a creature in them
        if mine + sum(fill(creatures[o]) for o in by_cell[cell] if o != me) > capacity
    }
    if not full:
        return cells
    out = cells.copy()
    for cell in full:
        out.remove(cell)
    return out


def full_resolve_options(econ: Economy) -> list[ActionOption]:
    """seed-004: on a full Resolve Pool, the Zeal roll to act (a Minor Action) and Recovery (a Major Action)."""
    out: list[ActionOption] = []
    if econ.minor > 0 and not econ.major_unlocked:
        out.append(make_option(action="zeal_for_major", group="Turn", label="Zeal roll to act (DL 12)", cost=MINOR))
    if econ.major > 0:
        out.append(make_option(action="recover", group="Turn", label="Recovery", cost=MAJOR))
    return out


def dash_and_prone(state: GameState, c: Creature, econ: Economy, full_resolve: bool) -> list[ActionOption]:
    """Dash (a Minor Action, once a turn) and Drop Prone (reference §5.3: No Action, at any time; here on its
    turn)."""
    out: list[ActionOption] = []
    if econ.minor > 0 and not econ.dashed and state.settings.dash_adds_pool and not full_resolve:
        out.append(make_option(action="dash", group="Move", label="Dash", cost=MINOR))
    if not c.prone and not full_resolve:
        out.append(make_option(action="drop_prone", group="Move", label="Drop Prone"))
    return out
