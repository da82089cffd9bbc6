"""A creature's `legal_actions` as lines of text, for `python -m vtt.rules FILE --menu CREATURE`."""

from __future__ import annotations

from typing import Any

from vtt.rules.engine import ActionOption, RollPreview, TargetOption, legal_actions
from vtt.rules.model import SOULWEAVER, Cell, GameState

SHOWN_SPACES = 12
COST_NAMES = {"major": "Major Action", "minor": "Minor Action", "movement": "Movement"}


def menu_lines(state: GameState, creature_id: str) -> list[str]:
    """The options `creature_id` has in `state`, grouped as the token menu groups them; or why it has none."""
    c = state.creatures[creature_id]
    options = legal_actions(state, creature_id)
    head = f"{c.name} ({creature_id}), {_when(state)}:"
    if not options:
        return [head, f"  no options: {why_no_options(state, creature_id)}"]
    lines = [head]
    groups = dict.fromkeys(o.group for o in options)
    for group in groups:
        lines.append(f"  {group}")
        for o in options:
            if o.group == group:
                lines.append(f"    {_option_line(o)}")
                lines += [f"      {_target_line(state, t)}" for t in o.targets]
    return lines


def _when(state: GameState) -> str:
    turn = state.turn
    if not turn.started:
        return "before the fight"
    if turn.current == SOULWEAVER:
        who = "the Soulweaver's turn"
    else:
        who = f"{state.creatures[turn.current].name}'s turn" if turn.current in state.creatures else str(turn.current)
    return f"round {turn.round}, {who}"


def why_no_options(state: GameState, creature_id: str) -> str:
    """Why `legal_actions` offers the creature nothing, in words."""
    if state.pending:
        d = state.pending[0]
        answer = '"type": "defend"' if d.kind == "defense" else '"type": "choose_order"'
        if d.kind == "reaction":
            answer = '"type": "react"'
        return f'the table waits for decision {d.id} ({d.prompt}); answer it with {{{answer}, "decision": "{d.id}"}}'
    if not state.turn.started:
        return 'the fight has not begun (a {"type": "begin"} command starts it)'
    c = state.creatures[creature_id]
    if not c.can_act:
        return f"{c.name} cannot act"
    return f"it is not {c.name}'s turn ({_when(state)})"


def _cost(cost: dict[str, int]) -> str:
    if not cost:
        return "free"
    return ", ".join(f"{n} {COST_NAMES.get(k, k)}" for k, n in cost.items())


def _cells(cells: list[Cell]) -> str:
    shown = ", ".join(f"({q}, {r})" for q, r in cells[:SHOWN_SPACES])
    more = f" and {len(cells) - SHOWN_SPACES} more" if len(cells) > SHOWN_SPACES else ""
    return f"{len(cells)} {'space' if len(cells) == 1 else 'spaces'}: {shown}{more}"


def _fields(values: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in values.items() if v is not None)


def _option_line(o: ActionOption) -> str:
    cost = _cost(o.cost) + (" a space" if o.action == "move" else "")
    bits = [f"{o.label} [{o.command or o.action}]", cost]
    if o.reach is not None:
        bits.append(f"Reach {o.reach}")
    if _fields(o.params):
        bits.append(_fields(o.params))
    if o.spaces:
        bits.append(_cells(o.spaces))
    needed = [f for f in o.choose if f not in o.optional]
    may = [f for f in o.choose if f in o.optional]
    if needed:
        bits.append(f"choose {', '.join(needed)}")
    if may:
        bits.append(f"may choose {', '.join(may)}")
    return "; ".join(bits)


def _preview(p: RollPreview) -> str:
    text = f"{p.skill} {p.dice}d12"
    text += "".join(f", {c.dice:+d}d12 ({c.reason})" for c in p.dice_changes)
    text += "".join(f", {m.value:+d} ({m.reason})" for m in p.modifiers)
    if p.dl is not None:
        text += f", DL {p.dl}"
    if p.defense_skill:
        text += f", against {p.defense_skill}"
    return text


def _target_line(state: GameState, t: TargetOption) -> str:
    if t.target is not None:
        c = state.creatures.get(t.target)
        who = f"{c.name} ({t.target})" if c is not None else t.target
    else:
        who = "space ({}, {})".format(*t.space) if t.space is not None else "?"
    bits = [who]
    if t.preview is not None:
        bits.append(_preview(t.preview))
    if _fields(t.params):
        bits.append(_fields(t.params))
    open_choices = {k: v for k, v in t.choices.items() if len(v) > 1}
    if open_choices:
        bits.append("; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in open_choices.items()))
    if t.note:
        bits.append(t.note)
    return ": ".join(bits[:2]) + "".join(f"; {b}" for b in bits[2:])
