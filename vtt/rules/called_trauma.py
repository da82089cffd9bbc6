"""Called Shot's Trauma, chosen once the Serious Injury is known (seed-000 Called Shot: "If you cause Serious
Injury, you may replace each Tier of Wounded with 2 Tiers of Trauma").

A Called Shot's Serious Injury is caused as Wounded; the attacker's controller then gets a decision: keep it, or
replace those Wounded Tiers on the struck part with twice as many Tiers of Trauma. Only the Tiers this injury
caused and still on the creature are replaced.
"""

from __future__ import annotations

from vtt.rules.events import Event, RuleError
from vtt.rules.model import SOULWEAVER, Decision
from vtt.rules.txn import Tx

TRAUMA_PER_WOUNDED = 2


def offer(tx: Tx, attacker: str, target: str, part_id: str, wounded: int) -> None:
    """The attacker's choice, after a Called Shot caused `wounded` Tiers of Wounded to `part_id`."""
    state = tx.state
    a, t = state.creatures[attacker], state.creatures[target]
    part = t.part(part_id)
    where = f"{t.name}'s {part.name if part else part_id}"
    tx.pending().append(
        Decision(
            id=state.new_id("d"),
            kind="trauma",
            to=a.controller or SOULWEAVER,
            creature=attacker,
            prompt=f"{a.name}'s Called Shot caused Tier {wounded} Wounded to {where}. Keep it, or replace it with "
            f"Tier {TRAUMA_PER_WOUNDED * wounded} Trauma?",
            options=["wounded", "trauma"],
            payload={"target": target, "part": part_id, "wounded": wounded},
        )
    )


def answer(tx: Tx, decision: Decision, trauma: bool) -> list[Event]:
    state = tx.state
    state.pending = [d for d in state.pending if d.id != decision.id]
    target, part_id = str(decision.payload["target"]), str(decision.payload["part"])
    if target not in state.creatures:
        raise RuleError("the creature struck by that Called Shot is gone")
    t = tx.creature(target)
    if not trauma:
        return [Event(kind="trauma_choice", text=f"The Wounded on {t.name} stays.", actor=decision.creature)]
    part = tx.part(target, part_id)
    wounded = min(int(decision.payload["wounded"]), t.ailments.get("Wounded", 0))
    if part is not None:
        wounded = min(wounded, part.wounded)
        part.wounded -= wounded
        part.trauma += TRAUMA_PER_WOUNDED * wounded
    if wounded <= 0:
        return [Event(kind="trauma_choice", text=f"{t.name} has no such Wounded left to replace.")]
    left = t.ailments.get("Wounded", 0) - wounded
    if left > 0:
        t.ailments["Wounded"] = left
    else:
        t.ailments.pop("Wounded", None)
    t.ailments["Trauma"] = t.ailments.get("Trauma", 0) + TRAUMA_PER_WOUNDED * wounded
    return [
        Event(
            kind="trauma_choice",
            text=f"Tier {wounded} Wounded on {t.name} becomes Tier {TRAUMA_PER_WOUNDED * wounded} Trauma.",
            actor=decision.creature,
            target=target,
            data={"part": part_id, "wounded": wounded, "trauma": TRAUMA_PER_WOUNDED * wounded},
        )
    ]
