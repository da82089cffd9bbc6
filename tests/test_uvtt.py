"""Universal VTT import (`vtt/maps/uvtt.py`): each test builds its own small file. Walls are worked out by hand
from the module's rules: a segment marks every space it runs through for more than a point; along a grid line it
marks the spaces to the right of a vertical line (x = k: column k) and below a horizontal one (y = k: row k);
where a polyline turns, the space of the turning point is marked; through an exact grid corner, the space beside
it in x is marked too."""

from __future__ import annotations

import base64
import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest
from factories import creature
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.maps.uvtt import UvttError, load_uvtt, read_uvtt, segment_cells, uvtt_to_map
from vtt.rules.mapfile import load_map
from vtt.rules.movement import reachable

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(24)).decode()
WEBP = base64.b64encode(b"RIFF\x10\x00\x00\x00WEBPVP8 " + bytes(8)).decode()


def pts(*xy: tuple[float, float]) -> list[dict[str, float]]:
    return [{"x": x, "y": y} for x, y in xy]


def uvtt(lines: list[list[dict[str, float]]], cols: float = 8, rows: float = 7, **kw: Any) -> dict[str, Any]:
    return {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": cols, "y": rows}, "pixels_per_grid": 50},
        "line_of_sight": lines,
        "portals": [],
        "lights": [],
        "image": PNG,
        **kw,
    }


def l_room() -> list[dict[str, float]]:
    return pts((1, 1), (5, 1), (5, 3), (3, 3), (3, 5), (1, 5), (1, 1))


def test_an_l_shaped_room_becomes_a_closed_wall() -> None:
    """Top y=1 x 1..5: row 1, columns 1-4; right x=5 y 1..3: column 5, rows 1-2; y=3 x 3..5: row 3, columns 3-4;
    x=3 y 3..5: column 3, rows 3-4; y=5 x 1..3: row 5, columns 1-2; x=1 y 1..5: column 1, rows 1-4; and the
    turning points' spaces (5, 1), (5, 3), (3, 3), (3, 5), (1, 5), (1, 1)."""
    data = uvtt([l_room()])
    m = uvtt_to_map(data, "L room")
    walls = {tuple(c) for c in m["board"]["walls"]}
    assert walls == {
        (1, 1), (2, 1), (3, 1), (4, 1), (5, 1),
        (5, 2), (5, 3), (4, 3), (3, 3), (3, 4), (3, 5), (2, 5), (1, 5),
        (1, 4), (1, 3), (1, 2),
    }  # fmt: skip
    assert (m["format"], m["grid"], m["board"]["cols"], m["board"]["rows"]) == (1, "square", 8, 7)
    assert m["board"]["background"] == {
        "image": "data:image/png;base64," + PNG,
        "offset": [0, 0],
        "cell_px": 50,
        "opacity": 1,
    }
    # Nothing inside gets out, not even diagonally past a corner.
    s = load_uvtt(data, "L room")
    walker = creature("w", (2, 2))
    s.creatures["w"] = walker
    inside = set(reachable(s, walker, 100, s.board.filled()))
    assert inside == {(2, 2), (3, 2), (4, 2), (2, 3), (2, 4)}


def test_a_diagonal_wall_marks_every_space_it_crosses_and_stays_closed() -> None:
    """(1, 1) to (4, 4) runs through the corners (2, 2) and (3, 3): the spaces on the diagonal, and beside each
    corner the space to its right in x. Drawn the other way, the same spaces."""
    expected = [(1, 1), (2, 1), (2, 2), (3, 2), (3, 3)]
    assert segment_cells((1, 1), (4, 4)) == expected
    assert segment_cells((4, 4), (1, 1)) == expected
    m = uvtt_to_map(uvtt([pts((4, 4), (1, 1))], 6, 6))
    assert sorted(tuple(c) for c in m["board"]["walls"]) == expected
    # Off the grid lines: (0.5, 0.5) to (3.5, 1.5) crosses y = 1 exactly at x = 2 (a corner).
    assert segment_cells((0.5, 0.5), (3.5, 1.5)) == [(0, 0), (1, 0), (2, 0), (2, 1), (3, 1)]
    # A shallow line through no corner: (0.2, 0.5) to (3.2, 1.9) enters row 1 at x = 1.27...
    assert segment_cells((0.2, 0.5), (3.2, 1.9)) == [(0, 0), (1, 0), (1, 1), (2, 1), (3, 1)]


def test_segments_along_grid_lines_mark_the_right_or_lower_side() -> None:
    assert segment_cells((2, 2), (6, 2)) == [(2, 2), (3, 2), (4, 2), (5, 2)]
    assert segment_cells((6, 2), (2, 2)) == [(2, 2), (3, 2), (4, 2), (5, 2)]
    assert segment_cells((6, 5), (6, 2)) == [(6, 2), (6, 3), (6, 4)]
    assert segment_cells((1.5, 1.5), (1.5, 1.5)) == []


def test_a_door_between_two_walls_is_left_open() -> None:
    data = uvtt(
        [pts((1, 2), (3, 2)), pts((4, 2), (6, 2))],
        portals=[{"position": {"x": 3.5, "y": 2}, "bounds": pts((3, 2), (4, 2)), "rotation": 0, "closed": True}],
    )
    m = uvtt_to_map(data)
    assert {tuple(c) for c in m["board"]["walls"]} == {(1, 2), (2, 2), (4, 2), (5, 2)}
    assert "1 door left open" in m["description"]


def test_the_map_edge_marks_nothing_and_the_origin_shifts_points() -> None:
    border = pts((0, 0), (8, 0), (8, 7), (0, 7), (0, 0))
    assert uvtt_to_map(uvtt([border]))["board"]["walls"] == []
    shifted = uvtt([pts((-1, 0), (-1, 2))])
    shifted["resolution"]["map_origin"] = {"x": -3, "y": -1}  # points are from the origin: x -1 is column 2
    assert uvtt_to_map(shifted)["board"]["walls"] == [[2, 1], [2, 2]]


def test_a_partial_grid_size_rounds_up_and_webp_is_recognised() -> None:
    m = uvtt_to_map(uvtt([], 7.5, 3.2, image=WEBP))
    assert (m["board"]["cols"], m["board"]["rows"]) == (8, 4)
    assert m["board"]["background"]["image"].startswith("data:image/webp;base64,")
    assert load_map(m).board.background is not None


def test_an_uploaded_picture_can_replace_the_embedded_one() -> None:
    m = uvtt_to_map(uvtt([l_room()]), image="/api/uploads/room.png")
    assert m["board"]["background"]["image"] == "/api/uploads/room.png"
    no_picture = uvtt([l_room()])
    del no_picture["image"]
    assert "background" not in uvtt_to_map(no_picture)["board"]


def test_a_hex_table_cannot_import_a_universal_vtt_map() -> None:
    with pytest.raises(UvttError, match="a hex table cannot import it"):
        uvtt_to_map(uvtt([l_room()]), grid="hex")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.pop("resolution"), "resolution: Field required"),
        (lambda d: d["resolution"].update(pixels_per_grid=0), "resolution.pixels_per_grid: more than 0"),
        (lambda d: d["resolution"]["map_size"].update(x=0), "resolution.map_size.x: must be above 0"),
        (lambda d: d["resolution"]["map_size"].update(y=5000), "resolution.map_size.y: must be above 0 and at most"),
        (lambda d: d["line_of_sight"][0][1].pop("y"), "line_of_sight[0][1].y: Field required"),
        (lambda d: d["line_of_sight"][0].append({"x": "left", "y": 1}), "line_of_sight[0][7].x: Input should be"),
        (lambda d: d.update(line_of_sight={"x": 1}), "line_of_sight: Input should be a valid list"),
        (lambda d: d.update(image="R0lGODlhAQABAAAAACw="), "image: not base64 PNG, WebP or JPEG data"),
    ],
)
def test_a_malformed_file_gets_a_clear_error(change: Any, expected: str) -> None:
    data = uvtt([l_room()])
    change(data)
    with pytest.raises(UvttError) as info:
        uvtt_to_map(data)
    assert any(p.startswith(expected) for p in info.value.problems), info.value.problems


def test_reading_a_file(tmp_path: Path) -> None:
    good = tmp_path / "Crypt.dd2vtt"
    good.write_text(json.dumps(uvtt([l_room()])))
    m = read_uvtt(good)
    assert m["name"] == "Crypt" and len(m["board"]["walls"]) == 16
    with pytest.raises(UvttError, match="not a Universal VTT file"):
        read_uvtt(tmp_path / "crypt.png")
    bad = tmp_path / "broken.uvtt"
    bad.write_text("{")
    with pytest.raises(UvttError, match=r"broken\.uvtt is not JSON"):
        read_uvtt(bad)
    with pytest.raises(UvttError, match="a Universal VTT file is a JSON object"):
        uvtt_to_map([1, 2])


quarter = st.integers(min_value=0, max_value=40).map(lambda n: n / 4)


@settings(max_examples=300, deadline=None)
@given(quarter, quarter, quarter, quarter)
def test_a_wall_segment_is_a_4_connected_run_the_same_either_way(ax: float, ay: float, bx: float, by: float) -> None:
    """Whatever the segment, its spaces run from one end to the other in steps of one space along x or y (nothing
    slips through diagonally), and drawing it backwards marks the same spaces."""
    cells = segment_cells((ax, ay), (bx, by))
    assert cells == segment_cells((bx, by), (ax, ay))
    for (x0, y0), (x1, y1) in itertools.pairwise(cells):
        assert abs(x1 - x0) + abs(y1 - y0) == 1
    if (ax, ay) != (bx, by):
        mid = ((ax + bx) / 2, (ay + by) / 2)
        assert (math.floor(mid[0]), math.floor(mid[1])) in cells or mid[0] == int(mid[0]) or mid[1] == int(mid[1])
