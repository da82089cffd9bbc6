"""Hand-worked tests of vtt.rules.dice: d12 skill rolls, modifiers, dice changes, doubles, Fumble and sources.

Every expected value is worked out by hand from the rule text and written as a literal.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from vtt.rules import dice as dice_module
from vtt.rules.dice import (
    DiceChange,
    DiceError,
    DiceScriptExhausted,
    Double,
    Modifier,
    RandomDice,
    RecordingDice,
    Roll,
    ScriptedDice,
    TypedDice,
    dice_count,
    roll,
)

# --------------------------------------------------------------------------------------------------------
# Result: the single highest face plus flat modifiers
# --------------------------------------------------------------------------------------------------------


def test_roll_result_is_highest_face_not_the_sum() -> None:
    """reference §1.1: "Its result is the single highest face value plus any flat modifier, and the dice are
    not summed." Faces 3, 9, 5: highest 9 (the sum would be 17)."""
    r = roll(ScriptedDice([3, 9, 5]), "Martial", 3)
    assert r.faces == (3, 9, 5)
    assert r.result == 9


def test_roll_result_adds_flat_modifiers_to_highest_face() -> None:
    """reference §1.1: "A bonus or penalty written "+N"/"-N" adds to or subtracts from that result. The bot
    applies `!3+2` as highest die + 2." Faces 4, 11, 2 with +2 and -1: 11 + 2 - 1 = 12."""
    mods = [Modifier(value=2, reason="Accurate"), Modifier(value=-1, reason="Called Shot")]
    r = roll(ScriptedDice([4, 11, 2]), "Martial", 3, mods)
    assert r.result == 12


def test_roll_modifiers_keep_their_reasons_in_order() -> None:
    """reference §1.1: a "+N"/"-N" bonus or penalty comes from a named rule ("-1 on physical attacks",
    "+3 to Hinder Movement"); the roll keeps each with the rule that gave it."""
    mods = [
        Modifier(value=3, reason="Hinder Movement: moving out of your space"),
        Modifier(value=-1, reason="Called Shot"),
    ]
    r = roll(ScriptedDice([6, 2]), "Athletics", 2, mods)
    assert [(m.value, m.reason) for m in r.modifiers] == [
        (3, "Hinder Movement: moving out of your space"),
        (-1, "Called Shot"),
    ]
    assert r.result == 8


# --------------------------------------------------------------------------------------------------------
# Gaining and losing d12
# --------------------------------------------------------------------------------------------------------


def test_gaining_a_d12_rolls_one_more_die() -> None:
    """reference §1.1: "Gaining or losing d12 ("lose 1d12", "+1d12") changes how many dice are rolled, which
    is different from a +N modifier." Tier 2 + 1d12 rolls 3 dice: faces 2, 4, 11, so the result is 11 (with
    only 2 dice it would be 4)."""
    dice = ScriptedDice([2, 4, 11])
    r = roll(dice, "Martial", 2, dice_changes=[DiceChange(dice=1, reason="Two-handed")])
    assert r.dice == 3
    assert r.faces == (2, 4, 11)
    assert r.result == 11
    assert dice.remaining == 0


def test_losing_a_d12_rolls_one_die_fewer_and_keeps_the_reason() -> None:
    """seed-000 Flurry: "lose that number of d12 on attack rolls". Tier 3, lose 1d12: 2 dice, faces 5 and 9,
    result 9; the third scripted face (12) is never rolled."""
    dice = ScriptedDice([5, 9, 12])
    r = roll(dice, "Martial", 3, dice_changes=[DiceChange(dice=-1, reason="Flurry")])
    assert r.dice == 2
    assert r.result == 9
    assert dice.remaining == 1
    assert [(c.dice, c.reason) for c in r.dice_changes] == [(-1, "Flurry")]
    assert r.base_dice == 3


def test_dice_count_adds_every_change() -> None:
    """reference §1.1: "+1d12" and "lose 1d12" change how many dice are rolled: 2 + 2 - 1 = 3."""
    changes = [DiceChange(dice=2, reason="weapon size"), DiceChange(dice=-1, reason="Flurry")]
    assert dice_count(2, changes) == 3


def test_dice_count_never_goes_below_zero() -> None:
    """reference §1.3: "With 0 dice the result is 0 plus modifiers" — losing 5d12 from 2 dice leaves 0 dice,
    not -3."""
    assert dice_count(2, [DiceChange(dice=-5, reason="Flurry")]) == 0


# --------------------------------------------------------------------------------------------------------
# Zero dice
# --------------------------------------------------------------------------------------------------------


def test_zero_dice_result_is_zero_plus_modifiers() -> None:
    """reference §1.3: "With 0 dice the result is 0 plus modifiers. Such a roll cannot Fumble and cannot roll
    doubles." Tier 1, lose 3d12, +2: no dice, result 0 + 2 = 2, and no face is used."""
    dice = ScriptedDice([1, 1])
    r = roll(
        dice,
        "Elude",
        1,
        [Modifier(value=2, reason="Defensive Stance")],
        [DiceChange(dice=-3, reason="Flurry")],
    )
    assert r.dice == 0
    assert r.faces == ()
    assert r.result == 2
    assert r.doubles == ()
    assert r.highest_double is None
    assert r.fumble is False
    assert dice.remaining == 2


def test_zero_dice_with_no_modifiers_is_a_result_of_zero() -> None:
    """reference §1.3: a defense "treated as Tier 0" (Ambush) is "0 plus modifiers": 0, without asking the
    source for any face."""
    r = roll(ScriptedDice([]), "Elude (Ambushed)", 0)
    assert r.result == 0
    assert r.fumble is False


# --------------------------------------------------------------------------------------------------------
# Doubles
# --------------------------------------------------------------------------------------------------------


def test_doubles_lists_every_repeated_face_highest_first() -> None:
    """reference §1.4: "Doubles means at least two dice in one roll showing the same face value" and rolls
    expose "doubles: {faceValue, count}[]". Faces 5, 9, 2, 9, 5, 9: 9 three times, 5 twice."""
    r = roll(ScriptedDice([5, 9, 2, 9, 5, 9]), "Soulweaver's 3d12", 6)
    assert r.doubles == (Double(face=9, count=3), Double(face=5, count=2))


def test_highest_double_is_the_highest_doubled_face_not_the_highest_face() -> None:
    """seed-000 targeted attacks: "attack them each in order of the highest face value of doubles". Faces
    4, 12, 4: the highest face is 12 but the highest doubled face is 4."""
    r = roll(ScriptedDice([4, 12, 4]), "Soulweaver's 3d12", 3)
    assert r.highest_double == 4
    assert r.result == 12


def test_no_repeated_face_means_no_doubles() -> None:
    """reference §1.4: doubles need "at least two dice ... showing the same face value"; 3, 7, 11 has none."""
    r = roll(ScriptedDice([3, 7, 11]), "Soulweaver's 3d12", 3)
    assert r.doubles == ()
    assert r.highest_double is None


def test_a_single_die_never_shows_doubles() -> None:
    """reference §1.4: doubles need "at least two dice"; one die showing 6 is not doubles."""
    r = roll(ScriptedDice([6]), "Martial", 1)
    assert r.doubles == ()


# --------------------------------------------------------------------------------------------------------
# Fumble: more than half the dice show 1
# --------------------------------------------------------------------------------------------------------


def test_two_ones_of_four_dice_is_not_a_fumble() -> None:
    """reference §1.5: "A Fumble is flagged when more than half of the dice rolled show 1." 2 of 4 is exactly
    half, not more."""
    r = roll(ScriptedDice([1, 1, 7, 8]), "Endure", 4)
    assert r.fumble is False


def test_three_ones_of_five_dice_is_a_fumble() -> None:
    """reference §1.5: "more than half of the dice rolled show 1": 3 of 5 is more than 2.5."""
    r = roll(ScriptedDice([1, 6, 1, 9, 1]), "Endure", 5)
    assert r.fumble is True


def test_a_single_die_showing_one_is_a_fumble() -> None:
    """reference §1.5: "more than half of the dice rolled show 1": 1 of 1 is more than half."""
    r = roll(ScriptedDice([1]), "Endure", 1)
    assert r.fumble is True


def test_faces_met_before_come_to_what_they_came_to_and_other_faces_to_their_own() -> None:
    """What a roll's faces come to follows from the faces alone, and from all of them (how many, in which order):
    1, 1, 5 is a Fumble (2 of 3 dice show 1) with doubles of 1, again the second time; 1, 5, one die fewer, is
    neither; 5, 1, 1 is 1, 1, 5 in another order; 1, 5, 5 has doubles of 5 and is no Fumble."""
    dice = ScriptedDice([1, 1, 5, 1, 1, 5, 1, 5, 5, 1, 1, 1, 5, 5])
    got = [roll(dice, "Endure", n) for n in (3, 3, 2, 3, 3)]
    assert [(r.faces, r.result, r.fumble, r.highest_double) for r in got] == [
        ((1, 1, 5), 5, True, 1),
        ((1, 1, 5), 5, True, 1),
        ((1, 5), 5, False, None),
        ((5, 1, 1), 5, True, 1),
        ((1, 5, 5), 5, False, 5),
    ]
    assert [r.doubles for r in got] == [
        (Double(face=1, count=2),),
        (Double(face=1, count=2),),
        (),
        (Double(face=1, count=2),),
        (Double(face=5, count=2),),
    ]


def test_fumble_counts_dice_not_the_modified_result() -> None:
    """reference §1.5: the Fumble looks at "the dice rolled"; +5 on faces 1, 1 (result 6) is still a Fumble,
    and faces 1, 5 (one of two) is not."""
    fumbled = roll(ScriptedDice([1, 1]), "Endure", 2, [Modifier(value=5, reason="bonus")])
    assert fumbled.result == 6
    assert fumbled.fumble is True
    not_fumbled = roll(ScriptedDice([1, 5]), "Endure", 2)
    assert not_fumbled.fumble is False


# --------------------------------------------------------------------------------------------------------
# Scripted and typed dice
# --------------------------------------------------------------------------------------------------------


def test_scripted_dice_give_faces_in_order() -> None:
    """dice.py: `ScriptedDice` gives "Faces given in advance, used in order"."""
    dice = ScriptedDice([7, 2, 12])
    assert dice.faces(2, "first") == [7, 2]
    assert dice.faces(1, "second") == [12]
    assert dice.remaining == 0


def test_exhausted_script_raises_naming_the_purpose() -> None:
    """dice.py: "A scripted source ran out of faces" must say which roll needed them: 2 faces left, 3 asked
    for by "Grog: Strike on Mira"."""
    dice = ScriptedDice([4, 5])
    with pytest.raises(DiceScriptExhausted, match=r"Grog: Strike on Mira: needs 3 d12 but the script has 2 left"):
        dice.faces(3, "Grog: Strike on Mira")


def test_exhausted_script_through_a_roll_names_the_roll_label() -> None:
    """dice.py: a roll asks its source with its label as the purpose, so an exhausted script names the roll;
    it is a kind of DiceError."""
    with pytest.raises(DiceScriptExhausted, match="Mira: Elude defense") as info:
        roll(ScriptedDice([3]), "Mira: Elude defense", 2)
    assert isinstance(info.value, DiceError)


@pytest.mark.parametrize("bad", [0, 13, -1])
def test_scripted_dice_reject_faces_outside_one_to_twelve(bad: int) -> None:
    """reference §1.1: "All rolls use d12s", so a scripted face must be 1 to 12."""
    with pytest.raises(DiceError, match="not a d12 face"):
        ScriptedDice([5, bad])


def test_typed_dice_reject_a_face_outside_one_to_twelve() -> None:
    """reference §1.1: "All rolls use d12s": a person typing 13 for a d12 is refused."""
    dice = TypedDice(lambda count, purpose: [4, 13])
    with pytest.raises(DiceError, match="13 is not a d12 face"):
        dice.faces(2, "Martial")


def test_typed_dice_reject_the_wrong_number_of_faces() -> None:
    """reference §1.1: a Tier 3 skill rolls 3 d12; typing only 2 faces is refused, naming the roll."""
    dice = TypedDice(lambda count, purpose: [4, 9])
    with pytest.raises(DiceError, match="Martial: expected 3 d12 faces, got 2"):
        dice.faces(3, "Martial")


def test_typed_dice_are_asked_for_the_count_and_purpose() -> None:
    """dice.py: `TypedDice` "Faces typed in by a person who rolled physical dice; ask(count, purpose)"."""
    asked: list[tuple[int, str]] = []

    def ask(count: int, purpose: str) -> list[int]:
        asked.append((count, purpose))
        return [8, 3]

    r = roll(TypedDice(ask), "Mira: Elude", 2)
    assert asked == [(2, "Mira: Elude")]
    assert r.result == 8


# --------------------------------------------------------------------------------------------------------
# Random and recording sources
# --------------------------------------------------------------------------------------------------------


def test_random_dice_with_the_same_seed_repeat_the_same_faces() -> None:
    """dice.py: `RandomDice` is "a private, seedable generator": the same seed gives the same faces."""
    first = RandomDice(2024).faces(40, "Martial")
    second = RandomDice(2024).faces(40, "Martial")
    assert first == second
    assert len(first) == 40


def test_random_dice_faces_are_d12_faces() -> None:
    """reference §1.1: "All rolls use d12s": 600 seeded dice all lie in 1..12 and every face turns up."""
    faces = RandomDice(7).faces(600, "Martial")
    assert all(1 <= f <= 12 for f in faces)
    assert set(faces) == set(range(1, 13))


def test_random_dice_draw_the_faces_randint_draws_and_leave_the_generator_where_it_would() -> None:
    """dice.py: `RandomDice` faces (asked for, or drawn by `roll`) are those `randint(1, 12)` gives from the same
    seed, in order, and the generator is left exactly where those draws leave it: a seeded game replays the same
    whichever way its dice were drawn. Counts of 1 to 13 dice, over enough seeds that faces drawn again (12 to 15 of
    4 bits) turn up in every position."""
    redrawn = 0
    for seed in range(200):
        dice, expected = RandomDice(seed), random.Random(seed)
        for count in (1, 2, 3, 0, 5, 1, 8, 13, 4):
            before = expected.getstate()
            wanted = [expected.randint(1, 12) for _ in range(count)]
            assert dice.faces(count, "Martial") == wanted
            assert list(roll(dice, "Martial", count).faces) == [expected.randint(1, 12) for _ in range(count)]
            assert dice._rng.getstate() == expected.getstate()
            used = random.Random()
            used.setstate(before)
            redrawn += sum(1 for _ in range(count) if used.getrandbits(4) >= 12)
    assert redrawn > 100


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copy_of_random_dice_draws_from_its_own_generator(how: str) -> None:
    """dice.py: a deep copy or a pickled copy of seeded dice draws what the original would draw next, from a
    generator of its own: its rolls and faces leave the original where it was, and the original's leave the copy."""
    dice = RandomDice(21)
    roll(dice, "Martial", 3)
    copied = copy.deepcopy(dice) if how == "deepcopy" else pickle.loads(pickle.dumps(dice))
    expected = random.Random()
    expected.setstate(dice._rng.getstate())
    wanted = [expected.randint(1, 12) for _ in range(9)]
    assert list(roll(copied, "Martial", 3).faces) + copied.faces(6, "Martial") == wanted
    assert list(roll(dice, "Martial", 5).faces) + dice.faces(4, "Martial") == wanted
    assert copied._rng.getstate() == dice._rng.getstate() == expected.getstate()


def test_random_dice_leave_the_global_generator_alone() -> None:
    """dice.py: "Real dice for play: a private, seedable generator (never the global one)." Rolling does not
    move the global `random` state, and reseeding the global one does not change the dice."""
    random.seed(5)
    expected_next = random.random()
    random.seed(5)
    faces_a = RandomDice(11).faces(10, "Martial")
    assert random.random() == expected_next
    random.seed(99)
    faces_b = RandomDice(11).faces(10, "Martial")
    assert faces_a == faces_b


def test_recording_dice_keep_every_face_in_order() -> None:
    """dice.py: `RecordingDice` "keeps every face it gave, in order, so a command can be replayed exactly"."""
    rec = RecordingDice(ScriptedDice([3, 8, 1, 12]))
    roll(rec, "attack", 1)
    roll(rec, "defense", 3)
    assert rec.used == [3, 8, 1, 12]


# --------------------------------------------------------------------------------------------------------
# `roll` of RandomDice: what its draws come to, against the full computation
# --------------------------------------------------------------------------------------------------------


def test_random_rolls_are_the_rolls_of_their_faces_worked_out_in_full() -> None:
    """dice.py: a roll of `RandomDice` reads what its faces come to from the draws (`_OF_DRAWS`, worked out once
    for rolls of up to 3 dice, kept as met for more): each is the `Roll` of the same faces, dice changes and
    modifiers worked out in full (`Roll.__post_init__`): result, dice, doubles, highest double and Fumble. Counts
    0 to 9 (with and without dice changes), with and without modifiers, over enough rolls that every face, doubles
    and Fumbles turn up; and again once no more draws may be kept."""
    rng = random.Random(14)
    seen_fumble = seen_doubles = 0
    for seed in range(300):
        dice = RandomDice(seed)
        for _ in range(6):
            base = rng.randint(0, 6)
            changes = tuple(DiceChange(rng.choice((-2, -1, 1, 2, 3)), "x") for _ in range(rng.randint(0, 2)))
            mods = [Modifier(rng.randint(-3, 3), f"m{i}") for i in range(rng.randint(0, 2))]
            r = roll(dice, "Martial", base, mods, changes)
            whole = Roll(label="Martial", base_dice=base, dice_changes=changes, faces=r.faces, modifiers=tuple(mods))
            assert r == whole
            assert r.dice == len(r.faces) == dice_count(base, changes)
            seen_fumble += r.fumble
            seen_doubles += bool(r.doubles)
    assert seen_fumble > 10 and seen_doubles > 100


def test_random_rolls_of_draws_not_kept_are_worked_out_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """dice.py: once `_OF_DRAWS` may keep no more draws, a roll of draws not kept (5 dice) is still the `Roll` of
    its faces worked out in full, and nothing more is kept."""
    monkeypatch.setattr(dice_module, "_OF_DRAWS", dict(dice_module._OF_DRAWS))
    monkeypatch.setattr(dice_module, "_OF_DRAWS_KEPT", len(dice_module._OF_DRAWS))
    kept = len(dice_module._OF_DRAWS)
    dice = RandomDice(3)
    for _ in range(200):
        r = roll(dice, "Martial", 5)
        assert r == Roll(label="Martial", base_dice=5, faces=r.faces)
    assert len(dice_module._OF_DRAWS) == kept


def test_every_draws_worked_out_once_are_their_faces_in_full() -> None:
    """dice.py: each of the 12 + 144 + 1728 draws of 1 to 3 dice worked out on import comes to its faces (each
    draw plus one, in order) and what those faces come to in full; other sources' rolls of those faces read the
    same."""
    draws_of_three = [(a, b, c) for a in range(12) for b in range(12) for c in range(12)]
    every = [(a,) for a in range(12)] + [(a, b) for a in range(12) for b in range(12)] + draws_of_three
    for draws in every:
        key = 1
        for d in draws:
            key = key * 16 + d
        faces, *came_to = dice_module._OF_DRAWS[key]
        assert faces == tuple(d + 1 for d in draws)
        whole = Roll(label="x", base_dice=len(faces), faces=faces)
        assert came_to == [whole.result, whole.fumble, whole.doubles, whole.highest_double]
        assert dice_module._OF_FACES[faces] == tuple(came_to)
