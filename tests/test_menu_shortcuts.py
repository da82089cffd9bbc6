"""The menu's shortcuts on a new state (issue 14 item 4) give what the plain computation gives, on random boards:
the Move search over numbered spaces (`move_search`), the spaces a Move may end in, an attack reaching every space
of a Reach with no wall short of its edge (`menu_terms.lines_clear`: the Strike's spaces, Reposition's
destinations), the melee attack modifiers kept for a state (`menu_terms.melee_modifiers`), and the plans of a Called
Shot, a Charge and a Flurry's Strike made from the plain Strike's (`strike_offers.declared_preview`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import permutations
from typing import Any

import pytest
from factories import creature, state, weapon
from pydantic import BaseModel
from test_menu_batched import _giant_fight, destinations_in_a_menu
from test_menu_build import played, random_fight
from test_menu_carry import placed_around

from vtt.rules import (
    board_kept,
    move_offers,
    movement,
    offers,
    overpower,
    positions,
    strike,
    strike_offers,
    tactics,
)
from vtt.rules.conditions import melee_attack_modifiers
from vtt.rules.engine import legal_actions
from vtt.rules.events import RuleError
from vtt.rules.fastmodel import shallow_copy
from vtt.rules.frozen import NO_DICT, NO_LIST, FrozenDict, FrozenList
from vtt.rules.grid import GridKind
from vtt.rules.menu_terms import lines_clear, melee_modifiers, unreached
from vtt.rules.model import Cell, GameState
from vtt.rules.move_search import from_paths, search_one_space
from vtt.rules.offers import (
    ActionOption,
    RollPreview,
    TargetOption,
    arms,
    make_option,
    make_preview,
    make_target,
    preview_of,
)
from vtt.rules.reach import attack_path, limb_bonus
from vtt.rules.records import copy_record
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, footprint, footprint_offsets, grid_of, standable, why_cannot_stand

SEEDS = range(30)


def _walled_board(seed: int, kind: GridKind) -> GameState:
    """A creature of one space on a small map of `kind` (8 to 14 spaces a side), walls on 0 to 40 % of it."""
    rng = random.Random(seed)
    cols, rows = rng.randint(8, 14), rng.randint(8, 14)
    share = rng.choice([0.0, 0.05, 0.15, 0.4])
    walls = {(q, r) for q in range(-rows, cols + rows) for r in range(rows) if rng.random() < share}
    settings = TableSettings(defense_prompts="nobody", reactions=False, grid=kind)
    s = state(cols=cols, rows=rows, walls=walls, settings=settings)
    grid = grid_of(s)
    free = [
        grid.from_offset(col, row)
        for col in range(cols)
        for row in range(rows)
        if grid.from_offset(col, row) not in walls
    ]
    anchor = rng.choice(free) if free else grid.from_offset(0, 0)
    return state(creature("mover", anchor), cols=cols, rows=rows, walls=walls - {anchor}, settings=settings)


def test_move_search_reaches_what_the_breadth_first_search_reaches_by_the_same_paths_in_its_order() -> None:
    """`search_one_space` gives every space `movement.reachable` gives, each by the same path, in the same order,
    for 0 to 7 spaces of movement on hex and square maps with walls, near and away from the map's edges."""
    compared = 0
    for seed in SEEDS:
        for kind in (GridKind.HEX, GridKind.SQUARE):
            s = _walled_board(seed, kind)
            c = s.creatures["mover"]
            filled = s.board.filled()
            for movement_left in range(8):
                plain = movement.reachable(s, c, movement_left, filled)
                moves = search_one_space(grid_of(s), c.anchor, movement_left, filled, s.board.cols, s.board.rows)
                assert list(moves.paths().items()) == list(plain.items())
                assert all(moves.steps[cell] == len(p) for cell, p in plain.items())
                compared += len(plain)
    assert compared > 1000


def test_moves_made_from_paths_give_back_the_same_paths() -> None:
    """`from_paths` of what `movement.reachable` finds (creatures of every size, Prone, on random fights) gives
    back each path, and the number of steps to each space."""
    for seed in SEEDS[::3]:
        for s in played(seed, random_fight(seed), 3):
            filled = s.board.filled()
            for c in s.creatures.values():
                plain = movement.reachable(s, c, 4, filled)
                moves = from_paths(plain)
                assert list(moves.paths().items()) == list(plain.items())
                assert moves.steps == {cell: len(p) for cell, p in plain.items()}


def test_spaces_a_move_may_end_in_are_those_standable_gives() -> None:
    """The Move's spaces (`move_reach`, on a state seen for the first time) are the spaces of a plain search,
    other than the start, where `standable` lets the creature end a move, in the search's order."""
    checked = 0
    for seed in SEEDS:
        s0 = random_fight(seed)
        for s in [*played(seed, s0, 3), *placed_around(seed, s0, 3)]:
            filled = s.board.filled()
            for c in s.creatures.values():
                if c.swallowed_by is not None:
                    continue
                board_kept.forget()
                plain = movement.reachable(s, c, 5, filled)
                expected = standable(s, c, [cell for cell, p in plain.items() if p], Occupancy(s), filled)
                moves, ends = move_offers.move_reach(s, Occupancy(s), c, 5, filled)
                assert list(ends) == expected
                assert list(moves.paths().items()) == list(plain.items())
                checked += len(expected)
    assert checked > 0


def _plain_open_and_walls(
    s: GameState, mine: tuple[Cell, ...], rng: int, filled: frozenset[Cell]
) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    grid = grid_of(s)
    area = grid.area_within(mine, rng)
    cols, rows = s.board.cols, s.board.rows
    spaces = sorted(
        cell
        for cell in area
        if cell not in filled
        and grid.in_bounds(cell, cols, rows)
        and attack_path(grid, mine, (cell,), filled) is not None
    )
    walls = sorted(cell for cell in area if cell in filled and attack_path(grid, mine, (cell,), filled) is not None)
    return tuple(spaces), tuple(walls)


def test_an_attack_reaches_every_space_of_a_reach_with_no_wall_in_it() -> None:
    """Where `lines_clear` holds, `attack_path` finds a line from a footprint to every space and every footprint
    within the Reach (Reach 1 always: no space lies between); and the Strike's spaces and walls in a Reach are those
    the plain test of each space gives."""
    reached = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        for kind in (GridKind.HEX, GridKind.SQUARE):
            s = _walled_board(seed, kind)
            grid = grid_of(s)
            filled = s.board.filled()
            for size in (0, 1, 2, 3):
                big = creature("big", s.creatures["mover"].anchor, size=size)
                mine = footprint(s, big)
                for radius in (1, 2, 3):
                    assert strike_offers._open_and_walls(
                        s, mine, radius, grid.area_within(mine, radius), filled
                    ) == _plain_open_and_walls(s, mine, radius, filled)
                    if not lines_clear(grid, mine, radius, filled):
                        continue
                    for cell in grid.area_within(mine, radius):
                        assert attack_path(grid, mine, (cell,), filled) is not None
                        reached += 1
                        other = creature("other", cell, size=rng.choice([0, 1, 2]))
                        theirs = footprint(s, other)
                        if min(grid.distance(a, b) for a in mine for b in theirs) <= radius:
                            assert attack_path(grid, mine, theirs, filled) is not None
    assert reached > 500


def test_the_spaces_a_wall_hides_from_one_space_are_those_no_line_drawn_reaches() -> None:
    """`menu_terms.unreached` (from the shapes of the lines, kept for each grid and Reach) holds exactly the spaces
    within the Reach to which `attack_path` from a space finds no clear line, on hex and square maps with walls on
    up to 40 % of them, for Reach 1 to 4 from every open space."""
    hidden = 0
    for seed in SEEDS[::3]:
        for kind in (GridKind.HEX, GridKind.SQUARE):
            s = _walled_board(seed, kind)
            grid = grid_of(s)
            filled = s.board.filled()
            for col in range(s.board.cols):
                for row in range(s.board.rows):
                    here = grid.from_offset(col, row)
                    if here in filled:
                        continue
                    for radius in (1, 2, 3, 4):
                        expected = {
                            cell
                            for cell in grid.area_within((here,), radius)
                            if attack_path(grid, (here,), (cell,), filled) is None
                        }
                        assert unreached(grid, here, radius, filled) == expected
                        hidden += len(expected)
    assert hidden > 1000


def _plain_destinations(s: GameState, occ: Occupancy, c_id: str, t_id: str, rng: int) -> list[Cell]:
    """Reposition's destinations by the rule's words, each space's line drawn."""
    c, t = s.creatures[c_id], s.creatures[t_id]
    grid = grid_of(s)
    filled = s.board.filled()
    mine = occ.cells[c.id]
    now = min(grid.distance(a, b) for a in mine for b in occ.cells[t.id])
    spread = max(grid.distance((0, 0), off) for off in footprint_offsets(s, t))
    near = grid.area_within(mine, rng + spread + 2) | grid.area_within(occ.cells[t.id], 2)
    out = []
    for to in sorted(near):
        if to == t.anchor or to not in standable(s, t, [to], occ, filled):
            continue
        cells = footprint(s, t, to)
        then = min(grid.distance(a, b) for a in mine for b in cells)
        if (grid.distance(t.anchor, to) == 1 and then > now) or (
            then <= rng and attack_path(grid, mine, cells, filled) is not None
        ):
            out.append(to)
    return out


def test_reposition_destinations_are_those_a_line_drawn_to_each_allows() -> None:
    """`overpower.destinations` (which draws no line where the Reach holds no wall) lists the spaces the rule
    allows with a line drawn to each, for every pair of creatures of random fights and Reach 1 to 3."""
    checked = 0
    for seed in SEEDS[::2]:
        s0 = random_fight(seed)
        for s in [*played(seed, s0, 2), *placed_around(seed, s0, 2)]:
            filled = s.board.filled()
            occ = Occupancy(s)
            for c, t in permutations(s.creatures.values(), 2):
                if t.swallowed_by is not None or c.swallowed_by is not None:
                    continue
                for rng in (1, 2, 3):
                    expected = _plain_destinations(s, occ, c.id, t.id, rng)
                    assert overpower.destinations(s, Occupancy(s), c, t, rng, filled) == expected
                    assert destinations_in_a_menu(s, c, t, rng) == expected
                    checked += len(expected)
    assert checked > 0


def test_reposition_destinations_in_a_menu_are_those_a_line_drawn_to_each_allows_past_many_walls() -> None:
    """`overpower.destinations` given the spaces the attack reaches (as a menu asks it: no line drawn, the anchors
    of a larger target found from the spaces its footprint may fill, the map's edge told once) lists the spaces the
    rule allows with a line drawn to each, for attackers and targets of sizes 0 to 3, Reach 1 to 3, on hex and
    square maps with walls on up to 40 % of them, near their edges and away from them."""
    checked = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        for kind in (GridKind.HEX, GridKind.SQUARE):
            s0 = _walled_board(seed, kind)
            grid = grid_of(s0)
            here = s0.creatures["mover"].anchor
            for size, their_size in ((0, 0), (0, 2), (0, 3), (2, 2), (3, 0), (1, 3)):
                attacker = creature("attacker", here, size=size)
                near = sorted(grid.area_within((here,), 4))
                for to in rng.sample(near, min(8, len(near))):
                    s = state(
                        attacker,
                        creature("target", to, size=their_size),
                        cols=s0.board.cols,
                        rows=s0.board.rows,
                        walls=set(s0.board.walls),
                        settings=s0.settings,
                    )
                    occ = Occupancy(s)
                    if any(why_cannot_stand(s, c, c.anchor, occ) is not None for c in s.creatures.values()):
                        continue
                    for reach in (1, 2, 3):
                        expected = _plain_destinations(s, occ, "attacker", "target", reach)
                        t = s.creatures["target"]
                        assert destinations_in_a_menu(s, s.creatures["attacker"], t, reach) == expected
                        checked += len(expected)
    assert checked > 1000


def test_melee_modifiers_kept_for_a_state_are_those_worked_out_each_time() -> None:
    """`melee_modifiers` gives `melee_attack_modifiers` of every pair of creatures, asked again on the same
    occupancy too; the list it hands out is the caller's own (changing it changes nothing kept)."""
    found = 0
    for seed in SEEDS[::2]:
        for s in played(seed, random_fight(seed), 4):
            occ = Occupancy(s)
            for c, t in permutations(s.creatures.values(), 2):
                plain = melee_attack_modifiers(s, c, t)
                first = melee_modifiers(s, occ, c, t)
                assert first == plain
                first.clear()
                assert melee_modifiers(s, occ, c, t) == plain
                found += len(plain)
    assert found > 0


def test_declared_strike_previews_made_from_the_plain_plan_are_those_of_the_plans_made_each_time() -> None:
    """`declared_preview` of the plain Strike's plan (a Called Shot, a Charge, a Flurry's Minor Action, and together)
    is the preview of the plan `plan_creature_strike` makes with them declared, with the same path; where the plain
    Strike fails, the declared one fails as it does; for every pair of creatures and every weapon and limb of random
    fights."""
    planned = 0
    for seed in SEEDS[::2]:
        for s in played(seed, random_fight(seed), 4):
            filled = s.board.filled()
            for c, t in permutations(s.creatures.values(), 2):
                for arm in arms(s, c):
                    for called_shot, charge, minor in (
                        (True, False, False),
                        (False, True, False),
                        (False, False, True),
                        (True, True, False),
                        (False, True, True),
                    ):
                        occ = Occupancy(s)
                        try:
                            declared = strike.plan_creature_strike(
                                s, Occupancy(s), c, t, arm, False, filled, called_shot, charge, minor
                            )
                        except RuleError as e:
                            with pytest.raises(RuleError) as same:
                                strike.plan_creature_strike(s, occ, c, t, arm, False, filled)
                            assert str(same.value) == str(e)
                            continue
                        plain = strike.plan_creature_strike(s, occ, c, t, arm, False, filled)
                        mods = tactics.declared_modifiers(s, c, called_shot, charge)
                        extra = tactics.flurry_weapon_changes(arm.weapon, minor)
                        made = strike_offers.declared_preview(plain, mods, extra)
                        _same_model(made, offers.plan_preview(declared))
                        assert plain.path == declared.path
                        planned += 1
    assert planned > 100


def test_an_armament_holds_the_attackers_own_weapon_and_limb_however_often_it_is_asked() -> None:
    """`strike.armament` of each weapon and limb of random fights is the Armament the rule makes (the gripped weapon,
    the gripping limb reaching farthest, the number gripping; or the free limb), holding the attacker's own weapon
    and limb objects, asked again too; with the creature's weapons and limbs replaced by copies (a new creature, or
    a limb changed in place and the creature copied), it holds the copies."""
    made = 0
    for seed in SEEDS:
        for s in played(seed, random_fight(seed), 3):
            for c in s.creatures.values():
                for copied in (c, c.model_copy(deep=True)):
                    for _ in range(2):
                        spent = tactics.spent_limbs(s, c.id)
                        for arm in arms(s, copied):
                            if arm.weapon is not None:
                                w = copied.weapon(arm.weapon.id)
                                assert w is not None
                                grips = [
                                    lb
                                    for lb in copied.limbs
                                    if lb.holding == w.id and lb.hold_id is None and lb.id not in spent
                                ]
                                best = grips[0] if len(grips) == 1 else max(grips, key=lambda lb: limb_bonus(c, lb))
                                assert arm.weapon is w and arm.grips == len(grips) and arm.limb is best
                                assert arm.model_fields_set == {"weapon", "limb", "grips"}
                            else:
                                free = next(lb for lb in copied.limbs if lb.free and lb.id not in spent)
                                assert arm.limb is free and arm.grips == 0
                                assert arm.model_fields_set == {"weapon", "limb"}
                            made += 1
    assert made > 200


def _typed_weapons_and_severed_parts(seed: int) -> GameState:
    """The random fight of `seed`, each weapon of every other seed with two Strike Types, and each creature's parts
    severed at random (about one in five)."""
    rng = random.Random(seed)
    s = random_fight(seed)
    creatures = {}
    for cid, c in s.creatures.items():
        weapons = [w.model_copy(update={"strike_types": ("B", "S")}) if seed % 2 else w for w in c.weapons]
        parts = [copy_record(p, {"severed": rng.random() < 0.2}) for p in c.parts]
        creatures[cid] = shallow_copy(c, weapons=weapons, parts=parts)
    return shallow_copy(s, creatures=creatures)


def test_the_menus_strike_choices_and_called_shot_parts_are_those_of_each_target() -> None:
    """In the menus of random fights, a Strike asks for each choice (`STRIKE_CHOICES`) that has more than one value
    against some target, and a Called Shot's target (melee or ranged) offers each unsevered part of that target,
    with its size offset as the margin, in the target's order."""
    asked: set[str] = set()
    aimed = 0
    for seed in SEEDS:
        for s in [_giant_fight(seed), *played(seed, _typed_weapons_and_severed_parts(seed), 4)]:
            for cid in s.creatures:
                for o in legal_actions(s, cid):
                    if o.action == "strike" and o.row == strike_offers.STRIKE_ROW and o.targets:
                        wide = [
                            f for f in strike_offers.STRIKE_CHOICES if any(len(t.choices[f]) > 1 for t in o.targets)
                        ]
                        assert o.choose == wide
                        asked.update(wide)
                    if o.action == "called_shot":
                        for t in o.targets:
                            assert t.target is not None
                            parts = [p for p in s.creatures[t.target].parts if not p.severed]
                            assert t.choices == {"called_shot": [p.id for p in parts]}
                            assert t.margins == {p.id: p.size_offset for p in parts}
                            aimed += 1
    assert asked == set(strike_offers.STRIKE_CHOICES) and aimed > 50


def _read_type(value: object) -> type:
    """The type a reader sees: a frozen list or dict (`vtt.rules.frozen`) is a list or a dict."""
    return list if isinstance(value, FrozenList) else dict if isinstance(value, FrozenDict) else type(value)


def _same_model(made: BaseModel, plain: BaseModel) -> None:
    """Two models alike in every way a reader can see but the fields set: type, values (and their types), the
    order of the fields, and nothing else held."""
    assert type(made) is type(plain)
    assert list(made.__dict__.items()) == list(plain.__dict__.items())
    assert [_read_type(v) for v in made.__dict__.values()] == [_read_type(v) for v in plain.__dict__.values()]
    assert made.__pydantic_extra__ is None and made.__pydantic_private__ is None
    assert made.model_dump() == plain.model_dump()
    assert repr(made) == repr(plain)


def test_the_unvalidated_makers_give_what_the_models_give_for_any_fields_given() -> None:
    """`make_option`, `make_target` and `make_preview`, given any of the fields of options, targets and previews of
    real menus, give what the model's own construction without validation gives (values, defaults, field order),
    the default lists and dicts the shared frozen empties (a change of one raises), and every field set (one set
    shared by all, as an event built without validation has)."""
    rng = random.Random(14)
    made = 0
    for seed in SEEDS[::3]:
        for s in played(seed, random_fight(seed), 4):
            for cid in s.creatures:
                for o in legal_actions(s, cid):
                    pairs: list[tuple[Callable[..., BaseModel], type[BaseModel], dict[str, Any]]] = [
                        (make_option, ActionOption, dict(o.__dict__))
                    ]
                    pairs += [(make_target, TargetOption, dict(t.__dict__)) for t in o.targets]
                    pairs += [(make_preview, RollPreview, dict(t.preview.__dict__)) for t in o.targets if t.preview]
                    for maker, model, values in pairs:
                        required = {k for k, f in model.model_fields.items() if f.is_required()}
                        given = {k: v for k, v in values.items() if k in required or rng.random() < 0.5}
                        first, second = maker(**given), maker(**given)
                        _same_model(first, model.model_construct(**given))
                        assert first.model_fields_set == set(model.model_fields)
                        assert first.model_fields_set is second.model_fields_set
                        for name in model.model_fields:
                            if name not in given and isinstance(getattr(first, name), list | dict):
                                assert getattr(first, name) is getattr(second, name) in (NO_LIST, NO_DICT)
                                with pytest.raises(TypeError):
                                    getattr(first, name).clear()
                        made += 1
    assert made > 500


def test_a_menu_asked_again_of_its_state_is_the_menu_worked_out_anew() -> None:
    """A creature's menu is made once for a state (`offers.kept_menu`): asked again of the same state, after the
    states of random commands were made from it and their menus asked, it is what a copy of the state seen first
    gives, in a list of the caller's own (emptying it changes nothing kept)."""
    compared = 0
    for seed in SEEDS:
        states = played(seed, random_fight(seed), 8)
        first = {(i, cid): legal_actions(s, cid) for i, s in enumerate(states) for cid in s.creatures}
        dumped = {key: [o.model_dump() for o in menu] for key, menu in first.items()}
        for (i, cid), menu in first.items():
            menu.clear()
            again = legal_actions(states[i], cid)
            assert again is not menu and [o.model_dump() for o in again] == dumped[i, cid]
        board_kept.forget()
        positions.forget()
        for (i, cid), dump in dumped.items():
            plain = legal_actions(shallow_copy(states[i], creatures=dict(states[i].creatures)), cid)
            assert [o.model_dump() for o in plain] == dump
            compared += len(plain)
    assert compared > 500


def test_a_strikes_shared_choices_follow_each_thing_they_are_made_of() -> None:
    """`strike_choices` hands out one frozen dict for the same choices: armed or not, each of Nimble, the weapon's
    Strike types and its damage dice changes them, and an unarmed Strike's follow the table's unarmed damage."""
    sword = weapon("sword", 2)
    c = creature("a", (2, 2), weapons=[sword], grip={"right_arm": "sword"})
    t = creature("b", (3, 2))
    s = state(c, t)
    arm = arms(s, c)[0]
    plan = strike.plan_creature_strike(s, Occupancy(s), c, t, arm, False, s.board.filled())
    base = strike_offers.strike_choices(s, c, arm, plan)
    assert base == {"nimble": [False], "strike_type": [None], "max_dice": [None, 0, 1]}
    assert strike_offers.strike_choices(s, c, arm, plan) is base
    with pytest.raises(TypeError):
        base["max_dice"].append(2)
    tiny = shallow_copy(plan, exposed_size=-4)
    assert strike_offers.strike_choices(s, c.model_copy(update={"size": 1}), arm, tiny)["nimble"] == [False, True]
    typed = arm.model_copy(update={"weapon": sword.model_copy(update={"strike_types": ("B", "S")})})
    assert strike_offers.strike_choices(s, c, typed, plan)["strike_type"] == ["B", "S"]
    heavier = arm.model_copy(update={"weapon": sword.model_copy(update={"damage": 3})})
    assert strike_offers.strike_choices(s, c, heavier, plan)["max_dice"] == [None, 0, 1, 2]
    unarmed = arms(s, c)[-1]
    assert unarmed.weapon is None
    for most in (1, 3):
        table = shallow_copy(s, settings=s.settings.model_copy(update={"unarmed_damage": most}))
        assert strike_offers.strike_choices(table, c, unarmed, plan)["max_dice"] == [None, *range(most)]


def _plain_by_the_letter(value: Any) -> Any:
    """A command value as JSON has it, each tuple or list converted element by element."""
    if isinstance(value, tuple | list):
        return [_plain_by_the_letter(v) for v in value]
    return value


def test_command_values_made_plain_with_spaces_made_at_once_are_those_converted_element_by_element() -> None:
    """`offers._plain` (a space, and each space of a list, made a list at once) gives what converting every tuple
    and list element by element gives, for spaces, paths, pairs that are not spaces (of booleans, floats, strings,
    of a space and a number) and nested lists; a value that is not a list or tuple is given back as it is."""
    rng = random.Random(5)
    pieces: list[Any] = [3, -2, True, 1.5, "sword", None, (1, 2), (True, 0), (0, 1.0), ("a", 1), ((1, 2), 3)]
    checked = 0
    for _ in range(400):
        value: Any = rng.choice(pieces)
        for _ in range(rng.randint(0, 2)):
            parts = [rng.choice([*pieces, value]) for _ in range(rng.randint(0, 4))]
            value = tuple(parts) if rng.random() < 0.5 else parts
        made = offers._plain(value)
        assert made == _plain_by_the_letter(value)
        assert type(made) is type(_plain_by_the_letter(value))
        assert repr(made) == repr(_plain_by_the_letter(value))  # True stays True, 1.0 stays 1.0
        checked += isinstance(value, tuple | list)
    assert checked > 200


def test_a_preview_made_with_every_field_in_order_is_the_one_made_by_name() -> None:
    """`offers.preview_of` (every field given in the model's order) gives what `make_preview` gives the same fields
    by name, for the previews of real menus, with and without the damage fields."""
    made = 0
    for seed in SEEDS[::3]:
        for s in played(seed, random_fight(seed), 4):
            for cid in s.creatures:
                for o in legal_actions(s, cid):
                    for t in o.targets:
                        if t.preview is None:
                            continue
                        p = t.preview
                        fields = (p.label, p.skill, p.dice, p.dice_changes, p.modifiers, p.dl, p.defense_skill)
                        full = preview_of(*fields, p.damage, p.damage_changes)
                        assert full.__dict__ == p.__dict__ and list(full.__dict__) == list(p.__dict__)
                        assert full.model_fields_set == p.model_fields_set
                        short = preview_of(*fields)
                        by_name = make_preview(**{k: v for k, v in p.__dict__.items() if k not in DAMAGE_FIELDS})
                        assert short.__dict__ == by_name.__dict__ and list(short.__dict__) == list(by_name.__dict__)
                        made += 1
    assert made > 100


DAMAGE_FIELDS = ("damage", "damage_changes")


def test_a_disarmed_items_drop_spaces_are_those_told_space_by_space() -> None:
    """`overpower.drop_spaces` (the map's edge told once for the spaces around the target when none can be off
    it) lists the spaces next to the target, not its own, not filled and on the map, each asked alone, for every
    creature of random fights on small maps (many at an edge)."""
    checked = 0
    for seed in SEEDS:
        s0 = random_fight(seed)
        for s in [*played(seed, s0, 2), *placed_around(seed, s0, 2)]:
            grid = grid_of(s)
            occ = Occupancy(s)
            filled = s.board.filled()
            for t in s.creatures.values():
                if t.swallowed_by is not None:
                    continue
                mine = occ.cells[t.id]
                expected = sorted(
                    cell
                    for cell in grid.area_within(mine, 1)
                    if cell not in mine and cell not in filled and grid.in_bounds(cell, s.board.cols, s.board.rows)
                )
                assert overpower.drop_spaces(s, occ, t) == expected
                checked += 1
    assert checked > 100


def test_standable_is_why_cannot_stand_asked_of_each_space() -> None:
    """`standable` keeps exactly the anchors `why_cannot_stand` finds nothing against, in their order, for every
    creature of random fights (walls, crowded spaces, the map's edges and beyond), told or not that they lie on the
    map."""
    checked = 0
    for seed in SEEDS:
        s0 = random_fight(seed)
        for s in [s0, *placed_around(seed, s0, 2)]:
            filled = s.board.filled()
            occ = Occupancy(s)
            grid = grid_of(s)
            cols, rows = s.board.cols, s.board.rows
            for c in s.creatures.values():
                if c.swallowed_by is not None:
                    continue
                anchors = sorted(grid.area_within((c.anchor,), 3), reverse=seed % 2 == 1)
                expected = [a for a in anchors if why_cannot_stand(s, c, a, occ, filled) is None]
                assert standable(s, c, anchors, occ, filled) == expected
                assert standable(s, c, iter(anchors), occ, filled) == expected
                on_map = [a for a in anchors if all(grid.in_bounds(f, cols, rows) for f in footprint(s, c, a))]
                assert standable(s, c, on_map, occ, filled, True) == [a for a in expected if a in on_map]
                checked += len(expected)
    assert checked > 0


def test_the_occupants_of_spaces_are_those_each_space_lists_in_its_order() -> None:
    """`Occupancy.occupants` lists each creature standing in one of the spaces given (but the one left out), once,
    in the order of the spaces, as asking each space in turn lists them, on an occupancy indexed and on one read
    over the state before's."""
    checked = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        s0 = random_fight(seed)
        for s in [s0, *placed_around(seed, s0, 2)]:
            grid = grid_of(s)
            base = Occupancy(s0)
            _ = base.by_cell
            for occ in (Occupancy(s), Occupancy.over(base, s, positions.scan_changed(s0, s))):
                for c in s.creatures.values():
                    cells = list(grid.area_within((c.anchor,), rng.randint(0, 4)))
                    rng.shuffle(cells)
                    for exclude in (None, c.id):
                        expected = dict.fromkeys(o for cell in cells for o in occ.at(cell) if o != exclude)
                        assert occ.occupants(cells, exclude) == list(expected)
                        checked += len(expected)
    assert checked > 0
