"""Scenario files: a board, creatures, weapons, commands and dice in one JSON object, run through the engine.

A scenario is a worked example of the rules that a person can check by hand: its `description` states the
expected outcome and running it prints every event with its rolls. The format (version 1) is documented in
`docs/scenarios.md`: a map file (`vtt.rules.mapfile`, `docs/map-format.md`) plus commands and dice; in short::

    {"version": 1, "name": "...", "description": "...",
     "settings": {...partial TableSettings...},
     "board": {"cols": 10, "rows": 6, "walls": [[q, r], ...], "objects": [...]},
     "weapons": [{...Weapon...}, ...],
     "creatures": [{...Creature, but "weapons": ["id" or {...Weapon...}, ...], "grip": {"limb": "weapon_id"}}, ...],
     "commands": [{"type": "begin"}, ...],
     "dice": [9, 2, 5, ...],          # or "seed": 0 for seeded random dice
     "expect": {...}}                 # optional: what the run must show (`vtt.rules.expect`)

Everything here is pure: `load_scenario` takes already-decoded JSON data (or `parse_scenario_text` a string)
and validates it, `run_scenario` runs it and returns JSON-ready dicts. Reading files and printing belong to
`vtt.rules.__main__`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vtt.rules.commands import Command, parse_command
from vtt.rules.conditions import encumbered_tier
from vtt.rules.dice import DiceScriptExhausted, DiceSource, RandomDice, RecordingDice, ScriptedDice
from vtt.rules.engine import LogEntry, apply
from vtt.rules.events import Event, RuleError
from vtt.rules.expect import Expect, check, read_expect
from vtt.rules.mapfile import (
    MAP_FORMAT,
    MapError,
    Problems,
    as_list,
    initial_state,
    json_type,
    parse_json_text,
    read_format,
    read_parts,
    text_field,
)
from vtt.rules.model import SOULWEAVER, BodyPart, Creature, GameState, Weapon
from vtt.rules.paths import json_path, shown
from vtt.rules.words import count

FORMAT_VERSION = MAP_FORMAT
SIDES = 12
TOP_KEYS: tuple[str, ...] = (
    "version",
    "format",
    "name",
    "description",
    "grid",
    "settings",
    "board",
    "weapons",
    "creatures",
    "commands",
    "dice",
    "seed",
    "expect",
)
REQUIRED_KEYS: tuple[str, ...] = ("version", "name", "description", "board", "creatures")
CREATURE_REF_FIELDS: tuple[str, ...] = ("creature", "target", "collide_with")
"""Command fields naming a creature: checked against the file's creatures when it is loaded."""

ScenarioError = MapError
"""A malformed scenario (the same error as a malformed map); each problem starts with the JSON path of the bad
field."""


class Scenario(BaseModel):
    """A validated scenario: the starting state, the commands in order and where the dice come from."""

    model_config = ConfigDict(frozen=True)
    name: str
    description: str
    state: GameState
    commands: list[Command] = Field(default_factory=list)
    dice: list[int] | None = Field(None, description="Scripted d12 faces, used in order; None rolls `seed`.")
    seed: int = 0
    expect: Expect | None = Field(None, description="What the run must show (`vtt.rules.expect`).")


class RunResult(BaseModel):
    """Everything a run produced: the final state, the JSON-ready events and a replayable command log."""

    state: GameState
    events: list[dict[str, Any]]
    log: list[LogEntry] = Field(description="Each applied command with the faces it used (rejected ones left out).")
    unused_dice: list[int] | None = Field(description="Scripted faces no command used; None with random dice.")
    states: list[GameState] = Field(
        default_factory=list, description="The state after each command, by its index (a refused one: unchanged)."
    )


# --------------------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------------------


def parse_scenario_text(text: str) -> Scenario:
    """A scenario from JSON text; invalid JSON and duplicate keys are `ScenarioError`s too."""
    return load_scenario(parse_json_text(text))


def load_scenario(data: object) -> Scenario:
    """Validate decoded JSON data as a scenario; `ScenarioError` names every bad field by its JSON path. The map
    part (settings, board, weapons, creatures) is read as `mapfile.load_map` reads it."""
    problems = Problems()
    if not isinstance(data, dict):
        raise ScenarioError([f"scenario: must be a JSON object, not {json_type(data)}"])
    for key in data:
        if key not in TOP_KEYS:
            problems.add(json_path(str(key)), f"unknown key; a scenario has {', '.join(TOP_KEYS)}")
    for key in REQUIRED_KEYS:
        if key not in data:
            problems.add(key, "missing (required)")
    read_format(problems, data)
    name = text_field(problems, data, "name", required=True)
    description = text_field(problems, data, "description", required=True)
    parts = read_parts(problems, data)
    creatures = parts.creatures if "creatures" in data else []
    commands = _load_commands(problems, data.get("commands", []), creatures, parts.weapons)
    dice, seed = _load_dice(problems, data)
    expect = None
    if "expect" in data:
        ids = [c.id for c in creatures] if creatures is not None else []
        raw_commands = data.get("commands", [])
        count = len(raw_commands) if isinstance(raw_commands, list) else 0
        expect = read_expect(problems, data["expect"], ids, count)

    problems.raise_if_any()
    assert parts.settings is not None and parts.board is not None and creatures is not None
    state = initial_state(problems, parts.settings, parts.board, creatures)
    problems.raise_if_any()
    return Scenario(
        name=name, description=description, state=state, commands=commands, dice=dice, seed=seed, expect=expect
    )


def _load_commands(
    problems: Problems, raw: object, creatures: list[Creature] | None, weapons: dict[str, Weapon]
) -> list[Command]:
    commands: list[Command] = []
    ids = {c.id for c in creatures} if creatures is not None else None
    for i, item in enumerate(as_list(problems, "commands", raw)):
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
                    problems.add(f"{path}.{key}", f"unknown creature {shown(value)} (creatures: {', '.join(ids)})")
            order = fields.get("order")
            if isinstance(order, list):
                for j, value in enumerate(order):
                    if value not in ids:
                        problems.add(f"{path}.order[{j}]", f"unknown creature {shown(value)}")
        weapon = fields.get("weapon")
        if isinstance(weapon, str) and weapon not in weapons:
            problems.add(f"{path}.weapon", f"unknown weapon {shown(weapon)} (not in weapons)")
    return commands


def _load_dice(problems: Problems, data: dict[str, Any]) -> tuple[list[int] | None, int]:
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        problems.add("seed", f"must be a whole number (got {shown(seed)})")
        seed = 0
    if "dice" not in data:
        return None, seed
    if "seed" in data:
        problems.add("seed", "give either dice (scripted faces) or seed (random dice), not both")
    faces: list[int] = []
    for i, face in enumerate(as_list(problems, "dice", data["dice"])):
        if isinstance(face, bool) or not isinstance(face, int):
            problems.add(f"dice[{i}]", f"{shown(face)} is not a d12 face (a whole number from 1 to {SIDES})")
        elif not 1 <= face <= SIDES:
            problems.add(f"dice[{i}]", f"{face} is not a d12 face (1 to {SIDES})")
        else:
            faces.append(face)
    return faces, seed


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
    states: list[GameState] = []
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
                    "data": {"command": cmd.model_dump(mode="json"), "reason": str(exc), "code": exc.code},
                }
            )
            states.append(state)
            continue
        except DiceScriptExhausted as exc:
            raise ScenarioError([_ran_out(i, cmd.type, exc, len(script or []))]) from None
        used += len(dice.used)
        log.append(LogEntry(command=cmd.model_dump(mode="json"), faces=dice.used))
        events += [event_json(e, i) for e in evs]
        states.append(state)
    unused = None if script is None else script[used:]
    events.append(summary(state, unused))
    return RunResult(state=state, events=events, log=log, unused_dice=unused, states=states)


def _ran_out(index: int, kind: str, exc: DiceScriptExhausted, total: int) -> str:
    """Which roll wanted more scripted faces than were left."""
    wanted = f"{exc.wanted} face" if exc.wanted == 1 else f"{exc.wanted} faces"
    left = {0: "none was left", 1: "only 1 was left"}.get(exc.left, f"only {exc.left} were left")
    return (
        f"dice: the script ran out at commands[{index}] ({kind}): the roll {shown(exc.purpose)} wanted {wanted} "
        f"and {left} ({total - exc.left} of the {total} scripted faces were used before it)"
    )


def check_expectations(scenario: Scenario, result: RunResult) -> str | None:
    """The first expectation of the scenario's `expect` block that the run does not meet, in words; None when
    it meets them all or has none."""
    if scenario.expect is None:
        return None
    types: list[str] = [c.type for c in scenario.commands]
    return check(scenario.expect, result.events, result.states, result.state, types)


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
        tail = f"{count(len(unused_dice), 'unused dice face')}: {', '.join(map(str, unused_dice))}"
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
