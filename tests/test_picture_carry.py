"""Token pictures beyond the sheet: a picture on a library creature (checked like the sheet's upload, stored for
the whole server) goes onto the token placed from the library, and a game's export carries its token pictures'
bytes, checked on import like an upload (a bad one refuses the archive, and nothing is stored)."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

import pytest
from test_token_picture import png

from vtt.library import library_creature, validate_creature
from vtt.rules.limits import ARCHIVE_BYTES_MAX, IMAGE_SIDE_MAX
from vtt.store import db
from vtt.store.db import open_engine
from vtt.store.pictures import PictureError, load_picture, picture_hash, save_library_picture, save_picture
from vtt.table.archive import check_archive, export_archive, pictures_left_out
from vtt.table.registry import GameError, Games
from vtt.table.table import Table, Viewer

MAPS = Path(__file__).resolve().parents[1] / "maps"
SW = Viewer("soulweaver", "Mira")
RED, BLUE = png(rgb=(200, 40, 40)), png(rgb=(40, 40, 200))


def _ok(table: Table, cmd: dict[str, Any]) -> None:
    out = asyncio.run(table.submit(SW, cmd))
    assert out.ok, (cmd, out.error)


def _entry(**extra: Any) -> dict[str, Any]:
    return {"name": "Painted Goblin", "skills": {"Martial": 1}, "grit": {"max": 4}, **extra}


def test_a_library_picture_is_checked_like_an_upload_and_served_to_any_game(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/lib.sqlite")
    digest = save_library_picture(engine, RED)
    assert digest == picture_hash(RED)
    assert load_picture(engine, digest) == ("image/png", RED)
    assert save_library_picture(engine, RED) == digest  # the same bytes again: one row
    with pytest.raises(PictureError, match="not a PNG, JPEG or WebP"):
        save_library_picture(engine, b"GIF89a not a picture we take")
    with pytest.raises(PictureError, match="cannot be used"):
        save_library_picture(engine, png(IMAGE_SIDE_MAX + 1, 1))


def test_a_library_creature_with_a_picture_puts_it_on_the_token_it_places(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/lib.sqlite")
    digest = save_library_picture(engine, BLUE)
    entry = _entry(picture=digest)
    assert validate_creature(entry) == []
    command = library_creature(entry, (4, 4))
    assert command["creature"]["picture"] == digest
    games = Games(engine, MAPS)
    made = games.create("Library game", "demo.json", None, "Mira")
    table = games.table(made.game_id)
    before = set(table.state.creatures)
    _ok(table, command)
    (placed,) = set(table.state.creatures) - before
    assert table.state.creatures[placed].picture == digest
    games.close()


def test_a_library_creature_with_a_picture_that_is_not_a_hash_is_refused() -> None:
    problems = validate_creature(_entry(picture="https://example.com/goblin.png"))
    assert problems and problems[0].startswith("picture: ")


def _pictured_game(tmp_path: Path) -> tuple[Games, int, str, str]:
    """A stored game with one creature given a picture on its sheet and another placed from the library with one."""
    engine = open_engine(f"sqlite:///{tmp_path}/a.sqlite")
    games = Games(engine, MAPS)
    made = games.create("Pictured", "demo.json", None, "Mira")
    table = games.table(made.game_id)
    sheet = save_picture(engine, made.game_id, RED)
    library = save_library_picture(engine, BLUE)
    some = sorted(table.state.creatures)[0]
    _ok(table, {"type": "edit_creature", "creature": some, "changes": {"picture": sheet}})
    _ok(table, library_creature(_entry(picture=library), (1, 1)))
    games.close()
    return Games(engine, MAPS), made.game_id, sheet, library


def test_an_exported_game_carries_its_token_pictures_into_another_server(tmp_path: Path) -> None:
    games, game_id, sheet, library = _pictured_game(tmp_path)
    archive = json.loads(json.dumps(games.export_game(game_id)))
    carried = archive["uploads"]["pictures"]
    assert set(carried) == {sheet, library}
    assert base64.b64decode(carried[library]["data"]) == BLUE and carried[library]["content_type"] == "image/png"
    assert pictures_left_out(archive) == 0

    other = open_engine(f"sqlite:///{tmp_path}/b.sqlite")
    assert load_picture(other, sheet) is None
    imported = Games(other, MAPS).import_game(archive, "Tam")
    assert load_picture(other, sheet) == ("image/png", RED)
    assert load_picture(other, library) == ("image/png", BLUE)
    pictures = {c.picture for c in Table.load(other, imported.game_id).state.creatures.values()}
    assert {sheet, library} <= pictures


def _with_picture(tmp_path: Path, change: Any) -> dict[str, Any]:
    games, game_id, sheet, _ = _pictured_game(tmp_path)
    archive: dict[str, Any] = json.loads(json.dumps(games.export_game(game_id)))
    change(archive["uploads"]["pictures"], sheet)
    return archive


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda p, d: p[d].update(data=base64.b64encode(b"GIF89a....").decode()), "not a PNG, JPEG or WebP image"),
        (lambda p, d: p[d].update(data="%%%"), "its data is not base64"),
        (lambda p, d: p[d].update(data=base64.b64encode(BLUE).decode()), "not the picture of that hash"),
        (lambda p, d: p[d].update(content_type="image/webp"), "it is a image/png picture"),
        (lambda p, d: p.update({"../../etc": p.pop(d)}), "not a picture's hash"),
        (lambda p, d: p.update({picture_hash(png(3, 3)): {"content_type": "image/png",
                                "data": base64.b64encode(png(3, 3)).decode()}}), "no creature of the game has it"),
        (lambda p, d: p[d].pop("data"), "must have exactly content_type and data"),
    ],
)  # fmt: skip
def test_a_bad_token_picture_refuses_the_archive_and_stores_nothing(tmp_path: Path, change: Any, expected: str) -> None:
    archive = _with_picture(tmp_path, change)
    other = open_engine(f"sqlite:///{tmp_path}/b.sqlite")
    with pytest.raises(GameError, match=expected):
        Games(other, MAPS).import_game(archive, "Tam")
    assert db.list_games(other) == []


def test_an_export_leaves_out_the_pictures_that_would_take_it_over_the_archive_limit() -> None:
    from factories import creature, state

    big = b"\x89PNG" + bytes(ARCHIVE_BYTES_MAX // 2)  # not checked on export: only its size matters here
    digests = ["a" * 64, "b" * 64]
    s = state(creature("ayla", (2, 2), picture=digests[0]), creature("orc", (3, 2), picture=digests[1]))
    pictures = [(d, "image/png", big) for d in digests]
    archive = export_archive("Big", "", s.model_dump(mode="json"), [], None, pictures)
    assert list(archive["uploads"]["pictures"]) == [digests[0]]
    assert pictures_left_out(archive) == 1
    assert len(json.dumps(archive, indent=1)) <= ARCHIVE_BYTES_MAX


def test_an_archive_without_pictures_still_imports() -> None:
    from test_archive import _valid_archive

    assert check_archive(_valid_archive()).pictures == ()
