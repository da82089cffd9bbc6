"""A shared table: undo and redo for the Soulweaver, spectators and hidden creatures, turns, and per-creature
versions that refuse a command sent from an out-of-date screen. The server never trusts the browser."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from factories import armed_pair_and_hidden_rat, creature, on_turn

from vtt.rules.model import Hold
from vtt.rules.settings import TableSettings
from vtt.store.db import open_engine
from vtt.table.table import Outcome, Table, Viewer

SW = Viewer("soulweaver", "Mira")
ALICE = Viewer("player", "alice")
WATCHER = Viewer("spectator", "spectator")


def _run(table: Table, viewer: Viewer, cmd: dict[str, Any], seen: dict[str, int] | None = None) -> Outcome:
    return asyncio.run(table.submit(viewer, cmd, seen))


def test_undo_takes_back_the_last_command_for_everyone_and_the_log_keeps_a_record() -> None:
    table = Table("t", armed_pair_and_hidden_rat())
    start = table.state.model_dump()
    assert _run(table, ALICE, {"type": "move", "creature": "ayla", "to": [2, 3]}).ok
    out = _run(table, SW, {"type": "undo"})
    assert out.ok and out.record is not None
    assert table.state.model_dump() == start
    assert [r.kind for r in table.log] == ["move", "undo"]
    assert table.log[0].undone and out.record.command == {"type": "undo", "seqs": [1]}
    assert "takes back" in out.record.events[0]["text"]


def test_redo_plays_the_undone_command_again_with_the_same_dice() -> None:
    table = Table("t", armed_pair_and_hidden_rat())
    assert _run(table, ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}).ok
    after = table.state.model_dump()
    assert _run(table, SW, {"type": "undo"}).ok
    assert _run(table, SW, {"type": "redo"}).ok
    assert table.state.model_dump() == after
    assert not table.log[0].undone
    assert _run(table, SW, {"type": "redo"}).error == "there is nothing to redo"


def test_a_new_command_after_an_undo_clears_redo() -> None:
    table = Table("t", armed_pair_and_hidden_rat())
    assert _run(table, ALICE, {"type": "move", "creature": "ayla", "to": [2, 3]}).ok
    assert _run(table, SW, {"type": "undo"}).ok
    assert table.can_redo()
    assert _run(table, ALICE, {"type": "move", "creature": "ayla", "to": [1, 2]}).ok
    assert not table.can_redo()


def test_undo_takes_back_a_whole_attack_with_the_reaction_it_waited_for() -> None:
    """An attack that paused for a Hinder reaction and the answer to it are one action: one undo takes both."""
    game = armed_pair_and_hidden_rat(TableSettings(defense_prompts="nobody", reactions=True, reaction_seconds=0))
    game.creatures["gob"] = creature("gob", (1, 2))  # a third creature with Ayla in its Reach
    table = Table("t", game)
    before_attack = table.state.model_dump()
    assert _run(table, ALICE, {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}).ok
    assert table.state.pending and table.state.pending[0].kind == "reaction"
    decision = table.state.pending[0].id
    assert _run(table, SW, {"type": "react", "decision": decision, "hinder": False}).ok
    assert not table.state.pending
    out = _run(table, SW, {"type": "undo"})
    assert out.ok and out.record is not None
    assert out.record.command["seqs"] == [1, 2]
    assert table.state.model_dump() == before_attack


def test_only_the_soulweaver_undoes() -> None:
    table = Table("t", armed_pair_and_hidden_rat())
    assert _run(table, ALICE, {"type": "move", "creature": "ayla", "to": [2, 3]}).ok
    assert _run(table, ALICE, {"type": "undo"}).error == "only the Soulweaver can undo"
    assert _run(table, SW, {"type": "undo"}).ok
    assert _run(table, SW, {"type": "undo"}).error == "there is nothing to undo"


def test_undo_and_redo_survive_a_restart(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path}/g.sqlite")
    table = Table.open(engine, "g", armed_pair_and_hidden_rat())
    assert _run(table, ALICE, {"type": "move", "creature": "ayla", "to": [2, 3]}).ok
    assert _run(table, ALICE, {"type": "move", "creature": "ayla", "to": [2, 4]}).ok
    assert _run(table, SW, {"type": "undo"}).ok
    table.close()
    again = Table.open(engine, "g", armed_pair_and_hidden_rat())
    assert again.state.creatures["ayla"].anchor == (2, 3)
    assert [r.undone for r in again.log] == [False, True, False]
    assert again.can_redo()
    assert _run(again, SW, {"type": "redo"}).ok
    assert again.state.creatures["ayla"].anchor == (2, 4)


def test_a_spectator_cannot_send_anything() -> None:
    table = Table("t", armed_pair_and_hidden_rat())
    out = _run(table, WATCHER, {"type": "end_turn"})
    assert out.error == "spectators watch; they do not play"
    assert table.log == []


def test_a_hidden_creature_does_not_exist_for_a_player() -> None:
    table = Table("t", armed_pair_and_hidden_rat())
    before = table.state.model_dump()
    out = _run(table, ALICE, {"type": "strike", "creature": "ayla", "target": "rat", "weapon": "sword"})
    assert out.error == "no such creature"
    assert table.state.model_dump() == before
    assert not table.visible_to(ALICE, "rat") and table.visible_to(SW, "rat")


def test_a_break_hold_naming_a_hidden_held_creature_is_refused_as_no_such_creature() -> None:
    """The orc holds the hidden rat. Alice's Break Hold on the orc names the rat as `held`: for her the rat does not
    exist, so the command is refused as naming no creature, and nothing changes (the table once checked only
    `creature`, `target` and `collide_with`, and let this through to the rules)."""
    s = armed_pair_and_hidden_rat()
    s.holds["h0"] = Hold(id="h0", holders={"orc": ["left_arm"]}, held=["rat"])
    arm = s.creatures["orc"].limb("left_arm")
    assert arm is not None
    arm.hold_id = "h0"
    table = Table("t", s)
    before = table.state.model_dump()
    out = _run(table, ALICE, {"type": "break_hold", "creature": "ayla", "target": "orc", "held": "rat"})
    assert (out.ok, out.error) == (False, "no such creature")
    assert table.state.model_dump() == before and table.log == []


def test_a_player_acts_only_on_their_creatures_turn() -> None:
    table = Table("t", on_turn(armed_pair_and_hidden_rat(), "orc"))
    out = _run(table, ALICE, {"type": "move", "creature": "ayla", "to": [2, 3]})
    assert out.error == "it is not Ayla's turn"


def test_a_command_from_a_stale_screen_is_refused_and_changes_nothing() -> None:
    """Two people drag one token at once: the first drop wins, the second names the version it saw and is refused."""
    table = Table("t", armed_pair_and_hidden_rat())
    seen = {"orc": table.version("orc")}
    assert _run(table, SW, {"type": "place", "creature": "orc", "to": [5, 5]}, seen).ok
    before = table.state.model_dump()
    out = _run(table, SW, {"type": "place", "creature": "orc", "to": [6, 6]}, seen)
    assert out.error is not None and "changed meanwhile" in out.error
    assert table.state.model_dump() == before
    assert len(table.log) == 1


def test_concurrent_drags_end_with_one_position() -> None:
    """Both drops arrive at the same moment (one event loop tick): exactly one is applied."""
    table = Table("t", armed_pair_and_hidden_rat())
    seen = {"orc": table.version("orc")}

    async def both() -> list[Outcome]:
        return list(
            await asyncio.gather(
                table.submit(SW, {"type": "place", "creature": "orc", "to": [5, 5]}, seen),
                table.submit(Viewer("soulweaver", "Other"), {"type": "place", "creature": "orc", "to": [6, 6]}, seen),
            )
        )

    outcomes = asyncio.run(both())
    assert [o.ok for o in outcomes].count(True) == 1
    assert table.state.creatures["orc"].anchor in {(5, 5), (6, 6)}
    assert len(table.log) == 1


def test_a_malformed_command_is_not_an_object() -> None:
    table = Table("t", armed_pair_and_hidden_rat())
    out = asyncio.run(table.submit(SW, ["move"]))  # type: ignore[arg-type]
    assert out.error == "malformed command: not an object"


def test_undo_further_back_than_the_kept_states_replays_the_log(monkeypatch: Any) -> None:
    """Only the last few commands keep their earlier state in memory; undoing past them rebuilds it from the log."""
    import vtt.table.table as table_module

    monkeypatch.setattr(table_module, "KEEP_STATES", 1)
    table = Table("t", armed_pair_and_hidden_rat())
    for to in ([5, 5], [6, 6], [7, 7]):
        assert _run(table, SW, {"type": "place", "creature": "orc", "to": to}).ok
    assert table.log[0].before is None and table.log[1].before is None
    for _ in range(3):
        assert _run(table, SW, {"type": "undo"}).ok
    assert table.state.creatures["orc"].anchor == (3, 2)
    assert [r.undone for r in table.log[:3]] == [True, True, True]
