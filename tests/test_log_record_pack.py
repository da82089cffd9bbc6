"""A game's older log records are packed (`LogRecord.pack`): their command and events kept as JSON text and their
faces as a tuple, out of the garbage collector's reach, and they read back as they were made."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from factories import creature, state

from vtt.table.table import RECORDS_UNPACKED, LogRecord, Table, Viewer

SW = Viewer("soulweaver", "Mira")


def _record(**kw: Any) -> LogRecord:
    events = [{"kind": "place", "text": "Mira places Ayla.", "rolls": [[3, 4]], "data": {"to": [2, 3]}}]
    fields: dict[str, Any] = {"seq": 1, "sender": "soulweaver", "command": {"type": "place", "to": [2, 3]}}
    return LogRecord(**{**fields, "faces": [3, 4], "events": events, "time": "t", **kw})


def test_a_packed_record_reads_back_equal_and_holds_nothing_the_collector_tracks() -> None:
    record, same = _record(), _record()
    record.pack()
    assert record.packed and record == same
    assert (record.command, record.faces, record.events, record.kind) == (same.command, [3, 4], same.events, "place")
    gc.collect()  # a tuple of numbers leaves the collector's lists at its first collection
    assert not any(gc.is_tracked(x) for x in (record._command, record._events, record._faces))
    record.undone = True
    assert record != same and record.undone


def test_a_record_whose_json_would_read_back_different_stays_as_it_is() -> None:
    keyed = _record(events=[{"kind": "x", "data": {1: "one"}}])  # JSON turns the key into "1"
    keyed.pack()
    assert not keyed.packed and keyed.events == [{"kind": "x", "data": {1: "one"}}]
    odd_faces = _record(faces=[True])
    odd_faces.pack()
    assert not odd_faces.packed


def test_the_table_packs_all_but_its_newest_records_and_plays_on_from_them() -> None:
    table = Table("t", state(creature("ayla", (2, 2)), creature("orc", (6, 6))))
    moves = [(3, 2), (4, 2), (3, 3)] * 5

    async def play() -> None:
        for to in moves:
            out = await table.submit(SW, {"type": "place", "creature": "ayla", "to": list(to)})
            assert out.ok, out.error
        assert (await table.submit(SW, {"type": "undo"})).ok

    asyncio.run(play())
    played = table.log[: len(moves)]
    assert [r.packed for r in table.log] == [i < len(table.log) - RECORDS_UNPACKED for i in range(len(table.log))]
    assert [r.command["to"] for r in played] == [list(to) for to in moves]
    assert played[-1].undone and not played[0].undone
    assert table.state.creatures["ayla"].anchor == moves[-2]
