"""Attacking a creature a player's seat only hears, through the seat view (vtt/table/heard_targets.py).

Rules: reference §2.6/§5.2, an attack on a creature you cannot see takes Sight Concealment (gap 9 ASSUMPTION: the
Tier is a penalty on the attack; table setting `dark_concealment` 3 for a creature in darkness); §2.6 Sound: moving
makes a sound of Magnitude 2 + size, base range -1, so a size 0 creature is heard 1 space away; seed-000 targeted
attacks on a space.

Map "AO..." in darkness (ambient light dark, no light, no dark sight), square grid: alice's Ayla (A) at (0, 0) sees
no space; Grukk the Orc (O) at (1, 0) is heard, not seen. Dice: Martial 2 for A, Elude 2 for O.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_seat_view_vision import ALICE, Messages, draw, play, text

from vtt.rules.dice import ScriptedDice
from vtt.rules.offers import command_for
from vtt.rules.turns import begun_on_turn
from vtt.table.archive import ArchiveError, check_archive
from vtt.table.fog import HEARD_PREFIX
from vtt.table.table import Table


def dark_table(faces: list[int]) -> Table:
    s = begun_on_turn(draw("AO...", ambient_light="dark"), "A")
    return Table("fog", s, dice=lambda: ScriptedDice(faces))


def heard_id(table: Table) -> str:
    (heard,) = table.seat_view(ALICE).heard_json()
    hid: str = heard["id"]
    assert hid.startswith(HEARD_PREFIX)
    return hid


def test_the_menu_offers_a_heard_creature_as_a_strike_target_by_its_opaque_id_only() -> None:
    """Alice's menu for Ayla: a Strike with the sword on the opaque id, with no roll preview (it would show the
    orc's defense), no path and no choice that depends on the orc (Called Shot parts, Nimble, damage dice)."""
    table = dark_table([])
    hid = heard_id(table)
    menu = table.seat_view(ALICE).menu("A")
    strikes = [o for o in menu if o.action == "strike" and o.command is None and o.params.get("weapon") == "sword"]
    (target,) = [t for o in strikes for t in o.targets]
    assert target.target == hid
    assert target.preview is None and target.path == [] and set(target.choices) <= {"strike_type"}
    dumped = text([o.model_dump(mode="json") for o in menu])
    assert "Grukk" not in dumped and '"O"' not in dumped
    assert table.seat_view(ALICE).names()[hid] == "Something heard"


def test_a_strike_on_a_heard_creature_takes_dark_concealment_and_names_nothing() -> None:
    """Alice sends a Strike on the opaque id; the table maps it back to O. Ayla's Martial 7, 1 -> 7 - 3 (the orc is
    in darkness, not seen: Sight Concealment 3) = 4, past DL 3, against the orc's Elude 5, 2 -> 5: a miss. Alice's
    change message tells her of her attack, worded without the orc's name or id; the log keeps the real target."""
    table = dark_table([7, 1, 5, 2])
    hid = heard_id(table)
    got = Messages(table)
    menu = table.seat_view(ALICE).menu("A")
    (strike,) = [o for o in menu if o.action == "strike" and o.command is None and o.params.get("weapon") == "sword"]
    cmd = command_for(strike, target=hid)  # what the page sends for a click on the heard marker
    assert cmd is not None and cmd["target"] == hid
    ok, why = play(table, ALICE, cmd)
    assert ok, why
    assert table.log[-1].command["target"] == "O"
    (message,) = got.got
    assert "Grukk" not in text(message) and '"O"' not in text(message)
    (attack,) = [e for e in message["events"] if e["kind"] == "attack"]
    roll = attack["rolls"][0]
    assert [m["value"] for m in roll["modifiers"]] == [-3]
    assert attack["data"]["success"] is False
    assert "a creature you cannot see" in text(message["events"]).lower()


def test_a_heard_creature_is_struck_plainly_or_not_at_all() -> None:
    """A Called Shot at the orc's parts, or its real id, is refused in plain words and changes nothing; the
    real id is answered as an id that does not exist."""
    table = dark_table([])
    hid = heard_id(table)
    before = table.state
    cmd: dict[str, Any] = {"type": "strike", "creature": "A", "target": hid, "weapon": "sword", "called_shot": "head"}
    ok, why = play(table, ALICE, cmd)
    assert not ok and why is not None and "only hear" in why and "Grukk" not in why
    ok, why = play(table, ALICE, {"type": "strike", "creature": "A", "target": "O", "weapon": "sword"})
    assert not ok and why == "no such creature"
    assert table.state is before and not table.log


def test_a_targeted_space_attack_may_aim_at_a_heard_creature_s_space() -> None:
    """seed-000 targeted attack on a space: in the dark Ayla perceives no space, yet the space (1, 0) where the orc
    is heard is offered to a Strike on a space; (2, 0), neither perceived, remembered nor heard, is not."""
    table = dark_table([])
    menu = table.seat_view(ALICE).menu("A")
    spaces = {s for o in menu if o.action == "strike_space" for s in o.spaces}
    assert (1, 0) in spaces and (2, 0) not in spaces


def test_a_game_with_a_strike_on_a_heard_creature_is_checked_again_from_its_log() -> None:
    """A game's archive is checked by playing its log again, each command as its sender's seat may send it: alice's
    Strike, logged with the orc's real id, is one her seat could send (by the opaque id) when it was played."""
    start = begun_on_turn(draw("AO...", ambient_light="dark"), "A")
    table = Table("fog", start, dice=lambda: ScriptedDice([7, 1, 5, 2]))
    assert play(table, ALICE, {"type": "strike", "creature": "A", "target": heard_id(table), "weapon": "sword"})[0]
    (record,) = table.log
    entry = {"seq": 1, "sender": record.sender, "command": record.command, "faces": record.faces, "events": [],
             "time": "2026-05-01T12:00:00+00:00"}  # fmt: skip
    archive = {"format": 1, "kind": "soulshards-vtt-game", "name": "Dark", "map": "",
               "initial_state": start.model_dump(mode="json"), "log": [entry]}  # fmt: skip
    checked = check_archive(archive)
    assert checked.final_state.model_dump(mode="json") == table.state.model_dump(mode="json")
    refused = {**entry, "command": {**record.command, "called_shot": "head"}}
    with pytest.raises(ArchiveError, match="may not send it"):
        check_archive({**archive, "log": [refused]})
