"""Hand-worked tests of Continuing Damage (seed-004 "Continuing Damage", Earth/Acid and Soothe; reference §7).

Player creature `p` (Martial 2, Elude 2) at (5, 5) takes its turn, then the Soulweaver's turn starts: that is when
Continuing Damage is dealt (faces: each Continuing Damage's dice in turn, 3 or more is Injury). The Soulweaver's
creature `n` (Elude 2) stands beside p at (6, 5). Continuing Damage is not a targeted attack, so its Serious Injury
gains half (seed-004 Serious Injury). Every Severe Threshold is given.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, of_kind, on_turn, run, state, weapon

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.events import RuleError
from vtt.rules.model import SOULWEAVER, ContinuingDamage, GameState

END: dict[str, Any] = {"type": "end_turn"}
SOOTHE: dict[str, Any] = {"type": "soothe", "creature": "p", "target": "n"}


def acid(amount: int, part: str = "torso", rounds: int = 1, cid: str = "cd1") -> ContinuingDamage:
    return ContinuingDamage(id=cid, element="acid", amount=amount, part=part, rounds=rounds)


def table(threshold: int, *continuing: ContinuingDamage, n_anchor: tuple[int, int] = (6, 5), **p_kw: Any) -> GameState:
    p = creature("p", (5, 5), controller="alice", severe_threshold=12, **p_kw)
    n = creature("n", n_anchor, severe_threshold=threshold, continuing=list(continuing))
    return on_turn(state(p, n), "p")


def wounded_parts(s: GameState, cid: str = "n") -> dict[str, int]:
    return {p.id: p.wounded for p in s.creatures[cid].parts if p.wounded}


# --------------------------------------------------------------------------------------------------------
# When it is dealt
# --------------------------------------------------------------------------------------------------------


def test_continuing_damage_is_dealt_when_the_soulweavers_turn_starts() -> None:
    """seed-004 Continuing Damage: "Effects that deal Continuing Damage deal damage on the Soulweaver's turn."
    n carries Continuing Acid 2 for 2 rounds. p's turn ends, the Soulweaver's starts: 2d12, faces 3, 1 -> Injury
    1. The Soulweaver's turn ends and p's round-2 turn starts: nothing (no dice). p's turn ends: 2d12, faces 3, 3
    -> Injury 2; the acid is spent. n ends at Grit 3/6."""
    s, events = run(table(12, acid(2, rounds=2)), END, [3, 1])
    kinds = [e.kind for e in events]
    assert kinds.index("damage") > kinds.index("turn")
    assert s.turn.current == SOULWEAVER
    assert s.creatures["n"].grit.pips == 1
    s, events = run(s, END, [])
    assert not of_kind(events, "damage")
    s, _ = run(s, END, [3, 3])
    assert s.creatures["n"].grit.pips == 3
    assert s.creatures["n"].continuing == []


# --------------------------------------------------------------------------------------------------------
# The part: rolled once, then the same each time; added up per part
# --------------------------------------------------------------------------------------------------------


def test_continuing_damage_from_acid_injury_rolls_a_part_once_and_hits_that_part_each_time() -> None:
    """seed-004 Continuing Damage: "If an effect causes Continuing Damage and does not target a part, roll for a
    part to be affected. If the effect targeted you or is a result of you suffering Injury or Ailment, it affects
    the same part each time."
    n has Threshold 0. p strikes n with a Flowing earth maul of 3: Martial 8, 2 -> 8 against Elude 4, 1 -> 4: hit.
    Damage 3d12, faces 3, 3, 3 -> Acid Injury 3 -> 3 Wounded (a Strike is targeted: no half), part roll 1 ->
    torso; Continuing Acid 1 (half of 3), part roll 6 -> left leg. The Soulweaver's turn: 1d12, face 3 ->
    Injury 1 on the left leg, no part roll: 1 Wounded + 0 (half of 1) on the left leg."""
    maul = weapon("maul", damage=3, strike_types=("F",), element="earth")
    s0 = table(0, weapons=[maul], grip={"right_arm": "maul"}, skills={"Martial": 2, "Elude": 2})
    s, _ = run(s0, {"type": "strike", "creature": "p", "target": "n", "weapon": "maul"}, [8, 2, 4, 1, 3, 3, 3, 1, 6])
    assert wounded_parts(s) == {"torso": 3}
    assert [(c.part, c.amount) for c in s.creatures["n"].continuing] == [("left_leg", 1)]
    s, events = run(s, END, [3])
    (si,) = of_kind(events, "serious_injury")
    assert (si.data["part"], si.data["wounded"]) == ("left_leg", 1)
    assert si.rolls == []
    assert wounded_parts(s) == {"torso": 3, "left_leg": 1}


def test_continuing_damage_hits_its_part_every_round() -> None:
    """seed-004 Continuing Damage: "it affects the same part each time."; "All Continuing Damage on a part is added
    together to determine Serious Injury."
    Threshold 0, Continuing Acid 2 on the left leg for 2 rounds. Round 1: faces 3, 3 -> Injury 2 -> 2 + 1 (half) =
    3 Wounded. Round 2: faces 3, 3 -> 4 Injury on the leg in all -> 4 + 2 = 6 Wounded in all, 3 more. Never a part
    roll."""
    s, events = run(table(0, acid(2, "left_leg", rounds=2)), END, [3, 3])
    assert [(e.data["part"], e.data["wounded"]) for e in of_kind(events, "serious_injury")] == [("left_leg", 3)]
    s, _ = run(s, END, [])
    s, events = run(s, END, [3, 3])
    assert [(e.data["part"], e.data["wounded"]) for e in of_kind(events, "serious_injury")] == [("left_leg", 3)]
    assert wounded_parts(s) == {"left_leg": 6}


def test_continuing_damage_on_a_part_is_added_up_across_rounds_for_serious_injury() -> None:
    """seed-004 Continuing Damage: "All Continuing Damage on a part is added together to determine Serious
    Injury."
    Threshold 2, Continuing Acid 2 on the torso for 2 rounds. Round 1: faces 3, 3 -> Injury 2, not above 2.
    Round 2: faces 3, 3 -> 2 + 2 = 4 on the torso -> 2 over the Threshold + 1 (half, not targeted) = 3 Wounded."""
    s, events = run(table(2, acid(2, rounds=2)), END, [3, 3])
    assert not of_kind(events, "serious_injury")
    s, _ = run(s, END, [])
    s, events = run(s, END, [3, 3])
    (si,) = of_kind(events, "serious_injury")
    assert (si.data["part"], si.data["wounded"]) == ("torso", 3)


def test_two_continuing_damages_on_one_part_are_added_together_for_serious_injury() -> None:
    """seed-004 Continuing Damage: "All Continuing Damage on a part is added together to determine Serious
    Injury." Serious Injury: "If not from a targeted attack, increase the Wounded Tier caused by half."
    Threshold 0, two Continuing Acid 1 on the torso. The Soulweaver's turn: faces 3 and 3 -> Injury 1 + 1 = 2 on
    the torso -> 2 Wounded + 1 (half of 2) = 3 on the torso."""
    s, _ = run(table(0, acid(1, cid="cd1"), acid(1, cid="cd2")), END, [3, 3])
    assert wounded_parts(s) == {"torso": 3}


def test_a_parts_added_up_damage_stops_counting_once_it_has_no_continuing_damage() -> None:
    """seed-004 Continuing Damage: "The damage to a part is no longer counted if at any time there is no
    Continuing Damage to the part."
    Threshold 2, Continuing Acid 2 on the torso for 1 round: faces 3, 3 -> Injury 2, no Serious Injury; the acid
    is spent, the torso's count is gone. A new Continuing Acid 2 on the torso next round: faces 3, 3 -> Injury 2
    counted alone (not 4): still no Serious Injury."""
    s, _ = run(table(2, acid(2)), END, [3, 3])
    assert s.creatures["n"].continuing == []
    assert s.creatures["n"].continuing_injury == {}
    s, _ = run(s, END, [])
    s.creatures["n"].continuing = [acid(2, cid="cd9")]
    s, events = run(s, END, [3, 3])
    assert not of_kind(events, "serious_injury")
    assert wounded_parts(s) == {}


# --------------------------------------------------------------------------------------------------------
# Soothe
# --------------------------------------------------------------------------------------------------------


def test_soothe_lowers_continuing_acid_damage_by_1() -> None:
    """seed-004 Earth: "Soothe can reduce the damage by 1." (A Minor Action on a creature in Reach: table setting
    `soothe_cost`.) p Soothes n's Continuing Acid 2 -> 1, with 1 Minor Action left; the Soulweaver's turn deals
    1d12, face 3 -> Injury 1."""
    s, events = run(table(12, acid(2)), SOOTHE, [])
    assert of_kind(events, "soothe")
    assert [c.amount for c in s.creatures["n"].continuing] == [1]
    assert s.economy["p"].minor == 1
    s, _ = run(s, END, [3])
    assert s.creatures["n"].grit.pips == 1


def test_soothe_needs_continuing_acid_damage_and_a_creature_in_reach() -> None:
    """seed-004 Earth: Soothe reduces Continuing Acid damage. With none it is refused; so is a Soothe on n 4 spaces
    away at (9, 5), beyond p's Reach 1."""
    for s in (table(12), table(12, acid(2), n_anchor=(9, 5))):
        before = s.model_dump()
        with pytest.raises(RuleError):
            apply(s, SOOTHE, ScriptedDice([]))
        assert s.model_dump() == before


def test_continuing_damage_replaces_a_parts_added_up_injury_and_leaves_the_state_it_was_given_as_it_was() -> None:
    """`apply` never changes its input (copy-on-write: the dicts of a part's added-up Injury and Wounded are
    replaced, never changed in place, `txn._REPLACED`). Threshold 0, Continuing Acid 1 on the torso for 2 rounds:
    faces 3 -> 1 on the torso, Tier 1 Wounded; next round faces 3 -> 2 on the torso, Tier 3 Wounded in all, and the
    acid is spent: the counts are gone. Each state given is as it was."""
    s = table(0, acid(1, rounds=2))
    seen = []
    for faces in ([3], [], [3]):
        given, dump = s, s.model_dump()
        s, _ = run(given, END, faces)
        assert given.model_dump() == dump
        seen.append((s.creatures["n"].continuing_injury, s.creatures["n"].continuing_wounded))
    assert seen == [({"torso": 1}, {"torso": 1}), ({"torso": 1}, {"torso": 1}), ({}, {})]
    assert wounded_parts(s) == {"torso": 3}
