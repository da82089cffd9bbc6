"""Hand-worked tests of the pools (seed-004 "Energy", "Resolve", "Grit and Consciousness", "Dead"; reference §4.3):
Grit Pips spilling into Energy, Energy into Exhausted (with the risk of Ruptured Conduit), Resolve into Exhausted,
and what a full Energy or Resolve Pool allows.

Damage comes from the Soulweaver's `harm` command (faces: the damage dice, 3 or more is Injury); every Severe
Threshold is given, 12 unless a test says otherwise, so that no Serious Injury happens. Action tests run on the
turn of player creature `p` (Martial 2, Elude 2, Athletics 2, Zeal 1, gripping a sword of 2 damage) at (5, 5)
beside the Soulweaver's creature `n` (Elude 2) at (6, 5).
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, refused, run, state, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState, Hold
from vtt.rules.settings import TableSettings

NO_SERIOUS = 12
SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1}


def harm(amount: int, pool: str = "grit", **kw: Any) -> dict[str, Any]:
    return {"type": "harm", "target": "t", "amount": amount, "pool": pool, **kw}


def lone(**kw: Any) -> GameState:
    kw.setdefault("severe_threshold", NO_SERIOUS)
    return state(creature("t", (5, 5), **kw))


def fight(**p_kw: Any) -> GameState:
    p = creature(
        "p",
        (5, 5),
        skills=SKILLS,
        controller="alice",
        weapons=[weapon("sword", damage=2)],
        grip={"right_arm": "sword"},
        severe_threshold=NO_SERIOUS,
        **p_kw,
    )
    n = creature("n", (6, 5), skills=SKILLS, severe_threshold=NO_SERIOUS)
    return on_turn(state(p, n), "p")


STRIKE: dict[str, Any] = {"type": "strike", "creature": "p", "target": "n", "weapon": "sword"}
DASH: dict[str, Any] = {"type": "dash", "creature": "p"}
ZEAL: dict[str, Any] = {"type": "zeal_for_major", "creature": "p"}
RECOVER: dict[str, Any] = {"type": "recover", "creature": "p"}
FULL_RESOLVE = {"max": 6, "pips": 6}


# --------------------------------------------------------------------------------------------------------
# Grit -> Energy -> Exhausted
# --------------------------------------------------------------------------------------------------------


def test_grit_injury_adds_grit_pips() -> None:
    """seed-004 Dead: "After a creature has taken damage that fills their Grit Pool, further damage will apply to
    their Energy." Damage fills the Grit Pool first: Harm 2, faces 3, 3 -> Injury 2 -> Grit 2/6, Energy 0/6."""
    s, _ = run(lone(), harm(2), [3, 3])
    assert (s.creatures["t"].grit.pips, s.creatures["t"].energy.pips) == (2, 0)


def test_grit_pips_past_a_full_grit_pool_become_energy_pips() -> None:
    """seed-004 Grit and Consciousness: "For each Grit Pip you suffer while your Grit Pool is full, suffer 1 Energy
    Pip."
    Grit 3/4, Harm 3, faces 3, 4, 5 -> Injury 3: 1 fills Grit to 4/4, the other 2 are Energy Pips -> Energy 2/6,
    no Exhausted."""
    s, _ = run(lone(grit={"max": 4, "pips": 3}), harm(3), [3, 4, 5])
    t = s.creatures["t"]
    assert (t.grit.pips, t.energy.pips) == (4, 2)
    assert "Exhausted" not in t.ailments


def test_energy_pips_past_a_full_energy_pool_are_tier_1_exhausted_each() -> None:
    """seed-004 Energy: "For each Energy Pip you suffer while your Energy Pool is full, suffer Tier 1 Exhausted."
    Dead: "Once that is also full, damage will cause Exhausted."
    Grit 4/4, Energy 1/2. Harm 3, faces 3, 3, 3 -> Injury 3 -> 3 Energy Pips: 1 fills Energy to 2/2, the other 2
    are Tier 2 Exhausted."""
    s, _ = run(lone(grit={"max": 4, "pips": 4}, energy={"max": 2, "pips": 1}), harm(3), [3, 3, 3])
    t = s.creatures["t"]
    assert (t.grit.pips, t.energy.pips) == (4, 2)
    assert t.ailments["Exhausted"] == 2


def test_energy_pips_on_a_full_energy_pool_add_to_exhausted_and_count_the_ruptured_conduit_risk() -> None:
    """seed-004 Energy: "For each Energy Pip you suffer while your Energy Pool is full, suffer Tier 1 Exhausted.
    Suffering Energy Pips while your Energy Pool is full may cause the disease Ruptured Conduit."
    Energy 6/6 and Exhausted 1. Energy damage 2, faces 3, 3 -> 2 Energy Pips on a full pool -> Exhausted 1 + 2 =
    3 and 2 Pips that risk Ruptured Conduit. Again Energy damage 1, face 4 -> Exhausted 4, risk 3."""
    s, _ = run(lone(energy={"max": 6, "pips": 6}, ailments={"Exhausted": 1}), harm(2, "energy"), [3, 3])
    assert s.creatures["t"].ailments["Exhausted"] == 3
    assert s.creatures["t"].ruptured_conduit_risk == 2
    s, _ = run(s, harm(1, "energy"), [4])
    assert s.creatures["t"].ailments["Exhausted"] == 4
    assert s.creatures["t"].ruptured_conduit_risk == 3


def test_energy_pips_below_a_full_pool_carry_no_risk() -> None:
    """seed-004 Energy: only Pips suffered "while your Energy Pool is full" give Exhausted and the risk.
    Energy 3/6, Energy damage 2, faces 3, 3 -> Energy 5/6, no Exhausted, no risk."""
    s, _ = run(lone(energy={"max": 6, "pips": 3}), harm(2, "energy"), [3, 3])
    t = s.creatures["t"]
    assert t.energy.pips == 5
    assert "Exhausted" not in t.ailments
    assert t.ruptured_conduit_risk == 0


# --------------------------------------------------------------------------------------------------------
# Resolve -> Exhausted
# --------------------------------------------------------------------------------------------------------


def test_resolve_pips_past_a_full_resolve_pool_are_tier_1_exhausted_each() -> None:
    """seed-004 Resolve: "For each Resolve Pip you suffer while your Resolve Pool is full, suffer Tier 1
    Exhausted."
    Resolve 2/3, Resolve damage 3, faces 3, 3, 3 -> 1 fills Resolve to 3/3, 2 are Tier 2 Exhausted; Grit and
    Energy are untouched and Ruptured Conduit is not risked (that is Energy's)."""
    s, _ = run(lone(resolve={"max": 3, "pips": 2}), harm(3, "resolve"), [3, 3, 3])
    t = s.creatures["t"]
    assert (t.resolve.pips, t.grit.pips, t.energy.pips) == (3, 0, 0)
    assert t.ailments["Exhausted"] == 2
    assert t.ruptured_conduit_risk == 0


def test_resolve_and_energy_injury_cause_no_serious_injury() -> None:
    """seed-004 Serious Injury: "After suffering Grit Injury, the effect also causes Wounded Tiers ..." — only Grit
    Injury. Severe Threshold 0: Resolve damage 2 on the torso, faces 3, 3, and Energy damage 2 on the torso,
    faces 3, 3, cause no Wounded."""
    s, events = run(lone(severe_threshold=0), harm(2, "resolve", part="torso"), [3, 3])
    s, more = run(s, harm(2, "energy", part="torso"), [3, 3])
    assert not of_kind(events + more, "serious_injury")
    assert "Wounded" not in s.creatures["t"].ailments


# --------------------------------------------------------------------------------------------------------
# A full Energy Pool still pays costs
# --------------------------------------------------------------------------------------------------------


def test_a_full_energy_pool_does_not_prevent_paying_costs() -> None:
    """seed-004 Energy: "Your Energy Pool being full does not prevent you from paying costs."
    With Energy 6/6, p Dashes (a Minor Action: 1 left) and Strikes (its Major Action: 0 left): Martial 8, 2
    against Elude 4, 1: hit; damage faces 1, 1 -> Injury 0."""
    s, _ = run(fight(energy={"max": 6, "pips": 6}), DASH, [])
    s, events = run(s, STRIKE, [8, 2, 4, 1, 1, 1])
    assert of_kind(events, "attack")[0].data["success"] is True
    assert (s.economy["p"].major, s.economy["p"].minor) == (0, 1)


# --------------------------------------------------------------------------------------------------------
# A full Resolve Pool: only Recovery and the DL 12 Zeal roll
# --------------------------------------------------------------------------------------------------------


def test_a_full_resolve_pool_refuses_strikes_grabs_and_dash() -> None:
    """seed-004 Resolve: "While your Resolve Pool is full, the only actions you can use are Recovery and roll Zeal
    as a Minor Acton to be able to use a Major Action this turn, DL 12." """
    s = fight(resolve=FULL_RESOLVE)
    refused(s, STRIKE, [8, 2, 4, 1, 3, 3])
    refused(s, DASH)
    refused(s, {"type": "grab", "creature": "p", "target": "n"}, [8, 2, 4, 1])
    refused(s, {"type": "strike_space", "creature": "p", "space": (6, 5), "weapon": "sword"}, [4, 4, 9, 4, 1, 3, 3])


def test_a_full_resolve_pool_refuses_a_collision() -> None:
    """seed-004 Resolve: "the only actions you can use are Recovery and roll Zeal ..."; a Collision is an Overpower
    action (seed-000: "Overpower is a collection of physical actions"; Collision: "fill your Movement Pool to
    attack a target in the space"). p moving into n's space to collide is refused."""
    collide = {"type": "move", "creature": "p", "to": (6, 5), "collide_with": "n"}
    refused(fight(resolve=FULL_RESOLVE), collide, [9, 2, 4, 1, 3])


def test_recovery_is_allowed_on_a_full_resolve_pool() -> None:
    """seed-004 Resolve: "the only actions you can use are Recovery and ...". Recovery is a Major Action (reference
    §4.3 gap, ASSUMPTION): it is paid even with the Resolve Pool full."""
    s, events = run(fight(resolve=FULL_RESOLVE), RECOVER, [])
    assert of_kind(events, "recovery")
    assert s.economy["p"].major == 0


def test_the_dl_12_zeal_roll_is_a_minor_action_that_unlocks_a_major_action() -> None:
    """seed-004 Resolve: "... roll Zeal as a Minor Acton to be able to use a Major Action this turn, DL 12."
    Zeal 1d12: face 12 reaches DL 12; 1 Minor Action is left. The Strike is now allowed: Martial 8, 2 against
    Elude 4, 1: hit; damage faces 3, 1 -> Injury 1 to n."""
    s, events = run(fight(resolve=FULL_RESOLVE), ZEAL, [12])
    zeal = of_kind(events, "zeal")[0]
    assert (zeal.data["dl"], zeal.data["success"]) == (12, True)
    assert s.economy["p"].minor == 1
    s, _ = run(s, STRIKE, [8, 2, 4, 1, 3, 1])
    assert s.creatures["n"].grit.pips == 1
    assert s.economy["p"].major == 0


def test_a_failed_zeal_roll_still_refuses_the_major_action() -> None:
    """seed-004 Resolve: "... DL 12." Zeal face 11 is short of 12: the Minor Action is spent, the Strike refused."""
    s, events = run(fight(resolve=FULL_RESOLVE), ZEAL, [11])
    assert of_kind(events, "zeal")[0].data["success"] is False
    assert s.economy["p"].minor == 1
    refused(s, STRIKE, [8, 2, 4, 1, 3, 1])


def test_the_zeal_roll_unlocks_a_major_action_only_so_minor_actions_stay_refused() -> None:
    """seed-004 Resolve: the Zeal roll is "to be able to use a Major Action"; Dash is a Minor Action (reference
    §2.5 ASSUMPTION). After Zeal 12, Dash is still refused."""
    s, _ = run(fight(resolve=FULL_RESOLVE), ZEAL, [12])
    refused(s, DASH)


def test_the_zeal_roll_is_paid_with_minor_actions_until_none_are_left() -> None:
    """seed-004 Resolve: "roll Zeal as a Minor Acton". Two Minor Actions: faces 3 and 5 fail; a third roll has no
    Minor Action to pay with."""
    s, _ = run(fight(resolve=FULL_RESOLVE), ZEAL, [3])
    s, _ = run(s, ZEAL, [5])
    assert s.economy["p"].minor == 0
    refused(s, ZEAL, [12])


def test_the_zeal_roll_is_only_for_a_full_resolve_pool() -> None:
    """seed-004 Resolve: the roll exists "While your Resolve Pool is full". With Resolve 5/6 it is refused."""
    refused(fight(resolve={"max": 6, "pips": 5}), ZEAL, [12])


def test_the_menu_on_a_full_resolve_pool_offers_recovery_and_the_zeal_roll_only() -> None:
    """seed-004 Resolve: "While your Resolve Pool is full, the only actions you can use are Recovery and roll Zeal
    as a Minor Acton to be able to use a Major Action this turn, DL 12."
    legal_actions lists Recovery and the Zeal roll, and no Strike, Grab, Collision or Dash."""
    actions = {o.action for o in legal_actions(fight(resolve=FULL_RESOLVE), "p")}
    assert actions == {"recover", "zeal_for_major", "end_turn"}


def test_a_full_resolve_pool_refuses_actions_that_cost_nothing() -> None:
    """seed-004 Resolve: "While your Resolve Pool is full, the only actions you can use are Recovery and roll Zeal
    ...": not Drop Prone, nor stopping a Hold or Focus, nor declaring a Flurry (each costs no action here)."""
    s = fight(resolve=FULL_RESOLVE)
    refused(s, {"type": "drop_prone", "creature": "p"})
    refused(s, {"type": "flurry", "creature": "p", "number": 1})
    held = s.model_copy(deep=True)
    held.holds["h0"] = Hold(id="h0", holders={"p": ["left_arm"]}, held=["n"])
    refused(held, {"type": "drop_hold", "creature": "p"})
    focused = s.model_copy(deep=True)
    focused.creatures["p"].focus = "n"
    refused(focused, {"type": "drop_focus", "creature": "p"})


def test_a_full_resolve_pool_refuses_moving_and_standing_up_by_default() -> None:
    """seed-004 Resolve: "the only actions you can use are Recovery and roll Zeal"; whether moving is an action is a
    gap: table setting `full_resolve_moves`, False by default (the strict reading). p cannot move one space, nor,
    Prone, stand up paying half its Movement Pool; the menu offers neither."""
    s = fight(resolve=FULL_RESOLVE)
    refused(s, {"type": "move", "creature": "p", "to": (4, 5)})
    prone = fight(resolve=FULL_RESOLVE, prone=True)
    refused(prone, {"type": "stand_up", "creature": "p"})
    assert not {o.action for o in legal_actions(prone, "p")} & {"move", "stand_up"}


def test_with_full_resolve_moves_a_full_resolve_pool_still_moves_and_stands_up() -> None:
    """Table setting `full_resolve_moves` True: moving is no action. p (Prone, full Resolve) stands up for half its
    Movement Pool (5 // 2 = 2) and moves one space (Movement 3 of 5)."""
    s = fight(resolve=FULL_RESOLVE, prone=True)
    s.settings = s.settings.model_copy(update={"full_resolve_moves": True})
    assert {"move", "stand_up"} <= {o.action for o in legal_actions(s, "p")}
    s, _ = run(s, {"type": "stand_up", "creature": "p"}, [])
    s, _ = run(s, {"type": "move", "creature": "p", "to": (4, 5)}, [])
    assert s.creatures["p"].anchor == (4, 5)
    assert s.economy["p"].movement_spent == 3


def test_a_creature_on_a_full_resolve_pool_cannot_hinder() -> None:
    """seed-004 Resolve: "the only actions you can use are Recovery and roll Zeal"; seed-000 Hinder Attack is an
    attack made as a reaction. n (full Resolve) stands in reach of p, who strikes q: n is not offered the Hinder,
    so the Strike goes on at once (Martial 8, 2 against q's Elude 4, 1; damage 3, 1: 1 Injury to q)."""
    p = creature("p", (5, 5), skills=SKILLS, weapons=[weapon("sword")], grip={"right_arm": "sword"}, controller="a")
    q = creature("q", (6, 5), skills=SKILLS, controller="b", severe_threshold=NO_SERIOUS)
    n = creature("n", (5, 6), skills=SKILLS, resolve=FULL_RESOLVE, severe_threshold=NO_SERIOUS)
    s0 = on_turn(state(p, q, n, settings=TableSettings(defense_prompts="nobody", hinder_allies=True)), "p")
    s, _ = run(s0, {"type": "strike", "creature": "p", "target": "q", "weapon": "sword"}, [8, 2, 4, 1, 3, 1])
    assert s.pending == [] and s.reactions == {}
    assert s.creatures["q"].grit.pips == 1
    s0.creatures["n"].resolve = s0.creatures["n"].resolve.model_copy(update={"pips": 5})
    s, _ = run(s0, {"type": "strike", "creature": "p", "target": "q", "weapon": "sword"}, [])
    assert len(s.reactions) == 1


def test_recovery_counts_on_the_sheet_so_ap_may_be_assigned_after_it() -> None:
    """reference §4.3 Recovery: "Recovery is an action, and you can assign AP after each Recovery"; which Pips it
    removes is left to the Soulweaver (ASSUMPTION). Two turns' Recoveries: the sheet counts 2."""
    s, events = run(fight(resolve=FULL_RESOLVE), RECOVER, [])
    assert s.creatures["p"].recoveries == 1
    assert of_kind(events, "recovery")[0].data == {"recoveries": 1}
    s.economy["p"].major = 1
    s, _ = run(s, RECOVER, [])
    assert s.creatures["p"].recoveries == 2
