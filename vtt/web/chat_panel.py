"""The chat beside the roll log: messages to everyone, whispers to one seat, and `/roll 3d12+2`.

The panel only shows what `SeatView.events` gives its seat (a whisper not for it is never drawn, so the page's
websocket never carries it) and sends what is typed to the table, which checks it (`vtt/table/chat.py`). Every
text reaches the browser as JSON and is shown as text (`static/log_view.js`, never markup); names reach the addressee
menu as JSON data.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import ui

from vtt.rules.limits import CHAT_MAX
from vtt.rules.model import SOULWEAVER
from vtt.table.chat import ROLL, addressee_name
from vtt.table.table import LogRecord, Viewer
from vtt.web.roll_log import Json, LogList

EVERYONE = ""
"""The addressee menu's value for a message to everyone (the menu's values are strings)."""
SHOWN_MAX = 200
"""Messages the panel keeps on the page; older ones stay in the log."""

Send = Callable[[dict[str, Any]], Awaitable[bool]]


def chat_json(record: LogRecord, shown: list[dict[str, Any]], names: dict[str, str]) -> Json | None:
    """A chat record as the browser draws it, with the events its seat may see (none: it is not for this seat);
    `names`: the players' names by seat."""
    if not shown:
        return None
    to = record.command.get("to")
    head = "Soulweaver" if record.sender == SOULWEAVER else names.get(record.sender, record.sender)
    if to is not None:
        head += " → " + addressee_name(to, names) + " (whisper)"
    return {
        "seq": record.seq,
        "kind": record.kind,
        "head": head,
        "whisper": to is not None,
        "bold": record.kind == ROLL,
        "texts": [str(event.get("text", "")) for event in shown],
    }


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
            self.messages = LogList("chat", SHOWN_MAX).classes("w-full gap-1 chat-messages")

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

    def entry(self, record: LogRecord, shown: list[dict[str, Any]]) -> Json | None:
        return chat_json(record, shown, self._names)

    def add(self, record: LogRecord, shown: list[dict[str, Any]], drawn: bool = True) -> None:
        """Show a chat record the seat may see; `drawn=False` while the page is built (nothing is sent)."""
        entry = self.entry(record, shown)
        if entry is None:
            return
        if drawn:
            self.messages.add(entry)
        else:
            self.messages.extend([entry])
