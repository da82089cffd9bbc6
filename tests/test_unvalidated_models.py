"""Rolls and events built without validation (`dice.roll`, `Event(...)` from the rules' own values) are the models
validation builds from the same values: same fields, same derived result, doubles and Fumble, same dump."""

from __future__ import annotations

import json
import random
from dataclasses import fields

import pytest

from vtt.rules.attacks import AttackSpec, spec_of_payload, spec_payload
from vtt.rules.dice import DiceChange, DiceError, Modifier, RandomDice, RecordingDice, Roll, ScriptedDice, roll
from vtt.rules.events import Event

_MODS = (
    Modifier(value=2, reason="a"),
    Modifier(value=-1, reason="b", key="wounded", source="x"),
    Modifier(value=-3, reason="c"),
)
_CHANGES = (DiceChange(dice=1, reason="more"), DiceChange(dice=-2, reason="fewer"), DiceChange(dice=3, reason="many"))


def _validated(r: Roll) -> Roll:
    """The roll `Roll(...)` validates from the inputs of `r` (its result, doubles and Fumble derived anew)."""
    return Roll(label=r.label, base_dice=r.base_dice, dice_changes=r.dice_changes, faces=r.faces, modifiers=r.modifiers)


def _same(built: Roll, validated: Roll) -> None:
    assert built == validated and hash(built) == hash(validated)
    assert [type(getattr(built, f.name)) for f in fields(Roll)] == [
        type(getattr(validated, f.name)) for f in fields(Roll)
    ]
    assert built.model_dump() == validated.model_dump()
    assert built.model_dump_json() == validated.model_dump_json()


@pytest.mark.parametrize("seed", [0, 1, 7, 2026])
def test_random_rolls_equal_the_validated_rolls_of_their_faces(seed: int) -> None:
    """A seeded roll of 0 to 9 dice, with and without modifiers and dice changes: the faces are those the same
    generator gives `faces` one roll after another, and the roll equals the one validated from them."""
    rng = random.Random(seed)
    dice, twin = RandomDice(seed), RandomDice(seed)
    seen_doubles = seen_fumble = 0
    for _ in range(3000):
        base = rng.randrange(0, 8)
        mods = tuple(rng.sample(_MODS, rng.randrange(0, 4)))
        changes = tuple(rng.sample(_CHANGES, rng.randrange(0, 3)))
        r = roll(dice, "Mira: Martial", base, mods, changes)
        count = max(0, base + sum(c.dice for c in changes))
        assert r.faces == tuple(twin.faces(count, "twin"))
        _same(r, _validated(r))
        seen_doubles += r.highest_double is not None
        seen_fumble += r.fumble
    assert seen_doubles > 100 and seen_fumble > 20


def test_scripted_and_recorded_rolls_equal_the_validated_rolls() -> None:
    """Every way of 1 to 4 dice to fall, given in order (scripted, and recorded around a scripted source)."""
    faces = [f for a in range(1, 13) for b in range(1, 13) for f in (a, b, b, a, 1, b, 1, 1, a, a)]
    dice = ScriptedDice(faces)
    recorded = RecordingDice(ScriptedDice(faces))
    while dice.remaining:
        n = min(dice.remaining, 1 + dice.remaining % 4)
        for source in (dice, recorded):
            r = roll(source, "Elude", n, _MODS[: n % 4])
            _same(r, _validated(r))


@pytest.mark.parametrize("seed", [0, 1, 2026])
def test_rolls_through_a_recorder_are_those_of_its_dice_and_it_keeps_every_face(seed: int) -> None:
    """As a table rolls (`RecordingDice` around `RandomDice`) and replays (around `ScriptedDice`): each roll's faces
    are those its dice give one roll after another, the recorder keeps every face in order, and each roll equals the
    one validated from its faces."""
    rng = random.Random(seed)
    script = [rng.randrange(1, 13) for _ in range(2000)]
    for inner, twin in ((RandomDice(seed), RandomDice(seed)), (ScriptedDice(script), ScriptedDice(script))):
        recorder = RecordingDice(inner)
        faces: list[int] = []
        for _ in range(300):
            n = rng.randrange(0, 6)
            r = roll(recorder, "Mira: Martial", n, _MODS[: n % 4])
            assert r.faces == tuple(twin.faces(n, "twin"))
            _same(r, _validated(r))
            faces += r.faces
        assert recorder.used == faces


def test_a_recorder_around_other_dice_has_their_faces_checked() -> None:
    """Only faces made by the rules' own dice go unchecked: a recorder around another source that gives a 13 records
    it, and the roll is refused."""

    class Loaded:
        def faces(self, count: int, purpose: str) -> list[int]:
            return [13] * count

    recorder = RecordingDice(Loaded())
    with pytest.raises(DiceError):
        roll(recorder, "Martial", 2)
    assert recorder.used == [13, 13]


def test_events_built_from_the_rules_values_equal_validated_events() -> None:
    """An event of the rules' own values equals the one validated from its dump; its data is the dict given."""
    r = roll(ScriptedDice([7, 7, 1]), "Martial", 3, _MODS)
    data = {"dl": 6, "success": True, "path": [(1, 2)]}
    for kwargs in (
        {"kind": "attack", "text": "A hits B.", "actor": "a", "target": "b", "rolls": (r, r), "data": data},
        {"kind": "reach", "text": "In reach."},
        {"kind": "damage", "text": "2 Injury.", "target": "b", "rolls": [r]},
    ):
        e = Event(**kwargs)
        again = Event.model_validate(e.model_dump())
        assert e == again
        assert e.model_dump() == again.model_dump()
        assert e.model_dump_json() == again.model_dump_json()
        assert type(e.rolls) is list and type(e.data) is dict
    assert Event(kind="x", text="t", data=data).data is data
    assert Event(kind="x", text="t").data == {}
    assert Event(kind="x", text="t").data is not Event(kind="x", text="t").data


def test_events_of_other_values_are_validated() -> None:
    """Values not of the fields' types (a roll's dump, a tuple of rolls) go through validation as before."""
    r = roll(ScriptedDice([3, 9]), "Martial", 2)
    e = Event(kind="attack", text="t", rolls=[r.model_dump()])  # type: ignore[list-item]
    assert e.rolls == [r]
    assert type(e.rolls[0]) is Roll


def test_a_waiting_defense_holds_its_attack_spec_as_the_model_it_was_dumped() -> None:
    """`AttackSpec` is a plain record: a pending defense's payload is its JSON, field by field in the order (and of
    the values) the model it once was dumped, and reads back as the same spec (its params as JSON: it was stored)."""
    r = roll(ScriptedDice([7, 7, 1]), "Martial", 3, _MODS[:1])
    spec = AttackSpec(
        action="strike",
        attacker="a",
        target="b",
        dl=3,
        defense_skill="Nimble",
        attack=r,
        defense_modifiers=[_MODS[1]],
        physical=False,
        params={"damage": 2, "changes": [_CHANGES[0]], "to": (1, 2)},
    )
    stored = (
        '{"action": "strike", "attacker": "a", "target": "b", "dl": 3, "defense_skill": "Nimble", "attack": '
        '{"label": "Martial", "base_dice": 3, "dice_changes": [], "faces": [7, 7, 1], "modifiers": [{"value": 2, '
        '"reason": "a", "key": "other", "source": null}], "dice": 3, "result": 9, "doubles": [{"face": 7, "count": '
        '2}], "highest_double": 7, "fumble": false}, "defense_modifiers": [{"value": -1, "reason": "b", "key": '
        '"wounded", "source": "x"}], "physical": false, "params": {"damage": 2, "changes": [{"dice": 1, "reason": '
        '"more"}], "to": [1, 2]}}'
    )  # the model's `model_dump(mode="json")` of this spec (main at 98982e9)
    assert json.dumps(spec_payload(spec)) == stored
    back = spec_of_payload(json.loads(stored))
    assert back == spec._replace(params={"damage": 2, "changes": [{"dice": 1, "reason": "more"}], "to": [1, 2]})
    assert type(back.attack) is Roll and back.attack == r
    assert spec_payload(AttackSpec("x", "a", "b", 3, "Elude", r))["params"] == {}
