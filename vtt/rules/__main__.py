"""Run a scenario file and print its events: `python -m vtt.rules FILE [--pretty | --text | --check | --menu C]`.

The I/O edge of the rules core: it reads the file and prints; `vtt.rules.scenario` validates and runs.
Exit status 0 on success; 1 when the run does not meet the file's `expect` block (the first mismatch on stderr);
2 for a missing, unreadable or malformed file (`error: <message>` on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vtt.rules.expect import count
from vtt.rules.menu_text import menu_lines
from vtt.rules.scenario import ScenarioError, check_expectations, parse_scenario_text, run

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_BAD_INPUT = 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m vtt.rules",
        description="Run a scenario file (docs/scenarios.md) and print the resulting events as JSON.",
    )
    p.add_argument("file", help="the scenario JSON file ('-' reads standard input)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--pretty", action="store_true", help="indent the JSON")
    out.add_argument("--text", action="store_true", help="print only each event's one-line text")
    out.add_argument("--check", action="store_true", help="print only whether the run meets the file's expect block")
    out.add_argument("--menu", metavar="CREATURE", help="print the options CREATURE has after the commands")
    p.add_argument("--after", metavar="N", type=int, help="with --menu: after commands[N] instead of the last one")
    return p


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    path = Path(name)
    if not path.exists():
        raise ScenarioError([f"{name}: no such file"])
    if path.is_dir():
        raise ScenarioError([f"{name}: is a directory, not a scenario file"])
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError([f"{name}: cannot read the file: {exc}"]) from None


def text_lines(events: Sequence[dict[str, Any]]) -> list[str]:
    """One line per event: the index of the command that caused it, then its text."""
    lines: list[str] = []
    for e in events:
        where = "summary" if e["kind"] == "summary" else f"[{e['command']}]"
        lines.append(f"{where} {e['text']}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.after is not None and args.menu is None:
        parser.error("--after goes with --menu")
    try:
        scenario = parse_scenario_text(_read(args.file))
        _check_menu_args(scenario.state.creatures, len(scenario.commands), args.menu, args.after)
        result = run(scenario)
    except ScenarioError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    events = result.events
    if args.menu is not None:
        state = result.state if args.after is None else result.states[args.after]
        when = "" if args.after is None else f"after commands[{args.after}], "
        lines = menu_lines(state, args.menu)
        sys.stdout.write(lines[0].replace(", ", f", {when}", 1) + "\n" + "".join(f"{line}\n" for line in lines[1:]))
    elif args.text:
        sys.stdout.write("\n".join(text_lines(events)) + "\n")
    elif not args.check:
        sys.stdout.write(json.dumps(events, indent=2 if args.pretty else None, ensure_ascii=False) + "\n")
    mismatch = check_expectations(scenario, result)
    if mismatch is not None:
        print(f"expectation not met: {mismatch}", file=sys.stdout if args.check else sys.stderr)
        return EXIT_MISMATCH
    if args.check:
        if scenario.expect is None:
            print("the file has no expect block: nothing to check")
        else:
            n = count(scenario.expect)
            print(f"ok: the run meets every expectation ({n} {'check' if n == 1 else 'checks'})")
    return EXIT_OK


def _check_menu_args(creatures: dict[str, Any], commands: int, menu: str | None, after: int | None) -> None:
    if menu is not None and menu not in creatures:
        raise ScenarioError([f"--menu: unknown creature {json.dumps(menu)} (creatures: {', '.join(creatures)})"])
    if after is not None and not 0 <= after < commands:
        raise ScenarioError(
            [f"--after: {after} is not a command index (the scenario has commands 0 to {commands - 1})"]
        )


if __name__ == "__main__":
    sys.exit(main())
