"""Hand-worked tests of death by Exhaustion on every Endure roll, and of Trauma's Endure roll (seed-004 Dead).

seed-004 Dead: "Exhausted causes you to die if you Fumble an Endure roll while it is Tier 12 or higher. The Endure
roll commonly comes from Trauma." A roll is its highest face plus modifiers; more than half the dice showing 1 is a
Fumble (reference §1.5). The wake roll and Heat's roll are pinned in test_unconscious.py; here: a defense, an
ailment's defense at the end of a turn, Trauma's own roll, a Talent's Manifest roll and a Readied Talent's roll
after a minute.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, run, state, weapon

from vtt.rules.dice import Roll
from vtt.rules.model import GameState, Pool, Readied
from vtt.rules.settings import TableSettings

NO_SERIOUS = 12
END: dict[str, Any] = {"type": "end_turn"}


def lone(**kw: Any) -> GameState:
    """t (Endure 2) alone, on its own turn."""
    t = creature("t", (5, 5), controller="alice", skills={"Endure": 2}, severe_threshold=NO_SERIOUS, **kw)
    return on_turn(state(t), "t")


def test_a_fumbled_endure_defense_at_exhausted_12_kills() -> None:
    """seed-004 Dead: "Exhausted causes you to die if you Fumble an Endure roll while it is Tier 12 or higher."
    Table setting: a Strike attacks Endure. a (Martial 2) strikes t (Endure 2, Exhausted 12): attack 8, 2; t's
    Endure defense 1, 1 is a Fumble: t dies (and the Strike, which the Fumble lets through, deals its 2 damage
    dice, 2, 2: no Injury)."""
    sword = weapon("sword", damage=2)
    a = creature("a", (5, 5), weapons=[sword], grip={"right_arm": "sword"}, severe_threshold=NO_SERIOUS)
    t = creature("t", (6, 5), skills={"Endure": 2}, ailments={"Exhausted": 12}, severe_threshold=NO_SERIOUS)
    settings = TableSettings(defense_prompts="nobody", reactions=False, strike_defense="Endure")
    s, events = run(
        on_turn(state(a, t, settings=settings), "a"),
        {"type": "strike", "creature": "a", "target": "t", "weapon": "sword"},
        [8, 2, 1, 1, 2, 2],
    )
    assert len(of_kind(events, "dead")) == 1
    assert s.creatures["t"].dead is True


def test_a_fumbled_defense_with_another_skill_does_not_kill() -> None:
    """seed-004 Dead: only "an Endure roll". The same Strike against Elude (the default): t's Elude 1, 1 is a
    Fumble, t is hit (damage 2, 2: no Injury) but lives."""
    sword = weapon("sword", damage=2)
    a = creature("a", (5, 5), weapons=[sword], grip={"right_arm": "sword"}, severe_threshold=NO_SERIOUS)
    t = creature("t", (6, 5), skills={"Endure": 2, "Elude": 2}, ailments={"Exhausted": 12}, severe_threshold=NO_SERIOUS)
    s, events = run(
        on_turn(state(a, t), "a"),
        {"type": "strike", "creature": "a", "target": "t", "weapon": "sword"},
        [8, 2, 1, 1, 2, 2],
    )
    assert not of_kind(events, "dead")
    assert s.creatures["t"].dead is False


def test_a_fumbled_endure_roll_against_an_ailment_at_exhausted_12_kills() -> None:
    """seed-004 Dead: "... if you Fumble an Endure roll while it is Tier 12 or higher." Dazzled rolls Endure when
    the turn ends (reference §5.1). t has Dazzled 1 and Exhausted 12: Endure 1, 1 is a Fumble: t dies; Dazzled
    stays (a corpse keeps its ailments)."""
    s, events = run(lone(ailments={"Dazzled": 1, "Exhausted": 12}), END, [1, 1])
    assert len(of_kind(events, "dead")) == 1
    assert s.creatures["t"].dead is True
    assert s.creatures["t"].ailments == {"Dazzled": 1, "Exhausted": 12}


def test_trauma_rolls_endure_when_the_turn_ends_and_a_fumble_at_exhausted_12_kills() -> None:
    """seed-004 Dead: "The Endure roll commonly comes from Trauma." t has Trauma 2 and Exhausted 12: as its turn
    ends Trauma rolls Endure (DL 6 + 2 = 8): 1, 1 is a Fumble: t dies."""
    s, events = run(lone(ailments={"Trauma": 2, "Exhausted": 12}), END, [1, 1])
    roll_event = of_kind(events, "ailment_roll")[0]
    assert roll_event.data["ailment"] == "Trauma"
    assert roll_event.data["dl"] == 8
    assert s.creatures["t"].dead is True


def test_trauma_lowers_by_1_on_a_successful_endure_roll() -> None:
    """reference §5.1: success drops the Ailment by 1 Tier, DL 6 + Tier. Trauma 2 (DL 8): Endure 9, 1 -> 9, Trauma
    drops to 1; no damage."""
    s, events = run(lone(ailments={"Trauma": 2}), END, [9, 1])
    assert of_kind(events, "ailment_roll")[0].data["success"] is True
    assert s.creatures["t"].ailments == {"Trauma": 1}
    assert s.creatures["t"].energy.pips == 0


def test_a_failed_trauma_roll_deals_half_its_tier_as_energy_damage() -> None:
    """reference §5.2 Trauma (older revision): failing the defense deals half-Tier Energy damage. Trauma 4 (DL 10):
    Endure 2, 3 -> 3 fails; 4 / 2 = 2 damage dice 3, 5: both reach 3, 2 Energy Injury; Grit untouched."""
    s, events = run(lone(ailments={"Trauma": 4}), END, [2, 3, 3, 5])
    assert of_kind(events, "ailment_roll")[0].data["success"] is False
    t = s.creatures["t"]
    assert t.ailments == {"Trauma": 4}
    assert t.energy.pips == 2
    assert t.grit.pips == 0
    assert t.dead is False


def test_trauma_energy_damage_can_be_turned_off() -> None:
    """Table setting `trauma_energy_damage` off: Trauma 4 fails its roll (2, 3 against DL 10) and deals nothing."""
    t = creature("t", (5, 5), controller="alice", skills={"Endure": 2}, ailments={"Trauma": 4})
    settings = TableSettings(defense_prompts="nobody", reactions=False, trauma_energy_damage=False)
    s, _ = run(on_turn(state(t, settings=settings), "t"), END, [2, 3])
    assert s.creatures["t"].energy.pips == 0


def test_a_fumbled_talent_manifest_roll_at_exhausted_12_kills() -> None:
    """seed-004 Dead, and reference §4.1: a Talent's Manifest roll is Endure. m (Endure 2, Exhausted 12) Manifests
    Stone Skin: 1, 1 is a Fumble: m dies and no effect starts."""
    m = creature(
        "m",
        (5, 5),
        skills={"Endure": 2},
        abilities=["stone_skin"],
        ailments={"Exhausted": 12},
        energy=Pool(max=6, pips=0),
    )
    s, events = run(on_turn(state(m), "m"), {"type": "manifest", "creature": "m", "ability": "stone_skin"}, [1, 1])
    assert len(of_kind(events, "dead")) == 1
    assert s.creatures["m"].dead is True
    assert s.effects == []


def test_a_fumbled_spell_manifest_roll_does_not_kill() -> None:
    """seed-004 Dead: only "an Endure roll"; a Spell's Manifest rolls Magic. m (Magic 2, Exhausted 12) Manifests
    Ward on itself: Magic 1, 1 is a Fumble and fails, m lives."""
    m = creature("m", (5, 5), skills={"Magic": 2, "Endure": 2}, abilities=["ward"], ailments={"Exhausted": 12})
    s, events = run(
        on_turn(state(m), "m"), {"type": "manifest", "creature": "m", "ability": "ward", "target": "m"}, [1, 1]
    )
    assert not of_kind(events, "dead")
    assert s.creatures["m"].dead is False


def test_a_fumbled_endure_roll_to_keep_a_readied_talent_at_exhausted_12_kills() -> None:
    """seed-000 Ready: "After each minute, roll Manifest to not lose the effect"; a Talent's Manifest is Endure;
    seed-004 Dead. m (Endure 2, Exhausted 12) keeps Battle Fury Ready; a minute passes: Endure 1, 1 is a Fumble:
    m dies."""
    m = creature("m", (5, 5), skills={"Endure": 2}, abilities=["battle_fury"], ailments={"Exhausted": 12})
    arm = m.limb("left_arm")
    assert arm is not None
    arm.readied = Readied(ability="battle_fury", roll=Roll(label="Manifest", base_dice=2, faces=(7, 2)), dl=6)
    s, events = run(state(m), {"type": "pass_time", "minutes": 1}, [1, 1])
    assert len(of_kind(events, "dead")) == 1
    assert s.creatures["m"].dead is True
