"""Overexertion (reference §3, FACT [conflict] [maneuver] [ailments-new]).

"Triggered by each minute in Conflict, by Secondary movement, and by Dash or Run while Exhausted." GAP: the DL.
ASSUMPTION (reference §3): Endure against DL `overexertion_dl` (3) + the Overexertion rolls the creature has
already made this scene (`Creature.overexertion_rolls`, which the Soulweaver sets back to 0 for a new scene); a
failure is Tier 1 Exhausted (none for a creature immune to it). Exhausted's penalty on Skill rolls applies, and a
Fumble at Exhausted 12+ kills (seed-004). Triggers here: each minute in Conflict (`conflict.after_a_minute`) and
Dash while Exhausted (`movement.dash`); Secondary movement and Run are not in the table's rules.
"""

from __future__ import annotations

from vtt.rules import ailments
from vtt.rules.death import exhaustion_death
from vtt.rules.dice import DiceSource, roll
from vtt.rules.events import Event
from vtt.rules.txn import Tx

SKILL = "Endure"


def overexertion(tx: Tx, creature_id: str, why: str, dice: DiceSource) -> list[Event]:
    """One Overexertion roll; `why` says what called for it ("after a minute in Conflict", "for Dashing while
    Exhausted")."""
    c = tx.get(creature_id)
    dl = tx.state.settings.overexertion_dl + c.overexertion_rolls
    r = roll(dice, f"{c.name}: Endure against Overexertion", c.skill(SKILL), ailments.exhausted(c, "Skill rolls"))
    ok = r.result >= dl and not (tx.state.settings.fumble_always_fails and r.fumble)
    tx.creature(creature_id).overexertion_rolls += 1
    text = f"{c.name} rolls Endure against Overexertion {why}: {r.result} against DL {dl}"
    if ok:
        text += ", no harm."
    else:
        immunity = ailments.immunity_to(c, "Exhausted")
        if immunity is None:
            now = ailments.add_ailment(tx, creature_id, "Exhausted", 1)
            text += f", Tier 1 Exhausted (now Tier {now})."
        else:
            text += f", but it is immune to Exhausted ({immunity})."
    event = Event(kind="overexertion", text=text, target=creature_id, rolls=[r], data={"dl": dl, "success": ok})
    return [event, *exhaustion_death(tx, creature_id, SKILL, r)]
