"""What the token menu says about one option: the short line under it (cost and chance), the sentence and
per-target odds shown on hover or long press, and the odds shown while its target is being chosen.

Targets are named with the seat's names only: the options come through `SeatView.menu`, which leaves out what the
seat may not see."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from vtt.rules.menu_explain import explain
from vtt.rules.menu_odds import injury_text, percent, strike_damage, success_chance
from vtt.rules.model import GameState
from vtt.rules.offers import ActionOption, RollPreview, TargetOption

TIP_TARGETS = 6
"""Targets listed in an option's hover text; more are summed up as "and N more"."""
NOT_PHYSICAL = frozenset({"distract"})
"""Actions whose attack is not a physical one (their defender's physical-only bonuses do not count)."""
COST_WORDS = {"major": "Major", "minor": "Minor"}


@dataclass(frozen=True)
class TargetFacts:
    name: str
    chance: Fraction | None
    damage: str = ""

    def text(self) -> str:
        """ "Bram: 62%, damage 3 dice, likely 2 to 3 Injury"."""
        bits = [percent(self.chance)] if self.chance is not None else []
        if self.damage:
            bits.append(f"damage {self.damage}")
        return f"{self.name}: {', '.join(bits)}" if bits else self.name


@dataclass(frozen=True)
class OptionFacts:
    detail: str
    tip: str
    targets: dict[str, TargetFacts] = field(default_factory=dict)

    def pick_hint(self) -> str:
        """The odds against each target, for the hint shown while a target is chosen."""
        return " · ".join(t.text() for t in self.targets.values() if t.chance is not None)


def cost_text(cost: dict[str, int]) -> str:
    parts = [COST_WORDS[k] for k in ("major", "minor") if cost.get(k)]
    if cost.get("movement"):
        parts.append(f"{cost['movement']} Movement" if cost["movement"] > 1 else "Movement")
    return " · ".join(parts) or "free"


def _chance_range(chances: list[Fraction]) -> str:
    if not chances:
        return ""
    low, high = min(chances), max(chances)
    if percent(low) == percent(high):
        return f"{percent(low)} to succeed"
    return f"{percent(low)} to {percent(high)} to succeed"


def target_facts(
    state: GameState, actor: str, option: ActionOption, t: TargetOption, names: dict[str, str]
) -> TargetFacts | None:
    if t.target is None or t.preview is None:
        return None
    chance = success_chance(state, actor, t.target, t.preview, physical=option.action not in NOT_PHYSICAL)
    weapon = option.params.get("weapon")
    dmg = strike_damage(state, actor, t.target, t.preview, str(weapon) if weapon else None)
    return TargetFacts(names.get(t.target, "a creature"), chance, injury_text(dmg) if dmg is not None else "")


def option_facts(
    state: GameState, actor: str, option: ActionOption, names: dict[str, str], no_target: bool
) -> OptionFacts:
    """The menu's words for `option` of `actor` (`no_target`: it needs a target and has none now)."""
    targets: dict[str, TargetFacts] = {}
    for t in option.targets:
        facts = target_facts(state, actor, option, t, names)
        if facts is not None and t.target is not None:
            targets[t.target] = facts
    chances = [f.chance for f in targets.values() if f.chance is not None]
    parts = [cost_text(option.cost)]
    if chance := _chance_range(chances):
        parts.append(chance)
    if no_target:
        parts.append("no target in reach")
    lines = [explain(option.action) or option.label]
    shown = [f.text() for f in targets.values() if f.chance is not None][:TIP_TARGETS]
    lines += shown
    if len(targets) > len(shown) and shown:
        lines.append(f"and {len(targets) - len(shown)} more")
    return OptionFacts(detail=" · ".join(parts), tip="\n".join(lines), targets=targets)


def odds_with(
    state: GameState, actor: str, option: ActionOption, names: dict[str, str], preview: RollPreview | None
) -> str:
    """The chance against each target of `option` rolled as `preview` (a Distract with the Action chosen)."""
    if preview is None:
        return ""
    targets = [t.model_copy(update={"preview": preview}) for t in option.targets]
    return option_facts(state, actor, option.model_copy(update={"targets": targets}), names, False).pick_hint()
