"""Prone (reference §5.3): dropping Prone, standing up and moving while Prone.

- FACT: dropping Prone is No Action and can be declared at any time (`drop_prone`); an Unconscious creature falls
  Prone (see `damage`).
- GAP, ASSUMPTIONS (table settings):
  - standing up (`stand_up`) costs half your Movement Pool, rounded down (`stand_up_cost` "half_movement": the
    pool is the table's or the creature's own, not what a Dash added), or a Minor or a Major Action;
  - moving while Prone costs `prone_move_extra` (+1) Movement more for each space;
  - on rolls: -1d12 on your physical attacks (`prone_attack_dice`), including the Soulweaver's dice of a targeted
    attack on a space, which become the attack roll; melee attackers get `prone_melee_against` (+1) against you
    (see `ailments`).
"""

from __future__ import annotations

from vtt.rules.events import Event, RuleError
from vtt.rules.model import Creature, GameState
from vtt.rules.turns import break_moves, refuse_on_full_resolve, require_active, spend
from vtt.rules.txn import Tx


def space_cost(state: GameState, c: Creature) -> int:
    """Movement one space costs the creature."""
    return 1 + state.settings.prone_move_extra if c.prone else 1


def spaces_for(state: GameState, c: Creature, movement: int) -> int:
    """How many spaces `movement` Movement takes the creature."""
    return movement // space_cost(state, c)


def stand_up_movement(state: GameState, c: Creature) -> int:
    """Half the creature's Movement Pool, rounded down."""
    pool = state.settings.movement_pool if c.movement_pool is None else c.movement_pool
    return pool // 2


def why_not_stand_up(state: GameState, c: Creature) -> str | None:
    """Why the creature cannot stand up now (its turn aside); None when it can."""
    if not c.prone:
        return f"{c.name} is not Prone"
    econ = state.economy.get(c.id)
    cost = state.settings.stand_up_cost
    if cost == "half_movement":
        need = stand_up_movement(state, c)
        left = econ.movement_left if econ is not None else 0
        if left < need:
            return f"{c.name} has {left} Movement left; standing up costs {need} (half its Movement Pool)"
    elif econ is None or (econ.minor if cost == "minor" else econ.major) < 1:
        return f"{c.name} has no {cost.title()} Action left to stand up"
    return None


def stand_up(tx: Tx, creature: str) -> list[Event]:
    c = require_active(tx.state, creature)
    if (why := why_not_stand_up(tx.state, c)) is not None:
        raise RuleError(why)
    cost = tx.state.settings.stand_up_cost
    if cost == "half_movement":
        refuse_on_full_resolve(tx.state, creature, "stand up", movement=True)
        need = stand_up_movement(tx.state, c)
        econ = tx.economy(creature)
        econ.movement_spent += need
        paid = f"{need} Movement (Movement {econ.movement_spent}/{econ.movement_max})"
    else:
        spend(tx, creature, major=1 if cost == "major" else 0, minor=1 if cost == "minor" else 0)
        paid = f"a {cost.title()} Action"
    tx.creature(creature).prone = False
    break_moves(tx, creature)
    return [Event(kind="stand_up", text=f"{c.name} stands up, paying {paid}.", actor=creature, data={"cost": cost})]


def drop_prone(tx: Tx, creature: str) -> list[Event]:
    c = tx.get(creature)
    if not c.can_act:
        raise RuleError(f"{c.name} cannot act")
    if c.prone:
        raise RuleError(f"{c.name} is already Prone")
    refuse_on_full_resolve(tx.state, creature, "drop Prone")
    tx.creature(creature).prone = True
    break_moves(tx, creature)
    return [Event(kind="drop_prone", text=f"{c.name} drops Prone.", actor=creature)]
