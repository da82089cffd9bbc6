"""attacks.py: an action's outcome is applied when its defense is known; an action registered with `on_hit` has an
outcome only when its attack succeeds (a Strike: damage), and `on_result`'s handler is called either way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from factories import creature, state

from vtt.rules import attacks
from vtt.rules.checks import AttackResult
from vtt.rules.dice import DiceSource, ScriptedDice, roll
from vtt.rules.events import Event, event
from vtt.rules.txn import Tx


@pytest.fixture
def outcomes() -> Iterator[list[tuple[str, bool]]]:
    """Two test actions: "probe_hit" registered with `on_hit`, "probe_any" with `on_result`; each call is noted with
    the success the handler was given."""
    calls: list[tuple[str, bool]] = []

    def noted(action: str) -> attacks.Handler:
        def handler(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
            calls.append((action, result.success))
            return [event(kind="probe", text=action)]

        return handler

    attacks.on_hit("probe_hit")(noted("probe_hit"))
    attacks.on_result("probe_any")(noted("probe_any"))
    yield calls
    del attacks.ON_HIT["probe_hit"], attacks.HANDLERS["probe_any"]


def _finish(action: str, attack_face: int, defense_face: int) -> list[Event]:
    """a attacks b (DL 3) with one die showing `attack_face`; b defends with one showing `defense_face`."""
    tx = Tx(state(creature("a", (1, 1)), creature("b", (2, 1))))
    attack = roll(ScriptedDice([attack_face]), "a: attack", 1)
    spec = attacks.AttackSpec(action, "a", "b", 3, "Elude", attack)
    return attacks.finish(tx, spec, roll(ScriptedDice([defense_face]), "b: Elude defense", 1), ScriptedDice([]))


@pytest.mark.parametrize(("attack_face", "defense_face", "success"), [(9, 4, True), (4, 9, False), (2, 1, False)])
def test_an_on_hit_outcome_follows_a_successful_attack_alone(
    outcomes: list[tuple[str, bool]], attack_face: int, defense_face: int, success: bool
) -> None:
    """9 against 4 succeeds; 4 against 9 fails, as does 2 (short of DL 3) against 1: the `on_hit` handler is called
    for the success alone, the `on_result` one for each, and the attack event says the same."""
    hit_events = _finish("probe_hit", attack_face, defense_face)
    any_events = _finish("probe_any", attack_face, defense_face)
    assert [e.data["success"] for e in hit_events + any_events if e.kind == "attack"] == [success, success]
    assert [e.kind for e in hit_events] == (["attack", "probe"] if success else ["attack"])
    assert [e.kind for e in any_events] == ["attack", "probe"]
    assert outcomes == ([("probe_hit", True)] if success else []) + [("probe_any", success)]
