"""Universal VTT import: a `.dd2vtt` / `.uvtt` / `.df2vtt` file (Dungeondraft, DungeonFog and others) becomes a map
file of format 1 (`docs/map-format.md`).

What is read (the file is JSON; other keys, such as `lights` and `environment`, are ignored):

- `resolution`: `map_origin` `{x, y}` (grid units, default 0, 0), `map_size` `{x, y}` (grid units) and
  `pixels_per_grid`. The map is a **square grid** of `ceil(map_size.x)` x `ceil(map_size.y)` spaces.
- `image`: the map picture, base64 (PNG, WebP or JPEG, told apart by its first bytes). It becomes the background as a
  `data:` URL with `offset` [0, 0] and `cell_px` = `pixels_per_grid` (the image starts at the grid's origin).
  `image=` gives an address to use instead (e.g. the picture uploaded to the server: `/api/...`); a picture
  longer than the background limit (`model.BACKGROUND_DATA_LIMIT`) must be given that way.
- `line_of_sight` (and `objects_line_of_sight`, when present): wall polylines, lists of points `{x, y}` in grid
  units (from `map_origin`). Each segment between consecutive points marks a wall in **every space it crosses**:
  a supercover walk, in exact arithmetic (`segment_cells`):
  - a space counts when the segment runs through it for more than a single point, so a segment ending exactly
    on a space's corner or edge does not mark the space beyond it (a door gap between two walls stays one space);
  - **a segment along a grid line marks the spaces on one side, always the same one: the spaces to the right of a
    vertical line (x = k marks column k) and below a horizontal line (y = k marks row k)**. So a room drawn on grid
    lines from (2, 2) to (6, 5) gets walls in columns 2 and 6 and rows 2 and 5: its left and top walls inside the
    drawn room, its right and bottom walls just outside it;
  - where a diagonal segment passes exactly through a grid corner, the space beside it in x is marked too, so the
    wall stays closed for a creature moving diagonally (the segment is walked from its left end, so the choice does
    not depend on the direction it was drawn in);
  - where a polyline turns, the space holding the turning point is marked too (by the same rule: the space to its
    right and below), so a room's outline stays closed at its corners;
  - segments lying on the map's outer edge mark nothing (the edge already stops everything), and spaces off the
    map are dropped.

  Before any tracing, every point must lie on the map or at most `EDGE_MARGIN` (1) space beyond its edge and be a
  finite number, there may be at most `limits.UVTT_POINTS_MAX` points, and the segments' lengths added up at most
  `limits.UVTT_TRACE_MAX` spaces: a file naming a point a billion spaces away is refused at once, naming the point.
- `portals` (doors, windows): **left open**. The walls around a door stop at it, so its spaces stay free; whether a
  door is closed is not imported (the Soulweaver paints a wall there to shut it).

A hex table cannot import a Universal VTT map: its walls follow a square grid and its picture is drawn for one.
`uvtt_to_map(..., grid="hex")` refuses with a `UvttError` saying so; start a square-grid game to import one.

Everything here is pure except `read_uvtt`, which reads a file.
"""

from __future__ import annotations

import base64
import itertools
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vtt.rules import limits as L
from vtt.rules.mapfile import MAP_FORMAT, MapError, load_map
from vtt.rules.model import BACKGROUND_DATA_LIMIT, Cell, GameState
from vtt.rules.paths import field_errors
from vtt.rules.words import count

MAX_SIDE = L.MAP_SIDE_MAX
EDGE_MARGIN = 1
"""How far beyond the map's edge (in spaces) a wall point may lie: drawing tools put edge walls on the edge, give
or take a rounding error."""
SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")


class UvttError(ValueError):
    """A Universal VTT file that cannot be imported; each problem names the field."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))

    def __reduce__(self) -> tuple[type[Self], tuple[list[str]]]:
        return (type(self), (self.problems,))  # so that it crosses from a worker process whole


class _Point(BaseModel):
    model_config = ConfigDict(extra="ignore")
    x: float
    y: float


class _Resolution(BaseModel):
    model_config = ConfigDict(extra="ignore")
    map_origin: _Point = Field(default_factory=lambda: _Point(x=0, y=0))
    map_size: _Point
    pixels_per_grid: float = Field(gt=0, le=10_000)


class _Portal(BaseModel):
    model_config = ConfigDict(extra="ignore")
    position: _Point | None = None
    bounds: list[_Point] = Field(default_factory=list)
    closed: bool = True


class _Uvtt(BaseModel):
    model_config = ConfigDict(extra="ignore")
    format: float | None = None
    resolution: _Resolution
    line_of_sight: list[list[_Point]] = Field(default_factory=list, max_length=L.UVTT_POINTS_MAX)
    objects_line_of_sight: list[list[_Point]] = Field(default_factory=list, max_length=L.UVTT_POINTS_MAX)
    portals: list[_Portal] = Field(default_factory=list, max_length=L.UVTT_POINTS_MAX)
    image: str | None = None


Point = tuple[Fraction, Fraction]


def _floor(v: Fraction) -> int:
    return math.floor(v)


def segment_cells(a: tuple[float, float], b: tuple[float, float]) -> list[Cell]:
    """The spaces (unit squares [i, i+1) x [j, j+1)) a wall segment from `a` to `b` marks (see the module's rules),
    in order from its left end."""
    if a[0] == b[0] and a[1] != b[1]:  # along a column: the common case, without fractions
        low, high = sorted((a[1], b[1]))
        return [(math.floor(a[0]), j) for j in range(math.floor(low), math.ceil(high))]
    if a[1] == b[1] and a[0] != b[0]:
        low, high = sorted((a[0], b[0]))
        return [(i, math.floor(a[1])) for i in range(math.floor(low), math.ceil(high))]
    return walk_segment(a, b)


def walk_segment(a: tuple[float, float], b: tuple[float, float]) -> list[Cell]:
    """`segment_cells` for any segment, in exact arithmetic (slower; `segment_cells` takes a shortcut along grid
    lines that gives the same spaces)."""
    p = (Fraction(a[0]), Fraction(a[1]))
    q = (Fraction(b[0]), Fraction(b[1]))
    (x0, y0), (x1, y1) = sorted([p, q])
    dx, dy = x1 - x0, y1 - y0
    if dx == 0 and dy == 0:
        return []
    step_y = 1 if dy > 0 else -1
    cx = _floor(x0)
    cy = _floor(y0)
    if dy < 0 and y0 == cy:
        cy -= 1  # starting on a horizontal grid line going up: the segment is in the row above at once
    inf = Fraction(2)
    tx = (cx + 1 - x0) / dx if dx > 0 else inf
    dtx = 1 / dx if dx > 0 else inf
    if dy > 0:
        ty = (cy + 1 - y0) / dy
    elif dy < 0:
        ty = (cy - y0) / dy
    else:
        ty = inf
    dty = 1 / abs(dy) if dy != 0 else inf
    cells: list[Cell] = [(cx, cy)]
    while True:
        t = min(tx, ty)
        if t >= 1:
            break
        if tx == ty:  # exactly through a grid corner: mark the space beside it in x too
            cells.append((cx + 1, cy))
            cx += 1
            cy += step_y
            tx += dtx
            ty += dty
        elif tx < ty:
            cx += 1
            tx += dtx
        else:
            cy += step_y
            ty += dty
        cells.append((cx, cy))
    return cells


def trace_length(polylines: list[list[tuple[float, float]]]) -> int:
    """At most how many spaces tracing the polylines walks: each segment crosses at most |dx| + |dy| + 2."""
    return sum(
        math.ceil(abs(b[0] - a[0]) + abs(b[1] - a[1])) + 2 for line in polylines for a, b in itertools.pairwise(line)
    )


def point_problems(u: _Uvtt, cols: int, rows: int) -> list[str]:
    """Points off the map (beyond `EDGE_MARGIN` spaces of its edge) or not finite, and more points than the limit,
    each named by its field; checked before any tracing."""
    problems: list[str] = []
    ox, oy = u.resolution.map_origin.x, u.resolution.map_origin.y
    total = 0
    for key in ("line_of_sight", "objects_line_of_sight"):
        for i, line in enumerate(getattr(u, key)):
            total += len(line)
            for j, p in enumerate(line):
                x, y = p.x - ox, p.y - oy
                if not (math.isfinite(x) and math.isfinite(y)):
                    problems.append(f"{key}[{i}][{j}]: not a finite number")
                elif not (-EDGE_MARGIN <= x <= cols + EDGE_MARGIN and -EDGE_MARGIN <= y <= rows + EDGE_MARGIN):
                    problems.append(f"{key}[{i}][{j}]: the point ({p.x:g}, {p.y:g}) is off the {cols}x{rows} map")
                if len(problems) >= 10:
                    return [*problems, "(and maybe more; the first ten are shown)"]
    if total > L.UVTT_POINTS_MAX:
        problems.append(f"line_of_sight: at most {L.UVTT_POINTS_MAX} wall points in all (this file has {total})")
    return problems


def _on_edge(a: tuple[float, float], b: tuple[float, float], cols: int, rows: int) -> bool:
    return (a[0] == b[0] and a[0] in (0, cols)) or (a[1] == b[1] and a[1] in (0, rows))


def wall_cells(polylines: list[list[tuple[float, float]]], cols: int, rows: int) -> set[Cell]:
    """Every space on a `cols` x `rows` map that the polylines mark: each segment's spaces, and the space of each
    point where a polyline turns (so it stays closed around its corners). Segments on the map's edge mark
    nothing."""
    out: set[Cell] = set()
    for line in polylines:
        closed = len(line) > 2 and line[0] == line[-1]
        segments = list(itertools.pairwise(line))
        used = [not _on_edge(a, b, cols, rows) for a, b in segments]
        for (a, b), use in zip(segments, used, strict=True):
            if use:
                out.update(segment_cells(a, b))
        joints = [(line[i], used[i - 1] or used[i]) for i in range(1, len(line) - 1)]
        if closed:
            joints.append((line[0], used[0] or used[-1]))
        out.update((math.floor(p[0]), math.floor(p[1])) for p, use in joints if use)
    return {c for c in out if 0 <= c[0] < cols and 0 <= c[1] < rows}


def image_type(b64: str) -> str | None:
    """`png`, `webp` or `jpeg` from the first bytes of base64 image data; None for anything else."""
    try:
        head = base64.b64decode(b64[:24] + "=" * (-len(b64[:24]) % 4), validate=False)
    except ValueError:
        return None
    if head.startswith(b"\x89PNG"):
        return "png"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head.startswith(b"\xff\xd8"):
        return "jpeg"
    return None


def uvtt_to_map(
    data: object, name: str = "Imported map", *, grid: str = "square", image: str | None = None
) -> dict[str, Any]:
    """A map file (format 1, JSON-ready) from decoded Universal VTT data; `UvttError` names what is wrong."""
    if grid != "square":
        raise UvttError(
            [
                "grid: a Universal VTT map is drawn on a square grid; a hex table cannot import it "
                "(start a square-grid game to import it)"
            ]
        )
    if not isinstance(data, dict):
        raise UvttError(["file: a Universal VTT file is a JSON object"])
    try:
        u = _Uvtt.model_validate(data)
    except ValidationError as exc:
        raise UvttError(field_errors(exc)) from None
    res = u.resolution
    problems: list[str] = []
    for axis in ("x", "y"):
        v = getattr(res.map_size, axis)
        if not (math.isfinite(v) and 0 < v <= MAX_SIDE):
            problems.append(f"resolution.map_size.{axis}: must be above 0 and at most {MAX_SIDE} (got {v:g})")
    if problems:
        raise UvttError(problems)
    cols, rows = math.ceil(res.map_size.x), math.ceil(res.map_size.y)
    problems = point_problems(u, cols, rows)
    if problems:
        raise UvttError(problems)
    ox, oy = res.map_origin.x, res.map_origin.y
    lines = [[(p.x - ox, p.y - oy) for p in line] for line in [*u.line_of_sight, *u.objects_line_of_sight]]
    if (steps := trace_length(lines)) > L.UVTT_TRACE_MAX:
        raise UvttError(
            [f"line_of_sight: the walls are too long to trace ({steps} steps of space; at most {L.UVTT_TRACE_MAX})"]
        )
    walls = wall_cells(lines, cols, rows)
    board: dict[str, Any] = {"cols": cols, "rows": rows, "walls": [list(c) for c in sorted(walls)]}
    picture = image
    if picture is None and u.image:
        b64 = "".join(u.image.split())
        kind = image_type(b64)
        if kind is None:
            raise UvttError(["image: not base64 PNG, WebP or JPEG data"])
        picture = f"data:image/{kind};base64,{b64}"
        if len(picture) > BACKGROUND_DATA_LIMIT:
            raise UvttError(
                [
                    f"image: the picture is {len(picture)} characters as a data URL, more than "
                    f"{BACKGROUND_DATA_LIMIT}; upload it and import the map with its address"
                ]
            )
    if picture is not None:
        board["background"] = {"image": picture, "offset": [0, 0], "cell_px": res.pixels_per_grid, "opacity": 1}
    doors = len(u.portals)
    return {
        "format": MAP_FORMAT,
        "name": name,
        "description": f"Imported from a Universal VTT file: {cols}x{rows} spaces, {count(len(walls), 'wall space')}"
        + (f", {count(doors, 'door')} left open" if doors else "")
        + ".",
        "grid": "square",
        "board": board,
        "creatures": [],
    }


def load_uvtt(data: object, name: str = "Imported map", *, grid: str = "square", image: str | None = None) -> GameState:
    """The starting state of an imported Universal VTT map (validated as a map file)."""
    try:
        return load_map(uvtt_to_map(data, name, grid=grid, image=image))
    except MapError as exc:
        raise UvttError(exc.problems) from None


def read_uvtt(path: Path, *, grid: str = "square", image: str | None = None) -> dict[str, Any]:
    """Read a `.dd2vtt` / `.uvtt` / `.df2vtt` file and return its map file (named after the file)."""
    if path.suffix.lower() not in SUFFIXES:
        raise UvttError([f"file: {path.name} is not a Universal VTT file ({', '.join(SUFFIXES)})"])
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UvttError([f"file: cannot read {path.name}: {exc}"]) from None
    except json.JSONDecodeError as exc:
        raise UvttError([f"file: {path.name} is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"]) from None
    out = uvtt_to_map(data, path.stem, grid=grid, image=image)
    load_map(out)
    return out
