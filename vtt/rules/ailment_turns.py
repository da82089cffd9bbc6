"""What Ailments do as a creature's turn starts and ends (reference §5.1, §5.2); see `ailments` for the rules.

- Turn start: Slowed fills Movement Pips, Strangled costs Energy Pips for want of air.
- Turn end: each reducible Ailment rolls its defense to drop a Tier; a failed Trauma roll deals Energy damage.
"""

from __future__ import annotations

from vtt.rules.ailments import (
    REDUCTION_DL,
    blocked_tiers,
    blocks,
    defense_of,
    describe_source,
    exhausted,
    forget_failures,
    knowledge_modifiers,
    lower,
    lower_trauma,
    sources,
    tier,
)
from vtt.rules.damage import Hit, deal, suffer_pips
from vtt.rules.death import exhaustion_death
from vtt.rules.dice import DiceSource, roll
from vtt.rules.events import Event
from vtt.rules.model import Creature, GameState
from vtt.rules.txn import Tx
from vtt.rules.words import count


def reduce_at_turn_end(tx: Tx, creature_id: str, dice: DiceSource) -> list[Event]:
    """reference §5.1: each reducible Ailment rolls its listed defense at DL 6 + Tier - earlier consecutive
    failures; success lowers it by 1 Tier. One whose every Tier comes from a lasting ongoing source is not rolled."""
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
        if blocked_tiers(state, c, name) >= t:
            events.append(held_event(state, c, name, t))
            continue
        failures = c.ailment_failures.get(name, 0)
        dl = REDUCTION_DL + t - failures
        mods = exhausted(c, "Skill rolls") + knowledge_modifiers(state, c, skill)
        r = roll(dice, f"{c.name}: {skill} against {name}", c.skill(skill), mods)
        ok = r.result >= dl and not (state.settings.fumble_always_fails and r.fumble)
        death = exhaustion_death(tx, creature_id, skill, r)
        m = tx.creature(creature_id)
        if ok:
            forget_failures(m, name)
            if name == "Trauma":
                lower_trauma(tx, creature_id, 1)
            else:
                lower(state, m, name, 1)
            text = f"{c.name} rolls {skill} against {name} (DL {dl}): {r.result}, {name} drops to Tier {t - 1}."
        else:
            m.ailment_failures = {**m.ailment_failures, name: failures + 1}  # replaced: see `txn._REPLACED`
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
        if death:
            return events + death
        if name == "Trauma" and not ok:
            events += trauma_damage(tx, creature_id, t, dice)
    return events


def trauma_damage(tx: Tx, creature_id: str, t: int, dice: DiceSource) -> list[Event]:
    """Trauma (reference §5.2, older revision FACT): failing its Endure defense deals half its Tier as damage to
    the Energy Pool; table setting `trauma_energy_damage`."""
    amount = t // 2
    if not tx.state.settings.trauma_energy_damage or amount <= 0:
        return []
    hit = Hit(
        target=creature_id,
        amount=amount,
        label="Trauma",
        physical=False,
        apply_size=False,
        targeted=False,
        pool="energy",
    )
    return deal(tx, hit, dice)


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
            text=f"{c.name} is Slowed (Tier {tier(c, 'Slowed')}): {count(pips, 'Movement Pip')}; "
            f"{count(econ.movement_left, 'space')} left.",
            target=creature_id,
            data={"pips": pips, "movement_left": econ.movement_left},
        )
    ]


def strangled_at_turn_start(tx: Tx, creature_id: str) -> list[Event]:
    """Strangled: no breathing; as its turn starts, `strangled_energy_per_tier` x Tier Energy Pips."""
    c = tx.get(creature_id)
    t = tier(c, "Strangled")
    pips = t * tx.state.settings.strangled_energy_per_tier
    if not pips or c.dead:
        return []
    return [
        Event(
            kind="strangled",
            text=f"{c.name} is Strangled (Tier {t}) and cannot breathe: {count(pips, 'Energy Pip')}.",
            target=creature_id,
            data={"tier": t, "pips": pips},
        ),
        *suffer_pips(
            tx,
            creature_id,
            "energy",
            pips,
            "Energy Pip for want of air" if pips == 1 else "Energy Pips for want of air",
        ),
    ]


def held_event(state: GameState, c: Creature, name: str, t: int) -> Event:
    why = sorted(
        {describe_source(state, r.source) for r in sources(state, c) if r.ailment == name and blocks(state, c, r)}
    )
    return Event(
        kind="ailment_held",
        text=f"{c.name}'s {name} (Tier {t}) cannot be lowered while its source lasts: {', '.join(why)}.",
        target=c.id,
        data={"ailment": name, "tier": t},
    )
