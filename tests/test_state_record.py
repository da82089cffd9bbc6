"""The game state is a slotted record (`vtt.rules.records`, a pydantic dataclass) that reads and writes what the
pydantic model it replaces did: the same JSON byte for byte (stored games and snapshots, the log, the API and map
files are unchanged, and an old stored state still loads), the same checks of outside input with the same error
types and locations, and the same copies; weak references to a state still work (the web keeps them)."""

from __future__ import annotations

import copy
import json
import weakref
from typing import Any

import pytest
from factories import creature, on_turn, state
from pydantic import BaseModel, ValidationError

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.fastmodel import construct, shallow_copy
from vtt.rules.model import Board, GameState
from vtt.rules.txn import Tx

DATA: dict[str, Any] = {
    "settings": {"reactions": False, "defense_prompts": "nobody"},
    "board": {
        "cols": 6,
        "rows": 5,
        "walls": [[1, 1]],
        "water": [[2, 2]],
        "uneven": {"3,3": 2},
        "light": [[0, 0, "dim"]],
        "objects": [{"id": "crate", "name": "Crate", "cells": [[4, 4]]}],
    },
    "creatures": {
        "kira": {"id": "kira", "name": "Kira", "anchor": [0, 1], "controller": "p1", "limbs": [], "parts": []}
    },
    "turn": {"round": 2, "entries": ["kira", "orc", "soulweaver"], "index": 1, "priority": {"kira": 9, "orc": 4}},
    "economy": {"orc": {"major": 1, "minor": 1, "movement_max": 4, "distractable": ["major"]}},
    "holds": {
        "h1": {
            "id": "h1",
            "holders": {"orc": ["left_arm"]},
            "held": ["kira"],
            "locks": [{"held": "kira", "part": "head", "holder": "orc", "limb": "left_arm"}],
        }
    },
    "effects": [{"id": "e1", "name": "Stance", "creator": "orc", "subject": "orc", "modifiers": {"Martial": 1}}],
    "pending": [
        {
            "id": "d1",
            "kind": "defense",
            "to": "p1",
            "creature": "kira",
            "prompt": "Defend?",
            "options": ["elude", "none"],
            "payload": {"x": [1, 2]},
        }
    ],
    "reactions": {"g1": {"waiting": ["kira"], "n": 1}},
    "next_id": 7,
    "version": 12,
}

# `GameState.model_validate(DATA).model_dump_json()` when GameState was a pydantic model, after its settings (a
# model still, written as `s.settings.model_dump_json()`).
REST_JSON = (
    '"board":{"cols":6,"rows":5,"walls":[[1,1]],"objects":[{"id":"crate","name":"Crate","cells":[[4,4]],"size":1,"d'
    'urability":null,"reduction":0,"wounded":0,"broken":false}],"items":[],"conductive":[],"water":[[2,2]],"uneven"'
    ':{"3,3":2},"light":{"0,0":"dim"},"background":null,"revealed":[],"hidden":[]},"creatures":{"kira":{"id":"kira"'
    ',"name":"Kira","species":null,"size":0,"anchor":[0,1],"footprint":null,"controller":"p1","side":null,"color":"'
    '#7a5c3e","picture":null,"hidden":false,"notes":"","skills":{},"grit":{"max":6,"pips":0},"energy":{"max":6,"pip'
    's":0},"resolve":{"max":6,"pips":0},"limbs":[],"weapons":[],"bulk":0.0,"gear_bulk":0.0,"ailments":{},"ailment_f'
    'ailures":{},"ailment_sources":[],"severe_threshold":null,"reductions":{},"armor_reduction":0,"immunities":[],"'
    'vulnerabilities":[],"parts":[],"continuing":[],"continuing_injury":{},"continuing_wounded":{},"prone":false,"u'
    'nconscious":false,"wake_failures":0,"recoveries":0,"dead":false,"ruptured_conduit_risk":0,"movement_pool":null'
    ',"minor_actions":null,"abilities":[],"focus":null,"focus_space":null,"focus_locked":false,"light":null,"dark_s'
    'ight":0,"swallowed_by":null,"in_conflict":false,"overexertion_rolls":0}},"turn":{"round":2,"entries":["kira","'
    'orc","soulweaver"],"index":1,"priority":{"kira":9,"orc":4}},"economy":{"orc":{"major":1,"minor":1,"movement_ma'
    'x":4,"movement_spent":0,"dashed":false,"consecutive_spaces":0,"attacked":false,"manifested":false,"words_spent'
    '":0,"charging":false,"major_unlocked":false,"flurry_uses":0,"balance":null,"balance_fumbled":false,"turn_over"'
    ':false,"distractable":["major"]}},"holds":{"h1":{"id":"h1","holders":{"orc":["left_arm"]},"held":["kira"],"ext'
    'ra_encumbered":{},"caused":{},"locks":[{"held":"kira","part":"head","holder":"orc","limb":"left_arm","strangle'
    'd":0}]}},"effects":[{"id":"e1","name":"Stance","creator":"orc","subject":"orc","modifiers":{"Martial":1},"roun'
    'ds":1,"curse":false,"ability":null,"limbs":[]}],"pending":[{"id":"d1","kind":"defense","to":"p1","creature":"k'
    'ira","prompt":"Defend?","options":["elude","none"],"payload":{"x":[1,2]}}],"reactions":{"g1":{"waiting":["kira'
    '"],"n":1}},"next_id":7,"version":12}'
)
SPARSE_JSON = (
    '{"settings": {"defense_prompts": "nobody", "reactions": false}, "board": {"cols": 6, "rows": 5, "walls": [[1, '
    '1]], "objects": [{"id": "crate", "name": "Crate", "cells": [[4, 4]]}], "water": [[2, 2]], "uneven": {"3,3": 2}'
    ', "light": {"0,0": "dim"}}, "creatures": {"kira": {"id": "kira", "name": "Kira", "anchor": [0, 1], "controller'
    '": "p1", "limbs": [], "parts": []}}, "turn": {"round": 2, "entries": ["kira", "orc", "soulweaver"], "index": 1'
    ', "priority": {"kira": 9, "orc": 4}}, "economy": {"orc": {"major": 1, "minor": 1, "movement_max": 4, "distract'
    'able": ["major"]}}, "holds": {"h1": {"id": "h1", "holders": {"orc": ["left_arm"]}, "held": ["kira"], "locks": '
    '[{"held": "kira", "part": "head", "holder": "orc", "limb": "left_arm"}]}}, "effects": [{"id": "e1", "name": "S'
    'tance", "creator": "orc", "subject": "orc", "modifiers": {"Martial": 1}}], "pending": [{"id": "d1", "kind": "d'
    'efense", "to": "p1", "creature": "kira", "prompt": "Defend?", "options": ["elude", "none"], "payload": {"x": ['
    '1, 2]}}], "reactions": {"g1": {"waiting": ["kira"], "n": 1}}, "next_id": 7, "version": 12}'
)


def test_a_state_writes_the_json_the_model_wrote_and_reads_it_back() -> None:
    s = GameState.model_validate(DATA)
    full = '{"settings":' + s.settings.model_dump_json() + "," + REST_JSON
    assert s.model_dump_json() == full
    assert json.dumps(s.model_dump(mode="json"), separators=(",", ":")) == full
    assert json.dumps(s.model_dump(mode="json", exclude_defaults=True)) == SPARSE_JSON
    assert s.model_dump(mode="json", include={"turn", "version"}) == {"turn": DATA["turn"], "version": 12}
    again = GameState.model_validate_json(full)
    assert again == s and again.model_dump_json() == full
    assert GameState.model_validate(json.loads(full)) == s


def test_a_stored_state_without_its_defaulted_fields_still_loads() -> None:
    old = GameState.model_validate_json('{"board":{"cols":3,"rows":2},"creatures":{}}')
    assert old == GameState(board=Board(cols=3, rows=2))
    assert (old.next_id, old.version, old.effects, old.turn.round) == (1, 0, [], 0)
    assert old.effects is not GameState(board=Board(cols=3, rows=2)).effects


BAD: dict[str, Any] = {
    "board": {"cols": 0, "rows": "x"},
    "next_id": "a",
    "creatures": {"k": {"id": "k"}},
    "turn": 3,
    "effects": [{"id": "e"}],
    "extra1": 5,
}
# The model's errors for BAD, in its order (fields as declared, unknown keys last).
BAD_ERRORS = [
    ("greater_than_equal", ("board", "cols")),
    ("int_parsing", ("board", "rows")),
    ("missing", ("creatures", "k", "name")),
    ("missing", ("creatures", "k", "anchor")),
    ("model_type", ("turn",)),
    ("missing", ("effects", 0, "name")),
    ("missing", ("effects", 0, "creator")),
    ("missing", ("effects", 0, "subject")),
    ("int_parsing", ("next_id",)),
    ("extra_forbidden", ("extra1",)),
]


@pytest.mark.parametrize("read", ["keywords", "validate", "json"])
def test_bad_input_is_refused_with_the_models_error_types_and_locations(read: str) -> None:
    with pytest.raises(ValidationError) as caught:
        if read == "keywords":
            GameState(**BAD)
        elif read == "validate":
            GameState.model_validate(BAD)
        else:
            GameState.model_validate_json(json.dumps(BAD))
    assert caught.value.title == "GameState"
    assert [(e["type"], e["loc"]) for e in caught.value.errors()] == BAD_ERRORS


def test_a_state_missing_its_board_names_it_with_what_it_was_given() -> None:
    with pytest.raises(ValidationError) as caught:
        GameState.model_validate({"version": 1, "zz": 2})
    assert [(e["type"], e["loc"], e["input"]) for e in caught.value.errors()] == [
        ("missing", ("board",), {"version": 1, "zz": 2}),
        ("extra_forbidden", ("zz",), 2),
    ]


@pytest.mark.parametrize("given", [5, [1, 2], "state"])
def test_what_is_not_a_dict_is_refused_as_the_model_refused_it(given: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        GameState.model_validate(given)
    [error] = caught.value.errors()
    assert (error["type"], error["loc"], error["input"]) == ("model_type", (), given)
    assert error["msg"] == "Input should be a valid dictionary or instance of GameState"


def test_a_state_given_is_taken_as_it_is_and_keeps_the_creatures_given() -> None:
    c = creature("kira", (0, 0))
    s = GameState(board=Board(cols=4, rows=4), creatures={"kira": c})
    assert s.creatures["kira"] is c
    assert GameState.model_validate(s) is s
    assert not issubclass(GameState, BaseModel) and not hasattr(s, "__dict__")


def test_the_copies_share_every_value_but_those_changed() -> None:
    s = GameState.model_validate(DATA)
    copied = shallow_copy(s, version=13)
    assert copied.version == 13 and s.version == 12
    assert all(getattr(copied, n) is getattr(s, n) for n in GameState.model_fields if n != "version")
    same = s.model_copy(update={"next_id": 9})
    assert same.next_id == 9 and same.creatures is s.creatures and s.next_id == 7
    deep = s.model_copy(deep=True)
    assert deep == s and deep.creatures is not s.creatures and deep.creatures["kira"] is not s.creatures["kira"]
    assert copy.deepcopy(s) == s and copy.copy(s) == s
    built = construct(GameState, board=s.board)
    assert built == GameState(board=s.board) and built.effects is not construct(GameState, board=s.board).effects


def test_new_ids_count_up_on_the_state_they_are_taken_from() -> None:
    s = GameState(board=Board(cols=2, rows=2), next_id=4)
    assert (s.new_id("e"), s.new_id("h"), s.next_id) == ("e4", "h5", 6)


def test_a_command_leaves_the_state_it_was_given_as_it_was_and_counts_the_version() -> None:
    s = on_turn(state(creature("a", (0, 0)), creature("b", (1, 0))), "a")
    before = s.model_dump_json()
    tx = Tx(s)
    assert tx.state is not s and tx.state == s
    assert tx.state.effects is s.effects and tx.state.pending is s.pending and tx.state.reactions is s.reactions
    assert tx.effects() is tx.state.effects is not s.effects and tx.effects() is tx.state.effects
    assert tx.pending() is tx.state.pending is not s.pending and tx.reactions() is tx.state.reactions is not s.reactions
    assert tx.state.creatures is s.creatures
    made, _ = apply(s, {"type": "end_turn"}, ScriptedDice([]))
    assert made.version == s.version + 1 and s.model_dump_json() == before


def test_a_state_may_be_held_by_a_weak_reference() -> None:
    s = GameState(board=Board(cols=2, rows=2))
    held = weakref.ref(s)
    assert held() is s
    del s
    assert held() is None


def test_a_state_has_no_field_it_does_not_declare() -> None:
    s = GameState(board=Board(cols=2, rows=2))
    with pytest.raises(AttributeError):
        s.wings = 2  # type: ignore[attr-defined]
