"""One live game: who may send which command, the rules core, the log in the database, and the listeners.

A command goes: permission check (the server never trusts the browser) -> `rules.apply` with recorded dice ->
committed to the database -> the new state is taken -> every listener is told. A rejected command changes
nothing anywhere and its sender gets the reason.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from pydantic import ValidationError
from sqlalchemy.engine import Engine

from vtt.rules import GameState, RuleError, apply, parse_command
from vtt.rules.commands import (
    Afflict,
    Begin,
    ChooseOrder,
    Command,
    Defend,
    EditCreature,
    EndTurn,
    Harm,
    Heal,
    Place,
    React,
)
from vtt.rules.dice import DiceSource, RandomDice, RecordingDice, ScriptedDice
from vtt.rules.model import SOULWEAVER
from vtt.store import db

Role = Literal["soulweaver", "player"]
TIME_LIMIT = "time limit"
"""The sender of the answers the table gives when a reaction's time runs out (with the Soulweaver's rights)."""


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


@dataclass
class LogRecord:
    seq: int
    sender: str
    command: dict[str, Any]
    faces: list[int]
    events: list[dict[str, Any]]
    time: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))


@dataclass
class Change:
    before: GameState
    after: GameState
    record: LogRecord

    @property
    def changed_creatures(self) -> set[str]:
        ids = set(self.before.creatures) | set(self.after.creatures)
        return {cid for cid in ids if self.before.creatures.get(cid) is not self.after.creatures.get(cid)}


class Listener(Protocol):
    def table_changed(self, change: Change) -> None: ...


@dataclass
class Outcome:
    ok: bool
    error: str | None = None
    record: LogRecord | None = None


def _command_creature(cmd: Command) -> str | None:
    return getattr(cmd, "creature", None)


class Table:
    def __init__(
        self,
        name: str,
        initial: GameState,
        engine: Engine | None = None,
        game_id: int | None = None,
        dice: Callable[[], DiceSource] = RandomDice,
    ) -> None:
        self.name = name
        self.initial = initial
        self.state = initial
        self.log: list[LogRecord] = []
        self.engine = engine
        self.game_id = game_id
        self._dice = dice()
        self._listeners: weakref.WeakSet[Any] = weakref.WeakSet()
        self._lock = asyncio.Lock()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Future[None]] = set()
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"vtt-db-{name}")

    @classmethod
    def open(cls, engine: Engine, name: str, initial: GameState, dice: Callable[[], DiceSource] = RandomDice) -> Table:
        """The stored game called `name`, rebuilt from its log; created from `initial` if there is none."""
        found = db.find_game(engine, name)
        if found is None:
            game_id = db.create_game(engine, name, initial.model_dump(mode="json"))
            return cls(name, initial, engine, game_id, dice)
        game_id, start = found
        table = cls(name, GameState.model_validate(start), engine, game_id, dice)
        for row in db.load_log(engine, game_id):
            table.state, _ = apply(table.state, row["command"], ScriptedDice(row["faces"]))
            table.log.append(LogRecord(row["seq"], row["sender"], row["command"], row["faces"], row["events"]))
        return table

    def subscribe(self, listener: Listener) -> None:
        self._listeners.add(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.discard(listener)

    def permission_error(self, viewer: Viewer, cmd: Command) -> str | None:
        """Why `viewer` may not send `cmd`, or None. The Soulweaver may send anything."""
        if viewer.is_soulweaver:
            return None
        state = self.state
        if isinstance(cmd, Begin | Place | ChooseOrder | EditCreature | Harm | Heal | Afflict):
            return "only the Soulweaver can do that"
        if isinstance(cmd, Defend | React):
            decision = next((d for d in state.pending if d.id == cmd.decision), None)
            if decision is None or decision.to != viewer.key:
                return "that decision is not yours to answer"
            return None
        if isinstance(cmd, EndTurn):
            current = state.turn.current
            c = state.creatures.get(current or "")
            if c is None or c.controller != viewer.key:
                return "it is not your creature's turn"
            return None
        cid = _command_creature(cmd)
        c = state.creatures.get(cid or "")
        if c is None or c.controller != viewer.key:
            return "you can only act for your own creatures"
        return None

    def check(self, viewer: Viewer, command: dict[str, Any]) -> tuple[Command | None, str | None]:
        try:
            cmd = parse_command(command)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            return None, f"malformed command: {where}: {first['msg']}"
        return cmd, self.permission_error(viewer, cmd)

    async def submit(self, viewer: Viewer, command: dict[str, Any]) -> Outcome:
        async with self._lock:
            cmd, error = self.check(viewer, command)
            if error or cmd is None:
                return Outcome(False, error)
            dice = RecordingDice(self._dice)
            try:
                after, events = apply(self.state, cmd, dice)
            except RuleError as exc:
                return Outcome(False, str(exc))
            record = LogRecord(
                seq=len(self.log) + 1,
                sender=TIME_LIMIT if viewer.is_soulweaver and viewer.name == TIME_LIMIT else viewer.key,
                command=cmd.model_dump(mode="json"),
                faces=list(dice.used),
                events=[e.model_dump(mode="json") for e in events],
            )
            if self.engine is not None and self.game_id is not None:
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(
                    self._writer,
                    db.append_command,
                    self.engine,
                    self.game_id,
                    record.seq,
                    record.sender,
                    record.command,
                    record.faces,
                    record.events,
                )
            change = Change(self.state, after, record)
            self.state = after
            self.log.append(record)
        for listener in list(self._listeners):
            listener.table_changed(change)
        self._arm_reaction_timers()
        return Outcome(True, None, record)

    def _arm_reaction_timers(self) -> None:
        """A reaction waits the table's `reaction_seconds`; then it gets the table's `reaction_timeout` answer,
        sent in the Soulweaver's name (who may answer for anyone)."""
        seconds = self.state.settings.reaction_seconds
        if seconds <= 0:
            return
        for d in self.state.pending:
            if d.kind == "reaction" and d.id not in self._timers:
                self._timers[d.id] = asyncio.get_running_loop().call_later(seconds, self._fire, d.id)

    def _fire(self, decision_id: str) -> None:
        self._tasks.add(asyncio.ensure_future(self._time_out(decision_id)))

    async def _time_out(self, decision_id: str) -> None:
        self._timers.pop(decision_id, None)
        self._tasks = {t for t in self._tasks if not t.done()}
        if any(d.id == decision_id for d in self.state.pending):
            hinder = self.state.settings.reaction_timeout == "hinder"
            await self.submit(
                Viewer("soulweaver", TIME_LIMIT), {"type": "react", "decision": decision_id, "hinder": hinder}
            )

    def waiting_since(self, decision_id: str) -> float | None:
        timer = self._timers.get(decision_id)
        return timer.when() if timer else None

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._writer.shutdown(wait=True)
