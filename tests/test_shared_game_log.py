"""Several processes serving one game through one PostgreSQL database: the log stays one sequence.

Each `Table` here stands for a process: its own engine (connection pool), its own copy of the game in memory. A
command is stored at the next place of the log; when another process stored one there first (the unique
`(game, seq)`), the table folds in what was stored, checks the command anew against the state it made, and tries
again. A `ChangeFeed` hears what the others stored.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from pathlib import Path
from typing import Any

from factories import creature, on_turn, state, weapon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine

from vtt.rules.model import SOULWEAVER, GameState
from vtt.store import db
from vtt.store.change_feed import ChangeFeed, Heard, listen_url, parse
from vtt.table.pointers import PING_SECONDS, pointers_of
from vtt.table.registry import Games
from vtt.table.table import Change, Outcome, Table, Viewer

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")


def _game() -> GameState:
    sword = weapon("sword", damage=2)
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice", weapons=[sword], grip={"right_arm": "sword"}),
            creature("orc", (3, 2)),
            creature("goblin", (8, 8)),
        ),
        "ayla",
    )


class Recorder:
    def __init__(self) -> None:
        self.changes: list[Change] = []

    def table_changed(self, change: Change) -> None:
        self.changes.append(change)


def _two_processes(engines: tuple[Engine, Engine]) -> tuple[Engine, Engine, Table, Table]:
    one, two = engines
    game_id = db.create_game(one, f"shared {uuid.uuid4().hex}", _game().model_dump(mode="json"))
    return one, two, Table.load(one, game_id), Table.load(two, game_id)


def _same(a: Table, b: Table) -> None:
    assert a.state.model_dump() == b.state.model_dump()
    assert [(r.seq, r.command, r.faces, r.undone) for r in a.log] == [
        (r.seq, r.command, r.faces, r.undone) for r in b.log
    ]


def test_a_command_stored_first_elsewhere_is_folded_in_before_this_one(engines: tuple[Engine, Engine]) -> None:
    """The second process's command, sent on the state it had, is stored after the first one's, checked against
    the state the first one made, and its listeners are told of both, in the log's order."""
    _, engine, one, two = _two_processes(engines)
    told = Recorder()
    two.subscribe(told)

    async def play() -> tuple[Outcome, Outcome]:
        first = await one.submit(SW, {"type": "place", "creature": "goblin", "to": [9, 9]})
        second = await two.submit(SW, {"type": "place", "creature": "orc", "to": [4, 4]})
        return first, second

    first, second = asyncio.run(play())
    assert first.ok and second.ok
    assert second.record is not None and second.record.seq == 2
    assert [c.record.seq for c in told.changes] == [1, 2]
    assert two.state.creatures["goblin"].anchor == (9, 9)
    assert [r["seq"] for r in db.load_log(engine, two.game_id or 0)] == [1, 2]
    asyncio.run(one.catch_up())
    _same(one, two)


def test_a_command_made_stale_by_another_process_is_refused(
    engines: tuple[Engine, Engine],
) -> None:
    """A drag from a screen that showed the goblin before another process moved it is refused once that move is
    folded in (the versions the sender saw are out of date), as on one process."""
    _, engine, one, two = _two_processes(engines)

    async def play() -> Outcome:
        seen = {"goblin": two.version("goblin")}
        assert (await one.submit(SW, {"type": "place", "creature": "goblin", "to": [9, 9]})).ok
        return await two.submit(SW, {"type": "place", "creature": "goblin", "to": [10, 10]}, seen=seen)

    out = asyncio.run(play())
    assert not out.ok and out.error is not None and "changed meanwhile" in out.error
    assert len(db.load_log(engine, two.game_id or 0)) == 1
    assert two.state.creatures["goblin"].anchor == (9, 9)


def test_an_undo_in_one_process_is_taken_back_in_the_other(engines: tuple[Engine, Engine]) -> None:
    """Undo and redo are records of the log like commands: the other process folds them in the same way."""
    _, _, one, two = _two_processes(engines)

    async def play() -> None:
        assert (await one.submit(ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"})).ok
        assert (await two.submit(SW, {"type": "undo"})).ok
        await one.catch_up()
        _same(one, two)
        assert one.state.model_dump() == Table("x", _game()).state.model_dump()
        assert (await one.submit(SW, {"type": "redo"})).ok
        await two.catch_up()

    asyncio.run(play())
    _same(one, two)
    assert not two.log[0].undone


def test_the_change_feed_hears_what_another_process_stored(engines: tuple[Engine, Engine]) -> None:
    """A process listening on the changes channel hears `log <game> <seq>` when another commits a command, and
    `seats <game>` when it says the seats changed."""
    _, engine, one, _ = _two_processes(engines)
    url = listen_url(engine)
    assert url is not None
    heard: list[Heard] = []
    got = threading.Event()

    async def listen() -> None:
        loop = asyncio.get_running_loop()

        def hear(h: Heard) -> None:
            heard.append(h)
            if len(heard) == 2:
                got.set()

        feed = ChangeFeed(url, loop, hear, lambda: None)
        feed.start()
        try:
            assert await asyncio.to_thread(feed.wait_listening, 10)
            assert (await one.submit(SW, {"type": "place", "creature": "goblin", "to": [9, 9]})).ok
            await asyncio.to_thread(db.notify, engine, f"seats {one.game_id}")
            await asyncio.to_thread(got.wait, 10)
        finally:
            await asyncio.to_thread(feed.stop)

    asyncio.run(listen())
    assert heard == [Heard("log", one.game_id or 0, 1), Heard("seats", one.game_id or 0)]


def test_another_process_hears_each_command_and_ping_and_tells_its_pages(engines: tuple[Engine, Engine]) -> None:
    """Two registries (processes) listening: a command played on one reaches the other's table and its listeners
    without any command sent there, and a ping shown on one shows on the other's pages."""
    game_id = db.create_game(engines[0], f"shared {uuid.uuid4().hex}", _game().model_dump(mode="json"))
    told = Recorder()
    pinged: list[dict[str, Any]] = []

    class Page:
        def pointer_message(self, message: dict[str, Any]) -> None:
            pinged.append(message)

    page = Page()

    async def play() -> tuple[Table, Table]:
        loop = asyncio.get_running_loop()
        one, two = Games(engines[0], Path(".")), Games(engines[1], Path("."))
        one.listen(loop)
        two.listen(loop)
        try:
            assert await asyncio.to_thread(one.listening, 10)
            assert await asyncio.to_thread(two.listening, 10)
            here, there = await one.load_table(game_id), await two.load_table(game_id)
            there.subscribe(told)
            pointers_of(there).subscribe(page)
            assert (await here.submit(SW, {"type": "place", "creature": "goblin", "to": [9, 9]})).ok
            pointers_of(here).ping(here.state, SW, "Soulweaver", [4, 4])
            async with asyncio.timeout(10):
                while not (told.changes and pinged):
                    await asyncio.sleep(0.02)
            return here, there
        finally:
            await asyncio.to_thread(one.close)
            await asyncio.to_thread(two.close)

    here, there = asyncio.run(play())
    assert [c.record.seq for c in told.changes] == [1]
    assert there.state.creatures["goblin"].anchor == (9, 9)
    assert pinged == [
        {"kind": "ping", "seat": SOULWEAVER, "name": "Soulweaver", "space": [4, 4], "seconds": PING_SECONDS}
    ]
    _same(here, there)


def test_only_the_feeds_own_messages_are_understood() -> None:
    """Anything else on the channel is ignored, not an error."""
    assert parse("log 3 17") == Heard("log", 3, 17)
    assert parse("seats 3") == Heard("seats", 3)
    assert parse("log 3") is None
    assert parse("drop table game") is None
    assert parse("log -1 2") is None
    assert parse('pointer 3 {"kind": "ping"}') == Heard("pointer", 3, data={"kind": "ping"})
    assert parse("pointer 3 [1, 2]") is None
    assert parse("pointer 3 {oops") is None


def test_a_sqlite_database_has_no_feed(tmp_path: Any) -> None:
    assert listen_url(db.open_engine(f"sqlite:///{tmp_path}/g.sqlite")) is None


COMMANDS: list[tuple[Viewer, dict[str, Any]]] = [
    (SW, {"type": "place", "creature": "goblin", "to": [9, 9]}),
    (SW, {"type": "place", "creature": "goblin", "to": [8, 8]}),
    (SW, {"type": "place", "creature": "orc", "to": [3, 2]}),
    (SW, {"type": "place", "creature": "orc", "to": [5, 5]}),
    (ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}),
    (ALICE, {"type": "chat", "text": "hello"}),
    (SW, {"type": "undo"}),
    (SW, {"type": "redo"}),
    (SW, {"type": "end_turn"}),
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.sampled_from([0, 1]), st.sampled_from(range(len(COMMANDS))), st.booleans()),
        min_size=1,
        max_size=14,
    )
)
def test_commands_sent_to_two_processes_make_one_log(engines: tuple[Engine, Engine], steps: list[Any]) -> None:
    """Commands for one game sent to two processes at random, some at the same moment: the stored log is one
    sequence with no command lost or doubled (every acknowledged command is in it once, at the place its answer
    named, and nothing else is), and both processes, caught up, hold the same state as a fresh load of the log."""
    engine, _, one, two = _two_processes(engines)
    tables = (one, two)

    async def play() -> list[Outcome]:
        answers: list[Outcome] = []
        i = 0
        while i < len(steps):
            which, command, together = steps[i]
            viewer, cmd = COMMANDS[command]
            if together and i + 1 < len(steps):
                which2, command2, _ = steps[i + 1]
                viewer2, cmd2 = COMMANDS[command2]
                answers += await asyncio.gather(
                    tables[which].submit(viewer, dict(cmd)), tables[which2].submit(viewer2, dict(cmd2))
                )
                i += 2
            else:
                answers.append(await tables[which].submit(viewer, dict(cmd)))
                i += 1
        await one.catch_up()
        await two.catch_up()
        return answers

    answers = asyncio.run(play())
    stored = db.load_log(engine, one.game_id or 0)
    assert [r["seq"] for r in stored] == list(range(1, len(stored) + 1))
    acknowledged = [a.record for a in answers if a.ok and a.record is not None]
    assert len(acknowledged) == len(stored)
    for record in acknowledged:
        assert stored[record.seq - 1]["command"] == record.command
        assert stored[record.seq - 1]["faces"] == record.faces
    _same(one, two)
    fresh = Table.load(engine, one.game_id or 0)
    assert fresh.state.model_dump() == one.state.model_dump()
