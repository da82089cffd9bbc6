"""What the creature sheet shows of a creature, to tell whether it must be drawn again after a change."""

from __future__ import annotations

from vtt.rules.model import Creature

PLACE_FIELDS = frozenset({"anchor", "footprint"})
"""Where a creature stands: the map shows it, the sheet does not."""
SHEET_FIELDS = tuple(name for name in Creature.model_fields if name not in PLACE_FIELDS)


def sheet_facts(creature: Creature | None) -> tuple[object, ...] | None:
    """Every field of the creature but where it stands: a creature dragged on the map keeps its sheet as drawn
    (its fields a move does not touch are the same objects, compared at once)."""
    if creature is None:
        return None
    return tuple(getattr(creature, name) for name in SHEET_FIELDS)
