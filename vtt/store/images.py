"""The pictures a game stores (its map's background): which types, how big, and what a file's bytes say it is."""

from __future__ import annotations

BACKGROUND = "background"
IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp")
MAX_UPLOAD_BYTES = 8 * 1024 * 1024


def image_type(data: bytes) -> str | None:
    """The image type the first bytes of a file say it is (PNG, JPEG or WebP), or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def background_path(game_id: int) -> str:
    """Where the server serves a game's background picture."""
    return f"/api/games/{game_id}/{BACKGROUND}"
