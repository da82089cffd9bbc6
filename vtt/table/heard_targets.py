"""Attacking a creature a seat only hears (fog of war): by the opaque id its seat knows it by.

Reference §2.6/§5.2: an attack on a creature you cannot see takes Sight Concealment (`senses`, from the attacker's
own vision). A seat that hears a creature knows its spaces under an opaque id of its own (`vtt.table.fog`), never
its real id, name or anything else; such a creature may be struck (melee, or a ranged shot) by that id:

- the menu offers it as a Strike's target by its opaque id, with nothing that depends on the creature itself (no
  roll preview, which would show its defense; no path; of the choices only the weapon's Strike type, not the
  damage dice its size changes, Nimble against a bigger creature nor a Called Shot at its parts);
- the command the page sends names the opaque id; the table maps it back to the real creature on the server, and
  only for a plain Strike (`PLAIN_FIELDS`): a field that would ask about the creature is refused in plain words;
- the reply, the log and everything else the seat receives are worded by its seat view as for any creature it
  cannot see ("a creature you cannot see"); the Concealment comes from the rules.

A creature neither seen nor heard is attacked only by a targeted attack on its space (`strike_space`), which the
menu offers on the spaces the seat perceives, remembers or hears a creature in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from vtt.rules.engine import ActionOption, TargetOption

if TYPE_CHECKING:
    from vtt.table.fog import SeatVision

HEARD_ACTIONS = frozenset({"strike"})
"""Menu actions (with no command of their own) offered against a creature only heard."""
PLAIN_FIELDS = frozenset(
    {"type", "creature", "target", "weapon", "limb", "strike_type", "max_dice", "minor", "ranged", "long_shot"}
)
"""The fields of a Strike on a creature only heard: none asks about the creature itself."""
KEPT_CHOICES = ("strike_type",)
"""Choices kept against a creature only heard: its weapon's, not the damage dice (which its size changes)."""
NOT_PLAIN = "a creature you only hear can be struck, but not aimed at more closely than that"


def real_ids(vision: SeatVision | None) -> dict[str, str]:
    """Opaque id -> real id of every creature the seat only hears (for the server only)."""
    if vision is None:
        return {}
    return {opaque: cid for cid, opaque in vision.heard_ids.items()}


def unmask(command: Any, vision: SeatVision | None) -> tuple[Any, str | None, str | None]:
    """A command as the rules read it: a Strike naming a creature the seat only hears by its opaque id names the
    real creature instead. Returns the command, the real id it now names (None: it names none by opaque id), and
    why it is refused (None: it is not)."""
    if not isinstance(command, dict):
        return command, None, None
    target = command.get("target")
    real = real_ids(vision).get(target) if isinstance(target, str) else None
    if real is None:
        return command, None, None
    if command.get("type") != "strike" or any(
        key not in PLAIN_FIELDS and value not in (None, False, 0) for key, value in command.items()
    ):
        return command, None, NOT_PLAIN
    return {**command, "target": real}, real, None


def heard_target(cmd: BaseModel, vision: SeatVision | None) -> str | None:
    """The creature a parsed command strikes that the seat only hears, when the command is a plain Strike on it (as
    `unmask` leaves one): for checking a game's log again, which names it by its real id."""
    target = getattr(cmd, "target", None)
    if vision is None or not isinstance(target, str) or target not in vision.heard_ids:
        return None
    opaque = vision.heard_ids[target]
    dumped = cmd.model_dump(mode="json", exclude_defaults=True)
    return target if unmask({**dumped, "type": getattr(cmd, "type", ""), "target": opaque}, vision)[2] is None else None


def heard_options(actions: list[ActionOption], vision: SeatVision | None) -> list[ActionOption]:
    """The menu with each target the seat only hears named by its opaque id, in a plain Strike only (see the module's
    docstring); every other option naming one is left as it is (the seat view leaves the real id out)."""
    if vision is None or not vision.heard_ids:
        return actions
    out: list[ActionOption] = []
    for a in actions:
        if a.action not in HEARD_ACTIONS or a.command is not None:
            out.append(a)
            continue
        targets = [_masked(a, t, vision) if t.target in vision.heard_ids else t for t in a.targets]
        out.append(a.model_copy(update={"targets": targets}) if targets != a.targets else a)
    return out


def _masked(option: ActionOption, t: TargetOption, vision: SeatVision) -> TargetOption:
    """The target under its opaque id, with only what does not depend on the creature behind it; its command is
    the option's with the opaque id as the target (the table maps it back)."""
    opaque = vision.heard_ids[t.target or ""]
    choices = {k: v for k, v in t.choices.items() if k in KEPT_CHOICES}
    params = {k: v for k, v in t.params.items() if k in PLAIN_FIELDS}
    return TargetOption(target=opaque, choices=choices, params=params, send={**option.send, "target": opaque, **params})
