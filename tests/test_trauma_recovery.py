"""Hand-worked tests of Trauma lowered by recovering Grit (reference §5.2 Trauma, older revision FACT [ailments-old]).

"Older revision: failing the defense deals half-Tier Energy damage, and recovering Grit lowers the Tier." The rate
is a gap: table setting `trauma_per_grit_pip` (1: one Tier for each Grit Pip recovered). Healing (seed-004): d12
equal to the amount, each face of 6 or more removes one Pip.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state

from vtt.rules.model import BodyPart, GameState, Pool, humanoid_parts
from vtt.rules.settings import TableSettings

END: dict[str, Any] = {"type": "end_turn"}


def heal(amount: int, pool: str = "grit") -> dict[str, Any]:
    return {"type": "heal", "target": "t", "amount": amount, "pool": pool}


def traumatised(trauma: dict[str, int], grit: int = 4, settings: TableSettings | None = None) -> GameState:
    """t (alice's) with `grit` Grit Pips of 6 and Trauma on the named parts (the total in its Ailments)."""
    parts = [p.model_copy(update={"trauma": trauma.get(p.id, 0)}) for p in humanoid_parts()]
    t = creature(
        "t",
        (5, 5),
        skills={"Endure": 2},
        controller="alice",
        grit=Pool(max=6, pips=grit),
        parts=parts,
        ailments={"Trauma": sum(trauma.values())},
    )
    return state(t, settings=settings)


def part(s: GameState, part_id: str) -> BodyPart:
    p = s.creatures["t"].part(part_id)
    assert p is not None
    return p


def test_recovering_grit_lowers_trauma_one_tier_per_grit_pip() -> None:
    """reference §5.2 Trauma (older revision): "recovering Grit lowers the Tier". t: Grit 4/6, Trauma 3 on the
    torso. Healing 3d12: 6, 2, 12 -> two faces of 6 or more, two Grit Pips recovered (Grit 2/6), so Trauma drops
    by 2 Tiers to Tier 1, on the torso too."""
    s, events = run(traumatised({"torso": 3}), heal(3), [6, 2, 12])
    t = s.creatures["t"]
    assert t.grit.pips == 2
    assert t.ailments["Trauma"] == 1
    assert part(s, "torso").trauma == 1
    event = only(events, "trauma_recovered")
    assert event.data == {"grit_pips": 2, "lowered": 2, "tier": 1}
    assert event.text == "T recovers 2 Grit Pips: Trauma drops by 2 Tiers to Tier 1."


def test_recovering_grit_lowers_the_most_traumatised_part_first_and_no_lower_than_0() -> None:
    """Trauma 1 on the left arm and 2 on the head (3 in all); Grit 4/6. Healing 4d12: 7, 9, 11, 6 -> four Grit Pips
    recovered (Grit 0/6): Trauma can drop only by its 3 Tiers: the head's 2 first, then the arm's 1. Trauma is
    gone."""
    s, events = run(traumatised({"left_arm": 1, "head": 2}), heal(4), [7, 9, 11, 6])
    t = s.creatures["t"]
    assert t.grit.pips == 0
    assert "Trauma" not in t.ailments
    assert (part(s, "head").trauma, part(s, "left_arm").trauma) == (0, 0)
    assert only(events, "trauma_recovered").data == {"grit_pips": 4, "lowered": 3, "tier": 0}


def test_a_failed_healing_roll_recovers_no_grit_and_leaves_trauma() -> None:
    """Healing 2d12: 5, 3 -> no face of 6 or more, no Grit Pip recovered: Trauma 2 stays."""
    s, events = run(traumatised({"torso": 2}), heal(2), [5, 3])
    assert s.creatures["t"].ailments["Trauma"] == 2
    assert part(s, "torso").trauma == 2
    assert not of_kind(events, "trauma_recovered")


def test_recovering_energy_is_not_recovering_grit() -> None:
    """Healing the Energy Pool (2d12: 8, 10 -> two Energy Pips) is not recovering Grit: Trauma 2 stays."""
    s0 = traumatised({"torso": 2})
    s0.creatures["t"].energy = Pool(max=6, pips=3)
    s, events = run(s0, heal(2, pool="energy"), [8, 10])
    assert s.creatures["t"].energy.pips == 1
    assert s.creatures["t"].ailments["Trauma"] == 2
    assert not of_kind(events, "trauma_recovered")


def test_trauma_per_grit_pip_sets_the_rate_and_0_turns_it_off() -> None:
    """Table setting `trauma_per_grit_pip` 2: one Grit Pip recovered (healing 1d12: 6) lowers Trauma 3 by 2 to 1;
    at 0 the same healing lowers nothing."""
    s, _ = run(traumatised({"torso": 3}, settings=TableSettings(trauma_per_grit_pip=2)), heal(1), [6])
    assert s.creatures["t"].ailments["Trauma"] == 1
    assert part(s, "torso").trauma == 1
    s, events = run(traumatised({"torso": 3}, settings=TableSettings(trauma_per_grit_pip=0)), heal(1), [6])
    assert s.creatures["t"].grit.pips == 3
    assert s.creatures["t"].ailments["Trauma"] == 3
    assert not of_kind(events, "trauma_recovered")


def test_trauma_lowered_by_its_endure_roll_comes_off_its_part_too() -> None:
    """reference §5.1: a successful defense roll drops the Ailment by 1 Tier. t (Endure 2), Trauma 2 on the torso,
    on its own turn: ending it, Trauma rolls Endure at DL 6 + 2 = 8: 9, 1 -> 9, success: Trauma 1, and the
    torso's Trauma 1 (the part keeps the same count as the total)."""
    s, events = run(on_turn(traumatised({"torso": 2}), "t"), END, [9, 1])
    assert only(events, "ailment_roll").data["success"] is True
    assert s.creatures["t"].ailments["Trauma"] == 1
    assert part(s, "torso").trauma == 1
