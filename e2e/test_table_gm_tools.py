"""The Soulweaver's tools for commands that had no button: Afflict… in the token menu (reference §5.2: the Soulweaver
gives Tiers of an Ailment) and "A minute passes" in the Soulweaver's panel (`pass_time`, seed-000 Ready's roll after
each minute); and a swallowed creature (seed-000: "they are removed from the [board] and they enter your stomach"),
which has no token: its swallower's token carries a Stomach badge, its sheet lists it, and its player acts for it
from the swallower's token, where its only target is the stomach."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import ROOT, NewGame, TableGame, open_as
from e2e.helpers import choose_action
from vtt.rules import RandomDice, apply
from vtt.rules.scenario import load_scenario

ARENA = ROOT / "e2e" / "maps" / "arena.json"
pytestmark = pytest.mark.usefixtures("table_timeouts")

STOMACH_MAP: dict[str, Any] = {
    "version": 1,
    "name": "Stomach",
    "description": "Mira (alice) is in the Wyrm's stomach (5 Tiers of Wounded already), with what being swallowed "
    "causes; an Orc looks on.",
    "settings": {"reactions": False},
    "board": {"cols": 18, "rows": 12, "walls": [], "objects": []},
    # 5 dice: 3 are left against the stomach, 2 sizes larger than Mira, enough for a Wounded Tier beyond Durability 2
    "weapons": [{"id": "dagger", "name": "Dagger", "damage": 5, "lightweight": True}],
    "creatures": [
        {
            "id": "wyrm",
            "name": "Wyrm",
            "size": 6,
            "anchor": [6, 5],
            "color": "#4d7a3a",
            "skills": {"Martial": 2, "Athletics": 3},
            "grit": {"max": 20},
            "wounded": {"stomach": 5},
        },
        {
            "id": "mira",
            "name": "Mira",
            "anchor": [1, 1],
            "controller": "alice",
            "color": "#2f6db5",
            "swallowed_by": "wyrm",
            "skills": {"Martial": 3, "Zeal": 2},
            "weapons": ["dagger"],
            "grip": {"right_arm": "dagger"},
            "ailments": {"Crowded": 2, "Strangled": 1},
            "ailment_sources": [
                {"ailment": "Crowded", "tiers": 2, "source": "swallowed:wyrm", "ends_with_source": True},
                {"ailment": "Strangled", "tiers": 1, "source": "swallowed:wyrm", "ends_with_source": True},
            ],
        },
        {"id": "orc", "name": "Orc", "anchor": [13, 5], "color": "#7b3f2a", "skills": {"Martial": 2}},
    ],
}


STRIKE_STOMACH = {"type": "strike_stomach", "creature": "mira", "target": "wyrm", "weapon": "dagger"}


def _game(new_game: NewGame, tmp_path: Path, data: dict[str, Any], seed: int) -> TableGame:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data))
    return new_game(path, seed=seed)


def _seed_to_cut_out() -> int:
    """A seed whose dice let Mira's first stab give the stomach its sixth Tier of Wounded, found by playing the
    same commands through the rules core (so the test holds when the rules change how many dice they use)."""
    start = load_scenario(STOMACH_MAP).state
    for seed in range(1, 2000):
        dice = RandomDice(seed)
        state, _ = apply(start, {"type": "begin"}, dice)
        if state.turn.current != "mira":
            continue
        state, _ = apply(state, STRIKE_STOMACH, dice)
        if state.creatures["mira"].swallowed_by is None:
            return seed
    raise AssertionError("no seed below 2000 lets Mira cut her way out at once")


@pytest.fixture
def arena(tmp_path: Path, new_game: NewGame) -> TableGame:
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = {**data.get("settings", {}), "reactions": False}
    return _game(new_game, tmp_path, data, seed=23)


@pytest.fixture
def stomach(tmp_path: Path, new_game: NewGame) -> TableGame:
    return _game(new_game, tmp_path, STOMACH_MAP, _seed_to_cut_out())


def _badges(page: Page, token: str) -> Any:
    return page.locator(f'[data-token-id="{token}"] .vtt-ailment text')


def test_the_soulweaver_afflicts_from_the_menu_and_lets_a_minute_pass(browser: Browser, arena: TableGame) -> None:
    gm = open_as(browser, arena, "as=soulweaver")
    alice = open_as(browser, arena, "as=player&name=alice")
    # a player's menu has no Soulweaver section
    alice.locator('[data-token-id="orc"] .vtt-body').click()
    expect(alice.locator(".q-menu .menu-title").first).to_have_text("Orc")
    expect(alice.locator('.q-menu [data-action="afflict"]')).to_have_count(0)
    alice.keyboard.press("Escape")
    # Afflict…: Tier 2 Dazzled on the Orc
    gm.locator('[data-token-id="orc"] .vtt-body').click()
    choose_action(gm, "afflict")
    dialog = gm.locator(".afflict-dialog")
    expect(dialog).to_contain_text("Afflict Orc")
    dialog.locator("[data-field=ailment]").click()
    gm.locator(".q-menu .q-item", has_text="Dazzled").click()
    dialog.locator("input[data-field=tiers]").fill("2")
    dialog.locator("[data-apply]").click()
    expect(dialog).to_have_count(0)
    for page in (gm, alice):
        expect(_badges(page, "orc")).to_have_text(["DAZ2"])
        expect(page.locator(".log-entry").first).to_contain_text("The Soulweaver gives Orc Tier 2 Dazzled")
    # more Tiers than the dialog allows are refused in the dialog, and nothing is sent
    gm.locator('[data-token-id="orc"] .vtt-body').click()
    choose_action(gm, "afflict")
    problem = "Tiers must be a whole number from 1 to 6"
    dialog.locator("input[data-field=tiers]").fill("7")
    expect(dialog.locator(".q-field__messages", has_text="From 1 to 6")).to_be_visible()
    dialog.locator("[data-apply]").click()
    expect(gm.locator(".q-notification", has_text=problem)).to_be_visible()
    expect(dialog.locator("input[data-field=tiers]")).to_have_value("7")
    dialog.get_by_role("button", name="Cancel").click()
    expect(gm.locator(".log-entry")).to_have_count(1)
    # A minute passes: for the Soulweaver only
    expect(alice.locator("[data-action=pass_time]")).to_have_count(0)
    button = gm.locator("[data-action=pass_time]")
    expect(button).to_contain_text("A minute passes")
    button.click()
    for page in (gm, alice):
        expect(page.locator(".log-entry")).to_have_count(2)
        expect(page.locator(".log-entry").first).to_contain_text("1 minute passes.")
    gm.locator("input[data-field=minutes]").fill("3")
    expect(button).to_contain_text("3 minutes pass")


def test_a_swallowed_creature_is_off_the_map_and_acts_from_its_swallowers_token(
    browser: Browser, stomach: TableGame
) -> None:
    gm = open_as(browser, stomach, "as=soulweaver")
    alice = open_as(browser, stomach, "as=player&name=alice")
    for page in (gm, alice):
        expect(page.locator('[data-token-id="wyrm"]')).to_have_count(1)
        expect(page.locator('[data-token-id="mira"]')).to_have_count(0)
        expect(page.locator('[data-token-id="wyrm"] .vtt-ailment-stomach text')).to_have_text("STO1")
        expect(page.locator('[data-token-id="wyrm"] .vtt-ailment-stomach')).to_have_attribute(
            "data-title", "In its stomach: Mira"
        )
    # the Wyrm's sheet lists Mira; her own sheet says where she is
    gm.locator('[data-token-id="wyrm"] .vtt-body').click()
    gm.keyboard.press("Escape")
    contents = gm.locator(".sheet .stomach-contents")
    expect(contents).to_contain_text("In its stomach:")
    contents.locator("[data-creature=mira]").click()
    expect(gm.locator(".sheet")).to_contain_text("Mira · size 0")
    expect(gm.locator(".sheet .swallowed-in")).to_have_text("In Wyrm's stomach, off the board")
    gm.get_by_role("button", name="Begin: roll Priority").click()
    expect(alice.locator(".turn-panel")).to_contain_text("▶ Mira")
    expect(alice.locator(".turn-panel")).to_contain_text("in Wyrm's stomach")
    # alice clicks the Wyrm: not hers, but Mira inside is, and her only target is the stomach
    alice.locator('[data-token-id="wyrm"] .vtt-body').click()
    menu = alice.locator(".q-menu")
    expect(menu.locator(".menu-title").first).to_have_text("Wyrm")
    expect(menu).to_contain_text("No actions: not your creature.")
    section = menu.locator(".menu-stomach[data-creature=mira]")
    expect(section).to_contain_text("In its stomach: Mira")
    expect(section.locator('[data-action="strike"]')).to_have_count(0)
    choose_action(alice, "strike_stomach", "Strike Wyrm's stomach (Dagger)")
    for page in (gm, alice):
        entry = page.locator(".log-entry").first
        expect(entry).to_contain_text("Mira: Strike on Wyrm's stomach with Dagger")
        expect(entry).to_contain_text("no light (swallowed)")
        # the sixth Tier of Wounded: Mira falls out, back on the map; the Wyrm's badge goes
        expect(entry).to_contain_text("Mira is out of Wyrm's stomach")
        expect(page.locator('[data-token-id="mira"]')).to_have_count(1)
        expect(page.locator('[data-token-id="wyrm"] .vtt-ailment-stomach')).to_have_count(0)
    expect(gm.locator(".sheet .swallowed-in")).to_have_count(0)  # the sheet shown is still Mira's
