"""Two `vtt` processes on one PostgreSQL database behind nginx (the project's `deploy/nginx-vtt.conf`).

The Soulweaver's page is pinned to one process and alice's to the other (by nginx's route cookie). The Soulweaver
drags the Orc, Begins, and the Orc Strikes Ayla; alice answers her defense prompt on the other process; the
Soulweaver undoes. Each step shows on both screens. Then the Soulweaver's process is killed (SIGKILL): the page
reconnects through nginx to the other process (its handshake there fails, so it reloads), shows the same game and
plays on (a redo), and the database's log is exactly what both screens acknowledged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import LOAD_TIMEOUT, AppServer, stop_checked, user_context
from e2e.helpers import anchor_selector, cell_xy, choose_action, drag, token_xy
from e2e.nginx_proxy import ROUTE_COOKIE, NginxProxy, nginx_binary
from e2e.pg_server import PostgresDatabases
from vtt.store import db

pytestmark = [
    pytest.mark.usefixtures("table_timeouts"),
    pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed here (.ci/run installs it)"),
]

MAP: dict[str, Any] = {
    "version": 1,
    "name": "Two processes",
    "description": "Ayla (alice) and the Soulweaver's Orc.",
    "settings": {"reactions": False},
    "board": {"cols": 10, "rows": 8, "walls": [], "objects": []},
    "weapons": [{"id": "sword", "name": "Sword", "damage": 3}],
    "creatures": [
        {
            "id": "ayla",
            "name": "Ayla",
            "size": 0,
            "anchor": [2, 4],
            "controller": "alice",
            "skills": {"Martial": 3, "Elude": 2, "Athletics": 2},
            "weapons": ["sword"],
            "grip": {"right_arm": "sword"},
        },
        {
            "id": "orc",
            "name": "Orc",
            "size": 0,
            "anchor": [7, 4],
            "skills": {"Martial": 2, "Elude": 1, "Athletics": 2},
            "weapons": ["sword"],
            "grip": {"right_arm": "sword"},
        },
    ],
    "commands": [],
}
BESIDE_AYLA = (3, 4)


def _server(map_path: Path, url: str, seed: int) -> AppServer:
    args = ["--map", str(map_path), "--database", url, "--seed", str(seed)]
    return AppServer(module="vtt.cli", args=args, env={"VTT_STORAGE_SECRET": "two-processes"})


def _open(browser: Browser, proxy: NginxProxy, route: str, path: str) -> Page:
    context = user_context(browser, viewport={"width": 1280, "height": 800})
    context.add_cookies([{"name": ROUTE_COOKIE, "value": route, "url": proxy.url}])
    page = context.new_page()
    page.goto(proxy.url + path, timeout=LOAD_TIMEOUT)
    page.wait_for_selector("[data-token-id]", timeout=LOAD_TIMEOUT)
    return page


def _newest(page: Page) -> Any:
    return page.locator(".roll-log .log-entry").first


def _everywhere(pages: tuple[Page, ...], text: str | re.Pattern[str]) -> None:
    for page in pages:
        expect(_newest(page)).to_contain_text(text)


def _seqs(page: Page) -> list[int]:
    return sorted(
        int(s)
        for s in page.locator(".roll-log .log-entry[data-seq]").evaluate_all("els => els.map(e => e.dataset.seq)")
    )


def test_two_processes_behind_nginx_play_one_game(browser: Browser, tmp_path: Path, postgres: str) -> None:
    databases = PostgresDatabases(postgres)
    url = databases.new()
    map_path = tmp_path / "two.json"
    map_path.write_text(json.dumps(MAP))
    first, second = _server(map_path, url, 3), _server(map_path, url, 4)
    first.start()
    try:
        second.start()
        try:
            with NginxProxy([first.port, second.port]) as proxy:
                gm = _open(browser, proxy, proxy.route_to(first.port), first.seat("soulweaver"))
                alice = _open(browser, proxy, proxy.route_to(second.port), second.seat("alice"))
                both = (gm, alice)

                # a drag on the first process shows on the second
                drag(gm, token_xy(gm, "orc"), cell_xy(gm, BESIDE_AYLA))
                for page in both:
                    page.wait_for_selector(anchor_selector("orc", BESIDE_AYLA))

                # Begin; whoever the dice put first, the Soulweaver's turn comes
                gm.get_by_role("button", name="Begin: roll Priority").click()
                _everywhere(both, "Priority:")
                expect(alice.locator(".turn-panel")).to_contain_text("Round 1")  # the panel follows the log entry
                if "▶ Ayla" in (alice.locator(".turn-panel").text_content() or ""):
                    alice.locator(".turn-panel").get_by_role("button", name="End turn").click()
                _everywhere(both, "the Soulweaver's turn")

                # the Orc Strikes Ayla on the first process; alice defends from her banner on the second
                gm.locator('[data-token-id="orc"] .vtt-body').click()
                choose_action(gm, "strike", "Strike with Sword")
                gm.locator('[data-token-id="ayla"] .vtt-body').click()
                defense = alice.locator('.prompt-banner[data-mine="yes"]')
                expect(defense).to_contain_text("Elude")
                defense.locator('[data-answer="roll"]').click()
                expect(defense).to_have_count(0)
                _everywhere(both, re.compile(r"Orc[^.]*Ayla"))

                # the Soulweaver's undo takes the Strike back on both screens
                gm.keyboard.press("Control+z")
                _everywhere(both, "The Soulweaver takes back:")
                assert _seqs(gm) == _seqs(alice)

                # the first process dies: the Soulweaver's page comes back through nginx from the second
                assert first.process is not None
                gm.evaluate("window.servedBeforeTheKill = true")
                first.process.kill()
                first.process.wait(timeout=10)
                gm.wait_for_function("!window.servedBeforeTheKill", timeout=LOAD_TIMEOUT)  # it reloaded
                gm.wait_for_selector("[data-token-id]", timeout=LOAD_TIMEOUT)
                expect(gm.locator(".roll-log")).to_contain_text("The Soulweaver takes back:")
                expect(gm.locator(anchor_selector("orc", BESIDE_AYLA))).to_have_count(1)
                gm.keyboard.press("Control+Shift+z")  # served by the second process now, seen on both screens
                _everywhere(both, "The Soulweaver plays again:")
                stored = [r["seq"] for r in db.load_log(db.open_engine(url), 1)]
                assert _seqs(gm) == _seqs(alice) == stored
        finally:
            stop_checked(second)
    finally:
        first.stop()
        databases.drop_all()
