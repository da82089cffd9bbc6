"""Hand-worked tests of the roll after each minute for a Readied Spell or Talent (seed-000 Ready), told by the
Soulweaver's `pass_time`.

seed-000 Ready: "Manifest a spell or Talent to keep it in your Free Limb without having any effect until you complete
it as a Minor Action. ... After each minute, roll Manifest to not lose the effect, DL equal to the number of minutes
you have had it Ready."

m (Magic 3, Endure 2) keeps Firebolt (a fire Spell, Manifest rolls Magic) Ready in its left arm; n (Magic 2) keeps
Ward (an air Spell) Ready; o keeps nothing. Scripted faces: each roll in turn, minute by minute, the creatures in
the board's order; a roll is its highest face; more than half the dice showing 1 is a Fumble, which fails (table
setting `fumble_always_fails`).
"""

from __future__ import annotations

from typing import Any

from factories import creature, of_kind, on_turn, run, state

from vtt.rules.dice import Roll
from vtt.rules.model import Creature, GameState, Readied


def readied(c: Creature, ability: str, minutes: int = 0) -> Creature:
    arm = c.limb("left_arm")
    assert arm is not None
    arm.readied = Readied(
        ability=ability, roll=Roll(label="Manifest", base_dice=3, faces=(7, 2, 3)), dl=6, minutes=minutes
    )
    return c


def field(m_minutes: int = 0, with_n: bool = False, **m_kw: Any) -> GameState:
    m = readied(
        creature("m", (5, 5), skills={"Magic": 3, "Endure": 2}, abilities=["firebolt"], **m_kw), "firebolt", m_minutes
    )
    others = [creature("o", (7, 5), skills={"Magic": 2})]
    if with_n:
        others.append(readied(creature("n", (9, 5), skills={"Magic": 2}, abilities=["ward"]), "ward"))
    return state(m, *others)


def kept(s: GameState, who: str = "m") -> Readied | None:
    arm = s.creatures[who].limb("left_arm")
    assert arm is not None
    return arm.readied


def test_after_each_minute_the_dl_is_the_minutes_held() -> None:
    """seed-000: "After each minute, roll Manifest to not lose the effect, DL equal to the number of minutes you have
    had it Ready." Three minutes pass: Magic 2, 2, 1 -> 2 against DL 1; 2, 1, 2 -> 2 against DL 2; 3, 1, 2 -> 3
    against DL 3: kept each time, now held 3 minutes. The fight need not have begun."""
    s, events = run(field(), {"type": "pass_time", "minutes": 3}, [2, 2, 1, 2, 1, 2, 3, 1, 2])
    checks = of_kind(events, "ready_check")
    assert [(e.data["dl"], e.data["kept"], e.data["minutes"]) for e in checks] == [
        (1, True, 1),
        (2, True, 2),
        (3, True, 3),
    ]
    assert [e.rolls[0].label for e in checks] == ["M: Manifest to keep Firebolt Ready (Magic)"] * 3
    held = kept(s)
    assert held is not None and held.minutes == 3 and held.roll.result == 7


def test_failing_the_minute_roll_loses_the_effect() -> None:
    """m has held Firebolt 2 minutes; after the next, DL 3: Magic 2, 2, 1 -> 2: lost, and its arm is free again. The
    second minute asks for no roll: nothing is Ready any more."""
    s, events = run(field(m_minutes=2), {"type": "pass_time", "minutes": 2}, [2, 2, 1])
    (check,) = of_kind(events, "ready_check")
    assert (check.data["dl"], check.data["kept"]) == (3, False)
    assert kept(s) is None
    arm = s.creatures["m"].limb("left_arm")
    assert arm is not None and arm.free


def test_a_fumbled_minute_roll_fails_even_above_the_dl() -> None:
    """A Fumble always fails (table setting): after the first minute, DL 1: Magic 4, 1, 1 -> 4 but two of three dice
    show 1: lost."""
    s, events = run(field(), {"type": "pass_time", "minutes": 1}, [4, 1, 1])
    assert of_kind(events, "ready_check")[0].data["kept"] is False
    assert kept(s) is None


def test_vulnerable_to_the_abilitys_type_raises_the_minute_dl_by_2() -> None:
    """seed-004 Vulnerable: "increase the DL to Manifest abilities of the type by 2". m is Vulnerable to fire: after
    the first minute, DL 1 + 2 = 3: Magic 2, 2, 1 -> 2: lost."""
    s, events = run(field(vulnerabilities=["fire"]), {"type": "pass_time", "minutes": 1}, [2, 2, 1])
    (check,) = of_kind(events, "ready_check")
    assert (check.data["dl"], check.data["kept"]) == (3, False)
    assert kept(s) is None


def test_every_creature_keeping_an_ability_ready_rolls() -> None:
    """Each creature with something Ready rolls, in the board's order; o, with nothing Ready, does not. One minute:
    m Magic 5, 2, 3 against DL 1: kept; n Magic 1, 2 against DL 1: kept. On a begun fight the same."""
    s0 = on_turn(field(with_n=True), "m")
    s, events = run(s0, {"type": "pass_time", "minutes": 1}, [5, 2, 3, 1, 2])
    assert [(e.target, e.data["ability"], e.data["kept"]) for e in of_kind(events, "ready_check")] == [
        ("m", "firebolt", True),
        ("n", "ward", True),
    ]
    m, n = kept(s, "m"), kept(s, "n")
    assert m is not None and n is not None and (m.minutes, n.minutes) == (1, 1)
