"""The menu's Pick up (seed-000): a weapon lying within Reach."""

from __future__ import annotations

from vtt.rules import gear
from vtt.rules.model import Creature, GameState
from vtt.rules.offers import ActionOption, make_option, make_target
from vtt.rules.space import Occupancy


def offer_pick_up(state: GameState, occ: Occupancy, c: Creature) -> list[ActionOption]:
    """Pick up: each weapon lying within Reach that `c` has the free limbs to take, when it can pay for it."""
    if not state.board.items or c.swallowed_by is not None or not gear.can_pay(state, c):
        return []
    items = list(dict.fromkeys(i.weapon.id for i in gear.within_reach(state, occ, c)))
    if not items:
        return []
    cost = state.settings.pick_up_cost
    return [
        make_option(
            action="pick_up",
            group="Turn",
            label="Pick up a weapon",
            cost={cost: 1},
            targets=[make_target(target=c.id, choices={"item": items})],
            choose=["item"],
        )
    ]
