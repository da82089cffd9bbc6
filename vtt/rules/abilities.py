"""Spells and Talents as data: a small sample library (the sources list no abilities; these are VTT samples).

An ability is a Spell (Manifest rolls Magic) or a Talent (Manifest rolls Endure) (reference §4.1), of a type
(an element or a kind of healing: Vulnerable to it makes Manifesting it +2 DL, seed-004), with what it costs in
words (a Spell, seed-000: 1, and 1 more when Boosted) and one effect:

- `damage`: "If the ability makes an attack without specifying the attack roll, use the result of the Manifest
  roll" (seed-000): the Manifest roll attacks `defense` of a creature within `range`, and on success deals
  `amount` damage of the ability's element. It is magical damage unless `physical` ("Magical abilities that deal
  damage without requiring a Might or Finesse attack deal magical damage", seed-004), and a Spell's damage is not
  changed by size (seed-004).
- `heal`: `amount` healing dice (faces of 6 or more remove Pips of `pool`) for a creature within `range`.
- `effect`: an ongoing Effect on a creature within `range` for `rounds` rounds, adding `modifiers` to its rolls
  (keys of `conditions`: `physical_attack`, `physical_defense`); its creator may Dismiss it.

`needs_sight` False lets an ability reach a creature out of line of sight (table setting `manifest_needs_sight`).

`boost` is what Boosting adds (damage or healing dice, or rounds); an ability with `boost` 0 cannot be Boosted.
What Boosting does is not in the sources: it is a property of each ability here (ASSUMPTION).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from vtt.rules.events import RuleError

AbilityKind = Literal["spell", "talent"]


class AbilityEffect(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["damage", "heal", "effect"]
    amount: int = Field(0, ge=0, description="Damage or healing dice.")
    range: int = Field(0, ge=0, description="Spaces from the manifester; 0 is its own spaces (itself or touch).")
    defense: str | None = Field(None, description="The skill a damage effect attacks.")
    physical: bool = False
    strike_type: Literal["B", "C", "F", "M", "S"] | None = None
    pool: Literal["grit", "energy", "resolve"] = "grit"
    rounds: int = Field(1, ge=1, description="How long an ongoing effect lasts.")
    modifiers: dict[str, int] = Field(default_factory=dict)
    self_only: bool = Field(False, description="The manifester is the only target.")
    needs_sight: bool = Field(True, description="Another creature must be in line of sight (see `sight`).")

    @property
    def attacks(self) -> bool:
        return self.kind == "damage"


class Ability(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str
    name: str
    kind: AbilityKind
    element: str | None = Field(None, description="The ability's type: an element, or a kind of healing.")
    words: int = Field(1, ge=0, description="Words a Spell costs (seed-000: 1); Talents cost none.")
    boost: int = Field(0, ge=0, description="What Boosting adds: dice of damage or healing, or rounds.")
    effect: AbilityEffect

    @property
    def is_spell(self) -> bool:
        return self.kind == "spell"

    def word_cost(self, boosted: bool) -> int:
        """seed-000: a Spell "costs 1 word, costs an additional word if Boosted"."""
        if not self.is_spell:
            return 0
        return self.words + (1 if boosted else 0)


LIBRARY: dict[str, Ability] = {
    a.id: a
    for a in (
        Ability(
            id="firebolt",
            name="Firebolt",
            kind="spell",
            element="fire",
            boost=2,
            effect=AbilityEffect(kind="damage", amount=3, range=6, defense="Elude"),
        ),
        Ability(
            id="frost_touch",
            name="Frost Touch",
            kind="spell",
            element="water",
            boost=1,
            effect=AbilityEffect(kind="damage", amount=2, range=1, defense="Endure", strike_type="F"),
        ),
        Ability(
            id="mend",
            name="Mend",
            kind="spell",
            element="life",
            boost=2,
            effect=AbilityEffect(kind="heal", amount=3, range=1),
        ),
        Ability(
            id="ward",
            name="Ward",
            kind="spell",
            element="air",
            boost=1,
            effect=AbilityEffect(kind="effect", range=3, rounds=2, modifiers={"physical_defense": 1}),
        ),
        Ability(
            id="stone_skin",
            name="Stone Skin",
            kind="talent",
            element="earth",
            words=0,
            effect=AbilityEffect(kind="effect", self_only=True, rounds=3, modifiers={"physical_defense": 1}),
        ),
        Ability(
            id="battle_fury",
            name="Battle Fury",
            kind="talent",
            element=None,
            words=0,
            boost=1,
            effect=AbilityEffect(kind="effect", self_only=True, rounds=1, modifiers={"physical_attack": 1}),
        ),
    )
}


def ability(ability_id: str) -> Ability:
    try:
        return LIBRARY[ability_id]
    except KeyError:
        raise RuleError(f"there is no Spell or Talent {ability_id!r}") from None
