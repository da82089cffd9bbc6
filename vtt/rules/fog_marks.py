"""The Soulweaver's marks on the fog of war: spaces revealed to every player, and spaces hidden from them.

Under fog of war a player's seat perceives what its creatures perceive (`vision`); the Soulweaver may change that
by hand, as the tables people know do:
- **Revealed** spaces are shown to every player (and to spectators) as if their creatures saw them: the terrain
  and every creature standing there (but a creature the Soulweaver hid by its own Hidden flag). Foundry VTT's
  revealed fog and Roll20's fog reveal tool do this: a room the party has mapped, or lit by a spell, or shown on a
  handout, is seen whole, creatures and all.
- **Hidden** spaces are never shown to players, even where their creatures see them: neither the spaces nor a
  creature all of whose spaces are hidden (a player's own creature is always shown). Owlbear Rodeo's fog is drawn
  by the Soulweaver and hides what lies under it whatever the tokens see, and Roll20's hide tool wins over what it
  revealed: hiding is for what the map shows that the characters must not know yet (a secret door the map art
  draws, an illusion). A hidden space is not added to what a seat remembers (a revealed one is: once the mark is
  cleared, the players still remember the terrain they were shown, as they do what their creatures saw).
- **Clear** removes either mark: the creatures' senses alone decide again.
A space is revealed or hidden, never both: marking it one way takes the other mark away.

The marks change what the seats are shown, not what creatures perceive for the rules (line of sight for an attack,
Concealment, who may Hinder): those read `vision` alone. Without fog of war the marks do nothing.

`mark_fog` is a command like the map editor's (logged, undone, replayed; the Soulweaver's only). Its event names
how many spaces changed, never which (a player's log must not outline a hidden area).
"""

from __future__ import annotations

from collections.abc import Iterable

from vtt.rules.commands import MarkFog
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import Grid
from vtt.rules.model import Board, Cell
from vtt.rules.space import grid_of
from vtt.rules.txn import Tx
from vtt.rules.words import count

SHOWN_OFF_MAP = 6
"""How many spaces off the map a refusal names."""


def rectangle(grid: Grid, a: Cell, b: Cell) -> list[Cell]:
    """Every space of the rectangle (in columns and rows, as the map is drawn) with `a` and `b` at its corners."""
    (ca, ra), (cb, rb) = grid.to_offset(a), grid.to_offset(b)
    return [
        grid.from_offset(col, row)
        for row in range(min(ra, rb), max(ra, rb) + 1)
        for col in range(min(ca, cb), max(ca, cb) + 1)
    ]


def on_map(grid: Grid, board: Board, cells: Iterable[Cell]) -> frozenset[Cell]:
    return frozenset(c for c in cells if grid.in_bounds(c, board.cols, board.rows))


def mark_fog(tx: Tx, cmd: MarkFog) -> list[Event]:
    state = tx.state
    grid = grid_of(state)
    cells = list(dict.fromkeys((int(q), int(r)) for q, r in cmd.cells))
    off = [c for c in cells if not grid.in_bounds(c, state.board.cols, state.board.rows)]
    if off:
        shown = ", ".join(str(c) for c in off[:SHOWN_OFF_MAP])
        more = f" and {len(off) - SHOWN_OFF_MAP} more" if len(off) > SHOWN_OFF_MAP else ""
        b = state.board
        raise RuleError(f"{shown}{more} {'is' if len(off) == 1 else 'are'} off the {b.cols} by {b.rows} map")
    marked = set(cells)
    old = state.board
    if cmd.mark == "reveal":
        changed = len(marked - old.revealed)
        revealed, hidden = old.revealed | marked, old.hidden - marked
    elif cmd.mark == "hide":
        changed = len(marked - old.hidden)
        revealed, hidden = old.revealed - marked, old.hidden | marked
    else:
        changed = len(marked & (old.revealed | old.hidden))
        revealed, hidden = old.revealed - marked, old.hidden - marked
    if changed:
        board = tx.board()
        board.revealed, board.hidden = revealed, hidden
    spaces = count(changed, "space")
    text = {
        "reveal": f"The Soulweaver reveals {spaces} to the players.",
        "hide": f"The Soulweaver hides {spaces} from the players.",
        "clear": f"The Soulweaver clears the marks on {spaces}: the creatures' senses decide again.",
    }[cmd.mark]
    return [Event(kind="fog_mark", text=text, data={"mark": cmd.mark, "changed": changed})]


def stroke_rectangle(grid: Grid, board: Board, cells: Iterable[Cell]) -> list[Cell]:
    """The rectangle (in columns and rows) around every space of a stroke, cut to the map; [] for no stroke."""
    offsets = [grid.to_offset(c) for c in cells]
    if not offsets:
        return []
    left, right = max(0, min(c for c, _ in offsets)), min(board.cols - 1, max(c for c, _ in offsets))
    top, bottom = max(0, min(r for _, r in offsets)), min(board.rows - 1, max(r for _, r in offsets))
    if left > right or top > bottom:
        return []
    return rectangle(grid, grid.from_offset(left, top), grid.from_offset(right, bottom))
