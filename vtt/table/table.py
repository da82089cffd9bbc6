"""One live game: who may send which command, the rules core, the log in the database, and the listeners.

A command goes: permission check (the server never trusts the browser) -> `rules.apply` with recorded dice ->
committed to the database -> the new state is taken -> every listener is told. A rejected command changes
nothing anywhere and its sender gets the reason.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import weakref
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property, partial
from typing import Any, Literal, Protocol

from pydantic import ValidationError
from sqlalchemy.engine import Engine

from vtt.rules import GameState, RuleError, apply, parse_command, positions
from vtt.rules.commands import Command, Place, creature_refs
from vtt.rules.dice import DiceSource, RandomDice, RecordingDice, ScriptedDice
from vtt.rules.limits import plain_message
from vtt.rules.model import SOULWEAVER
from vtt.rules.turns import is_active, places_before_fight
from vtt.store import db
from vtt.table import latency_trace
from vtt.table.chat import CHAT_KINDS, ChatError, chat_entry
from vtt.table.clock import Clock, LoopClock, Timer
from vtt.table.fog import Fog
from vtt.table.heard_targets import unmask
from vtt.table.seat_view import SeatView
from vtt.table.state_steps import Steps
from vtt.table.typed_dice import DiceAsk, FacesNeeded, TypedRolls, WrongFaceCount, mark_typed, typed_problem

log = logging.getLogger(__name__)

Role = Literal["soulweaver", "player", "spectator"]
TIME_LIMIT = "time limit"
"""The sender of the answers the table gives when a reaction's or a defense's time runs out (with the Soulweaver's
rights)."""


@dataclass(frozen=True)
class Viewer:
    role: Role
    name: str

    @property
    def key(self) -> str:
        return SOULWEAVER if self.role == "soulweaver" else self.name

    @property
    def is_soulweaver(self) -> bool:
        return self.role == "soulweaver"

    @property
    def is_spectator(self) -> bool:
        return self.role == "spectator"


class LogRecord:
    """One entry of a game's log: who sent which command, the dice faces it used and the events it made.

    A record some commands old is packed (`pack`): its command and events are kept as JSON text and its faces as a
    tuple, which the garbage collector does not track. A long game's log then adds one tracked object a command to
    what the collector's older generations walk (while the event loop waits), not about ten. Reading a packed
    record's command, faces or events decodes a new copy each time."""

    __slots__ = ("_command", "_events", "_faces", "_kind", "before", "sender", "seq", "time", "undone")

    def __init__(
        self,
        seq: int,
        sender: str,
        command: dict[str, Any],
        faces: list[int],
        events: list[dict[str, Any]],
        time: str | None = None,
        undone: bool = False,
        before: GameState | None = None,
    ) -> None:
        self.seq = seq
        self.sender = sender
        self.command = command
        self._faces: list[int] | tuple[int, ...] = faces
        self._events: list[dict[str, Any]] | str = events
        self.time = datetime.now(UTC).isoformat(timespec="seconds") if time is None else time
        self.undone = undone
        """Taken back by an undo (and not redone): the game's state is as if it had never been played."""
        self.before = before
        """The state this command was played on (kept in memory only; a restart rebuilds it by replaying)."""

    @classmethod
    def stored(cls, row: db.StoredCommand, packed: bool = True, command: dict[str, Any] | None = None) -> LogRecord:
        """The record of a command as the database holds it; `packed`, its JSON text is kept as it is (it reads back
        what `db.load_log` decodes), else decoded. `command` is its command decoded already, if it was."""
        if command is None:
            command = json.loads(row.command)
        if not packed:
            return cls(row.seq, row.sender, command, json.loads(row.faces), json.loads(row.events), row.time)
        faces = json.loads(row.faces)
        record = cls(row.seq, row.sender, command, faces, [], row.time)
        record._command, record._events = row.command, row.events
        if all(type(f) is int for f in faces):
            record._faces = tuple(faces)
        return record

    @classmethod
    def stored_log(cls, rows: Sequence[db.StoredCommand], commands: Sequence[dict[str, Any]]) -> list[LogRecord]:
        """The records of a log as the database holds it, each as `stored` makes it, all but the newest
        `RECORDS_UNPACKED` packed; `commands`: each row's command, decoded. Packed records of the same faces share
        one tuple of them."""
        unpacked = len(rows) - RECORDS_UNPACKED
        shared: dict[str, tuple[int, ...]] = {}
        records: list[LogRecord] = []
        for i, (row, command) in enumerate(zip(rows, commands, strict=True)):
            faces = shared.get(row.faces) if i < unpacked else None
            if faces is None:
                record = cls.stored(row, i < unpacked, command)
                if record.packed and isinstance(record._faces, tuple):
                    shared[row.faces] = record._faces
                records.append(record)
                continue
            record = cls.__new__(cls)
            record.seq, record.sender, record.time, record.undone, record.before = (
                row.seq,
                row.sender,
                row.time,
                False,
                None,
            )
            record._command, record._events, record._faces = row.command, row.events, faces
            record._kind = str(command.get("type", ""))
            records.append(record)
        return records

    @property
    def command(self) -> dict[str, Any]:
        command = self._command
        return json.loads(command) if isinstance(command, str) else command

    @command.setter
    def command(self, command: dict[str, Any]) -> None:
        self._command: dict[str, Any] | str = command
        self._kind = str(command.get("type", ""))

    @property
    def faces(self) -> list[int]:
        faces = self._faces
        return list(faces) if isinstance(faces, tuple) else faces

    @faces.setter
    def faces(self, faces: list[int]) -> None:
        self._faces = faces

    @property
    def events(self) -> list[dict[str, Any]]:
        events = self._events
        return json.loads(events) if isinstance(events, str) else events

    @events.setter
    def events(self, events: list[dict[str, Any]]) -> None:
        self._events = events

    @property
    def packed(self) -> bool:
        return isinstance(self._events, str)

    def pack(self) -> None:
        """Keep the command and events as JSON text and the faces as a tuple, when they read back the same."""
        if self.packed:
            return
        command, events = _json(self._command), _json(self._events)
        if command is not None and events is not None and all(type(f) is int for f in self._faces):
            self._command, self._events, self._faces = command, events, tuple(self._faces)

    @property
    def kind(self) -> str:
        return self._kind

    @property
    def is_meta(self) -> bool:
        """An undo or a redo: a record in the log, not a move in the game."""
        return self._kind in META

    @property
    def is_chat(self) -> bool:
        """A message, whisper or roll typed at the table: a record in the log, not a move in the game."""
        return self._kind in CHAT_KINDS

    @property
    def is_play(self) -> bool:
        """A command the rules played on the game (neither an undo or redo nor a chat record)."""
        return not self.is_meta and not self.is_chat

    def _fields(self) -> tuple[object, ...]:
        return (self.seq, self.sender, self.command, self.faces, self.events, self.time, self.undone)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LogRecord):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        seq, sender, command, faces, events, time, undone = self._fields()
        return (
            f"LogRecord(seq={seq!r}, sender={sender!r}, command={command!r}, faces={faces!r}, events={events!r}, "
            f"time={time!r}, undone={undone!r})"
        )


def _snapshot_to_load(
    engine: Engine, game_id: int, records: list[LogRecord], below: int | None = None
) -> tuple[int, dict[str, Any]] | None:
    """The newest snapshot of the game (before the command `below`, if given) that no later undo or redo reaches
    back past (its state is then the log's fold up to it), with its state; None if there is none."""
    reaches = sorted(((r.seq, min(r.command.get("seqs", [0]))) for r in records if r.is_meta), reverse=True)
    lowest, i = len(records) + 1, 0
    for seq in db.snapshot_seqs(engine, game_id):
        while i < len(reaches) and reaches[i][0] > seq:
            lowest = min(lowest, reaches[i][1])
            i += 1
        if lowest > seq and (below is None or seq < below):
            state = db.snapshot_state(engine, game_id, seq)
            return None if state is None else (seq, state)
    return None


def _sharing(state: GameState, table_state: GameState) -> GameState:
    """`state` with each creature equal to the table state's creature of its id replaced by that very object."""
    mine = table_state.creatures
    creatures = {cid: c if (same := mine.get(cid)) is None or same != c else same for cid, c in state.creatures.items()}
    return state.model_copy(update={"creatures": creatures})


def _json(data: object) -> str | None:
    """`data` as compact JSON text, or None when the text would not read back equal to it."""
    try:
        text = json.dumps(data, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    return text if json.loads(text) == data else None


@dataclass
class Change:
    before: GameState
    after: GameState
    record: LogRecord
    known: frozenset[str] | None = None
    """The creatures the change added, removed or replaced, when the table worked them out already."""

    @cached_property
    def _changed(self) -> frozenset[str]:
        return positions.changed(self.before, self.after) if self.known is None else self.known

    @property
    def changed_creatures(self) -> set[str]:
        """The creatures added, removed or changed (worked out once for every listener; a new set each call)."""
        return set(self._changed)


class Listener(Protocol):
    def table_changed(self, change: Change) -> None: ...


META = frozenset({"undo", "redo"})
NOT_PLAYED = META | CHAT_KINDS
"""The kinds of record the rules do not play (`LogRecord.is_play`)."""
SEAT_VIEWS_KEPT = 4
"""How many states' seat views each seat keeps (a change compares the state before with the one after)."""
KEEP_STATES = 200
"""How many recent commands keep the state they were played on in memory (for undo without a replay)."""
RECORDS_UNPACKED = 8
"""How many of the newest records keep their command and events as they were made (`LogRecord.pack`): the change's
listeners, an undo and a redo read those."""
STORE_ATTEMPTS = 20
"""How many times a command is tried again after other processes stored commands of the same game first."""


@dataclass
class Outcome:
    ok: bool
    error: str | None = None
    record: LogRecord | None = None
    need: DiceAsk | None = None
    """Under physical dice: the next roll the sender must type before the command can be played (nothing changed
    meanwhile); the command is sent again with that roll added to the typed ones."""


def _command_creature(cmd: Command) -> str | None:
    return getattr(cmd, "creature", None)


_SQLITE_WRITERS: weakref.WeakKeyDictionary[Engine, ThreadPoolExecutor] = weakref.WeakKeyDictionary()
"""One writer thread per SQLite database, shared by its games: SQLite lets one writer in at a time, and a hundred
games' writers each waiting on its lock slept in its busy handler's growing steps (seconds at a hundred games)."""
_WRITERS_LOCK = threading.Lock()


def _writer_for(engine: Engine | None, name: str) -> tuple[ThreadPoolExecutor, bool]:
    """The thread that stores a game's commands, in order, and whether it is shared with the database's other
    games (SQLite) or the game's own (a server database takes many writers at once)."""
    if engine is None or engine.dialect.name != "sqlite":
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"vtt-db-{name}"), False
    with _WRITERS_LOCK:
        writer = _SQLITE_WRITERS.get(engine)
        if writer is None:
            writer = _SQLITE_WRITERS[engine] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vtt-db-sqlite")
    return writer, True


class Table:
    def __init__(
        self,
        name: str,
        initial: GameState,
        engine: Engine | None = None,
        game_id: int | None = None,
        dice: Callable[[], DiceSource] = RandomDice,
        snapshot_every: int = 50,
        clock: Clock | None = None,
    ) -> None:
        self.name = name
        self.initial = initial
        self.state = initial
        self.log: list[LogRecord] = []
        self.engine = engine
        self.game_id = game_id
        self.snapshot_every = snapshot_every
        self.versions: dict[str, int] = {}
        """Each creature's version: how many times it changed. A command from a browser names the version it
        saw; a stale one is refused, so two people dragging one token end up agreeing."""
        self.gone_hidden: dict[str, str] = {}
        """Creatures removed from the game while hidden (id -> name): the log about them stays the Soulweaver's."""
        self._seat_views: dict[Viewer, list[tuple[SeatView, int]]] = {}
        """Per seat, its views of the last few states, with how many creatures had gone hidden then."""
        self.steps = Steps()
        """The last few steps from one state to the next, with the creatures each changed."""
        self.fog = Fog()
        """What each seat perceives with fog of war on, and the spaces it remembers (in memory only)."""
        self._redo: list[list[int]] = []
        self._dice = dice()
        self._listeners: weakref.WeakSet[Any] = weakref.WeakSet()
        self._lock = asyncio.Lock()
        self.clock: Clock = clock or LoopClock()
        self._timers: dict[str, Timer] = {}
        self._deadlines: dict[str, float] = {}
        """When each timer fires, in seconds since the epoch (for the pages' countdowns)."""
        self._tasks: set[asyncio.Future[None]] = set()
        self._writer, self._shared_writer = _writer_for(engine, name)
        self._last_write: Future[None] | None = None
        self._last_snapshot: Future[None] | None = None
        self._at_once = engine is not None and db.stores_at_once(engine)
        """Commands are stored on the event loop when the database allows it without waiting (a SQLite file), in
        the writer thread otherwise (`db.append_command_at_once`)."""
        self._shared = engine is not None and engine.dialect.name == "postgresql"
        """Other processes may serve this game too (PostgreSQL): a command is decided on the state after every
        command already stored (`_serialized`)."""
        self._heard_seq = 0
        """The last place of the log another process said it stored a command at (`heard_of`)."""
        self._unsure = False
        """Messages of the other processes may have been lost (`may_be_behind`): look in the log."""
        self._catch_up_task: asyncio.Task[None] | None = None
        self.remember(initial)

    @classmethod
    def open(cls, engine: Engine, name: str, initial: GameState, dice: Callable[[], DiceSource] = RandomDice) -> Table:
        """The stored game called `name`, rebuilt from its log; created from `initial` if there is none."""
        found = db.find_game(engine, name)
        if found is None:
            game_id = db.create_game(engine, name, initial.model_dump(mode="json"))
            return cls(name, initial, engine, game_id, dice)
        return cls.load(engine, found[0], dice)

    @classmethod
    def load(cls, engine: Engine, game_id: int, dice: Callable[[], DiceSource] = RandomDice) -> Table:
        """Rebuild a stored game: its starting state, then every command of its log with the dice faces it used,
        undos and redos included (from the newest snapshot when the log after it allows)."""
        found = db.get_game(engine, game_id)
        if found is None:
            raise KeyError(f"no game {game_id}")
        name, start = found
        table = cls(name, GameState.model_validate(start), engine, game_id, dice)
        rows = db.load_log_texts(engine, game_id)
        commands: list[dict[str, Any]] = [json.loads(r.command) for r in rows]
        records = LogRecord.stored_log(rows, commands)  # packed as `_append` leaves them
        snapshot = _snapshot_to_load(engine, game_id, records)
        if snapshot is not None:
            table._replay(records, GameState.model_validate(snapshot[1]), snapshot[0], commands)
        else:
            table._replay(records, table.initial, 0, commands)
        table.remember(table.state)
        return table

    def _replay(
        self,
        records: list[LogRecord],
        state: GameState,
        start_after: int,
        commands: Sequence[dict[str, Any]] | None = None,
    ) -> None:
        """Fold the log into the state. Records up to `start_after` are already in `state` (a snapshot); their
        undone marks are still worked out, for the log's display. `commands`: each record's command, decoded already
        (a packed record decodes its own anew)."""
        by_seq = {r.seq: r for r in records}
        redo = self._redo
        for r in records:
            kind = r.kind
            if kind == "undo":
                seqs = r.command["seqs"]
                for seq in seqs:
                    by_seq[seq].undone = True
                redo.append(list(seqs))
            elif kind == "redo":
                for seq in r.command["seqs"]:
                    by_seq[seq].undone = False
                redo.pop()
            elif kind not in CHAT_KINDS:
                redo.clear()
        self.log = records
        kept_from = len(records) - KEEP_STATES  # as `_forget_old_states` keeps them, and no more in memory
        played = [i for i, r in enumerate(records) if r.seq > start_after and not r.undone and r.kind not in NOT_PLAYED]
        stepped_from = len(played) - self.steps.kept  # the older steps would only be pushed out of `steps`
        with positions.replaying():
            for n, i in enumerate(played):
                r = records[i]
                r.before = state if i >= kept_from else None
                after, _ = apply(state, r.command if commands is None else commands[i], ScriptedDice(r.faces))
                if n < stepped_from:
                    self._count_versions(state, after, positions.changed(state, after))
                else:
                    self._bump(state, after)
                state = after
        self.state = state

    def _bump(self, before: GameState, after: GameState) -> frozenset[str]:
        """Count a new version of each creature the step changed; returns them."""
        changed = self.steps.add(before, after)
        self._count_versions(before, after, changed)
        return changed

    def _count_versions(self, before: GameState, after: GameState, changed: frozenset[str]) -> None:
        """Count a new version of each creature in `changed`, the creatures the step replaced."""
        for cid in sorted(changed):
            was = before.creatures.get(cid)
            self.versions[cid] = self.versions.get(cid, 0) + 1
            if was is not None and was.hidden and cid not in after.creatures:
                self.gone_hidden[cid] = was.name

    def version(self, creature_id: str) -> int:
        return self.versions.get(creature_id, 0)

    def seats_changed(self) -> None:
        """Someone took a seat or an invitation changed: views that show seats redraw them."""
        for listener in list(self._listeners):
            redraw = getattr(listener, "seats_changed", None)
            if redraw is not None:
                redraw()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.add(listener)
        if self.behind:
            self._catch_up_soon()

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.discard(listener)

    # ---- who may do what ----------------------------------------------------------------------------------

    def seat_view(self, viewer: Viewer, state: GameState | None = None) -> SeatView:
        """What `viewer` may see of the current state (or of `state`, a state of this game).

        One `SeatView` per kind of seat and state, shared by every page and socket of that seat: a change is
        worked out once for the seven spectators watching it, not seven times."""
        shown = self.state if state is None else state
        vision = self.fog.vision(shown, viewer)
        known = self._seat_views.setdefault(viewer, [])
        for view, gone in known:
            if view.state is shown and view.vision is vision and gone == len(self.gone_hidden):
                return view
        step = self.steps.into(shown)
        previous = next((v for v, _ in reversed(known) if step is not None and v.state is step[0]), None)
        changed = step[1] if step is not None else frozenset()
        view = SeatView(shown, viewer, self.gone_hidden, vision, previous, changed)
        known.append((view, len(self.gone_hidden)))
        del known[:-SEAT_VIEWS_KEPT]
        return view

    def remember(self, state: GameState) -> None:
        """With fog of war on, every seat (each player with a creature, and the spectators) remembers the spaces its
        creatures perceive in `state`."""
        if not self.fog.on(state):
            return
        players = sorted({c.controller for c in state.creatures.values() if c.controller})
        self.fog.remember(state, [*(Viewer("player", p) for p in players), Viewer("spectator", "spectator")])

    async def _remember(self, state: GameState) -> None:
        """`remember`, off the event loop (working out perception on a big map takes a while)."""
        if self.fog.on(state):
            await asyncio.to_thread(self.remember, state)

    def visible_to(self, viewer: Viewer, creature_id: str) -> bool:
        """Hidden creatures exist only for the Soulweaver: nothing about them goes to anyone else."""
        return self.seat_view(viewer).sees(creature_id)

    def permission_error(self, viewer: Viewer, cmd: Command, heard: str | None = None) -> str | None:
        """Why `viewer` may not send `cmd`, or None. The Soulweaver may send anything; a spectator nothing. `heard`:
        a creature the seat only hears, named by the command as the target of a Strike (`heard_targets`)."""
        if viewer.is_soulweaver:
            return None
        if viewer.is_spectator:
            return "spectators watch; they do not play"
        state = self.state
        if any(cid != heard and not self.visible_to(viewer, cid) for cid in creature_refs(cmd)):
            return "no such creature"
        placed = state.creatures.get(cmd.creature) if isinstance(cmd, Place) else None
        if placed is not None and places_before_fight(state, viewer.key, placed):
            return None
        if cmd.SENT_BY == "soulweaver":
            return "only the Soulweaver can do that"
        if cmd.SENT_BY == "decision":
            decision = next((d for d in state.pending if d.id == getattr(cmd, "decision", None)), None)
            if decision is None or decision.to != viewer.key:
                return "that decision is not yours to answer"
            return None
        if cmd.SENT_BY == "turn":
            current = state.turn.current
            c = state.creatures.get(current or "")
            if c is None or c.controller != viewer.key:
                return "it is not your creature's turn"
            return None
        cid = _command_creature(cmd)
        c = state.creatures.get(cid or "")
        if c is None or c.controller != viewer.key:
            return "you can only act for your own creatures"
        if state.turn.current is not None and not is_active(state, c.id):
            return f"it is not {c.name}'s turn"
        return None

    def check(self, viewer: Viewer, command: dict[str, Any]) -> tuple[Command | None, str | None]:
        if not isinstance(command, dict):
            return None, "malformed command: not an object"
        heard: str | None = None
        if not viewer.is_soulweaver:
            command, heard, why = unmask(command, self.fog.vision(self.state, viewer))
            if why is not None:
                return None, why
        try:
            cmd = parse_command(command)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            kind, *path = [str(p) for p in first["loc"]] or [""]
            kind = kind.replace("_", " ")  # the command's tag, in words ("pick up", not its internal name)
            where = ".".join([kind, *path])
            why = "it takes no such field" if first["type"] == "extra_forbidden" else plain_message(first)
            context = first.get("ctx", {})
            if "where" in context and "why" in context:  # an error deep inside a field, that names its own path
                where, why = f"{kind}.{context['where']}", str(context["why"])
            if first["type"] == "union_tag_invalid":
                return None, f"malformed command: the table has no command {str(context.get('tag'))[:40]!r}"
            if first["type"] == "union_tag_not_found":
                return None, "malformed command: it does not say what to do (its type)"
            return None, f"malformed command: {where}: {why}"
        return cmd, self.permission_error(viewer, cmd, heard)

    def _stale(self, seen: dict[str, int] | None) -> str | None:
        for cid, version in (seen or {}).items():
            if self.version(cid) != version:
                c = self.state.creatures.get(cid)
                return f"{c.name if c else cid} changed meanwhile; your screen has been brought up to date"
        return None

    # ---- playing --------------------------------------------------------------------------------------------

    async def submit(
        self,
        viewer: Viewer,
        command: dict[str, Any],
        seen: dict[str, int] | None = None,
        typed: Sequence[Sequence[int]] | None = None,
    ) -> Outcome:
        """Check, resolve, store, then tell everyone. `seen` maps creature ids to the versions the sender's screen
        showed; a command sent from an out-of-date screen is refused. Under the `physical_dice` setting, `typed`
        holds the faces the sender typed, one list a roll (`vtt.table.typed_dice`)."""
        kind = command.get("type") if isinstance(command, dict) else None
        if isinstance(kind, str) and kind in META:
            return await self._meta(viewer, kind)
        if isinstance(kind, str) and kind in CHAT_KINDS:
            return await self._chat(viewer, command)
        return await self._serialized(lambda: self._play(viewer, command, seen, typed))

    async def _serialized(self, attempt: Callable[[], Awaitable[Outcome | Change]]) -> Outcome:
        """Run `attempt` under the table's lock, on the state after every command this process knows of, and store
        it at the next place of the log. When another process stored a command there first (`db.SeqTaken`), fold
        in what it stored and try again, checked anew against the state it made: so a command is decided on the
        state after every command stored before it, without reading the log first. A refusal (or a request for
        typed dice) is checked again after a look at the log: it may have been made on a state another process
        had moved past. Then tell everyone, in the log's order."""
        caught: list[Change] = []
        result: Outcome | Change | None = None
        async with self._lock:
            if self.behind:
                caught += await self._catch_up_locked()
            latency_trace.mark("locked", game=self.game_id, seq=len(self.log) + 1)
            looked = not self._shared
            for _ in range(STORE_ATTEMPTS):
                result = None
                try:
                    result = await attempt()
                except db.SeqTaken:
                    caught += await self._catch_up_locked()
                    looked = True
                    continue
                if isinstance(result, Outcome) and not result.ok and not looked:
                    looked = True
                    if more := await self._catch_up_locked():
                        caught += more
                        continue
                break
        for change in caught:
            self._tell(change)
        if result is None:
            return Outcome(False, "the table is too busy right now; nothing was played, try again")
        if isinstance(result, Outcome):
            return result
        self._tell(result)
        self._snapshot(result)
        return Outcome(True, None, result.record)

    async def _play(
        self,
        viewer: Viewer,
        command: dict[str, Any],
        seen: dict[str, int] | None,
        typed: Sequence[Sequence[int]] | None,
    ) -> Outcome | Change:
        cmd, error = self.check(viewer, command)
        if error is None:
            error = self._stale(seen)
        if error or cmd is None:
            return self._refused(viewer, error)
        typed_rolls: TypedRolls | None = None
        if self.state.settings.physical_dice and viewer.name != TIME_LIMIT:
            if (problem := typed_problem(typed)) is not None:
                return self._refused(viewer, problem)
            typed_rolls = TypedRolls(typed or [])
        dice = RecordingDice(self._dice if typed_rolls is None else typed_rolls.dice)
        try:
            after, events = apply(self.state, cmd, dice)
            latency_trace.mark("applied", game=self.game_id, seq=len(self.log) + 1)
        except RuleError as exc:
            return self._refused(viewer, str(exc))
        except FacesNeeded as exc:
            return self._ask_faces(viewer, exc, len(typed or []))
        except WrongFaceCount as exc:
            return self._refused(viewer, str(exc))
        if typed_rolls is not None and typed_rolls.left:
            return self._refused(viewer, "more rolls were typed than this needs; nothing was played")
        dumped = [e.model_dump(mode="json") for e in events]
        record = LogRecord(
            seq=len(self.log) + 1,
            sender=TIME_LIMIT if viewer.is_soulweaver and viewer.name == TIME_LIMIT else viewer.key,
            command=cmd.model_dump(mode="json"),
            faces=list(dice.used),
            events=dumped if typed_rolls is None else mark_typed(dumped),
        )
        await self._store(record)
        change = self._fold_play(record, after)
        await self._remember(after)
        return change

    async def _chat(self, viewer: Viewer, command: dict[str, Any]) -> Outcome:
        """A message, whisper or roll (`vtt.table.chat`): stored in the log like a command, but the game's state
        stays as it is."""
        if viewer.is_spectator:
            return Outcome(False, "spectators watch; they do not write in the chat")
        seats = await self._seat_keys()

        async def attempt() -> Outcome | Change:
            dice = RecordingDice(self._dice)
            try:
                entry = chat_entry(viewer.key, command, dice, seats)
            except ChatError as exc:
                return Outcome(False, str(exc))
            record = LogRecord(len(self.log) + 1, viewer.key, entry.command, list(dice.used), entry.events)
            await self._store(record)
            return self._fold(record)

        return await self._serialized(attempt)

    async def _seat_keys(self) -> set[str]:
        """Whom a whisper may go to: the Soulweaver, the players seated at the game and its creatures'
        controllers."""
        keys = {SOULWEAVER} | {c.controller for c in self.state.creatures.values() if c.controller}
        if self.engine is not None and self.game_id is not None:
            seats = await asyncio.get_running_loop().run_in_executor(None, db.seats, self.engine, self.game_id)
            keys |= {s.key for s in seats if s.role == "player"}
        return keys

    def _ask_faces(self, viewer: Viewer, need: FacesNeeded, typed: int) -> Outcome:
        """The roll the sender must type next, its purpose worded for them (never naming a creature they cannot
        see)."""
        seat = self.seat_view(viewer)
        purpose = seat.reword_text(need.purpose, ids=True)
        if seat.mentions(purpose):
            purpose = "a roll"
        ask = DiceAsk(need.count, purpose, typed)
        return Outcome(False, ask.text, need=ask)

    def _refused(self, viewer: Viewer, reason: str | None) -> Outcome:
        """A refusal, its reason worded for its sender: it never names a creature they may not see."""
        return Outcome(False, self.seat_view(viewer).refusal(reason or "that is not possible now"))

    def _forget_old_states(self) -> None:
        """Keep the state before each command in memory for the last `KEEP_STATES` commands only; an undo further
        back rebuilds them by replaying the log (`_rebuild_before`)."""
        old = len(self.log) - KEEP_STATES - 1
        if old >= 0 and self.log[old].is_play:
            self.log[old].before = None

    async def _store(self, record: LogRecord) -> None:
        """Store the command; the state after it goes in a snapshot of its own once everyone is told
        (`_snapshot`)."""
        if self.engine is None or self.game_id is None:
            return
        if self._at_once and (self._last_write is None or self._last_write.done()):
            latency_trace.mark("writing")
            stored = db.append_command_at_once(
                self.engine, self.game_id, record.seq, record.sender, record.command, record.faces, record.events
            )
            latency_trace.mark("written" if stored else "lock busy")
            if stored:
                return
        if self._shared:
            latency_trace.mark("writing", game=self.game_id, seq=record.seq)
            await db.append_command_async(
                self.engine, self.game_id, record.seq, record.sender, record.command, record.faces, record.events
            )
            latency_trace.mark("stored", game=self.game_id, seq=record.seq)
            return
        latency_trace.mark("to writer")
        future = self._writer.submit(
            _append_command,
            self.engine,
            self.game_id,
            record.seq,
            record.sender,
            record.command,
            record.faces,
            record.events,
        )
        self._last_write = future
        await asyncio.wrap_future(future)
        latency_trace.mark("stored", game=self.game_id, seq=record.seq)

    def _snapshot(self, change: Change) -> None:
        """Every `snapshot_every` commands, the state after one is stored too (a restart need not replay the whole
        log): dumped and written by the writer thread once everyone has been told of the command. Stored with the
        command, on a map of 500 creatures it took that move 10 ms of the event loop (the dump) and 36 ms more of
        the writer (a row of 1.2 MB) before anyone saw it; the state is never changed in place, so a later dump of it
        is the same. Lost in a crash, it is not missed: a restart replays from the snapshot before it."""
        if self.engine is None or self.game_id is None or change.record.seq % self.snapshot_every:
            return
        future = self._writer.submit(_store_snapshot, self.engine, self.game_id, change.record.seq, change.after)
        future.add_done_callback(_snapshot_failed)
        self._last_snapshot = future

    def _tell(self, change: Change) -> None:
        latency_trace.mark("tell")
        self._arm_reaction_timers()  # first, so that the listeners can show each reaction's deadline
        for listener in list(self._listeners):
            listener.table_changed(change)
        latency_trace.mark("told")

    def undo_group(self) -> list[LogRecord]:
        """What an undo takes back: the last command, and with it the commands before it back to the one that
        started while nothing waited — so an attack goes with its defense, reactions and damage. A command whose
        state before it is not kept has it rebuilt first (`_rebuild_before`)."""
        played = [r for r in self.log if r.is_play and not r.undone]
        group: list[LogRecord] = []
        while played:
            r = played.pop()
            group.insert(0, r)
            if r.before is None:
                self._rebuild_before(r.seq)
            if r.before is None or not r.before.pending:
                break
        return group

    def can_undo(self) -> bool:
        """Whether an undo has something to take back (`undo_group` is not empty), found from the log's end."""
        return any(r.is_play and not r.undone for r in reversed(self.log))

    def can_redo(self) -> bool:
        return bool(self._redo)

    async def _meta(self, viewer: Viewer, kind: str) -> Outcome:
        if not viewer.is_soulweaver or viewer.name == TIME_LIMIT:
            return Outcome(False, f"only the Soulweaver can {kind}")

        async def attempt() -> Outcome | Change:
            if kind == "undo":
                group = self.undo_group()
                if not group:
                    return Outcome(False, "there is nothing to undo")
                texts = [_summary(r) for r in group]
                seqs = [r.seq for r in group]
            else:
                if not self._redo:
                    return Outcome(False, "there is nothing to redo")
                seqs = self._redo[-1]
                texts = [_summary(self.log[seq - 1]) for seq in seqs]
            verb = "takes back" if kind == "undo" else "plays again"
            record = LogRecord(
                seq=len(self.log) + 1,
                sender=viewer.key,
                command={"type": kind, "seqs": seqs},
                faces=[],
                events=[{"kind": kind, "text": f"The Soulweaver {verb}: " + " ".join(texts), "data": {"seqs": seqs}}],
            )
            after = self._meta_result(record)
            await self._store(record)
            change = self._fold_meta(record, after)
            await self._remember(change.after)
            return change

        return await self._serialized(attempt)

    # ---- folding a stored record into the table ------------------------------------------------------------

    def _fold(self, record: LogRecord) -> Change:
        """Take `record`, stored at the end of the log, into the table: the state, the log, undo and redo. The
        same for a command played here and one another process stored (`catch_up`)."""
        if record.is_chat:
            self._append(record)
            return Change(self.state, self.state, record)
        if record.is_meta:
            return self._fold_meta(record)
        after, _ = apply(self.state, record.command, ScriptedDice(record.faces))
        return self._fold_play(record, after)

    def _append(self, record: LogRecord) -> None:
        self.log.append(record)
        if len(self.log) > RECORDS_UNPACKED:
            self.log[-RECORDS_UNPACKED - 1].pack()

    def _fold_play(self, record: LogRecord, after: GameState) -> Change:
        record.before = self.state
        change = Change(self.state, after, record, self._bump(self.state, after))
        self.state = after
        self._append(record)
        self._redo.clear()
        self._forget_old_states()
        return change

    def _meta_result(self, record: LogRecord) -> GameState:
        """The state an undo or redo leads to: before the first command it takes back, or this state with the
        commands it plays again."""
        seqs: list[int] = record.command["seqs"]
        if record.kind == "undo":
            if self.log[seqs[0] - 1].before is None:
                self._rebuild_before(seqs[0])
            before = self.log[seqs[0] - 1].before
            assert before is not None
            return before
        after = self.state
        for seq in seqs:
            r = self.log[seq - 1]
            after, _ = apply(after, r.command, ScriptedDice(r.faces))
        return after

    def _fold_meta(self, record: LogRecord, after: GameState | None = None) -> Change:
        seqs: list[int] = record.command["seqs"]
        after = self._meta_result(record) if after is None else after
        change = Change(self.state, after, record)
        if record.kind == "undo":
            for seq in seqs:
                self.log[seq - 1].undone = True
            self._redo.append(seqs)
        else:
            state = self.state
            for seq in seqs:
                r = self.log[seq - 1]
                r.undone = False
                r.before = state
                state, _ = apply(state, r.command, ScriptedDice(r.faces))
            self._redo.pop()
        change.known = self._bump(self.state, after)
        self.state = after
        self._append(record)
        for did in list(self._timers):
            if not any(d.id == did for d in after.pending):
                self._timers.pop(did).cancel()
        return change

    @property
    def idle(self) -> bool:
        """Nobody listens (no page, no API socket) and nothing is under way: no command being played or caught up,
        no time limit running, no write unfinished. An idle table may be dropped from memory (`Games.unload_idle`)
        and loaded again from its log."""
        busy = self._lock.locked() or self._timers or any(not t.done() for t in self._tasks)
        writing = self._last_write is not None and not self._last_write.done()
        catching_up = self._catch_up_task is not None and not self._catch_up_task.done()
        return not self._listeners and not busy and not writing and not catching_up

    @property
    def behind(self) -> bool:
        """Whether other processes stored commands this table has not folded in yet (as far as it heard)."""
        return self._unsure or self._heard_seq > len(self.log)

    def heard_of(self, seq: int) -> None:
        """Another process stored a command at `seq`. With someone listening here it is folded in soon (in one
        look at the log for every message heard meanwhile); with nobody, only when it is needed: when someone
        comes (`catch_up_if_behind`, `subscribe`) or a command is played here."""
        self._heard_seq = max(self._heard_seq, seq)
        if self.behind and self._listeners:
            self._catch_up_soon()

    def may_be_behind(self) -> None:
        """Messages of the other processes were lost (the feed's connection was down): look in the log."""
        self._unsure = True
        if self._listeners:
            self._catch_up_soon()

    async def catch_up_if_behind(self) -> None:
        if self.behind:
            await self.catch_up()

    def _catch_up_soon(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not on the event loop: the next command or newcomer catches up
        if self._catch_up_task is None or self._catch_up_task.done():
            self._catch_up_task = loop.create_task(self._catch_up_when_behind())

    async def _catch_up_when_behind(self) -> None:
        while self.behind:  # what was heard while this looked at the log is looked for again
            known = len(self.log)
            await self.catch_up()
            if len(self.log) == known:
                return  # nothing there yet: the next command or newcomer looks again

    async def catch_up(self) -> None:
        """Fold in the commands other processes stored since this table last looked, then tell everyone."""
        if self.engine is None or self.game_id is None:
            return
        async with self._lock:
            changes = await self._catch_up_locked()
        for change in changes:
            self._tell(change)

    async def _catch_up_locked(self) -> list[Change]:
        if self.engine is None or self.game_id is None:
            return []
        self._unsure = False  # the look below sees everything committed before it
        rows = await asyncio.to_thread(db.load_log, self.engine, self.game_id, len(self.log))
        changes: list[Change] = []
        for r in rows:
            if r["seq"] != len(self.log) + 1:
                break
            changes.append(
                self._fold(LogRecord(r["seq"], r["sender"], r["command"], r["faces"], r["events"], r["time"]))
            )
        if changes:
            await self._remember(self.state)
        return changes

    def _rebuild_before(self, seq: int | None = None) -> None:
        """Replay the log so that the played command `seq` (every one, without it) knows the state before it (a game
        loaded from a snapshot, or older than the states kept, does not until it needs to): from the newest stored
        snapshot before `seq` that no later undo or redo reaches back past, else from the starting state; each
        command on the way learns it too. A state kept already is kept (the replay goes on from it); the snapshot's
        creatures equal to the table's are the table's own objects: only the creatures an undo changes count as
        changed."""
        start, start_after = self.initial, 0
        if seq is not None and self.engine is not None and self.game_id is not None:
            found = _snapshot_to_load(self.engine, self.game_id, self.log, below=seq)
            if found is not None:
                start, start_after = GameState.model_validate(found[1]), found[0]
        end = len(self.log) if seq is None else seq
        todo = [r for r in self.log[start_after:end] if r.is_play and not r.undone]
        unknown = [i for i, r in enumerate(todo) if r.before is None]
        if not unknown:
            return
        state = _sharing(start, self.state)
        with positions.replaying():
            for r in todo[: unknown[-1]]:
                if r.before is None:
                    r.before = state
                else:
                    state = r.before
                state, _ = apply(state, r.command, ScriptedDice(r.faces))
        todo[unknown[-1]].before = state

    def _time_limit(self, kind: str) -> float:
        """How long a decision of this kind waits before the table answers it (0: it waits for its answer)."""
        settings = self.state.settings
        if kind == "reaction":
            return settings.reaction_seconds
        if kind == "defense":
            return settings.defense_seconds
        return 0

    def _arm_reaction_timers(self) -> None:
        """A reaction waits the table's `reaction_seconds`, a defense its `defense_seconds`; then the decision gets
        the table's `reaction_timeout` or `defense_timeout` answer, sent by the time limit in the Soulweaver's name
        (who may answer for anyone)."""
        self._deadlines = {k: v for k, v in self._deadlines.items() if k in self._timers}
        for d in self.state.pending:
            seconds = self._time_limit(d.kind)
            if seconds > 0 and d.id not in self._timers:
                self._timers[d.id] = self.clock.call_later(seconds, partial(self._fire, d.id))
                self._deadlines[d.id] = self.clock.now() + seconds

    def _fire(self, decision_id: str) -> None:
        self._tasks.add(asyncio.ensure_future(self._time_out(decision_id)))

    async def _time_out(self, decision_id: str) -> None:
        self._timers.pop(decision_id, None)
        self._tasks = {t for t in self._tasks if not t.done()}
        decision = next((d for d in self.state.pending if d.id == decision_id), None)
        if decision is None:
            return
        settings = self.state.settings
        if decision.kind == "defense":
            roll = settings.defense_timeout == "roll"
            command: dict[str, Any] = {"type": "defend", "decision": decision_id, "roll": roll}
        else:
            command = {"type": "react", "decision": decision_id, "hinder": settings.reaction_timeout == "hinder"}
        await self.submit(Viewer("soulweaver", TIME_LIMIT), command)

    async def settle(self) -> None:
        """Wait until the answers of the time limits that ran out are played."""
        while pending := [t for t in self._tasks if not t.done()]:
            await asyncio.gather(*pending)

    def deadline(self, decision_id: str) -> float | None:
        """When the time limit answers this decision, in seconds since the epoch (None: it waits for its answer)."""
        return self._deadlines.get(decision_id) if decision_id in self._timers else None

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        if not self._shared_writer:
            self._writer.shutdown(wait=True)
        else:  # the writer is the database's, shared with its other games
            self.wait_for_writes()

    def wait_for_writes(self) -> None:
        """Block until the writer thread has stored what this table handed it (commands, snapshots)."""
        wait([f for f in (self._last_write, self._last_snapshot) if f is not None])


def _append_command(*args: Any) -> None:
    """`db.append_command`, in the database writer's thread."""
    latency_trace.mark("writing")
    db.append_command(*args)
    latency_trace.mark("written")


def _store_snapshot(engine: Engine, game_id: int, seq: int, state: GameState) -> None:
    """`db.store_snapshot` of the state after the command `seq`, dumped here, in the database writer's thread. A
    field at its default is left out (loading puts it back): on the 500-creature map 43 KB instead of 1.2 MB, for
    about the same processor time (a slower dump, a far shorter text to write)."""
    db.store_snapshot(engine, game_id, seq, state.model_dump(mode="json", exclude_defaults=True))


def _snapshot_failed(future: Future[None]) -> None:
    """A snapshot not stored is logged; the game goes on (a restart replays from the one before)."""
    if not future.cancelled() and (exc := future.exception()) is not None:
        log.error("a snapshot of a game could not be stored", exc_info=exc)


def _summary(record: LogRecord) -> str:
    first = record.events[0]["text"] if record.events else record.kind
    return str(first)
