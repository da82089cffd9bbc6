"""Time passing in minutes, told by the Soulweaver (`pass_time`).

seed-000 Ready: "After each minute, roll Manifest to not lose the effect, DL equal to the number of minutes you have
had it Ready." After each minute, every living creature keeping an ability Ready (`Limb.readied`) counts one more
minute (`Readied.minutes`) and rolls Manifest for it (the ability's skill, Dazzled and Exhausted as on any Manifest
roll) at DL equal to those minutes (+2 when Vulnerable to its type, seed-004); on failure the ability is lost.
Creatures roll in the board's order, a creature's limbs in order, minute after minute.

After each minute too, each creature in Conflict rolls Overexertion (reference §3; see `conflict`), after its
Ready rolls. Rounds and ongoing effects' durations are not counted by it.
"""

from __future__ import annotations

from vtt.rules import ailments, conflict
from vtt.rules.abilities import ability
from vtt.rules.death import exhaustion_death
from vtt.rules.dice import DiceSource, roll
from vtt.rules.events import Event
from vtt.rules.manifest_roll import dl_of, readied_limbs, skill_of
from vtt.rules.txn import Tx
from vtt.rules.words import count


def pass_time(tx: Tx, minutes: int, dice: DiceSource) -> list[Event]:
    events = [
        Event(
            kind="time",
            text=f"{count(minutes, 'minute')} {'passes' if minutes == 1 else 'pass'}.",
            data={"minutes": minutes},
        )
    ]
    for _ in range(minutes):
        for cid in list(tx.state.creatures):
            events += _keep_ready(tx, cid, dice)
            events += conflict.after_a_minute(tx, cid, dice)
    return events


def _keep_ready(tx: Tx, cid: str, dice: DiceSource) -> list[Event]:
    state = tx.state
    c = tx.get(cid)
    events: list[Event] = []
    if c.dead:
        return events
    for limb in readied_limbs(c):
        readied = limb.readied
        assert readied is not None
        held = readied.minutes + 1
        ab = ability(readied.ability)
        dl, notes = dl_of(state, c, ab, held)
        skill = skill_of(state, ab)
        r = roll(
            dice,
            f"{c.name}: Manifest to keep {ab.name} Ready ({skill})",
            c.skill(skill),
            ailments.manifest_modifiers(c, state, skill),
        )
        ok = r.result >= dl and not (state.settings.fumble_always_fails and r.fumble)
        mine = tx.limb(cid, limb.id)
        assert mine is not None
        mine.readied = readied.model_copy(update={"minutes": held}) if ok else None
        why = f" ({'; '.join(notes)})" if notes else ""
        events.append(
            Event(
                kind="ready_check",
                text=f"{c.name} has kept {ab.name} Ready {count(held, 'minute')}: "
                f"Manifest {r.result} against DL "
                f"{dl}{why}" + (": kept." if ok else ": lost."),
                target=cid,
                rolls=[r],
                data={"ability": ab.id, "dl": dl, "kept": ok, "minutes": held},
            )
        )
        events += exhaustion_death(tx, cid, skill, r)
        if tx.get(cid).dead:
            break
    return events
