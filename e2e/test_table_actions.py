"""Actions that need a choice after the target (seed-000 Impair: "your choice of Blinded, Dazzled, Deafened, Muted,
Slowed, or Unstable"): the menu asks in a dialog with only the values the rules allow, and both users see the
same log entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import ROOT, NewGame, open_as
from e2e.helpers import choose_action

ARENA = ROOT / "e2e" / "maps" / "arena.json"
pytestmark = pytest.mark.usefixtures("table_timeouts")


def test_impair_from_the_menu_asks_for_the_ailment_and_logs_it_for_everyone(
    browser: Browser, tmp_path: Path, new_game: NewGame
) -> None:
    """seed-000 Impair: "Attack target creature with a melee weapon to cause Tier 1 of your choice of Blinded,
    Dazzled, Deafened, Muted, Slowed, or Unstable, DL 3." """
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = {**data.get("settings", {}), "reactions": False}
    path = tmp_path / "arena.json"
    path.write_text(json.dumps(data))
    with new_game(path, seed=17) as server:
        gm = open_as(browser, server, "as=soulweaver")
        alice = open_as(browser, server, "as=player&name=alice")
        gm.get_by_role("button", name="Begin: roll Priority").click()
        expect(alice.locator(".turn-panel")).to_contain_text("▶ Ayla")
        alice.locator('[data-token-id="ayla"] .vtt-body').click()
        choose_action(alice, "impair")
        alice.locator('[data-token-id="orc"] .vtt-body').click()
        dialog = alice.locator(".choice-dialog")
        expect(dialog).to_contain_text("Orc")
        dialog.locator("[data-choose=ailment]").click()
        options = alice.locator(".q-menu .q-item")
        expect(options).to_have_count(6)
        expect(options.nth(1)).to_have_text("Dazzled")
        options.nth(1).click()
        dialog.locator("[data-go]").click()
        for page in (gm, alice):
            expect(page.locator(".log-entry").first).to_contain_text("Impair")
        texts = [p.locator(".log-entry").first.inner_text() for p in (gm, alice)]
        assert texts[0] == texts[1]
        assert ("Dazzled" in texts[0]) or ("fails" in texts[0])
