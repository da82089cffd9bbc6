"""Physical dice (the `physical_dice` setting): the person sending a command types the faces of each roll.

A command is tried with the rolls typed so far. When the rules ask for a roll nobody typed yet, the attempt stops
with `FacesNeeded` (the state is copy-on-write, so nothing changed), the seat is asked for that roll, and the
command is tried again with one more roll typed, until it completes. Every typed face is checked here, on the
server: a whole number from 1 to 12, as many as the rules asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vtt.rules.dice import SIDES, TypedDice
from vtt.rules.limits import DICE_MAX

TYPED_ROLLS_MAX = 200
"""More rolls than any one command makes (a Flurry with its defenses and damage makes a few dozen)."""


@dataclass(frozen=True)
class DiceAsk:
    """One roll a seat must type: how many d12, what for (worded for that seat), and how many rolls it typed."""

    count: int
    purpose: str
    typed: int

    @property
    def text(self) -> str:
        return f"Roll {self.count}d12 for {self.purpose} and type the faces"


class FacesNeeded(Exception):
    """The rules asked for a roll that was not typed yet."""

    def __init__(self, count: int, purpose: str) -> None:
        super().__init__(f"{purpose}: {count}d12 to type")
        self.count = count
        self.purpose = purpose


class WrongFaceCount(Exception):
    """A typed roll has more or fewer faces than the rules asked for."""


def typed_problem(typed: object) -> str | None:
    """Why these typed rolls cannot be used (in plain words), or None. `typed` comes from a browser."""
    if typed is None:
        return None
    if not isinstance(typed, list | tuple) or len(typed) > TYPED_ROLLS_MAX:
        return "the typed dice could not be read"
    for faces in typed:
        if not isinstance(faces, list | tuple) or len(faces) > DICE_MAX:
            return "the typed dice could not be read"
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int):
                return "each face must be a whole number from 1 to 12"
            if not 1 <= face <= SIDES:
                return f"{face} is not a face of a d12: type whole numbers from 1 to 12"
    return None


class TypedRolls:
    """The rolls a seat typed, given to the rules in order (through `TypedDice`, which checks each face again)."""

    def __init__(self, typed: Sequence[Sequence[int]]) -> None:
        self._rolls = [list(faces) for faces in typed]
        self._next = 0
        self.dice = TypedDice(self._ask)

    @property
    def left(self) -> int:
        return len(self._rolls) - self._next

    def _ask(self, count: int, purpose: str) -> list[int]:
        if self._next >= len(self._rolls):
            raise FacesNeeded(count, purpose)
        faces = self._rolls[self._next]
        if len(faces) != count:
            typed = f"{len(faces)} {'face was' if len(faces) == 1 else 'faces were'} typed"
            raise WrongFaceCount(f"{purpose} needs {count} {'die' if count == 1 else 'dice'}, but {typed}")
        self._next += 1
        return faces


def mark_typed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The dumped events of a command played with typed dice, each roll that has faces marked `typed`."""
    for event in events:
        for roll in event.get("rolls") or []:
            if isinstance(roll, dict) and roll.get("faces"):
                roll["typed"] = True
    return events
