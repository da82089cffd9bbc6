"""The order the browser tests run in, so that two workers (``-n 2 --dist loadgroup``) end together.

Each test is a unit of its own, which any worker may take, except the tests of a file marked
``pytestmark = pytest.mark.xdist_group("name")`` (a file whose module fixture starts a server of its own): those stay
together, in their order, on one worker. pytest-xdist's own ``loadgroup`` finds a test's group in a suffix it adds to
the test's id, which pytest 9.2 no longer lets it add (the group's tests went to both workers, and each started the
module's server); `GroupScheduling` reads the group from the file's mark instead.

The units are put in order of their cost, the longest first: the workers take them from the front, one ahead of the
one they run, so what is left at the end is short and no worker waits alone on a long file.

The cost of a test is its seconds in a whole run (set-up, call and tear-down) from ``e2e/costs.json``; a test
not in it counts as the median. The table only orders the tests: an old one makes the run less even, never
wrong. Write it again from a whole run's ``--durations=0`` output with
``python -m e2e.schedule < log > e2e/costs.json``.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from xdist.scheduler import LoadGroupScheduling  # type: ignore[import-untyped]

COSTS = Path(__file__).resolve().parent / "costs.json"
T = TypeVar("T")
GROUP_MARK = re.compile(r'^pytestmark = pytest\.mark\.xdist_group\("([^"]+)"\)', re.MULTILINE)
DURATION = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(\S.*?)\s*$")


def load_costs(path: Path = COSTS) -> dict[str, float]:
    """Seconds per test id, from the table (empty when there is none)."""
    if not path.exists():
        return {}
    costs: dict[str, float] = json.loads(path.read_text())
    return costs


def unit_of(item: pytest.Item) -> str:
    """The work unit a test belongs to: its ``xdist_group`` name, or the test itself (as pytest-xdist's
    ``loadgroup`` groups them)."""
    mark = item.get_closest_marker("xdist_group")
    if mark is not None:
        return "@" + str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
    return item.nodeid


def by_cost(items: Sequence[T], unit: Callable[[T], str], cost: Callable[[T], float]) -> list[T]:
    """`items` with the items of each unit together (in their order) and the units by their total cost, the
    largest first (ties in their order)."""
    units: dict[str, list[T]] = {}
    for item in items:
        units.setdefault(unit(item), []).append(item)
    total = {key: sum(cost(item) for item in members) for key, members in units.items()}
    ordered = sorted(units, key=lambda key: -total[key])  # sorted() is stable: ties keep their order
    return [item for key in ordered for item in units[key]]


def order(items: Sequence[pytest.Item], costs: dict[str, float]) -> list[pytest.Item]:
    """The tests in the order the workers should take them (a test missing from `costs` counts as the median)."""
    default = statistics.median(costs.values()) if costs else 1.0
    return by_cost(items, unit_of, lambda item: costs.get(item.nodeid, default))


def file_groups(folder: Path, root: Path) -> dict[str, str]:
    """The group of each test file in `folder` marked ``pytestmark = pytest.mark.xdist_group("name")``, by its path
    from `root` as in a test id."""
    groups: dict[str, str] = {}
    for path in sorted(folder.glob("test_*.py")):
        if match := GROUP_MARK.search(path.read_text()):
            groups[path.relative_to(root).as_posix()] = match.group(1)
    return groups


def unmarked_groups(items: Iterable[pytest.Item], groups: dict[str, str], root: Path) -> list[str]:
    """The tests whose ``xdist_group`` mark `file_groups` did not find as their file's group (written another way)."""
    return [
        item.nodeid
        for item in items
        if item.get_closest_marker("xdist_group") is not None
        and "@" + groups.get(item.path.relative_to(root).as_posix(), "") != unit_of(item)
    ]


class GroupScheduling(LoadGroupScheduling):  # type: ignore[misc]
    """pytest-xdist's ``loadgroup`` with each test's unit from `file_groups`: the tests of a marked file are one unit,
    every other test a unit of its own."""

    def __init__(self, config: pytest.Config, log: Any, groups: dict[str, str]) -> None:
        super().__init__(config, log)
        self.groups = groups

    def _split_scope(self, nodeid: str) -> str:
        return unit_of_id(nodeid, self.groups)


def unit_of_id(nodeid: str, groups: dict[str, str]) -> str:
    """`unit_of` for a test id, its file's group from `groups` (`file_groups`)."""
    group = groups.get(nodeid.partition("::")[0])
    return "@" + group if group is not None else nodeid


def costs_from_durations(lines: Iterable[str]) -> dict[str, float]:
    """Seconds per test id from pytest's ``--durations=0`` report (set-up, call and tear-down added up)."""
    costs: dict[str, float] = {}
    for line in lines:
        if match := DURATION.match(line):
            seconds, _, nodeid = match.groups()
            costs[nodeid] = round(costs.get(nodeid, 0.0) + float(seconds), 1)
    return costs


def main() -> None:
    costs = costs_from_durations(sys.stdin)
    if not costs:
        sys.exit("no durations read: give the output of a whole run with --durations=0 on standard input")
    json.dump(dict(sorted(costs.items())), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
