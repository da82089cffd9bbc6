"""Choices reached from the token menu in the browser (issue 13): striking the ground and striking an object on the
map (seed-000 "To target a wall or vertical surface that fills an entire space, treat it as a size 1 object. To
target the ground ... take -1 on your attack roll and treat its defense as 0"), and attacking Nimble (seed-000 "If
you are 4 or more sizes larger than your target, you can instead attack against Nimble").

The arena with the Pillar moved beside Ayla, at (3, 5), and given a Durability; or with Ayla grown to size 3 and
Rat A (size -1) beside her. The server's dice are seeded; the
tests assert on what the log shows (the roll's label names what was struck), never on a particular roll.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from e2e.conftest import ROOT, AppServer, open_as, running, screenshot
from e2e.helpers import cell_xy, choose_action, token_xy

ARENA = ROOT / "e2e" / "maps" / "arena.json"
PILLAR = (3, 5)
GROUND = (4, 4)
pytestmark = pytest.mark.usefixtures("table_timeouts")


@dataclass
class Table:
    soulweaver: Page
    alice: Page

    @property
    def both(self) -> tuple[Page, Page]:
        return self.soulweaver, self.alice


def arena(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], None]) -> Path:
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = {**data.get("settings", {}), "reactions": False}
    change(data)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


def _pillar_beside_ayla(data: dict[str, Any]) -> None:
    data["board"]["objects"] = [{"id": "pillar", "name": "Pillar", "cells": [list(PILLAR)], "size": 1, "durability": 0}]


def _giant_ayla(data: dict[str, Any]) -> None:
    """Ayla size 3 (spaces (2, 2), (3, 2), (2, 3), (3, 3)) with Rat A (size -1) beside her at (4, 2): 4 sizes."""
    creatures = {c["id"]: c for c in data["creatures"]}
    creatures["ayla"].update(size=3, anchor=[2, 2])
    creatures["rat1"]["anchor"] = [4, 2]


@contextlib.contextmanager
def begun(browser: Browser, path: Path, tmp_path: Path) -> Iterator[Table]:
    """The table of the map at `path`, the fight begun (Ayla, alice's creature, has the first turn)."""
    args = ["--map", str(path), "--database", f"sqlite:///{tmp_path}/game.sqlite", "--seed", "31"]
    with running(AppServer(module="vtt.cli", args=args)) as server:
        soulweaver = open_as(browser, server, "as=soulweaver", '[data-token-id="ayla"]')
        alice = open_as(browser, server, "as=player&name=alice", '[data-token-id="ayla"]')
        soulweaver.get_by_role("button", name="Begin: roll Priority").click()
        for page in (soulweaver, alice):
            expect(page.locator(".turn-panel")).to_contain_text("▶ Ayla")
        try:
            yield Table(soulweaver, alice)
        finally:
            for page in (soulweaver, alice):
                page.context.close()


@pytest.fixture
def table(browser: Browser, tmp_path: Path) -> Iterator[Table]:
    """The arena with the Pillar beside Ayla, given a Durability."""
    with begun(browser, arena(tmp_path, "pillar", _pillar_beside_ayla), tmp_path) as t:
        yield t


@pytest.fixture
def giant(browser: Browser, tmp_path: Path) -> Iterator[Table]:
    """The arena with Ayla 4 sizes larger than Rat A beside her."""
    with begun(browser, arena(tmp_path, "giant", _giant_ayla), tmp_path) as t:
        yield t


def open_menu(page: Page) -> Locator:
    page.mouse.click(*token_xy(page, "ayla"))
    menu = page.locator(".q-menu")
    expect(menu.locator(".menu-title")).to_have_text("Ayla")
    return menu


def newest_text(table: Table, count: int) -> str:
    """Both logs show ``count`` entries; the newest one's text (the same on both pages)."""
    for page in table.both:
        expect(page.locator(".log-entry")).to_have_count(count)
    texts = [page.locator(".roll-log .log-entry").first.inner_text() for page in table.both]
    assert texts[0] == texts[1]
    return texts[0]


def test_strike_the_ground_chosen_from_the_menu(table: Table) -> None:
    alice = table.alice
    errors: list[str] = []
    alice.on("pageerror", lambda e: errors.append(str(e)))
    open_menu(alice)
    choose_action(alice, "strike_ground", "Strike the ground (Sword)")
    expect(alice.get_by_text("Strike the ground (Sword): choose a space")).to_be_visible()
    ground = f'[data-highlight-kind="space"][data-q="{GROUND[0]}"][data-r="{GROUND[1]}"]'
    expect(alice.locator(ground)).to_have_count(1)
    screenshot(alice, "menu_choices_strike_ground")
    alice.mouse.click(*cell_xy(alice, GROUND))
    text = newest_text(table, 2)
    assert f"Ayla: Strike on the ground at {GROUND} with Sword" in text
    expect(alice.locator("[data-highlight-kind]")).to_have_count(0)
    assert errors == []


def test_strike_an_object_chosen_from_the_menu(table: Table) -> None:
    alice = table.alice
    open_menu(alice)
    choose_action(alice, "strike_wall", "Strike a wall (Sword)")
    wall = f'[data-highlight-kind="target"][data-q="{PILLAR[0]}"][data-r="{PILLAR[1]}"]'
    expect(alice.locator(wall)).to_have_count(1)
    alice.mouse.click(*cell_xy(alice, PILLAR))
    text = newest_text(table, 2)
    assert f"Ayla: Strike on the Pillar at {PILLAR} with Sword" in text


def test_attack_nimble_chosen_from_the_dialog(giant: Table) -> None:
    alice = giant.alice
    open_menu(alice)
    choose_action(alice, "strike", "Strike with Sword")
    alice.mouse.click(*token_xy(alice, "rat1"))
    dialog = alice.locator(".choice-dialog")
    expect(dialog).to_contain_text("Rat A")
    dialog.locator("[data-choose=nimble]").click()
    options = alice.locator(".q-menu .q-item")
    expect(options).to_have_count(2)
    expect(options.nth(1)).to_have_text("yes")
    options.nth(1).click()
    screenshot(alice, "menu_choices_nimble")
    size = alice.viewport_size
    for width, height in ((1280, 800), (820, 1180), (390, 844)):
        alice.set_viewport_size({"width": width, "height": height})
        expect(dialog.locator("[data-go]")).to_be_visible()
        screenshot(alice, f"menu_choices_nimble_{width}")
    if size is not None:
        alice.set_viewport_size(size)
    dialog.locator("[data-go]").click()
    text = newest_text(giant, 2)
    assert "Rat A: Nimble defense" in text
