"""Hand-worked tests of Charge with a Grab, a targeted attack on a space and a Collision (seed-000 Charge).

seed-000 Charge: "After moving 2 consecutive spaces, if you have used Dash this turn, use an action that includes using
a Strike or Overpower, gain +1 on the attack roll, and suffer -1 on defenses against physical attacks for 1 round.
Your turn ends after the attack."

Grab and a targeted attack on a space are Strikes; Collision ("As you move into an occupied space, fill your Movement
Pool to attack a target in the space to cause Collision, DL 3") is an Overpower whose move counts towards the 2
consecutive spaces. a (player p, Martial 2, Athletics 2, Elude 2, a sword of 2 damage dice in its right arm) starts at
(2, 5); t (player q, Martial 2, Athletics 2, Elude 2) stands at (4, 5) or (5, 5). Grab rolls Athletics against Elude
at DL 0, Collision Athletics against Athletics at DL 3 and 1 damage die (table settings). Scripted faces: the attack
roll, the defense roll, then damage dice; a roll is its highest face plus modifiers; ties go to the defender.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.engine import ActionOption, legal_actions
from vtt.rules.model import SOULWEAVER, GameState


def field(t_at: tuple[int, int]) -> GameState:
    a = creature("a", (2, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"}, controller="p")
    return on_turn(state(a, creature("t", t_at, controller="q")), "a")


def dash_and_move(s: GameState, path: list[tuple[int, int]]) -> GameState:
    s, _ = run(s, {"type": "dash", "creature": "a"}, [])
    s, _ = run(s, {"type": "move", "creature": "a", "to": path[-1], "path": path}, [])
    return s


def charged(s: GameState, command: str) -> list[ActionOption]:
    return [o for o in legal_actions(s, "a") if o.action == "charge" and o.command == command]


def collide(path: list[tuple[int, int]], **kw: Any) -> dict[str, Any]:
    return {"type": "move", "creature": "a", "to": path[-1], "path": path, "collide_with": "t", **kw}


def test_charge_with_a_grab_gains_1_and_ends_the_turn() -> None:
    """Grab is a Strike: "use an action that includes using a Strike ... gain +1 on the attack roll ... Your turn
    ends after the attack." a Dashes and moves 2 spaces into t's space (Grab has Reach - 1 = 0): Athletics 5, 2 -> 5
    + 1 = 6 against Elude 5, 1 -> 5: success (without the +1, a tie the defender wins); t is Held, and a's turn is
    over, with -1 on its physical defenses for 1 round."""
    s = dash_and_move(field((4, 5)), [(3, 5), (4, 5)])
    s, events = run(s, {"type": "grab", "creature": "a", "target": "t", "charge": True}, [5, 2, 5, 1])
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [(1, "Charge: +1 on the attack roll")]
    assert attack.data["success"] is True
    assert [h.held for h in s.holds.values()] == [["t"]]
    assert [e.name for e in s.effects] == ["Charge"]
    assert s.turn.current == SOULWEAVER


def test_charge_with_an_attack_on_a_space() -> None:
    """A targeted attack on a space is a Strike. After Dash and 2 spaces, a attacks t's space (5, 5): the
    Soulweaver rolls 6, 6, 2: doubles, the attack is 6 + 1 = 7 against t's Elude 6, 1 -> 6: success (a tie without
    the +1). Sword damage 3, 1 -> 1 Injury. Then the turn ends."""
    s = dash_and_move(field((5, 5)), [(3, 5), (4, 5)])
    cmd = {"type": "strike_space", "creature": "a", "space": (5, 5), "weapon": "sword", "charge": True}
    s, events = run(s, cmd, [6, 6, 2, 6, 1, 3, 1])
    assert [(m.value, m.reason) for m in only(events, "space_roll").rolls[0].modifiers] == [
        (1, "Charge: +1 on the attack roll")
    ]
    assert only(events, "attack").data["success"] is True
    assert s.creatures["t"].grit.pips == 1
    assert s.turn.current == SOULWEAVER


def test_charge_on_a_space_ends_the_turn_even_when_nobody_is_attacked() -> None:
    """ "Your turn ends after the attack": the Soulweaver rolls 5, 3, 2 for t, no doubles, nobody is attacked; the
    attack is over and so is a's turn."""
    s = dash_and_move(field((5, 5)), [(3, 5), (4, 5)])
    cmd = {"type": "strike_space", "creature": "a", "space": (5, 5), "weapon": "sword", "charge": True}
    s, events = run(s, cmd, [5, 3, 2])
    assert of_kind(events, "attack") == []
    assert s.turn.current == SOULWEAVER


def test_charge_with_a_collision_counts_the_move_into_the_space() -> None:
    """Collision is an Overpower made "as you move into an occupied space": after Dash and 1 space, the move into t's
    space (4, 5) is the second consecutive one. Athletics 5, 2 -> 5 + 1 = 6 against t's Athletics 5, 1 -> 5: success
    only with the +1. Damage 1d12: 3 -> 1 Injury; a ends in t's space and its turn ends."""
    s = dash_and_move(field((4, 5)), [(3, 5)])
    s, events = run(s, collide([(4, 5)], charge=True), [5, 2, 5, 1, 3])
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [(1, "Charge: +1 on the attack roll")]
    assert attack.data["success"] is True
    assert s.creatures["t"].grit.pips == 1
    assert s.creatures["a"].anchor == (4, 5)
    assert s.turn.current == SOULWEAVER


def test_charge_with_a_collision_needs_dash_2_consecutive_spaces_and_a_collision() -> None:
    """ "After moving 2 consecutive spaces, if you have used Dash this turn": without Dash a Charging Collision is
    refused; after Dash, a 1-space move into t with no space moved before makes only 1; a Charge on a move that
    collides with nobody has no attack to go with."""
    refused(field((4, 5)), collide([(3, 5), (4, 5)], charge=True), [9, 9, 9, 9, 9])
    s, _ = run(field((3, 5)), {"type": "dash", "creature": "a"}, [])
    refused(s, collide([(3, 5)], charge=True), [9, 9, 9, 9, 9])
    refused(s, {"type": "move", "creature": "a", "to": (4, 5), "path": [(3, 5), (4, 5)], "charge": True})


def test_legal_actions_offer_the_charging_grab_space_attack_and_collision() -> None:
    """After Dash and 2 spaces into t's space, the Charge forms of Grab (t) and of an attack on a space are offered
    with `charge` set and the +1 in the Grab's preview. After Dash and 1 space, the Charging Collision into t (a
    second consecutive space) is offered; before Dash none of these is."""
    s0 = field((4, 5))
    assert charged(s0, "grab") == [] and charged(s0, "strike_space") == [] and charged(s0, "move") == []
    s = dash_and_move(s0, [(3, 5), (4, 5)])
    (grab,) = charged(s, "grab")
    assert grab.params == {"charge": True}
    (target,) = grab.targets
    assert target.target == "t" and target.preview is not None
    assert [m.value for m in target.preview.modifiers] == [1]
    spaces = charged(s, "strike_space")
    assert spaces and all(o.params["charge"] is True and (4, 5) in o.spaces for o in spaces)
    s = dash_and_move(s0, [(3, 5)])
    (collision,) = charged(s, "move")
    assert collision.params == {"charge": True}
    assert [(t.target, t.space, t.path) for t in collision.targets] == [("t", (4, 5), [(4, 5)])]


def test_charge_an_action_between_two_moves_makes_them_not_consecutive() -> None:
    """seed-000 Charge: "After moving 2 consecutive spaces". a Dashes, moves 1 space, Focuses on t (a Minor Action),
    then moves 1 more into t's space: 2 spaces, but not consecutive: the Charging Grab is refused and not offered.
    Without the Focus between them it is allowed (test_charge_with_a_grab_gains_1_and_ends_the_turn)."""
    s, _ = run(field((4, 5)), {"type": "dash", "creature": "a"}, [])
    s, _ = run(s, {"type": "move", "creature": "a", "to": (3, 5), "path": [(3, 5)]}, [])
    s, _ = run(s, {"type": "focus", "creature": "a", "target": "t"}, [])
    s, _ = run(s, {"type": "move", "creature": "a", "to": (4, 5), "path": [(4, 5)]}, [])
    refused(s, {"type": "grab", "creature": "a", "target": "t", "charge": True}, [5, 2, 5, 1])
    assert charged(s, "grab") == []


def test_charge_an_action_after_the_moves_breaks_the_charge() -> None:
    """seed-000 Charge: "After moving 2 consecutive spaces ... use an action that includes using a Strike": the
    attack follows the moves. a Dashes, moves 2 spaces into t's space, then Focuses on t: the Charging Grab is
    refused."""
    s = dash_and_move(field((4, 5)), [(3, 5), (4, 5)])
    s, _ = run(s, {"type": "focus", "creature": "a", "target": "t"}, [])
    refused(s, {"type": "grab", "creature": "a", "target": "t", "charge": True}, [5, 2, 5, 1])


def test_charge_without_dash_is_refused() -> None:
    """seed-000 Charge: "if you have used Dash this turn". a moves 2 spaces into t's space without Dash: a Charging
    Grab is refused and no Charge is offered."""
    s, _ = run(field((4, 5)), {"type": "move", "creature": "a", "to": (4, 5), "path": [(3, 5), (4, 5)]}, [])
    refused(s, {"type": "grab", "creature": "a", "target": "t", "charge": True}, [5, 2, 5, 1])
    assert [o for o in legal_actions(s, "a") if o.action == "charge"] == []
