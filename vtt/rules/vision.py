"""What a creature perceives: the spaces it sees, the creatures it sees, and those it only hears (reference §2.6).

Light. Every space has a light level, lit, dim or dark: the map's light layer (`Board.light`) names single
spaces; the rest have the table's `ambient_light` (lit by default). A creature carrying a light (`Creature.light`)
lights the spaces within its `bright` radius and makes those within its `dim` radius at least dim, where a straight
line from one of its spaces reaches them (walls and objects stop light; creatures do not). A space has the
brightest level any of these gives it.

Line of sight. The viewer's own spaces are in its line of sight; another space is when the space right before it
on a grid line from one of the viewer's spaces (`Grid.before_end`: either, where the line runs along a tie) is in
line of sight and is not filled by a wall or object (nor, with `creatures_obstruct`, by another creature). So
walls and creatures in sight are seen themselves, the spaces behind them are not, and sight is traced outward
one step at a time along the grid's own lines: a few milliseconds for a 100x100 map, cached per viewer's space
and map. A line that leaves the map does not come back onto it. This follows the obstruction test's lines
(`obstruction.exposure`) step by step rather than checking each whole line anew, so the two may disagree on a
far space seen past the edge of a wall.

Perception. A creature perceives the spaces in line of sight that are not dark, and the dark ones within its
`dark_sight`. Blinded (any Tier) sees nothing (§5.2: every target has Sight Concealment; ASSUMPTION: a Blinded
creature sees no space at all); a swallowed creature is off the board and perceives nothing of it.
- Seen: a creature any of whose spaces is perceived. With `sight_automatic` off, one beyond Sight's range (base 4,
  extended by its size, §2.6) is seen only on an Observe roll; the note says its DL. Concealment on Awareness
  (ASSUMPTION, as on attacks, reference gap 9): one seen only in dim light has the Sight Concealment
  `dim_concealment`, added to that DL (a Blinded viewer sees no space at all).
- Heard: a creature not seen whose movement the viewer can hear. §2.6: moving makes a sound of Magnitude 2 + size;
  Sound has base DL 6 and base range -1; Magnitude extends the range and lowers the DL (size counts once, inside
  the Magnitude), and every further multiple of the range adds +1 DL. So its sound reaches 1 + size spaces (at
  least 1) at DL 4 - size. Within that range, with `hearing_automatic` on and the viewer not Deafened, it is heard:
  its spaces are known, nothing more. Otherwise the note gives the Observe DL the table would roll (Deafened adds
  its Tier, as the Sound Concealment it gives, §5.2). Walls do not stop sound (GAP: the rules give walls no
  Magnitude).
- Smelled: a creature neither seen nor heard whose scent the viewer can smell. §2.6: Smell has base DL 9 and base
  range -1; the rules give a scent no Magnitude (ASSUMPTION `SCENT_MAGNITUDE`: its size), so it reaches size - 1
  spaces (at least 1) at DL 9 - size. Within that range, with `smell_automatic` on and the viewer not Anosmatic, it
  is known by its spaces like a heard one (in `heard`); otherwise the note gives the Observe DL (Anosmatic adds its
  Tier). A moving creature's sound always reaches as far at a lower DL, so smell finds what a Deafened viewer (or
  a table rolling for hearing) misses; beyond its range no smell note is made (its DL passes 9, above sound's).

`perceives` answers the same for one viewer and one creature, tracing lines of sight only as far as it is;
`light_concealment` gives the Sight Concealment an attack on it takes (`senses`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from typing import Literal

from vtt.rules.grid import Grid, GridKind, footprint_distance
from vtt.rules.model import Cell, Creature, GameState, LightLevel
from vtt.rules.space import Occupancy, grid_for

LEVEL_RANK: dict[LightLevel, int] = {"dark": 0, "dim": 1, "lit": 2}
SIGHT_DL = 0
SIGHT_RANGE = 4
SOUND_DL = 6
SOUND_RANGE = -1
SMELL_DL = 9
SMELL_RANGE = -1
SCENT_MAGNITUDE = 0
"""GAP: the rules give a creature's scent no Magnitude. ASSUMPTION: its size alone (§2.6: the subject's size
lowers the DL and extends the range), counted once, so a size 0 creature is smelled 1 space away at DL 9."""
MOVING_SOUND_MAGNITUDE = 2
"""§2.6: moving makes a sound of Magnitude 2 + the mover's size."""

VisionSense = Literal["sight", "sound", "smell"]


@dataclass(frozen=True)
class Awareness:
    """A creature the viewer does not perceive automatically, and the Observe roll the table would make for it."""

    creature: str
    sense: VisionSense
    dl: int
    distance: int
    reach: int
    """The sense's range for this creature (Sight's, its moving sound's, or its scent's)."""
    magnitude: int = 0
    """Its moving sound's Magnitude (sound), or its scent's (smell)."""
    deafened: int = 0
    anosmatic: int = 0
    dim: int = 0
    """Sight Concealment from dim light, added to the DL (sight only)."""

    @property
    def reason(self) -> str:
        if self.sense == "sight":
            dim = f", and seen only in dim light, its Sight Concealment {self.dim} adds {self.dim}" if self.dim else ""
            return (
                f"in sight {self.distance} spaces away, beyond Sight's range of {self.reach} for its size{dim}: "
                f"an Observe roll at DL {self.dl}"
            )
        if self.sense == "smell":
            nose = f", and Anosmatic {self.anosmatic} adds {self.anosmatic}" if self.anosmatic else ""
            return (
                f"its scent has Magnitude {self.magnitude}, smelled {self.reach} spaces away; it is {self.distance} "
                f"away{nose}: an Observe roll at DL {self.dl}"
            )
        deaf = f", and Deafened {self.deafened} adds {self.deafened}" if self.deafened else ""
        return (
            f"its moving makes a sound of Magnitude {self.magnitude}, heard {self.reach} spaces away; it is "
            f"{self.distance} away{deaf}: an Observe roll at DL {self.dl}"
        )


@dataclass(frozen=True)
class Perception:
    """What one creature (or one seat's creatures together) perceives."""

    spaces: frozenset[Cell] = frozenset()
    seen: frozenset[str] = frozenset()
    heard: Mapping[str, tuple[Cell, ...]] = field(default_factory=dict)
    """Creatures only heard: their spaces are known, nothing more."""
    awareness: tuple[Awareness, ...] = ()
    reasons: Mapping[str, str] = field(default_factory=dict)
    """Why each seen or heard creature is perceived."""


# ---- rays ------------------------------------------------------------------------------------------------------

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


_MARGIN = 2
"""Spaces of the numbered box around the map: a step off the map lands on one of them, and so does the next step of
a viewer standing right beside the map; a line stops at the first space off the map."""

_OPEN, _OFF_MAP, _FILLED, _SEEN = 0, 1, 2, 3
"""What the walk knows of a numbered space: on the map and open, off the map, on the map and filled (seen itself,
hiding what lies behind), or already in line of sight. Odd: the walk does not go there (again)."""

_SEEN_ONLY = bytes(1 if mark == _SEEN else 0 for mark in range(256))
"""A `bytes.translate` table keeping the spaces in line of sight (1) and dropping the rest (0)."""


@dataclass(frozen=True)
class _Layout:
    """A map's spaces numbered for the walk: space (q, r) is `(r - top) * stride + q - left`, over the map's box
    with `_MARGIN` spaces round it; `marks` is `_OPEN` on the map and `_OFF_MAP` round it, `cells` names each
    number's space; `deltas` and `children` are the ray tree's, in those numbers."""

    top: int
    left: int
    stride: int
    height: int
    marks: bytes
    cells: tuple[Cell, ...]
    deltas: tuple[int, ...]
    children: tuple[tuple[int, ...], ...]

    def index(self, cell: Cell) -> int | None:
        """The number of `cell`, or None when it lies farther from the map than the box reaches."""
        col, row = cell[0] - self.left, cell[1] - self.top
        if 0 <= col < self.stride and 0 <= row < self.height:
            return row * self.stride + col
        return None

    def beside(self, cell: Cell) -> bool:
        """Whether `cell` is within a space of the map's box (a viewer there may see onto the map)."""
        col, row = cell[0] - self.left, cell[1] - self.top
        return 0 < col < self.stride - 1 and 0 < row < self.height - 1


@lru_cache(maxsize=8)
def _layout(kind: GridKind, cols: int, rows: int, radius: int) -> _Layout:
    grid = grid_for(kind)
    order, kids = _ray_tree(kind, radius)
    spaces = [grid.from_offset(col, row) for row in range(rows) for col in range(cols)]
    qs = [q for q, _ in spaces] or [0]
    left, top = min(qs) - _MARGIN, -_MARGIN
    stride = max(qs) + _MARGIN + 1 - left
    height = rows + 2 * _MARGIN
    marks = bytearray([_OFF_MAP]) * (stride * height)
    for q, r in spaces:
        marks[(r - top) * stride + q - left] = _OPEN
    cells = tuple((left + i % stride, top + i // stride) for i in range(stride * height))
    node = {offset: n for n, offset in enumerate(order)}
    deltas = tuple(dr * stride + dq for dq, dr in order)
    children = tuple(tuple(node[c] for c in kids.get(offset, ())) for offset in order)
    return _Layout(top, left, stride, height, bytes(marks), cells, deltas, children)


def _walk(layout: _Layout, marks: bytearray, origin: int, on_map: bool) -> None:
    """Mark `_SEEN` every space in line of sight of the space numbered `origin`, ring by ring outward (a space is in
    sight when the space before it on one of its lines is, and is open). `on_map`: the origin is a space of the map
    (one beside it sees onto the map, not itself)."""
    deltas, children = layout.deltas, layout.children
    if on_map:
        marks[origin] = _SEEN
    ring: Sequence[int] = children[0]
    while ring:
        after: list[int] = []
        for node in ring:
            i = origin + deltas[node]
            mark = marks[i]
            if mark & 1:
                continue  # off the map (a line that leaves it does not come back) or seen already
            marks[i] = _SEEN
            if mark == _OPEN:
                after += children[node]
        ring = after


@lru_cache(maxsize=4096)
def _line_of_sight(
    kind: GridKind, origins: tuple[Cell, ...], cols: int, rows: int, blocking: frozenset[Cell], radius: int
) -> frozenset[Cell]:
    layout = _layout(kind, cols, rows, radius if radius else _reach(grid_for(kind), cols, rows))
    filled = bytearray(layout.marks)
    for cell in blocking:
        i = layout.index(cell)
        if i is not None and filled[i] == _OPEN:
            filled[i] = _FILLED
    seen = 0
    for origin in origins:
        if not layout.beside(origin):
            continue  # two spaces or more off the map: every line leaves the map at once
        i = layout.index(origin)
        assert i is not None
        marks = bytearray(filled)
        _walk(layout, marks, i, layout.marks[i] == _OPEN)
        seen |= int.from_bytes(marks.translate(_SEEN_ONLY), "little")
    return frozenset(compress(layout.cells, seen.to_bytes(len(filled), "little")))


def line_of_sight(
    state: GameState, cells: Iterable[Cell], blocking: frozenset[Cell] | None = None, radius: int = 0
) -> frozenset[Cell]:
    """The spaces in line of sight of any of `cells` (walls and objects block, or `blocking`), within `radius`
    (0: the whole map)."""
    board = state.board
    block = board.filled() if blocking is None else blocking
    return _line_of_sight(state.settings.grid, tuple(cells), board.cols, board.rows, block, radius)


def clear_sight_cache() -> None:
    """Forget every cached line of sight (for benchmarks)."""
    _line_of_sight.cache_clear()


# ---- light -----------------------------------------------------------------------------------------------------


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


# ---- perception ------------------------------------------------------------------------------------------------


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


def _radius(distance: int) -> int:
    """A radius of line of sight that reaches `distance`, rounded up so that few radii share the cache."""
    return max(_RADIUS_STEP, math.ceil(distance / _RADIUS_STEP) * _RADIUS_STEP)


def _visible_of(
    state: GameState, viewer: Creature, mine: tuple[Cell, ...], theirs: tuple[Cell, ...], occ: Occupancy
) -> tuple[list[Cell], Mapping[Cell, LightLevel]]:
    """Of `theirs`, the spaces `viewer` (at `mine`, not Blinded) perceives, as `perceived` would find them but
    tracing lines of sight only as far as they are; and the carried light, when it had to be worked out."""
    grid = grid_for(state.settings.grid)
    settings, board_light = state.settings, state.board.light
    adjacent = [cell for cell in theirs if footprint_distance(grid, mine, (cell,)) <= 1]
    if adjacent and board_light.get(adjacent[0], settings.ambient_light) == "lit":
        return [adjacent[0]], {}  # a space next to the viewer is always in its line of sight
    far = max(footprint_distance(grid, mine, (cell,)) for cell in theirs)
    los = line_of_sight(state, mine, _blocking(state, occ, viewer.id), radius=_radius(far))
    in_sight = [cell for cell in theirs if cell in los]
    if not in_sight:
        return [], {}
    lamps = carried_light(state)
    reach = viewer.dark_sight
    visible = [
        cell
        for cell in in_sight
        if board_light.get(cell, settings.ambient_light) != "dark"
        or cell in lamps
        or (reach and footprint_distance(grid, mine, (cell,)) <= reach)
    ]
    return visible, lamps


def perceives(
    state: GameState, viewer_id: str, target_id: str, ailments: bool = True
) -> Literal["seen", "heard"] | None:
    """Whether `viewer_id` perceives `target_id` now, as `perceived` would say (seen, or known by its space only:
    heard or smelled), worked out for that one creature. `ailments` False: the viewer's Blinded, Deafened and
    Anosmatic are left out (for the rules that count them as Concealment on a roll instead, `senses`)."""
    if viewer_id == target_id:
        return "seen"
    viewer = state.creatures[viewer_id]
    target = state.creatures[target_id]
    if viewer.swallowed_by is not None or target.swallowed_by is not None:
        return None
    occ = Occupancy(state)
    mine, theirs = occ.cells[viewer_id], occ.cells[target_id]
    distance = footprint_distance(grid_for(state.settings.grid), mine, theirs)
    visible: list[Cell] = []
    lamps: Mapping[Cell, LightLevel] = {}
    if not (ailments and viewer.ailments.get("Blinded", 0)):
        visible, lamps = _visible_of(state, viewer, mine, theirs, occ)
    if visible and not state.settings.sight_automatic and not lamps:
        lamps = carried_light(state)
    return _judge(state, viewer, target_id, distance, visible, lamps, ailments)[0]


def seat_perception(state: GameState, creature_ids: Iterable[str]) -> Perception:
    """What a seat's creatures perceive together: every space and creature any of them perceives; a creature one
    sees and another only hears is seen; of the Observe rolls for the rest, the lowest DL per sense."""
    lamps = carried_light(state)
    occ = Occupancy(state)
    return merged(state, [(cid, perceived(state, cid, lamps, occ)) for cid in creature_ids])


def merged(state: GameState, perceptions: Iterable[tuple[str, Perception]]) -> Perception:
    """What several creatures perceive together (`seat_perception`), from what each perceives."""
    spaces: set[Cell] = set()
    seen: set[str] = set()
    heard: dict[str, tuple[Cell, ...]] = {}
    reasons: dict[str, str] = {}
    best: dict[tuple[str, VisionSense], Awareness] = {}
    for cid, p in perceptions:
        spaces |= p.spaces
        seen |= p.seen
        heard.update(p.heard)
        for k, why in p.reasons.items():
            reasons.setdefault(k, f"{state.creatures[cid].name}: {why}")
        for note in p.awareness:
            key = (note.creature, note.sense)
            if key not in best or note.dl < best[key].dl:
                best[key] = note
    heard = {k: v for k, v in heard.items() if k not in seen}
    known = seen | heard.keys()
    notes = tuple(n for n in best.values() if n.creature not in known)
    return Perception(spaces=frozenset(spaces), seen=frozenset(seen), heard=heard, awareness=notes, reasons=reasons)


def remember(remembered: AbstractSet[Cell], perception: Perception) -> frozenset[Cell]:
    """The terrain a seat remembers: what it remembered and every space it perceives now (the caller keeps it)."""
    return frozenset(remembered) | perception.spaces


def light_concealment(state: GameState, viewer_id: str, target_id: str) -> tuple[int, str]:
    """The Sight Concealment light gives `target_id` counted from `viewer_id`, and why, judged on its spaces in the
    viewer's line of sight (all of them when none is: whether an attack sees past a wall is the obstruction test's,
    which gives the exposed part's size, not Concealment): none when one is lit (or within the viewer's dark sight),
    `dim_concealment` when the brightest is dim, `dark_concealment` when all are dark (not seen: found by another
    sense, or not at all). Blinded and a stomach's darkness are left to `senses` (the viewer's eyes are judged as
    if open); a swallowed viewer or target is off the board, and light gives it nothing here."""
    settings = state.settings
    if target_id == viewer_id:
        return 0, "itself"
    viewer = state.creatures[viewer_id]
    if viewer.swallowed_by is not None or state.creatures[target_id].swallowed_by is not None:
        return 0, "off the board"
    light = state.board.light
    if settings.ambient_light == "lit" and (not light or all(level == "lit" for level in light.values())):
        return 0, "the target is seen in light"  # no space of the map is dim or dark
    occ = Occupancy(state)
    mine, theirs = occ.cells[viewer_id], occ.cells[target_id]
    grid = grid_for(settings.grid)
    adjacent = [cell for cell in theirs if footprint_distance(grid, mine, (cell,)) <= 1]
    if any(state.board.light.get(cell, settings.ambient_light) == "lit" for cell in adjacent):
        return 0, "the target is seen in light"  # a space next to the viewer is always in its line of sight
    far = max(footprint_distance(grid, mine, (cell,)) for cell in theirs)
    los = line_of_sight(state, mine, _blocking(state, occ, viewer.id), radius=_radius(far))
    judged = [cell for cell in theirs if cell in los] or list(theirs)
    lamps = carried_light(state)
    reach = viewer.dark_sight
    levels = {
        "lit" if reach and footprint_distance(grid, mine, (cell,)) <= reach else light_at(state, cell, lamps)
        for cell in judged
    }
    if "lit" in levels:
        return 0, "the target is seen in light" if not reach else "the target is seen in light or within dark sight"
    if "dim" in levels:
        return settings.dim_concealment, "the target is seen only in dim light"
    return settings.dark_concealment, "the target is in darkness, not seen"


def sees_by_light(state: GameState, viewer: Creature, viewer_cells: tuple[Cell, ...], cell: Cell) -> bool:
    """Whether light (or the viewer's dark sight) lets it see `cell`, line of sight aside."""
    settings = state.settings
    if state.board.light.get(cell, settings.ambient_light) != "dark":
        return True
    reach = viewer.dark_sight
    if reach and footprint_distance(grid_for(settings.grid), viewer_cells, (cell,)) <= reach:
        return True
    return cell in carried_light(state)
