"""A Strike's plan kept across states (`vtt.rules.plan_kept`): reused for a later state that holds the same by value
what the plan reads, worked out again when any of that changes, and never different from a plan worked out anew."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from factories import creature, on_turn, state, weapon
from test_menu_build import _fresh
from test_strike_kept import _hurt, _outcome, _strikes, crowded_fight

from vtt.rules import plan_kept, positions, strike
from vtt.rules.conditions import PHYSICAL_ATTACK
from vtt.rules.dice import RandomDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.model import BoardObject, BodyPart, CarriedLight, Cell, Creature, Economy, Effect, GameState, Hold, Pool
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy

SWORD = weapon("sword", 2)
SPEAR = weapon("spear", 2, extend=1)
STRIKE = ("a", "b", None, None, "sword", None, False, None, None, False, False)
"""`strike._prepare`'s inputs for A's Strike on B with the sword."""
SPEAR_STRIKE = ("a", "b", None, None, "spear", None, False, None, None, False, False)
CALLED_SHOT = ("a", "b", None, None, "sword", None, False, None, "head", False, False)
CHARGE = ("a", "b", None, None, "sword", None, False, None, None, True, False)


def fight(**changes: Any) -> GameState:
    """A (size 0, a sword in its right arm, a spear in its left) and B next to it, A's turn; `changes` to the
    board or settings."""
    a = creature("a", (5, 5), weapons=[SWORD, SPEAR], grip={"right_arm": "sword", "left_arm": "spear"}, controller="p1")
    b = creature("b", (6, 5), grit=Pool(max=99), severe_threshold=1)
    return on_turn(state(a, b, **changes), "a")


def with_creature(s: GameState, cid: str, **fields: Any) -> GameState:
    """`s` with one creature's fields changed (a new creature object, as a command makes it)."""
    changed = s.creatures[cid].model_copy(update=fields)
    return s.model_copy(update={"creatures": {**s.creatures, cid: changed}})


def with_state(s: GameState, **fields: Any) -> GameState:
    return s.model_copy(update=fields)


def _counted(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """How many times `strike.<name>` is called from now on (one counter in a list)."""
    calls = [0]
    original = getattr(strike, name)

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)

    monkeypatch.setattr(strike, name, counted)
    return calls


@pytest.fixture
def worked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times a Strike's plan was worked out (not taken from what was kept)."""
    yield from _counting(monkeypatch, "_work_out")


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> Iterator[list[int]]:
    """`_counted` with nothing kept before or after."""
    calls = _counted(monkeypatch, name)
    positions.forget()
    yield calls
    positions.forget()


def prepared(s: GameState, inputs: tuple[Any, ...], as_given: bool = True) -> Any:
    """The Strike's prepared values without the attacker object itself (its Pools are not read), or its refusal."""
    try:
        c, p = strike._prepare(s, Occupancy(s), inputs, as_given=as_given)
    except RuleError as e:
        return str(e)
    return [c.model_dump(exclude={"grit", "energy", "resolve"}), p.arm, p.strike_type, p.plan, p.offset, p.path_text]


def test_a_strike_again_after_its_target_took_damage_and_the_turn_passed_reuses_its_plan(worked: list[int]) -> None:
    """A real sequence: A Strikes B, B takes damage, the turn passes to the Soulweaver and back, A Strikes B again:
    the second Strike's plan is the one kept, and the outcome is exactly that of the Strike with nothing kept."""
    cmd = {"type": "strike", "creature": "a", "target": "b", "weapon": "sword"}
    s1, _ = apply(fight(), cmd, RandomDice(3))
    b1 = s1.creatures["b"]
    assert b1.grit.pips > 0 and b1.ailments.get("Wounded"), "B takes damage"
    s2 = s1
    while True:
        s2, _ = apply(s2, {"type": "end_turn"}, RandomDice(0))
        if s2.turn.current == "a":
            break
    assert worked[0] == 1
    after, events = apply(s2, cmd, RandomDice(4))
    assert worked[0] == 1, "the plan of the first Strike is reused"
    positions.forget()
    fresh_after, fresh_events = apply(s2, cmd, RandomDice(4))
    assert worked[0] == 2
    assert [e.model_dump() for e in events] == [e.model_dump() for e in fresh_events]
    assert after.model_dump() == fresh_after.model_dump()


def test_what_the_plan_does_not_read_keeps_it(worked: list[int]) -> None:
    """B's Pools and Wounded parts (damage taken), A's Pools, the Economy and the turn order are not read: the plan
    kept is reused, and it is the plan worked out anew."""
    s = fight()
    first = prepared(s, STRIKE)
    hurt = with_creature(s, "b", grit=Pool(max=99, pips=7), ailments={"Wounded": 2}, parts=_wounded_torso(s, "b"))
    later = _turns_later(hurt)
    assert prepared(later, STRIKE) == first
    assert worked[0] == 1
    assert prepared(later, STRIKE, as_given=False) == first


def test_walls_and_objects_equal_to_those_the_plan_read_keep_it(worked: list[int]) -> None:
    """The filled spaces a plan reads are read as the board's walls and objects: new ones equal to those (a copy of
    the board, as a loaded map or an undo makes it) keep the plan, and it is the plan worked out anew."""
    crate = BoardObject(id="crate", name="Crate", cells=[(5, 7)])
    s = fight(walls={(2, 2)}, objects=[crate])
    first = prepared(s, SPEAR_STRIKE)
    copied = with_state(s, board=s.board.model_copy(update={"walls": {(2, 2)}, "objects": [crate.model_copy()]}))
    assert copied.board.walls is not s.board.walls and copied.board.objects is not s.board.objects
    assert prepared(copied, SPEAR_STRIKE) == first
    assert worked[0] == 1
    assert prepared(copied, SPEAR_STRIKE, as_given=False) == first


def _turns_later(s: GameState) -> GameState:
    """`s` rounds later: A's Energy spent, its Major Action paid, the round 4."""
    tired = with_creature(s, "a", energy=Pool(max=6, pips=3))
    return with_state(
        tired, economy={"a": Economy(major=0, attacked=True)}, turn=s.turn.model_copy(update={"round": 4})
    )


def test_a_plan_on_a_state_not_as_given_is_not_kept(worked: list[int]) -> None:
    """A Strike planned on a state a command may still change (`as_given` off) keeps nothing for later states."""
    s = fight()
    first = prepared(s, STRIKE, as_given=False)
    assert prepared(s, STRIKE) == first
    assert worked[0] == 2
    assert prepared(s, STRIKE) == first
    assert worked[0] == 2


def _wounded_torso(s: GameState, cid: str) -> list[BodyPart]:
    return [p.model_copy(update={"wounded": 2}) if p.id == "torso" else p for p in s.creatures[cid].parts]


def _arm_wounded(s: GameState) -> GameState:
    parts = [p.model_copy(update={"wounded": 1}) if p.id == "right_arm" else p for p in s.creatures["a"].parts]
    return with_creature(s, "a", parts=parts)


def _accurate_sword(s: GameState) -> GameState:
    return with_creature(s, "a", weapons=[SWORD.model_copy(update={"accurate": True}), SPEAR])


def _head_offset(s: GameState) -> GameState:
    parts = [p.model_copy(update={"size_offset": 7}) if p.id == "head" else p for p in s.creatures["b"].parts]
    return with_creature(s, "b", parts=parts)


def _effect_on_a(s: GameState) -> GameState:
    bless = Effect(id="e1", name="Blessing", creator="b", subject="a", modifiers={PHYSICAL_ATTACK: 1})
    return with_state(s, effects=[bless])


def _wall_between(s: GameState) -> GameState:
    board = s.board.model_copy(update={"walls": {(6, 5)}})
    return with_state(s, board=board)


def _spear_fight() -> GameState:
    """B two spaces east of A: only the spear reaches it."""
    return with_creature(fight(), "b", anchor=(7, 5))


def _charging() -> GameState:
    return with_state(fight(), economy={"a": Economy(major=1, dashed=True, consecutive_spaces=2)})


def _dark(s: GameState) -> GameState:
    """A dark map; a third creature next to B carries a torch."""
    torch = creature("c", (7, 4), light=CarriedLight(bright=2, dim=4))
    return with_state(
        s, settings=s.settings.model_copy(update={"ambient_light": "dark"}), creatures={**s.creatures, "c": torch}
    )


def _obstructing() -> GameState:
    """Creatures obstruct; B two spaces east of A, a third creature away from the line between them."""
    s = _spear_fight()
    between = creature("c", (9, 9))
    return with_state(
        s, settings=s.settings.model_copy(update={"creatures_obstruct": True}), creatures={**s.creatures, "c": between}
    )


def _held() -> GameState:
    """A holds a small creature C in a Grapple (a Hold's Encumbered is less A's size advantage over C)."""
    s = fight()
    held = creature("c", (4, 5), size=-1)
    hold = Hold(id="h1", holders={"a": ["right_arm"]}, held=["c"])
    return with_state(s, creatures={**s.creatures, "c": held}, holds={"h1": hold})


Change = Callable[[GameState], GameState]
ATTACKER_CHANGES: list[tuple[str, Change]] = [
    ("A's skill", lambda s: with_creature(s, "a", skills={**s.creatures["a"].skills, "Martial": 3})),
    ("A's weapon", _accurate_sword),
    ("A's ailments", lambda s: with_creature(s, "a", ailments={"Dazzled": 1})),
    ("A's Wounded arm", _arm_wounded),
]
"""Changes to the attacker that every plan reads, on a Strike at a creature or at a surface alike."""
CASES: list[tuple[str, Callable[[], GameState], Change, tuple[Any, ...]]] = [
    ("A moved", fight, lambda s: with_creature(s, "a", anchor=(6, 4)), STRIKE),
    *[(what, fight, change, STRIKE) for what, change in ATTACKER_CHANGES],
    ("B moved", fight, lambda s: with_creature(s, "b", anchor=(5, 6)), STRIKE),
    ("B's size", fight, lambda s: with_creature(s, "b", size=-2), STRIKE),
    ("B Prone", fight, lambda s: with_creature(s, "b", prone=True), STRIKE),
    ("B's name", fight, lambda s: with_creature(s, "b", name="Bruiser"), STRIKE),
    ("B's head for a Called Shot", fight, _head_offset, CALLED_SHOT),
    ("an effect on A", fight, _effect_on_a, STRIKE),
    ("the settings", fight, lambda s: with_state(s, settings=TableSettings(strike_defense="Athletics")), STRIKE),
    ("a wall", _spear_fight, _wall_between, SPEAR_STRIKE),
    ("the Economy of a Charge", _charging, lambda s: with_state(s, economy={}), CHARGE),
    ("another creature's light", lambda: _dark(fight()), lambda s: with_creature(s, "c", light=None), STRIKE),
    ("another creature obstructing", _obstructing, lambda s: with_creature(s, "c", anchor=(6, 5)), SPEAR_STRIKE),
    ("another creature in A's Hold", _held, lambda s: with_creature(s, "c", size=1, anchor=(3, 5)), STRIKE),
]


@pytest.mark.parametrize(("what", "make", "change", "inputs"), CASES, ids=[c[0] for c in CASES])
def test_a_change_to_what_the_plan_reads_works_it_out_again(
    worked: list[int], what: str, make: Callable[[], GameState], change: Change, inputs: tuple[Any, ...]
) -> None:
    """Two states that differ only in one thing the plan reads give different plans: the one kept for the first is
    not reused for the second, whose plan is the one worked out anew."""
    _check_worked_out_again(what, make(), change, inputs)


def _check_worked_out_again(what: str, s: GameState, change: Change, inputs: tuple[Any, ...]) -> None:
    """The plan kept for `s` is not reused for `change(s)`, whose plan is the one worked out anew."""
    first = prepared(s, inputs)
    assert prepared(s, inputs) == first
    changed = change(s)
    again = prepared(changed, inputs)
    assert again != first, f"{what} changes the plan"
    assert again == prepared(changed, inputs, as_given=False)


@pytest.mark.parametrize("seed", range(6))
def test_a_strike_after_another_state_is_the_strike_with_nothing_kept(seed: int) -> None:
    """For random crowded fights (creatures that obstruct or not, dim light, ailments, Wounded parts, Prone), every
    Strike the acting creature could try, made on a state, then on a state where one creature was hurt anew (the
    attacker, the target or another): the second gives exactly the events and the state (or the refusal) it gives
    with nothing kept from the first."""
    rng = random.Random(seed)
    for k in range(4):
        fight_state = crowded_fight(100 + seed * 4 + k)
        for actor in fight_state.creatures:
            s = on_turn(fight_state, actor)
            for cmd in _strikes(s, actor, rng):
                _check_kept_is_fresh(s, cmd, rng.choice([actor, cmd["target"], *s.creatures]), rng)


def _check_kept_is_fresh(s: GameState, cmd: dict[str, Any], who: str, rng: random.Random) -> None:
    """`cmd` made on `s`, then on `s` with `who` hurt anew, gives there what it gives with nothing kept."""
    faces = [rng.randint(1, 12) for _ in range(60)]
    positions.forget()
    _outcome(_fresh(s), cmd, faces)
    later = with_state(s, creatures={**s.creatures, who: _hurt(s.creatures[who], rng)})
    kept = _outcome(_fresh(later), cmd, faces)
    positions.forget()
    assert kept == _outcome(_fresh(later), cmd, faces), (cmd, who)


def _walls_and_objects_changed(s: GameState, rng: random.Random, near: list[Cell]) -> GameState:
    """`s` with its walls and objects replaced at random: equal ones as new objects, or up to three changes on the
    spaces `near` (a wall added or removed, a crate added, moved, broken or mended)."""
    walls = set(s.board.walls)
    objects = [o.model_copy() for o in s.board.objects]
    for _ in range(rng.randint(0, 3)):
        cell = rng.choice(near)
        what = rng.random()
        if what < 0.3:
            walls.add(cell)
        elif what < 0.5 and walls:
            walls.discard(rng.choice(sorted(walls)))
        elif what < 0.75 or not objects:
            objects.append(BoardObject(id=f"crate{len(objects)}", name="Crate", cells=[cell]))
        else:
            i = rng.randrange(len(objects))
            change: dict[str, Any] = rng.choice([{"broken": not objects[i].broken}, {"cells": [cell]}])
            objects[i] = objects[i].model_copy(update=change)
    return with_state(s, board=s.board.model_copy(update={"walls": walls, "objects": objects}))


@pytest.mark.parametrize("seed", range(4))
def test_a_strike_after_the_walls_or_objects_changed_is_the_strike_with_nothing_kept(seed: int) -> None:
    """A Strike's plan is kept by the walls and objects of the board (what its filled spaces follow from), not by the
    spaces themselves: for random crowded fights with crates, every Strike the acting creature could try on a
    creature, a wall or the ground, made on a state, then on the state with its walls and objects rebuilt (equal ones
    as new objects, walls or crates added, removed, moved, broken or mended), gives exactly the events and the state
    (or the refusal) it gives with nothing kept."""
    rng = random.Random(seed)
    around = [(q, r) for q in range(2, 8) for r in range(2, 8)]  # the creatures stand on and around 3 to 5
    for k in range(3):
        fight_state = _walls_and_objects_changed(crowded_fight(300 + seed * 3 + k), rng, around)
        for actor in fight_state.creatures:
            s = on_turn(fight_state, actor)
            surface = _surface_strikes(s, actor, rng)
            for cmd in [*_strikes(s, actor, rng), *rng.sample(surface, min(3, len(surface)))]:
                faces = [rng.randint(1, 12) for _ in range(60)]
                space = cmd.get("space")
                later = _walls_and_objects_changed(s, rng, [space] if space is not None else around)
                positions.forget()
                _outcome(_fresh(s), cmd, faces)
                kept = _outcome(_fresh(later), cmd, faces)
                positions.forget()
                assert kept == _outcome(_fresh(later), cmd, faces), (cmd, later.board.walls, later.board.objects)


NOT_IN_PLAN = {"B's head for a Called Shot", "the Economy of a Charge"}
"""Cases whose change the Strike reads outside its plan (`strike.plan_creature_strike`): the part's offset, the
Economy of a Charge."""


def menu_plan(s: GameState, inputs: tuple[Any, ...], menu: bool = True) -> Any:
    """`strike.plan_creature_strike` as a menu asks it (on the occupancy kept for the state: its plan is kept across
    states), or on an occupancy of its own (worked out for that state alone); or its refusal."""
    cid, tid, _, _, wid, lid, nimble, _, called, charge, minor = inputs
    c, t = s.creatures[cid], s.creatures[tid]
    occ = positions.occupancy(s) if menu else Occupancy(s)
    try:
        arm = strike.armament(s, c, wid, lid)
        return strike.plan_creature_strike(
            s, occ, c, t, arm, nimble, s.board.filled(), called is not None, charge, minor
        ).model_dump()
    except RuleError as e:
        return str(e)


@pytest.mark.parametrize(("what", "make", "change", "inputs"), CASES, ids=[c[0] for c in CASES])
def test_a_menu_plan_kept_across_states_is_the_plan_worked_out_anew(
    worked: list[int], what: str, make: Callable[[], GameState], change: Change, inputs: tuple[Any, ...]
) -> None:
    """A menu's plan of a Strike (`plan_creature_strike`) is kept across states too: on a state that differs from
    the first only in one thing the plan reads, it is the plan worked out anew for that state, not the first's."""
    s = make()
    first = menu_plan(s, inputs)
    changed = change(s)
    again = menu_plan(changed, inputs)
    assert again == menu_plan(changed, inputs, menu=False)
    if what not in NOT_IN_PLAN:
        assert again != first, f"{what} changes the plan"


def test_a_menu_after_the_turn_passed_reuses_its_strike_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """A's menu, then the turn passes to the Soulweaver and back: A's menu plans its Strike on B from what was kept
    (B and A unchanged), and it is the menu worked out with nothing kept."""
    planned = _counted(monkeypatch, "_plan_creature_strike")
    positions.forget()
    s = fight()
    legal_actions(s, "a")
    first = planned[0]
    assert first > 0
    while True:
        s, _ = apply(s, {"type": "end_turn"}, RandomDice(0))
        if s.turn.current == "a":
            break
    menu = [o.model_dump() for o in legal_actions(s, "a")]
    assert planned[0] == first, "no Strike plan worked out again"
    positions.forget()
    assert menu == [o.model_dump() for o in legal_actions(s, "a")]
    assert planned[0] == 2 * first


def test_a_menu_plan_is_kept_for_the_armament_it_is_given(worked: list[int]) -> None:
    """`plan_creature_strike` plans with the armament it is given: another weapon of the same id (not the one the
    attacker carries) is another plan."""
    s = fight()
    c, t = s.creatures["a"], s.creatures["b"]
    carried = strike.armament(s, c, "sword", None)
    other = carried.model_copy(update={"weapon": SWORD.model_copy(update={"accurate": True})})
    plans = [
        strike.plan_creature_strike(s2, positions.occupancy(s2), c, t, arm, False, s2.board.filled())
        for s2, arm in ((s, carried), (with_state(s, version=s.version + 1), other))
    ]
    assert plans[0].modifiers != plans[1].modifiers


# ---- the Economy a Strike's Major Action leaves, kept across states ----------------------------------------------

STRIKE_CMD = {"type": "strike", "creature": "a", "target": "b", "weapon": "sword"}


@pytest.fixture
def paid(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times the Economy a Strike's Major Action leaves was worked out (not taken from what was kept)."""
    yield from _counting(monkeypatch, "_paid")


def struck(s: GameState) -> Any:
    """A's Strike on B on a new copy of `s` (no menu asked of it): the state it leaves, or its refusal."""
    try:
        after, events = apply(_fresh(s), STRIKE_CMD, RandomDice(5))
    except RuleError as e:
        return str(e)
    return after.model_dump(), [e.model_dump() for e in events]


def with_economy(s: GameState, cid: str, **fields: Any) -> GameState:
    return with_state(s, economy={**s.economy, cid: s.economy[cid].model_copy(update=fields)})


def _unlocked_on_full_resolve() -> GameState:
    """A's Resolve Pool full, its Major Action unlocked this turn (the DL 12 Zeal roll)."""
    return with_economy(with_creature(fight(), "a", resolve=Pool(max=6, pips=6)), "a", major_unlocked=True)


PAID_CASES: list[tuple[str, Callable[[], GameState], Change]] = [
    ("A's Major Actions left", fight, lambda s: with_economy(s, "a", major=2)),
    ("A's Movement spent", fight, lambda s: with_economy(s, "a", movement_spent=3)),
    ("A's actions a Distract may follow", fight, lambda s: with_economy(s, "a", distractable=["minor"])),
    ("A's Major Action unlocked", _unlocked_on_full_resolve, lambda s: with_economy(s, "a", major_unlocked=False)),
    ("A's Resolve Pool full", fight, lambda s: with_creature(s, "a", resolve=Pool(max=6, pips=6))),
    ("A has no Economy", fight, lambda s: with_state(s, economy={})),
]


@pytest.mark.parametrize(("what", "make", "change"), PAID_CASES, ids=[c[0] for c in PAID_CASES])
def test_a_change_to_what_paying_reads_pays_anew(
    paid: list[int], what: str, make: Callable[[], GameState], change: Change
) -> None:
    """Two states that differ only in one thing paying A's Strike reads (its Economy, its Resolve Pool): the Economy
    kept for the first is not shared with the second, whose Strike is the Strike with nothing kept."""
    s = make()
    first = struck(s)
    assert struck(s) == first
    changed = change(s)
    again = struck(changed)
    assert again != first, f"{what} changes the Strike"
    positions.forget()
    assert again == struck(changed)


def test_what_paying_does_not_read_shares_the_economy_kept(paid: list[int]) -> None:
    """A Strike on B, then on a state where B's Pools filled, A's Pools too (but its Resolve Pool not full), the
    turn's round and another creature's Economy changed: the second shares the Economy the first's Major Action left,
    and its outcome is exactly the Strike's with nothing kept."""
    s = fight()
    struck(s)
    assert paid[0] == 1
    hurt = with_creature(s, "b", grit=Pool(max=99, pips=7))
    tired = with_creature(hurt, "a", resolve=Pool(max=6, pips=5), grit=Pool(max=6, pips=2))
    later = with_state(
        tired, economy={**tired.economy, "b": Economy(major=1)}, turn=s.turn.model_copy(update={"round": 4})
    )
    kept = struck(later)
    assert paid[0] == 1, "the Economy kept is shared"
    positions.forget()
    assert kept == struck(later)
    assert paid[0] == 2


# ---- a Strike on a wall or the ground, kept across states ----------------------------------------------------------

GROUND = ("a", None, (4, 5), "ground", "sword", None, False, None, None, False, False)
"""`strike._prepare`'s inputs for A's Strike on the ground west of it with the sword."""
FAR_GROUND = ("a", None, (3, 5), "ground", "spear", None, False, None, None, False, False)
"""With the spear, on the ground two spaces west."""
WALL = ("a", None, (4, 5), "wall", "sword", None, False, None, None, False, False)
GROUND_CHARGE = ("a", None, (4, 5), "ground", "sword", None, False, None, None, True, False)


def _walled(**obj: Any) -> GameState:
    """A crate (`obj`: its fields changed) fills the space west of A."""
    crate = BoardObject(id="crate", name="crate", cells=[(4, 5)], size=0).model_copy(update=obj)
    return with_state(fight(), board=fight().board.model_copy(update={"objects": [crate]}))


def _wall_west(s: GameState) -> GameState:
    """A wall fills the space west of A."""
    return with_state(s, board=s.board.model_copy(update={"walls": {(4, 5)}}))


SURFACE_CASES: list[tuple[str, Callable[[], GameState], Change, tuple[Any, ...]]] = [
    ("A moved", fight, lambda s: with_creature(s, "a", anchor=(5, 7)), GROUND),
    *[(what, fight, change, GROUND) for what, change in ATTACKER_CHANGES],
    ("A Prone", fight, lambda s: with_creature(s, "a", prone=True), GROUND),
    ("A's size", _walled, lambda s: with_creature(s, "a", size=-1), WALL),
    ("an effect on A", fight, _effect_on_a, GROUND),
    ("the settings", fight, lambda s: with_state(s, settings=TableSettings(strike_skill="Athletics")), GROUND),
    ("a wall on the way", fight, _wall_west, FAR_GROUND),
    ("a wall filling the space", fight, _wall_west, GROUND),
    ("the map's bounds", fight, lambda s: with_state(s, board=s.board.model_copy(update={"cols": 4})), GROUND),
    ("the object's size", _walled, lambda s: _walled(size=3), WALL),
    ("the object's name", _walled, lambda s: _walled(name="barrel"), WALL),
    ("the object broken", _walled, lambda s: _walled(broken=True), WALL),
    ("the Economy of a Charge", lambda: _charging(), lambda s: with_state(s, economy={}), GROUND_CHARGE),
    ("another creature in A's Hold", _held, lambda s: with_creature(s, "c", size=1, anchor=(3, 5)), GROUND),
]


@pytest.mark.parametrize(("what", "make", "change", "inputs"), SURFACE_CASES, ids=[c[0] for c in SURFACE_CASES])
def test_a_change_to_what_a_surface_plan_reads_works_it_out_again(
    worked: list[int], what: str, make: Callable[[], GameState], change: Change, inputs: tuple[Any, ...]
) -> None:
    """A Strike on a wall or the ground: two states that differ only in one thing its plan reads give different
    plans, the second the one worked out anew."""
    _check_worked_out_again(what, make(), change, inputs)


def test_what_a_surface_plan_does_not_read_keeps_it(worked: list[int]) -> None:
    """B standing on the space struck, hurt, A's Pools, the Economy and the turn order are not read: the plan kept
    for a Strike on the ground is reused, and it is the plan worked out anew."""
    s = fight()
    first = prepared(s, GROUND)
    later = _turns_later(with_creature(s, "b", anchor=(4, 5), grit=Pool(max=99, pips=7), ailments={"Wounded": 2}))
    assert prepared(later, GROUND) == first
    assert worked[0] == 1
    assert prepared(later, GROUND, as_given=False) == first


def _surface_strikes(s: GameState, actor: str, rng: random.Random) -> list[dict[str, Any]]:
    """Strikes of `actor` on the ground and the walls around it, with each weapon or unarmed, some a Charge."""
    c = s.creatures[actor]
    q, r = c.anchor
    out: list[dict[str, Any]] = []
    for space in [(q + dq, r + dr) for dq in range(-3, 4) for dr in range(-3, 4) if rng.random() < 0.3]:
        for wid in [*(w.id for w in c.weapons), None]:
            surface = "wall" if space in s.board.walls else rng.choice(["ground", "ground", "wall"])
            cmd: dict[str, Any] = {
                "type": "strike",
                "creature": actor,
                "space": space,
                "surface": surface,
                "weapon": wid,
            }
            if rng.random() < 0.1:
                cmd["charge"] = True
            out.append(cmd)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_a_surface_strike_after_another_state_is_the_strike_with_nothing_kept(seed: int) -> None:
    """For random crowded fights, Strikes on the ground and walls near the acting creature, made on a state, then on
    a state where one creature was hurt anew: the second gives exactly what it gives with nothing kept."""
    rng = random.Random(seed)
    for k in range(3):
        fight_state = crowded_fight(200 + seed * 3 + k)
        for actor in fight_state.creatures:
            s = on_turn(fight_state, actor)
            for cmd in _surface_strikes(s, actor, rng):
                _check_kept_is_fresh(s, cmd, rng.choice(list(s.creatures)), rng)


def _random_economy_state(rng: random.Random) -> GameState:
    """`fight()` with A's Economy (or none) and Resolve Pool at random, each from a few values."""
    s = fight()
    economy = Economy(
        major=rng.choice([0, 1]),
        movement_spent=rng.choice([0, 3]),
        attacked=rng.random() < 0.5,
        major_unlocked=rng.random() < 0.5,
        distractable=rng.choice([[], ["minor"]]),
    )
    s = with_state(s, economy={} if rng.random() < 0.2 else {"a": economy})
    return with_creature(s, "a", resolve=Pool(max=6, pips=rng.choice([0, 5, 6])))


@pytest.mark.parametrize("seed", range(3))
def test_reads_as_paid_is_what_paying_reads_compared(seed: int) -> None:
    """`reads_as_paid` (what a kept Strike pays from, without reading the state anew) holds exactly when what paying
    reads of the later state (`paid_reads`: the Economy, whether the Resolve Pool blocks) equals the earlier's."""
    rng = random.Random(seed)
    seen = set()
    for _ in range(200):
        earlier, later = _random_economy_state(rng), _random_economy_state(rng)
        same = plan_kept.paid_reads(later, "a") == plan_kept.paid_reads(earlier, "a")
        assert plan_kept.reads_as_paid(later, "a", plan_kept.paid_reads(earlier, "a")) is same
        seen.add(same)
    assert seen == {True, False}


def test_reads_of_compare_every_field_a_plan_reads_of_its_creatures() -> None:
    """What a plan reads of its attacker (every field of `ATTACKER_READ`) and of its target (`TARGET_READ`) is in
    what it is kept by, whatever the number of fields: a creature that differs from the one read in any one of those
    fields alone (held in place of the value, as a test changing a creature in place would) reads differently, and
    one that differs only in a field not read reads the same. The limbs and parts, read field by field, differ in
    any one field of their last."""
    s = fight()
    a, b = s.creatures["a"], s.creatures["b"]
    first = plan_kept.reads_of(s, a, b, None, False)
    for role, names in (("a", plan_kept.ATTACKER_READ), ("b", plan_kept.TARGET_READ)):
        for name in Creature.model_fields:
            if name in plan_kept.READ_EACH:
                _check_each_field_read(s, role, name, name in names)
                continue
            changed = s.creatures[role].model_copy(update={name: object()})
            attacker, target = (changed, b) if role == "a" else (a, changed)
            read = plan_kept.reads_of(s, attacker, target, None, False)
            assert (read != first) is (name in names), (role, name)


def _check_each_field_read(s: GameState, role: str, name: str, read: bool) -> None:
    """A creature whose list `name` (of limbs or parts) differs in one field of its last item reads differently."""
    a, b = s.creatures["a"], s.creatures["b"]
    first = plan_kept.reads_of(s, a, b, None, False)
    items = getattr(s.creatures[role], name)
    for field in type(items[-1]).model_fields:
        last = items[-1].model_copy(update={field: object()})
        changed = s.creatures[role].model_copy(update={name: [*items[:-1], last]})
        attacker, target = (changed, b) if role == "a" else (a, changed)
        assert (plan_kept.reads_of(s, attacker, target, None, False) != first) is read, (role, name, field)


def test_reads_as_paid_compare_every_field_of_the_economy() -> None:
    """What paying reads of the Economy is every field of it (`ECONOMY_READ`): an Economy that differs from the one
    read in any one field alone (held in place of the value, as a test changing it in place would) reads as another,
    and the same Economy copied reads as the same."""
    s = fight()
    read = plan_kept.paid_reads(s, "a")
    assert set(plan_kept.ECONOMY_READ) == set(Economy.model_fields)
    assert plan_kept.reads_as_paid(with_economy(s, "a"), "a", read)
    for name in Economy.model_fields:
        changed = with_economy(s, "a", **{name: object()})
        assert not plan_kept.reads_as_paid(changed, "a", read), name
        assert plan_kept.paid_reads(changed, "a") != read, name
