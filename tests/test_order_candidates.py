"""The Soulweaver's "Add to the order" candidates, kept up to date from each step's changed creatures
(`vtt.web.order_candidates`), are the creatures able to act and not in the turn order, in the order of the state's
creatures, exactly as when looked for among every creature: through random steps that kill, revive, rename, add and
remove creatures, put them in the order and take them out, and undo back to an earlier state (where a creature
taken out and put back stands elsewhere among the creatures)."""

from __future__ import annotations

from dataclasses import dataclass, field

from factories import creature, state
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules.model import Creature, GameState
from vtt.table.state_steps import Steps
from vtt.web.order_candidates import order_candidates

IDS = tuple(f"c{i}" for i in range(6))
KINDS = ("dead", "alive", "rename", "join", "leave", "remove", "add", "undo", "move")


@dataclass(eq=False)
class FakeTable:
    """What `order_candidates` reads of a table: its state and its steps."""

    state: GameState
    steps: Steps = field(default_factory=Steps)
    seen: list[GameState] = field(default_factory=list)

    def step(self, after: GameState) -> None:
        self.steps.add(self.state, after)
        self.seen.append(self.state)
        self.state = after


def looked_through(s: GameState) -> tuple[tuple[str, str], ...]:
    return tuple((cid, c.name) for cid, c in s.creatures.items() if c.can_act and cid not in s.turn.entries)


def after_edit(table: FakeTable, kind: str, cid: str, pick: int) -> GameState:
    s = table.state
    creatures: dict[str, Creature] = dict(s.creatures)
    c = creatures.get(cid)
    turn = s.turn
    if kind == "undo" and table.seen:
        return table.seen[pick % len(table.seen)]
    if kind == "add" and c is None:
        creatures[cid] = creature(cid, (len(creatures), 3))
    elif c is not None and kind == "remove":
        del creatures[cid]
    elif c is not None and kind in ("dead", "alive"):
        creatures[cid] = c.model_copy(update={"dead": kind == "dead"})
    elif c is not None and kind == "rename":
        creatures[cid] = c.model_copy(update={"name": f"{c.name}!"})
    elif c is not None and kind == "move":
        creatures[cid] = c.model_copy(update={"anchor": (c.anchor[0], c.anchor[1] + 1)})
    elif kind == "join" and cid not in turn.entries:
        turn = turn.model_copy(update={"entries": [*turn.entries, cid]})
    elif kind == "leave" and cid in turn.entries:
        turn = turn.model_copy(update={"entries": [e for e in turn.entries if e != cid]})
    return s.model_copy(update={"creatures": creatures, "turn": turn})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(KINDS), st.sampled_from(IDS), st.integers(0, 50)), min_size=1, max_size=20))
def test_the_kept_candidates_are_those_looked_for_among_every_creature(edits: list[tuple[str, str, int]]) -> None:
    table = FakeTable(state(*(creature(cid, (i, 0)) for i, cid in enumerate(IDS[:4]))))
    assert order_candidates(table) == looked_through(table.state)
    for kind, cid, pick in edits:
        table.step(after_edit(table, kind, cid, pick))
        assert order_candidates(table) == looked_through(table.state), (kind, cid)


def test_a_move_leaves_the_same_candidates_object() -> None:
    """A change that leaves the candidates as they were gives the same tuple: the panel keyed on it is not drawn
    again."""
    table = FakeTable(state(creature("a", (0, 0)), creature("b", (1, 0))))
    first = order_candidates(table)
    table.step(after_edit(table, "move", "a", 0))
    assert order_candidates(table) is first
    table.step(after_edit(table, "dead", "a", 0))
    assert order_candidates(table) == (("b", "B"),)


def test_an_undo_to_a_state_whose_creatures_stand_in_another_order_lists_them_in_that_order() -> None:
    """A creature taken out and put back stands last among the creatures; an undo back to before it was taken out
    puts it first again, and so does the list."""
    table = FakeTable(state(creature("a", (0, 0)), creature("b", (1, 0))))
    start = table.state
    table.step(after_edit(table, "remove", "a", 0))
    table.step(after_edit(table, "add", "a", 0))
    assert order_candidates(table) == (("b", "B"), ("a", "A"))
    table.step(start)
    assert order_candidates(table) == (("a", "A"), ("b", "B"))
