"""The hostile-string corpus (`e2e/hostile.py`) through every field a person can write, on every page that shows
it, in Chromium.

Most strings go in by the bulk: a map file (the server's starting map), the seat JSON API (one command per field and
string), game archives (the names every rule allows in one, each other string in one of its own, every string as an
id in one) and Universal VTT file names; a handful are typed into real form fields (the New game form, the
invitation's display name, the creature library's form, the map editor's object name).
For each (field, string) the table either shows the text exactly as written or refuses it
with a message in plain words; either is fine. What fails: a script that ran (`window.__pwned` set, a dialog
opened), markup or a prop made from the text, an answer of 500 or more, an exception in the server's output.

The number of (field, page) pairs checked is printed at the end.
"""

from __future__ import annotations

import contextlib
import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, FilePayload, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from e2e.conftest import LOAD_TIMEOUT, TABLE_TIMEOUT, AppServer, running, scaled, user_context, wait_ready
from e2e.helpers import cell_xy, drag
from e2e.hostile import FILE_NAMES, HAYSTACK, HOSTILE, NAME_SAFE, TYPED, Watch, haystack, plain_problem
from vtt.rules.mapfile import load_map

pytestmark = pytest.mark.xdist_group("hostile")  # one worker: the module's server serves every test here
COLS, ROWS = 24, 20
SOULWEAVER, SPECTATOR, PLAYER = "table as Soulweaver", "table as spectator", "table as player"
START, LIBRARY, EDITOR = "start page", "library page", "map editor"
REFUSAL = "refusal message"

CHECKED: set[tuple[str, str]] = set()
"""(field, page) pairs whose hostile strings were checked: shown as written there, or refused in plain words."""


@pytest.fixture(scope="module", autouse=True)
def _report(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
        print(f"\nhostile strings: {len(CHECKED)} (field, page) pairs checked")


@pytest.fixture(autouse=True)
def _timeouts() -> Iterator[None]:
    expect.set_options(timeout=TABLE_TIMEOUT)
    yield
    expect.set_options(timeout=None)


# ---- the starting map: every name-safe string in the names of creatures, weapons, limbs and objects -------------


def hostile_map() -> dict[str, Any]:
    creatures, weapons, objects = [], [], []
    for i, label in enumerate(NAME_SAFE):
        text = HOSTILE[label]
        weapons.append({"id": f"w{i}", "name": text, "damage": 2, "strike_types": ["B"]})
        objects.append({"id": f"obj{i}", "name": text, "cells": [[2 * i + 1, 1]], "size": 1})
        creatures.append(
            {
                "id": f"h{i}",
                "name": text,
                "species": text,
                "anchor": [2 * i + 1, 3],
                "controller": "alice",
                "notes": text,
                "skills": {"Martial": 1, "Elude": 1},
                "limbs": [
                    {"id": "right_arm", "name": text, "kind": "arm"},
                    {"id": "left_arm", "name": "left arm", "kind": "arm"},
                ],
                "weapons": [f"w{i}"],
                "grip": {"right_arm": f"w{i}"},
            }
        )
    return {
        "format": 1,
        "name": HOSTILE["vue-prop"],
        "description": HOSTILE["html-script"],
        "grid": "square",
        "board": {"cols": COLS, "rows": ROWS, "objects": objects},
        "weapons": weapons,
        "creatures": creatures,
    }


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    tmp = tmp_path_factory.mktemp("hostile")
    map_file = tmp / "hostile.json"
    map_file.write_text(json.dumps(hostile_map()))
    args = ["--database", f"sqlite:///{tmp}/game.sqlite", "--seed", "11", "--map", str(map_file), "--watchable"]
    with running(AppServer(module="vtt.cli", args=args)) as started:
        yield started


# ---- browsers -------------------------------------------------------------------------------------------------


class User:
    """One person: a browser context, watched (`Watch`), with one page."""

    def __init__(self, browser: Browser) -> None:
        self.context: BrowserContext = user_context(browser)
        self.watch = Watch(self.context)
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(TABLE_TIMEOUT)

    def open(self, url: str) -> Page:
        self.page.goto(url, timeout=LOAD_TIMEOUT)
        wait_ready(self.page, timeout=LOAD_TIMEOUT)
        return self.page

    def check(self, where: str) -> None:
        self.watch.check(self.page, where)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def users(browser: Browser) -> Iterator[list[User]]:
    """Make users with `users.append(User(browser))`; every one is closed afterwards."""
    made: list[User] = []
    yield made
    for user in made:
        user.close()


def _user(users: list[User], browser: Browser) -> User:
    user = User(browser)
    users.append(user)
    return user


# ---- the seat API ---------------------------------------------------------------------------------------------


def _post(server: AppServer, secret: str, command: dict[str, Any]) -> dict[str, Any]:
    """The answer to one command; a 400 (malformed) counts as a refusal; 500 or more fails the test. The body is
    JSON with `\\u` escapes, so a lone surrogate travels as the escape `\\ud800`."""
    body = json.dumps({"command": command}).encode()
    request = urllib.request.Request(
        f"{server.url}/api/seat/{secret}/commands", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result
    except urllib.error.HTTPError as exc:
        assert exc.code < 500, f"the seat API answered {exc.code} to {command['type']}: {exc.read()[:500]!r}"
        refused: dict[str, Any] = json.loads(exc.read())
        return {"ok": False, "error": str(refused.get("error", ""))}


def _secret(server: AppServer, key: str) -> str:
    return server.seat(key).rsplit("/", 1)[1]


ARM = {"id": "left_arm", "name": "left arm", "kind": "arm"}


def _holding(weapon_id: str, weapon_name: str) -> dict[str, Any]:
    """A creature's weapon (`weapon_id`, called `weapon_name`) and the right arm that holds it."""
    return {
        "weapons": [{"id": weapon_id, "name": weapon_name, "damage": 2, "strike_types": ["B"]}],
        "limbs": [{"id": "right_arm", "name": "right arm", "kind": "arm", "holding": weapon_id}, ARM],
    }


CREATURE_FIELDS: dict[str, Callable[[str], dict[str, Any]]] = {
    "creature id": lambda s: {"id": s},
    "creature name": lambda s: {"name": s},
    "creature species": lambda s: {"species": s},
    "creature colour": lambda s: {"color": s},
    "Soulweaver's notes": lambda s: {"notes": s},
    "skill name": lambda s: {"skills": {s: 2}},
    "ailment name": lambda s: {"ailments": {s: 1}},
    "controller": lambda s: {"controller": s},
    "limb id": lambda s: {"limbs": [{"id": s, "name": "claw", "kind": "arm"}, ARM]},
    "limb name": lambda s: {"limbs": [{"id": "claw", "name": s, "kind": "arm"}, ARM]},
    "weapon id": lambda s: _holding(s, "Club"),
    "weapon name": lambda s: _holding("club", s),
}
"""Each field of a new creature, with the string in place."""
ON_THE_MAP = {"creature id", "creature name", "ailment name"}
"""Fields the map shows everyone (the token's id, its title, its ailment badges)."""
SHEET_NAMES = ("Soulweaver's notes", "limb name", "weapon name")
SHEET_IDS = ("skill name", "controller")
"""Fields a creature's sheet shows: each group goes on one creature per string too, so one click shows them."""
EDITED = ("edited notes",)


def _sheet_names(s: str) -> dict[str, Any]:
    return {"notes": s, **_holding("club", s), "limbs": [{"id": "right_arm", "name": s, "holding": "club"}, ARM]}


def _sheet_ids(s: str) -> dict[str, Any]:
    return {"skills": {s: 2}, "controller": s}


def _sheet_texts(group: tuple[str, ...], s: str) -> list[str]:
    """What the Soulweaver's sheet of that group's creature shows: its limb holding its weapon is one line."""
    return [f"{s}: holds {s}", s] if group == SHEET_NAMES else [s]


class Placed:
    """What the seat API accepted: the strings the map shows everyone, and the creatures whose sheets show them."""

    def __init__(self) -> None:
        self.on_map: list[tuple[str, str]] = []  # (field, string)
        self.sheets: list[tuple[str, tuple[str, ...], str]] = []  # (creature id, field group, string)


def _through_the_api(server: AppServer) -> Placed:
    """Every string in every field a command carries, one command each (a new creature, an object painted on the
    map, a creature's name and notes edited), and on the creatures whose sheets are looked at."""
    secret = _secret(server, "soulweaver")
    placed = Placed()
    cells = iter([(q, r) for r in range(6, ROWS) for q in range(COLS)])

    def send(field: str, command: dict[str, Any], text: str) -> bool:
        answer = _post(server, secret, command)
        if not answer.get("ok"):
            _refused(str(answer.get("error", "")), f"{field} (seat API)")
        return bool(answer.get("ok"))

    def add(field: str, creature: dict[str, Any], text: str) -> bool:
        return send(field, {"type": "add_creature", "creature": creature, "at": list(next(cells))}, text)

    for n, text in enumerate(HOSTILE.values()):
        for field, make in CREATURE_FIELDS.items():
            if add(field, {"name": "Probe", "skills": {"Martial": 1}, **make(text)}, text) and field in ON_THE_MAP:
                placed.on_map.append((field, text))
        for field, spec in (("object name", {"name": text}), ("object id", {"name": "Crate", "id": text})):
            command = {"type": "edit_board", "layer": "object", "paint": [list(next(cells))], "object": spec}
            if send(field, command, text):
                placed.on_map.append((field, text))
        for group, make_group in ((SHEET_NAMES, _sheet_names), (SHEET_IDS, _sheet_ids)):
            cid = f"sheet{n}_{len(group)}"
            if add(" and ".join(group), {"id": cid, "name": "Sheet", **make_group(text)}, text):
                placed.sheets.append((cid, group, text))
        cid = f"edited{n}"
        assert add("creature", {"id": cid, "name": "Edit me"}, "Edit me")
        if send("edited name", {"type": "edit_creature", "creature": cid, "changes": {"name": text}}, text):
            placed.on_map.append(("edited name", text))
        edited = send("edited notes", {"type": "edit_creature", "creature": cid, "changes": {"notes": text}}, text)
        if edited and not any(group == EDITED for _, group, _ in placed.sheets):  # drawn as any notes: one look
            placed.sheets.append((cid, EDITED, text))
    return placed


def _refused(message: str, what: str) -> None:
    why = plain_problem(message)
    assert why is None, f"{what} refused without plain words: {why}"
    CHECKED.add((what, REFUSAL))


# ---- looking at a table page ----------------------------------------------------------------------------------

TOKEN_AT = """(id) => {
  const token = [...document.querySelectorAll('[data-token-id]')].find((t) => t.getAttribute('data-token-id') === id);
  if (!token) return null;
  const r = token.querySelector('.vtt-body').getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2];
}"""

SHEET_HAS = """(texts) => {
  const sheet = document.querySelector('.sheet');
  if (!sheet) return false;
  const values = [...sheet.querySelectorAll('input, textarea')].map((i) => i.value);
  const all = [sheet.textContent, ...values].join('\\u0001');
  return texts.every((t) => all.includes(t));
}"""


def _open_sheet(page: Page, creature_id: str, texts: list[str]) -> None:
    """Click the creature's token and wait until its sheet shows every one of `texts`; then close the token menu."""
    for attempt in (1, 2):
        # once in a full run the first click showed another sheet or none (cause not found; alone it passes):
        # clicked once more, the sheet must show every text
        at = page.evaluate(TOKEN_AT, creature_id)
        assert at is not None, f"no token {creature_id[:60]!r}"
        page.mouse.click(*at)
        try:
            page.wait_for_function(SHEET_HAS, arg=texts, timeout=scaled(7_500))
            break
        except PlaywrightTimeout:
            if attempt == 2:
                shown = [t[:60] for t in texts]
                raise AssertionError(f"the sheet of {creature_id[:60]!r} does not show {shown} as written") from None
            page.keyboard.press("Escape")
            expect(page.locator(".q-menu")).to_have_count(0)
    page.keyboard.press("Escape")
    expect(page.locator(".q-menu")).to_have_count(0)


ALL_SHOWN = f"(texts) => {{ const seen = ({HAYSTACK})(); return texts.every((t) => seen.includes(t)); }}"


def _check_shown(user: User, where: str, texts: list[tuple[str, str]]) -> None:
    """Every one of `texts` ((field, string)) comes to be in the page as written (a change may be on its way)."""
    try:
        user.page.wait_for_function(ALL_SHOWN, arg=[t for _, t in texts])
    except PlaywrightTimeout:
        seen = haystack(user.page)
        missing = [(f, t[:60]) for f, t in texts if t not in seen]
        raise AssertionError(f"{where}: not shown as written: {missing}") from None
    user.check(where)
    CHECKED.update((field, where) for field, _ in texts)


def test_map_file_and_seat_api_strings_on_the_table_for_soulweaver_player_and_spectator(
    browser: Browser, server: AppServer, users: list[User]
) -> None:
    """The Soulweaver's page is open while the seat API sends the strings (each arrives as a change); the player's
    and the spectator's pages are opened afterwards (everything drawn at once)."""
    gm = _user(users, browser)
    gm.open(server.url + server.seat("soulweaver")).wait_for_selector("[data-token-id]")
    names = ("map file: creature name", "map file: object name")
    from_map = [(f, HOSTILE[label]) for label in NAME_SAFE for f in names]
    from_map.append(("map file: map name", HOSTILE["vue-prop"]))
    _check_shown(gm, SOULWEAVER, from_map)
    for i, label in enumerate(NAME_SAFE):  # the sheet: limb and weapon names ("right arm: holds ...")
        text = HOSTILE[label]
        _open_sheet(gm.page, f"h{i}", [f"{text}: holds {text}", text])
    CHECKED.update((f, SOULWEAVER) for f in ("map file: limb name", "map file: weapon name", "map file: notes"))

    placed = _through_the_api(server)
    _check_shown(gm, SOULWEAVER, placed.on_map)
    for cid, group, text in placed.sheets:
        _open_sheet(gm.page, cid, _sheet_texts(group, text))
        CHECKED.update((field, SOULWEAVER) for field in group)
    gm.check(SOULWEAVER)

    alice = _user(users, browser)
    watcher = _user(users, browser)
    alice.open(server.url + server.seat("alice")).wait_for_selector("[data-token-id]")
    watcher.open(server.url + "/watch/1").wait_for_selector("[data-token-id]")
    for user, where in ((alice, PLAYER), (watcher, SPECTATOR)):
        _check_shown(user, where, from_map + placed.on_map)
        text = HOSTILE["vue-template"]
        _open_sheet(user.page, f"h{NAME_SAFE.index('vue-template')}", [f"{text}: holds {text}"])
        CHECKED.update({("map file: limb name", where), ("map file: weapon name", where)})
    for cid, group, text in placed.sheets:
        if group == SHEET_IDS:  # a spectator's sheet shows a skill as text ("<skill> 2"), not as a number field
            _open_sheet(watcher.page, cid, [f"{text} 2"])
            CHECKED.add(("skill name", SPECTATOR))
    watcher.check(SPECTATOR)
    alice.check(PLAYER)


# ---- game archives -------------------------------------------------------------------------------------------

TIME = "2026-05-01T12:00:00+00:00"
KIND = "soulshards-vtt-game"


def _archive_map(count: int) -> dict[str, Any]:
    """A small map with `count` creatures (`a0`, `a1`...; `a0` is the player `pat`'s), each holding its own club,
    and as many crates."""
    creatures = [
        {
            "id": f"a{i}",
            "name": f"Ann {i}",
            "anchor": [2 * i, 2],
            "skills": {"Martial": 1},
            "weapons": [{"id": f"club{i}", "name": "Club", "damage": 2, "strike_types": ["B"]}],
            "grip": {"right_arm": f"club{i}"},
        }
        for i in range(count)
    ]
    creatures[0]["controller"] = "pat"
    objects = [{"id": f"crate{i}", "name": "Crate", "cells": [[2 * i, 5]]} for i in range(count)]
    board = {"cols": max(4, 2 * count), "rows": 7, "objects": objects}
    return {"format": 1, "name": "base", "grid": "square", "board": board, "creatures": creatures}


def _swap(value: Any, old: str, new: str) -> Any:
    """`value` with every string (and key) equal to `old` made `new`."""
    if isinstance(value, dict):
        return {(new if k == old else k): _swap(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, old, new) for v in value]
    return new if value == old else value


def _event(text: str, actor: str) -> dict[str, Any]:
    """A recorded attack whose text, roll label, faces, result and reasons are `text` (an archive's events are kept
    as recorded)."""
    roll = {
        "label": text,
        "faces": [text, 3],
        "result": text,
        "doubles": [{"face": text}],
        "dice_changes": [{"dice": text, "reason": text}],
        "modifiers": [{"value": text, "reason": text}],
    }
    return {"kind": "attack", "text": text, "actor": actor, "target": None, "rolls": [roll], "data": {"dl": text}}


def _archive(name: str, texts: list[str], in_ids: bool = False) -> dict[str, Any]:
    """A game archive with creature `a<i>` carrying `texts[i]` in every name (creature, species, notes, limb,
    weapon, object, its recorded event's text, roll label and result), or, `in_ids`, in every id (creature,
    controller, limb, weapon, object, skill, ailment)."""
    state = load_map(_archive_map(len(texts))).model_dump(mode="json")
    events = []
    for i, text in enumerate(texts):
        creature = state["creatures"][f"a{i}"]
        if in_ids:
            creature["skills"], creature["ailments"] = {text: 1}, {text: 1}
            for old in (f"a{i}", f"club{i}", f"crate{i}") + (("pat", "right_arm") if i == 0 else ()):
                state = _swap(state, old, text)
        else:
            creature.update(name=text, species=text, notes=text)
            creature["limbs"][1]["name"] = text  # the right arm: "<text>: holds <text>" on the sheet
            creature["weapons"][0]["name"] = text
            state["board"]["objects"][i]["name"] = text
            events.append(_event(text, f"a{i}"))
    first = texts[0] if in_ids else "a0"
    command = {"type": "edit_creature", "creature": first, "changes": {"prone": True}}
    events = events or [{"kind": "edit", "text": "Someone lies down.", "actor": first, "rolls": []}]
    entry = {"seq": 1, "sender": "soulweaver", "command": command, "faces": [], "events": events, "time": TIME}
    return {"format": 1, "kind": KIND, "name": name, "map": name, "initial_state": state, "log": [entry]}


ARCHIVE_NAMES = ("archive: creature name", "archive: object name", "archive: log text", "archive: roll result")
ARCHIVE_IDS = ("archive: creature id", "archive: object id")


def _outcome(page: Page) -> str | None:
    """Wait for what an upload or a form led to: the table page it opened (None), or the message it showed."""
    notification = page.locator(".q-notification")
    # the table's map or a message, in whichever page shows at the time (the locator is looked up again after
    # the page has gone to the table)
    page.locator("svg.vtt-svg").or_(notification).first.wait_for(timeout=LOAD_TIMEOUT)
    if "/play/" in page.url:
        wait_ready(page, timeout=LOAD_TIMEOUT)
        page.wait_for_selector("svg.vtt-svg")
        return None
    return notification.last.inner_text()


def _import(importer: User, server: AppServer, data: dict[str, Any], label: str) -> str | None:
    page = importer.open(server.url + "/")
    page.locator("input[data-field=import-your-name]").fill("Importer")
    upload: FilePayload = {
        "name": f"{label}.game.json",
        "mimeType": "application/json",
        "buffer": json.dumps(data).encode(),
    }
    page.locator("[data-field=game-file] input[type=file]").set_input_files(files=[upload])
    return _outcome(page)


def _game_id(server: AppServer, page: Page) -> int:
    secret = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server.url}/api/seat/{secret}/state", timeout=30) as answer:
        state: dict[str, Any] = json.loads(answer.read())
    return int(state["game"]["id"])


def test_game_archives_with_the_strings_in_every_name_and_every_id(
    browser: Browser, server: AppServer, users: list[User]
) -> None:
    gm = _user(users, browser)
    player = _user(users, browser)
    watcher = _user(users, browser)
    imported: list[str] = []

    # the names every rule allows, in one game: on the table of the Soulweaver, its player and a spectator
    texts = [HOSTILE[label] for label in NAME_SAFE]
    game_name = HOSTILE["html-script"]
    message = _import(gm, server, _archive(game_name, texts), "names")
    assert message is None, f"an archive with names every rule allows was refused: {message}"
    imported.append(game_name)
    names = [(f, t) for t in texts for f in ARCHIVE_NAMES] + [("archive: game name", game_name)]
    _check_shown(gm, SOULWEAVER, names)
    for i, text in enumerate(texts):
        _open_sheet(gm.page, f"a{i}", [f"{text}: holds {text}", text])
        CHECKED.update((f, SOULWEAVER) for f in ("archive: limb name", "archive: weapon name", "archive: notes"))
    game_id = _game_id(server, gm.page)
    link = (gm.page.locator(".seat-links .seat-link").first.text_content() or "").strip()
    player.open(server.url + link[link.index("/play/") :]).wait_for_selector("[data-token-id]")
    _check_shown(player, PLAYER, names)
    gm.page.locator(".gm-panel [data-field=watchable]").click()
    expect(gm.page.locator(".watch-link")).to_be_visible()
    watcher.open(f"{server.url}/watch/{game_id}").wait_for_selector("[data-token-id]")
    _check_shown(watcher, SPECTATOR, names)

    # each other string in a game of its own: shown as written, or the archive refused in plain words
    for label, text in HOSTILE.items():
        if label in NAME_SAFE:
            continue
        message = _import(gm, server, _archive(text, [text]), label)
        if message is not None:
            _refused(message, "archive: names")
            continue
        imported.append(text)
        _check_shown(gm, SOULWEAVER, [(f, text) for f in ARCHIVE_NAMES] + [("archive: game name", text)])

    # every string as an id (but the lone surrogate, which no file brings in: see above)
    ids = [text for label, text in HOSTILE.items() if label != "lone-surrogate"]
    message = _import(gm, server, _archive("Hostile ids", ids, in_ids=True), "ids")
    if message is not None:
        _refused(message, "archive: ids")
    else:
        _check_shown(gm, SOULWEAVER, [(f, t) for t in ids for f in ARCHIVE_IDS])

    gm.open(server.url + "/")
    _check_shown(gm, START, [(f, t) for t in imported for f in ("archive: game name", "archive: map name")])


# ---- typed: the New game form, an invitation's display name, a Universal VTT file's name -------------------------


def _uvtt(cols: int = 4, rows: int = 3) -> bytes:
    room = [{"x": 0, "y": 0}, {"x": cols, "y": 0}, {"x": cols, "y": rows}, {"x": 0, "y": 0}]
    data = {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": cols, "y": rows}, "pixels_per_grid": 64},
        "line_of_sight": [room],
        "portals": [],
    }
    return json.dumps(data).encode()


def _invitation(server: AppServer) -> str:
    for line in server.output().splitlines():
        head, _, url = line.strip().partition(": ")
        if head == "invitation":
            return "/" + url.split("/", 3)[3]
    raise LookupError("the server printed no invitation")


def test_typed_game_and_display_names_and_universal_vtt_file_names(
    browser: Browser, server: AppServer, users: list[User]
) -> None:
    person = _user(users, browser)
    made: list[tuple[str, str]] = []
    for label in TYPED:
        text = HOSTILE[label]
        page = person.open(server.url + "/")
        page.locator("input[data-field=game-name]").fill("New " + text)
        page.locator("input[data-field=your-name]").fill(text)
        page.locator("[data-action=create-game]").click()
        message = _outcome(page)
        if message is not None:
            _refused(message, "new game: game or Soulweaver name")
        else:
            made.append(("new game: game name", "New " + text))
            _check_shown(person, SOULWEAVER, [("new game: game name", "New " + text)])

        page = person.open(server.url + _invitation(server))
        page.locator("input[data-field=display-name]").fill(text)
        page.locator("[data-action=join]").click()
        message = _outcome(page)
        if message is not None:
            _refused(message, "display name")
        else:
            _check_shown(person, PLAYER, [("display name", "you are " + text)])

    for text in FILE_NAMES:
        page = person.open(server.url + "/")
        page.locator("input[data-field=your-name]").fill("Uma")
        upload: FilePayload = {"name": f"map {text}.dd2vtt", "mimeType": "application/json", "buffer": _uvtt()}
        page.locator("[data-field=uvtt-file] input[type=file]").set_input_files(files=[upload])
        message = _outcome(page)
        if message is not None:
            _refused(message, "Universal VTT file name")
            continue
        made += [("Universal VTT: game name", f"map {text}"), ("Universal VTT: map name", f"map {text}.dd2vtt")]
        _check_shown(person, SOULWEAVER, [("Universal VTT: game name", f"map {text}")])
    person.open(server.url + "/")
    _check_shown(person, START, made)


# ---- typed: the creature library's form, and the map editor that offers its entries ------------------------------


def _save_creature(page: Page, fields: dict[str, str]) -> str | None:
    """Fill a new creature's fields and save it: None when it is stored, else the problems shown by the fields."""
    title = page.locator(".form-title")
    if title.inner_text() != "New creature":  # (a fresh page opens on a new creature already)
        page.locator("[data-action=new-creature]").click()
        expect(title).to_have_text("New creature")
    for field, value in fields.items():
        page.locator(f"input[data-field={field}]").fill(value)
    save = page.locator("[data-action=save-creature]")
    save.evaluate("(b) => b.scrollIntoView({block: 'center'})")  # clear of the messages at the top of the window
    save.click()
    stored = page.locator(".form-title").filter(has_text=re.compile("^Edit "))
    refused = page.locator(".creature-form .field-error:visible")
    expect(stored.or_(refused).first).to_be_visible()
    if stored.count():
        return None
    return "; ".join(refused.all_inner_texts())


LIST_HAS = """(texts) => {
  const shown = document.querySelector('.library-list').textContent;
  return texts.every((t) => shown.includes(t));
}"""


def test_typed_library_entries_and_map_editor_object_names(
    browser: Browser, server: AppServer, users: list[User]
) -> None:
    gm = _user(users, browser)
    gm.open(server.url + server.seat("soulweaver"))  # this browser holds the Soulweaver's seat: it may edit
    page = gm.open(server.url + "/library")
    saved: list[str] = []
    for label in TYPED:
        text = HOSTILE[label]
        fields = {"name": text, "species": text, "description": text, "limb-name-0": text, "part-name-0": text}
        problems = _save_creature(page, fields)
        if problems is not None:
            _refused(problems, "library: names")
        else:
            saved.append(text)
    problems = _save_creature(
        page, {"name": "Hostile limb ids"} | {f"limb-id-{i}": HOSTILE[x] for i, x in enumerate(TYPED)}
    )
    if problems is not None:
        _refused(problems, "library: limb id")
    else:
        CHECKED.add(("library: limb id", LIBRARY))
    problems = _save_creature(page, {"name": " "})  # a creature with no name is not stored (it would be "creature")
    assert problems is not None and "give the creature a name" in problems, problems
    for where in (LIBRARY, LIBRARY + " (loaded afresh)"):
        if where != LIBRARY:
            page.reload()
            wait_ready(page, timeout=LOAD_TIMEOUT)
        try:
            page.wait_for_function(LIST_HAS, arg=saved)  # the list: each entry's name and description line
        except PlaywrightTimeout:
            raise AssertionError(f"{where}: the list does not show {[t[:60] for t in saved]} as written") from None
        gm.check(where)
        CHECKED.update({("library: creature name", where), ("library: description", where)})

    page = gm.open(server.url + server.seat("soulweaver"))
    page.wait_for_selector("[data-token-id]")
    page.locator("[data-action=edit-map]").click()
    page.locator(".library-panel").get_by_text("Place creatures").click()
    page.locator("[data-field=library-entry]").click()
    expect(page.locator(".q-menu .q-item").first).to_be_visible()
    _check_shown(gm, EDITOR, [("library: creature name", t) for t in saved])
    page.keyboard.press("Escape")

    page.locator("[data-tool=object]").click()
    for i, label in enumerate(("vue-prop", "vue-template")):
        text = HOSTILE[label]
        page.locator("input[data-field=object-name]").fill(text)
        drag(page, cell_xy(page, (3 * i, 4)), cell_xy(page, (3 * i + 1, 4)), steps=6)
        _check_shown(gm, EDITOR, [("map editor: object name", text)])
    gm.check(EDITOR)
