"""Hand-worked tests of the Hinders' DL, Hinder Movement's +3 and its size rule (seed-000).

seed-000 Hinder Attack: "attack to cause -1 on their attack roll, DL 3." Hinder Movement: "Before a creature in your
Reach would move, attack to prevent the movement, DL 3. If they would move into or out of a space you occupy, gain
+3 on your roll. ... This counts as an Overpower effect." Overpower: "Against a larger target, suffer a penalty on
your roll equal to the size difference. Against a smaller target, gain a bonus instead. You cannot affect targets 3
or more sizes larger than you."

a (blue) acts; h (red) Hinders; t (red) is a's target or a bystander and lets everything pass. Hinder Attack rolls
Martial against the actor's Martial, Hinder Movement Athletics against Athletics (table settings); everyone has 2 of
each. Faces: the Hinder, the actor's one defense, then the command's own rolls.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state

from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

REACTING = TableSettings(defense_prompts="nobody", reactions=True)
IMPAIR = {"type": "impair", "creature": "a", "target": "t", "ailment": "Muted"}


def field(h_at: tuple[int, int] = (4, 5), h_size: int = 0, a_size: int = 0) -> GameState:
    a = creature("a", (5, 5), side="blue", size=a_size)
    t = creature("t", (6, 5), side="red")
    h = creature("h", h_at, side="red", size=h_size)
    return on_turn(state(a, t, h, settings=REACTING), "a")


def hinder(s: GameState, faces: list[int]) -> tuple[GameState, list[Any]]:
    """h Hinders, anyone else who may react passes; the faces go with the last answer."""
    events: list[Any] = []
    while s.pending:
        decision = s.pending[0]
        last = len(s.pending) == 1
        answer = {"type": "react", "decision": decision.id, "hinder": decision.creature == "h"}
        s, events = run(s, answer, faces if last else [])
    return s, events


def test_hinder_attack_is_dl_3() -> None:
    """seed-000 Hinder Attack: "DL 3". h's Martial 2, 2 -> 2 is short of DL 3 though a's Martial 1, 1 Fumbles: the
    Hinder fails and a's Impair takes no -1: Athletics 4, 1 -> 4 against t's 3, 3 -> 3: Muted."""
    s, _ = run(field(), IMPAIR, [])
    s, events = hinder(s, [2, 2, 1, 1, 4, 1, 3, 3])
    hindered = only(events, "hinder")
    assert "(DL 3)" in hindered.text and hindered.data["success"] is False
    assert only(events, "attack").rolls[0].modifiers == ()
    assert s.creatures["t"].ailments == {"Muted": 1}


def test_hinder_movement_is_dl_3() -> None:
    """seed-000 Hinder Movement: "DL 3". a moves to (6, 4); h (not in a's space) rolls Athletics 2, 2 -> 2 against a's
    Fumbled 1, 1: short of DL 3, a moves."""
    s, _ = run(field(), {"type": "move", "creature": "a", "to": [6, 4]}, [])
    s, events = hinder(s, [2, 2, 1, 1])
    assert only(events, "hinder").data["success"] is False
    assert s.creatures["a"].anchor == (6, 4)


def test_hinder_movement_gains_3_against_a_move_out_of_your_space() -> None:
    """seed-000: "If they would move into or out of a space you occupy, gain +3 on your roll." h shares a's space
    (5, 5); a moves out to (6, 4): h's Athletics 3, 1 -> 3 + 3 = 6 against a's 5, 2 -> 5: the move is prevented.
    Without the +3, 3 would lose to 5."""
    s, _ = run(field(h_at=(5, 5)), {"type": "move", "creature": "a", "to": [6, 4]}, [])
    s, events = hinder(s, [3, 1, 5, 2])
    roll = only(events, "hinder").rolls[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == [(3, "Hinder Movement into or out of your space")]
    only(events, "move_prevented")
    assert s.creatures["a"].anchor == (5, 5)


def test_hinder_movement_gains_3_against_a_move_into_your_space() -> None:
    """seed-000: "... into or out of a space you occupy". h stands at (6, 4); a moves into it: h's Athletics 3, 1 ->
    6 against a's 5, 2 -> 5: prevented."""
    s, _ = run(field(h_at=(6, 4)), {"type": "move", "creature": "a", "to": [6, 4]}, [])
    s, events = hinder(s, [3, 1, 5, 2])
    assert [m.value for m in only(events, "hinder").rolls[0].modifiers] == [3]
    only(events, "move_prevented")


def test_hinder_movement_takes_the_overpower_size_rule() -> None:
    """seed-000: Hinder Movement "counts as an Overpower effect": h (size 2) against a (size 0) gains the size
    difference, +2: Athletics 4, 1 -> 6 against a's 5, 2 -> 5: prevented."""
    s, _ = run(field(h_at=(3, 5), h_size=2), {"type": "move", "creature": "a", "to": [6, 4]}, [])
    s, events = hinder(s, [4, 1, 5, 2])
    roll = only(events, "hinder").rolls[0]
    assert [m.value for m in roll.modifiers] == [2]
    only(events, "move_prevented")


def test_no_hinder_movement_against_a_mover_3_sizes_larger() -> None:
    """seed-000 Overpower: "You cannot affect targets 3 or more sizes larger than you." a is size 3 (spaces (5, 5),
    (6, 5), (5, 6), (6, 6)), h size 0 next to it at (7, 5): a's move opens no reaction for h, and goes on at once.
    With a of size 2, the same move waits for h's answer."""
    a = creature("a", (5, 5), side="blue", size=3)
    h = creature("h", (7, 5), side="red")
    s0 = on_turn(state(a, h, settings=REACTING), "a")
    s, events = run(s0, {"type": "move", "creature": "a", "to": [4, 5]}, [])
    assert s.creatures["a"].anchor == (4, 5)
    assert all(d.creature != "h" for d in s.pending)
    assert not of_kind(events, "hinder")

    two = s0.model_copy(deep=True)
    two.creatures["a"].size = 2
    s, _ = run(two, {"type": "move", "creature": "a", "to": [4, 5]}, [])
    assert [d.creature for d in s.pending] == ["h"]
