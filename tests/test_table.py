"""The live table: permissions are checked on the server, commands are stored with their dice, a reopened
game is rebuilt exactly from its log, and a rejected command changes nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from factories import creature, on_turn, state, weapon

from vtt.rules.model import GameState
from vtt.rules.scenario import load_scenario
from vtt.rules.settings import TableSettings
from vtt.store.db import load_log, open_engine
from vtt.table.table import Change, Table, Viewer

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")
BOB = Viewer("player", "bob")
DEMO = Path(__file__).resolve().parents[1] / "maps" / "demo.json"


def _game() -> GameState:
    sword = weapon("sword", damage=2)
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice", weapons=[sword], grip={"right_arm": "sword"}),
            creature("orc", (3, 2)),
        ),
        "ayla",
    )


def _submit(table: Table, viewer: Viewer, cmd: dict[str, Any]) -> Any:
    return asyncio.run(table.submit(viewer, cmd))


class Recorder:
    def __init__(self) -> None:
        self.changes: list[Change] = []

    def table_changed(self, change: Change) -> None:
        self.changes.append(change)


def test_a_player_cannot_act_for_another_players_creature() -> None:
    """The server never trusts the browser: players act only for their own creatures."""
    table = Table("t", _game())
    before = table.state.model_dump()
    out = _submit(table, BOB, {"type": "move", "creature": "ayla", "to": [2, 3]})
    assert not out.ok
    assert out.error == "you can only act for your own creatures"
    assert table.state.model_dump() == before
    assert table.log == []


def test_a_player_cannot_place_tokens_or_answer_the_soulweavers_decisions() -> None:
    """Only the Soulweaver places tokens freely and begins the fight."""
    table = Table("t", _game())
    assert _submit(table, ALICE, {"type": "place", "creature": "ayla", "to": [5, 5]}).error == (
        "only the Soulweaver can do that"
    )
    assert _submit(table, ALICE, {"type": "begin"}).error == "only the Soulweaver can do that"


def test_a_malformed_command_gets_an_error_naming_the_field() -> None:
    """Bad input gets a clear error and leaves the game state exactly as it was."""
    table = Table("t", _game())
    before = table.state.model_dump()
    out = _submit(table, SW, {"type": "move", "creature": "ayla", "to": "nowhere"})
    assert not out.ok
    assert out.error is not None and out.error.startswith("malformed command: move.to")
    out = _submit(table, SW, {"type": "fly"})
    assert not out.ok and out.error is not None and "malformed command" in out.error
    assert table.state.model_dump() == before


def test_an_illegal_move_is_rejected_with_the_rules_reason() -> None:
    """A move beyond the Movement Pool is refused by the rules core, not by the browser."""
    table = Table("t", _game())
    out = _submit(table, ALICE, {"type": "move", "creature": "ayla", "to": [12, 2]})
    assert not out.ok
    assert out.error is not None and "Movement" in out.error


def test_a_legal_command_is_logged_with_its_dice_and_listeners_are_told() -> None:
    """A command is stored with the faces it used and every listener sees the change."""
    table = Table("t", _game())
    rec = Recorder()
    table.subscribe(rec)
    out = _submit(table, ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"})
    assert out.ok
    assert len(table.log) == 1
    record = table.log[0]
    assert record.sender == "alice"
    assert record.faces  # the attack, the defense and maybe damage dice were rolled
    assert [c.record.seq for c in rec.changes] == [1]
    assert rec.changes[0].after is table.state


def test_a_reopened_game_is_rebuilt_exactly_from_its_stored_log(tmp_path: Path) -> None:
    """Replaying the command log with its recorded faces rebuilds the state exactly."""
    engine = open_engine(f"sqlite:///{tmp_path / 'game.sqlite'}")
    scenario = load_scenario(json.loads(DEMO.read_text()))
    table = Table.open(engine, "demo", scenario.state)
    assert _submit(table, SW, {"type": "begin"}).ok
    first = table.state.turn.current
    assert first is not None
    assert _submit(table, SW, {"type": "end_turn"}).ok
    assert _submit(table, SW, {"type": "place", "creature": "goblin", "to": [14, 9]}).ok
    assert len(load_log(engine, table.game_id or 0)) == 3
    again = Table.open(engine, "demo", scenario.state)
    assert again.state.model_dump() == table.state.model_dump()
    assert [r.command for r in again.log] == [r.command for r in table.log]
    assert [r.events for r in again.log] == [r.events for r in table.log]


def _reaction_game(seconds: int) -> GameState:
    sword = weapon("sword", damage=2)
    s = state(
        creature("ayla", (2, 2), controller="alice", weapons=[sword], grip={"right_arm": "sword"}),
        creature("orc", (3, 2)),
        creature("bram", (2, 3), controller="bob"),
        creature("guard", (1, 2)),
        settings=TableSettings(defense_prompts="nobody", reaction_seconds=seconds),
    )
    return on_turn(s, "ayla")


def test_a_reaction_not_answered_in_time_gets_the_tables_answer() -> None:
    """seed-000 Hinder Attack as a reaction; a table setting gives the time limit and the answer when it runs
    out (default: pass), sent in the Soulweaver's name."""

    async def play() -> Table:
        table = Table("t", _reaction_game(seconds=1))
        out = await table.submit(ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"})
        assert out.ok
        waiting = [d for d in table.state.pending if d.kind == "reaction"]
        assert [d.creature for d in waiting] == ["guard"]
        await asyncio.sleep(1.5)
        return table

    table = asyncio.run(play())
    assert table.state.pending == []
    assert table.log[-1].sender == "time limit"
    command = table.log[-1].command
    assert command == {"type": "react", "decision": command["decision"], "hinder": False, "hinder_as": None}
    assert any(e["kind"] == "attack" for e in table.log[-1].events)


def test_only_the_addressed_player_or_the_soulweaver_answers_a_reaction() -> None:
    """The server never trusts the browser: a reaction decision is answered by its addressee or the Soulweaver."""

    async def play() -> tuple[Any, Any]:
        s = _reaction_game(seconds=0)
        s = s.model_copy(
            update={
                "creatures": {
                    **s.creatures,
                    "guard": s.creatures["guard"].model_copy(update={"controller": "bob", "side": "foes"}),
                }
            }
        )
        table = Table("t", s)
        assert (
            await table.submit(ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"})
        ).ok
        decision = next(d for d in table.state.pending if d.kind == "reaction")
        wrong = await table.submit(ALICE, {"type": "react", "decision": decision.id, "hinder": True})
        right = await table.submit(BOB, {"type": "react", "decision": decision.id, "hinder": False})
        return wrong, right

    wrong, right = asyncio.run(play())
    assert wrong.error == "that decision is not yours to answer"
    assert right.ok
