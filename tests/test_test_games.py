"""Fresh seeded games for the browser tests (`vtt --test-games`, `vtt.web.test_games`): off unless asked for, only
from this machine, a refused request stores nothing, and a game's dice are its own seed's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from vtt.cli import build_parser
from vtt.rules import apply
from vtt.rules.dice import RandomDice, RecordingDice
from vtt.rules.mapfile import load_map
from vtt.store import db
from vtt.table.registry import Games
from vtt.web.api import make_router
from vtt.web.test_games import PATH, make_test_games_router

ARENA = json.loads((Path(__file__).resolve().parents[1] / "e2e" / "maps" / "arena.json").read_text())
HERE = ("127.0.0.1", 50000)


def _client(games: Games, client: tuple[str, int] = HERE) -> TestClient:
    app = FastAPI()
    app.include_router(make_router(games))
    app.include_router(make_test_games_router(games))
    return TestClient(app, client=client)


@pytest.fixture
def client(games: Games) -> Iterator[TestClient]:
    with _client(games) as c:
        yield c


def _ask(client: TestClient, **body: Any) -> Any:
    return client.post(PATH, json={"name": "Arena 1", "map": ARENA, **body})


def test_the_server_makes_no_test_games_unless_started_with_the_flag() -> None:
    assert build_parser().parse_args([]).test_games is False
    assert build_parser().parse_args(["--test-games"]).test_games is True


def test_a_test_game_has_the_maps_seats_and_an_invitation(client: TestClient, games: Games) -> None:
    made = _ask(client, watchable=True)
    assert made.status_code == 200, made.text
    answer = made.json()
    game = answer["game"]
    assert set(answer["seats"]) == {"soulweaver", "alice"}
    for seat in games.seats(game):
        assert answer["seats"][seat.key] == f"/play/{seat.secret}"
    assert answer["invitation"] == f"/join/{games.invitations(game)[0]}"
    assert games.watchable(game) is True
    assert games.table(game).state.model_dump(mode="json") == load_map(ARENA).model_dump(mode="json")


def test_each_test_game_rolls_its_own_seeds_dice(client: TestClient, games: Games) -> None:
    """The server's dice are seeded with 3 (the `games` fixture); each game rolls Priority with its own seed's dice,
    the faces `RandomDice(seed)` gives for the same command."""
    for name, seed in (("Seven", 7), ("Eleven", 11)):
        answer = _ask(client, name=name, seed=seed).json()
        begun = client.post(
            f"{answer['seats']['soulweaver']}/commands".replace("/play/", "/api/seat/"),
            json={"command": {"type": "begin"}},
        )
        assert begun.json()["ok"] is True, begun.text
        expected = RecordingDice(RandomDice(seed))
        apply(load_map(ARENA), {"type": "begin"}, expected)
        assert games.table(answer["game"]).log[0].faces == expected.used


def test_a_request_from_another_machine_is_refused(games: Games) -> None:
    with _client(games, client=("203.0.113.9", 50000)) as elsewhere:
        refused = _ask(elsewhere)
    assert refused.status_code == 403
    assert refused.json() == {"error": "test games are made only from this machine"}
    assert games.list() == []


@pytest.mark.parametrize("header", ["X-Forwarded-For", "X-Real-IP", "Forwarded"])
def test_a_request_a_proxy_on_this_machine_passed_on_is_refused(client: TestClient, games: Games, header: str) -> None:
    """nginx on the same machine connects from the loopback address: the header it adds says the request came from
    elsewhere."""
    refused = client.post(PATH, json={"name": "Arena 1", "map": ARENA}, headers={header: "203.0.113.9"})
    assert refused.status_code == 403
    assert games.list() == []


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"name": "Arena 1", "map": {"format": 1, "board": {"cols": 0}}}, 400, "the map cannot be played"),
        ({"name": "Arena 1", "map": ARENA, "seed": "seven"}, 400, "not a test game request"),
        ({"name": "", "map": ARENA}, 400, "not a test game request"),
        ({"name": "Arena 1", "map": ARENA, "admin": True}, 400, "not a test game request"),
    ],
)
def test_a_bad_request_stores_nothing(client: TestClient, games: Games, body: Any, status: int, says: str) -> None:
    refused = client.post(PATH, json=body)
    assert refused.status_code == status
    assert refused.json()["error"].startswith(says)
    assert games.list() == []


def test_a_taken_name_is_refused_and_its_game_kept(client: TestClient, games: Games) -> None:
    first = _ask(client, seed=7).json()
    again = _ask(client, seed=8)
    assert again.status_code == 409
    assert again.json() == {"error": "there is already a game called 'Arena 1'"}
    assert [g.id for g in games.list()] == [first["game"]]
    assert {s.key: f"/play/{s.secret}" for s in db.seats(games.engine, first["game"])} == first["seats"]
