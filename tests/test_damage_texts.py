"""The texts `damage` keeps by the values they are made of (and the labels of a Strike's hit and of a roll for a
part, `strike` and `parts`), against the same texts formatted each time, and `_suffer`'s shortcut for Pips that all
fit against the general fill that spills (`_fill_spilling`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from factories import creature, state
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules import damage, parts, strike
from vtt.rules.damage import PoolName
from vtt.rules.kept_texts import TEXTS_KEPT, Texts
from vtt.rules.model import Pool
from vtt.rules.txn import Tx

POOLS = ("grit", "energy", "resolve")
names = st.sampled_from(["Foe", "Hero", "Goblin 2", "Ölaf"])
small = st.integers(min_value=-3, max_value=40)


def formatted_damage_text(dice: int, kind: str, needed: int, injury: int, target: str) -> str:
    return f"Damage {dice}d12 ({kind}), needing {needed}+: {injury} Injury to {target}."


def formatted_pips_text(name: str, amount: int, what: str, pool: str, pips: int, most: int) -> str:
    return f"{name} suffers {amount} {what}: {pool.title()} {pips}/{most}."


def formatted_serious_text(
    name: str, part: str, counted: int, shown: int, base: int, bonus: int, wounded: int, continuing: bool
) -> str:
    if continuing:
        how = f"Continuing Damage on the part adds up to {counted} Injury, over Severe Threshold {shown} by {base}"
    else:
        how = f"{counted} Injury exceeds Severe Threshold {shown} by {base}"
    if bonus:
        how += f", +{bonus} (half) as it is not from a targeted attack"
    return f"Serious Injury to {name}'s {part}: {how}: Tier {wounded} Wounded."


TableCase = tuple[dict[tuple[Any, ...], str], Callable[..., str], tuple[st.SearchStrategy[Any], ...]]
TABLES: dict[str, TableCase] = {
    "label": (damage._DAMAGE_LABELS, lambda label, target: f"{label} to {target}", (names, names)),
    "strike label": (strike._STRIKE_LABELS, lambda attacker: f"{attacker}'s Strike", (names,)),
    "part roll label": (parts._PART_ROLL_LABELS, lambda name: f"part roll for {name}", (names,)),
    "damage": (
        damage._DAMAGE_TEXTS,
        formatted_damage_text,
        (small, st.sampled_from(["physical", "magical", "physical, heat, fire"]), small, small, names),
    ),
    "pips": (
        damage._PIPS_TEXTS,
        formatted_pips_text,
        (names, small, st.sampled_from(["Injury", "Pips"]), st.sampled_from(sorted(POOLS)), small, small),
    ),
    "serious": (
        damage._SERIOUS_TEXTS,
        formatted_serious_text,
        (names, st.sampled_from(["torso", "left leg"]), small, small, small, small, small, st.booleans()),
    ),
}


@pytest.mark.parametrize("which", sorted(TABLES))
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_kept_text_is_the_text_of_every_value_of_its_key(which: str, data: st.DataObject) -> None:
    """Two keys differing in one place each find their own text: a key that left out a value the text shows would
    give the first key's text for the second."""
    table, formatted, places = TABLES[which]
    key = tuple(data.draw(place) for place in places)
    i = data.draw(st.integers(min_value=0, max_value=len(places) - 1))
    other = (*key[:i], data.draw(places[i]), *key[i + 1 :])
    for k in (key, other, key):
        assert table[k] == formatted(*k)


def test_the_texts_kept_are_bounded_and_still_right_after_clearing() -> None:
    table = Texts(formatted_damage_text)
    for n in range(TEXTS_KEPT + 10):
        assert table[n, "physical", 3, 1, "Foe"] == formatted_damage_text(n, "physical", 3, 1, "Foe")
    assert len(table) <= TEXTS_KEPT


def pools() -> st.SearchStrategy[Pool]:
    """Pools of any Pips, over their max too (a Pool does not refuse that)."""
    return st.builds(Pool, max=st.integers(min_value=0, max_value=6), pips=st.integers(min_value=0, max_value=8))


@settings(max_examples=400, deadline=None)
@given(
    grit=pools(),
    energy=pools(),
    resolve=pools(),
    exhausted=st.integers(min_value=0, max_value=3),
    pool=st.sampled_from(POOLS),
    amount=st.integers(min_value=1, max_value=9),
    what=st.sampled_from(["Injury", "Pips"]),
)
def test_suffer_is_the_general_fill_for_any_pools(
    grit: Pool, energy: Pool, resolve: Pool, exhausted: int, pool: PoolName, amount: int, what: str
) -> None:
    ailments = {"Exhausted": exhausted} if exhausted else {}
    s = state(creature("t", (5, 5), grit=grit, energy=energy, resolve=resolve, ailments=ailments))
    tx, general_tx = Tx(s), Tx(s)
    c, general = tx.creature("t"), general_tx.creature("t")

    events = damage._suffer(tx, c, pool, amount, what)
    text = damage._fill_spilling(general, pool, amount, what)

    assert events[0].text == text
    assert (c.grit, c.energy, c.resolve) == (general.grit, general.energy, general.resolve)
    assert c.ailments.get("Exhausted") == general.ailments.get("Exhausted")
    assert c.ruptured_conduit_risk == general.ruptured_conduit_risk
    assert events[0].data == {
        "amount": amount,
        "grit": [general.grit.pips, general.grit.max],
        "energy": [general.energy.pips, general.energy.max],
        "resolve": [general.resolve.pips, general.resolve.max],
        "exhausted": general.ailments.get("Exhausted", 0),
    }
    falls = pool == "grit" and what == "Injury" and general.grit.pips >= general.grit.max
    assert [e.kind for e in events[1:]] == (["unconscious"] if falls else [])
