"""A body part is a slotted record (`vtt.rules.records`, a pydantic dataclass) that reads and writes what the pydantic
model it replaces did: the same JSON byte for byte, the same checks of outside input with the same error types,
locations, inputs and messages in the same order (unknown keys refused after the known keys' errors), alone, in a
creature and in a stored state; and a command's copy of one (`Tx.part`) is the plain copy, its own to change."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from factories import creature, state
from pydantic import BaseModel, ValidationError

from vtt.rules.fastmodel import construct, shallow_copy
from vtt.rules.model import BodyPart, Creature, GameState, humanoid_parts
from vtt.rules.txn import Tx

# `BodyPart(...).model_dump_json()` and `model_dump(exclude_defaults=True)` when BodyPart was a pydantic model.
PART_JSON = '{"id":"t","name":"t","size_offset":2,"wounded":1,"trauma":0,"severed":false}'
HUMANOID_JSON = (
    '{"id":"torso","name":"torso","size_offset":2,"wounded":0,"trauma":0,"severed":false}',
    '{"id":"left_eye","name":"left eye","size_offset":9,"wounded":0,"trauma":0,"severed":false}',
)


def test_a_part_writes_the_json_the_model_wrote_and_reads_it_back() -> None:
    p = BodyPart(id="t", name="t", size_offset=2, wounded=1)
    assert p.model_dump_json() == PART_JSON
    assert json.dumps(p.model_dump(mode="json"), separators=(",", ":")) == PART_JSON
    assert p.model_dump(exclude_defaults=True) == {"id": "t", "name": "t", "size_offset": 2, "wounded": 1}
    assert BodyPart.model_validate_json(PART_JSON) == p
    parts = humanoid_parts()
    assert (parts[0].model_dump_json(), parts[7].model_dump_json()) == HUMANOID_JSON
    assert not issubclass(BodyPart, BaseModel) and not hasattr(p, "__dict__")


def _alone(given: Any) -> Any:
    return BodyPart.model_validate(given)


def _keywords(given: Any) -> Any:
    return BodyPart(**given)


def _json(given: Any) -> Any:
    return BodyPart.model_validate_json(json.dumps(given))


def _in_creature(given: Any) -> Any:
    return Creature.model_validate({"id": "a", "name": "A", "anchor": [0, 0], "parts": [given]})


def _in_stored_state(given: Any) -> Any:
    torso = {"id": "torso", "name": "torso", "size_offset": 2}
    sheet = {"id": "a", "name": "A", "anchor": [0, 0], "parts": [torso, given]}
    return GameState.model_validate_json(json.dumps({"board": {"cols": 2, "rows": 2}, "creatures": {"a": sheet}}))


READS: dict[str, tuple[Callable[[Any], Any], str, tuple[Any, ...]]] = {
    "alone": (_alone, "BodyPart", ()),
    "keywords": (_keywords, "BodyPart", ()),
    "json": (_json, "BodyPart", ()),
    "in a creature": (_in_creature, "Creature", ("parts", 0)),
    "in a stored state": (_in_stored_state, "GameState", ("creatures", "a", "parts", 1)),
}
MISSING_AND_UNKNOWN = {"name": 3, "zz": 1, "wounded": -1}
BAD = {"id": 1, "name": None, "size_offset": 99, "wounded": -1, "trauma": "x", "severed": "q"}
# The model's errors for each (type, location under the part, input, message), in its order.
ERRORS: dict[str, list[tuple[str, tuple[Any, ...], Any, str]]] = {
    "missing and unknown": [
        ("missing", ("id",), MISSING_AND_UNKNOWN, "Field required"),
        ("string_type", ("name",), 3, "Input should be a valid string"),
        ("missing", ("size_offset",), MISSING_AND_UNKNOWN, "Field required"),
        ("greater_than_equal", ("wounded",), -1, "Input should be greater than or equal to 0"),
        ("extra_forbidden", ("zz",), 1, "Extra inputs are not permitted"),
    ],
    "bad": [
        ("string_type", ("id",), 1, "Input should be a valid string"),
        ("string_type", ("name",), None, "Input should be a valid string"),
        ("less_than_equal", ("size_offset",), 99, "Input should be less than or equal to 28"),
        ("greater_than_equal", ("wounded",), -1, "Input should be greater than or equal to 0"),
        ("int_parsing", ("trauma",), "x", "Input should be a valid integer, unable to parse string as an integer"),
        ("bool_parsing", ("severed",), "q", "Input should be a valid boolean, unable to interpret input"),
    ],
    "unknown only": [("extra_forbidden", ("zz",), 1, "Extra inputs are not permitted")],
    "empty": [
        ("missing", ("id",), {}, "Field required"),
        ("missing", ("name",), {}, "Field required"),
        ("missing", ("size_offset",), {}, "Field required"),
    ],
}
GIVEN = {
    "missing and unknown": MISSING_AND_UNKNOWN,
    "bad": BAD,
    "unknown only": {"id": "torso", "name": "torso", "size_offset": 2, "zz": 1},
    "empty": {},
}


@pytest.mark.parametrize("case", list(ERRORS))
@pytest.mark.parametrize("read", list(READS))
def test_bad_input_is_refused_with_the_models_errors_in_its_order(read: str, case: str) -> None:
    validate, title, where = READS[read]
    with pytest.raises(ValidationError) as caught:
        validate(GIVEN[case])
    assert caught.value.title == title
    got = [(e["type"], e["loc"], e["input"], e["msg"]) for e in caught.value.errors()]
    assert got == [(kind, (*where, *loc), given, msg) for kind, loc, given, msg in ERRORS[case]]


@pytest.mark.parametrize("given", [5, "x", [1], None])
@pytest.mark.parametrize("read", ["alone", "in a creature"])
def test_what_is_not_a_dict_is_refused_as_the_model_refused_it(read: str, given: Any) -> None:
    validate, _, where = READS[read]
    with pytest.raises(ValidationError) as caught:
        validate(given)
    [error] = caught.value.errors()
    assert (error["type"], error["loc"], error["input"]) == ("model_type", where, given)
    assert error["msg"] == "Input should be a valid dictionary or instance of BodyPart"


def test_a_part_given_is_taken_as_it_is() -> None:
    p = BodyPart(id="torso", name="torso", size_offset=2)
    assert BodyPart.model_validate(p) is p
    assert _in_creature(p).parts[0] is p


def test_the_rules_copies_and_builds_are_the_models() -> None:
    p = BodyPart(id="t", name="t", size_offset=2, wounded=1)
    changed = shallow_copy(p, trauma=2)
    assert changed == BodyPart(id="t", name="t", size_offset=2, wounded=1, trauma=2) and p.trauma == 0
    assert p.model_copy(update={"severed": True}).severed and not p.severed
    assert construct(BodyPart, id="t", name="t", size_offset=2) == BodyPart(id="t", name="t", size_offset=2)
    with pytest.raises(AttributeError):
        p.wings = 2  # type: ignore[attr-defined]


def _random_part(rng: random.Random, i: int) -> BodyPart:
    return BodyPart(
        id=f"p{i}",
        name=rng.choice(["torso", "head", "left arm", "tail"]),
        size_offset=rng.randint(-28, 28),
        wounded=rng.randint(0, 5),
        trauma=rng.randint(0, 3),
        severed=rng.random() < 0.2,
    )


@pytest.mark.parametrize("seed", range(20))
def test_a_part_a_command_changes_is_the_plain_copy_its_own_once(seed: int) -> None:
    rng = random.Random(seed)
    c = creature("a", (0, 0))
    c.parts = [_random_part(rng, i) for i in range(rng.randint(1, 12))]
    s = state(c)
    before = [p.model_dump() for p in c.parts]
    tx = Tx(s)
    chosen = rng.choice(c.parts)
    got = tx.part("a", chosen.id)
    assert got is not None and got is not chosen
    assert got.model_dump() == chosen.model_copy().model_dump()
    assert tx.part("a", chosen.id) is got
    got.wounded += 3
    assert [p.model_dump() for p in c.parts] == before
    mine = tx.state.creatures["a"].parts
    assert [p is q for p, q in zip(mine, c.parts, strict=True)] == [p.id != chosen.id for p in c.parts]
