"""The roll log: every command's events with each roll's dice, result, modifiers and reasons.

Everything a user typed (names) is shown with `ui.label` (text), never as HTML.
"""

from __future__ import annotations

from typing import Any

from nicegui import ui

from vtt.table.table import LogRecord

SENDER_NAMES = {"soulweaver": "Soulweaver", "time limit": "the time limit (in the Soulweaver's name)"}


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


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
    faces: list[int] = roll.get("faces", [])
    fumble = bool(roll.get("fumble")) and counted is None and not str(roll.get("label", "")).startswith("part roll")
    doubled = {d["face"] for d in roll.get("doubles", [])}
    with ui.column().classes("gap-0 w-full roll").props(f"data-result={roll.get('result')}"):
        ui.label(roll.get("label", "")).classes("text-xs text-stone-500")
        with ui.row().classes("items-center gap-1 flex-wrap"):
            if not faces:
                ui.label("no dice").classes("text-xs italic text-stone-500")
            for face in faces:
                cls = "die"
                if face in doubled:
                    cls += " die-double"
                if face == 1 and fumble:
                    cls += " die-fumble"
                if counted is not None and face < counted[0]:
                    cls += " die-miss"
                ui.label(str(face)).classes(cls)
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
        for change in roll.get("dice_changes", []):
            ui.label(f"{_signed(change['dice'])}d12 · {change['reason']}").classes("text-xs text-indigo-800")
        for mod in roll.get("modifiers", []):
            ui.label(f"{_signed(mod['value'])} · {mod['reason']}").classes("text-xs text-amber-900")


def render_record(record: LogRecord, shown: list[dict[str, Any]]) -> ui.element | None:
    """One log entry with the events its seat may see (`SeatView.events`); an entry with none is not drawn."""
    if not shown:
        return None
    sender = SENDER_NAMES.get(record.sender, record.sender)
    classes = (
        "w-full p-2 gap-1 log-entry"
        + (" log-undone" if record.undone else "")
        + (" log-meta" if record.is_meta else "")
    )
    with ui.card().classes(classes).props(f"data-seq={record.seq}") as card:
        ui.label(f"#{record.seq} · {sender} · {record.command.get('type', '').replace('_', ' ')}").classes(
            "text-xs text-stone-500"
        )
        for event in shown:
            kind = event.get("kind", "")
            if kind in {"turn", "turn_end"} and not event.get("rolls"):
                ui.label(event.get("text", "")).classes("text-xs text-stone-600")
                continue
            ui.label(event.get("text", "")).classes("text-sm log-text")
            data = event.get("data", {})
            dl = data.get("dl")
            counted = counted_outcome(kind, data)
            for i, roll in enumerate(event.get("rolls", [])):
                render_roll(roll, dl if i == 0 and kind == "attack" else None, counted if i == 0 else None)
            for change in data.get("needed_changes", []):
                ui.label(f"needed face {_signed(change['value'])} · {change['reason']}").classes(
                    "text-xs text-indigo-800"
                )
    return card
