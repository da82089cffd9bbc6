"""The token menu's rows (issue 5: "the menu lists one entry per weapon/limb for each action, which gets long"):
the rules' options that differ only in the weapon or limb they are made with are the variants of one row."""

from __future__ import annotations

from factories import creature, limb, on_turn, run, state, used, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState
from vtt.web.action_menu import (
    action_preview,
    choice_label,
    group_actions,
    option_detail,
    preview_text,
    split_label,
)

ARMS = [limb("upper_left"), limb("upper_right"), limb("lower_left"), limb("lower_right")]


def four_arms() -> GameState:
    """a: four arms holding a Sword, a Dagger and a Spear (the lower left arm free), beside t."""
    a = creature(
        "a",
        (5, 5),
        skills={"Martial": 3, "Elude": 2, "Athletics": 2, "Zeal": 1, "Guile": 2},
        weapons=[weapon("sword"), weapon("dagger", 1, lightweight=True), weapon("spear", 2, extend=1)],
        limbs=[x.model_copy() for x in ARMS],
        grip={"upper_right": "sword", "upper_left": "dagger", "lower_right": "spear"},
    )
    t = creature("t", (6, 5))
    return on_turn(state(a, t), "a")


def test_each_legal_action_is_one_variant_of_one_row() -> None:
    """The 30 options (Drop Prone, End turn... a row each) fit in 15 rows: at most half as many."""
    s = four_arms()
    actions = legal_actions(s, "a")
    grouped = group_actions(s, "a", actions)
    variants = [v.option for kinds in grouped.values() for k in kinds for v in k.variants]
    assert sorted(map(id, variants)) == sorted(map(id, actions))
    rows = sum(len(kinds) for kinds in grouped.values())
    assert rows <= len(actions) / 2
    assert [k.label for k in grouped["Move"]] == ["Move", "Dash", "Drop Prone"]
    assert list(grouped) == ["Move", "Strike", "Overpower", "Tactics", "Defense", "Turn"]


def test_the_weapons_and_the_free_limb_are_the_variants_of_a_strike() -> None:
    s = four_arms()
    grouped = group_actions(s, "a", legal_actions(s, "a"))
    assert [k.label for k in grouped["Strike"]] == ["Strike", "Strike a space", "Strike the ground", "Grab"]
    strike = grouped["Strike"][0]
    assert [v.name for v in strike.variants] == ["Sword", "Dagger", "Spear", "Unarmed (lower left)"]
    assert [v.option.params for v in strike.variants] == [
        {"weapon": "sword"},
        {"weapon": "dagger"},
        {"weapon": "spear"},
        {"limb": None},
    ]
    assert strike.summary() == "Major · Sword, Dagger, Spear, Unarmed"
    far = four_arms()
    far.creatures["t"].anchor = (15, 15)
    (strike, *_) = group_actions(far, "a", legal_actions(far, "a"))["Strike"]
    assert (strike.label, strike.enabled) == ("Strike", [])
    assert strike.summary() == "Major · Sword, Dagger, Spear, Unarmed · no target in reach"
    labels = {k.label: len(k.variants) for kinds in grouped.values() for k in kinds}
    assert labels["Impair"] == labels["Reposition"] == labels["Called Shot: Strike"] == 4
    assert labels["Distract"] == labels["Flurry"] == labels["Grab"] == 1


def test_a_single_weapon_keeps_the_rules_label() -> None:
    """A two-handed Greatsword in both arms, no other limb: one Strike, shown as the rules name it."""
    a = creature(
        "a",
        (5, 5),
        weapons=[weapon("greatsword", 3, two_handed=True)],
        limbs=[limb("left_arm"), limb("right_arm")],
        grip={"left_arm": "greatsword", "right_arm": "greatsword"},
    )
    s = on_turn(state(a, creature("t", (6, 5))), "a")
    grouped = group_actions(s, "a", legal_actions(s, "a"))
    (strike, *_) = grouped["Strike"]
    assert (strike.label, [v.name for v in strike.variants]) == ("Strike", ["Greatsword"])
    assert strike.first.label == "Strike with Greatsword"


def test_a_flurrys_minor_action_strikes_are_one_row_apart_from_the_major_ones() -> None:
    s, _ = run(four_arms(), {"type": "flurry", "creature": "a", "number": 1}, [])
    grouped = group_actions(s, "a", legal_actions(s, "a"))
    tactics = {k.label: k for k in grouped["Tactics"]}
    flurried = tactics["Flurry (Minor Action): Strike"]
    assert [v.name for v in flurried.variants] == ["Sword", "Dagger", "Spear", "Unarmed (lower left)"]
    assert all(v.option.params.get("minor") is True for v in flurried.variants)
    assert grouped["Strike"][0].label == "Strike"


def test_labels_split_into_the_action_and_what_it_is_made_with() -> None:
    unarmed = ["unarmed (left arm)", "unarmed"]
    assert split_label("Impair with Sword", ["Sword"]) == ("Impair", "Sword")
    assert split_label("Strike a space (unarmed (left arm))", unarmed) == ("Strike a space", "unarmed (left arm)")
    assert split_label("Charge: Unarmed Strike", unarmed) == ("Charge: Strike", "unarmed (left arm)")
    assert split_label("Complete Firebolt (7)", []) is None
    assert split_label("Grab", ["Sword"]) is None


def test_distract_preview_follows_the_action_chosen() -> None:
    """Distract: +2 after a Major Action, +1 after a Minor (a has used one of each)."""
    s = used(four_arms(), "a", "major", "minor")
    (option,) = [o for o in legal_actions(s, "a") if o.action == "distract"]
    assert preview_text(action_preview(option, "major")) == "2d12 Guile +2 vs DL 3 / Observe"
    assert preview_text(action_preview(option, "minor")) == "2d12 Guile +1 vs DL 3 / Observe"
    assert option_detail(option) == "free · 2d12 Guile +2 vs DL 3 / Observe"
    assert [choice_label(s, "action", a, option.targets[0]) for a in ("major", "minor")] == [
        "Major Action",
        "Minor Action",
    ]


def test_a_shot_and_a_throw_are_weapons_of_the_strike_rows() -> None:
    """Issue 12 item 3, "one row per action, weapons and limbs as a second step": a Throw at t and a Throw at a
    space are the Javelin's variants of the Strike and Strike a space rows, beside the melee ones (Sword, Javelin, an
    unarmed leg); its Called Shot is a variant of the Called Shot: Strike row."""
    a = creature(
        "a",
        (5, 5),
        weapons=[weapon("sword"), weapon("javelin", 1, ranged="thrown", range=3)],
        grip={"right_arm": "sword", "left_arm": "javelin"},
    )
    s = on_turn(state(a, creature("t", (7, 5))), "a")
    grouped = group_actions(s, "a", legal_actions(s, "a"))
    rows = {k.label: [v.name for v in k.variants] for kinds in grouped.values() for k in kinds}
    assert rows["Strike"] == ["Sword", "Javelin", "Unarmed (left leg)", "Javelin (throw)"]
    assert rows["Strike a space"] == ["Sword", "Javelin", "Unarmed (left leg)", "Javelin (throw)"]
    assert rows["Called Shot: Strike"] == ["Javelin (throw)"]
    assert not [label for label in rows if label.startswith("Throw")]
