"""Hand-worked tests of Collision (seed-000: "As you move into an occupied space, fill your Movement Pool to attack
a target in the space to cause Collision, DL 3. Modify the damage dealt by the same way the attack roll is
modified from size.").

Collision is one of seed-000's Overpower actions: "Against a larger target, suffer a penalty on your roll equal to
the size difference. Against a smaller target, gain a bonus instead. You cannot affect targets 3 or more sizes
larger than you." It rolls Athletics against Athletics (table settings `collision_skill`, `collision_defense`)
and deals the table's `collision_damage` dice (default 1). Faces are used in order: the mover's attack roll,
the target's defense, then damage dice. The mover ends in the entered space if it fits there, otherwise in the
space before it (ASSUMPTION in movement.py).
"""

from __future__ import annotations

from typing import Any

from factories import creature, mod_values, on_turn, only, refused, run, state

from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings


def collide(to: tuple[int, int] = (7, 5), path: list[tuple[int, int]] | None = None) -> dict[str, Any]:
    return {
        "type": "move",
        "creature": "m",
        "to": to,
        "path": path if path is not None else [(6, 5), (7, 5)],
        "collide_with": "t",
    }


def field(
    m_size: int = 0,
    m_anchor: tuple[int, int] = (5, 5),
    t_size: int = 0,
    t_anchor: tuple[int, int] = (7, 5),
    t_skills: dict[str, int] | None = None,
    settings: TableSettings | None = None,
) -> GameState:
    """Mover `m` and target `t` (Athletics 2 each unless given), on the Soulweaver's turn."""
    m = creature("m", m_anchor, size=m_size)
    t = creature("t", t_anchor, size=t_size, skills=t_skills)
    return on_turn(state(m, t, settings=settings), "m")


def test_collision_fills_the_movement_pool_and_hits_at_dl_3() -> None:
    """seed-000 Collision: "As you move into an occupied space, fill your Movement Pool to attack a target in the
    space to cause Collision, DL 3."
    Size 0 m moves 2 spaces into size 0 t's space: Athletics 6, 2 -> 6 against Athletics 4, 3 -> 4: success.
    Damage 1d12 (`collision_damage` 1), face 5 -> Injury 1. The Movement Pool (5) is filled: 5 spent, 0 left.
    Two size 0 creatures fit in one space, so m ends in (7, 5)."""
    s, events = run(field(), collide(), [6, 2, 4, 3, 5])
    attack = only(events, "attack")
    assert attack.data["action"] == "collision"
    assert attack.data["dl"] == 3
    assert attack.data["success"] is True
    assert only(events, "damage").data["injury"] == 1
    assert s.creatures["t"].grit.pips == 1
    assert s.economy["m"].movement_spent == 5
    assert s.economy["m"].movement_left == 0
    assert s.creatures["m"].anchor == (7, 5)


def test_collision_fills_a_partly_spent_movement_pool() -> None:
    """seed-000 Collision: "fill your Movement Pool". m first moves 2 spaces (2 of 5 spent), then collides 1 space
    on: the pool is filled to 5, not 3. Athletics 7, 1 -> 7 against 2, 2 -> 2: success; damage face 1 -> Injury
    0. No further move is possible."""
    s0 = field(m_anchor=(3, 5), t_anchor=(6, 5))
    s, _ = run(s0, {"type": "move", "creature": "m", "to": (5, 5)}, [])
    assert s.economy["m"].movement_spent == 2
    s3, events = run(s, collide(to=(6, 5), path=[(6, 5)]), [7, 1, 2, 2, 1])
    assert only(events, "attack").data["success"] is True
    assert s3.economy["m"].movement_spent == 5
    refused(s3, {"type": "move", "creature": "m", "to": (7, 5), "path": [(7, 5)]})


def test_collision_below_dl_3_fails_even_against_a_lower_defense() -> None:
    """seed-000 Collision: "... to cause Collision, DL 3." Athletics 2, 1 -> 2 against t's Athletics 0 (no dice,
    0): short of DL 3, no damage. The Movement Pool was filled as the cost all the same."""
    s, events = run(field(t_skills={"Athletics": 0}), collide(), [2, 1])
    assert only(events, "attack").data["success"] is False
    assert "damage" not in [e.kind for e in events]
    assert s.economy["m"].movement_left == 0


def test_collision_against_a_smaller_target_gains_the_full_size_difference() -> None:
    """seed-000 Overpower: "Against a smaller target, gain a bonus instead" (the full size difference).
    Size 1 m into size 0 t: +1. Athletics 4, 1 -> 5 against 4, 3 -> 4: success (a tie without the bonus).
    Damage modified the same way: 1 + 1 = 2d12, faces 3, 3 -> Injury 2.
    Size 1 fills a whole space and (7, 5) already holds half a space: m stops in the space before, (6, 5)."""
    s, events = run(field(m_size=1), collide(), [4, 1, 4, 3, 3, 3])
    attack = only(events, "attack")
    assert mod_values(attack) == [1]
    assert attack.data["success"] is True
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 2
    assert s.creatures["t"].grit.pips == 2
    assert s.creatures["m"].anchor == (6, 5)


def test_collision_against_a_larger_target_takes_the_full_size_difference_on_the_roll() -> None:
    """seed-000 Overpower: "Against a larger target, suffer a penalty on your roll equal to the size difference."
    Size 0 m into size 2 t (spaces (7, 5), (8, 5)): -2, not the Strike's half. Athletics 7, 1 -> 5 against
    Athletics 5, 2 -> 5: a tie, the Collision fails (with -1 it would succeed)."""
    _, events = run(field(t_size=2), collide(), [7, 1, 5, 2])
    attack = only(events, "attack")
    assert mod_values(attack) == [-2]
    assert attack.data["success"] is False


def test_collision_damage_is_modified_by_size_like_the_roll() -> None:
    """seed-000 Collision: "Modify the damage dealt by the same way the attack roll is modified from size."
    Table `collision_damage` 3. Size 0 m into size 2 t: Athletics 9, 1 -> 7 against 5, 2 -> 5: success. Damage
    3 - 2 = 1d12, face 7 -> Injury 1. m does not fit beside a size 2 creature: it ends in (6, 5)."""
    settings = TableSettings(defense_prompts="nobody", collision_damage=3)
    s, events = run(field(t_size=2, settings=settings), collide(), [9, 1, 5, 2, 7])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 1
    assert damage.data["injury"] == 1
    assert s.creatures["t"].grit.pips == 1
    assert s.creatures["m"].anchor == (6, 5)


def test_collision_with_a_target_3_sizes_larger_is_refused() -> None:
    """seed-000 Overpower: "You cannot affect targets 3 or more sizes larger than you." Size 0 m into the space of
    size 3 t (spaces (7, 5), (8, 5), (7, 6), (8, 6))."""
    refused(field(t_size=3), collide())


def test_collision_with_a_creature_not_in_the_entered_space_is_refused() -> None:
    """seed-000 Collision: "As you move into an occupied space, ... attack a target in the space". m stops at
    (6, 5); t is at (7, 5)."""
    refused(field(), collide(to=(6, 5), path=[(6, 5)]))


def test_focus_gives_plus_1_on_a_grab_and_a_collision_against_the_focus() -> None:
    """reference §5.3 Focus (ASSUMPTION, setting `focus_bonus`): "+1 on rolls against your Focus" — for every
    melee attack with limbs, Grab and Collision as much as a Strike. A size 1 grabber (Grab Reach 1) Focused on
    an adjacent target: Athletics 2d12 [5, 3] = 5 +1 = 6 against Elude 2d12 [2, 1] = 2."""
    s = on_turn(
        state(creature("a", (0, 0), size=1, focus="t"), creature("t", (1, 0))),
        "a",
    )
    _, events = run(s, {"type": "grab", "creature": "a", "target": "t"}, [5, 3, 2, 1])
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [
        (1, "Focused on T: +1 on rolls against your Focus")
    ]
    assert attack.rolls[0].result == 6

    s = on_turn(state(creature("a", (0, 0), focus="t"), creature("t", (2, 0))), "a")
    # Collision: Athletics [9, 4] = 9 +1 = 10 against Athletics [3, 2] = 3, a hit; 1 damage die [1]: no Injury.
    _, events = run(s, {"type": "move", "creature": "a", "to": [2, 0], "collide_with": "t"}, [9, 4, 3, 2, 1])
    collision = only(events, "attack")
    assert (1, "Focused on T: +1 on rolls against your Focus") in [
        (m.value, m.reason) for m in collision.rolls[0].modifiers
    ]
