"""The rules core stays pure: no UI or storage imports, no global randomness outside dice.py, no I/O.

vtt/rules/__init__.py: "The pure rules core: state + command + dice -> new state + events. No UI, no storage,
no global random."
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "vtt" / "rules"
FORBIDDEN = ("nicegui", "sqlmodel", "sqlalchemy", "fastapi")

_IMPORT_ALL = """
import importlib, json, pkgutil, sys
import vtt.rules
names = sorted(m.name for m in pkgutil.walk_packages(vtt.rules.__path__, "vtt.rules."))
for name in names:
    importlib.import_module(name)
forbidden = {forbidden!r}
loaded = sorted(m for m in sys.modules if m.split(".")[0] in forbidden)
print(json.dumps({{"modules": names, "forbidden": loaded}}))
"""

RANDOM_IMPORT = re.compile(r"^\s*(import\s+random\b|from\s+random\s+import\b)", re.MULTILINE)
FILE_IO = re.compile(r"\bopen\(|\.(read|write)_(text|bytes)\(|\bsys\.std(in|out|err)\b|\bprint\(")
# The command-line runner is the documented I/O edge of the package ("The I/O edge of the rules core: it reads
# the file and prints"); the rules themselves never do I/O.
IO_EDGE = RULES / "__main__.py"


def _rules_sources() -> list[Path]:
    return sorted(RULES.rglob("*.py"))


def test_rules_modules_import_without_ui_or_storage_libraries() -> None:
    """vtt/rules/__init__.py: "No UI, no storage": importing every module of vtt.rules in a fresh interpreter
    loads none of nicegui, sqlmodel, sqlalchemy or fastapi."""
    proc = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALL.format(forbidden=set(FORBIDDEN))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    expected = sorted(
        "vtt.rules." + ".".join(p.relative_to(RULES).with_suffix("").parts)
        for p in _rules_sources()
        if p.name != "__init__.py"
    )
    assert report["modules"] == expected
    assert "vtt.rules.strike" in report["modules"]
    assert report["forbidden"] == []


def test_rules_use_no_global_random_outside_dice() -> None:
    """vtt/rules/__init__.py: "no global random"; dice.py: "no rule touches global randomness". Only dice.py
    may import `random` (for its private, seeded generator)."""
    sources = _rules_sources()
    assert len(sources) > 10
    dice = RULES / "dice.py"
    assert RANDOM_IMPORT.search(dice.read_text(encoding="utf-8")), "the pattern must find dice.py's own import"
    offenders = [
        str(p.relative_to(ROOT)) for p in sources if p != dice and RANDOM_IMPORT.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_rules_do_no_file_io() -> None:
    """vtt/rules/grid.py: "Everything here is pure and deterministic: standard library only, no randomness, no
    I/O." No module of vtt.rules except the command-line runner `__main__.py` calls `open(`, reads or writes
    files through pathlib, touches standard input/output or prints."""
    for io_call in ("with open(path) as f:", "path.read_text()", "sys.stdin.read()", "print(x)"):
        assert FILE_IO.search(io_call), f"the pattern must find {io_call!r}"
    assert not FILE_IO.search("self.reopen(x)")
    offenders = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in _rules_sources()
        if p != IO_EDGE
        for m in [FILE_IO.search(p.read_text(encoding="utf-8"))]
        if m
    ]
    assert offenders == []
