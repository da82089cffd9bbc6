"""Run a scenario file and print its events: `python -m vtt.rules FILE [--pretty | --text]`.

The I/O edge of the rules core: it reads the file and prints; `vtt.rules.scenario` validates and runs.
Exit status 0 on success; 2 for a missing, unreadable or malformed file (`error: <message>` on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vtt.rules.scenario import ScenarioError, parse_scenario_text, run_scenario

EXIT_OK = 0
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
    args = _parser().parse_args(argv)
    try:
        events = run_scenario(parse_scenario_text(_read(args.file)))
    except ScenarioError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.text:
        sys.stdout.write("\n".join(text_lines(events)) + "\n")
    else:
        sys.stdout.write(json.dumps(events, indent=2 if args.pretty else None, ensure_ascii=False) + "\n")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
