"""The roll log: every command's events with each roll's dice, result, modifiers and reasons.

The server words each entry for its seat (`entry_json`, from the events `SeatView.events` gives the seat) and sends
it as JSON; the browser (`static/log_view.js`) builds the entry's DOM once and shows every text as text, never as
HTML. A new entry is one small message (`RollLog.add`), an undo or redo one more (`RollLog.mark_undone`): no tree of
elements for Vue to re-render on every move.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from vtt.table.chat import addressee_name
from vtt.table.table import LogRecord
from vtt.web.one_message import Batched
from vtt.web.pair_memo import PairMemo

SENDER_NAMES = {"soulweaver": "Soulweaver", "time limit": "the time limit (in the Soulweaver's name)"}

Json = dict[str, Any]


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


def _lean(fields: Json) -> Json:
    """The fields not at their default: a field false, None or an empty list is left out (the browser reads a
    missing one as that), for a smaller message per entry."""
    return {k: v for k, v in fields.items() if v is not False and v is not None and v != []}


def roll_json(roll: dict[str, Any], dl: int | None = None, counted: tuple[int, str] | None = None) -> Json:
    """One roll as the browser draws it: `faces` are `[text, marks]` (marks: "double", "fumble", "miss"), every
    other field a finished text; a field at its default is left out (`_lean`)."""
    raw_faces = roll.get("faces")
    faces: list[object] = raw_faces if isinstance(raw_faces, list) else []
    fumble = bool(roll.get("fumble")) and counted is None and not str(roll.get("label", "")).startswith("part roll")
    doubled = {f for d in _dicts(roll.get("doubles")) if (f := _whole(d.get("face"))) is not None}
    shown_faces: list[list[Any]] = []
    for face in faces:
        marks: list[str] = []
        if face in doubled:
            marks.append("double")
        if face == 1 and fumble:
            marks.append("fumble")
        if counted is not None and isinstance(face, int) and face < counted[0]:
            marks.append("miss")
        shown_faces.append([str(face), marks])
    outcome = counted[1] if counted is not None else roll.get("result")
    return _lean(
        {
            "label": str(roll.get("label", "")),
            "result": str(roll.get("result")),
            "faces": shown_faces,
            "typed": roll.get("typed") is True,
            "outcome": f"= {outcome}",
            "dl": None if dl is None else f"DL {dl}",
            "doubles": "doubles " + ", ".join(str(f) for f in sorted(doubled, reverse=True)) if doubled else None,
            "counting": None if counted is None else f"counting faces of {counted[0]}+",
            "fumble": fumble and counted is None,
            "changes": [
                f"{_signed(c.get('dice'))}d12 · {c.get('reason', '')}" for c in _dicts(roll.get("dice_changes"))
            ],
            "modifiers": [f"{_signed(m.get('value'))} · {m.get('reason', '')}" for m in _dicts(roll.get("modifiers"))],
        }
    )


def event_json(event: dict[str, Any]) -> Json:
    """One event: its text, and for a roll its dice; a turn's start or end without dice is a quiet line. A field at
    its default is left out (`_lean`)."""
    kind = str(event.get("kind", ""))
    text = str(event.get("text", ""))
    if kind in {"turn", "turn_end"} and not event.get("rolls"):
        return {"text": text, "quiet": True}
    found = event.get("data")
    data: dict[str, Any] = found if isinstance(found, dict) else {}
    dl = _whole(data.get("dl"))
    counted = counted_outcome(kind, data)
    rolls = [
        roll_json(roll, dl if i == 0 and kind == "attack" else None, counted if i == 0 else None)
        for i, roll in enumerate(_dicts(event.get("rolls")))
    ]
    needed = [
        f"needed face {_signed(c.get('value'))} · {c.get('reason', '')}" for c in _dicts(data.get("needed_changes"))
    ]
    return _lean({"text": text, "rolls": rolls, "needed": needed})


def entry_json(record: LogRecord, shown: list[dict[str, Any]]) -> Json | None:
    """One log entry with the events its seat may see (`SeatView.events`); an entry with none is not drawn. A field
    at its default is left out (`_lean`)."""
    if not shown:
        return None
    sender = SENDER_NAMES.get(record.sender, record.sender)
    head = f"#{record.seq} · {sender} · {record.command.get('type', '').replace('_', ' ')}"
    if record.is_chat and record.command.get("to") is not None:
        head += f" · whispered to {addressee_name(record.command['to'], {})}"
    return _lean(
        {
            "seq": record.seq,
            "head": head,
            "undone": record.undone,
            "meta": record.is_meta,
            "events": [event_json(e) for e in shown],
        }
    )


_ENTRIES: PairMemo[LogRecord, list[dict[str, Any]], Json | None] = PairMemo(entry_json, kept=16)


def shared_entry(record: LogRecord, shown: list[dict[str, Any]]) -> Json | None:
    """`entry_json`, worked out once for all the pages shown the same events of a record (the same list: every seat
    that may see all of it). Shared by those pages: never change it in place."""
    return _ENTRIES(record, shown, record.undone)


class LogList(Batched, component="../../static/log_view.js"):
    """Entries newest first, drawn by the browser from JSON. `add` sends one entry, `mark_undone` an undo or redo; the
    entries are kept in the props as they are (outside NiceGUI's observed dict), so that a page drawn again shows
    them all, and no change to them re-sends the element."""

    def __init__(self, look: str, keep: int = 0) -> None:
        super().__init__()
        self._by_seq: dict[int, Json] = {}
        with self._props.suspend_updates():
            self._props["look"] = look
            self._props["keep"] = keep
        dict.__setitem__(self._props, "entries", [])

    @property
    def entries(self) -> list[Json]:
        """The entries the browser shows, oldest first."""
        entries: list[Json] = self._props["entries"]
        return entries

    def add(self, entry: Json) -> None:
        entries = self.entries
        old = self._by_seq.get(entry["seq"])
        if old is not None:
            entries[entries.index(old)] = entry
        else:
            entries.append(entry)
        self._by_seq[entry["seq"]] = entry
        keep = int(self._props["keep"])
        if keep and len(entries) > keep:
            for gone in entries[:-keep]:
                self._by_seq.pop(gone["seq"], None)
            del entries[:-keep]
        self.run_method("add", [entry])

    def extend(self, entries: Iterable[Json]) -> None:
        """Entries drawn with the page (before its browser shows it): nothing is sent."""
        for entry in entries:
            self._by_seq[entry["seq"]] = entry
            self.entries.append(entry)
        keep = int(self._props["keep"])
        if keep and len(self.entries) > keep:
            for gone in self.entries[:-keep]:
                self._by_seq.pop(gone["seq"], None)
            del self.entries[:-keep]

    def mark_undone(self, seqs: Iterable[int], undone: bool) -> None:
        """Mark entries taken back (`undone`) or played again (each replaced by a marked copy: an entry may be
        shared with other pages, `shared_entry`)."""
        marked = [s for s in seqs if s in self._by_seq]
        entries = self.entries
        for seq in marked:
            old = self._by_seq[seq]
            self._by_seq[seq] = _lean({**old, "undone": undone})
            where = next((i for i, e in enumerate(entries) if e is old), None)
            if where is not None:
                entries[where] = self._by_seq[seq]
        if marked:
            self.run_method("mark", marked, undone)


class RollLog(LogList):
    """The roll log of a table page."""

    def __init__(self) -> None:
        super().__init__("log")
        self.classes("w-full gap-2 roll-log")

    def add_record(self, record: LogRecord, shown: list[dict[str, Any]], drawn: bool = True) -> None:
        """Show a record with the events its seat may see; `drawn=False` while the page is built (nothing is
        sent)."""
        entry = shared_entry(record, shown)
        if entry is None:
            return
        if drawn:
            self.add(entry)
        else:
            self.extend([entry])
