"""The token menu fits and explains (issue 12 item 3): at 1280×800 the demo creature's menu opens beside its token
(on a click or a right click) without covering it and without a scrollbar; each row says what it does on hover;
the number keys pick rows; a Reposition's destination is clicked on the map among highlighted spaces (no list of
coordinates); Drop Prone from the menu makes the creature Prone (reference §5.3).

The servers' dice are seeded (--seed); the Reposition test gives Ayla Athletics 9 against an Orc with none, so
that the push lands whatever the dice (the test checks where the Orc ends up, not a roll).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from e2e.conftest import ROOT, NewGame, TableGame, open_as
from e2e.helpers import anchor_selector, cell_xy, choose_action, token_xy

pytestmark = pytest.mark.usefixtures("table_timeouts")
DEMO = ROOT / "maps" / "demo.json"
ARENA = ROOT / "e2e" / "maps" / "arena.json"
LAPTOP = {"width": 1280, "height": 800}
SIZES = {"laptop": LAPTOP, "tablet": {"width": 820, "height": 1180}, "phone": {"width": 390, "height": 844}}
CLICK_SPACE = "Click a highlighted space (Escape cancels)"


def _begun(browser: Browser, server: TableGame) -> tuple[Page, Page]:
    gm = open_as(browser, server, "as=soulweaver", '[data-token-id="ayla"]')
    alice = open_as(browser, server, "as=player&name=alice", '[data-token-id="ayla"]')
    gm.get_by_role("button", name="Begin: roll Priority").click()
    for page in (gm, alice):
        expect(page.locator(".turn-panel")).to_contain_text("▶ Ayla")
    return gm, alice


@pytest.fixture
def demo(browser: Browser, tmp_path: Path, new_game: NewGame) -> Iterator[tuple[Page, Page]]:
    """The demo game, the fight begun: Ayla (alice's) has the first turn."""
    with new_game(DEMO, seed=3) as server:
        gm, alice = _begun(browser, server)
        yield gm, alice
        for page in (gm, alice):
            page.context.close()


def _open_menu(page: Page, token_id: str, button: str = "left") -> Locator:
    page.mouse.click(*token_xy(page, token_id), button=button)  # type: ignore[arg-type]
    menu = page.locator(".q-menu.token-menu")
    expect(menu.locator(".menu-title").first).to_be_visible()
    _standing_still(page)
    return menu


def _standing_still(page: Page) -> None:
    """Wait until the menu has kept the same box for three polls: it is placed once its fade-in starts, and it moves
    again while a row it holds unfolds (a hover sent before then can land on the row that slides under it)."""
    page.evaluate("() => { window.__menuBox = ''; window.__menuSame = 0; }")
    page.wait_for_function(
        """() => { const m = document.querySelector('.q-menu.token-menu');
                   if (!m) return false; const r = m.getBoundingClientRect();
                   const box = `${r.x},${r.y},${r.width},${r.height}`;
                   window.__menuSame = window.__menuBox === box ? window.__menuSame + 1 : 0;
                   window.__menuBox = box; return window.__menuSame >= 2 && r.width > 0; }""",
        polling=100,
    )


def _close_menu(page: Page) -> None:
    page.keyboard.press("Escape")
    expect(page.locator(".q-menu.token-menu")).to_have_count(0)


def _fits_beside(page: Page, menu: Locator, token_id: str) -> None:
    """No scrollbar in the menu, wholly in the window, and no overlap with the token's body."""
    sizes = menu.evaluate("m => [m.scrollHeight, m.clientHeight, m.scrollWidth, m.clientWidth]")
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3], f"the menu scrolls: {sizes}"
    box = menu.bounding_box()
    body = page.locator(f'[data-token-id="{token_id}"] .vtt-body').bounding_box()
    viewport = page.viewport_size
    assert box is not None and body is not None and viewport is not None
    assert box["x"] >= 0 and box["y"] >= 0
    # within the window, give or take the fraction of a pixel of a fractional layout
    assert box["x"] + box["width"] <= viewport["width"] + 1 and box["y"] + box["height"] <= viewport["height"] + 1
    apart = (
        box["x"] >= body["x"] + body["width"]
        or box["x"] + box["width"] <= body["x"]
        or box["y"] >= body["y"] + body["height"]
        or box["y"] + box["height"] <= body["y"]
    )
    assert apart, f"the menu {box} covers the token {body}"


def test_the_demo_menu_fits_beside_its_token_and_explains(demo: tuple[Page, Page]) -> None:
    gm, alice = demo
    for page in (alice, gm):
        page.set_viewport_size(LAPTOP)  # type: ignore[arg-type]
        menu = _open_menu(page, "ayla", button="right")  # a right click opens it as a click does
        expect(menu.locator(".menu-title").first).to_have_text("Ayla")
        _fits_beside(page, menu, "ayla")
        _close_menu(page)
    # every row says what it does, on hover
    menu = _open_menu(alice, "ayla")
    alice.locator('.menu-action[data-action="dash"]').hover()
    expect(alice.locator(".q-tooltip.menu-tip")).to_contain_text("Movement")
    # and its odds and damage against each target: a Throw is one of the Strike row's weapons, its second step
    strike = menu.locator('.menu-kind[data-kind="strike"]')
    expect(strike).to_contain_text("Javelin (throw)")
    strike.locator(".q-item").first.click()
    expect(alice.locator('.menu-action[data-action="throw"]')).to_be_visible()
    _standing_still(alice)
    alice.locator('.menu-action[data-action="throw"]').hover()
    tip = alice.locator(".q-tooltip.menu-tip", has_text="Throw the weapon")
    expect(tip).to_contain_text("Bram: ")
    expect(tip).to_contain_text("Injury")
    # the odds are a chance, not dice jargon
    expect(menu.locator('.menu-action[data-action="throw"] .menu-detail')).to_contain_text("% to succeed")
    expect(menu).not_to_contain_text("d12")
    _close_menu(alice)
    for size in SIZES.values():
        alice.set_viewport_size(size)  # type: ignore[arg-type]
        _open_menu(alice, "ayla")
        _close_menu(alice)


def test_number_key_picks_the_first_entry_and_escape_cancels(demo: tuple[Page, Page]) -> None:
    _, alice = demo
    alice.set_viewport_size(LAPTOP)  # type: ignore[arg-type]
    menu = _open_menu(alice, "ayla")
    first = menu.locator('[data-key="1"]:not(.menu-variant)')
    expect(first).to_have_attribute("data-action", "move")
    alice.keyboard.press("1")
    expect(alice.locator(".q-menu.token-menu")).to_have_count(0)
    hint = alice.locator(".pick-hint")
    expect(hint).to_contain_text("Move: choose a space")
    expect(hint).to_contain_text(CLICK_SPACE)
    expect(alice.locator('[data-highlight-kind="space"]').first).to_be_attached()
    alice.keyboard.press("Escape")
    expect(hint).to_be_hidden()
    expect(alice.locator("[data-highlight-kind]")).to_have_count(0)
    # a row made with several weapons: its key opens their list, whose keys then pick one of them
    menu = _open_menu(alice, "ayla")
    kind = menu.locator('.menu-kind[data-kind="strike_space"]')
    key = kind.get_attribute("data-key")
    assert key is not None
    alice.keyboard.press(key)
    variant = kind.locator('.menu-variant[data-key="1"]')
    expect(variant).to_be_visible()
    label = variant.get_attribute("data-label")
    alice.keyboard.press("1")
    expect(hint).to_contain_text(f"{label}: choose a space")
    alice.keyboard.press("Escape")
    expect(hint).to_be_hidden()


def test_drop_prone_from_the_menu_makes_the_creature_prone(demo: tuple[Page, Page]) -> None:
    """reference §5.3: dropping Prone is a No Action; the menu offers it on the creature's turn and it works."""
    gm, alice = demo
    _open_menu(alice, "ayla")
    entry = alice.locator('.q-menu .menu-action[data-action="drop_prone"]')
    expect(entry).not_to_have_class("disabled")
    choose_action(alice, "drop_prone")
    for page in (gm, alice):
        expect(page.locator('[data-token-id="ayla"].vtt-prone')).to_have_count(1)
        expect(page.locator(".log-entry").first).to_contain_text("Prone")


@pytest.fixture
def arena(browser: Browser, tmp_path: Path, new_game: NewGame) -> Iterator[tuple[Page, Page]]:
    """The arena without reactions; Ayla (Sword) beside an Orc she outclasses at Athletics."""
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = {**data.get("settings", {}), "reactions": False}
    for c in data["creatures"]:
        if c["id"] == "ayla":
            c["skills"] = {**c.get("skills", {}), "Athletics": 9}
        elif c["id"] == "orc":
            c["skills"] = {k: v for k, v in c.get("skills", {}).items() if k != "Athletics"}
    path = tmp_path / "arena.json"
    path.write_text(json.dumps(data))
    with new_game(path, seed=11) as server:
        gm, alice = _begun(browser, server)
        yield gm, alice
        for page in (gm, alice):
            page.context.close()


def _highlighted(page: Page, kind: str) -> list[tuple[int, int]]:
    cells = page.locator(f'[data-highlight-kind="{kind}"]').evaluate_all(
        "els => els.map(e => [Number(e.dataset.q), Number(e.dataset.r)])"
    )
    return sorted({(int(q), int(r)) for q, r in cells})


def test_a_reposition_destination_is_clicked_on_the_map(arena: tuple[Page, Page]) -> None:
    """seed-000 Reposition: "Attack a target with a melee weapon to move the target ... you may move the target to
    any space in your Reach." The destination is a click on a highlighted space; a click elsewhere changes nothing."""
    gm, alice = arena
    alice.set_viewport_size(LAPTOP)  # type: ignore[arg-type]
    _open_menu(alice, "ayla")
    choose_action(alice, "reposition")
    expect(alice.locator(".q-menu")).to_have_count(0)
    alice.mouse.click(*token_xy(alice, "orc"))
    hint = alice.locator(".pick-hint")
    expect(hint).to_contain_text(CLICK_SPACE)
    expect(alice.locator(".choice-dialog")).to_have_count(0)  # no dialog, no list of coordinates
    spaces = _highlighted(alice, "space")
    assert spaces
    # a click on a space that is not highlighted is ignored, the hint stays
    cols, rows = 16, 12
    elsewhere = next((q, r) for q in range(cols - 1, 0, -1) for r in range(rows - 1, 0, -1) if (q, r) not in spaces)
    alice.mouse.click(*cell_xy(alice, elsewhere))
    expect(hint).to_contain_text(CLICK_SPACE)
    expect(alice.locator(".log-entry")).to_have_count(1)  # the Priority roll only
    to = spaces[-1]
    alice.mouse.click(*cell_xy(alice, to))
    expect(hint).to_be_hidden()
    for page in (gm, alice):
        expect(page.locator(".log-entry").first).to_contain_text("Reposition")
        expect(page.locator(anchor_selector("orc", to))).to_have_count(1)


def test_a_distracts_sound_is_clicked_on_the_map_and_enter_confirms(arena: tuple[Page, Page]) -> None:
    """seed-000 Distract: "If your action creates a sound at range, creatures instead become Focused on the space
    where the sound was made." The dialog shows the roll as chances; Enter confirms it; the sound's space is a
    click among highlighted spaces."""
    gm, alice = arena
    alice.set_viewport_size(LAPTOP)  # type: ignore[arg-type]
    _open_menu(alice, "ayla")
    choose_action(alice, "distract")
    dialog = alice.locator(".multi-target-dialog")
    expect(dialog.locator(".multi-roll")).to_contain_text("Orc: ")
    expect(dialog).not_to_contain_text("d12")
    dialog.locator("[data-attack=orc]").click()
    dialog.locator("[data-choose=sound_at]").click()
    alice.keyboard.press("Enter")
    expect(dialog).to_have_count(0)
    hint = alice.locator(".pick-hint")
    expect(hint).to_contain_text("where the sound comes from")
    expect(hint).to_contain_text(CLICK_SPACE)
    tokens = {(4, 5), (5, 5), (4, 6), (10, 6)}
    to = next(cell for cell in _highlighted(alice, "space") if cell not in tokens)
    alice.mouse.click(*cell_xy(alice, to))
    expect(hint).to_be_hidden()
    for page in (gm, alice):
        expect(page.locator(".log-entry").first).to_contain_text("diversion")
