"""Map files (format 1): a board, its terrain and background, and the creatures on it, as one JSON object.

The format is documented in `docs/map-format.md`; in short::

    {"format": 1, "name": "...", "description": "...", "grid": "hex" | "square",
     "settings": {...partial TableSettings...},
     "board": {"cols": 30, "rows": 20,
               "walls": [[q, r], ...],
               "objects": [{"id", "name", "cells": [[q, r], ...], "size", "durability", "reduction"}, ...],
               "uneven": [[q, r, tier], ...], "water": [[q, r], ...], "conductive": [[[q, r], ...], ...],
               "light": [[q, r, "lit" | "dim" | "dark"], ...],
               "background": {"image": "<URL or data URL>", "offset": [x, y], "cell_px": 70, "opacity": 1}},
     "weapons": [{...Weapon...}, ...],
     "creatures": [{...Creature, "weapons": ["id" or {...Weapon...}, ...], "grip": {"limb_id": "weapon_id"},
     "wounded": {"part_id": tiers}}, ...]}

A file without `format` is read as format 1: the map files written before the format had a number (the scenario
files, `maps/demo.json`) are format 1. A scenario file (`docs/scenarios.md`) is a map plus `version`, `commands`,
`dice` and `seed`: `load_map` reads its starting state and ignores those. `grid` (top level) and `settings.grid`
both set the grid kind; given both, they must agree.

Loading checks everything and reports every bad field by its JSON path (`creatures[2].skills.Martial: ...`) in one
`MapError`; nothing is loaded unless the whole file is good. Everything here is pure: it takes decoded JSON (or
text) and returns a `GameState`; reading files belongs to the callers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from vtt.rules import limits as L
from vtt.rules.limits import plain_message
from vtt.rules.model import (
    SOULWEAVER,
    Background,
    Board,
    BoardObject,
    Cell,
    Creature,
    GameState,
    LightLevel,
    Weapon,
)
from vtt.rules.paths import json_path, shown
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, grid_of, why_cannot_stand

MAP_FORMAT = 1
MAP_KEYS: tuple[str, ...] = (
    "format",
    "version",
    "name",
    "description",
    "grid",
    "settings",
    "board",
    "weapons",
    "creatures",
)
SCENARIO_KEYS: tuple[str, ...] = ("commands", "dice", "seed", "expect")
"""Keys of a scenario file that a map reader skips."""


class MapError(ValueError):
    """A malformed map or scenario file; each problem starts with the JSON path of the bad field."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: list[str] = list(problems) or ["map: invalid"]
        super().__init__("; ".join(self.problems))

    def __reduce__(self) -> tuple[type[Self], tuple[list[str]]]:
        return (type(self), (self.problems,))  # so that it crosses from a worker process whole


class Problems:
    """Problems found so far, each `path: message`."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(f"{path}: {message}")

    def pydantic(self, prefix: str, exc: ValidationError, drop_first: str | None = None) -> None:
        """Report each error of `exc` under `prefix`; `drop_first` removes a leading union tag from the loc."""
        for err in exc.errors(include_url=False):
            loc: list[str | int] = list(err["loc"])
            if drop_first is not None and loc and loc[0] == drop_first:
                loc = loc[1:]
            kind = err["type"]
            msg = plain_message(err)
            if kind in ("union_tag_invalid", "union_tag_not_found"):
                loc.append("type")
                tags = err.get("ctx", {}).get("expected_tags", "")
                if kind == "union_tag_not_found":
                    msg = f"missing: every command needs a type, one of {tags}"
                else:
                    msg = f"unknown command type {shown(err.get('ctx', {}).get('tag'))}; expected one of {tags}"
            elif kind == "extra_forbidden":
                msg = "unknown key (not part of the format)"
            elif kind != "missing" and isinstance(err["input"], str | int | float | bool):
                text = shown(err["input"])
                msg = f"{msg} (got {text if len(text) <= 80 else text[:77] + '...'})"
            self.add(json_path(prefix, loc), msg)

    def raise_if_any(self) -> None:
        if self.items:
            raise MapError(self.items)


def validate(problems: Problems, prefix: str, adapter: TypeAdapter[Any], value: object) -> Any:
    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        problems.pydantic(prefix, exc)
        return None


def json_type(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def text_field(problems: Problems, data: dict[str, Any], key: str, required: bool) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        problems.add(key, f"must be a string, not {json_type(value)}")
        return ""
    if required and key in data and not value.strip():
        problems.add(key, "must not be empty")
    return value


def as_list(problems: Problems, path: str, value: object) -> list[Any]:
    if not isinstance(value, list):
        problems.add(path, f"must be a list, not {json_type(value)}")
        return []
    return value


# --------------------------------------------------------------------------------------------------------
# The parts of a map
# --------------------------------------------------------------------------------------------------------

Tier = Annotated[int, Field(ge=1, le=99)]


class BoardSpec(BaseModel):
    """The board as written in a file: lists, so that errors name the entry's index."""

    model_config = ConfigDict(extra="forbid")
    cols: int = Field(ge=1, le=L.MAP_SIDE_MAX)
    rows: int = Field(ge=1, le=L.MAP_SIDE_MAX)
    walls: list[Cell] = Field(default_factory=list, max_length=L.WALLS_MAX)
    objects: list[BoardObject] = Field(default_factory=list, max_length=L.OBJECTS_MAX)
    conductive: list[list[Cell]] = Field(default_factory=list, max_length=L.TERRAIN_CELLS_MAX)
    water: list[Cell] = Field(default_factory=list, max_length=L.TERRAIN_CELLS_MAX)
    uneven: list[tuple[int, int, Tier]] = Field(
        default_factory=list, max_length=L.TERRAIN_CELLS_MAX, description="[q, r, tier] each."
    )
    light: list[tuple[int, int, LightLevel]] = Field(
        default_factory=list, max_length=L.TERRAIN_CELLS_MAX, description='[q, r, "lit" | "dim" | "dark"] each.'
    )
    background: Background | None = None


_SETTINGS = TypeAdapter(TableSettings)
_BOARD = TypeAdapter(BoardSpec)
_WEAPON = TypeAdapter(Weapon)
_CREATURE = TypeAdapter(Creature)
_GRIP = TypeAdapter(dict[str, str])
_WOUNDED = TypeAdapter(dict[str, Annotated[int, Field(ge=0)]])
_GRIDS = ("hex", "square")


@dataclass
class MapParts:
    """A map's parts, each None when it was malformed (the problems say why)."""

    settings: TableSettings | None
    board: BoardSpec | None
    weapons: dict[str, Weapon]
    creatures: list[Creature] | None


def read_format(problems: Problems, data: dict[str, Any]) -> None:
    """`format` (a map's) and `version` (a scenario's) are 1 when given."""
    for key in ("format", "version"):
        if key in data and (data[key] != MAP_FORMAT or isinstance(data[key], bool)):
            problems.add(key, f"must be {MAP_FORMAT} (got {shown(data[key])}); this VTT reads format {MAP_FORMAT}")


def read_parts(problems: Problems, data: dict[str, Any]) -> MapParts:
    """Validate the map's settings (with `grid`), board, weapons and creatures."""
    settings: TableSettings | None = TableSettings()
    raw_settings = data.get("settings", {})
    grid = data.get("grid")
    if grid is not None and grid not in _GRIDS:
        problems.add("grid", f'must be "hex" or "square" (got {shown(grid)})')
        grid = None
    if isinstance(raw_settings, dict) and grid is not None:
        if "grid" in raw_settings and raw_settings["grid"] != grid:
            problems.add("grid", f"{shown(grid)} disagrees with settings.grid {shown(raw_settings['grid'])}")
        raw_settings = {**raw_settings, "grid": grid}
    if "settings" in data or grid is not None:
        settings = validate(problems, "settings", _SETTINGS, raw_settings)
    board: BoardSpec | None = None
    if "board" in data:
        board = validate(problems, "board", _BOARD, data["board"])
    weapons = _load_weapons(problems, data.get("weapons", []))
    creatures = _load_creatures(problems, data.get("creatures", []), weapons)
    return MapParts(settings, board, weapons, creatures)


def _load_weapons(problems: Problems, raw: object) -> dict[str, Weapon]:
    weapons: dict[str, Weapon] = {}
    items = as_list(problems, "weapons", raw)
    if len(items) > L.MAP_WEAPONS_MAX:
        problems.add("weapons", f"at most {L.MAP_WEAPONS_MAX} weapons (this has {len(items)})")
        return weapons
    for i, item in enumerate(items):
        w: Weapon | None = validate(problems, f"weapons[{i}]", _WEAPON, item)
        if w is None:
            continue
        if w.id in weapons:
            problems.add(f"weapons[{i}].id", f"duplicate weapon id {shown(w.id)}")
        weapons[w.id] = w
    return weapons


def _load_creatures(problems: Problems, raw: object, weapons: dict[str, Weapon]) -> list[Creature] | None:
    creatures: list[Creature] = []
    ids: set[str] = set()
    ok = True
    items = as_list(problems, "creatures", raw)
    if len(items) > L.CREATURES_MAX:
        problems.add("creatures", f"at most {L.CREATURES_MAX} creatures (this has {len(items)})")
        return None
    for i, item in enumerate(items):
        path = f"creatures[{i}]"
        if not isinstance(item, dict):
            problems.add(path, f"must be an object, not {json_type(item)}")
            ok = False
            continue
        rest = dict(item)
        carried = _creature_weapons(problems, path, rest.pop("weapons", []), weapons)
        grip = validate(problems, f"{path}.grip", _GRIP, rest.pop("grip", {}))
        wounded = validate(problems, f"{path}.wounded", _WOUNDED, rest.pop("wounded", {}))
        c: Creature | None = validate(problems, path, _CREATURE, rest)
        if c is None or carried is None or grip is None or wounded is None:
            ok = False
            continue
        if c.id == SOULWEAVER:
            problems.add(f"{path}.id", f"{shown(c.id)} is reserved for the Soulweaver's turn")
        if c.id in ids:
            problems.add(f"{path}.id", f"duplicate creature id {shown(c.id)}")
        ids.add(c.id)
        c.weapons = carried
        apply_grip(problems, path, c, grip)
        _apply_wounded(problems, path, c, wounded)
        creatures.append(c)
    return creatures if ok else None


def _creature_weapons(problems: Problems, path: str, raw: object, weapons: dict[str, Weapon]) -> list[Weapon] | None:
    """A creature's weapons: ids of the file's `weapons`, or whole weapons written in place."""
    out: list[Weapon] = []
    good = True
    items = as_list(problems, f"{path}.weapons", raw)
    if len(items) > L.WEAPONS_MAX:
        problems.add(f"{path}.weapons", f"at most {L.WEAPONS_MAX} weapons (this has {len(items)})")
        return None
    for j, item in enumerate(items):
        where = f"{path}.weapons[{j}]"
        if isinstance(item, str):
            if item not in weapons:
                known = ", ".join(weapons) or "none are defined"
                problems.add(where, f"unknown weapon {shown(item)} (not in weapons: {known})")
                good = False
            else:
                out.append(weapons[item])
        elif isinstance(item, dict):
            w: Weapon | None = validate(problems, where, _WEAPON, item)
            if w is None:
                good = False
            else:
                out.append(w)
        else:
            problems.add(where, f"a weapon id or a weapon object, not {json_type(item)}")
            good = False
    seen: set[str] = set()
    for j, w in enumerate(out):
        if w.id in seen:
            problems.add(f"{path}.weapons[{j}]", f"{shown(w.id)} is carried twice")
            good = False
        seen.add(w.id)
    return out if good else None


def apply_grip(problems: Problems, path: str, c: Creature, grip: dict[str, str]) -> None:
    for limb_id, wid in grip.items():
        limb = c.limb(limb_id)
        where = json_path(f"{path}.grip", [limb_id])
        if limb is None:
            problems.add(where, f"{c.name} has no limb {shown(limb_id)} (limbs: {', '.join(x.id for x in c.limbs)})")
        elif not limb.can_grip:
            problems.add(where, f"{c.name}'s {limb.name} cannot grip")
        elif c.weapon(wid) is None:
            problems.add(where, f"{c.name} does not carry weapon {shown(wid)}: add it to {path}.weapons")
        else:
            limb.holding = wid
    for j, limb in enumerate(c.limbs):
        if limb.holding is not None and c.weapon(limb.holding) is None:
            problems.add(f"{path}.limbs[{j}].holding", f"{c.name} does not carry weapon {shown(limb.holding)}")


def _apply_wounded(problems: Problems, path: str, c: Creature, wounded: dict[str, int]) -> None:
    """`"wounded": {"stomach": 5}`: Tiers of Wounded already on body parts, added to the Wounded total too."""
    for part_id, tiers in wounded.items():
        part = c.part(part_id)
        if part is None:
            where = json_path(f"{path}.wounded", [part_id])
            problems.add(
                where, f"{c.name} has no body part {shown(part_id)} (parts: {', '.join(p.id for p in c.parts)})"
            )
            continue
        part.wounded += tiers
        if tiers:
            c.ailments["Wounded"] = c.ailments.get("Wounded", 0) + tiers


def initial_state(problems: Problems, settings: TableSettings, spec: BoardSpec, creatures: list[Creature]) -> GameState:
    """The starting state; walls, objects, terrain and creatures must lie on the map, creatures where they fit."""
    board = Board(
        cols=spec.cols,
        rows=spec.rows,
        walls=set(spec.walls),
        objects=spec.objects,
        conductive=spec.conductive,
        water=set(spec.water),
        uneven={(q, r): t for q, r, t in spec.uneven},
        light={(q, r): level for q, r, level in spec.light},
        background=spec.background,
    )
    state = GameState(settings=settings, board=board)
    grid = grid_of(state)
    size = f"the {board.cols}x{board.rows} map"

    def on_map(path: str, cell: Cell) -> None:
        if not grid.in_bounds(cell, board.cols, board.rows):
            problems.add(path, f"{cell} is off {size}")

    for i, cell in enumerate(spec.walls):
        on_map(f"board.walls[{i}]", cell)
    for i, cell in enumerate(spec.water):
        on_map(f"board.water[{i}]", cell)
    for i, (q, r, _) in enumerate(spec.uneven):
        on_map(f"board.uneven[{i}]", (q, r))
    for i, (q, r, _) in enumerate(spec.light):
        on_map(f"board.light[{i}]", (q, r))
    for i, piece in enumerate(spec.conductive):
        for j, cell in enumerate(piece):
            on_map(f"board.conductive[{i}][{j}]", cell)
    seen: set[str] = set()
    for i, obj in enumerate(board.objects):
        if obj.id in seen:
            problems.add(f"board.objects[{i}].id", f"duplicate object id {shown(obj.id)}")
        seen.add(obj.id)
        for j, cell in enumerate(obj.cells):
            on_map(f"board.objects[{i}].cells[{j}]", cell)
    filled = board.filled()
    occ = Occupancy(state)
    for i, c in enumerate(creatures):
        state.creatures[c.id] = c
        if c.swallowed_by is not None:
            continue
        why = why_cannot_stand(state, c, c.anchor, occ, filled)
        if why is not None:
            problems.add(f"creatures[{i}].anchor", why)
        occ.place(c.id)
    return state


# --------------------------------------------------------------------------------------------------------
# Loading and writing maps
# --------------------------------------------------------------------------------------------------------


def parse_json_text(text: str) -> Any:
    """Decode JSON text; invalid JSON and duplicate keys are `MapError`s."""

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise MapError([f"json: duplicate key {json.dumps(key)} in an object"])
            out[key] = value
        return out

    try:
        return json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        raise MapError([f"json: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"]) from None


def load_map(data: object) -> GameState:
    """Validate decoded JSON data as a map file and return its starting state (the fight not begun); `MapError`
    names every bad field by its JSON path. A scenario file loads too: its commands, dice and expectations are
    ignored."""
    problems = Problems()
    if not isinstance(data, dict):
        raise MapError([f"map: must be a JSON object, not {json_type(data)}"])
    for key in data:
        if key not in MAP_KEYS and key not in SCENARIO_KEYS:
            problems.add(json_path(str(key)), f"unknown key; a map has {', '.join(MAP_KEYS)}")
    if "board" not in data:
        problems.add("board", "missing (required)")
    read_format(problems, data)
    text_field(problems, data, "name", required=False)
    text_field(problems, data, "description", required=False)
    parts = read_parts(problems, data)
    problems.raise_if_any()
    assert parts.settings is not None and parts.board is not None and parts.creatures is not None
    state = initial_state(problems, parts.settings, parts.board, parts.creatures)
    problems.raise_if_any()
    return state


def parse_map_text(text: str) -> GameState:
    """`load_map` of JSON text."""
    return load_map(parse_json_text(text))


def map_name(data: object) -> str:
    """The `name` of decoded map data ("" when it has none)."""
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) else ""


def map_json(state: GameState, name: str = "", description: str = "") -> dict[str, Any]:
    """The map file (format 1) of a state: its settings, board and creatures as they are now, each creature with
    its weapons written in place. `load_map(map_json(s))` gives `s`'s board, settings and creatures back."""
    board = state.board
    settings = state.settings.model_dump(mode="json", exclude_defaults=True)
    grid = settings.pop("grid", "hex")
    board_json: dict[str, Any] = {
        "cols": board.cols,
        "rows": board.rows,
        "walls": [list(c) for c in sorted(board.walls)],
        "objects": [o.model_dump(mode="json", exclude_defaults=True) for o in board.objects],
        "uneven": [[q, r, t] for (q, r), t in sorted(board.uneven.items())],
        "water": [list(c) for c in sorted(board.water)],
        "conductive": [[list(c) for c in piece] for piece in board.conductive],
    }
    if board.light:
        board_json["light"] = [[q, r, level] for (q, r), level in sorted(board.light.items())]
    if board.background is not None:
        board_json["background"] = board.background.model_dump(mode="json")
    return {
        "format": MAP_FORMAT,
        "name": name,
        "description": description,
        "grid": grid,
        "settings": settings,
        "board": board_json,
        "creatures": [c.model_dump(mode="json", exclude_defaults=True) for c in state.creatures.values()],
    }
