"""A big map opening at low detail draws its tokens' bodies first (plain SVG, `static/map_view.js` `tokenBody`), then
replaces them by their components after that frame: every token shows in the first frame, each token ends up drawn
once by its component with all its details, and a token dragged before its component is made moves all the same."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from e2e.conftest import LOAD_TIMEOUT, Harness, user_context, wait_ready
from e2e.helpers import anchor_selector, cell_xy, drag, token_xy

TOKENS = 500
CENTRES_IN = """(layer) => Object.fromEntries([...document.querySelectorAll(layer + ' > g[data-token-id]')].map((g) => {
  const body = g.querySelector('.vtt-body');
  const world = document.querySelector('[data-role="world"]');
  const b = body.getBBox();
  const m = world.getScreenCTM().inverse().multiply(body.getScreenCTM());
  const p = new DOMPoint(b.x + b.width / 2, b.y + b.height / 2).matrixTransform(m);
  return [g.dataset.tokenId, [p.x, p.y]];
}))"""
"""The centre of each token's body drawn in `layer` (a selector), on the map: in the map's own units, whatever its
zoom and place on the screen."""
FIRST_FRAME = (
    """(() => {
  window.__firstFrame = null;
  const centres = """
    + CENTRES_IN
    + """;
  const tick = () => {
    const shown = document.querySelectorAll('[data-token-id]').length;
    if (shown >= 500) {
      window.__firstFrame = {
        shown,
        bodies: document.querySelectorAll('.vtt-first-tokens > g[data-token-id] .vtt-body').length,
        low: document.querySelector('svg.vtt-svg').classList.contains('vtt-lod-low'),
        centres: centres('.vtt-first-tokens'),
      };
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""
)
HOLD_COMPONENTS = """(() => {
  const setTimer = window.setTimeout.bind(window);
  window.setTimeout = (f, ms, ...args) => (String(f).includes("buildChunk") ? 0 : setTimer(f, ms, ...args));
})();"""
"""The map's timers that make the components chunk by chunk are never set: the tokens stay in the first frame."""


def test_a_big_map_shows_every_token_in_its_first_frame_then_each_once_by_its_component(
    browser: Browser, harness: Harness
) -> None:
    context = user_context(browser)
    try:
        context.add_init_script(script=FIRST_FRAME)
        page = context.new_page()
        page.goto(harness.url("/big"))
        wait_ready(page)
        page.wait_for_function("window.__firstFrame !== null")
        first = page.evaluate("window.__firstFrame")
        assert first["low"], "the big map opens at low detail"
        assert first["shown"] == TOKENS and first["bodies"] > TOKENS // 2, first
        expect(page.locator(".vtt-first-tokens > g")).to_have_count(0, timeout=LOAD_TIMEOUT)
        expect(page.locator("[data-token-id]")).to_have_count(TOKENS)
        # every token once, by its component: its name plate is there (hidden at low detail)
        assert page.locator(".vtt-tokens > g[data-token-id] .vtt-name").count() == TOKENS
        ids = page.evaluate("() => [...document.querySelectorAll('[data-token-id]')].map((g) => g.dataset.tokenId)")
        assert len(set(ids)) == TOKENS
        # and where the first frame drew it: its component's body is where its plain body was, on the map
        now = page.evaluate(CENTRES_IN, ".vtt-tokens")
        moved = {
            i: (c, now[i]) for i, c in first["centres"].items() if abs(c[0] - now[i][0]) + abs(c[1] - now[i][1]) > 1
        }
        assert first["centres"] and not moved, f"{len(moved)} tokens drawn elsewhere, e.g. {sorted(moved.items())[:3]}"
    finally:
        context.close()


def test_a_token_dropped_before_its_component_is_made_moves(browser: Browser, harness: Harness) -> None:
    context = user_context(browser)
    try:
        page = context.new_page()
        # the components are never made on their own here (no frame, no timer gets to them): only the drop makes one
        page.add_init_script(script=HOLD_COMPONENTS)
        page.goto(harness.url("/big"))
        wait_ready(page)
        first = page.locator('.vtt-first-tokens > g[data-token-id="t3"]')
        expect(first).to_have_count(1)
        q, r = int(first.get_attribute("data-q") or 0), int(first.get_attribute("data-r") or 0)
        occupied = set(
            map(
                tuple,
                page.evaluate(
                    "() => [...document.querySelectorAll('[data-token-id]')].map((g) => [+g.dataset.q, +g.dataset.r])"
                ),
            )
        )
        target = next(c for c in ((q + 1, r), (q - 1, r), (q, r + 1), (q, r - 1)) if c not in occupied)
        drag(page, token_xy(page, "t3"), cell_xy(page, target))
        page.wait_for_selector(anchor_selector("t3", target), timeout=5000)
        expect(page.locator('[data-token-id="t3"]')).to_have_count(1)
        expect(page.locator('.vtt-tokens > g[data-token-id="t3"]')).to_have_count(1)
    finally:
        context.close()
