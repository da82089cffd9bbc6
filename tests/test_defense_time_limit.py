"""The optional time limit on defense prompts (`defense_seconds`, `defense_timeout`): when it runs out the table
answers the defense as it answers a reaction, by the time limit in the Soulweaver's name; the banner shows its
deadline. A clock moved by hand stands in for the wall clock, so nothing sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from factories import creature, on_turn, state, weapon

from vtt.rules.dice import ScriptedDice
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings
from vtt.table.table import TIME_LIMIT, Table, Viewer
from vtt.web.prompt_banner import banner_prompt

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")
STRIKE = {"type": "strike", "creature": "orc", "target": "ayla", "weapon": "sword"}


class FakeTimer:
    def __init__(self, at: float, callback: Callable[[], None]) -> None:
        self.at, self.callback, self.cancelled = at, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that moves only when told to, calling what has come due."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.time = start
        self.timers: list[FakeTimer] = []

    def now(self) -> float:
        return self.time

    def call_later(self, seconds: float, callback: Callable[[], None]) -> FakeTimer:
        timer = FakeTimer(self.time + seconds, callback)
        self.timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        self.time += seconds
        due = [t for t in self.timers if t.at <= self.time and not t.cancelled]
        self.timers = [t for t in self.timers if t not in due]
        for t in due:
            t.callback()


def _game(seconds: int, timeout: Literal["roll", "decline"] = "roll") -> GameState:
    """The Orc (the Soulweaver's) next to Ayla (alice's), whose defenses wait for her choice."""
    sword = weapon("sword", damage=2)
    settings = TableSettings(
        defense_prompts="players", reactions=False, defense_seconds=seconds, defense_timeout=timeout
    )
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice"),
            creature("orc", (3, 2), weapons=[sword], grip={"right_arm": "sword"}),
            settings=settings,
        ),
        "orc",
    )


def _play(game: GameState, steps: Callable[[Table, FakeClock], Any]) -> Table:
    async def run() -> Table:
        clock = FakeClock()
        table = Table("t", game, dice=lambda: ScriptedDice([9, 4, 6, 5, 3, 2, 1, 7, 8]), clock=clock)
        out = await table.submit(SW, STRIKE)
        assert out.ok, out.error
        await steps(table, clock)
        await table.settle()
        table.close()
        return table

    return asyncio.run(run())


def test_a_defense_not_answered_in_time_is_rolled_by_the_time_limit() -> None:
    """With a 20-second limit nothing happens at 19 seconds; at 20 the time limit answers in the Soulweaver's name
    with the table's answer (default: roll the defense), and the attack goes on."""

    async def steps(table: Table, clock: FakeClock) -> None:
        decision = table.state.pending[0]
        assert (decision.kind, decision.to) == ("defense", "alice")
        prompt, _ = banner_prompt(table.seat_view(ALICE), table)
        assert prompt is not None and prompt["total"] == 20
        assert prompt["deadline"] == round((clock.now() + 20) * 1000)
        clock.advance(19)
        await table.settle()
        assert [d.id for d in table.state.pending] == [decision.id] and len(table.log) == 1
        clock.advance(1)

    table = _play(_game(seconds=20), steps)
    assert table.state.pending == []
    answer = table.log[-1]
    assert answer.sender == TIME_LIMIT
    assert answer.command == {"type": "defend", "decision": answer.command["decision"], "roll": True}
    assert answer.faces, "the defense was rolled with the table's dice"


def test_the_table_can_decline_a_defense_when_its_time_runs_out() -> None:
    async def steps(table: Table, clock: FakeClock) -> None:
        clock.advance(20)

    table = _play(_game(seconds=20, timeout="decline"), steps)
    answer = table.log[-1]
    assert table.state.pending == []
    assert answer.sender == TIME_LIMIT and answer.command["roll"] is False


def test_a_defense_answered_in_time_is_not_answered_again() -> None:
    async def steps(table: Table, clock: FakeClock) -> None:
        decision = table.state.pending[0]
        out = await table.submit(ALICE, {"type": "defend", "decision": decision.id, "roll": False})
        assert out.ok, out.error
        clock.advance(60)

    table = _play(_game(seconds=20), steps)
    assert [r.sender for r in table.log] == ["soulweaver", "alice"]


def test_without_a_defense_limit_a_defense_waits_and_shows_no_countdown() -> None:
    async def steps(table: Table, clock: FakeClock) -> None:
        prompt, _ = banner_prompt(table.seat_view(ALICE), table)
        assert prompt is not None and prompt["deadline"] is None and prompt["total"] is None
        clock.advance(3600)

    table = _play(_game(seconds=0), steps)
    assert [d.kind for d in table.state.pending] == ["defense"] and len(table.log) == 1
