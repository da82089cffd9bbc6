"""Hand-worked tests: Ailments on the rolls of Hinder Attack and Hinder Movement (seed-000: "attack to cause -1 on
their attack roll, DL 3"; "attack to prevent the movement, DL 3"). A Hinder is a physical attack on the actor, so
the actor's one defense takes the modifiers of any defense against a physical attack (Unstable, Exhausted,
Encumbered...), and the hinderer's roll those of any melee attack (Prone's -1d12, a Prone actor's +1...).

a (blue) acts; h (red) stands next to it and Hinders. Hinder Attack rolls Martial against the actor's Martial,
Hinder Movement Athletics against Athletics (table settings). Faces: the Hinder, the actor's defense, then the
command's own rolls.
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, run, state

from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

REACTING = TableSettings(defense_prompts="nobody", reactions=True)


def field(a_kw: dict[str, Any] | None = None, h_kw: dict[str, Any] | None = None) -> GameState:
    """a (blue) at (5, 5), t (red) at (6, 5), h (red) at (4, 5)."""
    a = creature("a", (5, 5), side="blue", **(a_kw or {}))
    t = creature("t", (6, 5), side="red")
    h = creature("h", (4, 5), side="red", **(h_kw or {}))
    return on_turn(state(a, t, h, settings=REACTING), "a")


IMPAIR = {"type": "impair", "creature": "a", "target": "t", "ailment": "Muted"}


def hinder(s: GameState, faces: list[int]) -> tuple[GameState, list[Any]]:
    """h Hinders, anyone else who may react passes; the faces go with the last answer."""
    events: list[Any] = []
    while s.pending:
        decision = s.pending[0]
        last = len(s.pending) == 1
        answer = {"type": "react", "decision": decision.id, "hinder": decision.creature == "h"}
        s, events = run(s, answer, faces if last else [])
    return s, events


def mods(roll: Any) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in roll.modifiers]


def test_the_hinder_attack_defense_takes_the_actors_ailments() -> None:
    """a is Unstable 4 (Tier/2 = -2 on defenses against physical attacks) and Exhausted 1 (-1 on Skill rolls): h's
    Hinder Martial 5, 1 -> 5 against a's Martial 6, 2 -> 6 - 3 = 3: the Hinder succeeds. a's Impair then takes -1
    (Hindered) and -1 (Exhausted): Athletics 9, 1 -> 7 against t's 4, 4 -> 4: Muted."""
    s, _ = run(field({"ailments": {"Unstable": 4, "Exhausted": 1}}), IMPAIR, [])
    s, events = hinder(s, [5, 1, 6, 2, 9, 1, 4, 4])
    e = only(events, "hinder")
    assert mods(e.rolls[1]) == [
        (-2, "Unstable (Tier 4): Tier/2 on defenses against physical attacks"),
        (-1, "Exhausted (Tier 1) on Skill rolls"),
    ]
    assert e.rolls[1].result == 3 and e.data["success"] is True
    assert s.creatures["t"].ailments == {"Muted": 1}


def test_the_hinder_movement_defense_takes_encumbered() -> None:
    """reference §5.2 Encumbered: "Penalty equal to Tier on Athletics, Elude and Nimble defenses". a (Encumbered 2)
    moves to (6, 4); h Hinders (t, also next to a, lets it pass): Athletics 5, 1 -> 5 against a's 6, 2 -> 6 - 2 = 4:
    the move is prevented."""
    s, _ = run(field({"ailments": {"Encumbered": 2}}), {"type": "move", "creature": "a", "to": [6, 4]}, [])
    s, events = hinder(s, [5, 1, 6, 2])
    assert mods(only(events, "hinder").rolls[1]) == [(-2, "Encumbered (Tier 2) on an Athletics defense")]
    only(events, "move_prevented")
    assert s.creatures["a"].anchor == (5, 5)


def test_a_prone_hinderer_loses_a_d12_and_a_prone_actor_gives_it_plus_1() -> None:
    """reference §5.3 ASSUMPTIONS: Prone h has -1d12 on its physical attack (Martial 2 -> 1 die: 5) and Prone a gives
    melee attackers +1: 5 + 1 = 6 against a's Martial 6, 2 -> 6: a tie, the Hinder fails; a's Impair: Athletics
    -1d12 for its own Prone: 4 -> 4 against 3, 3 -> 3: Muted."""
    s, _ = run(field({"prone": True}, {"prone": True}), IMPAIR, [])
    s, events = hinder(s, [5, 6, 2, 4, 3, 3])
    roll = only(events, "hinder").rolls[0]
    assert (roll.base_dice, roll.dice) == (2, 1)
    assert [c.reason for c in roll.dice_changes] == ["Prone: -1d12 on physical attacks"]
    assert mods(roll) == [(1, "A is Prone: +1 to melee attackers")]
    assert only(events, "hinder").data["success"] is False
    assert s.creatures["t"].ailments == {"Muted": 1}
