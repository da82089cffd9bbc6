"""Reactions at the table with two players: an Orc Strikes Ayla next to Bram, Bram's player is offered Hinder
Attack, accepts, and every log shows the -1 on the Orc's attack roll (seed-000 Hinder Attack).

The app's dice are real; `--seed` makes them repeatable, and the seed is found by playing the same commands
through the rules core first, so the test keeps working when the rules change how many dice a command uses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import ROOT, NewGame, open_as
from e2e.helpers import choose_action
from vtt.rules import RandomDice, apply
from vtt.rules.model import SOULWEAVER, GameState
from vtt.rules.scenario import load_scenario

ARENA = ROOT / "e2e" / "maps" / "arena.json"
pytestmark = pytest.mark.usefixtures("table_timeouts")
STRIKE = {"type": "strike", "creature": "orc", "target": "ayla", "weapon": "sword"}


def _map(tmp_path: Path) -> tuple[Path, GameState]:
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = {"reactions": True, "reaction_seconds": 600}
    data["creatures"] = [c for c in data["creatures"] if c["id"] not in ("rat1", "rat2")]
    data["creatures"].append(
        {
            "id": "bram",
            "name": "Bram",
            "size": 0,
            "anchor": [6, 4],
            "controller": "bob",
            "color": "#3c8d4f",
            "skills": {"Martial": 3, "Elude": 1, "Athletics": 2, "Zeal": 1},
        }
    )
    for c in data["creatures"]:
        if c["id"] == "orc":
            c["weapons"] = ["sword"]
            c["grip"] = {"right_arm": "sword"}
    path = tmp_path / "hinder.json"
    path.write_text(json.dumps(data))
    return path, load_scenario(data).state


def _seed(start: GameState) -> int:
    """A seed with which Bram's Hinder Attack succeeds when the Orc strikes on the Soulweaver's turn."""
    for seed in range(1, 500):
        dice = RandomDice(seed)
        state, _ = apply(start, {"type": "begin"}, dice)
        while state.turn.current != SOULWEAVER:
            state, _ = apply(state, {"type": "end_turn"}, dice)
        state, _ = apply(state, STRIKE, dice)
        waiting = [d for d in state.pending if d.kind == "reaction"]
        if len(waiting) != 1:
            continue
        state, events = apply(state, {"type": "react", "decision": waiting[0].id, "hinder": True}, dice)
        if any(e.kind == "hinder" and e.data.get("success") for e in events):
            return seed
    raise AssertionError("no seed below 500 makes the Hinder succeed")


def test_a_third_creatures_player_hinders_an_attack_and_every_log_shows_the_minus_1(
    browser: Browser, tmp_path: Path, new_game: NewGame
) -> None:
    """seed-000 Hinder Attack: "As a creature in your Reach attacks a target other than you, attack to cause -1
    on their attack roll, DL 3." Bram's player (bob) is asked, accepts, and the Orc's attack roll carries -1."""
    path, start = _map(tmp_path)
    with new_game(path, seed=_seed(start)) as server:
        gm = open_as(browser, server, "as=soulweaver")
        alice = open_as(browser, server, "as=player&name=alice")
        bob = open_as(browser, server, "as=player&name=bob")
        gm.get_by_role("button", name="Begin: roll Priority").click()
        for _ in range(2):  # the players' creatures end their turns; the Soulweaver's turn comes last
            expect(gm.get_by_role("button", name="End turn")).to_be_visible()
            before = gm.locator(".log-entry").count()
            gm.get_by_role("button", name="End turn").click()
            expect(gm.locator(".log-entry")).to_have_count(before + 1)
        expect(gm.locator(".turn-panel")).to_contain_text("▶ Soulweaver")
        gm.locator('[data-token-id="orc"] .vtt-body').click()
        choose_action(gm, "strike", "Strike with Sword")
        gm.locator('[data-token-id="ayla"] .vtt-body').click()

        card = bob.locator('[data-decision-kind="reaction"]')
        expect(card).to_contain_text("Hinder Attack")
        expect(alice.locator('[data-decision-kind="reaction"]')).to_contain_text("The table waits for bob")
        card.locator("[data-react=hinder]").click()

        defense = alice.locator('[data-decision-kind="defense"]')
        expect(defense).to_contain_text("Roll Elude or decline?")
        defense.get_by_role("button", name="Roll defense").click()
        for page in (gm, alice, bob):
            expect(page.locator(".log-entry").first).to_contain_text("−1 · Hindered by Bram")
        expect(gm.locator(".log-entry").nth(1)).to_contain_text("the Hinder Attack succeeds")
