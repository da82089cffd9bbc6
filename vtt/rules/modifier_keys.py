"""What kind of rule a flat modifier comes from: the `key` every `Modifier` carries, and its plain name.

A modifier's `source` is the id of the creature whose action, condition or gear gives it (the hinderer, the Prone
target, the feared creature, the roller itself for its own ailments, an effect's creator); None when the situation
or a table setting alone gives it (a long shot, attacking the ground, a size difference, a Reduction). Old logs and
archives carry neither: their modifiers load as `OTHER` with no source.
"""

from __future__ import annotations

from typing import Literal

ModifierKey = Literal[
    "ability_effect",
    "accurate",
    "called_shot",
    "charge",
    "concealment",
    "crowded",
    "damage_reduction",
    "dazzled",
    "defensive_stance",
    "distract",
    "effect",
    "encumbered",
    "enraged",
    "exhausted",
    "extend_close",
    "face_cap",
    "flowing",
    "focus",
    "frightened",
    "grip",
    "ground",
    "guard",
    "hinder_attack",
    "hinder_movement",
    "hinder_spell",
    "long_shot",
    "prone",
    "readied",
    "size",
    "stabbing",
    "typed",
    "unstable",
    "vulnerable",
    "weapon_tier",
    "wounded",
    "other",
]

OTHER: ModifierKey = "other"

PLAIN_NAMES: dict[ModifierKey, str] = {
    "ability_effect": "a Spell or Talent's effect",
    "accurate": "Accurate weapon",
    "called_shot": "Called Shot",
    "charge": "Charge",
    "concealment": "Concealment",
    "crowded": "Crowded",
    "damage_reduction": "Reduction",
    "dazzled": "Dazzled",
    "defensive_stance": "Defensive Stance",
    "distract": "Distract",
    "effect": "an effect",
    "encumbered": "Encumbered",
    "enraged": "Enraged",
    "exhausted": "Exhausted",
    "extend_close": "too close for Extend",
    "face_cap": "the needed value's limit",
    "flowing": "Flowing",
    "focus": "Focus",
    "frightened": "Frightened",
    "grip": "extra gripping limbs",
    "ground": "a surface",
    "guard": "Guard",
    "hinder_attack": "Hinder Attack",
    "hinder_movement": "Hinder Movement",
    "hinder_spell": "Hinder Spell",
    "long_shot": "long shot",
    "prone": "Prone",
    "readied": "Readied roll",
    "size": "size",
    "stabbing": "Stabbing",
    "typed": "typed with the roll",
    "unstable": "Unstable",
    "vulnerable": "Vulnerable",
    "weapon_tier": "weapon Tier above the skill",
    "wounded": "Wounded",
    "other": "other",
}
"""Each key's plain name, for a person reading the odds of an action."""


def plain_name(key: ModifierKey) -> str:
    return PLAIN_NAMES[key]
