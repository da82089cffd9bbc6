"""The token menu is built fast (issue 14 item 4) without changing what it offers: its options are made without
pydantic validation, filled in where they are, and what is worked out from a state alone is kept for the next
menu asked of the same state (`vtt.rules.positions`). For random small fights, each of these agrees with the
straightforward computation: validating every option gives the same option, and a menu asked of a state whose
kept values were made by other creatures' menus is the one a state seen for the first time gives."""

from __future__ import annotations

import random

import pytest
from factories import creature, on_turn, state, weapon

from vtt.rules import positions
from vtt.rules.dice import RandomDice
from vtt.rules.engine import ActionOption, apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.fastmodel import shallow_copy
from vtt.rules.model import Creature, Effect, GameState, Weapon
from vtt.rules.offers import (
    RollPreview,
    TargetOption,
    arms,
    charged,
    command_for,
    finish_menu,
    make_option,
    make_preview,
    make_target,
)
from vtt.rules.space import Occupancy, why_cannot_stand
from vtt.rules.tactics import FLURRY_LIMBS

SEEDS = range(24)


def _arsenal() -> list[Weapon]:
    return [
        weapon("sword", 2),
        weapon("axe", 3, tier=2),
        weapon("spear", 2, extend=1),
        weapon("dagger", 1, lightweight=True, accurate=True),
        weapon("javelin", 2, ranged="thrown"),
        weapon("bow", 2, ranged="launched", two_handed=True),
    ]


def random_fight(seed: int) -> GameState:
    """2 to 7 creatures of sizes -1 to 3 on a 10 x 10 map with a few walls, some armed, some Prone, players' and the
    Soulweaver's, the fight begun on a random creature's turn."""
    rng = random.Random(seed)
    walls = {(rng.randrange(10), rng.randrange(10)) for _ in range(rng.randrange(8))}
    placed: list[Creature] = []
    for i in range(rng.randint(2, 7)):
        for _ in range(50):
            w = rng.choice(_arsenal()) if rng.random() < 0.7 else None
            grip = {"right_arm": w.id} if w is not None else {}
            if w is not None and w.two_handed:
                grip["left_arm"] = w.id
            c = creature(
                f"c{i}",
                (rng.randrange(10), rng.randrange(10)),
                size=rng.choice([-1, 0, 0, 1, 1, 2, 3]),
                weapons=[w] if w is not None else [],
                grip=grip,
                controller=rng.choice(["p1", "p2", None]),
                prone=rng.random() < 0.15,
            )
            trial = state(*placed, c, walls=walls)
            if why_cannot_stand(trial, c, c.anchor, Occupancy(trial)) is None:
                placed.append(c)
                break
    return on_turn(state(*placed, walls=walls), rng.choice(placed).id)


def played(seed: int, s: GameState, moves: int) -> list[GameState]:
    """`s` and the states after up to `moves` commands picked at random from the acting creature's menu (random
    targets, spaces and choices, rolled with random dice): Holds, Flurries, Dashes and hurt creatures come up."""
    rng = random.Random(seed)
    dice = RandomDice(seed)
    out = [s]
    for _ in range(moves):
        actor = s.turn.current
        options = legal_actions(s, actor) if actor is not None else []
        if not options:
            break
        option = rng.choice(options)
        target = rng.choice(option.targets) if option.targets else None
        chosen = {
            a.field: [rng.choice(target.choices[a.field])] if a.several else rng.choice(target.choices[a.field])
            for a in option.asks
            if target is not None and target.choices.get(a.field)
        }
        space = rng.choice(option.spaces) if option.spaces else None
        cmd = command_for(option, target.target if target else None, space if target is None else None, chosen)
        if cmd is None:
            continue
        try:
            s, _ = apply(s, cmd, dice)
        except RuleError:
            continue
        out.append(s)
    return out


def _fresh(s: GameState) -> GameState:
    """The same state as a new object: nothing is kept for it yet."""
    return shallow_copy(s, creatures=dict(s.creatures))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_menu_from_kept_values_is_the_menu_of_a_state_seen_first(seed: int) -> None:
    """Every creature's menu, asked in turn of one state (each menu after the first reuses what the others kept,
    and the first is asked again at the end), equals the menu asked of a new copy of the state with nothing kept."""
    offered = 0
    for s in played(seed, random_fight(seed), 6):
        ids = list(s.creatures)
        asked = [*ids, ids[0]]
        kept = [legal_actions(s, cid) for cid in asked]
        for cid, menu in zip(asked, kept, strict=True):
            positions.forget()
            first = legal_actions(_fresh(s), cid)
            assert [o.model_dump() for o in menu] == [o.model_dump() for o in first], cid
            offered += len(first)
    assert offered > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_every_option_built_without_validation_is_what_validation_gives(seed: int) -> None:
    """The builders skip validation: validating each option (its targets and previews with it) gives the same
    option, value for value and type for type (a space stays a pair, a list a list)."""
    checked = 0
    for s in played(seed, random_fight(seed), 6):
        for cid in s.creatures:
            for o in legal_actions(s, cid):
                assert ActionOption.model_validate(o.model_dump()) == o
                checked += 1
    assert checked > 0


def test_the_unvalidated_makers_give_the_models_defaults() -> None:
    """`make_option`, `make_target` and `make_preview` fill every field the model does, with its default, and
    count every field as set (setting one adds nothing to the set its options share)."""
    assert make_option(action="move", group="Move", label="Move") == ActionOption(
        action="move", group="Move", label="Move"
    )
    assert make_target(target="a") == TargetOption(target="a")
    assert make_preview(label="l", skill="Martial", dice=2) == RollPreview(label="l", skill="Martial", dice=2)
    option = make_option(action="move", group="Move", label="Move")
    assert option.model_fields_set == set(ActionOption.model_fields)
    assert list(option.model_dump()) == list(ActionOption.model_fields)


def test_a_target_shared_by_two_options_is_filled_in_for_each_on_its_own() -> None:
    """`finish_menu` fills an option and its targets in where they are the first time it meets them; a target met
    again (a Charge made from an option shares its targets, `charged`) is copied, so each option's target sends its
    own command and the first one's is left as it was."""
    option = make_option(
        action="strike", group="Strike", label="Strike", params={"weapon": "sword"}, targets=[make_target(target="b")]
    )
    targets = option.targets
    plain, charge = finish_menu([option, charged(option)], "a")
    assert plain is option and plain.targets is targets and charge.targets is not targets
    assert plain.targets[0].send == {"type": "strike", "creature": "a", "weapon": "sword", "target": "b"}
    assert charge.targets[0] is not plain.targets[0]
    assert charge.targets[0].send == {**plain.targets[0].send, "charge": True}
    assert (plain.pick, charge.pick) == ("creature", "creature")


def test_the_arms_are_each_gripped_weapon_and_unarmed_with_the_first_free_limb_that_may_strike() -> None:
    """`arms`: each weapon the creature can use, then unarmed once, with its first free limb that may attack (one
    that attacked in a Flurry may not: the next one is taken)."""
    c = creature("a", (2, 2), weapons=[weapon("sword", 2)], grip={"right_arm": "sword"})
    s = state(c)
    free = [lb.id for lb in c.limbs if lb.free]
    assert len(free) >= 2
    found = arms(s, c)
    assert [(arm.weapon.id if arm.weapon else None, arm.limb.id if arm.limb else None) for arm in found] == [
        ("sword", "right_arm"),
        (None, free[0]),
    ]
    flurried = shallow_copy(s, effects=[Effect(id="e1", name=FLURRY_LIMBS, creator="a", subject="a", limbs=[free[0]])])
    assert [arm.limb.id if arm.limb else None for arm in arms(flurried, c)] == ["right_arm", free[1]]


def test_a_kept_occupancy_belongs_to_its_state_alone() -> None:
    """The occupancy kept for a state is not handed out for another state, even an equal one."""
    s = random_fight(1)
    occ = positions.occupancy(s)
    assert positions.occupancy(s) is occ
    assert positions.occupancy(_fresh(s)) is not occ
