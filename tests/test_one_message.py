"""A page takes in a change's map in ONE message (`vtt/web/one_message.py`, issue 14: the browser does the least work
per move): a move seen by a player's page is its token patch in one script, which the browser runs in one task and
draws in one frame, and its log entry in one more `table_view.FLUSH_DELAY` later (the map first); outside a change
each call goes out on its own, as NiceGUI sends it. The log entry is worked out once for the pages shown the same
events (`roll_log.shared_entry`), and marking it undone on one page leaves the others' as they were."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from factories import creature, on_turn, state
from fastapi import Request
from hypothesis import given, settings
from hypothesis import strategies as st
from nicegui.events import GenericEventArguments
from nicegui.outbox import Outbox
from nicegui.testing.user_simulation import user_simulation

from vtt.rules.model import GameState
from vtt.store.db import Seat
from vtt.table.registry import Games
from vtt.table.table import LogRecord, Table, Viewer
from vtt.web import app as web_app
from vtt.web.one_message import one_message
from vtt.web.roll_log import entry_json, shared_entry
from vtt.web.table_view import TableView

SW = Viewer("soulweaver", "Soulweaver")


def _game() -> GameState:
    return state(creature("ayla", (2, 2), controller="alice"), creature("orc", (6, 2)))


@pytest.fixture
def seats(games: Games) -> Iterator[dict[str, Seat]]:
    web_app.Server.games = games
    _, made, _ = games.ensure("One message", _game(), "")
    yield {s.key: s for s in made}
    web_app.Server.games = None


@pytest.fixture
def on_orcs_turn(games: Games) -> Iterator[Seat]:
    """The Soulweaver's seat at a game begun on the orc's turn."""
    web_app.Server.games = games
    _, made, _ = games.ensure("A move on the orc's turn", on_turn(_game(), "orc"), "")
    yield next(s for s in made if s.key == SW.key)
    web_app.Server.games = None


@pytest.fixture
def scripts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every script put in a page's outbox for its browser, as (client id, code), when it is put there."""
    sent: list[tuple[str, str]] = []
    enqueue = Outbox.enqueue_message

    def spy(self: Outbox, message_type: str, data: Any, target_id: str) -> None:
        if message_type == "run_javascript":
            sent.append((target_id, data["code"]))
        enqueue(self, message_type, data, target_id)

    monkeypatch.setattr(Outbox, "enqueue_message", spy)
    return sent


async def _sent(scripts: list[tuple[str, str]], page: str, n: int) -> list[str]:
    """The page's scripts, once there are `n` (NiceGUI's own `run_method` puts each in the outbox a moment later)."""
    for _ in range(200):
        mine = [code for client, code in scripts if client == page]
        if len(mine) >= n:
            return mine
        await asyncio.sleep(0.01)
    return [code for client, code in scripts if client == page]


async def _root(secret: str = "", *, request: Request) -> None:
    await web_app.play(secret, request)


def _views(table: Table) -> list[TableView]:
    return [v for v in table._listeners if isinstance(v, TableView)]


async def _flushed(view: TableView) -> bool:
    for _ in range(200):
        if view._flush_task is None:
            return True
        await asyncio.sleep(0.02)
    return False


def _run(view: TableView, code: str) -> list[list[Any]] | None:
    """The calls a script runs through the page's carrier (None: it is not such a script)."""
    head = f'runMethod({view.carrier.id},"run",'
    if not (code.startswith(head) and code.endswith(")")):
        return None
    [calls] = json.loads(code[len(head) : -1])
    return list(calls)


async def test_a_move_reaches_a_players_page_as_its_patch_then_its_log_entry_a_moment_later(
    games: Games, seats: dict[str, Seat], scripts: list[tuple[str, str]]
) -> None:
    table = games.table(seats["soulweaver"].game_id)
    async with user_simulation(_root) as user:
        await user.open(f"/?secret={seats['alice'].secret}")
        [view] = _views(table)
        await _flushed(view)
        page = view.map.client.id
        scripts.clear()
        assert (await table.submit(SW, {"type": "place", "creature": "orc", "to": [7, 3]})).ok
        entry = view.log.entries[-1]
        assert entry["head"].endswith("place"), "the page's log holds the entry at once (a page drawn again shows it)"
        patch = {"id": "orc", "v": 1, "cells": [[7, 3]]}
        [first] = [code for client, code in scripts if client == page]
        assert _run(view, first) == [[view.map.id, "patchToken", [patch]]]
        assert await _flushed(view)
        mine = [code for client, code in scripts if client == page]
        assert len(mine) == 2, mine
        assert _run(view, mine[1]) == [[view.log.id, "add", [[entry]]]]


async def test_a_drop_the_change_answered_is_not_answered_again(
    games: Games, on_orcs_turn: Seat, scripts: list[tuple[str, str]]
) -> None:
    """The dragging page's drop is answered by the change's patch (it carries the cells), not by a re-sent token
    after it; the log entry follows."""
    table = games.table(on_orcs_turn.game_id)
    async with user_simulation(_root) as user:
        await user.open(f"/?secret={on_orcs_turn.secret}")
        [view] = _views(table)
        await _flushed(view)
        page = view.map.client.id
        played = len(table.log)
        scripts.clear()
        drop = {"id": "orc", "q": 7, "r": 2, "v": table.version("orc")}
        view.map._handle_move(GenericEventArguments(sender=view.map, client=view.map.client, args=drop))
        for _ in range(200):
            if len(table.log) > played:
                break
            await asyncio.sleep(0.02)
        assert table.log[-1].command["type"] == "move"
        assert table.state.creatures["orc"].anchor == (7, 2)
        assert await _flushed(view)
        mine = [code for client, code in scripts if client == page]
        assert len(mine) == 2, mine
        calls, later = _run(view, mine[0]), _run(view, mine[1])
        assert calls is not None and [(c[0], c[1]) for c in calls] == [(view.map.id, "patchToken")]
        assert calls[0][2][0]["cells"] == [[7, 2]]
        assert later is not None and [(c[0], c[1]) for c in later] == [(view.log.id, "add")]


async def test_outside_a_change_each_call_goes_out_on_its_own(
    games: Games, seats: dict[str, Seat], scripts: list[tuple[str, str]]
) -> None:
    table = games.table(seats["soulweaver"].game_id)
    async with user_simulation(_root) as user:
        await user.open(f"/?secret={seats['alice'].secret}")
        [view] = _views(table)
        page = view.map.client.id
        scripts.clear()
        view.map.set_active("orc")
        view.map.clear_highlights()
        mine = await _sent(scripts, page, 2)
        assert mine == [
            f'return runMethod({view.map.id}, "setActive", {json.dumps(["orc"])})',
            f'return runMethod({view.map.id}, "clearHighlights", [])',
        ]
        scripts.clear()
        with one_message(view.carrier):
            view.map.set_active(None)
            with one_message(view.carrier):  # a nested block joins the outer one
                view.log.mark_undone([], True)  # nothing to mark: nothing sent
                view.map.clear_highlights()
            assert scripts == []
        [code] = [code for client, code in scripts if client == page]
        assert _run(view, code) == [[view.map.id, "setActive", [None]], [view.map.id, "clearHighlights", []]]


async def test_pages_shown_the_same_events_share_one_entry_and_marking_it_on_one_leaves_the_others(
    games: Games, seats: dict[str, Seat], scripts: list[tuple[str, str]]
) -> None:
    table = games.table(seats["soulweaver"].game_id)
    async with user_simulation(_root) as user:
        await user.open(f"/?secret={seats['alice'].secret}")
        async with user_simulation(_root) as other:
            await other.open(f"/?secret={seats['soulweaver'].secret}")
            views = _views(table)
            assert len(views) == 2
            assert (await table.submit(SW, {"type": "place", "creature": "orc", "to": [7, 3]})).ok
            for view in views:
                assert await _flushed(view)
            first, second = (view.log.entries[-1] for view in views)
            assert first is second, "worked out once for both pages"
            scripts.clear()
            with one_message(views[0].carrier):
                views[0].log.mark_undone([], True)  # nothing to mark
            assert scripts == [], "a block without calls sends nothing"
            views[0].log.mark_undone([first["seq"]], True)
            assert views[0].log.entries[-1] == {**first, "undone": True}
            assert views[1].log.entries[-1] is first and "undone" not in first


def _record(seq: int, events: list[dict[str, Any]], undone: bool = False) -> LogRecord:
    return LogRecord(seq=seq, sender="soulweaver", command={"type": "place"}, faces=[], events=events, undone=undone)


event_st = st.fixed_dictionaries(
    {"kind": st.sampled_from(["move", "attack", "turn", "damage"]), "text": st.text(max_size=20)},
    optional={"rolls": st.lists(st.fixed_dictionaries({"faces": st.lists(st.integers(1, 12), max_size=3)}))},
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 5), st.lists(event_st, max_size=3), st.booleans(), st.booleans()), max_size=30)
)
def test_a_shared_entry_is_always_the_entry_of_that_record_as_it_is_now(
    steps: list[tuple[int, list[dict[str, Any]], bool, bool]],
) -> None:
    """Property: whatever records are asked for, whichever events they show (the record's own list, or a copy as a
    seat with hidden creatures gets) and however their `undone` changes between asks, `shared_entry` equals the plain
    `entry_json` of the record as it is at that moment."""
    records: dict[int, LogRecord] = {}
    for seq, events, own_list, flip in steps:
        record = records.setdefault(seq, _record(seq, events))
        if flip:
            record.undone = not record.undone
        shown = record.events if own_list else list(record.events)
        assert shared_entry(record, shown) == entry_json(record, shown)
