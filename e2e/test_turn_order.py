"""The turn order in Chromium: a player places their creature before the fight (table setting
`players_place_before_fight`), a creature given to a player mid-fight joins the order and takes a turn, and the
Soulweaver moves one up with the turn panel's buttons (reference §3 Priority)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import NewGame, TableGame, open_seat
from e2e.helpers import anchor_selector, cell_xy, drag, token_xy

pytestmark = pytest.mark.usefixtures("table_timeouts")

MAP: dict[str, Any] = {
    "version": 1,
    "name": "Turn order",
    "description": "Ayla (alice) and an Orc and a Rat of the Soulweaver's.",
    "settings": {"reactions": False},
    "board": {"cols": 14, "rows": 10, "walls": [], "objects": []},
    "creatures": [
        {
            "id": "ayla",
            "name": "Ayla",
            "anchor": [2, 2],
            "controller": "alice",
            "color": "#2f6db5",
            "skills": {"Zeal": 2},
        },
        {"id": "orc", "name": "Orc", "anchor": [8, 4], "color": "#7b3f2a", "skills": {"Zeal": 1}},
        {"id": "rat", "name": "Rat", "anchor": [10, 6], "color": "#6b6b6b", "size": -2},
    ],
}
AYLA_START = (3, 3)
ORC_STEP = (7, 4)


@pytest.fixture
def server(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(MAP))
    with new_game(path, seed=7) as started:
        yield started


def _expect_order(page: Page, order: list[str]) -> None:
    entries = page.locator(".turn-panel .turn-entry")
    expect(entries).to_have_count(len(order))
    for i, entry in enumerate(order):
        expect(entries.nth(i)).to_have_attribute("data-entry", entry)


def test_a_creature_given_to_a_player_mid_fight_takes_a_turn_and_the_soulweaver_moves_it_up(
    browser: Browser, server: TableGame
) -> None:
    gm = open_seat(browser, server, "soulweaver")
    alice = open_seat(browser, server, "alice")
    try:
        # before the fight alice sets Ayla down where she likes
        drag(alice, token_xy(alice, "ayla"), cell_xy(alice, AYLA_START))
        for page in (gm, alice):
            page.wait_for_selector(anchor_selector("ayla", AYLA_START))

        gm.get_by_role("button", name="Begin: roll Priority").click()
        _expect_order(gm, ["ayla", "soulweaver"])
        expect(gm.locator(".turn-panel")).to_contain_text("▶ Ayla")

        # the Orc is given to alice mid-fight: it rolls Priority and takes the place before the Soulweaver
        gm.locator('[data-token-id="orc"] .vtt-body').click()
        gm.keyboard.press("Escape")
        gm.locator(".sheet [data-field=controller]").click()
        gm.get_by_role("option", name="alice", exact=True).click()
        expect(gm.locator(".roll-log")).to_contain_text("Orc joins the fight and rolls Zeal for Priority")
        for page in (gm, alice):
            _expect_order(page, ["ayla", "orc", "soulweaver"])

        # its turn comes after Ayla's, and alice moves it
        alice.locator(".turn-panel").get_by_role("button", name="End turn").click()
        expect(alice.locator(".turn-panel")).to_contain_text("▶ Orc")
        expect(alice.locator(".turn-panel .economy")).to_contain_text("Orc: Major 1 · Minor 2 · Movement 5/5")
        drag(alice, token_xy(alice, "orc"), cell_xy(alice, ORC_STEP))
        for page in (gm, alice):
            page.wait_for_selector(anchor_selector("orc", ORC_STEP))
        expect(alice.locator(".turn-panel .economy")).to_contain_text("Movement 4/5")
        alice.locator(".turn-panel").get_by_role("button", name="End turn").click()
        expect(gm.locator(".turn-panel")).to_contain_text("▶ Soulweaver")

        # a player's panel has none of the Soulweaver's order tools
        expect(alice.locator(".turn-panel [data-order-action]")).to_have_count(0)
        expect(alice.locator("[data-action=reroll-priority]")).to_have_count(0)

        # in the Soulweaver's turn: the Orc up, before Ayla; round 2 starts with it
        gm.locator(".turn-panel [data-order-action=up][data-creature=orc]").click()
        for page in (gm, alice):
            _expect_order(page, ["orc", "ayla", "soulweaver"])
        expect(gm.locator(".roll-log")).to_contain_text("The Soulweaver moves Orc before Ayla in the turn order.")
        expect(gm.locator("[data-field=order-add]")).to_be_visible()  # the Rat may still be added
        gm.locator(".turn-panel").get_by_role("button", name="End turn").click()
        expect(alice.locator(".turn-panel")).to_contain_text("Round 2")
        expect(alice.locator(".turn-panel")).to_contain_text("▶ Orc")
    finally:
        for page in (gm, alice):
            page.context.close()
