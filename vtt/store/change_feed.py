"""Hearing what the other `vtt` processes stored: PostgreSQL `LISTEN` on `db.CHANGES_CHANNEL`.

Several processes serve the same games through one PostgreSQL database. Each one, after committing a command or a
change of seats, says so on the channel (`db.notify`, and `append_command` in the command's own transaction). A
`ChangeFeed` holds one connection of its own listening there, in a thread, and hands each message to the event
loop, the messages that came together in one call of the loop (under load, one wake-up of the loop for many
commands). When the connection is lost (the database restarted, a network blip) it reconnects and asks for a full
catch-up (`resync`): the messages sent meanwhile were lost, the log was not.

On SQLite there is one process (a second one is refused, `vtt.store.single_process`) and no feed.

What the feed did is counted (`ChangeFeed.counts`: messages heard, dropped as this process's own or of games it
does not hold, handed to the loop, calls of the loop), and, with `VTT_FEED_COUNTS=<file>` (a hidden option, for
`bench/scale.py`), written to that file as JSON when it stops, with `db.LOG_READS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import psycopg
from sqlalchemy.engine import Engine

from vtt.store.db import CHANGES_CHANNEL, LOG_READS

COUNTS_ENV = "VTT_FEED_COUNTS"

WAIT_SECONDS = 0.5
"""How often the listening thread looks whether it was asked to stop."""
RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Waits between attempts to reconnect (the last one repeats)."""

Kind = Literal["log", "seats", "pointer"]


@dataclass(frozen=True)
class Heard:
    """One message from another process: a command stored at `seq` of `game`'s log, the game's seats changed, or a
    ruler or ping shown at the game (`pointer`, its message in `data`: `vtt.table.pointers`)."""

    kind: Kind
    game: int
    seq: int = 0
    data: dict[str, Any] | None = field(default=None, compare=False)
    origin: str = field(default="", compare=False)
    """The process that said it (`db.origin_of`), when it says."""


def parse(message: str) -> Heard | None:
    """The message `db.notify` sent, or None for anything else on the channel."""
    parts = message.split(maxsplit=2)
    if len(parts) < 2 or not parts[1].isdigit():
        return None
    game = int(parts[1])
    if parts[0] == "log" and len(parts) == 3:
        seq, _, origin = parts[2].partition(" ")
        if seq.isdigit() and (not origin or origin.isalnum()):
            return Heard("log", game, int(seq), origin=origin)
        return None
    if parts[0] == "seats" and (len(parts) == 2 or parts[2].isalnum()):
        return Heard("seats", game, origin=parts[2] if len(parts) == 3 else "")
    if parts[0] == "pointer" and len(parts) == 3:
        with contextlib.suppress(ValueError):
            data = json.loads(parts[2])
            if isinstance(data, dict):
                return Heard("pointer", game, data=data)
    return None


def listen_url(engine: Engine) -> str | None:
    """A psycopg connection string for the engine's database, or None when it is not PostgreSQL."""
    if engine.dialect.name != "postgresql":
        return None
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class ChangeFeed:
    """Calls `heard(message)` on `loop` for every message of the other processes, and `resync()` after the
    connection was (re)made, since messages sent while it was down are lost."""

    def __init__(
        self,
        url: str,
        loop: asyncio.AbstractEventLoop,
        heard: Callable[[Heard], None],
        resync: Callable[[], None],
        origin: str = "",
        holds: Callable[[int], bool] | None = None,
    ) -> None:
        self.url, self.loop, self.heard, self.resync = url, loop, heard, resync
        self.origin = origin
        """This process (`db.origin_of`): what it said itself is dropped here, in the listening thread, without
        waking the event loop (every process hears every command stored, its own too)."""
        self.holds = holds
        """Whether this process has a game loaded: commands and pointers of the others are dropped here too (one
        loading it later reads its log; seats are always handed over: what is kept of them is dropped)."""
        self._stop = threading.Event()
        self._listening = threading.Event()
        self._heard: list[Heard] = []
        self._heard_lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        """Messages `heard`, dropped as `own` or `not held`, `handed` to the loop (and by kind: `handed log`...),
        and the loop's `calls` that took them."""
        self._thread = threading.Thread(target=self._run, name="vtt-change-feed", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wait_listening(self, seconds: float) -> bool:
        """Whether the feed listens (within `seconds`): what was committed after this is heard."""
        return self._listening.wait(seconds)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        if path := os.environ.get(COUNTS_ENV):
            Path(path).write_text(json.dumps({"feed": self.counts, "log reads": LOG_READS}))

    def _run(self) -> None:
        attempt = 0
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANGES_CHANNEL}")
                    attempt = 0
                    if not first:
                        self._call(self.resync)
                    first = False
                    self._listening.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=WAIT_SECONDS):
                            self.counts["heard"] += 1
                            found = parse(note.payload)
                            if found is not None and self._wanted(found):
                                self._hand_over(found)
            except psycopg.Error:
                self._listening.clear()
                wait = RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]
                attempt += 1
                first = False
                self._stop.wait(wait)

    def _wanted(self, heard: Heard) -> bool:
        if self.origin and heard.origin == self.origin:
            self.counts["own"] += 1
            return False
        if heard.kind == "seats" or self.holds is None or self.holds(heard.game):
            self.counts.update(("handed", f"handed {heard.kind}"))
            return True
        self.counts["not held"] += 1
        return False

    def _hand_over(self, heard: Heard) -> None:
        """Queue `heard` for the loop; one call of the loop takes every message queued until it runs."""
        with self._heard_lock:
            self._heard.append(heard)
            if len(self._heard) > 1:
                return  # the call that takes it is on its way
        self._call(self._deliver)

    def _deliver(self) -> None:
        self.counts["calls"] += 1
        with self._heard_lock:
            batch, self._heard = self._heard, []
        for heard in batch:
            self.heard(heard)

    def _call(self, fn: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed while stopping
            self.loop.call_soon_threadsafe(fn)
