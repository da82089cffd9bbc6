"""A Strike on a state `apply` made (or a menu was asked of: `positions.sealed`) finds the plan it keeps across
states by the very objects the plan was read from (`plan_kept.found_seen`): the settings, the board, the effects, the
Holds, the attacker and the target, none of which such a state ever changes in place. A target that is another object
(a hit replaced it) is compared by what a plan reads of it. What a Strike finds that way is what it finds by value: for
random crowded fights played on (Strikes that hit and miss, creatures placed elsewhere, the attacker moved), each
Strike on the state the last command made gives the outcome of the same Strike on a deep copy of that state (which
nothing is kept of: read by value)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from factories import creature, on_turn, state, weapon
from test_strike_kept import _strikes, crowded_fight

from vtt.rules import plan_kept, positions
from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.fastmodel import shallow_copy
from vtt.rules.model import GameState, Hold
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, grid_for, why_cannot_stand

Outcome = tuple[Any, ...]


def _applied(s: GameState, cmd: dict[str, Any], faces: list[int]) -> tuple[Outcome, GameState | None]:
    try:
        after, events = apply(s, cmd, ScriptedDice(faces))
    except RuleError as e:
        return ("refused", str(e), e.code), None
    return ("applied", after.model_dump(), [e.model_dump() for e in events]), after


def _placement(s: GameState, rng: random.Random) -> dict[str, Any] | None:
    """The Soulweaver sets a random creature down in a free neighbouring space, if it has one."""
    cid = rng.choice(sorted(s.creatures))
    c = s.creatures[cid]
    occ = Occupancy(s)
    free = [
        cell for cell in grid_for(s.settings.grid).neighbours(c.anchor) if why_cannot_stand(s, c, cell, occ) is None
    ]
    return {"type": "place", "creature": cid, "to": rng.choice(free)} if free else None


def _kept_across(fight: GameState) -> GameState:
    """`fight` with settings under which a Strike's plan is kept across states (`plan_kept.reads_two_creatures`)."""
    settings = fight.settings.model_copy(update={"creatures_obstruct": False, "ambient_light": "lit"})
    return shallow_copy(fight, settings=settings)


def _with_majors(s: GameState, actor: str, majors: int) -> GameState:
    """`s` with `actor` able to make `majors` Major Actions this turn (to Strike again on the states Strikes make)."""
    economy = dict(s.economy)
    economy[actor] = shallow_copy(economy[actor], major=majors)
    return shallow_copy(s, economy=economy)


@pytest.mark.parametrize("seed", range(8))
def test_a_strike_on_a_state_apply_made_is_the_strike_on_a_deep_copy_of_it(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """seed-000 Strike: the outcome of a Strike follows from the state, the command and the dice alone, whether its
    plan is found by the objects it was read from or read again."""
    found_by_objects = []
    found_seen = plan_kept.found_seen

    def counting(*args: Any) -> Any:
        made = found_seen(*args)
        found_by_objects.append(made is not None)
        return made

    monkeypatch.setattr(plan_kept, "found_seen", counting)
    rng = random.Random(seed)
    applied = 0
    for k in range(6):
        positions.forget()
        fight = _kept_across(crowded_fight(700 + seed * 6 + k))
        actor = sorted(fight.creatures)[0]
        s = _with_majors(on_turn(fight, actor), actor, 40)
        strikes = _strikes(s, actor, rng)
        for _ in range(14):
            if rng.random() < 0.65 and strikes:
                cmd = rng.choice(strikes)
                faces = [rng.randint(1, 12) for _ in range(60)]
                reference, _ = _applied(copy.deepcopy(s), cmd, faces)
                got, after = _applied(s, cmd, faces)
                assert got == reference, cmd
                if after is not None:
                    applied += 1
                    if rng.random() < 0.5:
                        s = after  # the target hurt: another object with what a plan reads of it the same
                continue
            placement = _placement(s, rng)
            if placement is not None:
                s, _ = apply(s, placement, ScriptedDice([]))
    assert applied > 0
    assert any(found_by_objects), "no plan was found by the objects it was read from"
    assert not all(found_by_objects), "every plan was found by the objects it was read from"


def _duel() -> GameState:
    sword = weapon("sword", damage=2)
    return on_turn(
        state(
            creature("a", (2, 2), weapons=[sword], grip={"right_arm": "sword"}),
            creature("b", (3, 2), weapons=[sword], grip={"right_arm": "sword"}),
            settings=TableSettings(defense_prompts="nobody", reactions=False),
        ),
        "a",
    )


def _seen_plan(s: GameState, inputs: tuple[str, ...]) -> Any:
    a, b = s.creatures["a"], s.creatures["b"]
    return plan_kept.found_seen(inputs, plan_kept.seen_of(s, a, b), False)


def test_a_plan_is_found_by_its_objects_only_while_they_are_the_very_ones_it_was_read_from() -> None:
    """A plan kept with the objects of a sealed state it was read from is found by them; a target that is another
    object reading the same (hurt) too; one that reads otherwise (moved), an attacker that is another object (even
    an equal copy), or other settings, board, effects or Holds not."""
    positions.forget()
    s = _duel()
    a, b = s.creatures["a"], s.creatures["b"]
    inputs = ("probe", "seen")
    reads = plan_kept.reads_of(s, a, b, None, False)
    assert reads is not None
    plan_kept.keep(inputs, reads, "plan", plan_kept.seen_of(s, a, b))
    assert _seen_plan(s, inputs) == "plan"
    hurt = shallow_copy(s, creatures={**s.creatures, "b": shallow_copy(b, grit=b.grit.model_copy(update={"pips": 3}))})
    assert _seen_plan(hurt, inputs) == "plan"
    moved = shallow_copy(s, creatures={**s.creatures, "b": shallow_copy(b, anchor=(3, 3))})
    assert _seen_plan(moved, inputs) is None
    assert _seen_plan(shallow_copy(s, creatures={**s.creatures, "a": copy.deepcopy(a)}), inputs) is None
    assert _seen_plan(shallow_copy(s, settings=s.settings.model_copy(update={"ties_to": "attacker"})), inputs) is None
    assert _seen_plan(shallow_copy(s, board=copy.deepcopy(s.board)), inputs) is None
    assert _seen_plan(shallow_copy(s, effects=[]), inputs) is None
    held = {"h1": Hold(id="h1", holders={"b": ["right_arm"]}, held=["a"])}
    assert _seen_plan(shallow_copy(s, holds=held), inputs) is None  # A held: what it reads is no longer two creatures
    plan_kept.forget()


def test_a_state_is_sealed_when_apply_made_it_or_a_menu_was_asked_of_it() -> None:
    """`positions.sealed`: a state `apply` made, one a menu was asked of and the last step of a replay are; a state
    built by hand, or a copy of a sealed one, is not (a caller may still change it in place)."""
    positions.forget()
    s = _duel()
    assert not positions.sealed(s)
    after, _ = apply(s, {"type": "place", "creature": "b", "to": (4, 2)}, ScriptedDice([]))
    assert positions.sealed(after)
    assert not positions.sealed(shallow_copy(after, creatures=dict(after.creatures)))
    legal_actions(s, "a")
    assert positions.sealed(s)
    positions.forget()
    with positions.replaying():
        last, _ = apply(_duel(), {"type": "place", "creature": "b", "to": (4, 2)}, ScriptedDice([]))
        assert positions.sealed(last)
    assert not positions.sealed(last)  # replaying records nothing but the last step, within the replay alone
