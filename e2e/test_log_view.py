"""The roll log and the chat, drawn by the browser from the server's JSON entries (`static/log_view.js`): names
shown as text, entries newest first, an undo marking the entry it takes back, in every page and after a reload."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import LOAD_TIMEOUT, ROOT, NewGame, TableGame, open_seat, wait_ready
from e2e.helpers import anchor_selector, cell_xy, drag, token_xy
from e2e.hostile import HOSTILE

ARENA = ROOT / "e2e" / "maps" / "arena.json"
OGRE = HOSTILE["html-img"]
ORC = HOSTILE["vue-template"]
SAID = HOSTILE["vue-prop"]
pytestmark = pytest.mark.usefixtures("table_timeouts")


@pytest.fixture
def server(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    """The arena with the ogre and the orc named by hostile strings."""
    arena = json.loads(ARENA.read_text())
    for creature in arena["creatures"]:
        creature["name"] = {"ogre": OGRE, "orc": ORC}.get(creature["id"], creature["name"])
    map_file = tmp_path / "arena.json"
    map_file.write_text(json.dumps(arena))
    with new_game(map_file, seed=5) as started:
        yield started


def seqs(page: Page) -> list[str]:
    return [str(s) for s in page.locator(".roll-log .log-entry").evaluate_all("els => els.map(e => e.dataset.seq)")]


def untouched(page: Page) -> None:
    """No hostile string became markup or code in the page."""
    assert page.evaluate("window.__pwned") is None, "a hostile name ran as a script"
    assert page.locator(".roll-log img, .chat-messages img, .roll-log script, .chat-messages script").count() == 0
    assert page.locator(".roll-log [data-p], .chat-messages [data-p]").count() == 0


FALLBACK_RULE = """() => [...document.styleSheets].some((sheet) => {
  try {
    return [...sheet.cssRules].some((rule) => rule.selectorText === '#esm-fallback ~ *');
  } catch (e) {
    return false;
  }
})"""
"""Whether NiceGUI's `#esm-fallback ~ *` rule is still in the page (log_view.js drops it: with it, every entry
inserted restyled the others)."""


def test_the_log_shows_hostile_names_as_text_and_keeps_its_order_across_undo(
    browser: Browser, server: TableGame
) -> None:
    gm, alice = open_seat(browser, server, "soulweaver"), open_seat(browser, server, "alice")
    drag(gm, cell_xy(gm, (10, 6)), cell_xy(gm, (12, 3)))  # anchor to space: its body's middle lies between spaces
    for page in (gm, alice):
        expect(page.locator(".log-entry")).to_have_count(1)
        expect(page.locator(".log-entry").first).to_contain_text(OGRE)
        assert page.evaluate(FALLBACK_RULE) is False
    gm.locator("[data-action=undo]").click()
    alice.wait_for_selector(anchor_selector("ogre", (10, 6)))
    drag(gm, token_xy(gm, "orc"), cell_xy(gm, (6, 8)))
    for page in (gm, alice):
        expect(page.locator(".log-entry")).to_have_count(3)
        expect(page.locator(".log-entry").first).to_contain_text(ORC)
        assert seqs(page) == ["3", "2", "1"]
        expect(page.locator('.log-entry[data-seq="1"]')).to_have_class(
            "q-card nicegui-column w-full p-2 gap-1 log-entry log-undone"
        )
        expect(page.locator('.log-entry[data-seq="2"]')).to_have_class(
            "q-card nicegui-column w-full p-2 gap-1 log-entry log-meta"
        )
        expect(page.locator('.log-entry[data-seq="3"].log-undone')).to_have_count(0)
        untouched(page)

    alice.locator(".chat-input input").fill(SAID)
    alice.locator(".chat-send").click()
    for page in (gm, alice):
        expect(page.locator(".chat-message .chat-text").first).to_have_text(SAID)
        untouched(page)

    alice.reload()
    wait_ready(alice, timeout=LOAD_TIMEOUT)
    expect(alice.locator(".log-entry")).to_have_count(3)
    assert seqs(alice) == ["3", "2", "1"]
    expect(alice.locator(".log-entry.log-undone")).to_have_count(1)
    expect(alice.locator('.log-entry[data-seq="1"]')).to_contain_text(OGRE)
    expect(alice.locator(".chat-message .chat-text")).to_have_text([SAID])
    untouched(alice)

    for size, panels in (((1280, 800), False), ((820, 1180), True), ((390, 844), True)):
        alice.set_viewport_size({"width": size[0], "height": size[1]})
        toggle = alice.locator("[data-role=panel-toggle]")
        if panels and toggle.get_attribute("data-open") != "true":
            toggle.click()
            expect(toggle).to_have_attribute("data-open", "true")
        expect(alice.locator(".roll-log-title")).to_be_visible()
