"""A change reaches every page with work proportional to what changed: one seat view per kind of seat and state
(shared by the pages of that seat), one token per changed creature and kind of seat, the changed creatures
worked out once per change. What a seat sees stays what its own `SeatView` decides."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from factories import creature, state

from vtt.rules.model import GameState
from vtt.store.db import open_engine
from vtt.table.table import Change, Outcome, Table, Viewer
from vtt.web.tokens import seat_token, token_for

SW = Viewer("soulweaver", "Mira")
ALICE = Viewer("player", "alice")
WATCHER = Viewer("spectator", "spectator")


def _game() -> GameState:
    return state(
        creature("ayla", (2, 2), controller="alice"),
        creature("orc", (5, 2)),
        creature("rat", (8, 8), size=-2, hidden=True),
    )


def _run(table: Table, viewer: Viewer, cmd: dict[str, Any]) -> Outcome:
    return asyncio.run(table.submit(viewer, cmd))


def test_one_seat_view_per_kind_of_seat_and_state() -> None:
    table = Table("t", _game())
    first = table.seat_view(WATCHER)
    assert table.seat_view(Viewer("spectator", "spectator")) is first  # a second spectator's page shares it
    assert table.seat_view(SW) is not first and table.seat_view(ALICE) is not first
    before = table.state
    assert _run(table, SW, {"type": "place", "creature": "orc", "to": [6, 2]}).ok
    after = table.seat_view(WATCHER)
    assert after is not first and after.state is table.state
    assert table.seat_view(WATCHER, before) is first  # the state before a change is still at hand


def test_a_seat_view_made_anew_when_a_creature_went_hidden_meanwhile() -> None:
    table = Table("t", _game())
    seen = table.seat_view(ALICE)
    assert seen.sees("orc")
    assert _run(table, SW, {"type": "edit_creature", "creature": "orc", "changes": {"hidden": True}}).ok
    assert not table.seat_view(ALICE).sees("orc")
    assert _run(table, SW, {"type": "remove_creature", "creature": "rat"}).ok
    now = table.seat_view(ALICE)
    assert "rat" in now.hidden  # gone while hidden: still secret in the log


def test_a_changed_creature_token_is_built_once_per_kind_of_seat() -> None:
    table = Table("t", _game())
    assert _run(table, SW, {"type": "place", "creature": "orc", "to": [6, 2]}).ok
    orc = table.state.creatures["orc"]
    watcher = seat_token(table, WATCHER, table.seat_view(WATCHER), orc)
    assert seat_token(table, WATCHER, table.seat_view(WATCHER), orc) is watcher
    assert watcher == token_for(table.state, orc, WATCHER, table.version("orc"), table.seat_view(WATCHER))
    assert watcher["cells"] == [[6, 2]] and watcher["v"] == 1
    gm = seat_token(table, SW, table.seat_view(SW), orc)
    assert gm is not watcher and gm["draggable"] and not watcher["draggable"]
    assert _run(table, SW, {"type": "place", "creature": "orc", "to": [7, 2]}).ok
    moved = seat_token(table, WATCHER, table.seat_view(WATCHER), table.state.creatures["orc"])
    assert moved["cells"] == [[7, 2]] and moved["v"] == 2


def test_changed_creatures_names_the_changed_added_and_removed_ones() -> None:
    table = Table("t", _game())
    before = table.state
    assert _run(table, SW, {"type": "place", "creature": "orc", "to": [6, 2]}).ok
    assert _run(table, SW, {"type": "remove_creature", "creature": "rat"}).ok
    record = table.log[-1]
    change = Change(before, table.state, record)
    assert change.changed_creatures == {"orc", "rat"}
    change.changed_creatures.add("ayla")  # a new set each time: a listener's change to it stays its own
    assert change.changed_creatures == {"orc", "rat"}
    assert Change(table.state, table.state, record).changed_creatures == set()


def test_can_undo_follows_the_log() -> None:
    table = Table("t", _game())
    assert not table.can_undo()
    assert _run(table, SW, {"type": "place", "creature": "orc", "to": [6, 2]}).ok
    assert table.can_undo() and bool(table.undo_group())
    assert _run(table, SW, {"type": "undo"}).ok
    assert not table.can_undo() and not table.undo_group()
    assert _run(table, SW, {"type": "redo"}).ok
    assert table.can_undo()


def test_the_games_of_one_sqlite_database_share_one_writer_and_keep_their_order(tmp_path: Path) -> None:
    """SQLite lets one writer in at a time: its games' commands are stored by one thread, each game's in order."""
    engine = open_engine(f"sqlite:///{tmp_path / 'g.sqlite'}")
    first = Table.open(engine, "one", _game())
    second = Table.open(engine, "two", _game())
    assert first._writer is second._writer
    for to in ([6, 2], [7, 2], [6, 3]):
        assert _run(first, SW, {"type": "place", "creature": "orc", "to": to}).ok
        assert _run(second, SW, {"type": "place", "creature": "orc", "to": to}).ok
    first.close()  # waits for its own writes; the other game's writer stays open
    assert _run(second, SW, {"type": "place", "creature": "orc", "to": [8, 2]}).ok
    for table, moves in ((first, 3), (second, 4)):
        assert table.game_id is not None
        stored = Table.load(engine, table.game_id)
        assert [r.seq for r in stored.log] == list(range(1, moves + 1))
        assert stored.state.creatures["orc"].anchor == table.state.creatures["orc"].anchor
    second.close()
