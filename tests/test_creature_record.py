"""A creature is a slotted record (`vtt.rules.records`, a pydantic dataclass) that reads and writes what the
pydantic model it replaces did: the same JSON byte for byte (the log, snapshots, the API, stored games and map files
are unchanged), the same checks of outside input with the same error locations and types, and the same copies."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from pydantic import ValidationError

from vtt.rules.fastmodel import construct, set_fields, shallow_copy
from vtt.rules.model import Board, Creature, GameState

DATA: dict[str, Any] = {
    "id": "kira",
    "name": "Kira",
    "species": "human",
    "size": 1,
    "anchor": (3, 4),
    "footprint": [(0, 0), (1, 0)],
    "controller": "p1",
    "color": "#112233",
    "skills": {"Martial": 3},
    "grit": {"max": 5, "pips": 2},
    "weapons": [{"id": "sword", "name": "Sword", "damage": 2}],
    "bulk": 1.5,
    "gear_bulk": 2,
    "ailments": {"Bleeding": 2},
    "ailment_sources": [{"ailment": "Bleeding", "tiers": 1, "source": "g"}],
    "reductions": {"fire": 1},
    "immunities": ["cold"],
    "continuing": [{"id": "c1", "element": "fire", "amount": 2, "part": "torso"}],
    "prone": True,
    "focus_space": (1, 1),
    "light": {"bright": 2, "dim": 4},
    "overexertion_rolls": 1,
}

# `Creature.model_validate(DATA).model_dump_json()` when Creature was a pydantic model.
CREATURE_JSON = (
    '{"id":"kira","name":"Kira","species":"human","size":1,"anchor":[3,4],"footprint":[[0,0],[1,0]],"controller":'
    '"p1","side":null,"color":"#112233","picture":null,"hidden":false,"notes":"","skills":{"Martial":3},"grit":{"'
    'max":5,"pips":2},"energy":{"max":6,"pips":0},"resolve":{"max":6,"pips":0},"limbs":[{"id":"left_arm","name":"'
    'left arm","kind":"arm","can_grip":true,"holding":null,"hold_id":null,"readied":null,"distal":null},{"id":"ri'
    'ght_arm","name":"right arm","kind":"arm","can_grip":true,"holding":null,"hold_id":null,"readied":null,"dista'
    'l":null},{"id":"left_leg","name":"left leg","kind":"leg","can_grip":false,"holding":null,"hold_id":null,"rea'
    'died":null,"distal":null},{"id":"right_leg","name":"right leg","kind":"leg","can_grip":false,"holding":null,'
    '"hold_id":null,"readied":null,"distal":null}],"weapons":[{"id":"sword","name":"Sword","damage":2,"tier":1,"m'
    'ade_for_size":0,"lightweight":false,"two_handed":false,"extend":0,"accurate":false,"devastating":false,"stri'
    'ke_types":[],"element":null,"guard":0,"ammo":null,"ranged":null,"range":null}],"bulk":1.5,"gear_bulk":2.0,"a'
    'ilments":{"Bleeding":2},"ailment_failures":{},"ailment_sources":[{"ailment":"Bleeding","tiers":1,"source":"g'
    '","ends_with_source":false}],"severe_threshold":null,"reductions":{"fire":1},"armor_reduction":0,"immunities'
    '":["cold"],"vulnerabilities":[],"parts":[{"id":"torso","name":"torso","size_offset":2,"wounded":0,"trauma":0'
    ',"severed":false},{"id":"stomach","name":"stomach","size_offset":4,"wounded":0,"trauma":0,"severed":false},{'
    '"id":"left_leg","name":"left leg","size_offset":3,"wounded":0,"trauma":0,"severed":false},{"id":"right_leg",'
    '"name":"right leg","size_offset":3,"wounded":0,"trauma":0,"severed":false},{"id":"left_arm","name":"left arm'
    '","size_offset":4,"wounded":0,"trauma":0,"severed":false},{"id":"right_arm","name":"right arm","size_offset"'
    ':4,"wounded":0,"trauma":0,"severed":false},{"id":"head","name":"head","size_offset":5,"wounded":0,"trauma":0'
    ',"severed":false},{"id":"left_eye","name":"left eye","size_offset":9,"wounded":0,"trauma":0,"severed":false}'
    ',{"id":"right_eye","name":"right eye","size_offset":9,"wounded":0,"trauma":0,"severed":false},{"id":"left_ea'
    'r","name":"left ear","size_offset":9,"wounded":0,"trauma":0,"severed":false},{"id":"right_ear","name":"right'
    ' ear","size_offset":9,"wounded":0,"trauma":0,"severed":false}],"continuing":[{"id":"c1","element":"fire","ph'
    'ysical":false,"amount":2,"part":"torso","rounds":1,"source":null}],"continuing_injury":{},"continuing_wounde'
    'd":{},"prone":true,"unconscious":false,"wake_failures":0,"recoveries":0,"dead":false,"ruptured_conduit_risk"'
    ':0,"movement_pool":null,"minor_actions":null,"abilities":[],"focus":null,"focus_space":[1,1],"focus_locked":'
    'false,"light":{"bright":2,"dim":4},"dark_sight":0,"swallowed_by":null,"in_conflict":false,"overexertion_roll'
    's":1}'
)

# `json.dumps(c.model_dump(mode="json", exclude_defaults=True, exclude={"id", "anchor"}))` then (map files, library).
SHEET_JSON = (
    '{"name": "Kira", "species": "human", "size": 1, "footprint": [[0, 0], [1, 0]], "controller": "p1", "color": '
    '"#112233", "skills": {"Martial": 3}, "grit": {"max": 5, "pips": 2}, "weapons": [{"id": "sword", "name": "Swo'
    'rd", "damage": 2}], "bulk": 1.5, "gear_bulk": 2.0, "ailments": {"Bleeding": 2}, "ailment_sources": [{"ailmen'
    't": "Bleeding", "tiers": 1, "source": "g"}], "reductions": {"fire": 1}, "immunities": ["cold"], "continuing"'
    ': [{"id": "c1", "element": "fire", "amount": 2, "part": "torso"}], "prone": true, "focus_space": [1, 1], "li'
    'ght": {"bright": 2, "dim": 4}, "overexertion_rolls": 1}'
)


def test_a_creature_writes_the_json_the_model_wrote_and_reads_it_back() -> None:
    c = Creature.model_validate(DATA)
    assert c.model_dump_json() == CREATURE_JSON
    assert json.dumps(c.model_dump(mode="json"), separators=(",", ":")) == CREATURE_JSON
    assert json.dumps(c.model_dump(mode="json", exclude_defaults=True, exclude={"id", "anchor"})) == SHEET_JSON
    again = Creature.model_validate_json(CREATURE_JSON)
    assert again == c and again.model_dump_json() == CREATURE_JSON


def test_a_stored_state_with_creatures_reads_back_the_same() -> None:
    stored = f'{{"board":{{"cols":8,"rows":8}},"creatures":{{"kira":{CREATURE_JSON}}}}}'
    s = GameState.model_validate_json(stored)
    assert type(s.creatures["kira"]) is Creature
    assert s.creatures["kira"].model_dump_json() == CREATURE_JSON
    assert GameState.model_validate_json(s.model_dump_json()) == s
    assert f'"creatures":{{"kira":{CREATURE_JSON}}}' in s.model_dump_json()


def test_a_creature_saved_with_stomach_wounded_counts_it_on_its_stomach_part() -> None:
    old = Creature.model_validate({**DATA, "stomach_wounded": 2})
    stomach = old.part("stomach")
    assert stomach is not None and stomach.wounded == 2 and old.ailments["Wounded"] == 2


@pytest.mark.parametrize("read", ["keywords", "validate", "in a state"])
def test_bad_input_is_refused_with_the_models_error_types_and_locations(read: str) -> None:
    bad = {**DATA, "size": 99, "skills": {"Martial": -1}, "limbs": [{"id": 1}], "wings": 2}
    with pytest.raises(ValidationError) as caught:
        if read == "keywords":
            Creature(**bad)
        elif read == "validate":
            Creature.model_validate(bad)
        else:
            GameState.model_validate({"board": {"cols": 3, "rows": 3}, "creatures": {"k": bad}})
    where = ("creatures", "k") if read == "in a state" else ()
    assert [(e["type"], e["loc"]) for e in caught.value.errors()] == [
        ("less_than_equal", (*where, "size")),
        ("greater_than_equal", (*where, "skills", "Martial")),
        ("string_type", (*where, "limbs", 0, "id")),
        ("missing", (*where, "limbs", 0, "name")),
        ("extra_forbidden", (*where, "wings")),
    ]


def test_a_creature_missing_its_required_fields_names_each_with_what_it_was_given() -> None:
    with pytest.raises(ValidationError) as caught:
        Creature.model_validate({"name": "x", "zz": 2})
    assert [(e["type"], e["loc"], e["input"]) for e in caught.value.errors()] == [
        ("missing", ("id",), {"name": "x", "zz": 2}),
        ("missing", ("anchor",), {"name": "x", "zz": 2}),
        ("extra_forbidden", ("zz",), 2),
    ]


def test_the_rules_copies_share_every_value_but_those_changed() -> None:
    c = Creature.model_validate(DATA)
    copied = shallow_copy(c, prone=False)
    assert copied is not c and not copied.prone and c.prone
    assert all(getattr(copied, n) is getattr(c, n) for n in Creature.model_fields if n != "prone")
    same = c.model_copy(update={"size": 2})
    assert same.size == 2 and same.limbs is c.limbs and c.size == 1
    deep = c.model_copy(deep=True)
    assert deep == c and deep.limbs is not c.limbs
    assert copy.deepcopy(c) == c
    set_fields(copied, size=3)
    assert copied.size == 3 and c.size == 1


def test_a_creature_built_by_the_rules_takes_the_defaults_the_model_gives() -> None:
    built = construct(Creature, id="a", name="A", anchor=(0, 0))
    assert built == Creature(id="a", name="A", anchor=(0, 0))
    assert built.limbs is not construct(Creature, id="b", name="B", anchor=(0, 0)).limbs
    assert not hasattr(built, "__dict__")


def test_a_creature_is_placed_in_a_state_without_being_read_again() -> None:
    c = Creature.model_validate(DATA)
    s = GameState(board=Board(cols=8, rows=8), creatures={"kira": c})
    assert s.creatures["kira"] is c


def test_errors_are_listed_in_the_order_the_model_listed_them() -> None:
    """The fields the model declared without `Field` (id, anchor, color, prone...) are checked in their place, not
    after all the others."""
    bad = {**DATA, "id": 5, "species": 5, "size": "m", "anchor": "q", "color": 3, "prone": "z", "dead": "q"}
    with pytest.raises(ValidationError) as caught:
        Creature.model_validate(bad)
    assert [(e["type"], e["loc"]) for e in caught.value.errors()] == [
        ("string_type", ("id",)),
        ("string_type", ("species",)),
        ("int_parsing", ("size",)),
        ("tuple_type", ("anchor",)),
        ("string_type", ("color",)),
        ("bool_parsing", ("prone",)),
        ("bool_parsing", ("dead",)),
    ]
