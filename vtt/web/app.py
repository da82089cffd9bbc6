"""The NiceGUI application: the start page (games on this server, a new game), joining by an invitation, a seat's
table page and the spectators' page.

A seat is reached by a secret link (`/play/<secret>`); the server takes the role and the creatures it may act for
from the seat, never from the browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from nicegui import app, ui

from vtt.store.db import Seat
from vtt.table import offload
from vtt.table.registry import GameError, Games, NewGame, viewer_for
from vtt.table.table import Table, Viewer
from vtt.web.api import make_router
from vtt.web.game_files import create_game, render_game_import, render_uvtt_import
from vtt.web.library_page import render_library
from vtt.web.table_view import TableView

STATIC = Path(__file__).resolve().parents[2] / "static"
STYLES = (STATIC / "utility.css", STATIC / "table.css")


class Server:
    """The games this process serves (set by `run`)."""

    games: Games | None = None


def _games() -> Games:
    if Server.games is None:
        raise RuntimeError("the server has no games directory")
    return Server.games


def _head() -> None:
    for style in STYLES:
        ui.add_css(style.read_text())


def _remember(seat: Seat) -> None:
    """This browser holds the seat: the start page lists it under 'your seats'."""
    held: list[str] = list(app.storage.user.get("seats", []))
    if seat.secret not in held:
        app.storage.user["seats"] = [*held, seat.secret]


def _message(title: str, text: str) -> None:
    with ui.column().classes("p-8 gap-3 max-w-xl mx-auto start-page"):
        ui.label(title).classes("text-2xl font-bold text-stone-800")
        ui.label(text).classes("text-stone-700 message")
        ui.link("Back to the games on this server", "/")


@ui.page("/")
def index() -> None:
    _head()
    games = _games()
    held = [s for s in (games.seat(x) for x in app.storage.user.get("seats", [])) if s is not None]
    with ui.column().classes("p-8 gap-4 max-w-3xl mx-auto start-page"):
        with ui.row().classes("w-full items-baseline gap-4"):
            ui.label("Soulshards VTT").classes("text-3xl font-bold text-stone-800")
            ui.link("Creature library", "/library").classes("text-base library-link")
        if held:
            ui.label("Your seats").classes("text-xl text-stone-700")
            for seat in held:
                game = games.table(seat.game_id).name
                role = "the Soulweaver" if seat.role == "soulweaver" else seat.name
                ui.link(f"{game} — as {role}", f"/play/{seat.secret}").classes("text-lg your-seat")
        ui.label("Games on this server").classes("text-xl text-stone-700")
        listed = games.list()
        if not listed:
            ui.label("No games yet.").classes("text-stone-600")
        for info in listed:
            with ui.row().classes("items-center gap-3 game-row"):
                ui.label(info.name).classes("font-bold")
                ui.label(f"{info.map or 'custom map'} · {info.commands} commands").classes("text-sm text-stone-600")
                ui.link("watch", f"/watch/{info.id}").classes("text-sm")
        _new_game_form(games)
        render_game_import(games, _open_new)


def _new_game_form(games: Games) -> None:
    with ui.card().classes("p-4 gap-2 w-full new-game"):
        ui.label("New game").classes("text-lg font-bold")
        name = ui.input("Game name").props("outlined dense data-field=game-name").classes("w-full")
        maps = games.map_files()
        map_select = ui.select(maps, value=maps[0] if maps else None, label="Map").props(
            "outlined dense data-field=map"
        )
        grid = ui.radio({"map": "The map's own grid", "hex": "Hex grid", "square": "Square grid"}, value="map").props(
            "inline data-field=grid"
        )
        who = (
            ui.input("Your name (you will be its Soulweaver)")
            .props("outlined dense data-field=your-name")
            .classes("w-full")
        )

        async def create() -> None:
            try:
                made = await create_game(
                    games,
                    str(name.value or ""),
                    str(map_select.value or ""),
                    None if grid.value == "map" else str(grid.value),
                    str(who.value or ""),
                )
            except GameError as exc:
                ui.notify(str(exc), type="warning", position="top")
                return
            _remember(made.soulweaver)
            ui.navigate.to(f"/play/{made.soulweaver.secret}")

        ui.button("Create the game", on_click=create).props("color=primary data-action=create-game")
        render_uvtt_import(games, name, who, _open_new)


def _open_new(made: NewGame) -> None:
    _remember(made.soulweaver)
    ui.navigate.to(f"/play/{made.soulweaver.secret}")


def _holds_a_soulweaver_seat() -> bool:
    games = _games()
    seats = (games.seat(secret) for secret in app.storage.user.get("seats", []))
    return any(seat is not None and seat.role == "soulweaver" for seat in seats)


@ui.page("/library")
def library() -> None:
    _head()
    render_library(_games().engine, _holds_a_soulweaver_seat)


@ui.page("/join/{invitation}")
def join(invitation: str) -> None:
    _head()
    games = _games()
    game_id = games.invited_to(invitation)
    if game_id is None:
        _message("Invitation not valid", "This invitation was revoked or mistyped. Ask the Soulweaver for a new one.")
        return
    table = games.table(game_id)
    with ui.column().classes("p-8 gap-3 max-w-xl mx-auto start-page"):
        ui.label(f"Join {table.name}").classes("text-2xl font-bold text-stone-800")
        name = ui.input("Your display name").props("outlined dense autofocus data-field=display-name")

        def go() -> None:
            try:
                seat = games.join(invitation, str(name.value or ""))
            except GameError as exc:
                ui.notify(str(exc), type="warning", position="top")
                return
            _remember(seat)
            ui.navigate.to(f"/play/{seat.secret}")

        name.on("keydown.enter", go)
        ui.button("Take a seat", on_click=go).props("color=primary data-action=join")


def _table_page(table: Table, viewer: Viewer, games: Games, request: Request) -> None:
    ui.query(".nicegui-content").classes("p-0 gap-0 h-screen")
    with ui.header().classes("bg-stone-800 text-stone-100 py-1 px-3 items-center"):
        ui.link("Soulshards VTT", "/").classes("text-stone-300 text-sm")
        ui.label(table.name).classes("font-bold")
        who = "the Soulweaver" if viewer.is_soulweaver else ("a spectator" if viewer.is_spectator else viewer.name)
        ui.label(f"· you are {who}").classes("text-stone-300")
    base = str(request.base_url).rstrip("/")
    view = TableView(table, viewer, games=games, base_url=base)
    ui.context.client.on_delete(view.close)
    ui.keyboard(on_key=lambda e: view._cancel() if e.key == "Escape" and e.action.keydown else None)


@ui.page("/play/{secret}")
async def play(secret: str, request: Request) -> None:
    _head()
    games = _games()
    seat = games.seat(secret)
    if seat is None:
        _message("Seat not found", "This link does not open a seat at any game here.")
        return
    _remember(seat)
    _table_page(await games.load_table(seat.game_id), viewer_for(seat), games, request)


@ui.page("/watch/{game_id}")
async def watch(game_id: str, request: Request) -> None:
    _head()
    games = _games()
    try:
        table = await games.load_table(int(game_id))
    except (KeyError, ValueError):
        _message("No such game", f"There is no game {game_id!r} on this server.")
        return
    _table_page(table, Viewer("spectator", "spectator"), games, request)


def run(games: Games, host: str, port: int, storage_secret: str, **extra: Any) -> None:
    Server.games = games
    app.include_router(make_router(games))
    app.on_shutdown(games.close)
    app.on_shutdown(offload.close)
    ui.run(
        tailwind=False,
        host=host,
        port=port,
        reload=False,
        show=False,
        title="Soulshards VTT",
        favicon="🎲",
        uvicorn_logging_level="warning",
        storage_secret=storage_secret,
        **extra,
    )
