"""One index of where creatures stand per state (`vtt.rules.positions`): for random chains of commands on random
small boards (placements, moves, Strikes, Holds, sheet edits, creatures added and removed), the occupancy each state
is given (read over the state before's, or derived from a state asked about before) lists the same creatures in each
space, in the same order, and the same footprints in the same order, as one indexed afresh; and the creatures a step
changed are those a pass over every creature finds, for a step `apply` made and for any two states of a game."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from itertools import pairwise
from typing import Any

import pytest
from factories import creature, on_turn, state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_copy_on_write import _board, _command
from test_menu_build import played, random_fight

from vtt.rules import positions, space
from vtt.rules.dice import DiceError, ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.events import RuleError
from vtt.rules.fastmodel import shallow_copy
from vtt.rules.grid import GridKind
from vtt.rules.model import Cell, GameState
from vtt.rules.space import Occupancy
from vtt.rules.txn import Tx
from vtt.table.state_steps import Steps

Index = tuple[list[tuple[object, list[str]]], list[tuple[str, tuple[object, ...]]]]


def _index(occ: Occupancy) -> Index:
    """Each space with its creatures, and each footprint, in their order."""
    by_cell = occ.by_cell
    return sorted((cell, list(ids)) for cell, ids in by_cell.items()), list(occ.cells.items())


def _fresh(s: GameState) -> Index:
    occ = Occupancy(s)
    _ = occ.by_cell
    return _index(occ)


def _plain_changed(before: GameState, after: GameState) -> frozenset[str]:
    """The creatures whose object is not the same in both states (absent from one of them counts)."""
    ids = before.creatures.keys() | after.creatures.keys()
    return frozenset(cid for cid in ids if before.creatures.get(cid) is not after.creatures.get(cid))


def _chain(rng: random.Random, n: int, kind: GridKind, commands: int) -> list[GameState]:
    """A random board of up to `n` creatures and the states random commands made from it, one after another."""
    s = _board(rng, n, 16, kind, walls=12, hold=rng.random() < 0.5)
    out = [s]
    for _ in range(commands):
        try:
            s, _ = apply(s, _command(s, rng), ScriptedDice([rng.randint(1, 12) for _ in range(40)]))
        except (RuleError, DiceError):
            continue
        out.append(s)
    return out


def _ask_each(order: list[GameState]) -> None:
    for s in order:
        assert _index(positions.occupancy(s)) == _fresh(s)


@contextmanager
def _threads_switching_often() -> Iterator[None]:
    """Python threads switching every microsecond (the interpreter's switch interval), restored after."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from([GridKind.HEX, GridKind.SQUARE]),
    n=st.sampled_from([6, 24, 40]),
)
def test_each_state_gets_the_occupancy_indexed_afresh_and_the_creatures_its_step_changed(
    seed: int, kind: GridKind, n: int
) -> None:
    """space: a creature of size s fills 2^(s-1) of each space of its footprint, a swallowed one none. Along a random
    chain, asked of some states and not others (so an occupancy is read over a state several steps back), with
    everything kept forgotten now and then (so it is derived from a state asked about before): each state's
    occupancy is the one indexed afresh, and each step's changed creatures (the table's steps too) are the plain
    ones."""
    rng = random.Random(seed)
    positions.forget()
    states = _chain(rng, n, kind, 30)
    steps = Steps()
    asked = 0
    forgotten = False
    for before, after in pairwise(states):
        plain = _plain_changed(before, after)
        assert positions.changed(before, after) == plain
        assert steps.add(before, after) == plain
        roll = rng.random()
        if not asked and after is states[-1]:
            roll = 0.5  # a short chain whose rolls asked of no state yet asks of its last
        if roll < 0.1:
            positions.forget()
            forgotten = True
        elif roll < 0.6:
            assert _index(positions.occupancy(after)) == _fresh(after)
            asked += 1
        elif roll < 0.8:
            kept = positions.of(after)
            assert (kept is None) == forgotten  # recorded by `apply` unless forgotten since
            if kept is not None:
                assert _index(kept) == _fresh(after)
    for _ in range(10):
        i, j = sorted(rng.sample(range(len(states)), 2)) if len(states) > 1 else (0, 0)
        assert positions.changed(states[i], states[j]) == _plain_changed(states[i], states[j])
        assert positions.changed(states[j], states[i]) == _plain_changed(states[j], states[i])
    for s in states:
        assert _index(positions.occupancy(s)) == _fresh(s)
    assert asked > 0 or len(states) < 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([6, 24]))
def test_a_replay_knows_the_creatures_of_its_last_step_and_of_no_other(seed: int, n: int) -> None:
    """A replay records no state, but the step `apply` made last: asked right after it, and for any two states of
    the chain (the last step's `after` with another `before`, an earlier step), the creatures changed are the plain
    ones; out of the replay, nothing of it is kept."""
    rng = random.Random(seed)
    positions.forget()
    start = _board(rng, n, 16, GridKind.HEX, walls=12, hold=rng.random() < 0.5)
    states = [start]
    with positions.replaying():
        for _ in range(30):
            s = states[-1]
            try:
                after, _ = apply(s, _command(s, rng), ScriptedDice([rng.randint(1, 12) for _ in range(40)]))
            except (RuleError, DiceError):
                continue
            assert positions.changed(s, after) == _plain_changed(s, after)
            for earlier in rng.sample(states, min(3, len(states))):
                assert positions.changed(earlier, after) == _plain_changed(earlier, after)
                assert positions.changed(after, earlier) == _plain_changed(after, earlier)
            states.append(after)
    assert all(positions.of(s) is None for s in states)
    if len(states) > 1:
        assert positions._replayed.get() is None


def test_the_menus_own_chain_of_states_gets_the_occupancy_indexed_afresh() -> None:
    """The states commands picked from the acting creature's menu make (seed-000 actions of every kind a small
    fight offers), each state's occupancy asked right after the one before it: as indexed afresh."""
    for seed in range(12):
        positions.forget()
        for s in played(seed, random_fight(seed), 10):
            assert _index(positions.occupancy(s)) == _fresh(s)


@given(
    seed=st.integers(0, 2**32 - 1),
    steps=st.lists(st.sampled_from(["put back", "removed", "added", "replaced"]), min_size=1, max_size=4),
    ask_between=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_creatures_removed_put_back_or_added_in_a_command_go_last_in_the_order_of_the_occupancy(
    seed: int, steps: list[str], ask_between: bool
) -> None:
    """space: two creatures of size 0 share a space. A command that removes a creature and puts it back (the same
    id, a new sheet), or adds one (beside the pair, mostly), moves it to the end of the state's creatures; one that
    replaces a creature's sheet keeps its place: each space lists the creatures, and the footprints come, in the
    order of the state's creatures, as in an index made afresh; the same over a few such steps, each asked of or
    not."""
    rng = random.Random(seed)
    spots = [(col, row) for row in range(0, 10, 2) for col in range(0, 10, 2)]
    rng.shuffle(spots)
    pair = spots[0]
    crowd = [creature(f"c{i}", spot) for i, spot in enumerate(spots[1:21], start=2)]
    s = state(creature("c0", pair), creature("c1", pair), *crowd)
    positions.forget()
    _ = positions.occupancy(s)
    for i, step in enumerate(steps):
        tx = Tx(s)
        together = [cid for cid in s.creatures if s.creatures[cid].anchor == pair]
        cid = rng.choice(together) if together and rng.random() < 0.8 else rng.choice(list(s.creatures))
        if step == "added":
            tx.put_creature(creature(f"new{i}", pair if rng.random() < 0.8 else spots[21 + i]))
        elif step == "replaced":
            tx.put_creature(s.creatures[cid].model_copy())
        else:
            sheet = s.creatures[cid].model_copy()
            tx.remove_creature(cid)
            if step == "put back":
                tx.put_creature(sheet)
        positions.seal(tx)
        s = tx.state
        if ask_between:
            assert _index(positions.occupancy(s)) == _fresh(s)
    assert _index(positions.occupancy(s)) == _fresh(s)


def test_a_state_not_made_by_apply_is_indexed_as_it_is_now() -> None:
    """space: a creature does not fit beside a size 1 creature. A copy of a state with one creature moved by hand,
    asked right after the original, holds the moved creature where it now stands; a state made by hand and never
    asked about is not kept (its maker may still change it)."""
    spots = [(col, row) for row in range(0, 12, 2) for col in range(0, 12, 2)]
    s = on_turn(state(*(creature(f"c{i}", spot, size=1) for i, spot in enumerate(spots))), "c0")
    assert positions.of(s) is None
    _ = positions.occupancy(s)
    moved = s.model_copy(update={"creatures": dict(s.creatures)})
    moved.creatures["c1"] = s.creatures["c1"].model_copy(update={"anchor": (1, 1)})
    occ = positions.occupancy(moved)
    assert occ.at((1, 1)) == ["c1"]
    assert occ.at(s.creatures["c1"].anchor) == []
    assert _index(occ) == _fresh(moved)


def test_states_asked_from_several_threads_at_once_get_the_occupancy_indexed_afresh() -> None:
    """Four threads ask the occupancy of the states of one random chain in random orders, at once: each answer is
    the occupancy indexed afresh, and every thread is handed the same one for a state."""
    rng = random.Random(7)
    positions.forget()
    states = _chain(rng, 40, GridKind.HEX, 40)
    orders = [rng.sample(states, len(states)) for _ in range(4)]

    def ask(order: list[GameState]) -> dict[int, Occupancy]:
        return {id(s): positions.occupancy(s) for s in order}

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(ask, orders))
    for s in states:
        got = {id(a[id(s)]) for a in answers}
        assert len(got) == 1
        assert _index(answers[0][id(s)]) == _fresh(s)


def test_kept_states_touched_from_other_threads_while_menus_derive_and_states_are_pushed_out() -> None:
    """Two threads ask `known` and `of` of a chain's states (reordering the kept states without the lock) while two
    ask the occupancy of copies `apply` never recorded (each derived from the kept states, read in order) and more
    states than are kept are pushed out, threads switching often: no thread fails, every occupancy handed out is the
    one indexed afresh."""
    rng = random.Random(11)
    positions.forget()
    states = _chain(rng, 40, GridKind.HEX, positions.KEPT + 40)
    copies = [s.model_copy(update={"creatures": dict(s.creatures)}) for s in states]

    def touch(order: list[GameState]) -> None:
        for s in order:
            known = positions.known(s)
            assert known is None or _index(known) == _fresh(s)
            occ = positions.of(s)
            assert occ is None or _index(occ) == _fresh(s)

    with _threads_switching_often(), ThreadPoolExecutor(max_workers=4) as pool:
        done = [pool.submit(touch, rng.sample(states, len(states))) for _ in range(2)]
        done += [pool.submit(_ask_each, rng.sample(copies, len(copies))) for _ in range(2)]
        for future in done:
            future.result()


def test_states_recorded_by_apply_in_threads_while_others_ask_of_kept_states_and_push_them_out() -> None:
    """`seal` records the state its thread made without the lock. Two threads make chains of commands (recording more
    states than are kept) while two ask the occupancy of copies `apply` never recorded (kept, derived from the kept
    states) and of an earlier chain's states, threads switching often: no thread fails, every occupancy handed out is
    the one indexed afresh, and each state a chain made is kept with the creatures its step changed."""
    rng = random.Random(13)
    positions.forget()
    earlier = _chain(rng, 40, GridKind.HEX, 60)
    copies = [s.model_copy(update={"creatures": dict(s.creatures)}) for s in earlier]
    seeds = [rng.randrange(2**32) for _ in range(2)]

    def make(seed: int) -> list[GameState]:
        return _chain(random.Random(seed), 24, GridKind.SQUARE, positions.KEPT)

    with _threads_switching_often(), ThreadPoolExecutor(max_workers=4) as pool:
        made = [pool.submit(make, seed) for seed in seeds]
        asked = [pool.submit(_ask_each, rng.sample(group, len(group))) for group in (copies, earlier)]
        chains = [future.result() for future in made]
        for future in asked:
            future.result()
    for chain in chains:
        for before, after in pairwise(chain[-8:]):
            assert positions.changed(before, after) == positions.scan_changed(before, after)
            assert _index(positions.occupancy(after)) == _fresh(after)


def test_a_state_given_many_commands_keeps_its_occupancy_for_their_placement_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table's state, given more commands than `KEPT` states (the Soulweaver dragging tokens from it), stays
    kept: each command's placement check reads its occupancy, none reads every creature's footprint again
    (`space.scan`), and the outcome is that of the same placement on a copy nothing is kept of."""
    positions.forget()
    table = _chain(random.Random(5), positions.FRESH_UP_TO + 8, GridKind.HEX, 1)[-1]
    positions.occupancy(table)
    scans: list[int] = []
    scan = space.scan

    def counted(*args: Any) -> dict[Cell, list[str]]:
        scans.append(1)
        return scan(*args)

    monkeypatch.setattr(space, "scan", counted)
    placed = 0
    for i in range(positions.KEPT + 20):
        cid = sorted(table.creatures)[i % len(table.creatures)]
        to = table.creatures[cid].anchor
        cmd = {"type": "place", "creature": cid, "to": to}
        after, _ = apply(table, cmd, ScriptedDice([]))
        placed += 1
        assert positions.sealed(table), i
        assert scans == [], i
        if i % 40 == 0:  # a copy nothing is kept of: each footprint read (`scan`)
            again, _ = apply(shallow_copy(table, creatures=dict(table.creatures)), cmd, ScriptedDice([]))
            assert again.model_dump() == after.model_dump()
            assert scans == [1]
            scans.clear()
    assert placed == positions.KEPT + 20
