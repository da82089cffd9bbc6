"""Token pictures: uploaded images named by the SHA-256 of their bytes, checked like map backgrounds.

A creature holds only the hash (`Creature.picture`); a seat is sent it only in the token of a creature it sees, and
the server serves the bytes at `/api/pictures/<hash>`, so a hidden creature's picture cannot be found without
already having the image. A game with a database stores the file as one of its uploads; a table without one (tests,
demos) keeps a few in memory. A picture given to a creature in the library form is the server's
(`save_library_picture`): a creature placed from the library carries its hash onto the token, and any game serves
and exports it.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from vtt.rules.limits import check_picture
from vtt.store import db
from vtt.store.images import PICTURE_PURPOSE, image_problem, image_type
from vtt.store.models import LibraryPictureRow, UploadRow

MEMORY_PICTURES_MAX = 32
"""Pictures kept in memory for tables without a database; the oldest is dropped first."""
_MEMORY: OrderedDict[str, tuple[str, bytes]] = OrderedDict()


class PictureError(ValueError):
    """An upload that cannot be a token's picture; the message says why in plain words."""


def picture_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def picture_path(digest: str) -> str:
    """Where the server serves the picture with this hash."""
    return f"/api/pictures/{check_picture(digest)}"


def checked_picture(data: bytes) -> tuple[str, str]:
    """The content type and hash of an upload that may be a token's picture; `PictureError` says why not."""
    kind = image_type(data)
    if kind is None:
        raise PictureError("That file is not a PNG, JPEG or WebP image.")
    why = image_problem(data)
    if why is not None:
        raise PictureError(f"That image cannot be used: {why}.")
    return kind, picture_hash(data)


def save_picture(engine: Engine | None, game_id: int | None, data: bytes) -> str:
    """Check and store an upload as a picture of the game; its hash. Blocking: run it in a thread."""
    kind, digest = checked_picture(data)
    if engine is not None and game_id is not None:
        db.save_upload(engine, game_id, PICTURE_PURPOSE + digest, kind, data)
    else:
        _MEMORY[digest] = (kind, data)
        _MEMORY.move_to_end(digest)
        while len(_MEMORY) > MEMORY_PICTURES_MAX:
            _MEMORY.popitem(last=False)
    return digest


def save_library_picture(engine: Engine, data: bytes) -> str:
    """Check and store an upload as a picture of the server's library; its hash. Blocking: run it in a thread."""
    kind, digest = checked_picture(data)
    with Session(engine) as session:
        if session.get(LibraryPictureRow, digest) is None:
            session.add(LibraryPictureRow(digest=digest, content_type=kind, data=data, size=len(data)))
            session.commit()
    return digest


def load_picture(engine: Engine | None, digest: str) -> tuple[str, bytes] | None:
    """The content type and bytes of the picture with this hash, or None. Blocking: run it in a thread."""
    try:
        check_picture(digest)
    except ValueError:
        return None
    if digest in _MEMORY:
        return _MEMORY[digest]
    if engine is None:
        return None
    with Session(engine) as session:
        row = session.exec(select(UploadRow).where(UploadRow.purpose == PICTURE_PURPOSE + digest)).first()
        if row is not None:
            return row.content_type, bytes(row.data)
        shared = session.get(LibraryPictureRow, digest)
        return None if shared is None else (shared.content_type, bytes(shared.data))
