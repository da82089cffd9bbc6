"""The open surface of the server: who may make and import games (anyone, or holders of the admin secret kept in
the database), the Soulweaver's watch switch, replacing a player's seat link, the security headers on every
response, out-of-range game ids as a clean 404, and junk browser events dropped before any handler sees them."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from factories import creature, state
from fastapi import FastAPI
from fastapi.responses import PlainTextResponse
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from vtt.cli import build_parser
from vtt.rules.dice import RandomDice
from vtt.store import db
from vtt.store.db import open_engine
from vtt.table.registry import GameError, Games, parse_game_id
from vtt.web.api import SEAT_REPLACED, make_router
from vtt.web.headers import SECURITY_HEADERS, SecurityHeaders
from vtt.web.map_view import COORD_MAX, clean_event

MAPS = Path(__file__).resolve().parents[1] / "maps"


@pytest.fixture
def games(tmp_path: Path) -> Iterator[Games]:
    games = Games(open_engine(f"sqlite:///{tmp_path}/surface.sqlite"), MAPS, dice=lambda: RandomDice(3))
    yield games
    games.close()


def _client(games: Games) -> TestClient:
    app = FastAPI()
    app.add_middleware(SecurityHeaders)
    app.include_router(make_router(games))

    @app.get("/own-header")
    def own() -> PlainTextResponse:
        return PlainTextResponse("x", headers={"Referrer-Policy": "same-origin"})

    return TestClient(app)


# ---- who may make games --------------------------------------------------------------------------------------


def test_anyone_may_make_games_only_when_the_server_says_so(games: Games) -> None:
    assert games.may_create(None)
    games.creators = "admin"
    secret = games.admin_secret()
    assert len(secret) >= 24
    for token in (None, "", secret[:-1], secret + "x", 12, ["x"]):
        assert not games.may_create(token)
    assert games.may_create(secret)


def test_the_admin_secret_is_made_once_and_kept_in_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/admin.sqlite"
    first = Games(open_engine(url), MAPS, creators="admin").admin_secret()
    again = Games(open_engine(url), MAPS, creators="admin")
    assert again.admin_secret() == first and again.may_create(first)
    other = Games(open_engine(f"sqlite:///{tmp_path}/other.sqlite"), MAPS, creators="admin")
    assert not other.may_create(first)


def test_the_command_line_chooses_who_makes_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VTT_CREATORS", raising=False)
    assert build_parser().parse_args([]).creators == "admin"  # the safe default
    assert build_parser().parse_args(["--creators", "anyone"]).creators == "anyone"
    monkeypatch.setenv("VTT_CREATORS", "anyone")
    assert build_parser().parse_args([]).creators == "anyone"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--creators", "everybody"])


# ---- watching -------------------------------------------------------------------------------------------------


class _Listener:
    def __init__(self) -> None:
        self.told = 0

    def table_changed(self, change: Any) -> None:
        pass

    def seats_changed(self) -> None:
        self.told += 1


def test_a_game_is_watched_only_after_its_soulweaver_turns_watching_on(games: Games) -> None:
    made = games.create("Watched", "demo.json", None, "Mira")
    game_id, _, _ = games.ensure("Start-up game", state(creature("ayla", (1, 1))), "")
    assert games.watchable(made.game_id) is False and games.watchable(game_id) is False
    listener = _Listener()
    games.table(made.game_id).subscribe(listener)
    games.set_watchable(made.game_id, True)
    assert games.watchable(made.game_id) is True and listener.told == 1  # open pages re-check their access
    assert [g.watchable for g in games.list() if g.id == made.game_id] == [True]
    games.set_watchable(made.game_id, False)
    assert games.watchable(made.game_id) is False and listener.told == 2
    with pytest.raises(GameError, match="there is no game 999"):
        games.set_watchable(999, True)
    assert games.watchable(999) is None


# ---- replacing a seat's link ----------------------------------------------------------------------------------


def test_a_replaced_seat_link_opens_nothing_and_the_seat_keeps_its_creatures(games: Games) -> None:
    made = games.create("Replaced", "demo.json", None, "Mira")
    alice = games.join(made.invitation, "alice")
    listener = _Listener()
    games.table(made.game_id).subscribe(listener)
    new = games.replace_seat(made.game_id, "alice")
    assert games.seat(alice.secret) is None
    assert new.secret != alice.secret and (new.key, new.role, new.name) == ("alice", "player", "alice")
    assert games.seat(new.secret) == new and listener.told == 1
    assert any(c.controller == "alice" for c in games.table(made.game_id).state.creatures.values())
    with pytest.raises(GameError, match="no such player seat"):
        games.replace_seat(made.game_id, "soulweaver")  # the Soulweaver's own seat is not a player's
    with pytest.raises(GameError, match="no such player seat"):
        games.replace_seat(made.game_id, "nobody")


def test_a_replaced_seat_link_closes_its_websocket_and_its_api(games: Games) -> None:
    made = games.create("Replaced", "demo.json", None, "Mira")
    alice = games.join(made.invitation, "alice")
    with _client(games) as client, client.websocket_connect(f"/api/seat/{alice.secret}/events") as ws:
        assert ws.receive_json()["kind"] == "state"
        games.replace_seat(made.game_id, "alice")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008 and closed.value.reason == SEAT_REPLACED
        assert client.get(f"/api/seat/{alice.secret}/state").status_code == 404


# ---- headers and game ids -------------------------------------------------------------------------------------


def test_every_response_carries_the_security_headers(games: Games) -> None:
    made = games.create("Headers", "demo.json", None, "Mira")
    with _client(games) as client:
        for path in (
            f"/api/seat/{made.soulweaver.secret}/state",
            "/api/seat/nobody/state",
            f"/api/games/{made.game_id}/background",
            "/no/such/path",
        ):
            got = client.get(path)
            for name, value in SECURITY_HEADERS.items():
                assert got.headers[name] == value, (path, name)
        kept = client.get("/own-header")
        assert kept.headers["Referrer-Policy"] == "same-origin" and kept.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("text", ["99999999999999999999", "2147483648", "0", "-1", "1e3", "٣", "", " 1", "1" * 400])
def test_a_number_that_cannot_be_a_game_id_names_no_game(games: Games, text: str) -> None:
    assert parse_game_id(text) is None
    with _client(games) as client:
        got = client.get(f"/api/games/{text}/background")
        assert got.status_code == 404, (text, got.text)
    if text.isdigit():
        assert db.get_game(games.engine, int(text)) is None and db.game_watchable(games.engine, int(text)) is None
        with pytest.raises(KeyError):
            games.table(int(text))


def test_a_game_id_in_range_is_read() -> None:
    assert parse_game_id("1") == 1 and parse_game_id("2147483647") == 2**31 - 1


# ---- browser events -------------------------------------------------------------------------------------------

JUNK: list[object] = [None, [], "q", 5, {"id": 3}, {"id": ""}, {"id": "x" * 201}, {"q": "1", "r": 2}]


@pytest.mark.parametrize(
    ("name", "args"),
    [
        *(("token_move", a) for a in JUNK),
        ("token_move", {"id": "ayla", "q": "3", "r": 4}),
        ("token_move", {"id": "ayla", "q": 3, "r": 10**400}),
        ("token_move", {"id": "ayla", "q": True, "r": 4}),
        ("token_move", {"id": "ayla", "q": 3.5, "r": 4}),
        ("token_move", {"id": ["ayla"], "q": 3, "r": 4}),
        ("token_move", {"id": "ayla", "q": COORD_MAX + 1, "r": 4}),
        *(("token_click", a) for a in JUNK[:7]),
        *(("cell_click", a) for a in JUNK),
        ("cell_click", {"q": -(10**30), "r": 0}),
        ("paint_stroke", {"cells": [[1, 2], [3, "4"]]}),
        ("paint_stroke", {"cells": [[1, 2, 3]]}),
        ("paint_stroke", {"cells": []}),
        ("paint_stroke", {"cells": "all"}),
        ("paint_stroke", {"cells": [[1, 2]] * 5001}),
        ("paint_stroke", {"cells": [[10**9, 2]]}),
        ("no_such_event", {"id": "ayla"}),
    ],
)
def test_a_junk_browser_event_is_dropped(name: str, args: object) -> None:
    assert clean_event(name, args) is None


def test_a_good_browser_event_reaches_its_handler_in_its_promised_shape() -> None:
    assert clean_event("token_move", {"id": "ayla", "q": 3, "r": -4, "v": 7, "extra": 1}) == {
        "id": "ayla",
        "q": 3,
        "r": -4,
        "v": 7,
    }
    assert clean_event("token_move", {"id": "ayla", "q": 3, "r": 4, "v": -1}) == {"id": "ayla", "q": 3, "r": 4}
    assert clean_event("token_click", {"id": "ayla", "x": 10, "y": 2.5}) == {"id": "ayla", "x": 10.0, "y": 2.5}
    for x in (math.nan, math.inf, "10", 1e9, True):
        assert clean_event("token_click", {"id": "ayla", "x": x, "y": 2}) == {"id": "ayla"}
    assert clean_event("cell_click", {"q": 0, "r": 5}) == {"q": 0, "r": 5}
    stroke = {"cells": [[1, 2], [1, 2], [3, 4]], "erase": "yes"}
    assert clean_event("paint_stroke", stroke) == {"cells": [[1, 2], [3, 4]], "erase": False}
    assert clean_event("cancel", "anything") == {}
