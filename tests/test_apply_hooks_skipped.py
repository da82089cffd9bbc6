"""The checks and after-command rules `apply` skips are skipped only when they could change nothing (engine).

Around each command `apply` refuses what a swallowed or Enraged creature may not do (`swallow.check_command`,
`enraged.check_command`), and after it lets a full stomach spill (`swallow.spill`), puts out Burning in water
(`burning.douse`) and ends Ailments whose source has ended (`ailments.lapse_sources`). It asks the Enraged check only
of an Enraged actor, spills only when the command changed a creature, douses only on a board with water, and lapses
sources only of the creatures the command changed unless something another's source stands on changed. In a state
where nobody is swallowed nor holds an Ailment source (`positions.watched`, counted for each state `apply` makes
from the creatures it changed) it asks no swallowed check, spills nothing and lapses no source. On random commands
(the Soulweaver's Afflict from a source among them) on random boards holding swallowed, Burning, Enraged and
frightened creatures and water, or none of them, `apply` gives the same state and events (or refuses with the same
message) as a frame asking every check and running every rule over every creature.
"""

from __future__ import annotations

import random
from typing import Any

from factories import creature, on_turn, state, weapon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtt.rules import ailments, burning, engine, enraged, positions, swallow
from vtt.rules.commands import Command, parse_command
from vtt.rules.dice import RandomDice
from vtt.rules.events import Event, RuleError
from vtt.rules.model import STOMACH, AilmentSource, Cell, GameState
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, grid_of, why_cannot_stand
from vtt.rules.txn import Tx

SWORD = weapon("sword")
SKILLS = {"Martial": 3, "Elude": 1, "Athletics": 2, "Zeal": 1, "Endure": 1}


def _every_hook(state: GameState, cmd: Command, dice: RandomDice) -> tuple[GameState, list[Event]]:
    """`apply` as it was before any skip: every check, every after-command rule over every creature."""
    tx = Tx(state)
    if cmd.SENT_BY != "soulweaver":
        actor = getattr(cmd, "creature", None)
        c = state.creatures.get(actor) if isinstance(actor, str) else None
        swallow.check_command(state, cmd, actor, c)
        enraged.check_command(state, cmd, c)
    events = engine.HANDLERS[type(cmd)](tx, cmd, dice)
    events += swallow.spill(tx)
    events += burning.douse(tx)
    events += ailments.lapse_sources(tx)
    made = tx.state
    made.version = state.version + 1
    return made, events


def _board(rng: random.Random) -> GameState:
    """Up to 8 creatures on a 10 × 10 board with water on a third of it: some Burning, some Enraged (Focused on
    another or not), some Frightened of another for as long as it lives; one swallowed by a big creature whose stomach
    is nearly or quite full. On a quarter of the boards nobody is swallowed nor frightened."""
    settings = TableSettings(defense_prompts="nobody", reactions=False)
    s = state(cols=10, rows=10, settings=settings)
    grid = grid_of(s)
    cells = [grid.from_offset(col, row) for row in range(10) for col in range(10)]
    s.board.water = set(rng.sample(cells, 33))
    big = creature("big", rng.choice(cells), size=2, skills=dict(SKILLS), weapons=[SWORD], grip={"right_arm": "sword"})
    if why_cannot_stand(s, big, big.anchor, Occupancy(s)) is None:
        s.creatures["big"] = big
    for i in range(12):
        if len(s.creatures) >= 8:
            break
        c = creature(
            f"c{i}",
            rng.choice(cells),
            size=rng.choice((-1, 0, 0, 1)),
            controller=rng.choice((None, "alice")),
            weapons=[SWORD],
            grip={"right_arm": "sword"},
            skills=dict(SKILLS),
        )
        if why_cannot_stand(s, c, c.anchor, Occupancy(s)) is None:
            s.creatures[c.id] = c
    ids = sorted(s.creatures)
    plain = rng.random() < 0.25
    for cid in ids:
        c = s.creatures[cid]
        if rng.random() < 0.4:
            c.ailments["Burning"] = rng.randint(1, 4)
        if rng.random() < 0.3:
            c.ailments["Enraged"] = rng.randint(1, 3)
            c.focus = rng.choice([None, *ids])
        if not plain and rng.random() < 0.3:
            other = rng.choice(ids)
            c.ailments["Frightened"] = 1
            c.ailment_sources = [
                AilmentSource(ailment="Frightened", tiers=1, source=f"creature:{other}", ends_with_source=True)
            ]
    small = [cid for cid in ids if cid != "big" and s.creatures[cid].size <= -1]
    if "big" in s.creatures and small and not plain and rng.random() < 0.7:
        inside = s.creatures[small[0]]
        inside.swallowed_by = "big"
        inside.ailments["Crowded"] = 2
        inside.ailment_sources = [
            AilmentSource(ailment="Crowded", tiers=2, source="swallowed:big", ends_with_source=True)
        ]
        stomach = s.creatures["big"].part(STOMACH)
        assert stomach is not None
        stomach.wounded = rng.choice((5, 6))
    return on_turn(s, rng.choice(ids))


def _near(s: GameState, cell: Cell, rng: random.Random) -> Cell:
    return rng.choice(sorted(grid_of(s).area_within([cell], 2)))


def _command(s: GameState, rng: random.Random) -> dict[str, Any]:
    ids = sorted(s.creatures)
    actor = s.turn.current if s.turn.current in s.creatures else rng.choice(ids)
    other = rng.choice(ids)
    kind = rng.choice(
        [
            "strike",
            "strike",
            "strike_max",
            "move",
            "place",
            "harm",
            "end_turn",
            "drop_focus",
            "focus",
            "remove",
            "afflict",
        ]
    )
    anchor = s.creatures[actor].anchor
    match kind:
        case "strike":
            return {"type": "strike", "creature": actor, "target": other}
        case "strike_max":
            return {"type": "strike", "creature": actor, "target": other, "max_dice": 1}
        case "move":
            return {"type": "move", "creature": actor, "to": _near(s, anchor, rng)}
        case "place":
            return {"type": "place", "creature": other, "to": _near(s, s.creatures[other].anchor, rng)}
        case "harm":
            return {"type": "harm", "target": other, "amount": rng.randint(1, 8)}
        case "drop_focus":
            return {"type": "drop_focus", "creature": actor}
        case "focus":
            return {"type": "focus", "creature": actor, "target": other}
        case "remove":
            return {"type": "remove_creature", "creature": other}
        case "afflict":
            source = rng.choice([cid for cid in ids if cid != other] or ids)
            return {
                "type": "afflict",
                "target": other,
                "ailment": "Frightened",
                "source": f"creature:{source}",
                "ends_with_source": True,
            }
    return {"type": "end_turn"}


def _outcome(run: Any, s: GameState, cmd: Command, seed: int) -> tuple[str, Any]:
    try:
        made, events = run(s, cmd, RandomDice(seed))
    except RuleError as exc:
        return "refused", str(exc)
    return "made", (made.model_dump(), [e.model_dump() for e in events])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_apply_skips_a_check_or_after_command_rule_only_when_running_it_would_change_nothing(seed: int) -> None:
    rng = random.Random(seed)
    s = _board(rng)
    for step in range(8):
        cmd = parse_command(_command(s, rng))
        skipped = _outcome(engine.apply, s, cmd, seed + step)
        every = _outcome(_every_hook, s, cmd, seed + step)
        assert skipped == every, cmd
        if skipped[0] == "made":
            s = engine.apply(s, cmd, RandomDice(seed + step))[0]


def _count_watched(s: GameState) -> int:
    return sum(c.swallowed_by is not None or bool(c.ailment_sources) for c in s.creatures.values())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_count_of_creatures_swallowed_or_holding_a_source_apply_keeps_for_each_state_is_a_count_over_them_all(
    seed: int,
) -> None:
    rng = random.Random(seed)
    s = _board(rng)
    for step in range(10):
        cmd = parse_command(_command(s, rng))
        try:
            s = engine.apply(s, cmd, RandomDice(seed + step))[0]
        except RuleError:
            continue
        recorded = positions._entries[id(s)].watched  # what `seal` kept, not a count `watched` would make now
        assert recorded == _count_watched(s), cmd
