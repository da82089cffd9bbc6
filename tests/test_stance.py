"""Hand-worked tests of Defensive Stance (seed-000 Defense actions: "Enter a Defensive Stance if you have not made an
attack or Manifested a Spell or Talent this turn. While in a Defensive Stance, gain +1 on defenses against physical
attacks and you cannot attack or Manifest Spells or Talents.").

The seed names no cost (table setting `defensive_stance_cost`, a Major Action by default) and no duration: the
stance is an effect "for 1 round", which ends as its creator's next turn starts (reference §3). Scripted faces
are used in order: the attack roll, the defense roll, then damage dice. Creatures are size 0 with Martial 2,
Elude 2, Athletics 2; a Strike rolls Martial against Elude at DL 3.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, on_turn, only, refused, run, state, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings


def actions(s: GameState, who: str) -> set[str]:
    return {o.action for o in legal_actions(s, who)}


STANCE = {"type": "defensive_stance", "creature": "d"}
MINOR_STANCE = TableSettings(defense_prompts="nobody", reactions=False, defensive_stance_cost="minor")


def field(settings: TableSettings | None = None, d_controller: str | None = None) -> GameState:
    """d at (5, 5) and a at (6, 5), both with swords (2 damage dice), and e sharing d's space (where a size 0 Grab
    reaches), on d's turn (the Soulweaver's when d is its creature: then a acts on it too)."""
    d = creature("d", (5, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"}, controller=d_controller)
    a = creature("a", (6, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    return on_turn(state(d, a, creature("e", (5, 5)), settings=settings), "d")


def strike(who: str, target: str) -> dict[str, Any]:
    return {"type": "strike", "creature": who, "target": target, "weapon": "sword"}


def test_defensive_stance_gives_plus_1_on_defenses_against_physical_attacks() -> None:
    """seed-000: "While in a Defensive Stance, gain +1 on defenses against physical attacks".
    d enters the stance; a Strikes d: Martial 6, 1 -> 6 against d's Elude 5, 2 -> 5 + 1 = 6: a tie goes to the
    defender (reference §1.3), so the Strike fails (without the stance 6 against 5 would succeed)."""
    s, events = run(field(), STANCE, [])
    assert only(events, "effect").data == {"effect": "Defensive Stance"}
    s, events = run(s, strike("a", "d"), [6, 1, 5, 2])
    attack = only(events, "attack")
    defense = attack.rolls[1]
    assert [(m.value, m.reason) for m in defense.modifiers] == [
        (1, "Defensive Stance: +1 on defenses against physical attacks")
    ]
    assert [(m.key, m.source) for m in defense.modifiers] == [("defensive_stance", "d")]
    assert defense.result == 6
    assert attack.data["success"] is False


def test_defensive_stance_costs_a_major_action_by_default() -> None:
    """The seed names no cost for Defensive Stance; the table's default is a Major Action (setting
    `defensive_stance_cost`), so after it d has none left."""
    s, _ = run(field(), STANCE, [])
    assert (s.economy["d"].major, s.economy["d"].minor) == (0, 2)


def test_defensive_stance_may_cost_a_minor_action_instead() -> None:
    """Setting `defensive_stance_cost` "minor": the stance spends a Minor Action and leaves the Major one."""
    s, _ = run(field(MINOR_STANCE), STANCE, [])
    assert (s.economy["d"].major, s.economy["d"].minor) == (1, 1)


def test_defensive_stance_after_an_attack_this_turn_is_refused() -> None:
    """seed-000: "Enter a Defensive Stance if you have not made an attack ... this turn." d Strikes a (Martial 2, 1
    against Elude 9, 9: fails), then may not enter the stance, though a Minor Action would pay for it."""
    s, _ = run(field(MINOR_STANCE), strike("d", "a"), [2, 1, 9, 9])
    refused(s, STANCE)
    assert "defensive_stance" not in actions(s, "d")


def test_defensive_stance_twice_is_refused() -> None:
    """seed-000: "Enter a Defensive Stance": d is in one already."""
    s, _ = run(field(MINOR_STANCE), STANCE, [])
    refused(s, STANCE)


@pytest.mark.parametrize(
    "command",
    [
        strike("d", "a"),
        {"type": "grab", "creature": "d", "target": "e"},
        {"type": "strike_space", "creature": "d", "space": (6, 5), "weapon": "sword"},
        {"type": "impair", "creature": "d", "target": "a", "ailment": "Blinded"},
        {"type": "move", "creature": "d", "to": (6, 5), "collide_with": "a"},
    ],
    ids=["strike", "grab", "strike_space", "impair", "collision"],
)
def test_in_a_defensive_stance_you_cannot_attack(command: dict[str, Any]) -> None:
    """seed-000: "While in a Defensive Stance, ... you cannot attack". With the stance paid by a Minor Action, d
    still has its Major Action, but no Strike, Grab, Strike on a space, Overpower or Collision is allowed."""
    s, _ = run(field(MINOR_STANCE), STANCE, [])
    refused(s, command)


def test_legal_actions_offer_defensive_stance_in_the_defense_group_and_no_attack_while_in_it() -> None:
    """seed-000: Defensive Stance is one of the actions "used to protect yourself and your allies". Before it, d is
    offered it (Defense group) and its attacks; in it, no attack of any kind, and not the stance again; moving is
    still offered."""
    s0 = field(MINOR_STANCE)
    (option,) = [o for o in legal_actions(s0, "d") if o.action == "defensive_stance"]
    assert (option.group, option.cost) == ("Defense", {"minor": 1})
    assert {"strike", "grab", "impair", "collision"} <= actions(s0, "d")
    s, _ = run(s0, STANCE, [])
    left = actions(s, "d")
    assert left.isdisjoint({"strike", "strike_space", "grab", "impair", "disarm", "reposition", "collision"})
    assert "defensive_stance" not in left
    assert {"move", "end_turn"} <= left


def test_defensive_stance_lasts_until_the_start_of_your_next_turn() -> None:
    """reference §3: "In Priority, effects you created lose duration as your turn begins"; the stance lasts 1
    round. Player p's d enters it; on the Soulweaver's turn a Strikes d and d's Elude has +1 (Martial 7, 1 -> 7
    against 6, 6 -> 7: fails); when d's next turn begins the stance ends."""
    s, _ = run(field(d_controller="p"), STANCE, [])
    s, _ = run(s, {"type": "end_turn"}, [])
    s, events = run(s, strike("a", "d"), [7, 1, 6, 6])
    assert only(events, "attack").data["success"] is False
    s, events = run(s, {"type": "end_turn"}, [])
    assert only(events, "effect_ended").text == "Defensive Stance on D ends."
    assert s.effects == []
    assert "defensive_stance" in actions(s, "d")


def test_a_creature_in_a_defensive_stance_cannot_hinder() -> None:
    """seed-000 Hinder Attack: "As a creature in your Reach attacks a target other than you, attack to cause -1";
    in a Defensive Stance "you cannot attack". b (other side) Strikes c with d next to b: without the stance d
    would be asked to Hinder; in it the Strike goes on at once (Martial 5, 1 against Elude 9, 9: fails)."""
    settings = TableSettings(defense_prompts="nobody", reactions=True, defensive_stance_cost="minor")
    d = creature("d", (5, 5), side="red")
    b = creature("b", (6, 5), side="blue")
    c = creature("c", (7, 5), side="red")
    s0 = on_turn(state(d, b, c, settings=settings), "d")
    _, events = run(s0, {"type": "strike", "creature": "b", "target": "c"}, [])
    assert only(events, "reaction_window").data["hinderers"] == ["d"]
    s, _ = run(s0, STANCE, [])
    _, events = run(s, {"type": "strike", "creature": "b", "target": "c"}, [5, 1, 9, 9])
    assert [e.kind for e in events if e.kind in {"reaction_window", "attack"}] == ["attack"]
