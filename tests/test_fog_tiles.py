"""The background under fog of war (`vtt/web/fog_tiles.py`): which tiles a seat may see, where each lies in the
picture, and the routes that serve them only to a seat that may see them."""

from __future__ import annotations

import io
import math

import pytest
from factories import creature, state
from fastapi.testclient import TestClient
from PIL import Image

from vtt.rules.grid import GridKind
from vtt.rules.model import SOULWEAVER, Background
from vtt.rules.settings import TableSettings
from vtt.store.db import Seat
from vtt.table.registry import Games, viewer_for
from vtt.table.table import Viewer
from vtt.web.fog_tiles import (
    CUTTER,
    TILE_SPACES,
    background_prop,
    load_picture,
    seat_pass,
    tile_rect,
    tiles_of,
    tiles_seen,
)


def test_a_space_touches_the_tiles_its_box_overlaps() -> None:
    """Square: tiles are 8 x 8 spaces; (7, 7) is the last space of tile (0, 0), (8, 0) the first of (1, 0).
    Hex: a space's box is one spacing wide, shifted half a spacing a row; its height 2/sqrt(3) spacings, rows
    1.5/sqrt(3) apart. (7, 0) spans x 7..8: tile 0 only; (7, 1) spans 7.5..8.5: tiles 0 and 1. Row 4 spans y
    6/sqrt(3) = 3.46 to 8/sqrt(3) = 4.62: tile row 0; (0, 9) spans x 4.5..5.5 and y 13.5/sqrt(3) = 7.79 to
    15.5/sqrt(3) = 8.95: tile column 0, rows 0 and 1."""
    assert TILE_SPACES == 8
    assert tiles_of(GridKind.SQUARE, [(0, 0), (7, 7)]) == {(0, 0)}
    assert tiles_of(GridKind.SQUARE, [(8, 0), (15, 16)]) == {(1, 0), (1, 2)}
    assert tiles_of(GridKind.HEX, [(7, 0)]) == {(0, 0)}
    assert tiles_of(GridKind.HEX, [(7, 1)]) == {(0, 0), (1, 0)}
    assert tiles_of(GridKind.HEX, [(0, 4)]) == {(0, 0)}
    assert 1.5 * 9 / math.sqrt(3) < 8 < (1.5 * 9 + 2) / math.sqrt(3)
    assert tiles_of(GridKind.HEX, [(0, 9)]) == {(0, 0), (0, 1)}
    assert tiles_of(GridKind.SQUARE, []) == frozenset()


def test_a_tile_covers_its_spaces_pixels_cut_to_the_picture() -> None:
    """Offset (10, 20), 50 pixels a space: a tile is 400 pixels a side from (10, 20); the picture is 1000 x 500."""
    bg = Background(image="/api/games/1/background", offset=(10, 20), cell_px=50)
    assert tile_rect(bg, 1000, 500, (0, 0)) == (10, 20, 400, 400)
    assert tile_rect(bg, 1000, 500, (2, 0)) == (810, 20, 190, 400)
    assert tile_rect(bg, 1000, 500, (0, 1)) == (10, 420, 400, 80)
    assert tile_rect(bg, 1000, 500, (3, 0)) is None


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (120, 90, 40)).save(out, "PNG")
    return out.getvalue()


def _fog_game() -> object:
    """Alice's A at (1, 1) on a 40 x 40 square map, walled in by the 8 spaces round it: it perceives its own space
    and walls among (0..2, 0..2), all in tile (0, 0)."""
    settings = TableSettings(grid="square", defense_prompts="nobody", reactions=False, fog_of_war=True)
    walls = {(x, y) for x in range(3) for y in range(3)} - {(1, 1)}
    return state(
        creature("a", (1, 1), controller="alice"),
        creature("o", (30, 30)),
        cols=40,
        rows=40,
        walls=walls,
        settings=settings,
    )


@pytest.fixture
def seats(games: Games) -> dict[str, Seat]:
    _, made, _ = games.ensure("Fog game", _fog_game(), "")  # type: ignore[arg-type]
    return {s.key: s for s in made}


def _with_background(api_client: TestClient, games: Games, seats: dict[str, Seat]) -> None:
    sw = seats[SOULWEAVER]
    got = api_client.post(
        f"/api/seat/{sw.secret}/background", content=_png(2000, 2000), headers={"content-type": "image/png"}
    )
    assert got.json()["ok"]
    cmd = {"type": "set_background", "image": got.json()["url"] + "?v=1", "cell_px": 50}
    assert api_client.post(f"/api/seat/{sw.secret}/commands", json={"command": cmd}).json()["ok"]


def test_a_player_gets_only_the_tiles_their_seat_may_see(
    api_client: TestClient, games: Games, seats: dict[str, Seat]
) -> None:
    _with_background(api_client, games, seats)
    table = games.table(seats[SOULWEAVER].game_id)
    alice = viewer_for(seats["alice"])
    vision = table.seat_view(alice).vision
    assert vision is not None and (1, 1) in vision.remembered
    assert vision.remembered <= {(x, y) for x in range(3) for y in range(3)}
    picture = load_picture(table, table.state.board.background.image)  # type: ignore[union-attr]
    assert picture is not None and (picture.width, picture.height) == (2000, 2000)
    prop = background_prop(table, alice, table.state, vision.remembered, picture, seats["alice"].secret)
    # tile (0, 0): 8 spaces of 50 pixels, and a margin of 50 / 16 -> 4 pixels past its right and bottom edges
    assert prop is not None and prop["image"] == "" and [t[1:] for t in prop["tiles"]] == [[0, 0, 404, 404]]
    href = prop["tiles"][0][0]
    cut = CUTTER.cut
    tile = api_client.get(href)
    assert tile.status_code == 200 and tile.headers["content-type"] == "image/webp"
    assert Image.open(io.BytesIO(tile.content)).size == (404, 404)
    assert api_client.get(href).status_code == 200 and CUTTER.cut == cut + 1  # the second from the cache
    key = seat_pass(table.game_id or 0, alice, seats["alice"].secret)
    assert api_client.get(f"/api/fog/{key}/tile/3/3").status_code == 404  # where o stands, unseen
    assert api_client.get(f"/api/fog/{key}/tile/1/0").status_code == 404
    assert api_client.get(f"/api/fog/{key}/whole").status_code == 403
    assert api_client.get("/api/fog/not-a-pass/tile/0/0").status_code == 404
    assert api_client.get(f"/api/games/{table.game_id}/background").status_code == 403
    assert api_client.get(f"/api/seat/{seats['alice'].secret}/state").json()["state"]["board"]["background"] is None


def test_the_soulweaver_gets_the_whole_picture_and_a_revealed_area_adds_its_tiles(
    api_client: TestClient, games: Games, seats: dict[str, Seat]
) -> None:
    _with_background(api_client, games, seats)
    table = games.table(seats[SOULWEAVER].game_id)
    sw = Viewer("soulweaver", "Soulweaver")
    whole = background_prop(table, sw, table.state, None, None, seats[SOULWEAVER].secret)
    assert whole is not None and whole["image"].startswith("/api/fog/") and "tiles" not in whole
    got = api_client.get(whole["image"])
    assert got.status_code == 200 and got.headers["content-type"] == "image/png"
    key = seat_pass(table.game_id or 0, viewer_for(seats["alice"]), seats["alice"].secret)
    assert api_client.get(f"/api/fog/{key}/tile/3/3").status_code == 404
    mark = {"type": "mark_fog", "mark": "reveal", "cells": [[29, 29], [30, 30]]}
    answer = api_client.post(f"/api/seat/{seats[SOULWEAVER].secret}/commands", json={"command": mark}).json()
    assert answer["ok"], answer
    assert api_client.get(f"/api/fog/{key}/tile/3/3").status_code == 200
    assert api_client.get(f"/api/fog/{key}/tile/2/2").status_code == 404


def test_without_fog_of_war_every_seat_gets_the_whole_picture(
    api_client: TestClient, games: Games, seats: dict[str, Seat]
) -> None:
    _with_background(api_client, games, seats)
    sw = seats[SOULWEAVER]
    change = {"type": "change_settings", "changes": {"fog_of_war": False}}
    assert api_client.post(f"/api/seat/{sw.secret}/commands", json={"command": change}).json()["ok"]
    table = games.table(sw.game_id)
    alice = viewer_for(seats["alice"])
    prop = background_prop(table, alice, table.state, None, None)
    assert prop is not None and prop["image"] == f"/api/games/{sw.game_id}/background?v=1"
    assert api_client.get(prop["image"]).status_code == 200
    assert api_client.get(f"/api/games/{sw.game_id}/background").status_code == 200


def test_an_https_background_is_not_shown_under_fog(games: Games, seats: dict[str, Seat]) -> None:
    table = games.table(seats[SOULWEAVER].game_id)
    bg = Background(image="https://example.org/map.png")
    shown = table.state.model_copy(update={"board": table.state.board.model_copy(update={"background": bg})})
    alice = viewer_for(seats["alice"])
    assert background_prop(table, alice, shown, frozenset({(1, 1)}), None) is None
    assert background_prop(table, alice, shown, None, None) == {
        "image": "https://example.org/map.png",
        "offset": [0.0, 0.0],
        "cell_px": 70.0,
        "opacity": 1.0,
    }


def test_a_replaced_seat_link_and_a_watch_page_without_watching_lose_their_pass(
    api_client: TestClient, games: Games, seats: dict[str, Seat]
) -> None:
    """Alice's pass is bound to her seat link: once the Soulweaver replaces the link, the old page's tiles are
    refused, and the new link's pass works. A watch page's pass works while the game may be watched."""
    _with_background(api_client, games, seats)
    game_id = seats[SOULWEAVER].game_id
    alice = viewer_for(seats["alice"])
    old = seat_pass(game_id, alice, seats["alice"].secret)
    assert api_client.get(f"/api/fog/{old}/tile/0/0").status_code == 200
    new = games.replace_seat(game_id, "alice")
    assert api_client.get(f"/api/fog/{old}/tile/0/0").status_code == 404
    assert api_client.get(f"/api/fog/{seat_pass(game_id, alice, new.secret)}/tile/0/0").status_code == 200
    assert api_client.get(f"/api/fog/{seat_pass(game_id, alice, None)}/tile/0/0").status_code == 404
    watcher = seat_pass(game_id, Viewer("spectator", "spectator"), None)
    games.set_watchable(game_id, True)
    assert api_client.get(f"/api/fog/{watcher}/tile/0/0").status_code == 200  # the players' creatures see it
    games.set_watchable(game_id, False)
    assert api_client.get(f"/api/fog/{watcher}/tile/0/0").status_code == 404


def test_the_tiles_of_a_growing_memory_are_those_of_all_its_spaces() -> None:
    """`tiles_seen` works a grown set out from one it knows; the answer is `tiles_of` the whole set."""
    first = frozenset({(1, 1), (2, 3)})
    grown = first | {(30, 2), (9, 17)}
    for kind in (GridKind.SQUARE, GridKind.HEX):
        assert tiles_seen(kind, first) == tiles_of(kind, first)
        assert tiles_seen(kind, grown) == tiles_of(kind, grown)
        assert tiles_seen(kind, frozenset({(30, 2)})) == tiles_of(kind, {(30, 2)})
