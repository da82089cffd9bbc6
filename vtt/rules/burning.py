"""Burning (reference §5.2, FACT from the newer Ailments page).

"Causes continuing Heat damage equal to half its Tier. When your turn ends, roll Tier d12 at DL 9: success +1 Tier;
failing by 6 or more -1 Tier. Removed when surrounded by water."

- The Heat damage is Continuing Damage, dealt on the Soulweaver's turn as all Continuing Damage is (seed-004):
  half the Tier (rounded down) in d12, of the Heat type (magical; a Heat Reduction or Immunity counts), with no
  Endure roll after it (that roll follows Flowing Fire's Heat, not Continuing Damage), to no chosen part.
- When the Burning creature's turn ends it rolls Tier d12 (no skill, no modifier): a result of 9 or more raises
  Burning by 1 Tier; 3 or less (failing DL 9 by 6 or more) lowers it by 1. It has no end-of-turn defense roll of
  its own (reference §5.1 lists none).
- "Surrounded by water": every space the creature fills is water (`Board.water`). Checked after every command
  (`douse`), so walking into water, being pushed into it or the water painted around it put it out.
"""

from __future__ import annotations

from vtt.rules.damage import Hit, deal
from vtt.rules.dice import DiceSource, roll
from vtt.rules.events import Event
from vtt.rules.space import footprint
from vtt.rules.txn import Tx

BURNING = "Burning"
BURNING_DL = 9
FAIL_BY = 6
HEAT = "heat"


def tier_of(tx: Tx, creature_id: str) -> int:
    return tx.get(creature_id).ailments.get(BURNING, 0)


def burn(tx: Tx, dice: DiceSource) -> list[Event]:
    """On the Soulweaver's turn: each Burning creature takes Heat damage of half its Tier."""
    events: list[Event] = []
    for cid in sorted(tx.state.creatures):
        c = tx.get(cid)
        amount = tier_of(tx, cid) // 2
        if amount <= 0 or c.dead or c.swallowed_by is not None:
            continue
        hit = Hit(
            target=cid,
            amount=amount,
            label="Burning",
            physical=False,
            element=HEAT,
            apply_size=False,
            targeted=False,
            continuing=True,
        )
        events += deal(tx, hit, dice)
    return events


def at_turn_end(tx: Tx, creature_id: str, dice: DiceSource) -> list[Event]:
    """As a Burning creature's turn ends: Tier d12 at DL 9, +1 Tier on success, -1 on failing by 6 or more."""
    t = tier_of(tx, creature_id)
    c = tx.get(creature_id)
    if t <= 0 or c.dead:
        return []
    r = roll(dice, f"{c.name}: Burning (Tier {t})", t)
    m = tx.creature(creature_id)
    if r.result >= BURNING_DL:
        now, how = t + 1, "it spreads"
    elif r.result <= BURNING_DL - FAIL_BY:
        now, how = t - 1, "it dies down"
    else:
        now, how = t, "it holds"
    if now > 0:
        m.ailments[BURNING] = now
    else:
        m.ailments.pop(BURNING, None)
    return [
        Event(
            kind="burning",
            text=f"{c.name} rolls {t}d12 for Burning (DL {BURNING_DL}): {r.result}, {how} (Tier {now}).",
            target=creature_id,
            rolls=[r],
            data={"tier": now, "dl": BURNING_DL},
        )
    ]


def douse(tx: Tx) -> list[Event]:
    """Burning is removed from a creature surrounded by water: every space it fills is water."""
    water = tx.state.board.water
    if not water:
        return []
    events: list[Event] = []
    for cid, c in sorted(tx.state.creatures.items()):
        if not c.ailments.get(BURNING) or c.swallowed_by is not None:
            continue
        if all(cell in water for cell in footprint(tx.state, c)):
            m = tx.creature(cid)
            m.ailments.pop(BURNING, None)
            events.append(
                Event(
                    kind="burning",
                    text=f"{c.name} is surrounded by water: Burning is put out.",
                    target=cid,
                    data={"tier": 0},
                )
            )
    return events
