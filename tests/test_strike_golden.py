"""Speeding up the Strike never changes what it does: the outcome (events and state, or the refusal) of many random
Strikes on random crowded fights (`test_strike_kept.crowded_fight`: sizes, Strike types, Devastating and elements,
Reductions, low Severe Thresholds, nearly full pools, Called Shots, Nimble, Charges, Flurry Minor Actions), with the
defense rolled at once, waiting for its player (then answered, rolled or declined) or after a Hinder reaction is
offered, equals the outcome recorded before (`strike_golden.json`, a digest of each, with scripted dice). Each Strike
is applied on a state no menu was asked of and again after its menu.

When a rule is meant to change, record the outcomes again: `.venv/bin/python tests/test_strike_golden.py --write`.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from factories import on_turn
from test_menu_build import _fresh
from test_strike_kept import _strikes, crowded_fight

from vtt.rules import positions
from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.model import GameState

GOLDEN = Path(__file__).with_name("strike_golden.json")
FIGHTS = 40
MODES = ("nobody", "players", "reactions")


def _fight(seed: int) -> GameState:
    fight = crowded_fight(1000 + seed)
    mode = MODES[seed % len(MODES)]
    settings = fight.settings.model_copy(
        update={"defense_prompts": "players" if mode == "players" else "nobody", "reactions": mode == "reactions"}
    )
    return fight.model_copy(update={"settings": settings})


def _digest(s: GameState, cmd: dict[str, Any], faces: list[int], rolls: bool) -> str:
    dice = ScriptedDice(faces)
    try:
        after, events = apply(s, cmd, dice)
        dumped: list[Any] = [e.model_dump(mode="json") for e in events]
        for d in after.pending:  # a defense waiting for its player: answered
            if d.kind == "defense":
                after, more = apply(after, {"type": "defend", "decision": d.id, "roll": rolls}, dice)
                dumped += [e.model_dump(mode="json") for e in more]
                break
        outcome: Any = ["applied", after.model_dump(mode="json"), dumped]
    except RuleError as e:
        outcome = ["refused", str(e), e.code]
    text = json.dumps(outcome, sort_keys=True, default=sorted)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def outcomes() -> list[tuple[str, str]]:
    """(command, digest) of every Strike tried, in order."""
    rng = random.Random(14)
    out: list[tuple[str, str]] = []
    for seed in range(FIGHTS):
        fight = _fight(seed)
        for actor in fight.creatures:
            s = on_turn(fight, actor)
            for cmd in _strikes(s, actor, rng):
                faces = [rng.randint(1, 12) for _ in range(60)]
                rolls = rng.random() < 0.7
                positions.forget()
                first = _digest(_fresh(s), cmd, faces, rolls)
                legal_actions(s, actor)
                again = _digest(s, cmd, faces, rolls)
                assert again == first, cmd
                out.append((json.dumps(cmd, sort_keys=True), first))
    return out


def test_strikes_do_what_they_did_before() -> None:
    recorded = json.loads(GOLDEN.read_text())
    now = outcomes()
    assert len(now) == len(recorded) > 500
    for (cmd, digest), (was_cmd, was) in zip(now, recorded, strict=True):
        assert cmd == was_cmd
        assert digest == was, f"the outcome of {cmd} changed"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.write_text(json.dumps(outcomes(), indent=0) + "\n")
