"""Hand-worked tests of Prone (reference §5.3: "Dropping Prone is No Action and can be declared at any time"; GAP,
ASSUMPTIONS: "-1d12 on physical attacks", "Melee attackers against you get +1", "Standing up costs half your
Movement Pool", "Moving while Prone costs +1 per space"), table settings `stand_up_cost`, `prone_move_extra`,
`prone_attack_dice`, `prone_melee_against`.

a (sword, Martial 2) at (6, 5) and d (Elude 2) at (5, 5) are the Soulweaver's; the Movement Pool is 5 spaces.
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, refused, run, state, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1}
STAND = {"type": "stand_up", "creature": "a"}


def field(a_prone: bool = True, d_prone: bool = False, **settings: Any) -> GameState:
    a = creature("a", (6, 5), skills=dict(SKILLS), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    a.prone = a_prone
    d = creature("d", (5, 5), skills=dict(SKILLS))
    d.prone = d_prone
    table = TableSettings(defense_prompts="nobody", reactions=False, **settings)
    return on_turn(state(a, d, settings=table), "a")


def option(s: GameState, action: str) -> Any:
    found = [o for o in legal_actions(s, "a") if o.action == action]
    return found[0] if found else None


def test_stand_up_is_offered_only_to_a_prone_creature() -> None:
    """reference §5.3 ASSUMPTION "Standing up costs half your Movement Pool": half of 5 is 2 (rounding down,
    reference §1.1). Not Prone: no Stand up offered, and the command is refused."""
    stand = option(field(), "stand_up")
    assert stand is not None and stand.cost == {"movement": 2} and stand.group == "Move"
    assert option(field(a_prone=False), "stand_up") is None
    refused(field(a_prone=False), STAND)


def test_standing_up_costs_half_the_movement_pool() -> None:
    """a stands up: 2 of its 5 Movement spent, no longer Prone; 3 spaces are left to move."""
    s, events = run(field(), STAND, [])
    assert only(events, "stand_up").text == "A stands up, paying 2 Movement (Movement 2/5)."
    assert not s.creatures["a"].prone
    assert s.economy["a"].movement_left == 3
    assert option(s, "stand_up") is None


def test_standing_up_needs_the_movement_to_pay_for_it() -> None:
    """Prone a crawls 2 spaces (2 Movement each, +1 per space: 4 of 5): 1 left, less than the 2 standing costs: not
    offered, refused."""
    s, _ = run(field(), {"type": "move", "creature": "a", "to": [8, 5]}, [])
    assert s.economy["a"].movement_left == 1
    assert option(s, "stand_up") is None
    refused(s, STAND)


def test_the_cost_of_standing_up_is_a_table_setting() -> None:
    """`stand_up_cost` "minor": a Minor Action (1 of 2 left), no Movement; with no Minor Action left it is not
    offered, and refused. "major": it costs the Major Action."""
    s, events = run(field(stand_up_cost="minor"), STAND, [])
    assert only(events, "stand_up").data == {"cost": "minor"}
    assert s.economy["a"].minor == 1 and s.economy["a"].movement_left == 5
    s0 = field(stand_up_cost="minor")
    s0.economy["a"].minor = 0
    assert option(s0, "stand_up") is None
    refused(s0, STAND)
    major = option(field(stand_up_cost="major"), "stand_up")
    assert major is not None and major.cost == {"major": 1}


def test_moving_while_prone_costs_1_more_per_space() -> None:
    """ASSUMPTION "Moving while Prone costs +1 per space": 2 spaces cost 4 of the 5 Movement; 3 spaces (6) are
    refused; the Move option lists spaces up to 2 away and shows its cost of 2 a space."""
    s, _ = run(field(), {"type": "move", "creature": "a", "to": [8, 5]}, [])
    assert s.economy["a"].movement_spent == 4
    refused(field(), {"type": "move", "creature": "a", "to": [9, 5]})
    move = option(field(), "move")
    assert move.cost == {"movement": 2}
    assert (8, 5) in move.spaces and (9, 5) not in move.spaces


def test_dropping_prone_is_no_action() -> None:
    """reference §5.3: "Dropping Prone is No Action": the menu offers it, free, in the Move group, to a standing
    creature on its turn; the economy is untouched; dropping again is refused, and no longer offered."""
    drop = option(field(a_prone=False), "drop_prone")
    assert drop is not None and (drop.group, drop.label, drop.cost) == ("Move", "Drop Prone", {})
    s, events = run(field(a_prone=False), {"type": "drop_prone", "creature": "a"}, [])
    assert only(events, "drop_prone").text == "A drops Prone."
    assert s.creatures["a"].prone
    assert (s.economy["a"].major, s.economy["a"].minor, s.economy["a"].movement_left) == (1, 2, 5)
    refused(s, {"type": "drop_prone", "creature": "a"})
    assert option(s, "drop_prone") is None


def test_a_prone_attacker_loses_a_d12_on_a_targeted_attack_on_a_space() -> None:
    """seed-000: the Soulweaver's 3d12 "becomes the attack roll" on doubles, so the attacker's -1d12 on physical
    attacks (Prone) applies to it: 2d12, 5, 5 -> doubles, attack 5 against d's Elude 2, 1 -> 2: a hit (sword 2
    dice 1, 1: no Injury)."""
    cmd = {"type": "strike_space", "creature": "a", "space": [5, 5], "weapon": "sword"}
    _, events = run(field(), cmd, [5, 5, 2, 1, 1, 1])
    roll = only(events, "space_roll").rolls[0]
    assert (roll.base_dice, roll.dice, roll.result) == (3, 2, 5)
    assert [c.reason for c in roll.dice_changes] == ["Prone: -1d12 on physical attacks"]
    assert only(events, "attack").data["success"] is True


def test_a_prone_occupant_gives_the_space_attack_plus_1() -> None:
    """ "Melee attackers against you get +1" is neither Concealment nor size, so it applies to the doubles roll: d is
    Prone: 4, 4, 1 -> 4 + 1 = 5 against 5, 2 -> 5: a tie, the defender wins."""
    cmd = {"type": "strike_space", "creature": "a", "space": [5, 5], "weapon": "sword"}
    _, events = run(field(a_prone=False, d_prone=True), cmd, [4, 4, 1, 5, 2])
    roll = only(events, "space_roll").rolls[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == [(1, "D is Prone: +1 to melee attackers")]
    assert roll.result == 5 and only(events, "attack").data["success"] is False
