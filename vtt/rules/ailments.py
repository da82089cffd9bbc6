"""Ailments (reference §5): the table of ailments, what they change on rolls, and how they wear off.

- §5.1: "When your turn ends, each Ailment gets a defense roll with its listed skill; success drops it by 1 Tier,
  at DL 6 + Tier - 1 for each earlier consecutive failure." Failures are counted per ailment on the creature
  (`Creature.ailment_failures`); a success clears the count. Ailments without a listed defense, and those with
  their own rules (Burning, Unaware while Unconscious, Wounded), are not rolled for. Trauma rolls Endure like
  any other (seed-004: "The Endure roll commonly comes from Trauma"), and a failure deals half its Tier as Energy
  damage (the older revision; `trauma_energy_damage`); success lowers it on its parts too (`lower_trauma`).
  "Recovering Grit lowers the Tier" (older revision): each Grit Pip a healing removes lowers Trauma by
  `trauma_per_grit_pip` Tiers, the most Traumatised part first. Every Endure roll checks death by Exhaustion.
  Table setting `ailment_reduction` turns the rolls off.
- §5.2 effects on rolls, each a Modifier with its reason:
  Dazzled: 1 + Tier/3 (rounded down) on attack, Manifest and Observe rolls.
  Unstable (ASSUMPTION, the older Unsteady): Tier / `unstable_defense_divisor` on defenses against physical attacks.
  Crowded (ASSUMPTION): `crowded_penalty_per_tier` x Tier on attack rolls and on the `limb_defenses`.
  Exhausted: Tier on Skill rolls (here: attacks, defenses, Manifest rolls and ailment defense rolls).
- §5.3 Prone (ASSUMPTIONS): `prone_attack_dice` d12 on your physical attacks; melee attackers against you get
  `prone_melee_against` (ranged attackers `prone_ranged_against`).
- Slowed (ASSUMPTION, the older Slow): as your turn starts, Tier / `slowed_pips_divisor` Movement Pips.
- §5.1 "An Ailment caused by an ongoing effect cannot be lowered while that effect lasts": Tiers a source caused
  are recorded with it (`Creature.ailment_sources`, "kind:id"; `add_ailment`). While an ongoing source lasts
  (`effect:` an Effect still in play, `hold:` a Hold the creature is still in, `head_lock:` a Grapple's lock on its
  head, or a kind registered with `source_kind`, such as `swallowed:` a stomach it is still in, see `swallow`), its
  Tiers are not rolled down; only Tiers beyond them are. When it ends (checked after every command,
  `lapse_sources`), Tiers recorded `ends_with_source` go at once (a rule saying "until" or "while"), the others
  stay and can be lowered from then on. `creature:` names whom a
  Frightened creature fears and is not an ongoing effect. Strangled from a Grapple's head lock is recorded by
  the lock itself (`PartLock.strangled`) and ends with it (see `hold`); Encumbered from a Hold is never an entry:
  `conditions` works it out from the Hold while it lasts. The Soulweaver gives an Ailment, with a source or not,
  by the `afflict` command.
- Frightened (ASSUMPTION, reference §5.2): `frightened_penalty_per_tier` x Tier on attack rolls against whom it
  fears, and (`frightened_on_defense`) on its defense rolls against their attacks; (`frightened_no_approach`) it
  cannot willingly move to a space closer to them than where it is.
- Strangled (ASSUMPTION, reference §5.2): no breathing: as its turn starts, `strangled_energy_per_tier` x Tier
  Energy Pips (spilling into Exhausted on a full pool, seed-004); no speech (`strangled_silences`): it cannot pay
  the words a Spell costs.
- Blinded, Deafened (and the older Anosmatic) give every target Concealment for one sense: see `senses`.
- Wounded (ASSUMPTION, reference §5.2: "penalty equal to Tier on rolls that use that part; a part at Wounded >= 6
  cannot be used") is kept per body part (`BodyPart.wounded`, `wounded_tiers`; the total is
  `ailments["Wounded"]`): `wounded_penalty_per_tier` x the part's Tier on rolls made with that part (a melee or
  ranged attack with the limbs gripping the weapon or the unarmed limb, Grab, Grapple, Break Hold, the Free Limb
  a Spell is Manifested with or an ability is Readied in), and a part at `wounded_unusable_at` Tiers or more
  cannot be used for them. Defenses that use limbs (`limb_defenses`) take the most Wounded limb's penalty, and
  Balance on Uneven Ground the most Wounded leg's (`wounded_limbs_modifiers`).
- Focused (reference §5.3) is a condition without Tiers, not an Ailment: `Creature.focus` (see `tactics`).
- Enraged (FACT): Tier on Knowledge rolls (table setting `knowledge_skills`), no fewer damage dice, must keep a
  Focus and target only it: see `enraged`; at Tier 6+ always in Conflict: see `conflict`.
- Burning (FACT): half its Tier in Heat Continuing Damage on the Soulweaver's turn, Tier d12 at DL 9 as its turn
  ends (+1 Tier on success, -1 on failing by 6 or more), put out when surrounded by water: see `burning`.
- Muted (the older Mute, FACT): half its Tier off the sound Tier of speech (table setting `speech_magnitude`); at
  0 or less no speech (`speech_error`): no words for Spells, no Distract by speaking.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from vtt.rules import senses
from vtt.rules.dice import DiceChange, Modifier
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.model import AilmentSource, Cell, Creature, GameState
from vtt.rules.space import Occupancy, footprint, grid_of
from vtt.rules.txn import Tx
from vtt.rules.words import count

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
        AilmentInfo(
            name="Strangled", defense=None, kind="hold", effect="no breathing or speech: Energy Pips each turn"
        ),
        AilmentInfo(name="Crowded", defense=None, kind="roll", effect="Tier on attacks and limb defenses"),
        AilmentInfo(name="Unaware", defense=None, kind="own_rules", effect="not Aware of anyone"),
        AilmentInfo(name="Wounded", defense=None, kind="own_rules", effect="Tier on rolls using the part"),
        AilmentInfo(name="Trauma", defense="Endure", kind="other", effect="older: half-Tier Energy damage"),
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
    if not t:
        return []
    return [
        Modifier(
            value=-dazzled_penalty(t), reason=f"Dazzled (Tier {t}): 1 + Tier/3 on {what}", key="dazzled", source=c.id
        )
    ]


def exhausted(c: Creature, what: str) -> list[Modifier]:
    t = tier(c, "Exhausted")
    return [Modifier(value=-t, reason=f"Exhausted (Tier {t}) on {what}", key="exhausted", source=c.id)] if t else []


def attack_roll_modifiers(state: GameState, c: Creature) -> list[Modifier]:
    """Dazzled, Crowded and Exhausted on the creature's attack rolls."""
    if not c.ailments:
        return []
    mods = dazzled(c, "attack rolls")
    crowded = tier(c, "Crowded") * state.settings.crowded_penalty_per_tier
    if crowded:
        why = f"Crowded (Tier {tier(c, 'Crowded')}) on attack rolls"
        mods.append(Modifier(value=-crowded, reason=why, key="crowded", source=c.id))
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
    if not value:
        return []
    return [
        Modifier(
            value=value, reason=f"{target.name} is Prone: {value:+d} to {kind} attackers", key="prone", source=target.id
        )
    ]


def defense_roll_modifiers(state: GameState, c: Creature, skill: str, physical: bool = True) -> list[Modifier]:
    """Unstable, Crowded, Wounded limbs and Exhausted on a defense roll with `skill`."""
    s = state.settings
    if not c.ailments:  # only Wounded, kept on the parts, may count
        if skill not in s.limb_defenses or not any_wounded(c):  # (no reason to write)
            return []
        return wounded_limbs_modifiers(state, c, f"an {skill} defense")
    mods: list[Modifier] = []
    unstable = tier(c, "Unstable") // s.unstable_defense_divisor
    if physical and unstable:
        mods.append(
            Modifier(
                value=-unstable,
                reason=f"Unstable (Tier {tier(c, 'Unstable')}): Tier/{s.unstable_defense_divisor} on defenses "
                "against physical attacks",
                key="unstable",
                source=c.id,
            )
        )
    crowded = tier(c, "Crowded") * s.crowded_penalty_per_tier
    if crowded and skill in s.limb_defenses:
        why = f"Crowded (Tier {tier(c, 'Crowded')}) on an {skill} defense"
        mods.append(Modifier(value=-crowded, reason=why, key="crowded", source=c.id))
    if skill in s.limb_defenses:
        mods += wounded_limbs_modifiers(state, c, f"an {skill} defense")
    return mods + exhausted(c, "Skill rolls") + knowledge_modifiers(state, c, skill)


def knowledge_modifiers(state: GameState, c: Creature, skill: str) -> list[Modifier]:
    """Enraged: -Tier on a roll of a Knowledge skill (table setting `knowledge_skills`)."""
    t = tier(c, "Enraged")
    if not t or skill not in state.settings.knowledge_skills:
        return []
    return [Modifier(value=-t, reason=f"Enraged (Tier {t}) on Knowledge rolls ({skill})", key="enraged", source=c.id)]


def manifest_modifiers(c: Creature, state: GameState | None = None, skill: str | None = None) -> list[Modifier]:
    """Dazzled and Exhausted on Manifest rolls, and Enraged when the roll's `skill` is a Knowledge skill."""
    knowledge = knowledge_modifiers(state, c, skill) if state is not None and skill is not None else []
    return dazzled(c, "Manifest rolls") + exhausted(c, "Skill rolls") + knowledge


def observe_modifiers(c: Creature) -> list[Modifier]:
    """Dazzled on Observe rolls (no Observe roll exists yet)."""
    return dazzled(c, "Observe rolls")


# --------------------------------------------------------------------------------------------------------
# Sources: "An Ailment caused by an ongoing effect cannot be lowered while that effect lasts" (§5.1)
# --------------------------------------------------------------------------------------------------------

SourceCheck = Callable[[GameState, Creature, str], bool]
"""(state, the afflicted creature, the source's id) -> whether the source still lasts."""


SourceName = Callable[[GameState, str], str]
"""(state, the source's id) -> how the log names the source."""


class SourceKind(NamedTuple):
    lasts: SourceCheck
    ongoing: bool
    """An ongoing effect: the Tiers it causes cannot be lowered while it lasts."""
    describe: SourceName | None = None


HEAD = "head"
SOURCE_KINDS: dict[str, SourceKind] = {}
"""Kinds of source by the prefix of `AilmentSource.source`. A kind not registered lasts, as an ongoing effect,
until `end_source` ends it."""


def source_kind(
    prefix: str, ongoing: bool = True, describe: SourceName | None = None
) -> Callable[[SourceCheck], SourceCheck]:
    """Register how to tell whether sources `prefix:<id>` still last (e.g. being swallowed, see `swallow`), and
    how the log names one."""

    def register(fn: SourceCheck) -> SourceCheck:
        SOURCE_KINDS[prefix] = SourceKind(fn, ongoing, describe)
        return fn

    return register


@source_kind("effect")
def _effect_lasts(state: GameState, c: Creature, ident: str) -> bool:
    return any(e.id == ident for e in state.effects)


@source_kind("hold")
def _hold_lasts(state: GameState, c: Creature, ident: str) -> bool:
    hold = state.holds.get(ident)
    return hold is not None and c.id in hold.members


@source_kind("head_lock")
def _head_lock_lasts(state: GameState, c: Creature, ident: str) -> bool:
    hold_id, _, holder = ident.partition("/")
    hold = state.holds.get(hold_id)
    return hold is not None and any(x.held == c.id and x.part == HEAD and x.holder == holder for x in hold.locks)


@source_kind("creature", ongoing=False)
def _creature_lasts(state: GameState, c: Creature, ident: str) -> bool:
    other = state.creatures.get(ident)
    return other is not None and not other.dead


def split_source(source: str) -> tuple[str, str]:
    kind, _, ident = source.partition(":")
    return kind, ident


def source_lasts(state: GameState, c: Creature, source: str) -> bool:
    kind, ident = split_source(source)
    known = SOURCE_KINDS.get(kind)
    return True if known is None else known.lasts(state, c, ident)


def is_ongoing(source: str) -> bool:
    known = SOURCE_KINDS.get(split_source(source)[0])
    return True if known is None else known.ongoing


def sources(state: GameState, c: Creature) -> list[AilmentSource]:
    """Every recorded source of the creature's Ailments, with the Strangled each Grapple's head lock causes."""
    out = list(c.ailment_sources)
    for hold in state.holds.values() if state.holds else ():
        for lock in hold.locks:
            if lock.held == c.id and lock.strangled:
                out.append(
                    AilmentSource(
                        ailment="Strangled",
                        tiers=lock.strangled,
                        source=f"head_lock:{hold.id}/{lock.holder}",
                        ends_with_source=True,
                    )
                )
    return out


def blocks(state: GameState, c: Creature, record: AilmentSource) -> bool:
    """The record's Tiers cannot be lowered now: its source is an ongoing effect that lasts."""
    return is_ongoing(record.source) and source_lasts(state, c, record.source)


def blocked_tiers(state: GameState, c: Creature, name: str) -> int:
    """Tiers of `name` that cannot be lowered now (never more than the creature has)."""
    if not c.ailment_sources and not state.holds:
        return 0
    n = sum(r.tiers for r in sources(state, c) if r.ailment == name and blocks(state, c, r))
    return min(tier(c, name), n)


def describe_source(state: GameState, source: str) -> str:
    kind, ident = split_source(source)
    known = SOURCE_KINDS.get(kind)
    if known is not None and known.describe is not None:
        return known.describe(state, ident)
    if kind == "creature" and ident in state.creatures:
        return state.creatures[ident].name
    if kind == "effect":
        e = next((e for e in state.effects if e.id == ident), None)
        return f"the effect {e.name}" if e is not None else f"the effect {ident}"
    if kind == "hold":
        return f"the Hold {ident}"
    if kind == "head_lock":
        holder = ident.partition("/")[2]
        return f"{state.creatures[holder].name}'s hold on its head" if holder in state.creatures else "a head lock"
    return source


def immunity_to(c: Creature, name: str, *types: str) -> str | None:
    """seed-004 Immunity: "Injury, Ailments, and effects of a given type are prevented and removed." The immunity
    (an Ailment's name, or a type of the effect causing it, such as "physical") that prevents `name`, if any."""
    mine = {i.lower(): i for i in c.immunities}
    return next((mine[t.lower()] for t in (name, *types) if t.lower() in mine), None)


def immune_event(c: Creature, name: str, immunity: str, actor: str | None = None) -> Event:
    return Event(
        kind="immune",
        text=f"{c.name} is Immune to {immunity}: no {name}.",
        actor=actor,
        target=c.id,
        data={"ailment": name, "immunity": immunity},
    )


def remove_immune(c: Creature) -> list[str]:
    """seed-004 Immunity: Ailments a creature is Immune to are removed (with their sources); returns their names."""
    gone = [name for name in c.ailments if immunity_to(c, name) is not None]
    for name in gone:
        del c.ailments[name]
        forget_failures(c, name)
    c.ailment_sources = [r for r in c.ailment_sources if r.ailment not in gone]
    return gone


def forget_failures(m: Creature, name: str) -> None:
    """`name`'s failed defense rolls no longer count (the dict is replaced, never changed in place: `txn._REPLACED`)."""
    if name in m.ailment_failures:
        m.ailment_failures = {k: n for k, n in m.ailment_failures.items() if k != name}


def add_ailment(
    tx: Tx, creature_id: str, name: str, tiers: int, source: str | None = None, ends_with_source: bool = False
) -> int:
    """Give `tiers` Tiers of `name` (they add to those the creature has), recording their source if any; returns
    the new Tier."""
    m = tx.creature(creature_id)
    m.ailments[name] = m.ailments.get(name, 0) + tiers
    if source is not None:
        same = next(
            (
                r
                for r in m.ailment_sources
                if (r.ailment, r.source, r.ends_with_source) == (name, source, ends_with_source)
            ),
            None,
        )
        record = AilmentSource(ailment=name, tiers=tiers, source=source, ends_with_source=ends_with_source)
        if same is not None:
            record = same.model_copy(update={"tiers": same.tiers + tiers})
        m.ailment_sources = [r for r in m.ailment_sources if r is not same] + [record]
    return m.ailments[name]


def lower(state: GameState, m: Creature, name: str, by: int) -> None:
    """Lower `name` by `by` Tiers on a creature being changed (from `Tx.creature`); records then hold no more Tiers
    than it has, losing first those that do not block."""
    left = m.ailments.get(name, 0) - by
    if left > 0:
        m.ailments[name] = left
    else:
        m.ailments.pop(name, None)
        forget_failures(m, name)
    records = [r for r in m.ailment_sources if r.ailment == name]
    excess = sum(r.tiers for r in records) - max(0, left)
    if excess <= 0:
        return
    kept: list[AilmentSource] = []
    for r in sorted(records, key=lambda r: blocks(state, m, r)):
        cut = min(excess, r.tiers)
        excess -= cut
        if r.tiers > cut:
            kept.append(r.model_copy(update={"tiers": r.tiers - cut}))
    m.ailment_sources = [r for r in m.ailment_sources if r.ailment != name] + kept


def _changed_with_sources(tx: Tx, before: GameState) -> list[str] | None:
    """The creatures the command changed that hold sources; None when something a source of another creature
    stands on changed (an effect or a Hold ended or changed, a creature died or left): then every creature is to be
    looked at."""
    if others_sources_may_end(tx, before):
        return None
    creatures = tx.state.creatures
    ids: list[str] = []
    for cid in tx._creatures:
        c = creatures.get(cid)
        if c is None:
            continue
        if c.dead:
            return None
        if c.ailment_sources:
            ids.append(cid)
    return ids


def others_sources_may_end(tx: Tx, before: GameState) -> bool:
    """Whether the command changed something a source of a creature it did not change may stand on: it removed a
    creature, or changed the effects or the Holds (a creature it changed that died is found among those)."""
    after = tx.state
    return bool(
        tx._removed
        or (
            before.effects is not after.effects
            and before.effects != after.effects
            and [e.id for e in before.effects] != [e.id for e in after.effects]
        )
        or (before.holds is not after.holds and before.holds != after.holds)
    )


def lapse_sources(tx: Tx, before: GameState | None = None) -> list[Event]:
    """Sources that have ended: Tiers recorded `ends_with_source` go; the others stay and can now be lowered.
    Records of an Ailment the creature no longer has (edited away) go too. A corpse keeps its Ailments (seed-004
    Dead). Given the state `before` the command, only the creatures it changed are looked at unless something a
    source stands on changed."""
    state = tx.state
    events: list[Event] = []
    ids = None if before is None else _changed_with_sources(tx, before)
    if ids is None:
        ids = list(state.creatures)
    elif not ids:
        return events
    else:
        ids.sort()
    for cid in ids:
        c = state.creatures.get(cid)
        if c is None or not c.ailment_sources or c.dead:
            continue
        gone = [r for r in c.ailment_sources if not tier(c, r.ailment)]
        ended = [r for r in c.ailment_sources if r not in gone and not source_lasts(state, c, r.source)]
        if not gone and not ended:
            continue
        m = tx.creature(cid)
        m.ailment_sources = [r for r in m.ailment_sources if r not in gone and r not in ended]
        for r in ended:
            what = describe_source(state, r.source)
            if r.ends_with_source:
                lower(state, m, r.ailment, r.tiers)
                text = f"{c.name}'s {r.ailment} from {what} ends with it (Tier {tier(m, r.ailment)} left)."
            elif is_ongoing(r.source):
                text = f"{c.name}'s {r.ailment} can be lowered again: {what} has ended."
            else:
                continue
            events.append(
                Event(
                    kind="ailment_source_ended", text=text, target=cid, data={"ailment": r.ailment, "source": r.source}
                )
            )
    return events


def end_source(tx: Tx, source: str) -> list[Event]:
    """A source of a kind nobody can check (not in `SOURCE_KINDS`) ends now, as if `lapse_sources` found it over."""
    events: list[Event] = []
    for cid, c in list(tx.state.creatures.items()):
        ended = [r for r in c.ailment_sources if r.source == source]
        if not ended:
            continue
        m = tx.creature(cid)
        m.ailment_sources = [r for r in m.ailment_sources if r.source != source]
        for r in ended:
            if r.ends_with_source:
                lower(tx.state, m, r.ailment, r.tiers)
            events.append(
                Event(
                    kind="ailment_source_ended",
                    text=f"{c.name}'s {r.ailment} from {describe_source(tx.state, source)}: the source has ended"
                    + (f" (Tier {tier(m, r.ailment)} left)." if r.ends_with_source else "; it can be lowered again."),
                    target=cid,
                    data={"ailment": r.ailment, "source": source},
                )
            )
    return events


def resolve_source(state: GameState, source: str) -> str:
    """A source as "kind:id": a bare id names a creature, an Effect or a Hold; RuleError when it names nothing."""
    kind, ident = split_source(source)
    if not ident:
        ident = kind
        if ident in state.creatures:
            return f"creature:{ident}"
        if any(e.id == ident for e in state.effects):
            return f"effect:{ident}"
        if ident in state.holds:
            return f"hold:{ident}"
        raise RuleError(f"{source!r} names no creature, effect or Hold")
    known = {"creature": ident in state.creatures, "effect": any(e.id == ident for e in state.effects)}
    known["hold"] = ident in state.holds
    if kind in known and not known[kind]:
        raise RuleError(f"there is no {kind} {ident!r}")
    return source


PART_AILMENTS = frozenset({"Wounded", "Trauma"})


def afflict(
    tx: Tx, target: str, name: str, tiers: int, source: str | None, ends_with_source: bool = False
) -> list[Event]:
    """The Soulweaver gives a creature Tiers of an Ailment, from a source or not."""
    c = tx.get(target)
    if name not in AILMENTS:
        raise RuleError(f"{name!r} is not an Ailment ({', '.join(sorted(AILMENTS))})")
    if name in PART_AILMENTS:
        raise RuleError(f"{name} is caused on a body part by Serious Injury: deal damage to the part instead")
    key = resolve_source(tx.state, source) if source is not None else None
    if key == f"creature:{target}":
        raise RuleError(f"{c.name} cannot be its own source")
    immunity = immunity_to(c, name)
    if immunity is not None:
        return [immune_event(c, name, immunity)]
    now = add_ailment(tx, target, name, tiers, key, ends_with_source)
    text = f"The Soulweaver gives {c.name} Tier {tiers} {name} (now Tier {now})"
    if key is not None:
        text += f" from {describe_source(tx.state, key)}"
        if is_ongoing(key):
            text += "; it cannot be lowered while that lasts" + (" and ends with it" if ends_with_source else "")
    return [
        Event(
            kind="ailment",
            text=text + ".",
            target=target,
            data={"ailment": name, "tier": now, "source": key},
        )
    ]


# --------------------------------------------------------------------------------------------------------
# Frightened (reference §5.2, ASSUMPTION)
# --------------------------------------------------------------------------------------------------------


def feared(state: GameState, c: Creature) -> list[str]:
    """The creatures `c` is Frightened of: the `creature:` sources of its Frightened, and the creators of the
    effects that cause it while they last."""
    if not tier(c, "Frightened"):
        return []
    out: list[str] = []
    for r in sources(state, c):
        if r.ailment != "Frightened":
            continue
        kind, ident = split_source(r.source)
        who: str | None = None
        if kind == "creature":
            who = ident
        elif kind == "effect":
            who = next((e.creator for e in state.effects if e.id == ident), None)
        if who is not None and who != c.id and who in state.creatures and who not in out:
            out.append(who)
    return out


def frightened_modifiers(state: GameState, c: Creature, other: Creature | None, what: str = "rolls") -> list[Modifier]:
    """Frightened: `frightened_penalty_per_tier` x Tier on `c`'s rolls against a creature it fears."""
    t = c.ailments.get("Frightened", 0)  # `tier(c, "Frightened")`: asked of every attack and defense
    if other is None or not t or other.id not in feared(state, c):
        return []
    value = t * state.settings.frightened_penalty_per_tier
    return (
        [
            Modifier(
                value=-value,
                reason=f"Frightened (Tier {t}) of {other.name}: on {what} against it",
                key="frightened",
                source=other.id,
            )
        ]
        if value
        else []
    )


def attack_against_modifiers(state: GameState, attacker: Creature, target: Creature | None) -> list[Modifier]:
    """What the attacker's ailments do to an attack on this target: Concealment from its senses and from light
    (see `senses`) and Frightened of the target."""
    return [
        *senses.attack_concealment_modifiers(state, attacker, target),
        *frightened_modifiers(state, attacker, target, "attack rolls"),
    ]


def defense_against_modifiers(state: GameState, defender: Creature, attacker: Creature | None) -> list[Modifier]:
    """What the defender's ailments do to its defense against this attacker (None: several at once)."""
    mods = senses.defense_concealment_modifiers(state, defender, attacker)
    if state.settings.frightened_on_defense:
        mods += frightened_modifiers(state, defender, attacker, "defense rolls")
    return mods


def approach_check(state: GameState, c: Creature) -> Callable[[Cell], str | None] | None:
    """Frightened (`frightened_no_approach`): a check naming why `c` may not willingly move its anchor to a space,
    one closer to a creature it fears than it is now; None when nothing holds it back."""
    if not state.settings.frightened_no_approach:
        return None
    who = feared(state, c)
    if not who:
        return None
    occ = Occupancy(state)
    grid = grid_of(state)
    now = {w: footprint_distance(grid, occ.cells[c.id], occ.cells[w]) for w in who}

    def closer(anchor: Cell) -> str | None:
        cells = footprint(state, c, anchor)
        for w in who:
            if footprint_distance(grid, cells, occ.cells[w]) < now[w]:
                return f"{c.name} is Frightened of {state.creatures[w].name} and cannot move closer to it"
        return None

    return closer


# --------------------------------------------------------------------------------------------------------
# Strangled (reference §5.2, ASSUMPTION)
# --------------------------------------------------------------------------------------------------------


def speech_error(state: GameState, c: Creature) -> str | None:
    """Why `c` cannot speak, or None. Strangled (`strangled_silences`): no speech. Muted (reference §5.2, the older
    Mute, FACT): it lowers the sound Tier you can speak by half its Tier (rounded down); speech is table setting
    `speech_magnitude` (2), so at a speakable Tier of 0 or less no word can be spoken."""
    if state.settings.strangled_silences and tier(c, "Strangled"):
        return f"{c.name} is Strangled and cannot speak"
    muted = tier(c, "Muted") // 2
    if muted and state.settings.speech_magnitude - muted <= 0:
        return (
            f"{c.name} is Muted (Tier {tier(c, 'Muted')}): half its Tier, {muted}, takes its speech of sound Tier "
            f"{state.settings.speech_magnitude} to {state.settings.speech_magnitude - muted}, and it cannot speak"
        )
    return None


def can_speak(state: GameState, c: Creature) -> bool:
    """Whether `c` can speak (see `speech_error`)."""
    return speech_error(state, c) is None


# --------------------------------------------------------------------------------------------------------
# Trauma, per body part (seed-000 Called Shot; reference §5.2, older revision)
# --------------------------------------------------------------------------------------------------------


def lower_trauma(tx: Tx, creature_id: str, by: int) -> int:
    """Lower Trauma by up to `by` Tiers: the creature's total and its parts' Tiers, the part with the most first
    (body order between equals); returns the Tiers lowered."""
    m = tx.creature(creature_id)
    by = min(by, tier(m, "Trauma"))
    if by <= 0:
        return 0
    lower(tx.state, m, "Trauma", by)
    left = by
    for p in sorted(m.parts, key=lambda p: -p.trauma):
        cut = min(left, p.trauma)
        if cut:
            tx.own(creature_id, p).trauma -= cut
            left -= cut
    return by


def trauma_after_grit_recovered(tx: Tx, creature_id: str, pips: int) -> list[Event]:
    """Trauma (older revision FACT): "recovering Grit lowers the Tier", by table setting `trauma_per_grit_pip`
    Tiers for each Grit Pip recovered."""
    lowered = lower_trauma(tx, creature_id, pips * tx.state.settings.trauma_per_grit_pip)
    if not lowered:
        return []
    c = tx.get(creature_id)
    return [
        Event(
            kind="trauma_recovered",
            text=f"{c.name} recovers {count(pips, 'Grit Pip')}: Trauma drops by {count(lowered, 'Tier')} to Tier "
            f"{tier(c, 'Trauma')}.",
            target=creature_id,
            data={"grit_pips": pips, "lowered": lowered, "tier": tier(c, "Trauma")},
        )
    ]


# --------------------------------------------------------------------------------------------------------
# Wounded, per body part (seed-004 Serious Injury; reference §5.2 ASSUMPTION for its effect)
# --------------------------------------------------------------------------------------------------------


def wounded_tiers(c: Creature, part: str) -> int:
    """Tiers of Wounded on one body part, e.g. the stomach a swallowed creature attacks (seed-000: "If there are 6
    Tiers of Wounded to the stomach, they fall out"); 0 for a part the creature does not have."""
    p = c.part(part)
    return p.wounded if p is not None else 0


def any_wounded(c: Creature) -> bool:
    """Whether any part of `c` has Wounded (every attack and defense asks, most often of no Wounded part). A plain
    loop: its attribute reads are specialised, half the instructions of `any(map(attrgetter(...)))` over 11 parts."""
    for part in c.parts:  # noqa: SIM110 (a generator's frame would cost more than the loop)
        if part.wounded:
            return True
    return False


def wounded_total(c: Creature) -> int:
    return sum(p.wounded for p in c.parts)


def wounded_unusable(state: GameState, c: Creature, part: str) -> bool:
    """Whether the part has `wounded_unusable_at` Tiers of Wounded or more and cannot be used."""
    limit = state.settings.wounded_unusable_at
    return bool(limit) and wounded_tiers(c, part) >= limit


def wounded_use_modifiers(state: GameState, c: Creature, parts: list[str]) -> list[Modifier]:
    """Wounded on the parts a roll is made with: `wounded_penalty_per_tier` x each part's Tier; RuleError when
    one has `wounded_unusable_at` Tiers or more and cannot be used."""
    s = state.settings
    mods: list[Modifier] = []
    if not any_wounded(c):
        return mods
    for pid in parts:
        t = wounded_tiers(c, pid)
        if not t:
            continue
        p = c.part(pid)
        name = p.name if p is not None else pid
        if wounded_unusable(state, c, pid):
            raise RuleError(f"{c.name}'s {name} has {t} Tiers of Wounded and cannot be used")
        if s.wounded_penalty_per_tier:
            mods.append(
                Modifier(
                    value=-t * s.wounded_penalty_per_tier,
                    reason=f"{name} Wounded (Tier {t}): using the part",
                    key="wounded",
                    source=c.id,
                )
            )
    return mods


def wounded_limbs_modifiers(
    state: GameState, c: Creature, what: str, kinds: frozenset[str] | None = None
) -> list[Modifier]:
    """Wounded on a roll that uses the creature's limbs together (of `kinds`, or all): a defense in
    `limb_defenses`, the defenses the reference counts as using limbs; Balance on Uneven Ground with the legs.
    `wounded_penalty_per_tier` x the Tier of its most Wounded such limb still on it (ASSUMPTION: they move at once,
    so the worst one holds the others back; one penalty, not one per limb). Such a roll is never refused for a
    limb past `wounded_unusable_at`: the creature does without that limb."""
    per = state.settings.wounded_penalty_per_tier
    if not per or not any_wounded(c):
        return []
    hurt = [
        (wounded_tiers(c, lb.id), lb.name)
        for lb in c.limbs
        if (kinds is None or lb.kind in kinds) and not _severed(c, lb.id)
    ]
    t, name = max(hurt, default=(0, ""), key=lambda h: h[0])
    if not per or not t:
        return []
    why = f"{name} Wounded (Tier {t}): the most Wounded limb, on {what}"
    return [Modifier(value=-t * per, reason=why, key="wounded", source=c.id)]


def _severed(c: Creature, part: str) -> bool:
    p = c.part(part)
    return p is not None and p.severed
