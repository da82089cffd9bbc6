"""Speeding up a Strike's damage never changes what it does: the outcome (events and the target and attacker after)
of many random Hits dealt by `damage.deal` on random creatures (sizes, Reductions of each type, armour, Vulnerable,
Immune with Continuing Damage to end, Severe Thresholds from the skill or given, negative ones, nearly full pools
spilling into Energy and Exhausted, Ready abilities, severed parts, part tables of the table's own; Hits of every
Strike type and element, magical, from a spell, Called Shots, targeted or not, a part given or rolled, Continuing
Damage, fewer dice chosen, Grit, Energy and Resolve Pips) equals the outcome recorded before
(`strike_damage_golden.json`, a digest of each, with scripted dice).

When a rule is meant to change, record the outcomes again:
`.venv/bin/python tests/test_strike_damage_golden.py --write`.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from factories import creature, state

from vtt.rules.damage import Hit, deal
from vtt.rules.dice import Roll, ScriptedDice
from vtt.rules.model import ContinuingDamage, Creature, GameState, Pool, Readied
from vtt.rules.settings import TableSettings
from vtt.rules.txn import Tx

GOLDEN = Path(__file__).with_name("strike_damage_golden.json")
CASES = 1500
TYPES = ("physical", "fire", "water", "earth", "air", "heat", "cold", "acid", "lightning", "magical")


def _pool(rng: random.Random, most: int) -> Pool:
    return Pool(max=most, pips=rng.choice([0, 0, most // 2, max(0, most - 1), most]))


def _target(rng: random.Random) -> Creature:
    c = creature(
        "t",
        (5, 5),
        size=rng.choice([-1, 0, 0, 1, 2]),
        skills={"Endure": rng.randint(0, 3), "Zeal": rng.randint(0, 2), "Magic": rng.randint(0, 2)},
        severe_threshold=rng.choice([None, None, 0, 1, 2, -1, -2, 12]),
        reductions={t: rng.randint(1, 3) for t in TYPES if rng.random() < 0.12},
        armor_reduction=rng.choice([0, 0, 0, 1, 2]),
        vulnerabilities=[t for t in TYPES if rng.random() < 0.05],
        immunities=[t for t in TYPES if rng.random() < 0.04],
        grit=_pool(rng, 6),
        energy=_pool(rng, 3),
        resolve=_pool(rng, 3),
    )
    if rng.random() < 0.15:
        c.continuing = [ContinuingDamage(id="cd1", element=rng.choice([None, "acid", "fire"]), amount=1, part="torso")]
    if rng.random() < 0.15:
        part = rng.choice(c.parts)
        part.severed = True
    if rng.random() < 0.1:
        arm = c.limb("left_arm")
        assert arm is not None
        faces = (rng.randint(1, 12),)
        arm.readied = Readied(ability="firebolt", roll=Roll(label="Manifest", base_dice=1, faces=faces), dl=3)
    return c


def _hit(rng: random.Random, attacker: str | None) -> Hit:
    return Hit(
        target="t",
        amount=rng.randint(0, 4),
        attacker=attacker,
        label=rng.choice(["damage", "A's Strike"]),
        changes=(),
        physical=rng.random() < 0.85,
        element=rng.choice([None, None, None, "fire", "water", "earth", "air"]),
        strike_type=rng.choice([None, None, "B", "C", "F", "M", "S"]),
        from_spell=rng.random() < 0.1,
        apply_size=rng.random() < 0.9,
        attack_faces=tuple(rng.randint(1, 12) for _ in range(rng.randint(0, 3))),
        targeted=rng.random() < 0.7,
        part=rng.choice([None, None, "torso", "head", "left_arm", "stomach"]),
        called_shot=rng.random() < 0.15,
        max_dice=rng.choice([None, None, None, 0, 1, 2]),
        pool=rng.choice(["grit", "grit", "grit", "energy", "resolve"]),
        continuing=rng.random() < 0.1,
    )


def _case(seed: int) -> tuple[GameState, Hit, list[int]]:
    rng = random.Random(seed)
    settings = TableSettings(
        defense_prompts="nobody",
        reactions=False,
        part_table=rng.choice([None, None, None, [(1, 6, "torso"), (7, 12, "left_leg")], []]),
        material_elements=rng.choice([["earth"], ["earth", "air"], []]),
    )
    attacker = creature("a", (3, 5), size=rng.choice([-1, 0, 1, 2, 4])) if rng.random() < 0.9 else None
    s = state(*([attacker] if attacker else []), _target(rng), settings=settings)
    faces = [rng.randint(1, 12) for _ in range(40)]
    return s, _hit(rng, attacker.id if attacker else None), faces


def _digest(s: GameState, hit: Hit, faces: list[int]) -> str:
    tx = Tx(s)
    try:
        events = deal(tx, hit, ScriptedDice(faces))
        outcome: Any = [
            [e.model_dump(mode="json") for e in events],
            {cid: c.model_dump(mode="json") for cid, c in tx.state.creatures.items()},
            tx.state.board.model_dump(mode="json"),
        ]
    except ValueError as e:
        outcome = ["refused", str(e)]
    text = json.dumps(outcome, sort_keys=True, default=sorted)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def outcomes() -> list[str]:
    return [_digest(*_case(seed)) for seed in range(CASES)]


def test_damage_does_what_it_did_before() -> None:
    recorded = json.loads(GOLDEN.read_text())
    now = outcomes()
    assert len(now) == len(recorded) == CASES
    changed = [seed for seed, (a, b) in enumerate(zip(now, recorded, strict=True)) if a != b]
    assert not changed, f"the outcome of these cases changed: {changed[:20]}"


def test_the_cases_reach_the_rules_they_are_for() -> None:
    """The random cases deal Injury, Serious Injury, spills and element effects (not only misses)."""
    kinds: set[str] = set()
    for seed in range(CASES):
        s, hit, faces = _case(seed)
        try:
            kinds.update(e.kind for e in deal(Tx(s), hit, ScriptedDice(faces)))
        except ValueError:
            continue
    assert {"damage", "pips", "serious_injury", "immune", "ready_check", "sever", "heat", "cold", "acid"} <= kinds


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.write_text(json.dumps(outcomes(), indent=0) + "\n")
