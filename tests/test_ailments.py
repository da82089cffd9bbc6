"""Hand-worked tests of Ailments (reference §5): their effects on rolls, their end-of-turn defense rolls, Slowed.

Creatures are size 0 with Martial 2, Elude 2, Athletics 2 (and Endure 2 where said); a Strike rolls Martial against
Elude at DL 3. Scripted faces are used in order: the attack roll, the defense roll, then damage dice; the Strikes
here miss, so no damage is rolled. Both creatures are the Soulweaver's, so they act on its turn and every
`end_turn` ends a turn of both.
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, only, run, state, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

END = {"type": "end_turn"}
SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1, "Endure": 2, "Nature": 1}


def field(
    a_ailments: dict[str, int] | None = None,
    d_ailments: dict[str, int] | None = None,
    settings: TableSettings | None = None,
    **a_kw: Any,
) -> GameState:
    """a at (6, 5) with a sword (2 damage dice) next to d at (5, 5), on the Soulweaver's turn."""
    a = creature(
        "a",
        (6, 5),
        skills=dict(SKILLS),
        weapons=[weapon("sword")],
        grip={"right_arm": "sword"},
        ailments=a_ailments or {},
        **a_kw,
    )
    d = creature("d", (5, 5), skills=dict(SKILLS), ailments=d_ailments or {})
    return on_turn(state(a, d, settings=settings), "a")


STRIKE = {"type": "strike", "creature": "a", "target": "d", "weapon": "sword"}


def mods(event_roll: Any) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in event_roll.modifiers]


def test_dazzled_is_a_penalty_of_1_plus_tier_over_3_on_attack_rolls() -> None:
    """reference §5.2 Dazzled: "Penalty of 1 + Tier/3 on attack, Manifest and Observe rolls." Tier 3 is -2:
    a's Martial 6, 1 -> 6 - 2 = 4 against d's Elude 5, 2 -> 5: the Strike misses."""
    _, events = run(field({"Dazzled": 3}), STRIKE, [6, 1, 5, 2])
    attack = only(events, "attack")
    assert mods(attack.rolls[0]) == [(-2, "Dazzled (Tier 3): 1 + Tier/3 on attack rolls")]
    assert attack.rolls[0].result == 4
    assert attack.data["success"] is False


def test_unstable_is_half_tier_on_defenses_against_physical_attacks() -> None:
    """reference §5.2 Unstable (ASSUMPTION: the older Unsteady): "a half-Tier penalty on defense rolls against
    physical attacks". d at Unstable 5 has -2: a's 6, 1 -> 6 against d's 7, 2 -> 7 - 2 = 5: the Strike hits
    (damage 3, 1: 1 Injury)."""
    _, events = run(field(d_ailments={"Unstable": 5}), STRIKE, [6, 1, 7, 2, 3, 1])
    attack = only(events, "attack")
    assert mods(attack.rolls[1]) == [(-2, "Unstable (Tier 5): Tier/2 on defenses against physical attacks")]
    assert attack.data["success"] is True


def test_crowded_is_a_penalty_equal_to_tier_on_attacks_and_defenses_that_use_limbs() -> None:
    """reference §5.2 Crowded, ASSUMPTION: "penalty equal to Tier on attack rolls and on defenses that use limbs".
    Both at Crowded 2: a's 8, 1 -> 6 against d's Elude 8, 2 -> 6: a tie, the defender wins."""
    _, events = run(field({"Crowded": 2}, {"Crowded": 2}), STRIKE, [8, 1, 8, 2])
    attack = only(events, "attack")
    assert mods(attack.rolls[0]) == [(-2, "Crowded (Tier 2) on attack rolls")]
    assert mods(attack.rolls[1]) == [(-2, "Crowded (Tier 2) on an Elude defense")]
    assert attack.data["success"] is False


def test_exhausted_is_a_penalty_equal_to_tier_on_skill_rolls() -> None:
    """reference §5.2 Exhausted: "Penalty equal to Tier on Skill rolls." a at Exhausted 1 and d at Exhausted 3:
    a's 6, 1 -> 5 against d's 9, 2 -> 6: the Strike misses."""
    _, events = run(field({"Exhausted": 1}, {"Exhausted": 3}), STRIKE, [6, 1, 9, 2])
    attack = only(events, "attack")
    assert mods(attack.rolls[0]) == [(-1, "Exhausted (Tier 1) on Skill rolls")]
    assert mods(attack.rolls[1]) == [(-3, "Exhausted (Tier 3) on Skill rolls")]


def test_prone_is_minus_1d12_on_physical_attacks() -> None:
    """reference §5.3 Prone, ASSUMPTION: "-1d12 on physical attacks." Prone a rolls 1 die for Martial 2:
    a's 6 against d's 7, 2: a miss."""
    _, events = run(field(prone=True), STRIKE, [6, 7, 2])
    attack = only(events, "attack").rolls[0]
    assert (attack.base_dice, attack.dice) == (2, 1)
    assert [c.reason for c in attack.dice_changes] == ["Prone: -1d12 on physical attacks"]


def test_prone_gives_melee_attackers_plus_1() -> None:
    """reference §5.3 Prone, ASSUMPTION: "Melee attackers against you get +1". d is Prone: a's 6, 1 -> 7 against
    d's 7, 2: a tie, the defender wins."""
    s = field()
    s.creatures["d"].prone = True
    _, events = run(s, STRIKE, [6, 1, 7, 2])
    attack = only(events, "attack")
    assert mods(attack.rolls[0]) == [(1, "D is Prone: +1 to melee attackers")]


def test_legal_actions_previews_show_ailment_modifiers_and_dice() -> None:
    """The preview of a Strike is its plan: Prone a at Dazzled 1 loses a d12 and has -1."""
    previews = [
        t.preview
        for o in legal_actions(field({"Dazzled": 1}, prone=True), "a")
        if o.action == "strike"
        for t in o.targets
        if t.target == "d" and t.preview is not None and "Sword" in t.preview.label
    ]
    (preview,) = previews
    assert [(m.value, m.reason) for m in preview.modifiers] == [(-1, "Dazzled (Tier 1): 1 + Tier/3 on attack rolls")]
    assert [c.dice for c in preview.dice_changes] == [-1]


def test_an_ailment_rolls_its_defense_when_the_turn_ends_and_success_lowers_it_by_1_tier() -> None:
    """reference §5.1: "When your turn ends, each Ailment gets a defense roll with its listed skill; success drops
    it by 1 Tier, at DL 6 + Tier". d's Dazzled 2 (Endure) is DL 8: Endure 8, 3 -> 8 drops it to Tier 1."""
    s, events = run(field(d_ailments={"Dazzled": 2}), END, [8, 3])
    e = only(events, "ailment_roll")
    assert e.data == {"ailment": "Dazzled", "dl": 8, "success": True, "tier": 1}
    assert e.rolls[0].label == "D: Endure against Dazzled"
    assert s.creatures["d"].ailments == {"Dazzled": 1}


def test_each_earlier_consecutive_failure_lowers_the_ailment_dl_by_1() -> None:
    """reference §5.1: "at DL 6 + Tier - 1 for each earlier consecutive failure". d's Dazzled 1: DL 7, failed with
    6, 1; then DL 6, failed with 5, 5 (doubles do not matter); then DL 5, 5, 2 succeeds and Dazzled is gone."""
    s, events = run(field(d_ailments={"Dazzled": 1}), END, [6, 1])
    assert only(events, "ailment_roll").data["dl"] == 7
    assert s.creatures["d"].ailment_failures == {"Dazzled": 1}
    s, events = run(s, END, [5, 5])
    assert only(events, "ailment_roll").data == {"ailment": "Dazzled", "dl": 6, "success": False, "tier": 1}
    s, events = run(s, END, [5, 2])
    assert only(events, "ailment_roll").data == {"ailment": "Dazzled", "dl": 5, "success": True, "tier": 0}
    assert s.creatures["d"].ailments == {}
    assert s.creatures["d"].ailment_failures == {}


def test_counting_and_clearing_failures_leaves_every_earlier_state_as_it_was() -> None:
    """The failures are counted in a new dict of the state each command makes (a creature's copy shares the dict,
    `txn._REPLACED`): d's Dazzled 1 fails twice (DL 7, 6), then succeeds (DL 5); every state before keeps its own
    count."""
    first = field(d_ailments={"Dazzled": 1})
    once, _ = run(first, END, [6, 1])
    twice, _ = run(once, END, [5, 5])
    cleared, _ = run(twice, END, [5, 2])
    counts = [s.creatures["d"].ailment_failures for s in (first, once, twice, cleared)]
    assert counts == [{}, {"Dazzled": 1}, {"Dazzled": 2}, {}]


def test_ailments_without_a_listed_defense_or_with_their_own_rules_do_not_roll() -> None:
    """reference §5.2: Exhausted, Crowded and Strangled list no defense; Wounded has its own rules; Unaware lists
    none. Ending the turn rolls no defense for them. (Trauma rolls Endure: see test_exhaustion_death; Burning rolls
    its own Tier d12: see test_enraged_burning_muted.)"""
    d = {"Exhausted": 2, "Crowded": 2, "Wounded": 1, "Unaware": 3, "Strangled": 1}
    s, events = run(field(d_ailments=d), END, [])
    assert of_kind(events, "ailment_roll") == []
    assert s.creatures["d"].ailments == d


def test_ailment_defenses_the_newer_revision_does_not_show_are_table_settings() -> None:
    """reference §5.2 Muted "(likely Nature)", Unstable "(older Unsteady: Endure)": table setting
    `ailment_defenses`. Muted 1 rolls Nature at DL 7 (a single die: 7 succeeds); with Muted given Zeal, Zeal."""
    s, events = run(field(d_ailments={"Muted": 1}), END, [7])
    assert only(events, "ailment_roll").rolls[0].label == "D: Nature against Muted"
    assert s.creatures["d"].ailments == {}
    zeal = TableSettings(defense_prompts="nobody", reactions=False, ailment_defenses={"Muted": "Zeal"})
    _, events = run(field(d_ailments={"Muted": 1}, settings=zeal), END, [2])
    assert only(events, "ailment_roll").rolls[0].label == "D: Zeal against Muted"


def test_ailment_reduction_can_be_turned_off() -> None:
    """Table setting `ailment_reduction` False: no end-of-turn defense rolls."""
    off = TableSettings(defense_prompts="nobody", reactions=False, ailment_reduction=False)
    s, events = run(field(d_ailments={"Dazzled": 2}, settings=off), END, [])
    assert of_kind(events, "ailment_roll") == []
    assert s.creatures["d"].ailments == {"Dazzled": 2}


def test_slowed_fills_tier_over_2_movement_pips_as_the_turn_starts() -> None:
    """reference §5.2 Slowed, ASSUMPTION: "at the start of your turn, Tier/2 Movement Pips". a at Slowed 5 (Zeal 1,
    failing its DL 11 roll with 2) starts the next turn with 2 of its 5 spaces spent."""
    s, events = run(field({"Slowed": 5}), END, [2])
    assert only(events, "slowed").data == {"pips": 2, "movement_left": 3}
    econ = s.economy["a"]
    assert (econ.movement_spent, econ.movement_max) == (2, 5)
