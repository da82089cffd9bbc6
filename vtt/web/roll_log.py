"""The roll log: every command's events with each roll's dice, result, modifiers and reasons.

Everything a user typed (names) is shown with `ui.label` (text), never as HTML.
"""

from __future__ import annotations

from typing import Any

from nicegui import ui

from vtt.table.chat import addressee_name
from vtt.table.table import LogRecord
from vtt.web.attrs import with_data

SENDER_NAMES = {"soulweaver": "Soulweaver", "time limit": "the time limit (in the Soulweaver's name)"}


def _signed(n: object) -> str:
    """`+2`, `−1`; anything but a whole number (an imported log's events are shown as they were recorded) as
    its text."""
    if not isinstance(n, int) or isinstance(n, bool):
        return str(n)
    return f"+{n}" if n >= 0 else f"−{-n}"


def _dicts(value: object) -> list[dict[str, Any]]:
    """The objects in a list of a recorded event (an imported game's events are kept as they came)."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def counted_outcome(kind: str, data: dict[str, Any]) -> tuple[int, str] | None:
    """Damage and healing rolls count the faces that reach a number; their outcome is that count (as the
    event's data has it), not the highest face. Returns (the face needed, the outcome's text), or None."""
    needed = data.get("needed")
    if not isinstance(needed, int):
        return None
    if kind == "damage" and isinstance(data.get("injury"), int):
        return needed, f"{data['injury']} Injury"
    if kind == "heal" and isinstance(data.get("healed"), int):
        return needed, f"{data['healed']} healed"
    return None


def render_roll(roll: dict[str, Any], dl: int | None = None, counted: tuple[int, str] | None = None) -> None:
    raw_faces = roll.get("faces")
    faces: list[object] = raw_faces if isinstance(raw_faces, list) else []
    fumble = bool(roll.get("fumble")) and counted is None and not str(roll.get("label", "")).startswith("part roll")
    doubled = {f for d in _dicts(roll.get("doubles")) if (f := _whole(d.get("face"))) is not None}
    with with_data(ui.column().classes("gap-0 w-full roll"), result=roll.get("result")):
        ui.label(str(roll.get("label", ""))).classes("text-xs text-stone-500")
        with ui.row().classes("items-center gap-1 flex-wrap"):
            if not faces:
                ui.label("no dice").classes("text-xs italic text-stone-500")
            for face in faces:
                die = ui.label(str(face)).classes("die")
                if face in doubled:
                    die.classes("die-double")
                if face == 1 and fumble:
                    die.classes("die-fumble")
                if counted is not None and isinstance(face, int) and face < counted[0]:
                    die.classes("die-miss")
            if roll.get("typed") is True:
                typed = with_data(ui.label("typed").classes("die-typed"), typed="yes")
                typed.props["title"] = "Faces typed from physical dice"
            outcome = counted[1] if counted is not None else roll.get("result")
            ui.label(f"= {outcome}").classes("font-bold ml-1")
            if dl is not None:
                ui.label(f"DL {dl}").classes("text-xs text-stone-600")
            if doubled:
                ui.label("doubles " + ", ".join(str(f) for f in sorted(doubled, reverse=True))).classes(
                    "badge badge-doubles"
                )
            if counted is not None:
                ui.label(f"counting faces of {counted[0]}+").classes("text-xs text-stone-600")
            elif fumble:
                ui.label("Fumble").classes("badge badge-fumble")
        for change in _dicts(roll.get("dice_changes")):
            ui.label(f"{_signed(change.get('dice'))}d12 · {change.get('reason', '')}").classes(
                "text-xs text-indigo-800"
            )
        for mod in _dicts(roll.get("modifiers")):
            ui.label(f"{_signed(mod.get('value'))} · {mod.get('reason', '')}").classes("text-xs text-amber-900")


def render_record(record: LogRecord, shown: list[dict[str, Any]]) -> ui.element | None:
    """One log entry with the events its seat may see (`SeatView.events`); an entry with none is not drawn."""
    if not shown:
        return None
    sender = SENDER_NAMES.get(record.sender, record.sender)
    with with_data(ui.card().classes("w-full p-2 gap-1 log-entry"), seq=record.seq) as card:
        if record.undone:
            card.classes("log-undone")
        if record.is_meta:
            card.classes("log-meta")
        head = f"#{record.seq} · {sender} · {record.command.get('type', '').replace('_', ' ')}"
        if record.is_chat and record.command.get("to") is not None:
            head += f" · whispered to {addressee_name(record.command['to'], {})}"
        ui.label(head).classes("text-xs text-stone-500")
        for event in shown:
            kind = str(event.get("kind", ""))
            if kind in {"turn", "turn_end"} and not event.get("rolls"):
                ui.label(str(event.get("text", ""))).classes("text-xs text-stone-600")
                continue
            ui.label(str(event.get("text", ""))).classes("text-sm log-text")
            found = event.get("data")
            data: dict[str, Any] = found if isinstance(found, dict) else {}
            dl = _whole(data.get("dl"))
            counted = counted_outcome(kind, data)
            for i, roll in enumerate(_dicts(event.get("rolls"))):
                render_roll(roll, dl if i == 0 and kind == "attack" else None, counted if i == 0 else None)
            for change in _dicts(data.get("needed_changes")):
                ui.label(f"needed face {_signed(change.get('value'))} · {change.get('reason', '')}").classes(
                    "text-xs text-indigo-800"
                )
    return card
