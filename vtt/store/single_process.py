"""One process to an SQLite database: a second `vtt` process on the same file is refused at start.

SQLite keeps each game's live state in the memory of the one process serving it; a second process on the same
file would never hear the first one's commands (there is no LISTEN on SQLite) and the two would drift apart.
Several processes share games through PostgreSQL instead (`vtt.store.change_feed`).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from sqlalchemy.engine import Engine


class SecondProcess(Exception):
    """Another `vtt` process already serves this SQLite database."""


_held: list[int] = []
"""The lock files' descriptors, open for the life of the process (closing one would release its lock)."""


def lock_path(engine: Engine) -> Path | None:
    """The lock file beside an SQLite database file; None for PostgreSQL or an in-memory database."""
    if engine.dialect.name != "sqlite" or not engine.url.database or engine.url.database == ":memory:":
        return None
    return Path(engine.url.database).resolve().with_name(Path(engine.url.database).name + ".lock")


def claim(engine: Engine) -> None:
    """Hold the database's lock for the rest of this process, or raise `SecondProcess` saying what to do."""
    path = lock_path(engine)
    if path is None:
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise SecondProcess(
            f"another vtt process is already serving the SQLite database {engine.url.database}. "
            "To run several processes, give them one PostgreSQL database "
            "(--database postgresql://user:password@host/dbname, or DATABASE_URL)."
        ) from None
    _held.append(fd)
