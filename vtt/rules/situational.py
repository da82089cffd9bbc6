"""Situational modifiers: what one rule gives a later roll of the same command (a successful Hinder Attack's -1 on
the hindered attack), kept on the transaction with the rolls it applies to.

Every attack roll is made by `attack_roll`, which always adds the situational modifiers on the attacker's attack
rolls, so no attack has to remember them; a Manifest roll is made by `manifest_roll`, which adds those on its
Manifest rolls and, being the attack roll of an ability that attacks, on its attack rolls too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from vtt.rules.dice import DiceChange, DiceSource, Modifier, Roll, roll

if TYPE_CHECKING:
    from vtt.rules.txn import Tx

Scope = Literal["attack_roll", "manifest_roll"]
"""Which rolls of the creature a situational modifier applies to, within the command being resolved."""
ATTACK: tuple[Scope, ...] = ("attack_roll",)
MANIFEST: tuple[Scope, ...] = ("attack_roll", "manifest_roll")


@dataclass(frozen=True)
class Situational:
    """`modifier` on every roll of `scope` that `creature` makes in this command."""

    scope: Scope
    creature: str
    modifier: Modifier


def modifiers_for(tx: Tx, creature: str, scopes: Iterable[Scope]) -> list[Modifier]:
    """The situational modifiers on `creature`'s rolls of these scopes, in the order they were given."""
    wanted = set(scopes)
    return [s.modifier for s in tx.situational if s.creature == creature and s.scope in wanted]


def attack_roll(
    tx: Tx,
    dice: DiceSource,
    attacker: str,
    label: str,
    base_dice: int,
    modifiers: Iterable[Modifier] = (),
    dice_changes: Iterable[DiceChange] = (),
) -> Roll:
    """An attack roll of `attacker`: its own modifiers, then the situational ones on its attack rolls."""
    if not tx.situational:
        return roll(dice, label, base_dice, tuple(modifiers), dice_changes)
    return roll(dice, label, base_dice, [*modifiers, *modifiers_for(tx, attacker, ATTACK)], dice_changes)


def manifest_roll(
    tx: Tx,
    dice: DiceSource,
    creature: str,
    label: str,
    base_dice: int,
    modifiers: Iterable[Modifier] = (),
    dice_changes: Iterable[DiceChange] = (),
) -> Roll:
    """A Manifest roll of `creature`: its own modifiers, then the situational ones on its Manifest and attack rolls."""
    return roll(dice, label, base_dice, [*modifiers, *modifiers_for(tx, creature, MANIFEST)], dice_changes)
