"""Every limit of `vtt.rules.limits`: refused one past it with a plain message naming the field, accepted at it, and
nothing changed by a refusal. Universal VTT points far off the map are refused before any tracing; pictures whose
headers claim too many pixels are refused without decoding them."""

from __future__ import annotations

import importlib
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from vtt.library import validate_creature
from vtt.maps.uvtt import UvttError, segment_cells, uvtt_to_map, walk_segment
from vtt.rules import limits as L
from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.events import RuleError
from vtt.rules.mapfile import MapError, load_map
from vtt.rules.model import Board, BoardObject, BodyPart, Creature, GameState, Limb, LooseItem, Pool, Weapon
from vtt.rules.paths import field_errors
from vtt.store.db import open_engine
from vtt.store.images import image_problem, image_size
from vtt.table.offload import Offloader, TooSlow
from vtt.table.registry import GameError, Games

MAPS = Path(__file__).resolve().parents[1] / "maps"

# ---- helpers ---------------------------------------------------------------------------------------------------


def refusal(build: Callable[[], object]) -> list[str]:
    """The problems (each `field: message`) of a model that must not be built."""
    with pytest.raises(ValidationError) as caught:
        build()
    return field_errors(caught.value)


def creature(**kw: Any) -> Creature:
    return Creature.model_validate({"id": "c", "name": "C", "anchor": (0, 0), **kw})


def cells(n: int, width: int = L.MAP_SIDE_MAX) -> list[tuple[int, int]]:
    return [(i % width, i // width) for i in range(n)]


# ---- creatures -------------------------------------------------------------------------------------------------

COUNTED: list[tuple[str, int, Callable[[int], Any]]] = [
    ("skills", L.SKILLS_MAX, lambda n: {f"Skill{i}": 1 for i in range(n)}),
    ("limbs", L.LIMBS_MAX, lambda n: [{"id": f"l{i}", "name": f"limb {i}"} for i in range(n)]),
    ("parts", L.PARTS_MAX, lambda n: [{"id": f"p{i}", "name": f"part {i}", "size_offset": 2} for i in range(n)]),
    ("weapons", L.WEAPONS_MAX, lambda n: [{"id": f"w{i}", "name": f"weapon {i}", "damage": 1} for i in range(n)]),
    ("abilities", L.ABILITIES_MAX, lambda n: [f"a{i}" for i in range(n)]),
    ("footprint", L.FOOTPRINT_CELLS_MAX, lambda n: cells(n, 20)),
    ("immunities", L.DAMAGE_TYPES_MAX, lambda n: [f"t{i}" for i in range(n)]),
    ("reductions", L.DAMAGE_TYPES_MAX, lambda n: {f"t{i}": 1 for i in range(n)}),
]


@pytest.mark.parametrize(("field", "limit", "make"), COUNTED, ids=[c[0] for c in COUNTED])
def test_a_creatures_lists_are_bounded(field: str, limit: int, make: Callable[[int], Any]) -> None:
    assert len(getattr(creature(**{field: make(limit)}), field)) == limit
    problems = refusal(lambda: creature(**{field: make(limit + 1)}))
    counted = "" if field in ("skills", "reductions") else f" (this has {limit + 1})"  # pydantic stops counting a dict
    assert problems == [f"{field}: at most {limit} entries{counted}"]


@pytest.mark.parametrize(
    ("field", "low", "high"),
    [("size", L.CREATURE_SIZE_MIN, L.CREATURE_SIZE_MAX), ("movement_pool", 0, None)],
)
def test_a_creatures_size_is_bounded(field: str, low: int, high: int | None) -> None:
    assert getattr(creature(**{field: low}), field) == low
    assert refusal(lambda: creature(**{field: low - 1}))[0].startswith(f"{field}: ")
    if high is not None:
        assert getattr(creature(**{field: high}), field) == high
        problems = refusal(lambda: creature(**{field: high + 1}))
        assert problems[0].startswith(f"{field}: at most {high}")


@pytest.mark.parametrize(
    ("field", "limit"), [("name", L.NAME_MAX), ("species", L.NAME_MAX), ("notes", L.NOTES_MAX), ("id", L.ID_MAX)]
)
def test_a_creatures_texts_are_bounded(field: str, limit: int) -> None:
    assert getattr(creature(**{field: "a" * limit}), field) == "a" * limit
    problems = refusal(lambda: creature(**{field: "a" * (limit + 1)}))
    assert len(problems) == 1 and problems[0].startswith(f"{field}: ") and f"at most {limit} characters" in problems[0]


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("id", "a b", "an id may use only letters, digits"),
        ("id", "", "an id may not be empty"),
        ("name", "Ann\ud800", "a broken character"),
        ("name", "Ann\nBob", "a control character"),
        ("notes", "bad\x00", "a control character"),
        ("color", "red;background:url(x)", "#rgb or #rrggbb"),
        ("controller", "x" * (L.NAME_MAX + 1), f"at most {L.NAME_MAX} characters"),
    ],
)
def test_bad_text_is_refused_in_plain_words(field: str, value: str, why: str) -> None:
    problems = refusal(lambda: creature(**{field: value}))
    assert len(problems) == 1 and problems[0].startswith(f"{field}: ") and why in problems[0]
    assert "Value error" not in problems[0]


def test_notes_keep_their_lines_and_a_short_colour_is_a_colour() -> None:
    c = creature(notes="line one\nline two\ttabbed", color="#abc")
    assert c.notes.count("\n") == 1 and c.color == "#abc"


def test_pools_limbs_parts_and_weapons_are_bounded() -> None:
    assert Pool(max=L.POOL_MAX, pips=L.POOL_MAX).max == L.POOL_MAX
    assert refusal(lambda: Pool(max=L.POOL_MAX + 1))[0].startswith("max: ")
    assert refusal(lambda: Limb(id="x y", name="arm"))[0].startswith("id: an id may use only")
    assert BodyPart(id="eye", name="eye", size_offset=L.PART_OFFSET_MAX).size_offset == L.PART_OFFSET_MAX
    assert refusal(lambda: BodyPart(id="eye", name="eye", size_offset=L.PART_OFFSET_MAX + 1))[0].startswith(
        "size_offset: "
    )
    assert refusal(lambda: Weapon(id="w", name="n" * (L.NAME_MAX + 1), damage=1))[0].startswith("name: at most")
    assert Weapon(id="w", name="w", damage=L.DICE_MAX).damage == L.DICE_MAX
    assert refusal(lambda: Weapon(id="w", name="w", damage=L.DICE_MAX + 1))[0].startswith("damage: ")


# ---- boards and games ------------------------------------------------------------------------------------------


def board(**kw: Any) -> Board:
    return Board.model_validate({"cols": L.MAP_SIDE_MAX, "rows": L.MAP_SIDE_MAX, **kw})


def test_a_maps_sides_are_bounded() -> None:
    assert board().cols == L.MAP_SIDE_MAX
    assert refusal(lambda: board(cols=L.MAP_SIDE_MAX + 1))[0].startswith("cols: ")
    assert refusal(lambda: board(rows=L.MAP_SIDE_MAX + 1))[0].startswith("rows: ")


def _obj(i: int, n: int = 1) -> dict[str, Any]:
    return {"id": f"o{i}", "name": "crate", "cells": cells(n)}


BOARD_COUNTS: list[tuple[str, int, Callable[[int], Any]]] = [
    ("walls", L.WALLS_MAX, lambda n: cells(n)),
    ("water", L.TERRAIN_CELLS_MAX, lambda n: cells(n)),
    ("uneven", L.TERRAIN_CELLS_MAX, lambda n: [[q, r, 1] for q, r in cells(n)]),
    ("conductive", L.TERRAIN_CELLS_MAX, lambda n: [[c] for c in cells(n)]),
    ("objects", L.OBJECTS_MAX, lambda n: [_obj(i) for i in range(n)]),
    ("items", L.ITEMS_MAX, lambda n: [{"weapon": {"id": "w", "name": "w", "damage": 1}, "cell": (0, 0)}] * n),
]


@pytest.mark.parametrize(("field", "limit", "make"), BOARD_COUNTS, ids=[c[0] for c in BOARD_COUNTS])
def test_a_boards_collections_are_bounded(field: str, limit: int, make: Callable[[int], Any]) -> None:
    assert len(getattr(board(**{field: make(limit)}), field)) == limit
    problems = refusal(lambda: board(**{field: make(limit + 1)}))
    assert len(problems) == 1 and problems[0].startswith(f"{field}: at most {limit} ")


def test_conductive_material_is_bounded_in_all() -> None:
    half = L.TERRAIN_CELLS_MAX // 2
    assert len(board(conductive=[cells(half), cells(half)]).conductive) == 2
    problems = refusal(lambda: board(conductive=[cells(half), cells(half + 1)]))
    assert problems == [f"conductive: at most {L.TERRAIN_CELLS_MAX} spaces in all (this has {2 * half + 1})"]


def test_an_objects_spaces_and_size_are_bounded() -> None:
    assert len(BoardObject.model_validate(_obj(0, L.OBJECT_CELLS_MAX)).cells) == L.OBJECT_CELLS_MAX
    problems = refusal(lambda: BoardObject.model_validate(_obj(0, L.OBJECT_CELLS_MAX + 1)))
    assert problems == [f"cells: at most {L.OBJECT_CELLS_MAX} entries (this has {L.OBJECT_CELLS_MAX + 1})"]
    assert refusal(lambda: BoardObject.model_validate({**_obj(0), "size": L.CREATURE_SIZE_MAX + 1}))[0].startswith(
        "size: "
    )


def test_a_game_holds_at_most_so_many_creatures() -> None:
    def game(n: int) -> GameState:
        crowd = {f"c{i}": {"id": f"c{i}", "name": "C", "anchor": (i % 200, i // 200)} for i in range(n)}
        return GameState.model_validate({"board": {"cols": 200, "rows": 200}, "creatures": crowd})

    assert len(game(L.CREATURES_MAX).creatures) == L.CREATURES_MAX
    problems = refusal(lambda: game(L.CREATURES_MAX + 1))
    assert problems == [f"creatures: at most {L.CREATURES_MAX} entries"]


def test_loose_items_name_their_weapon_field() -> None:
    problems = refusal(
        lambda: LooseItem.model_validate({"weapon": {"id": "w!", "name": "w", "damage": 1}, "cell": (0, 0)})
    )
    assert problems[0].startswith("weapon.id: an id may use only")


# ---- map files, the library and commands ----------------------------------------------------------------------


def test_a_map_file_over_a_limit_names_the_field() -> None:
    base = {"format": 1, "grid": "square", "board": {"cols": 200, "rows": 200}}
    crowd = [{"id": f"c{i}", "name": "C", "anchor": [i % 200, i // 200]} for i in range(L.CREATURES_MAX)]
    assert len(load_map({**base, "creatures": crowd}).creatures) == L.CREATURES_MAX
    extra = {"id": "one_more", "name": "C", "anchor": [0, 199]}
    with pytest.raises(MapError) as caught:
        load_map({**base, "creatures": [*crowd, extra]})
    assert caught.value.problems == [f"creatures: at most {L.CREATURES_MAX} creatures (this has {L.CREATURES_MAX + 1})"]
    with pytest.raises(MapError) as caught:
        load_map({**base, "board": {"cols": L.MAP_SIDE_MAX + 1, "rows": 1}})
    assert caught.value.problems[0].startswith("board.cols: ")
    big = {"id": "giant", "name": "Giant", "anchor": [5, 5], "size": 2000}
    with pytest.raises(MapError) as caught:
        load_map({**base, "creatures": [big]})
    assert caught.value.problems[0].startswith("creatures[0].size: ")
    weapons = [{"id": f"w{i}", "name": "w", "damage": 1} for i in range(L.WEAPONS_MAX + 1)]
    with pytest.raises(MapError) as caught:
        load_map({**base, "creatures": [{"id": "c", "name": "C", "anchor": [1, 1], "weapons": weapons}]})
    assert caught.value.problems == [f"creatures[0].weapons: at most {L.WEAPONS_MAX} weapons (this has 17)"]


def test_a_library_entry_over_a_limit_names_the_field() -> None:
    assert validate_creature({"name": "Colossus", "size": L.CREATURE_SIZE_MAX}) == []
    assert validate_creature({"name": "Colossus", "size": L.CREATURE_SIZE_MAX + 1})[0].startswith("size: ")
    assert validate_creature({"name": "C", "description": "d" * (4 * L.NAME_MAX + 1)})[0].startswith(
        "description: at most"
    )
    many = [{"id": f"w{i}", "name": "w", "damage": 1} for i in range(L.WEAPONS_MAX + 1)]
    assert validate_creature({"name": "C", "weapons": many}) == [
        f"weapons: at most {L.WEAPONS_MAX} weapons (this has {L.WEAPONS_MAX + 1})"
    ]


def test_edit_creature_to_a_huge_size_is_refused_and_changes_nothing() -> None:
    state = load_map(
        {
            "grid": "square",
            "board": {"cols": 10, "rows": 10},
            "creatures": [{"id": "ogre", "name": "Ogre", "anchor": [1, 1]}],
        }
    )
    before = state.model_dump()
    with pytest.raises((RuleError, ValidationError), match="size"):
        apply(state, {"type": "edit_creature", "creature": "ogre", "changes": {"size": 10**6}}, ScriptedDice([]))
    assert state.model_dump() == before


# ---- Universal VTT ---------------------------------------------------------------------------------------------


def uvtt(points: Sequence[tuple[float, float]], size: float = 10) -> dict[str, Any]:
    return {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": size, "y": size}, "pixels_per_grid": 50},
        "line_of_sight": [[{"x": x, "y": y} for x, y in points]],
    }


def test_a_far_away_wall_point_is_refused_before_any_tracing() -> None:
    data = uvtt([(1, 1), (1e9, 1)])
    assert len(json.dumps(data)) < 250  # the measured attack: a file of a couple of hundred bytes
    started = time.perf_counter()
    with pytest.raises(UvttError) as caught:
        uvtt_to_map(data)
    assert time.perf_counter() - started < 5  # generous: the trace of 10**9 spaces would take many minutes
    assert caught.value.problems == ["line_of_sight[0][1]: the point (1e+09, 1) is off the 10x10 map"]


def test_wall_points_on_or_just_past_the_edge_are_kept_and_not_finite_ones_refused() -> None:
    edge = uvtt([(0, 5), (10, 5), (11, 5)])
    assert [2, 5] in uvtt_to_map(edge)["board"]["walls"]
    with pytest.raises(UvttError, match=r"line_of_sight\[0\]\[1\]: the point \(11.01, 5\) is off"):
        uvtt_to_map(uvtt([(0, 5), (11.01, 5)]))
    with pytest.raises(UvttError, match=r"line_of_sight\[0\]\[0\]: not a finite number"):
        uvtt_to_map(uvtt([(math.nan, 5), (1, 5)]))


def test_the_number_of_wall_points_is_bounded() -> None:
    ring = [(1 + (i % 2), 1) for i in range(L.UVTT_POINTS_MAX + 1)]
    with pytest.raises(UvttError) as caught:
        uvtt_to_map(uvtt(ring))
    assert caught.value.problems == [
        f"line_of_sight: at most {L.UVTT_POINTS_MAX} wall points in all (this file has {L.UVTT_POINTS_MAX + 1})"
    ]


def test_the_walls_traced_are_bounded_by_the_map() -> None:
    zigzag = [(0.5, 0), (199.5, 200)] * (L.UVTT_TRACE_MAX // 400 + 1)
    with pytest.raises(UvttError, match=r"line_of_sight: the walls are too long to trace"):
        uvtt_to_map(uvtt(zigzag, 200))


@pytest.mark.parametrize(
    ("a", "b"), [((2, 0.5), (2, 7)), ((2.5, 7.25), (2.5, 1)), ((0, 3), (9.5, 3)), ((8.75, 4.5), (1.25, 4.5))]
)
def test_the_shortcut_along_grid_lines_marks_what_the_exact_walk_marks(
    a: tuple[float, float], b: tuple[float, float]
) -> None:
    assert segment_cells(a, b) == walk_segment(a, b)


# ---- pictures --------------------------------------------------------------------------------------------------


def png(w: int, h: int) -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + w.to_bytes(4, "big") + h.to_bytes(4, "big") + bytes(20)


def jpeg(w: int, h: int) -> bytes:
    app0 = b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc2\x00\x11\x08" + h.to_bytes(2, "big") + w.to_bytes(2, "big") + bytes(12)
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def webp(w: int, h: int, kind: str) -> bytes:
    if kind == "VP8X":
        body = bytes(4) + (w - 1).to_bytes(3, "little") + (h - 1).to_bytes(3, "little")
    elif kind == "VP8L":
        body = b"\x2f" + ((w - 1) | (h - 1) << 14).to_bytes(4, "little")
    else:
        body = bytes(3) + b"\x9d\x01\x2a" + w.to_bytes(2, "little") + h.to_bytes(2, "little")
    return b"RIFF\x00\x00\x00\x00WEBP" + kind.encode() + len(body).to_bytes(4, "little") + body + bytes(8)


FORMATS: list[tuple[str, Callable[[int, int], bytes]]] = [
    ("png", png),
    ("jpeg", jpeg),
    ("webp-vp8x", lambda w, h: webp(w, h, "VP8X")),
    ("webp-vp8l", lambda w, h: webp(w, h, "VP8L")),
]


@pytest.mark.parametrize(("kind", "make"), FORMATS, ids=[f[0] for f in FORMATS])
def test_a_picture_claiming_too_many_pixels_is_refused_from_its_header(
    kind: str, make: Callable[[int, int], bytes]
) -> None:
    assert image_size(make(640, 480)) == (640, 480)
    tall = L.IMAGE_PIXELS_MAX // L.IMAGE_SIDE_MAX
    assert image_problem(make(L.IMAGE_SIDE_MAX, tall)) is None
    assert "at most" in str(image_problem(make(L.IMAGE_SIDE_MAX, tall + 1)))
    assert image_problem(make(L.IMAGE_SIDE_MAX + 1, 1)) == (
        f"the image is {L.IMAGE_SIDE_MAX + 1} × 1 pixels; at most {L.IMAGE_SIDE_MAX} pixels a side"
    )
    huge = {"jpeg": 65_535, "webp-vp8l": 16_384}.get(kind, 100_000)  # the most a JPEG's or VP8L's header can say
    assert image_problem(make(huge, huge)) == (
        f"the image is {huge} × {huge} pixels; at most {L.IMAGE_SIDE_MAX} pixels a side"
    )


def test_a_lossy_webp_claiming_its_largest_size_is_refused() -> None:
    assert image_problem(webp(16383, 16383, "VP8 ")) == (
        f"the image is 16383 × 16383 pixels; at most {L.IMAGE_SIDE_MAX} pixels a side"
    )


def test_a_picture_whose_size_cannot_be_read_is_refused() -> None:
    assert "cannot be read" in str(image_problem(b"\x89PNG\r\n\x1a\n" + bytes(40)))
    assert image_problem(b"GIF89a") == "the file is not a PNG, JPEG or WebP image"


# ---- work off the loop -----------------------------------------------------------------------------------------


def test_a_job_past_its_budget_is_stopped_and_the_next_one_runs() -> None:
    """The jobs are functions of light modules: a new worker imports a job's module before the job's budget starts
    (`test_importing_a_job_s_module_is_not_counted_in_its_budget`), and within `START_SECONDS`."""
    pool = Offloader(workers=1)
    try:
        with pytest.raises(TooSlow, match=r"longer than 0\.5 seconds"):
            pool.run(time.sleep, 60.0, seconds=0.5)
        assert pool.processes == []  # the runaway worker was killed
        assert pool.run(math.factorial, 5, seconds=30) == 120
        with pytest.raises(MapError) as caught:
            pool.run(load_map, {"board": {"cols": 0}}, seconds=30)
        assert caught.value.problems == ["board.cols: at least 1 (got 0)", "board.rows: Field required"]
    finally:
        pool.close()
    assert pool.processes == []


SLOW_IMPORT = """
import multiprocessing
import time

if multiprocessing.parent_process() is not None:  # in the worker only: as a big import at low priority, loaded
    time.sleep(2.0)


def answer() -> int:
    return 42
"""


def test_importing_a_job_s_module_is_not_counted_in_its_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker imports a job's module as it unpickles the job (the rules core, at the worker's low priority: on a
    busy machine that took longer than the job's budget); the budget counts the job alone."""
    (tmp_path / "slow_to_import.py").write_text(SLOW_IMPORT)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("slow_to_import")
    pool = Offloader(workers=1)
    try:
        assert pool.run(module.answer, seconds=1.0) == 42
    finally:
        pool.close()
        sys.modules.pop("slow_to_import", None)


# ---- seats and invitations -------------------------------------------------------------------------------------


def test_a_game_has_at_most_so_many_players_and_open_invitations(tmp_path: Path) -> None:
    games = Games(open_engine(f"sqlite:///{tmp_path}/seats.sqlite"), MAPS)
    made = games.create("Full house", "demo.json", None, "Mira")
    game = made.game_id
    while len(games.invitations(game)) < L.INVITATIONS_MAX:
        games.invite(game)
    with pytest.raises(GameError, match=f"{L.INVITATIONS_MAX} open invitations already"):
        games.invite(game)
    players = len(games.players(game))
    for i in range(L.SEATS_MAX - players):
        games.join(made.invitation, f"Player {i}")
    assert len(games.players(game)) == L.SEATS_MAX
    with pytest.raises(GameError, match=f"this game is full: it has {L.SEATS_MAX} players"):
        games.join(made.invitation, "One too many")
    assert len(games.players(game)) == L.SEATS_MAX
    games.close()
