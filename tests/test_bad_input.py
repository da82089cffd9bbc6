"""Bad input never gets past the server's handlers: random and malformed commands, valid-looking commands for the
wrong creature, turn or seat, random API and websocket bodies, and mutated scenario files each get an error — no
exception escapes, no 500 — and the game is left exactly as it was (its state byte for byte, its log, its
versions and its rows in the database)."""

from __future__ import annotations

import asyncio
import copy
import json
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from vtt.rules.commands import COMMAND_MODELS, parse_command
from vtt.rules.dice import RandomDice
from vtt.rules.mapfile import MapError, load_map
from vtt.rules.model import SOULWEAVER, Creature, Weapon
from vtt.rules.records import Record
from vtt.rules.scenario import ScenarioError, load_scenario
from vtt.store import db
from vtt.store.db import Seat, open_engine
from vtt.store.images import image_type
from vtt.table.archive import check_archive
from vtt.table.registry import GameError, Games, viewer_for
from vtt.table.table import Table, Viewer
from vtt.web.api import make_router, seat_view
from vtt.web.map_view import COORD_MAX, KEYS, clean_event

MAPS = Path(__file__).resolve().parents[1] / "maps"
DEMO: dict[str, Any] = json.loads((MAPS / "demo.json").read_text())
PLAYERS = ("alice", "bob", "cara")
HIDDEN = "drake"
SPECTATOR = "spectator"
EXAMPLES = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FEWER_EXAMPLES = settings(EXAMPLES, max_examples=settings().max_examples * 2 // 5)
"""For the properties that make whole games in the database."""
COMMAND_TYPES = frozenset(str(m.model_fields["type"].default) for m in COMMAND_MODELS)
SOULWEAVER_ONLY = frozenset(str(m.model_fields["type"].default) for m in COMMAND_MODELS if m.SENT_BY == "soulweaver")
DECISIONS = frozenset({"defend", "react", "choose_order"})

Json = Any


# ---- the game under attack ------------------------------------------------------------------------------------


@dataclass
class Game:
    games: Games
    table: Table
    seats: dict[str, Seat]
    viewers: dict[str, Viewer]

    @property
    def game_id(self) -> int:
        assert self.table.game_id is not None
        return self.table.game_id

    def snapshot(self) -> tuple[object, ...]:
        """Everything a command could change: the state byte for byte, the log, the versions and the stored rows."""
        engine = self.games.engine
        return (
            self.table.state.model_dump_json(),
            len(self.table.log),
            sorted(self.table.versions.items()),
            self.table.can_redo(),
            json.dumps(db.load_log(engine, self.game_id)),
            [(seq, db.snapshot_state(engine, self.game_id, seq)) for seq in db.snapshot_seqs(engine, self.game_id)],
            db.seats(engine, self.game_id),
            [g.id for g in db.list_games(engine)],
        )

    def submit(self, who: str, command: Json, seen: Json = None) -> tuple[bool, str | None]:
        outcome = asyncio.run(self.table.submit(self.viewers[who], command, seen))
        return outcome.ok, outcome.error

    @property
    def visible(self) -> list[str]:
        return sorted(cid for cid, c in self.table.state.creatures.items() if not c.hidden)

    def controlled_by(self, key: str) -> list[str]:
        return sorted(cid for cid, c in self.table.state.creatures.items() if c.controller == key)


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Game]:
    """The demo encounter with a Soulweaver and three players, the drake hidden, the fight begun."""
    games = Games(open_engine(f"sqlite:///{tmp_path}/bad.sqlite"), MAPS, dice=lambda: RandomDice(7))
    made = games.create("Bad input", "demo.json", "hex", "Mira")
    seats = {SOULWEAVER: made.soulweaver}
    for name in PLAYERS:
        seats[name] = games.join(made.invitation, name)
    viewers = {key: viewer_for(seat) for key, seat in seats.items()}
    viewers[SPECTATOR] = Viewer("spectator", SPECTATOR)
    g = Game(games, games.table(made.game_id), seats, viewers)
    assert g.submit(SOULWEAVER, {"type": "edit_creature", "creature": HIDDEN, "changes": {"hidden": True}})[0]
    assert g.submit(SOULWEAVER, {"type": "begin"})[0]
    yield g
    games.close()


# ---- strategies -------------------------------------------------------------------------------------------------

HUGE = st.sampled_from([10**6, -(10**6), 2**31, 2**63, -(2**63), 10**30, -(10**30), 10**400])
SCALARS = st.none() | st.booleans() | st.integers() | HUGE | st.floats() | st.text(max_size=20)
JSON_VALUES: st.SearchStrategy[Json] = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20,
)
FIELD_NAMES = sorted({n for m in COMMAND_MODELS for n in m.model_fields} | {"seqs", "bogus"})


def _nested(depth: int) -> Json:
    value: Json = "deep"
    for i in range(depth):
        value = [value] if i % 2 else {"x": value}
    return value


NESTED_JUNK = st.integers(min_value=50, max_value=400).map(_nested)
DEEP_TEXT = st.integers(min_value=1000, max_value=20_000).map(lambda n: b'{"command": ' + b"[" * n + b"]" * n + b"}")


def _sample(annotation: Any, name: str, actor: str, target: str) -> Json:
    """A schema-valid value for a required command field."""
    if name == "creature" and annotation is str:
        return actor
    if name == "target":
        return target
    text = str(annotation)
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)[0]
    if annotation is str:
        return "x"
    if annotation is int:
        return 1
    if text.startswith("list[tuple[int, int]"):  # spaces (mark_fog)
        return [[1, 1]]
    if "tuple[int, int]" in text:
        return [1, 1]
    if text.startswith(("list[str]", "list[typing.Annotated[str,")):
        return [target]
    if text.startswith("dict"):
        return {"name": "X"}
    raise AssertionError(f"no sample for {name}: {text}")


def template(model: type[BaseModel], actor: str, target: str) -> dict[str, Json]:
    """The smallest schema-valid command of this type."""
    command: dict[str, Json] = {"type": model.model_fields["type"].default}
    for name, field in model.model_fields.items():
        if name != "type" and field.is_required():
            command[name] = _sample(field.annotation, name, actor, target)
    parse_command(command)
    return command


def _wrong_kind(model: type[BaseModel], name: str) -> st.SearchStrategy[Json]:
    """Values no field of this kind accepts: a list for a mapping, an object for everything else."""
    if str(model.model_fields[name].annotation).startswith("dict"):
        return st.lists(JSON_VALUES, max_size=3)
    return st.dictionaries(st.text(max_size=5), JSON_VALUES, min_size=1, max_size=3) | NESTED_JUNK


@st.composite
def malformed_commands(draw: st.DrawFn, actor: str, target: str) -> Json:
    """A command the schema refuses, whoever sends it."""
    kind = draw(st.sampled_from(["value", "no_type", "bad_type", "drop", "extra", "retype", "huge"]))
    if kind == "value":
        return draw((JSON_VALUES | NESTED_JUNK).filter(lambda v: not isinstance(v, dict)))
    if kind == "no_type":
        junk = draw(st.dictionaries(st.sampled_from(FIELD_NAMES), JSON_VALUES, max_size=5))
        junk.pop("type", None)
        return junk
    if kind == "bad_type":
        bad = draw(JSON_VALUES.filter(lambda v: not isinstance(v, str) or v not in {*COMMAND_TYPES, "undo", "redo"}))
        return {"type": bad, **draw(st.dictionaries(st.sampled_from(FIELD_NAMES), JSON_VALUES, max_size=3))}
    model = draw(st.sampled_from(COMMAND_MODELS))
    command = template(model, actor, target)
    fields = [n for n in model.model_fields if n != "type"]
    required = [n for n in fields if model.model_fields[n].is_required()]
    if kind == "drop" and required:
        del command[draw(st.sampled_from(required))]
    elif kind == "retype" and fields:
        name = draw(st.sampled_from(fields))
        command[name] = draw(_wrong_kind(model, name))
    elif kind == "huge" and any(model.model_fields[n].annotation is int for n in fields):
        name = draw(st.sampled_from([n for n in fields if model.model_fields[n].annotation is int]))
        too_big = [101, 10**30, 10**400] if name == "amount" else []
        command[name] = draw(st.sampled_from([-1, -(10**30), -(10**400), *too_big]))
    else:
        command[draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in model.model_fields))] = draw(JSON_VALUES)
    return command


def _ids(g: Game) -> st.SearchStrategy[str]:
    known = set(g.table.state.creatures)
    return st.text(max_size=12).filter(lambda s: s not in known) | st.sampled_from(["", " ayla", "AYLA", "ayla\x00"])


KINDS = ("not_mine", "soulweaver_only", "not_my_turn", "hidden", "unknown_id", "decision", "spectator", "meta")
SOULWEAVER_KINDS = ("unknown_id", "decision", "meta", "off_map", "stale")


@st.composite
def wrong_in_context(draw: st.DrawFn, g: Game, player: str | None = None) -> tuple[str, Json, Json]:
    """A schema-valid command that the table refuses: the wrong seat, creature, turn, decision or screen. With
    `player`, one that this player sends."""
    state = g.table.state
    current = state.turn.current
    owner = state.creatures[current].controller if current in state.creatures else None
    if player is None:
        kind = draw(st.sampled_from(sorted({*KINDS, *SOULWEAVER_KINDS})))
        player = draw(st.sampled_from(PLAYERS))
    else:
        kind = draw(st.sampled_from([k for k in KINDS if k != "spectator" and (k != "not_my_turn" or owner != player)]))
    mine = g.controlled_by(player)
    if kind == "not_mine":
        actor = draw(st.sampled_from([c for c in g.visible if c not in mine]))
        model = draw(st.sampled_from([m for m in COMMAND_MODELS if "creature" in m.model_fields]))
        return player, template(model, actor, draw(st.sampled_from(g.visible))), None
    if kind == "soulweaver_only":
        model = draw(st.sampled_from([m for m in COMMAND_MODELS if m.model_fields["type"].default in SOULWEAVER_ONLY]))
        return player, template(model, draw(st.sampled_from(mine)), draw(st.sampled_from(g.visible))), None
    if kind == "not_my_turn":
        return (
            player if player != owner else draw(st.sampled_from([p for p in PLAYERS if p != owner])),
            {"type": "end_turn"},
            None,
        )
    if kind == "hidden":
        model = draw(st.sampled_from([m for m in COMMAND_MODELS if "target" in m.model_fields]))
        return player, template(model, draw(st.sampled_from(mine)), HIDDEN), None
    if kind == "unknown_id":
        model = draw(st.sampled_from([m for m in COMMAND_MODELS if {"creature", "target"} & set(m.model_fields)]))
        command = template(model, draw(st.sampled_from(g.visible)), draw(st.sampled_from(g.visible)))
        for name in {"creature", "target"} & set(command):
            command[name] = draw(_ids(g))
        return draw(st.sampled_from([SOULWEAVER, player])), command, None
    if kind == "decision":
        model = draw(st.sampled_from([m for m in COMMAND_MODELS if m.model_fields["type"].default in DECISIONS]))
        command = template(model, "x", draw(st.sampled_from(g.visible)))
        command["decision"] = draw(st.text(max_size=12))
        return draw(st.sampled_from([SOULWEAVER, player])), command, None
    if kind == "spectator":
        model = draw(st.sampled_from(COMMAND_MODELS))
        return SPECTATOR, template(model, draw(st.sampled_from(g.visible)), draw(st.sampled_from(g.visible))), None
    if kind == "meta":
        who = draw(st.sampled_from([SOULWEAVER, player, SPECTATOR]))
        return who, {"type": "redo" if who == SOULWEAVER else draw(st.sampled_from(["undo", "redo"]))}, None
    if kind == "off_map":
        far = draw(st.sampled_from([10**6, 2**63, 10**30, -1, -(10**30)]))
        cell = draw(st.sampled_from([[far, 1], [1, far], [far, far]]))
        return SOULWEAVER, {"type": draw(st.sampled_from(["place", "move"])), "creature": "goblin", "to": cell}, None
    cid = draw(st.sampled_from(g.visible))
    seen = {cid: g.table.version(cid) + draw(st.integers(min_value=1, max_value=10**6))}
    return SOULWEAVER, {"type": "place", "creature": "goblin", "to": [14, 8]}, seen


def bad_submissions(g: Game, player: str | None = None) -> st.SearchStrategy[tuple[str, Json, Json]]:
    """Commands that must be refused, with their sender and `seen`; with `player`, all sent by that player."""
    senders = st.just(player) if player else st.sampled_from([SOULWEAVER, *PLAYERS, SPECTATOR])
    actor, target = g.controlled_by("alice")[0], "goblin"
    malformed = st.tuples(senders, malformed_commands(actor, target), st.none() | JSON_VALUES)
    return malformed | wrong_in_context(g, player)


def _seen_ok(seen: Json) -> bool:
    return seen is None or (
        isinstance(seen, dict) and all(isinstance(v, int) and not isinstance(v, bool) for v in seen.values())
    )


# ---- Table.submit ---------------------------------------------------------------------------------------------


def test_bad_commands_sent_to_the_table_change_nothing(game: Game) -> None:
    before = game.snapshot()

    @EXAMPLES
    @given(bad_submissions(game))
    def check(submission: tuple[str, Json, Json]) -> None:
        who, command, seen = submission
        if not _seen_ok(seen):
            seen = None  # the API refuses such `seen` before the table sees it (tested below)
        ok, error = game.submit(who, command, seen)
        assert not ok and error, (who, command)
        assert game.snapshot() == before

    check()


def test_distract_refuses_a_sound_off_the_map(game: Game) -> None:
    while game.table.state.turn.current != "ayla":
        assert game.submit(SOULWEAVER, {"type": "end_turn"})[0]
    before = game.snapshot()
    command = {"type": "distract", "creature": "ayla", "targets": ["wolf"], "sound_at": [10**30, 0]}
    ok, error = game.submit("alice", command)
    assert not ok and error
    assert game.snapshot() == before


# ---- the API --------------------------------------------------------------------------------------------------


def _app(games: Games) -> FastAPI:
    app = FastAPI()
    app.include_router(make_router(games, max_upload=4096))
    return app


BODY_JUNK = (
    st.binary(max_size=200)
    | JSON_VALUES.map(lambda v: json.dumps(v).encode())
    | st.dictionaries(st.sampled_from(["command", "seen", "id", "cmd", ""]), JSON_VALUES, max_size=4).map(
        lambda v: json.dumps(v).encode()
    )
    | NESTED_JUNK.map(lambda v: json.dumps({"command": v}).encode())
    | DEEP_TEXT
)


def _body(submission: tuple[str, Json, Json]) -> tuple[str, bytes]:
    who, command, seen = submission
    body: dict[str, Json] = {"command": command}
    if seen is not None:
        body["seen"] = seen
    return who, json.dumps(body).encode()


def test_bad_api_bodies_get_a_4xx_or_a_refusal_and_change_nothing(game: Game) -> None:
    before = game.snapshot()
    secrets = {key: seat.secret for key, seat in game.seats.items()} | {SPECTATOR: "no-such-seat"}
    bodies = st.tuples(st.sampled_from(sorted(secrets)), BODY_JUNK) | bad_submissions(game).map(_body)
    with TestClient(_app(game.games)) as client:

        @EXAMPLES
        @given(bodies)
        def check(request: tuple[str, bytes]) -> None:
            who, body = request
            got = client.post(f"/api/seat/{secrets[who]}/commands", content=body)
            assert got.status_code in (200, 400, 404, 413), got.text
            answer = got.json()
            assert answer["ok"] is False and answer["error"] and answer["seq"] is None, (who, body, answer)
            assert game.snapshot() == before

        check()
        assert client.get(f"/api/seat/{secrets['alice']}/state").status_code == 200


def test_bad_websocket_messages_are_answered_and_change_nothing(game: Game) -> None:
    before = game.snapshot()
    messages = BODY_JUNK | bad_submissions(game, "alice").map(lambda s: _body(s)[1])
    with (
        TestClient(_app(game.games)) as client,
        client.websocket_connect(f"/api/seat/{game.seats['alice'].secret}/events") as ws,
    ):
        assert ws.receive_json()["kind"] == "state"

        @EXAMPLES
        @given(messages, st.booleans())
        def check(message: bytes, as_text: bool) -> None:
            try:
                text = message.decode()
            except UnicodeDecodeError:
                as_text = False
            if as_text:
                ws.send_text(text)
            else:
                ws.send_bytes(message)
            answer = ws.receive_json()
            assert answer["kind"] == "outcome" and answer["ok"] is False and answer["error"], (message, answer)
            assert game.snapshot() == before

        check()


def test_bad_uploads_are_refused_and_store_nothing(game: Game) -> None:
    sw = game.seats[SOULWEAVER].secret
    content_types = st.sampled_from(["image/png", "image/jpeg", "image/webp", "image/gif", "", "text/plain; x=1"])
    prefixes = st.sampled_from([b"", b"\x89PNG\r\n\x1a", b"\xff\xd8", b"RIFF\x00\x00\x00\x00WEB", b"GIF89a"])
    with TestClient(_app(game.games)) as client:

        @EXAMPLES
        @given(content_types, prefixes, st.binary(max_size=64))
        def check(content_type: str, prefix: bytes, rest: bytes) -> None:
            assume(image_type(prefix + rest) != content_type)  # random bytes may complete a real image's magic
            got = client.post(
                f"/api/seat/{sw}/background", content=prefix + rest, headers={"content-type": content_type}
            )
            assert got.status_code in (400, 413, 415), got.text
            assert got.json()["ok"] is False
            assert client.get(f"/api/games/{game.game_id}/background").status_code == 404

        check()


# ---- scenario files and new games -----------------------------------------------------------------------------


def _paths(value: Json, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


ALL_PATHS = list(_paths(DEMO))


def _get(data: Json, path: tuple[str | int, ...]) -> Json:
    for part in path:
        data = data[part]
    return data


def _required(model: type[BaseModel | Record]) -> list[str]:
    return [n for n, f in model.model_fields.items() if f.is_required()]


REQUIRED_PATHS: list[tuple[str | int, ...]] = [
    ("board",),  # games start from map files (format 1), whose other top-level keys are optional
    ("board", "cols"),
    ("board", "rows"),
    *(("creatures", i, k) for i in range(len(DEMO["creatures"])) for k in _required(Creature)),
    *(("weapons", i, k) for i in range(len(DEMO["weapons"])) for k in _required(Weapon)),
]


@st.composite
def broken_scenarios(draw: st.DrawFn) -> Json:
    """The demo map with a required field dropped or a field given a value of a kind it never takes."""
    data = copy.deepcopy(DEMO)
    if draw(st.booleans()):
        path = draw(st.sampled_from(REQUIRED_PATHS))
        del _get(data, path[:-1])[path[-1]]
        return data
    path = draw(st.sampled_from(ALL_PATHS))
    old = _get(data, path)
    new = draw(st.lists(JSON_VALUES, max_size=3)) if isinstance(old, dict) else {"junk": draw(JSON_VALUES)}
    _get(data, path[:-1])[path[-1]] = new
    return data


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> Json:
    """The demo map with any part removed or replaced by any JSON value; it may still be a valid scenario."""
    data = copy.deepcopy(DEMO)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = list(_paths(data))
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = _get(data, path[:-1])
        if draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(JSON_VALUES | NESTED_JUNK)
    return data


@EXAMPLES
@given(broken_scenarios())
def test_a_broken_scenario_is_refused_with_a_scenario_error(data: Json) -> None:
    with pytest.raises(ScenarioError):
        load_scenario(data)


@EXAMPLES
@given(mutated_scenarios())
def test_a_mutated_scenario_loads_or_is_refused_with_a_scenario_error(data: Json) -> None:
    try:
        load_scenario(data)
    except ScenarioError as exc:
        assert exc.problems


def _games_on(tmp_path: Path) -> Games:
    maps = tmp_path / "maps"
    maps.mkdir(exist_ok=True)
    (maps / "demo.json").write_text(json.dumps(DEMO))
    return Games(open_engine(f"sqlite:///{tmp_path}/new.sqlite"), maps)


def _stored(games: Games) -> tuple[object, ...]:
    listed = db.list_games(games.engine)
    return tuple(listed), tuple(tuple(db.seats(games.engine, g.id)) for g in listed)


def _not_a_map(data: Json) -> bool:
    """A broken scenario may still be a good map: a map file's reader takes the starting state, not the commands."""
    try:
        load_map(data)
    except MapError:
        return True
    return False


def test_a_new_game_from_a_broken_map_file_is_refused_and_stores_nothing(tmp_path: Path) -> None:
    games = _games_on(tmp_path)
    games.create("Existing", "demo.json", "hex", "Mira")
    before = _stored(games)
    files: st.SearchStrategy[bytes] = (
        broken_scenarios().filter(_not_a_map).map(lambda d: json.dumps(d).encode())
        | st.binary(max_size=100)
        | NESTED_JUNK.map(lambda v: json.dumps(v).encode())
        | st.just(b"\xff\xfe{ not utf-8")
    )

    @EXAMPLES
    @given(files)
    def check(content: bytes) -> None:
        (tmp_path / "maps" / "broken.json").write_bytes(content)
        with pytest.raises(GameError):
            games.create("A new game", "broken.json", "hex", "Mira")
        assert _stored(games) == before

    check()


def test_a_new_game_from_a_mutated_map_file_is_made_whole_or_not_at_all(tmp_path: Path) -> None:
    games = _games_on(tmp_path)
    made = [0]

    @FEWER_EXAMPLES
    @given(mutated_scenarios())
    def check(data: Json) -> None:
        (tmp_path / "maps" / "mutant.json").write_text(json.dumps(data))
        before = _stored(games)
        made[0] += 1
        try:
            new = games.create(f"Mutant {made[0]}", "mutant.json", "hex", "Mira")
        except GameError:
            assert _stored(games) == before
            return
        assert [s.role for s in games.seats(new.game_id)] == ["soulweaver"]
        assert games.table(new.game_id).log == []

    check()


TEXT = st.text(max_size=80)


def _fine(name: str) -> bool:
    cleaned = " ".join(name.split())
    return bool(cleaned) and len(cleaned) <= 60


@st.composite
def bad_new_games(draw: st.DrawFn) -> tuple[str, str, str, str]:
    """A new-game form with one thing wrong: the name, the map, the grid, the Soulweaver's name, or a name taken."""
    wrong = draw(st.sampled_from(["name", "map", "grid", "who", "taken"]))
    name = draw(TEXT.filter(_fine)) if wrong != "taken" else "Existing"
    map_name, grid, who = "demo.json", "hex", draw(TEXT.filter(_fine))
    if wrong == "name":
        name = draw(st.sampled_from(["", "   ", "\n\t", "x" * 61]) | TEXT.filter(lambda s: not _fine(s)))
    elif wrong == "map":
        map_name = draw(TEXT.filter(lambda s: s != "demo.json") | st.sampled_from(["../demo.json", "/etc/passwd"]))
    elif wrong == "grid":
        grid = draw(TEXT.filter(lambda s: s not in ("hex", "square")))
    elif wrong == "who":
        who = draw(st.sampled_from(["", " ", "y" * 61]))
    return name, map_name, grid, who


def test_a_bad_new_game_form_is_refused_and_stores_nothing(tmp_path: Path) -> None:
    games = _games_on(tmp_path)
    games.create("Existing", "demo.json", "hex", "Mira")
    before = _stored(games)

    @EXAMPLES
    @given(bad_new_games())
    def check(form: tuple[str, str, str, str]) -> None:
        name, map_name, grid, who = form
        with pytest.raises(GameError):
            games.create(name, map_name, typing.cast(Any, grid), who)
        assert _stored(games) == before

    check()


# ---- game archives --------------------------------------------------------------------------------------------


def _played_archive(game: Game) -> Json:
    """The fixture's game with a few more commands (a move, a hidden creature placed, an undo), exported."""
    assert game.submit(SOULWEAVER, {"type": "place", "creature": "goblin", "to": [14, 8]})[0]
    assert game.submit(SOULWEAVER, {"type": "place", "creature": HIDDEN, "to": [12, 3]})[0]
    assert game.submit(SOULWEAVER, {"type": "undo"})[0]
    return json.loads(json.dumps(game.games.export_game(game.game_id)))


@st.composite
def mutated_archives(draw: st.DrawFn, archive: Json) -> Json:
    """The archive with a few parts removed or replaced by any JSON value; it may still be a good archive."""
    data = copy.deepcopy(archive)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = [p for p in _paths(data) if p[0] != "initial_state" or len(p) < 6]
        path = draw(st.sampled_from(paths))
        parent = _get(data, path[:-1])
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(JSON_VALUES | NESTED_JUNK)
    return data


def test_a_mutated_archive_is_imported_whole_and_playable_or_refused_and_stores_nothing(game: Game) -> None:
    """Whatever an archive holds, the import is refused with a plain message and stores nothing, or it makes a game
    that loads and shows: its stored events are the replay's, never the file's."""
    archive = _played_archive(game)
    games = game.games

    @FEWER_EXAMPLES
    @given(mutated_archives(archive) | st.binary(max_size=200))
    def check(data: Json) -> None:
        before = _stored(games)
        try:
            made = games.import_game(data if isinstance(data, bytes) else json.dumps(data).encode(), "Tam")
        except GameError as exc:
            assert str(exc).startswith("this is not a game archive that can be imported: ")
            assert "Value error" not in str(exc) and "Traceback" not in str(exc)
            assert _stored(games) == before
            return
        table = Table.load(games.engine, made.game_id)
        replayed = check_archive(data if not isinstance(data, bytes) else json.loads(data))
        assert [r.events for r in table.log] == [r["events"] for r in replayed.log]
        alice = next(s for s in games.seats(made.game_id) if s.key == "alice")
        json.dumps(seat_view(table, alice))
        table.close()

    check()


# ---- browser events -------------------------------------------------------------------------------------------

EVENT_KEYS = ["id", "q", "r", "v", "x", "y", "cells", "erase", "from", "to", "key"]
EVENT_ARGS = JSON_VALUES | st.dictionaries(
    st.sampled_from(EVENT_KEYS),
    JSON_VALUES
    | HUGE
    | st.sampled_from(["ayla", 3, -2, "undo", "end_turn"])
    | st.lists(st.integers(), max_size=3)
    | st.lists(st.lists(st.integers(), max_size=3), max_size=4),
    max_size=6,
)
PROMISED: dict[str, dict[str, type | tuple[type, ...]]] = {
    "token_move": {"id": str, "q": int, "r": int},
    "token_click": {"id": str},
    "token_refused": {"id": str},
    "cell_click": {"q": int, "r": int},
    "paint_stroke": {"cells": list, "erase": bool},
    "cancel": {},
    "ping": {"q": int, "r": int},
    "ruler": {"from": list, "to": list},
    "ruler_end": {},
    "key": {"key": str},
}
OPTIONAL: dict[str, dict[str, type]] = {
    "token_move": {"v": int},
    "token_click": {"x": float, "y": float, "w": float, "h": float},
}


@EXAMPLES
@given(st.sampled_from(sorted(PROMISED)), EVENT_ARGS)
def test_a_random_browser_event_is_dropped_or_reaches_its_handler_in_its_promised_shape(name: str, args: Json) -> None:
    """Whatever a script sends as an element event, the map's handlers get the shape they are promised or nothing."""
    out = clean_event(name, args)
    if out is None:
        return
    required, optional = PROMISED[name], OPTIONAL.get(name, {})
    assert set(required) <= set(out) <= set(required) | set(optional), out
    for key, value in out.items():
        kind = required.get(key) or optional[key]
        assert isinstance(value, kind) and (kind is bool or not isinstance(value, bool)), (key, value)
        if isinstance(value, int) and key != "v":
            assert abs(value) <= COORD_MAX
    for cell in [*out.get("cells", []), *(out[k] for k in ("from", "to") if k in out)]:
        assert len(cell) == 2 and all(type(v) is int and abs(v) <= COORD_MAX for v in cell)
    if name == "key":
        assert out["key"] in KEYS
