"""The map's ruler, pings and keys in Chromium, with the Soulweaver and alice at a square-grid table: the Soulweaver
holds the ruler from the Orc to a space 4 away (4 across, 2 down: a diagonal step is one space on squares) and both
pages show "4 spaces" until she lets go; her Alt-click pings a space on alice's page; Ctrl+Z takes back her last
move; alice's E ends her turn; an R typed in the chat stays in the chat."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from e2e.conftest import LOAD_TIMEOUT, NewGame, TableGame, open_seat, user_context, wait_ready
from e2e.helpers import anchor_selector, cell_xy, drag, token_xy

pytestmark = pytest.mark.usefixtures("table_timeouts")

MAP: dict[str, Any] = {
    "version": 1,
    "name": "Ruler",
    "description": "A square room: Ayla (alice) and the Soulweaver's Orc.",
    "grid": "square",
    "settings": {"reactions": False},
    "board": {"cols": 12, "rows": 9, "walls": [[9, 1], [9, 2]], "objects": []},
    "creatures": [
        {
            "id": "ayla",
            "name": "Ayla",
            "anchor": [1, 1],
            "controller": "alice",
            "color": "#2f6db5",
            "skills": {"Zeal": 2},
        },
        {"id": "orc", "name": "Orc", "anchor": [3, 3], "color": "#7b3f2a", "skills": {"Zeal": 1}},
    ],
}
ORC = (3, 3)
FOUR_AWAY = (7, 5)
PINGED = (5, 1)
ORC_STEP = (4, 4)
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def server(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(MAP))
    with new_game(path, seed=3) as started:
        yield started


def _ruler(page: Page) -> Any:
    return page.locator("[data-role=rulers] [data-role=ruler]")


def _hold_ruler(gm: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    gm.mouse.move(*start)
    gm.mouse.down()
    gm.mouse.move(*end, steps=10)


def test_the_ruler_pings_and_keys_reach_the_table(browser: Browser, server: TableGame) -> None:
    gm = open_seat(browser, server, "soulweaver")
    alice = open_seat(browser, server, "alice")

    # an R typed in the chat is text, not the ruler key
    alice.locator(".chat-input input").click()
    alice.keyboard.type("R")
    expect(alice.locator(".chat-input input")).to_have_value("R")
    expect(alice.locator("[data-role=ruler-toggle]")).to_have_attribute("aria-pressed", "false")

    # the Soulweaver holds the ruler from the Orc to a space 4 away: both pages show it, with its distance
    gm.locator("[data-role=ruler-toggle]").click()
    expect(gm.locator("[data-role=ruler-toggle]")).to_have_attribute("aria-pressed", "true")
    _hold_ruler(gm, token_xy(gm, "orc"), cell_xy(gm, FOUR_AWAY))
    for page in (gm, alice):
        ruler = _ruler(page)
        expect(ruler).to_have_count(1)
        expect(ruler).to_have_attribute("data-from", "3,3")
        expect(ruler).to_have_attribute("data-to", f"{FOUR_AWAY[0]},{FOUR_AWAY[1]}")
        expect(ruler.locator("[data-role=ruler-label]")).to_have_attribute("data-distance", "4")
        expect(ruler.locator("[data-role=ruler-label]")).to_contain_text("4 spaces")
    expect(_ruler(alice).locator("[data-role=ruler-label]")).to_contain_text("Soulweaver")
    alice.set_viewport_size({"width": 1280, "height": 800})
    gm.mouse.up()
    for page in (gm, alice):
        expect(_ruler(page)).to_have_count(0)
    gm.keyboard.press("r")  # R turns the ruler off again
    expect(gm.locator("[data-role=ruler-toggle]")).to_have_attribute("aria-pressed", "false")

    # Alt-click pings a space: a ring on alice's page with the name of who pinged
    x, y = cell_xy(gm, PINGED)
    gm.keyboard.down("Alt")
    gm.mouse.click(x, y)
    gm.keyboard.up("Alt")
    ping = alice.locator(f'[data-role=ping][data-cell="{PINGED[0]},{PINGED[1]}"]')
    expect(ping).to_have_count(1)
    expect(ping).to_contain_text("Soulweaver")
    expect(ping.locator(".vtt-ping-ring")).to_have_count(2)
    expect(ping).to_have_count(0)  # the ring goes after a few seconds

    # the Soulweaver's Ctrl+Z takes back her last move, for everyone
    drag(gm, token_xy(gm, "orc"), cell_xy(gm, ORC_STEP))
    for page in (gm, alice):
        page.wait_for_selector(anchor_selector("orc", ORC_STEP))
    gm.keyboard.press("Control+z")
    for page in (gm, alice):
        page.wait_for_selector(anchor_selector("orc", ORC))
    expect(gm.locator(".log-entry.log-undone")).to_have_count(1)
    gm.keyboard.press("Control+Shift+z")  # and Ctrl+Shift+Z plays it again
    for page in (gm, alice):
        page.wait_for_selector(anchor_selector("orc", ORC_STEP))

    # E ends the turn of the seat whose turn it is
    gm.get_by_role("button", name="Begin: roll Priority").click()
    expect(alice.locator(".turn-panel")).to_contain_text("▶ Ayla")
    expect(alice.locator(".turn-panel").get_by_role("button", name="End turn")).to_be_visible()
    alice.mouse.click(*cell_xy(alice, (10, 7)))  # out of the chat's input, onto an empty space of the map
    alice.keyboard.press("e")
    for page in (gm, alice):
        expect(page.locator(".turn-panel")).to_contain_text("▶ Soulweaver")


def _phone(browser: Browser, server: TableGame, key: str) -> Page:
    """A seat's page on a touch phone (390 × 844): the map takes the screen, the panels wait in their sheet."""
    page = user_context(browser, viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(server.url + server.seat(key), timeout=LOAD_TIMEOUT)
    wait_ready(page, timeout=LOAD_TIMEOUT)
    page.wait_for_selector("[data-token-id]")
    return page


def test_the_keys_help_a_long_press_ping_and_the_ruler_on_a_phone(browser: Browser, server: TableGame) -> None:
    gm = open_seat(browser, server, "soulweaver")
    alice = _phone(browser, server, "alice")

    alice.locator("[data-role=keys-toggle]").tap()
    help_panel = alice.locator("[data-role=keys-help]")
    expect(help_panel).to_be_visible()
    expect(help_panel).to_contain_text("Ctrl+Z")
    alice.locator("[data-role=keys-toggle]").tap()
    expect(help_panel).to_be_hidden()

    # a finger held still on a space pings it (shown on the Soulweaver's page), and lifting it is no click
    x, y = cell_xy(alice, PINGED)
    touch = alice.context.new_cdp_session(alice)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    ping = gm.locator(f'[data-role=ping][data-cell="{PINGED[0]},{PINGED[1]}"]')
    expect(ping).to_have_count(1)
    expect(ping).to_contain_text("alice")
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    # the Soulweaver's ruler shows on the phone
    gm.locator("[data-role=ruler-toggle]").click()
    _hold_ruler(gm, token_xy(gm, "orc"), cell_xy(gm, FOUR_AWAY))
    expect(_ruler(alice).locator("[data-role=ruler-label]")).to_have_attribute("data-distance", "4")
    gm.mouse.up()
    expect(_ruler(alice)).to_have_count(0)
