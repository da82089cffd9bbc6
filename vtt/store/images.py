"""The pictures a game stores (its map's background): which types, how big, and what a file's bytes say it is.

A picture's width and height are read from its header (PNG's IHDR, a JPEG's start-of-frame marker, WebP's VP8,
VP8L or VP8X chunk), never by decoding it: a small file can claim a huge picture that would take gigabytes to
decode in a browser (a decompression bomb), so one over `IMAGE_SIDE_MAX` a side or `IMAGE_PIXELS_MAX` pixels is
refused, as is one whose size cannot be read.
"""

from __future__ import annotations

from vtt.rules.limits import IMAGE_PIXELS_MAX, IMAGE_SIDE_MAX, UPLOAD_BYTES_MAX

BACKGROUND = "background"
IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp")
MAX_UPLOAD_BYTES = UPLOAD_BYTES_MAX
PICTURE_PURPOSE = "picture:"
"""The purpose of a token picture's upload, followed by its hash."""
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""Start-of-frame markers (SOF0 to SOF15); C4, C8 and CC are other segments."""


def image_type(data: bytes) -> str | None:
    """The image type the first bytes of a file say it is (PNG, JPEG or WebP), or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            i += 2
            continue
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if marker in _JPEG_FRAMES:
            if i + 9 > len(data):
                return None
            return int.from_bytes(data[i + 7 : i + 9], "big"), int.from_bytes(data[i + 5 : i + 7], "big")
        if length < 2:
            return None
        i += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        return int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def image_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a PNG, JPEG or WebP file's header gives, or None when it gives none."""
    kind = image_type(data)
    if kind == "image/png":
        return _png_size(data)
    if kind == "image/jpeg":
        return _jpeg_size(data)
    if kind == "image/webp":
        return _webp_size(data)
    return None


def image_problem(data: bytes) -> str | None:
    """Why `data` cannot be a stored picture (its type, its bytes or its size in pixels), or None."""
    if image_type(data) is None:
        return "the file is not a PNG, JPEG or WebP image"
    if len(data) > UPLOAD_BYTES_MAX:
        return f"the image is bigger than {UPLOAD_BYTES_MAX // (1024 * 1024)} MB"
    size = image_size(data)
    if size is None:
        return "the image's width and height cannot be read from the file; save it again as PNG, JPEG or WebP"
    width, height = size
    if width < 1 or height < 1:
        return f"the image claims {width} × {height} pixels; it is broken"
    if width > IMAGE_SIDE_MAX or height > IMAGE_SIDE_MAX:
        return f"the image is {width} × {height} pixels; at most {IMAGE_SIDE_MAX} pixels a side"
    if width * height > IMAGE_PIXELS_MAX:
        return f"the image is {width} × {height} pixels; at most {IMAGE_PIXELS_MAX:,} pixels in all"
    return None


def background_path(game_id: int) -> str:
    """Where the server serves a game's background picture."""
    return f"/api/games/{game_id}/{BACKGROUND}"
