"""The Soulweaver's map tools: editing the board, its background, its size and who is on it.

These are commands like any other (so they go in the log, and undo, redo and replay work for them), but they are
not creature actions: `legal_actions` never lists them, they need no turn and may be sent at any time (before the
fight and during it) by the Soulweaver only (`vtt.table.table.Table.permission_error`).

- `edit_board`: paints and erases spaces of one layer. `wall` and `object` spaces may not be painted where a
  creature stands, over each other, or off the map; painting the `object` layer makes ONE object (name, size,
  Durability, Physical Reduction) filling every painted space; erasing it removes each object touching an erased
  space. `water` and `conductive` are sets of spaces (conductive spaces that touch are one piece after an edit, as
  water is: seed-004 Flowing Air jumps along them); `uneven` paints Uneven Ground of `tier` (replacing the Tier
  there) or erases it. A space may not be painted and erased at once. The event lists only the spaces that changed.
- `set_background`: the background image and the grid's alignment on it (`model.Background`); `image` None removes
  it. The image is an `/api/...` path, a `data:image/png|jpeg|webp;base64,` URL (at most
  `model.BACKGROUND_DATA_LIMIT` characters) or an https URL.
- `add_creature`: a creature validated by the `Creature` model (errors name the field: `creature.skills.Martial`),
  its anchor at `at`, placed only where it can stand. Without an `id`, one is made from its name, unique in the
  game (`goblin`, `goblin_2`...). A creature that rolls Priority joining a fight already begun goes after everyone
  already in Priority (reference §3: "participants who join later are placed after everyone already in
  Priority"), i.e. just before the Soulweaver; one of the Soulweaver's creatures added during the Soulweaver's turn
  may act in it at once.
- `remove_creature`: takes a creature out of the game: out of its Holds, the turn order and every Focus on it;
  ongoing effects it made or that were on it end. Refused while it is that creature's turn, or while it has
  swallowed someone (place them on the map first).
- `resize_board`: refused if a creature would stand off the map; walls, terrain, objects and items that would be
  off it are dropped (the event lists them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

from vtt.rules import positions
from vtt.rules.commands import AddCreature, EditBoard, ResizeBoard, SetBackground
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import Grid
from vtt.rules.hold import leave_holds
from vtt.rules.model import SOULWEAVER, Background, Board, BoardObject, Cell, Creature, GameState
from vtt.rules.paths import field_errors
from vtt.rules.space import Occupancy, footprint, grid_of, why_cannot_stand
from vtt.rules.turns import fresh_economy, is_active
from vtt.rules.txn import Tx
from vtt.rules.words import count


def slug(name: str, fallback: str) -> str:
    """An id made from a name: lower case, letters, digits and underscores."""
    out = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return out[:40] or fallback


def unique_id(base: str, taken: Iterable[str]) -> str:
    """`base`, or `base_2`, `base_3`... whichever is not taken."""
    used = set(taken)
    if base not in used:
        return base
    n = 2
    while f"{base}_{n}" in used:
        n += 1
    return f"{base}_{n}"


def _cells(cells: Iterable[Cell]) -> list[Cell]:
    """The cells once each, in the order given."""
    return list(dict.fromkeys((int(q), int(r)) for q, r in cells))


def _off_map(grid: Grid, board: Board, cells: Iterable[Cell]) -> list[Cell]:
    return [c for c in cells if not grid.in_bounds(c, board.cols, board.rows)]


def _cells_text(cells: list[Cell], limit: int = 6) -> str:
    shown = ", ".join(str(c) for c in cells[:limit])
    return shown + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def _standing(state: GameState) -> dict[Cell, list[str]]:
    return Occupancy(state).by_cell


def components(grid: Grid, cells: Iterable[Cell]) -> list[list[Cell]]:
    """Pieces of touching spaces, each sorted, in the order of their first space."""
    todo = set(cells)
    out: list[list[Cell]] = []
    for start in sorted(todo):
        if start not in todo:
            continue
        todo.discard(start)
        piece, stack = [start], [start]
        while stack:
            for n in grid.neighbours(stack.pop()):
                if n in todo:
                    todo.discard(n)
                    piece.append(n)
                    stack.append(n)
        out.append(sorted(piece))
    return out


# --------------------------------------------------------------------------------------------------------
# edit_board
# --------------------------------------------------------------------------------------------------------


def edit_board(tx: Tx, cmd: EditBoard) -> list[Event]:
    state = tx.state
    grid = grid_of(state)
    paint, erase = _cells(cmd.paint), _cells(cmd.erase)
    if not paint and not erase:
        raise RuleError("paint or erase at least one space")
    both = sorted(set(paint) & set(erase))
    if both:
        raise RuleError(f"{_cells_text(both)} cannot be both painted and erased")
    off = _off_map(grid, state.board, [*paint, *erase])
    if off:
        b = state.board
        raise RuleError(f"{_cells_text(off)} is off the {b.cols}x{b.rows} map")
    if cmd.object is not None and cmd.layer != "object":
        raise RuleError("an object's name and size go with painting objects only: choose the Object tool")
    if cmd.layer == "object":
        return _edit_objects(tx, cmd, paint, erase)
    if cmd.layer == "wall":
        _refuse_filling(state, paint, "a wall")
    board = tx.board()
    painted: list[Cell] = []
    erased: list[Cell] = []
    if cmd.layer == "wall":
        painted = [c for c in paint if c not in board.walls]
        erased = [c for c in erase if c in board.walls]
        board.walls = (set(board.walls) | set(painted)) - set(erased)
    elif cmd.layer == "water":
        painted = [c for c in paint if c not in board.water]
        erased = [c for c in erase if c in board.water]
        board.water = (set(board.water) | set(painted)) - set(erased)
    elif cmd.layer == "uneven":
        painted = [c for c in paint if board.uneven.get(c) != cmd.tier]
        erased = [c for c in erase if c in board.uneven]
        uneven = {c: t for c, t in board.uneven.items() if c not in set(erased)}
        uneven.update({c: cmd.tier for c in painted})
        board.uneven = uneven
    else:  # conductive
        have = {c for piece in board.conductive for c in piece}
        painted = [c for c in paint if c not in have]
        erased = [c for c in erase if c in have]
        board.conductive = components(grid, (have | set(painted)) - set(erased))
    what = {"wall": "wall", "water": "water", "uneven": f"Tier {cmd.tier} Uneven Ground", "conductive": "conductive"}
    bits = []
    if painted:
        bits.append(f"paints {count(len(painted), 'space')} of {what[cmd.layer]}")
    if erased:
        layer = "Uneven Ground" if cmd.layer == "uneven" else what[cmd.layer]
        bits.append(f"erases {count(len(erased), 'space')} of {layer}")
    text = "The Soulweaver " + (" and ".join(bits) if bits else f"edits the {cmd.layer} layer: nothing changes") + "."
    data: dict[str, Any] = {"layer": cmd.layer, "painted": painted, "erased": erased}
    if cmd.layer == "uneven":
        data["tier"] = cmd.tier
    return [Event(kind="board_edit", text=text, data=data)]


def _refuse_filling(state: GameState, cells: list[Cell], what: str, objects_too: bool = True) -> None:
    """Walls and objects fill their spaces: none over a creature, an object (or, for objects, a wall)."""
    standing = _standing(state)
    for c in cells:
        here = standing.get(c)
        if here:
            names = ", ".join(state.creatures[o].name for o in here)
            raise RuleError(f"{names} stands in {c}: {what} cannot be painted over a creature")
    if objects_too:
        for obj in state.board.objects:
            over = [c for c in cells if c in set(obj.cells)]
            if over:
                raise RuleError(f"the {obj.name} ({obj.id}) fills {_cells_text(over)}: erase it first")


def _edit_objects(tx: Tx, cmd: EditBoard, paint: list[Cell], erase: list[Cell]) -> list[Event]:
    state = tx.state
    board = state.board
    removed = [o for o in board.objects if set(o.cells) & set(erase)]
    keep = [o for o in board.objects if o not in removed]
    made: BoardObject | None = None
    if paint:
        spec = cmd.object
        if spec is None:
            raise RuleError("painting an object needs its name, size and Durability: fill them in with the Object tool")
        _refuse_filling(state, paint, f"the {spec.name}", objects_too=False)
        for obj in keep:
            over = [c for c in paint if c in set(obj.cells)]
            if over:
                raise RuleError(f"the {obj.name} ({obj.id}) fills {_cells_text(over)}: erase it first")
        walls = [c for c in paint if c in board.walls]
        if walls:
            raise RuleError(f"a wall fills {_cells_text(walls)}: erase it first")
        taken = [o.id for o in keep]
        if spec.id is not None:
            if spec.id in taken:
                raise RuleError(f"there is already an object {spec.id!r}: give the new one another name")
            oid = spec.id
        else:
            oid = unique_id(slug(spec.name, "object"), [o.id for o in board.objects])
        made = BoardObject(
            id=oid,
            name=spec.name,
            cells=sorted(paint),
            size=spec.size,
            durability=spec.durability,
            reduction=spec.reduction,
        )
    if made is None and not removed:
        return [
            Event(
                kind="board_edit",
                text="The Soulweaver edits the object layer: nothing changes.",
                data={"layer": "object", "painted": [], "erased": [], "removed": [], "object": None},
            )
        ]
    tx.board().objects = [*keep, *([made] if made else [])]
    bits = []
    if removed:
        bits.append("removes " + ", ".join(f"the {o.name} ({o.id})" for o in removed))
    if made is not None:
        dur = f", Durability {made.durability}" if made.durability is not None else ""
        bits.append(f"places the {made.name} ({made.id}, size {made.size}{dur}) over {count(len(made.cells), 'space')}")
    return [
        Event(
            kind="board_edit",
            text="The Soulweaver " + " and ".join(bits) + ".",
            data={
                "layer": "object",
                "painted": list(made.cells) if made else [],
                "erased": sorted({c for o in removed for c in o.cells}),
                "removed": [o.id for o in removed],
                "object": made.model_dump(mode="json") if made else None,
            },
        )
    ]


# --------------------------------------------------------------------------------------------------------
# set_background, resize_board
# --------------------------------------------------------------------------------------------------------


def set_background(tx: Tx, cmd: SetBackground) -> list[Event]:
    if cmd.image is None:
        tx.board().background = None
        return [Event(kind="background", text="The Soulweaver removes the map's background.", data={"image": None})]
    try:
        bg = Background(image=cmd.image, offset=cmd.offset, cell_px=cmd.cell_px, opacity=cmd.opacity)
    except ValidationError as exc:
        raise RuleError("; ".join(field_errors(exc))) from None
    tx.board().background = bg
    where = "an uploaded image" if bg.image.startswith("/api/") else "an image"
    if bg.image.startswith("https://"):
        where = "an image from the web"
    return [
        Event(
            kind="background",
            text=f"The Soulweaver sets the map's background to {where}: grid origin at {bg.offset}, "
            f"{bg.cell_px:g} pixels a space, opacity {bg.opacity:g}.",
            data={"offset": list(bg.offset), "cell_px": bg.cell_px, "opacity": bg.opacity},
        )
    ]


def resize_board(tx: Tx, cmd: ResizeBoard) -> list[Event]:
    state = tx.state
    grid = grid_of(state)
    old = state.board
    cols, rows = cmd.cols, cmd.rows

    def inside(c: Cell) -> bool:
        return grid.in_bounds(c, cols, rows)

    cut = [
        c.name
        for c in state.creatures.values()
        if c.swallowed_by is None and not all(inside(cell) for cell in footprint(state, c))
    ]
    if cut:
        raise RuleError(f"{', '.join(cut)} would be off a {cols}x{rows} map: move them first")
    board = tx.board()
    board.cols, board.rows = cols, rows
    walls = {c for c in old.walls if inside(c)}
    dropped: dict[str, int] = {"walls": len(old.walls) - len(walls)}
    board.walls = walls
    water = {c for c in old.water if inside(c)}
    dropped["water"] = len(old.water) - len(water)
    board.water = water
    uneven = {c: t for c, t in old.uneven.items() if inside(c)}
    dropped["uneven"] = len(old.uneven) - len(uneven)
    board.uneven = uneven
    have = [c for piece in old.conductive for c in piece]
    pieces = [[c for c in piece if inside(c)] for piece in old.conductive]
    board.conductive = [p for p in pieces if p]
    dropped["conductive"] = len(have) - sum(len(p) for p in board.conductive)
    objects = [o for o in old.objects if all(inside(c) for c in o.cells)]
    gone = [o.id for o in old.objects if o not in objects]
    board.objects = objects
    items = [i for i in old.items if inside(i.cell)]
    dropped["items"] = len(old.items) - len(items)
    board.items = items
    nouns = {"walls": "wall space", "water": "water space", "uneven": "Uneven Ground space", "items": "item"}
    lost = [count(n, nouns.get(k, f"{k} space")) for k, n in dropped.items() if n]
    lost += [f"object {oid}" for oid in gone]
    tail = f"; off the map now and dropped: {', '.join(lost)}" if lost else ""
    return [
        Event(
            kind="board_resized",
            text=f"The Soulweaver resizes the map from {old.cols}x{old.rows} to {cols}x{rows}{tail}.",
            data={"from": [old.cols, old.rows], "to": [cols, rows], "dropped": dropped, "objects_dropped": gone},
        )
    ]


# --------------------------------------------------------------------------------------------------------
# add_creature, remove_creature
# --------------------------------------------------------------------------------------------------------


def new_creature(state: GameState, data: dict[str, Any], at: Cell) -> Creature:
    """The creature an `add_creature` makes: validated, with an id unique in the game; RuleError names the bad
    field."""
    body = dict(data)
    body["anchor"] = at
    given = body.get("id")
    if given is None:
        name = body.get("name")
        base = slug(name, "creature") if isinstance(name, str) else "creature"
        body["id"] = unique_id(base, [*state.creatures, SOULWEAVER])
    try:
        c = Creature.model_validate(body)
    except ValidationError as exc:
        raise RuleError("the new creature: " + "; ".join(field_errors(exc, "creature"))) from None
    if given is not None:
        if not c.id.strip():
            raise RuleError("the new creature needs an id: give it one, or leave it out to have one made from its name")
        if c.id == SOULWEAVER:
            raise RuleError(
                f"the id {SOULWEAVER!r} is reserved for the Soulweaver's turn: give the new creature another"
            )
        if c.id in state.creatures:
            raise RuleError(f"there is already a creature {c.id!r}: give the new one another id")
    if c.swallowed_by is not None:
        raise RuleError("a new creature starts on the map, not swallowed: leave out whom it is swallowed by")
    if c.focus is not None and c.focus not in state.creatures:
        raise RuleError(f"the new creature's Focus names no creature here ({c.focus!r}): leave it out")
    for limb in c.limbs:
        if limb.hold_id is not None:
            raise RuleError(f"a new creature is in no Hold: leave out the Hold of its limb {limb.name}")
        if limb.holding is not None and c.weapon(limb.holding) is None:
            raise RuleError(f"{c.name} does not carry weapon {limb.holding!r}: its limb {limb.name} cannot hold it")
    return c


def add_creature(tx: Tx, cmd: AddCreature) -> list[Event]:
    state = tx.state
    c = new_creature(state, cmd.creature, cmd.at)
    if (why := why_cannot_stand(state, c, c.anchor, positions.for_tx(tx))) is not None:
        raise RuleError(why)
    tx.put_creature(c)
    joined = ""
    if state.turn.started and is_active(state, c.id):  # a creature rolling Priority joins the order in the engine
        tx.put_economy(c.id, fresh_economy(state, c))
        joined = " It may act in the Soulweaver's turn now."
    return [
        Event(
            kind="creature_added",
            text=f"The Soulweaver adds {c.name} ({c.id}) at {c.anchor}.{joined}",
            target=c.id,
            data={"creature": c.id, "at": list(c.anchor)},
        )
    ]


def remove_creature(tx: Tx, creature_id: str) -> list[Event]:
    state = tx.state
    c = tx.get(creature_id)
    if state.turn.current == creature_id:
        raise RuleError(f"it is {c.name}'s turn: end it first")
    inside = [o.name for o in state.creatures.values() if o.swallowed_by == creature_id]
    if inside:
        raise RuleError(f"{c.name} has swallowed {', '.join(inside)}: place them on the map first")
    events: list[Event] = []
    if any(creature_id in h.members for h in state.holds.values()):
        events += leave_holds(tx, creature_id)
    state.effects = [e for e in state.effects if creature_id not in (e.creator, e.subject)]
    for oid, other in list(state.creatures.items()):
        if oid != creature_id and other.focus == creature_id:
            m = tx.creature(oid)
            m.focus = None
            m.focus_locked = False
    tx.remove_creature(creature_id)
    tx.remove_economy(creature_id)
    if creature_id in state.turn.entries or creature_id in state.turn.priority:
        turn = tx.turn()
        if creature_id in turn.entries:
            pos = turn.entries.index(creature_id)
            turn.entries = [e for e in turn.entries if e != creature_id]
            if pos < turn.index:
                turn.index -= 1
        turn.priority = {k: v for k, v in turn.priority.items() if k != creature_id}
    events.append(
        Event(
            kind="creature_removed",
            text=f"The Soulweaver removes {c.name} ({creature_id}) from the game.",
            target=creature_id,
            data={"creature": creature_id},
        )
    )
    return events
