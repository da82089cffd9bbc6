"""Where creatures stand: footprints on the board, who occupies which space, and where a creature fits.

A creature of size s fills 2^(s-1) of a space (reference §2.2, DERIVED): size 0 fills half a space, so two
can share one; size 1 and larger fill every space of their footprint. A space holds the table's
`space_capacity` (default 1.0).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from functools import cache, lru_cache
from typing import Any

from vtt.rules.grid import Grid, GridKind, make_grid
from vtt.rules.model import Cell, Creature, GameState


@cache
def grid_for(kind: GridKind) -> Grid:
    return make_grid(kind)


def grid_of(state: GameState) -> Grid:
    return grid_for(state.settings.grid)


@lru_cache(maxsize=1024)
def area_on_map(grid: Grid, cells: tuple[Cell, ...], radius: int, cols: int, rows: int) -> tuple[Cell, ...]:
    """Every space of a `cols` x `rows` map within `radius` of any of `cells`, sorted. Kept: a creature's menu asks
    for the same ranges around it after every change."""
    in_bounds = grid.in_bounds
    return tuple(sorted(cell for cell in grid.area_within(cells, radius) if in_bounds(cell, cols, rows)))


@cache
def _size_offsets(kind: GridKind, size: int) -> tuple[Cell, ...]:
    return grid_for(kind).footprint_offsets(size)


def footprint_offsets(state: GameState, creature: Creature) -> tuple[Cell, ...]:
    if creature.footprint:
        return tuple(creature.footprint)
    shapes = state.settings.footprints
    if shapes is None or creature.size not in shapes:  # the grid's own shape: the same for every creature
        return _size_offsets(state.settings.grid, creature.size)
    return grid_of(state).footprint_offsets(creature.size, shapes)


def footprint(state: GameState, creature: Creature, anchor: Cell | None = None) -> tuple[Cell, ...]:
    """The spaces the creature fills with its anchor at `anchor` (default: where it stands)."""
    q, r = creature.anchor if anchor is None else anchor
    offsets = footprint_offsets(state, creature)
    if len(offsets) == 1:
        dq, dr = offsets[0]
        return ((q + dq, r + dr),)
    return tuple((q + dq, r + dr) for dq, dr in offsets)


def fill(creature: Creature) -> float:
    """How much of each of its spaces a creature fills."""
    return 1.0 if creature.size >= 1 else 2.0 ** (creature.size - 1)


class _Footprints(dict[str, tuple[Cell, ...]]):
    """Footprints by creature id, worked out the first time each is asked for (made by `_footprints`)."""

    __slots__ = ("_state",)
    _state: GameState

    def __missing__(self, cid: str) -> tuple[Cell, ...]:
        cells = footprint(self._state, self._state.creatures[cid])
        self[cid] = cells
        return cells


def _footprints(state: GameState) -> _Footprints:
    """No footprint of `state`'s creatures worked out yet. Made without an `__init__` of Python's and without an
    attribute dict: an occupancy makes one or two for each state a menu is asked of."""
    made = _Footprints()
    made._state = state
    return made


def _same_order(a: GameState, b: GameState) -> bool:
    """Whether two states hold the same creatures in the same order (the same ids; the objects may differ)."""
    before, now = a.creatures, b.creatures
    return len(before) == len(now) and list(before) == list(now)


OVERLAY_MAX = 16
"""How many changed creatures an occupancy reads over its base's index before it builds an index of its own."""


class Occupancy:
    """Which creatures stand in which space. Footprints are worked out when first needed, and the index by
    space only when a space is asked about, so resolving one attack on a crowded board stays cheap.

    An occupancy made `over` the occupancy of an earlier state (whose creatures it shares but for the `changed`
    ones) answers for a space from that state's index and the changed creatures alone, so a command that moves one
    creature never indexes the whole board again. An occupancy is never changed once its index is built, but for
    `place`, which replaces the lists it changes: they may be shared with the occupancies made over it."""

    def __init__(self, state: GameState) -> None:
        self._state = state
        self.cells: dict[str, tuple[Cell, ...]] = _footprints(state)
        self._by_cell: dict[Cell, list[str]] | None = None
        self._indexed: set[str] = set()
        self._indexed_shared = False
        """Whether `_indexed` is shared with an occupancy read over this one or with its base (then `place` copies
        it before adding to it)."""
        self._base: Occupancy | None = None
        self._changed: frozenset[str] = frozenset()
        self._ordered = False
        """Whether its state is known to hold its base's creatures in the same order (told by whoever made it), so
        neither order is listed to compare them."""
        self._moved: dict[Cell, list[str]] | None = None
        self._rank: dict[str, int] | None = None
        self.kept: dict[tuple[Any, ...], Any] = {}
        """Results worked out from this occupancy, for a reader that asks again (`legal_actions` offers the
        same Reposition with and without a Charge); only while the state it was built from does not change."""

    @classmethod
    def over(cls, base: Occupancy, state: GameState, changed: AbstractSet[str], ordered: bool = False) -> Occupancy:
        """The occupancy of `state`, a state made from `base`'s state by a command that replaced the `changed`
        creatures (changed, added or removed) and no other: every other creature is the same object in both.
        `ordered`: the caller knows `state` holds the same creatures as `base`'s state in the same order (none added
        or removed). Built fresh when the footprints of the two states' settings differ."""
        before = base._state.settings
        now = state.settings
        if now is not before and (now.grid != before.grid or now.footprints != before.footprints):
            return cls(state)
        occ = cls(state)
        if base._base is not None and base._by_cell is None:  # one level over an index, never a chain
            if len(base._changed) + len(changed) > OVERLAY_MAX:
                _ = base.by_cell  # `base` is a kept state's: it builds its index once, read over from now on
            else:
                occ._moved = occ._moved_over(base, changed)
                changed = base._changed | changed
                ordered = ordered and base._ordered
                base = base._base
        occ._base = base
        occ._changed = frozenset(changed)
        occ._ordered = ordered
        if len(occ._changed) > OVERLAY_MAX:
            _ = occ.by_cell
        return occ

    def rank(self) -> dict[str, int]:
        """Each creature's place in the order of the state's creatures; made once for the state, and handed on to
        an occupancy read over this one whose state holds the same creatures in the same order."""
        found = self._rank
        if found is None:
            base = self._base
            if base is not None and self._same_order_as(base):
                found = base.rank()  # kept there too, for the next occupancy read over it
            else:
                found = {cid: i for i, cid in enumerate(self._state.creatures)}
            self._rank = found
        return found

    def _same_order_as(self, base: Occupancy) -> bool:
        """Whether the state holds the same creatures as `base`'s state, in the same order."""
        return self._ordered or _same_order(base._state, self._state)

    def _order(self, cids: list[str]) -> list[str]:
        """`cids` in the order of the state's creatures (the order a fresh index lists a space's occupants in)."""
        if len(cids) < 2:
            return cids
        return sorted(cids, key=self.rank().__getitem__)

    def _footprint_of(self, cid: str, earlier: Occupancy | None = None) -> tuple[Cell, ...] | None:
        """Where a changed creature stands now (None: not on the board); from `earlier` if it is the same object
        there and its footprint was worked out."""
        c = self._state.creatures.get(cid)
        if c is None or c.swallowed_by is not None:  # seed-000: a swallowed creature is off the board
            return None
        if earlier is not None and earlier._state.creatures.get(cid) is c:
            cells = earlier.cells.get(cid)
            if cells is not None:
                self.cells[cid] = cells
                return cells
        return self.cells[cid]

    def _moved_in(self) -> dict[Cell, list[str]]:
        """Where the changed creatures stand now (those still on the board), by space."""
        if self._moved is None:
            moved: dict[Cell, list[str]] = {}
            for cid in self._changed:
                for cell in self._footprint_of(cid) or ():
                    here = moved.get(cell)
                    moved[cell] = [*here, cid] if here else [cid]
            self._moved = moved
        return self._moved

    def _moved_over(self, earlier: Occupancy, changed: AbstractSet[str]) -> dict[Cell, list[str]]:
        """`_moved_in` from an occupancy `earlier` read over the same base: its changed creatures where they stood
        there, less the ones changed since (`changed`), plus those where they stand now. Lists are shared until
        changed."""
        moved = dict(earlier._moved_in())
        for cid in changed:
            if cid in earlier._changed:
                for cell in earlier.cells.get(cid, ()):
                    here = moved.get(cell)
                    if here and cid in here:
                        left = [o for o in here if o != cid]
                        if left:
                            moved[cell] = left
                        else:
                            del moved[cell]
        for cid in earlier._changed - changed:  # the same objects here: the same footprints
            cells = earlier.cells.get(cid)
            if cells is not None:
                self.cells[cid] = cells
        for cid in changed:
            for cell in self._footprint_of(cid, earlier) or ():
                here = moved.get(cell)
                moved[cell] = [*here, cid] if here else [cid]
        return moved

    @property
    def by_cell(self) -> dict[Cell, list[str]]:
        if self._by_cell is None:
            if self._base is not None:
                self._by_cell = self._index_over(self._base)
            else:
                self._by_cell = self._index_all()
        return self._by_cell

    def _index_all(self) -> dict[Cell, list[str]]:
        index: dict[Cell, list[str]] = {}
        shapes: dict[int, tuple[Cell, ...]] = {}
        state = self._state
        asked = self.cells
        cells_of = _footprints(state)  # in the order of the state's creatures, whatever was asked first
        indexed: set[str] = set()
        for cid, c in state.creatures.items():
            if c.swallowed_by is not None:  # seed-000: a swallowed creature is removed from the board
                continue
            if c.footprint:
                offsets = tuple(c.footprint)
            else:
                offsets = shapes.get(c.size) or shapes.setdefault(c.size, footprint_offsets(state, c))
            indexed.add(cid)
            q, r = c.anchor
            if len(offsets) == 1:
                dq, dr = offsets[0]
                cell = (q + dq, r + dr)
                cells_of[cid] = (cell,)
                here = index.get(cell)
                if here is None:
                    index[cell] = [cid]
                else:
                    here.append(cid)
                continue
            cells = tuple((q + dq, r + dr) for dq, dr in offsets)
            cells_of[cid] = cells
            for cell in cells:
                here = index.get(cell)
                if here is None:
                    index[cell] = [cid]
                else:
                    here.append(cid)
        for cid, cells in list(asked.items()):  # asked of this state, not on its board
            if cid not in cells_of:
                cells_of[cid] = cells
        self.cells = cells_of
        self._indexed = indexed
        return index

    def _index_over(self, base: Occupancy) -> dict[Cell, list[str]]:
        """The base's index less where the changed creatures stood, plus where they stand now: a copy whose lists
        are shared with the base's but where a changed creature stood or stands. The footprints are the base's but
        the changed creatures', listed in the order of the state's creatures as a fresh index lists them."""
        changed = self._changed
        moved = self._moved_in()
        now = self._state.creatures
        same_order = self._same_order_as(base)
        if same_order:
            self._rank = base.rank()
        index = base.by_cell.copy()  # cloned whole even with deleted keys in it, which dict() copies one by one
        base_cells, base_indexed = base.cells, base._indexed
        for cid in changed:
            if cid in base_indexed:
                for cell in base_cells[cid]:
                    left = [o for o in index[cell] if o != cid]
                    if left:
                        index[cell] = left
                    else:
                        del index[cell]
        for cell, cids in moved.items():
            here = index.get(cell)
            index[cell] = self._order([*here, *cids] if here else list(cids))
        on_board = {cid for cids in moved.values() for cid in cids}
        if len(on_board) == len(changed) and changed <= base_indexed:  # the same creatures on the board
            indexed = base_indexed
            self._indexed_shared = base._indexed_shared = True
        else:
            indexed = (base_indexed - changed) | on_board
        asked = dict(self.cells)
        cells = _footprints(self._state)
        if same_order and on_board <= base_indexed:  # the base's order, the changed creatures replaced in place
            if len(base_cells) == len(base_indexed):
                cells.update(base_cells)
            else:  # footprints of creatures off the base's board were asked for: not in an index
                cells.update((cid, cells_of) for cid, cells_of in list(base_cells.items()) if cid in base_indexed)
            for cid in changed:
                if cid in on_board:
                    cells[cid] = asked.get(cid) or footprint(self._state, now[cid])
                else:
                    cells.pop(cid, None)
        else:
            for cid in now:
                if cid in indexed:
                    cells[cid] = (
                        (asked.get(cid) or footprint(self._state, now[cid])) if cid in changed else base_cells[cid]
                    )
        for cid, cells_of in asked.items():  # asked of this state, not on its board
            if cid not in cells:
                cells[cid] = cells_of
        self.cells = cells
        self._indexed = indexed
        self._base = None  # nothing more is read from it
        return index

    def place(self, cid: str) -> None:
        """Index a creature just added to the state (so a long list of creatures is placed in linear time)."""
        if self._by_cell is None or cid in self._indexed:
            return  # the index, when first built, took it
        if self._indexed_shared:
            self._indexed, self._indexed_shared = set(self._indexed), False
        self._indexed.add(cid)
        cells = footprint(self._state, self._state.creatures[cid])
        self.cells[cid] = cells
        for cell in cells:
            self._by_cell[cell] = [*self._by_cell.get(cell, ()), cid]

    def everyone(self) -> dict[str, tuple[Cell, ...]]:
        """Every creature's footprint."""
        _ = self.by_cell
        return self.cells

    def at(self, cell: Cell) -> list[str]:
        """The creatures in `cell` (not to be changed)."""
        if self._by_cell is not None:
            return self._by_cell.get(cell, [])
        base = self._base
        if base is None:
            return self.by_cell.get(cell, [])
        here = base.at(cell)
        moved = self._moved_in().get(cell)
        changed = self._changed
        if not moved and not any(cid in changed for cid in here):
            return here
        return self._order([*(cid for cid in here if cid not in changed), *(moved or ())])

    def occupants(self, cells: tuple[Cell, ...] | list[Cell], exclude: str | None = None) -> list[str]:
        at = self.at if self._by_cell is None and self._base is not None else self.by_cell.get
        seen: dict[str, None] = {}
        for cell in cells:
            here = at(cell)
            if here:
                for cid in here:
                    if cid != exclude:
                        seen[cid] = None
        return list(seen)


def why_cannot_stand(
    state: GameState,
    creature: Creature,
    anchor: Cell,
    occ: Occupancy | None,
    filled: AbstractSet[Cell] | None = None,
) -> str | None:
    """Why the creature cannot end a move with its anchor at `anchor`, or None if it can. `occ` None: who stands in
    the spaces it would fill is read from the footprint of each of the state's creatures, without an index (`scan`)."""
    grid = grid_of(state)
    board = state.board
    cols, rows = board.cols, board.rows
    walls = board.filled() if filled is None else filled
    mine = fill(creature)
    q, r = anchor
    offsets = footprint_offsets(state, creature)
    at: Callable[[Cell], list[str] | None] = (
        scan(state, [(q + dq, r + dr) for dq, dr in offsets]).get if occ is None else occ.at
    )
    for dq, dr in offsets:
        cell = (q + dq, r + dr)
        if not grid.in_bounds(cell, cols, rows):
            return f"{creature.name} would stand off the map at {cell}"
        if cell in walls:
            return f"{creature.name} cannot stand in {cell}: a wall or object fills it"
        here = at(cell)
        if not here:
            continue
        total = mine + sum(fill(state.creatures[o]) for o in here if o != creature.id)
        if total > state.settings.space_capacity + 1e-9:
            others = ", ".join(state.creatures[o].name for o in here if o != creature.id)
            return f"{creature.name} does not fit in {cell} beside {others}"
    return None


def scan(state: GameState, cells: list[Cell]) -> dict[Cell, list[str]]:
    """The creatures standing in each of `cells` (those with any, in the order of the state's creatures; a swallowed
    creature stands nowhere), as `Occupancy.at` tells them, found by reading every creature's footprint: for the few
    spaces of one placement this costs less than indexing the board (a board of a few creatures, or a state no index
    is kept for)."""
    wanted = set(cells)
    found: dict[Cell, list[str]] = {}
    shapes: dict[int, tuple[Cell, ...]] = {}
    for cid, c in state.creatures.items():
        if c.swallowed_by is not None:
            continue
        if c.footprint:
            offsets = tuple(c.footprint)
        else:
            offsets = shapes.get(c.size) or shapes.setdefault(c.size, footprint_offsets(state, c))
        q, r = c.anchor
        for dq, dr in offsets:
            cell = (q + dq, r + dr)
            if cell in wanted:
                here = found.get(cell)
                if here is None:
                    found[cell] = [cid]
                else:
                    here.append(cid)
    return found


def standable(
    state: GameState,
    creature: Creature,
    anchors: Iterable[Cell],
    occ: Occupancy,
    filled: AbstractSet[Cell],
    on_map: bool = False,
) -> list[Cell]:
    """The `anchors` where `why_cannot_stand` lets the creature end a move, in their order; the same test with
    what every anchor shares worked out once (a move's menu asks it of every space in reach). `on_map`: the caller
    knows every space the creature fills at every anchor lies on the map (told once for the area they are in)."""
    grid = grid_of(state)
    cols, rows = state.board.cols, state.board.rows
    in_bounds = grid.in_bounds
    by_cell = occ.by_cell
    creatures = state.creatures
    me = creature.id
    capacity = state.settings.space_capacity + 1e-9
    mine = fill(creature)
    offsets = footprint_offsets(state, creature)
    out: list[Cell] = []
    if offsets == ((0, 0),):  # a creature of one space: the same test without the footprint loop
        for cell in anchors:
            if cell in filled or not (on_map or in_bounds(cell, cols, rows)):
                continue
            here = by_cell.get(cell)
            if here and mine + sum(fill(creatures[o]) for o in here if o != me) > capacity:
                continue
            out.append(cell)
        return out
    for q, r in anchors:
        for dq, dr in offsets:
            cell = (q + dq, r + dr)
            if cell in filled or not (on_map or in_bounds(cell, cols, rows)):
                break
            here = by_cell.get(cell)
            if here and mine + sum(fill(creatures[o]) for o in here if o != me) > capacity:
                break
        else:
            out.append((q, r))
    return out


def why_cannot_pass(state: GameState, creature: Creature, anchor: Cell, filled: AbstractSet[Cell]) -> str | None:
    """Why the creature cannot move through `anchor` (creatures may be passed; walls and the edge may not)."""
    grid = grid_of(state)
    cols, rows = state.board.cols, state.board.rows
    q, r = anchor
    for dq, dr in footprint_offsets(state, creature):
        cell = (q + dq, r + dr)
        if not grid.in_bounds(cell, cols, rows):
            return f"{creature.name} would leave the map at {cell}"
        if cell in filled:
            return f"{creature.name} cannot pass {cell}: a wall or object fills it"
    return None
