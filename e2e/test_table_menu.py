"""The token menu of a creature with several weapons (issue 5: "the menu lists one entry per weapon/limb for each
action, which gets long") and the dialog of an action at several creatures (seed-000 Distract: "attack creatures
that are Aware of that action ... Creatures that expect you to use this action gain +6 on their defense").

The arena with Ayla given four arms holding a Sword, a Dagger and a Spear (the fourth arm free, for unarmed
attacks): the menu shows one row per kind of action, and a kind made with several weapons opens their list.
The server's dice are seeded; the tests assert on what the log shows, never on a particular roll.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from e2e.conftest import ROOT, NewGame, open_as
from e2e.helpers import choose_action, menu_entry, token_xy
from vtt.rules import RandomDice, apply, legal_actions
from vtt.rules.menu_odds import percent
from vtt.rules.odds import attack_chance
from vtt.rules.scenario import load_scenario

ARENA = ROOT / "e2e" / "maps" / "arena.json"
pytestmark = pytest.mark.usefixtures("table_timeouts")
WEAPONS = ["sword", "dagger", "spear"]
VARIANTS = ["Sword", "Dagger", "Spear", "Unarmed (lower left arm)"]
CHANCE = r"(\d+%|under 1%|over 99%)"
ODDS = re.compile(rf"^Major · {CHANCE}( to {CHANCE})? to succeed$")
"""A variant's cost and the chance its roll succeeds against its targets (the d12 rule, `vtt.rules.odds`)."""


def _four_armed_arena(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = {**data.get("settings", {}), "reactions": False}
    data["weapons"] += [
        {"id": "dagger", "name": "Dagger", "damage": 1, "lightweight": True},
        {"id": "spear", "name": "Spear", "damage": 2, "extend": 1},
    ]
    ayla = next(c for c in data["creatures"] if c["id"] == "ayla")
    ayla["weapons"] = WEAPONS
    ayla["limbs"] = [
        {"id": "upper_left", "name": "upper left arm"},
        {"id": "upper_right", "name": "upper right arm"},
        {"id": "lower_left", "name": "lower left arm"},
        {"id": "lower_right", "name": "lower right arm"},
    ]
    ayla["grip"] = {"upper_right": "sword", "upper_left": "dagger", "lower_right": "spear"}
    ayla["skills"] = {**ayla["skills"], "Guile": 3}
    for c in data["creatures"]:
        if c["id"] != "ayla":
            c["skills"] = {**c.get("skills", {}), "Observe": 1}
    path = tmp_path / "four_arms.json"
    path.write_text(json.dumps(data))
    return path, data


@dataclass
class Table:
    data: dict[str, Any]
    soulweaver: Page
    alice: Page

    @property
    def both(self) -> tuple[Page, Page]:
        return self.soulweaver, self.alice


@pytest.fixture
def table(browser: Browser, tmp_path: Path, new_game: NewGame) -> Iterator[Table]:
    """The four-armed arena's table, the fight begun (Ayla, alice's creature, has the first turn)."""
    path, data = _four_armed_arena(tmp_path)
    with new_game(path, seed=29) as server:
        soulweaver = open_as(browser, server, "as=soulweaver", '[data-token-id="ayla"]')
        alice = open_as(browser, server, "as=player&name=alice", '[data-token-id="ayla"]')
        soulweaver.get_by_role("button", name="Begin: roll Priority").click()
        for page in (soulweaver, alice):
            expect(page.locator(".turn-panel")).to_contain_text("▶ Ayla")
        yield Table(data, soulweaver, alice)
        for page in (soulweaver, alice):
            page.context.close()


def open_menu(page: Page, token_id: str, name: str) -> Locator:
    page.mouse.click(*token_xy(page, token_id))
    menu = page.locator(".q-menu")
    expect(menu.locator(".menu-title")).to_have_text(name)
    return menu


def newest_entry(page: Page) -> Locator:
    return page.locator(".roll-log .log-entry").first


def wait_for_entries(table: Table, count: int) -> str:
    """Both logs show ``count`` entries; returns the newest one's text (the same on both pages)."""
    for page in table.both:
        expect(page.locator(".log-entry")).to_have_count(count)
    texts = [newest_entry(page).inner_text() for page in table.both]
    assert texts[0] == texts[1]
    return texts[0]


def test_grouped_menu_picks_a_weapon_then_a_target(table: Table) -> None:
    alice = table.alice
    errors: list[str] = []
    alice.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    alice.on("pageerror", lambda e: errors.append(str(e)))
    menu = open_menu(alice, "ayla", "Ayla")
    # every legal action is in the menu, exactly once...
    state = load_scenario(table.data).state
    state, _ = apply(state, {"type": "begin"}, RandomDice())
    expected = sorted((a.action, a.label) for a in legal_actions(state, "ayla"))
    items = menu.locator(".menu-action")
    shown = sorted((i.get_attribute("data-action") or "", i.get_attribute("data-label") or "") for i in items.all())
    assert shown == expected
    # ... in one row per kind: the four Strikes (three weapons and unarmed) are one row, their list closed; the 30
    # options fit in 15 rows
    rows = menu.locator(".menu-kind, .menu-action:not(.menu-variant)")
    assert rows.count() <= len(expected) // 2
    strike = menu.locator('.menu-kind[data-kind="strike"]')
    expect(strike).to_have_attribute("data-label", "Strike")
    expect(strike).to_contain_text("Major · Sword, Dagger, Spear, Unarmed")
    variants = menu_entry(alice, "strike")
    expect(variants).to_have_count(4)
    for i in range(4):
        expect(variants.nth(i)).to_be_hidden()
    # the row opens the list of weapons, each with its cost and roll preview
    strike.locator(".q-expansion-item__container > .q-item").first.click()
    for i, name in enumerate(VARIANTS):
        expect(variants.nth(i)).to_be_visible()
        expect(variants.nth(i).locator(".text-sm")).to_have_text(name)
        expect(variants.nth(i).locator(".menu-detail")).to_have_text(ODDS)
    # another kind's list opens in its place (one at a time)
    impair = menu.locator('.menu-kind[data-kind="impair"]')
    impair.locator(".q-expansion-item__container > .q-item").first.click()
    expect(menu_entry(alice, "impair").first).to_be_visible()
    expect(variants.first).to_be_hidden()
    # the Dagger: its targets are highlighted, a click on the Orc strikes it with the Dagger
    choose_action(alice, "strike", "Strike with Dagger")
    expect(alice.locator(".q-menu")).to_have_count(0)
    expect(alice.get_by_text("Strike with Dagger: choose a target")).to_be_visible()
    expect(alice.locator('[data-highlight-kind="target"][data-q="5"][data-r="5"]')).to_have_count(1)
    alice.mouse.click(*token_xy(alice, "orc"))
    text = wait_for_entries(table, 2)
    assert "Ayla: Strike on Orc with Dagger" in text
    expect(alice.locator("[data-highlight-kind]")).to_have_count(0)
    # Escape still closes the menu
    open_menu(alice, "ayla", "Ayla")
    alice.keyboard.press("Escape")
    expect(alice.locator(".q-menu")).to_have_count(0)
    assert errors == []


def _tick(dialog: Locator, what: str, creature: str) -> None:
    box = dialog.locator(f"[data-{what}={creature}]")
    box.click()
    expect(box).to_have_attribute("aria-checked", "true")


def test_distract_two_creatures_from_the_dialog(table: Table) -> None:
    sw, alice = table.both
    # Escape closes the dialog and clears the map's highlights
    open_menu(alice, "ayla", "Ayla")
    choose_action(alice, "distract")
    dialog = alice.locator(".multi-target-dialog")
    expect(dialog).to_be_visible()
    expect(alice.locator('[data-highlight-kind="target"]').first).to_be_attached()
    alice.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(alice.locator("[data-highlight-kind]")).to_have_count(0)
    # a player who has used no action yet distracts by speaking, with no bonus (seed-000: "After you use an action
    # or speak"); she may mark a creature that expects it ("Creatures that expect you to use this action gain +6
    # on their defense"), once she ticks it to attack
    open_menu(alice, "ayla", "Ayla")
    choose_action(alice, "distract")
    expect(dialog).to_be_visible()
    for creature in ("orc", "rat1", "rat2"):
        expect(dialog.locator(f"[data-attack={creature}]")).to_be_visible()
        expect(dialog.locator(f"[data-expects={creature}]")).to_have_class(re.compile(r"\bdisabled\b"))
    expect(dialog.locator("[data-choose=action]")).to_contain_text("Speaking")
    # one roll, shown as its chance against each creature's Observe 1d12: Guile 3d12 vs DL 3 (no bonus for speaking)
    expect(dialog.locator(".multi-roll")).to_contain_text(f"Orc: {percent(attack_chance(3, 0, 3, 1, 0))}")
    # the creatures it may attack are highlighted on the map meanwhile
    expect(alice.locator('[data-highlight-kind="target"][data-q="5"][data-r="5"]')).to_have_count(1)
    dialog.locator("[data-go]").click()
    expect(alice.get_by_text("Tick at least one creature to attack")).to_be_visible()
    _tick(dialog, "attack", "orc")
    _tick(dialog, "attack", "rat1")
    _tick(dialog, "expects", "rat1")
    dialog.locator("[data-go]").click()
    expect(dialog).to_have_count(0)
    text = wait_for_entries(table, 2)
    assert "Ayla creates a diversion (speaking)." in text
    for page in table.both:
        rolls = newest_entry(page).locator(".roll", has=page.get_by_text("Ayla: Distract", exact=True))
        expect(rolls).to_have_count(2)
        expect(newest_entry(page)).to_contain_text("against Orc's Observe")
        expect(newest_entry(page)).to_contain_text("against Rat A's Observe")
        expect(newest_entry(page).get_by_text("+6 · expects the Distract: +6")).to_have_count(1)
        expect(page.locator("[data-highlight-kind]")).to_have_count(0)
    # after a Dash (a Minor Action) the Soulweaver, acting for Ayla, distracts after it: +1, and +6 for the Orc
    # that expects it
    open_menu(sw, "ayla", "Ayla")
    choose_action(sw, "dash")
    wait_for_entries(table, 3)
    open_menu(sw, "ayla", "Ayla")
    choose_action(sw, "distract")
    dialog = sw.locator(".multi-target-dialog")
    expect(dialog.locator("[data-choose=action]")).to_contain_text("Minor Action")
    expect(dialog.locator(".multi-roll")).to_contain_text(f"Orc: {percent(attack_chance(3, 1, 3, 1, 0))}")  # +1
    expect(dialog.locator("[data-expects=orc]")).to_have_class(re.compile(r"\bdisabled\b"))  # not attacked yet
    _tick(dialog, "attack", "orc")
    _tick(dialog, "attack", "rat2")
    _tick(dialog, "expects", "orc")
    dialog.locator("[data-go]").click()
    text = wait_for_entries(table, 4)
    assert "Ayla creates a diversion (after a Minor Action)." in text
    for page in table.both:
        entry = newest_entry(page)
        expect(entry.locator(".roll", has=page.get_by_text("Ayla: Distract", exact=True))).to_have_count(2)
        expect(entry.get_by_text("+6 · expects the Distract: +6")).to_have_count(1)
