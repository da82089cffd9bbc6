"""The open surface in Chromium, on a server where only admins make games (`VTT_CREATORS=admin`): a browser without
the admin link is refused the New game form, one that opened the printed link makes a game; a watch link shows the
game only while its Soulweaver lets it be watched (and an open watch page closes when watching is turned off); a
seat link the Soulweaver replaced stops working, the open page on it says so, and the new link opens the seat.
Every page carries the security headers; a 20-digit game id is a 404; junk element events sent by a script in the
page are dropped without a traceback; a server started without `--test-games` has no route that makes test games."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from e2e.conftest import (
    DEMO_MAP,
    LOAD_TIMEOUT,
    TABLE_TIMEOUT,
    AppServer,
    running,
    user_context,
    wait_ready,
)
from e2e.helpers import demo_without_fog

pytestmark = pytest.mark.usefixtures("table_timeouts")

HEADERS = {
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "content-security-policy": "frame-ancestors 'none'",
    "x-frame-options": "DENY",
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[AppServer]:
    args = [
        "--map",
        str(demo_without_fog(tmp_path / "maps")),
        "--database",
        f"sqlite:///{tmp_path}/game.sqlite",
        "--seed",
        "3",
    ]
    with running(
        AppServer(module="vtt.cli", args=args, env={"VTT_CREATORS": "admin", "VTT_MAPS": str(tmp_path / "maps")})
    ) as server:
        yield server


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Browser contexts (one per person) the test opens; all closed afterwards."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def _person(browser: Browser, contexts: list[BrowserContext]) -> Page:
    context = user_context(browser)
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(TABLE_TIMEOUT)
    return page


def _open(page: Page, url: str) -> int:
    """Go to `url`, wait until the page is live, check the security headers; the response's status."""
    response = page.goto(url, timeout=LOAD_TIMEOUT)
    assert response is not None
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, (url, name, response.headers)
    wait_ready(page, timeout=LOAD_TIMEOUT)
    return response.status


SEND_JUNK = """([mapEvents, keyEvents]) => {
  const entries = Object.entries(mounted_app.elements);
  const map = entries.find(([, el]) => el.props && "tokens" in el.props)[0];
  const keyboard = entries.find(([, el]) => String(el.tag).includes("keyboard"))[0];
  for (const [name, args] of mapEvents) getElement(map).$emit(name, args);
  for (const args of keyEvents) getElement(keyboard).$emit("key", args);
}"""
HUGE = 10**30
JUNK_MAP_EVENTS = [
    ["token_move", {"id": "ayla", "q": "3", "r": 4}],
    ["token_move", {"id": "ayla", "q": HUGE, "r": -HUGE}],
    ["token_move", {"id": ["ayla"], "q": 1, "r": 1}],
    ["token_move", "ayla"],
    ["token_click", {"id": {"x": 1}, "x": "left", "y": None}],
    ["token_click", None],
    ["cell_click", {"q": "a", "r": HUGE}],
    ["paint_stroke", {"cells": [[1, "2"], [HUGE, 1]], "erase": "yes"}],
    ["token_refused", [1, 2, 3]],
]
JUNK_KEYS = [None, {"action": 5}, {"key": ["Escape"], "action": "keydown"}, "Escape"]


def _admin_path(server: AppServer) -> str:
    for line in server.output().splitlines():
        head, _, rest = line.strip().partition(": ")
        if head == "admin":
            return "/" + rest.split()[0].split("/", 3)[3]
    raise LookupError(f"the server printed no admin link:\n{server.output()}")


def test_admins_make_games_watching_is_the_soulweavers_and_a_replaced_seat_link_stops(
    browser: Browser, server: AppServer, contexts: list[BrowserContext]
) -> None:
    # Without the admin link: no New game form, no import, and the reason in plain words.
    stranger = _person(browser, contexts)
    assert _open(stranger, server.url + "/") == 200
    expect(stranger.locator(".no-create")).to_contain_text("Only this server's admins make and import games")
    expect(stranger.locator("[data-action=create-game]")).to_have_count(0)
    expect(stranger.locator("[data-action=import-game]")).to_have_count(0)
    assert _open(stranger, server.url + "/watch/99999999999999999999") == 404
    expect(stranger.get_by_text("No such game")).to_be_visible()
    assert _open(stranger, server.url + "/admin/not-the-secret") == 404
    demo = json.loads(DEMO_MAP.read_text())
    refused = stranger.request.post(server.url + "/test-games", data={"name": "Sneaky", "map": demo, "seed": 1})
    assert refused.status == 404

    # With it: this browser makes a game and is its Soulweaver.
    gm = _person(browser, contexts)
    assert _open(gm, server.url + _admin_path(server)) == 200
    gm.wait_for_url(server.url + "/")
    gm.locator("input[data-field=game-name]").fill("Open Night")
    gm.locator("input[data-field=your-name]").fill("Mira")
    gm.locator("[data-action=create-game]").click()
    gm.wait_for_url("**/play/**", timeout=LOAD_TIMEOUT)
    wait_ready(gm, timeout=LOAD_TIMEOUT)
    gm.wait_for_selector('[data-token-id="ayla"]')

    # Junk events from a script in the page (strings, huge numbers, wrong shapes) do nothing: no traceback (the
    # server's output is checked when it stops), nothing moves.
    ayla = gm.locator('[data-token-id="ayla"]')
    at = ayla.get_attribute("data-q"), ayla.get_attribute("data-r")
    gm.evaluate(SEND_JUNK, [JUNK_MAP_EVENTS, JUNK_KEYS])

    # Watching: off until the Soulweaver turns it on; turned off, the open watch page closes.
    watching = gm.locator(".gm-panel [data-field=watchable]")
    watching.click()
    link = gm.locator(".watch-link")
    expect(link).to_contain_text("/watch/")
    watch_path = link.inner_text().strip()
    watch_path = watch_path[watch_path.index("/watch/") :]
    gm.locator(".gm-panel [data-field=watchable]").click()
    expect(gm.locator(".watch-link")).to_have_count(0)
    assert _open(stranger, server.url + watch_path) == 403
    expect(stranger.get_by_text("Watching is off")).to_be_visible()
    expect(stranger.locator("[data-token-id]")).to_have_count(0)
    gm.locator(".gm-panel [data-field=watchable]").click()
    expect(gm.locator(".watch-link")).to_be_visible()
    assert _open(stranger, server.url + watch_path) == 200
    stranger.wait_for_selector('[data-token-id="ayla"]')
    expect(stranger.locator("header")).to_contain_text("you are a spectator")
    assert (ayla.get_attribute("data-q"), ayla.get_attribute("data-r")) == at
    gm.locator(".gm-panel [data-field=watchable]").click()
    expect(stranger.get_by_text("Watching is off")).to_be_visible()
    expect(stranger.locator("[data-token-id]")).to_have_count(0)

    # A player's seat link replaced: the open page says so, the old link opens nothing, the new one the seat.
    gm.locator(".invitations").get_by_text("Invite players").click()
    invitation = gm.locator(".invitation-link").first.inner_text().strip()
    sam = _person(browser, contexts)
    _open(sam, server.url + invitation[invitation.index("/join/") :])
    sam.locator("input[data-field=display-name]").fill("Sam")
    sam.locator("[data-action=join]").click()
    sam.wait_for_url("**/play/**", timeout=LOAD_TIMEOUT)
    wait_ready(sam, timeout=LOAD_TIMEOUT)
    sam.wait_for_selector('[data-token-id="ayla"]')
    old_path = sam.url[sam.url.index("/play/") :]

    gm.locator(".seat-links").get_by_text("Players' own links").click()
    old_link = gm.locator(".player-link", has_text="Sam").locator(".seat-link")
    expect(old_link).to_contain_text(old_path)
    gm.locator(".player-link", has_text="Sam").locator("[data-action=replace-seat]").click()
    expect(sam.get_by_text("This seat link was replaced")).to_be_visible()
    expect(sam.locator("[data-token-id]")).to_have_count(0)
    assert _open(sam, server.url + old_path) == 404
    expect(sam.get_by_text("Seat not found")).to_be_visible()

    gm.locator(".seat-links").get_by_text("Players' own links").click()
    new_link = gm.locator(".player-link", has_text="Sam").locator(".seat-link")
    expect(new_link).to_contain_text("/play/")
    new_path = new_link.inner_text().strip()
    new_path = new_path[new_path.index("/play/") :]
    assert new_path != old_path
    assert _open(sam, server.url + new_path) == 200
    sam.wait_for_selector('[data-token-id="ayla"]')
    expect(sam.locator("header")).to_contain_text("you are Sam")
