"""Exporting and importing a whole game as one JSON file.

The archive (format 1)::

    {"format": 1, "kind": "soulshards-vtt-game", "exported": "2026-05-01T12:00:00+00:00",
     "name": "Friday game", "map": "demo.json",
     "initial_state": {...GameState...},
     "log": [{"seq": 1, "sender": "soulweaver", "command": {"type": "begin"}, "faces": [7, 3],
              "events": [{...}, ...], "time": "2026-05-01T11:02:03+00:00"},
             {"seq": 9, "sender": "soulweaver", "command": {"type": "undo", "seqs": [8]}, "faces": [], ...}, ...]}

- `initial_state` is the game's starting state; `log` is every command in order with its sender, the dice faces
  it used, the events it gave and when it was stored (ISO 8601, UTC, to the second), the undo and redo records
  included (`{"type": "undo" | "redo", "seqs": [...]}`), so the game's state is rebuilt by replaying it exactly as
  a restart does, and its log reads the same.
- Importing checks everything before anything is stored: the format, the name and map, the starting state (as a
  `GameState`), each log entry's fields, `seq` running 1, 2, 3..., every undo naming earlier commands still played
  and every redo the last undo; then it replays the log: each command must be allowed by the rules again and use
  exactly its recorded faces. Any problem is an `ArchiveError` naming the field (`log[3].faces[0]: ...`) and
  nothing is stored. The events are kept as they were recorded (their wording may come from an older version).
- `uploads` (optional): the map's picture, `{"background": {"path", "content_type", "data"}}` with the bytes in
  base64, checked as an upload is (type by its bytes, 8 MB at most). The imported game serves it at its own path,
  and its starting state and log name that path instead of the old one.
- The imported game is a new game: its name is the archive's, or `Name (2)`, `Name (3)`... if that is taken. The
  importer takes the Soulweaver's seat; every player the game knows (its creatures' controllers and the senders of
  its commands) gets a seat with the same key, so the log's senders and the creatures' controllers still match
  (the importer hands out the seats' links or a new invitation).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from vtt.rules import GameState, RuleError, apply, parse_command
from vtt.rules.commands import Command
from vtt.rules.dice import DiceScriptExhausted, ScriptedDice
from vtt.rules.mapfile import Problems
from vtt.rules.model import SOULWEAVER
from vtt.rules.paths import field_errors, shown
from vtt.store.db import parse_time
from vtt.store.images import BACKGROUND, IMAGE_TYPES, MAX_UPLOAD_BYTES, image_type
from vtt.table.table import META, TIME_LIMIT

ARCHIVE_FORMAT = 1
KIND = "soulshards-vtt-game"
KEYS = ("format", "kind", "exported", "name", "map", "initial_state", "log", "uploads")
UPLOAD_KEYS = ("path", "content_type", "data")
ENTRY_KEYS = ("seq", "sender", "command", "faces", "events", "time")


class ArchiveError(ValueError):
    """An archive that cannot be imported; each problem names the field."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems or ["archive: invalid"]
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class Archive:
    """A checked archive: ready to store."""

    name: str
    map: str
    initial_state: GameState
    log: list[dict[str, Any]]
    final_state: GameState
    background: tuple[str, str, bytes] | None = None
    """The map's picture: the path the game's state and log name it by, its type and its bytes."""

    def players(self) -> list[str]:
        """The player keys the game knows: its creatures' controllers and its commands' senders."""
        keys = {c.controller for s in (self.initial_state, self.final_state) for c in s.creatures.values()}
        keys |= {r["sender"] for r in self.log}
        return sorted(k for k in keys if k and k not in (SOULWEAVER, TIME_LIMIT))


def export_archive(
    name: str,
    map_name: str,
    initial_state: dict[str, Any],
    log: list[dict[str, Any]],
    background: tuple[str, str, bytes] | None = None,
) -> dict[str, Any]:
    """The archive of a stored game (its rows as `db.load_log` gives them), with its map's picture (the path the
    game names it by, its type, its bytes) if it has one."""
    out: dict[str, Any] = {
        "format": ARCHIVE_FORMAT,
        "kind": KIND,
        "exported": datetime.now(UTC).isoformat(timespec="seconds"),
        "name": name,
        "map": map_name,
        "initial_state": initial_state,
        "log": [{k: r[k] for k in ENTRY_KEYS} for r in log],
    }
    if background is not None:
        path, content_type, data = background
        encoded = base64.b64encode(data).decode()
        out["uploads"] = {BACKGROUND: {"path": path, "content_type": content_type, "data": encoded}}
    return out


def _background(raw: object, problems: list[str]) -> tuple[str, str, bytes] | None:
    """`uploads`: `{"background": {"path", "content_type", "data" (base64)}}`, checked like an upload."""
    if not isinstance(raw, dict) or set(raw) - {BACKGROUND}:
        problems.append(f"uploads: must be an object with at most {BACKGROUND!r}")
        return None
    entry = raw.get(BACKGROUND)
    if entry is None:
        return None
    where = f"uploads.{BACKGROUND}"
    if not isinstance(entry, dict) or set(entry) != set(UPLOAD_KEYS):
        problems.append(f"{where}: must have exactly {', '.join(UPLOAD_KEYS)}")
        return None
    path, content_type, encoded = entry["path"], entry["content_type"], entry["data"]
    if not isinstance(path, str) or not path.startswith("/api/games/") or ".." in path:
        problems.append(f"{where}.path: must be the /api/games/... path the game names its picture by")
        return None
    if content_type not in IMAGE_TYPES:
        problems.append(f"{where}.content_type: must be one of {', '.join(IMAGE_TYPES)}")
        return None
    if not isinstance(encoded, str) or len(encoded) > MAX_UPLOAD_BYTES * 4 // 3 + 4:
        problems.append(f"{where}.data: must be base64 of at most {MAX_UPLOAD_BYTES} bytes")
        return None
    try:
        data = base64.b64decode(encoded, validate=True)
    except (ValueError, binascii.Error):
        problems.append(f"{where}.data: not base64")
        return None
    if image_type(data) != content_type:
        problems.append(f"{where}.data: the bytes are not a {content_type} picture")
        return None
    return path, content_type, data


def _entry_problems(i: int, r: object, expected_seq: int) -> list[str]:
    where = f"log[{i}]"
    if not isinstance(r, dict):
        return [f"{where}: must be an object"]
    out: list[str] = []
    for key in ENTRY_KEYS:
        if key not in r:
            out.append(f"{where}.{key}: missing (required)")
    out += [f"{where}.{k}: unknown key" for k in r if k not in ENTRY_KEYS]
    if out:
        return out
    if isinstance(r["seq"], bool) or r["seq"] != expected_seq:
        out.append(f"{where}.seq: must be {expected_seq} (the log runs 1, 2, 3...; got {shown(r['seq'])})")
    if not isinstance(r["sender"], str) or not r["sender"]:
        out.append(f"{where}.sender: must be a non-empty string")
    if not isinstance(r["command"], dict):
        out.append(f"{where}.command: must be an object")
    faces = r["faces"]
    if not isinstance(faces, list):
        out.append(f"{where}.faces: must be a list of d12 faces")
    else:
        for j, f in enumerate(faces):
            if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 12:
                out.append(f"{where}.faces[{j}]: {shown(f)} is not a d12 face (1 to 12)")
    events = r["events"]
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        out.append(f"{where}.events: must be a list of objects")
    try:
        if not isinstance(r["time"], str):
            raise ValueError
        parse_time(r["time"])
    except ValueError:
        out.append(f"{where}.time: must be an ISO 8601 time (got {shown(r['time'])})")
    return out


def _parse(command: dict[str, Any], where: str) -> Command:
    try:
        return parse_command(command)
    except ValidationError as exc:
        problems = Problems()
        tag = command.get("type")
        problems.pydantic(where, exc, drop_first=tag if isinstance(tag, str) else None)
        raise ArchiveError(problems.items) from None


def _replay(initial: GameState, log: list[dict[str, Any]]) -> GameState:
    """The state after the log, as `Table._replay` rebuilds it; `ArchiveError` names the first entry that fails."""
    undone: set[int] = set()
    redo: list[list[int]] = []
    played: set[int] = set()
    for i, r in enumerate(log):
        kind = r["command"].get("type")
        where = f"log[{i}].command"
        if kind in META:
            seqs = r["command"].get("seqs")
            if set(r["command"]) != {"type", "seqs"} or not isinstance(seqs, list) or not seqs:
                raise ArchiveError([f'{where}: an {kind} is {{"type": "{kind}", "seqs": [...]}}'])
            if kind == "undo":
                if any(s not in played or s in undone for s in seqs):
                    raise ArchiveError([f"{where}.seqs: {seqs} are not commands played before it and not undone"])
                undone.update(seqs)
                redo.append(list(seqs))
            else:
                if not redo or redo[-1] != seqs:
                    raise ArchiveError([f"{where}.seqs: a redo plays the last undo again; {seqs} is not it"])
                undone.difference_update(seqs)
                redo.pop()
        else:
            _parse(r["command"], where)
            played.add(r["seq"])
            redo.clear()
    state = initial
    for i, r in enumerate(log):
        if r["command"].get("type") in META or r["seq"] in undone:
            continue
        where = f"log[{i}]"
        cmd = _parse(r["command"], f"{where}.command")
        dice = ScriptedDice(r["faces"])
        try:
            state, _ = apply(state, cmd, dice)
        except RuleError as exc:
            raise ArchiveError([f"{where}.command: the rules refuse it on replay ({cmd.type}): {exc}"]) from None
        except DiceScriptExhausted as exc:
            raise ArchiveError([f"{where}.faces: too few recorded faces to replay it ({exc})"]) from None
        except (ValueError, KeyError, TypeError, IndexError) as exc:  # data the rules never made
            raise ArchiveError([f"{where}: the command does not replay ({type(exc).__name__}: {exc})"]) from None
        if dice.remaining:
            raise ArchiveError([f"{where}.faces: {dice.remaining} recorded face(s) left unused on replay"])
    return state


def check_archive(data: object) -> Archive:
    """Check an archive in full (see the module's docstring); `ArchiveError` if anything is wrong."""
    if not isinstance(data, dict):
        raise ArchiveError(["archive: must be a JSON object"])
    problems: list[str] = [f"{k}: unknown key" for k in data if k not in KEYS]
    if data.get("format") != ARCHIVE_FORMAT or isinstance(data.get("format"), bool):
        problems.append(f"format: must be {ARCHIVE_FORMAT} (got {shown(data.get('format'))})")
    if "kind" in data and data["kind"] != KIND:
        problems.append(f"kind: must be {KIND!r} (got {shown(data['kind'])})")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("name: must be a non-empty string")
    map_name = data.get("map", "")
    if not isinstance(map_name, str):
        problems.append("map: must be a string")
    initial: GameState | None = None
    if "initial_state" not in data:
        problems.append("initial_state: missing (required)")
    else:
        try:
            initial = GameState.model_validate(data["initial_state"])
        except ValidationError as exc:
            problems += field_errors(exc, "initial_state")
    log = data.get("log")
    if not isinstance(log, list):
        problems.append("log: must be a list")
        log = []
    for i, r in enumerate(log):
        problems += _entry_problems(i, r, i + 1)
    background = _background(data["uploads"], problems) if "uploads" in data else None
    if problems:
        raise ArchiveError(problems)
    assert initial is not None and isinstance(name, str) and isinstance(map_name, str)
    final = _replay(initial, log)
    return Archive(name=name, map=map_name, initial_state=initial, log=log, final_state=final, background=background)
