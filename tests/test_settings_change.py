"""The Soulweaver changes table settings during a game: validated, logged in plain words, undoable; nobody else
may, and a bad value is refused in plain words with the game left as it was."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from factories import creature, state

from vtt.rules import RuleError, ScriptedDice, apply
from vtt.rules.model import GameState
from vtt.rules.setting_groups import GROUPS, grouped, label, plain_description, setting_error
from vtt.rules.settings import TableSettings
from vtt.table.table import Table, Viewer

SW = Viewer("soulweaver", "Mira")


def fresh(controller: str | None = None) -> GameState:
    """A game on the default settings (the factories' own turn reactions off)."""
    return state(creature("a", (1, 1), controller=controller), settings=TableSettings())


def change(changes: dict[str, Any]) -> dict[str, Any]:
    return {"type": "change_settings", "changes": changes}


def test_a_setting_change_is_validated_and_logged_in_plain_words() -> None:
    s = fresh()
    after, events = apply(s, change({"reaction_seconds": 45, "reactions": False}), ScriptedDice([]))
    assert after.settings.reaction_seconds == 45 and not after.settings.reactions
    assert s.settings.reaction_seconds == 30 and s.settings.reactions
    assert events[0].text == (
        "The Soulweaver changes the table settings: Offer reactions: off; Seconds to wait for a reaction: 45."
    )
    assert events[0].data == {"changes": {"reaction_seconds": 45, "reactions": False}}


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"reaction_seconds": -1}, "Seconds to wait for a reaction must be at least 0"),
        ({"reactions": "maybe"}, "Offer reactions must be on or off"),
        ({"movement_pool": 2.5}, "Spaces in a Movement Pool must be a whole number"),
        (
            {"defense_prompts": "some"},
            "Whose defenses wait for a choice: choose “players' creatures”, “everyone's creatures” or "
            "“nobody's (roll at once)”",
        ),
        ({"no_such": 1}, "this table has no setting called no_such: choose one from the Settings list"),
        ({"grid": "square"}, "the grid cannot change during a game (its map was drawn for it): start a new game"),
        ({}, "no setting was changed: change one, then save"),
    ],
)
def test_a_bad_setting_is_refused_in_plain_words(changes: dict[str, object], error: str) -> None:
    s = fresh()
    with pytest.raises(RuleError) as info:
        apply(s, change(changes), ScriptedDice([]))
    assert str(info.value).startswith(error)
    assert "_" not in str(info.value).replace("no_such", ""), "no setting's internal name in the refusal"


def test_a_refused_change_leaves_the_table_as_it_was() -> None:
    table = Table("t", fresh())
    before = table.state.settings
    out = asyncio.run(table.submit(SW, change({"reactions": False, "reaction_seconds": -5})))
    assert not out.ok and out.error == "Seconds to wait for a reaction must be at least 0"
    assert table.state.settings is before and table.state.settings.reactions
    assert table.log == []


def test_only_the_soulweaver_changes_settings() -> None:
    table = Table("t", fresh("alice"))
    out = asyncio.run(table.submit(Viewer("player", "alice"), change({"reactions": False})))
    assert out.error == "only the Soulweaver can do that"
    assert table.state.settings.reactions and table.log == []
    out = asyncio.run(table.submit(SW, change({"reactions": False})))
    assert out.ok and not table.state.settings.reactions


def test_a_settings_change_is_one_logged_command_that_undo_takes_back() -> None:
    table = Table("t", fresh())
    out = asyncio.run(table.submit(SW, change({"reactions": False, "distract_dl": 4, "attack_senses": ["sound"]})))
    assert out.ok and [r.kind for r in table.log] == ["change_settings"]
    assert (table.state.settings.distract_dl, table.state.settings.attack_senses) == (4, ["sound"])
    assert asyncio.run(table.submit(SW, {"type": "undo"})).ok
    assert table.state.settings == TableSettings() and table.log[-1].kind == "undo"


def test_every_setting_is_in_one_group_with_a_plain_name() -> None:
    placed = [name for names in GROUPS.values() for name in names]
    assert sorted(placed) == sorted(TableSettings.model_fields), "each setting in exactly one group"
    assert [n for names in grouped().values() for n in names] == placed
    for name in TableSettings.model_fields:
        assert "_" not in label(name) and label(name)[0].isupper(), name


def test_a_setting_named_in_another_s_rule_text_is_called_by_its_plain_name() -> None:
    assert "“Creatures obstruct”" in plain_description("manifest_needs_sight")
    assert "`" not in plain_description("manifest_needs_sight")


def test_an_error_on_a_list_setting_names_the_setting() -> None:
    err = {"type": "literal_error", "loc": ("attack_senses", 0), "ctx": {"expected": "'sight', 'sound' or 'smell'"}}
    assert setting_error(err) == "Senses an attacker finds its target with: choose “sight”, “sound” or “smell”"
