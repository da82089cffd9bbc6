"""Rolls and events are plain slotted records (`vtt.rules.records`) that read and write the very JSON the pydantic
models they replace did: the log, snapshots, the API and stored games are unchanged, byte for byte."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from vtt.rules.dice import DiceChange, Double, Modifier, Roll, ScriptedDice, roll
from vtt.rules.events import Event
from vtt.rules.model import Readied

MODS = (
    Modifier(value=2, reason="Charge", key="charge", source="kira"),
    Modifier(value=-1, reason="Wounded arm", key="wounded", source=None),
)

# `model_dump_json()` of `_event()` when Roll, Modifier, DiceChange, Double and Event were pydantic models.
EVENT_JSON = (
    '{"kind":"attack","text":"Kira strikes the Ghoul.","actor":"kira","target":"ghoul","rolls":[{"label":"Kira: '
    'Martial","base_dice":2,"dice_changes":[{"dice":1,"reason":"Flowing"}],"faces":[9,9,1],"modifiers":[{"value":2,'
    '"reason":"Charge","key":"charge","source":"kira"},{"value":-1,"reason":"Wounded arm","key":"wounded","source":'
    'null}],"dice":3,"result":10,"doubles":[{"face":9,"count":2}],"highest_double":9,"fumble":false},{"label":"Kira: '
    'damage","base_dice":3,"dice_changes":[],"faces":[1,1,4],"modifiers":[],"dice":3,"result":4,"doubles":[{"face":1,'
    '"count":2}],"highest_double":1,"fumble":true}],"data":{"dl":7,"success":true,"path":[[1,2],[2,2]]}}'
)


def _event() -> Event:
    attack = roll(ScriptedDice([9, 9, 1]), "Kira: Martial", 2, MODS, (DiceChange(dice=1, reason="Flowing"),))
    damage = roll(ScriptedDice([1, 1, 4]), "Kira: damage", 3)
    data = {"dl": 7, "success": True, "path": [(1, 2), (2, 2)]}
    return Event(
        kind="attack", text="Kira strikes the Ghoul.", actor="kira", target="ghoul", rolls=[attack, damage], data=data
    )


def test_an_event_with_rolls_writes_the_json_the_models_wrote_and_reads_it_back() -> None:
    e = _event()
    assert e.model_dump_json() == EVENT_JSON
    assert json.dumps(e.model_dump(mode="json"), separators=(",", ":")) == EVENT_JSON
    again = Event.model_validate_json(EVENT_JSON)
    assert again.rolls == e.rolls and type(again.rolls[0]) is Roll
    assert again.rolls[0].doubles == (Double(face=9, count=2),) and again.rolls[1].fumble
    assert again.model_dump_json() == EVENT_JSON
    assert Event.model_validate(json.loads(EVENT_JSON)).model_dump_json() == EVENT_JSON


def test_an_old_stored_event_validates_with_its_rolls_derived_anew() -> None:
    """An event of an old log: modifiers of value and reason only, no dice changes, no derived fields (and a stale
    result, which the faces and modifiers replace)."""
    old = {
        "kind": "attack",
        "text": "A attacks B.",
        "rolls": [
            {
                "label": "A: Strike",
                "base_dice": 2,
                "faces": [7, 7],
                "result": 99,
                "modifiers": [{"value": -1, "reason": "Hindered"}],
            }
        ],
    }
    e = Event.model_validate(old)
    (r,) = e.rolls
    assert (r.dice, r.result, r.highest_double, r.fumble) == (2, 6, 7, False)
    assert r.modifiers == (Modifier(value=-1, reason="Hindered", key="other", source=None),)
    assert (e.actor, e.target, e.data) == (None, None, {})


@pytest.mark.parametrize(
    ("bad_roll", "where"),
    [
        ({"label": "A: Strike", "base_dice": 1, "faces": ["seven"]}, ("rolls", 0, "faces", 0)),
        ({"label": "A: Strike", "faces": [7]}, ("rolls", 0, "base_dice")),
        (
            {"label": "A: Strike", "base_dice": 1, "faces": [7], "modifiers": [{"value": 1}]},
            ("rolls", 0, "modifiers", 0, "reason"),
        ),
        (
            {"label": "A: Strike", "base_dice": 1, "modifiers": [{"value": 1, "reason": "x", "key": "bogus"}]},
            ("rolls", 0, "modifiers", 0, "key"),
        ),
        ("a roll", ("rolls", 0)),
    ],
)
def test_a_bad_roll_in_input_is_refused_naming_the_field(bad_roll: Any, where: tuple[str | int, ...]) -> None:
    with pytest.raises(ValidationError) as refused:
        Event.model_validate({"kind": "attack", "text": "t", "rolls": [bad_roll]})
    assert [e["loc"] for e in refused.value.errors()] == [where]
    with pytest.raises(ValidationError):
        Event(kind="attack", text="t", rolls=[bad_roll])


def test_a_roll_inside_a_model_reads_and_writes_as_before() -> None:
    """`Readied.roll` (a Manifest roll kept in the state): kept as the same object, dumped as the event dumps it,
    and read back from that JSON, with the roll's own config (unknown keys ignored) and not Readied's."""

    class Holder(BaseModel):
        readied: Readied
        any_value: dict[str, Any]

    r = _event().rolls[0]
    readied = Readied.model_validate({"ability": "fireball", "roll": r, "dl": 6})
    assert readied.roll is r
    h = Holder(readied=readied, any_value={"roll": r})
    dumped = h.model_dump(mode="json")
    assert dumped["readied"]["roll"] == dumped["any_value"]["roll"] == json.loads(EVENT_JSON)["rolls"][0]
    assert Holder.model_validate_json(h.model_dump_json()).readied.roll == r
    stored = {**dumped["readied"], "roll": {**dumped["readied"]["roll"], "a_field_since_dropped": 1}}
    assert Readied.model_validate(stored).roll == r, "a roll ignores unknown keys, in a model that forbids them too"


def test_rolls_are_equal_hashable_and_copy_and_pickle_as_values() -> None:
    e = _event()
    r = e.rolls[0]
    twin = Roll(label=r.label, base_dice=r.base_dice, dice_changes=r.dice_changes, faces=r.faces, modifiers=r.modifiers)
    assert twin == r and hash(twin) == hash(r) and len({twin, r}) == 1
    assert Modifier(value=1, reason="x") != Modifier(value=1, reason="x", key="prone")
    assert pickle.loads(pickle.dumps(e)) == e and copy.deepcopy(e) == e
    with pytest.raises(AttributeError):
        MODS[0].value = 3  # type: ignore[misc]
    assert not hasattr(r, "__dict__") and not hasattr(e, "__dict__")
