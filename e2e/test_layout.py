"""The table readable at every size (issue 12 item 5), in Chromium at a laptop's 1280×800, a portrait tablet's
820×1180 and a phone's 390×844: the map's share of the screen, names on the tokens, the roll log in sight, the
panels as a bottom sheet on a phone, touch for drag and menu, hidden creatures marked for the Soulweaver only,
creatures sharing a space named, and pools worded as what is left.

The map is the demo's (`maps/demo.json`) with three changes (`e2e/maps/layout.json`): the Goblin is hidden, three
rats share the space (15, 10), and Ayla has taken 3 Injury (Grit 3 Pips of 8). Each test opens its own pages
(`open_at`); one server serves the module, and only the last test moves a token.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Page, expect

from e2e.conftest import LOAD_TIMEOUT, TABLE_TIMEOUT, NewGame, TableGame, user_context, wait_ready
from e2e.helpers import anchor_selector, cell_xy, token_xy

LAYOUT_MAP = Path(__file__).resolve().parent / "maps" / "layout.json"
LAPTOP = (1280, 800)
BIG = (1600, 1000)
TABLET = (820, 1180)
PHONE = (390, 844)
SIZES = {"laptop": LAPTOP, "tablet": TABLET, "phone": PHONE}
TWO_FRAMES = "() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))"
NAME_MIN_PX = 10
"""The smallest on-screen height of a token's name text that still reads (the map draws them 11 px at least)."""
RATS = {"rat-a": "Rat", "rat-b": "Big Rat", "rat-c": "Sewer Rat"}
BRAM_FROM, BRAM_TO = (3, 15), (8, 12)

pytestmark = pytest.mark.usefixtures("table_timeouts")


@pytest.fixture
def server(new_game: NewGame) -> TableGame:
    """A fresh game for each test (one drags a token)."""
    return new_game(LAYOUT_MAP, seed=7)


def open_at(browser: Browser, server: TableGame, seat: str, size: tuple[int, int], touch: bool = False) -> Page:
    """A seat's table page in a new context of this window size; `touch`: a touch screen (a phone's is mobile)."""
    width, height = size
    mobile = touch and width < 500
    context = user_context(browser, viewport={"width": width, "height": height}, has_touch=touch, is_mobile=mobile)
    page = context.new_page()
    page.set_default_timeout(TABLE_TIMEOUT)
    page.goto(server.url + server.seat(seat), timeout=LOAD_TIMEOUT)
    wait_ready(page, timeout=LOAD_TIMEOUT)
    page.wait_for_selector('[data-token-id="ayla"]')
    return page


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not rendered"
    return found


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is inside the window (not scrolled away, not off screen)."""
    b = box(page, selector)
    size = page.viewport_size
    assert size is not None
    return b["y"] >= 0 and b["y"] + b["height"] <= size["height"] and b["x"] >= 0 and b["x"] < size["width"]


NAMES = """() => [...document.querySelectorAll('svg.vtt-svg [data-token-id]')].map((el) => {
  const text = el.querySelector('text.vtt-name');
  const plate = el.querySelector('.vtt-name-plate');
  const b = text ? text.getBoundingClientRect() : null;
  const p = plate ? plate.getBoundingClientRect() : null;
  return { id: el.dataset.tokenId, shown: !!plate && getComputedStyle(plate).display !== 'none',
           name: text ? text.textContent : '', height: b ? b.height : 0,
           plate: p ? [p.left, p.top, p.right, p.bottom] : null };
})"""


def names(page: Page) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in page.evaluate(NAMES)}


def select(page: Page, token_id: str, touch: bool = False) -> None:
    """Click (or tap) a token: its menu opens and its sheet shows; the menu is closed again."""
    x, y = token_xy(page, token_id)
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    expect(page.locator(".q-menu")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator(".q-menu")).to_have_count(0)


def test_laptop_map_takes_most_of_the_width_names_and_roll_log_in_sight(browser: Browser, server: TableGame) -> None:
    """At 1280x800, then at 1600x1000 (the same page made bigger): the map at least 60% of the window's width; every
    token named (no low detail on the demo map), its name at least 10 px high; the Soulweaver's roll log in sight
    with a creature's sheet open, without scrolling."""
    for seat in ("soulweaver", "alice"):
        page = open_at(browser, server, seat, LAPTOP)
        for size in (LAPTOP, BIG):
            if page.viewport_size != {"width": size[0], "height": size[1]}:
                page.set_viewport_size({"width": size[0], "height": size[1]})
                page.evaluate(TWO_FRAMES)  # the map refits to the new size in the next frame
            assert box(page, ".vtt-map")["width"] >= 0.6 * size[0]
            assert "vtt-lod-low" not in (page.locator("svg.vtt-svg").get_attribute("class") or "")
            shown = names(page)
            expected = {"ayla", "bram", "pip", "wolf", "ogre", "drake", *RATS} | (
                {"goblin"} if seat == "soulweaver" else set()
            )
            assert set(shown) == expected
            for token in shown.values():
                assert token["shown"] and token["height"] >= NAME_MIN_PX, (size, token)
            select(page, "ogre")
            expect(page.locator(".sheet")).to_contain_text("Ogre")
            expect(page.locator(".roll-log-title")).to_be_visible()
            assert in_view(page, ".roll-log-title") and in_view(page, ".side-talk"), "the roll log is scrolled away"
            assert box(page, ".side-talk")["height"] >= 0.35 * (size[1] - 29)
            assert page.evaluate("document.scrollingElement.scrollHeight") <= size[1], "the page itself scrolls"
        page.context.close()


@pytest.mark.parametrize("name", ["tablet", "phone"])
def test_phone_and_tablet_map_full_width_panels_in_a_bottom_sheet(
    browser: Browser, server: TableGame, name: str
) -> None:
    """Portrait: the map takes the whole width and the height below the header; the panels are closed, out of
    sight, behind a button always on screen, which opens them over the map (roll log, turn panel and sheet) and
    closes them again."""
    width, height = SIZES[name]
    for seat in ("soulweaver", "alice"):
        page = open_at(browser, server, seat, SIZES[name], touch=True)
        map_box = box(page, ".vtt-map")
        assert map_box["x"] == 0 and map_box["width"] == width, map_box
        assert map_box["y"] + map_box["height"] >= height - 1 and map_box["height"] >= height - 40, map_box
        toggle = page.locator("[data-role=panel-toggle]")
        expect(toggle).to_be_visible()
        expect(page.locator(".side-pane")).not_to_be_visible()
        assert in_view(page, "[data-role=panel-toggle]")
        toggle.tap()
        expect(toggle).to_have_attribute("data-open", "true")
        expect(page.locator(".side-pane")).to_be_visible()
        expect(page.locator(".roll-log-title")).to_be_visible()
        expect(page.locator(".turn-panel")).to_be_visible()
        page.wait_for_function("getComputedStyle(document.querySelector('.side-pane')).transform === 'none'")
        assert in_view(page, ".roll-log-title") and in_view(page, "[data-role=panel-toggle]")
        toggle.tap()
        expect(toggle).to_have_attribute("data-open", "false")
        expect(page.locator(".side-pane")).not_to_be_visible()
        page.context.close()


def test_hidden_creature_marked_for_the_soulweaver_and_absent_for_a_player(browser: Browser, server: TableGame) -> None:
    """The hidden Goblin is on the Soulweaver's map ghosted, with an eye-off mark and `data-hidden`; a visible
    creature carries neither; a player's map has no Goblin and nothing marked hidden."""
    gm = open_at(browser, server, "soulweaver", LAPTOP)
    goblin = gm.locator('[data-token-id="goblin"]')
    expect(goblin).to_have_attribute("data-hidden", "true")
    expect(goblin.locator("[data-role=hidden-mark]")).to_be_visible()
    assert float(goblin.locator(".vtt-body").evaluate("el => getComputedStyle(el).opacity")) < 0.6
    expect(gm.locator('[data-token-id="ayla"]')).not_to_have_attribute("data-hidden", "true")
    expect(gm.locator('[data-token-id="ayla"] [data-role=hidden-mark]')).to_have_count(0)
    alice = open_at(browser, server, "alice", LAPTOP)
    expect(alice.locator('[data-token-id="goblin"]')).to_have_count(0)
    expect(alice.locator("[data-hidden]")).to_have_count(0)
    expect(alice.locator("[data-role=hidden-mark]")).to_have_count(0)


def test_creatures_sharing_a_space_are_named_each_on_its_own_plate(browser: Browser, server: TableGame) -> None:
    """The three rats in (15, 10): each drawn in its own part of the space, each name shown in full, high enough
    to read, and no two plates overlapping."""
    page = open_at(browser, server, "alice", LAPTOP)
    shown = names(page)
    plates = []
    for token_id, name in RATS.items():
        token = shown[token_id]
        assert token["shown"] and token["name"] == name and token["height"] >= NAME_MIN_PX, token
        expect(page.locator(f'[data-token-id="{token_id}"]')).to_have_attribute(
            "data-stack", f"{sorted(RATS).index(token_id)}/3"
        )
        plates.append(token["plate"])
    for i, a in enumerate(plates):
        for b in plates[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
    centres = {token_xy(page, token_id) for token_id in RATS}
    assert len(centres) == 3


def test_pools_say_what_is_left(browser: Browser, server: TableGame) -> None:
    """Pips fill a pool (reference §4.3, seed-004): Ayla, Grit 3 Pips of 8, has 8 − 3 = 5 left before she falls
    Unconscious; Energy 0 of 6 and Resolve 0 of 8 taken leave all of them. The sheet says so, and the bars (on the
    sheet and on the token) show what is left."""
    page = open_at(browser, server, "alice", LAPTOP)
    select(page, "ayla")
    grit = page.locator('.sheet .pool-row[data-pool="grit"]')
    expect(grit).to_contain_text("Grit: 5 of 8 left")
    expect(grit).to_contain_text("3 Injury taken")
    expect(page.locator('.sheet .pool-row[data-pool="energy"]')).to_contain_text("Energy: 6 of 6 left")
    expect(page.locator('.sheet .pool-row[data-pool="resolve"]')).to_contain_text("Resolve: 8 of 8 left")
    fill = grit.locator(".pool-fill").evaluate("el => el.style.width")
    assert fill == f"{round(100 * 5 / 8)}%"
    bar = page.locator('[data-token-id="ayla"] .vtt-bar[data-pool="grit"]')
    expect(bar).to_have_attribute("data-left", "5")
    bg, fill_rect = bar.locator(".vtt-bar-bg"), bar.locator(".vtt-bar-fill")
    frame = float(fill_rect.get_attribute("x") or 0) - float(bg.get_attribute("x") or 0)
    inner = float(bg.get_attribute("width") or 0) - 2 * frame
    assert frame > 0 and abs(float(fill_rect.get_attribute("width") or 0) - inner * 5 / 8) < 0.01


def touch_drag(page: Page, start: tuple[float, float], end: tuple[float, float], steps: int = 10) -> None:
    """A one-finger drag by real touch events (Chromium's DevTools input), as a phone sends it."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
        for i in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * i / steps
            y = start[1] + (end[1] - start[1]) * i / steps
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def test_phone_touch_opens_the_menu_and_drags_a_token(browser: Browser, server: TableGame) -> None:
    """On a phone (touch, mobile): a tap on a token opens its menu; a one-finger drag moves the Soulweaver's token
    (Bram, before the fight) to another space, for every seat; with the panels opened and closed again, the map
    still takes the touch."""
    gm = open_at(browser, server, "soulweaver", PHONE, touch=True)
    alice = open_at(browser, server, "alice", LAPTOP)
    gm.touchscreen.tap(*token_xy(gm, "wolf"))
    expect(gm.locator(".q-menu")).to_be_visible()
    expect(gm.locator(".q-menu")).to_contain_text("Dire Wolf")
    gm.keyboard.press("Escape")
    expect(gm.locator(".q-menu")).to_have_count(0)
    toggle = gm.locator("[data-role=panel-toggle]")
    toggle.tap()
    expect(toggle).to_have_attribute("data-open", "true")
    toggle.tap()
    expect(gm.locator(".side-pane")).not_to_be_visible()
    gm.wait_for_selector(anchor_selector("bram", BRAM_FROM))
    touch_drag(gm, token_xy(gm, "bram"), cell_xy(gm, BRAM_TO))
    for page in (gm, alice):
        page.wait_for_selector(anchor_selector("bram", BRAM_TO))


def test_a_tap_on_a_name_under_a_shared_space_opens_that_creatures_menu(browser: Browser, server: TableGame) -> None:
    """The rats' bodies are small in their shared space; their names listed under it take a tap for them."""
    page = open_at(browser, server, "alice", PHONE, touch=True)
    plate = page.locator('[data-token-id="rat-b"] .vtt-name-bg').bounding_box()
    assert plate is not None
    page.touchscreen.tap(plate["x"] + plate["width"] / 2, plate["y"] + plate["height"] / 2)
    expect(page.locator(".q-menu")).to_be_visible()
    expect(page.locator(".q-menu")).to_contain_text("Big Rat")
