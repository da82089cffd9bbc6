"""The roll log's and the chat's entries as JSON (`vtt/web/roll_log.py`, `vtt/web/chat_panel.py`): every text the
browser shows is worded here, for the seat, and sent as data."""

from __future__ import annotations

from typing import Any

from vtt.table.table import LogRecord
from vtt.web.chat_panel import chat_json
from vtt.web.roll_log import entry_json, event_json, roll_json

HOSTILE = '<img src=x onerror="alert(1)"> {{ 7*7 }} :title="x" ${1}'


def _record(seq: int, command: dict[str, Any], events: list[dict[str, Any]], **kw: Any) -> LogRecord:
    return LogRecord(seq=seq, sender=kw.pop("sender", "alice"), command=command, faces=[], events=events, **kw)


def test_an_attack_roll_carries_its_dice_doubles_dl_and_reasons() -> None:
    event = {
        "kind": "attack",
        "text": "Ayla strikes Orc: hit",
        "data": {"dl": 8},
        "rolls": [
            {
                "label": "Ayla: Strike",
                "faces": [12, 12, 5],
                "result": 14,
                "doubles": [{"face": 12}],
                "dice_changes": [{"dice": -1, "reason": "Dazzled"}],
                "modifiers": [{"value": 2, "reason": "Might"}, {"value": -1, "reason": "Hindered by Bram"}],
            }
        ],
    }
    shown = event_json(event)
    assert shown["text"] == "Ayla strikes Orc: hit" and "quiet" not in shown
    [roll] = shown["rolls"]
    assert roll["faces"] == [["12", ["double"]], ["12", ["double"]], ["5", []]]
    assert roll["outcome"] == "= 14" and roll["result"] == "14"
    assert roll["dl"] == "DL 8"
    assert roll["doubles"] == "doubles 12"
    assert roll["changes"] == ["−1d12 · Dazzled"]
    assert roll["modifiers"] == ["+2 · Might", "−1 · Hindered by Bram"]
    assert not {"fumble", "typed", "counting"} & roll.keys(), "a field at its default is left out"


def test_a_fumble_marks_its_ones_and_a_part_roll_never_fumbles() -> None:
    fumbled = roll_json({"label": "Orc: Strike", "faces": [1, 1, 4], "result": 4, "fumble": True})
    assert fumbled["faces"] == [["1", ["fumble"]], ["1", ["fumble"]], ["4", []]]
    assert fumbled["fumble"] is True
    part = roll_json({"label": "part roll 2", "faces": [1, 3], "result": 3, "fumble": True})
    assert part["faces"] == [["1", []], ["3", []]] and "fumble" not in part


def test_a_damage_roll_counts_faces_reaching_the_face_needed() -> None:
    event = {
        "kind": "damage",
        "text": "Damage 3d12 to Orc",
        "data": {"needed": 9, "injury": 2, "needed_changes": [{"value": -1, "reason": "Sharp"}]},
        "rolls": [{"label": "Damage", "faces": [10, 3, 9], "result": 10, "fumble": True}],
    }
    shown = event_json(event)
    [roll] = shown["rolls"]
    assert roll["faces"] == [["10", []], ["3", ["miss"]], ["9", []]]
    assert roll["outcome"] == "= 2 Injury"
    assert roll["counting"] == "counting faces of 9+"
    assert "fumble" not in roll  # a count is not a fumble
    assert "dl" not in roll  # only an attack's first roll shows its DL
    assert shown["needed"] == ["needed face −1 · Sharp"]


def test_typed_dice_and_a_roll_without_dice() -> None:
    typed = roll_json({"label": "Elude", "faces": [12, 9], "result": 12, "typed": True})
    assert typed["typed"] is True
    empty = roll_json({"label": "Zeal", "faces": [], "result": 0})
    assert "faces" not in empty and empty["outcome"] == "= 0"


def test_a_turn_line_without_dice_is_quiet() -> None:
    assert event_json({"kind": "turn", "text": "Round 2: Ayla's turn"}) == {
        "text": "Round 2: Ayla's turn",
        "quiet": True,
    }


def test_an_entry_has_its_number_sender_command_and_marks() -> None:
    events = [{"kind": "move", "text": "Ayla moves"}]
    entry = entry_json(_record(4, {"type": "place_creature"}, events, sender="soulweaver", undone=True), events)
    assert entry is not None
    assert entry["seq"] == 4 and entry["head"] == "#4 · Soulweaver · place creature"
    assert entry["undone"] is True and "meta" not in entry
    assert [e["text"] for e in entry["events"]] == ["Ayla moves"]
    undo = entry_json(_record(5, {"type": "undo", "seqs": [4]}, events, sender="soulweaver"), events)
    assert undo is not None and undo["meta"] is True and "undone" not in undo


def test_an_entry_the_seat_may_not_see_is_not_drawn() -> None:
    events = [{"kind": "move", "text": "The shade moves"}]
    assert entry_json(_record(3, {"type": "move"}, events), []) is None
    assert chat_json(_record(3, {"type": "chat", "to": "bob"}, events), [], {}) is None


def test_a_typed_roll_whispered_names_its_addressee() -> None:
    events = [{"kind": "roll", "text": "Rolls 2d12: 9", "rolls": [{"label": "2d12", "faces": [9, 4], "result": 9}]}]
    entry = entry_json(_record(7, {"type": "roll", "to": "soulweaver"}, events), events)
    assert entry is not None and entry["head"] == "#7 · alice · roll · whispered to the Soulweaver"


def test_chat_entries_name_sender_and_addressee_and_mark_whispers_and_rolls() -> None:
    names = {"alice": "Alice", "bob": "Bob"}
    said = [{"kind": "chat", "text": "hello"}]
    public = chat_json(_record(2, {"type": "chat", "to": None}, said), said, names)
    assert public == {"seq": 2, "kind": "chat", "head": "Alice", "whisper": False, "bold": False, "texts": ["hello"]}
    whisper = chat_json(_record(3, {"type": "chat", "to": "bob"}, said), said, names)
    assert whisper is not None and whisper["head"] == "Alice → Bob (whisper)" and whisper["whisper"] is True
    rolled = [{"kind": "roll", "text": "Rolls 3d12+2: 11"}]
    roll = chat_json(_record(4, {"type": "roll", "to": None}, rolled, sender="soulweaver"), rolled, names)
    assert roll is not None and roll["head"] == "Soulweaver" and roll["bold"] is True


def test_a_hostile_name_is_carried_as_plain_text() -> None:
    """The server sends the words as they are; the browser sets them as text (`static/log_view.js`)."""
    events = [
        {
            "kind": "attack",
            "text": f"{HOSTILE} strikes",
            "rolls": [{"label": HOSTILE, "faces": [3], "result": 3, "modifiers": [{"value": 1, "reason": HOSTILE}]}],
        }
    ]
    entry = entry_json(_record(9, {"type": "strike"}, events, sender=HOSTILE), events)
    assert entry is not None
    assert entry["head"] == f"#9 · {HOSTILE} · strike"
    assert entry["events"][0]["text"] == f"{HOSTILE} strikes"
    assert entry["events"][0]["rolls"][0]["label"] == HOSTILE
    assert entry["events"][0]["rolls"][0]["modifiers"] == [f"+1 · {HOSTILE}"]
