"""Plain words in everything a person reads at the table (issue 12 item 8): no "(s)" for a plural, and no internal
name of a command ("end_turn") or of a table setting ("reaction_seconds") in an event of the log, a refusal, or
a menu's label or note. Command types that are plain English words ("move", "strike") are words a sentence may
use; the ones joined by "_" are not.

The texts come from playing: every example scenario (`maps/scenarios`), random games through a real `Table` (the
seat-view property's games and moves), and a list of commands the Soulweaver sends that are refused. The source
is checked too, for a "(s)" in any string literal that is not a docstring."""

from __future__ import annotations

import ast
import asyncio
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from factories import creature, on_turn, state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_seat_view_property import SW, games, play

from vtt.rules.commands import COMMAND_MODELS
from vtt.rules.dice import RandomDice
from vtt.rules.model import GameState
from vtt.rules.scenario import parse_scenario_text, run
from vtt.rules.settings import TableSettings
from vtt.table.table import Table, Viewer

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "maps" / "scenarios").glob("*.json"))
INTERNAL = sorted(
    {str(m.model_fields["type"].default) for m in COMMAND_MODELS} | set(TableSettings.model_fields),
    key=len,
    reverse=True,
)
INTERNAL_WORD = re.compile(r"\b(" + "|".join(re.escape(n) for n in INTERNAL if "_" in n) + r")\b")


def unplain(texts: Iterable[str]) -> list[str]:
    """The texts that are not in plain words, each with what is wrong."""
    bad = []
    for text in texts:
        if "(s)" in text:
            bad.append(f"'(s)' in {text!r}")
        if m := INTERNAL_WORD.search(text):
            bad.append(f"internal name {m.group(1)!r} in {text!r}")
    return bad


def table_texts(table: Table, refusals: Iterable[str] = ()) -> list[str]:
    """Every event text in the table's log, the refusals given, and the labels and notes of the menus now."""
    texts = [str(e.get("text", "")) for r in table.log for e in r.events]
    texts += list(refusals)
    seat = table.seat_view(SW)
    for cid in table.state.creatures:
        for option in seat.menu(cid):
            texts.append(option.label)
            texts += [t.note for t in option.targets if t.note]
    return texts


def test_the_checker_finds_what_it_looks_for() -> None:
    assert unplain(["Ayla moves 2 spaces.", "Ayla cannot move: end the turn first."]) == []
    assert len(unplain(["Ayla moves 2 space(s)."])) == 1
    assert unplain(["end_turn: not now"]) == ["internal name 'end_turn' in 'end_turn: not now'"]
    assert unplain(["reaction_seconds: at least 0"]) == [
        "internal name 'reaction_seconds' in 'reaction_seconds: at least 0'"
    ]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_example_games_are_told_in_plain_words(path: Path) -> None:
    result = run(parse_scenario_text(path.read_text(encoding="utf-8")))
    texts = [e["data"]["reason"] if e["kind"] == "rejected" else e["text"] for e in result.events]
    assert texts and unplain(texts) == []


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(game=games(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_games_are_told_in_plain_words(game: GameState, seed: int, data: st.DataObject) -> None:
    table = Table("plain", game, dice=lambda: RandomDice(seed))
    refusals: list[tuple[Viewer, Any, str]] = []
    try:
        asyncio.run(play(data.draw, table, refusals))
    finally:
        table.close()
    assert unplain(table_texts(table, (reason for _, _, reason in refusals))) == []


REFUSED: list[dict[str, Any]] = [
    {"type": "edit_board", "layer": "wall"},
    {"type": "edit_board", "layer": "wall", "paint": [[1, 1]], "erase": [[1, 1]]},
    {"type": "edit_board", "layer": "wall", "paint": [[99, 1]]},
    {"type": "edit_board", "layer": "wall", "paint": [[2, 2]]},
    {"type": "edit_board", "layer": "water", "paint": [[3, 3]], "object": {"name": "Crate"}},
    {"type": "edit_board", "layer": "object", "paint": [[3, 3]]},
    {"type": "add_creature", "creature": {"id": "a", "name": "A"}, "at": [4, 4]},
    {"type": "add_creature", "creature": {"name": "B", "swallowed_by": "a"}, "at": [4, 4]},
    {"type": "add_creature", "creature": {"name": "B", "focus": "nobody"}, "at": [4, 4]},
    {"type": "remove_creature", "creature": "a"},
    {"type": "resize_board", "cols": 2, "rows": 2},
    {"type": "set_background", "image": "javascript:alert(1)"},
    {"type": "change_settings", "changes": {}},
    {"type": "change_settings", "changes": {"reaction_seconds": -1}},
    {"type": "change_settings", "changes": {"stand_up_cost": "never"}},
    {"type": "change_settings", "changes": {"attack_senses": ["taste"]}},
    {"type": "change_settings", "changes": {"grid": "square"}},
    {"type": "change_settings", "changes": {"no_such_setting": 1}},
    {"type": "no_such_command"},
    {"creature": "a"},
]
PLAYED: list[dict[str, Any]] = [
    {"type": "add_creature", "creature": {"name": "Bat", "size": -4}, "at": [4, 4]},
    {"type": "change_settings", "changes": {"reactions": True, "stand_up_cost": "minor", "attack_senses": ["sound"]}},
    {"type": "edit_board", "layer": "wall", "paint": [[7, 1], [8, 1]]},
    {"type": "end_turn"},
    {"type": "remove_creature", "creature": "a"},
    {"type": "pass_time", "minutes": 1},
    {"type": "pass_time", "minutes": 3},
]


def test_the_soulweaver_s_commands_are_told_and_refused_in_plain_words() -> None:
    """Each command of `REFUSED` is refused with its reason in plain words (what to do instead, where it can say);
    each of `PLAYED` is played and told in plain words in the log."""
    s = on_turn(state(creature("a", (2, 2), controller="alice"), creature("b", (6, 6)), cols=10, rows=8), "a")
    table = Table("plain", s, dice=lambda: RandomDice(1))
    refusals = []
    for cmd in REFUSED:
        out = asyncio.run(table.submit(SW, cmd))
        assert not out.ok, cmd
        refusals.append(str(out.error))
    for cmd in PLAYED:
        out = asyncio.run(table.submit(SW, cmd))
        assert out.ok, (cmd, out.error)
    table.close()
    assert len(table.log) == len(PLAYED)
    assert unplain(table_texts(table, refusals)) == []


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def test_no_string_in_the_code_writes_a_plural_as_s_in_brackets() -> None:
    found = []
    for path in sorted((ROOT / "vtt").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) and id(node) not in docs else None
            if isinstance(text, str) and "(s)" in text:
                found.append(f"{path.relative_to(ROOT)}: {text!r}")
    assert found == []
