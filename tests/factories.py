"""Small builders for rules tests: a board, creatures and a fight already begun on a given creature's turn."""

from __future__ import annotations

from typing import Any

import pytest

from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.events import Event, RuleError
from vtt.rules.model import Board, Cell, Creature, GameState, Limb, Weapon
from vtt.rules.settings import TableSettings
from vtt.rules.turns import begun_on_turn, spend
from vtt.rules.txn import Tx


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
    return begun_on_turn(s, creature_id)


def armed_pair_and_hidden_rat(settings: TableSettings | None = None) -> GameState:
    """Ayla (alice's) and an orc, both gripping a sword, side by side; a tiny rat hidden far off; Ayla's turn."""
    sword = weapon("sword", damage=2)
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice", weapons=[sword], grip={"right_arm": "sword"}),
            creature("orc", (3, 2), weapons=[sword], grip={"right_arm": "sword"}),
            creature("rat", (8, 8), size=-2, hidden=True),
            settings=settings,
        ),
        "ayla",
    )


def used(s: GameState, creature_id: str, *actions: str) -> GameState:
    """`creature_id` has already used these actions ("major", "minor") this turn, paid as the rules pay them."""
    tx = Tx(s)
    for action in actions:
        spend(tx, creature_id, major=int(action == "major"), minor=int(action == "minor"))
    return tx.state


def run(s: GameState, command: dict[str, Any], faces: list[int]) -> tuple[GameState, list[Event]]:
    """Apply a command with exactly these faces; fails if any face is left unused."""
    dice = ScriptedDice(faces)
    out, events = apply(s, command, dice)
    assert dice.remaining == 0, f"{dice.remaining} scripted face(s) unused"
    return out, events


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def only(events: list[Event], kind: str) -> Event:
    """The one event of this kind (fails when there are none or several)."""
    found = of_kind(events, kind)
    assert len(found) == 1, [e.kind for e in events]
    return found[0]


def mod_values(event: Event, index: int = 0) -> list[int]:
    return [m.value for m in event.rolls[index].modifiers]


def refused(s: GameState, command: dict[str, Any], faces: list[int] | None = None) -> None:
    """The command raises RuleError and the state given to it is left exactly as it was. `faces` are there so
    that a command wrongly allowed can run."""
    before = s.model_dump()
    with pytest.raises(RuleError):
        apply(s, command, ScriptedDice(faces or []))
    assert s.model_dump() == before


def with_field(data: dict[str, Any], path: str, value: object) -> dict[str, Any]:
    """`data` (a JSON document, changed in place and returned) with the field at a dotted path (numbers index
    lists) set to `value`, or deleted for `...`."""
    parts: list[str | int] = [int(p) if p.isdigit() else p for p in path.split(".")]
    node: Any = data
    for p in parts[:-1]:
        node = node[p]
    if value is ...:
        del node[parts[-1]]
    else:
        node[parts[-1]] = value
    return data
