"""End-to-end tests of the table page (`vtt.cli` on e2e/maps/arena.json) with two users in two browser contexts:
the Soulweaver and the player alice, who controls Ayla.

The server's dice are seeded; the tests assert on the structure of the log and on both users seeing the same
thing, never on a particular roll.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from e2e.conftest import LOAD_TIMEOUT, ROOT, AppServer, NewGame, TableGame, open_as, running, wait_ready
from e2e.helpers import Cell, anchor_selector, cell_xy, choose_action, drag, menu_entry, token_xy
from vtt.rules import RandomDice, apply, legal_actions
from vtt.rules.scenario import load_scenario

ARENA = ROOT / "e2e" / "maps" / "arena.json"

# Arena positions (axial q, r), see e2e/maps/arena.json.
AYLA = (4, 5)
ORC = (5, 5)
RATS = (4, 6)  # Rat A and Rat B (size -1) share this space
OGRE = (10, 6)
AYLA_STEP = (4, 4)  # one space north-west of Ayla, empty
WALL_IN_REACH = (7, 6)  # a wall 4 spaces from Ayla, inside her Movement Pool of 5
OGRE_PLACE = (11, 6)  # one space east of the Ogre; its whole footprint (size 2: 7 hexes) stays on the map

pytestmark = pytest.mark.usefixtures("table_timeouts")


def economy(major: int, minor: int, movement_left: int) -> str:
    """Ayla's line in the turn panel (her Movement Pool is the table's default of 5)."""
    return f"Ayla: Major {major} · Minor {minor} · Movement {movement_left}/5 left"


@dataclass
class Users:
    server: AppServer | TableGame
    arena: Path  # the map file the game started from
    soulweaver: Page
    alice: Page

    @property
    def both(self) -> tuple[Page, Page]:
        return self.soulweaver, self.alice


NO_REACTIONS: dict[str, Any] = {"reactions": False}
REACTIONS_WAIT: dict[str, Any] = {"reactions": True, "reaction_seconds": 600}  # nothing times out in a test


@pytest.fixture
def settings() -> dict[str, Any]:
    """Table settings laid over the arena's. Reactions (Hinder Attack, Hinder Movement) are off by default, so
    that each test shows one feature: with them on, nearly every move or attack in the arena waits for the
    Soulweaver to answer the Orc's and the rats' reactions. A test changes this with
    ``@pytest.mark.parametrize("settings", [...])``."""
    return NO_REACTIONS


@pytest.fixture
def arena(tmp_path: Path, settings: dict[str, Any]) -> Path:
    """A copy of the arena map with ``settings``."""
    data = json.loads(ARENA.read_text())
    data["settings"] = {**data.get("settings", {}), **settings}
    copy = tmp_path / "arena.json"
    copy.write_text(json.dumps(data))
    return copy


@pytest.fixture
def own_server() -> bool:
    """Whether the test needs a table server of its own, which it may stop and start again: a test says so with
    ``@pytest.mark.parametrize("own_server", [True], ids=["own server"])``."""
    return False


@pytest.fixture
def table_server(
    request: pytest.FixtureRequest, tmp_path: Path, arena: Path, own_server: bool
) -> Iterator[AppServer | TableGame]:
    """A fresh game on the arena map: on the session's table server, or on a server of its own with its own SQLite
    file."""
    if not own_server:
        new_game: NewGame = request.getfixturevalue("new_game")
        yield new_game(arena, seed=13)
        return
    args = ["--map", str(arena), "--database", f"sqlite:///{tmp_path}/game.sqlite", "--seed", "13"]
    with running(AppServer(module="vtt.cli", args=args)) as server:
        yield server


@pytest.fixture
def users(browser: Browser, table_server: AppServer | TableGame, arena: Path) -> Iterator[Users]:
    """The Soulweaver and alice, each in a separate browser context, on the table page; closed before the
    server stops."""
    soulweaver = open_as(browser, table_server, "as=soulweaver", '[data-token-id="ogre"]')
    alice = open_as(browser, table_server, "as=player&name=alice", '[data-token-id="ogre"]')
    yield Users(table_server, arena, soulweaver, alice)
    for page in (soulweaver, alice):
        page.context.close()


# ---- helpers -------------------------------------------------------------------------------------------------


def positions(page: Page) -> dict[str, Cell]:
    found: list[list[object]] = page.evaluate(
        """() => [...document.querySelectorAll('svg.vtt-svg [data-token-id]')]
        .map((el) => [el.dataset.tokenId, Number(el.dataset.q), Number(el.dataset.r)])"""
    )
    return {str(i): (int(str(q)), int(str(r))) for i, q, r in found}


def log_entry(page: Page, seq: int) -> Locator:
    return page.locator(f'.log-entry[data-seq="{seq}"]')


def newest_entry(page: Page) -> Locator:
    """The newest log card: the log shows the newest first."""
    return page.locator(".roll-log .log-entry").first


def dice_faces(entry: Locator) -> list[str]:
    return entry.locator(".die").all_inner_texts()


def wait_for_entry(users: Users, seq: int) -> None:
    """Both users' logs show entry ``seq``, and it is the newest."""
    for page in users.both:
        expect(log_entry(page, seq)).to_be_visible()
        expect(newest_entry(page)).to_have_attribute("data-seq", str(seq))


def assert_same_entry(users: Users, seq: int) -> str:
    """Entry ``seq`` has the same text and the same dice faces on both pages; returns its text."""
    sw, alice = (log_entry(page, seq) for page in users.both)
    assert dice_faces(sw) == dice_faces(alice)
    text = sw.inner_text()
    assert text == alice.inner_text()
    return text


def begin(users: Users) -> None:
    """The Soulweaver rolls Priority; Ayla (the only creature with a player) gets the first turn."""
    users.soulweaver.get_by_role("button", name="Begin: roll Priority").click()
    for page in users.both:
        panel = page.locator(".turn-panel")
        expect(panel.get_by_text("Round 1", exact=True)).to_be_visible()
        expect(panel.get_by_text(re.compile(r"^▶ Ayla · Priority \d+$"))).to_be_visible()
        expect(panel.locator(".economy")).to_have_text(economy(1, 2, 5))
    wait_for_entry(users, 1)
    # the turn makes Ayla draggable for alice (a patch that follows the command)
    expect(users.alice.locator('[data-token-id="ayla"]')).to_have_class(re.compile(r"\bvtt-draggable\b"))


def open_menu(page: Page, token_id: str, name: str) -> Locator:
    """Click a token and wait for its menu (titled with the creature's name)."""
    page.mouse.click(*token_xy(page, token_id))
    menu = page.locator(".q-menu")
    expect(menu.locator(".menu-title")).to_have_text(name)
    return menu


def pick(page: Page, menu: Locator, action: str, label: str) -> None:
    """Click a menu item by its rules action and label (opening its kind's list of weapons or limbs when it is
    one of several), and wait until the menu has closed."""
    expect(menu_entry(page, action, label)).to_have_count(1)
    choose_action(page, action, label)
    expect(page.locator(".q-menu")).to_have_count(0)


def expected_menu(arena: Path, *commands: dict[str, Any]) -> list[tuple[str, str]]:
    """Ayla's actions at the start of her first turn (after ``commands``), straight from the rules (Priority
    does not matter)."""
    state = load_scenario(json.loads(arena.read_text())).state
    for command in ({"type": "begin"}, *commands):
        state, _ = apply(state, command, RandomDice())
    return sorted((a.action, a.label) for a in legal_actions(state, "ayla"))


def menu_items(menu: Locator) -> list[tuple[str, str]]:
    """Every entry of the menu, with the variants in the (closed) lists of the kinds made with several weapons."""
    items = menu.locator(".menu-action")
    return sorted(
        (item.get_attribute("data-action") or "", item.get_attribute("data-label") or "") for item in items.all()
    )


def strike_orc(users: Users, seq: int) -> str:
    """alice strikes the Orc with her Sword through the token menu; returns the log entry's text."""
    alice = users.alice
    menu = open_menu(alice, "ayla", "Ayla")
    pick(alice, menu, "strike", "Strike with Sword")
    orc_target = alice.locator(f'[data-highlight-kind="target"][data-q="{ORC[0]}"][data-r="{ORC[1]}"]')
    expect(orc_target).to_have_count(1)
    alice.mouse.click(*token_xy(alice, "orc"))
    wait_for_entry(users, seq)
    expect(alice.locator("[data-highlight-kind]")).to_have_count(0)
    return assert_same_entry(users, seq)


# ---- tests ---------------------------------------------------------------------------------------------------


def test_begin_and_drag_is_broadcast(users: Users) -> None:
    sw, alice = users.both
    expect(sw.locator(".turn-panel")).to_contain_text("The fight has not begun.")
    expect(alice.get_by_role("button", name="Begin: roll Priority")).to_have_count(0)  # the Soulweaver's only
    # before the fight alice may set her own Ayla down (table setting players_place_before_fight), not the Orc
    expect(alice.locator('[data-token-id="ayla"]')).to_have_class(re.compile(r"\bvtt-draggable\b"))
    assert "vtt-draggable" not in (alice.locator('[data-token-id="orc"]').get_attribute("class") or "")
    begin(users)
    text = assert_same_entry(users, 1)
    assert "Ayla rolls Zeal for Priority" in text and "Round 1: Ayla's turn." in text
    assert len(dice_faces(log_entry(sw, 1))) == 2  # Zeal 2
    for page in users.both:
        expect(page.locator('[data-token-id="ayla"]')).to_have_attribute("data-active", "true")
    drag(alice, token_xy(alice, "ayla"), cell_xy(alice, AYLA_STEP))
    sw.wait_for_selector(anchor_selector("ayla", AYLA_STEP))
    alice.wait_for_selector(anchor_selector("ayla", AYLA_STEP))
    wait_for_entry(users, 2)
    assert "move" in assert_same_entry(users, 2)
    for page in users.both:
        expect(page.locator(".turn-panel .economy")).to_have_text(economy(1, 2, 4))
    assert positions(sw) == positions(alice)


def test_illegal_drop_snaps_back_on_both_pages(users: Users) -> None:
    sw, alice = users.both
    begin(users)
    record = """(id) => { window.seen = [];
        const el = document.querySelector(`[data-token-id="${id}"]`);
        new MutationObserver(() => window.seen.push(el.dataset.q + ',' + el.dataset.r))
          .observe(el, { attributes: true, attributeFilter: ['data-q', 'data-r'] }); }"""
    alice.evaluate(record, "ayla")
    drag(alice, token_xy(alice, "ayla"), cell_xy(alice, WALL_IN_REACH))
    expect(alice.get_by_text("Move rejected")).to_be_visible()
    for page in users.both:
        page.wait_for_selector(anchor_selector("ayla", AYLA))
    # alice's page moved the token onto the wall optimistically, then back
    wall, home = ",".join(map(str, WALL_IN_REACH)), ",".join(map(str, AYLA))
    alice.wait_for_function(f"JSON.stringify(window.seen) === JSON.stringify({json.dumps([wall, home])})")
    expect(sw.get_by_text("Move rejected")).to_have_count(0)  # the notification is for the dragger only
    for page in users.both:
        expect(page.locator(".log-entry")).to_have_count(1)  # a rejected move is not logged
        expect(page.locator(".turn-panel .economy")).to_have_text(economy(1, 2, 5))
    expect(alice.get_by_text("Move rejected")).to_have_count(0)  # the notification times out

    # the Orc is not alice's: dragging it does nothing, on either page
    assert "vtt-draggable" not in (alice.locator('[data-token-id="orc"]').get_attribute("class") or "")
    for page in users.both:
        page.evaluate(record, "orc")
    drag(alice, token_xy(alice, "orc"), cell_xy(alice, (ORC[0] + 1, ORC[1] - 1)))
    # the dragger is told why (the server's answer: whatever the drop changed has reached the pages by then)
    expect(alice.get_by_text("Move rejected: you can only drag your own creature, on its turn")).to_be_visible()
    for page in users.both:
        assert page.evaluate("window.seen") == []
        assert page.locator(anchor_selector("orc", ORC)).count() == 1
        assert page.locator(".log-entry").count() == 1
    assert sw.get_by_text("Move rejected").count() == 0  # the Soulweaver is not told
    assert positions(sw) == positions(alice)


def test_strike_from_token_menu(users: Users) -> None:
    sw, alice = users.both
    begin(users)
    menu = open_menu(alice, "ayla", "Ayla")
    assert menu_items(menu) == expected_menu(users.arena)
    for action in ("move", "dash", "strike", "strike_space", "grab", "end_turn"):
        # a single entry, or the row of a kind made with several weapons or limbs
        expect(menu.locator(f'[data-action="{action}"], [data-kind="{action}"]').first).to_be_visible()
    pick(alice, menu, "strike", "Strike with Sword")
    expect(alice.get_by_text("Strike with Sword: choose a target")).to_be_visible()
    orc_cell = f'[data-highlight-kind="target"][data-q="{ORC[0]}"][data-r="{ORC[1]}"]'
    expect(alice.locator(orc_cell)).to_have_count(1)
    expect(alice.locator('[data-highlight-kind="reach"]').first).to_be_attached()
    assert sw.locator("[data-highlight-kind]").count() == 0  # highlights are per view
    alice.mouse.click(*token_xy(alice, "orc"))
    wait_for_entry(users, 2)
    newest = [newest_entry(page) for page in users.both]
    faces = [dice_faces(entry) for entry in newest]
    assert faces[0], "the Strike rolled no dice"
    assert faces[0] == faces[1]
    for entry in newest:
        expect(entry).to_contain_text("Strike")
        expect(entry).to_contain_text("Ayla: Strike on Orc with Sword")
    assert newest[0].inner_text() == newest[1].inner_text()
    # a damage roll counts faces: it comes to the Injury its event names, not to its highest face
    damage = newest[0].locator(".log-text").filter(has_text=re.compile(r"^Damage \d+d12"))
    if damage.count():  # the Strike hit (random)
        injury = re.search(r": (\d+) Injury to Orc", damage.inner_text())
        assert injury, damage.inner_text()
        expect(damage.locator("xpath=following-sibling::*[1]")).to_contain_text(f"= {injury.group(1)} Injury")
    expect(alice.locator("[data-highlight-kind]")).to_have_count(0)
    for page in users.both:
        expect(page.locator(".turn-panel .economy")).to_contain_text("Major 0")
    # the menu opens again on the same token (the same point: the menu's anchor sits there now), without the
    # Major Actions that are spent
    menu = open_menu(alice, "ayla", "Ayla")
    expect(menu.locator('[data-action="end_turn"]')).to_be_visible()
    expect(menu.locator('[data-action="strike"]')).to_have_count(0)
    alice.keyboard.press("Escape")
    expect(alice.locator(".q-menu")).to_have_count(0)


def test_strike_a_space_with_two_occupants(users: Users) -> None:
    alice = users.alice
    begin(users)
    menu = open_menu(alice, "ayla", "Ayla")
    pick(alice, menu, "strike_space", "Strike a space (Sword)")
    rats = f'[data-highlight-kind="space"][data-q="{RATS[0]}"][data-r="{RATS[1]}"]'
    expect(alice.locator(rats)).to_have_count(1)
    alice.mouse.click(*cell_xy(alice, RATS))  # lands on whichever rat is drawn on top: the space is the same
    wait_for_entry(users, 2)
    assert_same_entry(users, 2)
    for page in users.both:
        entry = log_entry(page, 2)
        expect(entry).to_contain_text(re.compile(rf"Ayla attacks the space \W{RATS[0]}, {RATS[1]}\W with Sword"))
        for rat in ("Rat A", "Rat B"):
            # exactly one space roll per occupant: its event text, directly followed by its roll
            said = entry.locator(".log-text").filter(has_text=re.compile(rf"^For {rat}: "))
            expect(said).to_have_count(1)
            space_roll = said.locator("xpath=following-sibling::*[1]")
            expect(space_roll).to_have_class(re.compile(r"\broll\b"))
            label = f"Soulweaver's roll for {rat} in the space"
            expect(space_roll).to_contain_text(label)
            # on doubles the same roll is the attack roll and is shown again with the attack: the same dice
            faces = dice_faces(space_roll)
            assert len(faces) == 3, faces
            shown = entry.locator(".roll").filter(has_text=label)
            assert all(dice_faces(roll) == faces for roll in shown.all())
            attacked = "this roll is the attack" in said.inner_text()
            assert shown.count() in ((1, 2) if attacked else (1,)), (rat, shown.count())


def test_collision_by_dragging_onto_the_orc(users: Users) -> None:
    sw, alice = users.both
    begin(users)
    drag(alice, token_xy(alice, "ayla"), cell_xy(alice, ORC))
    dialog = alice.locator(".collision-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Ayla moves into an occupied space.")
    collide = dialog.get_by_role("button", name="Collide with Orc")
    expect(collide).to_be_visible()
    expect(dialog.get_by_role("button", name="Cancel")).to_be_visible()
    expect(sw.locator(".collision-dialog")).to_have_count(0)  # the question is for the dragger only
    collide.click()
    expect(dialog).to_have_count(0)
    wait_for_entry(users, 2)
    text = assert_same_entry(users, 2)
    assert "collide" in text.lower()
    for page in users.both:
        expect(log_entry(page, 2)).to_contain_text("Ayla fills its Movement Pool to collide with Orc.")
        expect(page.locator(".turn-panel .economy")).to_contain_text("Movement 0/5 left")
    assert positions(sw) == positions(alice)


def test_reload_keeps_map_and_log(users: Users) -> None:
    sw, alice = users.both
    begin(users)
    # the Soulweaver places the Ogre (not its turn: a free placement), so a position differs from the map file
    expect(sw.locator(anchor_selector("ogre", OGRE))).to_have_count(1)
    drag(sw, cell_xy(sw, OGRE), cell_xy(sw, OGRE_PLACE))  # anchor to space: its body's middle lies between spaces
    for page in users.both:
        page.wait_for_selector(anchor_selector("ogre", OGRE_PLACE))
    wait_for_entry(users, 2)
    strike_orc(users, 3)
    before = {page: (positions(page), newest_entry(page).inner_text()) for page in users.both}
    assert before[sw] == before[alice]
    assert before[sw][0]["ogre"] == OGRE_PLACE
    for page in users.both:
        page.reload(timeout=LOAD_TIMEOUT)
        wait_ready(page, timeout=LOAD_TIMEOUT)
        page.wait_for_selector('[data-token-id="ogre"]')
        expect(newest_entry(page)).to_have_attribute("data-seq", "3")
        expect(page.locator(".log-entry")).to_have_count(3)
        assert positions(page) == before[page][0]
        assert newest_entry(page).inner_text() == before[page][1]
        expect(page.locator(".turn-panel")).to_contain_text("Round 1")


@pytest.mark.parametrize("own_server", [True], ids=["own server"])
def test_server_restart_rebuilds_the_game(users: Users) -> None:
    sw, alice = users.both
    begin(users)
    strike_orc(users, 2)
    drag(alice, token_xy(alice, "ayla"), cell_xy(alice, AYLA_STEP))
    for page in users.both:
        page.wait_for_selector(anchor_selector("ayla", AYLA_STEP))
    wait_for_entry(users, 3)
    expect(sw.locator(".turn-panel .economy")).to_have_text(economy(0, 2, 4))
    before = (positions(sw), sw.locator(".roll-log").inner_text(), sw.locator(".turn-panel").inner_text())
    assert before[0]["ayla"] == AYLA_STEP
    # the same database, a new process: the game is rebuilt from the stored start and command log
    server = users.server
    assert isinstance(server, AppServer)
    old_url = server.url
    server.stop()
    assert "Traceback" not in server.output(), server.output()
    server.start()
    for page in users.both:
        page.goto(page.url.replace(old_url, server.url), timeout=LOAD_TIMEOUT)
        wait_ready(page, timeout=LOAD_TIMEOUT)
        page.wait_for_selector('[data-token-id="ogre"]')
        expect(page.locator(".log-entry")).to_have_count(3)
        expect(page.locator(".turn-panel .economy")).to_have_text(economy(0, 2, 4))
        assert positions(page) == before[0]
        assert page.locator(".roll-log").inner_text() == before[1]
    assert sw.locator(".turn-panel").inner_text() == before[2]
    # and the game goes on: it is still Ayla's turn, and alice can still move her
    expect(alice.locator('[data-token-id="ayla"]')).to_have_class(re.compile(r"\bvtt-draggable\b"))
    drag(alice, token_xy(alice, "ayla"), cell_xy(alice, AYLA))
    for page in users.both:
        page.wait_for_selector(anchor_selector("ayla", AYLA))
    wait_for_entry(users, 4)


def test_full_resolve_pool_offers_only_recovery_and_zeal(users: Users) -> None:
    sw, alice = users.both
    begin(users)
    # the Soulweaver selects Ayla and fills her Resolve Pool from the sheet, one Pip at a time
    open_menu(sw, "ayla", "Ayla")
    sw.keyboard.press("Escape")
    expect(sw.locator(".q-menu")).to_have_count(0)
    row = sw.locator('.sheet .pool-row[data-pool="resolve"]')
    pool = row.locator(".pool-text")
    plus = row.get_by_role("button", name="+")
    left, top = (int(n) for n in re.findall(r"\d+", pool.inner_text()))
    assert top > 0
    seq = 1
    for pip in range(top - left + 1, top + 1):
        plus.click()
        seq += 1
        expect(pool).to_have_text(f"Resolve: {top - pip} of {top} left")
        wait_for_entry(users, seq)
    full = {"type": "edit_creature", "creature": "ayla", "changes": {"resolve": {"max": top, "pips": top}}}
    expected = expected_menu(users.arena, full)
    assert ("recover", "Recovery") in expected and "strike" not in {action for action, _ in expected}
    menu = open_menu(alice, "ayla", "Ayla")
    assert menu_items(menu) == expected
    for action in ("recover", "zeal_for_major"):
        expect(menu.locator(f'[data-action="{action}"]')).not_to_have_class(re.compile(r"\bdisabled\b"))
    # the Zeal roll is sent at once (no target to choose) and rolls the same dice for everyone
    pick(alice, menu, "zeal_for_major", "Zeal roll to act (DL 12)")
    seq += 1
    wait_for_entry(users, seq)
    text = assert_same_entry(users, seq)
    assert "rolls Zeal (DL 12) on a full Resolve Pool" in text
    assert len(dice_faces(log_entry(sw, seq))) == 2  # Zeal 2
    expect(alice.locator("[data-highlight-kind]")).to_have_count(0)
    menu = open_menu(alice, "ayla", "Ayla")
    pick(alice, menu, "recover", "Recovery")
    seq += 1
    wait_for_entry(users, seq)
    assert "Ayla uses Recovery" in assert_same_entry(users, seq)
    for page in users.both:
        expect(page.locator(".turn-panel .economy")).to_have_text(economy(0, 1, 5))


@pytest.mark.parametrize("settings", [REACTIONS_WAIT])
def test_reactions_wait_for_the_soulweaver(users: Users) -> None:
    sw, alice = users.both
    begin(users)
    drag(alice, token_xy(alice, "ayla"), cell_xy(alice, AYLA_STEP))
    wait_for_entry(users, 2)
    for page in users.both:
        expect(log_entry(page, 2)).to_contain_text("Ayla is about to move: Orc, Rat A, Rat B may Hinder Movement.")
        # the move waits: Ayla stays where she is on both pages (alice's optimistic drop is undone)
        page.wait_for_selector(anchor_selector("ayla", AYLA))
        expect(page.locator('[data-decision-kind="reaction"]')).to_have_count(3)
    # one reaction per creature, all the Soulweaver's to answer; alice only sees that the table waits
    expect(
        alice.locator('[data-decision-kind="reaction"]').filter(has_text="The table waits for the Soulweaver: ")
    ).to_have_count(3)
    expect(alice.locator("[data-react]")).to_have_count(0)
    menu = open_menu(alice, "ayla", "Ayla")
    expect(menu).to_contain_text("No actions: the table waits for a decision.")
    alice.keyboard.press("Escape")
    expect(alice.locator(".q-menu")).to_have_count(0)
    # the Orc hinders, the rats let it pass; the last answer resolves the move
    for seq, (name, answer) in enumerate((("Orc", "hinder"), ("Rat A", "pass"), ("Rat B", "pass")), start=3):
        card = sw.locator('[data-decision-kind="reaction"]').filter(has_text=f"within {name}'s Reach")
        card.locator(f'[data-react="{answer}"]').click()
        wait_for_entry(users, seq)
        expect(sw.locator('[data-decision-kind="reaction"]')).to_have_count(5 - seq)
    text = assert_same_entry(users, 5)
    assert re.search(r"Orc rolls \d+ \(DL 3\) against Ayla's \w+ \d+: the Hinder Movement (succeeds|fails)\.", text), (
        text
    )
    assert len(dice_faces(log_entry(sw, 5))) >= 2  # the Orc's Hinder roll and Ayla's defense
    prevented = "prevents Ayla's movement" in text
    assert prevented or "Ayla moves 1 space" in text, text
    for page in users.both:
        page.wait_for_selector(anchor_selector("ayla", AYLA if prevented else AYLA_STEP))
        expect(page.locator(".decision")).to_have_count(0)
    assert positions(sw) == positions(alice)


@pytest.mark.parametrize("settings", [{"reactions": True, "reaction_seconds": 2, "reaction_timeout": "pass"}])
def test_unanswered_reactions_time_out(users: Users) -> None:
    sw, alice = users.both
    begin(users)
    drag(alice, token_xy(alice, "ayla"), cell_xy(alice, AYLA_STEP))
    wait_for_entry(users, 2)
    expect(sw.locator('[data-decision-kind="reaction"]')).to_have_count(3)
    # nobody answers: after 2 s the table lets each reaction pass, in the Soulweaver's name
    wait_for_entry(users, 5)
    text = assert_same_entry(users, 5)
    assert "Ayla moves 1 space" in text, text
    for page in users.both:
        page.wait_for_selector(anchor_selector("ayla", AYLA_STEP))
        expect(page.locator(".decision")).to_have_count(0)
        for seq in (3, 4, 5):
            expect(log_entry(page, seq)).to_contain_text("does not react.")
