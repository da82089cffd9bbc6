"""The menu's Focus (seed-000): Focus on a creature or a space, and dropping Focus."""

from __future__ import annotations

from vtt.rules import (
    focus,
    menu_shared,
    positions,
    turns,
)
from vtt.rules.model import Creature, GameState
from vtt.rules.offers import (
    MINOR,
    ActionOption,
    make_option,
    make_target,
)
from vtt.rules.space import Occupancy


def focus_options(state: GameState, occ: Occupancy, c: Creature, major_ok: bool, minor_ok: bool) -> list[ActionOption]:
    """Focus on a creature or a space (a Minor Action), and dropping Focus, each when allowed."""
    out: list[ActionOption] = []
    s = state.settings
    if minor_ok and not c.focus_locked and c.swallowed_by is None:
        found = positions.kept(occ, ("focus_targets", c.id), lambda: focus.focus_targets(state, occ, c))
        targets = [make_target(target=oid) for oid in found]
        spaces = focus.focus_spaces(state, occ, c)
        if targets or spaces:
            out.append(
                make_option(
                    action="focus",
                    group="Tactics",
                    label="Focus",
                    cost=MINOR,
                    targets=targets,
                    spaces=spaces,
                    reach=s.focus_range,
                )
            )
    cost = s.drop_focus_cost
    paid = (cost == "none" and not turns.resolve_blocks(state, c.id)) or (cost == "major" and major_ok)
    paid = paid or (cost == "minor" and minor_ok)
    if paid and focus.why_not_drop(c) is None:
        out.append(menu_shared.finished(c.id, "drop_focus", "Tactics", "Drop Focus", cost))
    return out
