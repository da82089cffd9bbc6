"""Fog of war for one table: what each seat's creatures perceive now, and the spaces each seat remembers.

With the table's `fog_of_war` on, a player's seat perceives what any creature they control perceives
(`vision.seat_perception`); a spectator what every player's creature perceives together; the Soulweaver
everything (no `SeatVision` at all). A seat always knows its own creatures, even where they perceive nothing
(in a stomach, Blinded).

Perception is worked out again only when something it depends on changed: the board (walls, objects, light),
the settings, or a creature's place, size, light, dark sight, Blinded, Deafened or Anosmatic (`vision_key`);
otherwise the perception of the last such state is used. When the walls or objects change, the rules' cache of
lines of sight (`vision.clear_sight_cache`) is emptied: its lines for the old map would only take memory.

Remembered terrain is kept here, in memory only, per seat: every state the table reaches adds what each seat
perceives in it (`remember`); a restart forgets it.

A creature only heard is known to the seat by an opaque id of its own (the same for one seat and creature while
the table lives), never by its real id or name.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from vtt.rules.fog_marks import on_map
from vtt.rules.model import Board, Cell, Creature, GameState
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.vision import Perception, carried_light, clear_sight_cache, merged, perceived

if TYPE_CHECKING:
    from vtt.table.table import Viewer

SPECTATORS = "\x00spectators"
"""The memory key of the spectators' seat (no player's name: names are printable)."""
HEARD_PREFIX = "heard-"
PERCEPTIONS_KEPT = 64
STATES_KEPT = 4


@dataclass(frozen=True)
class SeatVision:
    """What one seat perceives of one state."""

    spaces: frozenset[Cell]
    """The spaces its creatures perceive now."""
    remembered: frozenset[Cell]
    """Every space it perceived since the table was opened, `spaces` included."""
    seen: frozenset[str]
    """The creatures it sees (its own among them)."""
    heard: dict[str, tuple[Cell, ...]] = field(default_factory=dict)
    """Creatures only heard, by their opaque id: the spaces they fill."""
    heard_ids: dict[str, str] = field(default_factory=dict)
    """Real id -> opaque id of each heard creature (for the server only: never sent)."""


def facet(c: Creature) -> tuple[Hashable, ...]:
    """What perception reads of one creature: its spaces, size, light, dark sight, Blinded, Deafened and
    Anosmatic."""
    return (
        c.anchor,
        c.size,
        tuple(c.footprint or ()),
        c.swallowed_by,
        None if c.light is None else (c.light.bright, c.light.dim),
        c.dark_sight,
        c.ailments.get("Blinded", 0),
        c.ailments.get("Deafened", 0),
        c.ailments.get("Anosmatic", 0),
    )


def vision_key(state: GameState, creature_ids: tuple[str, ...]) -> tuple[Hashable, ...]:
    """Everything a seat's perception depends on, but the board and settings (compared by identity)."""
    return creature_ids, tuple((cid, facet(c)) for cid, c in state.creatures.items())


def own_key(state: GameState, creature_ids: tuple[str, ...], facets: Mapping[str, Hashable]) -> Hashable:
    """What the spaces a seat perceives depend on, but the board and settings: its own creatures, every carried
    light and (when creatures obstruct sight) every creature. Another creature's move, outside these, changes only
    whether that creature is perceived."""
    lights = tuple((cid, facets[cid]) for cid, c in state.creatures.items() if c.light is not None)
    everyone = tuple(facets.items()) if state.settings.creatures_obstruct else ()
    return creature_ids, tuple(facets.get(cid) for cid in creature_ids), lights, everyone


@dataclass(frozen=True)
class _Worked:
    """A seat's perception of one state, with what it was worked out from (for the next state's update)."""

    board: Board
    settings: TableSettings
    own: Hashable
    facets: Mapping[str, Hashable]
    each: tuple[tuple[str, Perception], ...]
    found: Perception


def _updated(old: Perception, new: Perception, changed: AbstractSet[str], order: Mapping[str, int]) -> Perception:
    """`old` with what it said of the `changed` creatures replaced by `new` (worked out for those alone)."""

    def kept(cid: str) -> bool:
        return cid not in changed

    notes = [n for n in old.awareness if kept(n.creature)] + list(new.awareness)
    notes.sort(key=lambda n: (order.get(n.creature, -1), n.sense != "sight"))
    return Perception(
        spaces=old.spaces,
        seen=frozenset(c for c in old.seen if kept(c)) | new.seen,
        heard={**{k: v for k, v in old.heard.items() if kept(k)}, **new.heard},
        awareness=tuple(notes),
        reasons={**{k: v for k, v in old.reasons.items() if kept(k)}, **new.reasons},
    )


def seat_creatures(state: GameState, viewer: Viewer) -> tuple[str, ...]:
    """The creatures whose senses the seat uses: a player's own, or (a spectator) every player's creature. A hidden
    creature lends no senses: it is the Soulweaver's alone."""
    if viewer.is_spectator:
        return tuple(cid for cid, c in state.creatures.items() if c.controller is not None and not c.hidden)
    return tuple(cid for cid, c in state.creatures.items() if c.controller == viewer.key and not c.hidden)


def memory_key(viewer: Viewer) -> str:
    return SPECTATORS if viewer.is_spectator else viewer.key


def marked(state: GameState, p: Perception) -> Perception:
    """What a seat is shown of what its creatures perceive, with the Soulweaver's marks (`fog_marks`): revealed
    spaces and the creatures on them added, hidden spaces and the creatures wholly on them taken away."""
    board = state.board
    if not board.revealed and not board.hidden:
        return p
    grid = grid_of(state)
    revealed = on_map(grid, board, board.revealed) - board.hidden
    spaces = (p.spaces | revealed) - board.hidden
    cells = Occupancy(state).cells
    seen = {cid for cid in p.seen if cid in state.creatures and not set(cells[cid]) <= board.hidden}
    if revealed:
        seen.update(
            cid
            for cid, c in state.creatures.items()
            if not c.hidden and c.swallowed_by is None and not revealed.isdisjoint(cells[cid])
        )
    heard = {cid: where for cid, where in p.heard.items() if cid not in seen and not set(where) <= board.hidden}
    return replace(p, spaces=frozenset(spaces), seen=frozenset(seen), heard=heard)


class Fog:
    """Per table: perceptions cached by what they depend on, remembered spaces per seat, opaque ids."""

    def __init__(self) -> None:
        self._salt = secrets.token_bytes(16)
        self._memory: dict[str, frozenset[Cell]] = {}
        self._perceptions: OrderedDict[tuple[Hashable, ...], tuple[Board, TableSettings, Perception]] = OrderedDict()
        self._last: dict[str, list[tuple[GameState, SeatVision]]] = {}
        """Per seat, its vision of the last few states (a change message compares the state before with the one
        after, each with what the seat remembered then)."""
        self._filled: frozenset[Cell] | None = None
        """The spaces walls and objects filled when perception was last worked out."""
        self.computed = 0
        """How many perceptions were worked out (not taken from the cache): for tests and benchmarks."""
        self.updated = 0
        """How many of those were updates of the seat's last one (only other creatures changed)."""
        self._worked: dict[tuple[str, ...], _Worked] = {}
        """Per group of creatures (a seat's), its latest perception worked out, for the next one's update."""
        self._facets_of: tuple[GameState, dict[str, Hashable], tuple[Hashable, ...]] | None = None

    @staticmethod
    def on(state: GameState) -> bool:
        return state.settings.fog_of_war

    def perception(self, state: GameState, creature_ids: tuple[str, ...]) -> Perception:
        """What these creatures perceive together in `state`, worked out again only when it may differ."""
        key = (id(state.board), id(state.settings), creature_ids, self._facets(state)[1])
        known = self._perceptions.get(key)
        if known is not None and known[0] is state.board and known[1] is state.settings:
            self._perceptions.move_to_end(key)
            return known[2]
        filled = state.board.filled()
        if self._filled is not None and filled != self._filled:
            # The walls or objects changed (the map editor): the lines of sight cached for the old ones are never
            # asked for again, and on a big map each holds thousands of spaces.
            clear_sight_cache()
        self._filled = filled
        found = self._work_out(state, creature_ids)
        self.computed += 1
        self._perceptions[key] = (state.board, state.settings, found)
        while len(self._perceptions) > PERCEPTIONS_KEPT:
            self._perceptions.popitem(last=False)
        return found

    def _facets(self, state: GameState) -> tuple[dict[str, Hashable], tuple[Hashable, ...]]:
        """Each creature's `facet` in `state`, and all of them as one key (as `vision_key` has them), worked out
        once per state for every seat."""
        known = self._facets_of
        if known is not None and known[0] is state:
            return known[1], known[2]
        facets: dict[str, Hashable] = {cid: facet(c) for cid, c in state.creatures.items()}
        key = tuple(facets.items())
        self._facets_of = (state, facets, key)
        return facets, key

    def _work_out(self, state: GameState, creature_ids: tuple[str, ...]) -> Perception:
        """`seat_perception`, or when only other creatures changed since the seat's last perception (the same
        board, settings, own creatures and lights), that perception with those creatures looked at again."""
        facets = self._facets(state)[0]
        own = own_key(state, creature_ids, facets)
        last = self._worked.get(creature_ids)
        lamps = carried_light(state)
        occ = Occupancy(state)
        if last is not None and last.board is state.board and last.settings is state.settings and last.own == own:
            changed = {cid for cid in facets.keys() | last.facets.keys() if facets.get(cid) != last.facets.get(cid)}
            order = {cid: i for i, cid in enumerate(state.creatures)}
            each = tuple(
                (cid, _updated(p, perceived(state, cid, lamps, occ, p.spaces, changed), changed, order))
                for cid, p in last.each
            )
            self.updated += 1
        else:
            each = tuple((cid, perceived(state, cid, lamps, occ)) for cid in creature_ids)
        found = merged(state, each)
        self._worked[creature_ids] = _Worked(state.board, state.settings, own, facets, each, found)
        while len(self._worked) > PERCEPTIONS_KEPT:
            del self._worked[next(iter(self._worked))]
        return found

    def opaque(self, seat: str, creature_id: str) -> str:
        """The id a heard creature has for one seat: the same each time, telling nothing of the creature."""
        digest = hmac.new(self._salt, f"{seat}\x00{creature_id}".encode(), hashlib.sha256).hexdigest()
        return HEARD_PREFIX + digest[:12]

    def vision(self, state: GameState, viewer: Viewer, preview: bool = False) -> SeatVision | None:
        """What `viewer` perceives of `state`; None when it sees everything (the Soulweaver, or fog of war off).
        `preview`: what it would perceive with fog of war on (the Soulweaver seeing as a player)."""
        if viewer.is_soulweaver or not (preview or self.on(state)):
            return None
        seat = memory_key(viewer)
        last = self._last.setdefault(seat, [])
        for known, seen in last:
            if known is state:
                return seen
        own = seat_creatures(state, viewer)
        p = marked(state, self.perception(state, own))
        heard_ids = {cid: self.opaque(seat, cid) for cid in sorted(p.heard)}
        hidden = state.board.hidden
        found = SeatVision(
            spaces=p.spaces,
            remembered=(self._memory.get(seat, frozenset()) - hidden) | p.spaces,
            seen=p.seen | frozenset(own),
            heard={heard_ids[cid]: cells for cid, cells in p.heard.items()},
            heard_ids=heard_ids,
        )
        last.append((state, found))
        del last[:-STATES_KEPT]
        return found

    def remember(self, state: GameState, viewers: Iterable[Viewer]) -> None:
        """Add what each of these seats perceives in `state` to what it remembers."""
        for viewer in viewers:
            found = self.vision(state, viewer)
            if found is not None:
                key = memory_key(viewer)
                self._memory[key] = self._memory.get(key, frozenset()) | found.spaces

    def forget(self) -> None:
        """Forget every seat's remembered spaces (a game loaded anew starts with none)."""
        self._memory.clear()
        self._last.clear()


def fog_marks_scrubbed(board: dict[str, Any], fogged: bool) -> dict[str, Any]:
    """A board's dump for a player or spectator: without the Soulweaver's fog marks (a hidden area's outline tells
    where a secret lies) and, under fog of war, without the background picture (it shows the whole map: the seat
    gets it cut to what it may see, `vtt.web.fog_tiles`)."""
    out = {k: v for k, v in board.items() if k not in ("revealed", "hidden")}
    if fogged and out.get("background") is not None:
        out["background"] = None
    return out


def fog_marks_command(command: dict[str, Any]) -> dict[str, Any]:
    """A logged command for a player or spectator: a `mark_fog` without its spaces (see `fog_marks_scrubbed`)."""
    if command.get("type") == "mark_fog":
        return {**command, "cells": []}
    return dict(command)
