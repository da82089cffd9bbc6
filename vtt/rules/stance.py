"""Defensive Stance (seed-000 Defense actions).

"Enter a Defensive Stance if you have not made an attack or Manifested a Spell or Talent this turn. While in a
Defensive Stance, gain +1 on defenses against physical attacks and you cannot attack or Manifest Spells or
Talents."

- The seed names no cost: the table setting `defensive_stance_cost` (a Major Action by default).
- The seed names no duration: the stance is an effect "for 1 round", ending as the creature's next turn starts.
- The +1 is the effect's `physical_defense` modifier, added to every defense roll against a physical attack.
- "you cannot attack": no Strike (on a creature, a space, a wall or the ground), Grab, Collision or Overpower, and
  no Hinder, which is an attack too (see `reactions`).
"""

from __future__ import annotations

from vtt.rules.conditions import DEFENSIVE_STANCE, PHYSICAL_DEFENSE
from vtt.rules.events import Event, RuleError
from vtt.rules.model import Effect, GameState
from vtt.rules.turns import require_active, spend
from vtt.rules.txn import Tx

STANCE_DEFENSE_BONUS = 1


def in_stance(state: GameState, creature_id: str) -> bool:
    return any(e.name == DEFENSIVE_STANCE and e.subject == creature_id for e in state.effects)


def require_can_attack(state: GameState, creature_id: str) -> None:
    """seed-000: while in a Defensive Stance "you cannot attack"."""
    if in_stance(state, creature_id):
        raise RuleError(f"{state.creatures[creature_id].name} is in a Defensive Stance and cannot attack")


def why_no_stance(state: GameState, creature_id: str) -> str | None:
    """Why the creature cannot enter a Defensive Stance now (its cost aside), or None."""
    c = state.creatures[creature_id]
    econ = state.economy.get(creature_id)
    if in_stance(state, creature_id):
        return f"{c.name} is already in a Defensive Stance"
    if econ is not None and econ.attacked:
        return f"{c.name} has made an attack this turn: no Defensive Stance"
    if econ is not None and econ.manifested:
        return f"{c.name} has Manifested this turn: no Defensive Stance"
    return None


def enter_stance(tx: Tx, creature_id: str) -> list[Event]:
    c = require_active(tx.state, creature_id)
    if (why := why_no_stance(tx.state, creature_id)) is not None:
        raise RuleError(why)
    cost = tx.state.settings.defensive_stance_cost
    spend(tx, creature_id, major=1 if cost == "major" else 0, minor=1 if cost == "minor" else 0)
    tx.effects().append(
        Effect(
            id=tx.state.new_id("e"),
            name=DEFENSIVE_STANCE,
            creator=creature_id,
            subject=creature_id,
            modifiers={PHYSICAL_DEFENSE: STANCE_DEFENSE_BONUS},
        )
    )
    return [
        Event(
            kind="effect",
            text=f"{c.name} enters a Defensive Stance: +1 on defenses against physical attacks and no attacks "
            "until its next turn starts.",
            actor=creature_id,
            data={"effect": DEFENSIVE_STANCE},
        )
    ]
