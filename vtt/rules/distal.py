"""Distals (reference §4.5) and the damage a Grapple may deal with one (seed-000 Grapple).

seed-000 Grapple: "If the part you use to Grapple has a Distal, you may have the attack also deal damage from that
Distal." A Distal is data on a limb (`Limb.distal`: a claw, fang or talon with its damage dice, Strike types and
Element). The Grapple's `distal` flag asks for it: the limb used must carry one (with no limb named, the first
usable limb that does is used). On a successful Grapple the Distal's damage goes through `damage.deal` like a
Strike's: physical, changed by size, the Strike type chosen with the Grapple (`strike_type`, else the Distal's
first), the attack roll's faces for Bashing, Chopping and Stabbing, and a Flurry's lost damage dice. When the
Grapple's Called Shot strikes its part, the damage strikes that part with the Called Shot's halved Threshold.
"""

from __future__ import annotations

from typing import Any

from vtt.rules import tactics
from vtt.rules.damage import Hit
from vtt.rules.dice import DiceChange, Roll
from vtt.rules.model import Creature, Distal, GameState, Limb, Weapon
from vtt.rules.strike import choose_strike_type, strike_hit


def as_weapon(d: Distal) -> Weapon:
    """A Distal counts as a melee weapon (reference §4.5) for the damage rules."""
    return Weapon(id=d.id, name=d.name, damage=d.damage, strike_types=d.strike_types, element=d.element)


def with_distal(limbs: list[Limb]) -> list[Limb]:
    return [lb for lb in limbs if lb.distal is not None]


def params(state: GameState, c: Creature, limb: Limb, strike_type: str | None) -> dict[str, Any]:
    """What the damage needs, fixed when the attack is declared (as a Strike's damage is)."""
    assert limb.distal is not None
    weapon = as_weapon(limb.distal)
    changes: list[DiceChange] = tactics.flurry_damage_changes(state, c)
    return {
        "damage": limb.distal.damage,
        "changes": [ch.model_dump() for ch in changes],
        "weapon": weapon.model_dump(),
        "strike_type": choose_strike_type(weapon, strike_type),
        "max_dice": None,
    }


def hit(attacker: Creature, target: str, p: dict[str, Any], attack: Roll, part: str | None) -> Hit:
    """The Distal's damage; `part` is the part a successful Called Shot struck."""
    name = str(p["weapon"]["name"])
    extra = {"part": part, "called_shot": True} if part is not None else {}
    return strike_hit(attacker.id, target, {**p, **extra}, attack, f"{attacker.name}'s {name}")
