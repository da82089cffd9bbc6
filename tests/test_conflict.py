"""Hand-worked tests of Conflict: Enraged at Tier 6+ is always in Conflict, and being in Conflict means an
Overexertion roll after each minute; Dash while Exhausted calls for one too.

reference §5.2 Enraged (FACT [ailments-new]): "At Tier 6+ you are always in Conflict." reference §3 Conflict (FACT
[conflict]): "Being in Conflict means an Overexertion roll after each minute"; its DL is a gap: ASSUMPTION (table
setting `overexertion_dl` 3) Endure against DL 3 + the Overexertion rolls already made this scene, a failure
giving Tier 1 Exhausted. Who else is in Conflict is the Soulweaver's mark on the sheet (`in_conflict`). seed-004
Dead: a Fumbled Endure roll at Exhausted 12+ kills. A skill roll is its highest face plus modifiers; more than
half the dice showing 1 is a Fumble.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state

from vtt.rules.conflict import in_conflict
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings


def minutes(n: int) -> dict[str, Any]:
    return {"type": "pass_time", "minutes": n}


def lone(settings: TableSettings | None = None, **kw: Any) -> GameState:
    """r (Endure 2) alone on the board, no fight begun."""
    return state(creature("r", (5, 5), skills={"Endure": 2}, **kw), settings=settings)


def test_enraged_at_tier_6_is_always_in_conflict_and_below_6_is_not() -> None:
    """Enraged 6 is in Conflict without the Soulweaver's mark; Enraged 5 is not; the mark alone is."""
    assert in_conflict(creature("r", (5, 5), ailments={"Enraged": 6}))
    assert not in_conflict(creature("r", (5, 5), ailments={"Enraged": 5}))
    assert in_conflict(creature("r", (5, 5), in_conflict=True))


def test_enraged_6_rolls_overexertion_after_each_minute_at_a_rising_dl() -> None:
    """Enraged 6, so in Conflict: 2 minutes pass. Minute 1: Endure 2, 1 -> 2 against DL 3 + 0 earlier rolls = 3:
    failed, Tier 1 Exhausted. Minute 2: DL 3 + 1 = 4; Exhausted 1 is -1 on Skill rolls: 5, 2 -> 5 - 1 = 4: no
    harm. Two rolls made this scene."""
    s, events = run(lone(ailments={"Enraged": 6}), minutes(2), [2, 1, 5, 2])
    first, second = of_kind(events, "overexertion")
    assert (first.data, second.data) == ({"dl": 3, "success": False}, {"dl": 4, "success": True})
    assert second.rolls[0].result == 4
    assert first.text == (
        "R rolls Endure against Overexertion after a minute in Conflict (Enraged Tier 6 is always in it): 2 against "
        "DL 3, Tier 1 Exhausted (now Tier 1)."
    )
    r = s.creatures["r"]
    assert r.ailments["Exhausted"] == 1
    assert r.overexertion_rolls == 2


def test_enraged_5_out_of_conflict_makes_no_overexertion_roll() -> None:
    """Enraged 5 and no mark: a minute passes with no roll at all."""
    s, events = run(lone(ailments={"Enraged": 5}), minutes(1), [])
    assert not of_kind(events, "overexertion")
    assert s.creatures["r"].overexertion_rolls == 0


def test_a_creature_marked_in_conflict_rolls_overexertion_too() -> None:
    """The Soulweaver's mark, with 2 rolls already made this scene: DL 3 + 2 = 5; Endure 5, 1 -> 5: no harm."""
    s, events = run(lone(in_conflict=True, overexertion_rolls=2), minutes(1), [5, 1])
    assert only(events, "overexertion").data == {"dl": 5, "success": True}
    assert "Exhausted" not in s.creatures["r"].ailments


def test_overexertion_dl_is_a_table_setting() -> None:
    """`overexertion_dl` 6: Enraged 7, DL 6 + 0; Endure 5, 1 -> 5: failed, Tier 1 Exhausted."""
    s, events = run(lone(TableSettings(overexertion_dl=6), ailments={"Enraged": 7}), minutes(1), [5, 1])
    assert only(events, "overexertion").data == {"dl": 6, "success": False}
    assert s.creatures["r"].ailments["Exhausted"] == 1


def test_a_fumbled_overexertion_roll_at_exhausted_12_kills() -> None:
    """seed-004 Dead: Enraged 6 and Exhausted 12: Endure 1, 1 is a Fumble: r dies (after its Tier 13 Exhausted)."""
    s, events = run(lone(ailments={"Enraged": 6, "Exhausted": 12}), minutes(1), [1, 1])
    assert len(of_kind(events, "dead")) == 1
    assert s.creatures["r"].dead is True


def test_an_unconscious_creature_makes_no_overexertion_roll() -> None:
    """Enraged 6 but Unconscious: it cannot act, so it does not exert itself: no roll."""
    _, events = run(lone(ailments={"Enraged": 6}, unconscious=True), minutes(1), [])
    assert not of_kind(events, "overexertion")


def dash_of(**kw: Any) -> tuple[GameState, dict[str, Any]]:
    """r (Endure 2, alice's) on its own turn, about to Dash."""
    s = on_turn(state(creature("r", (5, 5), skills={"Endure": 2}, controller="alice", **kw)), "r")
    return s, {"type": "dash", "creature": "r"}


def test_dashing_while_exhausted_calls_for_an_overexertion_roll() -> None:
    """reference §5.2 Exhausted (FACT [ailments-new]): "Exhausted makes Dash or Run call for Overexertion rolls".
    r, Exhausted 2, not in Conflict, Dashes: Endure 4, 3 -> 4 - 2 = 2 against DL 3: failed, Exhausted 3. The Dash
    itself happens: 10 spaces of Movement."""
    s0, dash = dash_of(ailments={"Exhausted": 2})
    s, events = run(s0, dash, [4, 3])
    event = only(events, "overexertion")
    assert event.data == {"dl": 3, "success": False}
    assert event.text == (
        "R rolls Endure against Overexertion for Dashing while Exhausted (Tier 2): 2 against DL 3, Tier 1 Exhausted "
        "(now Tier 3)."
    )
    assert s.creatures["r"].ailments["Exhausted"] == 3
    assert s.economy["r"].movement_max == 10


def test_dashing_without_exhausted_makes_no_overexertion_roll() -> None:
    """Not Exhausted (though Enraged 6, in Conflict): the Dash rolls nothing."""
    s0, dash = dash_of(ailments={"Enraged": 6})
    s, events = run(s0, dash, [])
    assert not of_kind(events, "overexertion")
    assert s.creatures["r"].overexertion_rolls == 0
