"""Every size, count and length the table accepts, in one place, and the checked string types built on them.

Identifiers (of creatures, limbs, parts, weapons, objects, abilities, skills) are kept to a safe set of characters;
display names and notes are free text but bounded, and may not hold characters that cannot be sent as UTF-8 (a lone
surrogate), NUL or other control characters. Each check raises `ValueError` with a sentence a person can act on:
pydantic names the field it came from.

The README's "Limits" section lists these numbers; change them here and there together.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator

# ---- creatures -------------------------------------------------------------------------------------------------

CREATURE_SIZE_MIN = -4
CREATURE_SIZE_MAX = 12
"""A creature's size: from the smallest in the rules' examples (a rat-sized size -4) to a size 12 colossus, whose
footprint (271 hexes, 324 squares) still fits the largest map many times over."""
PART_SIZE_MIN = CREATURE_SIZE_MIN - 12
PART_SIZE_MAX = CREATURE_SIZE_MAX
"""A body part's size: the eyes and ears of a humanoid are 9 sizes smaller than it (seed-000), with room to spare."""
CREATURES_MAX = 500
LIMBS_MAX = 16
PARTS_MAX = 32
WEAPONS_MAX = 16
SKILLS_MAX = 40
ABILITIES_MAX = 64
SKILL_TIER_MAX = 99
POOL_MAX = 999
FOOTPRINT_CELLS_MAX = 400
"""Spaces in a creature's own footprint (a size 12 creature fills 324 squares)."""
PART_OFFSET_MAX = CREATURE_SIZE_MAX - PART_SIZE_MIN
"""How many sizes smaller than its creature a body part may be (either way)."""
DAMAGE_TYPES_MAX = 32
"""Entries in a creature's Reductions, immunities, vulnerabilities and Ailments."""
DICE_MAX = 99
"""Damage dice of a weapon or distal, and a weapon's usage Tier."""
AMMO_MAX = 999
"""Ammunition a launched weapon counts (arrows, sling stones): a quiver or a bag, with room to spare."""
ACTIONS_PER_TURN_MAX = 99
"""Major and Minor Actions one creature uses in a turn: far above any table's setting."""
SOULWEAVER_DICE_MAX = 100
"""d12 of damage or healing the Soulweaver deals by hand (the `harm` and `heal` commands)."""
AFFLICT_TIERS_MAX = 99
"""Tiers of an Ailment the Soulweaver gives at once (the `afflict` command)."""

# ---- maps ------------------------------------------------------------------------------------------------------

MAP_SIDE_MAX = 200
"""Columns and rows of a map. 200 × 200 is 40,000 spaces: more than a whole dungeon level at one space per 1.5 m."""
MAP_CELLS_MAX = MAP_SIDE_MAX * MAP_SIDE_MAX
WALLS_MAX = MAP_CELLS_MAX
OBJECTS_MAX = 2_000
OBJECT_CELLS_MAX = 400
TERRAIN_CELLS_MAX = MAP_CELLS_MAX
"""Spaces of each kind of terrain (water, Uneven Ground, conductive material)."""
ITEMS_MAX = 1_000
MAP_WEAPONS_MAX = 200
"""Weapons a map file defines for its creatures to share."""
LIGHT_RADIUS_MAX = MAP_SIDE_MAX
"""How far a carried light shines, and how far a creature sees without light, in spaces."""

# ---- text ------------------------------------------------------------------------------------------------------

ID_MAX = 64
NAME_MAX = 80
"""Creature, weapon, limb, part, object, map, game and display names."""
NOTES_MAX = 5_000
PROMPT_MAX = 1_000
CHAT_MAX = 1_000
"""A chat message or whisper."""
ROLL_DICE_MAX = 30
"""Dice of one roll typed in the chat (`/roll 3d12+2`)."""
ROLL_MODIFIER_MAX = 99
"""The flat modifier of a roll typed in the chat, either way."""

# ---- games, files and uploads ----------------------------------------------------------------------------------

SEATS_MAX = 24
"""Player seats in one game (the Soulweaver's not counted)."""
INVITATIONS_MAX = 24
ARCHIVE_BYTES_MAX = 24 * 1024 * 1024
"""A whole-game archive: room for an 8 MiB picture in base64 and a long log."""
ARCHIVE_COMMANDS_MAX = 20_000
ARCHIVE_PICTURES_MAX = 200
"""Token pictures one game archive carries (each within `UPLOAD_BYTES_MAX`, all within `ARCHIVE_BYTES_MAX`)."""
MAP_FILE_BYTES_MAX = 16 * 1024 * 1024
UVTT_BYTES_MAX = 16 * 1024 * 1024
UVTT_POINTS_MAX = 100_000
"""Wall points in a Universal VTT file, all polylines together."""
UVTT_TRACE_MAX = 8 * MAP_CELLS_MAX
"""Spaces that tracing a Universal VTT file's walls may walk (its segments' lengths added up)."""
UPLOAD_BYTES_MAX = 8 * 1024 * 1024
IMAGE_SIDE_MAX = 8_192
IMAGE_PIXELS_MAX = 40_000_000
"""A picture's width and height each, and their product: a bigger image is refused before it is decoded."""
COMMAND_BYTES_MAX = 64 * 1024

# ---- rulers and pings (passing marks on the map, never stored) -------------------------------------------------

PINGS_MAX = 3
PING_WINDOW_SECONDS = 5.0
"""Pings one seat may send in any `PING_WINDOW_SECONDS`: enough to point at a few spaces, too few to flood the map."""
RULER_UPDATES_MAX = 25
RULER_WINDOW_SECONDS = 1.0
"""Ruler positions one seat may send in any `RULER_WINDOW_SECONDS` (a page sends at most one every 60 ms)."""


# ---- plain messages ---------------------------------------------------------------------------------------------


def plain_message(err: Mapping[str, Any]) -> str:
    """A pydantic error (one of `ValidationError.errors()`) in plain words: a limit on a count or a length says what
    the limit is, and a check's own sentence loses pydantic's "Value error, " in front of it."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind == "too_long":
        actual = ctx.get("actual_length")
        return f"at most {ctx.get('max_length')} entries" + ("" if actual is None else f" (this has {actual})")
    if kind == "string_too_long":
        return f"at most {ctx.get('max_length')} characters"
    bounds = {"less_than_equal": ("le", "at most"), "greater_than_equal": ("ge", "at least")}
    bounds |= {"less_than": ("lt", "less than"), "greater_than": ("gt", "more than")}
    if kind in bounds:
        key, words = bounds[kind]
        return f"{words} {ctx.get(key)}"
    msg = str(err["msg"])
    return msg.removeprefix("Value error, ")


# ---- checked strings -------------------------------------------------------------------------------------------

_IDENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*")
_COLOR = re.compile(r"#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_CONTROL_ONE_LINE = re.compile(r"[\x00-\x1f\x7f]")


def ident_error(value: str) -> str | None:
    """Why `value` cannot be an identifier, or None."""
    if not value:
        return "an id may not be empty"
    if len(value) > ID_MAX:
        return f"an id is at most {ID_MAX} characters"
    if not _IDENT.fullmatch(value):
        return "an id may use only letters, digits, '-', '_' and '.', and must start with a letter or digit"
    return None


def check_ident(value: str) -> str:
    why = ident_error(value)
    if why is not None:
        raise ValueError(why)
    return value


def text_error(value: str, limit: int, multiline: bool = False) -> str | None:
    """Why `value` cannot be a name (or, `multiline`, notes) of at most `limit` characters, or None."""
    if len(value) > limit:
        return f"at most {limit} characters (this is {len(value)})"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a broken character (a lone surrogate); type it again"
    if (_CONTROL if multiline else _CONTROL_ONE_LINE).search(value):
        return "holds a control character; use plain text"
    return None


def _text_checker(limit: int, multiline: bool = False) -> AfterValidator:
    def check(value: str) -> str:
        why = text_error(value, limit, multiline)
        if why is not None:
            raise ValueError(why)
        return value

    return AfterValidator(check)


@dataclass(frozen=True)
class CreatureRefMarker:
    """Marks a command field (or list item) that names a creature: the table finds them from the command models."""


CREATURE_REF = CreatureRefMarker()

Ident = Annotated[str, AfterValidator(check_ident)]
"""The id of a limb, part, weapon, object, ability, decision or skill."""
CreatureRef = Annotated[str, AfterValidator(check_ident), CREATURE_REF]
"""The id of a creature, named by a command."""
Name = Annotated[str, _text_checker(NAME_MAX)]
Notes = Annotated[str, _text_checker(NOTES_MAX, multiline=True)]


def check_color(value: str) -> str:
    if not _COLOR.fullmatch(value):
        raise ValueError("a colour is written #rgb or #rrggbb (hex digits)")
    return value


Color = Annotated[str, AfterValidator(check_color)]
"""A token's colour: `#rgb` or `#rrggbb`."""

_PICTURE = re.compile(r"[0-9a-f]{64}")


def check_picture(value: str) -> str:
    if not _PICTURE.fullmatch(value):
        raise ValueError("a picture is named by the SHA-256 of its bytes: 64 lowercase hex digits")
    return value


PictureHash = Annotated[str, AfterValidator(check_picture)]
"""A token's picture: the SHA-256 (hex) of an uploaded image's bytes, never a URL."""
