"""Invariants the rules' fast paths stand on (see `bench/rules.py`): kept line shapes, copy-on-write states.

- `Grid.lines` keeps each line's shape (from (0, 0) to the offset) and moves it: it must give exactly the lines
  worked out where they start, anywhere on the largest map.
- `apply` never changes the state it is given, and the state it returns (built by copy-on-write, without
  validation) equals the same state validated from its dict.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import pytest
from factories import creature, on_turn, state, weapon
from pydantic import BaseModel

from vtt.rules.dice import RandomDice, RecordingDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.grid import Grid, GridKind, make_grid
from vtt.rules.limits import MAP_SIDE_MAX
from vtt.rules.model import SOULWEAVER, Cell, GameState
from vtt.rules.records import Record
from vtt.rules.space import Occupancy, standable, why_cannot_stand


def _direct_lines(grid: Grid, a: Cell, b: Cell) -> list[list[Cell]]:
    """The lines from `a` to `b` worked out where they are, without the kept shapes."""
    first = grid._line(a, b, True)
    second = grid._line(a, b, False)
    return [first] if first == second else [first, second]


@pytest.mark.parametrize("kind", [GridKind.HEX, GridKind.SQUARE])
def test_kept_line_shapes_equal_the_lines_worked_out_in_place(kind: GridKind) -> None:
    """reach / obstruction: an attack's path is a line of `Grid.lines`. Every offset within 12 spaces, started
    from spaces all over (and beyond) the largest map, gives the same lines as working them out in place."""
    grid = make_grid(kind)
    rng = random.Random(14)
    starts = [
        grid.from_offset(rng.randrange(-5, MAP_SIDE_MAX + 5), rng.randrange(-5, MAP_SIDE_MAX + 5)) for _ in range(40)
    ]
    starts += [(0, 0), grid.from_offset(MAP_SIDE_MAX - 1, MAP_SIDE_MAX - 1), grid.from_offset(0, MAP_SIDE_MAX - 1)]
    offsets = grid.within((0, 0), 12)
    for a in starts:
        for dq, dr in offsets:
            b = (a[0] + dq, a[1] + dr)
            assert grid.lines(a, b) == _direct_lines(grid, a, b), (a, b)


@pytest.mark.parametrize("kind", [GridKind.HEX, GridKind.SQUARE])
def test_kept_line_shapes_of_long_lines_equal_the_lines_worked_out_in_place(kind: GridKind) -> None:
    """Long lines across the largest map (a ranged shot's): the same lines as worked out in place."""
    grid = make_grid(kind)
    rng = random.Random(41)
    for _ in range(2000):
        a = grid.from_offset(rng.randrange(MAP_SIDE_MAX), rng.randrange(MAP_SIDE_MAX))
        b = grid.from_offset(rng.randrange(MAP_SIDE_MAX), rng.randrange(MAP_SIDE_MAX))
        assert grid.lines(a, b) == _direct_lines(grid, a, b), (a, b)


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same types all the way down (models field by field; their caches left out). A float
    field's default written as an int (pydantic does not validate defaults) counts as the float."""
    if {type(a), type(b)} == {int, float}:
        return bool(a == b)
    if type(a) is not type(b):
        return False
    if isinstance(a, BaseModel):
        return all(_same(getattr(a, f), getattr(b, f)) for f in type(a).model_fields)
    if isinstance(a, Record):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _fight_commands(s: GameState, rng: random.Random) -> list[dict[str, Any]]:
    """What the creature acting now (or every active NPC on the Soulweaver's turn) tries: a step, a Strike."""
    current = s.turn.current
    actors = (
        [current]
        if current not in (None, SOULWEAVER)
        else [c for c in s.creatures if s.creatures[c].controller is None]
    )
    out: list[dict[str, Any]] = []
    for cid in actors:
        if cid is None:
            continue
        c = s.creatures[cid]
        foes = sorted(o.id for o in s.creatures.values() if o.team != c.team)
        step = (c.anchor[0] + rng.choice((-1, 0, 1)), c.anchor[1] + rng.choice((-1, 0, 1)))
        out.append({"type": "move", "creature": cid, "to": step})
        if foes:
            out.append({"type": "strike", "creature": cid, "target": rng.choice(foes), "weapon": "sword"})
    return out


def test_apply_never_changes_its_input_and_returns_a_state_equal_to_its_validated_dict() -> None:
    """engine: "apply ... resolves one command without changing `state`". A fight of 120 commands with seeded
    dice (moves, Strikes, turn ends; hits, misses, Injury, Serious Injury): after every command the input
    state dumps as before it, and the new state, built by copy-on-write without validation, equals the state
    validated from its dict (same values, same types)."""
    sword = weapon("sword")
    creatures = [
        creature("p1", (5, 5), controller="alice", weapons=[sword], grip={"right_arm": "sword"}, severe_threshold=1),
        creature("p2", (5, 7), size=1, controller="bob", weapons=[sword], grip={"right_arm": "sword"}),
        creature("n1", (6, 5), weapons=[sword], grip={"right_arm": "sword"}, severe_threshold=0),
        creature("n2", (6, 7), size=1, weapons=[sword], grip={"right_arm": "sword"}),
    ]
    s = on_turn(state(*creatures, walls={(8, 8)}), "p1")
    rng = random.Random(3)
    dice = RandomDice(3)
    applied = refused = 0
    while applied < 120:
        for cmd in [*_fight_commands(s, rng), {"type": "end_turn"}]:
            before = s.model_dump()
            try:
                after, _ = apply(s, cmd, RecordingDice(dice))
            except RuleError:
                refused += 1
                assert s.model_dump() == before, cmd
                continue
            assert s.model_dump() == before, cmd
            dumped = after.model_dump()
            assert GameState.model_validate(dumped).model_dump() == dumped, cmd
            assert _same(GameState.model_validate(dumped), after), cmd
            legal_actions(after, cmd.get("creature", "p1"))
            assert after.model_dump() == dumped, "legal_actions changed the state"
            s = after
            applied += 1
    assert refused > 0
    assert any(c.grit.pips > 0 for c in s.creatures.values())


def test_standable_keeps_the_anchors_why_cannot_stand_allows() -> None:
    """space: a move's menu offers the spaces where the creature may end its move (on the map, off walls, fitting
    beside the others: two size 0 creatures share a space, a size 1 fills it). `standable` over every space near
    a crowd of sizes -1 to 2 keeps exactly the anchors `why_cannot_stand` allows, in their order."""
    crowd = [
        creature("big", (5, 5), size=2),
        creature("half", (8, 5), size=0),
        creature("tiny", (8, 6), size=-1),
        creature("one", (9, 7), size=1),
        creature("edge", (0, 0), size=0),
    ]
    s = state(*crowd, cols=14, rows=12, walls={(7, 7), (6, 8), (10, 5)})
    occ = Occupancy(s)
    filled = s.board.filled()
    grid = make_grid(s.settings.grid)
    anchors = sorted(grid.area_within([(7, 6)], 7))
    for c in s.creatures.values():
        expected = [a for a in anchors if why_cannot_stand(s, c, a, occ, filled) is None]
        assert standable(s, c, anchors, occ, filled) == expected, c.id
        assert 0 < len(expected) < len(anchors)


def test_random_dice_roll_the_faces_randint_rolls() -> None:
    """dice: "RandomDice for play (seeded)": a seed gives the faces `random.Random(seed).randint(1, 12)` gives,
    one roll after another (the seeded games and tests rely on that stream)."""
    for seed in (0, 1, 7, 2026):
        dice = RandomDice(seed)
        faces = [f for n in (1, 3, 2, 5, 0, 4) * 50 for f in dice.faces(n, "test")]
        rng = random.Random(seed)
        assert faces == [rng.randint(1, 12) for _ in faces]
        assert set(faces) == set(range(1, 13))
