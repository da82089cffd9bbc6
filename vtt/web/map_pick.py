"""Spaces an action needs, picked on the map: a Reposition's destination, where a Disarmed object drops, where a
Distract's sound comes from. The legal spaces are highlighted, a hint above the map says what to do, and a click
on a highlighted space fills the command's field; a click elsewhere is ignored and the hint stays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nicegui import ui

from vtt.rules.model import Cell
from vtt.rules.offers import ActionOption, TargetOption

CLICK_SPACE = "Click a highlighted space (Escape cancels)"
FIELD_WORDS = {
    "to": "where it goes",
    "sound_at": "where the sound comes from",
    "space": "the space",
}


def as_cell(value: Any) -> Cell | None:
    """A space given as a pair of whole numbers, else None."""
    if isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return (int(value[0]), int(value[1]))
    return None


def space_fields(option: ActionOption, t: TargetOption) -> list[str]:
    """The open choices of `option` that are spaces picked on the map (and that `t` offers some of)."""
    return [
        a.field for a in option.asks if a.kind == "space" and any(v is not None for v in t.choices.get(a.field, []))
    ]


@dataclass
class SpacePick:
    """A command waiting for spaces: `fields` still to fill, the first one now, from its legal `cells`."""

    cmd: dict[str, Any]
    fields: list[str]
    cells: dict[str, list[Cell]]
    what: str
    target_cells: list[list[int]] = field(default_factory=list)

    @property
    def field(self) -> str:
        return self.fields[0]

    @property
    def legal(self) -> list[Cell]:
        return self.cells[self.field]

    def hint(self) -> str:
        words = FIELD_WORDS.get(self.field, "a space")
        return f"{self.what}: choose {words}. {CLICK_SPACE}"

    def highlights(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"kind": "space", "cells": [list(c) for c in self.legal]}]
        if self.target_cells:
            out.append({"kind": "target", "cells": self.target_cells})
        return out

    def fill(self, cell: Cell) -> bool:
        """Fill the current field with `cell` (one of `legal`); True when every field is filled."""
        self.cmd[self.field] = list(cell)
        self.fields.pop(0)
        return not self.fields


def space_pick(
    option: ActionOption, t: TargetOption, cmd: dict[str, Any], fields: list[str], what: str, target_cells: Any
) -> SpacePick:
    cells = {name: [c for v in t.choices.get(name, []) if (c := as_cell(v)) is not None] for name in fields}
    return SpacePick(cmd=cmd, fields=list(fields), cells=cells, what=what, target_cells=list(target_cells or []))


class PickHint(ui.label):
    """The line above the map saying what to click while an action waits for a target or a space."""

    def __init__(self) -> None:
        super().__init__("")
        self.classes("pick-hint")
        self.set_visibility(False)

    def show(self, text: str) -> None:
        self.set_text(text)
        self.set_visibility(True)

    def hide(self) -> None:
        self.set_visibility(False)
