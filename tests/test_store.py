"""Storage: the migrations build and upgrade the schema, games keep their seats, invitations and command log, a
snapshot shortens a restart, and a reopened game is exactly the game that was played — on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from factories import creature, on_turn, state, weapon
from sqlalchemy import create_engine, inspect, text

from vtt.rules.model import GameState
from vtt.store import db
from vtt.store.db import migrate, open_engine
from vtt.table.registry import GameError, Games
from vtt.table.table import Table, Viewer

MAPS = Path(__file__).resolve().parents[1] / "maps"
SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")


def _game() -> GameState:
    sword = weapon("sword", damage=2)
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice", weapons=[sword], grip={"right_arm": "sword"}),
            creature("orc", (3, 2)),
            creature("rat", (8, 8), size=-2),
        ),
        "ayla",
    )


def _submit(table: Table, viewer: Viewer, cmd: dict[str, Any]) -> Any:
    out = asyncio.run(table.submit(viewer, cmd))
    return out


def test_the_migrations_make_every_table(database_url: str) -> None:
    engine = open_engine(database_url)
    tables = set(inspect(engine).get_table_names())
    assert {
        "game",
        "command",
        "user",
        "membership",
        "invitation",
        "snapshot",
        "upload",
        "library_creature",
        "server_setting",
        "library_picture",
        "alembic_version",
    } <= tables
    with engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == "0006"


def test_a_database_of_the_first_schema_is_upgraded_keeping_its_games(tmp_path: Path) -> None:
    """A database made by the first release (game and command tables, no migrations record) is recognised,
    stamped and upgraded; its games and logs survive."""
    url = f"sqlite:///{tmp_path}/old.sqlite"
    engine = create_engine(url)
    migrate(engine, "0001")
    with engine.begin() as conn:
        conn.execute(text("drop table alembic_version"))
        conn.execute(
            text("insert into game (id, name, initial_state, created) values (1, 'old', :s, '2026-01-01')"),
            {"s": json.dumps(_game().model_dump(mode="json"))},
        )
        conn.execute(
            text(
                "insert into command (game_id, seq, sender, command, faces, events, created) "
                "values (1, 1, 'alice', :c, '[]', '[]', '2026-01-01')"
            ),
            {"c": json.dumps({"type": "move", "creature": "ayla", "to": [2, 3]})},
        )
    upgraded = open_engine(url)
    table = Table.load(upgraded, 1)
    assert table.state.creatures["ayla"].anchor == (2, 3)
    assert db.list_games(upgraded)[0].commands == 1


def test_a_game_is_rebuilt_from_its_log(database_url: str) -> None:
    engine = open_engine(database_url)
    table = Table.open(engine, "g", _game())
    assert _submit(table, ALICE, {"type": "move", "creature": "ayla", "to": [2, 3]}).ok
    assert _submit(table, ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}).ok
    table.close()
    again = Table.open(engine, "g", _game())
    assert again.state.model_dump() == table.state.model_dump()
    assert [r.events for r in again.log] == [r.events for r in table.log]


def test_a_snapshot_is_stored_every_n_commands_and_used_on_reopening(database_url: str) -> None:
    engine = open_engine(database_url)
    game_id = db.create_game(engine, "g", _game().model_dump(mode="json"))
    table = Table.load(engine, game_id)
    table.snapshot_every = 2
    for to in ([2, 3], [2, 4], [3, 4]):
        assert _submit(table, SW, {"type": "place", "creature": "orc", "to": to}).ok
    table.close()  # its writes done: the writer thread stores a snapshot after everyone was told of its command
    assert db.snapshot_seqs(engine, game_id) == [2]
    snap = db.snapshot_state(engine, game_id, 2)
    assert snap is not None and GameState.model_validate(snap).creatures["orc"].anchor == (2, 4)
    again = Table.load(engine, game_id)
    assert again.state.model_dump() == table.state.model_dump()
    assert again.log[0].before is None  # taken from the snapshot, not replayed


class _Watcher:
    """A listener noting, when it is told of each command, which snapshots the database holds."""

    def __init__(self, engine: Any, game_id: int) -> None:
        self.engine, self.game_id = engine, game_id
        self.seen: list[tuple[int, list[int]]] = []

    def table_changed(self, change: Any) -> None:
        self.seen.append((change.record.seq, db.snapshot_seqs(self.engine, self.game_id)))


def test_a_snapshot_is_stored_after_everyone_is_told_of_its_command(database_url: str) -> None:
    """The command is stored and told first; its snapshot (a big map's state is a row of a megabyte) comes after."""
    engine = open_engine(database_url)
    game_id = db.create_game(engine, "g", _game().model_dump(mode="json"))
    table = Table.load(engine, game_id)
    table.snapshot_every = 1
    watcher = _Watcher(engine, game_id)
    table.subscribe(watcher)
    assert _submit(table, SW, {"type": "place", "creature": "orc", "to": [2, 3]}).ok
    assert watcher.seen == [(1, [])]
    assert [r["seq"] for r in db.load_log(engine, game_id)] == [1]
    table.wait_for_writes()
    assert db.snapshot_seqs(engine, game_id) == [1]
    snap = db.snapshot_state(engine, game_id, 1)
    assert snap is not None and "prone" not in snap["creatures"]["orc"], "a field at its default is left out"
    assert GameState.model_validate(snap).model_dump() == table.state.model_dump()
    table.close()


def test_a_snapshot_that_cannot_be_stored_is_logged_and_the_game_goes_on(
    database_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    engine = open_engine(database_url)
    game_id = db.create_game(engine, "g", _game().model_dump(mode="json"))
    table = Table.load(engine, game_id)
    table.snapshot_every = 1

    def full_disk(*_args: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(db, "store_snapshot", full_disk)
    assert _submit(table, SW, {"type": "place", "creature": "orc", "to": [2, 3]}).ok
    table.wait_for_writes()
    assert "a snapshot of a game could not be stored" in caplog.text
    assert _submit(table, SW, {"type": "place", "creature": "orc", "to": [2, 4]}).ok
    table.close()
    again = Table.load(engine, game_id)
    assert again.state.creatures["orc"].anchor == (2, 4) and db.snapshot_seqs(engine, game_id) == []
    again.close()


def test_undo_across_a_snapshot_replays_from_the_start(database_url: str) -> None:
    engine = open_engine(database_url)
    game_id = db.create_game(engine, "g", _game().model_dump(mode="json"))
    table = Table.load(engine, game_id)
    table.snapshot_every = 1
    assert _submit(table, SW, {"type": "place", "creature": "orc", "to": [5, 5]}).ok
    table.close()
    again = Table.load(engine, game_id)
    assert asyncio.run(again.submit(SW, {"type": "undo"})).ok
    assert again.state.creatures["orc"].anchor == (3, 2)
    third = Table.load(engine, game_id)
    assert third.state.creatures["orc"].anchor == (3, 2)
    assert third.log[0].undone


def test_games_seats_and_invitations(database_url: str) -> None:
    engine = open_engine(database_url)
    games = Games(engine, MAPS)
    made = games.create("Friday", "demo.json", "square", "Mira")
    assert made.soulweaver.role == "soulweaver" and made.soulweaver.name == "Mira"
    assert games.table(made.game_id).state.settings.grid == "square"
    sam = games.join(made.invitation, "Sam")
    sam2 = games.join(made.invitation, "Sam")
    assert (sam.key, sam2.key) == ("Sam", "Sam 2")
    assert games.seat(sam.secret) == sam
    assert games.players(made.game_id) == {"Sam": "Sam", "Sam 2": "Sam"}
    games.revoke(made.game_id, made.invitation)
    with pytest.raises(GameError, match="revoked or mistyped"):
        games.join(made.invitation, "Eve")
    assert games.seat("not-a-secret") is None


@pytest.mark.parametrize(
    ("name", "map_name", "grid", "who", "error"),
    [
        ("", "demo.json", "hex", "Mira", "the game's name cannot be empty"),
        ("x" * 61, "demo.json", "hex", "Mira", "longer than 60"),
        ("G", "../secrets.json", "hex", "Mira", "no map"),
        ("G", "demo.json", "round", "Mira", "hex or square"),
        ("G", "demo.json", "hex", "   ", "your name cannot be empty"),
    ],
)
def test_a_bad_new_game_form_is_refused_and_stores_nothing(
    tmp_path: Path, name: str, map_name: str, grid: Any, who: str, error: str
) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/g.sqlite")
    games = Games(engine, MAPS)
    with pytest.raises(GameError, match=error):
        games.create(name, map_name, grid, who)
    assert games.list() == []


def test_two_games_of_one_name_are_refused(tmp_path: Path) -> None:
    games = Games(open_engine(f"sqlite:///{tmp_path}/g.sqlite"), MAPS)
    games.create("G", "demo.json", "hex", "Mira")
    with pytest.raises(GameError, match="already a game called"):
        games.create("G", "demo.json", "hex", "Ann")


def test_a_new_game_keeps_the_maps_own_grid_unless_told(tmp_path: Path) -> None:
    games = Games(open_engine(f"sqlite:///{tmp_path}/g.sqlite"), MAPS)
    drawn = games.create("As drawn", "demo.json", None, "Mira")
    assert games.table(drawn.game_id).state.settings.grid == "hex"  # demo.json is drawn on hexes
    told = games.create("On squares", "demo.json", "square", "Mira")
    assert games.table(told.game_id).state.settings.grid == "square"
