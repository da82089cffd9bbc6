"""Death (seed-004 Dead).

"Exhausted causes you to die if you Fumble an Endure roll while it is Tier 12 or higher": `exhaustion_death` is
called after every roll a creature makes with a skill. A dead creature's body becomes a corpse that keeps its
Pips and ailments, and its non-Curse ongoing abilities end.
"""

from __future__ import annotations

from vtt.rules.dice import Roll
from vtt.rules.events import Event
from vtt.rules.txn import Tx

DEATH_EXHAUSTED = 12


def exhaustion_death(tx: Tx, creature_id: str, skill: str, r: Roll) -> list[Event]:
    """seed-004 Dead: "Exhausted causes you to die if you Fumble an Endure roll while it is Tier 12 or higher."
    Called after every roll a creature makes with a skill: a defense, an ailment's defense, a Talent's Manifest."""
    c = tx.state.creatures.get(creature_id)
    if c is None or skill != "Endure" or not r.fumble or c.dead:
        return []
    exhausted = c.ailments.get("Exhausted", 0)
    if exhausted < DEATH_EXHAUSTED:
        return []
    return die(tx, creature_id, f"Fumbled an Endure roll while Exhausted Tier {exhausted}")


def die(tx: Tx, target_id: str, why: str) -> list[Event]:
    c = tx.creature(target_id)
    c.dead = True
    ended = [e for e in tx.state.effects if e.creator == target_id and not e.curse]
    tx.state.effects = [e for e in tx.state.effects if not (e.creator == target_id and not e.curse)]
    text = f"{c.name} dies ({why}): the body is now a corpse, keeping its Pips and ailments."
    if ended:
        text += " Its ongoing abilities end: " + ", ".join(e.name for e in ended) + "."
    return [Event(kind="dead", text=text, target=target_id)]
