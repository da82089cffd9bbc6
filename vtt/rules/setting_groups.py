"""How the table settings are shown to a person: each setting's group (a section of docs/settings.md and of the
Soulweaver's Settings dialog), its name in plain words, the plain words for its choices, and which settings only
make sense before the fight begins. The settings themselves, with their rule text, are `vtt/rules/settings.py`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from vtt.rules.limits import plain_message
from vtt.rules.settings import TableSettings

GROUPS: dict[str, tuple[str, ...]] = {
    "Turns and actions": (
        "ties_to",
        "fumble_always_fails",
        "major_actions",
        "minor_actions",
        "movement_pool",
        "dash_adds_pool",
        "npcs_roll_priority",
        "players_place_before_fight",
        "full_resolve_moves",
        "physical_dice",
        "pick_up_cost",
        "grid",
        "rules_version",
    ),
    "Space and movement": (
        "space_capacity",
        "footprints",
        "creatures_obstruct",
        "stand_up_cost",
        "prone_move_extra",
        "uneven_move_extra",
        "uneven_balance",
        "uneven_balance_dl",
        "balance_skill",
    ),
    "Defenses and reactions": (
        "defense_prompts",
        "reactions",
        "reaction_seconds",
        "reaction_timeout",
        "defense_seconds",
        "defense_timeout",
        "hinder_allies",
        "hinder_attack_skill",
        "hinder_attack_defense",
        "hinder_movement_skill",
        "hinder_movement_defense",
        "hinder_spell_skill",
        "hinder_spell_defense",
    ),
    "Strikes and weapons": (
        "strike_skill",
        "strike_defense",
        "ranged_skill",
        "unarmed_damage",
        "two_handed_grip",
        "thrown_range_default",
        "launched_range_default",
        "thrown_weapon_drops",
        "physical_skills",
        "material_elements",
        "severe_threshold_skill",
        "part_table",
        "flurry_cost",
        "flurry_max",
        "object_broken_at",
        "guard_on_defense",
    ),
    "Overpower": (
        "grab_skill",
        "grab_defense",
        "grab_dl",
        "collision_skill",
        "collision_defense",
        "collision_damage",
        "disarm_skill",
        "impair_skill",
        "impair_defense",
        "reposition_skill",
        "reposition_defense",
        "grapple_skill",
        "grapple_defense",
        "grapple_dl",
        "break_hold_skill",
        "break_hold_defense",
        "break_hold_dl",
        "hold_escape_skill",
        "suffocate_also_grapples",
    ),
    "Tactics and Focus": (
        "defensive_stance_cost",
        "distract_skill",
        "distract_defense",
        "distract_dl",
        "distract_range",
        "focus_range",
        "focus_bonus",
        "drop_focus_cost",
    ),
    "Swallowed creatures": (
        "stomach_threshold",
        "stomach_size",
        "swallowed_darkness",
        "swallowed_strangled",
    ),
    "Spells and Talents": (
        "manifest_dl",
        "spell_skill",
        "talent_skill",
        "words_per_turn",
        "manifest_needs_sight",
        "dismiss_cost",
    ),
    "Ailments and conditions": (
        "ailment_reduction",
        "ailment_defenses",
        "trauma_energy_damage",
        "trauma_per_grit_pip",
        "overexertion_dl",
        "soothe_cost",
        "unstable_defense_divisor",
        "crowded_penalty_per_tier",
        "limb_defenses",
        "prone_attack_dice",
        "prone_melee_against",
        "prone_ranged_against",
        "slowed_pips_divisor",
        "frightened_penalty_per_tier",
        "frightened_on_defense",
        "frightened_no_approach",
        "strangled_energy_per_tier",
        "strangled_silences",
        "wounded_penalty_per_tier",
        "wounded_unusable_at",
        "bulk_limit_per_athletics",
        "bulk_per_encumbered",
        "knowledge_skills",
        "speech_magnitude",
    ),
    "Senses, light and concealment": (
        "attack_senses",
        "concealment_attack_per_tier",
        "concealment_defense_per_tier",
        "ambient_light",
        "dim_concealment",
        "dark_concealment",
        "concealment_distract_per_tier",
        "fog_of_war",
        "sight_automatic",
        "hearing_automatic",
        "smell_automatic",
    ),
}
OTHER = "Other settings"
"""The group of a setting not yet placed in `GROUPS`."""

BEFORE_FIGHT: frozenset[str] = frozenset(
    {"rules_version", "grid", "npcs_roll_priority", "players_place_before_fight", "space_capacity", "footprints"}
)
"""Settings that only make sense before the fight begins: Priority is rolled, creatures placed and their
footprints drawn then; the grid cannot change at all once the game exists."""
FIXED: frozenset[str] = frozenset({"grid"})
"""Settings a game in progress cannot change (its map was drawn for its grid)."""

_LABELS: dict[str, str] = {
    "rules_version": "Rule revision",
    "grid": "Grid",
    "ties_to": "Ties go to",
    "npcs_roll_priority": "NPCs roll their own Priority",
    "players_place_before_fight": "Players place their own creatures",
    "physical_dice": "Physical dice: players type the faces they rolled",
    "fog_of_war": "Fog of war: players see only what their creatures perceive",
    "smell_automatic": "A creature in reach of its scent is smelled without a roll",
    "space_capacity": "Area one space holds",
    "footprints": "Footprint shapes by size",
    "reactions": "Offer reactions",
    "movement_pool": "Spaces in a Movement Pool",
    "major_actions": "Major Actions per turn",
    "minor_actions": "Minor Actions per turn",
    "reaction_seconds": "Seconds to wait for a reaction",
    "reaction_timeout": "When the time for a reaction runs out",
    "defense_prompts": "Whose defenses wait for a choice",
    "defense_seconds": "Seconds to wait for a defense",
    "defense_timeout": "When the time for a defense runs out",
    "hinder_allies": "Creatures may Hinder their own side",
    "full_resolve_moves": "A full Resolve Pool still lets a creature move",
    "part_table": "Part roll table",
    "physical_skills": "Physical (Might and Finesse) Skills",
    "material_elements": "Material Elements",
    "bulk_limit_per_athletics": "Bulk Limit per Athletics Tier",
    "bulk_per_encumbered": "Bulk over the limit per Tier of Encumbered",
    "severe_threshold_skill": "Severe Threshold skill",
    "ailment_defenses": "Defense skills of Ailments",
    "limb_defenses": "Defenses that use limbs",
    "attack_senses": "Senses an attacker finds its target with",
    "manifest_dl": "Manifest DL",
    "words_per_turn": "Words per turn for Spells",
    "manifest_needs_sight": "Spells and Talents on others need line of sight",
    "stomach_threshold": "Severe Threshold of a stomach",
    "stomach_size": "Size of a stomach",
    "swallowed_darkness": "Sight Concealment while swallowed",
    "swallowed_strangled": "Tiers of Strangled while swallowed",
    "trauma_per_grit_pip": "Trauma Tiers lowered per Grit Pip recovered",
    "overexertion_dl": "Overexertion DL (before earlier rolls this scene)",
}
_WORDS = {"dl": "DL", "npcs": "NPCs"}

_CHOICES: dict[str, str] = {
    "major": "a Major Action",
    "minor": "a Minor Action",
    "none": "no action",
    "half_movement": "half the Movement Pool",
    "players": "players' creatures",
    "everyone": "everyone's creatures",
    "nobody": "nobody's (roll at once)",
    "pass": "they let it pass",
    "hinder": "they Hinder",
    "roll": "the defender rolls",
    "decline": "the defender declines",
    "defender": "the defender",
    "attacker": "the attacker",
    "lit": "lit",
    "dim": "dim",
    "dark": "dark",
    "hex": "hexes",
    "square": "squares",
}


def group_of(name: str) -> str:
    for group, names in GROUPS.items():
        if name in names:
            return group
    return OTHER


def grouped() -> dict[str, list[str]]:
    """Every setting under its group, in the order of `GROUPS` (then `OTHER`), each group in its own order."""
    out: dict[str, list[str]] = {
        group: [n for n in names if n in TableSettings.model_fields] for group, names in GROUPS.items()
    }
    rest = [n for n in TableSettings.model_fields if group_of(n) == OTHER]
    if rest:
        out[OTHER] = rest
    return {group: names for group, names in out.items() if names}


def label(name: str) -> str:
    """A setting's name in plain words: "grapple_dl" is "Grapple DL"."""
    if name in _LABELS:
        return _LABELS[name]
    words = [_WORDS.get(w, w) for w in name.split("_")]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def choice_label(value: object) -> str:
    """A choice of a setting (a Literal value) in plain words."""
    text = str(getattr(value, "value", value))
    return _CHOICES.get(text, text.replace("_", " "))


_CODE = re.compile(r"`([a-z][a-z0-9_]*)`")


def plain_description(name: str) -> str:
    """A setting's rule text with the settings it names (`creatures_obstruct`) called by their plain names."""
    text = " ".join((TableSettings.model_fields[name].description or "").split())

    def named(m: re.Match[str]) -> str:
        other = m.group(1)
        return f"“{label(other)}”" if other in TableSettings.model_fields else other

    return _CODE.sub(named, text)


def shown_value(value: object) -> str:
    """A setting's value in plain words, as the log tells a change."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "not set (derived)"
    if isinstance(value, str):
        return choice_label(value)
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return ", ".join(value) if value else "none"
    return str(getattr(value, "value", value))


_KINDS = {
    "bool_parsing": "must be on or off",
    "bool_type": "must be on or off",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "float_type": "must be a number",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "dict_type": "must be a table of names and values",
    "string_type": "must be text",
    "enum": "must be one of the choices offered",
}


def setting_error(err: Mapping[str, Any]) -> str:
    """A pydantic error about a setting (one of `ValidationError.errors()`) in plain words, naming the setting by
    its plain name and saying what it takes instead."""
    loc = [str(p) for p in err.get("loc", ())]
    where = label(loc[0]) if loc and loc[0] in TableSettings.model_fields else "A setting"
    kind = err["type"]
    if kind == "literal_error":
        expected = re.findall(r"'([^']*)'", str((err.get("ctx") or {}).get("expected", "")))
        shown = [f"“{choice_label(v)}”" for v in expected]
        choices = ", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else "".join(shown)
        return f"{where}: choose {choices}" if choices else f"{where}: choose one of the choices offered"
    if kind in _KINDS:
        return f"{where} {_KINDS[kind]}"
    rule = plain_message(err)
    if kind in {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}:
        return f"{where} must be {rule}"
    return f"{where}: {rule}"
