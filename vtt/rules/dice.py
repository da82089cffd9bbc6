"""Dice: injected d12 sources and the roll results every rule reads.

A skill roll is N d12; its result is the single highest face plus flat modifiers (reference §1.1).
"+N" changes the result, "+Nd12" / "lose Nd12" changes how many dice are rolled; zero dice is allowed and
gives 0 plus modifiers with no doubles and no Fumble (reference §1.3, ASSUMPTION). A Fumble is more than
half of the dice showing 1 (reference §1.5).

Sources are injected so that no rule touches global randomness: `RandomDice` for play (seeded),
`ScriptedDice` for tests and replays, `TypedDice` for groups rolling physical dice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from vtt.rules.modifier_keys import OTHER, ModifierKey
from vtt.rules.records import Record

SIDES = 12
_SIDES_BITS = SIDES.bit_length()


class DiceError(ValueError):
    """A dice source could not give the faces asked for."""


class DiceScriptExhausted(DiceError):
    """A scripted source ran out of faces: `purpose` names the roll, which `wanted` faces with `left` remaining."""

    def __init__(self, purpose: str, wanted: int, left: int, used: int) -> None:
        super().__init__(f"{purpose}: needs {wanted} d12 but the script has {left} left (used {used} of {used + left})")
        self.purpose = purpose
        self.wanted = wanted
        self.left = left
        self.used = used

    def __reduce__(self) -> tuple[type[DiceScriptExhausted], tuple[str, int, int, int]]:
        return (type(self), (self.purpose, self.wanted, self.left, self.used))


class DiceSource(Protocol):
    """Anything that gives d12 faces for a roll. A source whose faces are d12 faces already (made so, or checked as
    they were given) says so with `d12_faces = True`; `roll` checks the faces of any other."""

    def faces(self, count: int, purpose: str) -> list[int]: ...


def _check_faces(faces: Sequence[int], count: int, purpose: str) -> list[int]:
    if len(faces) != count:
        raise DiceError(f"{purpose}: expected {count} d12 faces, got {len(faces)}")
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= SIDES:
            raise DiceError(f"{purpose}: {face!r} is not a d12 face (1 to 12)")
    return list(faces)


class RandomDice:
    """Real dice for play: a private, seedable generator (never the global one)."""

    d12_faces = True

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._bits = self._rng.getrandbits
        """The generator's `getrandbits`, read once: each read of `self._rng.getrandbits` makes a new bound method."""

    def __getstate__(self) -> dict[str, Any]:
        """A copy's state (`copy`, `pickle`) leaves `_bits` out: `deepcopy` would share it, drawing from the
        original's generator."""
        return {name: value for name, value in self.__dict__.items() if name != "_bits"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bits = self._rng.getrandbits

    def faces(self, count: int, purpose: str) -> list[int]:
        # randint(1, SIDES)'s draw, inlined: `Random._randbelow_with_getrandbits(SIDES)` takes SIDES.bit_length()
        # random bits until they are below SIDES; the faces are the same as randint's.
        bits = self._bits
        out: list[int] = []
        for _ in range(count):
            r = bits(_SIDES_BITS)
            while r >= SIDES:
                r = bits(_SIDES_BITS)
            out.append(1 + r)
        return out


class ScriptedDice:
    """Faces given in advance, used in order: tests, scenario files and replays of the log."""

    d12_faces = True  # checked when given

    def __init__(self, faces: Iterable[int]) -> None:
        given = list(faces)
        self._faces = _check_faces(given, len(given), "scripted dice")
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    def faces(self, count: int, purpose: str) -> list[int]:
        if count > self.remaining:
            raise DiceScriptExhausted(purpose, count, self.remaining, self._next)
        out = self._faces[self._next : self._next + count]
        self._next += count
        return out


class TypedDice:
    """Faces typed in by a person who rolled physical dice; `ask(count, purpose)` returns them."""

    d12_faces = True  # checked as they are typed

    def __init__(self, ask: Callable[[int, str], Sequence[int]]) -> None:
        self._ask = ask

    def faces(self, count: int, purpose: str) -> list[int]:
        return _check_faces(list(self._ask(count, purpose)), count, purpose)


class RecordingDice:
    """Wraps a source and keeps every face it gave, in order, so a command can be replayed exactly."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.used: list[int] = []
        self.d12_faces: bool = getattr(inner, "d12_faces", False)

    def faces(self, count: int, purpose: str) -> list[int]:
        got = self.inner.faces(count, purpose)
        self.used.extend(got)
        return got


@dataclass(frozen=True, slots=True)
class Modifier(Record):
    """A flat "+N"/"-N" on a roll's result, the rule that gave it (`reason` in words, `key` its kind) and the
    creature that gave it (`source`, see `modifier_keys`). All four take part in equality. Old logs carry only value
    and reason: they load with the key "other" and no source."""

    value: int
    reason: str
    key: ModifierKey = OTHER
    source: str | None = None


@dataclass(frozen=True, slots=True)
class DiceChange(Record):
    """A "+Nd12" / "lose Nd12" on how many dice are rolled, and the rule that gave it."""

    dice: int
    reason: str


@dataclass(frozen=True, slots=True)
class Double(Record):
    """A face shown by two or more dice of one roll."""

    face: int
    count: int


@dataclass(slots=True, unsafe_hash=True)
class Roll(Record):
    """One skill or effect roll: its faces, what changed it and why, and what it came to. Never changed once made
    (rolls are shared by events and kept states): equal rolls hash alike."""

    label: str
    base_dice: int
    dice_changes: tuple[DiceChange, ...] = ()
    faces: tuple[int, ...] = ()
    modifiers: tuple[Modifier, ...] = ()

    dice: int = 0
    result: int = 0
    doubles: tuple[Double, ...] = ()
    highest_double: int | None = None
    fumble: bool = False

    def __post_init__(self) -> None:
        """The dice, result, doubles and Fumble follow from the faces and modifiers; given values are replaced (on
        `Roll(...)` and on reading a roll with pydantic; `roll` sets them itself)."""
        faces = self.faces = tuple(self.faces)
        self.dice_changes = tuple(self.dice_changes)
        mods = self.modifiers = tuple(self.modifiers)
        top, fumble, doubles, highest = _of_faces(faces) if faces else _NO_FACES
        self.dice = len(faces)
        self.result = top + sum(m.value for m in mods)
        self.doubles = doubles
        self.highest_double = highest
        self.fumble = fumble

    def count_at_least(self, value: int) -> int:
        """How many faces reach `value` (damage, healing and Strike-type rules count faces)."""
        return sum(1 for f in self.faces if f >= value)


def _doubles(faces: tuple[int, ...]) -> tuple[Double, ...]:
    counts: dict[int, int] = {}
    for f in faces:
        counts[f] = counts.get(f, 0) + 1
    return tuple(_double(f, n) for f, n in sorted(counts.items(), reverse=True) if n >= 2)


_DOUBLES: dict[tuple[int, int], Double] = {}
"""Each (face, count) met so far: a Double is frozen, so every roll showing it may share one."""


def _double(face: int, n: int) -> Double:
    found = _DOUBLES.get((face, n))
    if found is None:
        found = Double(face, n)
        if len(_DOUBLES) < 1024:
            _DOUBLES[(face, n)] = found
    return found


_OfFaces = tuple[int, bool, tuple[Double, ...], int | None]
"""What a roll's faces (one or more) come to: the highest face, the Fumble, the doubles and the highest double."""


def _of_faces(faces: tuple[int, ...]) -> _OfFaces:
    n = len(faces)
    doubles = _doubles(faces) if n > 1 and len(set(faces)) < n else ()
    return max(faces), 2 * faces.count(1) > n, doubles, doubles[0].face if doubles else None


def _of_faces_kept(faces: tuple[int, ...]) -> _OfFaces:
    """`_of_faces` of faces not met yet, kept while there are fewer than `_OF_FACES_KEPT`."""
    found = _of_faces(faces)
    if len(_OF_FACES) < _OF_FACES_KEPT:
        _OF_FACES[faces] = found
    return found


def _of_draws(draws: int) -> _OfDraws:
    """The faces of `draws` (see `_OF_DRAWS`) and what they come to."""
    drawn: list[int] = []
    while draws > 1:
        draws, r = divmod(draws, _DRAWS_BASE)
        drawn.append(r + 1)
    faces = tuple(reversed(drawn))
    return (faces, *_of_faces(faces))


def _of_draws_kept(draws: int) -> _OfDraws:
    """`_of_draws` of draws not met yet (of more than `_DRAWS_MADE` dice), kept while fewer than `_OF_DRAWS_KEPT`
    draws are."""
    found = _of_draws(draws)
    if len(_OF_DRAWS) < _OF_DRAWS_KEPT:
        _OF_DRAWS[draws] = found
    return found


def _every_draws(dice: int) -> list[int]:
    """The draws (`_OF_DRAWS`) of each roll of 1 to `dice` d12, every face of every die."""
    every: list[int] = []
    last = [1]
    for _ in range(dice):
        last = [d * _DRAWS_BASE + r for d in last for r in range(SIDES)]
        every += last
    return every


_OfDraws = tuple[tuple[int, ...], int, bool, tuple[Double, ...], int | None]
"""A roll's faces and what they come to (`_OfFaces`)."""
_DRAWS_BASE = 1 << _SIDES_BITS
_DRAWS_MADE = 3
"""The draws of every roll of up to this many dice (1884 draws; most rolls are of 3 dice or fewer) are worked out
once, on import: a game rolls too few dice for most of them to be met again soon."""
_OF_DRAWS_KEPT = 4096
_OF_DRAWS: dict[int, _OfDraws] = {draws: _of_draws(draws) for draws in _every_draws(_DRAWS_MADE)}
"""The faces of a roll of `RandomDice` and what they come to, by its draws: the int written in base `_DRAWS_BASE`
with a 1 and then each draw (a face less one), in order. All those of up to `_DRAWS_MADE` dice, and a few thousand
of more dice as `roll` meets them."""
_OF_FACES: dict[tuple[int, ...], _OfFaces] = {drawn[0]: drawn[1:] for drawn in _OF_DRAWS.values()}
"""`_of_faces` of the faces of other sources' rolls (`RecordingDice`, `ScriptedDice`): what a roll's faces come to
follows from them alone. Those of up to `_DRAWS_MADE` dice, and a few thousand of more dice as `roll` meets them."""
_OF_FACES_KEPT = 4096
_NO_FACES: _OfFaces = (0, False, (), None)
"""What no dice come to (before modifiers)."""


def dice_count(base_dice: int, dice_changes: Iterable[DiceChange] = ()) -> int:
    """How many d12 a roll uses after every +Nd12 / lose Nd12; never fewer than zero."""
    return max(0, base_dice + sum(c.dice for c in dice_changes))


def roll(
    source: DiceSource,
    label: str,
    base_dice: int,
    modifiers: Iterable[Modifier] = (),
    dice_changes: Iterable[DiceChange] = (),
) -> Roll:
    """Roll `base_dice` d12 changed by `dice_changes`, with flat `modifiers`."""
    count = base_dice
    if dice_changes:
        changes = tuple(dice_changes)  # of a tuple, that tuple
        for c in changes:
            count += c.dice
    else:
        changes = ()
    # The faces are d12 faces (checked, or made or checked by the rules' own dice).
    if count <= 0:
        count = 0
        faces: tuple[int, ...] = ()
        top, fumble, doubles, highest = _NO_FACES
    else:
        if type(source) is RandomDice:  # d12 faces by construction, drawn as `faces` draws them (`_OF_DRAWS`)
            bits = source._bits
            draws = 1
            left = count
            while left:
                left -= 1
                r = bits(_SIDES_BITS)
                while r >= SIDES:
                    r = bits(_SIDES_BITS)
                draws = draws * _DRAWS_BASE + r
            faces, top, fumble, doubles, highest = _OF_DRAWS.get(draws) or _of_draws_kept(draws)
        else:
            got = source.faces(count, label)
            faces = tuple(got if getattr(source, "d12_faces", False) else _check_faces(got, count, label))
            top, fumble, doubles, highest = _OF_FACES.get(faces) or _of_faces_kept(faces)
    total = top
    if modifiers:
        mods = tuple(modifiers)
        for m in mods:
            total += m.value
    else:
        mods = ()
    out: Roll = _new(Roll)  # `Roll(...)` without `__post_init__`: the fields it derives are set here
    out.label = label
    out.base_dice = base_dice
    out.dice_changes = changes
    out.faces = faces
    out.modifiers = mods
    out.dice = count
    out.result = total
    out.doubles = doubles
    out.highest_double = highest
    out.fumble = fumble
    return out


_new = object.__new__
