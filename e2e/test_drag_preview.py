"""The move preview while dragging (`vtt.rules.move_preview` drawn by `static/map_view.js`), in Chromium at
1280 x 800, on e2e/maps/arena.json: alice drags Ayla (Movement 5, each space 1) on her turn.

The test's copy of the arena adds a Goblin (size 0) beside the Orc at (5, 5): the two fill that space (a size 0
creature fills half of one, reference §2.2), so Ayla may collide there but not end her move there.

Worked out from the map: Ayla stands at (4, 5); (4, 3) is 2 spaces away (axial r - 2), no wall between, each
space costing 1: 1 + 1 = 2 of 5. The Orc's space is her neighbour: 1 of 5. Her Collision rolls Athletics 2 against
DL 3 and the Orc defends with Athletics 2: the preview's exact odds, 44%. The two rats (size -1, a quarter each)
share (4, 6), her other neighbour: she fits beside them, so the Collision dialog there offers Move in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from e2e.conftest import LOAD_TIMEOUT, ROOT, NewGame, TableGame, user_context, wait_ready
from e2e.helpers import Cell, anchor_selector, cell_xy, token_xy

ARENA = ROOT / "e2e" / "maps" / "arena.json"
ORC = (5, 5)
RATS = (4, 6)
TWO_AWAY = (4, 3)
# the drop outline's box is centred on the viewport point [x, y] (within 2 px)
OUTLINE_AT = """([x, y]) => {
  const b = document.querySelector('.vtt-drop-preview').getBoundingClientRect();
  return b.width > 0 && Math.abs(b.x + b.width / 2 - x) < 2 && Math.abs(b.y + b.height / 2 - y) < 2;
}"""
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}

pytestmark = pytest.mark.usefixtures("table_timeouts")


@pytest.fixture
def server(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    data = json.loads(ARENA.read_text())
    data["settings"] = {**data.get("settings", {}), "reactions": False}
    goblin = {"id": "goblin", "name": "Goblin", "size": 0, "anchor": list(ORC), "skills": {"Athletics": 1}}
    data["creatures"].append(goblin)
    arena = tmp_path / "arena.json"
    arena.write_text(json.dumps(data))
    with new_game(arena, seed=13) as app:
        yield app


def open_seat_small(browser: Browser, server: TableGame, key: str) -> Page:
    page = user_context(browser).new_page()
    page.goto(server.url + server.seat(key), timeout=LOAD_TIMEOUT)
    wait_ready(page, timeout=LOAD_TIMEOUT)
    page.wait_for_selector('[data-token-id="ogre"]')
    return page


def move_to(page: Page, cell: Cell) -> None:
    page.mouse.move(*cell_xy(page, cell), steps=6)


def test_the_drag_shows_path_cost_and_odds_and_the_dialog_offers_move_in(browser: Browser, server: TableGame) -> None:
    sw = open_seat_small(browser, server, "soulweaver")
    alice = open_seat_small(browser, server, "alice")
    try:
        sw.get_by_role("button", name="Begin: roll Priority").click()
        ayla = alice.locator('[data-token-id="ayla"]')
        expect(ayla).to_have_class(re.compile(r"\bvtt-draggable\b"))

        label = alice.locator("[data-role=move-label]")
        path = alice.locator("[data-role=move-path]")
        alice.mouse.move(*token_xy(alice, "ayla"))
        alice.mouse.down()
        move_to(alice, TWO_AWAY)
        # the preview comes once, at the drag's start; the rest is drawn in the browser while the button is down
        expect(alice.locator("[data-role=move-reach]")).to_have_attribute("data-count", re.compile(r"^[1-9]\d*$"))
        expect(label).to_be_visible()
        expect(label).to_contain_text("Movement 1 + 1 = 2 of 5 left")
        expect(path).to_have_attribute("data-cells", re.compile(r"^\d+,4 4,3$"))
        expect(alice.locator("[data-role=move-steps] text")).to_have_text(["1", "1"])
        # the drop outline, drawn on Ayla's own space, has slid onto the space under the pointer
        alice.wait_for_function(OUTLINE_AT, arg=list(cell_xy(alice, TWO_AWAY)))

        move_to(alice, ORC)
        expect(label).to_contain_text("Movement 1 of 5 left")
        expect(label).to_contain_text("Collide with Orc: 44%")
        expect(label).to_contain_text("No room to move in")
        expect(path).to_have_attribute("data-cells", "5,5")
        expect(alice.locator("[data-role=move-blocked]")).to_have_attribute("data-count", "1")

        move_to(alice, RATS)
        expect(label).to_contain_text("Collide with Rat A: 99%")
        expect(label).to_contain_text("or move in beside them")
        alice.mouse.up()

        expect(label).to_be_hidden()
        expect(path).to_have_attribute("d", "")
        dialog = alice.locator(".collision-dialog")
        expect(dialog).to_be_visible()
        for rat in ("Rat A", "Rat B"):
            expect(dialog.get_by_role("button", name=f"Collide with {rat}: 99%")).to_be_visible()
            expect(dialog).to_contain_text(f"Roll 2 dice + 1 against DL 3; {rat} has no Athletics to defend with")
        expect(dialog).to_contain_text("Getting there costs 1 of 5 Movement left.")
        move_in = dialog.get_by_role("button", name="Move in", exact=True)
        expect(move_in).to_be_visible()
        expect(sw.locator(".collision-dialog")).to_have_count(0)

        move_in.click()
        expect(dialog).to_have_count(0)
        for page in (sw, alice):
            expect(page.locator(anchor_selector("ayla", RATS))).to_have_count(1)
    finally:
        for page in (sw, alice):
            page.context.close()
