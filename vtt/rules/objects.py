"""Objects on the map attacked and broken (seed-000; reference §2.1, §4.6).

- An object on the map (`BoardObject`: a pillar, a crate) fills its spaces like a wall. A Strike on one of its
  spaces (`surface` "wall", melee or ranged) attacks the object: seed-000 "To target a wall or vertical surface that
  fills an entire space, treat it as a size 1 object" is read as saying a wall is one size of object, so an object
  is attacked at its own `size` (the Strike size modifier and the physical damage's size change); a plain wall at
  size 1. Nobody defends an unattended object: its defense is 0, as a surface's.
- Damage to it is counted as against a creature (seed-004): a die needs 3 plus its Physical Reduction
  (`BoardObject.reduction`), which Stabbing lowers by 1 for each attack face of 6 or more; Chopping deals +1 damage
  for each; Bashing's floor holds, less the sizes the object is larger. A Strike is a targeted attack, so no half
  is added.
- Durability works as the object's Severe Threshold (the ASSUMPTION the stomach already uses, table setting
  `stomach_threshold`: seed-000's stomach is "an unattended object with 2 Durability and 0 Physical Reduction" and
  "6 Tiers of Wounded to the stomach" are what undoes it): Injury beyond the Durability is that many Tiers of
  Wounded on the object (`BoardObject.wounded`). At table setting `object_broken_at` Tiers (6) it is broken
  (`BoardObject.broken`): it stays on the map, marked broken, but no longer fills its spaces, so it stops
  obstructing and blocking movement, light and sight (`Board.filled`). An object without a Durability (None) takes
  the Injury and never breaks, as a plain wall.
"""

from __future__ import annotations

from vtt.rules.damage import DAMAGE_FACE, MAX_FACE, StrikeType, strong_faces
from vtt.rules.dice import DiceChange, DiceSource, roll
from vtt.rules.events import Event
from vtt.rules.model import Board, BoardObject, Cell, Creature
from vtt.rules.txn import Tx
from vtt.rules.words import count


def object_at(board: Board, space: Cell) -> BoardObject | None:
    """The unbroken object filling `space`, if any."""
    return next((o for o in board.objects if not o.broken and space in o.cells), None)


def damage_object(
    tx: Tx,
    attacker: Creature,
    obj: BoardObject,
    amount: int,
    changes: list[DiceChange],
    strike_type: StrikeType | None,
    attack_faces: tuple[int, ...],
    max_dice: int | None,
    dice: DiceSource,
) -> list[Event]:
    """The damage roll of a hit on `obj`, its Wounded Tiers beyond its Durability, and breaking it."""
    strong = strong_faces(attack_faces)
    changes = list(changes)
    if strike_type == "C" and strong:
        changes.append(DiceChange(dice=strong, reason=f"Chopping: {count(strong, 'attack face')} of 6 or more"))
    wanted = max(0, amount + sum(ch.dice for ch in changes))
    if max_dice is not None and max_dice < wanted:
        changes.append(DiceChange(dice=max_dice - wanted, reason="the roller chose to roll fewer dice"))
    reduction = obj.reduction
    stab = min(reduction, strong) if strike_type == "S" else 0
    needed = min(MAX_FACE, DAMAGE_FACE + reduction - stab)
    dmg = roll(dice, f"{attacker.name}: damage to the {obj.name}", amount, dice_changes=changes)
    injury = dmg.count_at_least(needed)
    notes: list[str] = []
    if reduction:
        notes.append(f"Physical Reduction {reduction}" + (f", {stab} less for Stabbing" if stab else ""))
    if strike_type == "B":
        floor = min(strong - max(0, obj.size - attacker.size), dmg.dice)
        if floor > injury:
            notes.append(f"Bashing raises the Injury to {floor}")
            injury = floor
    note = f" ({'; '.join(notes)})" if notes else ""
    events = [
        Event(
            kind="damage",
            text=f"Damage {dmg.dice}d12, needing {needed}+: {injury} Injury to the {obj.name}{note}.",
            actor=attacker.id,
            rolls=[dmg],
            data={"injury": injury, "needed": needed, "object": obj.id},
        )
    ]
    if obj.durability is None:
        return events
    wounded = max(0, injury - obj.durability)
    if wounded <= 0:
        return events
    broken_at = tx.state.settings.object_broken_at
    now = obj.wounded + wounded
    broken = broken_at > 0 and now >= broken_at
    board = tx.board()
    board.objects = [
        o.model_copy(update={"wounded": now, "broken": broken}) if o.id == obj.id else o for o in board.objects
    ]
    events.append(
        Event(
            kind="object_wounded",
            text=f"{injury} Injury exceeds the {obj.name}'s Durability {obj.durability} by {wounded}: Tier {wounded} "
            f"Wounded to it (now {now}" + (f" of {broken_at})." if broken_at > 0 else ")."),
            actor=attacker.id,
            data={"object": obj.id, "wounded": wounded, "object_wounded": now},
        )
    )
    if broken:
        events.append(
            Event(
                kind="object_broken",
                text=f"The {obj.name} breaks: it no longer fills its spaces.",
                actor=attacker.id,
                data={"object": obj.id, "cells": [list(c) for c in obj.cells]},
            )
        )
    return events
