"""The optional time limit on defense prompts: with `defense_seconds` set, the defender's banner counts down, and
when the time runs out the table rolls the defense, logged as the time limit's answer in the Soulweaver's name."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import NewGame, open_as
from e2e.test_prompt_banner import _map, _strike, _to_soulweavers_turn

SECONDS = 12
pytestmark = pytest.mark.usefixtures("table_timeouts")


def test_a_defense_prompt_counts_down_and_the_time_limit_rolls_it(
    browser: Browser, tmp_path: Path, new_game: NewGame
) -> None:
    settings = {"reactions": False, "defense_prompts": "players", "defense_seconds": SECONDS}
    path, _ = _map(tmp_path, settings, hidden=False)
    with new_game(path, seed=3) as server:
        gm = open_as(browser, server, "as=soulweaver")
        alice = open_as(browser, server, "as=player&name=alice")
        _to_soulweavers_turn(gm)
        _strike(gm)

        banner = alice.locator('.prompt-banner[data-mine="yes"]')
        expect(banner).to_contain_text("Elude")
        expect(banner.locator('[data-answer="roll"]')).to_be_visible()
        seconds = banner.locator(".prompt-seconds")
        expect(seconds).to_be_visible()
        first = int(seconds.get_attribute("data-seconds") or 0)
        assert 0 < first <= SECONDS
        alice.wait_for_function(
            f"Number(document.querySelector('.prompt-banner .prompt-seconds')?.dataset.seconds) < {first}"
        )
        expect(gm.locator('.prompt-banner[data-mine="no"]')).to_contain_text(" s)")
        alice.set_viewport_size({"width": 390, "height": 844})
        expect(banner).to_be_in_viewport()

        expect(alice.locator(".prompt-banner")).to_have_count(0, timeout=(SECONDS + 20) * 1000)
        answered = gm.locator(".log-entry").first
        expect(answered).to_contain_text("the time limit (in the Soulweaver's name)")
        expect(answered).to_contain_text("Ayla: Elude defense")
