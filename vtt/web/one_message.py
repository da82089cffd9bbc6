"""A page's element method calls made while it takes in one change, sent to its browser as ONE message.

NiceGUI sends every `run_method` as a message of its own, and the browser handles each in a task of its own and may
draw a frame after each: a move seen by a watching page was a message for each token patched, its fog and its active
ring, each a task and maybe a frame. Inside `one_message(carrier)` the calls of `Batched` elements of the carrier's
page are kept and go out at the end of the block as one call of the carrier (`static/one_message.js`), in the order
they were made: the browser runs them in one task and draws them in one frame. `one_message(carrier, into=calls)`
keeps them in `calls` for a later message instead (`carrier.run(calls)`): the table page holds its log's entries
back that way, to send them after the map's patch (`TableView.table_changed`). The calls are data ([element id, method
name, arguments] as JSON), never code.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from nicegui import core, ui
from nicegui.awaitable_response import AwaitableResponse, NullResponse

from vtt.web import latency_hooks, outbox_send

Call = tuple[int, str, list[Any]]

_open: dict[str, list[Call]] = {}
"""The calls kept so far, by the id of the client taking in a change."""


class Carrier(ui.element, component="../../static/one_message.js"):
    """An invisible element of a page that runs the calls of a `one_message` block in its browser."""

    def run(self, calls: list[Call]) -> None:
        """Send the calls as one `run_javascript` message: on the page's socket at once when its outbox holds
        nothing older (`outbox_send`), else into its outbox. Not through NiceGUI's `run_method`, which makes each
        message an awaitable response and a task of the event loop that enqueues it one turn of the loop later
        (for a change, once per page), and a script beginning with `return`, which the browser's `eval` refuses
        before it runs the script a second time wrapped in a function."""
        if not core.is_loop_running() or not self._is_safe_to_interact():
            return
        client = self.client
        code = f'runMethod({self.id},"run",{json.dumps([calls], separators=(",", ":"))})'
        outbox = client.outbox
        message = (client.id, "run_javascript", {"code": code})
        if outbox_send.idle(outbox) and outbox_send.send_now(outbox, message):
            latency_hooks.sent(*message)
            return
        outbox.enqueue_message("run_javascript", {"code": code}, client.id)


@contextmanager
def one_message(carrier: Carrier, into: list[Call] | None = None) -> Iterator[None]:
    """Keep the `Batched` calls of the carrier's page made inside the block and send them as one message at its end
    (nothing when there were none), or with `into` add them to that list and send nothing. A block inside another
    block of the same page joins the outer one (its calls go where the outer block's go)."""
    client = carrier.client
    if client.id in _open:
        yield
        return
    calls: list[Call] = [] if into is None else into
    _open[client.id] = calls
    try:
        yield
    finally:
        del _open[client.id]
        if calls and into is None:
            carrier.run(calls)


class Batched(ui.element):
    """An element whose `run_method` calls inside `one_message` of its page go out with the others of that block
    (a call kept there returns nothing to await); elsewhere they go out at once, as NiceGUI sends them."""

    def run_method(self, name: str, *args: Any, timeout: float = 1) -> AwaitableResponse:
        calls = _open.get(self.client.id)
        if calls is None:
            return super().run_method(name, *args, timeout=timeout)
        if core.is_loop_running() and self._is_safe_to_interact():
            calls.append((self.id, name, list(args)))
        return NullResponse()
