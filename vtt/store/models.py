"""The tables: users, games and who sits at them, each game's starting state, the append-only log of the commands
played in it, and snapshots of its state.

The schema is created and upgraded by the migrations in `vtt/store/migrations/`; change a table here only together
with a new migration.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, LargeBinary
from sqlmodel import Field, SQLModel


def _now() -> datetime:
    return datetime.now(UTC)


class UserRow(SQLModel, table=True):
    """A person, known by the display name they gave when they took a seat."""

    __tablename__ = "user"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    created: datetime = Field(default_factory=_now)


class GameRow(SQLModel, table=True):
    __tablename__ = "game"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    map: str = Field(default="", description="The map file the game was made from.")
    watchable: bool = Field(default=False, description="Spectators may watch it: the Soulweaver's switch.")
    initial_state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created: datetime = Field(default_factory=_now)


class MembershipRow(SQLModel, table=True):
    """A seat at a game: its role, the key its creatures are controlled by, and the secret in its link."""

    __tablename__ = "membership"
    __table_args__ = (Index("ux_membership_game_key", "game_id", "key", unique=True),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    role: str
    key: str = Field(description="The name the game's creatures and commands know this seat by.")
    secret: str = Field(index=True, unique=True)
    created: datetime = Field(default_factory=_now)


class InvitationRow(SQLModel, table=True):
    __tablename__ = "invitation"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    secret: str = Field(index=True, unique=True)
    revoked: bool = False
    created: datetime = Field(default_factory=_now)


class CommandRow(SQLModel, table=True):
    """One command as it was played: who sent it, the dice faces it used and the events it gave."""

    __tablename__ = "command"
    __table_args__ = (Index("ux_command_game_seq", "game_id", "seq", unique=True),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int = Field(index=True)
    sender: str
    command: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    faces: list[int] = Field(sa_column=Column(JSON, nullable=False))
    events: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    created: datetime = Field(default_factory=_now)


class SnapshotRow(SQLModel, table=True):
    """The game's state after the command `seq` (with the undos made up to then), so a restart need not replay
    the whole log."""

    __tablename__ = "snapshot"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created: datetime = Field(default_factory=_now)


class UploadRow(SQLModel, table=True):
    """A file the Soulweaver uploaded for a game, such as its map's background image; a new one of the same
    purpose replaces the old."""

    __tablename__ = "upload"
    __table_args__ = (Index("ux_upload_game_purpose", "game_id", "purpose", unique=True),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    purpose: str = Field(description="What the file is for: `background`.")
    content_type: str
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    size: int
    created: datetime = Field(default_factory=_now)


class LibraryCreatureRow(SQLModel, table=True):
    """A creature a user made in the library form (`/library`): shared by every game on the server and offered in
    the map editor next to the starter library. `data` is a library entry (`vtt.library`): Creature fields without
    a place on a map."""

    __tablename__ = "library_creature"
    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True, unique=True, description="The entry's id in the library (`user:<slug>`).")
    name: str
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created: datetime = Field(default_factory=_now)
    updated: datetime = Field(default_factory=_now)


class LibraryPictureRow(SQLModel, table=True):
    """A token picture uploaded in the library form: shared by every game on the server, named by its hash, and
    kept when its creature changes or goes (a game may have placed the creature with it)."""

    __tablename__ = "library_picture"
    digest: str = Field(primary_key=True, description="The SHA-256 (hex) of the bytes.")
    content_type: str
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    size: int
    created: datetime = Field(default_factory=_now)


class ServerSettingRow(SQLModel, table=True):
    """A setting of the whole server, such as the admin secret (`admin_secret`) that lets a browser make games."""

    __tablename__ = "server_setting"
    key: str = Field(primary_key=True)
    value: str
    created: datetime = Field(default_factory=_now)
