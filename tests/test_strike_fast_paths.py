"""What the Strike's fast paths stand on (see `bench/rules.py`).

- A Strike carries its weapon and damage dice changes as models while its defense is rolled at once, and as JSON
  in a pending defense decision: both give the same damage.
- The geometry of a Strike (distance, attack path, exposure) is kept across states while the board's walls are
  the same; a wall built on the path is seen at once.
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, run, state, weapon

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.events import RuleError
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings

MAUL_STRIKE: dict[str, Any] = {"type": "strike", "creature": "n", "target": "p", "weapon": "maul"}


def _maul_fight(prompts: str) -> GameState:
    """The Soulweaver's n grips a Devastating maul (damage 2, one-handed) in both arms and strikes bob's p."""
    maul = weapon("maul", damage=2, devastating=True)
    n = creature("n", (5, 5), weapons=[maul], grip={"right_arm": "maul", "left_arm": "maul"})
    p = creature("p", (6, 5), controller="bob")
    return on_turn(state(n, p, settings=TableSettings(defense_prompts=prompts, reactions=False)), "n")


def test_strike_damage_is_the_same_whether_the_defense_waits_or_is_rolled_at_once() -> None:
    """seed-000 Strike and reference §6.3: Martial 2, faces 12, 4 -> 12 against p's Elude 2, faces 2, 1 -> 2:
    the Strike hits. Damage 2d12, +1d12 for gripping with two limbs where one is needed, +1d12 Devastating for the
    one 12 rolled: 4d12, faces 3, 8, 1, 2 -> 2 Injury (3 or more), so p's Grit Pool has 2 Pips. The same when
    bob's defense waits for him (the Strike's weapon and dice changes kept as JSON in the decision) and he rolls."""
    at_once, events = run(_maul_fight("nobody"), MAUL_STRIKE, [12, 4, 2, 1, 3, 8, 1, 2])
    waiting, _ = run(_maul_fight("players"), MAUL_STRIKE, [12, 4])
    (decision,) = waiting.pending
    answered, answer_events = run(
        waiting, {"type": "defend", "decision": decision.id, "roll": True}, [2, 1, 3, 8, 1, 2]
    )
    for s, evs in ((at_once, events), (answered, answer_events)):
        damage = only(evs, "damage")
        assert damage.rolls[0].dice == 4
        reasons = [ch.reason for ch in damage.rolls[0].dice_changes]
        assert any("more limbs than it needs" in r for r in reasons), reasons
        assert any("Devastating" in r for r in reasons), reasons
        assert damage.data["injury"] == 2
        assert s.creatures["p"].grit.pips == 2
    assert only(events, "damage").text == only(answer_events, "damage").text


def _spear_fight(walls: set[tuple[int, int]]) -> GameState:
    """n (size 0) grips a spear with Extend 1: Reach 2; p stands 2 spaces east, (6, 5) between them."""
    spear = weapon("spear", damage=2, extend=1)
    n = creature("n", (5, 5), weapons=[spear], grip={"right_arm": "spear"})
    p = creature("p", (7, 5), controller="bob")
    return on_turn(state(n, p, walls=walls), "n")


SPEAR_STRIKE: dict[str, Any] = {"type": "strike", "creature": "n", "target": "p", "weapon": "spear"}


def test_a_wall_built_on_the_attack_path_blocks_a_strike_that_reached_before() -> None:
    """reference §2.3 Reach: "a wall or object on it blocks the attack". n's Spear (Reach 2) reaches p 2 spaces
    away (faces 2, 1 -> a miss against p's 5, 1: nothing else rolled); the same Strike with a wall at (6, 5), the
    space between them, is refused with `reach.wall_blocks`; with the wall gone it reaches again."""
    open_board = _spear_fight(set())
    _, events = run(open_board, SPEAR_STRIKE, [2, 1, 5, 1])
    assert only(events, "reach").data["path"] == [(5, 5), (6, 5), (7, 5)]
    walled = _spear_fight({(6, 5)})
    before = walled.model_dump()
    try:
        apply(walled, SPEAR_STRIKE, ScriptedDice([2, 1, 5, 1]))
    except RuleError as e:
        assert e.code == "reach.wall_blocks"
    else:
        raise AssertionError("a Strike through a wall was allowed")
    assert walled.model_dump() == before
    _, events = run(_spear_fight(set()), SPEAR_STRIKE, [2, 1, 5, 1])
    assert only(events, "attack").data["success"] is False
