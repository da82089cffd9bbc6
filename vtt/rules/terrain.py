"""Uneven Ground (reference §2.5): what it costs to enter and the Balance roll it calls for.

- FACT: environments are rated in Tiers; marbles turn a space into Tier 2 Uneven Ground (reference §2.5, [worldly]).
  Mobility rolls such as Balance are made the first time they apply in a round and hold for that round (FACT,
  [maneuver]).
- GAP 7, ASSUMPTIONS (table settings):
  - a step that brings the creature's footprint onto an Uneven Ground space it was not on costs
    `uneven_move_extra` (+1) Movement more, like difficult terrain;
  - such a step calls for a Balance Mobility roll (`balance_skill`, Athletics) at DL `uneven_balance_dl` (3) + the
    highest Tier entered (`uneven_balance`, on). The first roll of the creature's turn is kept in its Economy and
    holds for the rest of the round (a creature moves on its own turn, so its turn is its round); each later
    Uneven Ground space compares that same result with its own DL. A Fumbled roll holds as a failure when the
    table's Fumbles always fail. Exhausted (a penalty on Skill rolls) and the most Wounded leg (reference §5.2
    ASSUMPTION, see `ailments.wounded_limbs_modifiers`) change the roll; a change of conditions forcing a new
    roll is not modelled.
  - on a failure the creature falls Prone in the space where it failed and its move ends there (in the last space
    of the path where it fits, if it does not fit there); it pays only for the spaces it moved, and a Collision the
    move was making does not happen. A creature already Prone makes no Balance roll.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import cache

from vtt.rules import ailments, prone
from vtt.rules.checks import CheckResult
from vtt.rules.dice import DiceSource, roll
from vtt.rules.events import Event
from vtt.rules.grid import Grid
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.space import footprint, footprint_offsets, grid_of
from vtt.rules.txn import Tx

LEGS = frozenset({"leg"})


def entered_tier(state: GameState, c: Creature, prev: Cell, nxt: Cell) -> int:
    """The highest Tier of Uneven Ground the step from anchor `prev` to `nxt` enters (0: none)."""
    uneven = state.board.uneven
    if not uneven:
        return 0
    offsets = footprint_offsets(state, c)
    if len(offsets) == 1:  # one space: the step enters it unless it stays where it was
        dq, dr = offsets[0]
        return 0 if nxt == prev else uneven.get((nxt[0] + dq, nxt[1] + dr), 0)
    before = set(footprint(state, c, prev))
    return max((uneven.get(cell, 0) for cell in footprint(state, c, nxt) if cell not in before), default=0)


def step_cost(state: GameState, c: Creature, prev: Cell, nxt: Cell) -> int:
    """Movement the step costs: 1 (more while Prone), more onto Uneven Ground."""
    extra = state.settings.uneven_move_extra if entered_tier(state, c, prev, nxt) else 0
    return prone.space_cost(state, c) + extra


def path_cost(state: GameState, c: Creature, path: list[Cell], start: Cell | None = None) -> int:
    """Movement a path of anchor spaces costs from `start` (default: where the creature stands)."""
    if not state.board.uneven:
        return len(path) * prone.space_cost(state, c)
    prev = c.anchor if start is None else start
    total = 0
    for step in path:
        total += step_cost(state, c, prev, step)
        prev = step
    return total


@cache
def _steps(grid: Grid) -> tuple[Cell, ...]:
    """The offsets of a space's neighbours, in the grid's order."""
    return tuple(grid.neighbours((0, 0)))


def reachable(
    state: GameState,
    c: Creature,
    movement: int,
    filled: AbstractSet[Cell],
    can_pass: Callable[[Cell], bool],
    goal: Cell | None = None,
) -> dict[Cell, list[Cell]]:
    """Every anchor space reachable with `movement` Movement, with a cheapest path to each. Without Uneven Ground
    (or with no extra cost for it) every step costs the same and a breadth-first search finds the paths.
    With `goal`, the search stops once the path to it is final (the same path the whole search gives)."""
    grid = grid_of(state)
    start = c.anchor
    paths: dict[Cell, list[Cell]] = {start: []}
    if goal == start:
        return paths
    per_space = prone.space_cost(state, c)
    if not state.board.uneven or state.settings.uneven_move_extra == 0:
        # breadth-first, one step of depth at a time; the neighbours in the grid's order, as `grid.neighbours` gives
        steps = _steps(grid)
        if (
            goal is not None
            and movement >= per_space
            and (goal[0] - start[0], goal[1] - start[1]) in steps
            and can_pass(goal)
        ):  # a goal next to the start: the first step of depth finds it, whatever it tries before it
            paths[goal] = [goal]
            return paths
        blocked: set[Cell] = set()
        frontier = [start]
        for _ in range(movement // per_space):
            reached: list[Cell] = []
            for cell in frontier:
                path = paths[cell]
                q, r = cell
                for dq, dr in steps:
                    nxt = (q + dq, r + dr)
                    if nxt in paths or nxt in blocked:
                        continue
                    if not can_pass(nxt):
                        blocked.add(nxt)
                        continue
                    paths[nxt] = [*path, nxt]
                    if nxt == goal:
                        return paths
                    reached.append(nxt)
            if not reached:
                break
            frontier = reached
        return paths
    cost: dict[Cell, int] = {start: 0}
    heap: list[tuple[int, int, Cell]] = [(0, 0, start)]
    order = 1
    done: set[Cell] = set()
    while heap:
        spent, _, cell = heapq.heappop(heap)
        if cell in done:
            continue
        if cell == goal:
            return paths
        done.add(cell)
        for nxt in grid.neighbours(cell):
            if nxt in done:
                continue
            total = spent + step_cost(state, c, cell, nxt)
            if total > movement or total >= cost.get(nxt, movement + 1):
                continue
            if nxt not in cost and not can_pass(nxt):
                continue
            cost[nxt] = total
            paths[nxt] = [*paths[cell], nxt]
            heapq.heappush(heap, (total, order, nxt))
            order += 1
    return paths


def balance_along(
    tx: Tx, creature_id: str, start: Cell, path: list[Cell], dice: DiceSource
) -> tuple[int | None, list[Event]]:
    """Balance rolls for the Uneven Ground a move enters: the index in `path` of the step where the creature
    falls (None: it keeps its feet), and the events."""
    state = tx.state
    s = state.settings
    c = tx.get(creature_id)
    if not s.uneven_balance or not state.board.uneven or c.prone:
        return None, []
    events: list[Event] = []
    prev = start
    for i, step in enumerate(path):
        t = entered_tier(state, c, prev, step)
        prev = step
        if not t:
            continue
        dl = s.uneven_balance_dl + t
        econ = tx.economy(creature_id)
        if econ.balance is None:
            mods = ailments.exhausted(c, "Skill rolls")
            mods += ailments.wounded_limbs_modifiers(state, c, "Balance", LEGS)
            r = roll(dice, f"{c.name}: Balance on Tier {t} Uneven Ground", c.skill(s.balance_skill), mods)
            check = CheckResult(roll=r, dl=dl, fumble_fails=s.fumble_always_fails)
            econ.balance = r.result
            econ.balance_fumbled = s.fumble_always_fails and r.fumble
            verdict = "keeps its feet" if check.success else "loses its footing"
            events.append(
                Event(
                    kind="balance",
                    text=f"{c.name} enters Tier {t} Uneven Ground at {step}: Balance ({s.balance_skill}) "
                    f"{r.result}{' (a Fumble)' if econ.balance_fumbled else ''} against DL {dl}: it {verdict}. "
                    "The roll holds for the round.",
                    actor=creature_id,
                    rolls=[r],
                    data={"space": step, "tier": t, "dl": dl, "success": check.success, "held": False},
                )
            )
            success = check.success
        else:
            success = not econ.balance_fumbled and econ.balance >= dl
            if not success:
                events.append(
                    Event(
                        kind="balance",
                        text=f"{c.name} enters Tier {t} Uneven Ground at {step}: its Balance {econ.balance} held for "
                        f"the round is short of DL {dl}: it loses its footing.",
                        actor=creature_id,
                        data={"space": step, "tier": t, "dl": dl, "success": False, "held": True},
                    )
                )
        if not success:
            return i, events
    return None, events
