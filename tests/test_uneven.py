"""Uneven Ground (`vtt.rules.terrain`), worked by hand.

reference §2.5: marbles turn a space into Tier 2 Uneven Ground (FACT); Mobility rolls such as Balance are made the
first time they apply in a round and hold for that round (FACT). Gap 7, the table's settings: a step onto Uneven
Ground costs +1 Movement (`uneven_move_extra`) and calls for Balance (Athletics) at DL 3 + Tier; on a failure the
creature falls Prone there and its move ends.

Hex grid, axial (q, r): east of (5, 5) are (6, 5), (7, 5), ... Creature `m` at (5, 5) has Athletics 2 (two d12,
the highest face counts) and the table's Movement Pool of 5.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, refused, run, state

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings


def board(uneven: dict[tuple[int, int], int], **settings: Any) -> GameState:
    s = state(
        creature("m", (5, 5)),
        creature("o", (7, 5)),
        uneven=uneven,
        settings=TableSettings(defense_prompts="nobody", reactions=False, **settings),
    )
    return on_turn(s, "m")


def move(path: list[tuple[int, int]], **kw: Any) -> dict[str, Any]:
    return {"type": "move", "creature": "m", "to": path[-1], "path": path, **kw}


def test_a_step_onto_uneven_ground_costs_1_more_and_calls_for_balance() -> None:
    """(6, 5) is Tier 2: 2 Movement, then (7, 5) 1: 3 in all. Balance: faces 6, 2 -> 6 against DL 3 + 2 = 5."""
    s, events = run(board({(6, 5): 2}), move([(6, 5), (7, 5)]), [6, 2])
    assert s.creatures["m"].anchor == (7, 5) and not s.creatures["m"].prone
    assert s.economy["m"].movement_spent == 3
    bal = only(events, "balance")
    assert bal.data == {"space": (6, 5), "tier": 2, "dl": 5, "success": True, "held": False}
    assert bal.rolls[0].faces == (6, 2)
    assert [e.kind for e in events] == ["balance", "move"]


def test_a_failed_balance_roll_ends_the_move_prone_where_it_failed() -> None:
    """Faces 4, 2 -> 4, short of DL 5: m falls Prone in (6, 5), having paid 2 Movement; it never reaches (8, 5)."""
    s, events = run(board({(6, 5): 2}), move([(6, 5), (7, 5), (8, 5)]), [4, 2])
    m = s.creatures["m"]
    assert m.anchor == (6, 5) and m.prone
    assert s.economy["m"].movement_spent == 2
    assert only(events, "move").text == "M moves 1 space to (6, 5) and falls Prone there (Movement 2/5)."
    assert only(events, "prone").text == "M falls Prone on the Uneven Ground."


def test_the_balance_roll_holds_for_the_round() -> None:
    """One roll (6, 2 -> 6) for the turn: Tier 3 at (8, 5) is DL 6, reached without rolling; Tier 4 at (9, 5) is
    DL 7, which the held 6 misses: m falls there, again without a roll."""
    s = board({(6, 5): 2, (8, 5): 3, (9, 5): 4}, movement_pool=10)
    s, _ = run(s, move([(6, 5), (7, 5)]), [6, 2])
    s, events = run(s, move([(8, 5)]), [])
    assert s.creatures["m"].anchor == (8, 5) and of_kind(events, "balance") == []
    assert s.economy["m"].movement_spent == 5
    s, events = run(s, move([(9, 5)]), [])
    bal = only(events, "balance")
    assert bal.data == {"space": (9, 5), "tier": 4, "dl": 7, "success": False, "held": True}
    assert bal.rolls == []
    assert s.creatures["m"].prone and s.economy["m"].movement_spent == 7


def test_a_fumbled_balance_roll_fails_and_holds_as_a_failure() -> None:
    """Athletics 3: faces 1, 1, 9 -> 9 would reach DL 4 (Tier 1), but two of three dice show 1: a Fumble, which
    always fails (reference §1.5 ASSUMPTION)."""
    s = on_turn(
        state(
            creature("m", (5, 5), skills={"Athletics": 3}),
            uneven={(6, 5): 1},
            settings=TableSettings(defense_prompts="nobody", reactions=False),
        ),
        "m",
    )
    s, events = run(s, move([(6, 5)]), [1, 1, 9])
    assert s.creatures["m"].prone and s.economy["m"].balance_fumbled
    assert "(a Fumble)" in only(events, "balance").text


def test_a_prone_creature_crawls_without_a_balance_roll() -> None:
    """Prone: 1 + 1 Movement a space, +1 onto Uneven Ground: 3 for (6, 5); no roll (it cannot fall)."""
    s = board({(6, 5): 2})
    s, _ = run(s, {"type": "drop_prone", "creature": "m"}, [])
    s, events = run(s, move([(6, 5)]), [])
    assert s.economy["m"].movement_spent == 3 and of_kind(events, "balance") == []


def test_the_settings_turn_the_cost_and_the_roll_off() -> None:
    s, events = run(board({(6, 5): 2}, uneven_balance=False), move([(6, 5), (7, 5)]), [])
    assert s.economy["m"].movement_spent == 3 and of_kind(events, "balance") == []
    s, events = run(board({(6, 5): 2}, uneven_move_extra=0, uneven_balance_dl=0), move([(6, 5), (7, 5)]), [2, 1])
    assert s.economy["m"].movement_spent == 2 and only(events, "balance").data["dl"] == 2


def test_moves_offered_and_refused_count_the_extra_cost() -> None:
    """Every 5-step way from (5, 5) to (10, 5) is the straight line through (6, 5): 6 Movement, more than the 5 m
    has. (9, 5) is still within 5. Without the Uneven Ground, (10, 5) is offered."""
    s = board({(6, 5): 2})
    (mv,) = [a for a in legal_actions(s, "m") if a.action == "move"]
    assert (9, 5) in mv.spaces and (10, 5) not in mv.spaces
    (plain,) = [a for a in legal_actions(board({}), "m") if a.action == "move"]
    assert (10, 5) in plain.spaces
    refused(s, {"type": "move", "creature": "m", "to": (10, 5)})
    refused(s, move([(6, 5), (7, 5), (8, 5), (9, 5), (10, 5)]), [9, 9])


def test_a_fall_on_the_way_stops_a_collision() -> None:
    """m means to collide with o in (7, 5) but fails its Balance at (6, 5) (faces 2, 3): it falls Prone there and
    no Collision is made."""
    s, events = run(board({(6, 5): 2}), move([(6, 5), (7, 5)], collide_with="o"), [2, 3])
    assert s.creatures["m"].anchor == (6, 5) and s.creatures["m"].prone
    assert of_kind(events, "collision") == [] and of_kind(events, "attack") == []
