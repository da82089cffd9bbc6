"""Hand-worked tests of Manifest, Ready, Dismiss and Hinder Spell (seed-000; reference §4.1, §8; seed-004).

The caster m (size 0) has Magic 3, Endure 2, Martial 2, Elude 2, Athletics 2 and knows the sample abilities
Firebolt (Spell, fire, 3 damage against Elude, range 6, Boost +2 dice), Ward (Spell, air, +1 on defenses against
physical attacks for 2 rounds, range 3), Mend (Spell, life, heal 3, range 1) and Stone Skin (Talent, earth, +1 on
defenses against physical attacks for 3 rounds, itself only). The target t stands 2 spaces away with Elude 2 and
Severe Threshold 12 (no Serious Injury). Scripted faces are used in order; a skill roll is its highest face.
Table settings used: words_per_turn 2, dismiss_cost "minor", Hinder Spell rolls Martial against the caster's Magic.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.dice import RandomDice
from vtt.rules.engine import ActionOption, apply, legal_actions
from vtt.rules.model import Effect, GameState, Pool
from vtt.rules.settings import TableSettings

SKILLS = {"Magic": 3, "Endure": 2, "Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1}
KNOWN = ["firebolt", "ward", "mend", "stone_skin"]
QUIET = TableSettings(defense_prompts="nobody", reactions=False)


def field(settings: TableSettings | None = None, **m_kw: Any) -> GameState:
    m = creature("m", (5, 5), skills=dict(SKILLS), abilities=KNOWN, **m_kw)
    t = creature("t", (7, 5))
    far = creature("far", (15, 5))
    return on_turn(state(m, t, far, settings=settings or QUIET), "m")


def cast(ability: str, target: str | None = None, **kw: Any) -> dict[str, Any]:
    return {"type": "manifest", "creature": "m", "ability": ability, "target": target, **kw}


def manifest_options(s: GameState, who: str = "m") -> dict[tuple[str, str], ActionOption]:
    return {(o.action, o.params.get("ability") or o.label): o for o in legal_actions(s, who) if o.group == "Manifest"}


# ----------------------------------------------------------------------------------------------------------------
# Manifest
# ----------------------------------------------------------------------------------------------------------------


def test_manifesting_is_dl_6_and_costs_1_energy() -> None:
    """seed-000: "Manifesting a Spell or a Talent is DL 6 and costs 1 Energy." Stone Skin: Endure 6, 2 -> 6 reaches
    DL 6: the effect starts; the Energy Pool takes 1 Pip and the Major Action is spent."""
    s, events = run(field(), cast("stone_skin"), [6, 2])
    ev = only(events, "manifest")
    assert (ev.data["dl"], ev.data["success"]) == (6, True)
    assert s.creatures["m"].energy.pips == 1
    assert s.economy["m"].major == 0 and s.economy["m"].manifested
    (e,) = s.effects
    assert (e.name, e.subject, e.rounds, e.ability, e.modifiers) == (
        "Stone Skin",
        "m",
        3,
        "stone_skin",
        {"physical_defense": 1},
    )


def test_a_failed_manifest_still_pays_its_cost() -> None:
    """seed-000 "DL 6 and costs 1 Energy"; reference §1.1: costs are paid when the effect is declared. Endure 5, 2
    -> 5 is short of DL 6: no effect, but the Energy Pip and the Major Action are spent."""
    s, events = run(field(), cast("stone_skin"), [5, 2])
    assert only(events, "manifest").data["success"] is False
    assert s.effects == []
    assert s.creatures["m"].energy.pips == 1 and s.economy["m"].major == 0


def test_manifest_rolls_magic_for_spells_and_endure_for_talents() -> None:
    """reference §4.1: "Manifest rolls use Magic for Spells and Endure for Talents". Ward rolls Magic (3 dice: 6, 2,
    3); Stone Skin rolls Endure (2 dice)."""
    _, events = run(field(), cast("ward", "t"), [6, 2, 3])
    r = only(events, "manifest").rolls[0]
    assert (r.dice, r.label) == (3, "M: Manifest Ward (Magic)")
    _, events = run(field(), cast("stone_skin"), [6, 2])
    assert only(events, "manifest").rolls[0].label == "M: Manifest Stone Skin (Endure)"


def test_paying_energy_with_a_full_pool_causes_exhausted() -> None:
    """seed-004: "Your Energy Pool being full does not prevent you from paying costs. For each Energy Pip you suffer
    while your Energy Pool is full, suffer Tier 1 Exhausted." m's Energy is 6/6: it still Manifests (6, 1)."""
    s, events = run(field(energy=Pool(max=6, pips=6)), cast("stone_skin"), [6, 1])
    m = s.creatures["m"]
    assert (m.energy.pips, m.ailments["Exhausted"], m.ruptured_conduit_risk) == (6, 1, 1)
    assert only(events, "manifest").data["success"] is True


def test_vulnerable_increases_the_dl_to_manifest_abilities_of_the_type_by_2() -> None:
    """seed-004 Vulnerable: "increase the DL to Manifest abilities of the type by 2". m is Vulnerable to fire:
    Firebolt needs 8; Magic 7, 2, 1 -> 7 fails and t is not attacked (no defense or damage dice)."""
    s, events = run(field(vulnerabilities=["fire"]), cast("firebolt", "t"), [7, 2, 1])
    ev = only(events, "manifest")
    assert (ev.data["dl"], ev.data["success"]) == (8, False)
    assert "Vulnerable to fire" in ev.text
    assert of_kind(events, "attack") == [] and s.creatures["t"].grit.pips == 0


def test_the_manifest_roll_is_the_attack_when_the_ability_names_none() -> None:
    """seed-000: "If the ability makes an attack without specifying the attack roll, use the result of the Manifest
    roll." Firebolt: Magic 8, 3, 1 -> 8 (DL 6) attacks t's Elude 5, 4 -> 5: it hits; 3 fire damage dice 3, 2, 9
    need 3 (magical, no Reduction): 2 Injury, 2 Grit Pips."""
    s, events = run(field(), cast("firebolt", "t"), [8, 3, 1, 5, 4, 3, 2, 9])
    attack = only(events, "attack")
    assert attack.rolls[0].result == 8 and attack.data["success"] is True
    assert (attack.data["dl"], attack.data["defense_skill"]) == (6, "Elude")
    damage = only(events, "damage")
    assert damage.data["injury"] == 2 and damage.data["types"] == ["magical", "fire"]
    assert s.creatures["t"].grit.pips == 2
    assert s.economy["m"].attacked


def test_a_manifest_roll_used_as_an_attack_loses_its_flurry_d12() -> None:
    """seed-000 Flurry: "Declare a number. For 1 round, lose that number of d12 on attack rolls and half that number
    on damage rolls." With Manifest: "If the ability makes an attack without specifying the attack roll, use the
    result of the Manifest roll": that roll is an attack roll. m (Magic 3) declares a Flurry of 2, then Manifests
    Firebolt at t: Magic 3 - 2 = 1 die, 8 (DL 6) against t's Elude 5, 4 -> 5: hit; 3 - 1 = 2 damage dice 3, 9:
    2 Injury."""
    s, _ = run(field(), {"type": "flurry", "creature": "m", "number": 2}, [])
    s, events = run(s, cast("firebolt", "t"), [8, 5, 4, 3, 9])
    manifest_roll = only(events, "manifest").rolls[0]
    assert manifest_roll.dice == 1
    assert [d.dice for d in manifest_roll.dice_changes] == [-2]
    assert only(events, "attack").data["success"] is True
    assert s.creatures["t"].grit.pips == 2


def test_a_manifest_roll_that_makes_no_attack_keeps_its_dice_in_a_flurry() -> None:
    """seed-000 Flurry loses d12 "on attack rolls"; Ward makes no attack: its Manifest roll keeps Magic 3 dice
    (6, 2, 3: DL 6 reached) after a Flurry of 2."""
    s, _ = run(field(), {"type": "flurry", "creature": "m", "number": 2}, [])
    s, events = run(s, cast("ward", "t"), [6, 2, 3])
    assert only(events, "manifest").rolls[0].dice == 3


def test_a_spell_makes_you_its_caster() -> None:
    """seed-000: Manifesting a Spell "makes you its caster": the Ward on t is m's (m created it)."""
    s, events = run(field(), cast("ward", "t"), [6, 2, 3])
    assert only(events, "manifest").data["caster"] == "m"
    (e,) = s.effects
    assert (e.creator, e.subject, e.rounds) == ("m", "t", 2)


def test_a_spell_costs_1_word_and_1_more_if_boosted() -> None:
    """seed-000: a Spell "costs 1 word, costs an additional word if Boosted". With 2 words a turn (table setting),
    a Boosted Firebolt spends both (Magic 2, 2, 1 -> 2 fails); with 1 word a turn it cannot be Boosted."""
    s, _ = run(field(), cast("firebolt", "t", boosted=True), [2, 2, 1])
    assert s.economy["m"].words_spent == 2
    one = TableSettings(defense_prompts="nobody", reactions=False, words_per_turn=1)
    refused(field(one), cast("firebolt", "t", boosted=True), [2, 2, 1])
    s, _ = run(field(one), cast("firebolt", "t"), [2, 2, 1])
    assert s.economy["m"].words_spent == 1


def test_boosted_firebolt_rolls_more_damage_dice() -> None:
    """Boosting Firebolt adds 2 damage dice (its data): Magic 9, 1, 1 -> 9 against Elude 3, 3 -> 3: 5 dice 3, 3, 1,
    1, 12 -> 3 Injury."""
    s, events = run(field(), cast("firebolt", "t", boosted=True), [9, 1, 2, 3, 3, 3, 3, 1, 1, 12])
    assert only(events, "damage").rolls[0].dice == 5
    assert s.creatures["t"].grit.pips == 3


def test_talents_cost_no_words() -> None:
    """seed-000 names the word cost for Spells only: with no words a turn, Stone Skin is still Manifested."""
    none = TableSettings(defense_prompts="nobody", reactions=False, words_per_turn=0)
    refused(field(none), cast("ward", "t"), [6, 2, 3])
    s, _ = run(field(none), cast("stone_skin"), [6, 2])
    assert s.economy["m"].words_spent == 0


def test_manifesting_a_spell_uses_a_free_limb() -> None:
    """seed-000: "Manifesting a Spell also uses a Free Limb". Both of m's arms grip: no Spell, but a Talent."""
    busy = field(weapons=[weapon("sword"), weapon("shield")], grip={"left_arm": "sword", "right_arm": "shield"})
    refused(busy, cast("ward", "t"), [6, 2, 3])
    s, _ = run(busy, cast("stone_skin"), [6, 2])
    assert len(s.effects) == 1


def test_spell_range_and_targets() -> None:
    """An ability reaches its range (data): Firebolt 6 spaces; 'far' is 10 away. Firebolt cannot attack m itself."""
    refused(field(), cast("firebolt", "far"), [9, 9, 9, 1, 1, 1, 1, 1])
    refused(field(), cast("firebolt", "m"), [9, 9, 9, 1, 1, 1, 1, 1])
    refused(field(), cast("stone_skin", "t"), [6, 2])


def test_healing_spell_uses_the_healing_roll() -> None:
    """seed-004 healing: d12 equal to the amount, faces 6+ count. Mend on m (its own spaces, range 1): Magic 6, 1,
    1 -> 6; healing 6, 7, 2 -> 2 Grit Pips removed."""
    s, events = run(field(grit=Pool(max=6, pips=3)), cast("mend"), [6, 1, 2, 6, 7, 2])
    assert only(events, "heal").data["healed"] == 2
    assert s.creatures["m"].grit.pips == 1


def test_in_a_defensive_stance_you_cannot_manifest() -> None:
    """seed-000: "While in a Defensive Stance, ... you cannot attack or Manifest Spells or Talents"."""
    minor = TableSettings(defense_prompts="nobody", reactions=False, defensive_stance_cost="minor")
    s, _ = run(field(minor), {"type": "defensive_stance", "creature": "m"}, [])
    refused(s, cast("stone_skin"), [6, 2])
    refused(s, {"type": "ready", "creature": "m", "ability": "ward"}, [6, 2, 3])
    assert not [o for o in legal_actions(s, "m") if o.action in {"manifest", "ready"}]


def test_after_manifesting_no_defensive_stance() -> None:
    """seed-000: "Enter a Defensive Stance if you have not ... Manifested a Spell or Talent this turn"."""
    minor = TableSettings(defense_prompts="nobody", reactions=False, defensive_stance_cost="minor")
    s, _ = run(field(minor), cast("stone_skin"), [2, 2])
    refused(s, {"type": "defensive_stance", "creature": "m"})


# ----------------------------------------------------------------------------------------------------------------
# Dismiss
# ----------------------------------------------------------------------------------------------------------------


def test_dismiss_ends_an_ongoing_spell_you_manifested() -> None:
    """seed-000 Dismiss: "End an ongoing Spell or Talent you Manifested." Ward on t (Magic 6, 2, 3), then m
    Dismisses it for a Minor Action (table setting `dismiss_cost`)."""
    s, _ = run(field(), cast("ward", "t"), [6, 2, 3])
    effect = s.effects[0].id
    s, events = run(s, {"type": "dismiss", "creature": "m", "effect": effect}, [])
    assert s.effects == [] and only(events, "effect_ended").data["dismissed"] is True
    assert s.economy["m"].minor == 1


def test_dismissing_a_spell_uses_a_free_limb() -> None:
    """seed-000: "Dismissing a Spell uses a Free Limb." m's arms both grip: its Ward stays, its Stone Skin (a Talent)
    can be Dismissed."""
    s = field(weapons=[weapon("sword"), weapon("shield")], grip={"left_arm": "sword", "right_arm": "shield"})
    s.effects = [
        Effect(id="e1", name="Ward", creator="m", subject="t", rounds=2, ability="ward"),
        Effect(id="e2", name="Stone Skin", creator="m", subject="m", rounds=3, ability="stone_skin"),
    ]
    refused(s, {"type": "dismiss", "creature": "m", "effect": "e1"})
    s, _ = run(s, {"type": "dismiss", "creature": "m", "effect": "e2"}, [])
    assert [e.id for e in s.effects] == ["e1"]


def test_only_your_own_ongoing_abilities_can_be_dismissed() -> None:
    """seed-000: "you Manifested": t's Stone Skin is not m's to end, nor is a Defensive Stance an ability."""
    s = field()
    s.effects = [
        Effect(id="e1", name="Stone Skin", creator="t", subject="t", rounds=3, ability="stone_skin"),
        Effect(id="e2", name="Defensive Stance", creator="m", subject="m"),
    ]
    refused(s, {"type": "dismiss", "creature": "m", "effect": "e1"})
    refused(s, {"type": "dismiss", "creature": "m", "effect": "e2"})


# ----------------------------------------------------------------------------------------------------------------
# Ready
# ----------------------------------------------------------------------------------------------------------------


READY = {"type": "ready", "creature": "m", "ability": "firebolt"}
COMPLETE = {"type": "complete_ready", "creature": "m", "target": "t"}


def test_ready_keeps_it_in_a_free_limb_without_effect_until_completed_as_a_minor_action() -> None:
    """seed-000 Ready: "Manifest a spell or Talent to keep it in your Free Limb without having any effect until you
    complete it as a Minor Action." Readying Firebolt: Magic 7, 2, 3 -> 7 (DL 6), 1 Energy, no attack yet; the left
    arm keeps it (no longer free). Completing it (a Minor Action) attacks t's Elude (5, 4) with 7: 3 damage dice
    3, 3, 3 -> 3 Injury."""
    s, events = run(field(), READY, [7, 2, 3])
    assert of_kind(events, "attack") == []
    arm = s.creatures["m"].limb("left_arm")
    assert arm is not None and arm.readied is not None and not arm.free
    assert arm.readied.roll.result == 7 and s.creatures["m"].energy.pips == 1
    s, events = run(s, COMPLETE, [5, 4, 3, 3, 3])
    assert only(events, "attack").rolls[0].result == 7
    assert s.creatures["t"].grit.pips == 3
    assert s.economy["m"].minor == 1
    arm = s.creatures["m"].limb("left_arm")
    assert arm is not None and arm.readied is None and arm.free


def test_paying_energy_before_completing_loses_the_readied_effect() -> None:
    """seed-000 Ready: "If you pay Energy before completing it, lose the effect." With 2 Major Actions (table), m
    Readies Firebolt (7, 2, 3) then Manifests Stone Skin (6, 1), paying Energy: the Readied Firebolt is lost."""
    two = TableSettings(defense_prompts="nobody", reactions=False, major_actions=2)
    s, _ = run(field(two), READY, [7, 2, 3])
    s, events = run(s, cast("stone_skin"), [6, 1])
    assert only(events, "ready_lost").data["ability"] == "Firebolt"
    assert all(lb.readied is None for lb in s.creatures["m"].limbs)
    refused(s, COMPLETE, [5, 4, 3, 3, 3])


def test_after_grit_injury_roll_manifest_dl_3_plus_injury_to_keep_it() -> None:
    """seed-000 Ready: "After suffering Grit Injury, roll Manifest to not lose the effect, DL 3 + Injury." The
    Soulweaver deals m 2 damage (5, 5 -> 2 Injury): Magic (Firebolt is a Spell) at DL 5: 4, 4, 2 -> lost;
    another time 5, 1, 2 -> kept."""
    s, _ = run(field(), READY, [7, 2, 3])
    harm = {"type": "harm", "target": "m", "amount": 2, "physical": True}
    lost, events = run(s, harm, [5, 5, 4, 4, 2])
    check = only(events, "ready_check")
    assert (check.data["dl"], check.data["kept"]) == (5, False)
    assert all(lb.readied is None for lb in lost.creatures["m"].limbs)
    kept, events = run(s, harm, [5, 5, 5, 1, 2])
    assert only(events, "ready_check").data["kept"] is True
    assert any(lb.readied is not None for lb in kept.creatures["m"].limbs)


def test_ready_needs_a_free_limb_even_for_a_talent() -> None:
    """seed-000 Ready: "keep it in your Free Limb": with both arms gripping, not even Stone Skin can be Readied."""
    busy = field(weapons=[weapon("sword"), weapon("shield")], grip={"left_arm": "sword", "right_arm": "shield"})
    refused(busy, {"type": "ready", "creature": "m", "ability": "stone_skin"}, [6, 2])


def test_a_failed_ready_keeps_nothing() -> None:
    """The Manifest roll of a Ready must reach DL 6 too: 5, 2, 3 -> nothing is kept, the Energy is spent."""
    s, _ = run(field(), READY, [5, 2, 3])
    assert all(lb.readied is None for lb in s.creatures["m"].limbs)
    assert s.creatures["m"].energy.pips == 1


# ----------------------------------------------------------------------------------------------------------------
# Hinder Spell
# ----------------------------------------------------------------------------------------------------------------


REACTING = TableSettings(defense_prompts="nobody", reactions=True)


def hinder_field() -> GameState:
    """m (red) at (5, 5) with h1 and h2 (blue) next to it, and t (blue) 3 spaces away (out of Reach)."""
    m = creature("m", (5, 5), skills=dict(SKILLS), abilities=KNOWN, side="red")
    h1 = creature("h1", (6, 5), side="blue")
    h2 = creature("h2", (4, 5), side="blue")
    t = creature("t", (8, 5), side="blue")
    return on_turn(state(m, h1, h2, t, settings=REACTING), "m")


def answer(s: GameState, hinder: bool, faces: list[int]) -> tuple[GameState, list[Any]]:
    return run(s, {"type": "react", "decision": s.pending[0].id, "hinder": hinder}, faces)


def test_hinder_spell_one_defense_for_all_and_minus_1_per_success() -> None:
    """seed-000 Hinder Spell: "As a creature in your Reach begins to Manifest a Spell, attack to cause -1 on their
    roll, DL 3. If multiple attackers hinder the same Spell, the creature rolls this defense only once and uses the
    same result against all." h1 (Martial 6, 2 -> 6) and h2 (Martial 3, 3 -> 3) hinder; m rolls one Magic defense
    4, 2, 1 -> 4: h1 succeeds, h2 fails (3 < 4). m's Firebolt: Magic 7, 3, 2 -> 7 - 1 = 6, still DL 6; it attacks
    t's Elude (2, 2) and deals 3 damage dice 3, 3, 3 -> 3 Injury."""
    s, events = run(hinder_field(), cast("firebolt", "t"), [])
    window = only(events, "reaction_window").data
    assert window["hinderers"] == ["h1", "h2"]
    assert window["decisions"] == [d.id for d in s.pending] == ["d2", "d3"], "one decision per hinderer, after r1"
    s, _ = answer(s, True, [])
    s, events = answer(s, True, [6, 2, 3, 3, 4, 2, 1, 7, 3, 2, 2, 2, 3, 3, 3])
    hinders = of_kind(events, "hinder")
    assert [e.data["success"] for e in hinders] == [True, False]
    assert hinders[0].rolls[1] == hinders[1].rolls[1]
    manifest = only(events, "manifest")
    assert [(m.value, m.reason) for m in manifest.rolls[0].modifiers] == [(-1, "Hindered by H1")]
    assert manifest.rolls[0].result == 6 and manifest.data["success"] is True
    assert s.creatures["t"].grit.pips == 3


def test_hinder_spell_can_make_the_manifest_fail() -> None:
    """seed-000 Hinder Spell "-1 on their roll": h1 hinders (6, 2 against Magic 4, 2, 1), h2 passes; m's Ward rolls
    6, 3, 2 -> 6 - 1 = 5, short of DL 6: no Ward, the Energy is spent."""
    s, _ = run(hinder_field(), cast("ward", "h1"), [])
    s, _ = answer(s, True, [])
    s, events = answer(s, False, [6, 2, 4, 2, 1, 6, 3, 2])
    assert only(events, "manifest").data["success"] is False
    assert s.effects == [] and s.creatures["m"].energy.pips == 1


def test_hinder_spell_triggers_on_spells_only() -> None:
    """seed-000: "begins to Manifest a Spell": Stone Skin is a Talent, so nobody may Hinder it."""
    s, events = run(hinder_field(), cast("stone_skin"), [6, 2])
    assert of_kind(events, "reaction_window") == [] and len(s.effects) == 1


def test_hinder_spell_also_triggers_on_readying_a_spell() -> None:
    """seed-000 Ready: "Manifest a spell ... to keep it": Readying is Manifesting, so a Spell can be Hindered."""
    _, events = run(hinder_field(), READY, [])
    assert only(events, "reaction_window").text.startswith("M begins to Manifest a Spell")


# ----------------------------------------------------------------------------------------------------------------
# legal_actions
# ----------------------------------------------------------------------------------------------------------------


def test_legal_actions_offer_manifest_with_targets_in_range_and_a_roll_preview() -> None:
    """Firebolt (range 6) reaches t, not 'far' nor m; its preview rolls Magic 3 dice at DL 6 against Elude and it
    may be Boosted. Stone Skin targets m alone and rolls Endure."""
    opts = manifest_options(field())
    fire = opts[("manifest", "firebolt")]
    assert fire.group == "Manifest" and fire.cost == {"major": 1, "energy": 1, "words": 1}
    assert [t.target for t in fire.targets] == ["t"]
    p = fire.targets[0].preview
    assert p is not None and (p.skill, p.dice, p.dl, p.defense_skill) == ("Magic", 3, 6, "Elude")
    assert fire.choose == ["boosted"] and fire.targets[0].choices == {"boosted": [False, True]}
    skin = opts[("manifest", "stone_skin")]
    assert [t.target for t in skin.targets] == ["m"]
    assert skin.targets[0].preview is not None and skin.targets[0].preview.skill == "Endure"
    assert ("ready", "firebolt") in opts and ("ready", "stone_skin") in opts


def test_legal_actions_show_the_vulnerable_dl() -> None:
    """seed-004 Vulnerable: +2 DL to Manifest abilities of the type: Firebolt's preview is DL 8 for m."""
    fire = manifest_options(field(vulnerabilities=["fire"]))[("manifest", "firebolt")]
    assert fire.targets[0].preview is not None and fire.targets[0].preview.dl == 8
    assert "Vulnerable to fire" in fire.targets[0].note


def test_legal_actions_follow_words_and_free_limbs() -> None:
    """No words left: no Spell offered, the Talent is. No Free Limb: no Spell and no Ready, the Talent is."""
    none = TableSettings(defense_prompts="nobody", reactions=False, words_per_turn=0)
    assert {k for k in manifest_options(field(none)) if k[0] == "manifest"} == {("manifest", "stone_skin")}
    one = TableSettings(defense_prompts="nobody", reactions=False, words_per_turn=1)
    fire = manifest_options(field(one))[("manifest", "firebolt")]
    assert fire.choose == [] and fire.targets[0].choices == {}
    busy = field(weapons=[weapon("sword"), weapon("shield")], grip={"left_arm": "sword", "right_arm": "shield"})
    assert set(manifest_options(busy)) == {("manifest", "stone_skin")}


def test_legal_actions_after_readying_offer_completion_and_no_more_major_actions() -> None:
    """After Readying Firebolt (7, 2, 3) the Major Action is spent: no Manifest or Ready; completing it is offered
    (a Minor Action) against t, with the Readied result as the preview."""
    s, _ = run(field(), READY, [7, 2, 3])
    opts = manifest_options(s)
    assert {k[0] for k in opts} == {"complete_ready"}
    (done,) = opts.values()
    assert done.cost == {"minor": 1} and [t.target for t in done.targets] == ["t"]
    p = done.targets[0].preview
    assert p is not None and p.dice == 0 and [m.value for m in p.modifiers] == [7]


def test_legal_actions_offer_dismiss_of_your_ongoing_abilities() -> None:
    """After Ward on t (6, 2, 3), m is offered to Dismiss it (Minor Action)."""
    s, _ = run(field(), cast("ward", "t"), [6, 2, 3])
    (d,) = [o for o in legal_actions(s, "m") if o.action == "dismiss"]
    assert d.cost == {"minor": 1} and d.params == {"effect": s.effects[0].id}
    assert [t.target for t in d.targets] == ["t"]


def test_every_offered_manifest_option_is_accepted() -> None:
    """legal_actions lists Manifest-group options exactly when legal: each offered option and target is accepted by
    apply (random dice), before and after Readying and Warding."""
    two = TableSettings(defense_prompts="nobody", reactions=False, major_actions=2)
    s0 = field(two)
    s1, _ = run(s0, READY, [7, 2, 3])
    s2, _ = run(s1, cast("ward", "t"), [6, 2, 3])
    for s in (s0, s1, s2):
        for o in legal_actions(s, "m"):
            if o.group != "Manifest":
                continue
            for t in o.targets:
                for boosted in t.choices.get("boosted", [False]):
                    cmd: dict[str, Any] = {"type": o.command or o.action, "creature": "m", "target": t.target}
                    cmd.update(o.params)
                    if o.action in {"manifest", "ready"}:
                        cmd["boosted"] = boosted
                    apply(s, cmd, RandomDice(1))


def test_dismiss_at_no_cost_is_offered_and_accepted() -> None:
    """Table setting `dismiss_cost` "none": Dismiss spends no action, so it is offered with the Minor Actions gone."""
    free = TableSettings(defense_prompts="nobody", reactions=False, dismiss_cost="none")
    s, _ = run(field(free), cast("ward", "t"), [6, 2, 3])
    s.economy["m"].minor = 0
    (d,) = [o for o in legal_actions(s, "m") if o.action == "dismiss"]
    assert d.cost == {}
    s, _ = run(s, {"type": "dismiss", "creature": "m", "effect": d.params["effect"], "target": "t"}, [])
    assert s.effects == []
