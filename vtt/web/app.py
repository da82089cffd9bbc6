"""The NiceGUI application: the start page (games on this server, a new game), joining by an invitation, a seat's
table page and the spectators' page.

A seat is reached by a secret link (`/play/<secret>`); the server takes the role and the creatures it may act for
from the seat, never from the browser. Who may make and import games is the server's setting (`Games.creators`):
anyone, or only browsers that opened the admin link (`/admin/<secret>`, printed at start-up). A game is watched
(`/watch/<id>`) only while its Soulweaver lets it be. A page whose seat link was replaced, or a watch page whose game
stopped being watchable, is closed.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import RedirectResponse
from nicegui import Client, app, events, ui

from vtt.store.db import Seat
from vtt.table import offload
from vtt.table.registry import GameError, Games, NewGame, parse_game_id, viewer_for
from vtt.table.table import Change, Table, Viewer
from vtt.web import background_threads, first_paint, handler_arity, latency_hooks, outbox_send
from vtt.web.api import make_router
from vtt.web.compress import Compress
from vtt.web.game_files import create_game, render_game_import, render_uvtt_import
from vtt.web.headers import SecurityHeaders
from vtt.web.library_page import render_library
from vtt.web.loop_watch import start_from_env as watch_loop
from vtt.web.table_view import TableView
from vtt.web.ws_protocol import choose_websockets

STATIC = Path(__file__).resolve().parents[2] / "static"
STYLES = (STATIC / "utility.css", STATIC / "table.css")
NOT_AN_ADMIN = (
    "Only this server's admins make and import games here. Whoever runs the server has its admin link (printed "
    "when it starts): opening it lets that browser make games."
)
SEAT_REPLACED = (
    "This seat link was replaced",
    "The Soulweaver gave this seat a new link, so this one opens nothing any more. Ask them for the new one.",
)
WATCHING_OFF = (
    "Watching is off",
    "This game's Soulweaver has not let spectators watch it. Ask them to turn watching on, or for a seat.",
)


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


def _may_create() -> bool:
    """Whether this browser may make and import games (checked on the server at each request)."""
    return _games().may_create(app.storage.user.get("admin"))


def _not_found() -> None:
    ui.context.client.status_code = 404


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
                if info.watchable:
                    ui.link("watch", f"/watch/{info.id}").classes("text-sm")
        if _may_create():
            _new_game_form(games)
            render_game_import(games, _open_new, _may_create)
        else:
            with ui.card().classes("p-4 gap-2 w-full no-create"):
                ui.label("New game").classes("text-lg font-bold")
                ui.label(NOT_AN_ADMIN).classes("text-stone-700")


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
            if not _may_create():
                ui.notify(NOT_AN_ADMIN, type="warning", position="top", multi_line=True)
                return
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
        render_uvtt_import(games, name, who, _open_new, _may_create)


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


@ui.page("/admin/{secret}")
def admin(secret: str) -> RedirectResponse | None:
    """The admin link: this browser may make and import games from now on (it keeps the secret in its storage)."""
    _head()
    if not _games().is_admin_secret(secret):
        _not_found()
        _message("Admin link not valid", "This link does not open this server's admin rights: it may be mistyped.")
        return None
    app.storage.user["admin"] = secret
    return RedirectResponse("/", status_code=303)


@ui.page("/join/{invitation}")
def join(invitation: str) -> None:
    _head()
    games = _games()
    game_id = games.invited_to(invitation)
    if game_id is None:
        _not_found()
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


KEY_FIELDS = ("action", "repeat", "altKey", "ctrlKey", "metaKey", "shiftKey", "key", "code", "location")


class Keyboard(ui.keyboard):
    """`ui.keyboard` that drops a malformed key event (sent by a script, not the page) instead of raising."""

    def _handle_key(self, e: events.GenericEventArguments) -> None:
        args = e.args
        if not isinstance(args, dict) or any(k not in args for k in KEY_FIELDS):
            return
        if not all(isinstance(args[k], str) for k in ("action", "key", "code")):
            return
        super()._handle_key(e)


class _AccessGuard:
    """Closes a table page when its access is taken away (a seat link replaced, watching turned off): the page's
    view stops listening to the table, its elements (and their handlers) are removed, and it says why. Checked
    whenever the game's seats or settings change (`Table.seats_changed`)."""

    def __init__(self, table: Table, view: TableView, client: Client, lost: Callable[[], tuple[str, str] | None]):
        self.table, self.view, self.client, self.lost = table, view, client, lost
        table.subscribe(self)
        client.on_delete(self.close)

    def table_changed(self, change: Change) -> None:
        pass

    def seats_changed(self) -> None:
        why = self.lost()
        if why is None or self.client.is_deleted:
            return
        self.close()
        self.view.close()
        with self.client.content:
            self.client.content.clear()
            _message(*why)

    def close(self) -> None:
        self.table.unsubscribe(self)


TABLE_PAGE_SECONDS = 60.0
"""How long a table page may take to be ready: loading a big game and building its first view run in threads,
off the loop, and on a busy server they took more than NiceGUI's default 3 s, which then answered 500."""


def _table_page(
    table: Table,
    viewer: Viewer,
    games: Games,
    request: Request,
    lost: Callable[[], tuple[str, str] | None],
    secret: str | None = None,
) -> None:
    ui.query(".nicegui-content").classes("p-0 gap-0 h-screen table-content")
    with ui.header().classes("bg-stone-800 text-stone-100 py-1 px-3 items-center table-header"):
        ui.link("Soulshards VTT", "/").classes("text-stone-300 text-sm")
        ui.label(table.name).classes("font-bold")
        who = "the Soulweaver" if viewer.is_soulweaver else ("a spectator" if viewer.is_spectator else viewer.name)
        ui.label(f"· you are {who}").classes("text-stone-300")
    base = str(request.base_url).rstrip("/")
    view = TableView(table, viewer, games=games, base_url=base, secret=secret)
    ui.context.client.on_delete(view.close)
    _AccessGuard(table, view, ui.context.client, lost)
    Keyboard(on_key=lambda e: view._cancel() if e.key == "Escape" and e.action.keydown else None)


@ui.page("/play/{secret}", response_timeout=TABLE_PAGE_SECONDS)
async def play(secret: str, request: Request) -> None:
    _head()
    games = _games()
    seat = await asyncio.to_thread(games.seat, secret)  # the database, off the loop: a big import may be writing
    if seat is None:
        _not_found()
        _message(
            "Seat not found",
            "This link does not open a seat at any game here: it is mistyped, or the Soulweaver replaced it.",
        )
        return
    _remember(seat)
    table = await games.load_table(seat.game_id)
    viewer = viewer_for(seat)
    await first_paint.prepare(table, viewer)
    _table_page(table, viewer, games, request, lambda: None if games.seat(secret) else SEAT_REPLACED, secret)


@ui.page("/watch/{game_id}", response_timeout=TABLE_PAGE_SECONDS)
async def watch(game_id: str, request: Request) -> None:
    _head()
    games = _games()
    number = parse_game_id(game_id)
    watchable = None if number is None else await asyncio.to_thread(games.watchable, number)
    if number is None or watchable is None:
        _not_found()
        _message("No such game", "There is no game with this number on this server.")
        return
    if not watchable:
        ui.context.client.status_code = 403
        _message(*WATCHING_OFF)
        return
    table = await games.load_table(number)
    spectator = Viewer("spectator", "spectator")
    await first_paint.prepare(table, spectator)
    _table_page(table, spectator, games, request, lambda: None if games.watchable(number) else WATCHING_OFF)


SWITCH_INTERVAL = 0.001
"""Seconds a thread computing (loading a game, building a first paint, storing an import) may keep the interpreter
while the event loop waits for it (Python's default: 0.005). The loop gives the interpreter up at each read or
write of a socket or of the database and may wait this long each time to have it back: a move, which reads and
writes several times, waited tens of milliseconds behind a busy thread at the default."""


GC_YOUNG_THRESHOLD = 10_000
"""Objects made and not yet freed before the garbage collector looks at the youngest ones (Python's default: 700).
At the default, nearly every move on the 500-creature bench map paid a collection of the youngest objects and every
tenth one of the next generation: 0.3 ms a move of the event loop's time, measured in process; none at this one."""


RECONNECT_SECONDS = 30.0
"""How long the server keeps a page whose socket dropped for it to come back (NiceGUI's default: 3 s), which also
sets how long a page may take to answer the server's ping (40 %: 12 s, default 2 s) before its socket is dropped.
A page whose main thread was busy longer (opening the Settings dialog: 7-10 s of its tasks on a 2-core machine at
load 28) lost its socket, came back after its 3 s and was reloaded, losing the dialog and what was typed in it; a
browser drawing the 500-token map on a loaded machine fell into a reload loop the same way."""


def run(games: Games, host: str, port: int, storage_secret: str, **extra: Any) -> None:
    Server.games = games
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    app.add_middleware(SecurityHeaders)
    app.include_router(make_router(games))
    app.on_startup(background_threads.install)
    app.on_startup(gc.freeze)  # the long-lived objects of start-up: see `Games.load_table`
    app.on_startup(watch_loop)  # only when VTT_LOOP_WATCH asks for it
    app.on_startup(latency_hooks.install)  # only when VTT_LATENCY_TRACE asks for it
    app.on_startup(lambda: games.listen(asyncio.get_running_loop()))  # other processes' changes (PostgreSQL)
    app.on_startup(games.sweep_idle)  # games nobody watches leave memory (`Games.unload_idle`)
    app.on_shutdown(games.close)
    app.on_shutdown(offload.close)
    choose_websockets()
    outbox_send.install()
    handler_arity.install()
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
        gzip_middleware_factory=Compress,
        reconnect_timeout=RECONNECT_SECONDS,
        **extra,
    )
