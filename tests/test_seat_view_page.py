"""The table page and the watch page as a seat sees them, through NiceGUI's simulated `User` (no browser): a
hidden creature's name is nowhere in the page, a page opens (no 500) after a library creature is placed while a
creature is hidden, a connected player's log keeps going, a click on a hidden token is answered as one on an id
that does not exist, and the turn panel drops a creature once it is hidden."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from factories import creature, on_turn, state, weapon
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient
from nicegui import core
from nicegui.testing.user import User
from nicegui.testing.user_simulation import user_simulation

from vtt.library import library_creature
from vtt.rules.dice import RandomDice
from vtt.rules.model import SOULWEAVER, GameState
from vtt.rules.settings import TableSettings
from vtt.store.db import Seat, open_engine
from vtt.table.registry import Games
from vtt.table.table import Viewer
from vtt.web import app as web_app
from vtt.web.api import make_router
from vtt.web.map_view import MapView
from vtt.web.roll_log import RollLog

SW = Viewer("soulweaver", "Soulweaver")
HIDDEN_NAME = "Shadow Assassin"


def _game() -> GameState:
    sword = weapon("sword", damage=2)
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice", weapons=[sword], grip={"right_arm": "sword"}),
            creature("bram", (6, 6), controller="bob"),
            creature("orc", (4, 2), weapons=[sword], grip={"right_arm": "sword"}),
            creature("shade", (3, 2), name=HIDDEN_NAME, hidden=True),
            settings=TableSettings(defense_prompts="players", reactions=False),
        ),
        "ayla",
    )


def _turns(game: GameState) -> GameState:
    game.turn.entries, game.turn.priority = ["ayla", "bram", SOULWEAVER], {}
    return game


@pytest.fixture
def games(tmp_path: Path) -> Iterator[Games]:
    games = Games(open_engine(f"sqlite:///{tmp_path}/page.sqlite"), tmp_path, dice=lambda: RandomDice(5))
    web_app.Server.games = games
    yield games
    web_app.Server.games = None
    games.close()


@pytest.fixture
def seats(games: Games) -> dict[str, Seat]:
    _, made, _ = games.ensure("Page game", _turns(_game()), "")
    games.set_watchable(made[0].game_id, True)
    return {s.key: s for s in made}


async def _root(secret: str = "", watch: str = "", *, request: Request) -> None:
    """The real pages, opened by query (the simulation serves one root page): `?secret=` is `/play/<secret>`,
    `?watch=` is `/watch/<game id>`."""
    if watch:
        await web_app.watch(watch, request)
    else:
        await web_app.play(secret, request)


@asynccontextmanager
async def _simulation() -> AsyncIterator[Callable[[], User]]:
    """A simulated server with the real pages; each call of the function it gives is one more browser."""
    async with user_simulation(_root) as first:
        fresh = [first]

        def browser() -> User:
            if fresh:
                return fresh.pop()
            return User(httpx.AsyncClient(transport=httpx.ASGITransport(core.app), base_url="http://test"))

        yield browser


def _cards(user: User, kind: str) -> int:
    with user:
        return sum(1 for e in user.current_layout.descendants() if kind in e.classes)


def _log_entries(user: User) -> int:
    """The entries of the page's roll log (drawn by the browser from this list)."""
    with user:
        return sum(len(e.entries) for e in user.current_layout.descendants() if isinstance(e, RollLog))


def _page_text(user: User) -> str:
    """Everything the page's elements carry: texts, props (the map's tokens) and labels."""
    parts: list[str] = []
    with user:
        for element in user.current_layout.descendants():
            parts.append(str(element._props))
            text = getattr(element, "text", None)
            if isinstance(text, str):
                parts.append(text)
    return "\n".join(parts)


async def _settled(check: Callable[[], bool]) -> bool:
    """Wait (a few seconds at most) until a page's deferred update has made `check` true."""
    for _ in range(200):
        if check():
            return True
        await asyncio.sleep(0.02)
    return check()


async def test_a_player_page_and_the_watch_page_carry_no_hidden_name(games: Games, seats: dict[str, Seat]) -> None:
    async with _simulation() as browser:
        soulweaver = browser()
        await soulweaver.open(f"/?secret={seats['soulweaver'].secret}")
        assert HIDDEN_NAME in _page_text(soulweaver)
        player = browser()
        await player.open(f"/?secret={seats['alice'].secret}")
        assert "Ayla" in _page_text(player) and HIDDEN_NAME not in _page_text(player)
        assert "shade" not in player.find(MapView).elements.pop().props["tokens"]
        watcher = browser()
        await watcher.open(f"/?watch={seats['alice'].game_id}")
        assert "Ayla" in _page_text(watcher) and HIDDEN_NAME not in _page_text(watcher)


async def test_pages_open_and_logs_go_on_after_a_library_creature_is_placed_while_one_is_hidden(
    games: Games, seats: dict[str, Seat]
) -> None:
    """A placed creature's command carries the creature as an object: the roll log's filter once failed on it
    (`unhashable type: 'dict'`), a reloaded player page and the watch page answered 500, and connected players lost
    every log entry after it."""
    table = games.table(seats["alice"].game_id)
    async with _simulation() as browser:
        connected = browser()
        await connected.open(f"/?secret={seats['alice'].secret}")
        entries = _log_entries(connected)
        placed = await table.submit(SW, library_creature("goblin", (8, 2)))
        assert placed.ok, placed.error
        assert (await table.submit(Viewer("player", "alice"), {"type": "dash", "creature": "ayla"})).ok
        assert await _settled(lambda: _log_entries(connected) == entries + 2)
        reloaded = browser()
        await reloaded.open(f"/?secret={seats['alice'].secret}")  # a 500 fails here
        assert "Goblin" in _page_text(reloaded) and HIDDEN_NAME not in _page_text(reloaded)
        assert _log_entries(reloaded) == entries + 2
        watcher = browser()
        await watcher.open(f"/?watch={seats['alice'].game_id}")
        assert "Goblin" in _page_text(watcher) and HIDDEN_NAME not in _page_text(watcher)
    api = FastAPI()
    api.include_router(make_router(games))
    with TestClient(api) as client:
        answer = client.get(f"/api/seat/{seats['alice'].secret}/state")
        assert answer.status_code == 200 and HIDDEN_NAME not in answer.text and "Goblin" in answer.text
        with client.websocket_connect(f"/api/seat/{seats['alice'].secret}/events") as ws:
            first = ws.receive_json()
            assert first["kind"] == "state" and HIDDEN_NAME not in str(first)


async def test_a_click_on_a_hidden_token_is_answered_as_a_click_on_an_id_that_does_not_exist(
    games: Games, seats: dict[str, Seat]
) -> None:
    async with _simulation() as browser:
        player = browser()
        await player.open(f"/?secret={seats['alice'].secret}")
        untouched = _page_text(player)
        for cid in ("shade", "nobody"):
            player.find(MapView).trigger("token_click", {"id": cid, "x": 10, "y": 10})
            await asyncio.sleep(0.05)
            assert _page_text(player) == untouched, cid
            assert _cards(player, "menu-title") == 0
        player.find(MapView).trigger("token_click", {"id": "orc", "x": 10, "y": 10})
        assert await _settled(lambda: _cards(player, "menu-title") == 1)
        assert HIDDEN_NAME not in _page_text(player)


async def test_the_turn_panel_of_a_connected_player_drops_a_creature_once_it_is_hidden(
    games: Games, seats: dict[str, Seat]
) -> None:
    table = games.table(seats["alice"].game_id)
    async with _simulation() as browser:
        player = browser()
        await player.open(f"/?secret={seats['alice'].secret}")

        def turn_panel() -> str:
            with player:
                return "\n".join(
                    str(getattr(e, "text", ""))
                    for panel in player.current_layout.descendants()
                    if "turn-panel" in panel.classes
                    for e in panel.descendants()
                )

        assert "Bram" in turn_panel()
        hide = {"type": "edit_creature", "creature": "bram", "changes": {"hidden": True}}
        assert (await table.submit(SW, hide)).ok
        assert await _settled(lambda: "Bram" not in turn_panel())
        assert "▶ Ayla" in turn_panel() and "Bram" not in _page_text(player)


async def test_the_defenders_page_asks_without_the_hidden_attacker_and_another_player_only_sees_a_wait(
    games: Games,
) -> None:
    _, made, _ = games.ensure("Ambush", on_turn(_game(), "shade"), "")
    seats = {s.key: s for s in made}
    table = games.table(seats["alice"].game_id)
    async with _simulation() as browser:
        alice, bob = browser(), browser()
        await alice.open(f"/?secret={seats['alice'].secret}")
        await bob.open(f"/?secret={seats['bob'].secret}")
        strike = {"type": "strike", "creature": "shade", "target": "ayla"}
        assert (await table.submit(SW, strike)).ok and table.state.pending[0].to == "alice"
        assert await _settled(lambda: _cards(alice, "decision-mine") == 1 and _cards(bob, "decision-wait") == 1)
        assert "A creature you cannot see attacks Ayla's Elude" in _page_text(alice)
        assert "Roll defense" in _page_text(alice) and HIDDEN_NAME not in _page_text(alice)
        assert "The table waits for the Soulweaver." in _page_text(bob)
        assert "Ayla's Elude" not in _page_text(bob) and HIDDEN_NAME not in _page_text(bob)
