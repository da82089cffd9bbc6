"""Fog of war in the browser (`vtt/table/fog.py`, `vtt/web/fog_view.py`, `static/map_view.js`), on a square map
made here: Ayla (alice) at (1, 1), a wall down column 6 from row 0 to row 5 (rows 6 and 7 are the way round), Grukk
the Orc at (9, 2) behind it, and Qzv the Shade at (11, 0) behind a second wall at (10, 0), (10, 1).

Worked out on the square grid's lines (reference §2.6, `vtt/rules/vision.py`): from (1, 1) the line to (9, 2)
crosses column 6 at row 1.6, in the wall: Grukk is out of sight (8 spaces away, its moving sound carries 1: not
heard). Set down at (6, 7), round the end of the wall, Ayla sees Grukk along (7, 6) (7, 5) (8, 4) (8, 3) (9, 2);
the line to the Shade crosses column 10 at row 1.4, in the second wall: it stays unseen.

The fog is drawn at 1280×800, 820×1180 and 390×844 at each step, for alice and for the Soulweaver seeing as
alice. At the end the Soulweaver turns fog of war off in the table
settings: alice's map shows everything again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, WebSocket, expect

from e2e.conftest import LOAD_TIMEOUT, VIEWPORT, NewGame, TableGame, open_seat, user_context, wait_ready
from e2e.helpers import anchor_selector, cell_xy, drag, token_xy

pytestmark = pytest.mark.usefixtures("table_timeouts")

ORC, ORC_NAME = "grukk_orc", "Grukk the Orc"
SHADE, SHADE_NAME = "qzshade", "Qzv the Shade"
ROUND_THE_CORNER = (6, 7)
SIZES: dict[str, ViewportSize] = {
    "laptop": {"width": 1280, "height": 800},
    "tablet": {"width": 820, "height": 1180},
    "phone": {"width": 390, "height": 844},
}


def corner_map() -> dict[str, Any]:
    walls = [[6, row] for row in range(6)] + [[10, 0], [10, 1]]
    return {
        "version": 1,
        "name": "Fog corner",
        "description": "e2e: a wall with a way round its end, an orc behind it and a shade behind a second wall.",
        "settings": {"grid": "square", "fog_of_war": True, "reactions": False},
        "board": {"cols": 12, "rows": 8, "walls": walls},
        "weapons": [{"id": "sword", "name": "Sword", "damage": 2}],
        "creatures": [
            {"id": "ayla", "name": "Ayla", "anchor": [1, 1], "controller": "alice", "color": "#2f6db5",
             "weapons": ["sword"], "grip": {"right_arm": "sword"}},
            {"id": ORC, "name": ORC_NAME, "anchor": [9, 2], "color": "#7b3f2a"},
            {"id": SHADE, "name": SHADE_NAME, "anchor": [11, 0], "color": "#4b3f6a"},
        ],
    }  # fmt: skip


@pytest.fixture
def server(tmp_path: Path, new_game: NewGame) -> TableGame:
    path = tmp_path / "fog.json"
    path.write_text(json.dumps(corner_map()))
    return new_game(path, seed=3)


def open_recorded(browser: Browser, server: TableGame, key: str, frames: list[str]) -> tuple[Page, str]:
    """A seat's page with every websocket frame it receives recorded from before it loads, and the page's text."""
    page = user_context(browser).new_page()

    def record(ws: WebSocket) -> None:
        ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else f.decode(errors="replace")))

    page.on("websocket", record)
    response = page.goto(server.url + server.seat(key), timeout=LOAD_TIMEOUT)
    assert response is not None
    wait_ready(page, timeout=LOAD_TIMEOUT)
    page.wait_for_selector('[data-token-id="ayla"]')
    return page, response.text()


def fog_at_every_size(page: Page) -> None:
    for viewport in SIZES.values():
        page.set_viewport_size(viewport)
        expect(page.locator('[data-role="fog"]')).to_have_count(1)
    page.set_viewport_size(VIEWPORT)


def fog_counts(page: Page) -> tuple[int, int]:
    fog = page.locator('[data-role="fog"]')
    return int(fog.get_attribute("data-visible") or 0), int(fog.get_attribute("data-remembered") or 0)


def test_a_players_fog_round_a_corner_and_the_soulweavers_preview(browser: Browser, server: TableGame) -> None:
    frames: list[str] = []
    alice, html = open_recorded(browser, server, "alice", frames)
    expect(alice.locator(f'[data-token-id="{ORC}"]')).to_have_count(0)
    expect(alice.locator('[data-role="fog"][data-preview="0"]')).to_have_count(1)
    seen, remembered = fog_counts(alice)
    assert seen > 0 and remembered == 0
    fog_at_every_size(alice)
    for secret in (ORC, ORC_NAME, SHADE, SHADE_NAME):
        assert secret not in html
        assert not [f for f in frames if secret in f], secret

    drag(alice, token_xy(alice, "ayla"), cell_xy(alice, ROUND_THE_CORNER))
    expect(alice.locator(anchor_selector("ayla", ROUND_THE_CORNER))).to_have_count(1)
    expect(alice.locator(f'[data-token-id="{ORC}"]')).to_have_count(1)  # came into sight
    expect(alice.locator(f'[data-token-id="{SHADE}"]')).to_have_count(0)
    fog_at_every_size(alice)

    drag(alice, token_xy(alice, "ayla"), cell_xy(alice, (1, 1)))
    expect(alice.locator(anchor_selector("ayla", (1, 1)))).to_have_count(1)
    expect(alice.locator(f'[data-token-id="{ORC}"]')).to_have_count(0)  # out of sight again
    alice.wait_for_function(
        "Number(document.querySelector('[data-role=fog]').dataset.remembered) > 0"
    )  # what was seen round the corner is remembered, dim
    fog_at_every_size(alice)

    gm = open_seat(browser, server, "soulweaver")
    expect(gm.locator(f'[data-token-id="{SHADE}"]')).to_have_count(1)
    expect(gm.locator('[data-role="fog"]')).to_have_count(0)
    gm.locator('[data-field="see-as"]').click()
    gm.locator(".q-menu .q-item").filter(has_text="alice").click()
    expect(gm.locator('[data-role="fog"][data-preview="1"]')).to_have_count(1)
    assert fog_counts(gm)[0] == fog_counts(alice)[0]
    expect(gm.locator(f'[data-token-id="{SHADE}"]')).to_have_count(1)  # the Soulweaver still sees everything
    fog_at_every_size(gm)

    assert not [f for f in frames if SHADE in f or SHADE_NAME in f], "the shade never came into alice's sight"

    gm.locator('[data-action="settings"]').click()  # the Soulweaver turns fog of war off: a shared map again
    gm.locator(".settings-dialog input[data-field=find-setting]").fill("fog of war")
    gm.locator('.settings-dialog [data-field="fog_of_war"]').click()
    gm.locator('[data-action="save-settings"]').click()
    expect(alice.locator(f'[data-token-id="{SHADE}"]')).to_have_count(1)
    expect(alice.locator(f'[data-token-id="{ORC}"]')).to_have_count(1)
    expect(alice.locator('[data-role="fog"]')).to_have_count(0)
    expect(alice.locator('[data-layer="wall"]')).to_have_attribute("data-count", "8")
