"""The chat beside the roll log, in four browsers (the Soulweaver, alice, bob and cara of the demo game): alice's
whisper to bob shows on bob's and the Soulweaver's pages and nowhere else — not in cara's page, not in any websocket
frame cara's page received — and alice's `/roll 3d12+2` shows in the roll log with its dice, its result the
highest face plus 2."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from e2e.conftest import LOAD_TIMEOUT, NewGame, TableGame, user_context, wait_ready

WHISPER = "the key is under the third flagstone"
PUBLIC = "Hello everyone"
pytestmark = pytest.mark.usefixtures("table_timeouts")


@pytest.fixture
def server(new_game: NewGame) -> TableGame:
    return new_game(seed=5, watchable=True)  # the demo map


def _open(browser: Browser, server: TableGame, key: str, frames: list[str]) -> Page:
    """A seat's page (the watch page for "spectator"), every websocket frame it receives recorded from before it
    loads."""
    page = user_context(browser).new_page()

    def record(ws: WebSocket) -> None:
        ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else f.decode(errors="replace")))

    page.on("websocket", record)
    path = server.watch_path if key == "spectator" else server.seat(key)
    page.goto(server.url + path, timeout=LOAD_TIMEOUT)
    wait_ready(page, timeout=LOAD_TIMEOUT)
    page.wait_for_selector(".chat-panel")
    return page


def _say(page: Page, to: str, text: str) -> None:
    page.locator(".chat-to").click()
    page.locator(".q-menu .q-item").filter(has_text=re.compile("^" + re.escape(to) + "$")).click()
    expect(page.locator(".chat-to")).to_contain_text(to)
    page.locator(".chat-input input").fill(text)
    page.locator(".chat-input input").press("Enter")
    expect(page.locator(".chat-input input")).to_have_value("")


def test_a_whisper_reaches_only_its_addressee_and_a_roll_shows_its_dice(browser: Browser, server: TableGame) -> None:
    frames: dict[str, list[str]] = {key: [] for key in ("soulweaver", "alice", "bob", "cara", "spectator")}
    pages = {key: _open(browser, server, key, frames[key]) for key in frames}
    alice, bob, cara, gm, watcher = (pages[k] for k in ("alice", "bob", "cara", "soulweaver", "spectator"))
    expect(watcher.locator(".chat-input")).to_have_count(0)  # spectators read the chat; they do not write in it

    _say(alice, "bob (whisper)", WHISPER)
    for page in (alice, bob, gm):
        expect(page.locator(".chat-whisper")).to_contain_text(WHISPER)
        expect(page.locator(".chat-whisper .chat-from")).to_have_text("alice → bob (whisper)")
    _say(alice, "Everyone", PUBLIC)
    # Changes reach every page in order: once cara has the public message, a leaked whisper would be there too.
    for other in ("cara", "spectator"):
        expect(pages[other].locator(".chat-message")).to_have_count(1)
        expect(pages[other].locator(".chat-message")).to_contain_text(PUBLIC)
        assert WHISPER not in pages[other].content()
        assert any(PUBLIC in f for f in frames[other])
        assert not [f for f in frames[other] if WHISPER in f or "→ bob" in f]
    assert any(WHISPER in f for f in frames["bob"])  # the frames recorded do carry chat

    alice.locator(".chat-input input").fill("/dance")
    alice.locator(".chat-input input").press("Enter")
    expect(alice.locator(".q-notification")).to_contain_text("The chat knows one command, /roll")
    expect(alice.locator(".chat-input input")).to_have_value("/dance")  # kept, to be corrected

    _say(alice, "Everyone", "/roll 3d12+2")
    entry = alice.locator(".log-entry").filter(has_text="Rolls 3d12+2")
    expect(entry).to_have_count(1)
    expect(entry.locator(".die")).to_have_count(3)
    faces = [int(t) for t in entry.locator(".die").all_inner_texts()]
    expect(entry.locator(".roll")).to_contain_text(f"= {max(faces) + 2}")
    for page in (bob, cara, gm, watcher):
        expect(page.locator(".log-entry").filter(has_text="Rolls 3d12+2").locator(".die")).to_have_count(3)
    expect(cara.locator(".chat-message").first).to_contain_text(f"Rolls 3d12+2: {max(faces) + 2}")
