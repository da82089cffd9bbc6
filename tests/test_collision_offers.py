"""The menu's Collision targets (seed-000: "As you move into an occupied space ... attack a target in the space to
cause Collision"): each creature a move enters, in the order the move reaches its space, by the first path found."""

from __future__ import annotations

from factories import creature, on_turn, state

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import ActionOption, apply, legal_actions
from vtt.rules.model import GameState


def _board() -> GameState:
    """m (size 0, 5 Movement) at (5, 5) on a hex board; far 3 spaces away at (5, 8), near 1 away at (6, 5), the
    size 0 pair p1 and p2 sharing (7, 5) 2 away, and out 7 away at (5, 12), beyond m's Movement."""
    return on_turn(
        state(
            creature("far", (5, 8)),
            creature("out", (5, 12)),
            creature("p1", (7, 5)),
            creature("m", (5, 5)),
            creature("near", (6, 5)),
            creature("p2", (7, 5)),
        ),
        "m",
    )


def _collisions(options: list[ActionOption]) -> list[list[tuple[str | None, tuple[int, int], int]]]:
    return [
        [(t.target, t.space, len(t.path)) for t in o.targets if t.space is not None]
        for o in options
        if o.action == "collision" or o.label == "Charge: Collision (move into them)"
    ]


def test_collision_targets_come_nearest_first_and_both_creatures_of_a_shared_space() -> None:
    """near is entered after 1 space, p1 and p2 (in the order they stand there) after 2, far after 3; m itself and
    out (7 spaces away) are no targets."""
    (plain,) = _collisions(legal_actions(_board(), "m"))
    assert plain == [("near", (6, 5), 1), ("p1", (7, 5), 2), ("p2", (7, 5), 2), ("far", (5, 8), 3)]


def test_a_charging_collision_leaves_out_the_creature_entered_after_1_space() -> None:
    """seed-000 Charge: after Dash with no space moved yet, a Collision is a Charge only 2 spaces on: near (1 space
    away) is a plain Collision target only. Dash adds a Movement Pool: out (7 spaces away) is now entered too."""
    dashed, _ = apply(_board(), {"type": "dash", "creature": "m"}, ScriptedDice([]))
    plain, charge = _collisions(legal_actions(dashed, "m"))
    assert [t for t, _, _ in plain] == ["near", "p1", "p2", "far", "out"]
    assert charge == [("p1", (7, 5), 2), ("p2", (7, 5), 2), ("far", (5, 8), 3), ("out", (5, 12), 7)]
