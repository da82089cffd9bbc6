"""Exporting and importing a whole game (`vtt/table/archive.py`, `Games.export_game` / `Games.import_game`): a
game played with map edits, a fight, undo and redo is exported to JSON, imported into a FRESH database and comes
back with the same state and the same log; a malformed archive is refused and stores nothing. On SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from e2e.pg_server import PostgresDatabases
from vtt.library import library_creature
from vtt.rules.dice import RandomDice
from vtt.rules.engine import legal_actions
from vtt.rules.limits import CREATURE_SIZE_MAX
from vtt.rules.turns import active_creatures
from vtt.store import db
from vtt.store.db import open_engine
from vtt.table.archive import ArchiveError, check_archive, check_archive_offloaded
from vtt.table.registry import GameError, Games
from vtt.table.table import Table, Viewer

MAPS = Path(__file__).resolve().parents[1] / "maps"
SW = Viewer("soulweaver", "Mira")
PNG = "data:image/png;base64,iVBORw0KGgo="


@pytest.fixture
def fresh_url(database_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """Another empty database on the same kind of server as `database_url`."""
    if database_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path}/fresh.sqlite"
    databases: PostgresDatabases = request.getfixturevalue("postgres_databases")
    return databases.new()


def _ok(table: Table, viewer: Viewer, cmd: dict[str, Any]) -> None:
    out = asyncio.run(table.submit(viewer, cmd))
    assert out.ok, (cmd, out.error)
    _answer(table)


def _answer(table: Table) -> None:
    """Answer every decision that waits, as the Soulweaver may: Hinder, and roll defenses."""
    while table.state.pending:
        d = table.state.pending[0]
        cmd: dict[str, Any] = {"type": "react", "decision": d.id, "hinder": True}
        if d.kind == "defense":
            cmd = {"type": "defend", "decision": d.id}
        elif d.kind == "order":
            cmd = {"type": "choose_order", "decision": d.id, "order": d.payload.get("order", [])}
        assert asyncio.run(table.submit(SW, cmd)).ok


def _play(games: Games, game_id: int) -> None:
    table = games.table(game_id)
    _ok(table, SW, {"type": "edit_board", "layer": "uneven", "paint": [[6, 12], [7, 12]], "tier": 2})
    _ok(table, SW, {"type": "edit_board", "layer": "object", "paint": [[15, 17]], "object": {"name": "Crate"}})
    _ok(table, SW, {"type": "set_background", "image": PNG, "offset": [3, 4], "cell_px": 48, "opacity": 0.7})
    _ok(table, SW, library_creature("goblin", (20, 15)))
    _ok(table, SW, library_creature("goblin", (20, 16)))
    _ok(table, SW, {"type": "begin"})
    for _ in range(8):
        s = table.state
        for cid in active_creatures(s)[:2]:
            c = s.creatures[cid]
            who = Viewer("player", c.controller) if c.controller else SW
            options = legal_actions(table.state, cid)
            strike = next((o for o in options if o.action == "strike" and o.targets), None)
            move = next((o for o in options if o.action == "move" and o.spaces), None)
            if strike is not None:
                cmd = {"type": "strike", "creature": cid, "target": strike.targets[0].target, **strike.params}
                _ok(table, who, cmd)
            elif move is not None:
                _ok(table, who, {"type": "move", "creature": cid, "to": list(move.spaces[0])})
        current = table.state.turn.current
        now = table.state.creatures.get(current or "")
        _ok(table, Viewer("player", now.controller) if now and now.controller else SW, {"type": "end_turn"})
    _ok(table, SW, {"type": "undo"})
    _ok(table, SW, {"type": "undo"})
    _ok(table, SW, {"type": "redo"})
    _ok(table, SW, {"type": "remove_creature", "creature": "goblin_2"})
    _ok(table, SW, {"type": "undo"})


def _log(table: Table) -> list[tuple[Any, ...]]:
    return [(r.seq, r.sender, r.command, r.faces, r.events, r.time, r.undone) for r in table.log]


def test_an_exported_game_imports_into_a_fresh_database_the_same(database_url: str, fresh_url: str) -> None:
    engine = open_engine(database_url)
    games = Games(engine, MAPS, dice=lambda: RandomDice(11))
    made = games.create("Skirmish at the Hall", "demo.json", "hex", "Mira")
    _play(games, made.game_id)
    games.close()
    original = Table.load(engine, made.game_id)
    kinds = [r.kind for r in original.log]
    assert {"edit_board", "set_background", "add_creature", "begin", "end_turn", "undo", "redo"} <= set(kinds)
    assert any(r.faces for r in original.log) and any(r.undone for r in original.log)
    assert {r.sender for r in original.log} >= {"soulweaver"}

    archive = json.loads(json.dumps(Games(engine, MAPS).export_game(made.game_id)))
    assert archive["format"] == 1 and archive["name"] == "Skirmish at the Hall" and archive["map"] == "demo.json"
    assert [e["seq"] for e in archive["log"]] == list(range(1, len(original.log) + 1))

    other = open_engine(fresh_url)
    assert db.list_games(other) == []
    imported_games = Games(other, MAPS)
    new = imported_games.import_game(archive, "Tam")
    assert new.soulweaver.role == "soulweaver" and new.soulweaver.name == "Tam" and new.invitation
    copy_ = Table.load(other, new.game_id)
    assert copy_.name == "Skirmish at the Hall"
    assert copy_.state.model_dump() == original.state.model_dump()
    assert copy_.initial.model_dump() == original.initial.model_dump()
    assert _log(copy_) == _log(original)
    again = imported_games.export_game(new.game_id)
    assert {k: v for k, v in again.items() if k != "exported"} == {k: v for k, v in archive.items() if k != "exported"}
    players = {s.key for s in imported_games.seats(new.game_id) if s.role == "player"}
    assert players >= {"alice", "bob"}  # the demo's controllers keep seats with their keys

    # The name is taken now: a second import gets another one.
    second = imported_games.import_game(archive, "Tam")
    assert Table.load(other, second.game_id).name == "Skirmish at the Hall (2)"
    imported_games.close()


def _valid_archive() -> dict[str, Any]:
    from factories import creature, state

    s = state(creature("ayla", (2, 2), controller="alice"), creature("orc", (3, 2)))
    entry = {"seq": 1, "sender": "soulweaver", "command": {"type": "place", "creature": "orc", "to": [5, 5]},
             "faces": [], "events": [{"kind": "place", "text": "The Soulweaver places Orc at (5, 5)."}],
             "time": "2026-05-01T12:00:00+00:00"}  # fmt: skip
    undo = {"seq": 2, "sender": "soulweaver", "command": {"type": "undo", "seqs": [1]}, "faces": [], "events": [],
            "time": "2026-05-01T12:00:05+00:00"}  # fmt: skip
    return {"format": 1, "kind": "soulshards-vtt-game", "name": "Small", "map": "",
            "initial_state": s.model_dump(mode="json"), "log": [entry, undo]}  # fmt: skip


def test_the_small_archive_is_valid() -> None:
    a = check_archive(_valid_archive())
    assert a.final_state.creatures["orc"].anchor == (3, 2)  # the place was undone
    assert a.players() == ["alice"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda a: a.update(format=2), "format: must be 1"),
        (lambda a: a.pop("initial_state"), "initial_state: missing"),
        (lambda a: a["initial_state"]["board"].update(cols=0), "initial_state.board.cols: at least 1"),
        (lambda a: a.update(name=" "), "name: must be a non-empty string"),
        (lambda a: a.update(name="Small\x00game"), "name: holds a control character"),
        (lambda a: a.update(name="x" * 81), "name: at most 80 characters"),
        (lambda a: a.update(map="\ud800"), "map: holds a broken character"),
        (lambda a: a.update(log={}), "log: must be a list"),
        (lambda a: a["log"][0].update(faces=[13]), "log entry 1 (seq 1): its face 1 (13) is not a d12 face"),
        (lambda a: a["log"][0].update(seq=5), "log entry 1 (seq 5): its seq must be 1"),
        (lambda a: a["log"][0].pop("sender"), "log entry 1 (seq 1): its sender is missing"),
        (lambda a: a["log"][0].update(sender="al\x07ice"), "its sender holds a control character"),
        (lambda a: a["log"][0].update(sender="alice"), 'its sender "alice" may not send it: only the Soulweaver'),
        (
            lambda a: a["log"][0].update(sender="time limit"),
            "the time limit only answers reactions and defenses, not place",
        ),
        (lambda a: a["log"][0].update(time="yesterday"), "log entry 1 (seq 1): its time must be an ISO 8601 time"),
        (lambda a: a["log"][0].update(events={}), "log entry 1 (seq 1): its events must be a list"),
        (lambda a: a["log"][0].update(extra=1), 'log entry 1 (seq 1): "extra" is not part of a log entry'),
        (
            lambda a: (a["log"].pop(), a["log"][0]["command"].update(creature="troll")),
            "log entry 1 (seq 1): the rules do not allow its command (place) there",
        ),
        (lambda a: a["log"][0]["command"].update(type="fly"), "log entry 1 (seq 1), its command.type: unknown command"),
        (lambda a: a["log"][0]["command"].update(type=["message"]), "log entry 1 (seq 1), its command.type"),
        (lambda a: (a["log"].pop(), a["log"][0].update(faces=[3])), "1 of its recorded faces are left over"),
        (lambda a: a["log"][1]["command"].update(seqs=[2]), "this undo takes back [2], but Undo there takes back [1]"),
        (lambda a: a["log"][1]["command"].update(type="redo"), "a redo plays the last undo again, and [1] is not it"),
        (lambda a: a["log"][1].update(sender="alice"), "only the Soulweaver undoes and redoes"),
        (lambda a: a.update(extra=1), '"extra": not part of a game archive'),
        (
            lambda a: a["initial_state"]["creatures"]["orc"].update(size=2000),
            "initial_state.creatures.orc.size: at most 12",
        ),
        (
            lambda a: a["initial_state"]["board"].update(cols=1000, rows=1000),
            "initial_state.board.cols: at most 200",
        ),
        (
            lambda a: a["initial_state"]["creatures"]["orc"].update(controller="time limit"),
            'player "time limit": a name the table uses itself',
        ),
    ],
)
def test_a_malformed_archive_is_refused_and_stores_nothing(database_url: str, change: Any, expected: str) -> None:
    engine = open_engine(database_url)
    games = Games(engine, MAPS)
    archive = copy.deepcopy(_valid_archive())
    change(archive)
    with pytest.raises(GameError) as info:
        games.import_game(archive, "Tam")
    assert expected in str(info.value), str(info.value)
    assert db.list_games(engine) == []
    assert games.import_game(_valid_archive(), "Tam").game_id > 0  # the good one is taken
    games.close()


def test_an_archive_that_is_not_an_object_is_refused(tmp_path: Path) -> None:
    games = Games(open_engine(f"sqlite:///{tmp_path}/g.sqlite"), MAPS)
    bad: object
    for bad in ([], "game", None):
        with pytest.raises(GameError, match="archive: must be a JSON object"):
            games.import_game(bad, "Tam")
    with pytest.raises(GameError, match="there is no game 99"):
        games.export_game(99)


TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc0000003010100"
    "c9fe92ef0000000049454e44ae426082"
)


def test_the_maps_uploaded_picture_goes_with_the_game(tmp_path: Path) -> None:
    """Export a game whose background is its uploaded picture; the imported game serves the same bytes at its own
    path, and its state names that path."""
    engine = open_engine(f"sqlite:///{tmp_path}/a.sqlite")
    games = Games(engine, MAPS)
    made = games.create("Pictured", "demo.json", None, "Mira")
    db.save_upload(engine, made.game_id, "background", "image/png", TINY_PNG)
    path = f"/api/games/{made.game_id}/background"
    table = games.table(made.game_id)
    _ok(table, SW, {"type": "set_background", "image": path, "offset": [0, 0], "cell_px": 40, "opacity": 1})
    games.close()
    archive = json.loads(json.dumps(Games(engine, MAPS).export_game(made.game_id)))
    assert archive["uploads"]["background"]["path"] == path

    other = open_engine(f"sqlite:///{tmp_path}/b.sqlite")
    db.create_game(other, "Someone else's", {"board": {"cols": 1, "rows": 1}})  # the import gets another id
    imported = Games(other, MAPS).import_game(archive, "Tam")
    assert imported.game_id != made.game_id
    picture = db.load_upload(other, imported.game_id, "background")
    assert picture is not None and picture.data == TINY_PNG and picture.content_type == "image/png"
    background = Table.load(other, imported.game_id).state.board.background
    assert background is not None and background.image == f"/api/games/{imported.game_id}/background"


@pytest.mark.parametrize(
    ("upload", "expected"),
    [
        ({"path": "/api/games/1/background", "content_type": "image/gif", "data": ""}, "content_type: must be one of"),
        ({"path": "/etc/passwd", "content_type": "image/png", "data": ""}, "path: must be the /api/games/"),
        ({"path": "/api/games/1/background", "content_type": "image/png", "data": "%%%"}, "data: not base64"),
        ({"path": "/api/games/1/background", "content_type": "image/jpeg", "data": "iVBORw0KGgo="}, "not a image/jpeg"),
    ],
)
def test_a_bad_picture_in_an_archive_is_refused(tmp_path: Path, upload: dict[str, Any], expected: str) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/g.sqlite")
    archive = _valid_archive()
    archive["uploads"] = {"background": upload}
    with pytest.raises(GameError, match=expected):
        Games(engine, MAPS).import_game(archive, "Tam")
    assert db.list_games(engine) == []


def test_the_archives_events_are_never_stored_the_replay_gives_them(tmp_path: Path) -> None:
    """A tampered event (a roll `result` that is markup, an event the rules never make) is not what the imported
    game shows: its log holds the events the replay gave, the same as a game that played the command."""
    archive = _valid_archive()
    archive["log"][0]["events"] = [{"kind": 5, "rolls": [{"result": '<img src=x onerror="alert(1)">'}]}, "junk"]
    engine = open_engine(f"sqlite:///{tmp_path}/g.sqlite")
    games = Games(engine, MAPS)
    made = games.import_game(archive, "Tam")
    stored = db.load_log(engine, made.game_id)
    played = Table("Small", check_archive(_valid_archive()).initial_state)
    _ok(played, SW, {"type": "place", "creature": "orc", "to": [5, 5]})
    assert stored[0]["events"] == played.log[0].events and "onerror" not in json.dumps(stored)
    assert stored[1]["events"][0]["text"] == "The Soulweaver takes back: " + played.log[0].events[0]["text"]
    assert Table.load(engine, made.game_id).state.creatures["orc"].anchor == (3, 2)
    played.close()
    games.close()


@pytest.mark.parametrize(
    ("limit", "value", "change", "expected"),
    [
        ("ARCHIVE_COMMANDS_MAX", 1, lambda a: None, "log: 2 commands; a game archive holds at most 1"),
        (
            "SEATS_MAX",
            1,
            lambda a: a["initial_state"]["creatures"]["orc"].update(controller="bob"),
            "players: 2 players; a game has at most 1 player seats",
        ),
    ],
)
def test_an_archive_over_a_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str, value: int, change: Any, expected: str
) -> None:
    """`vtt/rules/limits.py`'s limits, lowered here so that a small archive is over them."""
    monkeypatch.setattr(f"vtt.table.archive.{limit}", value)
    archive = _valid_archive()
    change(archive)
    engine = open_engine(f"sqlite:///{tmp_path}/g.sqlite")
    with pytest.raises(GameError, match=re.escape(expected)):
        Games(engine, MAPS).import_game(archive, "Tam")
    assert db.list_games(engine) == []


def test_an_archive_file_too_big_or_not_json_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/g.sqlite")
    games = Games(engine, MAPS)
    raw = json.dumps(_valid_archive()).encode()
    monkeypatch.setattr("vtt.table.archive.ARCHIVE_BYTES_MAX", len(raw) - 1)
    with pytest.raises(GameError, match="the file is bigger than"):
        games.import_game(raw, "Tam")
    monkeypatch.undo()
    for bad, expected in ((b"\xff\xfe", "not text"), (b"[" * 100_000, "not JSON"), (b'{"format": NaN}', "not JSON")):
        with pytest.raises(GameError, match=expected):
            games.import_game(bad, "Tam")
    assert db.list_games(engine) == []
    assert games.import_game(raw, "Tam").game_id > 0


def test_the_web_import_checks_the_file_in_another_process_and_stores_it(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/g.sqlite")
    games = Games(engine, MAPS)
    bad = _valid_archive()
    bad["log"][0]["faces"] = [0]
    with pytest.raises(GameError, match="its face 1 \\(0\\) is not a d12 face"):
        asyncio.run(games.import_archive(json.dumps(bad).encode(), "Tam"))
    assert db.list_games(engine) == []
    made = asyncio.run(games.import_archive(json.dumps(_valid_archive()).encode(), "Tam"))
    assert [g.id for g in db.list_games(engine)] == [made.game_id]
    assert Table.load(engine, made.game_id).state.creatures["orc"].anchor == (3, 2)
    games.close()


def test_a_check_over_its_time_budget_is_stopped() -> None:
    """An archive of 400 moves takes about 85 ms of CPU to check (its start not counted): far over 0.01 s."""
    archive = _valid_archive()
    move = archive["log"][0]
    archive["log"] = [{**move, "seq": i + 1, "command": {**move["command"], "to": [5 + i % 2, 5]}} for i in range(400)]
    with pytest.raises(ArchiveError, match=re.escape("took longer than 0.01 seconds; it was stopped")):
        check_archive_offloaded(json.dumps(archive).encode(), seconds=0.01)
    assert check_archive_offloaded(json.dumps(archive).encode()).final_state.creatures["orc"].anchor == (6, 5)


def test_the_checker_s_start_is_not_counted_in_the_budget() -> None:
    """The checking process imports the rules and the store (about 1.7 s of CPU, and on a busy machine tens of
    seconds: imports failed for it) before the budget starts; the small archive's check takes milliseconds."""
    raw = json.dumps(_valid_archive()).encode()
    assert check_archive_offloaded(raw, seconds=1.0).final_state.creatures["orc"].anchor == (3, 2)


def test_a_command_that_takes_a_creature_past_its_size_limit_is_refused(tmp_path: Path) -> None:
    """The size limit holds for the states the log goes through, not only the first: checked after each command
    (by the command's own model, or by the replay after it), before the next can cost time or memory."""
    archive = _valid_archive()
    archive["initial_state"]["board"].update(cols=120, rows=120)
    archive["initial_state"]["creatures"]["orc"]["anchor"] = [60, 60]  # room for the largest footprint
    edit = {"type": "edit_creature", "creature": "orc", "changes": {"size": CREATURE_SIZE_MAX + 1}}
    archive["log"][0]["command"] = edit
    engine = open_engine(f"sqlite:///{tmp_path}/g.sqlite")
    with pytest.raises(GameError) as info:
        Games(engine, MAPS).import_game(archive, "Tam")
    assert "log entry 1 (seq 1)" in str(info.value) and "size" in str(info.value)
    assert db.list_games(engine) == []
