"""The roll log and the chat, drawn by the browser from the server's JSON entries (`static/log_view.js`): names
shown as text, entries newest first, an undo marking the entry it takes back, in every page and after a reload."""

from __future__ import annotations

import json
import re
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


ADD = """([selector, entries]) => getElement(Number(document.querySelector(selector).id.slice(1))).add(entries)"""
"""Entries handed to a list as the server's `add` message hands them (`static/log_view.js`)."""
ADD_EACH = """([selector, entries]) => {
  const list = getElement(Number(document.querySelector(selector).id.slice(1)));
  for (const entry of entries) list.add([entry]);
}"""
"""Entries handed to a list one by one, as one `add` message each."""


def log_entry(seq: int, text: str = "") -> dict[str, object]:
    event = {"text": text or f"entry {seq}", "quiet": False, "rolls": [], "needed": []}
    return {"seq": seq, "head": f"#{seq}", "undone": False, "meta": False, "events": [event]}


def spacing(page: Page) -> list[float]:
    """The gaps between the roll log's entries, top to bottom, and each entry's width less the log's."""
    return [
        float(x)
        for x in page.evaluate(
            """() => {
  const log = document.querySelector('.roll-log');
  const boxes = [...log.querySelectorAll('.log-entry')].map((e) => e.getBoundingClientRect());
  const inner = log.clientWidth - parseFloat(getComputedStyle(log).paddingRight);
  return boxes.slice(1).map((b, i) => b.top - boxes[i].bottom).concat(boxes.map((b) => b.width - inner));
}"""
        )
    ]


def entry_top(page: Page, seq: int) -> float:
    """Where the roll log's entry `seq` is drawn, from the top of the log's box."""
    return float(
        page.evaluate(
            """(seq) => document.querySelector(`.roll-log [data-seq="${seq}"]`).getBoundingClientRect().top
  - document.querySelector('.roll-log').getBoundingClientRect().top""",
            seq,
        )
    )


def test_a_long_log_stays_newest_first_spaced_alike_and_where_the_reader_left_it(
    browser: Browser, server: TableGame
) -> None:
    """The entries are kept in chunks of a few (static/log_view.js): across them the order, the spacing and the
    width are the list's, an entry comes in at its place and a re-sent one replaces its old self, the chat keeps
    its last 200, and a new entry shows at the top of a log read from the top, not moving one scrolled down."""
    page = open_seat(browser, server, "alice")
    page.evaluate(ADD_EACH, [".roll-log", [log_entry(seq) for seq in range(101, 131)]])
    page.evaluate(ADD, [".roll-log", [log_entry(95), log_entry(117, "entry 117 again"), log_entry(133)]])
    page.evaluate(ADD, [".roll-log", [log_entry(132)]])
    assert seqs(page) == [str(s) for s in [133, 132, *range(130, 100, -1), 95]]
    expect(page.locator('.log-entry[data-seq="117"]')).to_contain_text("entry 117 again")
    gaps_and_widths = spacing(page)
    gaps = gaps_and_widths[: len(seqs(page)) - 1]
    assert max(gaps) - min(gaps) < 0.5 and min(gaps) > 0, gaps
    assert all(abs(w) < 0.5 for w in gaps_and_widths[len(gaps) :]), gaps_and_widths
    page.evaluate(
        "(seqs) => getElement(Number(document.querySelector('.roll-log').id.slice(1))).mark(seqs, true)", [95]
    )
    expect(page.locator('.log-entry[data-seq="95"]')).to_have_class(re.compile(r"\blog-undone\b"))

    chats = [
        {"seq": seq, "kind": "chat", "head": "alice", "whisper": False, "bold": False, "texts": [f"m{seq}"]}
        for seq in range(1000, 1205)
    ]
    page.evaluate(ADD_EACH, [".chat-messages", chats])
    texts = page.locator(".chat-message .chat-text").all_text_contents()
    assert texts == [f"m{s}" for s in range(1204, 1004, -1)]

    log = page.locator(".roll-log")
    assert log.evaluate("e => e.scrollTop") == 0
    page.evaluate(ADD, [".roll-log", [log_entry(134)]])
    expect(page.locator(".roll-log .log-entry").first).to_have_attribute("data-seq", "134")
    assert log.evaluate("e => e.scrollTop") == 0 and entry_top(page, 134) == 0
    log.evaluate("e => e.scrollBy(0, 400)")
    reading = int(
        page.evaluate(
            """() => { const log = document.querySelector('.roll-log'); const top = log.getBoundingClientRect().top;
  return [...log.querySelectorAll('.log-entry')].find((e) => e.getBoundingClientRect().top >= top).dataset.seq; }"""
        )
    )
    where = entry_top(page, reading)
    page.evaluate(ADD, [".roll-log", [log_entry(135)]])
    expect(page.locator(".roll-log .log-entry").first).to_have_attribute("data-seq", "135")
    assert abs(entry_top(page, reading) - where) < 0.5
