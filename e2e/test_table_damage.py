"""The demo table as a new user sees it, and a Strike that knocks a creature Unconscious (seed-004).

The app's dice are real (`RandomDice`); `--seed` makes them repeatable. The seed for the knock-out is found by
playing the same commands through the rules core first, so the test keeps working when the rules change how
many dice a command uses.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import ROOT, NewGame, TableGame, open_as
from e2e.helpers import choose_action
from vtt.rules import RandomDice, apply
from vtt.rules.scenario import load_scenario

ARENA = ROOT / "e2e" / "maps" / "arena.json"
DEMO = ROOT / "maps" / "demo.json"
pytestmark = pytest.mark.usefixtures("table_timeouts")
STRIKE = {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}


def _knockout_map(tmp_path: Path) -> tuple[Path, int]:
    """The arena with the Orc one Grit Pip from full, and a seed whose dice make Ayla's first Strike land."""
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = {**data.get("settings", {}), "reactions": False}
    for c in data["creatures"]:
        if c["id"] == "orc":
            c["grit"] = {"max": 8, "pips": 7}
    path = tmp_path / "knockout.json"
    path.write_text(json.dumps(data))
    start = load_scenario(data).state
    for seed in range(1, 500):
        dice = RandomDice(seed)
        state, _ = apply(start, {"type": "begin"}, dice)
        state, _ = apply(state, STRIKE, dice)
        if state.creatures["orc"].unconscious:
            return path, seed
    raise AssertionError("no seed below 500 knocks the Orc out")


@pytest.fixture
def knockout(tmp_path: Path, new_game: NewGame) -> TableGame:
    path, seed = _knockout_map(tmp_path)
    return new_game(path, seed=seed)


def test_a_strike_that_knocks_a_creature_unconscious_shows_pips_token_and_log(
    browser: Browser, knockout: TableGame
) -> None:
    """seed-004: "After suffering Grit Injury, if your Grit Pool is full, fall Unconscious" — "fall Prone ...
    suffer Tier 12 Unaware". Both users see the full Grit Pool, the Unconscious, Prone token and the log."""
    gm = open_as(browser, knockout, "as=soulweaver")
    alice = open_as(browser, knockout, "as=player&name=alice")
    gm.get_by_role("button", name="Begin: roll Priority").click()
    expect(alice.locator(".turn-panel")).to_contain_text("Round 1")
    alice.locator('[data-token-id="ayla"] .vtt-body').click()
    choose_action(alice, "strike", "Strike with Sword")
    alice.locator('[data-token-id="orc"] .vtt-body').click()
    for page in (gm, alice):
        expect(page.locator(".log-entry").first).to_contain_text("falls Unconscious and Prone")
        orc = page.locator('[data-token-id="orc"]')
        expect(orc).to_have_attribute("data-grit", "8")
        expect(orc).to_have_class(re.compile(r"\bvtt-prone\b"))
        expect(orc).to_contain_text("UNC")
    gm.locator('[data-token-id="orc"] .vtt-body').click()
    expect(gm.locator(".sheet")).to_contain_text("Unconscious")
    expect(gm.locator(".sheet")).to_contain_text("Grit: 0 of 8 left")
    gm.keyboard.press("Escape")
    expect(gm.locator(".q-menu")).to_have_count(0)


def test_the_demo_table_a_group_would_play_on(browser: Browser, new_game: NewGame) -> None:
    """The README's run command serves the demo encounter: a 30×20 hex map with walls and pillars, creatures
    from size -1 to size 4 (one on several spaces), the token menu and the roll log."""
    with new_game(DEMO, seed=19) as server:
        gm = open_as(browser, server, "as=soulweaver")
        sizes = {int(s) for s in gm.locator("[data-token-id]").evaluate_all("els => els.map(e => e.dataset.size)")}
        assert {-1, 0, 1, 3, 4} <= sizes
        assert gm.locator('[data-token-id="drake"] polygon.vtt-foot').count() == 7
        gm.get_by_role("button", name="Begin: roll Priority").click()
        expect(gm.locator(".log-entry")).to_have_count(1)
        expect(gm.locator(".turn-panel")).to_contain_text("Round 1")  # the panel follows the log entry
        current = gm.locator(".turn-panel").inner_text()
        first = next(name for name in ("Ayla", "Bram", "Pip") if f"▶ {name}" in current)
        gm.locator(f'[data-token-id="{first.lower()}"] .vtt-body').click()
        expect(gm.locator('[data-action="move"]')).to_be_visible()
