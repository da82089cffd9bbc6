"""The Settings dialog's control for each table setting fits its type (a switch, a number with its bounds, a
select of its choices, a multi-select of names, JSON text for a table), and a control's value is read back as the
command sends it, or refused in plain words before anything is sent."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from vtt.rules.settings import TableSettings
from vtt.web.settings_dialog import Control, control_for, read_control


@dataclass
class Held:
    value: Any


@pytest.mark.parametrize(
    ("name", "control"),
    [
        ("reactions", Control("switch")),
        ("reaction_seconds", Control("number", minimum=0)),
        ("space_capacity", Control("number", minimum=0, whole=False)),
        ("stomach_threshold", Control("number", minimum=0, optional=True)),
        ("stomach_size", Control("number", optional=True)),
        ("stand_up_cost", Control("select", choices=("half_movement", "minor", "major"))),
        ("grid", Control("select", choices=("hex", "square"))),
        ("attack_senses", Control("multi", choices=("sight", "sound", "smell"))),
        ("physical_skills", Control("skills")),
        ("material_elements", Control("multi")),
        ("strike_skill", Control("skill")),
        ("distract_defense", Control("skill")),
        ("rules_version", Control("text")),
        ("footprints", Control("json", optional=True)),
        ("ailment_defenses", Control("json")),
    ],
)
def test_each_setting_gets_the_control_of_its_type(name: str, control: Control) -> None:
    assert control_for(name) == control


def test_every_default_reads_back_as_itself() -> None:
    """What the dialog shows at first (a setting's JSON form) is what it would send: nothing changed."""
    defaults = TableSettings().model_dump(mode="json")
    for name, value in defaults.items():
        control = control_for(name)
        shown = value
        if control.kind == "json":
            shown = "" if value is None else json.dumps(value)
        assert read_control(control, Held(shown)) == value, name


@pytest.mark.parametrize(
    ("name", "value", "read"),
    [
        ("reaction_seconds", 45.0, 45),
        ("space_capacity", 1.5, 1.5),
        ("stomach_size", None, None),
        ("footprints", "", None),
        ("ailment_defenses", '{"Muted": "Zeal"}', {"Muted": "Zeal"}),
        ("physical_skills", None, []),
    ],
)
def test_a_control_s_value_is_read_as_the_command_sends_it(name: str, value: Any, read: Any) -> None:
    assert read_control(control_for(name), Held(value)) == read


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("reaction_seconds", 2.5, "must be a whole number"),
        ("reaction_seconds", None, "needs a number"),
        ("ailment_defenses", "", "is empty: write its value, or reset it to the default"),
        ("ailment_defenses", "{Muted", "is not written as JSON (line 1, column 2)"),
    ],
)
def test_a_value_the_dialog_cannot_read_is_refused_in_plain_words(name: str, value: Any, error: str) -> None:
    with pytest.raises(ValueError, match=error.replace("(", r"\(").replace(")", r"\)")):
        read_control(control_for(name), Held(value))
