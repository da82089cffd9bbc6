"""Hand-worked tests of Enraged, Burning and Muted (vtt/rules/enraged.py, burning.py, ailments.speech_error).

Rules (reference §5.2, the Ailments pages):
- Enraged: "Penalty equal to Tier on Knowledge rolls. You cannot roll fewer damage dice, must Focus, and can only
  target subjects of your Focus." Knowledge rolls: table setting `knowledge_skills` (Magic).
- Burning: "Causes continuing Heat damage equal to half its Tier. When your turn ends, roll Tier d12 at DL 9:
  success +1 Tier; failing by 6 or more -1 Tier. Removed when surrounded by water." seed-004: Continuing Damage
  is dealt on the Soulweaver's turn.
- Muted (the older Mute): "lowered the sound Tier you can speak by half Tier"; speech is table setting
  `speech_magnitude` (2).

Scripted faces are used in order; a roll's result is its highest face plus modifiers.
"""

from __future__ import annotations

from typing import Any

from factories import creature, mod_values, of_kind, on_turn, only, refused, run, state, weapon
from test_legal_choices import commands

from vtt.rules.dice import RandomDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

QUIET = TableSettings(defense_prompts="nobody", reactions=False)
SKILLS = {"Magic": 3, "Endure": 2, "Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1, "Guile": 2, "Observe": 2}
SWORD = weapon("sword", damage=2)


def field(**a_kw: Any) -> GameState:
    """a (Magic 3, knows Ward and Stone Skin) at (5, 5) gripping a sword; t at (6, 5) and u at (5, 6), both
    beside it."""
    a = creature(
        "a",
        (5, 5),
        skills=dict(SKILLS),
        weapons=[SWORD],
        grip={"right_arm": "sword"},
        abilities=["ward", "stone_skin"],
        **a_kw,
    )
    return on_turn(state(a, creature("t", (6, 5)), creature("u", (5, 6)), settings=QUIET), "a")


def strike(target: str, **kw: Any) -> dict[str, Any]:
    return {"type": "strike", "creature": "a", "target": target, "weapon": "sword", **kw}


# --------------------------------------------------------------------------------------------------------
# Enraged
# --------------------------------------------------------------------------------------------------------


def test_enraged_is_a_penalty_equal_to_its_tier_on_knowledge_rolls() -> None:
    """Enraged: "Penalty equal to Tier on Knowledge rolls"; Magic is a Knowledge skill (`knowledge_skills`). a,
    Enraged Tier 2 and Focused on t, Manifests Ward on t with Magic: 3 dice, faces 7, 2, 3 -> 7 - 2 = 5, short of
    DL 6: no effect."""
    s, events = run(
        field(ailments={"Enraged": 2}, focus="t"),
        {"type": "manifest", "creature": "a", "ability": "ward", "target": "t"},
        [7, 2, 3],
    )
    manifest = only(events, "manifest")
    assert mod_values(manifest) == [-2]
    assert manifest.data["success"] is False
    assert s.effects == []


def test_enraged_penalty_follows_the_knowledge_skills_setting() -> None:
    """With `knowledge_skills` ["Elude"], t's Elude defense against a's Strike is a Knowledge roll: t Enraged
    Tier 1: Martial 5, 1 -> 5 against Elude 5, 2 -> 5 - 1 = 4: a hit; damage faces 1, 1, no Injury."""
    s0 = field()
    s0 = s0.model_copy(update={"settings": s0.settings.model_copy(update={"knowledge_skills": ["Elude"]})})
    s0.creatures["t"].ailments["Enraged"] = 1
    _, events = run(s0, strike("t"), [5, 1, 5, 2, 1, 1])
    attack = only(events, "attack")
    assert mod_values(attack, 1) == [-1]
    assert attack.data["success"] is True


def test_enraged_must_focus_before_it_targets_anything() -> None:
    """Enraged: "must Focus": with no Focus a Strike is refused, nothing changes; Focus (a Minor Action) is open."""
    s0 = field(ailments={"Enraged": 1})
    refused(s0, strike("t"), [9, 1, 1, 1, 1, 1])
    s, _ = run(s0, {"type": "focus", "creature": "a", "target": "t"}, [])
    assert s.creatures["a"].focus == "t"


def test_enraged_can_only_target_its_focus() -> None:
    """Enraged: "can only target subjects of your Focus". Focused on t: a Strike on u is refused; on t it goes
    (Martial 5, 1 -> 5 against Elude 2, 1 -> 2: a hit; damage 3, 1 -> Injury 1)."""
    s0 = field(ailments={"Enraged": 1}, focus="t")
    refused(s0, strike("u"), [9, 1, 1, 1, 1, 1])
    s, _ = run(s0, strike("t"), [5, 1, 2, 1, 3, 1])
    assert s.creatures["t"].grit.pips == 1


def test_enraged_cannot_target_a_space_that_is_not_its_focus() -> None:
    """Focused on t, a targeted attack on a space, or a Strike on the ground, is not its Focus: refused. Focused on
    the space (4, 5), a Strike on the ground there goes (Martial 4, 1 -> 4 - 1 = 3 against defense 0: a hit;
    damage 1, 1)."""
    s0 = field(ailments={"Enraged": 1}, focus="t")
    refused(s0, {"type": "strike_space", "creature": "a", "space": (6, 5), "weapon": "sword"}, [5, 5, 5] * 3)
    ground = {"type": "strike", "creature": "a", "space": (4, 5), "surface": "ground", "weapon": "sword"}
    refused(s0, ground, [9, 9, 9, 9])
    s1 = field(ailments={"Enraged": 1}, focus_space=(4, 5))
    _, events = run(s1, ground, [4, 1, 1, 1])
    assert only(events, "attack").data["success"] is True


def test_enraged_cannot_roll_fewer_damage_dice_nor_drop_its_focus() -> None:
    """Enraged: "You cannot roll fewer damage dice, must Focus": a Strike asking for fewer dice and dropping its
    Focus are both refused."""
    s0 = field(ailments={"Enraged": 1}, focus="t")
    refused(s0, strike("t", max_dice=1), [9, 1, 1, 1, 1])
    refused(s0, {"type": "drop_focus", "creature": "a"})


def test_enraged_menu_offers_only_its_focus_and_every_offer_is_accepted() -> None:
    """The menu of a creature Enraged and Focused on t: no Drop Focus, no choice of fewer damage dice, no option
    naming u; every command the menu would send is accepted."""
    s0 = field(ailments={"Enraged": 1}, focus="t")
    options = legal_actions(s0, "a")
    assert "drop_focus" not in {o.action for o in options}
    strike_option = next(o for o in options if o.action == "strike")
    assert [t.target for t in strike_option.targets] == ["t"]
    assert "max_dice" not in strike_option.choose
    for o in options:
        if o.action == "focus":
            continue
        assert all(t.target in (None, "a", "t") for t in o.targets), o.label
        for cmd in commands(o, "a"):
            apply(s0, cmd, RandomDice(3))


# --------------------------------------------------------------------------------------------------------
# Burning
# --------------------------------------------------------------------------------------------------------

END: dict[str, Any] = {"type": "end_turn"}


def burning(t: int, **p_kw: Any) -> GameState:
    """Player creature p (Burning Tier t) on its turn at (5, 5); the Soulweaver's n far away."""
    p = creature("p", (5, 5), controller="alice", ailments={"Burning": t}, **p_kw)
    return on_turn(state(p, creature("n", (12, 12)), settings=QUIET), "p")


def test_burning_spreads_on_a_9_as_the_turn_ends_and_burns_half_its_tier_on_the_soulweavers_turn() -> None:
    """Burning Tier 3: "When your turn ends, roll Tier d12 at DL 9: success +1 Tier": 3d12, faces 9, 2, 1 -> 9:
    Tier 4. Then the Soulweaver's turn starts and "continuing Heat damage equal to half its Tier": 4 / 2 = 2d12 of
    Heat, faces 3, 1 -> Injury 1: p has 1 Grit Pip."""
    s, events = run(burning(3), END, [9, 2, 1, 3, 1])
    roll_event = only(events, "burning")
    assert roll_event.rolls[0].dice == 3
    assert s.creatures["p"].ailments["Burning"] == 4
    damage = only(events, "damage")
    assert damage.rolls[0].dice == 2
    assert "heat" in damage.data["types"]
    assert s.creatures["p"].grit.pips == 1


def test_burning_dies_down_on_failing_by_6_or_more_and_holds_otherwise() -> None:
    """ "failing by 6 or more -1 Tier": Tier 3, faces 3, 2, 1 -> 3 = 9 - 6: Tier 2; then 1d12 Heat (2 / 2),
    face 1: no Injury. Tier 3, faces 5, 1, 1 -> 5: fails by 4, it holds at 3; 1d12 Heat (3 / 2), face 2."""
    s, _ = run(burning(3), END, [3, 2, 1, 1])
    assert s.creatures["p"].ailments["Burning"] == 2
    s, _ = run(burning(3), END, [5, 1, 1, 2])
    assert s.creatures["p"].ailments["Burning"] == 3


def test_burning_tier_1_going_out_deals_no_damage() -> None:
    """Tier 1, face 2 -> fails DL 9 by 7: -1 Tier, Burning is gone; nothing is dealt on the Soulweaver's turn (and
    Tier 1 would have dealt half of 1 = 0 dice anyway)."""
    s, events = run(burning(1), END, [2])
    assert "Burning" not in s.creatures["p"].ailments
    assert of_kind(events, "damage") == []


def test_burning_is_removed_when_surrounded_by_water() -> None:
    """ "Removed when surrounded by water": p (size 0, one space) walks into the water at (4, 5): Burning ends."""
    p = creature("p", (5, 5), controller="alice", ailments={"Burning": 3})
    s0 = on_turn(state(p, creature("n", (12, 12)), settings=QUIET, water={(4, 5)}), "p")
    s, events = run(s0, {"type": "move", "creature": "p", "to": (4, 5)}, [])
    assert "Burning" not in s.creatures["p"].ailments
    assert only(events, "burning").data["tier"] == 0


# --------------------------------------------------------------------------------------------------------
# Muted
# --------------------------------------------------------------------------------------------------------


def test_muted_tier_4_cannot_speak_the_words_of_a_spell() -> None:
    """Muted lowers the sound Tier you can speak by half its Tier: Tier 4 takes speech (sound Tier 2) to 0: Ward
    (a Spell, 1 word) is refused and not offered; Stone Skin (a Talent, no words) is still offered."""
    s0 = field(ailments={"Muted": 4})
    refused(s0, {"type": "manifest", "creature": "a", "ability": "ward", "target": "t"}, [9, 9, 9])
    offered = {o.params.get("ability") for o in legal_actions(s0, "a") if o.group == "Manifest"}
    assert "ward" not in offered
    assert "stone_skin" in offered


def test_muted_tier_2_still_speaks_at_a_lower_sound_tier() -> None:
    """Muted Tier 2: half is 1, speech drops to sound Tier 1 and can still be spoken: Ward goes, Magic 6, 2, 3 ->
    6: DL 6, the effect starts."""
    s, events = run(
        field(ailments={"Muted": 2}), {"type": "manifest", "creature": "a", "ability": "ward", "target": "t"}, [6, 2, 3]
    )
    assert only(events, "manifest").data["success"] is True
    assert [e.ability for e in s.effects] == ["ward"]


def test_muted_cannot_distract_by_speaking() -> None:
    """Distract rides on "After you use an action or speak" (seed-000): a creature that cannot speak (Muted Tier 4)
    is refused the speaking Distract and the menu does not offer speaking."""
    s0 = field(ailments={"Muted": 4})
    refused(s0, {"type": "distract", "creature": "a", "targets": ["t"], "action": "speak"}, [9, 1, 1, 1])
    for o in legal_actions(s0, "a"):
        if o.action == "distract":
            assert all("speak" not in t.choices.get("action", []) for t in o.targets)


def test_enraged_is_offered_a_hinder_only_against_its_focus() -> None:
    """Enraged "can only target subjects of your Focus"; a Hinder attacks the creature it hinders. a (blue) moves
    past h (red, beside it): h Enraged and Focused on t is not asked to Hinder a, and a moves at once; Focused on a,
    it is asked."""
    reacting = TableSettings(defense_prompts="nobody", reactions=True)

    def table(focus: str) -> GameState:
        a = creature("a", (5, 5), side="blue")
        h = creature("h", (4, 5), side="red", ailments={"Enraged": 1}, focus=focus)
        return on_turn(state(a, h, creature("t", (12, 12), side="red"), settings=reacting), "a")

    move = {"type": "move", "creature": "a", "to": [6, 4]}
    s, _ = run(table("t"), move, [])
    assert s.pending == [] and s.creatures["a"].anchor == (6, 4)
    s, _ = run(table("a"), move, [])
    assert [d.creature for d in s.pending] == ["h"]
