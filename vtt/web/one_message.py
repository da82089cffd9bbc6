"""A page's element method calls made while it takes in one change, sent to its browser as ONE message.

NiceGUI sends every `run_method` as a message of its own, and the browser handles each in a task of its own and may
draw a frame after each: a move seen by a watching page was a token patch (one frame) and, a moment later, its log
entry (a second frame, as costly as the first on a big map). Inside `one_message(client)` the calls of `Batched`
elements of that client are kept and go out as one script at the end, in the order they were made: the browser
runs them in one task and draws them in one frame.

The script is NiceGUI's own `runMethod(id, name, args)` per call, the arguments written as JSON (as
`Element.run_method` writes them): data, never code made of a user's text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from nicegui import core, ui
from nicegui.awaitable_response import AwaitableResponse, NullResponse
from nicegui.client import Client

_open: dict[str, list[str]] = {}
"""The calls kept so far, by the id of the client taking in a change."""


@contextmanager
def one_message(client: Client) -> Iterator[None]:
    """Keep the `Batched` calls of `client`'s elements made inside the block and send them as one message at its
    end (nothing when there were none). Nested blocks for one client make one message, at the outer block's end."""
    if client.id in _open:
        yield
        return
    calls: list[str] = []
    _open[client.id] = calls
    try:
        yield
    finally:
        del _open[client.id]
        if calls and not client.is_deleted:
            client.run_javascript(";".join(calls))


def call_script(element_id: int, name: str, args: tuple[Any, ...]) -> str:
    """One call as the browser's `runMethod` runs it (what `Element.run_method` sends, without its `return`)."""
    return f"runMethod({element_id}, {json.dumps(name)}, {json.dumps(args)})"


class Batched(ui.element):
    """An element whose `run_method` calls inside `one_message` of its client go out with the others of that block
    (a call kept there returns nothing to await); elsewhere they go out at once, as NiceGUI sends them."""

    def run_method(self, name: str, *args: Any, timeout: float = 1) -> AwaitableResponse:
        calls = _open.get(self.client.id)
        if calls is None:
            return super().run_method(name, *args, timeout=timeout)
        if core.is_loop_running() and self._is_safe_to_interact():
            calls.append(call_script(self.id, name, args))
        return NullResponse()
