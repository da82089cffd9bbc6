"""Striking a creature only heard, in the browser (`vtt/table/heard_targets.py`): in darkness (ambient light dark,
no carried light, no dark sight) Ayla (alice) at (1, 1) sees no space; Grukk the Orc at (2, 1), next to her, is
heard (its moving sound, Magnitude 2 + size 0, carries -1 + 2 = 1 space: reference §2.6) and drawn as a marker with
an opaque id. Alice picks "Strike with Sword" and clicks the marker: the table maps the id back on the server; the
log tells her of her Strike on "a creature you cannot see" (Sight Concealment 3 from the darkness on her roll), and
no frame her page receives names the orc or its id.

The fog is drawn at 1280×800, 820×1180 and 390×844, with the marker and after the Strike. On a phone the marker's
name plate ("Heard"; the tooltip says "Something heard") stays clear of Ayla next to it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Page, expect

from e2e.conftest import VIEWPORT, NewGame, TableGame, open_seat
from e2e.helpers import choose_action
from e2e.test_fog import SIZES, fog_at_every_size, open_recorded

pytestmark = pytest.mark.usefixtures("table_timeouts")

ORC, ORC_NAME = "grukk_orc", "Grukk the Orc"
HEARD = '[data-token-id^="heard-"]'
PHONE = SIZES["phone"]


def dark_map() -> dict[str, Any]:
    return {
        "version": 1,
        "name": "Fog in the dark",
        "description": "e2e: an orc heard, not seen, next to Ayla in the dark.",
        "settings": {
            "grid": "square", "fog_of_war": True, "ambient_light": "dark", "reactions": False,
            "defense_prompts": "nobody",
        },
        "board": {"cols": 6, "rows": 4},
        "weapons": [{"id": "sword", "name": "Sword", "damage": 2}],
        "creatures": [
            {"id": "ayla", "name": "Ayla", "anchor": [1, 1], "controller": "alice", "color": "#2f6db5",
             "skills": {"Martial": 2, "Elude": 2}, "weapons": ["sword"], "grip": {"right_arm": "sword"}},
            {"id": ORC, "name": ORC_NAME, "anchor": [2, 1], "color": "#7b3f2a", "skills": {"Elude": 2}},
        ],
    }  # fmt: skip


@pytest.fixture
def server(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    path = tmp_path / "dark.json"
    path.write_text(json.dumps(dark_map()))
    with new_game(path, seed=5) as server:
        yield server


def plate_fits_on_a_phone(page: Page) -> None:
    """On a phone (390 x 844) the marker's plate reads "Heard" (its tooltip "Something heard") and, like Ayla's,
    stays clear of its neighbour: it covers neither her body nor her plate."""
    page.set_viewport_size(PHONE)
    expect(page.locator(f"{HEARD} .vtt-name")).to_have_text("Heard")
    expect(page.locator(f"{HEARD} > title")).to_have_text("Something heard")
    plate = box(page, f"{HEARD} .vtt-name-bg")
    for part in ('[data-token-id="ayla"] .vtt-body', '[data-token-id="ayla"] .vtt-name-bg'):
        other = box(page, part)
        across = min(plate["x"] + plate["width"], other["x"] + other["width"]) - max(plate["x"], other["x"])
        down = min(plate["y"] + plate["height"], other["y"] + other["height"]) - max(plate["y"], other["y"])
        assert across <= 1 or down <= 1, (part, plate, other)
    page.set_viewport_size(VIEWPORT)


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def test_a_player_strikes_a_creature_only_heard_by_clicking_its_marker(browser: Browser, server: TableGame) -> None:
    frames: list[str] = []
    alice, html = open_recorded(browser, server, "alice", frames)
    gm = open_seat(browser, server, "soulweaver")
    gm.get_by_role("button", name="Begin: roll Priority").click()
    expect(alice.locator(".turn-panel")).to_contain_text("Round 1")
    expect(alice.locator(HEARD)).to_have_count(1)
    expect(alice.locator(f'[data-token-id="{ORC}"]')).to_have_count(0)
    expect(alice.locator(f"{HEARD} .vtt-size-badge")).to_be_hidden()  # its size is not known: no badge
    fog_at_every_size(alice)
    plate_fits_on_a_phone(alice)

    alice.locator('[data-token-id="ayla"] .vtt-body').click()
    choose_action(alice, "strike", "Strike with Sword")
    alice.locator(f"{HEARD} .vtt-body").click()
    entry = alice.locator(".log-entry").filter(has_text="a creature you cannot see")
    expect(entry.first).to_be_visible()
    expect(alice.locator(".log-entry").first).to_contain_text("Sight Concealment 3")
    expect(gm.locator(".log-entry").first).to_contain_text(ORC_NAME)  # the Soulweaver's log names the orc
    fog_at_every_size(alice)

    for secret in (ORC, ORC_NAME):
        assert secret not in html
        assert not [f for f in frames if secret in f], secret
