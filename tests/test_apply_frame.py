"""What `apply` does around every command's rule skips work only when nothing could come of it.

After the rule, `ailments.lapse_sources` looks at the creatures the command changed alone, unless something a source
of another creature stands on changed: these tests change only the creature a source names (it dies, or it is
removed) and check that the source held by a creature the command never touched ends in the same command.

a (Martial 2) strikes t (Endure 2, Exhausted 12) at a table where a Strike attacks Endure; w, far off, is Frightened
(Tier 1) of t, recorded as lasting only while t does (`ends_with_source`, source "creature:t").
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state, weapon

from vtt.rules.model import AilmentSource, GameState
from vtt.rules.settings import TableSettings

NO_SERIOUS = 12
FEAR_OF_T = AilmentSource(ailment="Frightened", tiers=1, source="creature:t", ends_with_source=True)
STRIKE: dict[str, Any] = {"type": "strike", "creature": "a", "target": "t", "weapon": "sword"}


def field() -> GameState:
    sword = weapon("sword", damage=2)
    a = creature("a", (5, 5), weapons=[sword], grip={"right_arm": "sword"}, severe_threshold=NO_SERIOUS)
    t = creature("t", (6, 5), skills={"Endure": 2}, ailments={"Exhausted": 12}, severe_threshold=NO_SERIOUS)
    w = creature("w", (15, 15), ailments={"Frightened": 1}, ailment_sources=[FEAR_OF_T])
    settings = TableSettings(defense_prompts="nobody", reactions=False, strike_defense="Endure")
    return on_turn(state(a, t, w, settings=settings), "a")


def test_a_source_ends_when_the_creature_it_names_dies_though_its_holder_was_not_changed() -> None:
    """seed-004 Dead: t fumbles its Endure defense (1, 1) at Exhausted 12 and dies (the attack 8, 2; damage 2, 2: no
    Injury). The Strike changed a's Economy and t alone; w's Frightened of t ends with t, in the same command."""
    s, events = run(field(), STRIKE, [8, 2, 1, 1, 2, 2])
    assert only(events, "dead").target == "t"
    assert only(events, "ailment_source_ended").target == "w"
    w = s.creatures["w"]
    assert (w.ailments, w.ailment_sources) == ({}, [])


def test_a_source_stays_while_the_creature_it_names_lives() -> None:
    """The same Strike with t defending 5, 1 (no Fumble): t lives, and w keeps its Frightened of t."""
    s, events = run(field(), STRIKE, [8, 2, 5, 1, 2, 2])
    assert of_kind(events, "dead") == [] and of_kind(events, "ailment_source_ended") == []
    assert s.creatures["w"].ailment_sources == [FEAR_OF_T]


def test_a_source_ends_when_the_creature_it_names_is_removed() -> None:
    """The Soulweaver removes t from the board: w's Frightened of t ends with it."""
    s, events = run(field(), {"type": "remove_creature", "creature": "t"}, [])
    assert only(events, "ailment_source_ended").target == "w"
    assert s.creatures["w"].ailments == {}
