"""Issue 7's acceptance: the Soulweaver builds an encounter in the browser and it is played.

On an empty map the Soulweaver paints walls and an object with the map editor (one stroke each), places two
creatures from the library, gives one to a player who joined by invitation, begins the fight, and the player Strikes
with it; both screens show the same map and log. And the creature library's form refuses a bad field, naming it next
to the field, stores nothing, then stores the corrected creature, which the map editor then offers.

And maps and games go out and come back in: the map file and the game archive are downloaded from the
Soulweaver's panel; the archive and a Universal VTT file each become a new game from the start page.

The server's dice are seeded; the tests assert on what the pages show, never on a particular roll.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import AppServer, open_page, running, scaled, wait_ready
from e2e.helpers import anchor_selector, cell_xy, choose_action, drag, end_turn, token_xy

pytestmark = pytest.mark.xdist_group("build_encounter")  # one worker: the module's server serves every test here
TIMEOUT = scaled(20_000)
LOAD_TIMEOUT = scaled(40_000)
WALL_FROM, WALL_TO = (3, 3), (8, 3)  # one row: six spaces
ALTAR = [(10, 8), (11, 8)]
SOLDIER, GOBLIN = (6, 6), (7, 6)  # neighbours


@pytest.fixture(autouse=True)
def _timeouts() -> Iterator[None]:
    expect.set_options(timeout=TIMEOUT)
    yield
    expect.set_options(timeout=None)


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """One server for the file's tests (a start costs seconds): each makes games of its own through the start page,
    with users of its own, and every game's dice are seeded alike whatever was played before."""
    args = ["--database", f"sqlite:///{tmp_path_factory.mktemp('encounter')}/game.sqlite", "--seed", "7"]
    with running(AppServer(module="vtt.cli", args=args)) as server:
        yield server


@pytest.fixture
def server(module_server: AppServer) -> Iterator[AppServer]:
    """The file's server; the test fails if the server logged an exception during it."""
    before = module_server.output().count("Traceback")
    yield module_server
    if module_server.output().count("Traceback") > before:
        print(module_server.output())
        pytest.fail("the server logged an exception during the test")


def _page(browser: Browser, url: str) -> Page:
    return open_page(browser, url, timeout=TIMEOUT, load_timeout=LOAD_TIMEOUT)


def _new_empty_game(browser: Browser, server: AppServer) -> Page:
    gm = _page(browser, server.url + "/")
    gm.locator("input[data-field=game-name]").fill("Crypt Ambush")
    gm.locator("[data-field=map]").click()
    gm.get_by_role("option", name="empty.json", exact=True).click()
    gm.locator("input[data-field=your-name]").fill("Mira")
    gm.locator("[data-action=create-game]").click()
    gm.wait_for_url("**/play/**", timeout=LOAD_TIMEOUT)
    wait_ready(gm, timeout=LOAD_TIMEOUT)
    gm.wait_for_selector("svg.vtt-svg")
    expect(gm.locator("[data-token-id]")).to_have_count(0)
    return gm


def _join(browser: Browser, server: AppServer, gm: Page, name: str) -> Page:
    gm.locator(".invitations").get_by_text("Invite players").click()
    link = gm.locator(".invitation-link").first
    expect(link).to_contain_text("/join/")
    invitation = link.inner_text().strip()
    player = _page(browser, server.url + invitation[invitation.index("/join/") :])
    player.locator("input[data-field=display-name]").fill(name)
    player.locator("[data-action=join]").click()
    player.wait_for_url("**/play/**", timeout=LOAD_TIMEOUT)
    wait_ready(player, timeout=LOAD_TIMEOUT)
    player.wait_for_selector("svg.vtt-svg")
    expect(gm.locator(".gm-panel .seats")).to_contain_text(name)
    return player


def _place(gm: Page, entry: str, cell: tuple[int, int]) -> None:
    """Pick a library entry, then click a space: the map editor sends one add_creature."""
    gm.locator("[data-field=library-entry]").click()
    gm.get_by_role("option", name=entry, exact=True).click()
    expect(gm.locator(".library-hint")).to_contain_text(f"Click a space to place a {entry}")
    gm.mouse.click(*cell_xy(gm, cell))


def _to_turn_of(gm: Page, name: str) -> None:
    panel = gm.locator(".turn-panel")
    for _ in range(8):
        expect(panel).to_contain_text("Round")
        if f"▶ {name}" in panel.inner_text():
            return
        end_turn(gm)
    raise AssertionError(f"never {name}'s turn")


def test_the_soulweaver_builds_an_encounter_and_a_player_strikes_in_it(browser: Browser, server: AppServer) -> None:
    gm = _new_empty_game(browser, server)
    sam = _join(browser, server, gm, "Sam")

    # walls: one stroke across six spaces is one edit_board
    gm.locator("[data-action=edit-map]").click()
    gm.locator("[data-tool=wall]").click()
    expect(gm.locator("svg.vtt-svg[data-mode=paint]")).to_have_count(1)
    drag(gm, cell_xy(gm, WALL_FROM), cell_xy(gm, WALL_TO), steps=20)
    for page in (gm, sam):
        expect(page.locator('[data-layer=wall][data-count="6"]')).to_have_count(1)
    expect(gm.locator(".log-entry").first).to_contain_text("The Soulweaver paints 6 spaces of wall.")

    # an object: its name, size and Durability, painted over two spaces
    gm.locator("[data-tool=object]").click()
    gm.locator("input[data-field=object-name]").fill("Altar")
    gm.locator("input[data-field=object-durability]").fill("5")
    drag(gm, cell_xy(gm, ALTAR[0]), cell_xy(gm, ALTAR[1]), steps=10)
    for page in (gm, sam):
        expect(page.locator('[data-object-id=altar][data-cells="2"]')).to_have_count(1)
    expect(gm.locator(".log-entry").first).to_contain_text("places the Altar (altar, size 1, Durability 5)")

    # an edit is a command like any other: undo takes it back for everyone, redo plays it again
    gm.locator("[data-action=undo]").click()
    expect(sam.locator("[data-object-id=altar]")).to_have_count(0)
    gm.locator("[data-action=redo]").click()
    expect(sam.locator('[data-object-id=altar][data-cells="2"]')).to_have_count(1)

    # an illegal edit is refused by the table: a wall over the altar
    gm.locator("[data-tool=wall]").click()
    drag(gm, cell_xy(gm, (10, 7)), cell_xy(gm, ALTAR[0]), steps=10)
    expect(gm.get_by_text("the Altar (altar) fills")).to_be_visible()
    expect(sam.locator('[data-layer=wall][data-count="6"]')).to_have_count(1)

    # two creatures from the library, each with a click on a space
    gm.locator(".library-panel").get_by_text("Place creatures").click()
    _place(gm, "Human Soldier", SOLDIER)
    _place(gm, "Goblin", GOBLIN)
    for page in (gm, sam):
        page.wait_for_selector(anchor_selector("human_soldier", SOLDIER))
        page.wait_for_selector(anchor_selector("goblin", GOBLIN))
    gm.keyboard.press("Escape")
    gm.locator("[data-action=edit-map]").click()  # done editing: the map is for play again
    expect(gm.locator("svg.vtt-svg:not([data-mode])")).to_have_count(1)

    # the soldier is Sam's
    gm.locator('[data-token-id="human_soldier"] .vtt-body').click()
    gm.keyboard.press("Escape")
    gm.locator(".sheet [data-field=controller]").click()
    gm.get_by_role("option", name="Sam", exact=True).click()
    expect(gm.locator(".roll-log")).to_contain_text("The Soulweaver edits Human Soldier: controller.")

    gm.get_by_role("button", name="Begin: roll Priority").click()
    _to_turn_of(gm, "Human Soldier")
    expect(sam.locator(".turn-panel")).to_contain_text("▶ Human Soldier")

    # Sam Strikes the goblin from his soldier's menu
    sam.mouse.click(*token_xy(sam, "human_soldier"))
    choose_action(sam, "strike")
    expect(sam.get_by_text(": choose a target")).to_be_visible()
    expect(sam.locator(".q-menu")).to_have_count(0)  # the menu has faded out: it no longer covers the goblin
    sam.mouse.click(*token_xy(sam, "goblin"))
    strike = "Human Soldier: Strike on Goblin"
    struck = gm.locator(".log-entry", has_text=strike)
    answer = gm.locator('[data-decision-kind="reaction"] [data-react=pass]')
    for _ in range(20):  # the goblin may Hinder the attack: the Soulweaver lets it pass
        expect(struck.or_(answer).first).to_be_visible()
        if struck.count():
            break
        waiting = answer.count()
        answer.first.click()
        gm.wait_for_function(
            """([text, waiting]) => [...document.querySelectorAll('.log-entry')].some((e) => e.innerText.includes(text))
            || document.querySelectorAll('[data-decision-kind="reaction"] [data-react=pass]').length < waiting""",
            arg=[strike, waiting],
        )
    for page in (gm, sam):
        entry = page.locator(".log-entry", has_text=strike).first
        expect(entry).to_be_visible()
        expect(entry.locator(".die").first).to_be_visible()


def test_the_library_form_refuses_a_bad_field_and_stores_a_good_creature(browser: Browser, server: AppServer) -> None:
    # a browser holding no Soulweaver's seat may read the library but not change it
    stranger = _page(browser, server.url + "/library")
    expect(stranger.locator(".read-only-note")).to_be_visible()
    stranger.locator("input[data-field=name]").fill("Intruder")
    stranger.locator("[data-action=save-creature]").click()
    expect(stranger.locator(".q-notification").get_by_text("Only a Soulweaver changes the library")).to_be_visible()
    expect(stranger.locator('.library-item[data-key^="user:"]')).to_have_count(0)

    page = _page(browser, server.url + server.seat("soulweaver"))  # this browser now holds the Soulweaver's seat
    page.goto(server.url + "/", timeout=LOAD_TIMEOUT)
    wait_ready(page, timeout=LOAD_TIMEOUT)
    page.locator(".library-link").click()
    page.wait_for_url("**/library")
    wait_ready(page, timeout=LOAD_TIMEOUT)
    expect(page.locator(".form-title")).to_have_text("New creature")  # the page opens on a new creature
    page.locator("input[data-field=name]").fill("Cave Bat")
    page.locator("input[data-field=species]").fill("bat")
    page.locator("input[data-field=skill-tier-0]").fill("150")  # Martial: Tiers go up to 99
    page.locator("[data-action=save-creature]").click()

    error = page.locator('[data-error-for="skills.Martial"]')
    expect(error).to_be_visible()
    expect(error).to_contain_text("at most 99")
    expect(page.get_by_text("Not saved: 1 problem")).to_be_visible()
    expect(page.locator('.library-item[data-key^="user:"]')).to_have_count(0)
    expect(error).to_be_in_viewport()  # the page scrolled to the first problem
    page.wait_for_function(  # the smooth scroll has come to rest: the message stays put over two frames
        """(el) => new Promise((done) => { const top = el.getBoundingClientRect().top;
        requestAnimationFrame(() => requestAnimationFrame(() => done(el.getBoundingClientRect().top === top))); })""",
        arg=error.element_handle(),
    )

    page.locator("input[data-field=skill-tier-0]").fill("3")
    expect(error).to_be_hidden()  # once checked, the form checks again as it changes
    page.locator("[data-action=save-creature]").click()
    expect(page.locator('.library-item[data-key="user:cave_bat"]')).to_have_count(1)

    page.reload()
    wait_ready(page, timeout=LOAD_TIMEOUT)
    expect(page.locator('.library-item[data-key="user:cave_bat"]')).to_contain_text("Cave Bat")

    # the map editor offers it next to the starter library
    gm = _page(browser, server.url + server.seat("soulweaver"))
    gm.locator("[data-action=edit-map]").click()
    gm.locator(".library-panel").get_by_text("Place creatures").click()
    gm.locator("[data-field=library-entry]").click()
    expect(gm.get_by_role("option", name="Cave Bat (yours)", exact=True)).to_be_visible()
    expect(gm.get_by_role("option", name="Goblin", exact=True)).to_be_visible()


def _uvtt_file(path: Path) -> Path:
    """A 6x5 Universal VTT map: a room's outline, and a picture of one flat colour."""
    png = base64.b64encode(
        bytes.fromhex(
            "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763"
            "f8cfc0f01f0005000201ea6c75d20000000049454e44ae426082"
        )
    ).decode()
    room = [{"x": 1, "y": 1}, {"x": 4, "y": 1}, {"x": 4, "y": 3}, {"x": 1, "y": 3}, {"x": 1, "y": 1}]
    data = {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 6, "y": 5}, "pixels_per_grid": 64},
        "line_of_sight": [room],
        "portals": [],
        "image": png,
    }
    path.write_text(json.dumps(data))
    return path


def test_maps_and_games_go_out_and_come_back_in(browser: Browser, server: AppServer, tmp_path: Path) -> None:
    """Export map file and Export game from the Soulweaver's panel; Import game and Import Universal VTT on the
    start page each make a new game and open it as its Soulweaver."""
    gm = _page(browser, server.url + server.seat("soulweaver"))
    gm.wait_for_selector('[data-token-id="ayla"]')
    with gm.expect_download() as got:
        gm.locator("[data-action=export-map]").click()
    exported = json.loads(Path(got.value.path()).read_text())
    assert got.value.suggested_filename == "the-ruined-hall.map.json"
    assert exported["format"] == 1 and exported["board"]["cols"] == 30
    assert "ayla" in {c["id"] for c in exported["creatures"]}

    gm.locator('[data-token-id="ayla"] .vtt-body').click()  # something in the log to carry over
    gm.keyboard.press("Escape")
    gm.get_by_role("button", name="Begin: roll Priority").click()
    expect(gm.locator(".log-entry")).to_have_count(1)
    with gm.expect_download() as got:
        gm.locator("[data-action=export-game]").click()
    archive = tmp_path / got.value.suggested_filename
    got.value.save_as(archive)
    assert json.loads(archive.read_text())["kind"] == "soulshards-vtt-game"

    start = _page(browser, server.url + "/")
    start.locator("input[data-field=import-your-name]").fill("Mira")
    start.locator("[data-field=game-file] input[type=file]").set_input_files(str(archive))
    start.wait_for_url("**/play/**", timeout=LOAD_TIMEOUT)
    wait_ready(start, timeout=LOAD_TIMEOUT)
    expect(start.locator("header")).to_contain_text("The Ruined Hall (2)")
    start.wait_for_selector('[data-token-id="ayla"]')
    expect(start.locator(".log-entry")).to_have_count(1)
    expect(start.locator(".turn-panel")).to_contain_text("Round 1")

    start.goto(server.url + "/", timeout=LOAD_TIMEOUT)
    wait_ready(start, timeout=LOAD_TIMEOUT)
    start.locator("input[data-field=your-name]").fill("Mira")
    start.locator("[data-field=uvtt-file] input[type=file]").set_input_files(str(_uvtt_file(tmp_path / "vault.dd2vtt")))
    start.wait_for_url("**/play/**", timeout=LOAD_TIMEOUT)
    wait_ready(start, timeout=LOAD_TIMEOUT)
    expect(start.locator("header")).to_contain_text("vault")
    expect(start.locator("svg.vtt-svg[data-grid=square][data-cols='6'][data-rows='5']")).to_have_count(1)
    expect(start.locator("[data-layer=wall]")).not_to_have_attribute("data-count", "0")
    expect(start.locator("image[data-layer=background]")).to_have_attribute("href", re.compile(r"^/api/games/\d+/"))
