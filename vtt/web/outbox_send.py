"""A page's messages handed straight to its socket, numbered as NiceGUI's outbox numbers them.

NiceGUI's outbox sends each message with socket.io's `emit` to the page's room, which makes a task for each socket
of the room and waits for it, and engine.io's `send` checks the ping and logs before queueing the packet: for one
page and one message a task, a `wait`, a few futures and several turns of the event loop, for each of the 8 pages
of a move. A page has one socket (two only for a moment while it reconnects): its packet can go on that socket's
queue at once (engine.io's writer task sends it), with the number and the history the outbox's `_emit` gives it,
so that a reconnection's rewind still finds it. Where that is not so (no socket, two sockets, NiceGUI On Air), the
outbox's own way is taken. The socket's writer then waits for the next packet without a task of its own (`_poll`).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from importlib.metadata import version
from typing import Any

from engineio import exceptions  # type: ignore[import-untyped]
from engineio import packet as eio_packet
from engineio.async_socket import AsyncSocket  # type: ignore[import-untyped]
from nicegui import core
from nicegui.outbox import Message, Outbox
from socketio import packet as sio_packet  # type: ignore[import-untyped]

TESTED_WITH = {"nicegui": ("3.18",), "python-engineio": ("4.15",), "python-socketio": ("5.18",)}
"""The releases (major.minor) whose internals these sends were written and tested against: the outbox's numbering
and history, socket.io's rooms and packets, engine.io's socket queue and `poll`. With any other, NiceGUI's own way."""

_slow: weakref.WeakSet[Outbox] = weakref.WeakSet()
"""Outboxes inside NiceGUI's own `_emit`, which numbers a message before it awaits the send and counts it after:
a message sent at once meanwhile would take the same number."""


def _socket(room: str) -> Any | None:
    """The engine.io socket of the page's room when it has exactly one, open."""
    sio = core.sio
    rooms = sio.manager.rooms.get("/", {})
    members = rooms.get(room)
    if members is None or len(members) != 1:
        return None
    (eio_sid,) = members.values()
    socket = sio.eio.sockets.get(eio_sid)
    if socket is None or socket.closed or getattr(socket, "closing", False):
        return None
    return socket


def send_now(outbox: Outbox, message: Message) -> bool:
    """Put the message on its page's socket now, as `Outbox._emit` would send it; False (nothing done) when it must
    go NiceGUI's way. Call it only when the outbox holds nothing older (`idle`), or messages change places."""
    client_id, message_type, data = message
    client = outbox._client()
    if client is None or client.id != client_id or not client.has_socket_connection or outbox in _slow:
        return False
    if core.air is not None and core.air.is_air_target(client_id):
        return False
    socket = _socket(client_id)
    if socket is None:
        return False
    message_id = data["_id"] = outbox.next_message_id
    binary = False if message_type == "run_javascript" else None  # a script and its request's id: text only
    encoded = core.sio.packet_class(sio_packet.EVENT, data=[message_type, data], binary=binary).encode()
    if not isinstance(encoded, str):  # binary attachments: socket.io's own way
        return False
    socket.queue.put_nowait(eio_packet.Packet(eio_packet.MESSAGE, encoded))
    now = time.time()
    history = outbox.message_history
    history.append((message_id, now, message))
    max_age = core.sio.eio.ping_interval + core.sio.eio.ping_timeout + client.page.resolve_reconnect_timeout()
    while history and history[0][1] < now - max_age:
        history.popleft()
    while len(history) > core.app.config.message_history_length:
        history.popleft()
    outbox.next_message_id = message_id + 1
    return True


def idle(outbox: Outbox) -> bool:
    """Whether the outbox holds no message or element update that would have to go before a new message."""
    return not outbox.messages and not outbox.updates and outbox not in _slow


async def _poll(self: AsyncSocket) -> list[Any]:
    """`AsyncSocket.poll` (engine.io 4) waiting for the first packet under `asyncio.timeout`: its `asyncio.wait_for`
    made a task for each packet a socket's writer sent, and woke it apart from the writer."""
    try:
        async with asyncio.timeout(self.server.ping_interval + self.server.ping_timeout):
            packets = [await self.queue.get()]
        self.queue.task_done()
    except (TimeoutError, asyncio.CancelledError):
        raise exceptions.QueueEmpty() from None
    if packets == [None]:
        return []
    while True:
        try:
            pkt = self.queue.get_nowait()
            self.queue.task_done()
            if pkt is None:
                self.queue.put_nowait(None)
                break
            packets.append(pkt)
        except asyncio.QueueEmpty:
            break
    return packets


def tested_here() -> bool:
    """Whether the installed NiceGUI, socket.io and engine.io are releases of `TESTED_WITH`."""
    return all(".".join(version(name).split(".")[:2]) in minors for name, minors in TESTED_WITH.items())


def install() -> bool:
    """Let every outbox send at once where it can (`send_now`), and engine.io's writers wait without a task; nothing
    (False) with releases these sends were not tested against."""
    if not tested_here():
        logging.getLogger(__name__).warning(
            "outbox_send: NiceGUI %s, engine.io %s, socket.io %s are not the releases it was tested with (%s): "
            "messages go NiceGUI's own way",
            version("nicegui"),
            version("python-engineio"),
            version("python-socketio"),
            TESTED_WITH,
        )
        return False
    AsyncSocket.poll = _poll
    emit = Outbox._emit
    if getattr(emit, "_sends_now", False):
        return True

    async def _emit(self: Outbox, message: Message) -> None:
        if send_now(self, message):
            return
        _slow.add(self)
        try:
            await emit(self, message)
        finally:
            _slow.discard(self)

    _emit._sends_now = True  # type: ignore[attr-defined]
    Outbox._emit = _emit  # type: ignore[method-assign]
    return True
