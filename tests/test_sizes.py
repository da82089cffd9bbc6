"""Hand-worked tests of vtt.rules.sizes: size on Strikes, Overpower, Nimble, surfaces and physical damage.

"Half" rounds toward zero (reference §1.1: "Always round down"; half a size difference is a magnitude).
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, on_turn, state

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.events import Event
from vtt.rules.model import GameState
from vtt.rules.sizes import (
    GROUND_DEFENSE,
    GROUND_PENALTY,
    WALL_SIZE,
    can_overpower,
    may_attack_nimble,
    overpower_size_bonus,
    overpower_size_modifier,
    physical_damage_size_change,
    strike_size_bonus,
    strike_size_modifier,
)

# --------------------------------------------------------------------------------------------------------
# Strikes: half the size difference
# --------------------------------------------------------------------------------------------------------


def test_strike_against_smaller_target_is_penalised_half_the_size_difference() -> None:
    """seed-000 Strikes: "Against targets smaller than you, suffer a penalty on your roll equal to half the size
    difference." Size 4 against size 0: difference 4, penalty 2."""
    assert strike_size_bonus(4, 0) == -2


def test_strike_penalty_for_an_odd_difference_rounds_toward_zero() -> None:
    """seed-000 Strikes: "a penalty ... equal to half the size difference"; reference §1.1 "Always round down":
    3 sizes smaller is half of 3 = 1.5, a penalty of 1."""
    assert strike_size_bonus(3, 0) == -1
    assert strike_size_bonus(1, 0) == 0


def test_strike_against_larger_target_gains_half_the_size_difference() -> None:
    """seed-000 Strikes: "Against larger targets, gain that amount as bonus." 5 sizes larger: half of 5 = 2.5,
    rounded down to +2."""
    assert strike_size_bonus(0, 5) == 2
    assert strike_size_bonus(-2, 2) == 2


def test_strike_against_same_size_target_has_no_size_modifier() -> None:
    """seed-000 Strikes: only targets "smaller" or "larger" change the roll; size 2 against size 2 gives no
    modifier at all."""
    assert strike_size_bonus(2, 2) == 0
    assert strike_size_modifier(2, 2) is None


def test_strike_size_modifier_carries_its_value_and_reason() -> None:
    """seed-000 Strikes: "suffer a penalty on your roll equal to half the size difference" — the modifier on
    the roll is -1 for size 3 against size 0 and says the target is smaller."""
    mod = strike_size_modifier(3, 0)
    assert mod is not None
    assert mod.value == -1
    assert "smaller" in mod.reason
    assert "half the difference" in mod.reason


# --------------------------------------------------------------------------------------------------------
# Overpower: the full size difference, and nothing 3+ sizes larger
# --------------------------------------------------------------------------------------------------------


def test_overpower_against_larger_target_is_penalised_the_full_size_difference() -> None:
    """seed-000 Overpower: "Against a larger target, suffer a penalty on your roll equal to the size
    difference." Size 0 against size 2: -2."""
    assert overpower_size_bonus(0, 2) == -2


def test_overpower_against_smaller_target_gains_the_full_size_difference() -> None:
    """seed-000 Overpower: "Against a smaller target, gain a bonus instead." Size 3 against size 0: +3 (not
    half of it)."""
    assert overpower_size_bonus(3, 0) == 3
    mod = overpower_size_modifier(3, 0)
    assert mod is not None
    assert mod.value == 3
    assert "full difference" in mod.reason


def test_overpower_same_size_has_no_size_modifier() -> None:
    """seed-000 Overpower: only a "larger" or "smaller" target changes the roll."""
    assert overpower_size_modifier(1, 1) is None


def test_overpower_cannot_affect_a_target_three_sizes_larger() -> None:
    """seed-000 Overpower: "You cannot affect targets 3 or more sizes larger than you." Size 0 against size 3
    and size 4: impossible."""
    assert can_overpower(0, 3) is False
    assert can_overpower(0, 4) is False
    assert can_overpower(-1, 2) is False


def test_overpower_can_affect_a_target_two_sizes_larger() -> None:
    """seed-000 Overpower: only "3 or more sizes larger" is out of reach; 2 larger, equal and smaller are
    fine."""
    assert can_overpower(0, 2) is True
    assert can_overpower(1, 1) is True
    assert can_overpower(5, 0) is True


# --------------------------------------------------------------------------------------------------------
# Nimble
# --------------------------------------------------------------------------------------------------------


def test_attacking_nimble_is_allowed_four_sizes_larger() -> None:
    """seed-000: "If you are 4 or more sizes larger than your target, you can instead attack against Nimble."
    Size 4 against 0 and size 6 against 1: allowed."""
    assert may_attack_nimble(4, 0) is True
    assert may_attack_nimble(6, 1) is True


def test_attacking_nimble_is_not_allowed_three_sizes_larger() -> None:
    """seed-000: Nimble needs "4 or more sizes larger"; size 3 against 0 is only 3, and a smaller attacker
    never qualifies."""
    assert may_attack_nimble(3, 0) is False
    assert may_attack_nimble(0, 4) is False


# --------------------------------------------------------------------------------------------------------
# Physical damage
# --------------------------------------------------------------------------------------------------------


def test_physical_damage_against_larger_subject_falls_by_the_size_difference() -> None:
    """seed-004 Size: "Against subject larger than you, reduce your damage equal to the size difference."
    Size 0 against size 2: -2 damage."""
    assert physical_damage_size_change(0, 2) == -2


def test_physical_damage_against_smaller_subject_rises_by_the_size_difference() -> None:
    """seed-004 Size: "Against smaller subjects, instead increase your damage." Size 3 against size 0: +3 (the
    full difference, unlike the Strike roll's half)."""
    assert physical_damage_size_change(3, 0) == 3
    assert physical_damage_size_change(1, 1) == 0


# --------------------------------------------------------------------------------------------------------
# Walls and the ground
# --------------------------------------------------------------------------------------------------------


def test_surface_constants_match_the_seed() -> None:
    """seed-000: "To target a wall ... treat it as a size 1 object. To target the ground ..., take -1 on your
    attack roll and treat its defense as 0." """
    assert WALL_SIZE == 1
    assert GROUND_PENALTY == -1
    assert GROUND_DEFENSE == 0


def _strike_surface(
    attacker_size: int, space: tuple[int, int], surface: str, faces: list[int]
) -> tuple[list[Event], ScriptedDice]:
    """Attacker `a` (Martial 2, unarmed) at (2, 2) Strikes `surface` at `space`; a wall fills (4, 2)."""
    a = creature("a", (2, 2), size=attacker_size, skills={"Martial": 2})
    s: GameState = on_turn(state(a, walls={(4, 2)}), "a")
    dice = ScriptedDice(faces)
    command: dict[str, Any] = {"type": "strike", "creature": "a", "space": space, "surface": surface}
    _, events = apply(s, command, dice)
    return events, dice


def _event(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, [e.kind for e in events]
    return found[0]


def test_strike_on_a_wall_treats_it_as_a_size_1_object() -> None:
    """seed-000: "To target a wall or vertical surface that fills an entire space, treat it as a size 1
    object." A size 3 creature (rhombus (2,2),(3,2),(2,3),(3,3), next to the wall at (4,2)) is 2 sizes larger:
    -1 on the Strike. Faces 3, 2: 3 - 1 = 2, short of DL 3, so it misses and no damage is rolled."""
    events, dice = _strike_surface(3, (4, 2), "wall", [3, 2])
    attack = _event(events, "attack")
    assert [m.value for m in attack.rolls[0].modifiers] == [-1]
    assert attack.rolls[0].result == 2
    assert attack.data["success"] is False
    assert dice.remaining == 0


def test_strike_on_a_wall_by_a_size_0_creature_has_no_size_modifier() -> None:
    """seed-000: a wall is "a size 1 object"; a size 0 creature's Strike on it is half of 1 = 0.5, rounded
    down to 0. Faces 3, 1: 3 with no modifier reaches DL 3 against defense 0 and hits (a -1 would miss). The
    spare face 4 is for the damage, which the next test checks."""
    a = creature("a", (3, 2), size=0, skills={"Martial": 2})
    s = on_turn(state(a, walls={(4, 2)}), "a")
    dice = ScriptedDice([3, 1, 4])
    command: dict[str, Any] = {"type": "strike", "creature": "a", "space": (4, 2), "surface": "wall"}
    _, events = apply(s, command, dice)
    attack = _event(events, "attack")
    assert attack.rolls[0].modifiers == ()
    assert attack.data["success"] is True


def test_physical_damage_to_a_wall_is_changed_by_its_size_1() -> None:
    """seed-000: a wall is treated "as a size 1 object"; seed-004 Size: "Dealing physical damage is affected by
    the size of the subject ... Against smaller subjects, instead increase your damage." A size 3 creature's
    unarmed Strike (1 damage die) on the wall is 2 sizes larger: 1 + 2 = 3 damage dice. Faces 5, 2 hit (5 - 1 =
    4 ≥ DL 3); damage faces 4, 7, 9 are 3 Injury."""
    events, dice = _strike_surface(3, (4, 2), "wall", [5, 2, 4, 7, 9])
    damage = _event(events, "damage")
    assert damage.rolls[0].dice == 3
    assert damage.data["injury"] == 3
    assert dice.remaining == 0


def test_strike_on_the_ground_takes_minus_1() -> None:
    """seed-000: "To target the ground or a horizontal surface that fills an entire space, take -1 on your
    attack roll." Faces 3, 2: 3 - 1 = 2, short of DL 3: the Strike misses."""
    events, dice = _strike_surface(0, (1, 2), "ground", [3, 2])
    attack = _event(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [(-1, "attacking the ground")]
    assert attack.rolls[0].result == 2
    assert attack.data["success"] is False
    assert dice.remaining == 0


def test_strike_on_the_ground_is_against_defense_0() -> None:
    """seed-000: for the ground "treat its defense as 0". Faces 4, 2: 4 - 1 = 3 reaches DL 3 and beats defense
    0, so the Strike hits and rolls its 1 damage die (face 5: 1 Injury)."""
    events, dice = _strike_surface(0, (1, 2), "ground", [4, 2, 5])
    attack = _event(events, "attack")
    assert "defense 0" in attack.text
    assert attack.data["success"] is True
    assert _event(events, "damage").data["injury"] == 1
    assert dice.remaining == 0


@pytest.mark.parametrize(
    ("attacker", "target", "expected"),
    [(0, 0, 0), (2, 0, -1), (0, 3, 1), (5, 0, -2), (0, 7, 3), (-2, 1, 1)],
)
def test_strike_size_bonus_table(attacker: int, target: int, expected: int) -> None:
    """seed-000 Strikes: "half the size difference" as a penalty against smaller targets and a bonus against
    larger ones, rounded down in magnitude: 2 → 1, 3 → 1, 5 → 2, 7 → 3."""
    assert strike_size_bonus(attacker, target) == expected
