"""seed-000 Distract: "Creatures that expect you to use this action gain +6 on their defense." A player making a
Distract may mark a creature that expects it, through the table as from the page: her seat's menu offers the
choice and the table accepts it; a hidden creature she cannot see she cannot name."""

from __future__ import annotations

import asyncio

from factories import creature, on_turn, state

from vtt.rules.dice import ScriptedDice
from vtt.rules.model import GameState
from vtt.table.table import Table, Viewer

ALICE = Viewer("player", "alice")


def field() -> GameState:
    """Alice's a (Guile 3) at (5, 5); t (Observe 2) beside it; a hidden h (Observe 2) beside it too; a's turn."""
    a = creature("a", (5, 5), skills={"Guile": 3, "Zeal": 1}, controller="alice")
    t = creature("t", (6, 5), skills={"Observe": 2, "Zeal": 1})
    h = creature("h", (4, 5), skills={"Observe": 2, "Zeal": 1}, hidden=True)
    return on_turn(state(a, t, h), "a")


def test_distract_expects_it_is_offered_to_a_player_s_seat_and_accepted_from_it() -> None:
    """Alice speaks and Distracts t, marking that t expects it: Guile 8, 2, 1 -> 8 against t's Observe 2, 2 -> 2,
    +6 for expecting it = 8: the tie goes to the defender (reference §1.3), so t is not Focused."""
    table = Table("t", field(), dice=lambda: ScriptedDice([8, 2, 1, 2, 2]))
    (option,) = [o for o in table.seat_view(ALICE).menu("a") if o.action == "distract"]
    assert "expects" in option.choose and option.targets[0].choices["expects"] == ["t"]
    cmd = {"type": "distract", "creature": "a", "targets": ["t"], "action": "speak", "expects": ["t"]}
    out = asyncio.run(table.submit(ALICE, cmd))
    assert out.ok and out.record is not None, out.error
    (attack,) = [e for e in out.record.events if e["kind"] == "attack"]
    assert [(m["value"], m["reason"]) for m in attack["rolls"][1]["modifiers"]] == [(6, "expects the Distract: +6")]
    assert table.state.creatures["t"].focus is None


def test_a_player_cannot_name_a_hidden_creature_as_expecting_it() -> None:
    table = Table("t", field(), dice=lambda: ScriptedDice([8, 2, 1, 2, 2]))
    cmd = {"type": "distract", "creature": "a", "targets": ["t"], "action": "speak", "expects": ["h"]}
    out = asyncio.run(table.submit(ALICE, cmd))
    assert not out.ok and out.error == "no such creature"
    assert table.log == []
