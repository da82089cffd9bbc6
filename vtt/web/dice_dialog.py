"""Typed physical dice on the table page: a command the table cannot play until its sender types a roll opens a
dialog for that roll ("Roll 2d12 for ... and type the faces"), and is sent again with every roll typed so far, until
it is played. Cancel abandons the command; nothing was played.
"""

from __future__ import annotations

from typing import Any

from nicegui import ui

from vtt.rules.dice import SIDES
from vtt.table.table import Outcome, Table, Viewer
from vtt.table.typed_dice import TYPED_ROLLS_MAX, DiceAsk
from vtt.web.attrs import with_data

CANCELLED = "nothing was played: the dice were not typed"
CHANGED = "the table changed while the dice were typed; nothing was played, so try again"


async def submit_typed(
    table: Table, viewer: Viewer, command: dict[str, Any], seen: dict[str, int] | None = None
) -> Outcome:
    """`table.submit`, asking this page for each roll the table needs typed (under the `physical_dice` setting)."""
    typed: list[list[int]] = []
    state = table.state
    outcome = await table.submit(viewer, command, seen)
    while outcome.need is not None and len(typed) < TYPED_ROLLS_MAX:
        faces = await ask_faces(outcome.need)
        if faces is None:
            return Outcome(False, CANCELLED)
        if table.state is not state:  # the rolls typed so far were asked for the game as it was
            return Outcome(False, CHANGED)
        typed.append(faces)
        outcome = await table.submit(viewer, command, seen, typed)
    return outcome


def _face(value: object) -> int | None:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 1 <= value <= SIDES else None


async def ask_faces(need: DiceAsk) -> list[int] | None:
    """The faces typed for one roll (as many as it needs, each 1 to 12), or None when cancelled."""
    with ui.dialog().props("persistent") as dialog, ui.card().classes("p-3 gap-2 dice-dialog") as card:
        with_data(card, roll=need.typed)
        ui.label(need.text).classes("font-bold")
        ui.label("Type each die's face, from 1 to 12.").classes("text-xs text-stone-600")
        inputs: list[ui.number] = []
        with ui.row().classes("gap-2 flex-wrap"):
            for i in range(need.count):
                # No min or max: NiceGUI would quietly change a 13 into a 12; a face out of range is refused instead.
                face = ui.number(f"Die {i + 1}", step=1, precision=0).classes("w-20")
                face.props("dense outlined")
                face.props["data-face"] = str(i)
                inputs.append(face)

        def use() -> None:
            faces = [_face(box.value) for box in inputs]
            if any(f is None for f in faces):
                ui.notify("Each die needs a whole number from 1 to 12.", type="warning", position="top")
                return
            dialog.submit([f for f in faces if f is not None])

        with ui.row().classes("gap-2"):
            ui.button("Use these faces", on_click=use).props("color=primary dense data-action=use-faces")
            ui.button("Cancel", on_click=lambda: dialog.submit(None)).props("flat dense data-action=cancel-faces")
    result = await dialog  # None too when the page went away meanwhile (NiceGUI ends the wait)
    if not dialog.is_deleted:
        dialog.delete()
    return result if isinstance(result, list) else None
