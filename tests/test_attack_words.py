"""The attack's sentence and its numbers: `words.NUMERALS` is `str` of any int, and a defense answered once its
attacker is gone is refused as `Tx.get` refuses it (attacks.finish reads the two names without Tx.get's calls)."""

from __future__ import annotations

import random

import pytest
from factories import armed_pair_and_hidden_rat, run

from vtt.rules.checks import AttackResult, describe_attack
from vtt.rules.dice import Modifier, ScriptedDice, roll
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
    """checks.describe_attack: a roll's result, the DL and the defense's result read as `str` gives them, small or
    not (a large bonus, a negative result): a failed attack, a declined defense, and each verdict against one."""
    for bonus in (0, 250, -40, -80, 9000):
        attack = roll(ScriptedDice([7]), "a", 1, [Modifier(bonus, "b")])
        defense = roll(ScriptedDice([5]), "d", 1, [Modifier(bonus // 2, "b")])
        a, d = str(attack.result), str(defense.result)
        for dl in (3, 300, -100):
            texts = [
                describe_attack(r, r.success, "Grog", "Mira")
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
