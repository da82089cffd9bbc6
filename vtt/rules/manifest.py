"""Manifest, Ready and Dismiss (seed-000 conflict actions; reference §4.1, §8).

- Manifest: "Manifesting a Spell or a Talent is DL 6 and costs 1 Energy. Manifesting a Spell also uses a Free
  Limb, costs 1 word, costs an additional word if Boosted, and makes you its caster. If the ability makes an
  attack without specifying the attack roll, use the result of the Manifest roll." A Major Action (reference §3);
  the roll is Magic for a Spell, Endure for a Talent (§4.1); Vulnerable to the ability's type: "increase the DL to
  Manifest abilities of the type by 2" (seed-004). Costs are paid when declared (§1.1), so a failed roll still
  spends them. The Energy is paid with `suffer_pips` ("Your Energy Pool being full does not prevent you from paying
  costs": each Pip past full is Tier 1 Exhausted, seed-004). Not in a Defensive Stance ("you cannot attack or
  Manifest Spells or Talents"); Manifesting bars the stance for the rest of the turn.
- Ready: "Manifest a spell or Talent to keep it in your Free Limb without having any effect until you complete it
  as a Minor Action. If you pay Energy before completing it, lose the effect. After suffering Grit Injury, roll
  Manifest to not lose the effect, DL 3 + Injury." The Manifest roll is made (and may be Hindered) when Readying;
  the effect, with that roll's result, happens on completion, on a target chosen then. The limb keeping it is not
  free. The roll after Grit Injury (`manifest_roll.after_grit_injury`) is made by `damage.deal`. "After each
  minute, roll Manifest to not lose the effect, DL equal to the number of minutes you have had it Ready": the
  Soulweaver's `pass_time` (see `minutes`).
- Line of sight: an ability on another creature needs it (table setting `manifest_needs_sight`; an ability's
  `needs_sight` False does without), see `sight`. A swallowed creature is off the board: no ability reaches it.
- Wounded (reference §5.2 ASSUMPTION): the Free Limb a Spell is Manifested with, or the limb an ability is
  Readied in, gives its Wounded penalty on the roll and cannot be used past `wounded_unusable_at`; unless named,
  the least Wounded Free Limb is used.
- A Flurry's lost damage dice ("half that number on damage rolls" for 1 round) come off an ability's damage.
- Dismiss: "End an ongoing Spell or Talent you Manifested. Dismissing a Spell uses a Free Limb." The seed names no
  cost: table setting `dismiss_cost` (a Minor Action by default).

Table settings for what the sources leave open: `words_per_turn` (words a creature may spend each turn, 2),
`manifest_dl`, `spell_skill`, `talent_skill`. A "Free Limb" here is a free limb that can grip (as for Grab).
"""

from __future__ import annotations

from vtt.rules import ailments, attacks, sight, tactics
from vtt.rules.abilities import Ability, ability
from vtt.rules.checks import AttackResult
from vtt.rules.damage import Hit, deal, heal, suffer_pips
from vtt.rules.death import exhaustion_death
from vtt.rules.dice import DiceSource, Modifier, Roll
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.manifest_roll import dl_of as dl_of
from vtt.rules.manifest_roll import readied_limbs as readied_limbs
from vtt.rules.manifest_roll import skill_of as skill_of
from vtt.rules.model import Creature, Effect, GameState, Limb, Readied
from vtt.rules.situational import manifest_roll
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.stance import in_stance, require_can_attack
from vtt.rules.turns import require_active, spend
from vtt.rules.txn import Tx
from vtt.rules.words import count


def known(c: Creature, ability_id: str) -> Ability:
    ab = ability(ability_id)
    if ability_id not in c.abilities:
        raise RuleError(f"{c.name} does not know {ab.name}")
    return ab


def free_limbs(c: Creature) -> list[Limb]:
    return [lb for lb in c.limbs if lb.free and lb.can_grip]


def pick_free_limb(c: Creature, limb_id: str | None, why: str) -> Limb:
    """The Free Limb named, or else the least Wounded one (the first of equals)."""
    free = free_limbs(c)
    if limb_id is None:
        if not free:
            raise RuleError(f"{c.name} has no Free Limb: {why}")
        return min(free, key=lambda lb: ailments.wounded_tiers(c, lb.id))
    limb = c.limb(limb_id)
    if limb is None:
        raise RuleError(f"{c.name} has no limb {limb_id!r}")
    if limb not in free:
        raise RuleError(f"{c.name}'s {limb.name} is not a Free Limb: {why}")
    return limb


def words_left(state: GameState, creature_id: str) -> int:
    econ = state.economy.get(creature_id)
    spent = econ.words_spent if econ is not None else 0
    return max(0, state.settings.words_per_turn - spent)


def why_not_manifest(state: GameState, c: Creature, ab: Ability, boosted: bool, readying: bool) -> str | None:
    """Why `c` cannot Manifest (or Ready) `ab` now, its targets and its Major Action aside; None when it can."""
    if ab.id not in c.abilities:
        return f"{c.name} does not know {ab.name}"
    if in_stance(state, c.id):
        return f"{c.name} is in a Defensive Stance and cannot Manifest Spells or Talents"
    if boosted and ab.boost <= 0:
        return f"{ab.name} cannot be Boosted"
    cost = ab.word_cost(boosted)
    silenced = ailments.speech_error(state, c) if cost else None
    if silenced is not None:
        return f"{silenced} the words {ab.name} costs"
    if cost > words_left(state, c.id):
        return f"{ab.name} costs {count(cost, 'word')} and {c.name} has {words_left(state, c.id)} left this turn"
    if (ab.is_spell or readying) and not free_limbs(c):
        return f"{c.name} has no Free Limb to {'keep it Ready' if readying else 'Manifest a Spell'}"
    if (ab.is_spell or readying) and all(ailments.wounded_unusable(state, c, lb.id) for lb in free_limbs(c)):
        return f"{c.name}'s every Free Limb is too Wounded to be used"
    return None


def why_not_target(state: GameState, occ: Occupancy, c: Creature, ab: Ability, target_id: str) -> str | None:
    """Why `target_id` cannot be the ability's target now; None when it can."""
    eff = ab.effect
    t = state.creatures.get(target_id)
    if t is None:
        return f"there is no creature {target_id!r}"
    if eff.self_only and target_id != c.id:
        return f"{ab.name} affects only its manifester"
    if eff.attacks and target_id == c.id:
        return f"{c.name} cannot attack itself with {ab.name}"
    if t.dead:
        return f"{t.name} is dead"
    if t.swallowed_by is not None and target_id != c.id:
        return f"{t.name} has been swallowed: it is off the board"
    dist = footprint_distance(grid_of(state), occ.cells[c.id], occ.cells[target_id])
    if dist > eff.range:
        return f"{t.name} is {count(dist, 'space')} away; {ab.name} reaches {eff.range}"
    if state.settings.manifest_needs_sight and eff.needs_sight:
        return sight.why_not_in_sight(state, occ, c, t)
    return None


def targets(state: GameState, occ: Occupancy, c: Creature, ab: Ability) -> list[str]:
    """Every creature the ability may affect now."""
    return [cid for cid in state.creatures if why_not_target(state, occ, c, ab, cid) is None]


def _target(state: GameState, c: Creature, ab: Ability, target: str | None) -> str:
    tid = c.id if target is None and not ab.effect.attacks else target
    if tid is None:
        raise RuleError(f"{ab.name} attacks: choose a target")
    if (why := why_not_target(state, Occupancy(state), c, ab, tid)) is not None:
        raise RuleError(why)
    return tid


def lose_readied(tx: Tx, creature_id: str, why: str) -> list[Event]:
    c = tx.get(creature_id)
    if not any(lb.readied for lb in c.limbs):
        return []
    m = tx.creature(creature_id)
    events: list[Event] = []
    for lb in m.limbs:
        if lb.readied is not None:
            name = ability(lb.readied.ability).name
            tx.own(creature_id, lb).readied = None
            events.append(
                Event(
                    kind="ready_lost",
                    text=f"{m.name} loses the Readied {name} ({why}).",
                    actor=creature_id,
                    data={"ability": name, "limb": lb.id},
                )
            )
    return events


def pay_energy(tx: Tx, creature_id: str) -> list[Event]:
    """Pay the 1 Energy: a Pip into the Energy Pool, even when full (seed-004); a Readied effect is lost."""
    events = suffer_pips(tx, creature_id, "energy", 1, what="Energy Pip (the cost of Manifesting)")
    return events + lose_readied(tx, creature_id, "Energy was paid before completing it")


def is_physical(state: GameState, ab: Ability) -> bool:
    """seed-004: "Attacks made with a Might or Finesse Skill are physical attacks. The Material Elements are always
    physical. Magical abilities that deal damage without requiring a Might or Finesse attack deal magical damage."
    The attack is the Manifest roll: physical when its skill is one of `physical_skills` (a Talent's Endure), when
    the ability is of a Material Element, or when the ability says so."""
    s = state.settings
    return ab.effect.physical or skill_of(state, ab) in s.physical_skills or ab.element in s.material_elements


def _pay(tx: Tx, c: Creature, ab: Ability, boosted: bool) -> list[Event]:
    spend(tx, c.id, major=1)
    econ = tx.economy(c.id)
    econ.manifested = True
    econ.words_spent += ab.word_cost(boosted)
    return pay_energy(tx, c.id)


def _manifest_roll(
    tx: Tx, c: Creature, ab: Ability, boosted: bool, dice: DiceSource, verb: str, limb: Limb | None
) -> tuple[Roll, int, bool, Event]:
    state = tx.state
    dl, notes = dl_of(state, c, ab)
    skill = skill_of(state, ab)
    mods: list[Modifier] = ailments.manifest_modifiers(c, state, skill)
    mods += ailments.wounded_use_modifiers(state, c, [limb.id]) if limb is not None else []
    # the roll is the attack roll of an ability that attacks (seed-000), so it loses d12 as attack rolls do (Flurry)
    changes = ailments.attack_dice_changes(state, c, is_physical(state, ab)) if ab.effect.attacks else []
    r = manifest_roll(tx, dice, c.id, f"{c.name}: Manifest {ab.name} ({skill})", c.skill(skill), mods, changes)
    ok = r.result >= dl and not (state.settings.fumble_always_fails and r.fumble)
    why = f" ({'; '.join(notes)})" if notes else ""
    boost = " Boosted" if boosted else ""
    text = f"{c.name} {verb}{boost} {ab.name}: {skill} {r.result} against DL {dl}{why}: " + (
        "it is Manifested." if ok else "it fails."
    )
    if ok and ab.is_spell:
        text = text[:-1] + f", {c.name} is its caster."
    event = Event(
        kind="manifest",
        text=text,
        actor=c.id,
        rolls=[r],
        data={
            "ability": ab.id,
            "kind": ab.kind,
            "dl": dl,
            "success": ok,
            "boosted": boosted,
            "caster": c.id if ab.is_spell else None,
            "ready": verb == "readies",
        },
    )
    return r, dl, ok, event


def manifest(
    tx: Tx, creature: str, ability_id: str, target: str | None, boosted: bool, limb: str | None, dice: DiceSource
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    ab = known(c, ability_id)
    if (why := why_not_manifest(state, c, ab, boosted, readying=False)) is not None:
        raise RuleError(why)
    used = pick_free_limb(c, limb, "Manifesting a Spell uses a Free Limb") if ab.is_spell else None
    tid = _target(state, c, ab, target)
    if ab.effect.attacks:
        require_can_attack(state, c.id)
    events = _pay(tx, c, ab, boosted)
    r, dl, ok, event = _manifest_roll(tx, c, ab, boosted, dice, "Manifests", used)
    events += [event, *exhaustion_death(tx, c.id, skill_of(state, ab), r)]
    if not ok or tx.get(c.id).dead:
        return events
    return events + _effect(tx, c.id, ab, boosted, tid, r, dl, dice)


def ready(tx: Tx, creature: str, ability_id: str, boosted: bool, limb: str | None, dice: DiceSource) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    ab = known(c, ability_id)
    if (why := why_not_manifest(state, c, ab, boosted, readying=True)) is not None:
        raise RuleError(why)
    kept = pick_free_limb(c, limb, "a Readied Spell or Talent is kept in a Free Limb")
    kept_in = kept.id
    events = _pay(tx, c, ab, boosted)
    r, dl, ok, event = _manifest_roll(tx, c, ab, boosted, dice, "readies", kept)
    events += [event, *exhaustion_death(tx, c.id, skill_of(state, ab), r)]
    if ok and not tx.get(c.id).dead:
        m = tx.creature(c.id)
        held = tx.limb(c.id, kept_in)
        assert held is not None
        held.readied = Readied(ability=ab.id, roll=r, dl=dl, boosted=boosted)
        events.append(
            Event(
                kind="ready",
                text=f"{m.name} keeps {ab.name} Ready in its {held.name} ({r.result}): no effect until it is "
                "completed as a Minor Action.",
                actor=c.id,
                data={"ability": ab.id, "limb": kept_in, "result": r.result},
            )
        )
    return events


def complete_ready(tx: Tx, creature: str, target: str | None, limb: str | None, dice: DiceSource) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    kept = [lb for lb in readied_limbs(c) if limb is None or lb.id == limb]
    if not kept:
        raise RuleError(f"{c.name} has nothing Ready" + (f" in {limb!r}" if limb else ""))
    if len(kept) > 1:
        raise RuleError(f"{c.name} keeps more than one ability Ready: name the limb")
    held = kept[0]
    readied = held.readied
    assert readied is not None
    ab = ability(readied.ability)
    tid = _target(state, c, ab, target)
    if ab.effect.attacks:
        require_can_attack(state, c.id)
    spend(tx, c.id, minor=1)
    mine = tx.limb(c.id, held.id)
    assert mine is not None
    mine.readied = None
    events = [
        Event(
            kind="ready_completed",
            text=f"{c.name} completes the Readied {ab.name} (Manifest result {readied.roll.result}).",
            actor=c.id,
            rolls=[readied.roll],
            data={"ability": ab.id, "result": readied.roll.result},
        )
    ]
    return events + _effect(tx, c.id, ab, readied.boosted, tid, readied.roll, readied.dl, dice)


def _effect(
    tx: Tx, caster: str, ab: Ability, boosted: bool, target: str, r: Roll, dl: int, dice: DiceSource
) -> list[Event]:
    """The ability's effect on `target`, after a Manifest roll `r` that reached `dl`."""
    eff = ab.effect
    extra = ab.boost if boosted else 0
    if eff.kind == "damage":
        tx.economy(caster).attacked = True
        spec = attacks.AttackSpec(
            action="manifest",
            attacker=caster,
            target=target,
            dl=dl,
            defense_skill=eff.defense or "Elude",
            attack=r,
            physical=is_physical(tx.state, ab),
            params={"ability": ab.id, "boosted": boosted},
        )
        return attacks.resolve(tx, spec, dice)
    if eff.kind == "heal":
        return heal(tx, target, eff.amount + extra, caster, ab.element, eff.pool, dice)
    rounds = eff.rounds + extra
    e = Effect(
        id=tx.state.new_id("e"),
        name=ab.name,
        creator=caster,
        subject=target,
        modifiers=dict(eff.modifiers),
        rounds=rounds,
        ability=ab.id,
    )
    tx.effects().append(e)
    mods = ", ".join(f"{v:+d} {k.replace('_', ' ')}" for k, v in eff.modifiers.items())
    return [
        Event(
            kind="effect",
            text=f"{ab.name} takes hold on {tx.get(target).name} for {count(rounds, 'round')}: {mods}.",
            actor=caster,
            target=target,
            data={"effect": e.id, "ability": ab.id, "rounds": rounds},
        )
    ]


@attacks.on_result("manifest")
def _manifest_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    """seed-000: the Manifest roll is the attack; on success the ability deals its damage."""
    if not result.success:
        return []
    ab = ability(str(spec.params["ability"]))
    eff = ab.effect
    amount = eff.amount + (ab.boost if spec.params.get("boosted") else 0)
    hit = Hit(
        target=spec.target,
        amount=amount,
        attacker=spec.attacker,
        label=ab.name,
        changes=tuple(tactics.flurry_damage_changes(tx.state, tx.get(spec.attacker))),
        physical=is_physical(tx.state, ab),
        element=ab.element,
        strike_type=eff.strike_type,
        from_spell=ab.is_spell,
        attack_faces=spec.attack.faces,
    )
    return deal(tx, hit, dice)


def ongoing(state: GameState, creature_id: str) -> list[Effect]:
    """The ongoing Spells and Talents the creature Manifested, which it may Dismiss."""
    return [e for e in state.effects if e.creator == creature_id and e.ability is not None]


def why_not_dismiss(state: GameState, c: Creature, e: Effect) -> str | None:
    if e.creator != c.id or e.ability is None:
        return f"{c.name} did not Manifest {e.name}"
    if ability(e.ability).is_spell and not free_limbs(c):
        return f"{c.name} has no Free Limb: Dismissing a Spell uses one"
    return None


def dismiss(tx: Tx, creature: str, effect_id: str, limb: str | None, target: str | None = None) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    e = next((x for x in state.effects if x.id == effect_id), None)
    if e is None:
        raise RuleError(f"there is no ongoing effect {effect_id!r}")
    if (why := why_not_dismiss(state, c, e)) is not None:
        raise RuleError(why)
    if target is not None and target != e.subject:
        raise RuleError(f"{e.name} is not on {target!r}")
    if e.ability is not None and ability(e.ability).is_spell:
        pick_free_limb(c, limb, "Dismissing a Spell uses a Free Limb")
    cost = state.settings.dismiss_cost
    spend(tx, c.id, major=1 if cost == "major" else 0, minor=1 if cost == "minor" else 0)
    state.effects = [x for x in state.effects if x.id != effect_id]
    return [
        Event(
            kind="effect_ended",
            text=f"{c.name} Dismisses {e.name} on {tx.get(e.subject).name}.",
            actor=c.id,
            target=e.subject,
            data={"effect": e.id, "dismissed": True},
        )
    ]
