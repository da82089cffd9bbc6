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

from e2e.conftest import ROOT, AppServer, NewGame, open_as, open_page, running
from e2e.helpers import cell_xy, choose_action, token_xy
from vtt.rules import apply
from vtt.rules.dice import ScriptedDice
from vtt.rules.mapfile import load_map
from vtt.rules.turns import begun_on_turn, fresh_economy
from vtt.table.archive import ARCHIVE_FORMAT, KIND

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
def begun(browser: Browser, path: Path, new_game: NewGame) -> Iterator[Table]:
    """The table of the map at `path`, the fight begun (Ayla, alice's creature, has the first turn)."""
    with new_game(path, seed=31) as server:
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
def table(browser: Browser, tmp_path: Path, new_game: NewGame) -> Iterator[Table]:
    """The arena with the Pillar beside Ayla, given a Durability."""
    with begun(browser, arena(tmp_path, "pillar", _pillar_beside_ayla), new_game) as t:
        yield t


@pytest.fixture
def giant(browser: Browser, tmp_path: Path, new_game: NewGame) -> Iterator[Table]:
    """The arena with Ayla 4 sizes larger than Rat A beside her."""
    with begun(browser, arena(tmp_path, "giant", _giant_ayla), new_game) as t:
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
    size = alice.viewport_size
    for width, height in ((1280, 800), (820, 1180), (390, 844)):
        alice.set_viewport_size({"width": width, "height": height})
        expect(dialog.locator("[data-go]")).to_be_visible()
    if size is not None:
        alice.set_viewport_size(size)
    dialog.locator("[data-go]").click()
    text = newest_text(giant, 2)
    assert "Rat A: Nimble defense" in text


def _held_orc_archive(tmp_path: Path) -> Path:
    """A game archive whose starting state has Ayla (grown to size 2, Grab Reach 1) holding the Orc beside her with
    its head kept from use (a Grab, then a Grapple with a Called Shot at the head, played with scripted dice), on
    a fresh turn of hers."""
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = {"reactions": False, "defense_prompts": "nobody"}
    creatures = {c["id"]: c for c in data["creatures"]}
    creatures["ayla"].update(size=2, anchor=[2, 2])
    creatures["orc"]["anchor"] = [4, 2]
    s = begun_on_turn(load_map(data), "ayla")
    grab = {"type": "grab", "creature": "ayla", "target": "orc", "limb": "left_arm"}
    s, _ = apply(s, grab, ScriptedDice([12, 12, 1, 1]))
    s.economy["ayla"] = fresh_economy(s, s.creatures["ayla"])
    grapple = {"type": "grapple", "creature": "ayla", "target": "orc", "called_shot": "head"}
    s, _ = apply(s, grapple, ScriptedDice([12, 12, 1, 1]))
    s.economy["ayla"] = fresh_economy(s, s.creatures["ayla"])
    assert [x.part for h in s.holds.values() for x in h.locks] == ["head"]
    archive = {
        "format": ARCHIVE_FORMAT,
        "kind": KIND,
        "name": "Held Orc",
        "map": "arena.json",
        "initial_state": s.model_dump(mode="json"),
        "log": [],
    }
    path = tmp_path / "held-orc.game.json"
    path.write_text(json.dumps(archive))
    return path


def test_suffocate_and_break_hold_of_a_part_chosen_from_the_dialogs(browser: Browser, tmp_path: Path) -> None:
    """seed-000 Grapple: "While you have a head affected in this way, you can use Grapple to attempt to suffocate
    the subject"; Break Hold: "If the Holder has targeted a specific part, you can remove the affected part". The
    Soulweaver imports the game, suffocates the Orc for Ayla from the Grapple dialog, ends Ayla's turn, and on its
    own turn the Orc Breaks Hold, choosing to free its head in the dialog."""
    args = ["--database", f"sqlite:///{tmp_path}/game.sqlite", "--seed", "31"]
    with running(AppServer(module="vtt.cli", args=args)) as server:
        sw = open_page(browser, server.url + "/")  # the start page
        try:
            sw.locator("input[data-field=import-your-name]").fill("Mira")
            sw.locator("[data-field=game-file] input[type=file]").set_input_files(str(_held_orc_archive(tmp_path)))
            sw.wait_for_url("**/play/**")
            sw.wait_for_selector('[data-token-id="ayla"]')
            sw.mouse.click(*token_xy(sw, "ayla"))
            expect(sw.locator(".q-menu .menu-title")).to_have_text("Ayla")
            choose_action(sw, "grapple")
            sw.mouse.click(*token_xy(sw, "orc"))
            dialog = sw.locator(".choice-dialog")
            dialog.locator("[data-choose=suffocate]").click()
            options = sw.locator(".q-menu .q-item")
            expect(options).to_have_count(2)
            options.nth(1).click()
            expect(dialog.locator("[data-choose=suffocate]")).to_contain_text("yes")
            dialog.locator("[data-go]").click()
            entry = sw.locator(".roll-log .log-entry").first
            expect(entry).to_contain_text("Ayla: Grapple on Orc")
            expect(entry).to_contain_text("suffocates Orc")
            sw.get_by_role("button", name="End turn").click()
            expect(sw.locator(".turn-panel")).to_contain_text("▶ Soulweaver")
            sw.mouse.click(*token_xy(sw, "orc"))
            expect(sw.locator(".q-menu .menu-title")).to_have_text("Orc")
            choose_action(sw, "break_hold")
            sw.mouse.click(*token_xy(sw, "ayla"))
            dialog = sw.locator(".choice-dialog")
            dialog.locator("[data-choose=free_part]").click()
            options = sw.locator(".q-menu .q-item")
            expect(options).to_have_count(2)
            expect(options.nth(1)).to_have_text("head")
            options.nth(1).click()
            dialog.locator("[data-go]").click()
            expect(sw.locator(".roll-log .log-entry").first).to_contain_text("Orc: Break Hold on Ayla")
        finally:
            sw.context.close()
