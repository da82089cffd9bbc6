"""Hand-worked tests of swallowing (seed-000 Grapple).

seed-000: "If you are a Holder and the creature is at least 6 sizes smaller than you, you can use Grapple to attempt to
swallow the creature. On success, they are removed from the and they enter your stomach. While swallowed, there is no
light, they cannot breathe, and have Tier 2 Crowded. They can attack your stomach as an unattended object with 2
Durability and 0 Physical Reduction. If there are 6 Tiers of Wounded to the stomach, they fall out."

The wyrm w (size 6, 37 spaces around (10, 10), arms of Reach 4, Athletics 2) holds v (size 0, at (14, 10), next to
w, Athletics 2, Martial 2, a Lightweight knife of 4 damage dice in its right arm) with its left arm in a Hold. Being 6
sizes larger, w has no Encumbered from the Hold (2 - 6); v has 2 Tiers: -2 on its Athletics defense. Grapple is an
Overpower: +6 on w's roll against a target 6 sizes smaller. Grapple rolls Athletics against Athletics at DL 3 (table
settings). The creatures belong to the Soulweaver and act on its turn. Scripted faces: the attack roll, the defense
roll, then damage dice; a roll is its highest face plus modifiers.

What being swallowed causes are Ailments from the source "swallowed:w" (reference §5.1): Tier 2 Crowded and, for
"they cannot breathe", Tier 1 Strangled (table setting `swallowed_strangled`; the reference's Strangled is no
breathing), both gone when v is out. "No light" is the Sight Concealment Blinded gives, Tier 1 (table setting
`swallowed_darkness`): -1 on v's attacks (`concealment_attack_per_tier` 1). Wounded to the stomach is Wounded on w's
"stomach" body part. The stomach counts as size 2 (w's 6 less the stomach part's 4, table setting `stomach_size`):
v's Strike on it gains +1 (half of 2 sizes larger) and its damage loses 2d12 (2 sizes larger).
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.ailments import blocked_tiers, describe_source, wounded_tiers
from vtt.rules.dice import RandomDice
from vtt.rules.engine import ActionOption, apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.model import AilmentSource, BodyPart, Creature, Effect, GameState, Hold, Pool
from vtt.rules.offers import command_for
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy
from vtt.rules.swallow import cannot_breathe, no_light

W_SKILLS = {"Athletics": 2, "Martial": 2, "Elude": 2}
V_SKILLS = {"Athletics": 2, "Martial": 2, "Elude": 2}


SWALLOWED = "swallowed:w"
CROWDED = "Crowded (Tier 2) on attack rolls"
DARK = "no light (swallowed): every target has Sight Concealment 1, on attack rolls"
SIZE = "Strike size: target size 2 (the stomach) is larger than size 0 (half the difference)"


def wound_stomach(s: GameState, tiers: int, who: str = "w") -> None:
    """`tiers` Tiers of Wounded already on the creature's stomach part (and in its Wounded total)."""
    c = s.creatures[who]
    part = c.part("stomach")
    assert part is not None
    part.wounded = tiers
    c.ailments["Wounded"] = tiers


def field(w_size: int = 6, holder: str = "w", stomach_wounded: int = 0, **kw: Any) -> GameState:
    """w holding v; x, a size 6 onlooker that is not a Holder, at (10, 17) beside v's row."""
    w = creature("w", (10, 10), size=w_size, skills=W_SKILLS)
    v = creature(
        "v",
        (14, 10),
        skills=V_SKILLS,
        weapons=[weapon("knife", damage=4, lightweight=True)],
        grip={"right_arm": "knife"},
    )
    x = creature("x", (14, 14), size=6, skills=W_SKILLS)
    settings = TableSettings(defense_prompts="nobody", reactions=False, **kw)
    s = on_turn(state(w, v, x, cols=24, rows=24, settings=settings), "w")
    if stomach_wounded:
        wound_stomach(s, stomach_wounded)
    s.holds["h0"] = Hold(id="h0", holders={holder: ["left_arm"]}, held=["v"])
    arm = s.creatures[holder].limb("left_arm")
    assert arm is not None
    arm.hold_id = "h0"
    return s


def swallow(who: str = "w") -> dict[str, Any]:
    return {"type": "grapple", "creature": who, "target": "v", "swallow": True}


def swallowed(**kw: Any) -> GameState:
    """v swallowed by w: Athletics 5, 1 -> 5 + 6 = 11 against 9, 2 -> 9 - 2 = 7."""
    s, _ = run(field(**kw), swallow(), [5, 1, 9, 2])
    return s


def big_knife(s: GameState) -> GameState:
    """v's knife with 6 damage dice, so that 4 are left against the stomach, 2 sizes larger."""
    s.creatures["v"].weapons = [weapon("knife", damage=6, lightweight=True)]
    return s


def stomach(**kw: Any) -> dict[str, Any]:
    return {"type": "strike_stomach", "creature": "v", "weapon": "knife", **kw}


def options(s: GameState, who: str, action: str) -> list[ActionOption]:
    return [o for o in legal_actions(s, who) if o.action == action]


def test_a_holder_grapples_to_swallow_a_creature_6_sizes_smaller() -> None:
    """seed-000: "If you are a Holder and the creature is at least 6 sizes smaller than you, you can use Grapple to
    attempt to swallow the creature. On success, they are removed from the and they enter your stomach."
    Athletics 5, 1 -> 5 + 6 = 11 against v's 9, 2 -> 9 - 2 = 7: success. v is in w's stomach, off the board (it is
    in no space), out of the Hold, which ends (w's left arm is free again); no Encumbered Tier is added."""
    s, events = run(field(), swallow(), [5, 1, 9, 2])
    attack = only(events, "attack")
    assert [m.value for m in attack.rolls[0].modifiers] == [6]
    assert attack.data["success"] is True
    assert only(events, "swallowed").data == {"swallower": "w", "crowded": 2, "strangled": 1}
    assert s.creatures["v"].swallowed_by == "w"
    assert s.holds == {}
    assert all(lb.free for lb in s.creatures["w"].limbs)
    assert "v" not in Occupancy(s).occupants([(14, 10)])


def test_a_failed_swallow_leaves_the_creature_held() -> None:
    """The swallow is an attack: Athletics 2, 1 -> 2 + 6 = 8 against 12, 2 -> 10: fails; v is still Held, on the
    board, and no Encumbered Tier is added."""
    s, events = run(field(), swallow(), [2, 1, 12, 2])
    assert only(events, "attack").data["success"] is False
    assert s.creatures["v"].swallowed_by is None
    assert s.holds["h0"].held == ["v"] and s.holds["h0"].extra_encumbered == {}


def test_swallowed_there_is_no_light_no_breath_and_tier_2_crowded() -> None:
    """seed-000: "While swallowed, there is no light, they cannot breathe, and have Tier 2 Crowded." v has Tier 2
    Crowded and Tier 1 Strangled, both from "swallowed:w" and going with it. Crowded (table setting
    `crowded_penalty_per_tier` 1) is -2 on v's attack rolls; no light gives every target Sight Concealment 1 as
    Blinded 1 would: -1 more. The preview of the stomach attack shows both, after the stomach's size (+1)."""
    s = swallowed()
    v = s.creatures["v"]
    assert v.ailments == {"Crowded": 2, "Strangled": 1}
    assert v.ailment_sources == [
        AilmentSource(ailment="Crowded", tiers=2, source=SWALLOWED, ends_with_source=True),
        AilmentSource(ailment="Strangled", tiers=1, source=SWALLOWED, ends_with_source=True),
    ]
    assert no_light(v) and cannot_breathe(v)
    knife, unarmed = options(s, "v", "strike_stomach")
    assert (knife.params, unarmed.params) == ({"weapon": "knife"}, {"limb": None})
    (target,) = knife.targets
    assert target.target == "w" and target.preview is not None
    assert [(m.value, m.reason) for m in target.preview.modifiers] == [(1, SIZE), (-2, CROWDED), (-1, DARK)]


def test_what_being_swallowed_causes_cannot_be_lowered_while_it_lasts() -> None:
    """reference §5.1: "An Ailment caused by an ongoing effect cannot be lowered while that effect lasts." Both
    Tiers of Crowded and the Tier of Strangled are held by the source, which the log names as being in W's stomach;
    a Tier of Crowded the Soulweaver adds without a source is not held."""
    s = swallowed()
    v = s.creatures["v"]
    assert (blocked_tiers(s, v, "Crowded"), blocked_tiers(s, v, "Strangled")) == (2, 1)
    assert describe_source(s, SWALLOWED) == "being in W's stomach"
    s, _ = run(s, {"type": "afflict", "target": "v", "ailment": "Crowded", "tiers": 1}, [])
    v = s.creatures["v"]
    assert (v.ailments["Crowded"], blocked_tiers(s, v, "Crowded")) == (3, 2)


def test_not_breathing_costs_an_energy_pip_as_each_turn_starts() -> None:
    """Strangled (reference §5.2 ASSUMPTION: no breathing; table setting `strangled_energy_per_tier` 1): when the
    Soulweaver's turn (on which v acts) starts again, v suffers 1 Energy Pip; no Ailment of v's or w's rolls to wear
    off (Crowded and Strangled list no defense)."""
    s, events = run(swallowed(), {"type": "end_turn"}, [])
    assert only(events, "strangled").text == "V is Strangled (Tier 1) and cannot breathe: 1 Energy Pip."
    assert s.creatures["v"].energy.pips == 1


def test_no_light_and_no_breath_can_be_turned_off() -> None:
    """Table settings `swallowed_darkness` 0 and `swallowed_strangled` 0: only the seed's Tier 2 Crowded is left."""
    s = swallowed(swallowed_darkness=0, swallowed_strangled=0)
    assert s.creatures["v"].ailments == {"Crowded": 2}
    (target,) = options(s, "v", "strike_stomach")[0].targets
    assert target.preview is not None
    assert [(m.value, m.reason) for m in target.preview.modifiers] == [(1, SIZE), (-2, CROWDED)]


def test_blinded_in_the_dark_counts_the_higher_concealment() -> None:
    """Blinded and no light both conceal sight: the higher Tier counts, not their sum. With the darkness at 3
    (table setting): Blinded 2 < 3: the darkness's 3; Blinded 4: its 4."""
    s = swallowed(swallowed_darkness=3)
    s.creatures["v"].ailments["Blinded"] = 2
    (target,) = options(s, "v", "strike_stomach")[0].targets
    assert target.preview is not None
    dark3 = DARK.replace("Concealment 1", "Concealment 3")
    assert [(m.value, m.reason) for m in target.preview.modifiers] == [(1, SIZE), (-2, CROWDED), (-3, dark3)]
    s = swallowed(swallowed_darkness=3)  # a new state: a menu is kept for the state it was asked of
    s.creatures["v"].ailments["Blinded"] = 4
    (target,) = options(s, "v", "strike_stomach")[0].targets
    assert target.preview is not None
    assert target.preview.modifiers[-1].value == -4
    assert target.preview.modifiers[-1].reason.startswith("Blinded (Tier 4): every target has Sight Concealment 4")


def test_swallowing_needs_a_holder_and_6_sizes() -> None:
    """seed-000: "If you are a Holder and the creature is at least 6 sizes smaller than you". A size 5 w (5 sizes
    larger) is refused; x, size 6 but not a Holder, is refused. Neither is offered "swallow"; w of size 6 is."""
    refused(field(w_size=5), swallow(), [5, 1, 9, 2])
    s = field()
    s.creatures["x"].anchor = (16, 10)
    refused(s, swallow("x"), [5, 1, 9, 2])
    assert options(field(w_size=5), "w", "swallow") == []
    assert options(s, "x", "swallow") == []
    (option,) = options(field(), "w", "swallow")
    assert option.command == "grapple" and option.params == {"swallow": True}
    assert [t.target for t in option.targets] == ["v"]


def test_a_stomach_with_6_wounded_swallows_nothing() -> None:
    """seed-000: "If there are 6 Tiers of Wounded to the stomach, they fall out": a stomach already at 6 would let
    it fall out at once, so the swallow is refused and not offered. A creature with no stomach part cannot
    swallow either."""
    s = field(stomach_wounded=6)
    refused(s, swallow(), [5, 1, 9, 2])
    assert options(s, "w", "swallow") == []
    s = field()
    s.creatures["w"].parts = [p for p in s.creatures["w"].parts if p.id != "stomach"]
    refused(s, swallow(), [5, 1, 9, 2])
    assert options(s, "w", "swallow") == []


def test_a_swallowed_creature_is_removed_from_the_board() -> None:
    """seed-000: "they are removed from the [board]". x, next to where v was, cannot Strike or Grab it, and is not
    offered it as a target; v cannot move or Strike x; its only target is the stomach."""
    s = swallowed()
    refused(s, {"type": "strike", "creature": "x", "target": "v"}, [9, 9, 9])
    refused(s, {"type": "grab", "creature": "x", "target": "v"}, [9, 9, 9])
    assert all(t.target != "v" for o in legal_actions(s, "x") for t in o.targets)
    refused(s, {"type": "move", "creature": "v", "to": (15, 10)})
    refused(s, {"type": "strike", "creature": "v", "target": "x", "weapon": "knife"}, [9, 9, 9])
    assert {o.action for o in legal_actions(s, "v")} == {"strike_stomach", "flurry", "end_turn"}


def test_no_command_may_name_a_swallowed_creature_in_any_of_its_creature_fields() -> None:
    """Off the board, v cannot be named by x's Strike as its target, nor among a Distract's targets or the creatures
    it expects to act, nor as the creature a Break Hold frees: each is refused for naming v, before its rule."""
    s = swallowed()
    for command in (
        {"type": "strike", "creature": "x", "target": "v"},
        {"type": "distract", "creature": "x", "targets": ["w", "v"]},
        {"type": "distract", "creature": "x", "target": "w", "expects": ["v"]},
        {"type": "break_hold", "creature": "x", "target": "w", "held": "v"},
    ):
        with pytest.raises(RuleError, match=r"^V has been swallowed: it is off the board$"):
            apply(s, command, RandomDice(1))


def test_the_stomach_is_attacked_as_an_unattended_object_at_dl_3() -> None:
    """seed-000: "They can attack your stomach as an unattended object": a Strike (DL 3) that nobody defends.
    Martial 4, 1 -> 4 + 1 (the stomach's size) - 2 (Crowded) - 1 (no light) = 2: short of DL 3, a miss, no damage
    roll."""
    s, events = run(swallowed(), stomach(), [4, 1])
    assert only(events, "attack").data == {"action": "strike_stomach", "dl": 3, "success": False}
    assert of_kind(events, "damage") == []
    assert s.economy["v"].major == 0


def test_wounded_to_the_stomach_is_injury_beyond_durability_2() -> None:
    """seed-000: "an unattended object with 2 Durability and 0 Physical Reduction"; Wounded Tiers are the Injury
    beyond the Durability (ASSUMPTION, table setting `stomach_threshold`). v's knife here has 6 damage dice. Martial
    8, 1 -> 8 + 1 (size) - 2 (Crowded) - 1 (no light) = 6: a hit. 6d12 less 2 for the larger stomach = 4d12
    (Physical Reduction 0: a face of 3 is enough): 3, 4, 1, 9 -> 3 Injury -> Tier 1 Wounded on w's stomach part, in
    its Wounded total too. The damage goes to the object: w takes no Grit Pip. v stays inside."""
    s, events = run(big_knife(swallowed()), stomach(), [8, 1, 3, 4, 1, 9])
    assert only(events, "attack").rolls[0].result == 6
    damage = only(events, "damage")
    assert (damage.data["injury"], damage.data["needed"]) == (3, 3)
    assert only(events, "stomach_wounded").data == {"wounded": 1, "stomach_wounded": 1, "part": "stomach"}
    w = s.creatures["w"]
    assert (wounded_tiers(w, "stomach"), wounded_tiers(w, "torso"), w.ailments) == (1, 0, {"Wounded": 1})
    assert w.grit.pips == 0
    assert s.creatures["v"].swallowed_by == "w"


def test_six_tiers_of_wounded_to_the_stomach_and_they_fall_out() -> None:
    """seed-000: "If there are 6 Tiers of Wounded to the stomach, they fall out." w's stomach part already has 4.
    With a knife of 6: Martial 8, 1 -> 6: hits; 4d12: 3, 4, 5, 9 -> 4 Injury -> 2 Wounded: 6. v falls out into the
    first free space
    next to w in the grid's order: w fills the spaces within 3 of (10, 10), so the adjacent ones are 4 from it, and
    the first of them is (6, 10). Its source over, v loses the 2 Crowded Tiers and the Strangled Tier, and is on
    the board again."""
    s = big_knife(swallowed())
    wound_stomach(s, 4)
    s, events = run(s, stomach(), [8, 1, 3, 4, 5, 9])
    assert wounded_tiers(s.creatures["w"], "stomach") == 6
    assert only(events, "fell_out").data == {"swallower": "w", "to": (6, 10)}
    ended = [e.data for e in of_kind(events, "ailment_source_ended")]
    assert ended == [{"ailment": "Crowded", "source": SWALLOWED}, {"ailment": "Strangled", "source": SWALLOWED}]
    v = s.creatures["v"]
    assert (v.swallowed_by, v.anchor, v.ailments, v.ailment_sources) == (None, (6, 10), {}, [])
    assert Occupancy(s).occupants([(6, 10)]) == ["v"]
    assert options(s, "v", "strike_stomach") == []


def test_a_serious_injury_from_outside_to_the_stomach_counts_too() -> None:
    """The stomach's Wounded Tiers are the swallower's own: a Serious Injury landing on the stomach adds to them.
    w's stomach has 4 Tiers; w's Severe Threshold is 0; the Soulweaver deals 2 damage to w's stomach (3, 5: 2
    Injury, a targeted part, so no extra half): Tier 2 Wounded -> 6, and v falls out at once, at (6, 10)."""
    s = swallowed()
    wound_stomach(s, 4)
    s.creatures["w"].severe_threshold = 0
    s, events = run(s, {"type": "harm", "target": "w", "amount": 2, "part": "stomach"}, [3, 5])
    assert only(events, "serious_injury").data == {"part": "stomach", "wounded": 2}
    assert wounded_tiers(s.creatures["w"], "stomach") == 6
    assert only(events, "fell_out").data == {"swallower": "w", "to": (6, 10)}
    assert s.creatures["v"].ailments == {}


def test_the_soulweaver_placing_a_swallowed_creature_takes_it_out() -> None:
    """The Soulweaver's `place` sets a creature anywhere it fits: a swallowed one is out of the stomach, without
    its 2 Crowded Tiers and its Strangled Tier; a Tier of Crowded the Soulweaver gave it meanwhile, with no source,
    stays."""
    s, _ = run(swallowed(), {"type": "afflict", "target": "v", "ailment": "Crowded", "tiers": 1}, [])
    s, events = run(s, {"type": "place", "creature": "v", "to": (5, 20)}, [])
    v = s.creatures["v"]
    assert (v.swallowed_by, v.anchor, v.ailments) == (None, (5, 20), {"Crowded": 1})
    assert only(events, "fell_out").actor == "v"


def test_the_soulweaver_may_still_afflict_a_swallowed_creature() -> None:
    """Nobody else may name a swallowed creature; the Soulweaver's Afflict may (as Harm and Heal): Tier 1 Dazzled."""
    s, events = run(swallowed(), {"type": "afflict", "target": "v", "ailment": "Dazzled", "tiers": 1}, [])
    assert s.creatures["v"].ailments["Dazzled"] == 1
    assert only(events, "ailment").data == {"ailment": "Dazzled", "tier": 1, "source": None}


def test_a_game_saved_with_the_older_stomach_count_loads() -> None:
    """Games saved before Wounded per part kept `stomach_wounded` on the swallower and `swallowed_attack_penalty`
    in the settings: the count becomes Wounded on the stomach part (and in the total); a penalty of 0 (the older
    default) leaves the new darkness default, a penalty of 2 becomes Concealment 2."""
    old = {"id": "w", "name": "W", "anchor": (1, 1), "stomach_wounded": 5, "ailments": {"Wounded": 1}}
    parts = [BodyPart(id="torso", name="torso", size_offset=2, wounded=1).model_dump()]
    w = Creature.model_validate(old | {"parts": [*parts, {"id": "stomach", "name": "stomach", "size_offset": 4}]})
    assert (wounded_tiers(w, "stomach"), wounded_tiers(w, "torso"), w.ailments) == (5, 1, {"Wounded": 6})
    humanoid = Creature.model_validate({**old, "ailments": {}})
    assert (wounded_tiers(humanoid, "stomach"), humanoid.ailments) == (5, {"Wounded": 5})
    assert "stomach_wounded" not in Creature.model_validate({**old, "stomach_wounded": 0}).model_dump()
    assert TableSettings.model_validate({"swallowed_attack_penalty": 0}).swallowed_darkness == 1
    assert TableSettings.model_validate({"swallowed_attack_penalty": 2}).swallowed_darkness == 2


def test_a_swallowed_creature_on_a_full_resolve_pool_may_still_recover() -> None:
    """seed-004: "While your Resolve Pool is full, the only actions you can use are Recovery and roll Zeal as a Minor
    Acton to be able to use a Major Action this turn, DL 12." Swallowed, v with a full Resolve Pool is offered
    those two (and not the stomach attack) and may use Recovery."""
    s = swallowed()
    s.creatures["v"].resolve = Pool(max=6, pips=6)
    assert {o.action for o in legal_actions(s, "v")} == {"zeal_for_major", "recover", "end_turn"}
    s, _ = run(s, {"type": "recover", "creature": "v"}, [])
    assert s.economy["v"].major == 0


def test_a_swallowed_creature_may_dismiss_its_own_ongoing_ability() -> None:
    """seed-000 Dismiss: "End an ongoing Spell or Talent you Manifested." Swallowed v ends its Stone Skin (a
    Talent: no Free Limb needed), a Minor Action (table setting `dismiss_cost`)."""
    s = swallowed()
    s.effects.append(Effect(id="e9", name="Stone Skin", creator="v", subject="v", rounds=3, ability="stone_skin"))
    s, _ = run(s, {"type": "dismiss", "creature": "v", "effect": "e9", "target": "v"}, [])
    assert s.effects == [] and s.economy["v"].minor == 1


def test_the_stomach_strike_is_sent_with_nothing_to_click() -> None:
    """seed-000: a swallowed creature attacks the stomach it is in; it has no token to click, so its menu option
    carries the whole command (`pick` none) and the rules accept it."""
    s = swallowed()
    knife = options(s, "v", "strike_stomach")[0]
    assert knife.pick == "none"
    cmd = command_for(knife)
    assert cmd == stomach(target="w")
    apply(s, cmd, RandomDice(1))
