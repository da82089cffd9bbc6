"""Hand-worked tests of Distal damage on a Grapple (seed-000 Grapple; reference §4.5).

seed-000 Grapple: "Attack target creature in a Hold with a Free Limb or a part used in the Hold to increase the Tier of
Encumbered they suffer from Hold by 1 and join the Hold as a Holder. If the part you use to Grapple has a Distal, you
may have the attack also deal damage from that Distal."

g (size 0, Athletics 2) holds t (size 0, Athletics 2) with its left arm in a Hold; both are in the space (5, 5). g's
right arm carries Claws, a Distal of 2 damage dice, Stabbing or Chopping. In the Hold each has 2 Tiers of Encumbered:
-2 on g's roll (an action using limbs) and on t's Athletics defense. Grapple rolls Athletics against Athletics at DL
0 (table settings). Scripted faces: the attack roll, the defense roll, then the damage dice; a roll is its highest
face plus modifiers; a damage face of 3 or more is 1 Injury (t has Severe Threshold 12: no Serious Injury).
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, refused, run, state

from vtt.rules.conditions import hold_encumbered
from vtt.rules.engine import ActionOption, legal_actions
from vtt.rules.model import Distal, GameState, Hold

CLAWS = Distal(id="claws", name="Claws", damage=2, strike_types=("S", "C"))


def field(claws: bool = True, g_size: int = 0) -> GameState:
    g = creature("g", (3, 5) if g_size else (5, 5), size=g_size)
    if claws:
        arm = g.limb("right_arm")
        assert arm is not None
        arm.distal = CLAWS
    s = on_turn(state(g, creature("t", (5, 5))), "g")
    s.holds["h0"] = Hold(id="h0", holders={"g": ["left_arm"]}, held=["t"])
    held_with = s.creatures["g"].limb("left_arm")
    assert held_with is not None
    held_with.hold_id = "h0"
    return s


def grapple(**kw: Any) -> dict[str, Any]:
    return {"type": "grapple", "creature": "g", "target": "t", **kw}


def options(s: GameState, action: str) -> list[ActionOption]:
    return [o for o in legal_actions(s, "g") if o.action == action]


def test_grapple_with_a_distal_also_deals_its_damage() -> None:
    """seed-000 Grapple: "If the part you use to Grapple has a Distal, you may have the attack also deal damage from
    that Distal." g Grapples with the clawed right arm: Athletics 9, 3 -> 9 - 2 = 7 against t's 4, 2 -> 4 - 2 = 2:
    success: t has 3 Tiers from the Hold and g holds with both arms. The Claws deal 2d12 (Stabbing, their first
    type): 3, 2 -> 1 Injury: 1 Grit Pip."""
    s, events = run(field(), grapple(distal=True), [9, 3, 4, 2, 3, 2])
    assert only(events, "attack").data["success"] is True
    assert s.holds["h0"].holders == {"g": ["left_arm", "right_arm"]}
    assert hold_encumbered(s, s.holds["h0"], "t") == 3
    damage = only(events, "damage")
    assert damage.rolls[0].label == "G's Claws to T"
    assert damage.data["injury"] == 1 and damage.data["types"] == ["physical"]
    assert s.creatures["t"].grit.pips == 1


def test_grapple_without_asking_for_the_distal_deals_no_damage() -> None:
    """seed-000: "you may have the attack also deal damage" -- only when asked. The same Grapple with the clawed arm
    (Athletics 9, 3 against 4, 2: success) and no `distal`: no damage roll, no Pip."""
    s, events = run(field(), grapple(limb="right_arm"), [9, 3, 4, 2])
    assert of_kind(events, "damage") == []
    assert s.creatures["t"].grit.pips == 0


def test_a_failed_grapple_deals_no_distal_damage() -> None:
    """The Distal's damage comes with the attack's success: Athletics 3, 1 -> 1 against 6, 2 -> 4: fails, no damage
    roll."""
    s, events = run(field(), grapple(distal=True), [3, 1, 6, 2])
    assert only(events, "attack").data["success"] is False
    assert of_kind(events, "damage") == []
    assert s.creatures["t"].grit.pips == 0


def test_distal_damage_with_chopping_adds_a_die_per_attack_face_of_6_or_more() -> None:
    """seed-004 Chopping: "For each face value 6 or higher in your attack roll, deal +1 damage." Chopping chosen:
    Athletics 9, 7 -> 7 against 4, 2 -> 2: success; both attack faces are 6 or more: 2 + 2 = 4d12: 3, 3, 1, 12 ->
    3 Injury."""
    s, events = run(field(), grapple(distal=True, strike_type="C"), [9, 7, 4, 2, 3, 3, 1, 12])
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 4
    assert [(ch.dice, ch.reason) for ch in damage.rolls[0].dice_changes] == [
        (2, "Chopping: 2 attack faces of 6 or more")
    ]
    assert s.creatures["t"].grit.pips == 3


def test_distal_damage_is_changed_by_size_like_any_physical_damage() -> None:
    """seed-004 Size: "Against smaller subjects, instead increase your damage." g of size 2 (spaces (3, 5) and (4, 5),
    Reach 2) Grapples size 0 t (the
    Overpower size bonus is +2; g has no Encumbered, being 2 sizes larger: 2 - 2 = 0): Athletics 5, 1 -> 5 + 2 = 7
    against 4, 2 -> 2: success. The Claws deal 2 + 2 = 4d12: 1, 1, 2, 3 -> 1 Injury."""
    s, events = run(field(g_size=2), grapple(distal=True), [5, 1, 4, 2, 1, 1, 2, 3])
    assert [m.value for m in only(events, "attack").rolls[0].modifiers] == [2]
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 4
    assert s.creatures["t"].grit.pips == 1


def test_the_distal_must_be_on_the_part_used() -> None:
    """seed-000: "If the part you use to Grapple has a Distal". Naming the left arm (no Distal) with `distal` is
    refused; so is `distal` for a creature with no Distal at all, and a Strike type without the Distal."""
    refused(field(), grapple(distal=True, limb="left_arm"))
    refused(field(claws=False), grapple(distal=True))
    refused(field(), grapple(strike_type="S"))


def test_legal_actions_offer_the_distal_grapple_only_with_a_distal() -> None:
    """legal_actions: the Grapple with Distal damage is offered against t, with the Claws' two Strike types to
    choose from; a g without a Distal is offered the plain Grapple and not this one."""
    (option,) = options(field(), "grapple_distal")
    assert option.command == "grapple" and option.params == {"distal": True}
    assert [(t.target, t.choices, t.note) for t in option.targets] == [("t", {"strike_type": ["S", "C"]}, "with Claws")]
    assert option.choose == ["strike_type"]
    assert options(field(claws=False), "grapple_distal") == []
    assert [t.target for o in options(field(claws=False), "grapple") for t in o.targets] == ["t"]


def test_distal_damage_strikes_the_part_a_called_shot_grapple_struck() -> None:
    """seed-000 Called Shot: "If your attack succeeds and exceeds the defense by an amount based on the target, the
    attack strikes the part and treats Severe Threshold as half." t has Severe Threshold 2. g Grapples t's torso (2
    sizes smaller) with the Claws: Athletics 10, 1 -> 10 - 2 - 1 (Called Shot) = 7 against 4, 2 -> 2: beaten by 5.
    The Claws' 2d12: 3, 4 -> 2 Injury, on the torso, over the halved Threshold 1 by 1: Tier 1 Wounded (a targeted
    attack: no extra half), with no roll for a part."""
    s0 = field()
    s0.creatures["t"].severe_threshold = 2
    s, events = run(s0, grapple(distal=True, called_shot="torso"), [10, 1, 4, 2, 3, 4])
    assert only(events, "called_shot").data == {"part": "torso", "needed": 2, "margin": 5}
    injury = only(events, "serious_injury")
    assert injury.data == {"part": "torso", "wounded": 1} and injury.rolls == []
    torso = s.creatures["t"].part("torso")
    assert torso is not None and torso.wounded == 1
