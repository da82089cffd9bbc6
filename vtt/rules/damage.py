"""Damage as counted Injury, and Grit/Energy Pips (seed-004, the parts the rules core needs now).

Roll d12 equal to the damage; each face reaching the needed value (3 for damage) is 1 Injury. Grit Injury adds
Grit Pips; each Grit Pip suffered while the Grit Pool is full is an Energy Pip instead, and each Energy Pip
while the Energy Pool is full is Tier 1 Exhausted. After Grit Injury with a full Grit Pool the creature falls
Unconscious: Prone, drops what it holds, Tier 12 Unaware.
"""

from __future__ import annotations

from vtt.rules.dice import DiceChange, DiceSource, Roll, roll
from vtt.rules.events import Event
from vtt.rules.txn import Tx

DAMAGE_FACE = 3
MAX_FACE = 12
UNCONSCIOUS_UNAWARE = 12


def damage_roll(dice: DiceSource, label: str, amount: int, changes: list[DiceChange]) -> Roll:
    return roll(dice, label, amount, dice_changes=changes)


def injury(r: Roll, needed: int = DAMAGE_FACE) -> int:
    return r.count_at_least(min(needed, MAX_FACE))


def suffer_grit_injury(tx: Tx, target_id: str, amount: int) -> list[Event]:
    if amount <= 0:
        return []
    c = tx.creature(target_id)
    events: list[Event] = []
    room = max(0, c.grit.max - c.grit.pips)
    to_grit = min(room, amount)
    spill = amount - to_grit
    c.grit.pips += to_grit
    text = f"{c.name} suffers {amount} Grit Injury (Grit {c.grit.pips}/{c.grit.max})."
    if spill:
        e_room = max(0, c.energy.max - c.energy.pips)
        to_energy = min(e_room, spill)
        c.energy.pips += to_energy
        exhausted = spill - to_energy
        text += f" {spill} Pip(s) past a full Grit Pool become Energy Pips (Energy {c.energy.pips}/{c.energy.max})."
        if exhausted:
            c.ailments["Exhausted"] = c.ailments.get("Exhausted", 0) + exhausted
            text += f" {exhausted} past a full Energy Pool: Exhausted Tier {c.ailments['Exhausted']}."
    events.append(
        Event(
            kind="injury",
            text=text,
            target=target_id,
            data={"injury": amount, "grit": [c.grit.pips, c.grit.max]},
        )
    )
    if c.grit.full and not c.unconscious and not c.dead:
        c.unconscious = True
        c.prone = True
        c.ailments["Unaware"] = max(c.ailments.get("Unaware", 0), UNCONSCIOUS_UNAWARE)
        dropped = [limb.holding for limb in c.limbs if limb.holding]
        names = [w.name if (w := c.weapon(d)) else d for d in dict.fromkeys(dropped)]
        for limb in c.limbs:
            limb.holding = None
        events.append(
            Event(
                kind="unconscious",
                text=f"{c.name}'s Grit Pool is full: falls Unconscious and Prone"
                + (f", dropping {', '.join(names)}" if names else "")
                + ".",
                target=target_id,
                data={"dropped": dropped},
            )
        )
    return events
