"""The copies a `Tx` makes are the plain pydantic copies (`model_copy(update=...)`), built without its cost.

- `Tx(state).state` (a slotted record) is `state.model_copy()`: every field is shared (its lists of effects and
  pending decisions and dict of reactions too, until `Tx.effects`, `Tx.pending` or `Tx.reactions` copies one).
- `Tx.creature` copies a creature (a slotted record) as `model_copy(update=...)` would with its ten dicts and lists
  copied: the same values; its lists of limbs and parts and dict of ailments (which rules change in place) its own,
  everything else shared (the other seven are only ever replaced).
"""

from __future__ import annotations

from typing import Any, TypeVar

import pytest
from factories import creature, on_turn, state, weapon
from pydantic import BaseModel

from vtt.rules.events import RuleError
from vtt.rules.model import AilmentSource, Creature, Economy, GameState
from vtt.rules.records import Record
from vtt.rules.txn import Tx

M = TypeVar("M", BaseModel, Record)

CONTAINERS = (
    "limbs",
    "weapons",
    "ailments",
    "ailment_failures",
    "ailment_sources",
    "skills",
    "parts",
    "continuing",
    "continuing_injury",
    "continuing_wounded",
)
OWN = ("limbs", "parts", "ailments")


def _plain_clone(c: Creature) -> Creature:
    return c.model_copy(update={name: type(getattr(c, name))(getattr(c, name)) for name in CONTAINERS})


def _values(m: BaseModel | Record) -> dict[str, Any]:
    return m.__dict__ if isinstance(m, BaseModel) else {name: getattr(m, name) for name in type(m).model_fields}


def _same_copy(got: M, plain: M, own: tuple[str, ...], original: M) -> None:
    assert type(got) is type(plain)
    assert _values(got) == _values(plain)
    assert list(_values(got)) == list(_values(plain))
    if isinstance(got, BaseModel) and isinstance(plain, BaseModel) and isinstance(original, BaseModel):
        assert got.__pydantic_fields_set__ == plain.__pydantic_fields_set__
        assert got.__pydantic_fields_set__ is not original.__pydantic_fields_set__
        assert got.__pydantic_extra__ == plain.__pydantic_extra__
        assert got.__pydantic_private__ == plain.__pydantic_private__
    for name, value in _values(got).items():
        if name in own:
            assert value is not _values(original)[name], name
        else:
            assert value is _values(original)[name], name


def _creatures() -> list[Creature]:
    plain = creature("a", (0, 0))
    armed = creature("b", (2, 0), size=1, skills={"Martial": 3}, weapons=[weapon("sword")], grip={"right_arm": "sword"})
    hurt = creature("c", (4, 0))
    hurt.ailments = {"Bleeding": 2, "Enraged": 1}
    hurt.ailment_failures = {"Bleeding": 1}
    hurt.ailment_sources = [AilmentSource(ailment="Bleeding", tiers=1, source="b")]
    built = Creature.model_validate(hurt.model_dump())
    return [plain, armed, hurt, built]


def test_a_creature_to_change_is_the_plain_copy_with_its_dicts_and_lists_its_own() -> None:
    for c in _creatures():
        s = state(c)
        got = Tx(s).creature(c.id)
        _same_copy(got, _plain_clone(c), OWN, c)


def test_the_state_a_command_makes_starts_as_the_plain_copy() -> None:
    s: GameState = state(*_creatures())
    s.effects = []
    tx = Tx(s)
    _same_copy(tx.state, s.model_copy(), (), s)
    tx.creature("a")
    assert s.creatures["a"] is not tx.state.creatures["a"]
    assert tx.state.creatures is not s.creatures


def test_a_creature_not_in_the_state_is_refused_and_nothing_is_copied() -> None:
    s = state(creature("a", (0, 0)))
    tx = Tx(s)
    with pytest.raises(RuleError, match="there is no creature 'zz'"):
        tx.creature("zz")
    assert tx.state.creatures is s.creatures and not tx.changed_creatures()


def test_an_economy_shared_leaves_the_states_dict_as_it_was() -> None:
    s = on_turn(state(creature("a", (0, 0)), creature("b", (2, 0))), "a")
    before = dict(s.economy)
    tx = Tx(s)
    paid = Economy(major=0)
    tx.share_economy("a", paid)
    assert s.economy == before and tx.state.economy == {**before, "a": paid}
    tx.share_economy("b", paid)
    assert s.economy == before and tx.state.economy == {**before, "a": paid, "b": paid}


def test_a_limb_or_part_to_change_is_copied_once_in_its_place_and_alone() -> None:
    c = creature("a", (0, 0))
    s = state(c)
    tx = Tx(s)
    for ask, pieces, wanted in ((tx.part, "parts", "left_arm"), (tx.limb, "limbs", "left_arm")):
        before: list[Any] = getattr(c, pieces)
        i = [x.id for x in before].index(wanted)
        got = ask("a", wanted)
        assert got is not None and got is not before[i] and got == before[i]
        after: list[Any] = getattr(tx.state.creatures["a"], pieces)
        assert after[i] is got
        assert all(x is y for j, (x, y) in enumerate(zip(after, before, strict=True)) if j != i)
        assert ask("a", wanted) is got
        assert ask("a", "no_such_piece") is None
    assert s.creatures["a"] is c


def test_an_economy_shared_is_copied_again_before_it_is_changed() -> None:
    """a's Economy is copied once to change; then the command shares one other states hold (a kept plan's): asked
    for again, it is copied, and the shared one is left as it was. A creature whose Economy the command never owned
    is copied too, and sharing it does not make it the command's own."""
    s = on_turn(state(creature("a", (0, 0)), creature("b", (2, 0))), "a")
    s.economy["b"] = Economy()
    tx = Tx(s)
    owned = tx.economy("a")
    assert owned is not s.economy["a"] and tx.economy("a") is owned
    shared, other = Economy(major=0), Economy(minor=0)
    tx.share_economy("a", shared)
    tx.share_economy("b", other)
    for cid, held in (("a", shared), ("b", other)):
        mine = tx.economy(cid)
        assert mine is not held and mine == held
        mine.movement_spent = 3
        assert held.movement_spent == 0 and tx.state.economy[cid] is mine
