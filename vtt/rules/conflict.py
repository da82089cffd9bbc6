"""Conflict (reference §3), as far as the table's rules ask about it.

- FACT [conflict]: "Being in Conflict means an Overexertion roll after each minute" (`after_a_minute`, called by
  `minutes.pass_time`). GAP: the roll's DL. ASSUMPTION (reference §3): Endure against DL `overexertion_dl` (3) +
  the Overexertion rolls the creature has already made this scene (`Creature.overexertion_rolls`, which the
  Soulweaver sets back to 0 for a new scene); a failure is Tier 1 Exhausted. Exhausted's penalty on Skill rolls
  applies, and a Fumble at Exhausted 12+ kills (seed-004). A creature that cannot act (Unconscious) does not
  exert itself and makes no roll (ASSUMPTION).
- Who is in Conflict: entering and leaving it (a Conflict Action, being hit, Poise to stay out, the Minor Action to
  enter or leave) are not modelled; the Soulweaver marks it on the sheet (`Creature.in_conflict`).
- FACT [ailments-new] Enraged: "At Tier 6+ you are always in Conflict", whatever the mark.
"""

from __future__ import annotations

from vtt.rules import ailments
from vtt.rules.death import exhaustion_death
from vtt.rules.dice import DiceSource, roll
from vtt.rules.events import Event
from vtt.rules.model import Creature
from vtt.rules.txn import Tx

ENRAGED_ALWAYS_IN_CONFLICT = 6
OVEREXERTION_SKILL = "Endure"


def in_conflict(c: Creature) -> bool:
    return c.in_conflict or ailments.tier(c, "Enraged") >= ENRAGED_ALWAYS_IN_CONFLICT


def why_in_conflict(c: Creature) -> str:
    enraged = ailments.tier(c, "Enraged")
    if enraged >= ENRAGED_ALWAYS_IN_CONFLICT:
        return f"Enraged Tier {enraged}: always in Conflict"
    return "in Conflict"


def after_a_minute(tx: Tx, creature_id: str, dice: DiceSource) -> list[Event]:
    """A creature in Conflict rolls Overexertion: Endure at DL `overexertion_dl` + earlier rolls this scene."""
    c = tx.get(creature_id)
    if c.dead or not c.can_act or not in_conflict(c):
        return []
    dl = tx.state.settings.overexertion_dl + c.overexertion_rolls
    r = roll(
        dice,
        f"{c.name}: Endure against Overexertion",
        c.skill(OVEREXERTION_SKILL),
        ailments.exhausted(c, "Skill rolls"),
    )
    ok = r.result >= dl and not (tx.state.settings.fumble_always_fails and r.fumble)
    tx.creature(creature_id).overexertion_rolls += 1
    text = f"{c.name} ({why_in_conflict(c)}) rolls Endure against Overexertion after a minute (DL {dl}): {r.result}"
    if ok:
        text += ", no harm."
    else:
        immunity = ailments.immunity_to(c, "Exhausted")
        if immunity is None:
            now = ailments.add_ailment(tx, creature_id, "Exhausted", 1)
            text += f", Tier 1 Exhausted (now Tier {now})."
        else:
            text += f", but it is immune to Exhausted ({immunity})."
    event = Event(
        kind="overexertion",
        text=text,
        target=creature_id,
        rolls=[r],
        data={"dl": dl, "success": ok},
    )
    return [event, *exhaustion_death(tx, creature_id, OVEREXERTION_SKILL, r)]
