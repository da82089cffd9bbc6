"""End-to-end tests of the MapView element on the harness page, with two users (browser contexts)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import AppServer, open_page, screenshot
from e2e.helpers import anchor_selector, cell_xy, drag, token_xy

# Harness positions (axial q, r), see e2e/map_harness.py.
KIRA = (3, 6)
KIRA_TARGET = (5, 7)
WALL = (9, 6)
OGRE = (2, 12)
EMPTY_CELL = (8, 15)

SCREEN_TO_WORLD = """([x, y]) => {
  const m = document.querySelector('svg.vtt-svg [data-role=world]').getScreenCTM().inverse();
  const p = new DOMPoint(x, y).matrixTransform(m);
  return [p.x, p.y];
}"""


@pytest.fixture
def pages(browser: Browser, harness_server: AppServer) -> Iterator[tuple[Page, Page]]:
    """Two users (separate browser contexts) on the harness page."""
    a = open_page(browser, harness_server.url)
    b = open_page(browser, harness_server.url)
    for page in (a, b):
        page.wait_for_selector('[data-token-id="wyrm"]')
    yield a, b
    for page in (a, b):
        page.context.close()


def world_transform(page: Page) -> tuple[float, float, float]:
    value = page.locator("svg.vtt-svg [data-role=world]").get_attribute("transform") or ""
    match = re.fullmatch(r"translate\(([-\d.e]+) ([-\d.e]+)\) scale\(([-\d.e]+)\)", value)
    assert match, value
    x, y, k = (float(v) for v in match.groups())
    return x, y, k


def test_tokens_render_with_footprints(pages: tuple[Page, Page]) -> None:
    a, _ = pages
    assert a.locator("[data-token-id]").count() == 4
    assert a.locator('[data-token-id="wyrm"] polygon.vtt-foot').count() == 7
    assert a.locator('[data-token-id="wyrm"] .vtt-foot-outline').count() == 1
    for token_id in ("kira", "imp", "ogre"):
        assert a.locator(f'[data-token-id="{token_id}"] polygon.vtt-foot').count() == 1
    assert a.locator(anchor_selector("kira", KIRA)).count() == 1
    assert a.locator('[data-token-id="kira"]').get_attribute("data-grit") == "4"
    expect(a.locator('[data-token-id="imp"] .vtt-size-badge')).to_have_text("S-1")
    expect(a.locator('[data-token-id="wyrm"] .vtt-size-badge')).to_have_text("S4")
    assert a.locator('[data-token-id="kira"] .vtt-bar').count() == 3
    assert a.locator('[data-token-id="imp"] .vtt-bar').count() == 2  # resolve [0, 0] has no bar
    expect(a.locator('[data-token-id="kira"] .vtt-ailment text')).to_have_text(["BLE2"])
    expect(a.locator('[data-token-id="wyrm"] .vtt-ailment text')).to_have_text(["BUR1", "SLO2"])
    expect(a.locator('[data-object-id="pillar"] text')).to_have_text("Pillar")
    assert a.locator("path.vtt-grid").count() == 1
    assert len(a.locator("path.vtt-wall").get_attribute("d") or "") > 20
    # the 7 footprint cells form a flower: 3 hexes wide and 2.5 hex heights tall
    bbox = "(el) => { const b = el.getBBox(); return [b.width, b.height]; }"
    wyrm = a.locator('[data-token-id="wyrm"] .vtt-foot-outline').evaluate(bbox)
    one = a.locator('[data-token-id="kira"] polygon.vtt-foot').evaluate(bbox)
    assert abs(wyrm[0] / one[0] - 3) < 0.01 and abs(wyrm[1] / one[1] - 2.5) < 0.01, (wyrm, one)
    screenshot(a, "tokens_render")


def test_drag_is_broadcast_to_other_user(pages: tuple[Page, Page]) -> None:
    a, b = pages
    drag(a, token_xy(a, "kira"), cell_xy(a, KIRA_TARGET))
    b.wait_for_selector(anchor_selector("kira", KIRA_TARGET), timeout=5000)
    a.wait_for_selector(anchor_selector("kira", KIRA_TARGET), timeout=5000)
    expect(a.get_by_text(f"Moved kira to {KIRA_TARGET[0]},{KIRA_TARGET[1]}")).to_be_visible()
    # the multi-cell token moves with its whole footprint
    wyrm_before = sorted(
        (int(p.get_attribute("data-q") or 0), int(p.get_attribute("data-r") or 0))
        for p in b.locator('[data-token-id="wyrm"] polygon.vtt-foot').all()
    )
    anchor_q = int(a.locator('[data-token-id="wyrm"]').get_attribute("data-q") or 0)
    anchor_r = int(a.locator('[data-token-id="wyrm"]').get_attribute("data-r") or 0)
    drag(a, token_xy(a, "wyrm"), cell_xy(a, (anchor_q + 1, anchor_r + 1)))
    b.wait_for_selector(anchor_selector("wyrm", (anchor_q + 1, anchor_r + 1)), timeout=5000)
    wyrm_after = sorted(
        (int(p.get_attribute("data-q") or 0), int(p.get_attribute("data-r") or 0))
        for p in b.locator('[data-token-id="wyrm"] polygon.vtt-foot').all()
    )
    assert wyrm_after == sorted((q + 1, r + 1) for q, r in wyrm_before)
    screenshot(a, "drag_page_a")
    screenshot(b, "drag_page_b")


def test_illegal_drop_snaps_back_on_both_pages(pages: tuple[Page, Page]) -> None:
    a, b = pages
    a.evaluate(
        """() => { window.kiraPositions = [];
        const el = document.querySelector('[data-token-id="kira"]');
        new MutationObserver(() => window.kiraPositions.push(el.dataset.q + ',' + el.dataset.r))
          .observe(el, { attributes: true, attributeFilter: ['data-q', 'data-r'] }); }"""
    )
    drag(a, token_xy(a, "kira"), cell_xy(a, WALL))
    expect(a.get_by_text("Move rejected: blocked by a wall")).to_be_visible()
    a.wait_for_timeout(400)  # let the notification's transition finish before the screenshot
    a.wait_for_selector(anchor_selector("kira", KIRA))
    assert a.evaluate("window.kiraPositions") == [f"{WALL[0]},{WALL[1]}", f"{KIRA[0]},{KIRA[1]}"]
    assert b.locator(anchor_selector("kira", KIRA)).count() == 1
    expect(b.get_by_text("Move rejected")).to_have_count(0)
    screenshot(a, "illegal_drop")


def test_click_opens_menu_at_token_and_highlights_reach(pages: tuple[Page, Page]) -> None:
    a, b = pages
    x, y = token_xy(a, "kira")
    a.mouse.click(x, y)
    item = a.get_by_text("Highlight reach")
    expect(item).to_be_visible()
    menu_box = a.locator(".q-menu").bounding_box()
    assert menu_box is not None
    assert abs(menu_box["x"] - x) < 30 and abs(menu_box["y"] - y) < 30, (menu_box, x, y)
    expect(a.locator(".q-menu").get_by_text("Kira Valen")).to_be_visible()
    expect(a.locator('[data-token-id="kira"]')).to_have_attribute("data-active", "true")
    assert a.locator(".vtt-active-ring").count() == 1
    a.wait_for_timeout(400)  # let the menu's fade-in transition finish
    screenshot(a, "menu_open")
    item.click()
    expect(a.locator('[data-highlight-kind="reach"]')).to_have_count(18)
    assert b.locator("[data-highlight-kind]").count() == 0  # highlights are per view
    expect(a.locator(".q-menu")).to_have_count(0)
    screenshot(a, "highlight_reach")
    # clicking another token moves the menu there
    ox, oy = token_xy(a, "ogre")
    a.mouse.click(ox, oy)
    expect(a.locator(".q-menu").get_by_text("Ogre Brute")).to_be_visible()
    a.wait_for_timeout(400)
    menu_box = a.locator(".q-menu").bounding_box()
    assert menu_box is not None
    assert abs(menu_box["x"] - ox) < 30 and abs(menu_box["y"] - oy) < 30, (menu_box, ox, oy)
    a.keyboard.press("Escape")
    expect(a.locator("[data-highlight-kind]")).to_have_count(0)
    expect(a.locator(".vtt-active-ring")).to_have_count(0)


def test_cell_click_and_background_cancel(pages: tuple[Page, Page]) -> None:
    a, _ = pages
    a.mouse.click(*cell_xy(a, EMPTY_CELL))
    expect(a.get_by_text(f"Cell {EMPTY_CELL[0]},{EMPTY_CELL[1]}")).to_be_visible()
    x, y = token_xy(a, "kira")
    a.mouse.click(x, y)
    a.get_by_text("Highlight reach").click()
    expect(a.locator('[data-highlight-kind="reach"]')).to_have_count(18)
    box = a.locator("svg.vtt-svg").bounding_box()
    assert box is not None
    a.mouse.click(box["x"] + 8, box["y"] + box["height"] - 8)  # stone background outside the map
    expect(a.get_by_text("Cancelled")).to_be_visible()
    expect(a.locator("[data-highlight-kind]")).to_have_count(0)
    screenshot(a, "cell_click_cancel")


def test_non_draggable_token_is_clickable_only(pages: tuple[Page, Page]) -> None:
    a, b = pages
    assert "vtt-draggable" not in (a.locator('[data-token-id="ogre"]').get_attribute("class") or "")
    drag(a, token_xy(a, "ogre"), cell_xy(a, (OGRE[0] + 2, OGRE[1])))
    a.wait_for_timeout(300)
    assert a.locator(anchor_selector("ogre", OGRE)).count() == 1
    assert b.locator(anchor_selector("ogre", OGRE)).count() == 1
    a.mouse.click(*token_xy(a, "ogre"))
    expect(a.locator(".q-menu").get_by_text("Ogre Brute")).to_be_visible()
    screenshot(a, "non_draggable")


def test_wheel_zoom_pan_and_drop_after_zoom(pages: tuple[Page, Page]) -> None:
    a, b = pages
    x0, y0, k0 = world_transform(a)
    px, py = cell_xy(a, KIRA_TARGET)
    world_before = a.evaluate(SCREEN_TO_WORLD, [px, py])
    a.mouse.move(px, py)
    a.mouse.wheel(0, -400)
    a.wait_for_function(
        f"!document.querySelector('[data-role=world]').getAttribute('transform').endsWith('scale({k0})')"
    )
    _, _, k1 = world_transform(a)
    assert k1 > k0 * 1.3
    world_after = a.evaluate(SCREEN_TO_WORLD, [px, py])
    assert abs(world_after[0] - world_before[0]) < 1 and abs(world_after[1] - world_before[1]) < 1  # zoom at pointer
    # pan by dragging empty space
    x1, y1, _ = world_transform(a)
    start = cell_xy(a, (6, 9))  # an empty cell near the zoom centre
    drag(a, start, (start[0] + 150, start[1] + 80))
    x2, y2, k2 = world_transform(a)
    assert k2 == k1
    assert abs(x2 - (x1 + 150)) < 0.2 and abs(y2 - (y1 + 80)) < 0.2
    # the drop snaps to the right cell in the zoomed and panned view
    drag(a, token_xy(a, "kira"), cell_xy(a, KIRA_TARGET))
    b.wait_for_selector(anchor_selector("kira", KIRA_TARGET), timeout=5000)
    _, _, kb = world_transform(b)
    assert kb == k0  # zoom is per view
    assert (x0, y0) != (x2, y2)
    screenshot(a, "wheel_zoom")


def test_pan_moves_view_by_pointer_delta(pages: tuple[Page, Page]) -> None:
    a, _ = pages
    x0, y0, k0 = world_transform(a)
    start = cell_xy(a, EMPTY_CELL)
    drag(a, start, (start[0] + 120, start[1] - 60))
    x1, y1, k1 = world_transform(a)
    assert k1 == k0
    assert abs(x1 - x0 - 120) < 0.2 and abs(y1 - y0 + 60) < 0.2
    expect(a.get_by_text("Cell")).to_have_count(0)  # a pan is not a cell click
    screenshot(a, "pan")


def test_pinch_zoom_with_two_pointers(pages: tuple[Page, Page]) -> None:
    a, _ = pages
    _, _, k0 = world_transform(a)
    a.evaluate(
        """() => {
        const svg = document.querySelector('svg.vtt-svg');
        const fire = (type, id, x, y) => svg.dispatchEvent(new PointerEvent(type, {
          pointerId: id, pointerType: 'touch', isPrimary: id === 11, clientX: x, clientY: y, bubbles: true,
          cancelable: true }));
        fire('pointerdown', 11, 700, 500);
        fire('pointerdown', 12, 800, 500);
        for (let i = 1; i <= 10; i++) {
          fire('pointermove', 11, 700 - 10 * i, 500);
          fire('pointermove', 12, 800 + 10 * i, 500);
        }
        fire('pointerup', 11, 600, 500);
        fire('pointerup', 12, 900, 500);
    }"""
    )
    _, _, k1 = world_transform(a)
    assert abs(k1 / k0 - 3.0) < 0.01  # fingers went from 100 px to 300 px apart
    expect(a.get_by_text("Cell")).to_have_count(0)
    screenshot(a, "pinch_zoom")


def test_names_render_as_text(pages: tuple[Page, Page]) -> None:
    a, _ = pages
    expect(a.locator('[data-token-id="imp"] text.vtt-name')).to_have_text("Imp <b>bold</b>")
    assert a.locator("svg.vtt-svg b").count() == 0
    a.mouse.click(*token_xy(a, "imp"))
    expect(a.locator(".q-menu").get_by_text("Imp <b>bold</b>")).to_be_visible()
    assert a.locator(".q-menu b").count() == 0
    screenshot(a, "names_as_text")


def test_big_map_paints_and_drags(browser: Browser, harness_server: AppServer) -> None:
    started = time.monotonic()
    a = open_page(browser, f"{harness_server.url}/big")
    expect(a.locator("[data-token-id]")).to_have_count(500, timeout=20_000)
    a.evaluate("() => new Promise(requestAnimationFrame)")
    painted = time.monotonic() - started
    print(f"big map: 500 tokens painted {painted:.2f} s after navigation")
    assert painted < 15
    screenshot(a, "big_map_overview")
    # zoom in around a token and drag it one cell to the right
    token = a.locator('[data-token-id="t3"]')
    q, r = int(token.get_attribute("data-q") or 0), int(token.get_attribute("data-r") or 0)
    a.mouse.move(*cell_xy(a, (q, r)))
    for _ in range(4):
        a.mouse.wheel(0, -300)
        a.wait_for_timeout(50)
    frame_ms = a.evaluate(
        """async () => { const t0 = performance.now(); await new Promise(requestAnimationFrame);
        await new Promise(requestAnimationFrame); return performance.now() - t0; }"""
    )
    print(f"big map: two frames after zoom took {frame_ms:.1f} ms")
    occupied = set(
        map(
            tuple,
            a.evaluate(
                """() => [...document.querySelectorAll('[data-token-id]')]
                .map((el) => [Number(el.dataset.q), Number(el.dataset.r)])"""
            ),
        )
    )
    target = next(c for c in ((q + 1, r), (q - 1, r), (q, r + 1), (q, r - 1)) if c not in occupied)
    drag(a, token_xy(a, "t3"), cell_xy(a, target))
    a.wait_for_selector(anchor_selector("t3", target), timeout=5000)
    expect(a.get_by_text(f"Moved t3 to {target[0]},{target[1]}")).to_be_visible()
    screenshot(a, "big_map_zoomed")
    a.context.close()


def test_full_props_update_keeps_state_in_place(pages: tuple[Page, Page]) -> None:
    a, _ = pages
    drag(a, token_xy(a, "kira"), cell_xy(a, KIRA_TARGET))
    a.wait_for_selector(anchor_selector("kira", KIRA_TARGET))
    expect(a.get_by_text("Moved kira")).to_be_visible()
    a.mouse.click(*token_xy(a, "kira"))
    a.get_by_text("Highlight reach").click()
    expect(a.locator('[data-highlight-kind="reach"]')).to_have_count(18)
    a.evaluate("() => { document.querySelector('[data-token-id=\"kira\"]').__probe = 1; }")
    a.get_by_role("button", name="Full update").click()
    a.wait_for_timeout(500)
    assert a.locator(anchor_selector("kira", KIRA_TARGET)).count() == 1
    assert a.locator('[data-highlight-kind="reach"]').count() == 18
    assert a.locator("[data-token-id]").count() == 4
    expect(a.locator('[data-token-id="kira"]')).to_have_attribute("data-active", "true")
    # the token's DOM node was patched in place, not re-created
    assert a.evaluate("() => document.querySelector('[data-token-id=\"kira\"]').__probe") == 1
    screenshot(a, "full_update")


def test_viewer_can_drag_is_enforced(browser: Browser, harness_server: AppServer) -> None:
    gm = open_page(browser, harness_server.url)
    player = open_page(browser, f"{harness_server.url}/?player=true")
    player.wait_for_selector('[data-token-id="imp"]')
    assert "vtt-draggable" in (player.locator('[data-token-id="kira"]').get_attribute("class") or "")
    assert "vtt-draggable" not in (player.locator('[data-token-id="imp"]').get_attribute("class") or "")
    imp = (int(player.locator('[data-token-id="imp"]').get_attribute("data-q") or 0), 4)
    # a UI drag of a foreign token does nothing
    drag(player, token_xy(player, "imp"), cell_xy(player, (imp[0] + 1, imp[1])))
    # a forged event (as from a modified client) is refused by MapView before any handler runs
    player.evaluate(
        """([q, r]) => {
        const id = document.querySelector('.vtt-map').id.slice(1);
        getElement(Number(id)).$emit('token_move', { id: 'imp', q, r });
    }""",
        [imp[0] + 2, imp[1]],
    )
    player.wait_for_timeout(500)
    for page in (gm, player):
        assert page.locator(anchor_selector("imp", imp)).count() == 1
    expect(player.get_by_text("Moved imp")).to_have_count(0)
    # the player's own token still works, and the GM sees it
    drag(player, token_xy(player, "kira"), cell_xy(player, KIRA_TARGET))
    gm.wait_for_selector(anchor_selector("kira", KIRA_TARGET), timeout=5000)
    screenshot(player, "viewer_can_drag")
    for page in (gm, player):
        page.context.close()


def test_square_grid(browser: Browser, harness_server: AppServer) -> None:
    a = open_page(browser, f"{harness_server.url}/square")
    b = open_page(browser, f"{harness_server.url}/square")
    a.wait_for_selector('[data-token-id="golem"]')
    assert a.locator("svg.vtt-svg").get_attribute("data-grid") == "square"
    assert a.locator('[data-token-id="golem"] polygon.vtt-foot').count() == 4
    drag(a, token_xy(a, "hero"), cell_xy(a, (6, 3)))
    b.wait_for_selector(anchor_selector("hero", (6, 3)), timeout=5000)
    drag(a, cell_xy(a, (4, 6)), cell_xy(a, (7, 8)))  # grab the anchor (top-left) cell
    b.wait_for_selector(anchor_selector("golem", (7, 8)), timeout=5000)
    drag(a, token_xy(a, "hero"), cell_xy(a, (10, 4)))  # wall
    expect(a.get_by_text("Move rejected: blocked by a wall")).to_be_visible()
    a.wait_for_selector(anchor_selector("hero", (6, 3)))
    a.mouse.click(*token_xy(a, "hero"))
    a.get_by_text("Highlight reach").click()
    expect(a.locator('rect[data-highlight-kind="reach"]')).to_have_count(24)
    a.mouse.click(*cell_xy(a, (15, 9)))
    expect(a.get_by_text("Cell 15,9")).to_be_visible()
    a.wait_for_timeout(400)
    screenshot(a, "square_grid")
    for page in (a, b):
        page.context.close()
