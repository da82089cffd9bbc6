"""The Soulweaver's Settings dialog: every table setting under its group, each with its rule text and default;
Save sends one command that every page sees in the log and the player's seat sees in its state. A bad value is
refused in plain words and changes nothing; a player's page has no Settings button."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from e2e.conftest import ROOT, NewGame, TableGame, open_as
from vtt.rules.setting_groups import GROUPS
from vtt.rules.settings import TableSettings

ARENA = ROOT / "e2e" / "maps" / "arena.json"
pytestmark = pytest.mark.usefixtures("table_timeouts")
SCREENS: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 820, "height": 1180},
    "laptop": {"width": 1280, "height": 800},
}


@pytest.fixture
def arena(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    path = tmp_path / "map.json"
    path.write_text(ARENA.read_text())
    with new_game(path, seed=7) as server:
        yield server


def seat_settings(page: Page, server: TableGame, key: str) -> dict[str, Any]:
    secret = server.seat(key).rsplit("/", 1)[-1]
    response = page.request.get(f"{server.url}/api/seat/{secret}/state")
    assert response.ok
    settings: dict[str, Any] = response.json()["state"]["settings"]
    return settings


def find(dialog: Any, words: str) -> None:
    dialog.locator("input[data-field=find-setting]").fill(words)


def test_the_soulweaver_changes_a_setting_and_the_player_s_seat_follows(browser: Browser, arena: TableGame) -> None:
    gm = open_as(browser, arena, "as=soulweaver")
    gm.set_viewport_size(SCREENS["laptop"])
    alice = open_as(browser, arena, "as=player&name=alice")
    expect(gm.locator("[data-action=settings]")).to_be_visible()
    expect(alice.locator("[data-action=settings]")).to_have_count(0)
    assert seat_settings(alice, arena, "alice")["reactions"] is True

    gm.locator("[data-action=settings]").click()
    dialog = gm.locator(".settings-dialog")
    expect(dialog).to_be_visible()
    # every group; the first one open, only its settings built, each with its rule text
    expect(dialog.locator("[data-group]")).to_have_count(len(GROUPS))
    expect(dialog.locator("[data-setting]")).to_have_count(len(GROUPS["Turns and actions"]))
    first = dialog.locator("[data-setting=movement_pool]")
    expect(first).to_contain_text("Spaces in a Movement Pool")
    expect(first.locator(".setting-default")).to_have_text("default")
    expect(first.locator(".setting-rule")).to_contain_text("Spaces in a Movement Pool (§2.5, gap 6).")
    expect(dialog.locator("[data-setting=players_place_before_fight] .setting-when")).to_have_text("before the fight")
    expect(dialog.locator("[data-setting=grid] .setting-when")).to_have_text("fixed for this game")
    for size in SCREENS.values():
        gm.set_viewport_size(size)
        expect(dialog).to_be_visible()
    # a group's settings are built when it opens
    dialog.locator('[data-group="Defenses and reactions"]').get_by_role("button").click()
    expect(dialog.locator("[data-setting]")).to_have_count(
        len(GROUPS["Turns and actions"]) + len(GROUPS["Defenses and reactions"])
    )
    expect(dialog.locator("[data-setting=reaction_seconds] .setting-default")).to_have_text("default")

    # the finder narrows the list; the reactions switch turned off is marked as changed from its default
    find(dialog, "reaction")
    row = dialog.locator("[data-setting=reactions]")
    expect(row).to_be_visible()
    expect(dialog.locator("[data-setting=movement_pool]")).to_be_hidden()
    row.locator("[data-field=reactions]").click()
    expect(row.locator(".setting-default")).to_have_text("changed · default: on")
    dialog.locator("[data-action=save-settings]").click()
    expect(dialog).to_have_count(0)
    for page in (gm, alice):
        expect(page.locator(".log-entry").first).to_contain_text(
            "The Soulweaver changes the table settings: Offer reactions: off."
        )
    assert seat_settings(alice, arena, "alice")["reactions"] is False

    # opened again, it shows the setting as it is now (from the Soulweaver's panel as drawn after the change, which
    # enables Undo: a click on the panel being replaced would be lost)
    expect(gm.locator("[data-action=undo]")).to_be_enabled()
    gm.locator("[data-action=settings]").click()
    dialog = gm.locator(".settings-dialog")
    find(dialog, "Offer reactions")
    expect(dialog.locator("[data-setting=reactions] .setting-default")).to_have_text("changed · default: on")
    find(dialog, "skills")
    lists = dialog.locator("[data-setting=physical_skills]")
    expect(lists).to_contain_text("Martial")
    lists.scroll_into_view_if_needed()
    expect(lists).to_be_in_viewport()
    expect(dialog.locator('[data-group="Turns and actions"]').get_by_role("button")).to_be_disabled()
    # a value of the wrong shape is refused in plain words; the dialog stays open and nothing changes
    find(dialog, "Defense skills of Ailments")
    box = dialog.locator("[data-setting=ailment_defenses] textarea")
    box.fill(json.dumps(["Nature"]))
    dialog.locator("[data-action=save-settings]").click()
    expect(gm.get_by_text("Defense skills of Ailments must be a table of names and values")).to_be_visible()
    box.fill("{not json")
    dialog.locator("[data-action=save-settings]").click()
    expect(gm.get_by_text("Defense skills of Ailments is not written as JSON (line 1, column 2)")).to_be_visible()
    expect(dialog).to_be_visible()
    dialog.locator("[data-action=cancel-settings]").click()
    expect(dialog).to_have_count(0)
    expect(gm.locator(".log-entry")).to_have_count(1)
    assert seat_settings(alice, arena, "alice")["ailment_defenses"] == TableSettings().ailment_defenses
