"""JSON paths of bad fields: `creatures[2].skills.Martial`, for error messages about data from files and forms."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import ValidationError

from vtt.rules.limits import plain_message

Loc = Sequence[str | int]


def json_path(prefix: str, loc: Loc = ()) -> str:
    """`creatures` + (1, "size") -> `creatures[1].size`."""
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out = f"{out}.{part}" if out else str(part)
    return out or "scenario"


def shown(value: object) -> str:
    """A value as it would be written in JSON, for a message (a type name for lists and objects)."""
    return json.dumps(value) if isinstance(value, str | int | float | bool) or value is None else type(value).__name__


def field_errors(exc: ValidationError, prefix: str = "") -> list[str]:
    """Each error of a pydantic validation as `path: message`, the path in JSON form under `prefix`."""
    out: list[str] = []
    for err in exc.errors(include_url=False):
        msg = plain_message(err)
        if err["type"] == "extra_forbidden":
            msg = "unknown key (not part of the format)"
        elif err["type"] != "missing" and isinstance(err["input"], str | int | float | bool):
            text = shown(err["input"])
            msg = f"{msg} (got {text if len(text) <= 60 else text[:57] + '...'})"
        path = json_path(prefix, [p for p in err["loc"] if isinstance(p, str | int)])
        out.append(f"{path or 'value'}: {msg}")
    return out
