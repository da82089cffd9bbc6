"""Rulers and pings: passing marks one seat shows the others at its table, relayed live and never stored.

A page sends spaces only (a ruler's start and end, a ping's space); this module checks them against the map and
the seat's rate, and hands every page of the same game a message with the spaces, the distance the rules count
between them (`Grid.distance` of the map's grid: hexes, or squares where a diagonal step is one) and who sent it.
No creature is named, so a ruler the Soulweaver measures from a token a player cannot see tells that player
nothing the map does not: a line between two spaces.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from vtt.rules.limits import (
    PING_WINDOW_SECONDS,
    PINGS_MAX,
    RULER_UPDATES_MAX,
    RULER_WINDOW_SECONDS,
)
from vtt.rules.model import Cell, GameState
from vtt.rules.space import grid_of
from vtt.table.table import Table, Viewer

RULER = "ruler"
RULER_END = "ruler_end"
PING = "ping"
PING_SECONDS = 4.0
"""How long a ping's ring shows on the map."""

Clock = Callable[[], float]


class PointerError(ValueError):
    """A ruler or ping the table does not pass on, with the reason in plain words."""


class PointerListener(Protocol):
    def pointer_message(self, message: dict[str, Any]) -> None: ...


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def board_space(value: object, state: GameState) -> Cell:
    """`value` as a space of the map: two whole numbers, on the board. `PointerError` says what is wrong."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise PointerError("a space is given by two whole numbers")
    q, r = _whole(value[0]), _whole(value[1])
    if q is None or r is None:
        raise PointerError("a space is given by two whole numbers")
    board = state.board
    if not grid_of(state).in_bounds((q, r), board.cols, board.rows):
        raise PointerError("that space is not on the map")
    return (q, r)


class RateLimit:
    """At most `limit` events a key in any `window` seconds (a sliding window)."""

    def __init__(self, limit: int, window: float, clock: Clock = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._times: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        """Count one event of `key` and say whether it is within the limit (one refused is not counted)."""
        now = self._clock()
        times = self._times.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True


@dataclass(frozen=True)
class Ruler:
    seat: str
    hand: str
    """Which ruler it is: its seat's key, and which page of the seat holds it (a seat may have two pages open)."""
    name: str
    start: Cell
    end: Cell
    distance: int

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": RULER,
            "seat": self.seat,
            "hand": self.hand,
            "name": self.name,
            "from": list(self.start),
            "to": list(self.end),
            "distance": self.distance,
        }


@dataclass(frozen=True)
class Ping:
    seat: str
    name: str
    space: Cell

    def as_json(self) -> dict[str, Any]:
        return {"kind": PING, "seat": self.seat, "name": self.name, "space": list(self.space), "seconds": PING_SECONDS}


def _may_point(viewer: Viewer) -> None:
    if viewer.is_spectator:
        raise PointerError("spectators watch the map; they do not measure on it or ping it")


def hand_of(viewer: Viewer, page: int) -> str:
    """The name of the ruler a seat holds on one of its pages: `alice/2`."""
    return f"{viewer.key}/{page}"


class Pointers:
    """The rulers held and the pings sent at one table, and the pages that show them."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._listeners: weakref.WeakSet[Any] = weakref.WeakSet()
        self._ruler_rate = RateLimit(RULER_UPDATES_MAX, RULER_WINDOW_SECONDS, clock)
        self._ping_rate = RateLimit(PINGS_MAX, PING_WINDOW_SECONDS, clock)
        self.held: dict[str, Ruler] = {}
        """The rulers held now, by their hand (`hand_of`)."""
        self.publish: Callable[[dict[str, Any]], None] | None = None
        """Where the table's own messages also go: the other processes serving the game (`Games.listen`)."""

    def subscribe(self, listener: PointerListener) -> None:
        self._listeners.add(listener)

    def unsubscribe(self, listener: PointerListener) -> None:
        self._listeners.discard(listener)

    def _relay(self, message: dict[str, Any]) -> None:
        self.show(message)
        if self.publish is not None:
            self.publish(message)

    def show(self, message: dict[str, Any]) -> None:
        """Show a message on this process's pages of the table (a message from another process comes here)."""
        for listener in list(self._listeners):
            listener.pointer_message(message)

    def ruler(self, state: GameState, viewer: Viewer, name: str, start: object, end: object, page: int = 0) -> Ruler:
        """`viewer` (shown as `name`) holds a ruler from `start` to `end` on their `page`: checked, measured and
        shown to every page of the table. `PointerError` says why not; nothing is shown then."""
        _may_point(viewer)
        a, b = board_space(start, state), board_space(end, state)
        if not self._ruler_rate.allow(viewer.key):
            raise PointerError("the ruler moved faster than the table passes it on: move it more slowly")
        hand = hand_of(viewer, page)
        ruler = Ruler(viewer.key, hand, name, a, b, grid_of(state).distance(a, b))
        if self.held.get(hand) != ruler:
            self.held[hand] = ruler
            self._relay(ruler.as_json())
        return ruler

    def release(self, viewer: Viewer, page: int = 0) -> None:
        """`viewer` let go of the ruler on their `page`: it disappears from every page (nothing happens if none
        was held)."""
        hand = hand_of(viewer, page)
        if self.held.pop(hand, None) is not None:
            self._relay({"kind": RULER_END, "seat": viewer.key, "hand": hand})

    def ping(self, state: GameState, viewer: Viewer, name: str, space: object) -> Ping:
        """`viewer` (shown as `name`) pings `space` for every page of the table. `PointerError` says why not."""
        _may_point(viewer)
        cell = board_space(space, state)
        if not self._ping_rate.allow(viewer.key):
            raise PointerError(
                f"you pinged {PINGS_MAX} times in the last {PING_WINDOW_SECONDS:g} seconds: wait a moment"
            )
        ping = Ping(viewer.key, name, cell)
        self._relay(ping.as_json())
        return ping


_TABLES: weakref.WeakKeyDictionary[Table, Pointers] = weakref.WeakKeyDictionary()


def pointers_of(table: Table) -> Pointers:
    """The rulers and pings of this table (one `Pointers` a table, made on first use)."""
    found = _TABLES.get(table)
    if found is None:
        found = _TABLES[table] = Pointers()
    return found
