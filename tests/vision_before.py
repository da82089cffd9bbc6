"""Vision as it was worked out before the compact walk (vtt/rules/vision.py at 7ffb263): the oracle that
tests/test_vision_same.py compares today's `perceived` with. Only what `perceived` reads is kept; it is not used by
the application."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from vtt.rules.grid import Grid, GridKind, footprint_distance
from vtt.rules.model import Cell, Creature, GameState, LightLevel
from vtt.rules.space import Occupancy, grid_for
from vtt.rules.vision import (
    LEVEL_RANK,
    MOVING_SOUND_MAGNITUDE,
    SCENT_MAGNITUDE,
    SIGHT_DL,
    SIGHT_RANGE,
    SMELL_DL,
    SMELL_RANGE,
    SOUND_DL,
    SOUND_RANGE,
    Awareness,
    Perception,
)

_RADIUS_STEP = 16


@lru_cache(maxsize=32)
def _ray_tree(kind: GridKind, radius: int) -> tuple[tuple[Cell, ...], dict[Cell, tuple[Cell, ...]]]:
    """Every offset within `radius` of (0, 0), nearest first, and the offsets that come right after each on a grid
    line from (0, 0) (each offset follows the space before it on its lines, both ways of a tie)."""
    grid = grid_for(kind)
    origin = (0, 0)
    order = sorted(grid.within(origin, radius), key=lambda c: grid.distance(origin, c))
    children: dict[Cell, list[Cell]] = {}
    for cell in order[1:]:
        for before in grid.before_end(origin, cell):
            children.setdefault(before, []).append(cell)
    return tuple(order), {k: tuple(v) for k, v in children.items()}


def _reach(grid: Grid, cols: int, rows: int) -> int:
    """The farthest distance between two spaces of the map, rounded up so that maps of near sizes share a tree."""
    corners = [grid.from_offset(c, r) for c in (0, cols - 1) for r in (0, rows - 1)]
    far = max(grid.distance(a, b) for a in corners for b in corners)
    return max(_RADIUS_STEP, math.ceil(far / _RADIUS_STEP) * _RADIUS_STEP)


@dataclass(frozen=True)
class _Layout:
    """A map's spaces numbered for the walk: space (q, r) is `(r + pad) * stride + q + pad`, with room around the
    map for every ray of the tree; `inside` marks the map's own spaces and `cells` names each number's space."""

    pad: int
    stride: int
    inside: bytes
    cells: tuple[Cell | None, ...]
    deltas: tuple[int, ...]
    children: tuple[tuple[int, ...], ...]

    def index(self, cell: Cell) -> int:
        return (cell[1] + self.pad) * self.stride + cell[0] + self.pad


@lru_cache(maxsize=8)
def _layout(kind: GridKind, cols: int, rows: int, radius: int) -> _Layout:
    grid = grid_for(kind)
    order, kids = _ray_tree(kind, radius)
    pad = radius + rows + 1
    stride = cols + rows + 2 * pad + 1
    size = stride * (rows + 2 * pad + 1)
    inside = bytearray(size)
    cells: list[Cell | None] = [None] * size
    for row in range(rows):
        for col in range(cols):
            q, r = grid.from_offset(col, row)
            i = (r + pad) * stride + q + pad
            inside[i] = 1
            cells[i] = (q, r)
    node = {offset: n for n, offset in enumerate(order)}
    deltas = tuple(dr * stride + dq for dq, dr in order)
    children = tuple(tuple(node[c] for c in kids.get(offset, ())) for offset in order)
    return _Layout(pad, stride, bytes(inside), tuple(cells), deltas, children)


@lru_cache(maxsize=4096)
def _line_of_sight(
    kind: GridKind, origin: Cell, cols: int, rows: int, blocking: frozenset[Cell], radius: int
) -> frozenset[Cell]:
    layout = _layout(kind, cols, rows, radius if radius else _reach(grid_for(kind), cols, rows))
    inside, deltas, children = layout.inside, layout.deltas, layout.children
    block = bytearray(len(inside))
    for cell in blocking:
        i = layout.index(cell)
        if 0 <= i < len(block):
            block[i] = 1
    seen = bytearray(len(inside))
    base = layout.index(origin)
    seen[base] = 1
    out = [base]
    stack = list(children[0])
    pop, extend, add = stack.pop, stack.extend, out.append
    while stack:
        node = pop()
        i = base + deltas[node]
        if seen[i] or not inside[i]:
            continue  # a line that leaves the rectangular map does not come back onto it
        seen[i] = 1
        add(i)
        if not block[i]:
            extend(children[node])
    cells = layout.cells
    return frozenset(spot for i in out if (spot := cells[i]) is not None)  # a viewer off the map: not its space


def line_of_sight(
    state: GameState, cells: Iterable[Cell], blocking: frozenset[Cell] | None = None, radius: int = 0
) -> frozenset[Cell]:
    """The spaces in line of sight of any of `cells` (walls and objects block, or `blocking`), within `radius`
    (0: the whole map)."""
    board = state.board
    block = board.filled() if blocking is None else blocking
    kind = state.settings.grid
    out: set[Cell] = set()
    for cell in cells:
        out |= _line_of_sight(kind, cell, board.cols, board.rows, block, radius)
    return frozenset(out)


def carried_light(state: GameState) -> dict[Cell, LightLevel]:
    """The spaces creatures' carried lights reach, with the level each gives."""
    grid = grid_for(state.settings.grid)
    occ = Occupancy(state)
    out: dict[Cell, LightLevel] = {}
    for cid, c in state.creatures.items():
        lamp = c.light
        if lamp is None or c.swallowed_by is not None or max(lamp.bright, lamp.dim) == 0:
            continue
        cells = occ.cells[cid]
        radius = max(lamp.bright, lamp.dim)
        for cell in line_of_sight(state, cells, radius=radius):
            d = footprint_distance(grid, cells, (cell,))
            if d <= lamp.bright:
                out[cell] = "lit"
            elif d <= lamp.dim and out.get(cell) != "lit":
                out[cell] = "dim"
    return out


def light_at(state: GameState, cell: Cell, carried: Mapping[Cell, LightLevel] | None = None) -> LightLevel:
    """The light of one space: the map's, or the ambient light, or a carried light's where that is brighter."""
    base = state.board.light.get(cell, state.settings.ambient_light)
    lamp = (carried_light(state) if carried is None else carried).get(cell)
    if lamp is not None and LEVEL_RANK[lamp] > LEVEL_RANK[base]:
        return lamp
    return base


def _blocking(state: GameState, occ: Occupancy, viewer: str) -> frozenset[Cell]:
    filled = state.board.filled()
    if not state.settings.creatures_obstruct:
        return filled
    own = set(occ.cells[viewer])
    others = {cell for cid, cells in occ.everyone().items() if cid != viewer for cell in cells}
    return filled | frozenset(others - own)


def _perceived_spaces(
    state: GameState, viewer: Creature, cells: tuple[Cell, ...], occ: Occupancy, carried: Mapping[Cell, LightLevel]
) -> frozenset[Cell]:
    los = line_of_sight(state, cells, _blocking(state, occ, viewer.id))
    settings, board_light = state.settings, state.board.light
    if settings.ambient_light != "dark" and not any(v == "dark" for v in board_light.values()):
        return los
    grid = grid_for(settings.grid)
    ambient = settings.ambient_light
    reach = viewer.dark_sight
    return frozenset(
        cell
        for cell in los
        if board_light.get(cell, ambient) != "dark"
        or cell in carried
        or (reach and footprint_distance(grid, cells, (cell,)) <= reach)
    )


def _multiples(distance: int, reach: int) -> int:
    """+1 DL for every multiple of the range beyond the first (§2.6)."""
    return max(0, math.ceil(distance / reach) - 1) if distance > 0 else 0


def _judge(
    state: GameState,
    viewer: Creature,
    cid: str,
    distance: int,
    visible: list[Cell],
    lamps: Mapping[Cell, LightLevel],
    ailments: bool = True,
) -> tuple[Literal["seen", "heard"] | None, str, list[Awareness]]:
    """How `viewer` perceives creature `cid`, `distance` away, of whose spaces it perceives `visible`: seen, known
    by its space only ("heard": by sound or smell), or not at all; why; and the Observe rolls the table would make
    for it. The one judgement `perceived` and `perceives` share."""
    settings = state.settings
    size = state.creatures[cid].size
    notes: list[Awareness] = []
    if visible:
        sight_range = max(1, SIGHT_RANGE + size)
        if settings.sight_automatic or distance <= sight_range:
            return "seen", "in line of sight and light", notes
        lit = [light_at(state, cell, lamps) for cell in visible]
        dim = settings.dim_concealment if "lit" not in lit and "dim" in lit else 0
        dl = SIGHT_DL - size + _multiples(distance, sight_range) + dim
        notes.append(Awareness(cid, "sight", dl, distance, sight_range, dim=dim))
    deafened = viewer.ailments.get("Deafened", 0) if ailments else 0
    magnitude = MOVING_SOUND_MAGNITUDE + size
    sound_range = max(1, SOUND_RANGE + magnitude)
    if settings.hearing_automatic and not deafened and distance <= sound_range:
        return "heard", f"heard moving (a sound of Magnitude {magnitude}, heard {sound_range} spaces away)", notes
    dl = SOUND_DL - magnitude + _multiples(distance, sound_range) + deafened
    notes.append(Awareness(cid, "sound", dl, distance, sound_range, magnitude, deafened))
    scent = SCENT_MAGNITUDE + size
    smell_range = max(1, SMELL_RANGE + scent)
    if distance <= smell_range:
        anosmatic = viewer.ailments.get("Anosmatic", 0) if ailments else 0
        if settings.smell_automatic and not anosmatic:
            return "heard", f"smelled (a scent of Magnitude {scent}, smelled {smell_range} spaces away)", notes
        dl = SMELL_DL - scent + anosmatic
        notes.append(Awareness(cid, "smell", dl, distance, smell_range, scent, anosmatic=anosmatic))
    return None, "", notes


def perceived(
    state: GameState,
    creature_id: str,
    carried: Mapping[Cell, LightLevel] | None = None,
    occ: Occupancy | None = None,
    spaces: frozenset[Cell] | None = None,
    only: AbstractSet[str] | None = None,
) -> Perception:
    """What `creature_id` perceives now (see the module's docstring). `carried` (`carried_light(state)`) and `occ`
    may be worked out once by a caller asking for many creatures of one state. `spaces`: the spaces it perceives,
    when the caller knows them (nothing they depend on changed); `only`: the other creatures to look at (the rest
    are left out of the answer)."""
    viewer = state.creatures[creature_id]
    if viewer.swallowed_by is not None:
        return Perception()
    occ = Occupancy(state) if occ is None else occ
    lamps = carried_light(state) if carried is None else carried
    cells = occ.cells[creature_id]
    settings = state.settings
    grid = grid_for(settings.grid)
    blinded = viewer.ailments.get("Blinded", 0)
    if spaces is None:
        spaces = frozenset() if blinded else _perceived_spaces(state, viewer, cells, occ, lamps)
    creatures = state.creatures
    others = (
        occ.everyone().items()
        if only is None
        else [(cid, occ.cells[cid]) for cid in only if cid in creatures and creatures[cid].swallowed_by is None]
    )
    seen: set[str] = {creature_id}
    heard: dict[str, tuple[Cell, ...]] = {}
    notes: list[Awareness] = []
    reasons: dict[str, str] = {creature_id: "itself"}
    for cid, theirs in others:
        if cid == creature_id:
            continue
        distance = footprint_distance(grid, cells, theirs)
        visible = [cell for cell in theirs if cell in spaces] if spaces else []
        how, why, found = _judge(state, viewer, cid, distance, visible, lamps)
        notes += found
        if how == "seen":
            seen.add(cid)
        elif how == "heard":
            heard[cid] = theirs
        if how is not None:
            reasons[cid] = why
    return Perception(spaces=spaces, seen=frozenset(seen), heard=heard, awareness=tuple(notes), reasons=reasons)
