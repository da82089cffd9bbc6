"""Text that cannot be sent on as UTF-8 (JSON's `\\ud800` escape decodes to half of a surrogate pair) is refused
where it comes in, in plain words, instead of failing later when a page, the database or a websocket sends it."""

from __future__ import annotations

import json

import pytest

from vtt.web.api import BadBody, parse_body, utf8_text


def test_a_lone_surrogate_anywhere_in_decoded_json_is_not_utf8_text() -> None:
    assert not utf8_text(json.loads('{"command": {"creature": {"name": "bad \\ud800 half"}}}'))
    assert not utf8_text(json.loads('["ok", {"\\udfff": 1}]'))  # in a key too


def test_whole_characters_are_utf8_text() -> None:
    assert utf8_text(json.loads('{"name": "\\ud83d\\ude00 abc\\u202edcba", "n": [1, 2.5, null, true]}'))


def test_the_seat_api_refuses_a_command_holding_a_lone_surrogate_in_plain_words() -> None:
    raw = json.dumps({"command": {"type": "add_creature", "creature": {"name": "bad \ud800"}, "at": [1, 1]}})
    assert "\\ud800" in raw  # sent as the escape, as a program would
    with pytest.raises(BadBody) as refused:
        parse_body(raw)
    assert (
        str(refused.value)
        == "the body holds a broken character (half of a UTF-16 surrogate pair); send whole characters"
    )


def test_the_seat_api_takes_a_command_with_whole_characters() -> None:
    body = parse_body(
        json.dumps({"command": {"type": "add_creature", "creature": {"name": "\U0001f600"}, "at": [1, 1]}})
    )
    assert body.command["creature"]["name"] == "\U0001f600"
