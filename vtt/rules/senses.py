"""Senses and Concealment (reference §2.6, §5.2).

- Blinded: "Every target has Sight Concealment Tier equal to your Blinded Tier, counted from you." Deafened does
  the same for sound, and the older Anosmatic for smell. Concealment here is what a creature's own ailments give
  every target it perceives; sources of higher Magnitude on the path (§2.6) are not modelled.
- An attack on a creature or a surface (GAP: how much Concealment changes an attack; reference gap 9 ASSUMPTION):
  the attacker finds its target with the senses of table setting `attack_senses` (sight), using the least
  concealed one; that Concealment Tier x `concealment_attack_per_tier` (1) is a penalty on the attack roll.
- seed-000 targeted attacks on a space: a roll that becomes the attack on doubles "is not modified by Concealment
  or size", so it takes no such penalty.
- Defenses: the reference says nothing of a creature that cannot perceive its attacker (GAP): table setting
  `concealment_defense_per_tier` (0: nothing) x the same Tier on its defense rolls.
"""

from __future__ import annotations

from vtt.rules.dice import Modifier
from vtt.rules.model import Creature, GameState
from vtt.rules.settings import Sense

SENSE_AILMENTS: dict[Sense, str] = {"sight": "Blinded", "sound": "Deafened", "smell": "Anosmatic"}
SENSE_NAMES: dict[Sense, str] = {"sight": "Sight", "sound": "Sound", "smell": "Smell"}


def concealment(observer: Creature, sense: Sense) -> int:
    """The Concealment Tier every target has for `sense`, counted from `observer`."""
    return observer.ailments.get(SENSE_AILMENTS[sense], 0)


def attack_concealment(state: GameState, attacker: Creature) -> tuple[int, Sense | None]:
    """The Concealment an attacker's targets have through its best sense among `attack_senses`, and that sense."""
    best: tuple[int, Sense | None] = (0, None)
    for i, sense in enumerate(state.settings.attack_senses):
        t = concealment(attacker, sense)
        if i == 0 or t < best[0]:
            best = (t, sense)
    return best


def _modifier(state: GameState, c: Creature, per_tier: int, what: str) -> list[Modifier]:
    t, sense = attack_concealment(state, c)
    if not t or not per_tier or sense is None:
        return []
    name = SENSE_AILMENTS[sense]
    return [
        Modifier(
            value=-t * per_tier,
            reason=f"{name} (Tier {t}): every target has {SENSE_NAMES[sense]} Concealment {t}, on {what}",
        )
    ]


def attack_concealment_modifiers(state: GameState, attacker: Creature) -> list[Modifier]:
    """The penalty Concealment gives an attack (not a targeted attack on a space)."""
    return _modifier(state, attacker, state.settings.concealment_attack_per_tier, "attack rolls")


def defense_concealment_modifiers(state: GameState, defender: Creature) -> list[Modifier]:
    """The penalty `concealment_defense_per_tier` gives a defender that cannot perceive its attacker well."""
    return _modifier(state, defender, state.settings.concealment_defense_per_tier, "defense rolls")
