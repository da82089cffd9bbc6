"""The move preview (`move_preview`) worked out by hand from the movement rules (reference §2.5 "Movement",
§2.2 "Size", seed-000 Collision: "As you move into an occupied space, fill your Movement Pool to attack a target
in the space to cause Collision, DL 3"), and a property test: moves along random previewed paths are accepted by
`apply` at the previewed cost, and ends the preview marks blocked are refused.

Hex grid, axial (q, r): the neighbours of (5, 5) are (6, 5), (6, 4), (5, 4), (4, 5), (4, 6), (5, 6). The table's
Movement Pool is 5.
"""

from __future__ import annotations

import json
from typing import Any

from factories import creature, on_turn, refused, state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.model import GameState
from vtt.rules.move_preview import preview_move
from vtt.rules.odds import attack_chance
from vtt.rules.settings import TableSettings


def board(o_size: int = 0, o_anchor: tuple[int, int] = (6, 5), **kw: Any) -> GameState:
    """Mover `m` (size 0, Athletics 2) at (5, 5) and `o` (Athletics 2), on m's turn."""
    m_kw = {k[2:]: v for k, v in kw.items() if k.startswith("m_")}
    rest = {k: v for k, v in kw.items() if not k.startswith("m_")}
    return on_turn(state(creature("m", (5, 5), **m_kw), creature("o", o_anchor, size=o_size), **rest), "m")


def test_each_space_costs_1_movement_up_to_the_pool() -> None:
    """reference §2.5: 1 Movement a space, 5 in the pool. (8, 5) is 3 spaces away: cost 3; (10, 5) is 5 away:
    cost 5; (11, 5) is 6 away: out of reach. The start costs 0; the path to (8, 5) runs back to the start."""
    p = preview_move(board(o_anchor=(15, 15)), "m")
    assert p.why_not is None
    assert p.cost[(5, 5)] == 0
    assert p.cost[(8, 5)] == 3
    assert p.cost[(10, 5)] == 5
    assert (11, 5) not in p.cost
    assert p.path_to((8, 5)) == [(6, 5), (7, 5), (8, 5)]
    assert p.as_json()["reachable"]["8,5"] == 3  # type: ignore[index]


def test_a_wall_is_walked_around_at_the_longer_cost() -> None:
    """reference §2.5: a wall fills (6, 5); (7, 5), 2 spaces away, costs 3 by the way around; (6, 5) is out."""
    p = preview_move(board(o_anchor=(15, 15), walls={(6, 5)}), "m")
    assert (6, 5) not in p.cost
    assert p.cost[(7, 5)] == 3


def test_prone_crawling_costs_2_a_space() -> None:
    """reference §5.3 ASSUMPTION (prone_move_extra 1): a Prone creature pays 2 a space: with 5 Movement it
    reaches 2 spaces, (7, 5) at 4; (8, 5) would cost 6. Standing up would cost half the pool, 2."""
    p = preview_move(board(o_anchor=(15, 15), m_prone=True), "m")
    assert p.cost[(7, 5)] == 4
    assert (8, 5) not in p.cost
    assert p.stand_up is not None and p.stand_up["movement"] == 2


def test_uneven_ground_costs_1_more() -> None:
    """reference §2.5 gap 7 ASSUMPTION (uneven_move_extra 1): stepping onto Tier 1 Uneven Ground at (6, 5) costs
    2. (7, 5) is 2 spaces away only through (6, 5): 2 + 1 = 3. (7, 4) is 2 away through (6, 5) (3) or through
    (6, 4) (1 + 1 = 2): the preview takes the cheaper way, at 2."""
    p = preview_move(board(o_anchor=(15, 15), uneven={(6, 5): 1}), "m")
    assert p.cost[(6, 5)] == 2
    assert p.cost[(7, 5)] == 3
    assert p.cost[(7, 4)] == 2
    assert p.path_to((7, 4)) == [(6, 4), (7, 4)]


def test_sharing_with_a_size_0_creature_is_a_legal_move_in_and_a_collision() -> None:
    """reference §2.2: two size 0 creatures share a space, so m may move into o's space; seed-000: entering it
    also allows a Collision, Athletics 2d12 against o's Athletics 2d12 at DL 3, no size difference; its damage is
    1d12 needing 3 (seed-004): 0 Injury with 2/12, 1 with 10/12, both above a tenth, so 0 to 1 is likely."""
    p = preview_move(board(), "m")
    assert (6, 5) not in p.blocked
    (col,) = p.collisions[(6, 5)]
    assert (col.target, col.dice, col.modifier, col.dl, col.defense_dice, col.defense_modifier) == ("o", 2, 0, 3, 2, 0)
    assert col.chance == float(attack_chance(2, 0, 3, 2))
    shown = json.loads(json.dumps(p.as_json()))
    assert shown["collisions"]["6,5"]["move_in"] is True
    assert shown["collisions"]["6,5"]["targets"][0]["damage"]["likely"] == [0, 1]
    assert col.damage is not None and (col.damage.dice, col.damage.needed) == (1, 3)


def test_a_full_space_is_blocked_but_still_a_collision() -> None:
    """reference §2.2: a size 1 creature fills its space, so size 0 m does not fit in (6, 5): blocked. Collision
    is an Overpower (seed-000): size 1 is 1 larger, -1 on m's roll (`sizes.overpower_size_bonus`) and the damage
    changes by the size difference, 1 - 1 = 0 dice."""
    p = preview_move(board(o_size=1), "m")
    assert "does not fit" in p.blocked[(6, 5)]
    (col,) = p.collisions[(6, 5)]
    assert col.modifier == -1
    assert col.damage is not None and col.damage.dice == 0
    assert p.as_json()["collisions"]["6,5"]["move_in"] is False  # type: ignore[index]


def test_after_a_dash_a_collision_two_spaces_on_may_be_a_charge() -> None:
    """seed-000 Charge: after Dash, an Overpower made having moved 2 consecutive spaces gets +1 on its roll.
    m Dashes (no spaces moved yet): with o at (7, 5), 2 spaces away, a Collision there may be a Charge; with o at
    (6, 5), 1 space away, it may not. The Charge's odds are those of 2d12 + 1 against 2d12 at DL 3; without Dash
    there is no Charge at all."""
    far = board(o_anchor=(7, 5))
    dashed, _ = apply(far, {"type": "dash", "creature": "m"}, ScriptedDice([]))
    p = preview_move(dashed, "m")
    assert (7, 5) in p.charges
    (col,) = p.collisions[(7, 5)]
    assert col.charge_chance == float(attack_chance(2, 1, 3, 2))
    assert p.as_json()["collisions"]["7,5"]["charge"] is True  # type: ignore[index]
    near, _ = apply(board(), {"type": "dash", "creature": "m"}, ScriptedDice([]))
    assert (6, 5) not in preview_move(near, "m").charges
    plain = preview_move(far, "m")
    assert plain.charges == set() and plain.collisions[(7, 5)][0].charge_chance is None


def test_no_collision_with_a_creature_3_sizes_larger() -> None:
    """seed-000 Overpower: no effect on a creature 3 or more sizes larger."""
    p = preview_move(board(o_size=3, o_anchor=(8, 5)), "m")
    assert not any(x.target == "o" for found in p.collisions.values() for x in found)


def test_a_creature_not_on_its_turn_cannot_move() -> None:
    """reference §3: a creature acts on its turn: on player-controlled m's turn, the Soulweaver's o cannot move;
    its preview says why and lists nothing."""
    p = preview_move(board(m_controller="alice"), "o")
    assert p.why_not is not None and "turn" in p.why_not
    assert p.cost == {}


@st.composite
def boards(draw: st.DrawFn) -> GameState:
    cells = st.tuples(st.integers(min_value=0, max_value=9), st.integers(min_value=0, max_value=9))
    walls = draw(st.sets(cells, max_size=15))
    uneven = draw(st.dictionaries(cells, st.integers(min_value=1, max_value=3), max_size=15))
    m = creature("m", (5, 5), size=draw(st.integers(min_value=0, max_value=1)), prone=draw(st.booleans()))
    others = [
        creature(f"o{i}", anchor, size=draw(st.integers(min_value=0, max_value=3)))
        for i, anchor in enumerate(draw(st.lists(cells, max_size=6, unique=True)))
    ]
    walls -= {(5, 5), (5, 4), (6, 4)}
    rules = TableSettings(defense_prompts="nobody", reactions=False)
    s = state(m, *others, cols=10, rows=10, walls=walls, uneven={k: v for k, v in uneven.items() if k not in walls})
    s.settings = rules
    s = on_turn(s, "m")
    if draw(st.booleans()):
        s, _ = apply(s, {"type": "dash", "creature": "m"}, ScriptedDice([]))
    return s


ALL_TWELVES = [12] * 40
"""Balance rolls on Uneven Ground (DL 3 + Tier 3 at most) all succeed on 12s, so no move ends early."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=boards(), pick=st.integers(min_value=0, max_value=10_000))
def test_previewed_paths_are_accepted_at_the_previewed_cost_and_blocked_ends_refused(s: GameState, pick: int) -> None:
    """reference §2.5: `apply(Move)` charges a path its step costs and refuses an end where the creature does not
    fit; the preview must say the same. The collision the preview offers on a space is accepted by `apply`."""
    p = preview_move(s, "m")
    if p.why_not is not None:
        return
    ends = sorted(c for c in p.cost if c != p.start)
    if not ends:
        return
    end = ends[pick % len(ends)]
    path = p.path_to(end)
    move = {"type": "move", "creature": "m", "to": end, "path": path}
    spent = s.economy["m"].movement_spent
    if end in p.blocked:
        refused(s, move, ALL_TWELVES)
    else:
        after, _ = apply(s, move, ScriptedDice(ALL_TWELVES))
        assert after.creatures["m"].anchor == end
        assert after.economy["m"].movement_spent - spent == p.cost[end]
    for col in p.collisions.get(end, []):
        after, events = apply(s, {**move, "collide_with": col.target}, ScriptedDice(ALL_TWELVES))
        assert any(e.kind == "collision" for e in events)
        charge = {**move, "collide_with": col.target, "charge": True}
        if end in p.charges:
            apply(s, charge, ScriptedDice(ALL_TWELVES))
        else:
            refused(s, charge, ALL_TWELVES)
    # Every space next to the reach that the preview leaves out is refused at the Movement left.
    for cell in ((end[0] + 1, end[1]), (end[0], end[1] + 1)):
        if cell not in p.cost:
            refused(s, {"type": "move", "creature": "m", "to": cell}, ALL_TWELVES)
