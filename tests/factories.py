"""Small builders for rules tests: a board, creatures and a fight already begun on a given creature's turn."""

from __future__ import annotations

from typing import Any

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.events import Event
from vtt.rules.model import SOULWEAVER, Board, Cell, Creature, GameState, Limb, Weapon
from vtt.rules.settings import TableSettings
from vtt.rules.turns import fresh_economy


def weapon(wid: str = "sword", damage: int = 2, **kw: Any) -> Weapon:
    return Weapon(id=wid, name=kw.pop("name", wid.title()), damage=damage, **kw)


def creature(
    cid: str,
    anchor: Cell,
    size: int = 0,
    skills: dict[str, int] | None = None,
    weapons: list[Weapon] | None = None,
    grip: dict[str, str] | None = None,
    controller: str | None = None,
    **kw: Any,
) -> Creature:
    """A creature; `grip` maps limb id -> weapon id it holds (humanoid limbs: left_arm, right_arm, ...).

    Its Severe Threshold is 12 unless given, so that tests of other rules see no Serious Injury."""
    kw.setdefault("severe_threshold", 12)
    c = Creature(
        id=cid,
        name=kw.pop("name", cid.title()),
        size=size,
        anchor=anchor,
        skills=skills if skills is not None else {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1},
        weapons=weapons or [],
        controller=controller,
        **kw,
    )
    for limb_id, wid in (grip or {}).items():
        limb = c.limb(limb_id)
        assert limb is not None, limb_id
        limb.holding = wid
    return c


def limb(lid: str, kind: str = "arm", **kw: Any) -> Limb:
    return Limb(id=lid, name=lid.replace("_", " "), kind=kind, **kw)


def state(
    *creatures: Creature,
    cols: int = 20,
    rows: int = 20,
    walls: set[Cell] | None = None,
    settings: TableSettings | None = None,
    **kw: Any,
) -> GameState:
    return GameState(
        settings=settings or TableSettings(defense_prompts="nobody", reactions=False),
        board=Board(cols=cols, rows=rows, walls=walls or set(), **kw),
        creatures={c.id: c for c in creatures},
    )


def on_turn(s: GameState, creature_id: str) -> GameState:
    """The fight begun with `creature_id` acting now (no dice: Priority is set directly)."""
    c = s.creatures[creature_id]
    s = s.model_copy(deep=True)
    if c.controller is not None or s.settings.npcs_roll_priority:
        s.turn.entries = [creature_id, SOULWEAVER]
        s.turn.priority = {creature_id: 12}
        active = [creature_id]
    else:
        s.turn.entries = [SOULWEAVER]
        active = [cid for cid, x in s.creatures.items() if x.controller is None]
    s.turn.round = 1
    s.turn.index = 0
    for cid in active:
        s.economy[cid] = fresh_economy(s, s.creatures[cid])
    return s


def run(s: GameState, command: dict[str, Any], faces: list[int]) -> tuple[GameState, list[Event]]:
    """Apply a command with exactly these faces; fails if any face is left unused."""
    dice = ScriptedDice(faces)
    out, events = apply(s, command, dice)
    assert dice.remaining == 0, f"{dice.remaining} scripted face(s) unused"
    return out, events
