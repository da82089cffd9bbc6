"""Chat, whispers and `/roll` (`vtt/table/chat.py`): a roll by the highest-face rule with the table's dice; a
whisper seen only by its sender, its addressee and the Soulweaver in change messages, sockets and the log; chat kept
in the log across a restart and an archive; bad messages refused in plain words with the game left as it was."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from factories import creature, state
from fastapi import FastAPI
from fastapi.testclient import TestClient

from vtt.rules.dice import RandomDice, ScriptedDice
from vtt.rules.limits import CHAT_MAX
from vtt.rules.model import SOULWEAVER, GameState
from vtt.store import db
from vtt.store.db import Seat, open_engine
from vtt.table.archive import ArchiveError, check_archive, export_archive
from vtt.table.chat import parse_roll
from vtt.table.registry import Games
from vtt.table.table import Change, Outcome, Table, Viewer
from vtt.web.api import change_message, make_router, seat_message

SW = Viewer("soulweaver", "Mira")
ALICE = Viewer("player", "alice")
BOB = Viewer("player", "bob")
CARA = Viewer("player", "cara")
WATCHER = Viewer("spectator", "spectator")
WHISPER = "meet me behind the pillar"


def _game() -> GameState:
    return state(
        creature("ayla", (2, 2), controller="alice"),
        creature("bram", (8, 8), controller="bob"),
        creature("cole", (12, 8), controller="cara"),
    )


def _send(table: Table, viewer: Viewer, command: dict[str, Any]) -> Outcome:
    return asyncio.run(table.submit(viewer, command))


class _Changes:
    def __init__(self) -> None:
        self.seen: list[Change] = []

    def table_changed(self, change: Change) -> None:
        self.seen.append(change)


def _roll_event(table: Table, text: str) -> dict[str, Any]:
    out = _send(table, ALICE, {"type": "chat", "text": text, "to": None})
    assert out.ok, out.error
    assert out.record is not None
    event: dict[str, Any] = out.record.events[0]
    return event


# ---- the roll ----------------------------------------------------------------------------------------------------


def test_roll_result_is_the_highest_face_plus_the_modifier() -> None:
    """reference §1.1 (the publisher's dice bot): "result is the single highest face value plus any flat
    modifier, and the dice are not summed"; `!3+2` is highest die + 2. `/roll 3d12+2` with faces 7, 9, 2 rolled by
    the table's own dice: 9 + 2 = 11, no doubles, no Fumble."""
    table = Table("t", _game(), dice=lambda: ScriptedDice([7, 9, 2]))
    event = _roll_event(table, "/roll 3d12+2")
    roll = event["rolls"][0]
    assert (roll["faces"], roll["result"], roll["doubles"], roll["fumble"]) == ([7, 9, 2], 11, [], False)
    assert table.log[-1].faces == [7, 9, 2]
    assert table.log[-1].command == {"type": "roll", "dice": 3, "modifier": 2, "to": None}
    assert event["text"] == "Rolls 3d12+2: 11"


def test_roll_doubles_and_fumble_when_more_than_half_of_the_dice_show_1() -> None:
    """reference §1.4 and §1.5: doubles are two dice showing one face; a Fumble is more than half of the dice
    showing 1. `/roll 3d12-1` with faces 1, 5, 1: highest 5 − 1 = 4, doubles of 1, Fumble (two of three)."""
    table = Table("t", _game(), dice=lambda: ScriptedDice([1, 5, 1]))
    event = _roll_event(table, "/roll 3d12-1")
    roll = event["rolls"][0]
    assert (roll["result"], roll["highest_double"], roll["fumble"]) == (4, 1, True)
    assert event["text"] == "Rolls 3d12−1: 4 · doubles 1 · Fumble"


def test_roll_half_the_dice_showing_1_is_no_fumble() -> None:
    """reference §1.5: "more than half" — faces 6, 1, 6, 1 of `/roll 4d12`: two of four is half, no Fumble;
    doubles of 6 and of 1, the highest double 6; the result 6."""
    table = Table("t", _game(), dice=lambda: ScriptedDice([6, 1, 6, 1]))
    roll = _roll_event(table, "/roll 4d12")["rolls"][0]
    assert (roll["result"], roll["highest_double"], roll["fumble"]) == (6, 6, False)
    assert [d["face"] for d in roll["doubles"]] == [6, 1]


def test_a_seeded_table_rolls_the_same_faces_again() -> None:
    faces = []
    for _ in range(2):
        table = Table("t", _game(), dice=lambda: RandomDice(42))
        _roll_event(table, "/roll 5d12")
        faces.append(table.log[-1].faces)
    assert faces[0] == faces[1] and len(faces[0]) == 5


@pytest.mark.parametrize(
    ("text", "expected"), [("/roll 3d12+2", (3, 2)), ("/ROLL d12", (1, 0)), ("/roll 2 d 12 − 3", (2, -3))]
)
def test_parse_roll(text: str, expected: tuple[int, int]) -> None:
    assert parse_roll(text) == expected


# ---- who sees what ---------------------------------------------------------------------------------------------


def test_a_whisper_reaches_only_its_sender_its_addressee_and_the_soulweaver() -> None:
    table = Table("t", _game())
    changes = _Changes()
    table.subscribe(changes)
    assert _send(table, ALICE, {"type": "chat", "text": WHISPER, "to": "bob"}).ok
    change = changes.seen[-1]
    record = change.record
    assert change.before is change.after  # the game itself is untouched
    for viewer in (SW, ALICE, BOB):
        message = seat_message(table, change, viewer)
        assert message is not None and message["events"][0]["text"] == WHISPER
        assert message["sender"] == "alice" and message["command"]["to"] == "bob"
        assert table.seat_view(viewer).events(record, table.log)[0]["text"] == WHISPER
    for viewer in (CARA, WATCHER):
        assert seat_message(table, change, viewer) is None
        bare = json.dumps(change_message(table, change, viewer))
        assert WHISPER not in bare and "alice" not in bare and "bob" not in bare
        assert not table.seat_view(viewer).sees_record(record)
        assert table.seat_view(viewer).events(record, table.log) == []
        assert "bob" not in json.dumps(table.seat_view(viewer).state_json()["pending"])


def test_a_whisper_to_the_soulweaver_and_public_chat_for_spectators() -> None:
    table = Table("t", _game())
    assert _send(table, ALICE, {"type": "chat", "text": "I sneak", "to": SOULWEAVER}).ok
    assert _send(table, BOB, {"type": "chat", "text": "Hello all", "to": None}).ok
    whisper, public = table.log
    assert [table.seat_view(v).sees_record(whisper) for v in (SW, ALICE, BOB, WATCHER)] == [True, True, False, False]
    assert all(table.seat_view(v).events(public, table.log)[0]["text"] == "Hello all" for v in (SW, CARA, WATCHER))


def test_a_whispered_roll_is_hidden_like_a_whisper() -> None:
    table = Table("t", _game(), dice=lambda: ScriptedDice([4, 4]))
    assert _send(table, SW, {"type": "chat", "text": "/roll 2d12", "to": "cara"}).ok
    record = table.log[-1]
    assert record.faces == [4, 4]
    assert [table.seat_view(v).sees_record(record) for v in (SW, CARA, ALICE, WATCHER)] == [True, True, False, False]


@pytest.fixture
def seats(games: Games) -> dict[str, Seat]:
    _, made, _ = games.ensure("Chat game", _game(), "")
    return {s.key: s for s in made}


def test_the_seat_socket_of_another_player_never_carries_a_whisper(games: Games, seats: dict[str, Seat]) -> None:
    app = FastAPI()
    app.include_router(make_router(games))
    with (
        TestClient(app) as client,
        client.websocket_connect(f"/api/seat/{seats['cara'].secret}/events") as cara,
        client.websocket_connect(f"/api/seat/{seats['bob'].secret}/events") as bob,
    ):
        assert cara.receive_json()["kind"] == bob.receive_json()["kind"] == "state"
        alice = seats["alice"].secret
        whisper = {"command": {"type": "chat", "text": WHISPER, "to": "bob"}}
        assert client.post(f"/api/seat/{alice}/commands", json=whisper).json()["ok"]
        public = {"command": {"type": "chat", "text": "Hello all", "to": None}}
        assert client.post(f"/api/seat/{alice}/commands", json=public).json()["ok"]
        got_bob = [bob.receive_text(), bob.receive_text()]
        got_cara = cara.receive_text()
    assert WHISPER in got_bob[0] and "Hello all" in got_bob[1]
    assert "Hello all" in got_cara and json.loads(got_cara)["seq"] == 2
    assert WHISPER not in got_cara and '"bob"' not in got_cara


# ---- durable ---------------------------------------------------------------------------------------------------


def _stored(engine_url: str) -> tuple[Table, Any]:
    engine = open_engine(engine_url)
    return Table.open(engine, "Chat game", _game(), dice=lambda: ScriptedDice([3, 11, 11])), engine


def _rows(table: Table) -> list[tuple[Any, ...]]:
    return [(r.seq, r.sender, r.command, r.faces, r.events, r.undone) for r in table.log]


def test_chat_survives_a_restart_and_undo_redo_pass_over_it(tmp_path: Path) -> None:
    table, engine = _stored(f"sqlite:///{tmp_path}/g.sqlite")
    assert _send(table, SW, {"type": "place", "creature": "ayla", "to": [3, 3]}).ok
    assert _send(table, ALICE, {"type": "chat", "text": WHISPER, "to": SOULWEAVER}).ok
    assert _send(table, SW, {"type": "undo"}).ok
    assert table.state.creatures["ayla"].anchor == (2, 2)  # the undo took back the placing, not the message
    assert _send(table, BOB, {"type": "chat", "text": "/roll 3d12+1", "to": None}).ok
    assert _send(table, SW, {"type": "redo"}).ok  # a message between undo and redo does not stop the redo
    assert table.state.creatures["ayla"].anchor == (3, 3)
    table.close()
    again = Table.load(engine, table.game_id or 0)
    assert _rows(again) == _rows(table)
    assert again.state.model_dump() == table.state.model_dump()
    assert again.log[3].events[0]["rolls"][0]["result"] == 12
    assert not again.seat_view(CARA).sees_record(again.log[1])
    again.close()


def test_chat_is_carried_in_an_archive_and_checked_on_import(tmp_path: Path) -> None:
    table, engine = _stored(f"sqlite:///{tmp_path}/g.sqlite")
    assert _send(table, ALICE, {"type": "chat", "text": WHISPER, "to": "dana"}).ok is False  # no such seat
    assert _send(table, CARA, {"type": "chat", "text": "/roll 3d12", "to": "bob"}).ok
    assert _send(table, SW, {"type": "chat", "text": "Welcome", "to": None}).ok
    table.close()
    rows = db.load_log(engine, table.game_id or 0)
    data = export_archive("Chat game", "", _game().model_dump(mode="json"), rows)
    archive = check_archive(json.loads(json.dumps(data)))
    assert [(r["command"], r["faces"], r["events"]) for r in archive.log] == [
        (r.command, r.faces, r.events) for r in table.log
    ]
    assert {"bob", "cara"} <= set(archive.players())
    broken = json.loads(json.dumps(data))
    broken["log"][0]["faces"] = [3, 11]
    with pytest.raises(ArchiveError, match="needs more dice"):
        check_archive(broken)
    broken["log"][0]["faces"] = [3, 11, 11, 5]
    with pytest.raises(ArchiveError, match="left over"):
        check_archive(broken)
    for nobody in ("time limit", "spectator", " bob", ""):
        odd = json.loads(json.dumps(data))
        odd["log"][0]["command"]["to"] = nobody
        with pytest.raises(ArchiveError, match="a whisper goes to someone at this table"):
            check_archive(odd)
    long = json.loads(json.dumps(data))
    long["log"][1]["command"]["text"] = "x" * (CHAT_MAX + 1)
    with pytest.raises(ArchiveError, match=f"at most {CHAT_MAX} characters"):
        check_archive(long)


# ---- bad input ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("viewer", "command", "why"),
    [
        (ALICE, {"type": "chat", "text": "x" * (CHAT_MAX + 1)}, f"at most {CHAT_MAX} characters (this one has"),
        (ALICE, {"type": "chat", "text": "   "}, "the message is empty"),
        (ALICE, {"type": "chat", "text": "a\x07b"}, "the message holds a control character"),
        (ALICE, {"type": "chat", "text": 5}, "a message is text"),
        (ALICE, {"type": "chat", "text": "hi", "to": "dana"}, "someone at this table"),
        (ALICE, {"type": "chat", "text": "hi", "to": ["bob"]}, "someone at this table"),
        (ALICE, {"type": "chat", "text": "hi", "to": "alice"}, "not to yourself"),
        (ALICE, {"type": "chat", "text": "hi", "colour": "red"}, "a chat has no part called 'colour'"),
        (ALICE, {"type": "chat", "text": "/dance"}, "the chat knows one command, /roll"),
        (ALICE, {"type": "chat", "text": "/roll 3d6"}, "write a roll as /roll 3d12+2"),
        (ALICE, {"type": "chat", "text": "/roll 0d12"}, "a roll has 1 to 30 d12"),
        (ALICE, {"type": "chat", "text": "/roll 31d12"}, "a roll has 1 to 30 d12"),
        (ALICE, {"type": "chat", "text": "/roll 2d12+100"}, "from −99 to +99"),
        (ALICE, {"type": "roll", "dice": True}, "a roll has 1 to 30 d12"),
        (WATCHER, {"type": "chat", "text": "hi"}, "spectators watch"),
    ],
)
def test_bad_messages_are_refused_in_plain_words_and_change_nothing(
    viewer: Viewer, command: dict[str, Any], why: str
) -> None:
    table = Table("t", _game(), dice=lambda: ScriptedDice([]))
    before = table.state
    out = _send(table, viewer, command)
    assert not out.ok and out.error is not None and why in out.error
    assert table.log == [] and table.state is before
