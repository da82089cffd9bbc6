"""The occupancy of a state made from the occupancy of the state it was derived from.

`apply` copies only the creatures a command changes: every other creature of the new state is the very object the
old state holds, and a state is never changed once made. So the index of who stands where (`Occupancy.by_cell`) of a
state just made is the old state's index with the few changed creatures taken out and put back where they now stand,
instead of every creature on the board placed again. The result is the index `Occupancy(new)` builds itself: the same
spaces, each listing its creatures in the order of `state.creatures`, and the footprints in that order too.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not

from vtt.rules.model import Cell, GameState
from vtt.rules.near import RANK, rank
from vtt.rules.space import Occupancy, footprint

CHANGED_MAX_SHARE = 4
"""Above one creature in this many changed (or added, or removed), the index is built anew: patching costs more."""

CHANGED_MIN = 8
"""Up to this many changed creatures are always patched in, on a board of any size."""


def derived(old: GameState, old_occ: Occupancy, new: GameState) -> Occupancy | None:
    """The occupancy of `new` made from `old_occ` (the occupancy of `old`, its index built), or None when `new` does
    not hold the same creatures as `old` in the same order, most of them unchanged (another game, a map loaded, a
    creature added or removed: then the index is built anew)."""
    if old_occ._by_cell is None or old_occ._state is not old:
        return None
    if old.settings is not new.settings and (
        old.settings.grid != new.settings.grid or old.settings.footprints != new.settings.footprints
    ):
        return None
    before, after = old.creatures, new.creatures
    if len(before) != len(after) or list(before) != list(after):
        return None
    changed = list(compress(after, map(is_not, before.values(), after.values())))
    if len(changed) > max(CHANGED_MIN, len(after) // CHANGED_MAX_SHARE):
        return None
    return _patched(old_occ, new, changed)


def _patched(old_occ: Occupancy, new: GameState, changed: list[str]) -> Occupancy | None:
    old_index = old_occ._by_cell
    assert old_index is not None
    old_cells, old_indexed = old_occ.cells, old_occ._indexed
    after = new.creatures
    if any(cid not in old_indexed or after[cid].swallowed_by is not None for cid in changed):
        return None  # swallowed or let out (seed-000): it leaves or joins the board, rare enough to build anew
    index = dict(old_index)
    own: set[Cell] = set()
    """Spaces whose list of creatures is this index's own (the others are still the old index's)."""
    for cid in changed:
        for cell in old_cells[cid]:
            here = [o for o in index[cell] if o != cid]
            if here:
                index[cell] = here
                own.add(cell)
            else:
                del index[cell]

    occ = Occupancy(new)
    cells_of = occ.cells
    if len(old_cells) == len(old_indexed):
        cells_of.update(old_cells)  # keeps the old order, the state's: a changed creature is replaced where it is
    else:  # footprints of creatures off the board were asked for: not in a new index
        cells_of.update((cid, cells) for cid, cells in old_cells.items() if cid in old_indexed)
    occ._indexed.update(old_indexed)
    if RANK in old_occ.kept:  # the same creatures in the same order: the same places
        occ.kept[RANK] = old_occ.kept[RANK]
    for cid in changed:
        cells = cells_of[cid] = footprint(new, after[cid])
        for cell in cells:
            found = index.get(cell)
            if found is None:
                index[cell] = [cid]
                own.add(cell)
                continue
            here = found if cell in own else list(found)
            index[cell] = here
            own.add(cell)
            here.append(cid)
            here.sort(key=rank(occ).__getitem__)  # a shared space lists its creatures in the state's order
    occ._by_cell = index
    return occ
