"""Physical dice at the table (`physical_dice`): a command asks its sender for each roll in turn, refuses faces that
are not a d12's or not as many as asked, changes nothing until it completes, and is logged with its typed faces."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from factories import creature, on_turn, state, weapon
from fastapi import FastAPI
from fastapi.testclient import TestClient

from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings
from vtt.store.db import open_engine
from vtt.table.registry import Games
from vtt.table.table import Outcome, Table, Viewer
from vtt.web.api import make_router

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")
STRIKE = {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}


def _game(physical: bool = True, **settings: Any) -> GameState:
    sword = weapon("sword", damage=2)
    return on_turn(
        state(
            creature("ayla", (2, 2), controller="alice", weapons=[sword], grip={"right_arm": "sword"}),
            creature("orc", (3, 2)),
            settings=TableSettings(physical_dice=physical, **settings),
        ),
        "ayla",
    )


def _submit(table: Table, viewer: Viewer, cmd: dict[str, Any], typed: list[list[Any]] | None = None) -> Outcome:
    return asyncio.run(table.submit(viewer, cmd, typed=typed))


def _dump(table: Table) -> str:
    return json.dumps(table.state.model_dump(mode="json"), sort_keys=True)


def test_a_strike_under_physical_dice_asks_for_each_roll_in_turn_and_changes_nothing_meanwhile() -> None:
    """seed-000 Strike: the attacker rolls Martial (Ayla's 2 dice), the Orc defends with Elude (2 dice), a hit
    rolls the Sword's 2 damage dice. Each is asked of the sender in that order; nothing is played meanwhile."""
    table = Table("t", _game())
    before = _dump(table)
    first = _submit(table, ALICE, STRIKE)
    assert not first.ok and first.need is not None
    assert (first.need.count, first.need.purpose, first.need.typed) == (2, "Ayla: Strike on Orc with Sword", 0)
    assert first.error == "Roll 2d12 for Ayla: Strike on Orc with Sword and type the faces"
    second = _submit(table, ALICE, STRIKE, [[3, 10]])
    assert second.need is not None and (second.need.count, second.need.purpose) == (2, "Orc: Elude defense")
    third = _submit(table, ALICE, STRIKE, [[3, 10], [2, 5]])
    assert third.need is not None and (third.need.count, third.need.purpose) == (2, "Ayla's Strike to Orc")
    assert _dump(table) == before
    assert table.log == []


def test_a_strike_with_typed_faces_is_played_with_them_and_logged_as_typed() -> None:
    """seed-000 Strike, worked by hand: attack faces 3 and 10 give 10, above DL 3 and the Orc's Elude 5 (faces 2
    and 5): a hit. seed-004: damage faces 2 and 8, a face of 3 or more is 1 Injury, so the Orc's Grit is 1."""
    table = Table("t", _game())
    out = _submit(table, ALICE, STRIKE, [[3, 10], [2, 5], [2, 8]])
    assert out.ok, out.error
    assert table.state.creatures["orc"].grit.pips == 1
    record = table.log[-1]
    assert record.faces == [3, 10, 2, 5, 2, 8]
    rolls = [r for e in record.events for r in e["rolls"]]
    assert [r["faces"] for r in rolls] == [[3, 10], [2, 5], [2, 8]]
    assert all(r["typed"] is True for r in rolls)


def test_a_face_above_12_or_the_wrong_count_is_refused_in_plain_words_and_nothing_changes() -> None:
    """The server checks typed faces: each a whole number from 1 to 12, as many as the roll asked for."""
    table = Table("t", _game())
    before = _dump(table)
    assert _submit(table, ALICE, STRIKE, [[3, 13]]).error == (
        "13 is not a face of a d12: type whole numbers from 1 to 12"
    )
    assert _submit(table, ALICE, STRIKE, [[3, 10, 4]]).error == (
        "Ayla: Strike on Orc with Sword needs 2 dice, but 3 faces were typed"
    )
    assert _submit(table, ALICE, STRIKE, [["3", 10]]).error == "each face must be a whole number from 1 to 12"
    assert _submit(table, ALICE, STRIKE, [[0, True]]).error == (
        "0 is not a face of a d12: type whole numbers from 1 to 12"
    )
    assert _submit(table, ALICE, STRIKE, [[3, 10], [2, 5], [2, 8], [4]]).error == (
        "more rolls were typed than this needs; nothing was played"
    )
    assert _dump(table) == before
    assert table.log == []


def test_without_physical_dice_typed_faces_are_not_asked_for() -> None:
    """Off by default: the table rolls, nothing is marked typed."""
    table = Table("t", _game(physical=False))
    out = _submit(table, ALICE, STRIKE)
    assert out.ok and out.need is None
    assert not any(r.get("typed") for e in table.log[-1].events for r in e["rolls"])


def test_undo_and_a_reopened_game_use_the_typed_faces(tmp_path: Path) -> None:
    """The log keeps the typed faces: undo takes the Strike back, redo and a reload replay it with those faces."""
    engine = open_engine(f"sqlite:///{tmp_path / 'game.sqlite'}")
    table = Table.open(engine, "typed", _game())
    start = _dump(table)
    assert _submit(table, ALICE, STRIKE, [[3, 10], [2, 5], [2, 8]]).ok
    played = _dump(table)
    assert _submit(table, SW, {"type": "undo"}).ok
    assert _dump(table) == start
    assert _submit(table, SW, {"type": "redo"}).ok
    assert _dump(table) == played
    again = Table.open(engine, "typed", _game())
    assert _dump(again) == played
    assert next(r for e in again.log[0].events for r in e["rolls"])["typed"] is True


def test_a_defense_asked_through_a_decision_is_typed_by_the_defender() -> None:
    """defense_prompts "everyone": the Orc's defense waits for its controller (the Soulweaver), who types the
    defense roll (and the damage that follows in the same answer) when answering."""
    table = Table("t", _game(defense_prompts="everyone"))
    assert _submit(table, ALICE, STRIKE, [[3, 10]]).ok
    decision = next(d for d in table.state.pending if d.kind == "defense")
    answer = {"type": "defend", "decision": decision.id, "roll": True}
    asked = _submit(table, SW, answer)
    assert asked.need is not None and asked.need.purpose == "Orc: Elude defense"
    assert _submit(table, SW, answer, [[2, 5], [2, 8]]).ok
    assert table.state.creatures["orc"].grit.pips == 1
    assert table.log[-1].faces == [2, 5, 2, 8]


def test_the_seat_api_answers_with_the_roll_to_type_and_takes_the_typed_faces(tmp_path: Path) -> None:
    """A program at a seat types its dice as a page does: `need` says the roll, `typed` sends the faces."""
    games = Games(open_engine(f"sqlite:///{tmp_path}/api.sqlite"), tmp_path)
    _, made, _ = games.ensure("Typed", _game(), "")
    alice = next(s for s in made if s.key == "alice")
    app = FastAPI()
    app.include_router(make_router(games))
    url = f"/api/seat/{alice.secret}/commands"
    with TestClient(app) as client:
        asked = client.post(url, json={"command": STRIKE}).json()
        assert asked["ok"] is False and asked["seq"] is None
        assert asked["need"] == {"count": 2, "purpose": "Ayla: Strike on Orc with Sword", "typed": 0}
        bad = client.post(url, json={"command": STRIKE, "typed": [3, 10]})
        assert bad.status_code == 400
        assert bad.json()["error"] == '"typed" must be a list of rolls, each a list of the faces typed'
        played = client.post(url, json={"command": STRIKE, "typed": [[3, 10], [2, 5], [2, 8]]}).json()
        assert played == {"ok": True, "error": None, "seq": 1}
    assert games.table(alice.game_id).state.creatures["orc"].grit.pips == 1
    games.close()
