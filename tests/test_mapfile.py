"""Map files, format 1 (`vtt.rules.mapfile`, docs/map-format.md): today's files (no `format`) still load; the new
parts (Uneven Ground, background, object Durability, `grid`) load; a malformed file names the bad field and loads
nothing; a state written out with `map_json` loads back the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from factories import run, with_field

from vtt.rules.mapfile import MapError, load_map, map_json, parse_map_text
from vtt.rules.model import GameState
from vtt.rules.scenario import ScenarioError, load_scenario

MAPS = Path(__file__).resolve().parents[1] / "maps"
PNG = "data:image/png;base64,iVBORw0KGgo="


def small_map() -> dict[str, Any]:
    return {
        "format": 1,
        "name": "Marble Hall",
        "grid": "square",
        "board": {
            "cols": 8,
            "rows": 6,
            "walls": [[0, 0], [1, 0]],
            "objects": [{"id": "crate", "name": "Crate", "cells": [[5, 5]], "size": 1, "durability": 3}],
            "uneven": [[3, 3, 2], [4, 3, 1]],
            "water": [[6, 1]],
            "conductive": [[[2, 5], [3, 5]]],
            "background": {"image": PNG, "offset": [10, 20], "cell_px": 64, "opacity": 0.8},
        },
        "weapons": [{"id": "sword", "name": "Sword", "damage": 3}],
        "creatures": [
            {"id": "ayla", "name": "Ayla", "anchor": [2, 2], "controller": "alice", "weapons": ["sword"],
             "grip": {"right_arm": "sword"}},
            {"id": "gob", "name": "Goblin", "size": -1, "anchor": [6, 4],
             "weapons": [{"id": "knife", "name": "Knife", "damage": 1}]},
            {"id": "rat", "name": "Rat", "size": -2, "anchor": [7, 0], "skills": {"Martial": 1}},
        ],
    }  # fmt: skip


def test_todays_map_files_load_as_format_1() -> None:
    """maps/demo.json has no `format`: it is read as format 1, giving the same state as the scenario reader."""
    data = json.loads((MAPS / "demo.json").read_text())
    assert "format" not in data
    s = load_map(data)
    assert s.model_dump() == load_scenario(data).state.model_dump()
    assert len(s.creatures) == 8 and s.board.uneven == {} and s.board.background is None


def test_every_scenario_file_loads_as_a_map() -> None:
    for path in sorted((MAPS / "scenarios").glob("*.json")):
        data = json.loads(path.read_text())
        assert load_map(data).model_dump() == load_scenario(data).state.model_dump(), path.name


def test_a_format_1_map_with_terrain_and_a_background_loads() -> None:
    s = load_map(small_map())
    b = s.board
    assert s.settings.grid == "square"
    assert b.uneven == {(3, 3): 2, (4, 3): 1} and b.water == {(6, 1)} and b.conductive == [[(2, 5), (3, 5)]]
    assert b.objects[0].durability == 3 and b.filled() == {(0, 0), (1, 0), (5, 5)}
    assert b.background is not None and (b.background.offset, b.background.cell_px) == ((10, 20), 64)
    assert [w.id for w in s.creatures["gob"].weapons] == ["knife"]
    assert s.creatures["ayla"].limb("right_arm").holding == "sword"  # type: ignore[union-attr]
    assert not s.turn.started


def edited(path: str, value: object) -> dict[str, Any]:
    """small_map() with the field at a dotted path (numbers index lists) set, or deleted for `...`."""
    return with_field(small_map(), path, value)


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        ("creatures.2.skills.Martial", "many", "creatures[2].skills.Martial: Input should be a valid integer"),
        ("creatures.2.skills.Martial", 100, "creatures[2].skills.Martial: at most 99"),
        ("creatures.1.anchor", [0, 0], "creatures[1].anchor: Goblin cannot stand in (0, 0)"),
        ("creatures.1.weapons.0.damage", -2, "creatures[1].weapons[0].damage: at least"),
        ("creatures.0.weapons.0", "axe", 'creatures[0].weapons[0]: unknown weapon "axe"'),
        ("format", 2, "format: must be 1 (got 2)"),
        ("grid", "triangle", 'grid: must be "hex" or "square"'),
        ("board.uneven.0", [3, 3, 0], "board.uneven[0][2]: at least 1"),
        ("board.uneven.1", [40, 3, 1], "board.uneven[1]: (40, 3) is off the 8x6 map"),
        ("board.water.0", [6, 9], "board.water[0]: (6, 9) is off the 8x6 map"),
        ("board.conductive.0.1", [9, 5], "board.conductive[0][1]: (9, 5) is off the 8x6 map"),
        ("board.objects.0.durability", -1, "board.objects[0].durability: at least 0"),
        ("board.objects.0.cells", [], "board.objects[0].cells: List should have at least 1 item"),
        ("board.background.opacity", 2, "board.background.opacity: at most 1"),
        ("board.background.image", "ftp://x/y.png", "board.background.image: the image must be"),
        ("board.background.tint", "red", "board.background.tint: unknown key"),
        ("board", ..., "board: missing (required)"),
        ("colour", "red", "colour: unknown key"),
    ],
)
def test_a_malformed_map_names_the_bad_field(path: str, value: object, expected: str) -> None:
    with pytest.raises(MapError) as info:
        load_map(edited(path, value))
    assert any(p.startswith(expected) for p in info.value.problems), info.value.problems


def test_grid_and_settings_grid_must_agree() -> None:
    data = small_map()
    data["settings"] = {"grid": "hex"}
    with pytest.raises(MapError, match=r'grid: "square" disagrees with settings\.grid "hex"'):
        load_map(data)
    data["settings"] = {"grid": "square", "movement_pool": 6}
    assert load_map(data).settings.movement_pool == 6


def test_a_scenario_error_is_a_map_error_and_bad_json_is_named() -> None:
    assert ScenarioError is MapError
    with pytest.raises(MapError, match=r"json: invalid JSON at line 1"):
        parse_map_text("{")
    with pytest.raises(MapError, match="map: must be a JSON object"):
        load_map([])


def test_map_json_loads_back_the_same_state() -> None:
    for s in (load_map(small_map()), load_map(json.loads((MAPS / "demo.json").read_text()))):
        again = load_map(json.loads(json.dumps(map_json(s, "Copy"))))
        assert again.model_dump() == s.model_dump()


def test_an_edited_map_is_saved_and_loaded_back() -> None:
    s = load_map(small_map())
    s, _ = run(s, {"type": "edit_board", "layer": "uneven", "paint": [[1, 4]], "tier": 3}, [])
    s, _ = run(s, {"type": "add_creature", "creature": {"name": "Goblin", "size": -1}, "at": [4, 1]}, [])
    data = map_json(s, "Edited")
    assert data["format"] == 1 and data["grid"] == "square" and [1, 4, 3] in data["board"]["uneven"]
    assert load_map(data).model_dump(exclude={"version"}) == s.model_dump(exclude={"version"})


def test_the_state_with_terrain_survives_json() -> None:
    """The database keeps a state as JSON: Uneven Ground keys are written "q,r" and read back as spaces."""
    s = load_map(small_map())
    text = s.model_dump_json()
    assert '"uneven":{"3,3":2,"4,3":1}' in text
    assert GameState.model_validate_json(text).model_dump() == s.model_dump()
    assert GameState.model_validate(json.loads(text)).model_dump() == s.model_dump()
