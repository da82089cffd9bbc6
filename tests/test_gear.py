"""Hand-worked tests of ammunition and of picking up a weapon (vtt/rules/gear.py).

Rules: reference §6.3 (a launched weapon shoots, a thrown one leaves the hand); §4.5 "Letting go of a held object
that is not secured is No Action; it lands in a space within your Reach", so a weapon within Reach can be taken
back; the cost of picking up is a gap, table setting `pick_up_cost` (a Minor Action). A launched weapon counting
its ammunition (`Weapon.ammo`) spends 1 per attack and cannot be shot at 0.

The archer `a` (Nimble 2) stands at (2, 5); t is n spaces east at (2 + n, 5). Faces in order: the attack roll,
the defense roll, the damage dice.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, of_kind, on_turn, only, refused, run, state, weapon

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.model import GameState, LooseItem, Weapon

BOW = weapon("longbow", damage=2, name="Longbow", ranged="launched", range=4, two_handed=True, ammo=2)
SPEAR = weapon("spear", damage=3, ranged="thrown", range=4)
SKILLS = {"Nimble": 2, "Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1}


def field(weapons: list[Weapon], grip: dict[str, str], distance: int = 2, **kw: Any) -> GameState:
    a = creature("a", (2, 5), skills=SKILLS, weapons=weapons, grip=grip)
    t = creature("t", (2 + distance, 5))
    return on_turn(state(a, t, **kw), "a")


def archer(ammo: int | None = 2) -> GameState:
    bow = BOW.model_copy(update={"ammo": ammo})
    return field([bow], {"left_arm": "longbow", "right_arm": "longbow"})


SHOOT = {"type": "strike", "creature": "a", "target": "t", "weapon": "longbow", "ranged": True}


def test_each_shot_spends_one_ammunition_hit_or_miss() -> None:
    """A launched weapon counting its ammunition spends 1 per attack, as it is made. The longbow has 2: a hit
    (Nimble 7, 3 -> 7 against Elude 5, 2 -> 5; damage 3, 2 -> Injury 1) leaves 1."""
    s, events = run(archer(2), SHOOT, [7, 3, 5, 2, 3, 2])
    assert only(events, "ammo").data["ammo"] == 1
    assert s.creatures["a"].weapons[0].ammo == 1
    assert s.creatures["t"].grit.pips == 1


def test_a_missed_shot_at_the_ground_spends_ammunition_too() -> None:
    """The arrow is spent whatever it hits: a shot at the ground (seed-000: -1, defense 0), Nimble 2, 1 -> 1: a
    miss; 1 arrow of 1 is spent: 0 left."""
    s, _ = run(archer(1), {**SHOOT, "target": None, "space": (3, 5), "surface": "ground"}, [2, 1])
    assert s.creatures["a"].weapons[0].ammo == 0


def test_no_shot_with_no_ammunition_left_and_it_is_not_offered() -> None:
    """At 0 the weapon cannot be shot: refused in plain words, the game unchanged, and the menu offers no Shoot
    with it."""
    s0 = archer(0)
    refused(s0, SHOOT, [7, 3, 5, 2, 3, 2])
    with pytest.raises(RuleError, match="Longbow has no ammunition left"):
        apply(s0, SHOOT, ScriptedDice([7, 3, 5, 2, 3, 2]))
    assert not [o for o in legal_actions(s0, "a") if o.params.get("weapon") == "longbow"]


def test_uncounted_ammunition_never_runs_out() -> None:
    """`ammo` None: not counted; no ammunition event. Nimble 7, 3 against Elude 5, 2: a hit, damage 1, 1."""
    s, events = run(archer(None), SHOOT, [7, 3, 5, 2, 1, 1])
    assert of_kind(events, "ammo") == []
    assert s.creatures["a"].weapons[0].ammo is None


def test_a_thrown_spear_is_picked_up_from_where_it_landed_as_a_minor_action() -> None:
    """The spear is thrown at t 1 space away and lands in t's space (3, 5) (Nimble 1, 1 -> 1, short of DL 3,
    against Elude 1, 1: a miss). It lies within a's Reach 1: picking it up (table setting `pick_up_cost`: a Minor
    Action) puts it back in a's free arm and off the map."""
    s0 = field([SPEAR], {"right_arm": "spear"}, distance=1)
    s, _ = run(s0, {"type": "strike", "creature": "a", "target": "t", "weapon": "spear", "ranged": True}, [1, 1, 1, 1])
    assert [(i.weapon.id, i.cell) for i in s.board.items] == [("spear", (3, 5))]
    minor_before = s.economy["a"].minor
    s, events = run(s, {"type": "pick_up", "creature": "a", "item": "spear"}, [])
    assert only(events, "pick_up").data["from"] == (3, 5)
    assert s.board.items == []
    assert s.economy["a"].minor == minor_before - 1
    assert [lb.holding for lb in s.creatures["a"].limbs if lb.holding] == ["spear"]
    assert [w.id for w in s.creatures["a"].weapons] == ["spear"]


def test_a_weapon_beyond_reach_cannot_be_picked_up() -> None:
    """The spear lies 3 spaces away, beyond Reach 1: refused, nothing changes."""
    s0 = field([SPEAR], {}, items=[LooseItem(weapon=SPEAR, cell=(5, 5), owner="a")])
    refused(s0, {"type": "pick_up", "creature": "a", "item": "spear"})


def test_someone_elses_weapon_picked_up_gets_an_id_of_its_own() -> None:
    """t's sword lies beside a, who carries a different weapon with the id "sword": it becomes a's "sword_2"."""
    mine = weapon("sword", damage=1, name="Short sword")
    theirs = weapon("sword", damage=3, name="Broadsword")
    s0 = field([mine], {"right_arm": "sword"}, items=[LooseItem(weapon=theirs, cell=(2, 6), owner="t")])
    s, _ = run(s0, {"type": "pick_up", "creature": "a", "item": "sword"}, [])
    a = s.creatures["a"]
    assert [(w.id, w.name) for w in a.weapons] == [("sword", "Short sword"), ("sword_2", "Broadsword")]
    assert a.limb("left_arm") is not None and a.limb("left_arm").holding == "sword_2"  # type: ignore[union-attr]


def test_a_two_handed_weapon_needs_two_free_limbs() -> None:
    """A Two-handed weapon is gripped with `two_handed_grip` (2) limbs: with one arm holding a spear, a cannot
    take the longbow lying beside it."""
    s0 = field([SPEAR], {"right_arm": "spear"}, items=[LooseItem(weapon=BOW, cell=(2, 6), owner="a")])
    with pytest.raises(RuleError, match="no free limb"):
        apply(s0, {"type": "pick_up", "creature": "a", "item": "longbow"}, ScriptedDice([]))
    assert not [o for o in legal_actions(s0, "a") if o.action == "pick_up"]


def test_menu_offers_pick_up_with_each_weapon_in_reach_and_it_is_accepted() -> None:
    """The menu's Pick up lists the weapons within Reach (the spear beside a, not the dagger far away) and the
    command it sends is accepted."""
    dagger = weapon("dagger", damage=1)
    items = [LooseItem(weapon=SPEAR, cell=(2, 6), owner="a"), LooseItem(weapon=dagger, cell=(9, 9), owner="t")]
    s0 = field([SPEAR], {}, items=items)
    (option,) = [o for o in legal_actions(s0, "a") if o.action == "pick_up"]
    assert option.choose == ["item"]
    assert option.targets[0].choices["item"] == ["spear"]
    s, _ = run(s0, {"type": "pick_up", "creature": "a", "item": "spear"}, [])
    assert [i.weapon.id for i in s.board.items] == ["dagger"]
