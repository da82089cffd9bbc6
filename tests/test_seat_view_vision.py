"""The seat view with fog of war (`vtt/table/fog.py`, `SeatView`): a player's seat gets only what their creatures
perceive (reference §2.6, as `vtt/rules/vision.py` works it out; no seed covers vision yet).

Maps are drawn on the square grid, (x, y) = (column, row): `#` a wall, `.` a floor, a capital letter the anchor of
the creature of that id. Alice controls A (and B where there is one); the Soulweaver controls the rest.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from factories import creature, weapon

from vtt.rules.dice import ScriptedDice
from vtt.rules.grid import GridKind
from vtt.rules.mapfile import load_map
from vtt.rules.model import Board, Cell, Creature, GameState
from vtt.rules.move_preview import preview_move
from vtt.rules.settings import TableSettings
from vtt.rules.turns import begun_on_turn
from vtt.table.fog import HEARD_PREFIX
from vtt.table.table import Change, Table, Viewer
from vtt.web.api import change_message

ALICE = Viewer("player", "alice")
BOB = Viewer("player", "bob")
SW = Viewer("soulweaver", "Mira")
WATCHER = Viewer("spectator", "spectator")
NAMES = {"A": "Ayla", "B": "Bram", "O": "Grukk the Orc", "H": "Heavy Hound"}
OWNERS = {"A": "alice", "B": "alice"}

# A at (0, 0); the wall fills x = 5 from row 0 to row 3; the gap is row 4. O at (8, 1): the line (0,0)->(8,1)
# crosses x = 5 at y = 0.6, in the wall's space (5, 1), so O is out of sight; no line from (0, 0) reaches round
# the wall. O's moving sound (size 0: Magnitude 2, heard -1 + 2 = 1 space away) does not carry 8 spaces.
# From the gap (5, 4) the diagonal (6,3) (7,2) (8,1) is clear: O is seen. The wall piece at (8, 3) lies
# behind the long wall from (0, 0) (the line to it crosses x = 5 at y = 1.9, in the wall) and is seen from the gap.
CORNER = """
    A....#....
    .....#..O.
    .....#....
    .....#..#.
    ..........
    """


def draw(rows: str, **settings: Any) -> GameState:
    lines = [line.strip() for line in rows.strip().splitlines()]
    walls: set[Cell] = set()
    creatures: dict[str, Creature] = {}
    sword = weapon("sword", damage=1)
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            if ch == "#":
                walls.add((x, y))
            elif ch.isupper():
                creatures[ch] = creature(
                    ch, (x, y), name=NAMES[ch], controller=OWNERS.get(ch), weapons=[sword], grip={"right_arm": "sword"}
                )
    table = TableSettings.model_validate(
        {"grid": GridKind.SQUARE, "fog_of_war": True, "defense_prompts": "nobody", "reactions": False, **settings}
    )
    return GameState(settings=table, board=Board(cols=len(lines[0]), rows=len(lines), walls=walls), creatures=creatures)


def text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def play(table: Table, viewer: Viewer, command: dict[str, Any]) -> tuple[bool, str | None]:
    outcome = asyncio.run(table.submit(viewer, command))
    return outcome.ok, outcome.error


class Messages:
    """A listener, as the API's websocket hub is: each change as alice's seat receives it."""

    def __init__(self, table: Table, viewer: Viewer = ALICE) -> None:
        self.table, self.viewer = table, viewer
        self.got: list[dict[str, Any]] = []
        table.subscribe(self)

    def table_changed(self, change: Change) -> None:
        self.got.append(change_message(self.table, change, self.viewer))


def test_a_player_does_not_receive_a_creature_behind_a_wall() -> None:
    """O stands behind the wall (see CORNER): nothing alice's seat is given names it or its id — the state, the
    menus, the turn panel, a change message about it, a refusal of a command naming it."""
    table = Table("fog", begun_on_turn(draw(CORNER), "A"))
    seat = table.seat_view(ALICE)
    assert seat.sees("A") and not seat.sees("O")
    got = Messages(table)
    shown = [seat.state_json(), [a.model_dump(mode="json") for a in seat.menu("A")], str(seat.turn_panel())]
    assert "Grukk" not in text(shown) and '"O"' not in text(shown)
    assert play(table, SW, {"type": "place", "creature": "O", "to": [7, 2]})[0]  # still behind the wall
    ok, why = play(table, ALICE, {"type": "strike", "creature": "A", "target": "O", "weapon": "sword"})
    assert not ok and why == "no such creature"
    (message,) = got.got
    assert message["creatures"] == {} and message["events"] == [] and message["command"] is None
    assert "Grukk" not in text(message) and '"O"' not in text(message)
    assert table.seat_view(SW).sees("O")


def test_events_about_an_unseen_attacker_are_worded_for_the_defender() -> None:
    """In darkness (ambient light dark, no light carried, no dark sight) A sees no space; O, next to it, is heard
    (its moving sound carries 1 space, §2.6) but not seen. O's Strike on A reaches alice worded: "a creature you
    cannot see" in place of O's name; O itself is sent only as an opaque id with its spaces."""
    s = begun_on_turn(draw("AO..", ambient_light="dark"), "O")
    table = Table("fog", s, dice=lambda: ScriptedDice([4] * 40))
    seat = table.seat_view(ALICE)
    (heard,) = seat.heard_json()
    assert heard["heard"] is True and heard["cells"] == [[1, 0]]
    assert heard["id"].startswith(HEARD_PREFIX) and heard["id"] != "O"
    assert set(heard) == {"id", "heard", "cells"}
    got = Messages(table)
    assert play(table, SW, {"type": "strike", "creature": "O", "target": "A", "weapon": "sword"})[0]
    (message,) = got.got
    events = message["events"]
    assert events, "the defender is told of the Strike"
    assert any("a creature you cannot see" in e["text"].lower() for e in events)
    assert "Grukk" not in text(message) and '"O"' not in text(message)
    assert all(e["actor"] is None for e in events if "cannot see" in e["text"].lower())


def test_a_player_with_two_creatures_sees_what_either_sees() -> None:
    """A cannot see O round the wall; B at (9, 4) sees it (the line (9,4)->(8,1) runs (9,3) (8,2)... clear).
    Alice's seat sees the union: O; a player with neither creature (bob) sees none of them."""
    s = draw(
        """
        A....#....
        .....#..O.
        .....#....
        .....#..#.
        .........B
        """
    )
    table = Table("fog", s)
    assert not table.fog.perception(s, ("A",)).seen >= {"O"}
    assert table.seat_view(ALICE).sees("O")
    assert "Grukk the Orc" in text(table.seat_view(ALICE).state_json())
    bob = table.seat_view(BOB)
    assert not bob.sees("O") and not bob.sees("A")


def test_spectators_see_what_the_players_creatures_see_and_the_soulweaver_everything() -> None:
    """The spectators' view is the union of every player's creatures' perception: A's, not O behind the wall."""
    table = Table("fog", draw(CORNER))
    watcher = table.seat_view(WATCHER)
    assert watcher.sees("A") and not watcher.sees("O")
    assert table.seat_view(SW).sees("O") and table.seat_view(SW).fog_json() is None


def test_remembered_terrain_after_moving_round_the_corner() -> None:
    """From (0, 0) alice's seat perceives neither (8, 1) nor the wall piece at (8, 3) (CORNER). Set down in the
    gap (5, 4), A sees both, and O. Set back at (0, 0), O is gone from the seat's view, but the spaces seen from
    the gap stay remembered (greyed), with the wall at (8, 3) in the board it is sent; spaces never seen are left
    out, and so are their walls."""
    table = Table("fog", draw(CORNER))
    start = table.seat_view(ALICE).state_json()
    assert [8, 3] not in start["board"]["walls"] and [5, 0] in start["board"]["walls"]
    assert [8, 1] not in start["fog"]["visible"] + start["fog"]["remembered"]
    got = Messages(table)
    assert play(table, SW, {"type": "place", "creature": "A", "to": [5, 4]})[0]
    assert "O" in got.got[-1]["creatures"]  # came into sight: sent although it did not change
    assert [8, 3] in got.got[-1]["state"]["board"]["walls"]
    assert play(table, SW, {"type": "place", "creature": "A", "to": [0, 0]})[0]
    assert got.got[-1]["gone"] == ["O"]
    back = table.seat_view(ALICE)
    assert not back.sees("O")
    fog = back.fog_json()
    assert fog is not None
    assert [8, 1] in fog["remembered"] and [8, 1] not in fog["visible"]
    assert [8, 3] in back.state_json()["board"]["walls"]
    bob = table.seat_view(BOB).state_json()
    assert bob["board"]["walls"] == [] and bob["fog"]["visible"] == []


def test_fog_of_war_off_is_a_shared_map() -> None:
    """With fog of war off, a player sees every creature not hidden and the whole board, as before."""
    table = Table("fog", draw(CORNER, fog_of_war=False))
    seat = table.seat_view(ALICE)
    assert seat.sees("O") and seat.vision is None
    data = seat.state_json()
    assert "fog" not in data and [8, 3] in data["board"]["walls"]
    assert "Grukk the Orc" in text(data)


def test_the_drag_preview_shows_only_spaces_in_sight() -> None:
    """A's move preview keeps the spaces alice's seat perceives now, reached through such spaces only: from
    (0, 0) no space right of the wall (x > 5) is in it, though A's Movement would reach (6, 4) by the gap."""
    table = Table("fog", begun_on_turn(draw(CORNER, movement_pool=9), "A"))
    full = preview_move(table.state, "A").as_json()
    assert "6,4" in full["reachable"]  # type: ignore[operator]
    shown = table.seat_view(ALICE).move_preview(full)
    kept = [tuple(map(int, k.split(","))) for k in shown["reachable"]]
    assert kept and all(x <= 5 for x, _ in kept)
    assert set(shown["paths"]) <= set(shown["reachable"]) | {"0,0"}


def test_perception_is_worked_out_again_only_when_vision_changes() -> None:
    """A change that moves nobody and touches no light or wall (the Soulweaver's note on O) reuses the seat's
    perception; a move works it out again."""
    table = Table("fog", draw(CORNER))
    table.seat_view(ALICE).state_json()
    before = table.fog.computed
    assert play(table, SW, {"type": "edit_creature", "creature": "O", "changes": {"notes": "sleeps"}})[0]
    table.seat_view(ALICE).state_json()
    assert table.fog.computed == before
    assert play(table, SW, {"type": "place", "creature": "O", "to": [7, 2]})[0]
    table.seat_view(ALICE).state_json()
    assert table.fog.computed > before


def test_a_wall_painted_between_hides_what_was_seen() -> None:
    """The Soulweaver paints a wall at (3, 0), between A at (0, 0) and O at (6, 0) on one open row: the line
    (0,0)->(6,0) runs straight along the row through (3, 0), now filled. O was seen; it is not any more, though
    nobody moved: perception depends on the walls too. The space behind the new wall stays remembered."""
    table = Table("fog", draw("A.....O"))
    assert table.seat_view(ALICE).sees("O")
    assert play(table, SW, {"type": "edit_board", "layer": "wall", "paint": [[3, 0]]})[0]
    seat = table.seat_view(ALICE)
    assert not seat.sees("O")
    fog = seat.fog_json()
    assert fog is not None and [6, 0] in fog["remembered"] and [3, 0] in fog["visible"]
    assert seat.state_json()["board"]["walls"] == [[3, 0]]


def test_the_demo_map_plays_with_fog_of_war_and_hides_a_kobold_round_a_corner() -> None:
    """maps/demo.json turns fog of war on; the Skulking Kobold waits east of the east wall, out of every player's
    creatures' sight, so no player's seat nor the spectators get it; the Soulweaver does."""
    demo = load_map(json.loads((Path(__file__).resolve().parents[1] / "maps" / "demo.json").read_text()))
    assert demo.settings.fog_of_war
    table = Table("demo", demo)
    for viewer in (ALICE, Viewer("player", "bob"), Viewer("player", "cara"), WATCHER):
        assert not table.seat_view(viewer).sees("kobold"), viewer
        assert "Skulking Kobold" not in text(table.seat_view(viewer).state_json())
    assert table.seat_view(SW).sees("kobold")
