"""A page's messages handed straight to its socket (`vtt/web/outbox_send.py`): a change's one message goes on the
page's engine.io socket at once, numbered and kept for a reconnection's rewind as NiceGUI's outbox would; a message
never overtakes an older one still in the outbox; a page without exactly one open socket gets its messages
NiceGUI's way."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from bidict import bidict
from engineio.async_socket import AsyncSocket  # type: ignore[import-untyped]
from engineio.exceptions import QueueEmpty  # type: ignore[import-untyped]
from factories import creature, state
from fastapi import Request
from nicegui import core
from nicegui.outbox import Outbox
from nicegui.testing.user_simulation import user_simulation

from vtt.store.db import Seat
from vtt.table.registry import Games
from vtt.table.table import Table, Viewer
from vtt.web import app as web_app
from vtt.web import outbox_send
from vtt.web.table_view import TableView

SW = Viewer("soulweaver", "Soulweaver")


class FakeSocket:
    """An engine.io socket's side the sends use: its queue of packets."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.closed = False
        self.closing = False

    def texts(self) -> list[str]:
        out = []
        while not self.queue.empty():
            out.append(self.queue.get_nowait().encode())
        return out


@pytest.fixture
def seats(games: Games, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Seat]]:
    monkeypatch.setattr(Outbox, "_emit", Outbox._emit)  # put back after the test
    monkeypatch.setattr(AsyncSocket, "poll", AsyncSocket.poll)
    outbox_send.install()
    web_app.Server.games = games
    _, made, _ = games.ensure("Straight to the socket", state(creature("orc", (6, 2))), "")
    yield {s.key: s for s in made}
    web_app.Server.games = None


async def _root(secret: str = "", *, request: Request) -> None:
    await web_app.play(secret, request)


def _plug(client_id: str, *sockets: FakeSocket) -> None:
    """Seat the sockets in the page's room, as socket.io's handshake does."""
    members: bidict[str, str] = bidict()
    for i, socket in enumerate(sockets):
        eio_sid = f"eio-{client_id}-{i}"
        core.sio.eio.sockets[eio_sid] = socket
        members[f"sid-{client_id}-{i}"] = eio_sid
    core.sio.manager.rooms.setdefault("/", {})[client_id] = members


def _unplug(client_id: str) -> None:
    members = core.sio.manager.rooms.get("/", {}).pop(client_id, bidict())
    for eio_sid in members.values():
        core.sio.eio.sockets.pop(eio_sid, None)


def _message(text: str) -> tuple[str, dict[str, Any]]:
    """A socket.io event as engine.io sends it: `4` (message) `2` (event) and its JSON."""
    assert text.startswith("42"), text
    kind, data = json.loads(text[2:])
    return kind, data


async def _flushed(view: TableView) -> None:
    for _ in range(200):
        if view._flush_task is None:
            return
        await asyncio.sleep(0.02)


async def _page(table: Table) -> TableView:
    [view] = [v for v in table._listeners if isinstance(v, TableView)]
    await _flushed(view)
    outbox = view.map.client.outbox
    for _ in range(200):  # the outbox has sent what the page's build left in it
        if outbox_send.idle(outbox):
            break
        await asyncio.sleep(0.01)
    return view


@asynccontextmanager
async def _soulweaver_page(games: Games, seats: dict[str, Seat]) -> AsyncIterator[tuple[Table, TableView]]:
    """The Soulweaver's page opened on the seats' game, its build's messages sent; its room emptied afterwards."""
    table = games.table(seats["soulweaver"].game_id)
    async with user_simulation(_root) as user:
        await user.open(f"/?secret={seats['soulweaver'].secret}")
        view = await _page(table)
        try:
            yield table, view
        finally:
            _unplug(view.map.client.id)


async def test_a_changes_message_goes_on_the_socket_at_once_numbered_and_kept_for_a_rewind(
    games: Games, seats: dict[str, Seat]
) -> None:
    async with _soulweaver_page(games, seats) as (table, view):
        page, outbox = view.map.client.id, view.map.client.outbox
        socket = FakeSocket()
        _plug(page, socket)
        first = outbox.next_message_id
        assert (await table.submit(SW, {"type": "place", "creature": "orc", "to": [7, 3]})).ok
        [text] = socket.texts()  # before any turn of the event loop: no outbox pass in between
        kind, data = _message(text)
        assert kind == "run_javascript" and data["_id"] == first
        assert data["code"].startswith(f'runMethod({view.carrier.id},"run",')
        assert '"patchToken"' in data["code"]
        assert not outbox.messages and outbox.next_message_id == first + 1
        assert outbox.message_history[-1][0] == first
        assert outbox.message_history[-1][2] == (page, "run_javascript", data)
        outbox.try_rewind(first)  # the browser came back having seen the messages before it
        assert list(outbox.messages) == [(page, "run_javascript", data)]


async def test_a_message_never_overtakes_an_older_one_in_the_outbox(games: Games, seats: dict[str, Seat]) -> None:
    async with _soulweaver_page(games, seats) as (table, view):
        page, outbox = view.map.client.id, view.map.client.outbox
        socket = FakeSocket()
        _plug(page, socket)
        first = outbox.next_message_id
        outbox.enqueue_message("notify", {"message": "older"}, page)
        assert (await table.submit(SW, {"type": "place", "creature": "orc", "to": [7, 3]})).ok
        assert socket.texts() == []  # the change's message waits behind the older one
        for _ in range(100):
            if outbox.next_message_id == first + 2:
                break
            await asyncio.sleep(0.01)
        sent = [_message(text) for text in socket.texts()]
        assert [(kind, data["_id"]) for kind, data in sent] == [("notify", first), ("run_javascript", first + 1)]
        assert '"patchToken"' in sent[1][1]["code"]


async def test_a_page_without_exactly_one_open_socket_gets_its_messages_the_outboxs_way(
    games: Games, seats: dict[str, Seat]
) -> None:
    async with _soulweaver_page(games, seats) as (_, view):
        page, outbox = view.map.client.id, view.map.client.outbox
        message = (page, "notify", {"message": "hello"})
        assert not outbox_send.send_now(outbox, message)  # no socket in its room
        old, new = FakeSocket(), FakeSocket()
        _plug(page, old, new)  # a reconnection: the old socket not yet gone
        assert not outbox_send.send_now(outbox, message)
        _plug(page, old)
        old.closing = True
        assert not outbox_send.send_now(outbox, message)
        assert old.texts() == [] and new.texts() == []
        _plug(page, new)
        assert outbox_send.send_now(outbox, message)
        assert [_message(text)[0] for text in new.texts()] == ["notify"]


class _Server:
    ping_interval = 0.05
    ping_timeout = 0.05

    def create_queue(self) -> asyncio.Queue[Any]:
        return asyncio.Queue()


async def test_a_sockets_writer_takes_every_packet_waiting_and_stops_at_the_end_or_after_the_pings_time() -> None:
    """`outbox_send._poll`, engine.io's `AsyncSocket.poll` without its task a packet, answers as it does."""
    socket = AsyncSocket(_Server(), "sid")
    waiting = asyncio.create_task(outbox_send._poll(socket))
    await asyncio.sleep(0.01)
    socket.queue.put_nowait("a")
    socket.queue.put_nowait("b")
    assert await waiting == ["a", "b"]
    socket.queue.put_nowait("c")
    socket.queue.put_nowait(None)  # the socket closes: what came before it, and the end stays queued
    assert await outbox_send._poll(socket) == ["c"]
    assert await outbox_send._poll(socket) == []
    with pytest.raises(QueueEmpty):
        await outbox_send._poll(AsyncSocket(_Server(), "quiet"))  # nothing within ping_interval + ping_timeout
    waiting = asyncio.create_task(outbox_send._poll(AsyncSocket(_Server(), "closing")))
    await asyncio.sleep(0.01)
    waiting.cancel()
    with pytest.raises(QueueEmpty):
        await waiting


def test_install_leaves_nicegui_alone_on_releases_it_was_not_tested_with(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another NiceGUI, socket.io or engine.io release may hold its outbox and sockets otherwise: NiceGUI's own way."""
    emit, poll = Outbox._emit, AsyncSocket.poll
    monkeypatch.setattr(Outbox, "_emit", emit)
    monkeypatch.setattr(AsyncSocket, "poll", poll)
    monkeypatch.setitem(outbox_send.TESTED_WITH, "nicegui", ("2.0",))
    assert not outbox_send.tested_here()
    assert outbox_send.install() is False
    assert Outbox._emit is emit
    assert AsyncSocket.poll is poll
