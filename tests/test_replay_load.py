"""A game rebuilt from its stored log (`Table.load`: from its newest snapshot or from the start; an undo past the
kept states, `_rebuild_before`) is the game that was played: the same state as the plain fold of `apply` over its
commands, the same log, the same undo and redo marks; its old records kept packed, its newest as they were made."""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
from typing import Any

import pytest
from factories import armed_pair_and_hidden_rat
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules import apply
from vtt.rules.dice import RandomDice
from vtt.rules.engine import LogEntry, replay
from vtt.rules.model import GameState
from vtt.store import db
from vtt.table.table import RECORDS_UNPACKED, LogRecord, Table, Viewer

SW = Viewer("soulweaver", "Mira")
ALICE = Viewer("player", "alice")


def _command(rng: random.Random) -> tuple[Viewer, dict[str, Any]]:
    roll = rng.random()
    if roll < 0.15:
        return SW, {"type": "undo"}
    if roll < 0.25:
        return SW, {"type": "redo"}
    if roll < 0.4:
        return ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}
    if roll < 0.45:
        return SW, {"type": "roll", "dice": 2}
    if roll < 0.5:
        return ALICE, {"type": "chat", "text": "hi"}
    if roll < 0.6:
        return SW, {"type": "end_turn"}
    who = rng.choice(["ayla", "orc", "rat"])
    return SW, {"type": "place", "creature": who, "to": [rng.randrange(1, 10), rng.randrange(1, 10)]}


def _played(engine: Any, seed: int) -> Table:
    """A stored game played with `seed`'s commands and dice (refused commands are simply not in its log)."""
    rng = random.Random(seed)
    game_id = db.create_game(engine, "g", armed_pair_and_hidden_rat().model_dump(mode="json"))
    table = Table.load(engine, game_id, dice=lambda: RandomDice(seed))
    table.snapshot_every = rng.choice([1, 3, 50])

    async def play() -> None:
        for _ in range(rng.randint(5, 30)):
            viewer, cmd = _command(rng)
            await table.submit(viewer, cmd)

    asyncio.run(play())
    table.close()
    return table


def _fields(r: LogRecord) -> tuple[object, ...]:
    return (r.seq, r.sender, r.command, r.faces, r.events, r.undone)


def _same_game(loaded: Table, played: Table) -> None:
    assert loaded.state.model_dump() == played.state.model_dump()
    assert [_fields(r) for r in loaded.log] == [_fields(r) for r in played.log]
    assert loaded._redo == played._redo
    n = len(loaded.log)
    assert [r.packed for r in loaded.log] == [i < n - RECORDS_UNPACKED for i in range(n)]
    plain, _ = replay(played.initial, [LogEntry(command=r.command, faces=r.faces) for r in played.log if _kept(r)])
    assert loaded.state.model_dump() == plain.model_dump()


def _kept(r: LogRecord) -> bool:
    return r.is_play and not r.undone


def _check(url: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = db.open_engine(url)
    played = _played(engine, seed)
    assert played.game_id is not None
    loaded = Table.load(engine, played.game_id)
    _same_game(loaded, played)
    loaded._rebuild_before()
    befores = [r.before for r in loaded.log if _kept(r)]
    live = [r.before for r in played.log if _kept(r)]
    assert [b.model_dump() if b else None for b in befores] == [b.model_dump() if b else None for b in live]
    loaded.close()
    with monkeypatch.context() as m:
        m.setattr(db, "snapshot_seqs", lambda _engine, _game: [])
        whole = Table.load(engine, played.game_id)
    _same_game(whole, played)
    whole.close()
    engine.dispose()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_a_loaded_game_is_the_game_played(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as monkeypatch:
        _check(f"sqlite:///{folder}/game.sqlite", seed, monkeypatch)


def test_a_loaded_game_is_the_game_played_on_each_database(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _check(database_url, 7, monkeypatch)


def test_the_log_read_as_text_decodes_to_the_log_read(database_url: str) -> None:
    engine = db.open_engine(database_url)
    played = _played(engine, 3)
    assert played.game_id is not None
    texts = db.load_log_texts(engine, played.game_id, 2)
    decoded = [
        {"seq": t.seq, "sender": t.sender, "command": json.loads(t.command), "faces": json.loads(t.faces)}
        | {"events": json.loads(t.events), "time": t.time}
        for t in texts
    ]
    assert decoded == db.load_log(engine, played.game_id, 2)
    assert [t.seq for t in texts] == [r.seq for r in played.log[2:]]
    engine.dispose()


def test_an_undo_across_the_newest_snapshot_loads_from_the_one_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the commands after the newest snapshot no undo reaches past are played again, not the whole log."""
    import vtt.table.table as table_module

    with tempfile.TemporaryDirectory() as folder:
        engine = db.open_engine(f"sqlite:///{folder}/game.sqlite")
        game_id = db.create_game(engine, "g", armed_pair_and_hidden_rat().model_dump(mode="json"))
        table = Table.load(engine, game_id)
        table.snapshot_every = 2
        for to in ([5, 5], [6, 6], [7, 7], [5, 6], [6, 7], [7, 8]):
            assert asyncio.run(table.submit(SW, {"type": "place", "creature": "orc", "to": to})).ok
        assert asyncio.run(table.submit(SW, {"type": "undo"})).ok  # takes back 6, after the snapshot at 6
        assert db.snapshot_seqs(engine, game_id) == [6, 4, 2]
        played: list[dict[str, Any]] = []

        def counted(s: GameState, cmd: dict[str, Any], dice: Any) -> Any:
            played.append(cmd)
            return apply(s, cmd, dice)

        monkeypatch.setattr(table_module, "apply", counted)
        loaded = Table.load(engine, game_id)
        assert played == [table.log[4].command]
        assert loaded.state.model_dump() == table.state.model_dump()
        assert loaded.log[3].before is None and loaded.log[4].before is not None
        table.close()
        loaded.close()
        engine.dispose()
