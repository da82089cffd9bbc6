"""What a menu's Strike plans read of the attacker (`plan_kept.menu_reads`, read once for all the plans of a menu)
and of the target and armament (`plan_kept.plan_reads`): a plan kept across states by them is found again exactly
when what it reads is the same by value, and is then the plan worked out anew; and the options a menu builds here
(`strike_offers._option`, `_target`) are those `make_option` and `make_target` build."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from test_kept_in_place import _apply_in_place
from test_plan_kept import fight, menu_plan
from test_strike_kept import crowded_fight

from vtt.rules import plan_kept, positions, strike, strike_offers
from vtt.rules.conditions import PHYSICAL_ATTACK
from vtt.rules.model import Creature, Effect, GameState
from vtt.rules.offers import MAJOR, make_option, make_target, preview_of


def _two_creature_fight(seed: int) -> GameState:
    """`crowded_fight(seed)` with its first two creatures renamed A and B, lit, creatures not obstructing (a plan
    reads no other creature: it is kept)."""
    s = crowded_fight(seed)
    ids = list(s.creatures)
    s.creatures["a"], s.creatures["b"] = s.creatures.pop(ids[0]), s.creatures.pop(ids[1])
    s.creatures["a"].id, s.creatures["b"].id = "a", "b"
    s.settings = s.settings.model_copy(update={"creatures_obstruct": False, "ambient_light": "lit"})
    return s


def _change(s: GameState, rng: random.Random) -> None:
    """One change at random, in place, to A or B (`_apply_in_place`), one of A's parts or limbs, the effects, the
    settings' lists, where A stands, or A's Pools (which no plan reads)."""
    a = s.creatures["a"]
    roll = rng.random()
    if roll < 0.4:
        _apply_in_place(s, rng)
    elif roll < 0.55:
        part = rng.choice(a.parts)
        field = rng.choice(["wounded", "trauma", "severed"])
        setattr(part, field, not part.severed if field == "severed" else getattr(part, field) + 1)
    elif roll < 0.65:
        limb = rng.choice(a.limbs)
        limb.name = f"{limb.name}'"
    elif roll < 0.72:
        s.effects.append(Effect(id="e1", name="Blessing", creator="b", subject="a", modifiers={PHYSICAL_ATTACK: 1}))
    elif roll < 0.79:
        s.settings.physical_skills.append("Probe")
    elif roll < 0.9:
        a.anchor = (a.anchor[0] + rng.choice([-1, 1]), a.anchor[1])
    else:
        a.grit = a.grit.model_copy(update={"pips": max(0, a.grit.pips - 1)})


@pytest.mark.parametrize("seed", range(4))
def test_menu_reads_are_the_same_object_exactly_when_what_they_read_is_equal(seed: int) -> None:
    """For random fights changed in place at random: the `MenuReads` of the attacker is the one read before exactly
    when what a plan reads of the state but the target (`reads_of`, the target held the same) is equal to what it
    read of a deep copy made then."""
    rng = random.Random(seed)
    outcomes = set()
    for k in range(40):
        s = _two_creature_fight(600 + seed * 40 + k)
        plan_kept.forget()
        target = copy.deepcopy(s.creatures["b"])
        filled = s.board.filled()
        first = plan_kept.menu_reads(s, s.creatures["a"], filled)
        assert first is not None
        was = copy.deepcopy(s)
        for _ in range(rng.randint(0, 2)):
            _change(s, rng)
        same = plan_kept.reads_of(s, s.creatures["a"], target, filled, False) == plan_kept.reads_of(
            was, was.creatures["a"], target, filled, False
        )
        assert (plan_kept.menu_reads(s, s.creatures["a"], filled) is first) is same
        outcomes.add(same)
    assert outcomes == {True, False}


def test_menu_reads_tell_apart_every_field_of_the_attacker_they_read() -> None:
    """An attacker that differs from the one read in any one field of `ATTACKER_READ` (or in any field of its last
    limb or part) gets other `MenuReads`; one that differs in its Pools alone gets the same."""
    s = fight()
    a = s.creatures["a"]
    filled = s.board.filled()

    def first() -> plan_kept.MenuReads | None:
        plan_kept.forget()
        return plan_kept.menu_reads(s, a, filled)

    for name in Creature.model_fields:
        if name in plan_kept.READ_EACH:
            items = getattr(a, name)
            for field in type(items[-1]).model_fields:
                last = items[-1].model_copy(update={field: object()})
                changed = a.model_copy(update={name: [*items[:-1], last]})
                read = first()
                assert plan_kept.menu_reads(s, changed, filled) is not read, (name, field)
            continue
        changed = a.model_copy(update={name: object()})
        read = first()
        assert (plan_kept.menu_reads(s, changed, filled) is not read) is (name in plan_kept.ATTACKER_READ), name
    read = first()
    assert plan_kept.menu_reads(s, a.model_copy(), filled) is read


def test_plan_reads_tell_apart_the_target_and_every_field_of_the_armament() -> None:
    """What a menu's plan reads besides its `MenuReads`: the target's fields of `TARGET_READ` (and no other), the
    armament's weapon, grips and each field of its limb."""
    s = fight()
    a, b = s.creatures["a"], s.creatures["b"]
    menu = plan_kept.menu_reads(s, a, s.board.filled())
    assert menu is not None
    arm = strike.armament(s, a, "sword", None)
    first = plan_kept.plan_reads(menu, b, arm)
    for name in Creature.model_fields:
        changed = b.model_copy(update={name: object()})
        assert (plan_kept.plan_reads(menu, changed, arm) != first) is (name in plan_kept.TARGET_READ), name
    assert arm.limb is not None
    for field in type(arm.limb).model_fields:
        limb = arm.limb.model_copy(update={field: object()})
        assert plan_kept.plan_reads(menu, b, arm.model_copy(update={"limb": limb})) != first, field
    assert plan_kept.plan_reads(menu, b, arm.model_copy(update={"grips": 2})) != first
    other = arm.model_copy(update={"weapon": arm.weapon.model_copy(update={"accurate": True})})  # type: ignore[union-attr]
    assert plan_kept.plan_reads(menu, b, other) != first
    assert plan_kept.plan_reads(menu, b.model_copy(), arm.model_copy()) == first


@pytest.mark.parametrize("seed", range(4))
def test_a_menu_plan_kept_across_random_states_is_the_plan_worked_out_anew(seed: int) -> None:
    """For random fights: every menu plan of A's (each weapon and unarmed, on B) is asked of a state, then of a
    deep copy of it changed at random: there it is the plan worked out for that copy with nothing kept."""
    rng = random.Random(seed)
    outcomes = set()
    for k in range(25):
        s = _two_creature_fight(700 + seed * 25 + k)
        positions.forget()
        arms: list[tuple[str | None, str | None]] = [(w.id, None) for w in s.creatures["a"].weapons]
        arms.append((None, None))
        inputs = [("a", "b", None, None, wid, lid, False, None, None, False, False) for wid, lid in arms]
        before = [menu_plan(s, i) for i in inputs]
        later = copy.deepcopy(s)
        for _ in range(rng.randint(1, 2)):
            _change(later, rng)
        for i, was in zip(inputs, before, strict=True):
            kept = menu_plan(later, i)
            assert kept == menu_plan(later, i, menu=False), i
            outcomes.add(kept == was)
    assert outcomes == {True, False}


def _values() -> dict[str, Any]:
    preview = preview_of("A: Strike", "Martial", 2, [], [], 3, "Elude")
    return {
        "targets": [strike_offers._target("b", preview, [(1, 1)], {"nimble": [False]}, {"head": 2}, {"x": 1})],
        "spaces": [(2, 2)],
        "choose": ["nimble"],
        "optional": ["max_dice"],
    }


def test_the_options_and_targets_built_here_are_those_of_make_option_and_make_target() -> None:
    """`_option` and `_target` hold what `make_option` and `make_target` hold for the same values, field by field
    and in the same order, with the other fields at their defaults."""
    values = _values()
    built = strike_offers._option(
        "strike", "Strike", "Strike with Sword", {"weapon": "sword"}, 2, command="strike", row="Strike", variant="V"
    )
    made = make_option(
        action="strike",
        group="Strike",
        label="Strike with Sword",
        cost=MAJOR,
        params={"weapon": "sword"},
        reach=2,
        command="strike",
        row="Strike",
        variant="V",
    )
    assert list(built.__dict__.items()) == list(made.__dict__.items())
    assert built.model_fields_set == made.model_fields_set
    full = strike_offers._option("grab", "Strike", "Grab", {}, 1, **values)
    made = make_option(action="grab", group="Strike", label="Grab", cost=MAJOR, params={}, reach=1, **values)
    assert list(full.__dict__.items()) == list(made.__dict__.items())
    target = values["targets"][0]
    assert list(target.__dict__.items()) == list(
        make_target(
            target="b",
            preview=target.preview,
            path=[(1, 1)],
            choices={"nimble": [False]},
            margins={"head": 2},
            params={"x": 1},
        ).__dict__.items()
    )
    plain = strike_offers._target("b", target.preview, [(1, 1)])
    assert plain.model_dump() == make_target(target="b", preview=target.preview, path=[(1, 1)]).model_dump()
