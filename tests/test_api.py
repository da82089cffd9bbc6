"""The seat API (`vtt.web.api`): a seat's state without what it may not see, commands through the table's checks,
the websocket of changes, and the map background upload with its refusals."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from factories import creature, on_turn, state, weapon
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from vtt.rules.dice import RandomDice
from vtt.rules.model import SOULWEAVER, Effect, GameState, Hold
from vtt.store import db
from vtt.store.db import Seat, open_engine
from vtt.table.registry import Games
from vtt.table.table import Change, Table, Viewer
from vtt.web.api import change_message, make_router, scrub, state_json

UPLOAD_LIMIT = 1024
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01" + b"\x00" * 24
JPEG = b"\xff\xd8\xff\xc0\x00\x11\x08\x00\x01\x00\x01" + b"\x00" * 40
WEBP = b"RIFF\x20\x00\x00\x00WEBPVP8 " + b"\x00" * 4 + b"\x00\x00\x00\x9d\x01\x2a\x01\x00\x01\x00" + b"\x00" * 30


def _game() -> GameState:
    sword = weapon("sword", damage=2)
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice", weapons=[sword], grip={"right_arm": "sword"}),
            creature("orc", (3, 2), weapons=[sword], grip={"right_arm": "sword"}, notes="fears fire"),
            creature("lurker", (8, 8), size=-2, hidden=True, notes="the spy"),
        ),
        "ayla",
    )


@pytest.fixture
def seats(games: Games) -> dict[str, Seat]:
    _, made, _ = games.ensure("Test game", _game(), "")
    return {s.key: s for s in made}


@pytest.fixture
def client(games: Games) -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(make_router(games, max_upload=UPLOAD_LIMIT))
    with TestClient(app) as c:
        yield c


def _post(client: TestClient, seat: Seat, body: Any) -> Any:
    return client.post(f"/api/seat/{seat.secret}/commands", json=body)


# ---- state ----------------------------------------------------------------------------------------------------


def test_the_soulweaver_sees_everything(client: TestClient, seats: dict[str, Seat]) -> None:
    got = client.get(f"/api/seat/{seats[SOULWEAVER].secret}/state").json()
    assert got["seat"] == {"role": "soulweaver", "key": SOULWEAVER, "name": "Soulweaver"}
    assert set(got["state"]["creatures"]) == {"ayla", "orc", "lurker"}
    assert got["state"]["creatures"]["lurker"]["notes"] == "the spy"
    assert got["versions"] == {"ayla": 0, "orc": 0, "lurker": 0}
    assert got["log_length"] == 0


def test_a_player_sees_no_hidden_creature_and_no_notes(client: TestClient, seats: dict[str, Seat]) -> None:
    got = client.get(f"/api/seat/{seats['alice'].secret}/state").json()
    assert got["seat"]["role"] == "player"
    assert set(got["state"]["creatures"]) == {"ayla", "orc"}
    assert all("notes" not in c for c in got["state"]["creatures"].values())
    assert "lurker" not in str(got)
    assert set(got["versions"]) == {"ayla", "orc"}


def test_an_unknown_secret_is_a_404(client: TestClient) -> None:
    got = client.get("/api/seat/nope/state")
    assert got.status_code == 404
    assert got.json() == {"ok": False, "error": "no seat has this secret"}


def test_hidden_creatures_leave_the_turn_order_holds_and_effects() -> None:
    game = _game()
    game.turn.entries = ["lurker", "ayla", SOULWEAVER]
    game.turn.priority = {"lurker": 9, "ayla": 5}
    game.turn.index = 0
    game.holds["h1"] = Hold(id="h1", holders={"lurker": ["mouth"]}, held=["ayla"], caused={"lurker": {"ayla": 2}})
    game.holds["h2"] = Hold(id="h2", holders={"lurker": ["mouth"]}, held=[])
    game.effects = [
        Effect(id="e1", name="Curse", creator="lurker", subject="ayla"),
        Effect(id="e2", name="Haste", creator="ayla", subject="lurker"),
    ]
    game.creatures["ayla"].focus = "lurker"
    player = state_json(game, Viewer("player", "alice"))
    assert player["turn"]["entries"] == ["ayla", SOULWEAVER]
    assert player["turn"]["index"] == -1
    assert player["turn"]["priority"] == {"ayla": 5}
    assert player["holds"] == {"h1": {**player["holds"]["h1"], "holders": {}, "held": ["ayla"], "caused": {}}}
    assert [(e["id"], e["creator"]) for e in player["effects"]] == [("e1", None)]
    assert player["creatures"]["ayla"]["focus"] is None
    assert "lurker" not in str(player)
    game.turn.index = 1
    assert state_json(game, Viewer("player", "alice"))["turn"]["index"] == 0
    assert state_json(game, Viewer("soulweaver", "Mira"))["turn"]["index"] == 1
    assert scrub({"economy": {"lurker": {}, "ayla": {}}}, game, Viewer("player", "alice")) == {"economy": {"ayla": {}}}


# ---- commands -----------------------------------------------------------------------------------------------


def test_a_legal_command_is_played_and_numbered(client: TestClient, games: Games, seats: dict[str, Seat]) -> None:
    got = _post(client, seats["alice"], {"command": {"type": "move", "creature": "ayla", "to": [2, 3]}})
    assert got.status_code == 200
    assert got.json() == {"ok": True, "error": None, "seq": 1}
    table = games.table(seats["alice"].game_id)
    assert table.state.creatures["ayla"].anchor == (2, 3)
    after = client.get(f"/api/seat/{seats['alice'].secret}/state").json()
    assert after["log_length"] == 1 and after["versions"]["ayla"] == 1


def test_the_table_refuses_what_the_seat_may_not_do(client: TestClient, seats: dict[str, Seat]) -> None:
    alice = seats["alice"]
    orc = _post(client, alice, {"command": {"type": "move", "creature": "orc", "to": [3, 3]}})
    assert orc.status_code == 200
    assert orc.json() == {"ok": False, "error": "you can only act for your own creatures", "seq": None}
    rat = _post(client, alice, {"command": {"type": "strike", "creature": "ayla", "target": "lurker"}}).json()
    assert rat["error"] == "no such creature"
    place = _post(client, alice, {"command": {"type": "place", "creature": "ayla", "to": [5, 5]}}).json()
    assert place["error"] == "only the Soulweaver can do that"
    assert _post(client, alice, {"command": {"type": "undo"}}).json()["error"] == "only the Soulweaver can undo"


def test_a_command_from_an_out_of_date_screen_is_refused(client: TestClient, seats: dict[str, Seat]) -> None:
    sw = seats[SOULWEAVER]
    assert _post(client, sw, {"command": {"type": "place", "creature": "orc", "to": [4, 2]}}).json()["ok"]
    stale = _post(client, sw, {"command": {"type": "place", "creature": "orc", "to": [5, 2]}, "seen": {"orc": 0}})
    assert not stale.json()["ok"] and "changed meanwhile" in stale.json()["error"]
    fresh = _post(client, sw, {"command": {"type": "place", "creature": "orc", "to": [5, 2]}, "seen": {"orc": 1}})
    assert fresh.json() == {"ok": True, "error": None, "seq": 2}


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"not json", "not valid JSON"),
        (b"[1, 2]", "must be a JSON object"),
        (b'{"command": 5}', '"command" must be a JSON object'),
        (b"{}", '"command" must be a JSON object'),
        (b'{"command": {"type": "end_turn"}, "extra": 1}', "unknown key 'extra'"),
        (b'{"command": {"type": "end_turn"}, "seen": [1]}', '"seen" must map'),
        (b'{"command": {"type": "end_turn"}, "seen": {"ayla": "1"}}', '"seen" must map'),
        (b'{"command": {"type": "end_turn"}, "seen": {"ayla": true}}', '"seen" must map'),
        (b'{"command": {"type": "end_turn", "x": NaN}}', "not valid JSON"),
        (b"\xff\xfe\x00garbage", "not valid JSON"),
        (b"[" * 100_000, "longer than"),
    ],
)
def test_a_malformed_body_is_a_400_that_says_why(
    client: TestClient, games: Games, seats: dict[str, Seat], body: bytes, why: str
) -> None:
    got = client.post(f"/api/seat/{seats['alice'].secret}/commands", content=body)
    assert got.status_code == (413 if why == "longer than" else 400)
    answer = got.json()
    assert answer["ok"] is False and answer["seq"] is None and why in answer["error"]
    assert games.table(seats["alice"].game_id).log == []


def test_a_malformed_command_is_refused_by_the_table(client: TestClient, seats: dict[str, Seat]) -> None:
    got = _post(client, seats["alice"], {"command": {"type": "move", "creature": "ayla", "to": "north"}})
    assert got.status_code == 200
    assert got.json()["error"].startswith("malformed command: move.to")


def test_a_command_to_an_unknown_seat_is_a_404(client: TestClient) -> None:
    got = client.post("/api/seat/nope/commands", json={"command": {"type": "end_turn"}})
    assert got.status_code == 404 and got.json()["error"] == "no seat has this secret"


# ---- websocket ------------------------------------------------------------------------------------------------


def test_an_unknown_secret_closes_the_socket_with_a_reason(client: TestClient) -> None:
    with client.websocket_connect("/api/seat/nope/events") as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 1008
    assert closed.value.reason == "no seat has this secret"


def test_the_socket_starts_with_the_state_and_streams_each_change(client: TestClient, seats: dict[str, Seat]) -> None:
    with client.websocket_connect(f"/api/seat/{seats['alice'].secret}/events") as ws:
        first = ws.receive_json()
        assert first["kind"] == "state" and set(first["state"]["creatures"]) == {"ayla", "orc"}
        assert _post(client, seats[SOULWEAVER], {"command": {"type": "place", "creature": "orc", "to": [4, 2]}})
        change = ws.receive_json()
        assert change["kind"] == "change"
        assert (change["seq"], change["sender"], change["type"]) == (1, SOULWEAVER, "place")
        assert [e["kind"] for e in change["events"]] == ["place"]
        assert change["creatures"]["orc"]["anchor"] == [4, 2] and "notes" not in change["creatures"]["orc"]
        assert change["versions"] == {"orc": 1}
        assert change["log_length"] == 1


def test_a_command_sent_on_the_socket_is_answered_after_its_change(client: TestClient, seats: dict[str, Seat]) -> None:
    with client.websocket_connect(f"/api/seat/{seats['alice'].secret}/events") as ws:
        ws.receive_json()
        ws.send_json({"id": "m1", "command": {"type": "move", "creature": "ayla", "to": [2, 3]}, "seen": {"ayla": 0}})
        change = ws.receive_json()
        assert change["kind"] == "change" and change["sender"] == "alice" and change["type"] == "move"
        assert ws.receive_json() == {"kind": "outcome", "id": "m1", "ok": True, "error": None, "seq": 1}
        ws.send_json({"id": 2, "command": {"type": "move", "creature": "orc", "to": [3, 3]}})
        refused = ws.receive_json()
        assert refused == {
            "kind": "outcome",
            "id": 2,
            "ok": False,
            "error": "you can only act for your own creatures",
            "seq": None,
        }


def test_a_malformed_socket_message_is_answered_and_the_socket_stays_open(
    client: TestClient, seats: dict[str, Seat]
) -> None:
    with client.websocket_connect(f"/api/seat/{seats['alice'].secret}/events") as ws:
        ws.receive_json()
        ws.send_text("{oops")
        assert ws.receive_json() == {
            "kind": "outcome",
            "id": None,
            "ok": False,
            "error": "the body is not valid JSON",
            "seq": None,
        }
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["ok"] is False
        ws.send_json({"id": "x", "command": [1]})
        answer = ws.receive_json()
        assert answer["id"] == "x" and answer["error"] == '"command" must be a JSON object with a "type"'
        ws.send_json({"command": {"type": "end_turn"}})
        assert ws.receive_json()["kind"] == "change"
        assert ws.receive_json()["ok"] is True


def test_a_player_gets_nothing_about_a_hidden_creature(client: TestClient, seats: dict[str, Seat]) -> None:
    sw = seats[SOULWEAVER]
    with (
        client.websocket_connect(f"/api/seat/{seats['alice'].secret}/events") as player,
        client.websocket_connect(f"/api/seat/{sw.secret}/events") as soulweaver,
    ):
        player.receive_json()
        soulweaver.receive_json()
        assert _post(client, sw, {"command": {"type": "place", "creature": "lurker", "to": [9, 9]}}).json()["ok"]
        seen = player.receive_json()
        assert (seen["seq"], seen["type"], seen["command"], seen["events"], seen["creatures"]) == (
            1,
            None,
            None,
            [],
            {},
        )
        assert "lurker" not in str(seen)
        full = soulweaver.receive_json()
        assert full["type"] == "place" and full["creatures"]["lurker"]["notes"] == "the spy"
        hide = {"type": "edit_creature", "creature": "orc", "changes": {"hidden": True}}
        assert _post(client, sw, {"command": hide}).json()["ok"]
        gone = player.receive_json()
        assert gone["gone"] == ["orc"] and gone["creatures"] == {} and gone["events"] == []
        assert soulweaver.receive_json()["creatures"]["orc"]["hidden"] is True
        assert _post(client, sw, {"command": {"type": "undo"}}).json()["ok"]
        undo = player.receive_json()
        assert undo["type"] == "undo" and undo["creatures"]["orc"]["hidden"] is False
        assert undo["events"][0]["text"].startswith("The Soulweaver takes back: ")
        assert _post(client, sw, {"command": {"type": "undo"}}).json()["ok"]
        undo_place = player.receive_json()
        assert undo_place["events"][0]["text"] == "The Soulweaver takes back 1 command."
        assert "lurker" not in str(undo_place) and "Lurker" not in str(undo_place)
        assert soulweaver.receive_json()["seq"] == 3
        assert "Lurker" in soulweaver.receive_json()["events"][0]["text"]


def test_events_naming_a_hidden_creature_in_their_data_or_text_are_left_out() -> None:
    game = state(
        creature("ayla", (2, 2), controller="alice"),
        creature("lurker", (8, 8), controller="bob", hidden=True),
    )
    table = Table("t", game, dice=lambda: RandomDice(5))
    changes: list[Change] = []

    class Listener:
        def table_changed(self, change: Change) -> None:
            changes.append(change)

    listener = Listener()
    table.subscribe(listener)
    assert asyncio.run(table.submit(Viewer("soulweaver", "Mira"), {"type": "begin"})).ok
    full = change_message(table, changes[0], Viewer("soulweaver", "Mira"))
    assert "lurker" in str(full["events"]) and "Lurker" in str(full["events"])
    player = change_message(table, changes[0], Viewer("player", "alice"))
    assert player["events"] and "lurker" not in str(player) and "Lurker" not in str(player)


def test_a_version_seen_of_a_hidden_creature_is_ignored_and_tells_nothing(
    client: TestClient, seats: dict[str, Seat]
) -> None:
    command = {"type": "move", "creature": "ayla", "to": [2, 3]}
    got = _post(client, seats["alice"], {"command": command, "seen": {"lurker": 7, "nobody": 7}})
    assert got.json() == {"ok": True, "error": None, "seq": 1}
    stale = _post(client, seats[SOULWEAVER], {"command": {"type": "end_turn"}, "seen": {"lurker": 7}})
    assert stale.json()["error"] == "Lurker changed meanwhile; your screen has been brought up to date"


# ---- background -------------------------------------------------------------------------------------------------


def _upload(client: TestClient, seat: Seat, data: bytes, content_type: str) -> Any:
    return client.post(f"/api/seat/{seat.secret}/background", content=data, headers={"content-type": content_type})


@pytest.mark.parametrize(("data", "kind"), [(PNG, "image/png"), (JPEG, "image/jpeg"), (WEBP, "image/webp")])
def test_the_soulweaver_uploads_a_background_that_is_served_with_its_type(
    client: TestClient, seats: dict[str, Seat], data: bytes, kind: str
) -> None:
    sw = seats[SOULWEAVER]
    got = _upload(client, sw, data, kind)
    assert got.status_code == 200
    url = f"/api/games/{sw.game_id}/background"
    assert got.json() == {"ok": True, "error": None, "content_type": kind, "size": len(data), "url": url}
    served = client.get(url)
    assert served.status_code == 200
    assert served.headers["content-type"] == kind and served.content == data
    assert served.headers["x-content-type-options"] == "nosniff"


def test_a_new_background_replaces_the_old(client: TestClient, seats: dict[str, Seat]) -> None:
    sw = seats[SOULWEAVER]
    assert _upload(client, sw, PNG, "image/png").status_code == 200
    assert _upload(client, sw, JPEG, "image/jpeg").status_code == 200
    served = client.get(f"/api/games/{sw.game_id}/background")
    assert served.headers["content-type"] == "image/jpeg" and served.content == JPEG


@pytest.mark.parametrize(
    ("who", "data", "content_type", "status", "why"),
    [
        ("alice", PNG, "image/png", 403, "only the Soulweaver"),
        (SOULWEAVER, PNG, "image/gif", 415, "send a PNG, JPEG or WebP image"),
        (SOULWEAVER, PNG, "text/html", 415, "send a PNG, JPEG or WebP image"),
        (SOULWEAVER, b"<svg onload=alert(1)>", "image/png", 415, "not a PNG, JPEG or WebP image"),
        (SOULWEAVER, b"GIF89a" + b"\x00" * 20, "image/png", 415, "not a PNG, JPEG or WebP image"),
        (SOULWEAVER, JPEG, "image/png", 415, "the file is image/jpeg, not image/png"),
        (SOULWEAVER, b"", "image/png", 400, "the body is empty"),
        (SOULWEAVER, PNG + b"\x00" * UPLOAD_LIMIT, "image/png", 413, "bigger than the limit of 0.0009765"),
    ],
)
def test_a_bad_upload_is_refused_and_nothing_is_stored(
    client: TestClient, seats: dict[str, Seat], who: str, data: bytes, content_type: str, status: int, why: str
) -> None:
    got = _upload(client, seats[who], data, content_type)
    assert got.status_code == status
    assert got.json()["ok"] is False and why in got.json()["error"]
    assert client.get(f"/api/games/{seats[who].game_id}/background").status_code == 404


def test_an_upload_to_an_unknown_seat_is_a_404(client: TestClient) -> None:
    got = client.post("/api/seat/nope/background", content=PNG, headers={"content-type": "image/png"})
    assert got.status_code == 404


def test_an_upload_is_cut_off_at_the_limit_whatever_its_length_header_says(
    client: TestClient, seats: dict[str, Seat]
) -> None:
    def chunks() -> Iterator[bytes]:
        yield PNG
        for _ in range(10):
            yield b"\x00" * 512

    got = client.post(
        f"/api/seat/{seats[SOULWEAVER].secret}/background", content=chunks(), headers={"content-type": "image/png"}
    )
    assert got.status_code == 413


@pytest.mark.parametrize("game_id", ["999", "abc", "1" * 40, "-1"])
def test_a_missing_background_is_a_404(client: TestClient, seats: dict[str, Seat], game_id: str) -> None:
    got = client.get(f"/api/games/{game_id}/background")
    assert got.status_code == 404 and got.json()["error"] == "this game has no background image"


def test_uploads_are_stored_and_replaced_on_each_database(database_url: str) -> None:
    engine = open_engine(database_url)
    game_id = db.create_game(engine, "g", _game().model_dump(mode="json"))
    assert db.load_upload(engine, game_id, "background") is None
    db.save_upload(engine, game_id, "background", "image/png", PNG)
    db.save_upload(engine, game_id, "background", "image/webp", WEBP)
    got = db.load_upload(engine, game_id, "background")
    assert got is not None and (got.content_type, got.data) == ("image/webp", WEBP)
    assert db.load_upload(engine, game_id, "token") is None
