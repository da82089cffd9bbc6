"""The prompt banner's content (`vtt.web.prompt_banner.banner_prompt`): the seat a decision asks gets its question,
its answers and the time limit's deadline; every other seat a line saying what the table waits for, worded through
the seat view so that a hidden creature is never named."""

from __future__ import annotations

import asyncio
import json
import math
import time
from typing import Any

from factories import creature, on_turn, state, weapon

from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings
from vtt.table.table import Table, Viewer
from vtt.web.prompt_banner import banner_prompt

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")
BOB = Viewer("player", "bob")
HIDDEN = "Shadow Assassin"


def _game(attacker_hidden: bool) -> GameState:
    """The Orc (hidden or not) next to Ayla (alice's) and Bram (bob's), who may Hinder Attack (seed-000)."""
    sword = weapon("sword", damage=2)
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice"),
            creature("bram", (3, 3), controller="bob"),
            creature(
                "orc", (3, 2), name=HIDDEN if attacker_hidden else "Orc", hidden=attacker_hidden, weapons=[sword],
                grip={"right_arm": "sword"},
            ),
            settings=TableSettings(reaction_seconds=30, defense_prompts="players"),
        ),
        "orc",
    )  # fmt: skip


def _strike(attacker_hidden: bool) -> tuple[Table, dict[Viewer, tuple[Any, Any]], float]:
    async def play() -> tuple[Table, dict[Viewer, tuple[Any, Any]], float]:
        table = Table("t", _game(attacker_hidden))
        sent = time.time()
        out = await table.submit(SW, {"type": "strike", "creature": "orc", "target": "ayla", "weapon": "sword"})
        assert out.ok, out.error
        shown = {v: banner_prompt(table.seat_view(v), table) for v in (SW, ALICE, BOB)}
        table.close()
        return table, shown, sent

    return asyncio.run(play())


def test_the_player_asked_gets_the_question_its_answers_and_the_time_limits_deadline() -> None:
    """seed-000 Hinder Attack as a reaction: Bram's player is asked; the table waits `reaction_seconds` (30)."""
    table, shown, sent = _strike(attacker_hidden=False)
    decision = table.state.pending[0]
    assert (decision.kind, decision.to) == ("reaction", "bob")
    prompt, commands = shown[BOB]
    assert prompt["mine"] is True and prompt["text"] == decision.prompt
    assert [a["label"] for a in prompt["answers"]] == ["Hinder", "Let it pass"]
    assert commands == {
        "hinder": {"type": "react", "decision": decision.id, "hinder": True},
        "pass": {"type": "react", "decision": decision.id, "hinder": False},
    }
    assert prompt["total"] == 30
    # the deadline is sent in whole milliseconds (rounded): compare with whole milliseconds
    assert math.floor(sent * 1000) + 30_000 <= prompt["deadline"] <= math.ceil(time.time() * 1000) + 30_000


def test_everyone_else_sees_what_the_table_waits_for_with_no_answers() -> None:
    table, shown, _ = _strike(attacker_hidden=False)
    decision = table.state.pending[0]
    for viewer in (ALICE, SW):
        prompt, commands = shown[viewer]
        assert prompt["mine"] is False and prompt["answers"] == [] and commands == {}
        assert prompt["text"] == f"Waiting for Bram's player: {decision.prompt}"
        assert prompt["deadline"] == shown[BOB][0]["deadline"]


def test_a_hidden_attacker_is_never_named_in_any_players_banner() -> None:
    """The asked player reads the question worded without the hidden Orc; another player only that the table
    waits for the Soulweaver (the seat view's wording); the Soulweaver reads it all."""
    _, shown, _ = _strike(attacker_hidden=True)
    bob, _ = shown[BOB]
    assert bob["mine"] is True and bob["text"].startswith("A creature you cannot see attacks")
    assert shown[ALICE][0]["text"] == "The table waits for the Soulweaver."
    assert shown[ALICE][0]["deadline"] is None  # a countdown would tell that it is a reaction
    for viewer in (ALICE, BOB):
        assert HIDDEN not in json.dumps(shown[viewer])
    assert HIDDEN in shown[SW][0]["text"]


def test_nothing_pending_shows_no_banner() -> None:
    table = Table("t", _game(attacker_hidden=False))
    assert banner_prompt(table.seat_view(ALICE), table) == (None, {})
