"""Shared Playwright helpers for the map: cell and token screen positions, drags, token selectors."""

from __future__ import annotations

from playwright.sync_api import Page

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


def cell_xy(page: Page, cell: Cell) -> tuple[float, float]:
    """The viewport position of the centre of ``cell``."""
    x, y = page.evaluate(CELL_TO_SCREEN, list(cell))
    return float(x), float(y)


def token_xy(page: Page, token_id: str) -> tuple[float, float]:
    """The viewport position of the centre of a token's body (its anchor cell for a one-space token)."""
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
