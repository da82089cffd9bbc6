"""A drag's move preview as each seat may see it (`SeatView.move_preview`), the map's `drag_start` event, and the
Collision dialog's words for a preview's odds.

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
from vtt.web.table_view import _collision_roll_text, _percent

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


def test_odds_are_whole_percentages_that_never_say_certain_when_it_is_not() -> None:
    assert _percent(0.4444) == "44%"
    assert _percent(0.993) == "99%"
    assert _percent(0.996) == "over 99%"
    assert _percent(0.004) == "under 1%"
    assert (_percent(0.0), _percent(1.0)) == ("0%", "100%")


def test_the_dialog_tells_the_collision_roll_in_plain_words() -> None:
    """m (Athletics 2) collides with v (Athletics 2) at (6, 5): 2 dice against DL 3 (seed-000 Collision), v defends
    with Athletics 2; the damage line is the preview's likely Injury."""
    s = _game()
    found = SeatView(s, ALICE).move_preview(preview_move(s, "m").as_json())["collisions"]
    assert isinstance(found, dict)
    (v,) = found["6,5"]["targets"]
    low, high = v["damage"]["likely"]
    likely = str(low) if low == high else f"{low} to {high}"
    assert _collision_roll_text("Visible Guard", v) == (
        f"Roll 2 dice against DL 3; Visible Guard defends with Athletics 2. Likely Injury: {likely}."
    )
    no_dice = {**v, "modifier": 1, "defense_dice": 0, "damage": None}
    assert _collision_roll_text("Rat", no_dice) == (
        "Roll 2 dice + 1 against DL 3; Rat has no Athletics to defend with. Rat takes no damage from it."
    )


def test_a_token_click_keeps_the_token_box_size_for_the_menu_beside_it() -> None:
    """The menu opens beside the clicked token, so the click's box size reaches the page; junk sizes are left out."""
    assert clean_event("token_click", {"id": "m", "x": 10, "y": 20.5, "w": 28, "h": 28.5}) == {
        "id": "m",
        "x": 10.0,
        "y": 20.5,
        "w": 28.0,
        "h": 28.5,
    }
    assert clean_event("token_click", {"id": "m", "x": 10, "y": 20, "w": -3, "h": "big"}) == {
        "id": "m",
        "x": 10.0,
        "y": 20.0,
    }
