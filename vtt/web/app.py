"""The NiceGUI application: the start page and the table page for the one game this server runs."""

from __future__ import annotations

from pathlib import Path

from fastapi import Request
from nicegui import app, ui

from vtt.table.table import Table, Viewer
from vtt.web.table_view import TableView

STATIC = Path(__file__).resolve().parents[2] / "static"
STYLES = (STATIC / "utility.css", STATIC / "table.css")


class Tables:
    """The games this server runs (one until shared tables land)."""

    current: Table | None = None


def _table() -> Table:
    if Tables.current is None:
        raise RuntimeError("no game is loaded")
    return Tables.current


def _head() -> None:
    for style in STYLES:
        ui.add_css(style.read_text())


@ui.page("/")
def index() -> None:
    _head()
    table = _table()
    players = sorted({c.controller for c in table.state.creatures.values() if c.controller})
    with ui.column().classes("p-8 gap-3 max-w-xl mx-auto start-page"):
        ui.label("Soulshards VTT").classes("text-3xl font-bold text-stone-800")
        ui.label(table.name).classes("text-xl text-stone-700")
        ui.link("Open the table as the Soulweaver", "/table?as=soulweaver").classes("text-lg")
        for player in players:
            owned = ", ".join(c.name for c in table.state.creatures.values() if c.controller == player)
            ui.link(f"Join as {player} ({owned})", f"/table?as=player&name={player}").classes("text-lg")


@ui.page("/table")
def table_page(request: Request) -> None:
    _head()
    table = _table()
    role = request.query_params.get("as", "player")
    name = request.query_params.get("name", "")
    viewer = Viewer("soulweaver", "Soulweaver") if role == "soulweaver" else Viewer("player", name or "guest")
    ui.query(".nicegui-content").classes("p-0 gap-0 h-screen")
    with ui.header().classes("bg-stone-800 text-stone-100 py-1 px-3 items-center"):
        ui.label(table.name).classes("font-bold")
        ui.label(f"· you are {viewer.name}").classes("text-stone-300")
    view = TableView(table, viewer)
    ui.context.client.on_delete(view.close)
    ui.keyboard(on_key=lambda e: view._cancel() if e.key == "Escape" and e.action.keydown else None)


def run(table: Table, host: str, port: int) -> None:
    Tables.current = table
    app.on_shutdown(table.close)
    ui.run(
        tailwind=False,
        host=host,
        port=port,
        reload=False,
        show=False,
        title="Soulshards VTT",
        favicon="🎲",
        uvicorn_logging_level="warning",
    )
