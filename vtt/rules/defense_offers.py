"""The menu's Defense actions (seed-000, seed-004): a Defensive Stance and Soothe."""

from __future__ import annotations

from functools import partial

from vtt.rules import care, menu_shared, positions, stance
from vtt.rules.model import Creature, Economy, GameState
from vtt.rules.offers import PAID, ActionOption, make_option, make_target
from vtt.rules.space import Occupancy


def defense_options(
    state: GameState, occ: Occupancy, c: Creature, econ: Economy, major_ok: bool, full_resolve: bool
) -> list[ActionOption]:
    """A Defensive Stance and Soothe, each when it can be paid as the table's settings say and is allowed."""
    out: list[ActionOption] = []
    stance_cost = state.settings.defensive_stance_cost
    stance_paid = major_ok if stance_cost == "major" else econ.minor > 0 and not full_resolve
    if stance_paid and stance.why_no_stance(state, c.id) is None:
        out.append(menu_shared.finished(c.id, "defensive_stance", "Defense", "Defensive Stance", stance_cost))
    soothe_cost = state.settings.soothe_cost
    if major_ok if soothe_cost == "major" else econ.minor > 0 and not full_resolve:
        found = positions.kept(occ, ("soothe_targets", c.id), partial(care.soothe_targets, state, c, occ))
        soothed = [make_target(target=oid) for oid in found]
        if soothed:
            out.append(
                make_option(action="soothe", group="Defense", label="Soothe", cost=PAID[soothe_cost], targets=soothed)
            )
    return out
