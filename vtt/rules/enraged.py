"""Enraged (reference §5.2, FACT from the newer Ailments page).

"Penalty equal to Tier on Knowledge rolls. You cannot roll fewer damage dice, must Focus, and can only target
subjects of your Focus. At Tier 6+ you are always in Conflict."

- Knowledge rolls: the seeds name "Knowledge rolls" beside "Craft" rolls but no skill list (gap): table setting
  `knowledge_skills` lists the skills whose rolls are Knowledge rolls; each roll of one of them (a defense, an
  Ailment's defense, a Manifest roll) takes -Tier (`ailments.knowledge_modifiers`, beside the other Ailments'
  penalties on rolls).
- "cannot roll fewer damage dice": a command asking for fewer damage dice (`max_dice`) is refused, and the menu
  offers no such choice.
- "must Focus": an Enraged creature cannot drop its Focus, and without a Focus it can target nothing until it
  chooses one (Focus stays open to it).
- "can only target subjects of your Focus": every creature a command of its names (the target of a Strike, an
  Overpower, a Collision, a Distract, a Manifest, a Soothe...) must be its Focus, and a space it attacks (a
  targeted space, a wall, the ground) must be the space it is Focused on; it is offered a Hinder only against its
  Focus (`may_target`, see `reactions`). Targeting itself is not targeting a
  subject (a Talent on oneself stays open); attacking the stomach it is swallowed in is its only target there.
- "At Tier 6+ you are always in Conflict": `conflict.in_conflict` is true for it whatever the Soulweaver's mark,
  so it rolls Overexertion after each minute (see `conflict`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtt.rules.commands import Command, DropFocus, SetFocus, Strike, StrikeSpace, StrikeStomach, creature_refs
from vtt.rules.events import RuleError
from vtt.rules.model import Creature, GameState

if TYPE_CHECKING:
    from vtt.rules.offers import ActionOption

SPACE_ATTACKS = frozenset({"strike_space", "strike_wall", "strike_ground"})
"""Menu actions that attack a space rather than a creature."""


ENRAGED = "Enraged"


def tier(c: Creature) -> int:
    return c.ailments.get(ENRAGED, 0)


def may_target(c: Creature, other: str) -> bool:
    """Whether `c` may make an attack aimed at the creature `other` (a Hinder aims at the one it hinders)."""
    return not tier(c) or c.focus == other


def _focus_name(state: GameState, c: Creature) -> str:
    if c.focus is not None:
        f = state.creatures.get(c.focus)
        return f.name if f is not None else c.focus
    return f"the space {c.focus_space}"


def check_command(state: GameState, cmd: Command, c: Creature | None) -> None:
    """Refuse what an Enraged creature `c` (the creature the command's `creature` names, if any) may not do (the
    engine does not ask this of the Soulweaver's own commands: they are not limited)."""
    if c is None or not c.ailments.get(ENRAGED):
        return
    why = f"{c.name} is Enraged (Tier {tier(c)})"
    if isinstance(cmd, DropFocus):
        raise RuleError(f"{why} and must keep its Focus")
    if getattr(cmd, "max_dice", None) is not None:
        raise RuleError(f"{why} and cannot roll fewer damage dice")
    if isinstance(cmd, SetFocus | StrikeStomach):
        return
    named = creature_refs(cmd) - {c.id}
    space = cmd.space if isinstance(cmd, Strike | StrikeSpace) else None
    if not named and space is None:
        return
    if c.focus is None and c.focus_space is None:
        raise RuleError(f"{why}: it must choose a Focus before it targets anything")
    others = sorted(n for n in named if n != c.focus)
    if others:
        names = ", ".join(state.creatures[n].name if n in state.creatures else n for n in others)
        raise RuleError(f"{why} and can only target its Focus, {_focus_name(state, c)}: not {names}")
    if space is not None and (space[0], space[1]) != c.focus_space:
        raise RuleError(f"{why} and can only target its Focus, {_focus_name(state, c)}: not the space {space}")


def filter_options(state: GameState, c: Creature, options: list[ActionOption]) -> list[ActionOption]:
    """The menu of an Enraged creature: only its Focus as a target, no fewer damage dice, no dropping Focus."""
    if not tier(c):
        return options
    allowed = {None, c.id, c.focus}
    out: list[ActionOption] = []
    for o in options:
        if o.action == "drop_focus":
            continue
        if o.action == "focus":
            out.append(o)
            continue
        targets = []
        for t in o.targets:
            if t.target not in allowed:
                continue
            choices = dict(t.choices)
            if "max_dice" in choices:
                choices["max_dice"] = [None]
            for name in ("targets", "expects"):
                if name in choices:
                    choices[name] = [v for v in choices[name] if v == c.focus]
            targets.append(t.model_copy(update={"choices": choices}))
        if targets and "targets" in o.choose and not targets[0].choices.get("targets"):
            continue
        spaces = o.spaces
        if o.action in SPACE_ATTACKS:
            spaces = [s for s in o.spaces if s == c.focus_space]
        if (o.targets and not targets) or (o.spaces and not spaces):
            continue
        choose = [f for f in o.choose if f != "max_dice" or any(len(t.choices.get(f, [])) > 1 for t in targets)]
        out.append(o.model_copy(update={"targets": targets, "spaces": spaces, "choose": choose}))
    return out
