"""Hand-worked tests of turns and the action economy (reference §3; the reference's ASSUMPTIONs are table settings:
`major_actions` 1, `minor_actions` 2, `movement_pool` 5, `dash_adds_pool`, `npcs_roll_priority`).

A fight: players p1 (Zeal 2) and p2 (Zeal 2) and the Soulweaver's creature n. `begin` rolls Zeal for each
participant that rolls Priority, in the order they are listed on the board (p1, then p2).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from factories import creature, of_kind, on_turn, refused, run, state

from vtt.rules.engine import legal_actions
from vtt.rules.events import RuleError
from vtt.rules.model import SOULWEAVER, Effect, GameState, TurnOrder
from vtt.rules.settings import TableSettings
from vtt.rules.turns import is_active, require_active

SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 2}
BEGIN: dict[str, Any] = {"type": "begin"}
END: dict[str, Any] = {"type": "end_turn"}


def table(settings: TableSettings | None = None, **n_kw: Any) -> GameState:
    p1 = creature("p1", (2, 2), skills=SKILLS, controller="alice")
    p2 = creature("p2", (10, 2), skills=SKILLS, controller="bob")
    n = creature("n", (6, 8), skills=SKILLS, **n_kw)
    return state(p1, p2, n, settings=settings)


def begun() -> GameState:
    """p1 rolls Zeal 4, 3 -> 4; p2 rolls 9, 1 -> 9: p2 acts first, then p1, then the Soulweaver."""
    s, _ = run(table(), BEGIN, [4, 3, 9, 1])
    return s


def move(who: str, to: tuple[int, int]) -> dict[str, Any]:
    return {"type": "move", "creature": who, "to": to}


# --------------------------------------------------------------------------------------------------------
# Priority
# --------------------------------------------------------------------------------------------------------


def test_priority_is_the_zeal_roll_highest_first_and_the_soulweaver_last() -> None:
    """reference §3: "When a participant joins a timed activity, its Zeal roll is its Priority. Turns run from the
    highest Priority down." "The Soulweaver (GM) always takes a turn last". Zeal 2 each: p1 rolls 4, 3 -> 4, p2
    rolls 9, 1 -> 9. Order p2, p1, Soulweaver; round 1, p2's turn. The Soulweaver's creature n rolls nothing."""
    s, events = run(table(), BEGIN, [4, 3, 9, 1])
    assert s.turn.priority == {"p1": 4, "p2": 9}
    assert s.turn.entries == ["p2", "p1", SOULWEAVER]
    assert s.turn.round == 1
    assert s.turn.current == "p2"
    assert [e.actor for e in of_kind(events, "priority")] == ["p1", "p2"]


def test_npcs_roll_their_own_priority_when_the_table_says_so() -> None:
    """reference §3 ASSUMPTION (table setting `npcs_roll_priority`): "GM-controlled NPCs act during that single
    Soulweaver turn unless the table turns on "NPCs roll their own Priority"." p1 4, 3 -> 4; p2 9, 1 -> 9; n 11,
    5 -> 11. Order n, p2, p1, then the Soulweaver."""
    s, _ = run(table(TableSettings(npcs_roll_priority=True)), BEGIN, [4, 3, 9, 1, 11, 5])
    assert s.turn.entries == ["n", "p2", "p1", SOULWEAVER]
    assert s.turn.current == "n"


def test_the_fight_cannot_begin_twice() -> None:
    """reference §3: Priority is rolled "When a participant joins a timed activity"; a begun fight is not begun
    again."""
    refused(begun(), BEGIN)


def test_a_creature_cannot_act_before_the_fight_begins() -> None:
    """reference §3: "When timing matters, play runs in rounds"; before the first round no creature has a turn."""
    refused(table(), move("p1", (3, 2)))


# --------------------------------------------------------------------------------------------------------
# Whose turn
# --------------------------------------------------------------------------------------------------------


def test_the_soulweavers_creatures_act_only_on_the_soulweavers_turn() -> None:
    """reference §3 ASSUMPTION (gap 22): "GM-controlled NPCs act during that single Soulweaver turn".
    On p2's turn n cannot move and has no legal action; after p2 and p1 end their turns it is the Soulweaver's
    turn: n moves and p1 cannot."""
    s = begun()
    refused(s, move("n", (7, 8)))
    assert legal_actions(s, "n") == []
    s, _ = run(s, END, [])
    s, _ = run(s, END, [])
    assert s.turn.current == SOULWEAVER
    assert legal_actions(s, "n") != []
    s, _ = run(s, move("n", (7, 8)), [])
    assert s.creatures["n"].anchor == (7, 8)
    refused(s, move("p1", (3, 2)))


def test_only_the_current_player_creature_acts_on_its_turn() -> None:
    """reference §3: "Turns run from the highest Priority down." On p2's turn p1 cannot move; p2 can."""
    s = begun()
    refused(s, move("p1", (3, 2)))
    s, _ = run(s, move("p2", (11, 2)), [])
    assert s.creatures["p2"].anchor == (11, 2)


def test_end_turn_advances_and_a_new_round_starts_after_the_soulweaver() -> None:
    """reference §3: "The Soulweaver (GM) always takes a turn last, after every other participant, and that turn
    ends the round." p2 -> p1 -> Soulweaver -> round 2, p2 again."""
    s = begun()
    seen = [s.turn.current]
    for _ in range(3):
        s, events = run(s, END, [])
        seen.append(s.turn.current)
    assert seen == ["p2", "p1", SOULWEAVER, "p2"]
    assert s.turn.round == 2
    assert [e.data["round"] for e in of_kind(events, "round")] == [2]


# --------------------------------------------------------------------------------------------------------
# Major, Minor, Movement Pool, Dash
# --------------------------------------------------------------------------------------------------------


def test_a_turn_gives_1_major_2_minor_and_a_movement_pool_of_5() -> None:
    """reference §3: "A creature normally has 1 Major Action per turn" (DERIVED); "2 Minor Actions per turn"
    (ASSUMPTION); §2.5 "Movement Pool = 5 spaces per turn" (ASSUMPTION). p2's turn starts with 1, 2 and 5."""
    econ = begun().economy["p2"]
    assert (econ.major, econ.minor, econ.movement_max, econ.movement_spent) == (1, 2, 5, 0)


def test_major_minor_and_movement_pool_follow_the_table_settings() -> None:
    """reference §9: "All of these are ASSUMPTIONS; make each one a per-table setting." With 2 Major, 3 Minor
    and a pool of 4, p2's turn starts with 2, 3 and 4."""
    settings = TableSettings(major_actions=2, minor_actions=3, movement_pool=4)
    s, _ = run(table(settings), BEGIN, [4, 3, 9, 1])
    econ = s.economy["p2"]
    assert (econ.major, econ.minor, econ.movement_max) == (2, 3, 4)


def test_a_creatures_own_movement_pool_overrides_the_table() -> None:
    """reference §2.5 ASSUMPTION: "Movement Pool = 5 spaces per turn, configurable per creature." n has a pool of
    7; on the Soulweaver's turn n may move 7 spaces."""
    s = on_turn(table(movement_pool=7), "n")
    assert s.economy["n"].movement_max == 7
    s, _ = run(s, move("n", (13, 8)), [])
    assert s.economy["n"].movement_spent == 7


def test_each_space_moved_spends_1_from_the_movement_pool() -> None:
    """reference §2.5: "each space adds Pips, and a full pool means no more movement" (DERIVED). p2 moves 3
    spaces (3 of 5); a 3-space move is then refused; 2 more spaces fill the pool; 1 more is refused."""
    s = begun()
    s, _ = run(s, move("p2", (13, 2)), [])
    assert s.economy["p2"].movement_spent == 3
    assert s.economy["p2"].movement_left == 2
    refused(s, move("p2", (16, 2)))
    s, _ = run(s, move("p2", (15, 2)), [])
    assert s.economy["p2"].movement_left == 0
    refused(s, move("p2", (16, 2)))


def test_dash_is_a_minor_action_that_adds_another_pool_once_a_turn() -> None:
    """reference §2.5 ASSUMPTION: "Dash costs a Minor Action and adds a second full pool for the turn." p2 moves 5
    (pool full), Dashes (Minor 2 -> 1, pool 5 -> 10), moves 5 more; a second Dash is refused."""
    s = begun()
    s, _ = run(s, move("p2", (15, 2)), [])
    s, _ = run(s, {"type": "dash", "creature": "p2"}, [])
    econ = s.economy["p2"]
    assert (econ.minor, econ.movement_max, econ.movement_left) == (1, 10, 5)
    s, _ = run(s, move("p2", (15, 7)), [])
    assert s.economy["p2"].movement_spent == 10
    refused(s, {"type": "dash", "creature": "p2"})


def test_dash_is_refused_without_a_minor_action() -> None:
    """reference §2.5 ASSUMPTION: "Dash costs a Minor Action". With the table's Minor Actions at 0, p2 cannot
    Dash."""
    s, _ = run(table(TableSettings(minor_actions=0)), BEGIN, [4, 3, 9, 1])
    refused(s, {"type": "dash", "creature": "p2"})


def test_the_economy_is_fresh_on_the_next_turn() -> None:
    """reference §2.5: Movement "is restored at the start of your turn". p2 moves 5 and Dashes in round 1; on its
    round 2 turn it has 1 Major, 2 Minor and a fresh pool of 5 again."""
    s = begun()
    s, _ = run(s, move("p2", (15, 2)), [])
    s, _ = run(s, {"type": "dash", "creature": "p2"}, [])
    for _ in range(3):
        s, _ = run(s, END, [])
    econ = s.economy["p2"]
    assert (econ.major, econ.minor, econ.movement_max, econ.movement_spent, econ.dashed) == (1, 2, 5, 0, False)


# --------------------------------------------------------------------------------------------------------
# Durations
# --------------------------------------------------------------------------------------------------------


def _with_effect(s: GameState, creator: str) -> GameState:
    s = s.model_copy(deep=True)
    s.effects.append(Effect(id="e1", name="Called Shot", creator=creator, subject=creator, rounds=1))
    return s


def test_a_one_round_effect_ends_at_the_start_of_its_creators_next_turn() -> None:
    """reference §3: "In Priority, effects you created lose duration as your turn begins." DERIVED: ""For 1 round"
    effects you create last until the start of your next turn."
    p1 creates the effect on its round 1 turn. It is still there on the Soulweaver's turn and p2's round 2 turn,
    and ends as p1's round 2 turn begins."""
    s = begun()
    s, _ = run(s, END, [])
    assert s.turn.current == "p1"
    s = _with_effect(s, "p1")
    for expected in [SOULWEAVER, "p2"]:
        s, events = run(s, END, [])
        assert s.turn.current == expected
        assert [e.id for e in s.effects] == ["e1"]
        assert of_kind(events, "effect_ended") == []
    s, events = run(s, END, [])
    assert s.turn.current == "p1"
    assert s.effects == []
    assert [e.data["effect"] for e in of_kind(events, "effect_ended")] == ["e1"]


def test_an_effect_by_the_soulweavers_creature_ends_as_the_soulweavers_turn_begins() -> None:
    """reference §3: "In Priority, effects you created lose duration as your turn begins." n acts on the
    Soulweaver's turn, so n's effect from round 1 ends as the Soulweaver's round 2 turn begins, not before."""
    s = begun()
    s, _ = run(s, END, [])
    s, _ = run(s, END, [])
    assert s.turn.current == SOULWEAVER
    s = _with_effect(s, "n")
    for expected in ["p2", "p1"]:
        s, _ = run(s, END, [])
        assert s.turn.current == expected
        assert [e.id for e in s.effects] == ["e1"]
    s, events = run(s, END, [])
    assert s.turn.current == SOULWEAVER
    assert s.effects == []
    assert [e.data["effect"] for e in of_kind(events, "effect_ended")] == ["e1"]


def _refusal_code(state: GameState, creature_id: str) -> str | None:
    try:
        require_active(state, creature_id)
    except RuleError as e:
        return e.code
    return None


def _expected_refusal(state: GameState, creature_id: str) -> str | None:
    """What `require_active` refuses, read through `is_active` and the creature's `can_act`, first refusal first."""
    c = state.creatures.get(creature_id)
    if c is None:
        return "turn.no_such_creature"
    if not state.turn.started:
        return "turn.not_begun"
    if not c.can_act:
        return "turn.cannot_act"
    return None if is_active(state, creature_id) else "turn.not_your_turn"


@pytest.mark.parametrize("seed", range(4))
def test_require_active_refuses_exactly_a_creature_that_is_not_active(seed: int) -> None:
    """reference §3: a creature acts on its own turn, or outside the order on the Soulweaver's turn if it is the
    Soulweaver's; a dead or unconscious one never, nor any before the fight begins. For random turn orders, rounds,
    controllers, dead and unconscious creatures: `require_active` refuses with the first of those reasons that holds,
    and lets exactly the `is_active` creatures act."""
    rng = random.Random(seed)
    ids = [f"c{i}" for i in range(5)]
    for _ in range(300):
        s = state(
            *(
                creature(cid, (i * 2, 0), controller=rng.choice(["p1", None])).model_copy(
                    update={"dead": rng.random() < 0.15, "unconscious": rng.random() < 0.15}
                )
                for i, cid in enumerate(ids)
            )
        )
        entries = rng.sample([*ids, SOULWEAVER], rng.randint(0, 4))
        s.turn = TurnOrder(round=rng.choice([0, 1, 2]), entries=entries, index=rng.randrange(max(1, len(entries))))
        for cid in [*ids, "nobody"]:
            assert _refusal_code(s, cid) == _expected_refusal(s, cid), (s.turn, cid)
