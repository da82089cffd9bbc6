"""Ailments that change rolls, with the reason for each (reference §5.2, seed-000 Hold).

Encumbered: a penalty equal to its Tier on Athletics, Elude and Nimble defenses and on rolls for actions that
use limbs. A creature's Encumbered Tier adds what its ailments say, what each Hold it is in gives (2 Tiers,
less its size advantage over the largest other member, plus Grapple's extra Tiers) and what carrying too much
Bulk gives (reference gap 15, table settings: limit 10 x (Athletics + 1), 1 Tier per 10 Bulk over). Break Hold
lowers a Hold's Tiers (a negative extra), never below 0.

Effects "for 1 round" (model `Effect`) change rolls by key: `physical_attack` on the subject's physical attack
rolls (Called Shot -1), `physical_defense` on its defenses against physical attacks (Defensive Stance +1,
Charge -1).
"""

from __future__ import annotations

from vtt.rules import ailments
from vtt.rules.dice import Modifier
from vtt.rules.model import Creature, Effect, GameState, Hold
from vtt.rules.modifier_keys import ModifierKey

HOLD_ENCUMBERED = 2
ENCUMBERED_DEFENSES = frozenset({"Athletics", "Elude", "Nimble"})
PHYSICAL_ATTACK = "physical_attack"
PHYSICAL_DEFENSE = "physical_defense"
DEFENSIVE_STANCE = "Defensive Stance"
"""The name of the effect a Defensive Stance is (`vtt.rules.stance`)."""


def holds_of(state: GameState, creature_id: str) -> list[Hold]:
    return [h for h in state.holds.values() if creature_id in h.holders or creature_id in h.held]


def hold_encumbered(state: GameState, hold: Hold, creature_id: str) -> int:
    """seed-000: 2 Tiers of Encumbered; if you are larger than the other creature, less the difference."""
    me = state.creatures[creature_id]
    others = [state.creatures[m].size for m in hold.members if m != creature_id and m in state.creatures]
    advantage = max(0, me.size - max(others)) if others else 0
    return max(0, max(0, HOLD_ENCUMBERED - advantage) + hold.extra_encumbered.get(creature_id, 0))


def carried_bulk(state: GameState, creature: Creature) -> float:
    """seed-000: the Bulk of all other creatures in the Hold counts towards your carried Bulk."""
    total = creature.gear_bulk
    seen: set[str] = {creature.id}
    for hold in holds_of(state, creature.id):
        for m in hold.members:
            if m not in seen and m in state.creatures:
                seen.add(m)
                total += state.creatures[m].bulk
    return total


def bulk_encumbered(state: GameState, creature: Creature) -> int:
    s = state.settings
    limit = s.bulk_limit_per_athletics * (creature.skill("Athletics") + 1)
    over = carried_bulk(state, creature) - limit
    return int(over // s.bulk_per_encumbered) if over > 0 else 0


def encumbered_parts(state: GameState, creature: Creature) -> list[tuple[int, str]]:
    if not creature.ailments.get("Encumbered") and not state.holds and not creature.gear_bulk:
        return []
    parts: list[tuple[int, str]] = []
    if creature.ailments.get("Encumbered"):
        parts.append((creature.ailments["Encumbered"], "Encumbered"))
    for hold in holds_of(state, creature.id):
        tiers = hold_encumbered(state, hold, creature.id)
        if tiers:
            parts.append((tiers, "Encumbered from a Hold"))
    bulk = bulk_encumbered(state, creature)
    if bulk:
        parts.append((bulk, "Encumbered by carried Bulk"))
    return parts


def encumbered_tier(state: GameState, creature: Creature) -> int:
    return sum(t for t, _ in encumbered_parts(state, creature))


def limb_action_modifiers(state: GameState, creature: Creature) -> list[Modifier]:
    """Penalties on rolls for actions that use limbs."""
    parts = encumbered_parts(state, creature)
    if not parts:  # most creatures: no list to build
        return []
    return [
        Modifier(value=-t, reason=f"{why} (Tier {t}) on an action using limbs", key="encumbered", source=creature.id)
        for t, why in parts
    ]


def _effect_key(e: Effect) -> ModifierKey:
    if e.name == DEFENSIVE_STANCE and e.ability is None:
        return "defensive_stance"
    return "ability_effect" if e.ability is not None else "effect"


def effect_modifiers(state: GameState, creature: Creature, key: str, what: str) -> list[Modifier]:
    """What the effects on the creature add to its rolls of kind `key`, each with its reason."""
    if not state.effects:
        return []
    return [
        Modifier(
            value=e.modifiers[key],
            reason=f"{e.name}: {e.modifiers[key]:+d} on {what}",
            key=_effect_key(e),
            source=e.creator,
        )
        for e in state.effects
        if e.subject == creature.id and e.modifiers.get(key)
    ]


def focus_modifiers(state: GameState, creature: Creature, target: Creature | None) -> list[Modifier]:
    """Focus (§5.3 ASSUMPTION, table setting `focus_bonus`): a bonus on your rolls against your Focus."""
    bonus = state.settings.focus_bonus
    if target is None or not bonus or creature.focus != target.id:
        return []
    why = f"Focused on {target.name}: {bonus:+d} on rolls against your Focus"
    return [Modifier(value=bonus, reason=why, key="focus", source=creature.id)]


def attack_modifiers(state: GameState, creature: Creature, target: Creature | None = None) -> list[Modifier]:
    """Penalties and bonuses from effects and ailments (Dazzled, Crowded, Exhausted) on the creature's physical
    attack rolls, and Focus on `target`."""
    return [
        *effect_modifiers(state, creature, PHYSICAL_ATTACK, "physical attack rolls"),
        *ailments.attack_roll_modifiers(state, creature),
        *focus_modifiers(state, creature, target),
    ]


def melee_attack_modifiers(state: GameState, creature: Creature, target: Creature) -> list[Modifier]:
    """Everything about the attacker and its target that changes a melee attack made with limbs: Encumbered,
    effects and ailments on the attacker, its Focus on the target, and a Prone target."""
    return [
        *limb_action_modifiers(state, creature),
        *attack_modifiers(state, creature, target),
        *ailments.against_target_modifiers(state, target),
        *ailments.attack_against_modifiers(state, creature, target),
    ]


def ranged_attack_modifiers(state: GameState, creature: Creature, target: Creature) -> list[Modifier]:
    """The same for a ranged attack: a Prone target gives ranged attackers a penalty instead of a bonus."""
    return [
        *limb_action_modifiers(state, creature),
        *attack_modifiers(state, creature, target),
        *ailments.against_target_modifiers(state, target, melee=False),
        *ailments.attack_against_modifiers(state, creature, target),
    ]


def defense_modifiers(state: GameState, creature: Creature, skill: str, physical: bool = True) -> list[Modifier]:
    """Penalties and bonuses on a defense roll with `skill` (against a physical attack unless told)."""
    mods: list[Modifier] = []
    parts = encumbered_parts(state, creature) if skill in ENCUMBERED_DEFENSES else None
    if parts:
        mods = [
            Modifier(value=-t, reason=f"{why} (Tier {t}) on an {skill} defense", key="encumbered", source=creature.id)
            for t, why in parts
        ]
    if physical and state.effects:  # `effect_modifiers` finds none without effects
        mods += effect_modifiers(state, creature, PHYSICAL_DEFENSE, "defenses against physical attacks")
    mods += ailments.defense_roll_modifiers(state, creature, skill, physical)
    return mods
