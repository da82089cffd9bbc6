"""What a hit does, through its short ways, against the general rules they stand for: `deal` rolls to keep a Ready
ability only when some limb holds one (`manifest_roll.after_grit_injury`, which rolls for each), and `Tx.part_of`
owns a body part of a creature the command changes as `Tx.part` always did (`_own_first`, copied once in its place).
"""

from __future__ import annotations

from factories import creature, limb, state
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules import damage
from vtt.rules.damage import Hit
from vtt.rules.dice import ScriptedDice, roll
from vtt.rules.events import Event
from vtt.rules.manifest_roll import after_grit_injury
from vtt.rules.model import BodyPart, Creature, GameState, Readied, humanoid_parts
from vtt.rules.txn import Tx

LIMBS = ("left_arm", "right_arm", "left_leg", "right_leg", "tail")
ABILITIES = ("firebolt", "stone_skin", "ward", "mend")
SKILLS = {"Magic": 3, "Endure": 2, "Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1}


def readied(ability: str, face: int) -> Readied:
    return Readied(ability=ability, roll=roll(ScriptedDice([face, face, face]), "Manifest", 3), dl=6)


@st.composite
def ready_targets(draw: st.DrawFn) -> GameState:
    """A target whose limbs (any number, any of them) may each hold a Ready ability, with a Grit Pool that may be
    near full, any Severe Threshold and ailments that change a Manifest roll."""
    ids = draw(st.lists(st.sampled_from(LIMBS), unique=True, max_size=len(LIMBS)))
    limbs = [
        limb(lid, readied=draw(st.none() | st.sampled_from(ABILITIES).map(lambda a: readied(a, 4)))) for lid in ids
    ]
    grit_max = draw(st.integers(min_value=1, max_value=6))
    t = creature(
        "t",
        (5, 5),
        skills=dict(SKILLS),
        abilities=list(ABILITIES),
        limbs=limbs,
        severe_threshold=draw(st.integers(min_value=-2, max_value=6)),
        grit={"max": grit_max, "pips": draw(st.integers(min_value=0, max_value=grit_max))},
        ailments=draw(st.sampled_from([{}, {"Exhausted": 2}, {"Frightened": 1}])),
    )
    return state(t)


def ready_events(events: list[Event]) -> list[tuple[str, dict[str, object]]]:
    return [(e.text, e.data) for e in events if e.kind == "ready_check"]


def readied_abilities(c: Creature) -> list[str | None]:
    return [lb.readied.ability if lb.readied else None for lb in c.limbs]


@settings(max_examples=300, deadline=None)
@given(s=ready_targets(), amount=st.integers(min_value=1, max_value=6), face=st.integers(min_value=1, max_value=12))
def test_a_grit_injury_rolls_to_keep_every_ready_ability_of_any_limb(s: GameState, amount: int, face: int) -> None:
    """Every face the same, so each roll is what it would be in any order: the Ready rolls of `deal` are those
    `after_grit_injury` makes for the Injury dealt, after the same Pips (a shortcut reading only some limbs, or
    skipping the rolls when one holds a Ready ability, gives fewer)."""
    tx = Tx(s)
    events = damage.deal(tx, Hit(target="t", amount=amount, part="torso"), ScriptedDice([face] * 40))
    injury = next(e.data["injury"] for e in events if e.kind == "damage")

    general = Tx(s)
    c = general.creature("t")
    expected = []
    if injury > 0:
        damage._suffer(general, c, "grit", injury, "Injury")
        expected = after_grit_injury(general, c, injury, ScriptedDice([face] * 40))

    assert ready_events(events) == ready_events(expected)
    assert readied_abilities(tx.state.creatures["t"]) == readied_abilities(general.state.creatures["t"])


PARTS = tuple(p.id for p in humanoid_parts())


@settings(max_examples=300, deadline=None)
@given(
    asked=st.lists(st.sampled_from((*PARTS, "tail", "wing")), min_size=1, max_size=6),
    severed=st.sets(st.sampled_from(PARTS)),
    wounded=st.integers(min_value=0, max_value=3),
)
def test_part_of_owns_the_part_as_the_general_copy_in_its_place(
    asked: list[str], severed: set[str], wounded: int
) -> None:
    """`part_of` of each part asked, some twice, some the creature lacks: the same part, copied once in its place, as
    `_own_first` gives; the state the command started from keeps its own parts unchanged."""
    parts = [
        BodyPart(id=p.id, name=p.name, size_offset=p.size_offset, severed=p.id in severed) for p in humanoid_parts()
    ]
    s = state(creature("t", (5, 5), parts=parts))
    before = [p.model_dump() for p in s.creatures["t"].parts]
    tx, general = Tx(s), Tx(s)
    c, g = tx.creature("t"), general.creature("t")
    for part_id in asked:
        got, want = tx.part_of(c, part_id), general._own_first(g.parts, part_id)
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert got.model_dump() == want.model_dump()
            assert got is tx.part_of(c, part_id)  # copied once
            assert all(got is not p for p in s.creatures["t"].parts)
            got.wounded += wounded
            want.wounded += wounded
    assert [p.model_dump() for p in c.parts] == [p.model_dump() for p in g.parts]
    assert [p.model_dump() for p in s.creatures["t"].parts] == before
