"""The attack's sentence and its numbers: `words.NUMERALS` is `str` of any int, and a defense answered once its
attacker is gone is refused as `Tx.get` refuses it (attacks.finish reads the two names without Tx.get's calls)."""

from __future__ import annotations

import random

import pytest
from factories import armed_pair_and_hidden_rat, run

from vtt.rules.checks import AttackResult, attack_succeeds, judge_attack
from vtt.rules.dice import Modifier, Roll, ScriptedDice, roll
from vtt.rules.engine import apply
from vtt.rules.events import RuleError
from vtt.rules.fastmodel import shallow_copy
from vtt.rules.settings import TableSettings
from vtt.rules.words import NUMERALS


def test_numerals_are_the_ints_texts() -> None:
    """words.py: `NUMERALS[n]` is `str(n)` for the ints made once (-64 to 255), those beside them and far off."""
    rng = random.Random(3)
    numbers = [*range(-300, 300), *(rng.randint(-(10**12), 10**12) for _ in range(300)), 10**30, -(10**30)]
    assert [NUMERALS[n] for n in numbers] == [str(n) for n in numbers]


def test_attack_sentences_say_every_number_as_str_says_it() -> None:
    """checks.judge_attack: a roll's result, the DL and the defense's result read as `str` gives them, small or
    not (a large bonus, a negative result): a failed attack, a declined defense, and each verdict against one."""
    for bonus in (0, 250, -40, -80, 9000):
        attack = roll(ScriptedDice([7]), "a", 1, [Modifier(bonus, "b")])
        defense = roll(ScriptedDice([5]), "d", 1, [Modifier(bonus // 2, "b")])
        a, d = str(attack.result), str(defense.result)
        for dl in (3, 300, -100):
            texts = [
                judge_attack(r, "Grog", "Mira")[1]
                for r in (
                    AttackResult(attack=attack, dl=dl, defense_skill="Elude", defense=defense),
                    AttackResult(attack=attack, dl=dl, defense_skill="Elude"),
                )
            ]
            if attack.result < dl:
                assert texts == [f"Grog rolled {a}, short of DL {dl}: the attack on Mira fails."] * 2
                continue
            verdict = "succeeds" if attack.result > defense.result else "fails"
            assert texts == [
                f"Grog rolled {a} (DL {dl}) against Mira's Elude {d}: the attack {verdict}.",
                f"Grog rolled {a} (DL {dl}); Mira declined to defend: the attack succeeds.",
            ]


@pytest.mark.parametrize(
    ("gone", "refusal"), [("ayla", "there is no creature 'ayla'"), ("orc", "the defender is gone")]
)
def test_a_defense_answered_once_a_side_is_gone_is_refused_naming_it(gone: str, refusal: str) -> None:
    """attacks.finish: Ayla's Strike waits on the orc's defense (`defense_prompts` "everyone"); with the attacker
    gone from the state, declining it is refused as `Tx.get` refuses a creature that is not there (with the defender
    gone, `answer_defense` refuses it first)."""
    s = armed_pair_and_hidden_rat(TableSettings(defense_prompts="everyone", reactions=False))
    s, _ = run(s, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}, [9, 9])
    (decision,) = s.pending
    creatures = dict(s.creatures)
    del creatures[gone]
    without = shallow_copy(s, creatures=creatures)
    with pytest.raises(RuleError, match=refusal):
        apply(without, {"type": "defend", "decision": decision.id, "roll": False}, ScriptedDice([]))


def _sentence_as_written(r: AttackResult, attacker: str, defender: str) -> str:
    """The attack's sentence, worked out plainly from the result's properties (the rule `judge_attack` follows)."""
    if not r.reached_dl:
        why = "Fumbled" if r.fumble_fails and r.attack.fumble else f"rolled {r.attack.result}, short of DL {r.dl}"
        return f"{attacker} {why}: the attack on {defender} fails."
    if r.declined:
        return f"{attacker} rolled {r.attack.result} (DL {r.dl}); {defender} declined to defend: the attack succeeds."
    assert r.defense is not None
    tie = f" (a tie goes to the {r.ties_to})" if r.attack.result == r.defense.result else ""
    verdict = "succeeds" if r.success else "fails"
    return (
        f"{attacker} rolled {r.attack.result} (DL {r.dl}) against {defender}'s {r.defense_skill} "
        f"{r.defense.result}{tie}: the attack {verdict}."
    )


def test_judge_attack_is_the_results_success_and_its_sentence() -> None:
    """checks.judge_attack works out the success and the sentence in one pass: over random attacks (Fumbles of
    either side, ties, declined defenses, either `ties_to`, Fumbles failing or not) it gives `attack_succeeds` and
    the sentence written out from the result's properties, and every case turns up."""
    rng = random.Random(11)
    seen: set[str] = set()

    def a_roll(label: str) -> Roll:
        count = rng.randint(1, 4)
        faces = [rng.choice([1, 1, 1, *range(1, 13)]) for _ in range(count)]
        return roll(ScriptedDice(faces), label, count, [Modifier(rng.randint(-3, 3), "m")])

    for _ in range(4000):
        attack = a_roll("a")
        defense = None if rng.random() < 0.2 else a_roll("d")
        r = AttackResult(
            attack, rng.randint(1, 6), "Elude", defense, rng.choice(["defender", "attacker"]), rng.random() < 0.7
        )
        assert judge_attack(r, "Grog", "Mira") == (attack_succeeds(r), _sentence_as_written(r, "Grog", "Mira"))
        if not r.reached_dl:
            seen.add("fumbled" if r.fumble_fails and attack.fumble else "short")
        elif defense is None:
            seen.add("declined")
        else:
            seen.add(f"tie {r.ties_to} {r.success}" if attack.result == defense.result else f"{r.success}")
            if defense.fumble:
                seen.add(f"defense fumbled, fumbles fail {r.fumble_fails}")
    assert seen == {
        "fumbled",
        "short",
        "declined",
        "True",
        "False",
        "tie defender False",
        "tie defender True",
        "tie attacker True",
        "defense fumbled, fumbles fail True",
        "defense fumbled, fumbles fail False",
    }
