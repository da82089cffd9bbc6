"""The creature and weapon library: ready-made creatures to copy into a game, and the weapons they use.

Data: `vtt/data/weapons.json` (`{"format": 1, "weapons": [Weapon, ...]}`) and `vtt/data/creatures.json`
(`{"format": 1, "creatures": [entry, ...]}`). A creature entry is a `Creature` (`vtt/rules/model.py`) without
`anchor`, plus:

- `id`: the entry's id in the library (a game gives each copy its own id, made from the name);
- `description`: a line for the library list (not a creature field);
- `weapons`: weapon ids from the weapon library (or whole weapons written in place), and `grip`: limb id -> the
  weapon id that limb holds (as in map files).

The numbers are VTT samples, not rules from the sources: skills with Tiers; pools by the reference's ASSUMPTION
(Grit 4 + 2 x Endure, Energy 4 + Endure + Magic, Resolve 4 + 2 x Zeal, reference §4.3); the Severe Threshold is the
Endure Tier (§4.4, gap 14); body plans give humanoids the default limbs and parts and beasts their own (jaws with
fangs, legs, wings, tails, claws as Distals, §4.5); armour is `armor_reduction`; damage Reductions,
immunities and vulnerabilities are by damage type; a caster knows Spells and Talents of `vtt.rules.abilities`.

`library_creature(entry, at)` makes the body of an `add_creature` command from an entry: sent as many times as
needed, each copy gets a new id (`goblin`, `goblin_2`...). `validate_creature(data)` checks a creature as the
library form edits it and returns its problems, each naming the field (`skills.Martial: ...`). Reading the files is
the only I/O here; the rules core (`vtt.rules`) stays pure.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from vtt.rules.abilities import LIBRARY as ABILITIES
from vtt.rules.limits import NAME_MAX, WEAPONS_MAX, text_error
from vtt.rules.mapfile import Problems, apply_grip, validate
from vtt.rules.model import Cell, Creature, Weapon
from vtt.rules.paths import field_errors, shown

DATA = Path(__file__).resolve().parent / "data"
LIBRARY_FORMAT = 1
DESCRIPTION_MAX = 4 * NAME_MAX
"""A library entry's one-line description."""
LIBRARY_ONLY = ("description", "grip")
"""Keys of a creature entry that are not `Creature` fields."""

_WEAPON = TypeAdapter(Weapon)


class LibraryError(ValueError):
    """A library file that is not valid; each problem names the field."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def _read(name: str, key: str, path: Path | None) -> list[Any]:
    file = path or DATA / name
    data = json.loads(file.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != LIBRARY_FORMAT or not isinstance(data.get(key), list):
        raise LibraryError([f'{file.name}: must be {{"format": {LIBRARY_FORMAT}, "{key}": [...]}}'])
    out: list[Any] = data[key]
    return out


def load_weapons(path: Path | None = None) -> dict[str, Weapon]:
    """The weapon library by id; `LibraryError` names each bad field."""
    problems: list[str] = []
    out: dict[str, Weapon] = {}
    for i, item in enumerate(_read("weapons.json", "weapons", path)):
        try:
            w = _WEAPON.validate_python(item)
        except ValidationError as exc:
            problems += field_errors(exc, f"weapons[{i}]")
            continue
        if w.id in out:
            problems.append(f"weapons[{i}].id: duplicate weapon id {shown(w.id)}")
        out[w.id] = w
    if problems:
        raise LibraryError(problems)
    return out


def load_creature_entries(path: Path | None = None) -> list[dict[str, Any]]:
    """The creature library's entries as written (use `validate_creature` / `library_creature` on each)."""
    entries = _read("creatures.json", "creatures", path)
    return [e if isinstance(e, dict) else {"invalid": e} for e in entries]


@cache
def weapon_library() -> dict[str, Weapon]:
    return load_weapons()


@cache
def creature_library() -> dict[str, dict[str, Any]]:
    """The library's creature entries by id, each checked: `LibraryError` if any is malformed."""
    problems: list[str] = []
    out: dict[str, dict[str, Any]] = {}
    for i, entry in enumerate(load_creature_entries()):
        problems += [f"creatures[{i}].{p}" for p in validate_creature(entry)]
        eid = entry.get("id")
        if isinstance(eid, str):
            if eid in out:
                problems.append(f"creatures[{i}].id: duplicate entry id {shown(eid)}")
            out[eid] = entry
    if problems:
        raise LibraryError(problems)
    return out


def build_creature(data: dict[str, Any], weapons: dict[str, Weapon] | None = None) -> tuple[Creature | None, list[str]]:
    """The creature a library entry or form describes, or None, with the problems (each `field: message`)."""
    if not isinstance(data, dict):
        return None, ["creature: must be an object"]
    known = weapon_library() if weapons is None else weapons
    problems = Problems()
    body = {k: v for k, v in data.items() if k not in LIBRARY_ONLY}
    body.setdefault("anchor", (0, 0))
    if "id" not in body:
        body["id"] = "new"
    carried: list[Weapon] = []
    raw = body.pop("weapons", [])
    if not isinstance(raw, list):
        problems.add("weapons", "must be a list of weapon ids or weapons")
        raw = []
    if len(raw) > WEAPONS_MAX:
        problems.add("weapons", f"at most {WEAPONS_MAX} weapons (this has {len(raw)})")
        raw = []
    for j, item in enumerate(raw):
        if isinstance(item, str):
            if item in known:
                carried.append(known[item])
            else:
                problems.add(f"weapons[{j}]", f"unknown weapon {shown(item)} (not in the weapon library)")
        elif isinstance(item, dict):
            w = validate(problems, f"weapons[{j}]", _WEAPON, item)
            if w is not None:
                carried.append(w)
        else:
            problems.add(f"weapons[{j}]", "a weapon id or a weapon object")
    grip = data.get("grip", {})
    if not isinstance(grip, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in grip.items()):
        problems.add("grip", "must map limb ids to weapon ids")
        grip = {}
    try:
        c = Creature.model_validate(body)
    except ValidationError as exc:
        for p in field_errors(exc):
            problems.items.append(p)
        return None, problems.items
    c.weapons = carried
    apply_grip(problems, "", c, grip)
    for j, ab in enumerate(c.abilities):
        if ab not in ABILITIES:
            problems.add(f"abilities[{j}]", f"no Spell or Talent {shown(ab)} (known: {', '.join(ABILITIES)})")
    desc = data.get("description", "")
    if not isinstance(desc, str):
        problems.add("description", "must be a string")
    elif (why := text_error(desc, DESCRIPTION_MAX)) is not None:
        problems.add("description", why)
    items = [p[1:] if p.startswith(".") else p for p in problems.items]
    return (c if not items else None), items


def validate_creature(data: dict[str, Any]) -> list[str]:
    """The problems of a creature as the library form edits it (Creature fields, weapon ids or weapons, `grip`),
    each naming its field: `["skills.Martial: Input should be a valid integer (got \"x\")"]`; [] when it is good."""
    return build_creature(data)[1]


def library_creature(entry: dict[str, Any] | str, at: Cell) -> dict[str, Any]:
    """An `add_creature` command putting a copy of a library entry (or the entry with that id) at `at`. It has no
    `id`, so the game gives each copy a new one from the name. `ValueError` if the entry is not valid."""
    data = creature_library()[entry] if isinstance(entry, str) else entry
    c, problems = build_creature(data)
    if c is None:
        raise LibraryError(problems)
    body = c.model_dump(mode="json", exclude_defaults=True, exclude={"id", "anchor"})
    body["name"] = c.name
    return {"type": "add_creature", "creature": body, "at": [at[0], at[1]]}
