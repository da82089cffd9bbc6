"""The prompt banner over the map, and typed physical dice, in the browser.

A hidden Shadow Assassin Strikes Ayla (alice's) next to Bram (bob's): Bram's player gets the Hinder Attack question
in a banner with a countdown that goes down, answers it from the banner, and then Ayla's player answers her defense
from hers and sees her own defense roll. Alice's page shows only what the table waits for and never the hidden
attacker's name. Under the `physical_dice` setting a Strike asks its sender to type each roll's faces, and the log
shows those faces marked "typed".

The app's dice are real; `--seed` makes them repeatable, and the seed is found by playing the same commands
through the rules core first.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from e2e.conftest import ROOT, NewGame, open_as
from e2e.helpers import choose_action, end_turn
from vtt.rules import RandomDice, apply
from vtt.rules.model import SOULWEAVER, GameState
from vtt.rules.scenario import load_scenario

ARENA = ROOT / "e2e" / "maps" / "arena.json"
HIDDEN = "Shadow Assassin"
STRIKE = {"type": "strike", "creature": "orc", "target": "ayla", "weapon": "sword"}
pytestmark = pytest.mark.usefixtures("table_timeouts")


def _map(tmp_path: Path, settings: dict[str, Any], hidden: bool) -> tuple[Path, GameState]:
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = settings
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
            c.update(weapons=["sword"], grip={"right_arm": "sword"}, hidden=hidden)
            if hidden:
                c["name"] = HIDDEN
    path = tmp_path / "banner.json"
    path.write_text(json.dumps(data))
    return path, load_scenario(data).state


def _soulweavers_turn(start: GameState, dice: RandomDice) -> GameState:
    state, _ = apply(start, {"type": "begin"}, dice)
    while state.turn.current != SOULWEAVER:
        state, _ = apply(state, {"type": "end_turn"}, dice)
    return state


def _seed(start: GameState) -> int:
    """A seed with which the Strike waits for Bram's reaction, then (let pass) for Ayla's defense."""
    for seed in range(1, 500):
        dice = RandomDice(seed)
        state, _ = apply(_soulweavers_turn(start, dice), STRIKE, dice)
        if [(d.kind, d.to) for d in state.pending] != [("reaction", "bob")]:
            continue
        state, _ = apply(state, {"type": "react", "decision": state.pending[0].id, "hinder": False}, dice)
        if [(d.kind, d.to) for d in state.pending] == [("defense", "alice")]:
            return seed
    raise AssertionError("no seed below 500 asks Bram, then Ayla")


def _type_rolls(page: Page, done: str, first: int = 0) -> list[list[int]]:
    """Type a 1 for every face of each roll the page asks for, from roll number `first`, until the JavaScript
    condition `done` holds; the rolls typed."""
    typed: list[list[int]] = []
    while True:
        asked = f".dice-dialog[data-roll='{first + len(typed)}']"
        page.wait_for_function(f'document.querySelector("{asked}") || ({done})')
        if page.locator(asked).count() == 0:
            return typed
        count = page.locator(f"{asked} [data-face]").count()
        for i in range(count):
            page.locator(f"{asked} input[data-face]").nth(i).fill("1")
        typed.append([1] * count)
        page.locator(f"{asked} [data-action=use-faces]").click()


def _to_soulweavers_turn(gm: Page) -> None:
    gm.get_by_role("button", name="Begin: roll Priority").click()
    _type_rolls(gm, "document.querySelector('.turn-panel').innerText.includes('Round 1')")  # physical dice
    expect(gm.locator(".turn-panel")).to_contain_text("Round 1")
    for _ in range(3):
        if "▶ Soulweaver" in gm.locator(".turn-panel").inner_text():
            break
        end_turn(gm)
    expect(gm.locator(".turn-panel")).to_contain_text("▶ Soulweaver")


def _strike(gm: Page) -> None:
    gm.locator('[data-token-id="orc"] .vtt-body').click()
    choose_action(gm, "strike", "Strike with Sword")
    gm.locator('[data-token-id="ayla"] .vtt-body').click()


def test_the_banner_asks_the_player_with_a_countdown_and_others_see_only_what_the_table_waits_for(
    browser: Browser, tmp_path: Path, new_game: NewGame
) -> None:
    path, start = _map(tmp_path, {"reactions": True, "reaction_seconds": 600}, hidden=True)
    with new_game(path, seed=_seed(start)) as server:
        gm = open_as(browser, server, "as=soulweaver")
        alice = open_as(browser, server, "as=player&name=alice")
        bob = open_as(browser, server, "as=player&name=bob")
        _to_soulweavers_turn(gm)
        _strike(gm)

        banner = bob.locator('.prompt-banner[data-mine="yes"]')
        expect(banner).to_contain_text("A creature you cannot see attacks")
        expect(banner.locator("[data-answer]")).to_have_count(2)
        seconds = banner.locator(".prompt-seconds")
        expect(seconds).to_have_attribute("data-seconds", re.compile(r"^(5\d\d|600)$"))
        first = int(seconds.get_attribute("data-seconds") or 0)
        bob.wait_for_function(
            f"Number(document.querySelector('.prompt-banner .prompt-seconds').dataset.seconds) < {first}"
        )
        waiting = alice.locator('.prompt-banner[data-mine="no"]')
        expect(waiting).to_have_text("The table waits for the Soulweaver.")
        expect(gm.locator('.prompt-banner[data-mine="no"]')).to_contain_text(f"Waiting for Bram's player: {HIDDEN}")
        expect(gm.locator(".prompt-banner")).to_contain_text(" s)")
        sizes: list[ViewportSize] = [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]
        for size in sizes:
            for page in (bob, alice):
                page.set_viewport_size(size)
                expect(page.locator(".prompt-banner")).to_be_in_viewport()

        sound = banner.locator(".prompt-sound")
        expect(sound).to_have_attribute("aria-pressed", "true")  # on by default
        sound.click()
        expect(sound).to_have_attribute("aria-pressed", "false")
        assert bob.evaluate("window.localStorage.getItem('vtt.promptSound')") == "off"
        banner.locator('[data-answer="pass"]').click()
        defense = alice.locator('.prompt-banner[data-mine="yes"]')
        expect(defense).to_contain_text("A creature you cannot see attacks Ayla's Elude")
        expect(bob.locator('.prompt-banner[data-mine="no"]')).to_have_text("The table waits for the Soulweaver.")
        defense.locator('[data-answer="roll"]').click()
        expect(alice.locator(".prompt-banner")).to_have_count(0)
        expect(alice.locator(".log-entry").first).to_contain_text("A creature you cannot see rolled")
        expect(alice.locator(".log-entry").first).to_contain_text("Ayla: Elude defense")
        for page in (alice, bob):
            assert HIDDEN not in page.locator("body").inner_text()


def test_a_strike_with_typed_dice_is_logged_with_the_faces_typed(
    browser: Browser, tmp_path: Path, new_game: NewGame
) -> None:
    """physical_dice, turned on in the Settings dialog: Priority and each roll of the Orc's Strike (attack, Ayla's
    defense, damage on a hit) are asked of the Soulweaver, who sends them; a face of 13 is refused in the page; the
    log shows the typed faces, marked typed."""
    settings = {"reactions": False, "defense_prompts": "nobody"}
    path, _ = _map(tmp_path, settings, hidden=False)
    with new_game(path, seed=3) as server:
        gm = open_as(browser, server, "as=soulweaver")
        alice = open_as(browser, server, "as=player&name=alice")
        gm.get_by_role("button", name="Settings…").click()
        gm.locator(".settings-dialog input[data-field=find-setting]").fill("physical dice")
        gm.locator(".settings-dialog [data-field=physical_dice]").click()
        # the switch's change has reached the server (the row says so) before Save reads it, and the change is
        # logged before Begin: on a busy machine a Save sent too early finds no change and rolls the server's dice
        row = gm.locator(".settings-dialog [data-setting=physical_dice]")
        expect(row.locator(".setting-default")).to_have_text(re.compile(r"^changed"))
        gm.locator("[data-action=save-settings]").click()
        expect(gm.locator(".settings-dialog")).to_have_count(0)
        expect(gm.locator(".log-entry").first).to_contain_text("changes the table settings")
        _to_soulweavers_turn(gm)
        before = gm.locator(".log-entry").count()
        _strike(gm)

        dialog = gm.locator(".dice-dialog")
        expect(dialog).to_contain_text("Roll 2d12 for Orc: Strike on Ayla with Sword and type the faces")
        faces = dialog.locator("input[data-face]")
        faces.nth(0).fill("13")
        faces.nth(1).fill("9")
        dialog.locator("[data-action=use-faces]").click()
        expect(gm.locator(".q-notification", has_text="Each die needs a whole number from 1 to 12")).to_be_visible()
        gm.set_viewport_size({"width": 1280, "height": 800})
        faces.nth(0).fill("12")
        dialog.locator("[data-action=use-faces]").click()
        # Then Ayla's defense (Elude 2) and whatever else the Strike rolls: every face typed is a 1.
        expect(gm.locator(".dice-dialog[data-roll='1']")).to_contain_text(
            "Roll 2d12 for Ayla: Elude defense and type the faces"
        )
        typed = [[12, 9], *_type_rolls(gm, f"document.querySelectorAll('.log-entry').length > {before}", 1)]
        assert len(typed) >= 3  # the attack, the defense and the damage of a hit at least

        for page in (gm, alice):
            entry = page.locator(".log-entry").first
            expect(entry).to_contain_text("Orc rolled 12")
            expect(entry.locator("[data-typed]")).to_have_count(len(typed))
            shown = [int(t) for t in entry.locator(".die").all_inner_texts()]
            assert shown == [f for roll in typed for f in roll]
