"""The chat beside the roll log: messages to everyone, whispers to one seat, and `/roll 3d12+2`.

The panel only shows what `SeatView.events` gives its seat (a whisper not for it is never drawn, so the page's
websocket never carries it) and sends what is typed to the table, which checks it (`vtt/table/chat.py`). Every
text is shown with `ui.label` (text, never markup); names reach the addressee menu as JSON data.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import ui

from vtt.rules.limits import CHAT_MAX
from vtt.rules.model import SOULWEAVER
from vtt.table.chat import ROLL, addressee_name
from vtt.table.table import LogRecord, Viewer
from vtt.web.attrs import with_data

EVERYONE = ""
"""The addressee menu's value for a message to everyone (the menu's values are strings)."""
SHOWN_MAX = 200
"""Messages the panel keeps on the page; older ones stay in the log."""

Send = Callable[[dict[str, Any]], Awaitable[bool]]


class ChatPanel:
    """Built inside the side pane; `add` draws a record the seat may see, `seats_changed` renews the menu."""

    def __init__(self, viewer: Viewer, players: Callable[[], dict[str, str]], send: Send) -> None:
        self.viewer = viewer
        self._players = players
        self._send = send
        self._names: dict[str, str] = players()
        with ui.column().classes("w-full gap-1 chat-panel"):
            ui.label("Chat").classes("text-sm font-bold text-stone-700")
            self.to: ui.select | None = None
            self.text: ui.input | None = None
            if not viewer.is_spectator:
                with ui.row().classes("w-full no-wrap items-center gap-1"):
                    self.to = ui.select(self._choices(), value=EVERYONE).classes("chat-to w-32")
                    self.to.props["dense"] = True
                    self.to.props["options-dense"] = True
                    self.text = ui.input(placeholder="Message, or /roll 3d12+2").classes("grow chat-input")
                    self.text.props["dense"] = True
                    self.text.props["maxlength"] = CHAT_MAX
                    self.text.on("keydown.enter", self._submit)
                    ui.button("Send", on_click=self._submit).classes("chat-send").props("dense color=primary")
            self.messages = ui.column().classes("w-full gap-1 chat-messages")

    def _choices(self) -> dict[str, str]:
        choices = {EVERYONE: "Everyone"}
        if not self.viewer.is_soulweaver:
            choices[SOULWEAVER] = "Soulweaver (whisper)"
        for key, name in sorted(self._names.items(), key=lambda kv: kv[1].lower()):
            if key != self.viewer.key:
                choices[key] = f"{name} (whisper)"
        return choices

    def seats_changed(self) -> None:
        self._names = self._players()
        if self.to is not None:
            chosen = self.to.value
            self.to.set_options(self._choices(), value=chosen if chosen in self._choices() else EVERYONE)

    async def _submit(self) -> None:
        if self.text is None or self.to is None:
            return
        text = str(self.text.value or "")
        to = str(self.to.value or EVERYONE)
        if await self._send({"type": "chat", "text": text, "to": to or None}):
            self.text.set_value("")

    def _who(self, key: str) -> str:
        return "Soulweaver" if key == SOULWEAVER else self._names.get(key, key)

    def add(self, record: LogRecord, shown: list[dict[str, Any]]) -> None:
        """Draw a chat record with the events its seat may see (none: it is not for this seat)."""
        if not shown:
            return
        to = record.command.get("to")
        with self.messages:
            line = with_data(ui.column().classes("w-full gap-0 chat-message"), seq=record.seq, kind=record.kind)
            line.move(target_index=0)
            with line:
                head = self._who(record.sender)
                if to is not None:
                    line.classes("chat-whisper")
                    head += " → " + addressee_name(to, self._names) + " (whisper)"
                ui.label(head).classes("text-xs text-stone-500 chat-from")
                for event in shown:
                    label = ui.label(str(event.get("text", ""))).classes("text-sm chat-text whitespace-pre-wrap")
                    if record.kind == ROLL:
                        label.classes("font-bold")
        extra = self.messages.default_slot.children[SHOWN_MAX:]
        for old in extra:
            self.messages.remove(old)
