"""A scenario's `expect` block: what its run must show, checked by `python -m vtt.rules FILE` (docs/scenarios.md).

Every part is optional and matches a subset by default::

    "expect": {
      "rejected": {"1": "reach.out_of_reach"},            # exactly these commands are refused (code or null)
      "kinds": {"1": ["reach", "attack", "damage"]},      # exactly these event kinds for a command, in order
      "events": [{"command": 2, "kind": "attack", "data": {"success": true}}, ...],   # in order, others between
      "rolls": [{"label": "Torva", "faces": [9, 4], "result": 9, "modifiers": []}, ...],  # in order
      "summary": {"round": 1, "creatures": {"goblin_a": {"grit": {"pips": 1}, "ailments": {}}}},
      "menus": [{"creature": "torva", "after": 0, "offered": [{"action": "strike", "targets": ["goblin_a"]}],
                 "not_offered": [{"action": "strike", "targets": ["goblin_c"]}]}]
    }

Matching: an object matches when each key it gives matches (`{}` matches only an empty object, `null` only a
missing key or a null); a list matches a list of the same length, item by item; the strings under `text`,
`reason`, `label`, `prompt` and `note` match when they appear in the actual text; everything else must be equal.
Pure: `read_expect` validates decoded JSON, `check` compares a run with it and returns the first mismatch in
words, or None.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from vtt.rules.engine import legal_actions
from vtt.rules.mapfile import Problems, json_type
from vtt.rules.menu_text import why_no_options
from vtt.rules.model import GameState
from vtt.rules.paths import shown

EXPECT_KEYS: tuple[str, ...] = ("rejected", "kinds", "events", "rolls", "summary", "menus")
EVENT_KEYS: tuple[str, ...] = ("kind", "command", "text", "actor", "target", "rolls", "data")
ROLL_KEYS: tuple[str, ...] = (
    "label",
    "base_dice",
    "dice_changes",
    "faces",
    "modifiers",
    "dice",
    "result",
    "doubles",
    "highest_double",
    "fumble",
)
SUMMARY_KEYS: tuple[str, ...] = ("round", "turn", "creatures", "holds", "pending", "unused_dice")
CREATURE_KEYS: tuple[str, ...] = (
    "name",
    "anchor",
    "grit",
    "energy",
    "resolve",
    "ailments",
    "parts",
    "encumbered",
    "holds",
    "conditions",
)
MENU_KEYS: tuple[str, ...] = ("creature", "after", "offered", "not_offered")
OPTION_KEYS: tuple[str, ...] = ("action", "group", "label", "cost", "params", "targets", "spaces", "reach", "command")
TEXT_KEYS = frozenset({"text", "reason", "label", "prompt", "note"})
"""Keys whose expected string only has to appear in the actual one."""
SHOWN_CHARS = 160


class MenuExpect(BaseModel):
    """Options a creature is, and is not, offered after a command (or at the end)."""

    model_config = ConfigDict(frozen=True)
    creature: str
    after: int | None = Field(None, description="The index of the command after which to ask; None: the end.")
    offered: list[dict[str, Any]] = Field(default_factory=list)
    not_offered: list[dict[str, Any]] = Field(default_factory=list)


class Expect(BaseModel):
    """A validated `expect` block (see the module docstring)."""

    model_config = ConfigDict(frozen=True)
    rejected: dict[int, str | None] | None = None
    kinds: dict[int, list[str]] = Field(default_factory=dict)
    events: list[dict[str, Any]] = Field(default_factory=list)
    rolls: list[dict[str, Any]] = Field(default_factory=list)
    summary: dict[str, Any] | None = None
    menus: list[MenuExpect] = Field(default_factory=list)


# --------------------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------------------


def read_expect(problems: Problems, raw: object, creature_ids: Sequence[str], commands: int) -> Expect | None:
    """Validate an `expect` block; every problem is added under `expect...` and None returned if there are any."""
    before = len(problems.items)
    if not isinstance(raw, dict):
        problems.add("expect", f"must be an object, not {json_type(raw)}")
        return None
    _known_keys(problems, "expect", raw, EXPECT_KEYS)
    rejected: dict[int, str | None] | None = None
    if "rejected" in raw:
        rejected = {}
        for key, code in _indexed(problems, "expect.rejected", raw["rejected"], commands).items():
            if code is not None and not isinstance(code, str):
                problems.add(f'expect.rejected["{key}"]', "must be a refusal code (a string) or null for any reason")
            else:
                rejected[key] = code
    kinds: dict[int, list[str]] = {}
    for key, value in _indexed(problems, "expect.kinds", raw.get("kinds", {}), commands).items():
        if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
            problems.add(f'expect.kinds["{key}"]', "must be a list of event kinds (strings)")
        else:
            kinds[key] = value
    events = _patterns(problems, "expect.events", raw.get("events", []), EVENT_KEYS)
    for i, e in enumerate(events):
        _check_command(problems, f"expect.events[{i}].command", e.get("command"), commands)
        if "rolls" in e:
            _patterns(problems, f"expect.events[{i}].rolls", e["rolls"], ROLL_KEYS)
    rolls = _patterns(problems, "expect.rolls", raw.get("rolls", []), (*ROLL_KEYS, "command"))
    for i, r in enumerate(rolls):
        _check_command(problems, f"expect.rolls[{i}].command", r.get("command"), commands)
    summary = None
    if "summary" in raw:
        summary = _summary(problems, raw["summary"], creature_ids)
    menus: list[MenuExpect] = []
    for i, m in enumerate(_patterns(problems, "expect.menus", raw.get("menus", []), MENU_KEYS)):
        menu = _menu(problems, f"expect.menus[{i}]", m, creature_ids, commands)
        if menu is not None:
            menus.append(menu)
    if len(problems.items) > before:
        return None
    return Expect(rejected=rejected, kinds=kinds, events=events, rolls=rolls, summary=summary, menus=menus)


def _known_keys(problems: Problems, path: str, raw: dict[str, Any], keys: Sequence[str]) -> None:
    for key in raw:
        if key not in keys:
            problems.add(f"{path}.{key}", f"unknown key; one of {', '.join(keys)}")


def _indexed(problems: Problems, path: str, raw: object, commands: int) -> dict[int, Any]:
    """An object keyed by command indices ("1") as a dict keyed by int."""
    if not isinstance(raw, dict):
        problems.add(path, f"must be an object keyed by command index, not {json_type(raw)}")
        return {}
    out: dict[int, Any] = {}
    for key, value in raw.items():
        if not key.isdigit() or int(key) >= commands:
            problems.add(f'{path}["{key}"]', f"not a command index (the scenario has commands 0 to {commands - 1})")
        else:
            out[int(key)] = value
    return out


def _patterns(problems: Problems, path: str, raw: object, keys: Sequence[str]) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        problems.add(path, f"must be a list, not {json_type(raw)}")
        return []
    out: list[dict[str, Any]] = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            problems.add(f"{path}[{i}]", f"must be an object, not {json_type(item)}")
            continue
        if not item:
            problems.add(f"{path}[{i}]", "expects nothing: give at least one key")
        _known_keys(problems, f"{path}[{i}]", item, keys)
        out.append(item)
    return out


def _check_command(problems: Problems, path: str, value: object, commands: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < commands:
        problems.add(path, f"{shown(value)} is not a command index (0 to {commands - 1})")


def _summary(problems: Problems, raw: object, creature_ids: Sequence[str]) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        problems.add("expect.summary", f"must be an object, not {json_type(raw)}")
        return None
    _known_keys(problems, "expect.summary", raw, SUMMARY_KEYS)
    creatures = raw.get("creatures", {})
    if not isinstance(creatures, dict):
        problems.add("expect.summary.creatures", f"must be an object keyed by creature id, not {json_type(creatures)}")
        return None
    for cid, pattern in creatures.items():
        path = f"expect.summary.creatures.{cid}"
        if cid not in creature_ids:
            problems.add(path, f"unknown creature {shown(cid)} (creatures: {', '.join(creature_ids)})")
        elif not isinstance(pattern, dict):
            problems.add(path, f"must be an object, not {json_type(pattern)}")
        else:
            _known_keys(problems, path, pattern, CREATURE_KEYS)
    return raw


def _menu(
    problems: Problems, path: str, raw: dict[str, Any], creature_ids: Sequence[str], commands: int
) -> MenuExpect | None:
    creature = raw.get("creature")
    if not isinstance(creature, str) or creature not in creature_ids:
        problems.add(f"{path}.creature", f"must name a creature of the scenario ({', '.join(creature_ids)})")
        return None
    _check_command(problems, f"{path}.after", raw.get("after"), commands)
    offered = _patterns(problems, f"{path}.offered", raw.get("offered", []), OPTION_KEYS)
    not_offered = _patterns(problems, f"{path}.not_offered", raw.get("not_offered", []), OPTION_KEYS)
    if not offered and not not_offered:
        problems.add(path, "expects nothing: give offered or not_offered")
    after = raw.get("after")
    return MenuExpect(
        creature=creature,
        after=after if isinstance(after, int) else None,
        offered=offered,
        not_offered=not_offered,
    )


# --------------------------------------------------------------------------------------------------------
# Matching
# --------------------------------------------------------------------------------------------------------


class Miss(BaseModel):
    """Where a pattern and a value first differ: the path inside the pattern, what was expected and what was got."""

    path: str
    expected: Any
    got: Any
    contains: bool = False
    absent: bool = False

    def words(self) -> str:
        where = f"{self.path}: " if self.path else ""
        if self.absent:
            return f"{where}expected nothing there, got {_json(self.got)}"
        wanted = f"a text containing {_json(self.expected)}" if self.contains else _json(self.expected)
        return f"{where}expected {wanted}, got {_json(self.got)}"


MISSING = "(nothing)"


def _json(value: Any) -> str:
    if value is MISSING:
        return "nothing"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def _same_kinds(expected: list[Any], got: list[Any]) -> bool:
    return all(isinstance(e, bool) == isinstance(g, bool) for e, g in zip(expected, got, strict=True))


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def match(expected: Any, got: Any, path: str = "", key: str | None = None) -> Miss | None:
    """The first place where `got` does not match the pattern `expected`, or None (rules: module docstring)."""
    if isinstance(expected, dict):
        if not isinstance(got, dict) or (not expected and got):
            return Miss(path=path, expected=expected, got=got)
        for k, v in expected.items():
            sub = _join(path, k)
            if v is None:
                if got.get(k) is not None:
                    return Miss(path=sub, expected=None, got=got[k], absent=True)
                continue
            if k not in got:
                return Miss(path=sub, expected=v, got=MISSING)
            miss = match(v, got[k], sub, k)
            if miss is not None:
                return miss
        return None
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return Miss(path=path, expected=expected, got=got)
        if key not in TEXT_KEYS and not any(isinstance(e, dict | list) for e in expected):
            # a list of plain values (faces, a space) is shown whole
            return (
                None if expected == got and _same_kinds(expected, got) else Miss(path=path, expected=expected, got=got)
            )
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            miss = match(e, g, _join(path, i), key)
            if miss is not None:
                return miss
        return None
    if isinstance(expected, str) and key in TEXT_KEYS:
        if isinstance(got, str) and expected in got:
            return None
        return Miss(path=path, expected=expected, got=got, contains=True)
    if isinstance(expected, bool) != isinstance(got, bool) or expected != got:
        return Miss(path=path, expected=expected, got=got)
    return None


# --------------------------------------------------------------------------------------------------------
# Checking a run
# --------------------------------------------------------------------------------------------------------


def check(
    expect: Expect, events: list[dict[str, Any]], states: list[GameState], final: GameState, command_types: list[str]
) -> str | None:
    """The first expectation the run does not meet, in words, or None when it meets them all. `states[i]` is
    the state after `commands[i]`, `final` the last one; `command_types[i]` the command's type."""
    checks: list[Callable[[], str | None]] = [
        lambda: _check_rejected(expect, events, command_types),
        lambda: _check_kinds(expect, events, command_types),
        lambda: _check_events(expect, events),
        lambda: _check_rolls(expect, events),
        lambda: _check_summary(expect, events),
        lambda: _check_menus(expect, states, final),
    ]
    for step in checks:
        found = step()
        if found is not None:
            return found
    return None


def count(expect: Expect) -> int:
    """How many expectations the block holds (for the message that all were met)."""
    menus = sum(len(m.offered) + len(m.not_offered) for m in expect.menus)
    rejected = 0 if expect.rejected is None else max(1, len(expect.rejected))
    return rejected + len(expect.kinds) + len(expect.events) + len(expect.rolls) + (expect.summary is not None) + menus


def _cmd(i: int | None, command_types: list[str]) -> str:
    return f"commands[{i}] ({command_types[i]})" if i is not None and i < len(command_types) else "the run"


def _check_rejected(expect: Expect, events: list[dict[str, Any]], command_types: list[str]) -> str | None:
    if expect.rejected is None:
        return None
    refused = {e["command"]: e["data"] for e in events if e["kind"] == "rejected"}
    for i, code in sorted(expect.rejected.items()):
        where = f'expect.rejected["{i}"]'
        if i not in refused:
            return f"{where}: {_cmd(i, command_types)} should have been refused, but the rules allowed it"
        got = refused[i].get("code")
        if code is not None and got != code:
            return (
                f"{where}: {_cmd(i, command_types)} was refused with the code {_json(got)}, expected {_json(code)} "
                f"(its reason: {refused[i]['reason']})"
            )
    for i, data in sorted(refused.items()):
        if i not in expect.rejected:
            return f"expect.rejected: {_cmd(i, command_types)} was refused, and it does not list it: {data['reason']}"
    return None


def _check_kinds(expect: Expect, events: list[dict[str, Any]], command_types: list[str]) -> str | None:
    for i, kinds in sorted(expect.kinds.items()):
        got = [e["kind"] for e in events if e["command"] == i]
        if got != kinds:
            return (
                f'expect.kinds["{i}"]: {_cmd(i, command_types)} made the events {", ".join(got) or "(none)"}; '
                f"expected {', '.join(kinds) or '(none)'}"
            )
    return None


def _event_name(e: dict[str, Any]) -> str:
    if e["kind"] == "summary":
        return "the summary"
    return f"the {e['kind']} event of commands[{e['command']}] ({_json(e['text'])})"


def _first_unmatched(
    patterns: list[dict[str, Any]], items: list[dict[str, Any]], where: str, describe: Callable[[dict[str, Any]], str]
) -> str | None:
    """Match `patterns` in order against `items` (others may come between); explain the first that fails."""
    pos = 0
    for i, pattern in enumerate(patterns):
        here = f"{where}[{i}]"
        found = next((j for j in range(pos, len(items)) if match(pattern, items[j]) is None), None)
        if found is not None:
            pos = found + 1
            continue
        earlier = next((j for j in range(pos) if match(pattern, items[j]) is None), None)
        if earlier is not None:
            return (
                f"{here}: {describe(items[earlier])} matches, but it comes before the one {where}[{i - 1}] matched "
                "(expectations are in the order of the run)"
            )
        near = _nearest(pattern, items[pos:]) or _nearest(pattern, items)
        if near is None:
            after = f" after {describe(items[pos - 1])}" if pos else ""
            return f"{here}: no such {_what(pattern)} in the run{after}"
        miss = match(pattern, near)
        assert miss is not None
        return f"{here}: {describe(near)}: {miss.words()}"
    return None


def _what(pattern: dict[str, Any]) -> str:
    bits = [f"{pattern['kind']} event" if "kind" in pattern else "event" if "text" in pattern else "roll"]
    if "command" in pattern:
        bits.append(f"of commands[{pattern['command']}]")
    if "label" in pattern:
        bits.append(f"labelled {_json(pattern['label'])}")
    return " ".join(bits)


def _nearest(pattern: dict[str, Any], items: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The item the pattern most likely meant: the first agreeing on its kind, command and label."""
    for item in items:
        if all(
            match(pattern[k], item.get(k, MISSING), k, k) is None for k in ("kind", "command", "label") if k in pattern
        ):
            return item
    return None


def _check_events(expect: Expect, events: list[dict[str, Any]]) -> str | None:
    return _first_unmatched(expect.events, events, "expect.events", _event_name)


def _check_rolls(expect: Expect, events: list[dict[str, Any]]) -> str | None:
    rolls = [{**r, "command": e["command"]} for e in events for r in e["rolls"]]

    def describe(r: dict[str, Any]) -> str:
        return f"the roll {_json(r['label'])} of commands[{r['command']}]"

    return _first_unmatched(expect.rolls, rolls, "expect.rolls", describe)


def _check_summary(expect: Expect, events: list[dict[str, Any]]) -> str | None:
    if expect.summary is None:
        return None
    miss = match(expect.summary, events[-1]["data"], "expect.summary")
    return None if miss is None else f"the summary: {miss.words()}"


def _check_menus(expect: Expect, states: list[GameState], final: GameState) -> str | None:
    for i, menu in enumerate(expect.menus):
        state = final if menu.after is None else states[menu.after]
        options = [o.model_dump(mode="json") for o in legal_actions(state, menu.creature)]
        name = state.creatures[menu.creature].name if menu.creature in state.creatures else menu.creature
        when = "at the end" if menu.after is None else f"after commands[{menu.after}]"
        for j, pattern in enumerate(menu.offered):
            here = f"expect.menus[{i}].offered[{j}]"
            if any(_option_miss(pattern, o) is None for o in options):
                continue
            near = next((o for o in options if o["action"] == pattern.get("action")), None)
            if near is None:
                listed = ", ".join(o["label"] for o in options) or f"nothing ({why_no_options(state, menu.creature)})"
                return (
                    f"{here}: {name} is not offered {_json(pattern.get('action', pattern))} {when}; offered: {listed}"
                )
            miss = _option_miss(pattern, near)
            assert miss is not None
            return f"{here}: {name}'s option {_json(near['label'])} {when}: {miss.words()}"
        for j, pattern in enumerate(menu.not_offered):
            hit = next((o for o in options if _option_miss(pattern, o) is None), None)
            if hit is not None:
                targets = [t["target"] or t["space"] for t in hit["targets"]]
                more = f" (targets: {', '.join(map(str, targets))})" if targets else ""
                return (
                    f"expect.menus[{i}].not_offered[{j}]: {name} is offered {_json(hit['label'])}{more} {when}, "
                    "expected it not to be"
                )
    return None


def _option_miss(pattern: dict[str, Any], option: dict[str, Any]) -> Miss | None:
    """Where an option does not match a menu pattern: `targets` and `spaces` list some of those offered (a
    target as its id or a pattern of its fields), the rest matches as everywhere."""
    plain = {k: v for k, v in pattern.items() if k not in ("targets", "spaces")}
    miss = match(plain, option) if plain else None
    if miss is not None:
        return miss
    for k, want in enumerate(pattern.get("targets", [])):
        target = {"target": want} if isinstance(want, str) else want
        if not any(match(target, t) is None for t in option["targets"]):
            got = [t["target"] or t["space"] for t in option["targets"]]
            return Miss(path=f"targets[{k}]", expected=want, got=got or "no targets")
    for k, cell in enumerate(pattern.get("spaces", [])):
        if cell not in option["spaces"]:
            return Miss(path=f"spaces[{k}]", expected=cell, got=f"{len(option['spaces'])} other spaces")
    return None
