"""Fresh games for the browser tests, on a server started with `vtt --test-games` (never in play).

`POST /test-games` with `{"name", "map": <map file data>, "seed": <int or null>, "watchable": <bool>}` makes a new
game from the map, as the server makes its start-up game (a Soulweaver seat and one seat for each player the
creatures name), whose dice are seeded with `seed` whatever the server's own seed is. The answer is
`{"game": <id>, "seats": {key: "/play/<secret>"}, "invitation": "/join/<secret>"}`. So one server serves many tests,
each on a game of its own, with the dice a server started with `--seed` on that map would roll.

Without `--test-games` the route does not exist (404). With it, a request from another machine is refused (403): the
route hands out the Soulweaver's seat of every game it makes, so it is for the tests' own loopback connections; a
request a reverse proxy passed on (it names where it came from) is refused too.
"""

from __future__ import annotations

import asyncio
import json
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vtt.rules.dice import RandomDice
from vtt.rules.limits import MAP_FILE_BYTES_MAX, Name
from vtt.rules.mapfile import MapError, load_map
from vtt.rules.model import GameState
from vtt.table.registry import Games

PATH = "/test-games"
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
PROXY_HEADERS = ("x-forwarded-for", "x-real-ip", "forwarded")
"""A request passed on by a reverse proxy on this machine comes from the loopback address too; these say it did."""


class TestGameRequest(BaseModel):
    """What a test asks for."""

    __test__ = False  # not a pytest test class, despite its name
    model_config = ConfigDict(extra="forbid")

    name: Annotated[Name, Field(min_length=1)]
    map: dict[str, Any]
    seed: int | None = None
    watchable: bool = False


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def make_test_games_router(games: Games) -> APIRouter:
    router = APIRouter()

    @router.post(PATH)
    async def new_test_game(request: Request) -> JSONResponse:
        proxied = any(name in request.headers for name in PROXY_HEADERS)
        if request.client is None or request.client.host not in LOOPBACK or proxied:
            return _error(403, "test games are made only from this machine")
        raw = await request.body()
        if len(raw) > MAP_FILE_BYTES_MAX:
            return _error(413, "the map is too big")
        try:
            asked = TestGameRequest.model_validate(json.loads(raw))
        except (ValueError, ValidationError) as exc:
            return _error(400, f"not a test game request: {exc}")
        try:
            state = await asyncio.to_thread(load_map, asked.map)
        except MapError as exc:
            return _error(400, f"the map cannot be played: {exc}")
        made = await asyncio.to_thread(_make, games, asked, state)
        if made is None:
            return _error(409, f"there is already a game called {asked.name!r}")
        return JSONResponse(made)

    return router


def _make(games: Games, asked: TestGameRequest, state: GameState) -> dict[str, Any] | None:
    """The new game's links; None, and nothing changed, when there is a game of that name already."""
    game_id, seats, invitation = games.ensure(asked.name, state, f"{asked.name}.json")
    if invitation is None:  # `ensure` found the game
        return None
    games.use_dice(game_id, partial(RandomDice, asked.seed))
    if asked.watchable:
        games.set_watchable(game_id, True)
    return {
        "game": game_id,
        "seats": {seat.key: f"/play/{seat.secret}" for seat in seats},
        "invitation": f"/join/{invitation}",
    }
