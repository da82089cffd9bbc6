"""The Soulweaver's "Picture…" and "Remove picture" on a creature's sheet and in the library form.

The upload is checked on the server like a map background (type from its first bytes, size in bytes, width and
height from its header), stored by its hash (`vtt.store.pictures`), and set on the creature by `edit_creature`,
a logged command that undo takes back. The library form's upload is checked the same way and stored for the whole
server (`save_library_picture`); the form keeps its hash in the creature's entry.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import events, run, ui
from sqlalchemy.engine import Engine

from vtt.rules.model import Creature
from vtt.store.images import MAX_UPLOAD_BYTES
from vtt.store.pictures import PictureError, save_library_picture, save_picture

Send = Callable[[dict[str, Any]], Awaitable[Any]]


async def store_picture(engine: Engine | None, game_id: int | None, data: bytes) -> str:
    """Check and store an uploaded picture off the event loop; its hash. `PictureError` says why it is refused."""
    digest = await run.io_bound(save_picture, engine, game_id, data)
    if digest is None:  # the server is shutting down
        raise PictureError("The server is stopping; the picture was not stored.")
    return digest


async def store_library_picture(engine: Engine, data: bytes) -> str:
    """Check and store a picture for the server's library off the event loop; its hash (`PictureError`: why not)."""
    digest = await run.io_bound(save_library_picture, engine, data)
    if digest is None:  # the server is shutting down
        raise PictureError("The server is stopping; the picture was not stored.")
    return digest


def render_picture_buttons(
    current: str | None,
    store: Callable[[bytes], Awaitable[str]],
    set_picture: Callable[[str | None], Awaitable[None]],
) -> None:
    """An upload button for a token picture and, when there is one, a button that removes it. An upload is stored
    by `store` (which checks it: `PictureError` says why not), then its hash given to `set_picture`."""

    async def uploaded(e: events.UploadEventArguments) -> None:
        data = await e.file.read()
        upload.reset()
        try:
            digest = await store(data)
        except PictureError as exc:
            ui.notify(str(exc), type="warning", position="top")
            return
        if digest != current:
            await set_picture(digest)

    async def remove() -> None:
        await set_picture(None)

    megabytes = MAX_UPLOAD_BYTES // (1024 * 1024)
    upload = (
        ui.upload(
            auto_upload=True,
            max_file_size=MAX_UPLOAD_BYTES,
            on_upload=uploaded,
            on_rejected=lambda: ui.notify(f"The image is bigger than {megabytes} MB", type="warning", position="top"),
        )
        .props('accept=".png,.jpg,.jpeg,.webp" data-field=picture-upload')
        .classes("hidden")
    )
    with ui.row().classes("gap-2 items-center no-wrap"):
        ui.button("Picture…", on_click=lambda: upload.run_method("pickFiles")).props(
            "dense outline no-caps size=sm icon=image data-action=upload-picture"
        ).tooltip(f"The token's picture: PNG, JPEG or WebP, at most {megabytes} MB")
        if current is not None:
            ui.button("Remove picture", on_click=remove).props(
                "dense flat no-caps size=sm color=negative data-action=remove-picture"
            )


def render_picture_controls(c: Creature, engine: Engine | None, game_id: int | None, send: Send) -> None:
    """An upload button for the creature's token picture and, when it has one, a button that removes it."""

    async def set_picture(digest: str | None) -> None:
        await send({"type": "edit_creature", "creature": c.id, "changes": {"picture": digest}})

    render_picture_buttons(c.picture, lambda data: store_picture(engine, game_id, data), set_picture)
