"""Rulers and pings (`vtt/table/pointers.py`): spaces checked against the map, the distance the rules count on the
map's grid, the rate limits, and the relay to the pages of the same table only."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

import pytest
from factories import creature, state
from nicegui.events import GenericEventArguments

from vtt.rules.limits import PING_WINDOW_SECONDS, PINGS_MAX, RULER_UPDATES_MAX, RULER_WINDOW_SECONDS
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings
from vtt.table.pointers import PING, RULER, RULER_END, PointerError, Pointers, RateLimit, board_space, pointers_of
from vtt.table.table import Table, Viewer
from vtt.web.map_pointers import MapPointers
from vtt.web.map_view import MapView, clean_event

SOULWEAVER = Viewer("soulweaver", "soulweaver")
ALICE = Viewer("player", "alice")
BOB = Viewer("player", "bob")
WATCHER = Viewer("spectator", "spectator")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Page:
    """A page of the table: what it was told."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def pointer_message(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


def _square(cols: int = 10, rows: int = 8) -> GameState:
    s = state(creature("ayla", (2, 2), controller="alice"), cols=cols, rows=rows)
    return s.model_copy(update={"settings": TableSettings(grid="square")})


def _hex(cols: int = 10, rows: int = 8) -> GameState:
    return state(creature("ayla", (2, 2)), cols=cols, rows=rows)


def _pointers() -> tuple[Pointers, Clock, Page, Page]:
    clock = Clock()
    pointers = Pointers(clock)
    gm, alice = Page(), Page()
    pointers.subscribe(gm)
    pointers.subscribe(alice)
    return pointers, clock, gm, alice


# ---- the distance the rules count ---------------------------------------------------------------------------


def test_ruler_on_squares_counts_a_diagonal_step_as_one_space() -> None:
    """Square maps measure Chebyshev distance (`SquareGrid.distance`, /work/shared/design.md "Geometry"): from
    (2, 2) to (6, 4) is 4 steps right and 2 down, the 2 down taken diagonally, so 4 spaces (not 6, not 4.5)."""
    pointers, _, gm, alice = _pointers()
    ruler = pointers.ruler(_square(), SOULWEAVER, "Soulweaver", [2, 2], [6, 4])
    assert ruler.distance == 4
    for page in (gm, alice):
        assert page.messages == [
            {
                "kind": RULER,
                "seat": "soulweaver",
                "hand": "soulweaver/0",
                "name": "Soulweaver",
                "from": [2, 2],
                "to": [6, 4],
                "distance": 4,
            }
        ]


def test_ruler_on_hexes_counts_cube_distance() -> None:
    """Hex maps measure cube distance (`HexGrid.distance`, axial (q, r), /work/shared/design.md "Geometry"): from
    (2, 2) to (5, 0), dq = 3 and dr = -2, so (|3| + |-2| + |3 - 2|) / 2 = 3 spaces; to (0, 4), dq = -2 and dr = 2,
    (2 + 2 + 0) / 2 = 2 spaces."""
    pointers, _, _, _ = _pointers()
    assert pointers.ruler(_hex(), ALICE, "alice", [2, 2], [5, 0]).distance == 3
    assert pointers.ruler(_hex(), ALICE, "alice", [2, 2], [0, 4]).distance == 2


def test_a_ruler_names_spaces_only_never_a_creature() -> None:
    """The Soulweaver's ruler from a hidden creature's space tells the players a line between two spaces: nothing
    in the message names the creature."""
    hidden = creature("lurker", (3, 3), hidden=True)
    s = state(hidden, cols=10, rows=10)
    pointers, _, _, alice = _pointers()
    pointers.ruler(s, SOULWEAVER, "Soulweaver", [3, 3], [7, 3])
    assert "lurker" not in repr(alice.messages)
    assert set(alice.messages[0]) == {"kind", "seat", "hand", "name", "from", "to", "distance"}


# ---- spaces checked against the map -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ([10, 0], "that space is not on the map"),
        ([-1, 3], "that space is not on the map"),
        ([0, 8], "that space is not on the map"),
        ([True, 1], "a space is given by two whole numbers"),
        ([1.5, 1], "a space is given by two whole numbers"),
        (["1", "1"], "a space is given by two whole numbers"),
        ([1, 2, 3], "a space is given by two whole numbers"),
        (None, "a space is given by two whole numbers"),
    ],
)
def test_a_space_off_the_map_or_not_two_whole_numbers_is_refused_in_plain_words(value: object, why: str) -> None:
    with pytest.raises(PointerError) as refused:
        board_space(value, _square())
    assert str(refused.value) == why


def test_a_hex_space_beside_the_rectangle_is_off_the_map() -> None:
    """The hex map is an odd-r rectangle: axial (-1, 2) is column 0 of row 2 (on it), (-2, 2) lies left of it."""
    assert board_space([-1, 2], _hex()) == (-1, 2)
    with pytest.raises(PointerError):
        board_space([-2, 2], _hex())


def test_a_refused_ruler_or_ping_is_shown_to_nobody() -> None:
    pointers, _, gm, alice = _pointers()
    with pytest.raises(PointerError):
        pointers.ruler(_square(), ALICE, "alice", [2, 2], [40, 2])
    with pytest.raises(PointerError):
        pointers.ping(_square(), ALICE, "alice", [2, 99])
    assert gm.messages == alice.messages == []
    assert pointers.held == {}


def test_spectators_neither_measure_nor_ping() -> None:
    pointers, _, gm, _ = _pointers()
    for attempt in (
        lambda: pointers.ruler(_square(), WATCHER, "spectator", [1, 1], [2, 2]),
        lambda: pointers.ping(_square(), WATCHER, "spectator", [1, 1]),
    ):
        with pytest.raises(PointerError, match="spectators watch the map"):
            attempt()
    assert gm.messages == []


# ---- holding and letting go ---------------------------------------------------------------------------------


def test_letting_go_of_a_ruler_takes_it_off_every_page() -> None:
    pointers, _, gm, alice = _pointers()
    pointers.ruler(_square(), ALICE, "alice", [2, 2], [3, 3])
    pointers.ruler(_square(), ALICE, "alice", [2, 2], [3, 3])  # the same again: nothing new to show
    pointers.release(ALICE)
    pointers.release(ALICE)  # nothing held any more: nothing to say
    assert [m["kind"] for m in alice.messages] == [RULER, RULER_END]
    assert gm.messages[-1] == {"kind": RULER_END, "seat": "alice", "hand": "alice/0"}
    assert pointers.held == {}


def test_two_pages_of_one_seat_hold_two_rulers() -> None:
    """A seat with two pages open: letting go on one page leaves the ruler held on the other."""
    pointers, _, gm, _ = _pointers()
    pointers.ruler(_square(), ALICE, "alice", [2, 2], [3, 3], page=1)
    pointers.ruler(_square(), ALICE, "alice", [5, 5], [6, 6], page=2)
    pointers.release(ALICE, page=1)
    assert set(pointers.held) == {"alice/2"}
    assert [m.get("hand") for m in gm.messages] == ["alice/1", "alice/2", "alice/1"]


def test_a_page_that_stopped_listening_is_told_nothing() -> None:
    pointers, _, gm, alice = _pointers()
    pointers.unsubscribe(alice)
    pointers.ping(_square(), SOULWEAVER, "Soulweaver", [4, 4])
    assert [m["kind"] for m in gm.messages] == [PING]
    assert gm.messages[0]["space"] == [4, 4] and gm.messages[0]["name"] == "Soulweaver"
    assert alice.messages == []


def test_each_table_relays_to_its_own_pages_only() -> None:
    one = Table("one", _square())
    two = Table("two", _square())
    try:
        assert pointers_of(one) is pointers_of(one)
        assert pointers_of(one) is not pointers_of(two)
        here, there = Page(), Page()
        pointers_of(one).subscribe(here)
        pointers_of(two).subscribe(there)
        pointers_of(one).ping(one.state, ALICE, "alice", [1, 1])
        assert len(here.messages) == 1 and there.messages == []
    finally:
        one.close()
        two.close()


# ---- rate limits --------------------------------------------------------------------------------------------


def test_pings_are_limited_per_seat_in_a_sliding_window() -> None:
    pointers, clock, gm, _ = _pointers()
    s = _square()
    for i in range(PINGS_MAX):
        pointers.ping(s, ALICE, "alice", [i, 0])
        clock.now += 0.5
    with pytest.raises(PointerError) as refused:
        pointers.ping(s, ALICE, "alice", [5, 5])
    assert str(refused.value) == "you pinged 3 times in the last 5 seconds: wait a moment"
    pointers.ping(s, BOB, "bob", [5, 5])  # another seat has its own count
    clock.now = 100.0 + PING_WINDOW_SECONDS  # the first ping is out of the window now
    pointers.ping(s, ALICE, "alice", [6, 6])
    assert [m["space"] for m in gm.messages] == [[0, 0], [1, 0], [2, 0], [5, 5], [6, 6]]


def test_ruler_positions_are_limited_per_seat() -> None:
    pointers, clock, gm, _ = _pointers()
    s = _square(cols=60, rows=10)
    for i in range(RULER_UPDATES_MAX):
        pointers.ruler(s, ALICE, "alice", [0, 0], [i + 1, 0])
    with pytest.raises(PointerError, match="move it more slowly"):
        pointers.ruler(s, ALICE, "alice", [0, 0], [50, 0])
    assert pointers.held["alice/0"].end == (RULER_UPDATES_MAX, 0)  # the refused position is not kept
    clock.now += RULER_WINDOW_SECONDS
    assert pointers.ruler(s, ALICE, "alice", [0, 0], [50, 0]).distance == 50
    assert len(gm.messages) == RULER_UPDATES_MAX + 1


def test_a_refused_event_does_not_count_against_the_limit() -> None:
    clock = Clock()
    limit = RateLimit(2, 1.0, clock)
    assert limit.allow("a") and limit.allow("a")
    assert not limit.allow("a")
    assert not limit.allow("a")
    clock.now += 1.0
    assert limit.allow("a") and limit.allow("a")
    assert not limit.allow("a")


# ---- the map's events, before any handler sees them ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args", "out"),
    [
        ("ruler", {"from": [1, 2], "to": [3, -4]}, {"from": [1, 2], "to": [3, -4]}),
        ("ruler", {"from": [1, 2]}, None),
        ("ruler", {"from": [1, True], "to": [3, 4]}, None),
        ("ruler", {"from": [1, 2], "to": [3, 10**9]}, None),
        ("ruler", {"from": "1,2", "to": [3, 4]}, None),
        ("ruler_end", {"anything": 1}, {}),
        ("ping", {"q": 4, "r": 5, "extra": "x"}, {"q": 4, "r": 5}),
        ("ping", {"q": 4.0, "r": 5}, None),
        ("key", {"key": "undo"}, {"key": "undo"}),
        ("key", {"key": "delete_everything"}, None),
        ("key", {"key": ["undo"]}, None),
    ],
)
def test_the_maps_ruler_ping_and_key_events_reach_their_handlers_checked(
    name: str, args: dict[str, Any], out: dict[str, Any] | None
) -> None:
    assert clean_event(name, args) == out


# ---- a page's keys and what it draws --------------------------------------------------------------------------


class FakeMap:
    """What `MapPointers` uses of the map element: its handlers, and what it was asked to draw."""

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Any], Any]] = {}
        self.drawn: list[tuple[str, Any]] = []

    def __getattr__(self, name: str) -> Callable[[Callable[[Any], Any]], None]:
        if not name.startswith("on_"):
            raise AttributeError(name)
        return lambda handler: self.handlers.__setitem__(name.removeprefix("on_"), handler)

    def show_ruler(self, ruler: dict[str, Any]) -> None:
        self.drawn.append(("ruler", ruler))

    def clear_ruler(self, seat: str) -> None:
        self.drawn.append(("clear", seat))

    def show_ping(self, ping: dict[str, Any]) -> None:
        self.drawn.append(("ping", ping))


def _page(table: Table, viewer: Viewer, may_end_turn: bool) -> tuple[FakeMap, list[dict[str, Any]], MapPointers]:
    fake = FakeMap()
    sent: list[dict[str, Any]] = []

    async def send(command: dict[str, Any]) -> bool:
        sent.append(command)
        return True

    page = MapPointers(table, viewer, cast(MapView, fake), lambda: viewer.name, lambda: may_end_turn, send)
    return fake, sent, page


def _press(fake: FakeMap, key: str) -> None:
    asyncio.run(fake.handlers["key"](GenericEventArguments(sender=None, client=None, args={"key": key})))  # type: ignore[arg-type]


def test_e_ends_the_turn_only_where_the_end_turn_button_would_be_enabled() -> None:
    table = Table("keys", _square())
    try:
        mine, sent_mine, _ = _page(table, ALICE, may_end_turn=True)
        other, sent_other, _ = _page(table, BOB, may_end_turn=False)
        _press(mine, "end_turn")
        _press(other, "end_turn")
        assert sent_mine == [{"type": "end_turn"}]
        assert sent_other == []
    finally:
        table.close()


def test_undo_and_redo_keys_are_the_soulweavers_and_need_something_to_take_back() -> None:
    table = Table("keys", _square())
    try:
        gm, sent_gm, _ = _page(table, SOULWEAVER, may_end_turn=False)
        player, sent_player, _ = _page(table, ALICE, may_end_turn=False)
        for key in ("undo", "redo"):
            _press(gm, key)  # an empty log: nothing to undo or redo
            _press(player, key)
        assert sent_gm == sent_player == []
        asyncio.run(table.submit(SOULWEAVER, {"type": "place", "creature": "ayla", "to": [3, 3]}))
        _press(player, "undo")
        _press(gm, "undo")
        assert sent_player == []
        assert sent_gm == [{"type": "undo"}]
    finally:
        table.close()


def test_a_page_draws_the_tables_rulers_and_pings_and_lets_go_of_its_ruler_when_closed() -> None:
    table = Table("draw", _square())
    try:
        gm_map, _, gm = _page(table, SOULWEAVER, may_end_turn=False)
        alice_map, _, alice = _page(table, ALICE, may_end_turn=False)
        ruler = {"from": [2, 2], "to": [4, 2]}
        gm_map.handlers["ruler"](GenericEventArguments(sender=None, client=None, args=ruler))  # type: ignore[arg-type]
        alice_map.handlers["ping"](GenericEventArguments(sender=None, client=None, args={"q": 9, "r": 0}))  # type: ignore[arg-type]
        gm.close()
        assert [kind for kind, _ in alice_map.drawn] == ["ruler", "ping", "clear"]
        assert alice_map.drawn[0][1]["distance"] == 2
        assert alice_map.drawn[2] == ("clear", f"soulweaver/{gm.page}")
        assert [kind for kind, _ in gm_map.drawn] == ["ruler", "ping"]  # a closed page is told nothing more
        alice.close()
    finally:
        table.close()
