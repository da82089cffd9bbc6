"""The order the browser tests run in (`e2e/schedule.py`): units kept together, the costliest first."""

from __future__ import annotations

from pathlib import Path

from e2e.schedule import by_cost, costs_from_durations, file_groups, unit_of_id

COSTS = {"a1": 1.0, "a2": 1.0, "b": 5.0, "c": 2.0, "d": 2.0, "g1": 3.0, "g2": 3.0}


def unit(name: str) -> str:
    """Names starting with a letter and a digit share a unit (like the tests of an xdist_group)."""
    return name[0] if name[1:].isdigit() else name


def test_units_stay_together_in_their_order_and_the_costliest_go_first() -> None:
    items = ["a1", "c", "g1", "b", "a2", "d", "g2"]
    # units: a = 2, c = 2, g = 6, b = 5, d = 2; c and d tie with a and keep their order after it
    assert by_cost(items, unit, COSTS.__getitem__) == ["g1", "g2", "b", "a1", "a2", "c", "d"]


def test_every_item_is_kept_once() -> None:
    items = ["d", "a2", "g2", "b", "c", "a1", "g1"]
    ordered = by_cost(items, unit, COSTS.__getitem__)
    assert sorted(ordered) == sorted(items)
    assert ordered.index("a2") < ordered.index("a1")  # the order inside a unit is the order given


def test_costs_are_read_from_the_durations_report_and_added_up_per_test() -> None:
    report = [
        "============================== slowest durations ===============================",
        "12.34s call     e2e/test_x.py::test_one[chromium]",
        "1.50s setup    e2e/test_x.py::test_one[chromium]",
        "0.20s teardown e2e/test_x.py::test_one[chromium]",
        "3.00s call     e2e/test_y.py::test_two[chromium-own server]",
        "(5 durations < 0.005s hidden.  Use -vv to show these durations.)",
    ]
    assert costs_from_durations(report) == {
        "e2e/test_x.py::test_one[chromium]": 14.0,
        "e2e/test_y.py::test_two[chromium-own server]": 3.0,
    }


def test_a_files_group_is_read_from_its_mark_and_its_tests_are_one_unit(tmp_path: Path) -> None:
    folder = tmp_path / "e2e"
    folder.mkdir()
    (folder / "test_alone.py").write_text('pytestmark = pytest.mark.usefixtures("table_timeouts")\n')
    (folder / "test_served.py").write_text('import pytest\n\npytestmark = pytest.mark.xdist_group("served")  # why\n')
    (folder / "helpers.py").write_text('pytestmark = pytest.mark.xdist_group("not a test file")\n')
    groups = file_groups(folder, tmp_path)
    assert groups == {"e2e/test_served.py": "served"}
    assert unit_of_id("e2e/test_served.py::test_one[chromium]", groups) == "@served"
    assert unit_of_id("e2e/test_served.py::test_two", groups) == "@served"
    assert unit_of_id("e2e/test_alone.py::test_one[chromium]", groups) == "e2e/test_alone.py::test_one[chromium]"


def test_every_e2e_file_with_an_xdist_group_mark_is_found() -> None:
    e2e = Path(__file__).resolve().parents[1] / "e2e"
    marked = {f"e2e/{path.name}" for path in e2e.glob("test_*.py") if "xdist_group(" in path.read_text()}
    assert marked and set(file_groups(e2e, e2e.parent)) == marked
