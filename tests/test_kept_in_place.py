"""What a Strike keeps across states (`vtt.rules.plan_kept`: its plan, the Economy its Major Action leaves) is kept
with a snapshot of what it read, so a caller that changes a creature, the Economy or the effects IN PLACE (the same
dicts, lists, limbs and parts) between two Strikes gets the Strike worked out anew for the state as it is now: the
outcome is that of the same Strike on a deep copy of the state with nothing kept."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest
from test_plan_kept import fight, prepared
from test_strike_kept import _outcome, crowded_fight

from vtt.rules import plan_kept, positions
from vtt.rules.conditions import PHYSICAL_ATTACK
from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import apply
from vtt.rules.model import BodyPart, Creature, Effect, GameState, Limb

STRIKE = {"type": "strike", "creature": "a", "target": "b", "weapon": "sword"}
FACES = [7, 3, 2, 2, 5, 4, 3, 2, 6, 1, 1, 1]


def _part(c: Creature, part_id: str) -> BodyPart:
    found = c.part(part_id)
    assert found is not None
    return found


def _limb(c: Creature, limb_id: str) -> Limb:
    found = c.limb(limb_id)
    assert found is not None
    return found


def _wound_attacking_arm(s: GameState) -> None:
    _part(s.creatures["a"], "right_arm").wounded = 1


def _sword_to_left_arm(s: GameState) -> None:
    """A's sword moves from its right hand to its left (whose spear it drops), the same limbs changed in place."""
    a = s.creatures["a"]
    _limb(a, "left_arm").holding = "sword"
    _limb(a, "right_arm").holding = None
    _part(a, "left_arm").wounded = 2


def _sword_made_accurate(s: GameState) -> None:
    weapons = s.creatures["a"].weapons
    weapons[0] = weapons[0].model_copy(update={"accurate": True})


def _blessing(s: GameState) -> None:
    s.effects.append(Effect(id="e1", name="Blessing", creator="b", subject="a", modifiers={PHYSICAL_ATTACK: 0}))


def _blessing_raised(s: GameState) -> None:
    s.effects[0].modifiers[PHYSICAL_ATTACK] = 2


InPlace = Callable[[GameState], None]
IN_PLACE: list[tuple[str, InPlace | None, InPlace]] = [
    ("A Dazzled", None, lambda s: s.creatures["a"].ailments.update(Dazzled=3)),
    ("A's Martial raised", None, lambda s: s.creatures["a"].skills.update(Martial=4)),
    ("A's attacking arm Wounded", None, _wound_attacking_arm),
    ("A's sword in its other hand", None, _sword_to_left_arm),
    ("A's sword replaced in its list", None, _sword_made_accurate),
    ("B's size", None, lambda s: setattr(s.creatures["b"], "size", 2)),
    ("an effect's modifier", _blessing, _blessing_raised),
    ("A's Economy", None, lambda s: s.economy["a"].distractable.append("minor")),
]
"""Changes made in place (`before`, if any, is made first, as part of the state the first Strike is on)."""


def _deep(s: GameState) -> GameState:
    return copy.deepcopy(s)


@pytest.mark.parametrize(("what", "before", "change"), IN_PLACE, ids=[c[0] for c in IN_PLACE])
def test_a_strike_after_a_change_in_place_is_the_strike_on_a_deep_copy(
    what: str, before: InPlace | None, change: InPlace
) -> None:
    """A Strikes B on a state no menu was asked of (what it works out is kept across states), then the state or one
    of its creatures is changed in place and A Strikes again on that same state: the outcome is that of the Strike
    on a deep copy of the state as it is now, with nothing kept."""
    positions.forget()
    s = fight()
    if before is not None:
        before(s)
    first = _outcome(s, STRIKE, FACES)
    assert first[0] == "applied", first
    change(s)
    again = _outcome(s, STRIKE, FACES)
    positions.forget()
    assert again == _outcome(_deep(s), STRIKE, FACES), what


def _apply_in_place(s: GameState, rng: random.Random) -> str:
    """One change, at random, to something a plan reads of the attacker or target, made in place; what it was."""
    a, t = s.creatures["a"], s.creatures["b"]
    what = rng.choice(["ailments", "skills", "part", "limb", "weapons", "footprint", "immunities", "reductions"])
    if what == "ailments":
        a.ailments[rng.choice(["Dazzled", "Exhausted", "Crowded"])] = rng.randint(1, 3)
    elif what == "skills":
        a.skills["Martial"] = a.skills.get("Martial", 0) + rng.choice([-1, 1])
    elif what == "part":
        part = rng.choice([*a.parts, *t.parts])
        field = rng.choice(["wounded", "trauma", "severed", "size_offset"])
        setattr(part, field, not part.severed if field == "severed" else getattr(part, field) + 1)
    elif what == "limb":
        limb = rng.choice(a.limbs)
        limb.holding = rng.choice([None, "sword", "spear"])
    elif what == "weapons":
        a.weapons.reverse()
    elif what == "footprint":
        t.footprint = [t.anchor] if t.footprint is None else [*t.footprint, (t.anchor[0] + 1, t.anchor[1])]
    elif what == "immunities":
        a.immunities.append("heat")
    else:
        a.reductions["physical"] = rng.randint(1, 3)
    return what


@pytest.mark.parametrize("seed", range(4))
def test_kept_reads_hold_what_was_read_not_the_objects_read(seed: int) -> None:
    """For random crowded fights, what a plan read of its attacker and target (`reads_of`) is kept (`keep`), then
    changed in place at random: the plan kept is found again exactly when what it reads of the state now equals,
    field by field, what it read of a deep copy made when it was kept (nothing shared)."""
    rng = random.Random(seed)
    outcomes = set()
    for k in range(30):
        s = crowded_fight(500 + seed * 30 + k)
        ids = list(s.creatures)
        s.creatures["a"], s.creatures["b"] = s.creatures.pop(ids[0]), s.creatures.pop(ids[1])
        s.creatures["a"].id, s.creatures["b"].id = "a", "b"
        s.settings = s.settings.model_copy(update={"creatures_obstruct": False, "ambient_light": "lit"})
        inputs = ("probe", seed, k)
        plan_kept.forget()
        called_shot = rng.random() < 0.3
        reads = plan_kept.reads_of(s, s.creatures["a"], s.creatures["b"], None, called_shot)
        assert reads is not None
        plan_kept.keep(inputs, reads, "kept")
        was = _deep(s)
        for _ in range(rng.randint(0, 2)):
            _apply_in_place(s, rng)
        now = plan_kept.reads_of(s, s.creatures["a"], s.creatures["b"], None, called_shot)
        then = plan_kept.reads_of(was, was.creatures["a"], was.creatures["b"], None, called_shot)
        assert now is not None and then is not None
        same = now == then
        assert (plan_kept.found(inputs, now) == "kept") is same
        outcomes.add(same)
    assert outcomes == {True, False}


PREPARED = ("a", "b", None, None, "sword", None, False, None, None, False, False)


def _changed_in_place(value: object) -> bool:
    """`value` (a field's) changed in place if it is a dict, a list, or a list of limbs or parts; whether it was."""
    if isinstance(value, dict):
        value["probe"] = 1
    elif isinstance(value, list) and value and isinstance(value[0], (Limb, BodyPart)):
        value[-1].name = "probe"
    elif isinstance(value, list):
        value.append(value[0] if value else "probe")
    else:
        return False
    return True


def test_a_plan_kept_holds_a_snapshot_of_every_container_it_read() -> None:
    """Each dict, list, limb and part a plan reads of its attacker (`ATTACKER_READ`), changed in place after the plan
    was kept, makes the plan kept not found again: none of them is held by what the plan is kept with."""
    changed = []
    for name in plan_kept.ATTACKER_READ:
        positions.forget()
        s = fight()
        prepared(s, PREPARED)
        a = s.creatures["a"]
        if not _changed_in_place(getattr(a, name)):
            continue
        changed.append(name)
        reads = plan_kept.reads_of(s, a, s.creatures["b"], None, False)
        assert reads is not None
        assert plan_kept.found(PREPARED, reads) is None, name
    assert len(changed) >= 14, changed


def test_a_creature_swallowed_in_place_after_apply_is_off_the_board() -> None:
    """A state `apply` made is given a swallowed creature in place (on a board of a few creatures): a Strike on it is
    refused, as on a deep copy of the state with nothing kept (the count of swallowed creatures `apply` recorded
    for the state is not trusted for a small board: it is counted again)."""
    positions.forget()
    s, _ = apply(fight(), {"type": "move", "creature": "a", "to": (5, 4)}, ScriptedDice([]))
    s.creatures["b"].swallowed_by = "c"
    refused = _outcome(s, STRIKE, FACES)
    positions.forget()
    assert refused == _outcome(_deep(s), STRIKE, FACES)
    assert refused[0] == "refused", refused
