"""Damage and healing the Soulweaver applies by hand, Recovery, the Zeal roll on a full Resolve Pool, Soothe.

- Harm / Heal: the Soulweaver deals damage or healing of a chosen type and amount to any creature; it goes
  through the same damage and healing rules as an attack's (seed-004).
- Resolve (seed-004): "While your Resolve Pool is full, the only actions you can use are Recovery and roll Zeal
  as a Minor Action to be able to use a Major Action this turn, DL 12." What Recovery restores is not in the
  rules read (reference §4.3 gap): it is a Major Action (ASSUMPTION) whose Pips the Soulweaver removes by hand.
- Soothe (seed-004 Acid): "Soothe can reduce the damage by 1": an action (table setting, a Minor Action) on a
  creature in Reach that lowers one of its Continuing Acid damages by 1.
"""

from __future__ import annotations

from vtt.rules import near
from vtt.rules.damage import Hit, PoolName, deal, heal
from vtt.rules.dice import DiceSource, roll
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.model import Creature, GameState
from vtt.rules.reach import base_reach
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.turns import require_active, resolve_blocks, spend
from vtt.rules.txn import Tx

ZEAL_FOR_MAJOR_DL = 12


def harm(
    tx: Tx,
    target: str,
    amount: int,
    physical: bool,
    element: str | None,
    pool: PoolName,
    part: str | None,
    dice: DiceSource,
) -> list[Event]:
    c = tx.get(target)
    if part is not None and c.part(part) is None:
        raise RuleError(f"{c.name} has no part {part!r}")
    hit = Hit(
        target=target,
        amount=amount,
        label="The Soulweaver's damage",
        physical=physical,
        element=element,
        apply_size=False,
        targeted=part is not None,
        part=part,
        pool=pool,
    )
    return [
        Event(
            kind="harm",
            text=f"The Soulweaver deals {amount} {('physical' if physical else 'magical')}"
            f"{' ' + element if element else ''} damage to {c.name}.",
            target=target,
        ),
        *deal(tx, hit, dice),
    ]


def heal_by_hand(tx: Tx, target: str, amount: int, kind: str | None, pool: PoolName, dice: DiceSource) -> list[Event]:
    return heal(tx, target, amount, None, kind, pool, dice)


def zeal_for_major(tx: Tx, creature: str, dice: DiceSource) -> list[Event]:
    c = require_active(tx.state, creature)
    if not resolve_blocks(tx.state, creature):
        raise RuleError(f"{c.name}'s Resolve Pool is not full: it needs no Zeal roll to act")
    econ = tx.economy(creature)
    if econ.major_unlocked:
        raise RuleError(f"{c.name} may already use a Major Action this turn")
    spend(tx, creature, minor=1, on_full_resolve=True)
    r = roll(dice, f"{c.name}: Zeal to act on a full Resolve Pool", c.skill("Zeal"))
    ok = r.result >= ZEAL_FOR_MAJOR_DL and not (tx.state.settings.fumble_always_fails and r.fumble)
    if ok:
        tx.economy(creature).major_unlocked = True
    return [
        Event(
            kind="zeal",
            text=f"{c.name} rolls Zeal (DL {ZEAL_FOR_MAJOR_DL}) on a full Resolve Pool: {r.result}, "
            + ("may use a Major Action this turn." if ok else "may not."),
            actor=creature,
            rolls=[r],
            data={"dl": ZEAL_FOR_MAJOR_DL, "success": ok},
        )
    ]


def recover(tx: Tx, creature: str) -> list[Event]:
    """reference §4.3 Recovery: an action (a Major Action, ASSUMPTION) after which AP may be assigned; which Pips it
    removes is a gap, left to the Soulweaver (ASSUMPTION). It counts on the sheet (`Creature.recoveries`) and the log
    names the pools for the Soulweaver."""
    c = require_active(tx.state, creature)
    spend(tx, creature, major=1, on_full_resolve=True)
    m = tx.creature(creature)
    m.recoveries += 1
    pools = f"Grit {c.grit.pips}/{c.grit.max}, Energy {c.energy.pips}/{c.energy.max}, Resolve {c.resolve.pips}/"
    pools += f"{c.resolve.max}"
    return [
        Event(
            kind="recovery",
            text=f"{c.name} uses Recovery (its Recovery number {m.recoveries}): AP may be assigned now, and the "
            f"Soulweaver removes the Pips it recovers ({pools}).",
            actor=creature,
            data={"recoveries": m.recoveries},
        )
    ]


def soothe_targets(state: GameState, c: Creature, occ: Occupancy | None = None) -> list[str]:
    """The creatures with Continuing Acid damage that `c` can reach to Soothe (`occ`: the state's occupancy, when
    the caller has one)."""
    occ = occ or Occupancy(state)
    grid = grid_of(state)
    rng = base_reach(c) + 1
    mine = occ.cells[c.id]
    creatures = state.creatures
    return [
        oid
        for oid in near.within(occ, grid, mine, rng)  # a creature standing in a space within Reach of the Soothe
        if (t := creatures[oid]).continuing
        and any(x.element == "acid" and x.amount > 0 for x in t.continuing)
        and t.swallowed_by is None
        and footprint_distance(grid, mine, occ.cells[oid]) <= rng
    ]


def soothe(tx: Tx, creature: str, target: str, dice: DiceSource) -> list[Event]:
    c = require_active(tx.state, creature)
    t = tx.get(target)
    acid = [x for x in t.continuing if x.element == "acid" and x.amount > 0]
    if not acid:
        raise RuleError(f"{t.name} has no Continuing Acid damage to Soothe")
    occ = Occupancy(tx.state)
    if footprint_distance(grid_of(tx.state), occ.cells[creature], occ.cells[target]) > base_reach(c) + 1:
        raise RuleError(f"{t.name} is out of {c.name}'s reach")
    cost = tx.state.settings.soothe_cost
    spend(tx, creature, major=1 if cost == "major" else 0, minor=1 if cost == "minor" else 0)
    first = acid[0]
    m = tx.creature(target)
    m.continuing = [x.model_copy(update={"amount": x.amount - 1}) if x.id == first.id else x for x in m.continuing]
    return [
        Event(
            kind="soothe",
            text=f"{c.name} Soothes {t.name}: its Continuing Acid damage falls to {first.amount - 1}.",
            actor=creature,
            target=target,
        )
    ]
