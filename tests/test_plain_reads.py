"""Attribute reads of the rules' models without pydantic's `__getattr__` hook (`fastmodel.read_plainly`).

- On CPython 3.11 every model of the modules the engine imports (the state, commands, events, dice, settings,
  menus) reads its attributes as any object does: none keeps private attributes or extra fields, which need the
  hook (the Board's filled spaces are kept apart from it, `model._FILLED`).
- A model read plainly answers every read as one read through pydantic's hook does: its fields, properties and
  methods; a missing attribute raises the same AttributeError (same message), `getattr` with a default and
  `hasattr` answer the same; a model's copy reads plainly too.
- Two boards equal in their fields are equal whether or not one was asked for its filled spaces.
"""

from __future__ import annotations

import sys

import pytest
from factories import creature, state
from pydantic import BaseModel

import vtt.rules  # noqa: F401  (the engine marks the models when imported)
from vtt.rules.fastmodel import models_of, reads_plainly
from vtt.rules.model import Board, Creature, GameState

on_cpython_311 = pytest.mark.skipif(
    sys.implementation.name != "cpython" or sys.version_info[:2] != (3, 11),
    reason="only CPython 3.11 lacks specialised reads through __getattr__",
)


class _Hooked(BaseModel):
    """A model read through pydantic's hook, as every model is by default."""

    id: str


@on_cpython_311
def test_every_model_the_engine_uses_reads_plainly() -> None:
    modules = {"model", "commands", "events", "dice", "settings", "offers", "engine"}
    models = [cls for cls in models_of("vtt.rules") if cls.__module__.rsplit(".", 1)[-1] in modules]
    assert Board in models and len(models) > 50
    for record in (Creature, GameState):  # slotted records, read as any object is
        assert not issubclass(record, BaseModel) and reads_plainly(record)
    hooked = [cls.__name__ for cls in models if not reads_plainly(cls)]
    assert hooked == []
    assert not reads_plainly(_Hooked)


def test_a_model_read_plainly_answers_as_one_read_through_the_hook() -> None:
    c = creature("hero", (2, 2))
    probe = _Hooked(id="hero")
    assert c.id == probe.id == "hero"
    assert c.team == "foes" and c.limb("left_arm") is c.limbs[0] and c.can_act
    with pytest.raises(AttributeError) as plain:
        _ = c.nothing  # type: ignore[attr-defined]
    with pytest.raises(AttributeError) as hooked:
        _ = probe.nothing  # type: ignore[attr-defined]
    assert str(plain.value) == str(hooked.value).replace("_Hooked", "Creature")
    assert getattr(c, "nothing", 7) == getattr(probe, "nothing", 7) == 7
    assert not hasattr(c, "nothing") and not hasattr(probe, "nothing")
    copied = c.model_copy(update={"name": "Other"})
    assert copied.name == "Other" and copied.anchor == c.anchor


def test_boards_equal_in_their_fields_are_equal_whether_or_not_one_was_asked_for_its_filled_spaces() -> None:
    s = state(creature("hero", (2, 2)), walls={(0, 0), (1, 0)})
    other = s.model_copy(update={"board": Board.model_validate(s.board.model_dump())})
    filled = s.board.filled()
    assert filled == {(0, 0), (1, 0)} and s.board.filled() is filled
    assert s.board == other.board and s == other
    assert other.board.filled() == filled
