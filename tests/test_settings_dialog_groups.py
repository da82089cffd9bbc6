"""The Settings dialog builds a group's rows only when the group opens (or a search finds something in it), through
NiceGUI's simulated `User` (no browser): opened, it holds the first group's rows and every group's heading; opening
a group adds its rows; a search builds the groups it finds something in; Save sends exactly the settings changed,
whichever groups were built."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from factories import creature, state
from fastapi import Request
from nicegui import ui
from nicegui.element import Element
from nicegui.testing import User
from nicegui.testing.user_interaction import UserInteraction
from nicegui.testing.user_simulation import user_simulation

from vtt.rules.setting_groups import grouped
from vtt.store.db import Seat
from vtt.table.registry import Games
from vtt.web import app as web_app
from vtt.web.settings_dialog import _words

GROUPS = grouped()
FIRST, SECOND = list(GROUPS)[:2]


@pytest.fixture
def seats(games: Games) -> Iterator[dict[str, Seat]]:
    web_app.Server.games = games
    _, made, _ = games.ensure("Settings", state(creature("ayla", (2, 2), controller="alice")), "")
    yield {s.key: s for s in made}
    web_app.Server.games = None


async def _root(secret: str = "", *, request: Request) -> None:
    await web_app.play(secret, request)


def _with(user: User, name: str, value: str | None = None) -> list[Element]:
    """The page's elements with a `data-<name>` attribute (of `value`, if given), in the order they were made."""
    assert user.client is not None
    key = "data-" + name
    found = [e for e in user.client.elements.values() if key in e.props]
    return [e for e in found if value is None or e.props[key] == value]


def _settings(user: User) -> list[str]:
    return [str(e.props["data-setting"]) for e in _with(user, "setting")]


def _one(user: User, name: str, value: str) -> Any:
    (element,) = _with(user, name, value)
    return element


async def _until(check: Any) -> bool:
    for _ in range(200):
        if check():
            return True
        await asyncio.sleep(0.02)
    return False


async def test_the_dialog_builds_a_group_when_it_opens_and_saves_only_what_changed(
    games: Games, seats: dict[str, Seat]
) -> None:
    table = games.table(seats["soulweaver"].game_id)
    before = table.state.settings
    async with user_simulation(_root) as user:
        await user.open(f"/?secret={seats['soulweaver'].secret}")
        UserInteraction(user, {_one(user, "action", "settings")}, None).click()
        assert [e.props["data-group"] for e in _with(user, "group")] == list(GROUPS)
        assert _settings(user) == GROUPS[FIRST]

        expansion = _one(user, "group", SECOND)
        assert isinstance(expansion, ui.expansion)
        expansion.set_value(True)
        assert _settings(user) == GROUPS[FIRST] + GROUPS[SECOND]
        expansion.set_value(False)
        expansion.set_value(True)  # opened again, built once
        assert _settings(user) == GROUPS[FIRST] + GROUPS[SECOND]

        find = _one(user, "field", "find-setting")
        find.set_value("skills")
        found = [g for g, names in GROUPS.items() if any("skills" in _words(n) for n in names)]
        assert set(found) - {FIRST, SECOND}, "the search finds something in a group not built yet"
        for group, names in GROUPS.items():
            built = set(names) <= set(_settings(user))
            assert built == (group in (FIRST, SECOND, *found)), group
            assert _one(user, "group", group).value == (group in found), group
        physical = _one(user, "setting", "physical_skills")
        assert physical.visible and not _one(user, "setting", "movement_pool").visible

        assert not _with(user, "field", "reactions")
        find.set_value("Offer reactions")
        _one(user, "field", "reactions").set_value(not before.reactions)
        UserInteraction(user, {_one(user, "action", "save-settings")}, None).click()
        assert await _until(lambda: table.state.settings.reactions != before.reactions)
        assert table.state.settings == before.model_copy(update={"reactions": not before.reactions})
