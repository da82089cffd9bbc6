"""Opening the database and reading and writing games, seats, invitations, the command log and snapshots.

SQLite (WAL) in a file by default, any SQLAlchemy URL (PostgreSQL) by `DATABASE_URL`. The schema is brought up to
date by the Alembic migrations when the database is opened. Every write commits before it returns, so a command's
result is shown to nobody before it is stored.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import psycopg
from alembic import command as alembic_command
from alembic.config import Config
from psycopg.errors import IntegrityError as PgIntegrityError
from sqlalchemy import (
    ColumnElement,
    Select,
    String,
    Table,
    Text,
    bindparam,
    cast,
    event,
    insert,
    inspect,
    text,
    type_coerce,
)
from sqlalchemy import select as core_select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.pool import QueuePool
from sqlmodel import Session, col, create_engine, func, select

from vtt.store.images import BACKGROUND, PICTURE_PURPOSE, background_path
from vtt.store.models import (
    CommandRow,
    GameRow,
    InvitationRow,
    LibraryCreatureRow,
    MembershipRow,
    ServerSettingRow,
    SnapshotRow,
    UploadRow,
    UserRow,
)

COMMAND_TABLE: Table = CommandRow.__table__  # type: ignore[attr-defined]
SNAPSHOT_TABLE: Table = SnapshotRow.__table__  # type: ignore[attr-defined]
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
FIRST_REVISION = "0001"
GAME_ID_MAX = 2**31 - 1
"""The largest game id a database stores (PostgreSQL's `integer`); a bigger number names no game."""
CHANGES_CHANNEL = "vtt_changes"
"""The PostgreSQL channel on which every process says what it stored (`notify`) and hears the others
(`vtt.store.change_feed`): `log <game> <seq> <origin>` for a command, `seats <game> <origin>` for seats, invitations
and watching (`origin`: who said it, `origin_of`)."""
NOTIFY_BYTES_MAX = 7_900
"""A notification's payload (PostgreSQL refuses 8,000 bytes and more)."""
BUSY_TIMEOUT_MS = 5000
"""How long a SQLite connection waits for another one's write lock."""
AUTOCHECKPOINT_PAGES = 1000
"""SQLite's default: a commit that leaves this many pages in the log file copies them into the database."""
MIGRATION_LOCK = 7_454_001
"""The PostgreSQL advisory lock held while migrating, so that processes starting together migrate one at a time."""


_ORIGINS: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()


def origin_of(engine: Engine) -> str:
    """The token that marks what this engine (one per process) says on `CHANGES_CHANNEL`, so that the process can
    tell its own messages from the others' (it folded its own commands in already)."""
    found = _ORIGINS.get(engine)
    if found is None:
        found = _ORIGINS.setdefault(engine, secrets.token_hex(6))
    return found


class SeqTaken(Exception):
    """Another process stored a command at this place of the game's log first: catch up and try again."""


@dataclass(frozen=True)
class GameInfo:
    id: int
    name: str
    map: str
    created: datetime
    commands: int
    watchable: bool = False


@dataclass(frozen=True)
class Upload:
    content_type: str
    data: bytes
    created: datetime


@dataclass(frozen=True)
class LibraryCreature:
    """A creature made in the library form: its library key (`user:<slug>`), name and entry data."""

    key: str
    name: str
    data: dict[str, Any]
    updated: datetime


@dataclass(frozen=True)
class Seat:
    """Someone's place at a game: their role, the key their creatures know them by, and their link's secret."""

    game_id: int
    role: str
    key: str
    name: str
    secret: str


def normalise_url(url: str) -> str:
    """`postgresql://` URLs use the psycopg 3 driver that the project installs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def open_engine(url: str) -> Engine:
    engine = create_engine(normalise_url(url))
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # WAL with NORMAL: a commit is in the log file when it returns, so a killed or crashed server loses
            # nothing; only a power cut or an operating system crash may lose the last few commits (never half of
            # one: the database stays whole). FULL waited for the disk on every move (median 9 ms, p95 30 ms on a
            # busy 2-core machine, against 0.6 ms), before anyone saw the move.
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    migrate(engine)
    return engine


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to `revision`. A database made before migrations existed (the first schema, made by
    `create_all`) is recognised and stamped with the first revision before upgrading."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        tables = set(inspect(connection).get_table_names())
        if "game" in tables and "alembic_version" not in tables:
            alembic_command.stamp(config, FIRST_REVISION)
        alembic_command.upgrade(config, revision)


def list_games(engine: Engine) -> list[GameInfo]:
    with Session(engine) as session:
        counts: dict[int, int] = dict(
            session.exec(select(CommandRow.game_id, func.count()).group_by(col(CommandRow.game_id))).all()
        )
        # the columns shown only: a game's whole starting state (megabytes for a big map) is not read to list it
        listed = select(GameRow.id, GameRow.name, GameRow.map, GameRow.created)
        rows = session.exec(listed.order_by(col(GameRow.created).desc())).all()
        watchable: dict[int | None, bool] = dict(session.exec(select(GameRow.id, GameRow.watchable)).all())
        return [
            GameInfo(gid or 0, name, map_name, created, counts.get(gid or 0, 0), watchable.get(gid, False))
            for gid, name, map_name, created in rows
        ]


def find_game(engine: Engine, name: str) -> tuple[int, dict[str, Any]] | None:
    with Session(engine) as session:
        row = session.exec(select(GameRow).where(GameRow.name == name)).first()
        if row is None or row.id is None:
            return None
        return row.id, dict(row.initial_state)


def get_game(engine: Engine, game_id: int) -> tuple[str, dict[str, Any]] | None:
    if not 0 < game_id <= GAME_ID_MAX:
        return None
    with Session(engine) as session:
        row = session.get(GameRow, game_id)
        return None if row is None else (row.name, dict(row.initial_state))


def create_game(engine: Engine, name: str, initial_state: dict[str, Any], map_name: str = "") -> int:
    with Session(engine) as session:
        row = GameRow(name=name, initial_state=initial_state, map=map_name)
        session.add(row)
        session.flush()
        game_id = row.id  # read before the commit: afterwards it would load the whole row (its state) back
        session.commit()
        assert game_id is not None
        return game_id


def add_seat(engine: Engine, game_id: int, name: str, role: str, key: str | None = None) -> Seat:
    """A new person at the game. Their key is their name, made unique within the game (`Sam`, `Sam 2`...)."""
    with Session(engine) as session:
        taken = set(session.exec(select(MembershipRow.key).where(MembershipRow.game_id == game_id)).all())
        base = key or name
        unique, n = base, 1
        while unique in taken:
            n += 1
            unique = f"{base} {n}"
        user = UserRow(name=name)
        session.add(user)
        session.flush()
        assert user.id is not None
        seat = MembershipRow(game_id=game_id, user_id=user.id, role=role, key=unique, secret=secrets.token_urlsafe(18))
        session.add(seat)
        session.commit()
        return Seat(game_id, role, unique, name, seat.secret)


def _seat(m: MembershipRow, u: UserRow) -> Seat:
    return Seat(m.game_id, m.role, m.key, u.name, m.secret)


def find_seat(engine: Engine, secret: str) -> Seat | None:
    with Session(engine) as session:
        row = session.exec(
            select(MembershipRow, UserRow)
            .join(UserRow, col(UserRow.id) == col(MembershipRow.user_id))
            .where(MembershipRow.secret == secret)
        ).first()
        return None if row is None else _seat(*row)


def seats(engine: Engine, game_id: int) -> list[Seat]:
    with Session(engine) as session:
        rows = session.exec(
            select(MembershipRow, UserRow)
            .join(UserRow, col(UserRow.id) == col(MembershipRow.user_id))
            .where(MembershipRow.game_id == game_id)
            .order_by(col(MembershipRow.id))
        ).all()
        return [_seat(m, u) for m, u in rows]


def create_invitation(engine: Engine, game_id: int) -> str:
    with Session(engine) as session:
        row = InvitationRow(game_id=game_id, secret=secrets.token_urlsafe(12))
        session.add(row)
        session.commit()
        return row.secret


def open_invitations(engine: Engine, game_id: int) -> list[str]:
    with Session(engine) as session:
        rows = session.exec(
            select(InvitationRow)
            .where(InvitationRow.game_id == game_id, InvitationRow.revoked == False)  # noqa: E712
            .order_by(col(InvitationRow.id))
        ).all()
        return [r.secret for r in rows]


def invitation_game(engine: Engine, secret: str) -> int | None:
    """The game an invitation is to, or None when it does not exist or was revoked."""
    with Session(engine) as session:
        row = session.exec(select(InvitationRow).where(InvitationRow.secret == secret)).first()
        return None if row is None or row.revoked else row.game_id


def revoke_invitation(engine: Engine, game_id: int, secret: str) -> bool:
    with Session(engine) as session:
        row = session.exec(
            select(InvitationRow).where(InvitationRow.secret == secret, InvitationRow.game_id == game_id)
        ).first()
        if row is None or row.revoked:
            return False
        row.revoked = True
        session.add(row)
        session.commit()
        return True


def time_text(when: datetime) -> str:
    """A stored time as ISO 8601 text in UTC, to the second (a database may keep it without its zone: UTC)."""
    aware = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    return aware.isoformat(timespec="seconds")


def parse_time(text: str) -> datetime:
    """ISO 8601 text as a time in UTC (text without a zone is UTC); ValueError if it is not a time."""
    when = datetime.fromisoformat(text)
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


LOG_READS: Counter[str] = Counter()
"""What `load_log` read in this process: its `reads` and their `rows` (a game loaded, or catching up with the
commands other processes stored: `vtt.store.change_feed`'s counts show them)."""
_LOG_READS_LOCK = threading.Lock()


def load_log(engine: Engine, game_id: int, after: int = 0) -> list[dict[str, Any]]:
    """The game's commands after `after`, in order: seq, sender, command, faces, events and time (when it was
    stored, ISO 8601 UTC)."""
    return [
        {
            "seq": r.seq,
            "sender": r.sender,
            "command": json.loads(r.command),
            "faces": json.loads(r.faces),
            "events": json.loads(r.events),
            "time": r.time,
        }
        for r in load_log_texts(engine, game_id, after)
    ]


class StoredCommand(NamedTuple):
    """A command of the log as stored: its command, faces and events as the JSON text the database holds."""

    seq: int
    sender: str
    command: str
    faces: str
    events: str
    time: str


def _log_texts(created: ColumnElement[Any]) -> Select[Any]:
    return (
        core_select(
            COMMAND_TABLE.c.seq,
            COMMAND_TABLE.c.sender,
            cast(COMMAND_TABLE.c.command, Text),
            cast(COMMAND_TABLE.c.faces, Text),
            cast(COMMAND_TABLE.c.events, Text),
            created,
        )
        .where(COMMAND_TABLE.c.game_id == bindparam("game_id"), COMMAND_TABLE.c.seq > bindparam("after"))
        .order_by(COMMAND_TABLE.c.seq)
    )


_LOG_TEXTS = _log_texts(COMMAND_TABLE.c.created)
"""Rows, not ORM objects: building a `CommandRow` and decoding its JSON took most of a 10,000-command game's load."""
_LOG_TEXTS_SQLITE = _log_texts(type_coerce(COMMAND_TABLE.c.created, String))
"""SQLite keeps a time as text: read as it is (`sqlite_time_text`), not parsed into a time to be written out again
(a third of the reading of a 10,000-command log)."""
_SQLITE_TIME = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{6})?", re.ASCII)
"""A time as SQLAlchemy writes it in SQLite (`YYYY-MM-DD HH:MM:SS.ffffff`, UTC)."""


def sqlite_time_text(stored: str) -> str:
    """`time_text` of a time SQLite holds as text, as SQLAlchemy reads it (`datetime.fromisoformat`): the text of
    SQLAlchemy's own form cut to the second, any other form read."""
    if _SQLITE_TIME.fullmatch(stored):
        return f"{stored[:10]}T{stored[11:19]}+00:00"
    return time_text(datetime.fromisoformat(stored))


def load_log_texts(engine: Engine, game_id: int, after: int = 0) -> list[StoredCommand]:
    """`load_log` with the command, faces and events left as the JSON text stored (the table decodes what it reads:
    a loaded game's old events are kept as text, `LogRecord.pack`)."""
    in_sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        query = _LOG_TEXTS_SQLITE if in_sqlite else _LOG_TEXTS
        rows = connection.execute(query, {"game_id": game_id, "after": after}).all()
    with _LOG_READS_LOCK:
        LOG_READS.update({"reads": 1, "rows": len(rows)})
    when = sqlite_time_text if in_sqlite else time_text
    return [StoredCommand(seq, sender, c, f, e, when(t)) for seq, sender, c, f, e, t in rows]


def game_record(engine: Engine, game_id: int) -> tuple[str, str, dict[str, Any]] | None:
    """The game's name, the map it was made from and its starting state."""
    if not 0 < game_id <= GAME_ID_MAX:
        return None
    with Session(engine) as session:
        row = session.get(GameRow, game_id)
        return None if row is None else (row.name, row.map, dict(row.initial_state))


def _renamed(value: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """`value` with every string equal to `old` replaced by `new`."""

    def walk(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return new if v == old else v

    out: dict[str, Any] = walk(value)
    return out


def store_imported_game(
    engine: Engine,
    name: str,
    initial_state: dict[str, Any],
    map_name: str,
    log: Sequence[dict[str, Any]],
    seats: Sequence[tuple[str, str, str]],
    background: tuple[str, str, bytes] | None = None,
    pictures: Sequence[tuple[str, str, bytes]] = (),
) -> tuple[int, list[Seat], str]:
    """A whole game in one transaction: the game, its log (each command with its time), its seats (name, role, key),
    an invitation and its map's picture (`(path, type, bytes)`: the picture is served at the new game's own path,
    and the starting state and commands that named the old path name the new one) and its token pictures (`(hash,
    type, bytes)`). Nothing is stored if any of it fails."""
    with Session(engine) as session:
        game = GameRow(name=name, initial_state=initial_state, map=map_name)
        session.add(game)
        session.flush()
        assert game.id is not None
        commands = [r["command"] for r in log]
        if background is not None:
            old, content_type, data = background
            new = background_path(game.id)
            game.initial_state = _renamed(initial_state, old, new)
            commands = [_renamed(c, old, new) for c in commands]
            session.add(
                UploadRow(game_id=game.id, purpose=BACKGROUND, content_type=content_type, data=data, size=len(data))
            )
        for digest, content_type, data in pictures:
            purpose = PICTURE_PURPOSE + digest
            session.add(
                UploadRow(game_id=game.id, purpose=purpose, content_type=content_type, data=data, size=len(data))
            )
        for r, command in zip(log, commands, strict=True):
            session.add(
                CommandRow(
                    game_id=game.id,
                    seq=r["seq"],
                    sender=r["sender"],
                    command=command,
                    faces=r["faces"],
                    events=r["events"],
                    created=parse_time(r["time"]),
                )
            )
        out: list[Seat] = []
        for person, role, key in seats:
            user = UserRow(name=person)
            session.add(user)
            session.flush()
            assert user.id is not None
            seat = MembershipRow(game_id=game.id, user_id=user.id, role=role, key=key, secret=secrets.token_urlsafe(18))
            session.add(seat)
            out.append(Seat(game.id, role, key, person, seat.secret))
        invitation = InvitationRow(game_id=game.id, secret=secrets.token_urlsafe(12))
        session.add(invitation)
        secret = invitation.secret
        game_id = game.id
        session.commit()
        return game_id, out, secret


def _command_row(
    game_id: int, seq: int, sender: str, command: dict[str, Any], faces: list[int], events: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seq": seq,
        "sender": sender,
        "command": command,
        "faces": faces,
        "events": events,
        "created": datetime.now(UTC),
    }


def stores_at_once(engine: Engine) -> bool:
    """Whether `append_command_at_once` may be tried: a SQLite file (a commit there is a write to its log file, a
    fraction of a millisecond; a server database answers over the network, and an in-memory SQLite database is
    one connection's own)."""
    return engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:")


def append_command_at_once(
    engine: Engine,
    game_id: int,
    seq: int,
    sender: str,
    command: dict[str, Any],
    faces: list[int],
    events: list[dict[str, Any]],
) -> bool:
    """`append_command` in the calling thread (the event loop) without ever waiting: False, and nothing stored, when
    another connection holds the database's write lock (the caller hands the command to its writer thread then).

    On the loop the commit costs about 0.2 ms; in the writer thread it cost two thread hops, each a wake-up that a
    busy machine may delay by tens of milliseconds, before anyone saw the move. The connection neither waits for
    the lock (`busy_timeout` 0) nor checkpoints the log file into the database after the commit (which waits for
    the disk): the writer thread's commits checkpoint as usual. Nor does it wait for a connection of the pool
    while threads hold them all."""
    pool = engine.pool
    if isinstance(pool, QueuePool) and pool.checkedin() == 0 and pool.checkedout() >= pool.size():
        return False
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA busy_timeout=0")
        connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
        try:
            connection.execute(insert(COMMAND_TABLE), _command_row(game_id, seq, sender, command, faces, events))
            connection.commit()
        except IntegrityError as exc:
            connection.rollback()
            raise SeqTaken(f"game {game_id} already has a command {seq}") from exc
        except OperationalError as exc:
            connection.rollback()
            if "locked" in str(exc.orig) or "busy" in str(exc.orig):
                return False
            raise
        finally:
            connection.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            connection.exec_driver_sql(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
            connection.commit()
    return True


def append_command(
    engine: Engine,
    game_id: int,
    seq: int,
    sender: str,
    command: dict[str, Any],
    faces: list[int],
    events: list[dict[str, Any]],
) -> None:
    """Store one command. Raises `SeqTaken` when the game's log already has a command `seq` (another process stored
    one first); on PostgreSQL the other processes are told at the commit (`notify`).

    Plain inserts, not ORM objects: every move waits for this commit before anyone sees it, and the ORM's unit of
    work took three times as long (0.5 ms against 0.15 ms of the writer thread's time, which holds the interpreter
    lock the event loop needs)."""
    if engine.dialect.name == "postgresql":
        _append_and_notify(engine, game_id, seq, sender, command, faces, events, datetime.now(UTC))
        return
    try:
        with engine.begin() as connection:
            connection.execute(insert(COMMAND_TABLE), _command_row(game_id, seq, sender, command, faces, events))
    except IntegrityError as exc:
        raise SeqTaken(f"game {game_id} already has a command {seq}") from exc


def store_snapshot(engine: Engine, game_id: int, seq: int, state: dict[str, Any]) -> None:
    """Store the game's state after its command `seq` (that command is stored already)."""
    with engine.begin() as connection:
        connection.execute(
            insert(SNAPSHOT_TABLE), {"game_id": game_id, "seq": seq, "state": state, "created": datetime.now(UTC)}
        )


_APPEND_AND_NOTIFY = (
    "WITH stored AS (INSERT INTO command (game_id, seq, sender, command, faces, events, created) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING seq) SELECT pg_notify(%s, %s) FROM stored"
)
"""A command stored and told to the other processes in one statement: one round trip to PostgreSQL, its own
transaction (the message goes out only if the row is stored)."""


def _append_and_notify(
    engine: Engine,
    game_id: int,
    seq: int,
    sender: str,
    command: dict[str, Any],
    faces: list[int],
    events: list[dict[str, Any]],
    now: datetime,
) -> None:
    """`append_command` on PostgreSQL without a snapshot: `_APPEND_AND_NOTIFY`, prepared, on a pooled connection's
    driver. Through SQLAlchemy's unit of work it was four round trips (begin, insert, notify, commit) and 0.9–1.2 ms
    of the writer thread's processor time a command, against 0.13 ms here: that thread holds the interpreter lock
    the event loop needs."""
    message = f"log {game_id} {seq} {origin_of(engine)}"
    row = (game_id, seq, sender, json.dumps(command), json.dumps(faces), json.dumps(events), now)
    pooled = engine.raw_connection()
    try:
        driver = pooled.driver_connection
        assert driver is not None
        driver.autocommit = True
        try:
            driver.execute(_APPEND_AND_NOTIFY, (*row, CHANGES_CHANNEL, message), prepare=True)
        finally:
            driver.autocommit = False
    except PgIntegrityError as exc:
        raise SeqTaken(f"game {game_id} already has a command {seq}") from exc
    finally:
        pooled.close()


APPEND_CONNECTIONS = 4
"""Connections of its own the event loop stores commands on (`append_command_async`): one command of a game at a
time, each game's commands in order, several games at once."""


class _LoopAppender:
    """`_APPEND_AND_NOTIFY` from the event loop, on a few asynchronous connections of its own (made when needed).

    The writer thread it replaces cost two thread hops a command, each a wait for the interpreter while the loop
    worked for the other games, and the game's next command waited for both behind the table's lock."""

    def __init__(self, url: str, loop: asyncio.AbstractEventLoop) -> None:
        self.url, self.loop = url, loop
        self.idle: list[psycopg.AsyncConnection[Any]] = []
        self.room = asyncio.Semaphore(APPEND_CONNECTIONS)
        self.closed = False

    async def append(self, game_id: int, seq: int, params: tuple[Any, ...]) -> None:
        async with self.room:
            conn = self.idle.pop() if self.idle else await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            try:
                await conn.execute(_APPEND_AND_NOTIFY, params, prepare=True)
            except PgIntegrityError as exc:
                self._give_back(conn)  # the statement failed, the connection is sound
                raise SeqTaken(f"game {game_id} already has a command {seq}") from exc
            except BaseException:
                conn.pgconn.finish()  # cut off mid-statement (cancelled, connection lost): not used again
                raise
            self._give_back(conn)

    def _give_back(self, conn: psycopg.AsyncConnection[Any]) -> None:
        if self.closed:
            conn.pgconn.finish()
        else:
            self.idle.append(conn)

    def close(self) -> None:
        """Close the idle connections, and those in use when they are given back (without the loop: at shutdown it
        may be gone)."""
        self.closed = True
        for conn in self.idle:
            conn.pgconn.finish()
        self.idle.clear()


_APPENDERS: weakref.WeakKeyDictionary[Engine, dict[asyncio.AbstractEventLoop, _LoopAppender]] = (
    weakref.WeakKeyDictionary()
)
"""Each engine's appenders, one for each event loop using it (a test's loops come and go: a closed one's are
closed)."""


async def append_command_async(
    engine: Engine,
    game_id: int,
    seq: int,
    sender: str,
    command: dict[str, Any],
    faces: list[int],
    events: list[dict[str, Any]],
) -> None:
    """`append_command` without a snapshot on PostgreSQL, awaited on the event loop (no thread): stored and told to
    the other processes in one statement, `SeqTaken` when another process stored a command at `seq` first."""
    loop = asyncio.get_running_loop()
    per_loop = _APPENDERS.setdefault(engine, {})
    appender = per_loop.get(loop)
    if appender is None:
        for closed in [other for other in per_loop if other.is_closed()]:
            per_loop.pop(closed).close()
        url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        appender = per_loop[loop] = _LoopAppender(url, loop)
    message = f"log {game_id} {seq} {origin_of(engine)}"
    row = (game_id, seq, sender, json.dumps(command), json.dumps(faces), json.dumps(events), datetime.now(UTC))
    await appender.append(game_id, seq, (*row, CHANGES_CHANNEL, message))


def close_async_appender(engine: Engine) -> None:
    """Close the connections `append_command_async` made for `engine` (one in use when its statement is done)."""
    for appender in _APPENDERS.pop(engine, {}).values():
        appender.close()


def notify(engine: Engine, message: str) -> None:
    """Tell the other processes (PostgreSQL only; one process on SQLite has nobody to tell)."""
    if engine.dialect.name != "postgresql":
        return
    with Session(engine) as session:
        _notify(session, message)
        session.commit()


def _notify(session: Session, message: str) -> None:
    """Queue `message` on `CHANGES_CHANNEL`; PostgreSQL delivers it when (and only if) the transaction commits."""
    if session.get_bind().dialect.name == "postgresql":
        session.connection().execute(
            text("SELECT pg_notify(:channel, :message)"), {"channel": CHANGES_CHANNEL, "message": message}
        )


def snapshot_seqs(engine: Engine, game_id: int) -> list[int]:
    """The places in the log of the game's snapshots, newest first (their states are not read)."""
    seqs = core_select(SNAPSHOT_TABLE.c.seq).where(SNAPSHOT_TABLE.c.game_id == game_id)
    with engine.connect() as connection:
        return list(connection.execute(seqs.order_by(SNAPSHOT_TABLE.c.seq.desc())).scalars())


def snapshot_state(engine: Engine, game_id: int, seq: int) -> dict[str, Any] | None:
    """The state of the game's snapshot after the command `seq`, if there is one."""
    state = core_select(SNAPSHOT_TABLE.c.state).where(SNAPSHOT_TABLE.c.game_id == game_id, SNAPSHOT_TABLE.c.seq == seq)
    with engine.connect() as connection:
        found = connection.execute(state.limit(1)).scalar()
    return None if found is None else dict(found)


def save_upload(engine: Engine, game_id: int, purpose: str, content_type: str, data: bytes) -> None:
    """Store a game's file for `purpose`, replacing the one stored before."""
    with Session(engine) as session:
        row = session.exec(select(UploadRow).where(UploadRow.game_id == game_id, UploadRow.purpose == purpose)).first()
        if row is None:
            row = UploadRow(game_id=game_id, purpose=purpose, content_type=content_type, data=data, size=len(data))
        else:
            row.content_type, row.data, row.size, row.created = content_type, data, len(data), datetime.now(UTC)
        session.add(row)
        session.commit()


def load_upload(engine: Engine, game_id: int, purpose: str) -> Upload | None:
    if not 0 < game_id <= GAME_ID_MAX:
        return None
    with Session(engine) as session:
        row = session.exec(select(UploadRow).where(UploadRow.game_id == game_id, UploadRow.purpose == purpose)).first()
        return None if row is None else Upload(row.content_type, bytes(row.data), row.created)


def library_creatures(engine: Engine) -> list[LibraryCreature]:
    """The creatures made in the library form, by name."""
    with Session(engine) as session:
        rows = session.exec(select(LibraryCreatureRow).order_by(col(LibraryCreatureRow.name))).all()
        return [LibraryCreature(r.key, r.name, dict(r.data), r.updated) for r in rows]


def library_creature(engine: Engine, key: str) -> LibraryCreature | None:
    with Session(engine) as session:
        row = session.exec(select(LibraryCreatureRow).where(LibraryCreatureRow.key == key)).first()
        return None if row is None else LibraryCreature(row.key, row.name, dict(row.data), row.updated)


def save_library_creature(engine: Engine, key: str, name: str, data: dict[str, Any]) -> None:
    """Store a library creature under `key`, replacing the one stored there before."""
    with Session(engine) as session:
        row = session.exec(select(LibraryCreatureRow).where(LibraryCreatureRow.key == key)).first()
        if row is None:
            row = LibraryCreatureRow(key=key, name=name, data=data)
        else:
            row.name, row.data, row.updated = name, data, datetime.now(UTC)
        session.add(row)
        session.commit()


def delete_library_creature(engine: Engine, key: str) -> bool:
    with Session(engine) as session:
        row = session.exec(select(LibraryCreatureRow).where(LibraryCreatureRow.key == key)).first()
        if row is None:
            return False
        session.delete(row)
        session.commit()
        return True


def setting(engine: Engine, key: str, make: Callable[[], str]) -> str:
    """The server setting `key`, made by `make` and stored the first time it is asked for."""
    with Session(engine) as session:
        row = session.get(ServerSettingRow, key)
        if row is not None:
            return row.value
        session.add(ServerSettingRow(key=key, value=make()))
        try:
            session.commit()
        except IntegrityError:  # another process made it first
            session.rollback()
        row = session.get(ServerSettingRow, key)
        assert row is not None
        return row.value


def game_watchable(engine: Engine, game_id: int) -> bool | None:
    """Whether spectators may watch the game; None when there is no such game."""
    if not 0 < game_id <= GAME_ID_MAX:
        return None
    with Session(engine) as session:  # the one column: loading the row would parse its whole starting state
        found = session.exec(select(GameRow.watchable).where(GameRow.id == game_id)).first()
        return None if found is None else bool(found)


def set_game_watchable(engine: Engine, game_id: int, watchable: bool) -> bool:
    with Session(engine) as session:
        row = session.get(GameRow, game_id)
        if row is None:
            return False
        row.watchable = watchable
        session.add(row)
        session.commit()
        return True


def replace_seat_secret(engine: Engine, game_id: int, key: str) -> Seat | None:
    """Give the game's player seat `key` a new secret (its old link opens nothing any more); None if there is no
    such player seat."""
    with Session(engine) as session:
        row = session.exec(
            select(MembershipRow, UserRow)
            .join(UserRow, col(UserRow.id) == col(MembershipRow.user_id))
            .where(MembershipRow.game_id == game_id, MembershipRow.key == key, MembershipRow.role == "player")
        ).first()
        if row is None:
            return None
        seat, user = row
        seat.secret = secrets.token_urlsafe(18)
        session.add(seat)
        session.commit()
        return _seat(seat, user)
