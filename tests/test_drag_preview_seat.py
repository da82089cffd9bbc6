"""A drag's move preview as each seat may see it (`SeatView.move_preview`), and the map's `drag_start` event.

Hex grid, axial (q, r): mover `m` (size 0, fills half a space; capacity 1, seed-000 / reference §2.2) at (5, 5).
A visible `v` and a hidden `h` (both size 0) share (6, 5), full; a hidden `g` alone stands at (4, 5).
"""

from __future__ import annotations

import json

from factories import creature, on_turn, state

from vtt.rules.model import GameState
from vtt.rules.move_preview import preview_move
from vtt.table.seat_view import SeatView
from vtt.table.table import Viewer
from vtt.web.map_view import clean_event

SW = Viewer("soulweaver", "Mira")
ALICE = Viewer("player", "alice")


def _game() -> GameState:
    return on_turn(
        state(
            creature("m", (5, 5), name="Mover", controller="alice"),
            creature("v", (6, 5), name="Visible Guard"),
            creature("h", (6, 5), name="Hidden Stalker", hidden=True),
            creature("g", (4, 5), name="Ghost Wolf", hidden=True),
        ),
        "m",
    )


def _seat_preview(viewer: Viewer) -> dict[str, object]:
    s = _game()
    return SeatView(s, viewer).move_preview(preview_move(s, "m").as_json())


def test_a_player_learns_of_no_hidden_creature_from_collisions_or_blocked_reasons() -> None:
    """(4, 5) holds only the hidden g: no Collision there for the player. (6, 5) is full (v and h fill 1): the rules
    block m from ending there with a reason naming h, which the player does not get, and the Collision keeps only
    v, with Move in offered as if h were not there (the server still refuses it, in the player's words)."""
    p = _seat_preview(ALICE)
    collisions = p["collisions"]
    assert isinstance(collisions, dict)
    assert "4,5" not in collisions
    assert [t["target"] for t in collisions["6,5"]["targets"]] == ["v"]
    assert collisions["6,5"]["move_in"] is True
    assert p["blocked"] == {}
    text = json.dumps(p)
    for secret in ("Hidden Stalker", "Ghost Wolf", '"h"', '"g"'):
        assert secret not in text


def test_the_soulweaver_sees_every_collision_and_reason() -> None:
    """The same drag for the Soulweaver: a Collision with g at (4, 5), with v and h at (6, 5), and (6, 5) blocked
    because m does not fit beside v and h."""
    p = _seat_preview(SW)
    collisions = p["collisions"]
    blocked = p["blocked"]
    assert isinstance(collisions, dict) and isinstance(blocked, dict)
    assert [t["target"] for t in collisions["4,5"]["targets"]] == ["g"]
    assert sorted(t["target"] for t in collisions["6,5"]["targets"]) == ["h", "v"]
    assert collisions["6,5"]["move_in"] is False
    assert "Hidden Stalker" in blocked["6,5"]


def test_drag_start_events_carry_only_a_token_id() -> None:
    assert clean_event("drag_start", {"id": "m", "extra": 1}) == {"id": "m"}
    assert clean_event("drag_start", {"id": ""}) is None
    assert clean_event("drag_start", {"id": 3}) is None
    assert clean_event("drag_start", ["m"]) is None
