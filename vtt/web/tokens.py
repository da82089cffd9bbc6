"""What the map shows of a creature: its token dict, built from the rules state for one viewer.

A swallowed creature (seed-000: "they are removed from the [board]") has no token: it is listed in its swallower's
sheet, and the swallower's token carries a "Stomach" badge naming what it holds.
"""

from __future__ import annotations

import weakref
from typing import Any

from vtt.rules.conditions import encumbered_tier
from vtt.rules.model import Creature, GameState
from vtt.rules.space import footprint
from vtt.table.seat_view import SeatView
from vtt.table.state_steps import stomachs
from vtt.table.table import Table, Viewer


def initials(name: str) -> str:
    parts = [p for p in name.split() if p]
    if not parts:
        return "?"
    if len(parts) == 1:
        return parts[0][:2].title()
    return (parts[0][0] + parts[-1][0]).upper()


def may_drag(state: GameState, viewer: Viewer, creature: Creature, seat: SeatView | None = None) -> bool:
    """The Soulweaver drags any token; a player only their own creature, on its turn (or before the fight, if the
    table lets players place their creatures then)."""
    return (seat or SeatView(state, viewer)).may_drag(creature)


def ailment_list(state: GameState, creature: Creature) -> list[dict[str, Any]]:
    out = [{"name": name, "tier": tier} for name, tier in sorted(creature.ailments.items()) if tier]
    enc = encumbered_tier(state, creature) - creature.ailments.get("Encumbered", 0)
    if enc > 0:
        out = [a for a in out if a["name"] != "Encumbered"]
        out.append({"name": "Encumbered", "tier": enc + creature.ailments.get("Encumbered", 0)})
    if any(creature.id in h.held for h in state.holds.values()):
        out.append({"name": "Held", "tier": None})
    if any(creature.id in h.holders for h in state.holds.values()):
        out.append({"name": "Holder", "tier": None})
    if creature.dead:
        out.append({"name": "Dead", "tier": None})
    elif creature.unconscious:
        out.append({"name": "Unconscious", "tier": None})
    return out


def on_map(creature: Creature) -> bool:
    """Whether the creature has a token: not while it is in a stomach, off the board."""
    return creature.swallowed_by is None


def in_stomach(state: GameState, creature: Creature, viewer: Viewer, seat: SeatView | None = None) -> list[Creature]:
    """The creatures in this creature's stomach that the viewer may know of."""
    view = seat or SeatView(state, viewer)
    index = view.stomachs if view.state is state else stomachs(state)
    return [c for c in index.get(creature.id, ()) if view.sees(c.id)]


def stomach_badge(
    state: GameState, creature: Creature, viewer: Viewer, seat: SeatView | None = None
) -> list[dict[str, Any]]:
    """A badge like an ailment's on the swallower: "STO" and how many creatures are in its stomach."""
    inside = in_stomach(state, creature, viewer, seat)
    if not inside:
        return []
    names = ", ".join(c.name for c in inside)
    return [{"name": "Stomach", "tier": len(inside), "title": f"In its stomach: {names}", "kind": "stomach"}]


def token_for(
    state: GameState, creature: Creature, viewer: Viewer, version: int = 0, seat: SeatView | None = None
) -> dict[str, Any]:
    """`v` is the creature's version at the table: a drag sends it back, so a drag from a stale screen is refused.
    `seat` is what the viewer may see of `state` (made here when not given)."""
    seat = seat or SeatView(state, viewer)
    token: dict[str, Any] = {
        "id": creature.id,
        "v": version,
        "name": creature.name,
        "size": creature.size,
        "cells": [list(c) for c in footprint(state, creature)],
        "color": creature.color,
        "label": initials(creature.name),
        "grit": [creature.grit.pips, creature.grit.max],
        "energy": [creature.energy.pips, creature.energy.max],
        "resolve": [creature.resolve.pips, creature.resolve.max],
        "ailments": stomach_badge(state, creature, viewer, seat) + ailment_list(state, creature),
        "draggable": seat.may_drag(creature),
        "dead": creature.dead,
        "prone": creature.prone,
    }
    if creature.picture is not None:  # the hash only: the page asks the server for `/api/pictures/<hash>`
        token["picture"] = creature.picture
    if creature.hidden:  # only the Soulweaver's seat sees a hidden creature: its token is drawn as hidden
        token["hidden"] = True
    return token


_Shown = tuple[weakref.ref[GameState], dict[str, int], dict[str, dict[str, Any]]]
_VIEWS: weakref.WeakKeyDictionary[Table, dict[tuple[str, str], _Shown]] = weakref.WeakKeyDictionary()
"""Per table (gone with it) and kind of seat (the viewer's role and key): the tokens of the latest state shown."""


def shown_tokens(table: Table, viewer: Viewer, seat: SeatView) -> dict[str, dict[str, Any]]:
    """The tokens of every creature `seat` (the viewer's view of the table's current state) shows on the map.

    A new dict each call, but its token dicts are shared by the pages of one kind of seat: never change them in
    place (replace them). Built once per state, versions and seat kind: a 500-creature page view would otherwise
    build 500 tokens on the event loop, for each view. May run in a thread (`vtt.web.first_paint`) while the
    table changes: the tokens kept are built from one state and one copy of the versions, and used only while the
    table has both."""
    versions = dict(table.versions)
    state = table.state
    known = _VIEWS.setdefault(table, {})
    key = (viewer.role, viewer.key)
    shown = known.get(key)
    if shown is not None and shown[0]() is state and shown[1] == versions:
        return dict(shown[2])
    if seat.state is not state:
        seat = table.seat_view(viewer, state)
    tokens = {
        cid: token_for(state, c, viewer, versions.get(cid, 0), seat)
        for cid, c in state.creatures.items()
        if seat.sees(cid) and on_map(c)
    }
    known[key] = (weakref.ref(state), versions, tokens)
    return dict(tokens)


_One = tuple[weakref.ref[GameState], dict[str, tuple[int, dict[str, Any]]]]
_CHANGED: weakref.WeakKeyDictionary[Table, dict[tuple[str, str], _One]] = weakref.WeakKeyDictionary()
"""Per table and kind of seat: the tokens of the latest state built one at a time (a change's), with the version
each was built for."""


def seat_token(table: Table, viewer: Viewer, seat: SeatView, creature: Creature) -> dict[str, Any]:
    """`token_for` of one creature in `seat`'s state, built once per state, version and kind of seat: the pages of
    the seven spectators watching a move share the moved token. Shared: never change it in place."""
    state = seat.state
    version = table.version(creature.id)
    key = (viewer.role, viewer.key)
    shown = _VIEWS.get(table, {}).get(key)
    if shown is not None and shown[0]() is state and shown[1].get(creature.id, 0) == version:
        found = shown[2].get(creature.id)
        if found is not None:
            return found
    known = _CHANGED.setdefault(table, {})
    one = known.get(key)
    if one is None or one[0]() is not state:
        one = known[key] = (weakref.ref(state), {})
    built = one[1].get(creature.id)
    if built is not None and built[0] == version:
        return built[1]
    token = token_for(state, creature, viewer, version, seat)
    one[1][creature.id] = (version, token)
    return token
