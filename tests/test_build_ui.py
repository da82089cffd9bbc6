"""The map editor and the library form's logic without a browser: what the map is sent of a board and of a change,
the commands a stroke becomes (one per stroke; Erase one per layer it touches), the map file export, where a
problem is shown in the form, the library creatures stored server-wide, and a new game from a Universal VTT file
(its picture stored as the game's upload, not in its starting state)."""

from __future__ import annotations

import asyncio
import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from factories import creature, state

from vtt.library import library_creature, validate_creature
from vtt.rules import RandomDice, apply
from vtt.rules.mapfile import load_map
from vtt.rules.model import GameState
from vtt.store import db
from vtt.store.db import open_engine
from vtt.table.registry import GameError, Games
from vtt.table.table import Table, Viewer
from vtt.web.game_files import import_uvtt
from vtt.web.library_page import GENERAL, route_errors, user_key
from vtt.web.map_editor import (
    board_patch,
    board_props,
    erase_commands,
    library_entries,
    map_file,
    map_file_name,
    paint_command,
)

MAPS = Path(__file__).resolve().parents[1] / "maps"
SW = Viewer("soulweaver", "Soulweaver")
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01" + bytes(24)


def _edited(s: GameState, *commands: dict[str, Any]) -> GameState:
    for cmd in commands:
        s, _ = apply(s, cmd, RandomDice(1))
    return s


def _board() -> GameState:
    return _edited(
        state(creature("ayla", (1, 1))),
        {"type": "edit_board", "layer": "wall", "paint": [[3, 3], [4, 3]]},
        {"type": "edit_board", "layer": "water", "paint": [[5, 5], [6, 5]]},
        {"type": "edit_board", "layer": "uneven", "paint": [[2, 6]], "tier": 2},
        {"type": "edit_board", "layer": "conductive", "paint": [[7, 7], [8, 7]]},
        {"type": "edit_board", "layer": "object", "paint": [[6, 2]], "object": {"name": "Altar", "durability": 5}},
    )


def test_the_map_is_sent_every_layer_of_the_board() -> None:
    props = board_props(_board().board)
    assert props["walls"] == [[3, 3], [4, 3]]
    assert props["terrain"] == {"water": [[5, 5], [6, 5]], "uneven": [[2, 6, 2]], "conductive": [[7, 7], [8, 7]]}
    assert props["objects"] == [
        {"id": "altar", "name": "Altar", "cells": [[6, 2]], "kind": "object", "size": 1, "durability": 5}
    ]
    assert props["background"] is None


def test_a_change_sends_only_the_layers_that_changed() -> None:
    before = _board()
    after = _edited(before, {"type": "edit_board", "layer": "water", "erase": [[5, 5]]})
    assert board_patch(before.board, after.board) == {"terrain": {"water": [[6, 5]]}}
    walls = _edited(after, {"type": "edit_board", "layer": "wall", "paint": [[9, 9]]})
    assert board_patch(after.board, walls.board) == {"walls": [[3, 3], [4, 3], [9, 9]]}
    bigger = _edited(walls, {"type": "resize_board", "cols": 24, "rows": 21})
    assert board_patch(walls.board, bigger.board) == {"cols": 24, "rows": 21}
    moved = _edited(walls, {"type": "place", "creature": "ayla", "to": [1, 2]})
    assert board_patch(walls.board, moved.board) == {}


def test_a_stroke_is_one_command_and_erase_one_per_layer_it_touches() -> None:
    cells = [[1, 2], [2, 2], [3, 2]]
    assert paint_command("wall", cells, {}) == {"type": "edit_board", "layer": "wall", "paint": cells}
    assert paint_command("uneven", cells, {"tier": 3})["tier"] == 3
    obj = paint_command("object", cells, {"name": "Crate", "size": 1, "durability": None})
    assert obj["object"] == {"name": "Crate", "size": 1}
    s = _board()
    erase = erase_commands(s.board, [[3, 3], [5, 5], [6, 2], [0, 0]])
    assert erase == [
        {"type": "edit_board", "layer": "wall", "erase": [[3, 3]]},
        {"type": "edit_board", "layer": "object", "erase": [[6, 2]]},
        {"type": "edit_board", "layer": "water", "erase": [[5, 5]]},
    ]
    assert erase_commands(s.board, [[0, 0]]) == []
    after = _edited(s, *erase)
    assert (3, 3) not in after.board.walls and (5, 5) not in after.board.water and not after.board.objects


def test_the_editor_only_sends_what_was_typed_the_rules_refuse_bad_values() -> None:
    s = _board()
    for bad in (
        paint_command("object", [[6, 2]], {"name": "Crate", "size": 1}),  # over the altar
        paint_command("wall", [[1, 1]], {}),  # over Ayla
        paint_command("uneven", [[2, 2]], {"tier": 2.5}),
        paint_command("object", [[9, 2]], {"name": "", "size": 1}),
    ):
        with pytest.raises(Exception, match=r"fills|stands in|tier|name"):
            apply(s, bad, RandomDice(1))


def test_the_exported_map_file_loads_back_as_the_same_board() -> None:
    s = _board()
    text = map_file(s, "Crypt Ambush")
    again = load_map(json.loads(text))
    assert again.board.walls == s.board.walls and again.board.uneven == s.board.uneven
    assert [o.name for o in again.board.objects] == ["Altar"] and set(again.creatures) == {"ayla"}
    assert map_file_name("Crypt Ambush!") == "crypt-ambush.map.json"


def test_problems_are_shown_by_the_field_they_name() -> None:
    keys = ["name", "skills.Martial", "grit.max", "limbs[0]", "limbs[1]", "weapons", "grip.left_arm", GENERAL]
    errors = [
        "skills.Martial: at most 99 (got 150)",
        "limbs[1].kind: Input should be 'arm' (got \"fin\")",
        'weapons[0]: unknown weapon "nope"',
        "grip.left_arm: Goblin's left arm cannot grip",
        "footprint: something the form does not show",
    ]
    routed = route_errors(errors, keys)
    assert routed["skills.Martial"] == ["at most 99 (got 150)"]
    assert routed["limbs[1]"] == ["Input should be 'arm' (got \"fin\")"]
    assert routed["weapons"] == ['unknown weapon "nope"']
    assert routed["grip.left_arm"] == ["Goblin's left arm cannot grip"]
    assert routed[GENERAL] == ["footprint: something the form does not show"]
    assert "limbs[0]" not in routed and "name" not in routed


def test_library_keys_are_unique_and_kept_when_editing() -> None:
    assert user_key("Cave Bat", []) == "user:cave_bat"
    assert user_key("Cave Bat", ["user:cave_bat", "user:cave_bat_2"]) == "user:cave_bat_3"
    assert user_key("Renamed", ["user:cave_bat"], current="user:cave_bat") == "user:cave_bat"


def test_library_creatures_are_stored_server_wide_and_offered_with_the_starter_library(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/lib.sqlite")
    bat = {"id": "cave_bat", "name": "Cave Bat", "species": "bat", "size": -2, "skills": {"Martial": 2}}
    assert validate_creature(bat) == []
    db.save_library_creature(engine, "user:cave_bat", "Cave Bat", bat)
    db.save_library_creature(engine, "user:cave_bat", "Cave Bat", {**bat, "skills": {"Martial": 3}})
    stored = db.library_creatures(engine)
    assert [(c.key, c.data["skills"]) for c in stored] == [("user:cave_bat", {"Martial": 3})]
    entries = library_entries(engine)
    assert entries[-1].key == "user:cave_bat" and entries[-1].user_made
    assert any(e.key == "starter:goblin" and not e.user_made for e in entries)
    cmd = library_creature(entries[-1].data, (2, 2))
    s, _ = apply(state(), cmd, RandomDice(1))
    assert s.creatures["cave_bat"].species == "bat"
    assert db.delete_library_creature(engine, "user:cave_bat") and not db.library_creatures(engine)


def _uvtt(image: bytes | None = PNG) -> bytes:
    room = [{"x": 1, "y": 1}, {"x": 4, "y": 1}, {"x": 4, "y": 3}, {"x": 1, "y": 3}, {"x": 1, "y": 1}]
    data: dict[str, Any] = {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 6, "y": 5}, "pixels_per_grid": 64},
        "line_of_sight": [room],
        "portals": [],
    }
    if image is not None:
        data["image"] = base64.b64encode(image).decode()
    return json.dumps(data).encode()


def test_a_universal_vtt_file_makes_a_square_game_whose_picture_is_an_upload(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/uvtt.sqlite")
    games = Games(engine, MAPS)
    made = asyncio.run(import_uvtt(games, _uvtt(), "crypt.dd2vtt", "", "Mira"))
    table = games.table(made.game_id)
    assert table.name == "crypt" and made.soulweaver.role == "soulweaver"
    board = table.state.board
    assert (board.cols, board.rows, table.state.settings.grid) == (6, 5, "square")
    assert (1, 1) in board.walls
    assert table.initial.board.background is None  # the picture is not in the starting state...
    assert board.background is not None and board.background.image == f"/api/games/{made.game_id}/background"
    assert board.background.cell_px == 64
    upload = db.load_upload(engine, made.game_id, "background")  # ...but stored once, as the game's upload
    assert upload is not None and upload.data == PNG and upload.content_type == "image/png"
    assert [r.kind for r in table.log] == ["set_background"]
    games.close()


@pytest.mark.parametrize(
    ("raw", "name", "why"),
    [
        (b"{}", "crypt.png", "not a Universal VTT file"),
        (b"not json", "crypt.uvtt", "not a JSON file"),
        (b'{"resolution": {}}', "crypt.df2vtt", "crypt.df2vtt: "),
    ],
)
def test_a_bad_universal_vtt_file_makes_no_game(tmp_path: Path, raw: bytes, name: str, why: str) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/bad.sqlite")
    games = Games(engine, MAPS)
    with pytest.raises(GameError, match=re.escape(why)):
        asyncio.run(import_uvtt(games, raw, name, "", "Mira"))
    assert games.list() == []


def test_a_game_from_a_map_checks_the_name_and_the_map(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/map.sqlite")
    games = Games(engine, MAPS)
    empty = json.loads((MAPS / "empty.json").read_text())
    made = games.create_from_map("Built", empty, "Mira", "empty.json")
    assert Table.load(engine, made.game_id).state.board.cols == 20
    with pytest.raises(GameError, match="already a game"):
        games.create_from_map("Built", empty, "Mira", "empty.json")
    with pytest.raises(GameError, match=r"bad\.json: board"):
        games.create_from_map("Other", {**empty, "board": {"cols": 0, "rows": 2}}, "Mira", "bad.json")
    assert [g.name for g in games.list()] == ["Built"]


def test_an_exported_map_file_carries_the_uploaded_picture_as_a_data_url() -> None:
    """A map file names its background by a data URL, not by this server's /api/ path, so it shows anywhere."""
    s, _ = apply(
        state(creature("a", (1, 1))),
        {"type": "set_background", "image": "/api/games/3/background", "offset": [2, 3], "cell_px": 50},
        RandomDice(1),
    )
    data = json.loads(map_file(s, "Pictured", ("image/png", PNG)))
    background = data["board"]["background"]
    assert background["image"] == "data:image/png;base64," + base64.b64encode(PNG).decode()
    assert background["offset"] == [2, 3] and background["cell_px"] == 50
    assert load_map(data).board.background is not None
