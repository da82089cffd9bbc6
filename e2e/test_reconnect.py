"""Reconnect: a player whose connection drops while the Soulweaver plays on, or who reloads the page, comes back
to the table's current state."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import LOAD_TIMEOUT, ROOT, NewGame, TableGame, open_seat, wait_ready
from e2e.helpers import anchor_selector, cell_xy, drag

ARENA = ROOT / "e2e" / "maps" / "arena.json"
pytestmark = pytest.mark.usefixtures("table_timeouts")


@pytest.fixture
def server(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    with new_game(ARENA, seed=3) as server:
        yield server


def test_a_dropped_connection_comes_back_to_the_current_state(browser: Browser, server: TableGame) -> None:
    gm, alice = open_seat(browser, server, "soulweaver"), open_seat(browser, server, "alice")
    alice.context.set_offline(True)
    alice.wait_for_function("window.socket.connected === false")  # the page has noticed
    drag(gm, cell_xy(gm, (10, 6)), cell_xy(gm, (12, 3)))  # anchor to space: its body's middle lies between spaces
    gm.wait_for_selector(anchor_selector("ogre", (12, 3)))
    expect(gm.locator(".log-entry")).to_have_count(1)
    alice.context.set_offline(False)
    alice.wait_for_selector(anchor_selector("ogre", (12, 3)), timeout=LOAD_TIMEOUT)
    expect(alice.locator(".log-entry")).to_have_count(1)


def test_a_reload_shows_the_current_state(browser: Browser, server: TableGame) -> None:
    gm, alice = open_seat(browser, server, "soulweaver"), open_seat(browser, server, "alice")
    drag(gm, cell_xy(gm, (10, 6)), cell_xy(gm, (12, 3)))
    alice.wait_for_selector(anchor_selector("ogre", (12, 3)))
    gm.locator("[data-action=undo]").click()
    alice.wait_for_selector(anchor_selector("ogre", (10, 6)))
    alice.reload()
    wait_ready(alice, timeout=LOAD_TIMEOUT)
    alice.wait_for_selector(anchor_selector("ogre", (10, 6)))
    expect(alice.locator(".log-entry")).to_have_count(2)
    expect(alice.locator(".log-entry.log-undone")).to_have_count(1)
