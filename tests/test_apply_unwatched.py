"""`apply` on a state nothing is kept of (a restart, an import, an API command) on a board of more than
`positions.FRESH_UP_TO` creatures: how many of them are swallowed or hold an Ailment source is not counted
(`positions.start`), so the swallowed check looks at the creatures the command names, and a stomach spills or a
source lapses only if the command changed a creature now dead, holding a source or with a full stomach, or removed
one, or changed the effects or Holds. Each case below is one that check must not miss; random commands on random
boards, each given as a new copy, give what a frame running every check and rule over every creature gives.

The swallowing field is `test_swallow`'s (w holding or having swallowed v, x an onlooker) and the fear field
`test_apply_frame`'s (w Frightened of t for as long as t lives), each with 17 creatures more standing far off.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import test_apply_frame
from factories import creature, of_kind, only, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_apply_hooks_skipped import _board, _command, _every_hook, _outcome
from test_swallow import SWALLOWED, swallowed, wound_stomach

from vtt.rules import engine, positions
from vtt.rules.commands import parse_command
from vtt.rules.dice import RandomDice
from vtt.rules.events import RuleError
from vtt.rules.model import GameState
from vtt.rules.txn import Tx

FAR_OFF = 17


def crowded(s: GameState) -> GameState:
    """`s` with `FAR_OFF` creatures more along its bottom row: more than `positions.FRESH_UP_TO` in all."""
    row = s.board.rows - 1
    for col in range(FAR_OFF):
        c = creature(f"far{col}", (col, row))
        s.creatures[c.id] = c
    assert len(s.creatures) > positions.FRESH_UP_TO
    return s


def new(s: GameState) -> GameState:
    """The same state as a new object nothing is kept of."""
    return s.model_copy(update={"creatures": dict(s.creatures)})


def test_a_new_big_state_counts_none_of_its_creatures() -> None:
    s = new(crowded(swallowed()))
    assert positions.start(Tx(s)) is None


@pytest.mark.parametrize(
    "command",
    [
        {"type": "strike", "creature": "x", "target": "v"},
        {"type": "distract", "creature": "x", "targets": ["w", "v"]},
        {"type": "break_hold", "creature": "x", "target": "w", "held": "v"},
    ],
)
def test_a_swallowed_creature_named_on_a_new_big_state_is_refused(command: dict[str, Any]) -> None:
    with pytest.raises(RuleError, match=r"^V has been swallowed: it is off the board$"):
        run(new(crowded(swallowed())), command, [9, 9, 9])


def test_a_swallowed_creature_acting_on_a_new_big_state_may_only_attack_the_stomach() -> None:
    with pytest.raises(RuleError, match=r"^V is inside W's stomach: it can only attack the stomach$"):
        run(new(crowded(swallowed())), {"type": "move", "creature": "v", "to": (15, 10)}, [])


def test_a_stomach_filled_from_outside_spills_on_a_new_big_state() -> None:
    """`test_swallow`'s Serious Injury from outside: w's stomach reaches 6 Tiers and v falls out, its Ailments from
    being swallowed ending with it."""
    s = swallowed()
    wound_stomach(s, 4)
    s.creatures["w"].severe_threshold = 0
    s, events = run(new(crowded(s)), {"type": "harm", "target": "w", "amount": 2, "part": "stomach"}, [3, 5])
    assert only(events, "fell_out").data == {"swallower": "w", "to": (6, 10)}
    ended = [e.data for e in of_kind(events, "ailment_source_ended")]
    assert ended == [{"ailment": "Crowded", "source": SWALLOWED}, {"ailment": "Strangled", "source": SWALLOWED}]
    assert s.creatures["v"].swallowed_by is None


def test_a_full_stomach_spills_when_a_command_on_a_new_big_state_changes_its_owner() -> None:
    """w's stomach was given 6 Tiers in place, after v was swallowed: the first command to change w (the Soulweaver
    gives it Tier 1 Dazzled) lets v out."""
    s = swallowed()
    wound_stomach(s, 6)
    s, events = run(new(crowded(s)), {"type": "afflict", "target": "w", "ailment": "Dazzled", "tiers": 1}, [])
    assert only(events, "fell_out").data["swallower"] == "w"
    assert s.creatures["v"].swallowed_by is None


def test_a_source_held_by_a_creature_placed_out_ends_on_a_new_big_state() -> None:
    """The Soulweaver places v out of the stomach: being swallowed ends, and its Tiers go."""
    s, events = run(new(crowded(swallowed())), {"type": "place", "creature": "v", "to": (5, 20)}, [])
    assert [e.data["source"] for e in of_kind(events, "ailment_source_ended")] == [SWALLOWED, SWALLOWED]
    assert s.creatures["v"].ailment_sources == []


def test_a_source_naming_a_creature_that_dies_ends_on_a_new_big_state() -> None:
    """`test_apply_frame`'s Strike killing t: w, which the Strike never touched, is no longer Frightened of t."""
    s, events = run(new(crowded(test_apply_frame.field())), test_apply_frame.STRIKE, [8, 2, 1, 1, 2, 2])
    assert only(events, "dead").target == "t"
    assert only(events, "ailment_source_ended").target == "w"
    assert s.creatures["w"].ailments == {}


def test_a_source_naming_a_creature_removed_ends_on_a_new_big_state() -> None:
    _, events = run(new(crowded(test_apply_frame.field())), {"type": "remove_creature", "creature": "t"}, [])
    assert only(events, "ailment_source_ended").target == "w"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_apply_on_new_states_uncounted_is_every_check_and_rule_run(seed: int) -> None:
    """`test_apply_hooks_skipped`'s random boards and commands, each command given a new copy of the state, counted
    on no board (`FRESH_UP_TO` 0): the same state and events, or refusal, as every check and rule run."""
    rng = random.Random(seed)
    s = _board(rng)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(positions, "FRESH_UP_TO", 0)
        for step in range(8):
            cmd = parse_command(_command(s, rng))
            assert positions.start(Tx(new(s))) is None
            skipped = _outcome(engine.apply, new(s), cmd, seed + step)
            every = _outcome(_every_hook, s, cmd, seed + step)
            assert skipped == every, cmd
            if skipped[0] == "made":
                s = engine.apply(new(s), cmd, RandomDice(seed + step))[0]
