"""The tables: a game with its starting state, and the append-only log of the commands played in it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel


def _now() -> datetime:
    return datetime.now(UTC)


class GameRow(SQLModel, table=True):
    __tablename__ = "game"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    initial_state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created: datetime = Field(default_factory=_now)


class CommandRow(SQLModel, table=True):
    """One command as it was played: who sent it, the dice faces it used and the events it gave."""

    __tablename__ = "command"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int = Field(index=True)
    sender: str
    command: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    faces: list[int] = Field(sa_column=Column(JSON, nullable=False))
    events: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    created: datetime = Field(default_factory=_now)
