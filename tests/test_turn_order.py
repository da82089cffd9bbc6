"""Hand-worked tests of the turn order the Soulweaver edits mid-fight (reference §3, "Priority": "When a participant
joins a timed activity, its Zeal roll is its Priority. Turns run from the highest Priority down. Participants who
join later are placed after everyone already in Priority"; the Soulweaver always takes a turn last).

The fight of tests/test_turns.py: players p1 (alice) and p2 (bob), the Soulweaver's creature n, Zeal 2 each (two
d12, the highest counts). Begin: p1 rolls 4, 3 -> 4; p2 rolls 9, 1 -> 9: order p2, p1, the Soulweaver; p2's turn.
"""

from __future__ import annotations

import asyncio
from typing import Any

from factories import creature, of_kind, only, refused, run, state

from vtt.rules.engine import legal_actions
from vtt.rules.model import SOULWEAVER, GameState
from vtt.rules.settings import TableSettings
from vtt.table.table import Table, Viewer
from vtt.web.tokens import may_drag

SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 2}
END: dict[str, Any] = {"type": "end_turn"}
ALICE = Viewer("player", "alice")
SW = Viewer("soulweaver", "Soulweaver")


def table(settings: TableSettings | None = None) -> GameState:
    p1 = creature("p1", (2, 2), skills=SKILLS, controller="alice")
    p2 = creature("p2", (10, 2), skills=SKILLS, controller="bob")
    n = creature("n", (6, 8), skills=SKILLS)
    return state(p1, p2, n, settings=settings)


def begun() -> GameState:
    s, _ = run(table(), {"type": "begin"}, [4, 3, 9, 1])
    assert s.turn.entries == ["p2", "p1", SOULWEAVER] and s.turn.current == "p2"
    return s


def give_n_to(s: GameState, player: str | None, faces: list[int]) -> GameState:
    out, _ = run(s, {"type": "edit_creature", "creature": "n", "changes": {"controller": player}}, faces)
    return out


def with_n_in_order() -> GameState:
    """n given to carol in p2's turn rolls 5, 11 -> 11, and is placed after p1: p2, p1, n, the Soulweaver."""
    s = give_n_to(begun(), "carol", [5, 11])
    assert s.turn.entries == ["p2", "p1", "n", SOULWEAVER]
    return s


def ends(s: GameState, count: int) -> GameState:
    for _ in range(count):
        s, _ = run(s, END, [])
    return s


# ---- joining ---------------------------------------------------------------------------------------------------


def test_a_creature_given_to_a_player_mid_fight_rolls_priority_joins_after_everyone_and_takes_a_turn() -> None:
    """reference §3: its Zeal roll is its Priority (5, 11 -> 11) and, joining later, it is placed after everyone
    already in Priority (p2 9, p1 4), before the Soulweaver, although its roll is the highest. After p2 and p1 end
    their turns it is n's turn, and n may move."""
    s, events = run(begun(), {"type": "edit_creature", "creature": "n", "changes": {"controller": "carol"}}, [5, 11])
    assert s.turn.entries == ["p2", "p1", "n", SOULWEAVER]
    assert s.turn.priority == {"p2": 9, "p1": 4, "n": 11}
    assert s.turn.current == "p2"
    assert only(events, "priority").text == (
        "N joins the fight and rolls Zeal for Priority: 11. It takes place 3 of 4 in the turn order."
    )
    s = ends(s, 2)
    assert s.turn.current == "n"
    assert "move" in {a.action for a in legal_actions(s, "n")}


def test_a_creature_given_to_a_player_before_the_fight_rolls_nothing_until_begin() -> None:
    """reference §3: Priority is rolled when the fight begins; in round 0 a new controller changes no order."""
    s = give_n_to(table(), "carol", [])
    assert s.turn.entries == [] and s.turn.priority == {}


def test_a_creature_given_back_to_the_soulweaver_keeps_its_place() -> None:
    """Only a creature with no place yet joins: giving n back to the Soulweaver rolls nothing."""
    s = give_n_to(with_n_in_order(), None, [])
    assert s.turn.entries == ["p2", "p1", "n", SOULWEAVER]


def test_a_player_creature_added_mid_fight_rolls_priority_and_acts_this_round() -> None:
    """reference §3: a participant joining later rolls Zeal for Priority (Zeal 1: 6) and is placed after everyone
    already in Priority; it acts after p1, before the Soulweaver, this round."""
    body = {"name": "Wolf", "skills": {"Zeal": 1}, "controller": "alice"}
    s, _ = run(begun(), {"type": "add_creature", "creature": body, "at": [12, 6]}, [6])
    assert s.turn.entries == ["p2", "p1", "wolf", SOULWEAVER] and s.turn.priority["wolf"] == 6
    assert ends(s, 2).turn.current == "wolf"


def test_the_soulweaver_adds_a_creature_at_a_chosen_place() -> None:
    """The Soulweaver puts n first (position 0); it rolls Zeal, 3, 8 -> 8, kept as its Priority. p2's turn goes on;
    n, placed before it, acts from round 2, first."""
    s, _ = run(begun(), {"type": "join_order", "creature": "n", "position": 0}, [3, 8])
    assert s.turn.entries == ["n", "p2", "p1", SOULWEAVER]
    assert s.turn.current == "p2" and s.turn.priority["n"] == 8
    s = ends(s, 3)
    assert (s.turn.round, s.turn.current) == (2, "n")


def test_the_soulweaver_adds_a_creature_after_the_turn_going_on_and_it_acts_this_round() -> None:
    """n placed at position 1, right after p2 (whose turn it is): it rolls 2, 2 -> 2 and acts next, before p1."""
    s, _ = run(begun(), {"type": "join_order", "creature": "n", "position": 1}, [2, 2])
    assert s.turn.entries == ["p2", "n", "p1", SOULWEAVER]
    assert ends(s, 1).turn.current == "n"


def test_joining_the_order_is_refused_when_it_cannot_be_done() -> None:
    """Nobody joins before Begin, twice, or after the Soulweaver's turn, which always ends the round (§3)."""
    refused(table(), {"type": "join_order", "creature": "n"}, [1, 1])
    refused(begun(), {"type": "join_order", "creature": "p1"}, [1, 1])
    refused(begun(), {"type": "join_order", "creature": "n", "position": 3}, [1, 1])
    refused(begun(), {"type": "join_order", "creature": "nobody"}, [1, 1])


# ---- leaving, moving up and down -----------------------------------------------------------------------------


def test_the_soulweaver_takes_a_creature_out_of_the_order() -> None:
    """p1 out: p2, then the Soulweaver; p1 has no turn and no Priority left."""
    s, events = run(begun(), {"type": "leave_order", "creature": "p1"}, [])
    assert s.turn.entries == ["p2", SOULWEAVER] and "p1" not in s.turn.priority
    assert only(events, "order").text == "The Soulweaver takes P1 out of the turn order."
    assert ends(s, 1).turn.current == SOULWEAVER


def test_taking_out_a_creature_that_has_acted_keeps_the_turn_going_on() -> None:
    """In p1's turn (index 1) p2 goes out: the order is p1, the Soulweaver, and it is still p1's turn."""
    s, _ = run(ends(begun(), 1), {"type": "leave_order", "creature": "p2"}, [])
    assert s.turn.entries == ["p1", SOULWEAVER] and s.turn.current == "p1"


def test_the_turn_going_on_and_creatures_out_of_the_order_cannot_be_taken_out() -> None:
    refused(begun(), {"type": "leave_order", "creature": "p2"})
    refused(begun(), {"type": "leave_order", "creature": "n"})


def test_the_soulweaver_moves_a_creature_up_and_its_priority_stays_as_rolled() -> None:
    """p2, p1, n, Soulweaver: n up changes places with p1 and keeps Priority 11, p1 its 4; n acts after p2."""
    s, events = run(with_n_in_order(), {"type": "shift_order", "creature": "n", "direction": "up"}, [])
    assert s.turn.entries == ["p2", "n", "p1", SOULWEAVER]
    assert s.turn.priority == {"p2": 9, "p1": 4, "n": 11}
    assert only(events, "order").text == "The Soulweaver moves N before P1 in the turn order."
    assert ends(s, 1).turn.current == "n"


def test_the_soulweaver_moves_a_creature_down() -> None:
    """In the Soulweaver's turn p2 goes down, after p1: round 2 starts with p1."""
    s = ends(begun(), 2)
    assert s.turn.current == SOULWEAVER
    s, _ = run(s, {"type": "shift_order", "creature": "p2", "direction": "down"}, [])
    assert s.turn.entries == ["p1", "p2", SOULWEAVER] and s.turn.current == SOULWEAVER
    assert ends(s, 1).turn.current == "p1"


def test_moves_across_the_turn_going_on_or_the_soulweaver_are_refused() -> None:
    """Changing places with the turn going on would take a turn from one creature or give another two this round;
    the Soulweaver's turn is always last (§3); the first cannot go up."""
    s = with_n_in_order()
    refused(s, {"type": "shift_order", "creature": "p2", "direction": "down"})
    refused(ends(s, 1), {"type": "shift_order", "creature": "n", "direction": "up"})
    refused(s, {"type": "shift_order", "creature": "n", "direction": "down"})
    refused(ends(s, 1), {"type": "shift_order", "creature": "p2", "direction": "up"})


# ---- rolling Priority again --------------------------------------------------------------------------------------


def test_priority_is_rolled_again_for_everyone_in_the_soulweavers_turn() -> None:
    """As Begin: each creature in the order rolls Zeal, highest first. p2 rolls 2, 3 -> 3; p1 rolls 10, 1 -> 10:
    p1, p2, the Soulweaver. It is still the Soulweaver's turn; round 2 starts with p1."""
    s = ends(begun(), 2)
    s, events = run(s, {"type": "reroll_priority"}, [2, 3, 10, 1])
    assert s.turn.entries == ["p1", "p2", SOULWEAVER]
    assert s.turn.priority == {"p2": 3, "p1": 10}
    assert s.turn.current == SOULWEAVER and s.turn.round == 1
    assert [e.actor for e in of_kind(events, "priority")] == ["p2", "p1"]
    s = ends(s, 1)
    assert (s.turn.round, s.turn.current) == (2, "p1")


def test_equal_priority_rolled_again_keeps_the_order_so_far() -> None:
    """p2 rolls 6, 6 -> 6, p1 6, 2 -> 6: a tie keeps p2 before p1 (§3 ASSUMPTION, as at Begin)."""
    s, _ = run(ends(begun(), 2), {"type": "reroll_priority"}, [6, 6, 6, 2])
    assert s.turn.entries == ["p2", "p1", SOULWEAVER]


def test_priority_is_not_rolled_again_before_the_soulweavers_turn_or_the_fight() -> None:
    """Mid-round a new order would take turns from some creatures or give others two."""
    refused(begun(), {"type": "reroll_priority"}, [1, 1, 1, 1])
    refused(table(), {"type": "reroll_priority"}, [1, 1, 1, 1])


# ---- players place their creatures before the fight (table setting) --------------------------------------------


def _place(game: GameState, who: str, viewer: Viewer = ALICE) -> tuple[bool, str | None, GameState]:
    t = Table("t", game)
    out = asyncio.run(t.submit(viewer, {"type": "place", "creature": who, "to": [3, 3]}))
    return out.ok, out.error, t.state


def test_a_player_places_their_own_creature_before_the_fight() -> None:
    """Setting `players_place_before_fight` (on by default): in round 0 alice sets p1 down at (3, 3)."""
    ok, error, after = _place(table(), "p1")
    assert (ok, error) == (True, None) and after.creatures["p1"].anchor == (3, 3)
    assert may_drag(table(), ALICE, table().creatures["p1"])


def test_a_player_places_no_one_else_s_creature_nor_after_begin_nor_when_the_table_says_no() -> None:
    game = table()
    assert _place(game, "p2")[:2] == (False, "only the Soulweaver can do that")
    assert _place(begun(), "p1")[0] is False
    off = table(TableSettings(defense_prompts="nobody", reactions=False, players_place_before_fight=False))
    assert _place(off, "p1")[:2] == (False, "only the Soulweaver can do that")
    assert not may_drag(off, ALICE, off.creatures["p1"])
    assert not may_drag(game, ALICE, game.creatures["p2"])
    assert not may_drag(begun(), ALICE, begun().creatures["p1"])
