"""The prompt banner over the map (`static/prompt_banner.js`): the decision this seat must answer, with the side
panel's answers and the table's time limit counting down; for everyone else, what the table waits for.

Everything shown comes from the seat view (`SeatView.decisions`), so a hidden creature is never named. The deadline
is sent once, as data; the browser counts down by itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from nicegui import events, ui

from vtt.rules.model import SOULWEAVER
from vtt.table.seat_view import SeatView
from vtt.table.table import Table

Json = dict[str, Any]
KEY_MAX = 64


@dataclass(frozen=True)
class Answer:
    key: str
    label: str
    tone: str
    """"primary", "negative" or "plain": how the button looks."""
    command: Json


def answers(decision: Json) -> list[Answer]:
    """The answers a decision offers, each with the command it sends (the side panel's buttons send the same)."""
    i, kind = str(decision["id"]), decision["kind"]
    if kind == "defense":
        return [
            Answer("roll", "Roll defense", "primary", {"type": "defend", "decision": i, "roll": True}),
            Answer("decline", "Decline", "plain", {"type": "defend", "decision": i, "roll": False}),
        ]
    if kind == "reaction":
        return [
            Answer("hinder", "Hinder", "negative", {"type": "react", "decision": i, "hinder": True}),
            Answer("pass", "Let it pass", "plain", {"type": "react", "decision": i, "hinder": False}),
        ]
    if kind == "trauma":
        return [
            Answer("yes", "Trauma instead", "negative", {"type": "choose_trauma", "decision": i, "trauma": True}),
            Answer("no", "Keep Wounded", "plain", {"type": "choose_trauma", "decision": i, "trauma": False}),
        ]
    return []


def asks_me(seat: SeatView, decision: Json) -> bool:
    """Whether the banner asks this seat: a decision addressed to it (the Soulweaver answers anyone's in the side
    panel, but is asked only their own)."""
    if seat.viewer.is_soulweaver:
        return bool(decision["to"] == SOULWEAVER and decision["kind"] != "wait")
    return seat.mine(decision)


def waiting_text(seat: SeatView, decision: Json) -> str:
    """ "Waiting for Ayla's player: <the prompt>", as this seat may read it."""
    if decision["kind"] == "wait":
        return str(decision["prompt"])
    creature = seat.creature(decision.get("creature"))
    if decision["to"] == SOULWEAVER:
        who = "the Soulweaver"
    elif creature is not None and creature.controller == decision["to"]:
        who = f"{creature.name}'s player"
    else:
        who = str(decision["to"])
    return f"Waiting for {who}: {decision['prompt']}"


def banner_prompt(seat: SeatView, table: Table) -> tuple[Json | None, dict[str, Json]]:
    """What the banner shows this seat (None: nothing waits), and the command of each of its answers by key."""
    decisions = seat.decisions()
    if not decisions:
        return None, {}
    decision = next((d for d in decisions if asks_me(seat, d)), decisions[0])
    mine = asks_me(seat, decision)
    # A decision worded as a bare wait hides what it is; its time limit would tell whether it is a reaction.
    deadline = None if decision["kind"] == "wait" else table.deadline(str(decision["id"]))
    offered = answers(decision) if mine else []
    text = str(decision["prompt"]) if mine else waiting_text(seat, decision)
    if mine and not offered:
        text += " Answer in the side panel."
    prompt = {
        "id": str(decision["id"]),
        "mine": mine,
        "text": text,
        "answers": [{"key": a.key, "label": a.label, "tone": a.tone} for a in offered],
        "deadline": None if deadline is None else round(deadline * 1000),
        "total": _time_limit(seat, str(decision["kind"])) if deadline is not None else None,
    }
    return prompt, {a.key: a.command for a in offered}


def _time_limit(seat: SeatView, kind: str) -> int:
    settings = seat.state.settings
    return settings.defense_seconds if kind == "defense" else settings.reaction_seconds


class PromptBanner(ui.element, component="../../static/prompt_banner.js"):
    """Fixed over the top of the map; `show` it the table's state after each change."""

    def __init__(self, answer: Callable[[Json], Awaitable[object]]) -> None:
        super().__init__()
        self._answer = answer
        self._commands: dict[str, Json] = {}
        self._props["prompt"] = None
        self.on("answer", self._on_answer)

    def show(self, seat: SeatView, table: Table) -> None:
        prompt, self._commands = banner_prompt(seat, table)
        if prompt != self._props["prompt"]:
            self._props["prompt"] = prompt
            self.update()

    async def _on_answer(self, e: events.GenericEventArguments) -> None:
        """An answer clicked in the banner: the command of that answer to the decision shown now (a click on a
        banner already replaced is dropped; the table checks the command like any other)."""
        args = e.args if isinstance(e.args, dict) else {}
        shown = self._props["prompt"]
        key = args.get("key")
        if shown is None or args.get("id") != shown["id"] or not isinstance(key, str) or len(key) > KEY_MAX:
            return
        command = self._commands.get(key)
        if command is not None:
            await self._answer(dict(command))
