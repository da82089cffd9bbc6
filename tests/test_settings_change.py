"""The Soulweaver changes table settings during a game: validated, logged, undoable; nobody else may."""

from __future__ import annotations

import asyncio

import pytest
from factories import creature, state

from vtt.rules import RuleError, ScriptedDice, apply
from vtt.table.table import Table, Viewer


def test_a_setting_change_is_validated_and_logged() -> None:
    s = state(creature("a", (1, 1)))
    after, events = apply(s, {"type": "change_settings", "changes": {"reaction_seconds": 45}}, ScriptedDice([]))
    assert after.settings.reaction_seconds == 45 and s.settings.reaction_seconds != 45
    assert events[0].text == "The Soulweaver changes the table settings: reaction_seconds = 45."


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"reaction_seconds": -1}, "reaction_seconds: at least 0"),
        ({"no_such": 1}, "no such setting: no_such"),
        ({"grid": "square"}, "the grid cannot change during a game"),
        ({}, "no settings to change"),
    ],
)
def test_a_bad_setting_is_refused(changes: dict[str, object], error: str) -> None:
    s = state(creature("a", (1, 1)))
    with pytest.raises(RuleError, match=error):
        apply(s, {"type": "change_settings", "changes": changes}, ScriptedDice([]))


def test_only_the_soulweaver_changes_settings() -> None:
    table = Table("t", state(creature("a", (1, 1), controller="alice")))
    out = asyncio.run(
        table.submit(Viewer("player", "alice"), {"type": "change_settings", "changes": {"reactions": True}})
    )
    assert out.error == "only the Soulweaver can do that"
    out = asyncio.run(
        table.submit(Viewer("soulweaver", "Mira"), {"type": "change_settings", "changes": {"reactions": True}})
    )
    assert out.ok and table.state.settings.reactions
