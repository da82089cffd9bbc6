"""Scenario files (docs/scenarios.md): every example loads and runs as its description says, the CLI prints
JSON, and malformed files fail with the bad field named."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from factories import with_field

from vtt.rules.__main__ import main
from vtt.rules.engine import replay
from vtt.rules.scenario import (
    ScenarioError,
    check_expectations,
    load_scenario,
    parse_scenario_text,
    run,
    run_scenario,
)

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "maps" / "scenarios"
FILES = sorted(SCENARIOS.glob("*.json"))
REQUIRED = {"reach", "collision", "targeted_space", "hold", "obstructed_strike", "giant_strike", "serious_injury"}


def read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def cli_process(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m vtt.rules ARGS` run as its own process."""
    return subprocess.run(
        [sys.executable, "-m", "vtt.rules", *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command line's `main` run in this process (a new interpreter per run cost a second of CPU, importing the
    rules afresh); what `python -m vtt.rules` runs is `main` too (`test_cli_prints_the_events_as_json`)."""
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        mock.patch.object(sys, "stdin", io.StringIO(stdin or "")),
    ):
        code = main(list(args))
    return subprocess.CompletedProcess(["vtt.rules", *args], code, out.getvalue(), err.getvalue())


def minimal() -> dict[str, Any]:
    """A small valid scenario that malformed-input tests break one field at a time.

    Ayla (Zeal 1) rolls 5 for Priority; Martial 9, 4 -> 9 against the Goblin's Elude 2: hit; damage 3, 8 -> 2
    Injury, not above the Goblin's Severe Threshold (its Endure 2): no Serious Injury, no part roll."""
    return {
        "version": 1,
        "name": "minimal",
        "description": "Ayla strikes the goblin.",
        "settings": {"defense_prompts": "nobody"},
        "board": {"cols": 6, "rows": 4, "walls": [[3, 3]]},
        "weapons": [{"id": "sword", "name": "Sword", "damage": 2}],
        "creatures": [
            {
                "id": "ayla",
                "name": "Ayla",
                "anchor": [1, 1],
                "controller": "alice",
                "skills": {"Martial": 2, "Zeal": 1},
                "weapons": ["sword"],
                "grip": {"right_arm": "sword"},
            },
            {"id": "goblin", "name": "Goblin", "anchor": [2, 1], "skills": {"Elude": 1, "Endure": 2}},
        ],
        "commands": [{"type": "begin"}, {"type": "strike", "creature": "ayla", "target": "goblin", "weapon": "sword"}],
        "dice": [5, 9, 4, 2, 3, 8],
    }


def problems_of(data: object) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    return info.value.problems


# ---------------------------------------------------------------------------------------------------------
# The example files
# ---------------------------------------------------------------------------------------------------------


def test_the_required_examples_exist() -> None:
    assert len(FILES) >= 6
    assert {f.stem for f in FILES} >= REQUIRED


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_runs_as_described(path: Path) -> None:
    scenario = parse_scenario_text(path.read_text(encoding="utf-8"))
    assert scenario.dice is not None, "examples script their dice so the description can be checked by hand"
    result = run(scenario)
    events = result.events
    rejected = [e for e in events if e["kind"] == "rejected"]
    if "rejected" in scenario.description.lower():
        assert rejected, "the description expects a rejected command"
    else:
        assert not rejected, rejected
    assert events[-1]["kind"] == "summary"
    assert [e["kind"] for e in events].count("summary") == 1
    assert result.unused_dice == [], "every scripted face is used, as the descriptions say"
    assert result.state.pending == [], "no decision is left waiting at the end"
    for e in events:
        assert set(e) == {"kind", "command", "text", "actor", "target", "rolls", "data"}
        assert e["text"]
    json.dumps(events)  # JSON-ready
    # The log of applied commands with their faces rebuilds the same final state.
    replayed, _ = replay(scenario.state, result.log)
    assert replayed.model_dump() == result.state.model_dump()


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_meets_its_expectations(path: Path) -> None:
    """Each example carries an `expect` block worked out by hand from the rules (its description says how);
    the run meets every expectation in it."""
    scenario = parse_scenario_text(path.read_text(encoding="utf-8"))
    assert scenario.expect is not None, "every example states its expectations"
    assert scenario.expect.rejected is not None, "every example says which commands are refused (or none)"
    assert scenario.expect.summary is not None and scenario.expect.menus
    assert check_expectations(scenario, run(scenario)) is None


def wrong(name: str, change: Callable[[dict[str, Any]], None]) -> str | None:
    """The first mismatch of example `name` after `change` edits its expect block."""
    data = read(name)
    change(data["expect"])
    scenario = load_scenario(data)
    return check_expectations(scenario, run(scenario))


@pytest.mark.parametrize(
    ("name", "change", "expected"),
    [
        (
            "collision",
            lambda e: e["rolls"][1].update(result=10),
            'expect.rolls[1]: the roll "Bram: Collision with Goblin" of commands[1]: result: expected 10, got 9',
        ),
        (
            "reach",
            lambda e: e["rolls"][5]["modifiers"][0].update(value=-1),
            'expect.rolls[5]: the roll "Kell: Strike on Goblin B with Spear" of commands[4]: modifiers[0].value: '
            "expected -1, got -2",
        ),
        (
            "giant_strike",
            lambda e: e["events"][5]["data"].update(part="head"),
            """expect.events[5]: the serious_injury event of commands[3] ("Serious Injury to Wren's torso""",
        ),
        (
            "hold",
            lambda e: e["summary"]["creatures"]["pip"].update(anchor=[5, 1]),
            "the summary: expect.summary.creatures.pip.anchor: expected [5, 1], got [6, 1]",
        ),
        (
            "serious_injury",
            lambda e: e["rejected"].update({"3": "reach.out_of_reach"}),
            'expect.rejected["3"]: commands[3] (strike) was refused with the code "weapon.not_gripped", expected '
            '"reach.out_of_reach"',
        ),
        (
            "targeted_space",
            lambda e: e["kinds"]["5"].pop(),
            'expect.kinds["5"]: commands[5] (choose_order) made the events order, attack, attack, attack, damage, '
            "pips; expected order, attack, attack, attack, damage",
        ),
        (
            "reach",
            lambda e: e["menus"][0]["not_offered"][0].update(targets=["goblin_a"]),
            'expect.menus[0].not_offered[0]: Torva is offered "Unarmed Strike" (targets: goblin_a, kell, goblin_b) '
            "after commands[0], expected it not to be",
        ),
        (
            "swallow",
            lambda e: e["summary"]["creatures"]["mira"].update(ailments={"Crowded": 2}),
            "the summary: expect.summary.creatures.mira.ailments.Crowded: expected 2, got nothing",
        ),
    ],
    ids=["roll-result", "modifier-value", "event-data", "summary-anchor", "refusal-code", "kinds", "menu", "ailments"],
)
def test_a_wrong_expectation_fails_naming_it(
    name: str, change: Callable[[dict[str, Any]], None], expected: str
) -> None:
    """A deliberately wrong expectation in an example is reported: which one, what was expected and what came."""
    found = wrong(name, change)
    assert found is not None
    assert found.startswith(expected), found


def test_collision_outcome_exactly() -> None:
    events = run_scenario(load_scenario(read("collision")))
    collision = [e for e in events if e["command"] == 1]
    move = next(e for e in collision if e["kind"] == "move")
    assert move["data"]["to"] == [3, 1], "Bram does not fit beside the goblin and stops in the space before"
    attack = next(e for e in collision if e["kind"] == "attack")
    roll, defense = attack["rolls"]
    assert roll["faces"] == [7, 5, 7]
    assert roll["modifiers"] == [
        {
            "value": 2,
            "reason": "Overpower size: target size 0 is smaller than size 2 (full difference)",
            "key": "size",
            "source": None,
        }
    ]
    assert roll["result"] == 9
    assert roll["doubles"] == [{"face": 7, "count": 2}]
    assert defense["faces"] == [8] and defense["result"] == 8
    assert attack["data"]["success"] is True
    damage = next(e for e in collision if e["kind"] == "damage")
    (dmg,) = damage["rolls"]
    assert dmg["faces"] == [11, 3, 2]
    assert dmg["base_dice"] == 1
    assert dmg["dice_changes"] == [{"dice": 2, "reason": "Collision damage modified by size like the roll"}]
    assert damage["data"]["injury"] == 2
    # 2 Injury exceeds the goblin's Severe Threshold (Endure 1) by 1: Wounded 1 on the part rolled, 6 -> left leg.
    serious = next(e for e in collision if e["kind"] == "serious_injury")
    assert serious["data"] == {"part": "left_leg", "wounded": 1}
    assert [r["faces"] for r in serious["rolls"]] == [[6]]
    # The goblin's Collision back into Bram: 1 - 2 damage dice leaves none.
    back = next(e for e in events if e["command"] == 6 and e["kind"] == "damage")
    assert back["rolls"][0]["faces"] == [] and back["data"]["injury"] == 0
    assert not [e for e in events if e["command"] == 6 and e["kind"] == "serious_injury"]
    final = events[-1]["data"]["creatures"]
    assert final["goblin"]["grit"] == {"pips": 2, "max": 4}
    assert final["goblin"]["ailments"] == {"Wounded": 1}
    assert final["goblin"]["parts"] == {"left_leg": {"wounded": 1, "trauma": 0, "severed": False}}
    assert final["goblin"]["anchor"] == [4, 1]
    assert final["bram"]["grit"] == {"pips": 0, "max": 6}
    assert final["bram"]["anchor"] == [2, 1]


def test_reach_outcome() -> None:
    events = run_scenario(load_scenario(read("reach")))
    assert [e["command"] for e in events if e["kind"] == "rejected"] == [1]
    torva = next(e for e in events if e["kind"] == "reach" and e["actor"] == "torva")
    assert torva["data"]["reach"] == 2 and len(torva["data"]["path"]) == 3
    kell = next(e for e in events if e["kind"] == "attack" and e["actor"] == "kell")
    assert [m["value"] for m in kell["rolls"][0]["modifiers"]] == [-2]
    assert kell["rolls"][0]["result"] == 8 and kell["data"]["success"] is False
    assert events[-1]["data"]["creatures"]["goblin_a"]["grit"]["pips"] == 1
    # 1 Injury does not exceed Goblin A's Severe Threshold (Endure 1).
    assert not [e for e in events if e["kind"] == "serious_injury"]
    assert events[-1]["data"]["creatures"]["goblin_a"]["ailments"] == {}


def test_obstructed_strike_names_the_unobstructed_size() -> None:
    events = run_scenario(load_scenario(read("obstructed_strike")))
    reach = next(e for e in events if e["kind"] == "reach")
    assert reach["data"]["exposed_size"] == 2
    attack = next(e for e in events if e["kind"] == "attack")
    assert attack["rolls"][0]["modifiers"] == [
        {
            "value": 1,
            "reason": "Strike size: target size 2 (1 of 7 spaces unobstructed) is larger than size -1 "
            "(half the difference)",
            "key": "size",
            "source": None,
        }
    ]
    assert attack["rolls"][0]["result"] == 10 and attack["rolls"][1]["result"] == 10
    assert attack["data"]["success"] is False, "a tie goes to the defender"


def test_giant_strike_moves_the_penalty_to_damage() -> None:
    events = run_scenario(load_scenario(read("giant_strike")))
    attack = next(e for e in events if e["kind"] == "attack")
    assert attack["data"]["defense_skill"] == "Nimble"
    assert attack["rolls"][0]["modifiers"] == []
    damage = next(e for e in events if e["kind"] == "damage")
    assert [c["dice"] for c in damage["rolls"][0]["dice_changes"]] == [-2, 5]
    assert damage["rolls"][0]["dice"] == 5
    assert damage["data"]["injury"] == 4
    # 4 Injury exceeds Wren's Severe Threshold (Endure 2) by 2 on the part rolled, 3 -> torso.
    serious = next(e for e in events if e["kind"] == "serious_injury")
    assert serious["data"] == {"part": "torso", "wounded": 2}
    # Unconscious, Wren keeps her turn in round 2 and rolls Endure 9, 4 -> 9 to wake at its end: short of DL 12.
    wake = next(e for e in events if e["kind"] == "wake")
    assert (wake["command"], wake["data"], wake["rolls"][0]["faces"]) == (5, {"dl": 12, "woke": False}, [9, 4])
    final = events[-1]["data"]
    assert (final["round"], final["turn"]) == (2, "soulweaver")
    wren = final["creatures"]["wren"]
    assert wren["conditions"] == ["prone", "unconscious"]
    assert wren["grit"] == {"pips": 6, "max": 6}
    assert wren["ailments"] == {"Unaware": 12, "Wounded": 2}
    assert wren["parts"] == {"torso": {"wounded": 2, "trauma": 0, "severed": False}}


def test_targeted_space_attacks_in_order_of_doubles() -> None:
    events = run_scenario(load_scenario(read("targeted_space")))
    first = [e["target"] for e in events if e["command"] == 1 and e["kind"] == "attack"]
    assert first == ["goblin_c", "goblin_a"]
    second = [e["target"] for e in events if e["command"] == 5 and e["kind"] == "attack"]
    assert second == ["goblin_c", "goblin_b", "goblin_a"]
    final = events[-1]["data"]["creatures"]
    assert final["goblin_a"]["grit"]["pips"] == 3
    # The first hit's 2 Injury exceeds Goblin A's Severe Threshold (Endure 1) by 1 (part roll 9 -> right leg); the
    # second hit's 1 Injury does not.
    assert [(e["command"], e["data"]) for e in events if e["kind"] == "serious_injury"] == [
        (1, {"part": "right_leg", "wounded": 1})
    ]
    assert final["goblin_a"]["ailments"] == {"Wounded": 1}
    assert final["goblin_b"]["ailments"] == final["goblin_c"]["ailments"] == {}


def test_serious_injury_chopping_severs_the_rolled_part() -> None:
    events = run_scenario(load_scenario(read("serious_injury")))
    strike = [e for e in events if e["command"] == 1]
    damage = next(e for e in strike if e["kind"] == "damage")
    (dmg,) = damage["rolls"]
    assert dmg["dice_changes"] == [{"dice": 2, "reason": "Chopping: 2 attack faces of 6 or more"}]
    assert dmg["faces"] == [8, 3, 6, 4, 11] and damage["data"]["injury"] == 5
    serious = next(e for e in strike if e["kind"] == "serious_injury")
    assert serious["data"] == {"part": "right_arm", "wounded": 4}
    assert [r["faces"] for r in serious["rolls"]] == [[11]]
    sever = next(e for e in strike if e["kind"] == "sever")
    assert sever["rolls"][0]["faces"] == [5, 5] and sever["data"]["severed"] is True
    assert [e["command"] for e in events if e["kind"] == "rejected"] == [3]
    unarmed = next(e for e in events if e["command"] == 5 and e["kind"] == "attack")
    assert unarmed["data"]["success"] is False
    final = events[-1]["data"]["creatures"]
    assert final["orc"]["grit"] == {"pips": 5, "max": 8}
    assert final["orc"]["ailments"] == {"Wounded": 4}
    assert final["orc"]["parts"] == {"right_arm": {"wounded": 4, "trauma": 0, "severed": True}}
    assert final["dagna"]["grit"]["pips"] == 0
    result = run(load_scenario(read("serious_injury")))
    orc = result.state.creatures["orc"]
    assert orc.limb("right_arm") is None
    assert [(i.weapon.id, i.cell) for i in result.state.board.items] == [("scimitar", (3, 1))]


def test_hold_escape_fails_then_succeeds() -> None:
    events = run_scenario(load_scenario(read("hold")))
    assert any(e["kind"] == "hold" for e in events if e["command"] == 3)
    assert any(e["kind"] == "move_blocked" for e in events if e["command"] == 5)
    assert [e["kind"] for e in events if e["command"] == 8] == ["attack", "hold_left", "hold_ended", "move"]
    final = events[-1]["data"]
    assert final["holds"] == []
    assert final["creatures"]["pip"]["anchor"] == [6, 1]


# ---------------------------------------------------------------------------------------------------------
# Running: rejected commands, dice
# ---------------------------------------------------------------------------------------------------------


def test_a_rejected_command_is_reported_and_the_run_goes_on() -> None:
    data = minimal()
    data["commands"].insert(1, {"type": "move", "creature": "ayla", "to": [3, 3]})  # a wall fills (3, 3)
    data["commands"].insert(1, {"type": "grab", "creature": "ayla", "target": "goblin"})  # Grab Reach 0: too far
    result = run(load_scenario(data))
    rejected = [e for e in result.events if e["kind"] == "rejected"]
    assert [e["command"] for e in rejected] == [1, 2]
    assert "Grab Reach 0" in rejected[0]["text"]
    assert rejected[1]["data"]["command"]["type"] == "move"
    # The rejected commands used no dice: the Strike still gets 9, 4 and the damage 3, 8.
    strike = next(e for e in result.events if e["kind"] == "attack")
    assert strike["command"] == 3 and strike["rolls"][0]["faces"] == [9, 4]
    assert result.unused_dice == []
    assert result.state.creatures["ayla"].anchor == (1, 1)


def test_unused_faces_are_listed_in_the_summary() -> None:
    data = minimal()
    data["dice"] = [*data["dice"], 12, 1]
    summary = run_scenario(load_scenario(data))[-1]
    assert summary["data"]["unused_dice"] == [12, 1]
    assert "12, 1" in summary["text"]


def test_running_out_of_scripted_dice_names_the_command() -> None:
    data = minimal()
    data["dice"] = data["dice"][:3]
    with pytest.raises(ScenarioError) as info:
        run_scenario(load_scenario(data))
    # Priority takes 5, the Strike 9, 4; the Goblin's Elude defense (1 die) finds the script empty.
    assert info.value.problems == [
        'dice: the script ran out at commands[1] (strike): the roll "Goblin: Elude defense" wanted 1 face and none '
        "was left (3 of the 3 scripted faces were used before it)"
    ]


def test_running_out_names_how_many_faces_the_roll_wanted() -> None:
    data = minimal()
    data["dice"] = data["dice"][:2]
    with pytest.raises(ScenarioError, match='the roll "Ayla: Strike on Goblin with Sword" wanted 2 faces and only 1'):
        run_scenario(load_scenario(data))


def test_seeded_random_dice_are_repeatable() -> None:
    data = minimal()
    del data["dice"]
    data["seed"] = 7
    a = run_scenario(load_scenario(data))
    b = run_scenario(load_scenario(copy.deepcopy(data)))
    assert a == b
    assert a[-1]["data"]["unused_dice"] is None
    assert any(e["kind"] == "attack" for e in a)


# ---------------------------------------------------------------------------------------------------------
# Malformed scenarios: every problem names its JSON path
# ---------------------------------------------------------------------------------------------------------


def broken(path: str, value: object) -> dict[str, Any]:
    """minimal() with the field at a dotted path (list indices as numbers) set, or deleted for `...`."""
    return with_field(minimal(), path, value)


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        ("creatures.1.size", "big", "creatures[1].size: Input should be a valid integer"),
        ("commands.1.type", "fly", 'commands[1].type: unknown command type "fly"'),
        ("commands.1.to", [1, 2], "commands[1].to: unknown key"),
        ("commands.1.creature", "bob", 'commands[1].creature: unknown creature "bob"'),
        ("commands.1.weapon", "axe", 'commands[1].weapon: unknown weapon "axe"'),
        ("creatures.0.weapons", ["sword", "axe"], 'creatures[0].weapons[1]: unknown weapon "axe"'),
        ("creatures.0.weapons", [{"id": "axe"}], "creatures[0].weapons[0].name: Field required"),
        ("creatures.0.weapons", [3], "creatures[0].weapons[0]: a weapon id or a weapon object"),
        ("creatures.0.grip", {"tail": "sword"}, 'creatures[0].grip.tail: Ayla has no limb "tail"'),
        ("creatures.0.grip", {"left_leg": "sword"}, "creatures[0].grip.left_leg: Ayla's left leg cannot grip"),
        ("creatures.0.wounded", {"tail": 2}, 'creatures[0].wounded.tail: Ayla has no body part "tail"'),
        ("creatures.0.wounded", {"stomach": -1}, "creatures[0].wounded.stomach: at least 0"),
        ("creatures.1.anchor", [3, 3], "creatures[1].anchor: Goblin cannot stand in (3, 3)"),
        ("creatures.1.anchor", [40, 1], "creatures[1].anchor: Goblin would stand off the map"),
        ("creatures.1.id", "ayla", 'creatures[1].id: duplicate creature id "ayla"'),
        ("creatures.1.id", "soulweaver", 'creatures[1].id: "soulweaver" is reserved'),
        ("creatures.1.hp", 3, "creatures[1].hp: unknown key"),
        ("weapons.0.damage", -1, "weapons[0].damage: at least 0"),
        ("dice.3", 13, "dice[3]: 13 is not a d12 face"),
        ("dice.0", 0, "dice[0]: 0 is not a d12 face"),
        ("dice.1", "6", 'dice[1]: "6" is not a d12 face'),
        ("seed", 3, "seed: give either dice"),
        ("board", ..., "board: missing (required)"),
        ("board.cols", 0, "board.cols: at least 1"),
        ("board.walls.0", [3, "x"], "board.walls[0][1]: Input should be a valid integer"),
        ("board.walls.0", [30, 3], "board.walls[0]: (30, 3) is off the 6x4 map"),
        ("settings.grid", "triangle", "settings.grid: Input should be 'hex' or 'square'"),
        ("settings.colour", "red", "settings.colour: unknown key"),
        ("version", 2, "version: must be 1"),
        ("name", ..., "name: missing (required)"),
        ("extra", 1, "extra: unknown key"),
    ],
)
def test_malformed_field_is_named(path: str, value: object, expected: str) -> None:
    problems = problems_of(broken(path, value))
    assert any(p.startswith(expected) for p in problems), problems


def test_every_problem_is_reported_at_once() -> None:
    data = broken("creatures.1.size", "big")
    data["dice"][3] = 13
    problems = problems_of(data)
    assert len(problems) == 2
    assert str(ScenarioError(problems)) == "; ".join(problems)


def test_not_an_object() -> None:
    assert problems_of([1, 2]) == ["scenario: must be a JSON object, not a list"]


def test_invalid_json_and_duplicate_keys() -> None:
    with pytest.raises(ScenarioError, match=r"json: invalid JSON at line 1, column \d+"):
        parse_scenario_text('{"version": 1,')
    with pytest.raises(ScenarioError, match='json: duplicate key "dice"'):
        parse_scenario_text('{"dice": [1], "dice": [2]}')


# ---------------------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------------------


def test_cli_prints_the_events_as_json() -> None:
    path = SCENARIOS / "collision.json"
    done = cli_process(str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    events = json.loads(done.stdout)
    assert events == run_scenario(load_scenario(read("collision")))
    assert cli(str(path)).stdout == done.stdout
    pretty = cli(str(path), "--pretty")
    assert pretty.returncode == 0
    assert json.loads(pretty.stdout) == events
    assert "\n  " in pretty.stdout


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_cli_runs_every_example(path: Path) -> None:
    done = cli(str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[-1]["kind"] == "summary"


def test_cli_text_prints_one_line_per_event() -> None:
    done = cli(str(SCENARIOS / "reach.json"), "--text")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    events = run_scenario(load_scenario(read("reach")))
    assert len(lines) == len(events)
    assert lines[0] == "[0] Torva rolls Zeal for Priority: 8."
    assert lines[-1].startswith("summary Round 1, the Soulweaver's turn.")
    assert any(line.startswith("[1] Rejected strike:") for line in lines)


def test_cli_reads_standard_input() -> None:
    done = cli("-", stdin=json.dumps(minimal()))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[-1]["kind"] == "summary"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (json.dumps(broken("creatures.1.size", "big")), "error: creatures[1].size: Input should be a valid integer"),
        (json.dumps(broken("commands.1.type", "fly")), "error: commands[1].type: unknown command type"),
        (json.dumps(broken("creatures.0.weapons", ["axe"])), 'error: creatures[0].weapons[0]: unknown weapon "axe"'),
        (json.dumps(broken("dice.3", 13)), "error: dice[3]: 13 is not a d12 face"),
        (json.dumps(broken("board", ...)), "error: board: missing (required)"),
        ('{"version": 1, "name": ', "error: json: invalid JSON at line 1"),
    ],
    ids=["size-type", "command-type", "weapon-id", "face-13", "no-board", "invalid-json"],
)
def test_cli_malformed_file_exits_2(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    done = cli(str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert expected in done.stderr, done.stderr


def test_cli_missing_file_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    done = cli(str(missing))
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: {missing}: no such file"


def test_cli_dice_running_out_exits_2(tmp_path: Path) -> None:
    data = minimal()
    data["dice"] = [5]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = cli(str(path))
    assert done.returncode == 2
    assert "error: dice: the script ran out at commands[1]" in done.stderr
