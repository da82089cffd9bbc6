"""Hand-worked tests of targeted attacks on a space (seed-000: "Targeted attacks can target a space instead of a
creature or object. For each occupant in the space, the Soulweaver rolls 3d12. On doubles, this roll becomes the
attack roll and is not modified by Concealment or size. On doubles against multiple targets, attack them each in
order of the highest face value of doubles or until an attack succeeds. On a tie, the Soulweaver determines the
order of the attacks.").

Faces are used in order: the Soulweaver's roll for each occupant (in the order the occupants are listed on the
board), then the defense of the first occupant attacked, then damage (or the next occupant's defense). The
attack is a Strike: DL 3 against Elude, weapon damage changed by size (seed-004).

The attacker `a` stands at (5, 5); the targeted space is (6, 5), next to it.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.model import SOULWEAVER, Creature, GameState, Weapon
from vtt.rules.settings import TableSettings

SWORD = weapon("sword", damage=2)


def attacker(w: Weapon | None = SWORD, size: int = 0, anchor: tuple[int, int] = (5, 5), **kw: Any) -> Creature:
    if w is None:
        return creature("a", anchor, size=size, **kw)
    grip = {"right_arm": w.id, "left_arm": w.id} if w.two_handed else {"right_arm": w.id}
    return creature("a", anchor, size=size, weapons=[w], grip=grip, **kw)


def arena(a: Creature, *occupants: Creature, capacity: float = 1.0) -> GameState:
    settings = TableSettings(defense_prompts="nobody", space_capacity=capacity)
    return on_turn(state(a, *occupants, settings=settings), "a")


def at_space(
    space: tuple[int, int] = (6, 5), weapon_id: str | None = "sword", limb: str | None = None
) -> dict[str, Any]:
    return {"type": "strike_space", "creature": "a", "space": space, "weapon": weapon_id, "limb": limb}


# --------------------------------------------------------------------------------------------------------
# 3d12 per occupant; doubles become the attack roll
# --------------------------------------------------------------------------------------------------------


def test_doubles_on_the_soulweavers_3d12_become_the_attack_roll() -> None:
    """seed-000: "For each occupant in the space, the Soulweaver rolls 3d12. On doubles, this roll becomes the
    attack roll".
    One size 0 occupant o. The Soulweaver rolls 7, 7, 2: doubles of 7, the attack is 7 (DL 3) against o's Elude
    5, 3 -> 5: success. Sword damage 2d12, faces 3, 1 -> Injury 1."""
    s, events = run(arena(attacker(), creature("o", (6, 5))), at_space(), [7, 7, 2, 5, 3, 3, 1])
    space_roll = only(events, "space_roll")
    assert space_roll.rolls[0].faces == (7, 7, 2)
    assert space_roll.data["doubles"] == 7
    attack = only(events, "attack")
    assert attack.rolls[0].result == 7
    assert attack.data["success"] is True
    assert s.creatures["o"].grit.pips == 1
    assert s.economy["a"].major == 0


def test_no_doubles_means_no_attack() -> None:
    """seed-000: "On doubles, this roll becomes the attack roll". The Soulweaver rolls 7, 4, 2: no doubles, so o
    is not attacked: no defense, no damage."""
    s, events = run(arena(attacker(), creature("o", (6, 5))), at_space(), [7, 4, 2])
    assert of_kind(events, "attack") == []
    assert of_kind(events, "space_miss") != []
    assert s.creatures["o"].grit.pips == 0


def test_space_attack_roll_is_not_modified_by_size() -> None:
    """seed-000: "this roll becomes the attack roll and is not modified by Concealment or size."
    Size 2 a (spaces (4, 5), (5, 5)) on a size 0 occupant: a Strike would take -1, this roll does not. Rolls
    6, 6, 1 -> 6 against Elude 5, 5 -> 5: success. Damage is still changed by size (seed-004): 2 + 2 = 4d12,
    faces 3, 3, 3, 1 -> Injury 3."""
    s0 = arena(attacker(size=2, anchor=(4, 5)), creature("o", (6, 5)))
    s, events = run(s0, at_space(), [6, 6, 1, 5, 5, 3, 3, 3, 1])
    attack = only(events, "attack")
    assert [m.value for m in attack.rolls[0].modifiers] == []
    assert attack.rolls[0].result == 6
    assert attack.data["success"] is True
    assert only(events, "damage").rolls[0].dice == 4
    assert s.creatures["o"].grit.pips == 3


# --------------------------------------------------------------------------------------------------------
# How many d12 the Soulweaver rolls
# --------------------------------------------------------------------------------------------------------

NO_DOUBLES = [2, 4, 6, 8, 10, 12]


@pytest.mark.parametrize(
    ("w", "expected_dice"),
    [
        pytest.param(weapon("sword", made_for_size=0), 3, id="made for size 0: 3d12"),
        pytest.param(weapon("sword", made_for_size=1), 3, id="made for size 1: under 2 sizes over, 3d12"),
        pytest.param(weapon("sword", made_for_size=2), 4, id="made for size 2: +1d12"),
        pytest.param(weapon("sword", made_for_size=3), 4, id="made for size 3: +1d12 (round down)"),
        pytest.param(weapon("sword", made_for_size=4), 5, id="made for size 4: +2d12"),
        pytest.param(weapon("sword", made_for_size=-2), 2, id="made for size -2: -1d12"),
        pytest.param(weapon("sword", made_for_size=1, two_handed=True), 4, id="two-handed size 1 counts 2: +1d12"),
        pytest.param(weapon("sword", made_for_size=-1, lightweight=True), 2, id="lightweight size -1 counts -2"),
        pytest.param(weapon("sword", made_for_size=0, lightweight=True), 3, id="lightweight size 0 counts -1: 0"),
    ],
)
def test_weapon_made_for_size_changes_the_soulweavers_dice(w: Weapon, expected_dice: int) -> None:
    """seed-000: "• If your melee weapon is made for a creature above size 0, each 2 sizes over causes +1d12.
    Two-handed counts as 1 size larger. • If your melee weapon is made for a creature under size 0, each 2 sizes
    under causes -1d12. Lightweight counts as 1 size smaller."
    One size 0 occupant (half of 0 = no change). The faces 2, 4, 6, ... have no doubles, so nothing else is
    rolled; exactly `expected_dice` faces are used."""
    faces = NO_DOUBLES[:expected_dice]
    _, events = run(arena(attacker(w), creature("o", (6, 5))), at_space(), faces)
    assert only(events, "space_roll").rolls[0].dice == expected_dice
    assert of_kind(events, "attack") == []


def test_unarmed_strike_on_a_space_adds_half_your_size() -> None:
    """seed-000: "• If making an Unarmed Strike, modify the number of d12 by half your size."
    Size 2 a (spaces (4, 5), (5, 5)) unarmed on a size 0 occupant: 3 + 1 = 4d12 (faces 2, 4, 6, 8: no doubles)."""
    s0 = arena(attacker(None, size=2, anchor=(4, 5)), creature("o", (6, 5)))
    _, events = run(s0, at_space(weapon_id=None), [2, 4, 6, 8])
    assert only(events, "space_roll").rolls[0].dice == 4


def test_unarmed_strike_on_a_space_by_a_small_creature_loses_dice() -> None:
    """seed-000: "• If making an Unarmed Strike, modify the number of d12 by half your size."
    Size -2 a has Reach 0 (reference §2.3) and strikes its own space (5, 5), where a size 0 o also stands:
    3 - 1 = 2d12 (faces 2, 4)."""
    s0 = arena(attacker(None, size=-2), creature("o", (5, 5)))
    _, events = run(s0, at_space(space=(5, 5), weapon_id=None), [2, 4])
    roll = only(events, "space_roll")
    assert roll.target == "o"
    assert roll.rolls[0].dice == 2


@pytest.mark.parametrize(
    ("size", "expected_dice"),
    [
        pytest.param(2, 4, id="size 2 target: +1d12"),
        pytest.param(1, 3, id="size 1 target: half of 1 is 0"),
        pytest.param(-1, 3, id="size -1 target: half of -1 is 0"),
        pytest.param(-2, 2, id="size -2 target: -1d12"),
    ],
)
def test_half_the_targets_size_changes_the_soulweavers_dice(size: int, expected_dice: int) -> None:
    """seed-000: "• Modify the number of d12 by half the target's size." Sword made for size 0 (no change)."""
    faces = NO_DOUBLES[:expected_dice]
    _, events = run(arena(attacker(), creature("o", (6, 5), size=size)), at_space(), faces)
    assert only(events, "space_roll").rolls[0].dice == expected_dice


def test_weapon_size_and_target_size_add_together() -> None:
    """seed-000 ("each 2 sizes over causes +1d12", "Modify the number of d12 by half the target's size"): a weapon
    made for size 2 (+1) on a size 2 occupant (+1): 5d12 (faces 2, 4, 6, 8, 10)."""
    s0 = arena(attacker(weapon("sword", made_for_size=2)), creature("o", (6, 5), size=2))
    _, events = run(s0, at_space(), [2, 4, 6, 8, 10])
    assert only(events, "space_roll").rolls[0].dice == 5


# --------------------------------------------------------------------------------------------------------
# Several occupants: order, stopping, ties
# --------------------------------------------------------------------------------------------------------


def test_attacks_go_in_order_of_the_highest_doubled_face_and_stop_at_a_success() -> None:
    """seed-000: "On doubles against multiple targets, attack them each in order of the highest face value of
    doubles or until an attack succeeds."
    p rolls 3, 3, 11 (doubles of 3, result 11); q rolls 6, 6, 2 (doubles of 6, result 6). q is attacked first
    (6 > 3) even though p's roll is higher: 6 against q's Elude 5, 4 -> 5: success. Damage 2d12, faces 4, 2 ->
    Injury 1 to q. p is not attacked."""
    s0 = arena(attacker(), creature("p", (6, 5)), creature("q", (6, 5)))
    s, events = run(s0, at_space(), [3, 3, 11, 6, 6, 2, 5, 4, 4, 2])
    assert [e.target for e in of_kind(events, "attack")] == ["q"]
    assert s.creatures["q"].grit.pips == 1
    assert s.creatures["p"].grit.pips == 0


def test_a_failed_attack_goes_on_to_the_next_doubled_occupant() -> None:
    """seed-000: "attack them each in order of the highest face value of doubles or until an attack succeeds."
    p rolls 3, 3, 11; q rolls 6, 6, 2. q first: 6 against Elude 7, 1 -> 7: fails. Then p: 11 against Elude 9, 2
    -> 9: success. Damage 2d12, faces 3, 3 -> Injury 2 to p."""
    s0 = arena(attacker(), creature("p", (6, 5)), creature("q", (6, 5)))
    s, events = run(s0, at_space(), [3, 3, 11, 6, 6, 2, 7, 1, 9, 2, 3, 3])
    assert [(e.target, e.data["success"]) for e in of_kind(events, "attack")] == [("q", False), ("p", True)]
    assert s.creatures["p"].grit.pips == 2
    assert s.creatures["q"].grit.pips == 0


def test_tied_doubles_wait_for_the_soulweaver_to_choose_the_order() -> None:
    """seed-000: "On a tie, the Soulweaver determines the order of the attacks."
    p rolls 5, 5, 1 and q rolls 5, 5, 2: both doubles of 5. An "order" decision goes to the Soulweaver and nothing
    is attacked yet. The Soulweaver answers q then p: q's roll (5) against Elude 3, 2 -> 3: success; damage
    2d12, faces 3, 3 -> Injury 2 to q; p is not attacked."""
    s0 = arena(attacker(), creature("p", (6, 5)), creature("q", (6, 5)))
    s, events = run(s0, at_space(), [5, 5, 1, 5, 5, 2])
    assert of_kind(events, "attack") == []
    (decision,) = s.pending
    assert decision.kind == "order"
    assert decision.to == SOULWEAVER
    assert sorted(decision.options) == ["p", "q"]
    s, events = run(s, {"type": "choose_order", "decision": decision.id, "order": ["q", "p"]}, [3, 2, 3, 3])
    assert s.pending == []
    assert [e.target for e in of_kind(events, "attack")] == ["q"]
    assert s.creatures["q"].grit.pips == 2
    assert s.creatures["p"].grit.pips == 0


def test_an_order_that_leaves_out_an_attacked_occupant_is_refused() -> None:
    """seed-000: "On a tie, the Soulweaver determines the order of the attacks." The order must name both tied
    occupants (p rolls 5, 5, 1; q rolls 5, 5, 2)."""
    s0 = arena(attacker(), creature("p", (6, 5)), creature("q", (6, 5)))
    s, _ = run(s0, at_space(), [5, 5, 1, 5, 5, 2])
    refused(s, {"type": "choose_order", "decision": s.pending[0].id, "order": ["q"]})


def test_three_occupants_each_get_a_roll() -> None:
    """seed-000: "For each occupant in the space, the Soulweaver rolls 3d12."
    Size 0 p and q and size -1 r share (6, 5): 1/2 + 1/2 + 1/4 of a space, so the table's `space_capacity` is
    raised to 1.5 (reference §2.2 gap 3). Rolls: p 4, 8, 1 (no doubles); q 9, 9, 3 (doubles of 9); r 2, 2, 12
    (doubles of 2, result 12; half of -1 is 0 dice). q first: 9 against Elude 10, 1 -> 10: fails. Then r: 12
    against Elude 6, 6 -> 6: success. Damage 2 + 1 (r is 1 size smaller) = 3d12, faces 3, 1, 1 -> Injury 1 to
    r. p is never attacked."""
    s0 = arena(attacker(), creature("p", (6, 5)), creature("q", (6, 5)), creature("r", (6, 5), size=-1), capacity=1.5)
    s, events = run(s0, at_space(), [4, 8, 1, 9, 9, 3, 2, 2, 12, 10, 1, 6, 6, 3, 1, 1])
    assert [e.target for e in of_kind(events, "space_roll")] == ["p", "q", "r"]
    assert [(e.target, e.data["success"]) for e in of_kind(events, "attack")] == [("q", False), ("r", True)]
    assert only(events, "damage").rolls[0].dice == 3
    assert s.creatures["r"].grit.pips == 1
    assert s.creatures["p"].grit.pips == 0
    assert s.creatures["q"].grit.pips == 0


def test_a_space_out_of_reach_is_refused() -> None:
    """reference §2.3: Reach "is the number of spaces away that you can reach". A sword at size 0 reaches 1; the
    space (7, 5) is 2 away."""
    refused(arena(attacker(), creature("o", (7, 5))), at_space(space=(7, 5)))
