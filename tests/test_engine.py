"""Hand-worked tests of the engine API (engine.py): `legal_actions`, `apply`, `replay`, defense decisions.

Reach and Strike rules come from seed-000 and reference §2.3; defenses from seed-004 ("When a Skill is attacked,
roll that Skill against the attacker to avoid the attack. You may choose not to roll and fail the defense.").
"""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, on_turn, only, refused, run, state, weapon
from pydantic import ValidationError

from vtt.rules.dice import RandomDice, RecordingDice, ScriptedDice
from vtt.rules.engine import ActionOption, LogEntry, apply, legal_actions, replay
from vtt.rules.model import SOULWEAVER, GameState
from vtt.rules.settings import TableSettings


def option(options: list[ActionOption], action: str, label_part: str = "") -> ActionOption:
    found = [o for o in options if o.action == action and label_part in o.label]
    assert len(found) == 1, [(o.action, o.label) for o in options]
    return found[0]


# --------------------------------------------------------------------------------------------------------
# legal_actions
# --------------------------------------------------------------------------------------------------------


def _reach_board() -> GameState:
    """a at (5, 5) grips a spear (Extend 1: Reach 2) in its right arm. near (6, 5) is 1 away, mid (5, 3) is 2
    away, far (8, 5) is 3 away, hidden (3, 5) is 2 away behind the wall at (4, 5)."""
    a = creature("a", (5, 5), weapons=[weapon("spear", extend=1)], grip={"right_arm": "spear"})
    near = creature("near", (6, 5))
    mid = creature("mid", (5, 3))
    far = creature("far", (8, 5))
    hidden = creature("hidden", (3, 5))
    return on_turn(state(a, near, mid, far, hidden, walls={(4, 5)}), "a")


def test_legal_strike_targets_are_exactly_those_in_reach_and_not_behind_a_wall() -> None:
    """reference §2.3: Reach "is the number of spaces away that you can reach"; "Extend X adds X to Reach"; "An
    action that uses Reach affects you as though you were in every space between you and the target's space".
    With the spear (Reach 2): near and mid; not far (3 away) nor hidden (the wall at (4, 5) is between). Unarmed
    (Reach 1): near only."""
    options = legal_actions(_reach_board(), "a")
    spear = option(options, "strike", "Spear")
    assert spear.reach == 2
    assert sorted(t.target or "" for t in spear.targets) == ["mid", "near"]
    unarmed = option(options, "strike", "Unarmed")
    assert unarmed.reach == 1
    assert [t.target for t in unarmed.targets] == ["near"]


def test_legal_grab_targets_use_reach_minus_1() -> None:
    """seed-000 Grab: "Have -1 Reach with this attack." Size 0 a grabs at Reach 0: only its own space, where
    nobody else stands, so Grab lists no target."""
    grab = option(legal_actions(_reach_board(), "a"), "grab")
    assert grab.reach == 0
    assert grab.targets == []


def test_legal_grab_lists_a_target_sharing_the_space_with_its_preview() -> None:
    """seed-000 Grab: "Attack a target who is not Held with a Free Limb ... Have -1 Reach with this attack." Size 0
    g grabs at Reach 0: t sharing (5, 5) is listed, with an Athletics roll of 2 dice against Elude and no size
    modifier; u next to it at (6, 5) is not."""
    s = on_turn(state(creature("g", (5, 5)), creature("t", (5, 5)), creature("u", (6, 5))), "g")
    grab = option(legal_actions(s, "g"), "grab")
    (target,) = grab.targets
    assert target.target == "t"
    assert target.preview is not None
    assert (target.preview.skill, target.preview.dice, target.preview.defense_skill) == ("Athletics", 2, "Elude")
    assert target.preview.modifiers == []


def test_legal_collision_targets_leave_out_creatures_3_sizes_larger() -> None:
    """seed-000 Overpower: "You cannot affect targets 3 or more sizes larger than you." Size 0 m can move into
    size 2 big's space (a Collision target) but not size 3 huge's."""
    m = creature("m", (5, 5))
    big = creature("big", (7, 5), size=2)
    huge = creature("huge", (5, 7), size=3)
    options = legal_actions(on_turn(state(m, big, huge), "m"), "m")
    collision = option(options, "collision")
    assert [t.target for t in collision.targets] == ["big"]
    assert collision.cost == {"movement": 5}


def test_strike_preview_modifiers_are_the_ones_the_strike_rolls_with() -> None:
    """seed-000 Strikes: "Against targets smaller than you, suffer a penalty on your roll equal to half the size
    difference." Weapons page: "Accurate: Gain +1 on attack rolls"; "Suffer a penalty on your attack roll ...
    equal to the amount the weapon's Tier exceeds your related Skill Tier."
    Size 2 a (spaces (4, 5), (5, 5)) with an Accurate Tier 3 sword (Martial 2) on size 0 t at (6, 5): preview
    -1 (size), +1 (Accurate), -1 (Tier), 2 dice, DL 3 against Elude. Resolving: Martial 8, 2 -> 8 - 1 = 7
    against Elude 5, 5 -> 5: success; damage 2 + 2 = 4d12, faces 3, 3, 3, 3 -> Injury 4. The roll carries the
    very same modifiers."""
    sword = weapon("sword", accurate=True, tier=3)
    a = creature("a", (4, 5), size=2, weapons=[sword], grip={"right_arm": "sword"})
    s0 = on_turn(state(a, creature("t", (6, 5))), "a")
    strike = option(legal_actions(s0, "a"), "strike", "Sword")
    (target,) = strike.targets
    preview = target.preview
    assert preview is not None
    assert [m.value for m in preview.modifiers] == [-1, 1, -1]
    assert (preview.dice, preview.dl, preview.defense_skill) == (2, 3, "Elude")
    s, events = run(s0, {"type": "strike", "creature": "a", "target": "t", "weapon": "sword"}, [8, 2, 5, 5, 3, 3, 3, 3])
    attack = only(events, "attack")
    assert list(attack.rolls[0].modifiers) == preview.modifiers
    assert attack.rolls[0].result == 7
    assert s.creatures["t"].grit.pips == 4


def test_nothing_is_listed_for_a_creature_whose_turn_it_is_not() -> None:
    """reference §3: "Turns run from the highest Priority down"; the Soulweaver's creatures act on its turn. On
    p1's turn, neither p2 nor the Soulweaver's n has any legal action; p1 has some."""
    p1 = creature("p1", (2, 2), controller="alice")
    p2 = creature("p2", (4, 2), controller="bob")
    n = creature("n", (6, 2))
    s = on_turn(state(p1, p2, n), "p1")
    assert legal_actions(s, "p2") == []
    assert legal_actions(s, "n") == []
    assert legal_actions(s, "p1") != []


# --------------------------------------------------------------------------------------------------------
# Defense decisions
# --------------------------------------------------------------------------------------------------------


def _player_defends() -> GameState:
    """The Soulweaver's n (sword) strikes bob's p on the Soulweaver's turn; defenses of players wait for them."""
    n = creature("n", (5, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    p = creature("p", (6, 5), controller="bob")
    return on_turn(state(n, p, settings=TableSettings(defense_prompts="players")), "n")


STRIKE_P: dict[str, Any] = {"type": "strike", "creature": "n", "target": "p", "weapon": "sword"}


def test_a_players_defense_waits_for_a_decision() -> None:
    """seed-004 Skill Defense: "When a Skill is attacked, roll that Skill against the attacker to avoid the attack.
    You may choose not to roll and fail the defense." With `defense_prompts="players"`, n's Martial 4, 2 -> 4
    waits for bob: a defense decision for p, nothing resolved yet."""
    s, events = run(_player_defends(), STRIKE_P, [4, 2])
    (d,) = s.pending
    assert (d.kind, d.to, d.creature) == ("defense", "bob", "p")
    assert only(events, "decision").data["decision"] == d.id
    assert s.creatures["p"].grit.pips == 0


def test_a_declined_defense_fails_and_the_attack_succeeds() -> None:
    """seed-004 Skill Defense: "You may choose not to roll and fail the defense." n's Martial 4, 2 -> 4 reaches DL
    3; bob declines: the Strike succeeds. Sword damage 2d12, faces 3, 8 -> Injury 2."""
    s, _ = run(_player_defends(), STRIKE_P, [4, 2])
    s, events = run(s, {"type": "defend", "decision": s.pending[0].id, "roll": False}, [3, 8])
    attack = only(events, "attack")
    assert attack.data["declined"] is True
    assert attack.data["success"] is True
    assert s.pending == []
    assert s.creatures["p"].grit.pips == 2


def test_a_rolled_defense_decision_rolls_the_defenders_skill() -> None:
    """seed-004 Skill Defense: "roll that Skill against the attacker to avoid the attack." n's 4 against p's
    Elude 5, 1 -> 5: the Strike fails; no damage."""
    s, _ = run(_player_defends(), STRIKE_P, [4, 2])
    s, events = run(s, {"type": "defend", "decision": s.pending[0].id, "roll": True}, [5, 1])
    attack = only(events, "attack")
    assert attack.rolls[1].result == 5
    assert attack.data["success"] is False
    assert s.creatures["p"].grit.pips == 0


def test_the_soulweavers_creatures_defend_at_once_when_only_players_are_asked() -> None:
    """Table setting `defense_prompts="players"`: only players' defenses wait. p (bob) strikes the Soulweaver's n
    on p's turn: Martial 6, 1 -> 6 against n's Elude 4, 2 -> 4 at once: success; damage 3, 1 -> Injury 1."""
    n = creature("n", (5, 5))
    p = creature("p", (6, 5), controller="bob", weapons=[weapon("sword")], grip={"right_arm": "sword"})
    s0 = on_turn(state(n, p, settings=TableSettings(defense_prompts="players")), "p")
    s, _ = run(s0, {"type": "strike", "creature": "p", "target": "n", "weapon": "sword"}, [6, 1, 4, 2, 3, 1])
    assert s.pending == []
    assert s.creatures["n"].grit.pips == 1


def test_other_commands_are_refused_while_a_decision_is_pending() -> None:
    """seed-004 Skill Defense: the defender rolls or declines before the attack is resolved; until bob answers,
    no other command goes through and nothing is listed as legal."""
    s, _ = run(_player_defends(), STRIKE_P, [4, 2])
    refused(s, {"type": "end_turn"})
    refused(s, {"type": "move", "creature": "n", "to": (5, 6)})
    assert legal_actions(s, "n") == []


def test_answering_a_decision_that_does_not_exist_is_refused() -> None:
    """engine: a Defend must answer a pending decision."""
    s, _ = run(_player_defends(), STRIKE_P, [4, 2])
    refused(s, {"type": "defend", "decision": "nope", "roll": False})


# --------------------------------------------------------------------------------------------------------
# apply, replay, validation
# --------------------------------------------------------------------------------------------------------


def test_apply_never_changes_the_state_it_is_given() -> None:
    """engine: "apply(state, command, dice) -> (state, events) resolves one command without changing `state`".
    A Strike (Martial 7, 3 -> 7 against Elude 5, 2 -> 5: success; damage 3, 3 -> Injury 2) changes the returned
    state only."""
    a = creature("a", (5, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    s0 = on_turn(state(a, creature("t", (6, 5))), "a")
    before = s0.model_dump()
    s, _ = apply(
        s0, {"type": "strike", "creature": "a", "target": "t", "weapon": "sword"}, ScriptedDice([7, 3, 5, 2, 3, 3])
    )
    assert s0.model_dump() == before
    assert s0.creatures["t"].grit.pips == 0
    assert s.creatures["t"].grit.pips == 2
    assert s.version == s0.version + 1


@pytest.mark.parametrize(
    "command",
    [
        pytest.param({"type": "strike"}, id="missing creature"),
        pytest.param({"type": "teleport", "creature": "a"}, id="unknown type"),
        pytest.param({"type": "move", "creature": "a", "to": "north"}, id="bad cell"),
        pytest.param({"type": "end_turn", "hurry": True}, id="extra field"),
        pytest.param({"creature": "a"}, id="no type"),
    ],
)
def test_a_malformed_command_raises_a_validation_error(command: dict[str, Any]) -> None:
    """engine / commands: a command is validated by its pydantic model; malformed data raises ValidationError."""
    s = on_turn(state(creature("a", (5, 5))), "a")
    with pytest.raises(ValidationError):
        apply(s, command, ScriptedDice([]))


def test_replay_of_a_recorded_log_rebuilds_exactly_the_same_state() -> None:
    """engine: "replay(initial, log) folds apply over a command log with the dice faces each command used: the
    state after N commands is rebuilt exactly". A fight played with seeded random dice, each command's faces
    recorded, is rebuilt from the log to an identical state."""
    p1 = creature("p1", (5, 5), controller="alice", weapons=[weapon("sword")], grip={"right_arm": "sword"})
    n = creature("n", (6, 5), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    initial = state(p1, n)
    commands: list[dict[str, Any]] = [
        {"type": "begin"},
        {"type": "strike", "creature": "p1", "target": "n", "weapon": "sword"},
        {"type": "move", "creature": "p1", "to": (4, 5)},
        {"type": "end_turn"},
        {"type": "move", "creature": "n", "to": (5, 5)},
        {"type": "strike", "creature": "n", "target": "p1", "weapon": "sword"},
        {"type": "end_turn"},
        {"type": "dash", "creature": "p1"},
    ]
    source = RandomDice(2024)
    live = initial
    log: list[LogEntry] = []
    for cmd in commands:
        rec = RecordingDice(source)
        live, _ = apply(live, cmd, rec)
        log.append(LogEntry(command=cmd, faces=rec.used))
    assert live.turn.round == 2
    assert live.turn.current == "p1"
    assert sum(len(e.faces) for e in log) >= 1 + 2 + 2
    rebuilt, _ = replay(initial, log)
    assert rebuilt.model_dump() == live.model_dump()
    assert initial.turn.current is None
    assert SOULWEAVER in live.turn.entries
