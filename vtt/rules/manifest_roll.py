"""What a Manifest roll rolls and against what DL, and the rolls that keep an ability Ready.

- reference §4.1: Manifest rolls Magic for a Spell, Endure for a Talent (table settings `spell_skill`,
  `talent_skill`); seed-004 Vulnerable: "increase the DL to Manifest abilities of the type by 2".
- seed-000 Ready: "After suffering Grit Injury, roll Manifest to not lose the effect, DL 3 + Injury" (called by
  `damage.deal`); the roll after each minute is `minutes.pass_time`'s.
"""

from __future__ import annotations

from vtt.rules import ailments
from vtt.rules.abilities import Ability, ability
from vtt.rules.death import exhaustion_death
from vtt.rules.dice import DiceSource, roll
from vtt.rules.events import Event
from vtt.rules.model import Creature, GameState, Limb
from vtt.rules.txn import Tx

VULNERABLE_DL = 2
READY_BASE_DL = 3


def skill_of(state: GameState, ab: Ability) -> str:
    """reference §4.1: Manifest rolls Magic for Spells, Endure for Talents (table settings)."""
    return state.settings.spell_skill if ab.is_spell else state.settings.talent_skill


def dl_of(state: GameState, c: Creature, ab: Ability, base: int | None = None) -> tuple[int, list[str]]:
    """The Manifest DL and why it is raised: Vulnerable to the ability's type is +2 (seed-004)."""
    dl = state.settings.manifest_dl if base is None else base
    notes: list[str] = []
    if ab.element is not None and ab.element in c.vulnerabilities:
        dl += VULNERABLE_DL
        notes.append(f"+{VULNERABLE_DL} DL: Vulnerable to {ab.element}")
    return dl, notes


def readied_limbs(c: Creature) -> list[Limb]:
    return [lb for lb in c.limbs if lb.readied is not None]


def after_grit_injury(tx: Tx, c: Creature, injury: int, dice: DiceSource) -> list[Event]:
    """seed-000 Ready: "After suffering Grit Injury, roll Manifest to not lose the effect, DL 3 + Injury" (`c`: the
    creature that suffered it, as the state of `tx` holds it)."""
    creature_id = c.id
    for lb in c.limbs:
        if lb.readied is not None:
            break
    else:  # no limb holds a Ready ability: nothing to roll
        return []
    events: list[Event] = []
    for lb in readied_limbs(c):
        assert lb.readied is not None
        ab = ability(lb.readied.ability)
        dl, notes = dl_of(tx.state, c, ab, READY_BASE_DL + injury)
        skill = skill_of(tx.state, ab)
        r = roll(
            dice,
            f"{c.name}: Manifest to keep {ab.name} Ready ({skill})",
            c.skill(skill),
            ailments.manifest_modifiers(c, tx.state, skill),
        )
        ok = r.result >= dl and not (tx.state.settings.fumble_always_fails and r.fumble)
        why = f" ({'; '.join(notes)})" if notes else ""
        text = f"{c.name} rolls Manifest to keep {ab.name} Ready after {injury} Grit Injury: {r.result} against DL {dl}"
        events.append(
            Event(
                kind="ready_check",
                text=text + why + (": kept." if ok else ": lost."),
                target=creature_id,
                rolls=[r],
                data={"ability": ab.id, "dl": dl, "kept": ok},
            )
        )
        events += exhaustion_death(tx, creature_id, skill, r)
        if not ok:
            mine = tx.limb(creature_id, lb.id)
            if mine is not None:
                mine.readied = None
    return events
