"""Guard (reference §4.6; seed-000 Strike).

- FACT: weapons have a Guard value (`Weapon.guard`), and a weapon Tier above your Skill Tier lowers it by the
  difference (the skill you attack with it: `ranged_skill` for a launched weapon, `strike_skill` for any other, as
  for Disarm). seed-000: "When targeting an object, the object cannot be used for Guard."
- GAP: what Guard does. ASSUMPTION (table setting `guard_on_defense`): while you Grip an object with a Guard value,
  add that value to your defense results against physical melee attacks you can perceive. Only the highest Guard
  among your Gripped objects applies, and Guard does not apply while you are Unaware or Prone.
- A melee attack here is a physical attack that is not a ranged Strike (a shot or a throw). "You can perceive":
  a creature with any Tier of Unaware perceives no attack. The object an attack targets (Disarm's weapon) gives no
  Guard against it.
"""

from __future__ import annotations

from vtt.rules.dice import Modifier
from vtt.rules.model import Creature, GameState


def guard_value(state: GameState, c: Creature, weapon_id: str) -> int:
    """The Guard of a weapon `c` grips, lowered by its usage Tier above the skill it is used with."""
    w = c.weapon(weapon_id)
    if w is None or not w.guard:
        return 0
    s = state.settings
    skill = s.ranged_skill if w.ranged == "launched" else s.strike_skill
    return max(0, w.guard - max(0, w.tier - c.skill(skill)))


def guard_modifiers(
    state: GameState, defender: Creature, physical: bool, ranged: bool, targeted_object: str | None
) -> list[Modifier]:
    """The Guard bonus on `defender`'s defense against an attack (none when it is not a physical melee attack, the
    defender is Unaware or Prone, or it grips nothing with a Guard but the object attacked)."""
    for w in defender.weapons:  # `any(w.guard for ...)`: most creatures carry nothing with a Guard
        if w.guard:
            break
    else:
        return []
    if not state.settings.guard_on_defense or not physical or ranged:
        return []
    if defender.prone or defender.ailments.get("Unaware", 0) > 0:
        return []
    gripped = {lb.holding for lb in defender.limbs if lb.holding is not None and lb.hold_id is None}
    best: tuple[int, str] | None = None
    for wid in sorted(gripped - {targeted_object} if targeted_object else gripped):
        value = guard_value(state, defender, wid)
        if value > 0 and (best is None or value > best[0]):
            best = (value, wid)
    if best is None:
        return []
    found = defender.weapon(best[1])
    name = found.name if found is not None else best[1]
    return [Modifier(value=best[0], reason=f"Guard of {name} against a melee attack", key="guard", source=defender.id)]
