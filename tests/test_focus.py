"""Hand-worked tests of choosing and dropping Focus (reference §5.3; seed-000 Distract).

reference §5.3: "Focus is a Minor Action in which you choose a creature, object or space as your Focus". seed-000
Distract: "Create a diversion to draw attention to cause the creature to become Focused on you and they cannot drop
Focus until their next turn." Dropping Focus has no cost in the sources (table setting `drop_focus_cost`, none by
default); Focus reaches creatures and spaces within the table's `focus_range` (6). Focus gives +1 on rolls against it
(table setting `focus_bonus`).

a (player p) stands at (5, 5) with Martial 2; t at (6, 5), d at (4, 5), far at (15, 5), 10 spaces away.
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, refused, run, state

from vtt.rules.engine import ActionOption, legal_actions
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings


def field(settings: TableSettings | None = None, **a_kw: Any) -> GameState:
    a = creature("a", (5, 5), controller="p", **a_kw)
    others = [creature("t", (6, 5)), creature("d", (4, 5)), creature("far", (15, 5))]
    return on_turn(state(a, *others, settings=settings), "a")


def distracted() -> GameState:
    """a was Distracted by d: Focused on d, and cannot drop it until its next turn."""
    return field(focus="d", focus_locked=True)


def focus(target: str | None = None, space: tuple[int, int] | None = None) -> dict[str, Any]:
    return {"type": "focus", "creature": "a", "target": target, "space": space}


DROP = {"type": "drop_focus", "creature": "a"}


def option(s: GameState, action: str) -> ActionOption | None:
    found = [o for o in legal_actions(s, "a") if o.action == action]
    assert len(found) <= 1
    return found[0] if found else None


def test_focus_on_a_creature_is_a_minor_action() -> None:
    """§5.3: "Focus is a Minor Action in which you choose a creature ... as your Focus". a Focuses on t: one of its 2
    Minor Actions is spent, its Major Action kept; its Strike on t then carries the Focus bonus +1."""
    s, events = run(field(), focus("t"), [])
    assert (s.creatures["a"].focus, s.creatures["a"].focus_space) == ("t", None)
    assert only(events, "focused").data == {"focus": "t", "focus_space": None}
    assert (s.economy["a"].major, s.economy["a"].minor) == (1, 1)
    (strike,) = [o for o in legal_actions(s, "a") if o.action == "strike"]
    (target,) = [x for x in strike.targets if x.target == "t"]
    assert target.preview is not None
    assert [(m.value, m.reason) for m in target.preview.modifiers] == [
        (1, "Focused on T: +1 on rolls against your Focus")
    ]


def test_focus_on_a_space_replaces_a_focus_on_a_creature() -> None:
    """§5.3: "choose a creature, object or space as your Focus". Focused on t, a Focuses on the space (7, 7): its
    Focus is the space alone; a second Minor Action is spent."""
    s, _ = run(field(focus="t"), focus(space=(7, 7)), [])
    assert (s.creatures["a"].focus, s.creatures["a"].focus_space) == (None, (7, 7))
    assert s.economy["a"].minor == 1


def test_focus_out_of_range_on_itself_or_with_no_minor_action_is_refused() -> None:
    """far is 10 spaces away, beyond the Focus range 6; a cannot Focus on itself; with no Minor Action left, Focus
    is refused and not offered."""
    refused(field(), focus("far"))
    refused(field(), focus("a"))
    refused(field(), focus(space=(15, 5)))
    s = field()
    s.economy["a"].minor = 0
    refused(s, focus("t"))
    assert option(s, "focus") is None


def test_a_distracted_creature_cannot_drop_focus_until_its_next_turn() -> None:
    """Distract: "they cannot drop Focus until their next turn". a, Distracted by d, can neither drop its Focus nor
    Focus on t (which would drop it); neither is offered. When a's next turn starts it may drop it (no action)."""
    s = distracted()
    refused(s, DROP)
    refused(s, focus("t"))
    assert option(s, "drop_focus") is None and option(s, "focus") is None
    s, _ = run(s, {"type": "end_turn"}, [])
    s, _ = run(s, {"type": "end_turn"}, [])
    assert s.turn.current == "a" and not s.creatures["a"].focus_locked
    assert option(s, "drop_focus") is not None
    s, events = run(s, DROP, [])
    assert (s.creatures["a"].focus, s.creatures["a"].focus_space) == (None, None)
    assert only(events, "focus_dropped").actor == "a"
    assert (s.economy["a"].major, s.economy["a"].minor) == (1, 2)


def test_dropping_focus_costs_what_the_table_says() -> None:
    """The sources name no cost: by default it is free; table setting `drop_focus_cost` "minor" makes it a Minor
    Action. With no Focus, there is nothing to drop: refused and not offered."""
    s, _ = run(field(focus="t"), DROP, [])
    assert s.economy["a"].minor == 2
    settings = TableSettings(defense_prompts="nobody", reactions=False, drop_focus_cost="minor")
    s, _ = run(field(settings=settings, focus="t"), DROP, [])
    assert s.economy["a"].minor == 1
    refused(field(), DROP)
    assert option(field(), "drop_focus") is None


def test_legal_focus_lists_creatures_and_spaces_in_range() -> None:
    """The Focus option lists the creatures within 6 spaces (t, d; not far, not a itself) and the spaces within 6,
    for a Minor Action; once Focused on t, t is no longer listed."""
    o = option(field(), "focus")
    assert o is not None and o.cost == {"minor": 1} and o.reach == 6
    assert sorted(t.target or "" for t in o.targets) == ["d", "t"]
    assert (7, 7) in o.spaces and (15, 5) not in o.spaces
    s, _ = run(field(), focus("t"), [])
    o = option(s, "focus")
    assert o is not None and [t.target for t in o.targets] == ["d"]
