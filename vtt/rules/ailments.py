"""Ailments (reference §5): the table of ailments, what they change on rolls, and how they wear off.

- §5.1: "When your turn ends, each Ailment gets a defense roll with its listed skill; success drops it by 1 Tier,
  at DL 6 + Tier - 1 for each earlier consecutive failure." Failures are counted per ailment on the creature
  (`Creature.ailment_failures`); a success clears the count. Ailments without a listed defense, and those with
  their own rules (Burning, Unaware while Unconscious, Wounded, Trauma), are not rolled for. Table setting
  `ailment_reduction` turns the rolls off.
- §5.2 effects on rolls, each a Modifier with its reason:
  Dazzled: 1 + Tier/3 (rounded down) on attack, Manifest and Observe rolls.
  Unstable (ASSUMPTION, the older Unsteady): Tier / `unstable_defense_divisor` on defenses against physical attacks.
  Crowded (ASSUMPTION): `crowded_penalty_per_tier` x Tier on attack rolls and on the `limb_defenses`.
  Exhausted: Tier on Skill rolls (here: attacks, defenses, Manifest rolls and ailment defense rolls).
- §5.3 Prone (ASSUMPTIONS): `prone_attack_dice` d12 on your physical attacks; melee attackers against you get
  `prone_melee_against` (ranged attackers `prone_ranged_against`).
- Slowed (ASSUMPTION, the older Slow): as your turn starts, Tier / `slowed_pips_divisor` Movement Pips.

Not done yet: Wounded on a part, Frightened, Strangled's breathing, Blinded/Deafened concealment, Enraged, and
"an Ailment caused by an ongoing effect cannot be lowered while that effect lasts" (no ailment records its source).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from vtt.rules.dice import DiceChange, DiceSource, Modifier, roll
from vtt.rules.events import Event
from vtt.rules.model import Creature, GameState
from vtt.rules.txn import Tx

Kind = Literal["roll", "concealment", "movement", "damage", "own_rules", "hold", "other"]


class AilmentInfo(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    defense: str | None
    kind: Kind
    effect: str


AILMENTS: dict[str, AilmentInfo] = {
    a.name: a
    for a in [
        AilmentInfo(name="Blinded", defense="Nature", kind="concealment", effect="Sight Concealment Tier on targets"),
        AilmentInfo(name="Burning", defense=None, kind="own_rules", effect="continuing Heat damage, half its Tier"),
        AilmentInfo(name="Dazzled", defense="Endure", kind="roll", effect="1 + Tier/3 on attack, Manifest, Observe"),
        AilmentInfo(name="Deafened", defense="Nature", kind="concealment", effect="Sound Concealment Tier"),
        AilmentInfo(name="Encumbered", defense=None, kind="roll", effect="Tier on Athletics, Elude, Nimble, limbs"),
        AilmentInfo(name="Enraged", defense="Zeal", kind="other", effect="Tier on Knowledge rolls; must Focus"),
        AilmentInfo(name="Exhausted", defense=None, kind="roll", effect="Tier on Skill rolls"),
        AilmentInfo(name="Frightened", defense="Zeal", kind="other", effect="Tier on rolls against the source"),
        AilmentInfo(name="Muted", defense=None, kind="other", effect="half Tier on the sound Tier you speak"),
        AilmentInfo(name="Slowed", defense=None, kind="movement", effect="Tier/2 Movement Pips as your turn starts"),
        AilmentInfo(name="Unstable", defense=None, kind="roll", effect="half Tier on defenses against physical"),
        AilmentInfo(name="Strangled", defense=None, kind="hold", effect="no breathing or speech"),
        AilmentInfo(name="Crowded", defense=None, kind="roll", effect="Tier on attacks and limb defenses"),
        AilmentInfo(name="Unaware", defense=None, kind="own_rules", effect="not Aware of anyone"),
        AilmentInfo(name="Wounded", defense=None, kind="own_rules", effect="Tier on rolls using the part"),
        AilmentInfo(name="Trauma", defense="Endure", kind="own_rules", effect="older: half-Tier Energy damage"),
        AilmentInfo(name="Sickened", defense="Endure", kind="other", effect="damages Minor Actions"),
        AilmentInfo(name="Clumsy", defense="Nimble", kind="roll", effect="half Tier on Might and Finesse attacks"),
        AilmentInfo(name="Stiff", defense="Nimble", kind="roll", effect="Tier on Mobility rolls"),
        AilmentInfo(name="Weak", defense="Endure", kind="damage", effect="half Tier on Strike and Overpower damage"),
        AilmentInfo(name="Anosmatic", defense="Nature", kind="concealment", effect="smell Concealment"),
    ]
}
"""reference §5.2. Defenses the newer revision does not show come from table setting `ailment_defenses`."""

REDUCTION_DL = 6
"""reference §5.1: DL 6 + Tier - 1 for each earlier consecutive failure."""


def tier(c: Creature, name: str) -> int:
    return c.ailments.get(name, 0)


def defense_of(state: GameState, name: str) -> str | None:
    """The skill an ailment's end-of-turn defense rolls; None when it has none listed or follows its own rules."""
    info = AILMENTS.get(name)
    if info is not None and info.kind == "own_rules":
        return None
    listed = state.settings.ailment_defenses.get(name)
    return listed or (info.defense if info is not None else None)


def dazzled_penalty(t: int) -> int:
    return 1 + t // 3


def dazzled(c: Creature, what: str) -> list[Modifier]:
    t = tier(c, "Dazzled")
    return [Modifier(value=-dazzled_penalty(t), reason=f"Dazzled (Tier {t}): 1 + Tier/3 on {what}")] if t else []


def exhausted(c: Creature, what: str) -> list[Modifier]:
    t = tier(c, "Exhausted")
    return [Modifier(value=-t, reason=f"Exhausted (Tier {t}) on {what}")] if t else []


def attack_roll_modifiers(state: GameState, c: Creature) -> list[Modifier]:
    """Dazzled, Crowded and Exhausted on the creature's attack rolls."""
    mods = dazzled(c, "attack rolls")
    crowded = tier(c, "Crowded") * state.settings.crowded_penalty_per_tier
    if crowded:
        mods.append(Modifier(value=-crowded, reason=f"Crowded (Tier {tier(c, 'Crowded')}) on attack rolls"))
    return mods + exhausted(c, "Skill rolls")


EFFECT_ATTACK_DICE = "attack_dice"
"""Effect.modifiers key: d12 changed on the subject's attack rolls (Flurry)."""
EFFECT_DAMAGE_DICE = "damage_dice"
"""Effect.modifiers key: d12 changed on the subject's damage rolls (Flurry)."""


def attack_dice_changes(state: GameState, c: Creature, physical: bool = True) -> list[DiceChange]:
    """Prone (ASSUMPTION): d12 changed on the creature's physical attacks; effects' d12 on any attack roll."""
    out: list[DiceChange] = []
    n = state.settings.prone_attack_dice
    if c.prone and physical and n:
        out.append(DiceChange(dice=n, reason=f"Prone: {n:+d}d12 on physical attacks"))
    for e in state.effects:
        lost = e.modifiers.get(EFFECT_ATTACK_DICE, 0) if e.subject == c.id else 0
        if lost:
            out.append(DiceChange(dice=lost, reason=f"{e.name}: lose {-lost}d12 on attack rolls"))
    return out


def against_target_modifiers(state: GameState, target: Creature, melee: bool = True) -> list[Modifier]:
    """Prone (ASSUMPTION): melee attackers against a Prone target get a bonus, ranged ones a penalty."""
    if not target.prone:
        return []
    s = state.settings
    value, kind = (s.prone_melee_against, "melee") if melee else (s.prone_ranged_against, "ranged")
    return [Modifier(value=value, reason=f"{target.name} is Prone: {value:+d} to {kind} attackers")] if value else []


def defense_roll_modifiers(state: GameState, c: Creature, skill: str, physical: bool = True) -> list[Modifier]:
    """Unstable, Crowded and Exhausted on a defense roll with `skill`."""
    s = state.settings
    mods: list[Modifier] = []
    unstable = tier(c, "Unstable") // s.unstable_defense_divisor
    if physical and unstable:
        mods.append(
            Modifier(
                value=-unstable,
                reason=f"Unstable (Tier {tier(c, 'Unstable')}): Tier/{s.unstable_defense_divisor} on defenses "
                "against physical attacks",
            )
        )
    crowded = tier(c, "Crowded") * s.crowded_penalty_per_tier
    if crowded and skill in s.limb_defenses:
        mods.append(Modifier(value=-crowded, reason=f"Crowded (Tier {tier(c, 'Crowded')}) on an {skill} defense"))
    return mods + exhausted(c, "Skill rolls")


def manifest_modifiers(c: Creature) -> list[Modifier]:
    """Dazzled and Exhausted on Manifest rolls."""
    return dazzled(c, "Manifest rolls") + exhausted(c, "Skill rolls")


def observe_modifiers(c: Creature) -> list[Modifier]:
    """Dazzled on Observe rolls (no Observe roll exists yet)."""
    return dazzled(c, "Observe rolls")


def reduce_at_turn_end(tx: Tx, creature_id: str, dice: DiceSource) -> list[Event]:
    """reference §5.1: each reducible Ailment rolls its listed defense at DL 6 + Tier - earlier consecutive
    failures; success lowers it by 1 Tier."""
    state = tx.state
    if not state.settings.ailment_reduction:
        return []
    c = tx.get(creature_id)
    if c.dead:
        return []
    events: list[Event] = []
    for name, t in sorted(c.ailments.items()):
        skill = defense_of(state, name)
        if skill is None or t <= 0 or (name == "Unaware" and c.unconscious):
            continue
        failures = c.ailment_failures.get(name, 0)
        dl = REDUCTION_DL + t - failures
        r = roll(dice, f"{c.name}: {skill} against {name}", c.skill(skill), exhausted(c, "Skill rolls"))
        ok = r.result >= dl and not (state.settings.fumble_always_fails and r.fumble)
        m = tx.creature(creature_id)
        if ok:
            m.ailment_failures.pop(name, None)
            if t > 1:
                m.ailments[name] = t - 1
            else:
                m.ailments.pop(name, None)
            text = f"{c.name} rolls {skill} against {name} (DL {dl}): {r.result}, {name} drops to Tier {t - 1}."
        else:
            m.ailment_failures[name] = failures + 1
            text = f"{c.name} rolls {skill} against {name} (DL {dl}): {r.result}, {name} stays at Tier {t}."
        events.append(
            Event(
                kind="ailment_roll",
                text=text,
                target=creature_id,
                rolls=[r],
                data={"ailment": name, "dl": dl, "success": ok, "tier": t - 1 if ok else t},
            )
        )
    return events


def slowed_at_turn_start(state: GameState, creature_id: str) -> list[Event]:
    """Slowed (ASSUMPTION): as the turn starts, Tier / `slowed_pips_divisor` Pips fill the fresh Movement Pool."""
    c = state.creatures[creature_id]
    pips = tier(c, "Slowed") // state.settings.slowed_pips_divisor
    econ = state.economy.get(creature_id)
    if not pips or econ is None:
        return []
    econ.movement_spent = min(econ.movement_max, econ.movement_spent + pips)
    return [
        Event(
            kind="slowed",
            text=f"{c.name} is Slowed (Tier {tier(c, 'Slowed')}): {pips} Movement Pip(s); "
            f"{econ.movement_left} space(s) left.",
            target=creature_id,
            data={"pips": pips, "movement_left": econ.movement_left},
        )
    ]
