"""Shared Playwright helpers for the map: cell and token screen positions (the one place the e2e tests hold the map's
hex and square geometry), drags, token selectors."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

Cell = tuple[int, int]

# Screen (viewport) position of a cell's centre, through the current zoom and pan of the map's world group.
CELL_TO_SCREEN = """([q, r]) => {
  const svg = document.querySelector('svg.vtt-svg');
  const c = Number(svg.dataset.cell);
  const [x, y] = svg.dataset.grid === 'hex'
    ? [c * Math.sqrt(3) * (q + r / 2) + c * Math.sqrt(3) / 2, c * 1.5 * r + c]
    : [(q + 0.5) * c, (r + 0.5) * c];
  const p = new DOMPoint(x, y).matrixTransform(svg.querySelector('[data-role=world]').getScreenCTM());
  return [p.x, p.y];
}"""


# World (map SVG) coordinates of a viewport position, through the current zoom and pan.
SCREEN_TO_WORLD = """([x, y]) => {
  const m = document.querySelector('svg.vtt-svg [data-role=world]').getScreenCTM().inverse();
  const p = new DOMPoint(x, y).matrixTransform(m);
  return [p.x, p.y];
}"""

# Viewport pixels from a hex cell's centre to the middle of its edges (the radius of its inscribed circle).
HEX_INNER_RADIUS = """() => {
  const svg = document.querySelector('svg.vtt-svg');
  return Number(svg.dataset.cell) * Math.sqrt(3) / 2 * svg.querySelector('[data-role=world]').getScreenCTM().a;
}"""


STEADY = """async ([place, frames]) => {
  const frame = () => new Promise((drawn) => requestAnimationFrame(() => drawn()));
  let before = place();
  for (let i = 0; i < frames; i += 2) {
    await frame();
    await frame();
    const now = place();
    if (now === before) return true;
    before = now;
  }
  return false;
}"""
"""Resolves once `place()` (where something is on screen, as a string) is the same over two drawn frames, or after
`frames` frames (a map that keeps moving is then the test's to catch). Each script below defines its own `place`."""
MAP_STEADY = STEADY.replace(
    "async ([place, frames]) => {",
    """async (frames) => {
  const place = () => {
    const world = document.querySelector('svg.vtt-svg [data-role=world]');
    if (world === null) return '';
    const m = world.getScreenCTM();
    return [m.a, m.d, m.e, m.f].join(' ');
  };""",
)
ELEMENT_STEADY = STEADY.replace(
    "async ([place, frames]) => {",
    """async (element, frames) => {
  const place = () => {
    const r = element.getBoundingClientRect();
    return [r.x, r.y, r.width, r.height].join(' ');
  };""",
)
STEADY_FRAMES = 240


def wait_map_steady(page: Page) -> None:
    """Wait until the map stops moving (zoom and pan the same over two frames): after `set_viewport_size` the map
    fits itself to the window a frame or more later, so anything found on screen by where it is waits for this."""
    page.evaluate(MAP_STEADY, STEADY_FRAMES)


def wait_steady(locator: Locator) -> None:
    """Wait until the element stops moving (its box the same over two frames): a list opening in a menu slides the
    rows below it, and a click meanwhile lands on whatever slid under the pointer."""
    locator.evaluate(ELEMENT_STEADY, STEADY_FRAMES)


def cell_xy(page: Page, cell: Cell) -> tuple[float, float]:
    """The viewport position of the centre of ``cell``, once the map stands still."""
    wait_map_steady(page)
    x, y = page.evaluate(CELL_TO_SCREEN, list(cell))
    return float(x), float(y)


def screen_to_world(page: Page, xy: tuple[float, float]) -> tuple[float, float]:
    """The map (world) coordinates under the viewport position ``xy``."""
    x, y = page.evaluate(SCREEN_TO_WORLD, list(xy))
    return float(x), float(y)


def hex_inner_radius(page: Page) -> float:
    """Viewport pixels from a hex cell's centre to the middle of its edges, at the current zoom."""
    return float(page.evaluate(HEX_INNER_RADIUS))


def token_xy(page: Page, token_id: str) -> tuple[float, float]:
    """The viewport position of the centre of a token's body (its anchor cell for a one-space token), once the map
    stands still."""
    wait_map_steady(page)
    box = page.locator(f'[data-token-id="{token_id}"] .vtt-body').bounding_box()
    assert box is not None, f"token {token_id} is not rendered"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Page, start: tuple[float, float], end: tuple[float, float], steps: int = 12) -> None:
    """Press at ``start``, move to ``end`` in ``steps`` pointer moves, release."""
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def anchor_selector(token_id: str, cell: Cell) -> str:
    """CSS selector of a token whose anchor is ``cell``."""
    return f'[data-token-id="{token_id}"][data-q="{cell[0]}"][data-r="{cell[1]}"]'


def menu_entry_selector(action: str, label: str | None = None) -> str:
    """CSS selector of the token menu's entries for the rules ``action`` (and the rules ``label``, e.g. "Strike
    with Sword"); an entry that is one variant of several sits, hidden until opened, in its kind's list."""
    selector = f'.menu-action[data-action="{action}"]'
    if label is not None:
        selector += f"[data-label={json.dumps(label)}]"
    return selector


def menu_entry(page: Page, action: str, label: str | None = None) -> Locator:
    """The open token menu's entries for ``action`` (and ``label``), in menu order."""
    return page.locator(".q-menu").locator(menu_entry_selector(action, label))


def choose_action(page: Page, action: str, label: str | None = None) -> None:
    """Pick an entry of the open token menu: the first one for ``action`` (with the rules ``label``), and wait for
    the menu to be gone. When it is one variant of a kind (one weapon of several), open the kind's list of variants
    first."""
    selector = menu_entry_selector(action, label)
    item = page.locator(".q-menu").locator(selector).first
    item.wait_for(state="attached")
    if not item.is_visible():
        kind = page.locator(f".q-menu .menu-kind:has({selector})").first
        kind.locator(".q-expansion-item__container > .q-item").first.click()
        expect(item).to_be_visible()
        wait_steady(item)  # the list slides open (and another one shut)
    item.click()
    # the menu beside the token fades out: a click on the map meanwhile would land on it (and only close it)
    expect(page.locator(".q-menu.token-menu")).to_have_count(0)


def end_turn(page: Page) -> None:
    """End the turn from the page's turn panel and wait until the change is in: its log entry and the panel redrawn
    (the panels follow a change's log entry by a moment, so the panel read just after the entry can be the old one)."""
    panel = page.locator(".turn-panel")
    shown = panel.inner_text()
    entries = page.locator(".log-entry").count()
    panel.get_by_role("button", name="End turn").click()
    expect(page.locator(".log-entry")).to_have_count(entries + 1)
    page.wait_for_function("shown => document.querySelector('.turn-panel').innerText !== shown", arg=shown)


def demo_without_fog(folder: Path) -> Path:
    """The demo map (`maps/demo.json`, fog of war on) written into `folder` with fog of war off, as the start-up
    game (`--map`) and as the only map of the New game form (`VTT_MAPS` naming `folder`): for tests of a shared table
    where every seat sees the whole map, such as a player who has no creature yet."""
    demo = json.loads((Path(__file__).resolve().parents[1] / "maps" / "demo.json").read_text())
    demo["settings"]["fog_of_war"] = False
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "demo.json"
    path.write_text(json.dumps(demo))
    return path
