"""Token pictures (issue 12 item 5): uploads checked like map backgrounds, stored and served by their hash, set and
cleared on a creature by `edit_creature` (undo takes it back), and never named to a seat that cannot see the
creature."""

from __future__ import annotations

import asyncio
import hashlib
import json
import struct
import zlib
from typing import Any

import pytest
from factories import creature, on_turn, state
from fastapi import FastAPI
from fastapi.testclient import TestClient

from vtt.rules.limits import IMAGE_SIDE_MAX, UPLOAD_BYTES_MAX
from vtt.rules.model import GameState
from vtt.store.pictures import PictureError, checked_picture, load_picture, picture_path, save_picture
from vtt.table.registry import Games
from vtt.table.table import Change, Table, Viewer
from vtt.web.api import change_message, make_router
from vtt.web.tokens import shown_tokens

SW = Viewer("soulweaver", "Mira")
ALICE = Viewer("player", "alice")
WATCHER = Viewer("spectator", "spectator")


def png(width: int = 2, height: int = 2, rgb: tuple[int, int, int] = (200, 40, 40)) -> bytes:
    """A real PNG of one colour, made here (no file on disk)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def _game() -> GameState:
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice"),
            creature("shade", (6, 6), name="Shadow Assassin", hidden=True),
        ),
        "ayla",
    )


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


# ---- the upload's checks ----------------------------------------------------------------------------------------


def test_a_small_png_is_accepted_and_named_by_the_sha256_of_its_bytes() -> None:
    data = png()
    assert checked_picture(data) == ("image/png", hashlib.sha256(data).hexdigest())


def test_a_file_that_is_not_an_image_is_refused_in_plain_words() -> None:
    with pytest.raises(PictureError, match=r"^That file is not a PNG, JPEG or WebP image\.$"):
        checked_picture(b"<svg onload=alert(1)></svg>")


def test_a_png_whose_header_gives_no_size_is_refused() -> None:
    broken = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dNOPE" + b"\x00" * 20
    with pytest.raises(PictureError, match="width and height cannot be read"):
        checked_picture(broken)


def test_a_png_claiming_too_many_pixels_is_refused_before_it_is_decoded() -> None:
    with pytest.raises(PictureError, match=f"at most {IMAGE_SIDE_MAX} pixels a side"):
        checked_picture(png(IMAGE_SIDE_MAX + 1, 1))


def test_an_image_over_the_upload_limit_is_refused() -> None:
    data = png() + b"\x00" * UPLOAD_BYTES_MAX
    with pytest.raises(PictureError, match=f"bigger than {UPLOAD_BYTES_MAX // (1024 * 1024)} MB"):
        checked_picture(data)


# ---- storing and serving ------------------------------------------------------------------------------------------


def test_a_picture_is_stored_and_found_by_its_hash_only() -> None:
    data = png(rgb=(1, 2, 3))
    digest = save_picture(None, None, data)
    assert load_picture(None, digest) == ("image/png", data)
    assert load_picture(None, "0" * 64) is None
    assert load_picture(None, "../../etc/passwd") is None
    assert picture_path(digest) == f"/api/pictures/{digest}"
    with pytest.raises(ValueError):
        picture_path("https://example.com/x.png")


def test_a_games_picture_is_kept_in_its_database_and_served_with_its_type(games: Games) -> None:
    game_id, _, _ = games.ensure("Pictures", _game(), "")
    data = png(rgb=(9, 9, 9))
    digest = save_picture(games.engine, game_id, data)
    app = FastAPI()
    app.include_router(make_router(games))
    with TestClient(app) as client:
        served = client.get(f"/api/pictures/{digest}")
        assert served.status_code == 200 and served.content == data
        assert served.headers["content-type"] == "image/png"
        assert served.headers["x-content-type-options"] == "nosniff"
        missing = client.get(f"/api/pictures/{'a' * 64}")
        assert missing.status_code == 404 and missing.json()["error"] == "there is no such picture"


# ---- the command ------------------------------------------------------------------------------------------------


def test_edit_creature_sets_and_clears_the_picture_and_undo_takes_it_back() -> None:
    table = Table("t", _game())
    digest = save_picture(None, None, png(rgb=(4, 5, 6)))
    edit = {"type": "edit_creature", "creature": "ayla"}
    assert _run(table.submit(SW, {**edit, "changes": {"picture": digest}})).ok
    assert table.state.creatures["ayla"].picture == digest
    assert _run(table.submit(SW, {**edit, "changes": {"picture": None}})).ok
    assert table.state.creatures["ayla"].picture is None
    assert _run(table.submit(SW, {"type": "undo"})).ok
    assert table.state.creatures["ayla"].picture == digest


def test_a_picture_that_is_not_a_hash_is_refused_and_the_game_is_unchanged() -> None:
    table = Table("t", _game())
    before = table.state
    for bad in ("https://example.com/face.png", "javascript:alert(1)", "A" * 64, 7):
        outcome = _run(table.submit(SW, {"type": "edit_creature", "creature": "ayla", "changes": {"picture": bad}}))
        assert not outcome.ok and outcome.error is not None and "picture" in outcome.error
        assert table.state is before


def test_a_player_cannot_set_a_picture() -> None:
    table = Table("t", _game())
    digest = save_picture(None, None, png(rgb=(7, 7, 7)))
    outcome = _run(table.submit(ALICE, {"type": "edit_creature", "creature": "ayla", "changes": {"picture": digest}}))
    assert not outcome.ok and table.state.creatures["ayla"].picture is None


# ---- what each seat is sent -------------------------------------------------------------------------------------


def test_a_players_seat_never_names_a_hidden_creatures_picture() -> None:
    table = Table("t", _game())
    secret = save_picture(None, None, png(rgb=(66, 0, 66)))
    mine = save_picture(None, None, png(rgb=(0, 99, 0)))
    before = table.state
    outcome = _run(table.submit(SW, {"type": "edit_creature", "creature": "shade", "changes": {"picture": secret}}))
    assert outcome.ok and outcome.record is not None
    change = Change(before, table.state, outcome.record)
    assert _run(table.submit(SW, {"type": "edit_creature", "creature": "ayla", "changes": {"picture": mine}})).ok
    for viewer in (ALICE, WATCHER):
        seat = table.seat_view(viewer)
        sent = json.dumps([seat.state_json(), shown_tokens(table, viewer, seat), change_message(table, change, viewer)])
        assert secret not in sent, viewer
        assert shown_tokens(table, viewer, seat)["ayla"]["picture"] == mine
    gm = table.seat_view(SW)
    assert shown_tokens(table, SW, gm)["shade"]["picture"] == secret


def test_a_creature_without_a_picture_has_a_token_without_one() -> None:
    table = Table("t", _game())
    seat = table.seat_view(SW)
    token = shown_tokens(table, SW, seat)["ayla"]
    assert "picture" not in token and token["label"] == "Ay"
