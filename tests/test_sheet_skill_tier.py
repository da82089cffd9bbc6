"""The Soulweaver's sheet edits a skill's Tier over the whole range the rules allow (`SKILL_TIER_MAX`), through
NiceGUI's simulated `User` (no browser): the field's bounds are the model's, and a Tier above 12 typed into it is
the creature's Tier."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from factories import creature, state
from fastapi import Request
from nicegui import ui
from nicegui.testing.user_simulation import user_simulation

from vtt.rules.limits import SKILL_TIER_MAX
from vtt.store.db import Seat
from vtt.table.registry import Games
from vtt.table.table import Table
from vtt.web import app as web_app
from vtt.web.table_view import TableView


@pytest.fixture
def seats(games: Games) -> Iterator[dict[str, Seat]]:
    web_app.Server.games = games
    _, made, _ = games.ensure("Sheet", state(creature("orc", (6, 2), skills={"Martial": 3, "Elude": 2})), "")
    yield {s.key: s for s in made}
    web_app.Server.games = None


async def _root(secret: str = "", *, request: Request) -> None:
    await web_app.play(secret, request)


def _view(table: Table) -> TableView:
    (view,) = [v for v in table._listeners if isinstance(v, TableView)]
    return view


async def test_a_skill_tier_field_takes_every_tier_the_rules_allow(games: Games, seats: dict[str, Seat]) -> None:
    table = games.table(seats["soulweaver"].game_id)
    async with user_simulation(_root) as user:
        await user.open(f"/?secret={seats['soulweaver'].secret}")
        view = _view(table)
        view._select("orc")
        fields = {
            str(e.props["data-skill"]): e
            for e in view.sheet.descendants()
            if isinstance(e, ui.number) and "data-skill" in e.props
        }
        assert sorted(fields) == ["Elude", "Martial"]
        assert all((f.min, f.max) == (0, SKILL_TIER_MAX) for f in fields.values())
        await view._edit_skill("orc", "Martial", "40")
        for _ in range(200):
            if table.state.creatures["orc"].skills["Martial"] == 40:
                break
            await asyncio.sleep(0.02)
        assert table.state.creatures["orc"].skills == {"Martial": 40, "Elude": 2}
