"""What the map shows of a creature: its token dict, built from the rules state for one viewer.

A swallowed creature (seed-000: "they are removed from the [board]") has no token: it is listed in its swallower's
sheet, and the swallower's token carries a "Stomach" badge naming what it holds.
"""

from __future__ import annotations

from typing import Any

from vtt.rules.conditions import encumbered_tier
from vtt.rules.model import Creature, GameState
from vtt.rules.space import footprint
from vtt.rules.turns import is_active, places_before_fight
from vtt.table.table import Viewer


def initials(name: str) -> str:
    parts = [p for p in name.split() if p]
    if not parts:
        return "?"
    if len(parts) == 1:
        return parts[0][:2].title()
    return (parts[0][0] + parts[-1][0]).upper()


def may_drag(state: GameState, viewer: Viewer, creature: Creature) -> bool:
    """The Soulweaver drags any token; a player only their own creature, on its turn (or before the fight, if the
    table lets players place their creatures then)."""
    if viewer.is_soulweaver:
        return True
    if viewer.is_spectator:
        return False
    if places_before_fight(state, viewer.key, creature):
        return True
    return creature.controller == viewer.key and is_active(state, creature.id)


def ailment_list(state: GameState, creature: Creature) -> list[dict[str, Any]]:
    out = [{"name": name, "tier": tier} for name, tier in sorted(creature.ailments.items()) if tier]
    enc = encumbered_tier(state, creature) - creature.ailments.get("Encumbered", 0)
    if enc > 0:
        out = [a for a in out if a["name"] != "Encumbered"]
        out.append({"name": "Encumbered", "tier": enc + creature.ailments.get("Encumbered", 0)})
    if any(creature.id in h.held for h in state.holds.values()):
        out.append({"name": "Held", "tier": None})
    if any(creature.id in h.holders for h in state.holds.values()):
        out.append({"name": "Holder", "tier": None})
    if creature.dead:
        out.append({"name": "Dead", "tier": None})
    elif creature.unconscious:
        out.append({"name": "Unconscious", "tier": None})
    return out


def sees(viewer: Viewer, creature: Creature) -> bool:
    """Hidden creatures are the Soulweaver's alone."""
    return viewer.is_soulweaver or not creature.hidden


def on_map(creature: Creature) -> bool:
    """Whether the creature has a token: not while it is in a stomach, off the board."""
    return creature.swallowed_by is None


def in_stomach(state: GameState, creature: Creature, viewer: Viewer) -> list[Creature]:
    """The creatures in this creature's stomach that the viewer may know of."""
    return [c for c in state.creatures.values() if c.swallowed_by == creature.id and sees(viewer, c)]


def stomach_badge(state: GameState, creature: Creature, viewer: Viewer) -> list[dict[str, Any]]:
    """A badge like an ailment's on the swallower: "STO" and how many creatures are in its stomach."""
    inside = in_stomach(state, creature, viewer)
    if not inside:
        return []
    names = ", ".join(c.name for c in inside)
    return [{"name": "Stomach", "tier": len(inside), "title": f"In its stomach: {names}", "kind": "stomach"}]


def token_for(state: GameState, creature: Creature, viewer: Viewer, version: int = 0) -> dict[str, Any]:
    """`v` is the creature's version at the table: a drag sends it back, so a drag from a stale screen is refused."""
    return {
        "id": creature.id,
        "v": version,
        "name": creature.name,
        "size": creature.size,
        "cells": [list(c) for c in footprint(state, creature)],
        "color": creature.color,
        "label": initials(creature.name),
        "grit": [creature.grit.pips, creature.grit.max],
        "energy": [creature.energy.pips, creature.energy.max],
        "resolve": [creature.resolve.pips, creature.resolve.max],
        "ailments": stomach_badge(state, creature, viewer) + ailment_list(state, creature),
        "draggable": may_drag(state, viewer, creature),
        "dead": creature.dead,
        "prone": creature.prone,
    }
