"""The Soulweaver's controls: undo and redo, letting minutes pass (`pass_time`), the invitation links, who sits at
the table (each player's own link, which the Soulweaver can replace), whether spectators may watch, and on a
creature's sheet who controls it, whether it is hidden and the Soulweaver's notes. Rendered for
the Soulweaver only; the table re-checks every command anyway."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import ui

from vtt.rules.model import Creature
from vtt.table.registry import GameError, Games
from vtt.table.table import Table
from vtt.web.bounded_number import bounded_number, whole_in
from vtt.web.settings_dialog import open_settings_dialog

Send = Callable[[dict[str, Any]], Awaitable[bool]]


def render_gm_panel(table: Table, games: Games | None, base_url: str, send: Send) -> None:
    with ui.card().classes("w-full p-2 gap-1 gm-panel"):
        with ui.row().classes("gap-2 items-center"):
            undo = table.undo_group()
            ui.button("Undo", on_click=lambda: send({"type": "undo"})).props(
                "dense outline icon=undo data-action=undo" + ("" if undo else " disable")
            ).tooltip("Take back the last command for everyone" if undo else "Nothing to undo")
            ui.button("Redo", on_click=lambda: send({"type": "redo"})).props(
                "dense outline icon=redo data-action=redo" + ("" if table.can_redo() else " disable")
            )
            ui.button("Settings…", on_click=lambda: open_settings_dialog(table, send)).props(
                "dense flat icon=tune data-action=settings"
            )
        render_time_controls(send)
        if games is None or table.game_id is None:
            return
        game_id = table.game_id
        render_watch_switch(games, game_id, base_url)
        players = [s for s in games.seats(game_id) if s.role == "player"]
        ui.label("Players: " + (", ".join(s.name for s in players) or "nobody yet")).classes("text-xs seats")
        if players:
            with ui.expansion("Players' own links").props("dense").classes("w-full text-sm seat-links"):
                ui.label("Each opens that player's seat: give it to them only.").classes("text-xs text-stone-600")
                for seat in players:
                    link = f"{base_url}/play/{seat.secret}"
                    with ui.row().classes("items-center gap-1 no-wrap player-link"):
                        ui.label(seat.name).classes("text-xs font-bold")
                        ui.label(link).classes("seat-link")
                        ui.button("Copy", on_click=lambda _, x=link: ui.clipboard.write(x)).props("dense flat size=sm")
                        ui.button("New link", on_click=lambda _, k=seat.key: _replace_seat(games, game_id, k)).props(
                            "dense flat size=sm color=negative data-action=replace-seat"
                        ).tooltip("Give this seat a new link: the old one stops working at once")
        with ui.expansion("Invite players").props("dense").classes("w-full text-sm invitations"):
            for inv in games.invitations(game_id):
                link = f"{base_url}/join/{inv}"
                ui.label(link).classes("seat-link invitation-link")
                with ui.row().classes("gap-1"):
                    ui.button("Copy", on_click=lambda _, x=link: ui.clipboard.write(x)).props("dense flat size=sm")
                    ui.button("Revoke", on_click=lambda _, x=inv: _revoke(games, game_id, x)).props(
                        "dense flat size=sm color=negative data-action=revoke"
                    )
            ui.button("New invitation", on_click=lambda: _invite(games, game_id)).props("dense flat size=sm")


MAX_MINUTES = 600
"""The most minutes one `pass_time` lets pass (its command's limit)."""


def minutes_label(minutes: int) -> str:
    return "A minute passes" if minutes == 1 else f"{minutes} minutes pass"


def render_time_controls(send: Send) -> None:
    """Minutes passing, told by the Soulweaver: each Readied ability rolls to stay Ready (seed-000 Ready)."""
    with ui.row().classes("gap-2 items-center no-wrap time-controls"):
        problem = f"Minutes must be a whole number from 1 to {MAX_MINUTES}"
        minutes = (
            bounded_number("Minutes", 1, 1, MAX_MINUTES).props("dense outlined data-field=minutes").classes("w-28")
        )

        def count() -> int | None:
            return whole_in(minutes.value, 1, MAX_MINUTES)

        async def go() -> None:
            n = count()
            if n is None:
                ui.notify(problem, type="warning")
                return
            await send({"type": "pass_time", "minutes": n})

        button = ui.button(minutes_label(1), on_click=go).props("dense outline icon=schedule data-action=pass_time")
        button.tooltip("Time passes: every Readied Spell or Talent rolls Manifest to stay Ready")
        minutes.on_value_change(lambda: button.set_text(minutes_label(count() or 1)))


def render_watch_switch(games: Games, game_id: int, base_url: str) -> None:
    """Whether spectators may watch the game (`/watch/<id>`, the public view): off until the Soulweaver turns it on;
    turning it off closes the watch pages that are open."""
    watchable = bool(games.watchable(game_id))

    def change(e: Any) -> None:
        try:
            games.set_watchable(game_id, bool(e.value))
        except GameError as exc:
            ui.notify(str(exc), type="warning")

    with ui.row().classes("items-center gap-2 no-wrap watching"):
        ui.switch("Let spectators watch", value=watchable, on_change=change).props("dense data-field=watchable")
        if watchable:
            ui.label(f"{base_url}/watch/{game_id}").classes("seat-link watch-link")


def _replace_seat(games: Games, game_id: int, key: str) -> None:
    client = ui.context.client  # the panel (and the button clicked) is redrawn by the change
    try:
        seat = games.replace_seat(game_id, key)
    except GameError as exc:
        ui.notify(str(exc), type="warning")
        return
    with client:
        ui.notify(f"{seat.name}'s seat has a new link (under Players' own links); the old one no longer works.")


def _revoke(games: Games, game_id: int, invitation: str) -> None:
    client = ui.context.client  # the panel (and the button clicked) is redrawn by the change
    try:
        games.revoke(game_id, invitation)
    except GameError as exc:
        ui.notify(str(exc), type="warning")
        return
    with client:
        ui.notify("Invitation revoked: its link no longer lets anyone in.")


def _invite(games: Games, game_id: int) -> None:
    try:
        games.invite(game_id)
    except GameError as exc:
        ui.notify(str(exc), type="warning")


def render_sheet_controls(c: Creature, players: dict[str, str], send: Send) -> None:
    """Who controls the creature, whether the players see it, and notes only the Soulweaver reads."""
    options: dict[str, str] = {"": "the Soulweaver"} | {k: name for k, name in players.items()}
    if c.controller and c.controller not in options:
        options[c.controller] = f"{c.controller} (no seat yet)"

    async def assign(e: Any) -> None:
        value = e.value or None
        if value != c.controller:
            await send({"type": "edit_creature", "creature": c.id, "changes": {"controller": value}})

    async def hide(e: Any) -> None:
        if bool(e.value) != c.hidden:
            await send({"type": "edit_creature", "creature": c.id, "changes": {"hidden": bool(e.value)}})

    async def note(e: Any) -> None:
        text = str(e.sender.value or "")
        if text != c.notes:
            await send({"type": "edit_creature", "creature": c.id, "changes": {"notes": text}})

    with ui.row().classes("gap-2 items-center no-wrap"):
        ui.select(options, value=c.controller or "", label="Controlled by", on_change=assign).props(
            "dense outlined options-dense data-field=controller"
        ).classes("grow min-w-40")
        ui.checkbox("Hidden", value=c.hidden, on_change=hide).props("dense data-field=hidden")
    ui.textarea("Soulweaver's notes", value=c.notes).props("dense outlined autogrow data-field=notes").classes(
        "w-full"
    ).on("blur", note)
    ui.button("Remove from the map", on_click=lambda: send({"type": "remove_creature", "creature": c.id})).props(
        "dense flat no-caps size=sm color=negative icon=delete data-action=remove-creature"
    )
