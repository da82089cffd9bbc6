"""Benchmark of the pure rules core (`vtt.rules`): Strike resolution and `legal_actions`.

Run it from the repository root::

    .venv/bin/python bench/rules.py            # full run (about half a minute)
    .venv/bin/python bench/rules.py --quick    # fewer iterations, for a smoke run
    .venv/bin/python bench/rules.py --seed 7   # other positions and dice

It prints figures and never asserts timings (it is not a test). Other work on the machine only slows a run
down, so strike rates are judged on the best of several rounds (the median is printed too). What it measures:

1. Strike resolutions per second: `engine.apply(state, Strike(...), RandomDice(seed))` of a creature gripping a
   sword on an adjacent creature, the defense rolled at once (`TableSettings(defense_prompts="nobody")`). Every
   apply starts from the same state (apply never changes its input). Scenarios:
   (a) a small encounter: 6 creatures on a 20×20 hex board;
   (b) a big board: 300 creatures and 500 wall spaces on a 100×100 hex board, a player's creature on its turn;
   (c) for context, (b) with an NPC attacking on the Soulweaver's turn (every NPC is active then).
   Target: ≥ 10,000 strikes/s (best round).
2. `legal_actions` time for one creature with a weapon, mid-board, among 300 creatures and 500 walls on a
   100×100 hex board: median and p95 over 200 calls. Target: ≤ 5 ms (p95).
4. Vision: `vision.perceived` for one creature on a 100×100 hex board with 500 creatures and 300 walls, first
   from a space whose line of sight is not cached yet (the board's ray tree already built, once per process),
   then cached; and `vision.seat_perception` of a seat of four creatures. Target: ≤ 10 ms per creature (cold).
3. Where the time goes: the cost of the pieces every Strike pays (timed alone), then the strike loops of (b)
   and (a) under cProfile, top 10 functions by cumulative time and, to find hotspots, top 10 by own time.

Placement is deterministic: a seeded `random.Random` picks positions; creatures are mostly size 0 and 1, some
2 to 4, never overlapping (checked with `space.Occupancy` / `why_cannot_stand`), and walls go on free spaces.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from vtt.rules.commands import Strike
from vtt.rules.dice import RandomDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.grid import Grid
from vtt.rules.model import Board, Cell, Creature, GameState, Weapon
from vtt.rules.obstruction import exposure
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, grid_for, why_cannot_stand
from vtt.rules.turns import begun_on_turn, is_active
from vtt.rules.txn import Tx
from vtt.rules.vision import carried_light, clear_sight_cache, perceived, seat_perception

STRIKE_TARGET_PER_S = 10_000
LEGAL_ACTIONS_TARGET_MS = 5.0
VISION_TARGET_MS = 10.0

ATTACKER = "hero"
DEFENDER = "foe"
SWORD = Weapon(id="sword", name="Sword", damage=2)
ARSENAL: tuple[Weapon, ...] = (
    SWORD,
    Weapon(id="axe", name="Axe", damage=3, tier=2),
    Weapon(id="spear", name="Spear", damage=2, extend=1),
    Weapon(id="dagger", name="Dagger", damage=1, lightweight=True, accurate=True),
)
# Sizes of the other creatures: mostly 0 and 1, some 2 to 4.
SIZES: tuple[int, ...] = (0, 1, 2, 3, 4)
SIZE_WEIGHTS: tuple[float, ...] = (0.45, 0.40, 0.08, 0.04, 0.03)


@dataclass(frozen=True)
class Scenario:
    name: str
    state: GameState
    command: Strike
    actor: str


# ----------------------------------------------------------------------------------------------------------
# Building states
# ----------------------------------------------------------------------------------------------------------


def make_creature(
    cid: str, anchor: Cell, size: int, weapon: Weapon | None, controller: str | None, skill: int = 2
) -> Creature:
    """A humanoid creature; with `weapon`, it grips it in its right arm."""
    c = Creature(
        id=cid,
        name=cid.title(),
        size=size,
        anchor=anchor,
        controller=controller,
        skills={"Martial": skill, "Elude": skill, "Athletics": skill, "Zeal": 1},
        weapons=[weapon] if weapon else [],
    )
    if weapon is not None:
        arm = c.limb("right_arm")
        if arm is None:
            raise RuntimeError("a humanoid has a right arm")
        arm.holding = weapon.id
    return c


def _fits(grid: Grid, cells: tuple[Cell, ...], cols: int, rows: int, taken: set[Cell], walls: set[Cell]) -> bool:
    """All `cells` on the map, off walls, and neither on nor next to a space already taken (keeps a gap)."""
    for cell in cells:
        if not grid.in_bounds(cell, cols, rows) or cell in walls or cell in taken:
            return False
        if any(n in taken for n in grid.neighbours(cell)):
            return False
    return True


def build_board(
    seed: int, cols: int, rows: int, n_creatures: int, n_walls: int, attacker_controller: str | None
) -> GameState:
    """A fight begun on the attacker's turn: `ATTACKER` (size 1, a gripped sword) mid-board, `DEFENDER` (size 0)
    in the next space east, the others placed at random with a gap around each, then walls on free spaces.

    With a player's attacker it is the attacker's own turn; with an NPC attacker (`attacker_controller=None`)
    it is the Soulweaver's turn, every NPC active."""
    rng = random.Random(seed)
    settings = TableSettings(defense_prompts="nobody", reactions=False)
    grid = grid_for(settings.grid)
    centre = grid.from_offset(cols // 2, rows // 2)
    creatures: list[Creature] = [
        make_creature(ATTACKER, centre, 1, SWORD, attacker_controller, skill=3),
        make_creature(DEFENDER, grid.neighbours(centre)[0], 0, ARSENAL[3], None),
    ]
    taken: set[Cell] = set()
    for c in creatures:
        taken.update(grid.footprint(c.anchor, c.size))
    walls: set[Cell] = set()
    attempts = 0
    while len(creatures) < n_creatures:
        attempts += 1
        if attempts > 200_000:
            raise RuntimeError(f"could not place {n_creatures} creatures on {cols}×{rows}")
        size = rng.choices(SIZES, SIZE_WEIGHTS)[0]
        anchor = grid.from_offset(rng.randrange(cols), rng.randrange(rows))
        cells = grid.footprint(anchor, size)
        if not _fits(grid, cells, cols, rows, taken, walls):
            continue
        weapon = rng.choice(ARSENAL) if rng.random() < 0.6 else None
        creatures.append(make_creature(f"c{len(creatures)}", anchor, size, weapon, None, skill=rng.randint(1, 3)))
        taken.update(cells)
    free = [
        grid.from_offset(col, row)
        for row in range(rows)
        for col in range(cols)
        if grid.from_offset(col, row) not in taken
    ]
    walls = set(rng.sample(free, n_walls))
    state = GameState(
        settings=settings,
        board=Board(cols=cols, rows=rows, walls=walls),
        creatures={c.id: c for c in creatures},
    )
    _check_placement(state)
    return begin_on_turn(state, ATTACKER)


def _check_placement(state: GameState) -> None:
    """Every creature stands where the rules say it may (on the map, off walls, fitting beside the others)."""
    occ = Occupancy(state)
    filled = state.board.filled()
    for c in state.creatures.values():
        why = why_cannot_stand(state, c, c.anchor, occ, filled)
        if why is not None:
            raise RuntimeError(f"bad placement: {why}")


def begin_on_turn(state: GameState, creature_id: str) -> GameState:
    """The fight begun with `creature_id` acting now; no dice (Priority is set directly)."""
    return begun_on_turn(state, creature_id)


def strike_command() -> Strike:
    return Strike(creature=ATTACKER, target=DEFENDER, weapon=SWORD.id)


def scenarios(seed: int) -> list[Scenario]:
    cmd = strike_command()
    return [
        Scenario("(a) small: 6 creatures, 20×20 hex, 12 walls", build_board(seed, 20, 20, 6, 12, "p1"), cmd, ATTACKER),
        Scenario(
            "(b) big: 300 creatures, 100×100 hex, 500 walls", build_board(seed, 100, 100, 300, 500, "p1"), cmd, ATTACKER
        ),
        Scenario(
            "(c) big, NPC attacker on the Soulweaver's turn",
            build_board(seed, 100, 100, 300, 500, None),
            cmd,
            ATTACKER,
        ),
    ]


# ----------------------------------------------------------------------------------------------------------
# Measuring
# ----------------------------------------------------------------------------------------------------------


def check_strike(sc: Scenario, seed: int) -> None:
    """The Strike is legal, resolves to the defender, and leaves the input state as it was."""
    before = sc.state.model_dump()
    after, events = apply(sc.state, sc.command, RandomDice(seed))
    if sc.state.model_dump() != before:
        raise RuntimeError("apply changed its input state: the benchmark's premise is wrong")
    if not any(e.kind == "attack" and e.target == DEFENDER for e in events):
        raise RuntimeError(f"the Strike did not resolve on {DEFENDER}: {[e.text for e in events]}")
    if after.version != sc.state.version + 1:
        raise RuntimeError("apply did not return a new version")


def strike_rates(sc: Scenario, seed: int, warmup: int, rounds: int, per_round: int) -> list[float]:
    """Strikes per second of each round; every apply starts from `sc.state`, one dice stream for all."""
    dice = RandomDice(seed)
    state, cmd = sc.state, sc.command
    for _ in range(warmup):
        apply(state, cmd, dice)
    rates: list[float] = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(per_round):
            apply(state, cmd, dice)
        rates.append(per_round / (time.perf_counter() - t0))
    return rates


def legal_actions_times(state: GameState, creature_id: str, warmup: int, calls: int) -> list[float]:
    """Seconds taken by each of `calls` calls of `legal_actions`."""
    for _ in range(warmup):
        legal_actions(state, creature_id)
    times: list[float] = []
    for _ in range(calls):
        t0 = time.perf_counter()
        legal_actions(state, creature_id)
        times.append(time.perf_counter() - t0)
    return times


def vision_times(state: GameState, viewers: list[str]) -> tuple[list[float], list[float], list[float]]:
    """Seconds per `perceived` call for each viewer, cold (no cached line of sight) then warm, and per seat call
    (the viewers four at a time)."""
    occ = Occupancy(state)
    lamps = carried_light(state)
    perceived(state, viewers[0], lamps, occ)  # builds the board's ray tree once
    cold: list[float] = []
    warm: list[float] = []
    for cid in viewers:
        clear_sight_cache()
        t = time.perf_counter()
        perceived(state, cid, lamps, occ)
        cold.append(time.perf_counter() - t)
        t = time.perf_counter()
        perceived(state, cid, lamps, occ)
        warm.append(time.perf_counter() - t)
    seats: list[float] = []
    clear_sight_cache()
    for i in range(0, len(viewers) - 3, 4):
        t = time.perf_counter()
        seat_perception(state, viewers[i : i + 4])
        seats.append(time.perf_counter() - t)
    return cold, warm, seats


def percentile(values: list[float], pct: float) -> float:
    """The `pct` percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def per_call_us(fn: Callable[[], object], calls: int, repeats: int = 3) -> float:
    """Microseconds per call of `fn`: the mean over `calls` calls, best of `repeats` runs (after a warm-up)."""
    for _ in range(max(1, calls // 10)):
        fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, time.perf_counter() - t0)
    return best / calls * 1e6


def component_costs(sc: Scenario, calls: int) -> list[tuple[str, float]]:
    """What the pieces every Strike pays cost on their own, without the profiler's overhead."""
    state, actor = sc.state, sc.actor
    dice = RandomDice(0)
    grid, filled = grid_for(state.settings.grid), state.board.filled()
    mine, theirs = (grid.footprint(state.creatures[cid].anchor, state.creatures[cid].size) for cid in (actor, DEFENDER))
    target_size = state.creatures[DEFENDER].size
    return [
        ("apply(Strike) in full", per_call_us(lambda: apply(state, sc.command, dice), calls)),
        ("Occupancy(state)", per_call_us(lambda: Occupancy(state), calls)),
        ("state.board.filled()", per_call_us(state.board.filled, calls)),
        ("Tx(state)", per_call_us(lambda: Tx(state), calls)),
        ("turns.is_active(state, actor)", per_call_us(lambda: is_active(state, actor), calls)),
        ("obstruction.exposure(...)", per_call_us(lambda: exposure(grid, mine, theirs, target_size, filled), calls)),
    ]


def met(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def profile_strikes(sc: Scenario, seed: int, count: int, top: int) -> str:
    dice = RandomDice(seed)
    state, cmd = sc.state, sc.command
    for _ in range(100):
        apply(state, cmd, dice)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(count):
        apply(state, cmd, dice)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out).strip_dirs()
    out.write(f"--- top {top} by cumulative time ({count} strikes, {sc.name}) ---\n")
    stats.sort_stats(pstats.SortKey.CUMULATIVE).print_stats(top)
    out.write(f"--- top {top} by own time (tottime) ---\n")
    stats.sort_stats(pstats.SortKey.TIME).print_stats(top)
    return out.getvalue()


def describe(state: GameState) -> str:
    sizes: dict[int, int] = {}
    for c in state.creatures.values():
        sizes[c.size] = sizes.get(c.size, 0) + 1
    by_size = ", ".join(f"size {s}: {n}" for s, n in sorted(sizes.items()))
    b = state.board
    return (
        f"{len(state.creatures)} creatures ({by_size}), {len(b.walls)} walls on {b.cols}×{b.rows} {state.settings.grid}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=1, help="seed of positions and dice (default 1)")
    parser.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    args = parser.parse_args(argv)
    seed: int = args.seed
    quick: bool = args.quick
    rounds, per_round, warmup = (3, 300, 50) if quick else (5, 2000, 300)
    la_calls, la_warmup = (50, 5) if quick else (200, 20)
    profile_count = 300 if quick else 2000

    print(f"vtt rules benchmark — Python {sys.version.split()[0]}, seed {seed}{' (quick)' if quick else ''}")
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1
    busy = " — the machine is busy: expect noisy figures" if load > cpus / 2 else ""
    print(f"load average {load:.2f} on {cpus} CPU(s){busy}")
    all_scenarios = scenarios(seed)

    print("\n1. Strike resolutions per second (apply(state, Strike, RandomDice), defense rolled at once)")
    print(f"   {rounds} rounds × {per_round} applies after {warmup} warm-up; each apply starts from the same state")
    results: dict[str, float] = {}
    for sc in all_scenarios:
        check_strike(sc, seed)
        rates = strike_rates(sc, seed, warmup, rounds, per_round)
        best, median = max(rates), statistics.median(rates)
        results[sc.name] = best
        print(f"   {sc.name}")
        print(f"      {describe(sc.state)}")
        print(
            f"      best round {best:,.0f} strikes/s ({1e6 / best:,.1f} µs each); "
            f"median {median:,.0f}/s, slowest round {min(rates):,.0f}/s"
        )
        print(
            f"      target ≥ {STRIKE_TARGET_PER_S:,}/s: {met(best >= STRIKE_TARGET_PER_S)} (judged on the best round)"
        )

    big = all_scenarios[1]
    options = legal_actions(big.state, big.actor)
    n_spaces = sum(len(o.spaces) for o in options)
    n_targets = sum(len(o.targets) for o in options)
    print(f"\n2. legal_actions({big.actor!r}) mid-board on the big board — {describe(big.state)}")
    print(f"   returns {len(options)} actions, {n_targets} targets, {n_spaces} spaces")
    times = legal_actions_times(big.state, big.actor, la_warmup, la_calls)
    med_ms = statistics.median(times) * 1e3
    p95_ms = percentile(times, 95) * 1e3
    print(
        f"   {la_calls} calls after {la_warmup} warm-up: median {med_ms:.2f} ms, p95 {p95_ms:.2f} ms "
        f"(min {min(times) * 1e3:.2f}, max {max(times) * 1e3:.2f})"
    )
    print(f"   target ≤ {LEGAL_ACTIONS_TARGET_MS:g} ms: {met(p95_ms <= LEGAL_ACTIONS_TARGET_MS)} (judged on p95)")

    print("\n3. Where a Strike's time goes")
    print("   pieces every Strike pays, timed alone (µs per call, no profiler):")
    for sc in all_scenarios[:2]:
        costs = component_costs(sc, per_round)
        whole = costs[0][1]
        print(f"   {sc.name}")
        for label, us in costs:
            print(f"      {label:<32} {us:9.1f} µs  ({us / whole:6.1%} of a Strike)")
    print("\n   cProfile of the strike loop (profiled times are slower than the figures above):")
    for sc in (big, all_scenarios[0]):
        print(profile_strikes(sc, seed, profile_count, 10))

    vision_board = build_board(seed, 100, 100, 500, 300, "alice")
    viewers = sorted(vision_board.creatures)[: 20 if quick else 100]
    cold, warm, seats = vision_times(vision_board, viewers)
    cold_ms, warm_ms = statistics.median(cold) * 1e3, statistics.median(warm) * 1e3
    cold95 = percentile(cold, 95) * 1e3
    seat_ms = statistics.median(seats) * 1e3
    print(f"\n4. Vision — {describe(vision_board)}")
    print(
        f"   perceived, {len(viewers)} creatures: not cached median {cold_ms:.2f} ms, p95 {cold95:.2f} ms; "
        f"cached median {warm_ms:.2f} ms"
    )
    print(f"   seat_perception of four creatures (not cached): median {seat_ms:.2f} ms")
    print(
        f"   target ≤ {VISION_TARGET_MS:g} ms per creature: {met(cold95 <= VISION_TARGET_MS)} "
        "(judged on p95, not cached)"
    )

    print("Summary")
    for name, rate in results.items():
        print(
            f"   strikes/s {name}: {rate:,.0f} — target ≥ {STRIKE_TARGET_PER_S:,}/s {met(rate >= STRIKE_TARGET_PER_S)}"
        )
    print(
        f"   legal_actions big board: median {med_ms:.2f} ms, p95 {p95_ms:.2f} ms — "
        f"target ≤ {LEGAL_ACTIONS_TARGET_MS:g} ms {met(p95_ms <= LEGAL_ACTIONS_TARGET_MS)}"
    )
    print(
        f"   vision per creature: {cold_ms:.2f} ms (p95 {cold95:.2f}) not cached, {warm_ms:.2f} ms cached; per seat of "
        f"four {seat_ms:.2f} ms — target ≤ {VISION_TARGET_MS:g} ms {met(cold95 <= VISION_TARGET_MS)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
