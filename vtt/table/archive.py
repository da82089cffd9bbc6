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
  included (`{"type": "undo" | "redo", "seqs": [...]}`).
- Importing trusts nothing in the file. Before anything is stored it checks the size (`ARCHIVE_BYTES_MAX`), the
  format, the name and map (`Name`), the starting state (as a `GameState`, with the models' types and limits), each
  log entry's fields, `seq` running 1, 2, 3..., at most `ARCHIVE_COMMANDS_MAX` entries and `SEATS_MAX` players;
  then it plays the log again in the order it was played, as the table did: each command parsed by the command
  models, allowed for its sender by the table's own permission check, allowed by the rules and using exactly its
  recorded faces; each undo taking back exactly what the table's Undo would have, each redo the last undo. The
  events stored are the ones this replay gives: the file's `events` are never used (an event is shown on every
  page). The final state is checked against the models again. The first problem found is an `ArchiveError` in
  plain words naming where it is (`log entry 4 (seq 4), its faces: ...`), and nothing is stored.
- `uploads` (optional): the map's picture, `{"background": {"path", "content_type", "data"}}` with the bytes in
  base64, checked as an upload is (type by its bytes, 8 MB at most). The imported game serves it at its own path,
  and its starting state and log name that path instead of the old one.
- `uploads.pictures` (optional): the creatures' token pictures, `{"<SHA-256>": {"content_type", "data"}}`, each
  checked as a picture upload is (`vtt.store.pictures.checked_picture`) and against the hash it is filed under; a
  picture no creature of the game names refuses the archive too. An export leaves out the pictures that would take
  it over `ARCHIVE_BYTES_MAX` (their tokens show initials after an import).
- The check runs in a separate process with a time budget (`check_archive_offloaded`): reading 24 MB of JSON and
  replaying 20,000 commands is work for a process of its own — it never holds the server's event loop or its GIL,
  and a process that overruns its budget can be stopped, which a thread cannot.
- The imported game is a new game: its name is the archive's, or `Name (2)`, `Name (3)`... if that is taken. The
  importer takes the Soulweaver's seat; every player the game knows (its creatures' controllers and the senders of
  its commands) gets a seat with the same key, so the log's senders and the creatures' controllers still match
  (the importer hands out the seats' links or a new invitation).
"""

from __future__ import annotations

import base64
import binascii
import json
import multiprocessing
import re
import resource
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from typing import Any

from pydantic import ValidationError

from vtt.rules import GameState, RuleError, apply, parse_command
from vtt.rules.commands import Command
from vtt.rules.dice import DiceScriptExhausted, ScriptedDice
from vtt.rules.limits import (
    ARCHIVE_BYTES_MAX,
    ARCHIVE_COMMANDS_MAX,
    ARCHIVE_PICTURES_MAX,
    CREATURE_SIZE_MAX,
    CREATURE_SIZE_MIN,
    CREATURES_MAX,
    MAP_SIDE_MAX,
    NAME_MAX,
    OBJECTS_MAX,
    SEATS_MAX,
    WALLS_MAX,
    check_picture,
    text_error,
)
from vtt.rules.mapfile import Problems
from vtt.rules.model import SOULWEAVER
from vtt.rules.paths import field_errors, shown
from vtt.store.db import parse_time
from vtt.store.images import BACKGROUND, IMAGE_TYPES, MAX_UPLOAD_BYTES, image_type
from vtt.store.pictures import PictureError, checked_picture
from vtt.table.chat import CHAT_KINDS, ChatError, chat_entry
from vtt.table.heard_targets import heard_target
from vtt.table.offload import START_SECONDS
from vtt.table.table import META, TIME_LIMIT, Table, Viewer

ARCHIVE_FORMAT = 1
KIND = "soulshards-vtt-game"
KEYS = ("format", "kind", "exported", "name", "map", "initial_state", "log", "uploads")
UPLOAD_KEYS = ("path", "content_type", "data")
PICTURES = "pictures"
PICTURE_KEYS = ("content_type", "data")
Picture = tuple[str, str, bytes]
"""A token picture: its hash, its content type and its bytes."""
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
    pictures: tuple[Picture, ...] = ()
    """The creatures' token pictures."""

    def players(self) -> list[str]:
        """The player keys the game knows: its creatures' controllers and its commands' senders."""
        keys = {c.controller for s in (self.initial_state, self.final_state) for c in s.creatures.values()}
        keys |= {r["sender"] for r in self.log}
        keys |= {r["command"].get("to") for r in self.log if r["command"].get("type") in CHAT_KINDS}
        return sorted(k for k in keys if k and k not in (SOULWEAVER, TIME_LIMIT))


def export_archive(
    name: str,
    map_name: str,
    initial_state: dict[str, Any],
    log: list[dict[str, Any]],
    background: tuple[str, str, bytes] | None = None,
    pictures: Sequence[Picture] = (),
) -> dict[str, Any]:
    """The archive of a stored game (its rows as `db.load_log` gives them), with its map's picture (the path the
    game names it by, its type, its bytes) if it has one, and the token `pictures` that fit in
    `ARCHIVE_BYTES_MAX` (`pictures_left_out` counts the others)."""
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
    if pictures:
        room = ARCHIVE_BYTES_MAX - len(json.dumps(out, indent=1)) - 1024  # the file is written with indent=1
        carried: dict[str, dict[str, str]] = {}
        for digest, content_type, data in pictures[:ARCHIVE_PICTURES_MAX]:
            encoded = base64.b64encode(data).decode()
            if len(encoded) + 200 <= room:
                room -= len(encoded) + 200
                carried[digest] = {"content_type": content_type, "data": encoded}
        if carried:
            out.setdefault("uploads", {})[PICTURES] = carried
    return out


def pictures_named(initial_state: dict[str, Any], commands: Iterable[dict[str, Any]]) -> list[str]:
    """The token pictures a game names (in its starting state or its commands), in the order first named."""
    found: dict[str, None] = {}

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "picture" and isinstance(item, str):
                    found[item] = None
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(initial_state)
    for command in commands:
        walk(command)
    return list(found)


def pictures_left_out(archive: dict[str, Any]) -> int:
    """How many pictures the game names that its exported archive does not carry."""
    uploads = archive.get("uploads") or {}
    carried = set(uploads.get(PICTURES) or {})
    named = pictures_named(archive["initial_state"], (r["command"] for r in archive["log"]))
    return len([p for p in named if p not in carried])


def _pictures(raw: object) -> tuple[Picture, ...]:
    """`uploads.pictures`: `{"<hash>": {"content_type", "data" (base64)}}`, each checked like a picture upload
    and against its hash; `ArchiveError` names the first bad one in plain words."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise ArchiveError(["uploads: its pictures must be an object of pictures by their hash"])
    if len(raw) > ARCHIVE_PICTURES_MAX:
        raise ArchiveError([f"uploads: {len(raw)} token pictures; an archive carries at most {ARCHIVE_PICTURES_MAX}"])
    out: list[Picture] = []
    for digest, entry in raw.items():
        try:
            check_picture(digest)
        except ValueError:
            message = f"uploads: a picture is filed under {shown(digest)}, which is not a picture's hash"
            raise ArchiveError([message]) from None
        where = f"the token picture {digest[:12]}…"
        if not isinstance(entry, dict) or set(entry) != set(PICTURE_KEYS):
            raise ArchiveError([f"{where}: must have exactly {' and '.join(PICTURE_KEYS)}"])
        encoded = entry["data"]
        if not isinstance(encoded, str) or len(encoded) > MAX_UPLOAD_BYTES * 4 // 3 + 4:
            raise ArchiveError([f"{where}: its data must be base64 of at most {MAX_UPLOAD_BYTES} bytes"])
        try:
            data = base64.b64decode(encoded, validate=True)
        except (ValueError, binascii.Error):
            raise ArchiveError([f"{where}: its data is not base64"]) from None
        try:
            content_type, actual = checked_picture(data)
        except PictureError as exc:
            raise ArchiveError([f"{where}: {exc}"]) from None
        if actual != digest:
            raise ArchiveError([f"{where}: its bytes are not the picture of that hash (the file was changed)"])
        if entry["content_type"] != content_type:
            raise ArchiveError([f"{where}: it is a {content_type} picture, not {shown(entry['content_type'])}"])
        out.append((digest, content_type, data))
    return tuple(out)


def _background(raw: object, problems: list[str]) -> tuple[str, str, bytes] | None:
    """`uploads`: `{"background": {"path", "content_type", "data" (base64)}}`, checked like an upload."""
    if not isinstance(raw, dict) or set(raw) - {BACKGROUND, PICTURES}:
        problems.append(f"uploads: must be an object with at most {BACKGROUND!r} and {PICTURES!r}")
        return None
    entry = raw.get(BACKGROUND)
    if entry is None:
        return None
    where = f"uploads.{BACKGROUND}"
    if not isinstance(entry, dict) or set(entry) != set(UPLOAD_KEYS):
        problems.append(f"{where}: must have exactly {', '.join(UPLOAD_KEYS)}")
        return None
    path, content_type, encoded = entry["path"], entry["content_type"], entry["data"]
    if not isinstance(path, str) or not BACKGROUND_PATH.fullmatch(path):
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


# ---- checking -----------------------------------------------------------------------------------------------

TIME_TEXT_MAX = 40
BACKGROUND_PATH = re.compile(r"/api/games/[0-9]{1,18}/background")
CHECK_SECONDS = 60.0
"""The time budget of checking one archive (reading and replaying it), in its own process, once that process has
started (`START_SECONDS` more: on a busy machine its imports alone took longer than the budget)."""
_RESERVED_KEYS = frozenset({SOULWEAVER, TIME_LIMIT, "spectator"})


def _short(value: object) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _first_model_problem(exc: ValidationError, where: str) -> str:
    """The first error, in plain words (`field_errors` words them with `limits.plain_message`)."""
    return field_errors(exc, where)[0]


def _entry_where(i: int, r: object) -> str:
    seq = r.get("seq") if isinstance(r, dict) else None
    return f"log entry {i + 1}" + (f" (seq {seq})" if isinstance(seq, int) and not isinstance(seq, bool) else "")


def _key_problem(key: object) -> str | None:
    """Why `key` cannot be a seat's key (a player's name as the game knows it), or None."""
    if not isinstance(key, str) or not key.strip():
        return "must be a name (a non-empty string)"
    why = text_error(key, NAME_MAX)
    if why is not None:
        return why
    if " ".join(key.split()) != key:
        return f"{shown(key)} has spaces at its ends or doubled"
    return None


def _entry_problem(i: int, r: object) -> str | None:
    """The first problem of a log entry's shape (its command is checked by the replay), or None."""
    where = _entry_where(i, r)
    if not isinstance(r, dict):
        return f"{where}: must be an object"
    for key in ENTRY_KEYS:
        if key not in r:
            return f"{where}: its {key} is missing"
    for key in r:
        if key not in ENTRY_KEYS:
            return f"{where}: {shown(key)} is not part of a log entry"
    if isinstance(r["seq"], bool) or r["seq"] != i + 1:
        return f"{where}: its seq must be {i + 1} (the log runs 1, 2, 3...; got {shown(r['seq'])})"
    sender = r["sender"]
    if sender != TIME_LIMIT and (why := _key_problem(sender)) is not None:
        return f"{where}: its sender {why}"
    if not isinstance(r["command"], dict):
        return f"{where}: its command must be an object"
    faces = r["faces"]
    if not isinstance(faces, list):
        return f"{where}: its faces must be a list of d12 faces"
    for j, f in enumerate(faces):
        if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 12:
            return f"{where}: its face {j + 1} ({shown(f)}) is not a d12 face (1 to 12)"
    if not isinstance(r["events"], list):
        return f"{where}: its events must be a list"
    time = r["time"]
    try:
        if not isinstance(time, str) or len(time) > TIME_TEXT_MAX:
            raise ValueError
        parse_time(time)
    except ValueError:
        return f"{where}: its time must be an ISO 8601 time such as 2026-05-01T12:00:00+00:00 (got {shown(time)})"
    return None


def _parse(command: dict[str, Any], where: str) -> Command:
    try:
        return parse_command(command)
    except ValidationError as exc:
        tag = command.get("type")
        drop = tag if isinstance(tag, str) else None
        problems = Problems()
        problems.pydantic(f"{where}, its command", exc, drop_first=drop)
        raise ArchiveError([problems.items[0]]) from None


@dataclass
class _Played:
    """A command as the table played it: what the import stores, and what undo needs."""

    seq: int
    sender: str
    command: dict[str, Any]
    faces: list[int]
    events: list[dict[str, Any]]
    time: str
    before: GameState | None = None
    undone: bool = False

    @property
    def is_meta(self) -> bool:
        return str(self.command.get("type")) in META

    @property
    def is_play(self) -> bool:
        return not self.is_meta and str(self.command.get("type")) not in CHAT_KINDS

    def row(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ENTRY_KEYS}


def _size_problem(before: GameState | None, state: GameState) -> str | None:
    """The first limit a state is over that would make replaying the rest of the log costly (the map's size, how
    many walls, objects and creatures, a creature's size), or None. The models check every limit too; this is
    checked after each command (on the creatures it changed), before the next one can take the time or memory."""
    board = state.board
    if before is None or board is not before.board:
        if board.cols > MAP_SIDE_MAX or board.rows > MAP_SIDE_MAX:
            return f"the map is {board.cols} by {board.rows} spaces; at most {MAP_SIDE_MAX} by {MAP_SIDE_MAX}"
        if len(board.walls) > WALLS_MAX or len(board.objects) > OBJECTS_MAX:
            return f"the map has more than {WALLS_MAX} walls or {OBJECTS_MAX} objects"
    if len(state.creatures) > CREATURES_MAX:
        return f"{len(state.creatures)} creatures; a game has at most {CREATURES_MAX}"
    for cid, c in state.creatures.items():
        if before is not None and before.creatures.get(cid) is c:
            continue
        if not CREATURE_SIZE_MIN <= c.size <= CREATURE_SIZE_MAX:
            return f"{c.name} has size {c.size}; a size is {CREATURE_SIZE_MIN} to {CREATURE_SIZE_MAX}"
    return None


def _apply(state: GameState, cmd: Command, faces: list[int], where: str) -> tuple[GameState, list[dict[str, Any]]]:
    dice = ScriptedDice(faces)
    try:
        after, events = apply(state, cmd, dice)
    except RuleError as exc:
        raise ArchiveError([f"{where}: the rules do not allow its command ({cmd.type}) there: {exc}"]) from None
    except DiceScriptExhausted:
        raise ArchiveError([f"{where}: its command needs more dice than the {len(faces)} faces recorded"]) from None
    except (ValueError, KeyError, TypeError, IndexError, ArithmeticError, RecursionError):  # data the rules never made
        raise ArchiveError([f"{where}: its command ({cmd.type}) cannot be played on the game as it is then"]) from None
    if dice.remaining:
        raise ArchiveError([f"{where}: {dice.remaining} of its recorded faces are left over on replay"])
    if (problem := _size_problem(state, after)) is not None:
        raise ArchiveError([f"{where}: after it, {problem}"])
    return after, [e.model_dump(mode="json") for e in events]


def _undo_group(played: list[_Played]) -> list[_Played]:
    """What the table's Undo takes back (`Table.undo_group`): the last command and those before it back to the one
    that started while nothing waited."""
    live = [r for r in played if r.is_play and not r.undone]
    group: list[_Played] = []
    while live:
        r = live.pop()
        group.insert(0, r)
        if r.before is None or not r.before.pending:
            break
    return group


def _meta_event(kind: str, seqs: list[int], records: list[_Played]) -> dict[str, Any]:
    """The event the table writes for an undo or a redo (`Table._meta`)."""
    verb = "takes back" if kind == "undo" else "plays again"
    texts = [str(r.events[0]["text"]) if r.events else str(r.command.get("type", "")) for r in records]
    return {"kind": kind, "text": f"The Soulweaver {verb}: " + " ".join(texts), "data": {"seqs": seqs}}


def _replay(initial: GameState, log: list[dict[str, Any]]) -> tuple[list[_Played], GameState]:
    """Play the log again in the order it was played, as the table did, and return the log as the table would have
    written it (the events this replay gives) and the final state."""
    judge = Table("import", initial)
    try:
        played: list[_Played] = []
        redo: list[list[int]] = []
        state = initial
        for i, r in enumerate(log):
            where = _entry_where(i, r)
            kind = r["command"].get("type")
            kind = kind if isinstance(kind, str) else None  # any other type is refused by _parse, in words
            record = _Played(r["seq"], r["sender"], {}, list(r["faces"]), [], r["time"])
            if kind in CHAT_KINDS:
                record.command, record.events = _chat(r, where)
                played.append(record)
                continue
            if kind in META:
                seqs = r["command"].get("seqs")
                if set(r["command"]) != {"type", "seqs"} or not isinstance(seqs, list):
                    raise ArchiveError([f'{where}: an {kind} is {{"type": "{kind}", "seqs": [...]}}'])
                if r["sender"] != SOULWEAVER or r["faces"]:
                    raise ArchiveError([f"{where}: only the Soulweaver undoes and redoes, and with no dice"])
                if kind == "undo":
                    group = _undo_group(played)
                    if not group or seqs != [g.seq for g in group]:
                        expected = _short([g.seq for g in group]) if group else "nothing"
                        message = f"this undo takes back {_short(seqs)}, but Undo there takes back {expected}"
                        raise ArchiveError([f"{where}: {message}"])
                    assert group[0].before is not None
                    state = group[0].before
                    for g in group:
                        g.undone = True
                    redo.append(seqs)
                else:
                    if not redo or redo[-1] != seqs:
                        raise ArchiveError([f"{where}: a redo plays the last undo again, and {_short(seqs)} is not it"])
                    group = [played[s - 1] for s in seqs]
                    for g in group:
                        g.before = state
                        state, _ = _apply(state, _parse(g.command, where), g.faces, where)
                        g.undone = False
                    redo.pop()
                record.command = {"type": kind, "seqs": seqs}
                record.events = [_meta_event(kind, seqs, group)]
                played.append(record)
                continue
            cmd = _parse(r["command"], where)
            if r["sender"] == TIME_LIMIT and cmd.type not in ("react", "defend"):
                raise ArchiveError([f"{where}: the time limit only answers reactions and defenses, not {cmd.type}"])
            viewer = Viewer("soulweaver", TIME_LIMIT if r["sender"] == TIME_LIMIT else "Soulweaver")
            if r["sender"] not in (SOULWEAVER, TIME_LIMIT):
                viewer = Viewer("player", r["sender"])
            judge.state = state
            refused = judge.permission_error(viewer, cmd, heard_target(cmd, judge.fog.vision(state, viewer)))
            if refused is not None:
                raise ArchiveError([f"{where}: its sender {shown(r['sender'])} may not send it: {refused}"])
            record.before = state
            state, record.events = _apply(state, cmd, record.faces, where)
            record.command = cmd.model_dump(mode="json")
            played.append(record)
            redo.clear()
        return played, state
    finally:
        judge.close()


def _chat(r: dict[str, Any], where: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A message, whisper or roll of the log, checked as the table checks it, the roll rolled again with exactly
    its recorded faces; the stored command and its events."""
    if r["sender"] == TIME_LIMIT:
        raise ArchiveError([f"{where}: the time limit does not write in the chat"])
    to = r["command"].get("to")
    seated = isinstance(to, str) and _key_problem(to) is None and to.lower() not in _RESERVED_KEYS - {SOULWEAVER}
    seats = {SOULWEAVER} | ({to} if seated else set())
    dice = ScriptedDice(r["faces"])
    try:
        entry = chat_entry(r["sender"], r["command"], dice, seats)
    except ChatError as exc:
        raise ArchiveError([f"{where}: {exc}"]) from None
    except DiceScriptExhausted:
        raise ArchiveError([f"{where}: its roll needs more dice than the {len(r['faces'])} faces recorded"]) from None
    if dice.remaining:
        raise ArchiveError([f"{where}: {dice.remaining} of its recorded faces are left over on replay"])
    return entry.command, entry.events


def _checked_state(state: GameState, where: str) -> GameState:
    """`state` validated again by the models (their types and limits), as a game's state is when it is loaded."""
    try:
        return GameState.model_validate(state.model_dump(mode="json"))
    except ValidationError as exc:
        raise ArchiveError([_first_model_problem(exc, where)]) from None
    except (TypeError, ValueError, KeyError, IndexError, RecursionError):
        raise ArchiveError([f"{where}: is not a game's state the server can keep"]) from None


def check_archive(data: object) -> Archive:
    """Check an archive in full (see the module's docstring); `ArchiveError` names the first problem."""
    if not isinstance(data, dict):
        raise ArchiveError(["archive: must be a JSON object"])
    for key in data:
        if key not in KEYS:
            raise ArchiveError([f"{shown(key)}: not part of a game archive (its parts are {', '.join(KEYS)})"])
    if data.get("format") != ARCHIVE_FORMAT or isinstance(data.get("format"), bool):
        raise ArchiveError([f"format: must be {ARCHIVE_FORMAT} (got {shown(data.get('format'))})"])
    if "kind" in data and data["kind"] != KIND:
        raise ArchiveError([f"kind: must be {KIND!r} (got {shown(data['kind'])})"])
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ArchiveError(["name: must be a non-empty string (the game's name)"])
    if (why := text_error(name, NAME_MAX)) is not None:
        raise ArchiveError([f"name: {why}"])
    map_name = data.get("map", "")
    if not isinstance(map_name, str):
        raise ArchiveError(["map: must be a string (the map file the game was made from)"])
    if (why := text_error(map_name, NAME_MAX)) is not None:
        raise ArchiveError([f"map: {why}"])
    if "initial_state" not in data:
        raise ArchiveError(["initial_state: missing (the game's starting state)"])
    try:
        initial = GameState.model_validate(data["initial_state"])
    except ValidationError as exc:
        raise ArchiveError([_first_model_problem(exc, "initial_state")]) from None
    except (TypeError, ValueError, KeyError, IndexError, RecursionError):  # a model's own validator tripped on junk
        raise ArchiveError(
            ["initial_state: is not a game's starting state (a part of it has the wrong shape)"]
        ) from None
    if (problem := _size_problem(None, initial)) is not None:
        raise ArchiveError([f"initial_state: {problem}"])
    log = data.get("log")
    if not isinstance(log, list):
        raise ArchiveError(["log: must be a list of the commands played"])
    if len(log) > ARCHIVE_COMMANDS_MAX:
        raise ArchiveError([f"log: {len(log)} commands; a game archive holds at most {ARCHIVE_COMMANDS_MAX}"])
    for i, r in enumerate(log):
        if (problem := _entry_problem(i, r)) is not None:
            raise ArchiveError([problem])
    problems: list[str] = []
    background = _background(data["uploads"], problems) if "uploads" in data else None
    if problems:
        raise ArchiveError(problems[:1])
    uploads = data.get("uploads")
    pictures = _pictures(uploads.get(PICTURES)) if isinstance(uploads, dict) else ()
    played, final = _replay(initial, log)
    final = _checked_state(final, "the game after its log")
    named = set(pictures_named(initial.model_dump(mode="json"), (r.command for r in played)))
    for digest, _, _ in pictures:
        if digest not in named:
            raise ArchiveError([f"the token picture {digest[:12]}…: no creature of the game has it"])
    archive = Archive(
        name=name, map=map_name, initial_state=initial, log=[r.row() for r in played], final_state=final,
        background=background, pictures=pictures,
    )  # fmt: skip
    controllers = {c.controller for s in (initial, final) for c in s.creatures.values() if c.controller}
    players = archive.players()
    for key in sorted(controllers | set(players)):
        if (why := _key_problem(key)) is not None or key.lower() in _RESERVED_KEYS:
            raise ArchiveError([f"player {shown(key)}: {why or 'a name the table uses itself'}"])
    if len(players) > SEATS_MAX:
        raise ArchiveError([f"players: {len(players)} players; a game has at most {SEATS_MAX} player seats"])
    return archive


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_archive(raw: bytes) -> Archive:
    """An archive file's bytes, checked in full (size, UTF-8, JSON, then `check_archive`)."""
    if len(raw) > ARCHIVE_BYTES_MAX:
        raise ArchiveError([f"the file is bigger than {ARCHIVE_BYTES_MAX // (1024 * 1024)} MB"])
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constants)
    except UnicodeDecodeError:
        raise ArchiveError(["the file is not text (UTF-8)"]) from None
    except (ValueError, RecursionError):
        raise ArchiveError(["the file is not JSON (or is nested too deeply)"]) from None
    return check_archive(data)


# ---- off the event loop ---------------------------------------------------------------------------------------

_ONE_AT_A_TIME = threading.BoundedSemaphore(1)
"""Archives are checked one at a time: a second import waits for the first (within its own budget)."""


CHECK_MEMORY_BYTES = 4 * 1024**3
"""The address space the checking process may use: a crafted archive cannot take the server's memory."""


def _worker(conn: Connection, raw: bytes) -> None:
    try:
        conn.send(("started", None))
        resource.setrlimit(resource.RLIMIT_AS, (CHECK_MEMORY_BYTES, CHECK_MEMORY_BYTES))
        conn.send(("ok", read_archive(raw)))
    except ArchiveError as exc:
        conn.send(("error", exc.problems))
    except MemoryError:
        conn.send(("error", [f"checking the archive needs more than {CHECK_MEMORY_BYTES // 1024**3} GB of memory"]))
    except Exception as exc:
        conn.send(("error", [f"the archive could not be checked ({type(exc).__name__})"]))
    finally:
        conn.close()


def check_archive_offloaded(raw: bytes, seconds: float = CHECK_SECONDS) -> Archive:
    """`read_archive` in a process of its own, stopped after `seconds`. Blocking: call it from a thread
    (`asyncio.to_thread`), never on the event loop."""
    if len(raw) > ARCHIVE_BYTES_MAX:  # before the bytes are copied to another process
        raise ArchiveError([f"the file is bigger than {ARCHIVE_BYTES_MAX // (1024 * 1024)} MB"])
    busy = "another game is being imported; try again in a minute"
    if not _ONE_AT_A_TIME.acquire(timeout=seconds):
        raise ArchiveError([busy])
    try:
        context = multiprocessing.get_context("spawn")  # no server process left behind, and no fork of our threads
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_worker, args=(send, raw), daemon=True)
        process.start()
        send.close()
        try:
            if not receive.poll(START_SECONDS):
                raise ArchiveError(["the archive's checker did not start; try again in a minute"])
            receive.recv()  # ("started", None): the budget starts now
            if not receive.poll(seconds):
                raise ArchiveError([f"checking the archive took longer than {seconds:g} seconds; it was stopped"])
            status, value = receive.recv()
        except EOFError:
            raise ArchiveError(["the archive could not be checked (its checker stopped)"]) from None
        finally:
            receive.close()
            if process.is_alive():
                process.kill()
            process.join()
            process.close()
    finally:
        _ONE_AT_A_TIME.release()
    if status != "ok":
        raise ArchiveError(list(value))
    assert isinstance(value, Archive)
    return value
