"""The shortcuts of a game's load from its log, each against the plain computation it replaces:

- `space.why_cannot_stand` without an occupancy (`space.scan`: each creature's footprint read) says what it says over
  the whole board indexed afresh, with the same words; a move or placement in a replay (no occupancy kept) is
  refused or accepted as in play, on a board of a few creatures and on a crowded one;
- `Table._replay` counts each creature's versions, the creatures gone hidden and the last steps as `Table._bump`
  over every step does;
- `LogRecord.stored_log` makes the records `LogRecord.stored` makes, one at a time;
- `db.load_log_texts` in SQLite gives each time as SQLAlchemy's reading of it gives it (`db.time_text`).
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from factories import armed_pair_and_hidden_rat, creature, on_turn, state
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import String, select, type_coerce
from sqlalchemy.dialects import sqlite

from vtt.rules import apply, positions
from vtt.rules.dice import DiceError, RandomDice, ScriptedDice
from vtt.rules.events import RuleError
from vtt.rules.grid import GridKind
from vtt.rules.model import Cell, GameState
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, grid_of, scan, why_cannot_stand
from vtt.store import db
from vtt.table.table import RECORDS_UNPACKED, LogRecord, Table, Viewer

SW = Viewer("soulweaver", "Mira")
ALICE = Viewer("player", "alice")
SIZES = (-2, -1, 0, 0, 1, 1, 2)


def _crowd(rng: random.Random, n: int, side: int, kind: GridKind) -> GameState:
    """Up to `n` creatures of sizes -2 to 2 on a `side` × `side` board with walls, placed where each fits, a few
    with a footprint of their own; one in another's stomach (it stands nowhere, where it was before)."""
    s = state(cols=side, rows=side, settings=TableSettings(defense_prompts="nobody", reactions=False, grid=kind))
    grid = grid_of(s)
    cells = [grid.from_offset(col, row) for row in range(side) for col in range(side)]
    s.board.walls = set(rng.sample(cells, side))
    for i in range(n * 3):
        if len(s.creatures) >= n:
            break
        extra: dict[str, Any] = {"footprint": [(0, 0), (1, 0)]} if rng.random() < 0.1 else {}
        c = creature(f"c{i}", rng.choice(cells), size=rng.choice(SIZES), controller="alice", **extra)
        if why_cannot_stand(s, c, c.anchor, Occupancy(s)) is None:
            s.creatures[c.id] = c
    ids = list(s.creatures)
    if len(ids) > 2:
        s.creatures[ids[1]].swallowed_by = ids[0]
    return s


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from([GridKind.HEX, GridKind.SQUARE]), n=st.integers(2, 40))
def test_why_cannot_stand_without_an_occupancy_says_what_the_whole_board_indexed_says(
    seed: int, kind: GridKind, n: int
) -> None:
    rng = random.Random(seed)
    s = _crowd(rng, n, 8, kind)
    grid = grid_of(s)
    occ = Occupancy(s)
    filled = s.board.filled()
    movers = [*s.creatures.values(), creature("new", (0, 0), size=rng.choice(SIZES))]
    said: set[str | None] = set()
    for c in movers:
        for anchor in sorted(grid.area_within([c.anchor], 2)):
            expected = why_cannot_stand(s, c, anchor, occ, filled)
            assert why_cannot_stand(s, c, anchor, None, filled) == expected
            assert why_cannot_stand(s, c, anchor, None) == expected
            said.add(expected)
    assert None in said and len(said) > 1  # both answers, refusals of some kinds
    cells = sorted(grid.area_within([movers[0].anchor], 3))
    assert scan(s, cells) == {cell: occ.at(cell) for cell in cells if occ.at(cell)}


def _tried(s: GameState, rng: random.Random, replaying: bool) -> tuple[str, object]:
    """A random move of the creature acting now or placement of any creature: the state it makes, or why not. In a
    replay, from a copy of `s` (a state nothing is kept for)."""
    if replaying:
        s = GameState.model_validate(s.model_dump())
    current = s.turn.current
    assert current is not None
    who = rng.choice(sorted(s.creatures))
    near = sorted(grid_of(s).area_within([s.creatures[who].anchor], 2))
    if rng.random() < 0.5:
        cmd: dict[str, Any] = {"type": "place", "creature": who, "to": rng.choice(near)}
    else:
        to = rng.choice(sorted(grid_of(s).area_within([s.creatures[current].anchor], 2)))
        cmd = {"type": "move", "creature": current, "to": to}
    dice = ScriptedDice([rng.randint(1, 12) for _ in range(6)])
    try:
        if replaying:
            with positions.replaying():
                after, events = apply(s, cmd, dice)
        else:
            after, events = apply(s, cmd, dice)
    except (RuleError, DiceError) as exc:
        return "refused", str(exc)
    return "played", (after.model_dump(), [e.model_dump() for e in events])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([4, 12, 40]))
def test_a_move_or_placement_in_a_replay_is_refused_or_played_as_in_play(seed: int, n: int) -> None:
    """A replay keeps no occupancy of the states it passes through: its placement checks read every creature's
    footprint; on boards of 4 and 12 creatures (read so in play too) and of 40 (read over a kept index in play)."""
    rng = random.Random(seed)
    crowd = _crowd(rng, n, 9, rng.choice([GridKind.HEX, GridKind.SQUARE]))
    s = on_turn(crowd, next(iter(crowd.creatures)))
    outcomes: set[str] = set()
    for tries in range(200):  # 20 tries at least, more until both a refusal and a play were seen (a crowded board)
        if tries >= 20 and len(outcomes) == 2:
            break
        seed_of_try = rng.random()
        played = _tried(s, random.Random(seed_of_try), False)
        replayed = _tried(s, random.Random(seed_of_try), True)
        assert replayed == played
        outcomes.add(played[0])
        if played[0] == "played":
            s = GameState.model_validate(played[1][0])  # type: ignore[index]
            positions.occupancy(s)  # kept, as a menu asked of it: the next play reads over it
    assert outcomes == {"played", "refused"}, outcomes


def _played_game(engine: Any, seed: int) -> Table:
    """A stored game of random places, Strikes, ends of turn, undos, redos and chat, the hidden rat taken off the map
    (it is gone hidden) or not."""
    rng = random.Random(seed)
    game_id = db.create_game(engine, "g", armed_pair_and_hidden_rat().model_dump(mode="json"))
    table = Table.load(engine, game_id, dice=lambda: RandomDice(seed))
    table.snapshot_every = 1_000

    def command() -> tuple[Viewer, dict[str, Any]]:
        roll = rng.random()
        if roll < 0.1:
            return SW, {"type": rng.choice(["undo", "redo"])}
        if roll < 0.25:
            return ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}
        if roll < 0.3:
            return ALICE, {"type": "chat", "text": "hi"}
        if roll < 0.4:
            return SW, {"type": "end_turn"}
        if roll < 0.43:
            return SW, {"type": "remove_creature", "creature": "rat"}
        who = rng.choice(["ayla", "orc", "rat"])
        return SW, {"type": "place", "creature": who, "to": [rng.randrange(1, 10), rng.randrange(1, 10)]}

    async def play() -> None:
        for _ in range(rng.randint(10, 40)):
            await table.submit(*command())

    asyncio.run(play())
    table.close()
    return table


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_replay_counts_versions_and_steps_as_bumping_every_step_does(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as monkeypatch:
        engine = db.open_engine(f"sqlite:///{folder}/game.sqlite")
        played = _played_game(engine, seed)
        assert played.game_id is not None
        monkeypatch.setattr(db, "snapshot_seqs", lambda _engine, _game: [])
        loaded = Table.load(engine, played.game_id)
        plain = Table("plain", loaded.initial)
        before = loaded.initial
        steps: list[tuple[GameState, GameState]] = []
        for r in loaded.log:
            if r.is_play and not r.undone:
                after, _ = apply(before, r.command, ScriptedDice(r.faces))
                plain._bump(before, after)
                steps.append((before, after))
                before = after
        assert list(loaded.versions.items()) == list(plain.versions.items())
        assert loaded.gone_hidden == plain.gone_hidden
        kept = list(loaded.steps._steps)
        assert [changed for _, _, changed in kept] == [changed for _, _, changed in plain.steps._steps]
        assert [(b.model_dump(), a.model_dump()) for b, a, _ in kept] == [
            (b.model_dump(), a.model_dump()) for b, a in steps[-len(kept) :]
        ]
        assert all(kept[i][1] is kept[i + 1][0] for i in range(len(kept) - 1))
        assert not kept or kept[-1][1] is loaded.state
        for table in (loaded, plain):
            table.close()
        engine.dispose()


def test_the_log_s_records_are_made_as_one_at_a_time() -> None:
    """Packed records of the same faces share them; faces that are not all numbers stay a list of their own."""
    with tempfile.TemporaryDirectory() as folder:
        engine = db.open_engine(f"sqlite:///{folder}/game.sqlite")
        played = _played_game(engine, 5)
        assert played.game_id is not None
        for seq, faces in ((len(played.log) + 1, [True, 2]), (len(played.log) + 2, [True, 2])):
            db.append_command(engine, played.game_id, seq, "soulweaver", {"type": "chat", "text": "x"}, faces, [])
        for seq in range(len(played.log) + 3, len(played.log) + 13):
            db.append_command(engine, played.game_id, seq, "soulweaver", {"type": "chat", "text": "y"}, [3], [])
        rows = db.load_log_texts(engine, played.game_id)
        commands = [json.loads(r.command) for r in rows]
        unpacked = len(rows) - RECORDS_UNPACKED
        one_at_a_time = [LogRecord.stored(r, i < unpacked, commands[i]) for i, r in enumerate(rows)]
        made = LogRecord.stored_log(rows, commands)
        assert made == one_at_a_time
        for new, one in zip(made, one_at_a_time, strict=True):
            assert (new.packed, new.kind, type(new._faces), new.before) == (
                one.packed,
                one.kind,
                type(one._faces),
                None,
            )
            assert (new._command, new._events, new._faces) == (one._command, one._events, one._faces)
        newest_packed = made[-RECORDS_UNPACKED - 1]
        assert newest_packed._faces == (3,) and made[-RECORDS_UNPACKED - 2]._faces is newest_packed._faces
        assert [r._faces for r in made[-12:-10]] == [[True, 2], [True, 2]]
        engine.dispose()


_TIMES = st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(9999, 12, 30))


@settings(max_examples=200, deadline=None)
@given(when=_TIMES, zone=st.sampled_from([None, UTC, timezone(timedelta(hours=2)), timezone(timedelta(hours=-5))]))
def test_a_time_sqlite_holds_reads_as_sqlalchemy_reads_it(when: datetime, zone: timezone | None) -> None:
    """As SQLAlchemy writes a time in SQLite (with or without its microseconds), and in other ISO forms."""
    read = sqlite.DATETIME().result_processor(sqlite.dialect(), None)  # type: ignore[no-untyped-call]
    write = sqlite.DATETIME().bind_processor(sqlite.dialect())  # type: ignore[no-untyped-call]
    assert read is not None and write is not None
    forms = [write(when), when.isoformat(sep=" "), when.isoformat(), when.replace(tzinfo=zone).isoformat(sep=" ")]
    for text in forms:
        stored = read(text)
        assert isinstance(stored, datetime)
        assert db.sqlite_time_text(text) == db.time_text(stored), text


def test_the_log_read_in_sqlite_has_the_times_sqlalchemy_reads() -> None:
    with tempfile.TemporaryDirectory() as folder:
        engine = db.open_engine(f"sqlite:///{folder}/game.sqlite")
        played = _played_game(engine, 2)
        assert played.game_id is not None
        texts = [t.time for t in db.load_log_texts(engine, played.game_id)]
        column = db.COMMAND_TABLE.c.created
        with engine.connect() as connection:
            stored = connection.execute(select(column).order_by(db.COMMAND_TABLE.c.seq)).scalars().all()
            raw = connection.execute(select(type_coerce(column, String))).scalars().all()
        assert texts == [db.time_text(t) for t in stored]
        assert any(len(t) == 26 for t in raw)  # SQLAlchemy's own form, with microseconds: the short way taken
        engine.dispose()


def test_a_cell_list_scan_is_in_the_order_of_the_state_s_creatures() -> None:
    cell: Cell = (4, 4)
    s = state(creature("b", cell, size=0), creature("a", cell, size=0), creature("c", (6, 6)))
    assert scan(s, [cell, (6, 6), (1, 1)]) == {cell: ["b", "a"], (6, 6): ["c"]}
