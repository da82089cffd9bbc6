"""Hand-worked tests of the Tactics Called Shot and Charge (seed-000: "These tactics can be used in combination with
other conflict actions to get the most out of your attacks.").

Called Shot: "For 1 round, suffer -1 on physical attack rolls and when you make a physical attack that has a single
target, you can choose to target a specific part of the target. If your attack succeeds and exceeds the defense by
an amount based on the target, the attack strikes the part and treats Severe Threshold as half. ... If you cause
Serious Injury, you may replace each Tier of Wounded with 2 Tiers of Trauma." "To gain the benefit of Called Shot,
the amount you need to exceed the defense roll equals the number of sizes that the specified part is smaller than
the target. On a standard humanoid creature, a torso is 2 sizes smaller than the creature, legs are 3 sizes
smaller, arms and stomach are 4 sizes smaller, heads are 5 sizes smaller, and eyes and ears are 9 sizes smaller."

Charge: "After moving 2 consecutive spaces, if you have used Dash this turn, use an action that includes using a
Strike or Overpower, gain +1 on the attack roll, and suffer -1 on defenses against physical attacks for 1 round.
Your turn ends after the attack."

Scripted faces: the attack roll, the defense roll, the damage dice, then any part roll. Creatures are size 0 with
Martial 2, Elude 2, Athletics 2; a Strike rolls Martial against Elude at DL 3; the sword deals 2 damage dice and
a face of 3 or more is 1 Injury. Serious Injury: Wounded Tiers equal to how far the Injury exceeds the Severe
Threshold, on the part struck or on a part rolled for (d12: 1-4 torso).
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, mod_values, on_turn, only, refused, run, state, weapon
from pydantic import ValidationError

from vtt.rules.commands import parse_command
from vtt.rules.engine import ActionOption, legal_actions
from vtt.rules.model import SOULWEAVER, GameState
from vtt.rules.settings import TableSettings


def field(
    settings: TableSettings | None = None,
    a_controller: str | None = None,
    t_anchor: tuple[int, int] = (6, 5),
    **t_kw: Any,
) -> GameState:
    """a at (5, 5) with a sword; t next to it; on a's turn."""
    a = creature("a", (5, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"}, controller=a_controller)
    return on_turn(state(a, creature("t", t_anchor, **t_kw), settings=settings), "a")


def strike(**kw: Any) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "target": "t", "weapon": "sword", **kw}


# --------------------------------------------------------------------------------------------------------
# Called Shot
# --------------------------------------------------------------------------------------------------------


def test_called_shot_strikes_the_part_when_it_beats_the_defense_by_the_parts_offset() -> None:
    """Called Shot at the head (5 sizes smaller). Martial 11, 2 -> 11 - 1 = 10 against Elude 4, 2 -> 4: beaten by 6
    >= 5: the Strike hits the head and treats t's Severe Threshold 2 as half, 1. Damage 3, 3 -> 2 Injury, 1 over:
    1 Tier of Wounded on the head, with no roll for a part."""
    s, events = run(field(severe_threshold=2), strike(called_shot="head"), [11, 2, 4, 2, 3, 3])
    attack = only(events, "attack")
    assert mod_values(attack) == [-1]
    assert attack.rolls[0].modifiers[0].reason == "Called Shot: -1 on physical attack rolls for 1 round"
    assert only(events, "called_shot").data == {"part": "head", "needed": 5, "margin": 6, "struck": True}
    head = s.creatures["t"].part("head")
    assert head is not None and head.wounded == 1


def test_called_shot_short_of_the_parts_offset_is_an_ordinary_hit() -> None:
    """Called Shot at the head (5). Martial 9, 1 -> 8 against Elude 4, 2 -> 4: beaten by 4 only: an ordinary hit, so
    the Threshold 1 is not halved and the part is rolled for. Damage 3, 3 -> 2 Injury, 1 over: part roll 1 ->
    torso, 1 Tier of Wounded; the head has none."""
    s, events = run(field(severe_threshold=1), strike(called_shot="head"), [9, 1, 4, 2, 3, 3, 1])
    assert only(events, "called_shot").data["struck"] is False
    t = s.creatures["t"]
    torso, head = t.part("torso"), t.part("head")
    assert torso is not None and torso.wounded == 1
    assert head is not None and head.wounded == 0


def called_torso_wound() -> GameState:
    """Player p's a makes a Called Shot at t's torso (2): Martial 7, 1 -> 6 against Elude 3, 1 -> 3: beaten by
    3 >= 2. Threshold 2 halved to 1; damage 3, 4 -> 2 Injury, 1 over: Tier 1 Wounded on the torso."""
    s, _ = run(field(severe_threshold=2, a_controller="p"), strike(called_shot="torso"), [7, 1, 3, 1, 3, 4])
    return s


def test_called_shot_trauma_is_chosen_once_the_serious_injury_is_known() -> None:
    """Called Shot: "If you cause Serious Injury, you may replace each Tier of Wounded with 2 Tiers of Trauma."
    The Serious Injury is known first (Tier 1 Wounded on the torso); then a's player decides, and replaces it:
    Tier 2 Trauma on the torso instead of Tier 1 Wounded."""
    s = called_torso_wound()
    torso = s.creatures["t"].part("torso")
    assert torso is not None and (torso.wounded, torso.trauma) == (1, 0)
    (decision,) = s.pending
    assert (decision.kind, decision.to, decision.creature) == ("trauma", "p", "a")
    assert "Tier 1 Wounded" in decision.prompt and "Tier 2 Trauma" in decision.prompt
    refused(s, {"type": "end_turn"})  # the table waits for the choice
    s, events = run(s, {"type": "choose_trauma", "decision": decision.id, "trauma": True}, [])
    t = s.creatures["t"]
    torso = t.part("torso")
    assert torso is not None and (torso.wounded, torso.trauma) == (0, 2)
    assert (t.ailments.get("Wounded"), t.ailments.get("Trauma")) == (None, 2)
    assert only(events, "trauma_choice").data["trauma"] == 2
    assert s.pending == []


def test_called_shot_trauma_may_be_declined() -> None:
    """Called Shot: "you may replace": a's player keeps the Tier 1 Wounded on the torso."""
    s = called_torso_wound()
    s, _ = run(s, {"type": "choose_trauma", "decision": s.pending[0].id, "trauma": False}, [])
    torso = s.creatures["t"].part("torso")
    assert torso is not None and (torso.wounded, torso.trauma) == (1, 0)
    assert s.pending == []


def test_no_trauma_choice_at_declaration_nor_without_serious_injury() -> None:
    """Called Shot: the choice comes "If you cause Serious Injury": a Strike cannot declare it, and a Called Shot
    at the torso with no Serious Injury (threshold 12; damage 3, 4 -> 2 Injury) leaves nothing to decide."""
    with pytest.raises(ValidationError):
        parse_command(strike(called_shot="torso", as_trauma=True))
    s, events = run(field(a_controller="p"), strike(called_shot="torso"), [7, 1, 3, 1, 3, 4])
    assert only(events, "damage").data["injury"] == 2
    assert s.pending == []


def test_called_shot_penalty_lasts_the_round_and_is_suffered_once() -> None:
    """Called Shot: "For 1 round, suffer -1 on physical attack rolls". With 2 Major Actions (a table setting), a's
    second Strike, plain, still takes -1; a third, again a Called Shot, takes -1 once, not -2. (Each: Martial 2, 1
    against Elude 9, 9: fails.)"""
    settings = TableSettings(defense_prompts="nobody", reactions=False, major_actions=3)
    s, _ = run(field(settings), strike(called_shot="torso"), [2, 1, 9, 9])
    s, events = run(s, strike(), [2, 1, 9, 9])
    assert mod_values(only(events, "attack")) == [-1]
    s, events = run(s, strike(called_shot="head"), [2, 1, 9, 9])
    assert mod_values(only(events, "attack")) == [-1]
    assert [e.name for e in s.effects] == ["Called Shot"]


def test_called_shot_penalty_ends_when_your_next_turn_starts() -> None:
    """reference §3: "effects you created lose duration as your turn begins". Player p's a makes a Called Shot
    (Martial 2, 1 against Elude 9, 9: fails); when its next turn begins, the effect ends."""
    s, _ = run(field(a_controller="p"), strike(called_shot="torso"), [2, 1, 9, 9])
    s, _ = run(s, {"type": "end_turn"}, [])
    assert [e.name for e in s.effects] == ["Called Shot"]
    s, events = run(s, {"type": "end_turn"}, [])
    assert only(events, "effect_ended").text == "Called Shot on A ends."
    assert s.effects == []


def test_called_shot_also_applies_its_penalty_to_grab() -> None:
    """Called Shot: "suffer -1 on physical attack rolls" -- a Grab is one. After a Called Shot Strike (Martial 2, 1
    against 9, 9), a's Grab on u sharing its space (a second Major Action, a table setting): Athletics 8, 1 -> 8 - 1
    = 7 against Elude 3, 3 -> 3: success."""
    settings = TableSettings(defense_prompts="nobody", reactions=False, major_actions=2)
    s0 = field(settings)
    s0.creatures["u"] = creature("u", (5, 5))
    s, _ = run(s0, strike(called_shot="torso"), [2, 1, 9, 9])
    s, events = run(s, {"type": "grab", "creature": "a", "target": "u"}, [8, 1, 3, 3])
    assert mod_values(only(events, "attack")) == [-1]


@pytest.mark.parametrize(
    "command",
    [
        strike(called_shot="tail"),
        {"type": "strike", "creature": "a", "space": (6, 5), "surface": "ground", "called_shot": "torso"},
    ],
    ids=["no-such-part", "ground"],
)
def test_called_shot_needs_a_part_of_a_single_creature_target(command: dict[str, Any]) -> None:
    """Called Shot: "when you make a physical attack that has a single target, you can choose to target a specific
    part of the target." t has no tail; the ground has no parts."""
    s0 = field(t_anchor=(7, 5)) if command.get("surface") else field()
    refused(s0, command)


def test_called_shot_on_a_severed_part_is_refused() -> None:
    """Called Shot: "target a specific part of the target": a severed arm is no longer there to aim at."""
    s0 = field()
    arm = s0.creatures["t"].part("left_arm")
    assert arm is not None
    arm.severed = True
    refused(s0, strike(called_shot="left_arm"))


def test_legal_called_shot_lists_the_parts_and_the_margin_each_needs() -> None:
    """Called Shot: torso 2, legs 3, arms and stomach 4, head 5, eyes and ears 9. The Called Shot option sends a
    Strike; its preview carries the -1."""
    (option,) = [o for o in legal_actions(field(), "a") if o.action == "called_shot" and "Sword" in o.label]
    assert (option.command, option.group, option.choose) == ("strike", "Tactics", ["called_shot"])
    (target,) = option.targets
    assert target.margins == {
        "torso": 2,
        "stomach": 4,
        "left_leg": 3,
        "right_leg": 3,
        "left_arm": 4,
        "right_arm": 4,
        "head": 5,
        "left_eye": 9,
        "right_eye": 9,
        "left_ear": 9,
        "right_ear": 9,
    }
    assert target.preview is not None and [m.value for m in target.preview.modifiers] == [-1]


# --------------------------------------------------------------------------------------------------------
# Charge
# --------------------------------------------------------------------------------------------------------


def _charging(a_controller: str | None = "p", settings: TableSettings | None = None) -> GameState:
    """a at (2, 5) Dashes and moves 2 spaces to (4, 5), next to t at (5, 5)."""
    a = creature("a", (2, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"}, controller=a_controller)
    s0 = on_turn(state(a, creature("t", (5, 5), controller="q" if a_controller else None), settings=settings), "a")
    s, _ = run(s0, {"type": "dash", "creature": "a"}, [])
    s, _ = run(s, {"type": "move", "creature": "a", "to": (4, 5), "path": [(3, 5), (4, 5)]}, [])
    return s


def test_charge_gains_1_on_the_attack_and_ends_the_turn() -> None:
    """Charge: "gain +1 on the attack roll ... Your turn ends after the attack."
    Martial 5, 2 -> 5 + 1 = 6 against Elude 5, 1 -> 5: success (without the +1, a tie the defender wins). Damage
    3, 1 -> 1 Injury. Then a's turn is over: the Soulweaver's turn begins."""
    s, events = run(_charging(), strike(charge=True), [5, 2, 5, 1, 3, 1])
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [(1, "Charge: +1 on the attack roll")]
    assert attack.data["success"] is True
    assert s.creatures["t"].grit.pips == 1
    assert s.turn.current == SOULWEAVER
    assert [e.kind for e in events][-2:] == ["turn_end", "turn"]


def test_charge_suffers_1_on_defenses_against_physical_attacks_for_1_round() -> None:
    """Charge: "suffer -1 on defenses against physical attacks for 1 round". After a's Charge (Martial 2, 1
    against 9, 9: fails), on the Soulweaver's turn n Strikes a: Martial 5, 1 -> 5 against a's Elude 5, 3 -> 5 - 1
    = 4: success; damage 1d12 (unarmed), face 2: no Injury."""
    a = creature("a", (2, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"}, controller="p")
    s0 = on_turn(state(a, creature("t", (5, 5), controller="q"), creature("n", (4, 4))), "a")
    s, _ = run(s0, {"type": "dash", "creature": "a"}, [])
    s, _ = run(s, {"type": "move", "creature": "a", "to": (4, 5), "path": [(3, 5), (4, 5)]}, [])
    s, _ = run(s, strike(charge=True), [2, 1, 9, 9])
    assert s.turn.current == SOULWEAVER
    s, events = run(s, {"type": "strike", "creature": "n", "target": "a"}, [5, 1, 5, 3, 2])
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[1].modifiers] == [
        (-1, "Charge: -1 on defenses against physical attacks")
    ]
    assert attack.data["success"] is True


def test_charge_needs_dash_and_2_consecutive_spaces() -> None:
    """Charge: "After moving 2 consecutive spaces, if you have used Dash this turn". Without Dash: refused. After
    Dash and 1 space: refused. The Charge option appears only after both."""
    a = creature("a", (3, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"}, controller="p")
    s0 = on_turn(state(a, creature("t", (5, 5), controller="q")), "a")
    s, _ = run(s0, {"type": "move", "creature": "a", "to": (4, 5)}, [])
    refused(s, strike(charge=True))
    s, _ = run(s0, {"type": "dash", "creature": "a"}, [])
    s, _ = run(s, {"type": "move", "creature": "a", "to": (4, 5)}, [])
    refused(s, strike(charge=True))
    # A Collision into t would be the second consecutive space, so only that Charge is offered (test_charge_more).
    assert [o.command for o in legal_actions(s, "a") if o.action == "charge"] == ["move"]


def test_legal_charge_offers_strikes_and_overpowers_with_the_plus_1() -> None:
    """Charge: "use an action that includes using a Strike or Overpower, gain +1 on the attack roll". After Dash and
    2 spaces, Charge options send a Strike or an Overpower with `charge` set; their previews carry +1."""
    charges = [o for o in legal_actions(_charging(), "a") if o.action == "charge"]
    commands = {o.command for o in charges}
    assert {"strike", "impair", "reposition"} <= commands
    sword = next(o for o in charges if o.command == "strike" and "Sword" in o.label)
    assert sword.params == {"weapon": "sword", "charge": True}
    preview = sword.targets[0].preview
    assert preview is not None and [m.value for m in preview.modifiers] == [1]


def test_charge_with_an_overpower() -> None:
    """Charge with Impair (an Overpower): Athletics 3, 1 -> 3 + 1 = 4 against Athletics 3, 2 -> 3: success, Tier 1
    Slowed; the turn ends."""
    cmd = {"type": "impair", "creature": "a", "target": "t", "ailment": "Slowed", "charge": True}
    s, events = run(_charging(), cmd, [3, 1, 3, 2])
    assert mod_values(only(events, "attack")) == [1]
    assert s.creatures["t"].ailments == {"Slowed": 1}
    assert s.turn.current == SOULWEAVER


def test_charge_turn_ends_only_when_the_pending_defense_is_answered() -> None:
    """Charge: "Your turn ends after the attack." t's player decides whether to defend (table setting
    `defense_prompts` "players"): a's turn goes on until t answers. t rolls Elude 4, 4 -> 4 against 6 + 1 = 7:
    the Strike succeeds, damage 3, 3 -> 2 Injury, and only then the turn ends."""
    settings = TableSettings(defense_prompts="players", reactions=False)
    s, _ = run(_charging(settings=settings), strike(charge=True), [6, 2])
    assert s.turn.current == "a"
    (decision,) = s.pending
    s, events = run(s, {"type": "defend", "decision": decision.id}, [4, 4, 3, 3])
    assert s.creatures["t"].grit.pips == 2
    assert s.turn.current == SOULWEAVER
    assert "turn_end" in [e.kind for e in events]


def test_charge_by_the_soulweavers_creature_ends_only_its_own_actions() -> None:
    """Charge: "Your turn ends after the attack." The Soulweaver's n acts on the Soulweaver's turn with its other
    creatures; its Charge (Martial 2, 1 against 9, 9: fails) leaves it no action or Movement, and the Soulweaver's
    turn goes on. Dropping Prone, No Action (reference §5.3), is still offered."""
    s, events = run(_charging(a_controller=None), strike(charge=True), [2, 1, 9, 9])
    assert s.turn.current == SOULWEAVER
    econ = s.economy["a"]
    assert (econ.major, econ.minor, econ.movement_left) == (0, 0, 0)
    assert only(events, "turn_over").actor == "a"
    assert {o.action for o in legal_actions(s, "a")} == {"drop_prone", "end_turn"}


def _options(s: GameState, who: str, action: str) -> list[ActionOption]:
    return [o for o in legal_actions(s, who) if o.action == action]


def test_no_charge_option_without_a_major_action() -> None:
    """Charge is made with a Strike or Overpower, each a Major Action (reference §3): with the Major Action spent
    (a Strike: Martial 2, 1 against 9, 9), no Charge is offered even after Dash and 2 spaces, but with a Collision,
    which fills the Movement Pool instead of using a Major Action (see test_charge_more)."""
    settings = TableSettings(defense_prompts="nobody", reactions=False)
    a = creature("a", (4, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"}, controller="p")
    s0 = on_turn(state(a, creature("t", (5, 5)), settings=settings), "a")
    s, _ = run(s0, strike(), [2, 1, 9, 9])
    s, _ = run(s, {"type": "dash", "creature": "a"}, [])
    s, _ = run(s, {"type": "move", "creature": "a", "to": (4, 7), "path": [(4, 6), (4, 7)]}, [])
    assert [o.command for o in _options(s, "a", "charge")] == ["move"]
