"""Every screen at three sizes (1280x800 laptop, 820x1180 tablet portrait, 390x844 phone), saved to
`e2e/screenshots/screens_<screen>_<size>.png` to be looked at, and checked for the one fault a screenshot hides
least well: a page wider than the screen (it scrolls sideways). The start page, the library, the table as the
Soulweaver, a player and a spectator (with the Panels sheet open on the narrow screens), the token menu, the ruler
in use, the Settings dialog, the map editor and the chat with a roll in it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from e2e.conftest import ROOT, AppServer, open_page, running, screenshot, wait_ready
from e2e.helpers import cell_xy, token_xy

SIZES: dict[str, ViewportSize] = {
    "laptop": {"width": 1280, "height": 800},
    "tablet": {"width": 820, "height": 1180},
    "phone": {"width": 390, "height": 844},
}
pytestmark = pytest.mark.usefixtures("table_timeouts")
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
TWO_FRAMES = "() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))"


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[AppServer]:
    path = tmp_path / "demo.json"
    path.write_text((ROOT / "maps" / "demo.json").read_text())
    args = ["--map", str(path), "--database", f"sqlite:///{tmp_path}/game.sqlite", "--seed", "11", "--watchable"]
    with running(AppServer(module="vtt.cli", args=args)) as server:
        yield server


def _shots(page: Page, screen: str, faults: list[str], prepare: Callable[[], None] | None = None) -> None:
    """Screenshots of `screen` at each size (`prepare` redone after each resize), noting a page that is wider
    than the screen."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        if prepare is not None:
            prepare()
        page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
        extra = page.evaluate(SIDEWAYS)
        if extra > 1:
            faults.append(f"{screen} at {size}: {extra} px wider than the screen")
        screenshot(page, f"screens_{screen}_{size}")


def _panels(page: Page) -> None:
    """The Panels sheet open where the screen is narrow enough to have one."""
    toggle = page.locator(".panel-toggle")
    if toggle.is_visible() and toggle.get_attribute("data-open") != "true":
        toggle.click()
        expect(toggle).to_have_attribute("data-open", "true")


def _map_only(page: Page) -> None:
    toggle = page.locator(".panel-toggle")
    if toggle.is_visible() and toggle.get_attribute("data-open") == "true":
        toggle.click()
        expect(toggle).to_have_attribute("data-open", "false")


def test_every_screen_at_three_sizes(browser: Browser, demo: AppServer) -> None:
    faults: list[str] = []
    start = open_page(browser, demo.url + "/")
    _shots(start, "start", faults)
    start.goto(demo.url + "/library")
    wait_ready(start)
    _shots(start, "library", faults)
    start.context.close()

    gm = open_page(browser, demo.url + demo.seat("soulweaver"), "[data-token-id]")
    alice = open_page(browser, demo.url + demo.seat("alice"), "[data-token-id]")
    watcher = open_page(browser, demo.url + "/watch/1", "[data-token-id]")
    for page, who in ((gm, "soulweaver"), (alice, "player"), (watcher, "spectator")):
        _shots(page, f"table_{who}", faults, partial(_map_only, page))
        _shots(page, f"table_{who}_panels", faults, partial(_panels, page))
        _map_only(page)

    # the chat with a roll in it, on the player's panels
    alice.set_viewport_size(SIZES["laptop"])
    alice.locator(".chat-input input").fill("/roll 3d12+2")
    alice.locator(".chat-input input").press("Enter")
    expect(alice.locator(".chat-input input")).to_have_value("")
    _shots(alice, "chat", faults, lambda: _panels(alice))
    _map_only(alice)

    # the token menu of the player's creature, opened at each size
    def menu() -> None:
        _map_only(alice)
        alice.keyboard.press("Escape")
        expect(alice.locator(".token-menu")).to_have_count(0)
        alice.locator('[data-token-id="ayla"] .vtt-body').click()
        expect(alice.locator(".token-menu")).to_contain_text("Ayla")
        expect(alice.locator(".token-menu")).to_be_in_viewport()

    _shots(alice, "token_menu", faults, menu)
    alice.keyboard.press("Escape")

    # the ruler held from Ayla three spaces on
    def ruler() -> None:
        _map_only(alice)
        toggle = alice.locator("[data-role=ruler-toggle]")
        if toggle.get_attribute("aria-pressed") != "true":
            toggle.click()
        alice.evaluate(TWO_FRAMES)  # the map refits to a new size in the next frame: Ayla is then where she stays
        x, y = token_xy(alice, "ayla")
        alice.mouse.move(x, y)
        alice.mouse.down()
        alice.mouse.move(*cell_xy(alice, (2, 2)), steps=5)
        expect(alice.locator("[data-role=rulers] [data-role=ruler]")).to_have_count(1)

    for size, viewport in SIZES.items():
        alice.set_viewport_size(viewport)
        ruler()
        screenshot(alice, f"screens_ruler_{size}")
        alice.mouse.up()

    # the Soulweaver's Settings dialog and map editor
    gm.set_viewport_size(SIZES["laptop"])
    gm.locator("[data-action=settings]").click()
    expect(gm.locator(".settings-dialog")).to_be_visible()
    _shots(gm, "settings", faults)
    gm.locator("[data-action=cancel-settings]").click()
    expect(gm.locator(".settings-dialog")).to_have_count(0)
    gm.set_viewport_size(SIZES["laptop"])
    gm.locator("[data-action=edit-map]").click()
    _shots(gm, "map_editor", faults, lambda: _panels(gm))

    assert faults == []
