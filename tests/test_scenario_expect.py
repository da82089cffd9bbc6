"""A scenario's `expect` block (vtt/rules/expect.py, docs/scenarios.md): how patterns match, how a bad block is
reported, and the command line's --check, --menu and exit status 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vtt.rules.__main__ import EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_OK, main
from vtt.rules.expect import match
from vtt.rules.scenario import ScenarioError, check_expectations, load_scenario, run

ROOT = Path(__file__).resolve().parent.parent
REACH = ROOT / "maps" / "scenarios" / "reach.json"


def minimal(expect: dict[str, Any] | None = None) -> dict[str, Any]:
    """Ayla (Zeal 1) rolls 5 for Priority; her Sword Strike rolls Martial 9, 4 -> 9 (DL 3) against the Goblin's
    Elude 2: hit; damage 2d12 = 3, 8 -> 2 Injury, not above its Severe Threshold (Endure 2). commands[2] is
    refused: Ayla has used her Major Action."""
    data: dict[str, Any] = {
        "version": 1,
        "name": "minimal",
        "description": "Ayla strikes the goblin; a second Strike is rejected.",
        "settings": {"defense_prompts": "nobody"},
        "board": {"cols": 6, "rows": 4},
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
        "commands": [
            {"type": "begin"},
            {"type": "strike", "creature": "ayla", "target": "goblin", "weapon": "sword"},
            {"type": "strike", "creature": "ayla", "target": "goblin", "weapon": "sword"},
        ],
        "dice": [5, 9, 4, 2, 3, 8],
    }
    if expect is not None:
        data["expect"] = expect
    return data


def mismatch(expect: dict[str, Any]) -> str | None:
    scenario = load_scenario(minimal(expect))
    return check_expectations(scenario, run(scenario))


# ---------------------------------------------------------------------------------------------------------
# Matching
# ---------------------------------------------------------------------------------------------------------


def test_an_object_matches_the_keys_it_gives() -> None:
    assert match({"a": 1}, {"a": 1, "b": 2}) is None
    miss = match({"a": {"b": 3}}, {"a": {"b": 4}})
    assert miss is not None and miss.words() == "a.b: expected 3, got 4"


def test_an_empty_object_matches_only_an_empty_one_and_null_a_missing_key() -> None:
    assert match({"ailments": {}}, {"ailments": {}}) is None
    assert match({"ailments": {}}, {"ailments": {"Wounded": 1}}) is not None
    assert match({"ailments": {"Crowded": None}}, {"ailments": {"Wounded": 1}}) is None
    miss = match({"ailments": {"Wounded": None}}, {"ailments": {"Wounded": 1}})
    assert miss is not None and miss.words() == "ailments.Wounded: expected nothing there, got 1"


def test_a_list_matches_item_by_item_and_a_text_by_its_words() -> None:
    assert match([{"value": 1}], [{"value": 1, "reason": "x"}]) is None
    assert match([{"value": 1}], [{"value": 1}, {"value": 2}]) is not None
    assert match({"reason": "Extend 1"}, {"reason": "the Spear's Extend 1 adds"}) is None
    miss = match({"reason": "Extend 2"}, {"reason": "the Spear's Extend 1 adds"})
    assert miss is not None and "a text containing" in miss.words()
    assert match({"kind": "attac"}, {"kind": "attack"}) is not None, "only texts match by their words"


def test_true_is_not_one() -> None:
    assert match({"success": True}, {"success": 1}) is not None
    assert match({"faces": [1]}, {"faces": [True]}) is not None


# ---------------------------------------------------------------------------------------------------------
# Checking a run
# ---------------------------------------------------------------------------------------------------------


def test_the_minimal_run_meets_its_expectations() -> None:
    expect = {
        "rejected": {"2": "turn.no_major_action"},
        "kinds": {"1": ["reach", "attack", "damage", "pips"]},
        "events": [{"kind": "attack", "data": {"success": True}}, {"kind": "damage", "data": {"injury": 2}}],
        "rolls": [{"label": "Ayla: Strike on Goblin", "faces": [9, 4], "result": 9, "modifiers": []}],
        "summary": {"creatures": {"goblin": {"grit": {"pips": 2}, "ailments": {}}}, "unused_dice": []},
        "menus": [{"creature": "ayla", "offered": [{"action": "end_turn"}], "not_offered": [{"action": "strike"}]}],
    }
    assert mismatch(expect) is None


def test_a_refusal_carries_its_code() -> None:
    result = run(load_scenario(minimal()))
    (refused,) = [e for e in result.events if e["kind"] == "rejected"]
    assert refused["data"]["code"] == "turn.no_major_action"
    assert refused["data"]["reason"] == "Ayla has no Major Action left this turn"


def test_an_unlisted_refusal_is_a_mismatch() -> None:
    assert mismatch({"rejected": {}}) == (
        "expect.rejected: commands[2] (strike) was refused, and it does not list it: "
        "Ayla has no Major Action left this turn"
    )


def test_a_menu_after_a_command() -> None:
    expect = {"menus": [{"creature": "ayla", "after": 0, "offered": [{"action": "strike", "targets": ["goblin"]}]}]}
    assert mismatch(expect) is None
    expect["menus"][0]["after"] = 1
    assert mismatch(expect) == (
        'expect.menus[0].offered[0]: Ayla is not offered "strike" after commands[1]; offered: Move, Collision (move '
        "into them), Dash, Drop Prone, Flurry, Distract, Focus, End turn"
    )


def test_a_menu_of_a_creature_that_is_not_active_says_why() -> None:
    expect = {"menus": [{"creature": "goblin", "offered": [{"action": "strike"}]}]}
    found = mismatch(expect)
    assert found == (
        'expect.menus[0].offered[0]: Goblin is not offered "strike" at the end; offered: nothing (it is not Goblin\'s '
        "turn (round 1, Ayla's turn))"
    )


@pytest.mark.parametrize(
    ("expect", "problem"),
    [
        ([], "expect: must be an object, not a list"),
        ({"event": []}, "expect.event: unknown key; one of rejected, kinds, events, rolls, summary, menus"),
        ({"rejected": {"7": None}}, 'expect.rejected["7"]: not a command index (the scenario has commands 0 to 2)'),
        ({"rejected": {"1": 3}}, 'expect.rejected["1"]: must be a refusal code (a string) or null for any reason'),
        ({"kinds": {"1": "attack"}}, 'expect.kinds["1"]: must be a list of event kinds (strings)'),
        ({"events": [{}]}, "expect.events[0]: expects nothing: give at least one key"),
        ({"events": [{"kind": "attack", "who": "x"}]}, "expect.events[0].who: unknown key"),
        ({"events": [{"command": 9}]}, "expect.events[0].command: 9 is not a command index (0 to 2)"),
        ({"rolls": [{"faces": [1], "reason": "x"}]}, "expect.rolls[0].reason: unknown key"),
        ({"summary": {"creatures": {"bob": {}}}}, 'expect.summary.creatures.bob: unknown creature "bob"'),
        ({"summary": {"creatures": {"ayla": {"hp": 3}}}}, "expect.summary.creatures.ayla.hp: unknown key"),
        ({"menus": [{"creature": "bob", "offered": [{"action": "move"}]}]}, "expect.menus[0].creature: must name"),
        ({"menus": [{"creature": "ayla"}]}, "expect.menus[0]: expects nothing: give offered or not_offered"),
    ],
)
def test_a_malformed_expect_block_is_named(expect: object, problem: str) -> None:
    data = minimal()
    data["expect"] = expect
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert any(p.startswith(problem) for p in info.value.problems), info.value.problems


# ---------------------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------------------


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_cli_check_says_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(REACH), "--check"]) == EXIT_OK
    out = capsys.readouterr()
    assert out.out.startswith("ok: the run meets every expectation (") and out.err == ""


def test_cli_exits_1_naming_the_first_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, minimal({"summary": {"creatures": {"goblin": {"grit": {"pips": 3}}}}}))
    assert main([path]) == EXIT_MISMATCH
    out = capsys.readouterr()
    assert json.loads(out.out)[-1]["kind"] == "summary", "the events are still printed"
    assert out.err == (
        "expectation not met: the summary: expect.summary.creatures.goblin.grit.pips: expected 3, got 2\n"
    )
    assert main([path, "--check"]) == EXIT_MISMATCH
    assert capsys.readouterr().out.startswith("expectation not met: the summary:")


def test_cli_menu_prints_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(REACH), "--menu", "torva", "--after", "0"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Torva (torva), after commands[0], round 1, Torva's turn:"
    strike = lines.index("    Unarmed Strike [strike]; 1 Major Action; Reach 2; may choose max_dice")
    assert lines[strike + 1] == "      Goblin A (goblin_a): Martial 2d12, DL 3, against Elude; max_dice: None, 0"
    assert not any("Goblin C (goblin_c): Martial" in line for line in lines), "Goblin C is beyond Reach 2"
    assert lines[-1] == "    End turn [end_turn]; free"


def test_cli_menu_says_why_there_is_none(capsys: pytest.CaptureFixture[str]) -> None:
    collision = str(ROOT / "maps" / "scenarios" / "collision.json")
    assert main([collision, "--menu", "bram", "--after", "5"]) == EXIT_OK
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("  no options: the table waits for decision d1 (Goblin attacks Bram's Athletics")
    assert out[1].endswith('answer it with {"type": "defend", "decision": "d1"}')


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--menu", "bob"], 'error: --menu: unknown creature "bob"'),
        (["--menu", "torva", "--after", "6"], "error: --after: 6 is not a command index"),
    ],
)
def test_cli_menu_bad_arguments_exit_2(args: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(REACH), *args]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err.startswith(error)


def test_vtt_scenario_passes_check_and_menu_through(capsys: pytest.CaptureFixture[str]) -> None:
    from vtt.cli import main as vtt_main

    assert vtt_main(["scenario", str(REACH), "--check"]) == EXIT_OK
    assert capsys.readouterr().out.startswith("ok: the run meets every expectation")
    assert vtt_main(["scenario", str(REACH), "--menu", "kell", "--after", "3"]) == EXIT_OK
    assert capsys.readouterr().out.startswith("Kell (kell), after commands[3], round 1, Kell's turn:")


def test_a_refusal_and_a_short_script_keep_their_details_when_copied() -> None:
    """The code of a RuleError and the roll, faces wanted and faces left of an exhausted script survive pickling
    (as an error sent between processes would be)."""
    import pickle

    from vtt.rules.dice import DiceScriptExhausted
    from vtt.rules.events import RuleError

    refusal = pickle.loads(pickle.dumps(RuleError("too far", code="reach.out_of_reach")))
    assert (str(refusal), refusal.code) == ("too far", "reach.out_of_reach")
    short = pickle.loads(pickle.dumps(DiceScriptExhausted("Mira: Elude defense", 2, 1, 5)))
    assert (short.purpose, short.wanted, short.left) == ("Mira: Elude defense", 2, 1)
    assert str(short) == "Mira: Elude defense: needs 2 d12 but the script has 1 left (used 5 of 6)"
