"""A modifier's key and source (`vtt.rules.modifier_keys`): set wherever a modifier is made, carried by the log's
JSON, defaulted for old logs, and never showing a seat a creature it may not see."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import get_args

from factories import creature, state

from vtt.rules.dice import Modifier, Roll
from vtt.rules.events import Event
from vtt.rules.modifier_keys import OTHER, PLAIN_NAMES, ModifierKey, plain_name
from vtt.table.seat_view import SeatView
from vtt.table.table import Viewer

VTT = Path(__file__).resolve().parent.parent / "vtt"


def test_every_key_has_a_plain_name() -> None:
    assert set(PLAIN_NAMES) == set(get_args(ModifierKey))
    assert plain_name("hinder_attack") == "Hinder Attack"


def test_every_modifier_the_code_makes_names_its_key() -> None:
    """Each `Modifier(...)` call under vtt/ passes `key=`: none falls back to the key of old logs."""
    missing: list[str] = []
    for path in sorted(VTT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Modifier"):
                continue
            if not any(k.arg == "key" for k in node.keywords):
                missing.append(f"{path.relative_to(VTT)}:{node.lineno}")
    assert missing == []


def test_an_old_logs_modifier_loads_with_the_key_other_and_no_source() -> None:
    old = {"label": "A: Strike", "base_dice": 1, "faces": [7], "modifiers": [{"value": -1, "reason": "Hindered by H"}]}
    r = Roll.model_validate(old)
    assert r.modifiers == (Modifier(value=-1, reason="Hindered by H", key=OTHER, source=None),)
    assert r.result == 6


def test_the_logs_json_carries_key_and_source_and_loads_back() -> None:
    mod = Modifier(value=-1, reason="Hindered by H", key="hinder_attack", source="h")
    event = Event(
        kind="attack", text="A attacks.", rolls=[Roll(label="A: Strike", base_dice=1, faces=(7,), modifiers=(mod,))]
    )
    dumped = json.loads(json.dumps(event.model_dump(mode="json")))
    assert dumped["rolls"][0]["modifiers"] == [
        {"value": -1, "reason": "Hindered by H", "key": "hinder_attack", "source": "h"}
    ]
    assert Event.model_validate(dumped).rolls[0].modifiers == (mod,)


def test_equality_takes_key_and_source_into_account() -> None:
    plain = Modifier(value=-1, reason="Hindered by H")
    assert plain != Modifier(value=-1, reason="Hindered by H", key="hinder_attack")
    assert Modifier(value=-1, reason="x", key="prone", source="a") != Modifier(
        value=-1, reason="x", key="prone", source="b"
    )


def test_a_hidden_creature_as_a_modifiers_source_is_scrubbed_from_the_seat_view() -> None:
    """The modifier's text does not name the hidden shade but its source is shade's id: every seat but the
    Soulweaver's sees the event with that source told as None (as an effect's hidden creator is); the Soulweaver sees
    it whole."""
    game = state(
        creature("ayla", (2, 2), controller="alice"),
        creature("bram", (3, 2), controller="bob"),
        creature("shade", (2, 3), name="Shadow Assassin", hidden=True),
    )
    mod = Modifier(value=-1, reason="Hindered", key="hinder_attack", source="shade")
    roll = Roll(label="Ayla: Strike", base_dice=1, faces=(7,), modifiers=(mod,))
    event = Event(kind="attack", text="Ayla attacks Bram.", actor="ayla", target="bram", rolls=[roll])
    dumped = event.model_dump(mode="json")
    plain = {"value": -1, "reason": "Hindered", "key": "hinder_attack", "source": None}
    for viewer in (Viewer("player", "alice"), Viewer("player", "bob"), Viewer("spectator", "spectator")):
        seen = SeatView(game, viewer).event_json(dumped)
        assert seen is not None and seen["rolls"][0]["modifiers"] == [plain]
        assert "shade" not in json.dumps(seen) and seen["text"] == "Ayla attacks Bram."
    assert dumped["rolls"][0]["modifiers"][0]["source"] == "shade", "the stored event is left as it was"
    assert SeatView(game, Viewer("soulweaver", "Mira")).event_json(dumped) == dumped


def test_a_modifier_that_names_a_hidden_creature_still_hides_the_event() -> None:
    """Hindered by the hidden Shadow Assassin: its name is in the reason, so a spectator is not told of the attack
    and ayla's player sees it reworded, without the source."""
    game = state(
        creature("ayla", (2, 2), controller="alice"),
        creature("bram", (3, 2), controller="bob"),
        creature("shade", (2, 3), name="Shadow Assassin", hidden=True),
    )
    mod = Modifier(value=-1, reason="Hindered by Shadow Assassin", key="hinder_attack", source="shade")
    roll = Roll(label="Ayla: Strike", base_dice=1, faces=(7,), modifiers=(mod,))
    dumped = Event(kind="attack", text="Ayla attacks Bram.", actor="ayla", target="bram", rolls=[roll]).model_dump(
        mode="json"
    )
    assert SeatView(game, Viewer("spectator", "spectator")).event_json(dumped) is None
    alice = SeatView(game, Viewer("player", "alice")).event_json(dumped)
    assert alice is not None
    (seen,) = alice["rolls"][0]["modifiers"]
    assert seen["source"] is None and seen["reason"] == "Hindered by a creature you cannot see"
    assert "shade" not in json.dumps(alice) and "Shadow" not in json.dumps(alice)
