"""Senses and Concealment (reference §2.6, §5.2).

- Blinded: "Every target has Sight Concealment Tier equal to your Blinded Tier, counted from you." Deafened does
  the same for sound, and the older Anosmatic for smell. Concealment here is what a creature's own ailments give
  every target it perceives; sources of higher Magnitude on the path (§2.6) are not modelled.
- An attack on a creature or a surface (GAP: how much Concealment changes an attack; reference gap 9 ASSUMPTION):
  the attacker finds its target with the senses of table setting `attack_senses` (sight), using the least
  concealed one; that Concealment Tier x `concealment_attack_per_tier` (1) is a penalty on the attack roll.
- Light (§2.6/§5.2: an attack on a creature you cannot see takes Sight Concealment): an attack on one creature
  also reads the attacker's vision (`vision.light_concealment`, the computation fog of war uses): a target seen only
  in dim light has Sight Concealment `dim_concealment`, one the attacker does not see (in darkness, or out of
  sight) `dark_concealment`. Blinded judges the attacker's eyes as if open: the higher Tier counts, as below.
- seed-000 targeted attacks on a space: a roll that becomes the attack on doubles "is not modified by Concealment
  or size", so it takes no such penalty.
- Defenses: the reference says nothing of a creature that cannot perceive its attacker (GAP): table setting
  `concealment_defense_per_tier` (0: nothing) x the same Tier on its defense rolls.
- Distract (seed-000: "attack creatures that are Aware of that action"; Awareness is an Observe roll, §2.6, and
  a Distract attacks Observe): the distracter's roll is an attack roll, so its targets' Concealment counted from it
  is a penalty as on any attack; the target perceives the diversion through its own Concealment of it (for speech,
  Sound; for an action, the better of Sight and Sound), which makes being drawn by it harder: table setting
  `concealment_distract_per_tier` (1) x that Tier on its defense (GAP, as gap 9).
- No light (seed-000 swallowing: "While swallowed, there is no light"): the swallowed creature's targets have the
  Sight Concealment Blinded would give, at the Tier of table setting `swallowed_darkness` (3; GAP: the reference
  gives darkness no Tier; 0 turns it off). Blinded in the dark sees no less than either alone would let it: the
  higher of the two Tiers counts, not their sum (both hide the same sense).
"""

from __future__ import annotations

from vtt.rules import vision
from vtt.rules.dice import Modifier
from vtt.rules.model import Creature, GameState
from vtt.rules.settings import Sense

SENSE_AILMENTS: dict[Sense, str] = {"sight": "Blinded", "sound": "Deafened", "smell": "Anosmatic"}
SENSE_NAMES: dict[Sense, str] = {"sight": "Sight", "sound": "Sound", "smell": "Smell"}


def darkness(state: GameState, observer: Creature) -> int:
    """The Sight Concealment no light gives: a swallowed creature's (seed-000), `swallowed_darkness`."""
    return state.settings.swallowed_darkness if observer.swallowed_by is not None else 0


def concealment_and_cause(
    state: GameState, observer: Creature, sense: Sense, target: Creature | None = None
) -> tuple[int, str]:
    """The Concealment Tier `target` (None: every target) has for `sense`, counted from `observer`, and what causes
    it. For sight and one target, light and line of sight count too (`vision.light_concealment`): the highest of
    Blinded, a stomach's darkness and that counts, as all hide the same sense."""
    name = SENSE_AILMENTS[sense]
    t = observer.ailments.get(name, 0) if observer.ailments else 0
    best = (t, f"{name} (Tier {t})")
    if sense != "sight":
        return best
    if observer.swallowed_by is not None:
        dark = darkness(state, observer)
        if dark > t:
            best = (dark, "no light (swallowed)")
    if target is not None and target.id in state.creatures and observer.id in state.creatures:
        lit, why = vision.light_concealment(state, observer.id, target.id)
        if lit > best[0]:
            best = (lit, why)
    return best


def concealment(state: GameState, observer: Creature, sense: Sense) -> int:
    """The Concealment Tier every target has for `sense`, counted from `observer`."""
    return concealment_and_cause(state, observer, sense)[0]


def attack_concealment(
    state: GameState, attacker: Creature, target: Creature | None = None
) -> tuple[int, Sense | None, str]:
    """The Concealment an attacker's target (None: every target) has through its best sense among
    `attack_senses`, that sense, and its cause."""
    best: tuple[int, Sense | None, str] = (0, None, "")
    for i, sense in enumerate(state.settings.attack_senses):
        t, cause = concealment_and_cause(state, attacker, sense, target)
        if i == 0 or t < best[0]:
            best = (t, sense, cause)
    return best


def _all_clear(state: GameState, c: Creature) -> bool:
    """Whether every target is free of Concealment from `c` (`concealment_and_cause` finds Tier 0 for each sense):
    no ailment of its senses, not swallowed, and no space of the map dim or dark."""
    if c.ailments or c.swallowed_by is not None or state.settings.ambient_light != "lit":
        return False
    light = state.board.light
    return not light or all(level == "lit" for level in light.values())


def _modifier(state: GameState, c: Creature, per_tier: int, what: str, other: Creature | None) -> list[Modifier]:
    if not per_tier or _all_clear(state, c):
        return []
    t, sense, cause = attack_concealment(state, c, other)
    if not t or sense is None:
        return []
    whom = "it has" if other is not None and cause.startswith("the target") else "every target has"
    return [
        Modifier(
            value=-t * per_tier,
            reason=f"{cause}: {whom} {SENSE_NAMES[sense]} Concealment {t}, on {what}",
            key="concealment",
            source=c.id,
        )
    ]


def attack_concealment_modifiers(
    state: GameState, attacker: Creature, target: Creature | None = None
) -> list[Modifier]:
    """The penalty Concealment gives an attack on `target` (not a targeted attack on a space; None: an attack whose
    target is no creature, or several)."""
    return _modifier(state, attacker, state.settings.concealment_attack_per_tier, "attack rolls", target)


def distract_concealment(state: GameState, target: Creature, speaking: bool) -> tuple[int, Sense]:
    """The Concealment a Distract's diversion has for `target`: through Sound for speech, else through its better
    of Sight and Sound (it may see or hear the action)."""
    senses: list[Sense] = ["sound"] if speaking else ["sight", "sound"]
    return min(((concealment(state, target, sense), sense) for sense in senses), key=lambda ts: ts[0])


def distract_defense_modifiers(state: GameState, target: Creature, speaking: bool) -> list[Modifier]:
    """Concealment on a Distract's defense: the diversion reaches `target` through Concealment, and being Aware of
    it is an Observe roll that Concealment makes harder (`concealment_distract_per_tier` x Tier, a bonus)."""
    t, sense = distract_concealment(state, target, speaking)
    per_tier = state.settings.concealment_distract_per_tier
    if not t or not per_tier:
        return []
    cause = concealment_and_cause(state, target, sense)[1]
    what = "the speech" if speaking else "the action"
    return [
        Modifier(
            value=t * per_tier,
            reason=f"{cause}: {what} has {SENSE_NAMES[sense]} Concealment {t} for it, on its defense (Distract)",
            key="concealment",
            source=target.id,
        )
    ]


def defense_concealment_modifiers(
    state: GameState, defender: Creature, attacker: Creature | None = None
) -> list[Modifier]:
    """The penalty `concealment_defense_per_tier` gives a defender that cannot perceive its attacker well."""
    return _modifier(state, defender, state.settings.concealment_defense_per_tier, "defense rolls", attacker)
