"""What a defense roll against an attack is rolled with (`attacks.defense_inputs`): a defender nothing can change the
defense of is answered without asking each rule (`attacks._unmodified`); anything that changes it is still found.

Each case below is a plain defender's state with one thing changed that the rules say changes its defense against
A's Strike: its defense inputs differ from the plain one's (the test fails if `_unmodified` did not read that
thing). Random fights with ailments, Wounded parts, Guard, Holds, effects, carried Bulk and Concealment give the
same inputs as the rules asked one by one."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from factories import creature, on_turn, state, weapon
from test_plan_kept import with_creature, with_state
from test_strike_kept import _hurt, crowded_fight

from vtt.rules import attacks, positions
from vtt.rules.commands import Strike
from vtt.rules.conditions import PHYSICAL_DEFENSE
from vtt.rules.dice import Modifier, ScriptedDice, roll
from vtt.rules.engine import apply
from vtt.rules.model import AilmentSource, BodyPart, Effect, GameState, Hold, Pool
from vtt.rules.settings import TableSettings

SWORD = weapon("sword", 2)


def fight(**settings: Any) -> GameState:
    """A (a sword in its right arm) and B next to it, empty-handed, A's turn."""
    a = creature("a", (5, 5), weapons=[SWORD], grip={"right_arm": "sword"}, controller="p1")
    b = creature("b", (6, 5))
    return on_turn(state(a, b, settings=TableSettings(defense_prompts="nobody", reactions=False, **settings)), "a")


def defense(s: GameState, attacker: str = "a", target: str = "b", skill: str = "Elude", **spec: Any) -> Any:
    attack = roll(ScriptedDice([7, 7]), "attack", 2)
    made = attacks.AttackSpec("strike", attacker, target, 3, skill, attack, params={})
    return attacks.defense_inputs(s, made._replace(**spec) if spec else made)


def _wounded_arm(s: GameState) -> GameState:
    parts = [BodyPart(**{**p.model_dump(), "wounded": 1}) if p.id == "left_arm" else p for p in s.creatures["b"].parts]
    return with_creature(s, "b", parts=parts)


def _guard(s: GameState) -> GameState:
    parry = weapon("parry", 1, guard=2)
    b = s.creatures["b"]
    limbs = [lb.model_copy(update={"holding": "parry"}) if lb.id == "right_arm" else lb for lb in b.limbs]
    return with_creature(s, "b", weapons=[parry], limbs=limbs)


def _stance(s: GameState) -> GameState:
    stance = Effect(id="e1", name="Defensive Stance", creator="b", subject="b", modifiers={PHYSICAL_DEFENSE: 1})
    return with_state(s, effects=[stance])


def _held(s: GameState) -> GameState:
    return with_state(s, holds={"h1": Hold(id="h1", holders={"a": ["left_arm"]}, held=["b"])})


def _frightened_of_a(s: GameState) -> GameState:
    fear = AilmentSource(ailment="Frightened", tiers=2, source="creature:a")
    return with_creature(s, "b", ailments={"Frightened": 2}, ailment_sources=[fear])


Change = Callable[[GameState], GameState]
CHANGES: list[tuple[str, Change]] = [
    ("Crowded", lambda s: with_creature(s, "b", ailments={"Crowded": 1})),
    ("Unstable", lambda s: with_creature(s, "b", ailments={"Unstable": 2})),
    ("Exhausted", lambda s: with_creature(s, "b", ailments={"Exhausted": 1})),
    ("Encumbered", lambda s: with_creature(s, "b", ailments={"Encumbered": 1})),
    ("Frightened of the attacker", _frightened_of_a),
    ("a Wounded arm, no ailment", _wounded_arm),
    ("a weapon with a Guard gripped", _guard),
    ("a Defensive Stance", _stance),
    ("in a Hold", _held),
    ("carried Bulk over the limit", lambda s: with_creature(s, "b", gear_bulk=100)),
]


@pytest.mark.parametrize(("what", "change"), CHANGES, ids=[c[0] for c in CHANGES])
def test_what_changes_a_defense_is_found(what: str, change: Change) -> None:
    s = fight()
    label, dice, mods = defense(s)
    assert (label, dice, mods) == ("B: Elude defense", 2, ())
    changed = defense(change(s))
    assert changed[:2] == (label, dice)
    assert changed[2], f"{what} changes B's defense"


def test_concealment_on_defenses_is_found() -> None:
    """With the table's penalty for Concealment on defenses, B in the dark defends with it; without, it does not."""
    dark: dict[str, Any] = {"ambient_light": "dark"}
    assert defense(fight(**dark))[2] == ()
    assert [m.key for m in defense(fight(concealment_defense_per_tier=1, **dark))[2]] == ["concealment"]


def test_the_attack_own_defense_modifiers_are_kept() -> None:
    given = Modifier(value=-1, reason="given by the attack", key="other")
    assert defense(fight(), defense_modifiers=[given])[2] == (given,)


def _busier(s: GameState, rng: random.Random) -> GameState:
    """`s` with, at random, an effect on a creature, a Hold between two, and Bulk carried."""
    ids = list(s.creatures)
    changes: dict[str, Any] = {}
    if rng.random() < 0.3:
        who = rng.choice(ids)
        key = rng.choice([PHYSICAL_DEFENSE, "physical_attack"])
        changes["effects"] = [Effect(id="e1", name="Stance", creator=who, subject=who, modifiers={key: 1})]
    if rng.random() < 0.3:
        holder, held = rng.sample(ids, 2)
        changes["holds"] = {"h1": Hold(id="h1", holders={holder: ["left_arm"]}, held=[held])}
    out = with_state(s, **changes) if changes else s
    for cid in ids:
        if rng.random() < 0.2:
            out = with_creature(out, cid, gear_bulk=rng.choice([5, 40, 100]))
    return out


@pytest.mark.parametrize("seed", range(30))
def test_a_defense_is_the_defense_every_rule_is_asked_of(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    s = _busier(crowded_fight(seed), rng)
    pairs = [(a, b) for a in s.creatures for b in s.creatures if a != b]
    skills = ["Elude", "Endure", "Athletics", "Nimble"]
    found = [defense(s, a, b, skill) for a, b in pairs for skill in skills]
    monkeypatch.setattr(attacks, "_unmodified", lambda state, defender: False)
    assert found == [defense(s, a, b, skill) for a, b in pairs for skill in skills]


def _spec(attacker: str, target: str, skill: str) -> attacks.AttackSpec:
    return attacks.AttackSpec("strike", attacker, target, 3, skill, roll(ScriptedDice([7, 7]), "attack", 2), params={})


@pytest.mark.parametrize(("what", "change"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_defense_kept_across_states_is_not_reused_when_something_modifies_it(what: str, change: Change) -> None:
    """`attacks.plain_defense_inputs` keeps the inputs of B's plain defense by what it reads: on a state where one
    thing modifies B's defense, they are not reused, and the inputs are those every rule gives."""
    s = fight()
    spec = _spec("a", "b", "Elude")
    plain, kept = attacks.plain_defense_inputs(s, spec, None)
    assert kept is not None and plain == ("B: Elude defense", 2, ())
    changed = change(s)
    found, _ = attacks.plain_defense_inputs(changed, spec, kept)
    assert found == attacks.defense_inputs(changed, spec)
    assert found != plain, f"{what} changes B's defense"


def test_a_defense_kept_across_states_is_reused_for_equal_values() -> None:
    """B's plain defense on a later state where B took damage (its Pools) and its skills, ailments and parts are new
    objects of the same values: the inputs kept are reused, and they are the inputs worked out anew."""
    s = fight()
    spec = _spec("a", "b", "Elude")
    plain, kept = attacks.plain_defense_inputs(s, spec, None)
    b = s.creatures["b"]
    later = with_creature(
        s, "b", grit=Pool(max=6, pips=3), skills=dict(b.skills), ailments={}, parts=[p.model_copy() for p in b.parts]
    )
    assert attacks.plain_defense_inputs(later, spec, kept) == (plain, kept)
    assert attacks.defense_inputs(later, spec) == plain


@pytest.mark.parametrize("seed", range(30))
def test_a_defense_kept_across_states_is_the_defense_every_rule_is_asked_of(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """For random fights, each creature's defense against each other's attack on each skill, kept on a state with
    `plain_defense_inputs`, then asked on a later state (the defender hurt anew, the fight made busier, or both, or
    nothing changed but new copies): the inputs are those every rule gives on the later state."""
    rng = random.Random(seed)
    s = _busier(crowded_fight(seed), rng)
    cases: list[tuple[attacks.AttackSpec, GameState, attacks.PlainDefense | None]] = []
    for a in s.creatures:
        for b in s.creatures:
            for skill in ["Elude", "Endure", "Athletics"] if a != b else []:
                spec = _spec(a, b, skill)
                kept = attacks.plain_defense_inputs(s, spec, None)[1]
                later = s
                if rng.random() < 0.5:
                    later = with_state(later, creatures={**later.creatures, b: _hurt(later.creatures[b], rng)})
                if rng.random() < 0.3:
                    later = _busier(later, rng)
                cases.append((spec, with_creature(later, b), kept))
    found = [attacks.plain_defense_inputs(later, spec, kept)[0] for spec, later, kept in cases]
    monkeypatch.setattr(attacks, "_unmodified", lambda state, defender: False)
    assert found == [attacks.defense_inputs(later, spec) for spec, later, _ in cases]


def test_a_strike_builds_its_spec_result_and_hit_of_every_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """`attacks.new_record` is given all a record's fields in order (a field added to `AttackSpec`, `AttackResult` or
    `damage.Hit` and not to its builder would make a short tuple, failing only where the field is read)."""
    built: list[str] = []
    new_record = attacks.new_record

    def checked(cls: Any, values: tuple[Any, ...]) -> Any:
        assert len(values) == len(cls._fields), cls
        built.append(cls.__name__)
        return new_record(cls, values)

    monkeypatch.setattr(attacks, "new_record", checked)
    apply(fight(), Strike(creature="a", target="b", weapon="sword"), ScriptedDice([12, 12, 1, 1, 6, 6, 6, 6, 6, 6]))
    assert built == ["AttackSpec", "AttackResult", "Hit"]


def _stance_in_place(s: GameState) -> None:
    s.effects.append(Effect(id="e1", name="Stance", creator="b", subject="b", modifiers={PHYSICAL_DEFENSE: 1}))


def _wound_arm_in_place(s: GameState) -> None:
    arm = s.creatures["b"].part("left_arm")
    assert arm is not None
    arm.wounded = 1


InPlace = Callable[[GameState], None]
IN_PLACE: list[tuple[str, InPlace]] = [
    ("Crowded", lambda s: s.creatures["b"].ailments.update(Crowded=1)),
    ("a Wounded arm, no ailment", _wound_arm_in_place),
    ("a Defensive Stance", _stance_in_place),
    ("in a Hold", lambda s: s.holds.update(h1=Hold(id="h1", holders={"a": ["left_arm"]}, held=["b"]))),
    ("carried Bulk over the limit", lambda s: setattr(s.creatures["b"], "gear_bulk", 100)),
    ("a higher Elude", lambda s: s.creatures["b"].skills.update(Elude=4)),
    ("another name", lambda s: setattr(s.creatures["b"], "name", "Bee")),
]


@pytest.mark.parametrize(("what", "change"), IN_PLACE, ids=[c[0] for c in IN_PLACE])
def test_a_defense_kept_across_states_follows_a_change_made_in_place(what: str, change: InPlace) -> None:
    """A caller changes B's sheet or the state in place (the same dicts, lists and parts) after B's plain defense was
    kept: the inputs kept are not reused, and they are those every rule gives on the state as it is now."""
    s = fight()
    spec = _spec("a", "b", "Elude")
    plain, kept = attacks.plain_defense_inputs(s, spec, None)
    change(s)
    found, _ = attacks.plain_defense_inputs(s, spec, kept)
    assert found == attacks.defense_inputs(s, spec)
    assert found != plain, f"{what} changes B's defense"


@pytest.mark.parametrize(("what", "change"), IN_PLACE, ids=[c[0] for c in IN_PLACE])
def test_a_strike_after_the_defender_changed_in_place_defends_as_on_a_new_state(what: str, change: InPlace) -> None:
    """A's Strike on B misses (B is not replaced), then B's sheet or the state is changed in place and A strikes again:
    B's defense is rolled as on a copy of that state nothing was kept for."""
    s = fight()
    strike = Strike(creature="a", target="b", weapon="sword")
    apply(s, strike, ScriptedDice([1] * 12))
    change(s)
    again = apply(s, strike, ScriptedDice([1] * 12))[1]
    positions.forget()
    new = s.model_copy(update={"creatures": dict(s.creatures)})
    assert again == apply(new, strike, ScriptedDice([1] * 12))[1]
    defended = [r for e in again if e.kind == "attack" for r in e.rolls][1]
    assert (defended.label, defended.base_dice, defended.modifiers) != ("B: Elude defense", 2, ()), what
