"""Hand-worked tests of the Tactics Flurry and Distract (seed-000: "These tactics can be used in combination with
other conflict actions to get the most out of your attacks.").

Flurry: "Declare a number. For 1 round, lose that number of d12 on attack rolls and half that number on damage
rolls. Up to the declared number times this turn, you can use any Strike or Overpower as a Minor Action. If you do,
limbs used to attack cannot be used to attack again for 1 round and if attacking with a weapon that is not
Lightweight, lose an additional 1d12 on that attack roll."

Distract: "Create a diversion to draw attention to cause the creature to become Focused on you and they cannot drop
Focus until their next turn. After you use an action or speak, attack creatures that are Aware of that action. Gain
+1 on your roll if you used a Minor Action and +2 if you used a Major Action. If your action creates a sound at
range, creatures instead become Focused on the space where the sound was made. Creatures that expect you to use this
action gain +6 on their defense."

Scripted faces: the attack roll, each defense roll, then the damage dice. a has Martial 4, Athletics 4, Guile 3; the
others Martial 2, Elude 2, Athletics 2, Observe 2. A roll is its highest face plus modifiers. A Strike rolls Martial
against Elude at DL 3; the sword (not Lightweight) deals 2 damage dice, a face of 3 or more is 1 Injury. Distract
rolls Guile against Observe at DL 0 (table settings).
"""

from __future__ import annotations

from typing import Any

from factories import creature, mod_values, on_turn, only, refused, run, state, used, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import Creature, GameState
from vtt.rules.settings import TableSettings

A_SKILLS = {"Martial": 4, "Elude": 2, "Athletics": 4, "Guile": 3, "Zeal": 1}
T_SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Observe": 2, "Zeal": 1}


def field(*extra: Creature, a_controller: str | None = None, lightweight: bool = False, **t_kw: Any) -> GameState:
    """a at (5, 5) gripping a sword in its right arm; t next to it at (6, 5); on a's turn."""
    a = creature(
        "a",
        (5, 5),
        skills=A_SKILLS,
        weapons=[weapon("sword", lightweight=lightweight)],
        grip={"right_arm": "sword"},
        controller=a_controller,
    )
    t_kw.setdefault("skills", T_SKILLS)
    return on_turn(state(a, creature("t", (6, 5), **t_kw), *extra), "a")


def strike(**kw: Any) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "target": "t", "weapon": "sword", **kw}


def flurry(number: int) -> dict[str, Any]:
    return {"type": "flurry", "creature": "a", "number": number}


def changes(event: Any, index: int = 0) -> list[tuple[int, str]]:
    return [(ch.dice, ch.reason) for ch in event.rolls[index].dice_changes]


# --------------------------------------------------------------------------------------------------------
# Flurry
# --------------------------------------------------------------------------------------------------------


def test_flurry_minor_strike_loses_the_number_and_1_more_for_a_weapon_not_lightweight() -> None:
    """Flurry of 2: "lose that number of d12 on attack rolls and half that number on damage rolls ... if attacking
    with a weapon that is not Lightweight, lose an additional 1d12". Minor Strike: Martial 4 - 2 - 1 = 1d12: 9
    against Elude 3, 2 -> 3: success. Damage 2 - 1 = 1d12: 4 -> 1 Injury. A Minor Action is paid, not the Major."""
    s, _ = run(field(), flurry(2), [])
    s, events = run(s, strike(minor=True), [9, 3, 2, 4])
    attack = only(events, "attack")
    assert changes(attack) == [
        (-2, "Flurry: lose 2d12 on attack rolls"),
        (-1, "Flurry: Sword is not Lightweight, lose 1d12"),
    ]
    assert attack.data["success"] is True
    damage = only(events, "damage")
    assert [(ch.dice, ch.reason) for ch in damage.rolls[0].dice_changes] == [(-1, "Flurry: lose 1d12 on damage rolls")]
    assert s.creatures["t"].grit.pips == 1
    econ = s.economy["a"]
    assert (econ.major, econ.minor, econ.flurry_uses) == (1, 1, 1)


def test_flurry_minor_strike_with_a_lightweight_weapon_loses_only_the_number() -> None:
    """Flurry of 1 with a Lightweight sword: Martial 4 - 1 = 3d12: 2, 9, 1 -> 9 against Elude 2, 2 -> 2: success.
    Damage 2 - 0 (half of 1 is 0) = 2d12: 1, 2: no Injury."""
    s, _ = run(field(lightweight=True), flurry(1), [])
    s, events = run(s, strike(minor=True), [2, 9, 1, 2, 2, 1, 2])
    assert changes(only(events, "attack")) == [(-1, "Flurry: lose 1d12 on attack rolls")]
    assert only(events, "damage").rolls[0].dice_changes == ()


def test_flurry_limbs_used_cannot_attack_again_for_1_round() -> None:
    """Flurry: "limbs used to attack cannot be used to attack again for 1 round". After a Minor Strike with the sword
    in the right arm (1d12: 1 against 9, 9: fails), the sword cannot Strike, even as the Major Action; the left arm
    still can, unarmed. When a's next turn starts, the right arm may attack again."""
    s, _ = run(field(a_controller="p"), flurry(2), [])
    s, events = run(s, strike(minor=True), [1, 9, 9])
    assert only(events, "effect").data == {"effect": "Flurry: limbs used", "limbs": ["right_arm"], "uses_left": 1}
    refused(s, strike())
    refused(s, strike(minor=True))
    unarmed = {"type": "strike", "creature": "a", "target": "t", "limb": "left_arm"}
    run(s, unarmed, [1, 1, 9, 9])  # Martial 4 - 2 = 2d12
    s, _ = run(s, {"type": "end_turn"}, [])
    s, _ = run(s, {"type": "end_turn"}, [])
    assert s.effects == []
    run(s, strike(), [1, 1, 1, 1, 9, 9])  # no Flurry any more: 4d12


def test_flurry_allows_up_to_the_declared_number_of_minor_attacks_this_turn() -> None:
    """Flurry: "Up to the declared number times this turn". Flurry of 1: one Minor unarmed Strike with the left arm
    (Martial 4 - 1 = 3d12: 1, 1, 1 against 9, 9: fails); a second with the left leg is refused; without a Flurry a
    Minor Strike is refused too."""
    refused(field(), strike(minor=True))
    s, _ = run(field(), flurry(1), [])
    s, _ = run(
        s, {"type": "strike", "creature": "a", "target": "t", "limb": "left_arm", "minor": True}, [1, 1, 1, 9, 9]
    )
    assert s.economy["a"].flurry_uses == 0
    refused(s, {"type": "strike", "creature": "a", "target": "t", "limb": "left_leg", "minor": True})


def test_flurry_also_costs_dice_on_a_major_strike_for_1_round() -> None:
    """Flurry of 3: "For 1 round, lose that number of d12 on attack rolls and half that number on damage rolls" --
    the Major Action Strike too, without the extra 1d12 for the weapon. Martial 4 - 3 = 1d12: 8 against Elude 2, 1
    -> 2: success; damage 2 - 1 = 1d12: 3 -> 1 Injury. A second declaration this round is refused."""
    s, _ = run(field(), flurry(3), [])
    s, events = run(s, strike(), [8, 2, 1, 3])
    assert changes(only(events, "attack")) == [(-3, "Flurry: lose 3d12 on attack rolls")]
    assert s.creatures["t"].grit.pips == 1
    assert s.economy["a"].major == 0
    refused(s, flurry(1))


def test_flurry_minor_overpower() -> None:
    """Flurry: "you can use any Strike or Overpower as a Minor Action". Flurry of 1, Impair with the sword as a Minor
    Action: Athletics 4 - 1 - 1 (not Lightweight) = 2d12: 5, 1 -> 5 against Athletics 3, 2 -> 3: success, Tier 1
    Slowed."""
    s, _ = run(field(), flurry(1), [])
    cmd = {"type": "impair", "creature": "a", "target": "t", "ailment": "Slowed", "weapon": "sword", "minor": True}
    s, events = run(s, cmd, [5, 1, 3, 2])
    assert [ch.dice for ch in only(events, "attack").rolls[0].dice_changes] == [-1, -1]
    assert s.creatures["t"].ailments == {"Slowed": 1}
    assert (s.economy["a"].major, s.economy["a"].minor) == (1, 1)


def test_flurry_declared_number_is_bounded_by_the_table_setting() -> None:
    """Flurry: "Declare a number": 1 to the table's `flurry_max` (6 by default)."""
    refused(field(), flurry(7))


def test_legal_flurry_is_offered_then_its_minor_attacks() -> None:
    """Before the Flurry, a Flurry option chooses the number and no Minor attack is offered; after it, Minor Action
    Strikes and Overpowers are offered with `minor` set, their previews losing the d12."""
    before = legal_actions(field(), "a")
    (decl,) = [o for o in before if o.action == "flurry"]
    assert decl.choose == ["number"] and decl.targets[0].choices == {"number": [1, 2, 3, 4, 5, 6]}
    assert not [o for o in before if o.action == "flurry_attack"]
    s, _ = run(field(), flurry(2), [])
    after = [o for o in legal_actions(s, "a") if o.action == "flurry_attack"]
    sword = next(o for o in after if o.command == "strike" and "Sword" in o.label)
    assert sword.params == {"weapon": "sword", "minor": True} and sword.cost == {"minor": 1}
    preview = sword.targets[0].preview
    assert preview is not None and [ch.dice for ch in preview.dice_changes] == [-2, -1]
    assert {"strike", "impair", "reposition"} <= {o.command for o in after}
    assert not [o for o in legal_actions(s, "a") if o.action == "flurry"]


def test_flurry_declaration_costs_and_numbers_follow_the_table_settings() -> None:
    """The Flurry option costs what the table's `flurry_cost` says (nothing, a Minor or a Major Action) and offers
    each number from 1 to its `flurry_max`, whatever menus were made before under other settings."""
    for flurry_cost, cost in (("minor", {"minor": 1}), ("none", {}), ("major", {"major": 1}), ("minor", {"minor": 1})):
        for flurry_max in (1, 3, 6, 2):
            s = field()
            s = s.model_copy(update={"settings": TableSettings(flurry_cost=flurry_cost, flurry_max=flurry_max)})
            (decl,) = [o for o in legal_actions(s, "a") if o.action == "flurry"]
            assert decl.cost == cost
            assert decl.targets[0].choices == {"number": list(range(1, flurry_max + 1))}
            assert decl.model_dump(mode="json")["targets"][0]["choices"] == {"number": list(range(1, flurry_max + 1))}


# --------------------------------------------------------------------------------------------------------
# Distract
# --------------------------------------------------------------------------------------------------------


def distract(**kw: Any) -> dict[str, Any]:
    return {"type": "distract", "creature": "a", "targets": ["t"], **kw}


def test_distract_with_a_major_action_gains_2_and_makes_the_target_focused() -> None:
    """Distract: "Gain ... +2 if you used a Major Action"; success makes the creature "Focused on you" and "they
    cannot drop Focus until their next turn". Guile 3d12: 8, 2, 1 -> 8 + 2 = 10 against Observe 5, 4 -> 5: success."""
    s, events = run(used(field(), "a", "major"), distract(), [8, 2, 1, 5, 4])
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [(2, "Distract: +2 for a Major Action")]
    assert attack.rolls[1].modifiers == ()
    t = s.creatures["t"]
    assert (t.focus, t.focus_space, t.focus_locked) == ("a", None, True)
    assert (s.economy["a"].major, s.economy["a"].distractable) == (0, [])


def test_distract_with_a_minor_action_gains_1() -> None:
    """Distract: "Gain +1 on your roll if you used a Minor Action". Guile 4, 2, 1 -> 4 + 1 = 5 against Observe 5, 3
    -> 5: the tie goes to the defender, no Focus. The Distract follows a's Minor Action and costs nothing more."""
    s, events = run(used(field(), "a", "minor"), distract(action="minor"), [4, 2, 1, 5, 3])
    assert mod_values(only(events, "attack")) == [1]
    assert s.creatures["t"].focus is None
    assert (s.economy["a"].major, s.economy["a"].minor, s.economy["a"].distractable) == (1, 1, [])


def test_distract_expected_gains_6_on_defense() -> None:
    """Distract: "Creatures that expect you to use this action gain +6 on their defense". One roll against t and u:
    Guile 8, 2, 1 -> 10. t (not expecting): Observe 5, 4 -> 5: Focused. u (expecting): Observe 5, 4 -> 5 + 6 = 11:
    not Focused."""
    u = creature("u", (5, 6), skills=T_SKILLS)
    s, events = run(used(field(u), "a", "major"), distract(targets=["t", "u"], expects=["u"]), [8, 2, 1, 5, 4, 5, 4])
    attacks = [e for e in events if e.kind == "attack"]
    assert [a.data["success"] for a in attacks] == [True, False]
    assert [(m.value, m.reason) for m in attacks[1].rolls[1].modifiers] == [(6, "expects the Distract: +6")]
    assert (s.creatures["t"].focus, s.creatures["u"].focus) == ("a", None)


def test_distract_sound_at_range_focuses_on_the_space() -> None:
    """Distract: "If your action creates a sound at range, creatures instead become Focused on the space where the
    sound was made." Guile 9, 3, 1 -> 11 against Observe 2, 2 -> 2: t is Focused on (9, 9)."""
    s, _ = run(used(field(), "a", "major"), distract(sound_at=(9, 9)), [9, 3, 1, 2, 2])
    t = s.creatures["t"]
    assert (t.focus, t.focus_space, t.focus_locked) == (None, (9, 9), True)


def test_distract_attacks_only_creatures_aware_of_the_action() -> None:
    """Distract: "attack creatures that are Aware of that action" (ASSUMPTION: not Unaware or Unconscious, within the
    table's `distract_range` of 6). Unaware t, and far-off u, cannot be attacked; the menu offers neither."""
    refused(used(field(ailments={"Unaware": 1}), "a", "major"), distract())
    far = used(field(creature("u", (15, 5), skills=T_SKILLS)), "a", "major")
    refused(far, distract(targets=["u"]))
    (option,) = [o for o in legal_actions(far, "a") if o.action == "distract"]
    assert [tg.target for tg in option.targets] == ["t"]
    assert option.targets[0].choices["action"] == ["major", "speak"]
    assert option.targets[0].choices["targets"] == option.targets[0].choices["expects"] == ["t"]
    preview = option.targets[0].preview
    assert preview is not None and (preview.skill, preview.defense_skill, preview.dice) == ("Guile", "Observe", 3)


def test_distract_follows_an_action_used_and_costs_none_of_its_own() -> None:
    """Distract: "After you use an action or speak, attack creatures that are Aware of that action." Before a has
    used any action, only speaking is offered and a Distract after a Major Action is refused. a Dashes (a Minor
    Action): now a Distract may follow it (+1), once: Guile 6, 2, 1 -> 6 + 1 = 7 against Observe 2, 3 -> 3: t is
    Focused; a's Major Action is still there, and a second Distract on the same Minor Action is refused."""
    s0 = field()
    (option,) = [o for o in legal_actions(s0, "a") if o.action == "distract"]
    assert (option.cost, option.targets[0].choices["action"]) == ({}, ["speak"])
    refused(s0, distract())
    refused(s0, distract(action="minor"))
    s1, _ = run(s0, {"type": "dash", "creature": "a"}, [])
    (option,) = [o for o in legal_actions(s1, "a") if o.action == "distract"]
    assert option.targets[0].choices["action"] == ["minor", "speak"]
    s2, events = run(s1, distract(action="minor"), [6, 2, 1, 2, 3])
    assert mod_values(only(events, "attack")) == [1]
    assert s2.creatures["t"].focus == "a"
    assert (s2.economy["a"].major, s2.economy["a"].minor) == (s1.economy["a"].major, s1.economy["a"].minor)
    refused(s2, distract(action="minor"))
    assert s1.economy["a"].distractable == ["minor"]


def test_distract_by_speaking_is_free_and_has_no_bonus() -> None:
    """Distract: "After you use an action or speak": speaking is no action, so it gives neither +1 nor +2. a speaks
    before acting: Guile 5, 2, 1 -> 5 against Observe 4, 1 -> 4: t is Focused; a keeps every action."""
    s0 = field()
    s, events = run(s0, distract(action="speak"), [5, 2, 1, 4, 1])
    assert mod_values(only(events, "attack")) == []
    assert s.creatures["t"].focus == "a"
    assert (s.economy["a"].major, s.economy["a"].minor) == (s0.economy["a"].major, s0.economy["a"].minor)


def test_distract_expects_it_is_offered_to_players() -> None:
    """Distract: "Creatures that expect you to use this action gain +6 on their defense." Player p's a is offered
    the choice of who expects it, and p may send it: Guile 8, 2, 1 -> 8 against t's Observe 2, 2 -> 2 + 6 = 8: the
    tie goes to the defender, no Focus."""
    s0 = field(a_controller="p")
    (option,) = [o for o in legal_actions(s0, "a") if o.action == "distract"]
    assert {"expects", "targets", "sound_at", "action"} <= set(option.choose)
    assert option.targets[0].choices["expects"] == ["t"]
    s, events = run(s0, distract(action="speak", expects=["t"]), [8, 2, 1, 2, 2])
    assert [(m.value, m.reason) for m in only(events, "attack").rolls[1].modifiers] == [(6, "expects the Distract: +6")]
    assert s.creatures["t"].focus is None


def test_focus_gives_1_on_rolls_against_your_focus_and_the_lock_ends_on_its_next_turn() -> None:
    """reference §5.3 Focus ASSUMPTION: "+1 on rolls against your Focus"; Distract: "cannot drop Focus until their
    next turn". Player p's a Distracts t (Guile 8, 2, 1 -> 10 against 5, 4 -> 5); a ends its turn; on the Soulweaver's
    turn t's Focus lock is gone, its Focus stays, and its Strike on a gains +1: Martial 5, 1 -> 5 + 1 = 6 against
    Elude 5, 2 -> 5: success; unarmed damage 1d12: 1, no Injury."""
    s, _ = run(used(field(a_controller="p"), "a", "major"), distract(), [8, 2, 1, 5, 4])
    s, _ = run(s, {"type": "end_turn"}, [])
    t = s.creatures["t"]
    assert (t.focus, t.focus_locked) == ("a", False)
    s, events = run(s, {"type": "strike", "creature": "t", "target": "a"}, [5, 1, 5, 2, 1])
    attack = only(events, "attack")
    assert [(m.value, m.reason) for m in attack.rolls[0].modifiers] == [
        (1, "Focused on A: +1 on rolls against your Focus")
    ]
    assert attack.data["success"] is True


def test_focus_bonus_is_a_table_setting() -> None:
    """Focus: the +1 is the table setting `focus_bonus`; at 0, t's Strike on its Focus a has no modifier
    (Martial 5, 1 against Elude 9, 9: fails)."""
    a = creature("a", (5, 5), skills=A_SKILLS)
    t = creature("t", (6, 5), skills=T_SKILLS, focus="a")
    s0 = on_turn(state(a, t, settings=TableSettings(defense_prompts="nobody", reactions=False, focus_bonus=0)), "t")
    _, events = run(s0, {"type": "strike", "creature": "t", "target": "a"}, [5, 1, 9, 9])
    assert mod_values(only(events, "attack")) == []
