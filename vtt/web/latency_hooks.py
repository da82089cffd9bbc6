"""With `VTT_LATENCY_TRACE` set (`vtt.table.latency_trace`), NiceGUI's outbox notes when it hands each page's
message to the socket: the last moment of a change in the server, after which the message is the network's."""

from __future__ import annotations

from typing import Any

from nicegui import outbox

from vtt.table import latency_trace


def _kind(message_type: str, data: Any) -> str:
    code = data.get("code", "") if isinstance(data, dict) else ""
    if message_type == "run_javascript" and isinstance(code, str) and '"patchToken"' in code:
        return "patchToken"
    return message_type


def sent(client_id: str, message_type: str, data: Any) -> None:
    """Note a message handed to its page's socket without the outbox (`vtt.web.outbox_send`)."""
    if latency_trace.on():
        latency_trace.mark("emit", client=client_id, kind=_kind(message_type, data))


def install() -> None:
    """Wrap `Outbox._emit` (only when tracing: it is NiceGUI's private method)."""
    if not latency_trace.on() or getattr(outbox.Outbox._emit, "_traced", False):
        return
    emit = outbox.Outbox._emit

    async def traced(self: outbox.Outbox, message: outbox.Message) -> None:
        client_id, message_type, data = message
        latency_trace.mark("emit", client=client_id, kind=_kind(message_type, data))
        await emit(self, message)

    traced._traced = True  # type: ignore[attr-defined]
    outbox.Outbox._emit = traced  # type: ignore[method-assign]
