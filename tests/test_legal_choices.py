"""Every open choice of an action is in its option's `choose`, with the values the rules allow ("Every choice
reachable from the browser"), and every combination `legal_actions` offers is accepted by `apply`.

Rules behind the choices: seed-000 Strike: "If you are 4 or more sizes larger than your target, you can instead
attack against Nimble"; seed-000 "To target the ground ... take -1 on your attack roll and treat its defense as 0";
seed-004 damage: "Before rolling, you may reduce your dice rolled by any amount"; reference §6.2: a weapon with
several Strike Types is used as one of them; seed-000 Grapple: "While you have a head affected in this way, you can
use Grapple to attempt to suffocate the subject"; seed-000 Break Hold: "Attack target Holder ... to reduce the Tier
of Encumbered they suffer and are causing to target Grabbed creature" and "you can remove the affected part";
seed-004 Acid: "Soothe can reduce the damage by 1"; seed-000 Distract (its targets, sound and "expects it").
"""

from __future__ import annotations

import contextlib
import itertools
import json
from pathlib import Path
from typing import Any

from factories import creature, on_turn, state, weapon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtt.rules.dice import RandomDice
from vtt.rules.engine import ActionOption, TargetOption, apply, legal_actions
from vtt.rules.events import RuleError
from vtt.rules.model import BoardObject, ContinuingDamage, GameState, Hold, LooseItem
from vtt.rules.offers import command_for
from vtt.rules.scenario import load_scenario
from vtt.rules.settings import TableSettings

QUIET = TableSettings(defense_prompts="nobody", reactions=False)


def option(s: GameState, action: str, who: str = "a", label: str | None = None) -> ActionOption:
    found = [o for o in legal_actions(s, who) if o.action == action and (label is None or label in o.label)]
    assert len(found) == 1, [o.label for o in found]
    return found[0]


def target(o: ActionOption, tid: str) -> TargetOption:
    (t,) = [t for t in o.targets if t.target == tid]
    return t


def test_attacking_nimble_is_offered_only_when_4_sizes_larger() -> None:
    """Strike: "If you are 4 or more sizes larger than your target, you can instead attack against Nimble." a (size
    4) may choose Nimble against t (size 0) but not against u (size 1)."""
    a = creature("a", (5, 5), size=4, weapons=[weapon("sword")], grip={"right_arm": "sword"})
    t = creature("t", (8, 5))
    u = creature("u", (5, 8), size=1)
    s = on_turn(state(a, t, u, settings=QUIET), "a")
    strike = option(s, "strike", label="Sword")
    assert "nimble" in strike.choose
    assert target(strike, "t").choices["nimble"] == [False, True]
    assert target(strike, "u").choices["nimble"] == [False]


def test_strike_type_and_fewer_damage_dice_are_offered() -> None:
    """reference §6.2: a weapon of types B and S is used as one of them; seed-004: "you may reduce your dice rolled
    by any amount": a sword of 2 damage dice may roll all (None), 0 or 1."""
    a = creature("a", (5, 5), weapons=[weapon("sword", strike_types=("B", "S"))], grip={"right_arm": "sword"})
    s = on_turn(state(a, creature("t", (6, 5)), settings=QUIET), "a")
    strike = option(s, "strike", label="Sword")
    assert {"strike_type", "max_dice"} <= set(strike.choose)
    choices = target(strike, "t").choices
    assert (choices["strike_type"], choices["max_dice"]) == (["B", "S"], [None, 0, 1])


def test_striking_the_ground_is_offered_on_empty_spaces_in_reach() -> None:
    """ "To target the ground ... take -1 on your attack roll": offered on the empty spaces in Reach, not on t's."""
    a = creature("a", (5, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    s = on_turn(state(a, creature("t", (6, 5)), settings=QUIET), "a")
    ground = option(s, "strike_ground", label="Sword")
    assert (ground.command, ground.params["surface"]) == ("strike", "ground")
    assert (6, 5) not in ground.spaces and (5, 5) not in ground.spaces and (4, 5) in ground.spaces


def two_held() -> GameState:
    """g (size 2) holds x and y, one of x's heads locked by g; a, next to g, may Break Hold."""
    a = creature("a", (5, 5))
    g = creature("g", (6, 5), size=2)
    x = creature("x", (8, 5))
    y = creature("y", (7, 7))
    hold = Hold(
        id="h1",
        holders={"g": ["left_arm", "right_arm"]},
        held=["x", "y"],
        caused={"g": {"x": 2, "y": 2}},
    )
    s = on_turn(state(a, g, x, y, settings=QUIET), "a")
    s.holds = {"h1": hold}
    return s


def test_break_hold_names_the_held_creature_of_a_holder_of_two() -> None:
    """Break Hold: "Attack target Holder ... to reduce the Tier of Encumbered they ... are causing to target
    Grabbed creature": with two Grabbed, the option asks which, and each is accepted."""
    s = two_held()
    brk = option(s, "break_hold")
    assert "held" in brk.choose
    assert target(brk, "g").choices["held"] == ["x", "y"]
    for held in ("x", "y"):
        apply(s, {"type": "break_hold", "creature": "a", "target": "g", "held": held}, RandomDice(1))


def test_soothe_is_offered_for_continuing_acid_in_reach() -> None:
    """seed-004 Acid: "Soothe can reduce the damage by 1": t, next to a, has Continuing Acid 2; u, far, has some too."""
    acid = [ContinuingDamage(id="c1", element="acid", amount=2, part="torso")]
    t = creature("t", (6, 5), continuing=acid)
    u = creature("u", (15, 5), continuing=acid)
    s = on_turn(state(creature("a", (5, 5)), t, u, settings=QUIET), "a")
    soothe = option(s, "soothe")
    assert ([x.target for x in soothe.targets], soothe.cost) == (["t"], {"minor": 1})
    after, _ = apply(s, {"type": "soothe", "creature": "a", "target": "t"}, RandomDice(1))
    assert after.creatures["t"].continuing[0].amount == 1


# ---- the property: whatever the menu offers, the rules accept --------------------------------------------------

SELF_ACTIONS = {"dash", "drop_hold", "recover", "zeal_for_major", "defensive_stance", "stand_up", "drop_prone"}
MAX_COMBINATIONS = 6
MAX_TARGETS = 3


def combinations(o: ActionOption, t: TargetOption) -> list[dict[str, Any]]:
    """Every combination of the option's open choices on this target (bounded); a list field takes no value,
    its first, or all of them."""
    fields = []
    for name in o.choose:
        values = t.choices.get(name, [])
        assert values, f"{o.label}: no values for {name}"
        if name in o.several:
            values = [[], values[:1], values]
        fields.append([(name, v) for v in values])
    return [dict(combo) for combo in itertools.islice(itertools.product(*fields), MAX_COMBINATIONS)]


def commands(o: ActionOption, cid: str) -> list[dict[str, Any]]:
    """The commands the menu would send for this option (as vtt/web does), each combination of choices."""
    kind = o.command or o.action
    params = {k: v for k, v in o.params.items() if v is not None}
    base = {"type": kind, "creature": cid, **params}
    if o.action == "end_turn":
        return [{"type": "end_turn"}]
    if not o.targets and not o.spaces:
        return [base] if o.action in SELF_ACTIONS else []  # otherwise shown disabled: nothing in reach
    out: list[dict[str, Any]] = []
    if o.action == "move":
        return [{**base, "to": cell} for cell in o.spaces[:MAX_TARGETS]]
    if kind == "strike_space" or o.action == "strike_ground":
        return [{**base, "space": cell} for cell in o.spaces[:MAX_TARGETS]]
    if o.action == "strike_wall":
        return [{**base, "space": cell, "surface": "wall"} for cell in o.spaces[:MAX_TARGETS]]
    for t in o.targets[:MAX_TARGETS]:
        if o.action == "collision" or kind == "move":
            assert t.space is not None
            out.append({**base, "type": "move", "to": t.space, "path": t.path, "collide_with": t.target})
            continue
        if o.action == "focus" and t.target is None:
            out.append({**base, "space": t.space})
            continue
        for chosen in combinations(o, t) or [{}]:
            cmd = {**base, **t.params, **chosen}
            if o.action == "distract":
                cmd.setdefault("targets", [t.target])
                if not cmd["targets"]:
                    cmd["targets"] = [t.target]
                cmd["expects"] = [e for e in cmd.get("expects", []) if e in cmd["targets"]]
            elif not (o.choose and all(x.target == cid for x in o.targets)):  # on oneself (Flurry): no target
                cmd["target"] = t.target
            out.append(cmd)
    return out


SIZES = st.integers(min_value=-1, max_value=4)


@st.composite
def tables(draw: st.DrawFn) -> GameState:
    n = draw(st.integers(min_value=1, max_value=3))
    cells = draw(st.lists(st.tuples(st.integers(3, 9), st.integers(3, 9)), min_size=n + 1, max_size=n + 1, unique=True))
    types = draw(st.sampled_from([(), ("B",), ("B", "S")]))
    javelin = draw(st.booleans())  # a thrown weapon in the other hand: ranged attacks on creatures and spaces
    a = creature(
        "a",
        cells[0],
        size=draw(SIZES),
        skills={"Martial": 2, "Elude": 2, "Athletics": 2, "Guile": 2, "Observe": 2, "Nimble": 2, "Zeal": 1},
        weapons=[
            weapon("sword", draw(st.integers(1, 3)), strike_types=types),
            *([weapon("javelin", 1, ranged="thrown", range=3)] if javelin else []),
        ],
        grip={"right_arm": "sword"} if draw(st.booleans()) else {},
    )
    if javelin:
        arm = a.limb("left_arm")
        assert arm is not None
        arm.holding = "javelin"
    if draw(st.booleans()):  # Enraged, Focused on the first other creature (reference §5.2)
        a.ailments["Enraged"] = 1
        a.focus = "o0"
    others = []
    for i, cell in enumerate(cells[1:]):
        acid = [ContinuingDamage(id=f"c{i}", element="acid", amount=1, part="torso")] if draw(st.booleans()) else []
        others.append(creature(f"o{i}", cell, size=draw(SIZES), continuing=acid, side="red"))
    q, r = cells[0]
    extras: dict[str, Any] = {}
    if draw(st.booleans()):  # a dagger lying beside a, to pick up; a crate on the other side, to strike
        extras["items"] = [LooseItem(weapon=weapon("dagger", 1), cell=(q, r - 1), owner=None)]
        if (q - 1, r) not in cells:
            extras["objects"] = [BoardObject(id="crate", name="Crate", cells=[(q - 1, r)], durability=1)]
    s = on_turn(state(a, *others, settings=QUIET, **extras), "a")
    for action in draw(st.lists(st.sampled_from(["dash", "defensive_stance"]), max_size=1)):
        with contextlib.suppress(RuleError):  # a Defensive Stance may not be open to it
            s, _ = apply(s, {"type": action, "creature": "a"}, RandomDice(0))
    return s


def sent(o: ActionOption) -> list[dict[str, Any]]:
    """The commands an option carries (`send`), for its first targets or spaces, each with the first value of every
    open choice (`asks`) filled in, as a menu merges them."""

    def first(t: TargetOption | None) -> dict[str, Any]:
        values = {a.field: (t.choices[a.field] if t is not None else [])[:1] for a in o.asks}
        return {f: v if next(a for a in o.asks if a.field == f).several else v[0] for f, v in values.items() if v}

    if o.pick == "none":
        only = o.targets[0] if o.targets else None
        return [c for c in [command_for(o, chosen=first(only))] if c is not None]
    picked = [command_for(o, target=t.target, chosen=first(t)) for t in o.targets[:MAX_TARGETS] if t.target]
    picked += [command_for(o, space=cell, chosen=first(None)) for cell in o.spaces[:MAX_TARGETS]]
    return [c for c in picked if c is not None]


def test_every_option_carries_its_command_with_its_choices_typed() -> None:
    """A Strike on t carries {type, creature, weapon, target}; its open choices say which field, what kind of
    value and whether they may be left out; a move's space fills `to`; a Collision carries the move's path."""
    a = creature("a", (5, 5), size=4, weapons=[weapon("sword")], grip={"right_arm": "sword"})
    s = on_turn(state(a, creature("t", (8, 5)), settings=QUIET), "a")
    strike = option(s, "strike", label="Sword")
    assert (strike.pick, strike.send) == ("creature", {"type": "strike", "creature": "a", "weapon": "sword"})
    assert target(strike, "t").send == {"type": "strike", "creature": "a", "weapon": "sword", "target": "t"}
    assert [(x.field, x.kind, x.optional) for x in strike.asks] == [
        ("nimble", "value", False),
        ("max_dice", "value", True),
    ]
    collision = target(option(s, "collision"), "t")
    assert collision.space is not None and collision.send == {
        "type": "move",
        "creature": "a",
        "to": list(collision.space),
        "path": [list(p) for p in collision.path],
        "collide_with": "t",
    }
    move = option(s, "move")
    assert (move.pick, move.at, command_for(move, space=(4, 5))) == (
        "space",
        "to",
        {"type": "move", "creature": "a", "to": [4, 5]},
    )
    wall = option(
        on_turn(state(a, creature("t", (8, 5)), walls={(4, 5)}, settings=QUIET), "a"), "strike_wall", label="Sword"
    )
    assert command_for(wall, space=(4, 5)) == {
        "type": "strike",
        "creature": "a",
        "weapon": "sword",
        "surface": "wall",
        "space": [4, 5],
    }
    assert command_for(wall, space=(9, 9)) is None  # not a space it offers


def test_distracts_creatures_are_a_list_to_tick_and_a_flurry_needs_no_click() -> None:
    """seed-000 Distract "attack creatures that are Aware of that action": its creatures are an open list choice,
    not a clicked target; a Flurry's number is asked with nothing to click."""
    a = creature("a", (5, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    s = on_turn(state(a, creature("t", (6, 5)), settings=QUIET), "a")
    s, _ = apply(s, {"type": "dash", "creature": "a"}, RandomDice(1))  # an action to Distract with
    distract = option(s, "distract")
    assert (distract.pick, "target" in distract.targets[0].send) == ("none", False)
    kinds = {x.field: (x.kind, x.several) for x in distract.asks}
    assert kinds == {
        "action": ("value", False),
        "targets": ("creature", True),
        "expects": ("creature", True),
        "sound_at": ("space", False),
    }
    flurry = option(s, "flurry")
    assert (flurry.pick, command_for(flurry, chosen={"number": 1})) == (
        "none",
        {"type": "flurry", "creature": "a", "number": 1},
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.integers(0, 2**16))
def test_every_choice_the_menu_offers_is_accepted(s: GameState, seed: int) -> None:
    """On random tables, every option `legal_actions` offers, with every combination of its open choices
    (bounded), is accepted by `apply` (no RuleError); and so is the command each option carries (`send`), with
    the first value of each open choice."""
    for o in legal_actions(s, "a"):
        for cmd in [*commands(o, "a"), *sent(o)]:
            try:
                apply(s, cmd, RandomDice(seed))
            except (RuleError, ValueError) as e:
                raise AssertionError(f"{o.label}: {cmd} refused: {e}") from e
        if o.targets or o.spaces or o.pick == "none":
            assert sent(o), f"{o.label}: no command to send"


def test_every_demo_option_carries_a_command_the_rules_accept() -> None:
    """On the demo map, each creature on its turn: every option's command (`send`), with the first value of each
    open choice, is accepted by `apply`."""
    demo = Path(__file__).resolve().parents[1] / "maps" / "demo.json"
    s = load_scenario(json.loads(demo.read_text())).state
    s, _ = apply(s, {"type": "begin"}, RandomDice(1))
    for cid in s.creatures:
        turn = on_turn(s, cid)
        for o in legal_actions(turn, cid):
            for cmd in sent(o):
                try:
                    apply(turn, cmd, RandomDice(1))
                except (RuleError, ValueError) as e:
                    raise AssertionError(f"{cid} {o.label}: {cmd} refused: {e}") from e
