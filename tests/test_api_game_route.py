"""The seat API under `/api/game/<game>/seat/<secret>/…`: the game's number in the path is for the proxy to route
on (`deploy/nginx-vtt.conf`); the server checks it against the seat and refuses a seat of another game."""

from __future__ import annotations

import pytest
from factories import creature, on_turn, state
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from vtt.rules.model import SOULWEAVER
from vtt.store.db import Seat
from vtt.table.registry import Games
from vtt.web.api import NO_SEAT_HERE

GAME = on_turn(state(creature("ayla", (2, 2), controller="alice"), creature("orc", (3, 2))), "ayla")


@pytest.fixture
def seats(games: Games) -> tuple[dict[str, Seat], dict[str, Seat]]:
    """The seats of two games, by key."""
    _, first, _ = games.ensure("First", GAME, "")
    _, second, _ = games.ensure("Second", GAME, "")
    return {s.key: s for s in first}, {s.key: s for s in second}


def test_the_seat_api_answers_under_its_games_number(
    api_client: TestClient, seats: tuple[dict[str, Seat], dict[str, Seat]]
) -> None:
    alice = seats[1]["alice"]
    base = f"/api/game/{alice.game_id}/seat/{alice.secret}"
    got = api_client.get(f"{base}/state").json()
    assert got["game"]["id"] == alice.game_id and got["seat"]["key"] == "alice"
    answer = api_client.post(f"{base}/commands", json={"command": {"type": "end_turn"}}).json()
    assert answer == {"ok": True, "error": None, "seq": 1}
    sw = seats[1][SOULWEAVER]
    with api_client.websocket_connect(f"/api/game/{sw.game_id}/seat/{sw.secret}/events") as ws:
        first = ws.receive_json()
        assert first["kind"] == "state" and first["log_length"] == 1
        ws.send_json({"id": "a", "command": {"type": "place", "creature": "orc", "to": [5, 5]}})
        change, outcome = ws.receive_json(), ws.receive_json()
    assert change["kind"] == "change" and change["seq"] == 2
    assert outcome == {"kind": "outcome", "id": "a", "ok": True, "error": None, "seq": 2}


def test_a_seat_named_under_another_games_number_is_refused(
    api_client: TestClient, games: Games, seats: tuple[dict[str, Seat], dict[str, Seat]]
) -> None:
    """The number is never trusted: a secret of game 1's seat under game 2's number (or under no game's) opens
    nothing, plays nothing, and says so in plain words."""
    first, second = seats
    alice, other = first["alice"], second["alice"].game_id
    for game in (str(other), "0", "x1", "99999999999"):
        base = f"/api/game/{game}/seat/{alice.secret}"
        got = api_client.get(f"{base}/state")
        assert (got.status_code, got.json()["error"]) == (404, NO_SEAT_HERE)
        posted = api_client.post(f"{base}/commands", json={"command": {"type": "end_turn"}})
        assert (posted.status_code, posted.json()) == (404, {"ok": False, "error": NO_SEAT_HERE, "seq": None})
        with api_client.websocket_connect(f"{base}/events") as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (1008, NO_SEAT_HERE)
    assert len(games.table(alice.game_id).log) == 0
    assert len(games.table(other).log) == 0
