"""Hand-worked tests of line of sight for Spells and Talents (table setting `manifest_needs_sight`; reference §2.6).

The sources name no line-of-sight rule for abilities: a Spell or Talent on another creature needs one (ASSUMPTION),
unless the ability's data says otherwise (`needs_sight` False) or the table turns it off. Sight is the obstruction
test of Strikes: a straight line of spaces from one of the caster's spaces to one of the target's with no wall or
object strictly between (and no other creature, when the table's `creatures_obstruct` is on).

The caster m (Magic 3) stands at (5, 5) and knows Firebolt (a Spell: 3 fire damage against Elude, range 6) and Stone
Skin (a Talent on itself). t (Elude 2) stands 2 spaces away at (7, 5); the straight line between them runs through
(6, 5). Scripted faces: the Manifest roll (3 dice, DL 6), t's Elude defense, then the damage dice.
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, on_turn, only, refused, run, state

from vtt.rules.abilities import LIBRARY, Ability, AbilityEffect
from vtt.rules.dice import Roll
from vtt.rules.engine import legal_actions
from vtt.rules.model import CarriedLight, Creature, GameState, Readied
from vtt.rules.settings import TableSettings

SKILLS = {"Magic": 3, "Endure": 2, "Elude": 2, "Zeal": 1}
QUIET = TableSettings(defense_prompts="nobody", reactions=False)
FIREBOLT = {"type": "manifest", "creature": "m", "ability": "firebolt", "target": "t"}


def field(*extra: Creature, wall: bool = True, settings: TableSettings = QUIET) -> GameState:
    m = creature("m", (5, 5), skills=dict(SKILLS), abilities=["firebolt", "stone_skin", "far_call"])
    walls = {(6, 5)} if wall else set()
    return on_turn(state(m, creature("t", (7, 5)), *extra, walls=walls, settings=settings), "m")


def manifest_targets(s: GameState, ability: str) -> list[str]:
    return [
        t.target or ""
        for o in legal_actions(s, "m")
        if o.action == "manifest" and o.params.get("ability") == ability
        for t in o.targets
    ]


@pytest.fixture(autouse=True)
def far_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sample Spell whose data says it needs no line of sight."""
    effect = AbilityEffect(kind="effect", range=6, modifiers={"physical_defense": 1}, needs_sight=False)
    ab = Ability(id="far_call", name="Far Call", kind="spell", element="air", effect=effect)
    monkeypatch.setitem(LIBRARY, "far_call", ab)


def test_an_ability_on_a_creature_behind_a_wall_is_refused_and_not_offered() -> None:
    """A wall at (6, 5) hides t from m: Firebolt on t is refused and t is not among its targets."""
    s = field()
    refused(s, FIREBOLT, [6, 2, 1, 3, 2, 3, 3, 3])
    assert manifest_targets(s, "firebolt") == []


def test_an_ability_on_a_creature_in_sight_is_made() -> None:
    """With nothing between them, t is a target: Magic 6, 2, 1 -> 6 reaches DL 6 and attacks Elude 3, 2 -> 3:
    success; damage 3d12: 3, 3, 1 -> 2 Injury."""
    s = field(wall=False)
    assert manifest_targets(s, "firebolt") == ["t"]
    s, _ = run(s, FIREBOLT, [6, 2, 1, 3, 2, 3, 3, 1])
    assert s.creatures["t"].grit.pips == 2


def test_an_ability_that_needs_no_sight_reaches_behind_the_wall() -> None:
    """The ability's data may say otherwise: Far Call (`needs_sight` False) reaches t behind the wall: Magic 6, 1, 1
    -> 6: its effect is on t."""
    s = field()
    assert "t" in manifest_targets(s, "far_call")
    s, _ = run(s, {"type": "manifest", "creature": "m", "ability": "far_call", "target": "t"}, [6, 1, 2])
    assert [(e.name, e.subject) for e in s.effects] == [("Far Call", "t")]


def test_the_table_can_turn_line_of_sight_off() -> None:
    """Table setting `manifest_needs_sight` False: Firebolt reaches t behind the wall (Magic 6, 2, 1 against Elude
    3, 2; damage 3, 3, 3 -> 3 Injury)."""
    settings = TableSettings(defense_prompts="nobody", reactions=False, manifest_needs_sight=False)
    s = field(settings=settings)
    assert manifest_targets(s, "firebolt") == ["t"]
    s, _ = run(s, FIREBOLT, [6, 2, 1, 3, 2, 3, 3, 3])
    assert s.creatures["t"].grit.pips == 3


def test_an_ability_on_oneself_needs_no_line_of_sight() -> None:
    """Stone Skin on m itself is offered and made whatever walls stand around: Endure 6, 2 -> 6."""
    s = field()
    assert manifest_targets(s, "stone_skin") == ["m"]
    s, _ = run(s, {"type": "manifest", "creature": "m", "ability": "stone_skin"}, [6, 2])
    assert [e.name for e in s.effects] == ["Stone Skin"]


def test_other_creatures_block_sight_only_when_the_table_says_so() -> None:
    """x at (6, 5) stands between m and t. By default creatures do not obstruct and t is a target; with the table's
    `creatures_obstruct`, x hides t and Firebolt on t is refused."""
    x = creature("x", (6, 5))
    assert manifest_targets(field(x, wall=False), "firebolt") == ["t", "x"]
    settings = TableSettings(defense_prompts="nobody", reactions=False, creatures_obstruct=True)
    s = field(x, wall=False, settings=settings)
    assert manifest_targets(s, "firebolt") == ["x"]
    refused(s, FIREBOLT, [6, 2, 1, 3, 2, 3, 3, 3])


def test_completing_a_readied_ability_needs_line_of_sight_too() -> None:
    """A Readied Firebolt (its roll 8, 2, 1 kept: 8) is completed on a target in sight only: behind the wall t is not
    offered and the completion is refused."""
    s = field()
    arm = s.creatures["m"].limb("left_arm")
    assert arm is not None
    arm.readied = Readied(ability="firebolt", roll=Roll(label="Manifest", base_dice=3, faces=(8, 2, 1)), dl=6)
    complete: dict[str, Any] = {"type": "complete_ready", "creature": "m", "target": "t"}
    refused(s, complete, [3, 2, 3, 3, 3])
    assert [o for o in legal_actions(s, "m") if o.action == "complete_ready"] == []
    only_t = field(wall=False)
    arm = only_t.creatures["m"].limb("left_arm")
    assert arm is not None
    arm.readied = Readied(ability="firebolt", roll=Roll(label="Manifest", base_dice=3, faces=(8, 2, 1)), dl=6)
    s, events = run(only_t, complete, [3, 2, 3, 3, 3])
    assert only(events, "ready_completed").data["result"] == 8


def test_an_ability_on_a_creature_in_darkness_is_refused_until_a_torch_lights_it() -> None:
    """With no wall, t at (7, 5) stands in a dark space (the map's light layer): m cannot see it, so Firebolt on t
    is refused and not offered. A torch m carries (bright 2) lights the spaces within 2 of m along clear lines,
    (7, 5) among them: t is offered again."""
    s = field(wall=False)
    s.board.light = {(7, 5): "dark"}
    refused(s, FIREBOLT, [6, 2, 1, 3, 2, 3, 3, 3])
    assert manifest_targets(s, "firebolt") == []
    lit = s.creatures["m"].model_copy(update={"light": CarriedLight(bright=2, dim=2)})
    s = s.model_copy(update={"creatures": {**s.creatures, "m": lit}})
    assert manifest_targets(s, "firebolt") == ["t"]
