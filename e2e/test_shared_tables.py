"""Shared tables in two browsers: the Soulweaver creates a game on the start page, a player joins by the
invitation and is given a creature, cannot move another one, takes a turn; the Soulweaver undoes it and both
screens agree. A hidden creature is absent from the player's page source."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import LOAD_TIMEOUT, AppServer, open_page, running, wait_ready
from e2e.helpers import anchor_selector, cell_xy, demo_without_fog, drag, end_turn, token_xy

AYLA, AYLA_STEP = (5, 14), (5, 13)
pytestmark = pytest.mark.usefixtures("table_timeouts")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[AppServer]:
    args = [
        "--map",
        str(demo_without_fog(tmp_path / "maps")),
        "--database",
        f"sqlite:///{tmp_path}/game.sqlite",
        "--seed",
        "5",
    ]
    with running(AppServer(module="vtt.cli", args=args, env={"VTT_MAPS": str(tmp_path / "maps")})) as server:
        yield server


def _create_game(browser: Browser, server: AppServer) -> Page:
    gm = open_page(browser, server.url + "/")
    expect(gm.locator(".game-row")).to_contain_text("The Ruined Hall")  # the start-up game is listed
    gm.locator("input[data-field=game-name]").fill("Friday Night")
    gm.locator("input[data-field=your-name]").fill("Mira")
    gm.locator("[data-action=create-game]").click()
    gm.wait_for_url("**/play/**", timeout=LOAD_TIMEOUT)
    wait_ready(gm, timeout=LOAD_TIMEOUT)
    gm.wait_for_selector('[data-token-id="ayla"]')
    expect(gm.locator("header")).to_contain_text("you are the Soulweaver")
    return gm


def _invitation(gm: Page) -> str:
    gm.locator(".invitations").get_by_text("Invite players").click()
    link = gm.locator(".invitation-link").first
    expect(link).to_contain_text("/join/")
    return link.inner_text().strip()


def _join(browser: Browser, server: AppServer, invitation: str, name: str) -> Page:
    path = invitation[invitation.index("/join/") :]
    player = open_page(browser, server.url + path)
    player.locator("input[data-field=display-name]").fill(name)
    player.locator("[data-action=join]").click()
    player.wait_for_url("**/play/**", timeout=LOAD_TIMEOUT)
    wait_ready(player, timeout=LOAD_TIMEOUT)
    player.wait_for_selector('[data-token-id="ayla"]')
    return player


def _select(gm: Page, token: str) -> None:
    gm.locator(f'[data-token-id="{token}"] .vtt-body').click()
    gm.keyboard.press("Escape")  # close the token menu; the sheet stays


def _assign(gm: Page, token: str, player: str) -> None:
    _select(gm, token)
    gm.locator(".sheet [data-field=controller]").click()
    gm.get_by_role("option", name=player, exact=True).click()


def _to_turn_of(gm: Page, name: str) -> None:
    for _ in range(12):
        panel = gm.locator(".turn-panel")
        expect(panel).to_contain_text("Round")
        if f"▶ {name}" in panel.inner_text():
            return
        end_turn(gm)
    raise AssertionError(f"never {name}'s turn")


def test_create_join_assign_refuse_play_and_undo(browser: Browser, server: AppServer) -> None:
    gm = _create_game(browser, server)
    sam = _join(browser, server, _invitation(gm), "Sam")
    expect(sam.locator("header")).to_contain_text("you are Sam")
    expect(gm.locator(".gm-panel .seats")).to_contain_text("Sam")

    _assign(gm, "ayla", "Sam")
    expect(gm.locator(".roll-log")).to_contain_text("The Soulweaver edits Ayla: controller.")
    gm.get_by_role("button", name="Begin: roll Priority").click()
    _to_turn_of(gm, "Ayla")
    expect(sam.locator(".turn-panel")).to_contain_text("▶ Ayla")

    # another creature is not Sam's to move: the drop is refused with the reason, and it stays where it was
    bram = sam.locator('[data-token-id="bram"]')
    before = bram.get_attribute("data-q"), bram.get_attribute("data-r")
    drag(sam, token_xy(sam, "bram"), cell_xy(sam, (4, 13)))
    expect(sam.get_by_text("Move rejected: you can only drag your own creature, on its turn")).to_be_visible()
    assert (bram.get_attribute("data-q"), bram.get_attribute("data-r")) == before

    # Sam's own creature, on its turn: a real Move, seen by both
    drag(sam, token_xy(sam, "ayla"), cell_xy(sam, AYLA_STEP))
    for page in (gm, sam):
        page.wait_for_selector(anchor_selector("ayla", AYLA_STEP))
    move = sam.locator(".log-entry", has_text="move").first
    expect(move).to_be_visible()
    seq = move.get_attribute("data-seq")

    gm.locator("[data-action=undo]").click()
    for page in (gm, sam):
        page.wait_for_selector(anchor_selector("ayla", AYLA))
        expect(page.locator(".roll-log")).to_contain_text("The Soulweaver takes back:")
        expect(page.locator(f'.log-entry[data-seq="{seq}"]')).to_have_class(re.compile(r"\blog-undone\b"))


def test_a_hidden_creature_is_absent_from_the_players_page(browser: Browser, server: AppServer) -> None:
    gm = _create_game(browser, server)
    sam = _join(browser, server, _invitation(gm), "Sam")
    expect(sam.locator('[data-token-id="goblin"]')).to_have_count(1)
    _select(gm, "goblin")
    gm.locator(".sheet [data-field=hidden]").click()
    expect(gm.locator(".roll-log")).to_contain_text("The Soulweaver edits Goblin: hidden.")
    expect(sam.locator('[data-token-id="goblin"]')).to_have_count(0)
    expect(gm.locator('[data-token-id="goblin"]')).to_have_count(1)
    gm.get_by_role("button", name="Begin: roll Priority").click()
    expect(sam.locator(".turn-panel")).to_contain_text("Round 1")
    sam.reload()
    wait_ready(sam, timeout=LOAD_TIMEOUT)
    sam.wait_for_selector('[data-token-id="ayla"]')
    source = sam.content()
    assert "Goblin" not in source and "goblin" not in source
