"""Conflict (reference §3), as far as the table's rules ask about it.

- FACT [conflict]: "Being in Conflict means an Overexertion roll after each minute" (`after_a_minute`, called by
  `minutes.pass_time`; the roll is `overexertion`'s). A creature that cannot act (Unconscious) does not exert
  itself and makes no roll (ASSUMPTION).
- Who is in Conflict: entering and leaving it (a Conflict Action, being hit, Poise to stay out, the Minor Action to
  enter or leave) are not modelled; the Soulweaver marks it on the sheet (`Creature.in_conflict`).
- FACT [ailments-new] Enraged: "At Tier 6+ you are always in Conflict", whatever the mark.
"""

from __future__ import annotations

from vtt.rules import ailments
from vtt.rules.dice import DiceSource
from vtt.rules.events import Event
from vtt.rules.model import Creature
from vtt.rules.overexertion import overexertion
from vtt.rules.txn import Tx

ENRAGED_ALWAYS_IN_CONFLICT = 6


def in_conflict(c: Creature) -> bool:
    return c.in_conflict or ailments.tier(c, "Enraged") >= ENRAGED_ALWAYS_IN_CONFLICT


def why_in_conflict(c: Creature) -> str:
    enraged = ailments.tier(c, "Enraged")
    if enraged >= ENRAGED_ALWAYS_IN_CONFLICT:
        return f"in Conflict (Enraged Tier {enraged} is always in it)"
    return "in Conflict"


def after_a_minute(tx: Tx, creature_id: str, dice: DiceSource) -> list[Event]:
    """A creature in Conflict rolls Overexertion after each minute (see `overexertion`); one that cannot act
    (Unconscious) does not exert itself."""
    c = tx.get(creature_id)
    if c.dead or not c.can_act or not in_conflict(c):
        return []
    return overexertion(tx, creature_id, f"after a minute {why_in_conflict(c)}", dice)
