"""A Strike chosen from a menu reuses what the menu worked out of the same state (`strike.plan_creature_strike`
keeps its plan on the state's occupancy, `vtt.rules.positions`; `strike.strike` keeps there what it prepares and
its defense roll's inputs): for random crowded fights (sizes, weapons with
Strike types, Devastating and elements, Prone, ailments, Wounded parts, Reductions, low Severe Thresholds, nearly
full pools, Unconscious defenders, creatures that obstruct or not, dim light, Guard, Endure defenses, Concealment on
defenses) a few commands into the fight, and every Strike the acting creature could try (each weapon and unarmed, on
each other creature, some with a Called Shot, attacking Nimble, with a Charge or as a Flurry's Minor Action),
the Strike applied after the menu was built, and again on the same state, gives exactly the events and the state (or
the refusal) of the same Strike on a new copy of the state with nothing kept, with the same scripted dice; and the
state given is left as it was.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from factories import armed_pair_and_hidden_rat, creature, on_turn, state, weapon
from test_menu_build import _fresh

from vtt.rules import positions
from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.model import BodyPart, Creature, GameState, Pool, Weapon
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, why_cannot_stand

SEEDS = range(12)
FIGHTS_PER_SEED = 4


def _arsenal() -> list[Weapon]:
    return [
        weapon("sword", 2, strike_types=("S", "C")),
        weapon("axe", 3, tier=2, strike_types=("C",), devastating=True),
        weapon("spear", 2, extend=1, strike_types=("S",)),
        weapon("maul", 2, two_handed=True, strike_types=("B",), guard=1),
        weapon("dagger", 1, lightweight=True, accurate=True, element="fire", strike_types=("F", "S")),
        weapon("bow", 2, ranged="launched", two_handed=True),
    ]


def _hurt(c: Creature, rng: random.Random) -> Creature:
    """Some of what changes a Strike's rolls and damage, at random."""
    ailments = {
        name: rng.randint(1, 3) for name in ("Dazzled", "Exhausted", "Crowded", "Unaware") if rng.random() < 0.2
    }
    parts = [BodyPart(**{**p.model_dump(), "wounded": rng.randint(1, 2)}) if rng.random() < 0.1 else p for p in c.parts]
    return c.model_copy(
        update={
            "ailments": ailments,
            "parts": parts,
            "severe_threshold": rng.choice([None, 0, 1, 2, 12]),
            "reductions": {"physical": 1} if rng.random() < 0.2 else {},
            "armor_reduction": rng.choice([0, 0, 1, 2]),
            "immunities": ["heat"] if rng.random() < 0.1 else [],
            "grit": Pool(max=6, pips=rng.choice([0, 0, 4, 5])),
            "prone": rng.random() < 0.2,
            "unconscious": rng.random() < 0.05,
        }
    )


def crowded_fight(seed: int) -> GameState:
    """2 to 5 creatures of sizes -1 to 2 close together on an 8 x 8 map with a few walls (the fight not begun)."""
    rng = random.Random(seed)
    walls = {(rng.randrange(8), rng.randrange(8)) for _ in range(rng.randrange(4))}
    placed: list[Creature] = []
    for i in range(rng.randint(2, 5)):
        for _ in range(50):
            w = rng.choice(_arsenal()) if rng.random() < 0.8 else None
            grip = {"right_arm": w.id} if w is not None else {}
            if w is not None and (w.two_handed or rng.random() < 0.3):
                grip["left_arm"] = w.id
            c = creature(
                f"c{i}",
                (rng.randrange(3, 6), rng.randrange(3, 6)),
                size=rng.choice([-1, 0, 0, 1, 1, 2]),
                skills={"Martial": rng.randint(0, 3), "Elude": rng.randint(0, 3), "Endure": rng.randint(0, 3)},
                weapons=[w] if w is not None else [],
                grip=grip,
                controller=rng.choice(["p1", None]),
            )
            c = _hurt(c, rng)
            trial = state(*placed, c, walls=walls)
            if why_cannot_stand(trial, c, c.anchor, Occupancy(trial)) is None:
                placed.append(c)
                break
    settings = TableSettings(
        defense_prompts="nobody",
        reactions=False,
        creatures_obstruct=rng.random() < 0.3,
        ambient_light=rng.choice(["lit", "lit", "dim"]),
        strike_defense=rng.choice(["Elude", "Elude", "Endure"]),
        guard_on_defense=rng.random() < 0.7,
        concealment_defense_per_tier=rng.choice([0, 0, 1]),
    )
    return state(*placed, walls=walls, settings=settings)


def _outcome(s: GameState, cmd: dict[str, Any], faces: list[int]) -> tuple[Any, ...]:
    try:
        after, events = apply(s, cmd, ScriptedDice(faces))
    except RuleError as e:
        return ("refused", str(e), e.code)
    return ("applied", after.model_dump(), [e.model_dump() for e in events])


def _strikes(s: GameState, actor: str, rng: random.Random) -> list[dict[str, Any]]:
    c = s.creatures[actor]
    out: list[dict[str, Any]] = []
    for tid in s.creatures:
        if tid == actor:
            continue
        for wid in [*(w.id for w in c.weapons), None]:
            cmd: dict[str, Any] = {"type": "strike", "creature": actor, "target": tid, "weapon": wid}
            roll = rng.random()
            if roll < 0.15:
                cmd["called_shot"] = rng.choice([p.id for p in s.creatures[tid].parts])
            elif roll < 0.25:
                cmd["nimble"] = True
            elif roll < 0.32:
                cmd["charge"] = True
            elif roll < 0.40:
                cmd["minor"] = True
            out.append(cmd)
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_a_strike_after_its_menu_is_the_strike_on_a_state_seen_first(seed: int) -> None:
    """seed-000 Strike: the outcome of a Strike follows from the state, the command and the dice alone."""
    rng = random.Random(seed)
    applied = 0
    fights = [crowded_fight(seed * FIGHTS_PER_SEED + k) for k in range(FIGHTS_PER_SEED)]
    for fight in fights:
        for actor in fight.creatures:
            s = on_turn(fight, actor)
            for cmd in _strikes(s, actor, rng):
                faces = [rng.randint(1, 12) for _ in range(60)]
                positions.forget()
                first = _outcome(_fresh(s), cmd, faces)
                before = s.model_dump()
                legal_actions(s, actor)
                assert _outcome(s, cmd, faces) == first, cmd
                assert _outcome(s, cmd, faces) == first, cmd  # again: now with the Strike's own values kept
                assert s.model_dump() == before
                applied += first[0] == "applied"
    assert applied > 0


@pytest.mark.parametrize("actor", ["ayla", "orc"])
def test_the_economy_strikes_chosen_from_one_menu_share_stays_as_paid_when_a_command_spends_more(actor: str) -> None:
    """The Economy a Strike chosen from its menu leaves is worked out once for the state and shared by every such
    Strike's state: what changes it afterwards (a Charge declared, ending the turn of Ayla or of the orc in the
    Soulweaver's turn, or a later move) changes a copy, never the shared one."""
    pair = armed_pair_and_hidden_rat()
    s = on_turn(pair, actor)
    ready = s.economy[actor].model_copy(update={"dashed": True, "consecutive_spaces": 2})
    s = s.model_copy(update={"economy": {**s.economy, actor: ready}})
    target = "orc" if actor == "ayla" else "ayla"
    legal_actions(s, actor)
    for charge in (False, True):
        strike = {"type": "strike", "creature": actor, "target": target, "weapon": "sword", "charge": charge}
        first = apply(s, strike, ScriptedDice([1, 1, 1, 12, 12]))[0].economy[actor].model_dump()
        assert first["major"] == 0 and first["attacked"]
        second, _ = apply(s, strike, ScriptedDice([1, 1, 1, 12, 12]))
        assert second.economy[actor].model_dump() == first
        if not charge:  # a Charge ends the turn
            moved, _ = apply(second, {"type": "move", "creature": actor, "to": [2, 3]}, ScriptedDice([]))
            assert moved.economy[actor].movement_spent > first["movement_spent"]
        third, _ = apply(s, strike, ScriptedDice([1, 1, 1, 12, 12]))
        assert second.economy[actor].model_dump() == third.economy[actor].model_dump() == first
