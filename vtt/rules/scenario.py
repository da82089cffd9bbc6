"""Scenario files: a board, creatures, weapons, commands and dice in one JSON object, run through the engine.

A scenario is a worked example of the rules that a person can check by hand: its `description` states the
expected outcome and running it prints every event with its rolls. The format (version 1) is documented in
`docs/scenarios.md`; in short::

    {"version": 1, "name": "...", "description": "...",
     "settings": {...partial TableSettings...},
     "board": {"cols": 10, "rows": 6, "walls": [[q, r], ...], "objects": [...]},
     "weapons": [{...Weapon...}, ...],
     "creatures": [{...Creature, but "weapons": ["id", ...] and "grip": {"limb_id": "weapon_id"}...}, ...],
     "commands": [{"type": "begin"}, ...],
     "dice": [9, 2, 5, ...]}          # or "seed": 0 for seeded random dice

Everything here is pure: `load_scenario` takes already-decoded JSON data (or `parse_scenario_text` a string)
and validates it, `run_scenario` runs it and returns JSON-ready dicts. Reading files and printing belong to
`vtt.rules.__main__`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from vtt.rules.commands import Command, parse_command
from vtt.rules.conditions import encumbered_tier
from vtt.rules.dice import DiceScriptExhausted, DiceSource, RandomDice, RecordingDice, ScriptedDice
from vtt.rules.engine import LogEntry, apply
from vtt.rules.events import Event, RuleError
from vtt.rules.model import SOULWEAVER, Board, BoardObject, BodyPart, Cell, Creature, GameState, Weapon
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, grid_of, why_cannot_stand

FORMAT_VERSION = 1
SIDES = 12
TOP_KEYS: tuple[str, ...] = (
    "version",
    "name",
    "description",
    "settings",
    "board",
    "weapons",
    "creatures",
    "commands",
    "dice",
    "seed",
)
REQUIRED_KEYS: tuple[str, ...] = ("version", "name", "description", "board", "creatures")
CREATURE_REF_FIELDS: tuple[str, ...] = ("creature", "target", "collide_with")
"""Command fields naming a creature: checked against the file's creatures when it is loaded."""

Loc = Sequence[str | int]


class ScenarioError(ValueError):
    """A malformed scenario; each problem starts with the JSON path of the bad field."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: list[str] = list(problems) or ["scenario: invalid"]
        super().__init__("; ".join(self.problems))


class Scenario(BaseModel):
    """A validated scenario: the starting state, the commands in order and where the dice come from."""

    model_config = ConfigDict(frozen=True)
    name: str
    description: str
    state: GameState
    commands: list[Command] = Field(default_factory=list)
    dice: list[int] | None = Field(None, description="Scripted d12 faces, used in order; None rolls `seed`.")
    seed: int = 0


class RunResult(BaseModel):
    """Everything a run produced: the final state, the JSON-ready events and a replayable command log."""

    state: GameState
    events: list[dict[str, Any]]
    log: list[LogEntry] = Field(description="Each applied command with the faces it used (rejected ones left out).")
    unused_dice: list[int] | None = Field(description="Scripted faces no command used; None with random dice.")


# --------------------------------------------------------------------------------------------------------
# JSON paths and error messages
# --------------------------------------------------------------------------------------------------------


def json_path(prefix: str, loc: Loc = ()) -> str:
    """`creatures` + (1, "size") -> `creatures[1].size`."""
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out = f"{out}.{part}" if out else str(part)
    return out or "scenario"


def _shown(value: object) -> str:
    return json.dumps(value) if isinstance(value, str | int | float | bool) or value is None else type(value).__name__


class _Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(f"{path}: {message}")

    def pydantic(self, prefix: str, exc: ValidationError, drop_first: str | None = None) -> None:
        """Report each error of `exc` under `prefix`; `drop_first` removes a leading union tag from the loc."""
        for err in exc.errors(include_url=False):
            loc: list[str | int] = list(err["loc"])
            if drop_first is not None and loc and loc[0] == drop_first:
                loc = loc[1:]
            kind = err["type"]
            msg = err["msg"]
            if kind in ("union_tag_invalid", "union_tag_not_found"):
                loc.append("type")
                tags = err.get("ctx", {}).get("expected_tags", "")
                if kind == "union_tag_not_found":
                    msg = f"missing: every command needs a type, one of {tags}"
                else:
                    msg = f"unknown command type {_shown(err.get('ctx', {}).get('tag'))}; expected one of {tags}"
            elif kind == "extra_forbidden":
                msg = "unknown key (not part of the format)"
            elif kind != "missing" and isinstance(err["input"], str | int | float | bool):
                msg = f"{msg} (got {_shown(err['input'])})"
            self.add(json_path(prefix, loc), msg)

    def raise_if_any(self) -> None:
        if self.items:
            raise ScenarioError(self.items)


def _validate(problems: _Problems, prefix: str, adapter: TypeAdapter[Any], value: object) -> Any:
    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        problems.pydantic(prefix, exc)
        return None


# --------------------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------------------


class _BoardSpec(BaseModel):
    """The board as written in a file: walls are a list so that errors name the wall's index."""

    model_config = ConfigDict(extra="forbid")
    cols: int = Field(ge=1)
    rows: int = Field(ge=1)
    walls: list[Cell] = Field(default_factory=list)
    objects: list[BoardObject] = Field(default_factory=list)
    conductive: list[list[Cell]] = Field(default_factory=list)
    water: list[Cell] = Field(default_factory=list)


_SETTINGS = TypeAdapter(TableSettings)
_BOARD = TypeAdapter(_BoardSpec)
_WEAPON = TypeAdapter(Weapon)
_CREATURE = TypeAdapter(Creature)
_IDS = TypeAdapter(list[str])
_GRIP = TypeAdapter(dict[str, str])
_WOUNDED = TypeAdapter(dict[str, Annotated[int, Field(ge=0)]])


def parse_scenario_text(text: str) -> Scenario:
    """A scenario from JSON text; invalid JSON and duplicate keys are `ScenarioError`s too."""

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise ScenarioError([f"json: duplicate key {json.dumps(key)} in an object"])
            out[key] = value
        return out

    try:
        data = json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        raise ScenarioError([f"json: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"]) from None
    return load_scenario(data)


def load_scenario(data: object) -> Scenario:
    """Validate decoded JSON data as a scenario; `ScenarioError` names every bad field by its JSON path."""
    problems = _Problems()
    if not isinstance(data, dict):
        raise ScenarioError([f"scenario: must be a JSON object, not {_json_type(data)}"])
    for key in data:
        if key not in TOP_KEYS:
            problems.add(json_path(str(key)), f"unknown key; a scenario has {', '.join(TOP_KEYS)}")
    for key in REQUIRED_KEYS:
        if key not in data:
            problems.add(key, "missing (required)")

    if "version" in data and (data["version"] != FORMAT_VERSION or isinstance(data["version"], bool)):
        problems.add("version", f"must be {FORMAT_VERSION} (got {_shown(data['version'])})")
    name = _text(problems, data, "name", required=True)
    description = _text(problems, data, "description", required=True)

    settings: TableSettings | None = TableSettings()
    if "settings" in data:
        settings = _validate(problems, "settings", _SETTINGS, data["settings"])
    board_spec: _BoardSpec | None = None
    if "board" in data:
        board_spec = _validate(problems, "board", _BOARD, data["board"])
    weapons = _load_weapons(problems, data.get("weapons", []))
    creatures = _load_creatures(problems, data.get("creatures", []), weapons) if "creatures" in data else []
    commands = _load_commands(problems, data.get("commands", []), creatures, weapons)
    dice, seed = _load_dice(problems, data)

    problems.raise_if_any()
    assert settings is not None and board_spec is not None and creatures is not None
    state = _initial_state(problems, settings, board_spec, creatures)
    problems.raise_if_any()
    return Scenario(name=name, description=description, state=state, commands=commands, dice=dice, seed=seed)


def _json_type(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return type(value).__name__


def _text(problems: _Problems, data: dict[str, Any], key: str, required: bool) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        problems.add(key, f"must be a string, not {_json_type(value)}")
        return ""
    if required and key in data and not value.strip():
        problems.add(key, "must not be empty")
    return value


def _as_list(problems: _Problems, path: str, value: object) -> list[Any]:
    if not isinstance(value, list):
        problems.add(path, f"must be a list, not {_json_type(value)}")
        return []
    return value


def _load_weapons(problems: _Problems, raw: object) -> dict[str, Weapon]:
    weapons: dict[str, Weapon] = {}
    for i, item in enumerate(_as_list(problems, "weapons", raw)):
        w: Weapon | None = _validate(problems, f"weapons[{i}]", _WEAPON, item)
        if w is None:
            continue
        if w.id in weapons:
            problems.add(f"weapons[{i}].id", f"duplicate weapon id {_shown(w.id)}")
        weapons[w.id] = w
    return weapons


def _load_creatures(problems: _Problems, raw: object, weapons: dict[str, Weapon]) -> list[Creature] | None:
    creatures: list[Creature] = []
    ids: set[str] = set()
    ok = True
    for i, item in enumerate(_as_list(problems, "creatures", raw)):
        path = f"creatures[{i}]"
        if not isinstance(item, dict):
            problems.add(path, f"must be an object, not {_json_type(item)}")
            ok = False
            continue
        rest = dict(item)
        weapon_ids = _creature_weapon_ids(problems, path, rest.pop("weapons", []), weapons)
        grip = _validate(problems, f"{path}.grip", _GRIP, rest.pop("grip", {}))
        wounded = _validate(problems, f"{path}.wounded", _WOUNDED, rest.pop("wounded", {}))
        c: Creature | None = _validate(problems, path, _CREATURE, rest)
        if c is None or weapon_ids is None or grip is None or wounded is None:
            ok = False
            continue
        if c.id == SOULWEAVER:
            problems.add(f"{path}.id", f"{_shown(c.id)} is reserved for the Soulweaver's turn")
        if c.id in ids:
            problems.add(f"{path}.id", f"duplicate creature id {_shown(c.id)}")
        ids.add(c.id)
        c.weapons = [weapons[w] for w in weapon_ids]
        _apply_grip(problems, path, c, grip)
        _apply_wounded(problems, path, c, wounded)
        creatures.append(c)
    return creatures if ok else None


def _creature_weapon_ids(problems: _Problems, path: str, raw: object, weapons: dict[str, Weapon]) -> list[str] | None:
    if isinstance(raw, list) and any(isinstance(w, dict) for w in raw):
        problems.add(f"{path}.weapons", "list weapon ids (strings); define the weapons in the top-level weapons list")
        return None
    ids: list[str] | None = _validate(problems, f"{path}.weapons", _IDS, raw)
    if ids is None:
        return None
    good = True
    for j, wid in enumerate(ids):
        if wid not in weapons:
            known = ", ".join(weapons) or "none are defined"
            problems.add(f"{path}.weapons[{j}]", f"unknown weapon {_shown(wid)} (not in weapons: {known})")
            good = False
    return ids if good else None


def _apply_grip(problems: _Problems, path: str, c: Creature, grip: dict[str, str]) -> None:
    for limb_id, wid in grip.items():
        limb = c.limb(limb_id)
        where = json_path(f"{path}.grip", [limb_id])
        if limb is None:
            problems.add(where, f"{c.name} has no limb {_shown(limb_id)} (limbs: {', '.join(x.id for x in c.limbs)})")
        elif not limb.can_grip:
            problems.add(where, f"{c.name}'s {limb.name} cannot grip")
        elif c.weapon(wid) is None:
            problems.add(where, f"{c.name} does not carry weapon {_shown(wid)}: add it to {path}.weapons")
        else:
            limb.holding = wid
    for j, limb in enumerate(c.limbs):
        if limb.holding is not None and c.weapon(limb.holding) is None:
            problems.add(f"{path}.limbs[{j}].holding", f"{c.name} does not carry weapon {_shown(limb.holding)}")


def _apply_wounded(problems: _Problems, path: str, c: Creature, wounded: dict[str, int]) -> None:
    """`"wounded": {"stomach": 5}`: Tiers of Wounded already on body parts, added to the Wounded total too."""
    for part_id, tiers in wounded.items():
        part = c.part(part_id)
        if part is None:
            where = json_path(f"{path}.wounded", [part_id])
            problems.add(
                where, f"{c.name} has no body part {_shown(part_id)} (parts: {', '.join(p.id for p in c.parts)})"
            )
            continue
        part.wounded += tiers
        if tiers:
            c.ailments["Wounded"] = c.ailments.get("Wounded", 0) + tiers


def _load_commands(
    problems: _Problems, raw: object, creatures: list[Creature] | None, weapons: dict[str, Weapon]
) -> list[Command]:
    commands: list[Command] = []
    ids = {c.id for c in creatures} if creatures is not None else None
    for i, item in enumerate(_as_list(problems, "commands", raw)):
        path = f"commands[{i}]"
        try:
            cmd = parse_command(item)
        except ValidationError as exc:
            tag = item.get("type") if isinstance(item, dict) else None
            problems.pydantic(path, exc, drop_first=tag if isinstance(tag, str) else None)
            continue
        commands.append(cmd)
        fields = cmd.model_dump()
        if ids is not None:
            for key in CREATURE_REF_FIELDS:
                value = fields.get(key)
                if isinstance(value, str) and value not in ids:
                    problems.add(f"{path}.{key}", f"unknown creature {_shown(value)} (creatures: {', '.join(ids)})")
            order = fields.get("order")
            if isinstance(order, list):
                for j, value in enumerate(order):
                    if value not in ids:
                        problems.add(f"{path}.order[{j}]", f"unknown creature {_shown(value)}")
        weapon = fields.get("weapon")
        if isinstance(weapon, str) and weapon not in weapons:
            problems.add(f"{path}.weapon", f"unknown weapon {_shown(weapon)} (not in weapons)")
    return commands


def _load_dice(problems: _Problems, data: dict[str, Any]) -> tuple[list[int] | None, int]:
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        problems.add("seed", f"must be a whole number (got {_shown(seed)})")
        seed = 0
    if "dice" not in data:
        return None, seed
    if "seed" in data:
        problems.add("seed", "give either dice (scripted faces) or seed (random dice), not both")
    faces: list[int] = []
    for i, face in enumerate(_as_list(problems, "dice", data["dice"])):
        if isinstance(face, bool) or not isinstance(face, int):
            problems.add(f"dice[{i}]", f"{_shown(face)} is not a d12 face (a whole number from 1 to {SIDES})")
        elif not 1 <= face <= SIDES:
            problems.add(f"dice[{i}]", f"{face} is not a d12 face (1 to {SIDES})")
        else:
            faces.append(face)
    return faces, seed


def _initial_state(
    problems: _Problems, settings: TableSettings, spec: _BoardSpec, creatures: list[Creature]
) -> GameState:
    """The starting state; walls, objects and creatures must lie on the map, creatures where they fit."""
    board = Board(
        cols=spec.cols,
        rows=spec.rows,
        walls=set(spec.walls),
        objects=spec.objects,
        conductive=spec.conductive,
        water=set(spec.water),
    )
    state = GameState(settings=settings, board=board)
    grid = grid_of(state)
    for i, cell in enumerate(spec.walls):
        if not grid.in_bounds(cell, board.cols, board.rows):
            problems.add(f"board.walls[{i}]", f"{cell} is off the {board.cols}x{board.rows} map")
    for i, obj in enumerate(board.objects):
        for j, cell in enumerate(obj.cells):
            if not grid.in_bounds(cell, board.cols, board.rows):
                problems.add(f"board.objects[{i}].cells[{j}]", f"{cell} is off the {board.cols}x{board.rows} map")
    filled = board.filled()
    for i, c in enumerate(creatures):
        state.creatures[c.id] = c
        why = why_cannot_stand(state, c, c.anchor, Occupancy(state), filled)
        if why is not None:
            problems.add(f"creatures[{i}].anchor", why)
    return state


# --------------------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------------------


def event_json(event: Event, command: int | None) -> dict[str, Any]:
    """An event as a JSON-ready dict, with the index of the command that caused it."""
    d = event.model_dump(mode="json")
    return {
        "kind": d["kind"],
        "command": command,
        "text": d["text"],
        "actor": d["actor"],
        "target": d["target"],
        "rolls": d["rolls"],
        "data": d["data"],
    }


def run(scenario: Scenario) -> RunResult:
    """Apply the commands in order. A command the rules reject becomes a `rejected` event, uses no dice and
    leaves the state as it was; the run goes on. A dice script that runs out is a `ScenarioError`."""
    state = scenario.state
    events: list[dict[str, Any]] = []
    log: list[LogEntry] = []
    script = scenario.dice
    used = 0
    random_dice = RandomDice(scenario.seed) if script is None else None
    for i, cmd in enumerate(scenario.commands):
        source: DiceSource = random_dice if random_dice is not None else ScriptedDice((script or [])[used:])
        dice = RecordingDice(source)
        try:
            state, evs = apply(state, cmd, dice)
        except RuleError as exc:
            events.append(
                {
                    "kind": "rejected",
                    "command": i,
                    "text": f"Rejected {cmd.type}: {exc}",
                    "actor": None,
                    "target": None,
                    "rolls": [],
                    "data": {"command": cmd.model_dump(mode="json"), "reason": str(exc)},
                }
            )
            continue
        except DiceScriptExhausted as exc:
            raise ScenarioError(
                [f"dice: the script ran out at commands[{i}] ({cmd.type}) after {used} face(s): {exc}"]
            ) from None
        used += len(dice.used)
        log.append(LogEntry(command=cmd.model_dump(mode="json"), faces=dice.used))
        events += [event_json(e, i) for e in evs]
    unused = None if script is None else script[used:]
    events.append(summary(state, unused))
    return RunResult(state=state, events=events, log=log, unused_dice=unused)


def run_scenario(scenario: Scenario) -> list[dict[str, Any]]:
    """The events of a run as JSON-ready dicts, ending with a `summary`."""
    return run(scenario).events


def _part_text(part: BodyPart) -> str:
    """A hurt part for the summary line: `right arm Wounded 4 severed`."""
    bits = [f"Wounded {part.wounded}" if part.wounded else "", f"Trauma {part.trauma}" if part.trauma else ""]
    bits.append("severed" if part.severed else "")
    return " ".join([part.name, *(b for b in bits if b)])


def summary(state: GameState, unused_dice: list[int] | None) -> dict[str, Any]:
    """The final `summary` event: each creature's place, pools, ailments, hurt parts (Wounded, Trauma, severed)
    and Holds; any unused dice faces."""
    creatures: dict[str, Any] = {}
    parts: list[str] = []
    for cid, c in state.creatures.items():
        holds = [
            {"hold": h.id, "role": "holder" if cid in h.holders else "held"}
            for h in state.holds.values()
            if cid in h.members
        ]
        flags = [name for name, on in (("prone", c.prone), ("unconscious", c.unconscious), ("dead", c.dead)) if on]
        enc = encumbered_tier(state, c)
        hurt = [p for p in c.parts if p.wounded or p.trauma or p.severed]
        creatures[cid] = {
            "name": c.name,
            "anchor": list(c.anchor),
            "grit": {"pips": c.grit.pips, "max": c.grit.max},
            "energy": {"pips": c.energy.pips, "max": c.energy.max},
            "resolve": {"pips": c.resolve.pips, "max": c.resolve.max},
            "ailments": dict(c.ailments),
            "parts": {p.id: {"wounded": p.wounded, "trauma": p.trauma, "severed": p.severed} for p in hurt},
            "encumbered": enc,
            "holds": holds,
            "conditions": flags,
        }
        line = f"{c.name} at {tuple(c.anchor)} Grit {c.grit.pips}/{c.grit.max}"
        if c.energy.pips:
            line += f" Energy {c.energy.pips}/{c.energy.max}"
        if c.resolve.pips:
            line += f" Resolve {c.resolve.pips}/{c.resolve.max}"
        if c.ailments:
            line += " " + ", ".join(f"{k} {v}" for k, v in sorted(c.ailments.items()))
        if hurt:
            line += " (" + ", ".join(_part_text(p) for p in hurt) + ")"
        if enc:
            line += f" Encumbered {enc}"
        if holds:
            line += " " + ", ".join(f"{h['role']} in {h['hold']}" for h in holds)
        if flags:
            line += " " + ", ".join(flags)
        parts.append(line)
    turn = state.turn
    who = None
    if turn.current == SOULWEAVER:
        who = "the Soulweaver's turn"
    elif turn.current is not None:
        who = f"{state.creatures[turn.current].name}'s turn" if turn.current in state.creatures else turn.current
    head = f"Round {turn.round}, {who}" if who else "Before the fight"
    if state.pending:
        head += f", waiting: {state.pending[0].prompt}"
    if unused_dice is None:
        tail = "random dice"
    elif unused_dice:
        tail = f"{len(unused_dice)} unused dice face(s): {', '.join(map(str, unused_dice))}"
    else:
        tail = "every scripted face used"
    return {
        "kind": "summary",
        "command": None,
        "text": f"{head}. " + "; ".join(parts) + f". Dice: {tail}.",
        "actor": None,
        "target": None,
        "rolls": [],
        "data": {
            "round": turn.round,
            "turn": turn.current,
            "creatures": creatures,
            "holds": [h.model_dump(mode="json") for h in state.holds.values()],
            "pending": [
                {"id": d.id, "kind": d.kind, "to": d.to, "prompt": d.prompt, "options": d.options}
                for d in state.pending
            ],
            "unused_dice": unused_dice,
        },
    }
