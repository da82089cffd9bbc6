"""One seat view (`vtt.table.seat_view`): what a player or spectator may see of a game with a hidden creature in
it — ids answered as if they did not exist, refusals, prompts and log events worded without it, every field that
names it scrubbed, names with punctuation found, and the turn panel without it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from factories import creature, on_turn, state, weapon

from vtt.rules.dice import RandomDice, ScriptedDice
from vtt.rules.model import AilmentSource, ContinuingDamage, Effect, GameState, Hold, LooseItem
from vtt.rules.settings import TableSettings
from vtt.table.seat_view import UNSEEN_REF, WAITING, SeatView
from vtt.table.table import Change, LogRecord, Table, Viewer
from vtt.web.api import change_message

SW = Viewer("soulweaver", "Mira")
ALICE = Viewer("player", "alice")
BOB = Viewer("player", "bob")
WATCHER = Viewer("spectator", "spectator")
SECRET = ("shade", "Shadow Assassin")


def _game(reactions: bool = False, prompts: str = "players") -> GameState:
    sword = weapon("sword", damage=2)
    return state(
        creature("ayla", (2, 2), controller="alice", weapons=[sword], grip={"right_arm": "sword"}),
        creature("bram", (8, 8), controller="bob"),
        creature("shade", (3, 2), name="Shadow Assassin", hidden=True, weapons=[sword], grip={"right_arm": "sword"}),
        settings=TableSettings(defense_prompts=prompts, reactions=reactions),
    )


def _leaks(value: Any, secrets: tuple[str, ...] = SECRET) -> list[str]:
    text = json.dumps(value) if not isinstance(value, str) else value
    return [s for s in secrets if s in text]


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


# ---- 1. a hidden id is answered as one that does not exist ------------------------------------------------------


def test_a_hidden_id_is_answered_exactly_as_an_id_that_does_not_exist() -> None:
    table = Table("t", on_turn(_game(), "ayla"))
    seat = table.seat_view(ALICE)
    for cid in ("shade", "nobody"):
        assert not seat.sees(cid) and seat.creature(cid) is None and seat.menu(cid) == []
        assert seat.where_swallowed(cid) is None
    strike = {"type": "strike", "creature": "ayla", "weapon": "sword"}
    hidden = _run(table.submit(ALICE, {**strike, "target": "shade"}))
    missing = _run(table.submit(ALICE, {**strike, "target": "nobody"}))
    assert (hidden.ok, hidden.error) == (missing.ok, missing.error) == (False, "no such creature")
    assert table.seat_view(SW).menu("shade") == []  # the Soulweaver does not act for it now: not its turn
    assert table.seat_view(SW).creature("shade") is not None


def test_a_players_menu_offers_no_hidden_target_and_the_soulweavers_does() -> None:
    table = Table("t", on_turn(_game(), "ayla"))
    player = [t.target for a in table.seat_view(ALICE).menu("ayla") for t in a.targets]
    gm = [t.target for a in table.seat_view(SW).menu("ayla") for t in a.targets]
    assert "shade" in gm and "shade" not in player
    assert _leaks([a.model_dump(mode="json") for a in table.seat_view(ALICE).menu("ayla")]) == []


# ---- 2. refusals ------------------------------------------------------------------------------------------------


def test_a_refusal_is_worded_for_its_sender_without_the_hidden_creature() -> None:
    """seed-000 Hinder Movement: moving within a hidden creature's Reach waits for its reaction; a player's next
    command is refused "the table waits for a decision first", with the hidden name taken out of the prompt."""
    table = Table("t", on_turn(_game(reactions=True), "ayla"))
    assert _run(table.submit(ALICE, {"type": "move", "creature": "ayla", "to": [1, 2]})).ok
    assert "Shadow Assassin's Reach" in table.state.pending[0].prompt
    refused = _run(table.submit(ALICE, {"type": "dash", "creature": "ayla"}))
    assert not refused.ok and refused.error is not None
    assert refused.error.startswith("the table waits for a decision first: Ayla is about to move within")
    assert "an unseen creature's Reach" in refused.error and _leaks(refused.error) == []
    soulweaver = _run(table.submit(SW, {"type": "dash", "creature": "ayla"}))
    assert soulweaver.error is not None and "Shadow Assassin's Reach" in soulweaver.error


def test_a_stale_screen_refusal_does_not_name_a_hidden_creature() -> None:
    table = Table("t", on_turn(_game(), "ayla"))
    table.versions["shade"] = 4
    refused = _run(table.submit(ALICE, {"type": "dash", "creature": "ayla"}, {"shade": 1}))
    assert not refused.ok and refused.error is not None and _leaks(refused.error) == []
    assert refused.error.startswith("A creature you cannot see changed meanwhile")


def test_a_refusal_reworded_by_name_and_by_id() -> None:
    seat = SeatView(_game(), ALICE)
    assert seat.refusal("Shadow Assassin is out of Ayla's reach") == "A creature you cannot see is out of Ayla's reach"
    assert seat.refusal("no creature 'shade' here") == "no creature 'a creature you cannot see' here"
    assert seat.refusal("shadowy shade-2 and shaded stay") == "shadowy shade-2 and shaded stay"
    assert SeatView(_game(), SW).refusal("Shadow Assassin waits") == "Shadow Assassin waits"


# ---- 3. prompts ---------------------------------------------------------------------------------------------------


def _attacked() -> tuple[Table, LogRecord]:
    """The hidden Shadow Assassin strikes Ayla (Martial 2: faces 11, 2 -> 11): her player decides whether to roll
    her defense (settings: defense prompts for players' creatures). Her Elude 2 rolls 3, 11 -> 11: a tie goes to the
    defender (reference §1.3), so the attack fails and deals no damage."""
    table = Table("t", on_turn(_game(), "shade"), dice=lambda: ScriptedDice([11, 2, 3, 11]))
    outcome = _run(table.submit(SW, {"type": "strike", "creature": "shade", "target": "ayla", "weapon": "sword"}))
    assert outcome.ok and outcome.record is not None
    return table, outcome.record


def test_the_defender_gets_the_prompt_without_the_hidden_attacker_and_others_only_that_the_table_waits() -> None:
    table, record = _attacked()
    [decision] = table.state.pending
    assert decision.prompt.startswith("Shadow Assassin attacks Ayla's Elude")
    mine = table.seat_view(ALICE).state_json()["pending"]
    assert [d["id"] for d in mine] == [decision.id] and mine[0]["kind"] == "defense"
    assert mine[0]["prompt"].startswith("A creature you cannot see attacks Ayla's Elude")
    assert mine[0]["payload"]["attacker"] is None and _leaks(mine) == []
    for other in (BOB, WATCHER):
        assert table.seat_view(other).state_json()["pending"] == [
            {"id": decision.id, "kind": "wait", "to": "soulweaver", "creature": None, "prompt": WAITING, "options": []}
        ]
    change = Change(table.log[-1].before or table.initial, table.state, record)
    for viewer in (ALICE, BOB, WATCHER):
        message = change_message(table, change, viewer)
        assert _leaks(message) == [], viewer
    assert change_message(table, change, ALICE)["state"]["pending"][0]["kind"] == "defense"
    assert change_message(table, change, BOB)["state"]["pending"][0]["kind"] == "wait"


def test_the_defender_sees_their_own_defense_roll_worded_for_them() -> None:
    table, _ = _attacked()
    before = table.state
    outcome = _run(table.submit(ALICE, {"type": "defend", "decision": table.state.pending[0].id, "roll": True}))
    assert outcome.ok and outcome.record is not None
    change = Change(before, table.state, outcome.record)
    mine = change_message(table, change, ALICE)
    assert mine["events"] and _leaks(mine) == []
    attack = mine["events"][0]
    assert attack["target"] == "ayla" and attack["actor"] is None
    assert attack["text"].startswith("A creature you cannot see rolled 11 (DL 3) against Ayla's Elude 11")
    assert [r["label"] for r in attack["rolls"]][1] == "Ayla: Elude defense"
    assert change_message(table, change, BOB)["events"] == []
    assert change_message(table, change, WATCHER)["events"] == []
    assert change_message(table, change, SW)["events"][0]["actor"] == "shade"


def test_a_hinder_prompt_for_a_hidden_hinderer_is_a_wait_for_every_player() -> None:
    table = Table("t", on_turn(_game(reactions=True), "ayla"))
    assert _run(table.submit(ALICE, {"type": "move", "creature": "ayla", "to": [1, 2]})).ok
    for viewer in (ALICE, BOB, WATCHER):
        [pending] = table.seat_view(viewer).state_json()["pending"]
        assert pending["kind"] == "wait" and pending["prompt"] == WAITING
        assert _leaks(table.seat_view(viewer).state_json()) == []


# ---- 4. every field that names a hidden creature --------------------------------------------------------------


def test_every_field_of_a_visible_creature_or_part_of_the_state_that_names_a_hidden_one_is_scrubbed() -> None:
    game = on_turn(_game(), "ayla")
    ayla = game.creatures["ayla"]
    ayla.ailment_sources = [
        AilmentSource(ailment="Frightened", tiers=1, source="creature:shade"),
        AilmentSource(ailment="Encumbered", tiers=2, source="hold:h1"),
    ]
    ayla.ailments = {"Frightened": 1, "Encumbered": 2}
    ayla.focus = "shade"
    ayla.continuing = [ContinuingDamage(id="c1", amount=1, part="torso", source="shade")]
    game.creatures["bram"].swallowed_by = "shade"
    game.holds["h1"] = Hold(id="h1", holders={"shade": ["right_arm"]}, held=["ayla"], caused={"shade": {"ayla": 2}})
    game.effects = [Effect(id="e1", name="Mark of Shadow Assassin", creator="shade", subject="ayla")]
    game.board.items = [LooseItem(cell=(4, 4), weapon=weapon("dagger"), owner="shade")]
    seen = SeatView(game, ALICE).state_json()
    assert _leaks(seen) == []
    got = seen["creatures"]["ayla"]
    assert [s["source"] for s in got["ailment_sources"]] == ["hold:h1"]
    assert got["focus"] is None and got["continuing"][0]["source"] is None
    assert seen["creatures"]["bram"]["swallowed_by"] == UNSEEN_REF
    assert seen["holds"]["h1"]["holders"] == {} and seen["holds"]["h1"]["held"] == ["ayla"]
    assert seen["effects"][0]["creator"] is None and seen["effects"][0]["name"] == "Mark of a creature you cannot see"
    assert seen["board"]["items"][0]["owner"] is None
    assert "shade" in json.dumps(SeatView(game, SW).state_json())


# ---- 5. names with punctuation ------------------------------------------------------------------------------------


def _record(events: list[dict[str, Any]], command: dict[str, Any] | None = None) -> LogRecord:
    return LogRecord(1, "soulweaver", command or {"type": "pass_time", "minutes": 1}, [], events)


def test_the_log_filter_finds_names_that_begin_or_end_with_punctuation() -> None:
    game = _game()
    game.creatures["shade"].name = "(Shade)"
    game.creatures["gloom"] = creature("gloom", (9, 9), name="Gloom!", hidden=True)
    seat = SeatView(game, BOB)
    texts = ["(Shade) laughs.", "A voice: Gloom! calls.", "Gloom!", "Ayla waits."]
    record = _record([{"kind": "note", "text": t} for t in texts])
    assert [e["text"] for e in seat.events(record, [record])] == ["Ayla waits."]


def test_the_log_filter_tells_a_visible_name_from_a_hidden_name_inside_it() -> None:
    game = _game()
    game.creatures["bram"].name = "Shadow Assassin Chief"
    seat = SeatView(game, BOB)
    record = _record([{"kind": "note", "text": t} for t in ("Shadow Assassin Chief waits.", "Shadow Assassin waits.")])
    assert [e["text"] for e in seat.events(record, [record])] == ["Shadow Assassin Chief waits."]


def test_the_log_filter_checks_ids_in_actor_target_and_data() -> None:
    seat = SeatView(_game(), BOB)
    events: list[dict[str, Any]] = [
        {"kind": "a", "text": "x", "actor": "shade"},
        {"kind": "b", "text": "y", "target": "shade"},
        {"kind": "c", "text": "z", "data": {"holders": ["shade"]}},
        {"kind": "d", "text": "w", "data": {"source": "creature:shade"}},
        {"kind": "e", "text": "v", "actor": "bram"},
    ]
    record = _record(events)
    assert [e["kind"] for e in seat.events(record, [record])] == ["e"]


def test_a_creature_removed_while_hidden_stays_out_of_the_log() -> None:
    table = Table("t", on_turn(_game(), "ayla"), dice=lambda: RandomDice(7))
    assert _run(table.submit(ALICE, {"type": "end_turn"})).ok
    taunt = {"type": "harm", "target": "shade", "amount": 1}
    assert _run(table.submit(SW, taunt)).ok
    assert _run(table.submit(SW, {"type": "remove_creature", "creature": "shade"})).ok
    seat = table.seat_view(BOB)
    shown = [e for r in table.log if seat.command_json(r.command) is not None for e in seat.events(r, table.log)]
    assert _leaks(shown) == [] and table.gone_hidden == {"shade": "Shadow Assassin"}


# ---- 6. the turn panel ---------------------------------------------------------------------------------------------


def test_the_turn_panel_leaves_out_a_creature_once_it_is_hidden() -> None:
    table = Table("t", on_turn(_game(), "ayla"))
    table.state.creatures["shade"].hidden = False
    table.state.turn.entries = ["ayla", "shade", "bram", "soulweaver"]
    table.state.turn.priority = {}
    shown = [row.text for row in table.seat_view(BOB).turn_panel().rows]
    assert shown[:3] == ["▶ Ayla", "Shadow Assassin", "Bram"]
    hide = {"type": "edit_creature", "creature": "shade", "changes": {"hidden": True}}
    assert _run(table.submit(SW, hide)).ok
    panel = table.seat_view(BOB).turn_panel()
    assert [row.text for row in panel.rows] == ["▶ Ayla", "Bram", "Soulweaver (all other creatures)"]
    assert not panel.can_end_turn and table.seat_view(ALICE).turn_panel().can_end_turn


# ---- 7. a placed creature (its command's `creature` is a dict) ------------------------------------------------------


def test_a_placed_creature_is_shown_without_the_soulweavers_notes_and_a_hidden_one_not_at_all() -> None:
    table = Table("t", on_turn(_game(), "ayla"))
    place = {"type": "add_creature", "creature": {"name": "Wolf", "notes": "bites"}, "at": [12, 8]}
    assert _run(table.submit(SW, place)).ok
    seat = table.seat_view(BOB)
    assert seat.command_json(table.log[-1].command) == {**place, "creature": {"name": "Wolf"}}
    sneak = {"type": "add_creature", "creature": {"name": "Lurking Horror", "hidden": True}, "at": [10, 10]}
    assert _run(table.submit(SW, sneak)).ok
    seat = table.seat_view(BOB)
    assert seat.command_json(table.log[-1].command) is None
    assert seat.events(table.log[-1], table.log) == []
    assert _leaks(seat.state_json(), ("Lurking Horror",)) == []
