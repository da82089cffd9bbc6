"""Opening the database and reading and writing games.

SQLite (WAL) in a file by default, any SQLAlchemy URL (PostgreSQL) by `DATABASE_URL`. Every write is committed
before the command's result is shown to anyone.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, col, create_engine, select

from vtt.store.models import CommandRow, GameRow


def open_engine(url: str) -> Engine:
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    SQLModel.metadata.create_all(engine)
    return engine


def find_game(engine: Engine, name: str) -> tuple[int, dict[str, Any]] | None:
    with Session(engine) as session:
        row = session.exec(select(GameRow).where(GameRow.name == name)).first()
        if row is None or row.id is None:
            return None
        return row.id, dict(row.initial_state)


def create_game(engine: Engine, name: str, initial_state: dict[str, Any]) -> int:
    with Session(engine) as session:
        row = GameRow(name=name, initial_state=initial_state)
        session.add(row)
        session.commit()
        session.refresh(row)
        assert row.id is not None
        return row.id


def load_log(engine: Engine, game_id: int) -> list[dict[str, Any]]:
    with Session(engine) as session:
        rows = session.exec(select(CommandRow).where(CommandRow.game_id == game_id).order_by(col(CommandRow.seq))).all()
        return [
            {"seq": r.seq, "sender": r.sender, "command": r.command, "faces": r.faces, "events": r.events} for r in rows
        ]


def append_command(
    engine: Engine,
    game_id: int,
    seq: int,
    sender: str,
    command: dict[str, Any],
    faces: list[int],
    events: list[dict[str, Any]],
) -> None:
    with Session(engine) as session:
        session.add(CommandRow(game_id=game_id, seq=seq, sender=sender, command=command, faces=faces, events=events))
        session.commit()
