"""Ammunition and picking up what lies on the map (reference §4.5, §6.3; seed-000 Strikes).

- Ammunition: a launched weapon (a bow, a sling) may count its shots (`Weapon.ammo`; None: not counted). Each
  launched attack (a shot at a creature, a wall, the ground or a space) spends 1 as it is made, hit or miss;
  at 0 the weapon cannot be shot, and the menu does not offer it. A thrown weapon is its own ammunition: it
  leaves the hand (table setting `thrown_weapon_drops`) and is picked up again.
- Picking up (`pick_up`): a weapon lying in a space within the creature's Reach (a dropped, Disarmed or thrown
  one; reference §4.5: letting go puts an object "in a space within your Reach", so the same Reach takes it back)
  is taken into free gripping limbs: one, or `two_handed_grip` for a Two-handed weapon. The reference costs
  letting go (No Action) but not picking up (gap): table setting `pick_up_cost` (a Minor Action by default).
  Its own weapon goes back into its hands; someone else's becomes one of its weapons (under a new id when it
  already has one by that id).
"""

from __future__ import annotations

from vtt.rules import turns
from vtt.rules.board_edit import unique_id
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.limits import WEAPONS_MAX
from vtt.rules.model import Creature, GameState, LooseItem, Weapon
from vtt.rules.reach import best_limb, reach
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.turns import require_active
from vtt.rules.txn import Tx


def ammo_error(weapon: Weapon) -> str | None:
    """Why `weapon` cannot be shot now (no ammunition left), or None."""
    if weapon.ranged == "launched" and weapon.ammo is not None and weapon.ammo <= 0:
        return f"{weapon.name} has no ammunition left"
    return None


def spend_ammo(tx: Tx, creature_id: str, weapon: Weapon) -> list[Event]:
    """A launched attack with `weapon` spends 1 ammunition (when it is counted)."""
    if weapon.ranged != "launched" or weapon.ammo is None:
        return []
    why = ammo_error(weapon)
    if why is not None:
        raise RuleError(why, code="weapon.no_ammo")
    c = tx.creature(creature_id)
    left = weapon.ammo - 1
    c.weapons = [w.model_copy(update={"ammo": left}) if w.id == weapon.id else w for w in c.weapons]
    return [
        Event(
            kind="ammo",
            text=f"{c.name} spends 1 ammunition of {weapon.name}: {left} left.",
            actor=c.id,
            data={"weapon": weapon.id, "ammo": left},
        )
    ]


def _free_grippers(c: Creature) -> list[str]:
    return [lb.id for lb in c.limbs if lb.free and lb.can_grip]


def _pick_reach(c: Creature) -> int:
    free = [lb for lb in c.limbs if lb.free and lb.can_grip]
    return reach(c, best_limb(c, free)) if free else 0


def within_reach(state: GameState, occ: Occupancy, c: Creature) -> list[LooseItem]:
    """The loose weapons lying in spaces within `c`'s Reach that it has the free gripping limbs to take."""
    free = len(_free_grippers(c))
    if free == 0:
        return []
    grid = grid_of(state)
    rng = _pick_reach(c)
    mine = occ.cells[c.id]
    need = state.settings.two_handed_grip
    return [
        item
        for item in state.board.items
        if footprint_distance(grid, mine, (item.cell,)) <= rng and free >= (need if item.weapon.two_handed else 1)
    ]


def can_pay(state: GameState, c: Creature) -> bool:
    """Whether `c` can pay for picking something up now."""
    cost = state.settings.pick_up_cost
    econ = state.economy.get(c.id)
    if econ is None or turns.resolve_blocks(state, c.id):
        return False
    return econ.minor > 0 if cost == "minor" else econ.major > 0


def pick_up(tx: Tx, creature_id: str, item_id: str) -> list[Event]:
    """`creature_id` picks up the weapon `item_id` lying within its Reach into free gripping limbs."""
    state = tx.state
    c = require_active(state, creature_id)
    lying = [i for i in state.board.items if i.weapon.id == item_id]
    if not lying:
        raise RuleError(f"no weapon {item_id!r} lies on the map")
    reachable = [i for i in within_reach(state, Occupancy(state), c) if i.weapon.id == item_id]
    if not reachable:
        free = _free_grippers(c)
        if not free or (lying[0].weapon.two_handed and len(free) < state.settings.two_handed_grip):
            raise RuleError(f"{c.name} has no free limb to take {lying[0].weapon.name}")
        raise RuleError(f"{lying[0].weapon.name} lies beyond {c.name}'s Reach", code="reach.out_of_reach")
    item = reachable[0]
    cost = state.settings.pick_up_cost
    turns.spend(tx, c.id, major=int(cost == "major"), minor=int(cost == "minor"))
    board = tx.board()
    at = board.items.index(item)
    board.items = [*board.items[:at], *board.items[at + 1 :]]
    m = tx.creature(c.id)
    weapon = item.weapon
    own = m.weapon(weapon.id)
    if own is not None and own != weapon and item.owner != m.id:
        if len(m.weapons) >= WEAPONS_MAX:
            raise RuleError(f"{m.name} carries {WEAPONS_MAX} weapons already: it cannot take another")
        weapon = weapon.model_copy(update={"id": unique_id(weapon.id, [w.id for w in m.weapons])})
        m.weapons = [*m.weapons, weapon]
    elif own is None:
        if len(m.weapons) >= WEAPONS_MAX:
            raise RuleError(f"{m.name} carries {WEAPONS_MAX} weapons already: it cannot take another")
        m.weapons = [*m.weapons, weapon]
    else:
        m.weapons = [weapon if w.id == weapon.id else w for w in m.weapons]
    need = state.settings.two_handed_grip if weapon.two_handed else 1
    for limb_id in _free_grippers(m)[:need]:
        limb = tx.limb(m.id, limb_id)
        assert limb is not None
        limb.holding = weapon.id
    return [
        Event(
            kind="pick_up",
            text=f"{m.name} picks up {weapon.name} from {item.cell}.",
            actor=m.id,
            data={"item": weapon.id, "from": item.cell},
        )
    ]
