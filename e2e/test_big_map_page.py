"""A big map's page: more than 50 tokens reach the browser as JSON in the page's head (not in the text of its
elements), and a layer of 500 or more spaces goes packed; the page shows every token and every wall all the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import NewGame, TableGame, open_page, scaled, user_context
from vtt.rules.model import SOULWEAVER
from vtt.web.map_view import PACK_MIN, TOKENS_IN_PAGE_MAX

SIDE = 40
CREATURES = TOKENS_IN_PAGE_MAX + 10
WALL_ROWS = range(1, SIDE, 3)  # 13 rows of 40 walls: 520
WALLS = [[x, y] for y in WALL_ROWS for x in range(SIDE)]
TIMEOUT = scaled(30_000)
FIRST_FRAME_PANELS = """(() => {
  window.__panels = null;
  const tick = () => {
    if (document.querySelectorAll('[data-token-id]').length >= __N__) {
      const pane = document.querySelector('.side-pane');
      const drawn = pane ? pane.childElementCount : -1;
      window.__panels = { pane: !!pane, drawn, connected: window.did_handshake === true };
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""
"""What the side pane holds in the frame that first shows every token (read before that frame is drawn), and whether
the page's socket had connected by then (`static/after_paint.js` then draws the panels at once)."""


@pytest.fixture
def server(tmp_path: Path, new_game: NewGame) -> TableGame:
    assert len(WALLS) >= PACK_MIN
    open_rows = [y for y in range(SIDE) if y not in WALL_ROWS]
    spaces = [(x, y) for y in open_rows for x in range(SIDE)]
    creatures = [
        {"id": f"c{i}", "name": f"Goblin {i}", "anchor": list(spaces[i]), "controller": "alice" if i < 3 else None}
        for i in range(CREATURES)
    ]
    board = {"cols": SIDE, "rows": SIDE, "walls": WALLS}
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"format": 1, "name": "Big", "grid": "square", "board": board, "creatures": creatures}))
    return new_game(path, seed=1)


def test_a_big_map_shows_every_token_and_wall_to_the_soulweaver_and_a_player(
    browser: Browser, server: TableGame
) -> None:
    for key in (SOULWEAVER, "alice"):
        url = server.url + server.seat(key)
        page = open_page(browser, url, "svg.vtt-svg")
        try:
            html = page.request.get(url).text()
            assert html.count('<script type="application/json" id="vtt-tokens-') == 1
            assert html.count("Goblin 59") == 1  # in the head's JSON only
            expect(page.locator("[data-token-id]")).to_have_count(CREATURES, timeout=TIMEOUT)
            walls = page.locator("g[data-layer=wall]")
            expect(walls).to_have_attribute("data-count", str(len(WALLS)), timeout=TIMEOUT)
            page.reload()
            expect(page.locator("[data-token-id]")).to_have_count(CREATURES, timeout=TIMEOUT)
            expect(page.locator('[data-token-id="c59"]')).to_have_count(1)
        finally:
            page.context.close()


def test_the_side_panels_are_drawn_after_the_maps_first_frame(browser: Browser, server: TableGame) -> None:
    context = user_context(browser)
    try:
        context.add_init_script(script=FIRST_FRAME_PANELS.replace("__N__", str(CREATURES)))
        page = context.new_page()
        page.goto(server.url + server.seat(SOULWEAVER))
        page.wait_for_function("window.__panels !== null", timeout=TIMEOUT)
        first = page.evaluate("window.__panels")
        assert first["pane"], "the side pane is on the page from the start"
        assert first["drawn"] == 0 or first["connected"], f"the panels were drawn in the map's first frame: {first}"
        expect(page.locator(".side-pane .roll-log-title")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator(".side-pane .gm-panel")).to_be_visible(timeout=TIMEOUT)
    finally:
        context.close()
