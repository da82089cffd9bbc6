"""Which tokens share a space is kept token by token (map_view.js `SpaceIndex`): after any run of patches it is what
working it out again from every token gives, and what the tokens show (`data-stack`)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser

from e2e.conftest import Harness, open_page

pytestmark = pytest.mark.usefixtures("table_timeouts")

# A few spaces of the crowd page (axial q, r), some already shared (e2e/test_map_view.py SHARED), and its tokens that
# lie on one space each; a patch moves one of them to one of these spaces, or onto two spaces, or removes it.
SPACES = [(11, 6), (14, 6), (17, 6), (20, 6), (12, 9), (13, 9)]
MOVERS = ["rat-a", "rat-b", "guard-a", "guard-b", "gob-1", "gob-2", "gob-3", "sprite-1", "sprite-2", "sprite-3"]

PATCH = """([ops]) => new Promise((done) => {
  const map = getElement(document.querySelector('.vtt-map').closest('[id^=c]'));
  for (const [id, cells] of ops) {
    if (cells === null) map.removeToken(id);
    else map.patchToken({ id, cells });
  }
  queueMicrotask(() => Vue.nextTick(done));
})"""
KEPT_AND_FRESH = """(rebuild) => {
  const map = getElement(document.querySelector('.vtt-map').closest('[id^=c]'));
  const kept = map.stackKey;
  if (rebuild) map.restack();
  const shown = {};
  for (const el of document.querySelectorAll('.vtt-tokens [data-token-id]')) {
    if (el.dataset.stack) shown[el.dataset.tokenId] = el.dataset.stack;
  }
  return [kept, map.stackKey, shown];
}"""


def slots(key: str) -> dict[str, str]:
    """`stackKey` as {id: "i/n"}."""
    return dict(part.split("\u0001") for part in key.split("\u0000")) if key else {}


def test_kept_space_index_is_the_one_worked_out_from_every_token(browser: Browser, harness: Harness) -> None:
    page = open_page(browser, harness.url("/crowd"), '[data-token-id="sprite-4"]')
    rng = random.Random(14)
    removed: set[str] = set()
    shared = 0
    for step in range(60):
        ops: list[tuple[str, list[list[int]] | None]] = []
        for _ in range(rng.randint(1, 3)):
            token_id = rng.choice(MOVERS)
            pick = rng.random()
            if pick < 0.1 and token_id not in removed:
                ops.append((token_id, None))
                removed.add(token_id)
                continue
            removed.discard(token_id)
            if pick < 0.2:
                ops.append((token_id, [[12, 9], [13, 9]]))  # on two spaces: in no shared space
            else:
                ops.append((token_id, [list(rng.choice(SPACES))]))
        page.evaluate(PATCH, [ops])
        rebuild = step % 6 == 5  # the kept index has been patched six times since it was last worked out anew
        kept, fresh, shown = page.evaluate(KEPT_AND_FRESH, rebuild)
        assert kept == fresh, (step, ops)
        assert shown == slots(kept), (step, ops)
        shared += bool(kept)
    assert shared > 30, shared  # most states had shared spaces to keep
    page.context.close()
