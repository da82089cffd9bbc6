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
        table.wait_for_writes()  # the snapshots are stored after their commands, by the writer thread
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


def _undo_all_the_way(table: Table) -> list[tuple[list[int], bool, dict[str, Any]]]:
    """Undo until nothing is left to undo: each undo's group, whether it was played, and the state after it."""
    out: list[tuple[list[int], bool, dict[str, Any]]] = []
    while table.can_undo():
        group = [r.seq for r in table.undo_group()]
        ok = asyncio.run(table.submit(SW, {"type": "undo"})).ok
        out.append((group, ok, table.state.model_dump()))
        if not ok:
            break
    return out


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_undos_past_the_kept_states_take_back_what_a_table_keeping_every_state_takes_back(seed: int) -> None:
    """A loaded game keeping the state before its last command only rebuilds older ones from the snapshot before
    them when an undo needs them; undone all the way back, each undo takes back the same group and leaves the same
    state as in the same game whose every state before a command was rebuilt from the start."""
    import shutil

    import vtt.table.table as table_module

    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as monkeypatch:
        engine = db.open_engine(f"sqlite:///{folder}/game.sqlite")
        played = _played(engine, seed)
        assert played.game_id is not None
        engine.dispose()
        shutil.copy(f"{folder}/game.sqlite", f"{folder}/copy.sqlite")
        engines = [db.open_engine(f"sqlite:///{folder}/{name}.sqlite") for name in ("game", "copy")]
        every = Table.load(engines[1], played.game_id)
        every._rebuild_before()
        monkeypatch.setattr(table_module, "KEEP_STATES", 1)
        few = Table.load(engines[0], played.game_id)
        expected = _undo_all_the_way(every)
        assert _undo_all_the_way(few) == expected
        for table in (every, few):
            table.close()
        for engine in engines:
            engine.dispose()


def test_an_undo_past_the_kept_states_replays_from_the_snapshot_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Undoing the commands one by one back past the kept states plays again only the commands from the newest
    snapshot before each undone one, not the whole log; the creatures the undos do not change stay the same objects
    (their versions do not change)."""
    import vtt.table.table as table_module

    monkeypatch.setattr(table_module, "KEEP_STATES", 1)
    with tempfile.TemporaryDirectory() as folder:
        engine = db.open_engine(f"sqlite:///{folder}/game.sqlite")
        game_id = db.create_game(engine, "g", armed_pair_and_hidden_rat().model_dump(mode="json"))
        table = Table.load(engine, game_id)
        table.snapshot_every = 2
        spots = ([5, 5], [6, 6], [7, 7], [5, 6], [6, 7], [7, 8])
        for to in spots:
            assert asyncio.run(table.submit(SW, {"type": "place", "creature": "orc", "to": to})).ok
        table.close()
        assert db.snapshot_seqs(engine, game_id) == [6, 4, 2]
        loaded = Table.load(engine, game_id)
        assert all(r.before is None for r in loaded.log)  # loaded from the snapshot at 6
        played: list[dict[str, Any]] = []

        def counted(s: GameState, cmd: dict[str, Any], dice: Any) -> Any:
            played.append(cmd)
            return apply(s, cmd, dice)

        monkeypatch.setattr(table_module, "apply", counted)
        ayla, rat = loaded.state.creatures["ayla"], loaded.state.creatures["rat"]
        anchors = []
        for _ in spots:
            assert asyncio.run(loaded.submit(SW, {"type": "undo"})).ok
            anchors.append(list(loaded.state.creatures["orc"].anchor))
            assert loaded.state.creatures["ayla"] is ayla and loaded.state.creatures["rat"] is rat
        assert anchors == [*reversed(spots[:-1]), [3, 2]]
        assert [c["to"] for c in played] == [spots[4], spots[2], spots[0]]  # from the snapshots at 4, 2 and the start
        assert loaded.versions == {"orc": 6}
        loaded.close()
        engine.dispose()


def test_an_undo_of_a_loaded_game_takes_back_the_attack_with_the_reaction_it_waited_for() -> None:
    """Loaded from the snapshot after an attack and the answer to the reaction it waited for, the game knows neither
    state before them; its undo rebuilds them and takes both back, as the game played takes them back."""
    from factories import creature

    from vtt.rules.settings import TableSettings

    game = armed_pair_and_hidden_rat(TableSettings(defense_prompts="nobody", reactions=True, reaction_seconds=0))
    game.creatures["gob"] = creature("gob", (1, 2))  # a third creature with Ayla in its Reach
    with tempfile.TemporaryDirectory() as folder:
        engine = db.open_engine(f"sqlite:///{folder}/game.sqlite")
        game_id = db.create_game(engine, "g", game.model_dump(mode="json"))
        table = Table.load(engine, game_id)
        table.snapshot_every = 2
        strike = {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}
        assert asyncio.run(table.submit(ALICE, strike)).ok
        decision = table.state.pending[0].id
        assert asyncio.run(table.submit(SW, {"type": "react", "decision": decision, "hinder": False})).ok
        assert [r.seq for r in table.undo_group()] == [1, 2]
        table.close()
        loaded = Table.load(engine, game_id)
        assert all(r.before is None for r in loaded.log)
        assert [r.seq for r in loaded.undo_group()] == [1, 2]
        out = asyncio.run(loaded.submit(SW, {"type": "undo"}))
        assert out.ok and out.record is not None and out.record.command["seqs"] == [1, 2]
        assert loaded.state.model_dump() == game.model_dump()
        loaded.close()
        engine.dispose()
