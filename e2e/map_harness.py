"""Tiny NiceGUI app that exercises MapView for the e2e tests.

Run by hand: ``PYTHONPATH=. VTT_PORT=8080 .venv/bin/python e2e/map_harness.py`` and open
http://localhost:8080/ (30x20 hex map, 4 tokens), http://localhost:8080/big (100x100 hex map, 500 tokens) or
http://localhost:8080/crowd (30x20 hex map in a 1200x950 px container: rows of neighbours and shared spaces).

Each page takes `?game=NAME`: the first page that names a game gets a fresh one of its kind, later pages with that
name share it. The tests name one game per test, so they share one harness server without seeing each other's moves.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable
from typing import Any

from nicegui import events, ui

from vtt.rules.grid import make_grid
from vtt.web.map_view import MapView

CELL = 32
HEX = make_grid("hex")
axial = HEX.from_offset  # odd-r offset (col, row) -> axial (q, r)


def token(
    token_id: str, name: str, size: int, cells: list[tuple[int, int]], color: str, label: str, **extra: Any
) -> dict[str, Any]:
    return {
        "id": token_id,
        "name": name,
        "size": size,
        "cells": [list(c) for c in cells],
        "color": color,
        "label": label,
        "grit": [3, 3],
        "energy": [2, 2],
        "resolve": [1, 1],
        "ailments": [],
        "draggable": True,
        **extra,
    }


class Game:
    """Shared state of one harness map: every connected page's MapView is subscribed in a WeakSet."""

    def __init__(
        self,
        cols: int,
        rows: int,
        walls: list[tuple[int, int]],
        objects: list[dict[str, Any]],
        tokens: list[dict[str, Any]],
        grid: str = "hex",
        cell: int = CELL,
    ) -> None:
        self.grid, self.cols, self.rows, self.cell = grid, cols, rows, cell
        self.walls = set(walls)
        self.objects = objects
        self.tokens = {t["id"]: t for t in tokens}
        self.views: weakref.WeakSet[MapView] = weakref.WeakSet()
        self.geometry = make_grid(grid)

    def in_bounds(self, q: int, r: int) -> bool:
        return self.geometry.in_bounds((q, r), self.cols, self.rows)

    def live_views(self) -> list[MapView]:
        return [v for v in list(self.views) if not v.is_deleted]

    def validate(self, token_id: str, q: int, r: int) -> tuple[str | None, list[list[int]]]:
        t = self.tokens.get(token_id)
        if t is None:
            return "unknown token", []
        aq, ar = t["cells"][0]
        cells = [[cq + q - aq, cr + r - ar] for cq, cr in t["cells"]]
        if not all(self.in_bounds(cq, cr) for cq, cr in cells):
            return "out of bounds", cells
        if any((cq, cr) in self.walls for cq, cr in cells):
            return "blocked by a wall", cells
        occupied = {tuple(c) for other in self.tokens.values() if other["id"] != token_id for c in other["cells"]}
        if any((cq, cr) in occupied for cq, cr in cells):
            return "cell occupied", cells
        return None, cells

    def move(self, token_id: str, q: int, r: int) -> str | None:
        error, cells = self.validate(token_id, q, r)
        if error:
            for view in self.live_views():
                view.snap_back(token_id)
            return error
        t = self.tokens[token_id]
        t["cells"] = cells
        for view in self.live_views():
            view.patch_token(t)
        return None

    def reach(self, token_id: str, n: int) -> list[list[int]]:
        foot = {(c[0], c[1]) for c in self.tokens[token_id]["cells"]}
        cells = self.geometry.area_within(foot, n)
        return [list(c) for c in sorted(cells - foot) if self.in_bounds(*c) and c not in self.walls]


def small_game() -> Game:
    walls = [axial(12, row) for row in range(3, 11)] + [axial(col, 10) for col in range(13, 18)]
    objects = [
        {"id": "pillar", "name": "Pillar", "kind": "pillar", "cells": [list(axial(20, 5)), list(axial(21, 5))]},
        {"id": "well", "name": "Old Well", "kind": "water", "cells": [list(axial(4, 15))]},
    ]
    wyrm_anchor = axial(19, 13)
    tokens = [
        token(
            "kira",
            "Kira Valen",
            0,
            [axial(6, 6)],
            "#3b6db3",
            "KV",
            grit=[4, 6],
            energy=[2, 4],
            resolve=[1, 3],
            ailments=[{"name": "Bleeding", "tier": 2}],
        ),
        token("imp", "Imp <b>bold</b>", -1, [axial(9, 4)], "#8a3fa8", "IM", grit=[1, 2], resolve=[0, 0]),
        token(
            "ogre",
            "Ogre Brute",
            2,
            [axial(8, 12)],
            "#5b7a2e",
            "OB",
            grit=[7, 8],
            energy=[1, 3],
            resolve=[2, 2],
            draggable=False,
            prone=True,
        ),
        token(
            "wyrm",
            "Stone Wyrm",
            4,
            [wyrm_anchor, *(c for c in HEX.within(wyrm_anchor, 1) if c != wyrm_anchor)],
            "#a0522d",
            "SW",
            grit=[12, 15],
            energy=[5, 6],
            resolve=[3, 4],
            ailments=[{"name": "Burning", "tier": 1}, {"name": "Slowed", "tier": 2}],
        ),
    ]
    return Game(30, 20, walls, objects, tokens)


def big_game() -> Game:
    cols = rows = 100
    walls = [axial(col, 50) for col in range(10, 90) if col % 20 != 0]
    palette = ["#3b6db3", "#a0522d", "#5b7a2e", "#8a3fa8", "#b8860b", "#2f8f8f", "#b03a48"]
    tokens = []
    for i in range(500):
        col, row = (i * 37) % 97 + 1, (i * 53) % 97 + 1
        if row == 50:
            row = 51
        tokens.append(
            token(
                f"t{i}",
                f"Token {i}",
                (i % 6) - 2,
                [axial(col, row)],
                palette[i % len(palette)],
                f"{i % 100}",
                grit=[i % 5, 4],
                ailments=[{"name": "Dazed", "tier": 1}] if i % 7 == 0 else [],
            )
        )
    # de-duplicate positions deterministically
    seen: set[tuple[int, ...]] = set()
    for t in tokens:
        while tuple(t["cells"][0]) in seen:
            t["cells"][0][0] += 1
        seen.add(tuple(t["cells"][0]))
    return Game(cols, rows, walls, [], tokens)


def square_game() -> Game:
    walls = [(10, y) for y in range(2, 9)]
    objects = [{"id": "table", "name": "Table", "kind": "table", "cells": [[14, 3], [15, 3], [14, 4], [15, 4]]}]
    tokens = [
        token("hero", "Hero", 0, [(2, 2)], "#3b6db3", "HE", grit=[2, 3]),
        token("golem", "Clay Golem", 3, [(4, 6), (5, 6), (4, 7), (5, 7)], "#8b6d4a", "CG", grit=[9, 9]),
    ]
    return Game(20, 12, walls, objects, tokens, grid="square", cell=44)


# Crowd map: a block of neighbours in three rows (the name plates of one row must not cover the bars of the row
# above), and spaces shared by several one-space tokens (drawn side by side).
CROWD_BLOCK = [(col, row) for row in (6, 7, 8) for col in (5, 6, 7, 8)]
CROWD_SHARED = {
    "rats": (axial(14, 6), [("rat-a", "Rat A", -1, "RA"), ("rat-b", "Rat B", -1, "RB")]),
    "guards": (axial(17, 6), [("guard-a", "Guard Ash", 0, "GA"), ("guard-b", "Guard Elm", 0, "GE")]),
    "goblins": (axial(20, 6), [(f"gob-{i}", f"Goblin {i}", -1, f"G{i}") for i in range(1, 4)]),
    "sprites": (axial(23, 6), [(f"sprite-{i}", f"Sprite {i}", -2, f"S{i}") for i in range(1, 5)]),
}
CROWD_NAMES = ["Kira Valen", "Brother Aldric", "Mira Thorn", "Old Tobin", "Vex", "Ser Hald", "Nyssa Quill",
               "Dorn", "Ila Marsh", "Captain Rue", "Pell", "Sable Wynn"]  # fmt: skip


def crowd_game() -> Game:
    palette = ["#3b6db3", "#a0522d", "#5b7a2e", "#8a3fa8", "#b8860b", "#2f8f8f", "#b03a48"]
    tokens = []
    for i, ((col, row), name) in enumerate(zip(CROWD_BLOCK, CROWD_NAMES, strict=True)):
        label = "".join(part[0] for part in name.split())[:2].upper()
        pools = {"grit": [1 + i % 4, 4], "energy": [i % 3, 3], "resolve": [1, 2]}
        ailments = [{"name": "Bleeding", "tier": 1}] if i % 5 == 0 else []
        tokens.append(
            token(f"c{i}", name, 0, [axial(col, row)], palette[i % len(palette)], label, ailments=ailments, **pools)
        )
    for n, (cell, members) in enumerate(CROWD_SHARED.values()):
        for j, (token_id, name, size, label) in enumerate(members):
            color = palette[(n * 3 + j) % len(palette)]
            tokens.append(token(token_id, name, size, [cell], color, label, grit=[j + 1, 3]))
    return Game(30, 20, [], [], tokens)


MAKERS: dict[str, Callable[[], Game]] = {
    "small": small_game,
    "big": big_game,
    "square": square_game,
    "crowd": crowd_game,
}
GAMES: dict[tuple[str, str], Game] = {}


def game_named(kind: str, name: str) -> Game:
    """The game `name` of `kind`, made fresh the first time a page names it."""
    key = (kind, name)
    if key not in GAMES:
        GAMES[key] = MAKERS[kind]()
    return GAMES[key]


def build_page(game: Game, player: bool = False, size: tuple[int, int] | None = None) -> None:
    """One user's page; ``player=True`` may only drag Kira (``viewer_can_drag``); ``size``: a fixed map container
    (width, height in px) instead of the whole window below the header."""
    ui.query(".nicegui-content").classes("p-0 gap-0")
    with ui.row().classes("w-full h-12 items-center gap-4 px-4 bg-stone-800 text-amber-50"):
        ui.label("Soulshards map harness").classes("text-lg font-semibold")
        status = ui.label("Ready").classes("text-sm opacity-80").mark("status")
        ui.space()
        # a full props update (what NiceGUI sends when e.g. children are added later) must keep the state
        full_update = ui.button("Full update").props("flat dense no-caps color=amber-2").mark("full-update")

    view = MapView(
        game.grid,
        game.cols,
        game.rows,
        game.cell,
        [list(w) for w in sorted(game.walls)],
        game.objects,
        game.tokens,
        viewer_can_drag=(lambda token_id: token_id == "kira") if player else None,
    ).style(f"width: {size[0]}px; height: {size[1]}px" if size else "height: calc(100vh - 48px)")
    full_update.on_click(view.update)
    game.views.add(view)
    selected: dict[str, str] = {}

    def highlight_reach() -> None:
        token_id = selected.get("id")
        if token_id is not None and token_id in game.tokens:
            view.set_highlights([{"cells": game.reach(token_id, 2), "kind": "reach"}])

    def highlight_target() -> None:
        token_id = selected.get("id")
        if token_id is not None and token_id in game.tokens:
            view.set_highlights([{"cells": game.tokens[token_id]["cells"], "kind": "target"}])

    def toggle_hidden() -> None:
        """Hidden on every view; unhiding sends ``hidden: None`` (a field cleared by a patch)."""
        token_id = selected.get("id")
        if token_id is None or token_id not in game.tokens:
            return
        t = game.tokens[token_id]
        t["hidden"] = None if t.get("hidden") else True
        for v in game.live_views():
            v.patch_token(t)
        status.set_text(f"{token_id} hidden: {t['hidden']}")

    def resend() -> None:
        """Patch this view with the unchanged token: nothing may reach the browser."""
        token_id = selected.get("id")
        if token_id is not None and token_id in game.tokens:
            view.patch_token(game.tokens[token_id])
            status.set_text(f"Re-sent {token_id}")

    with view, ui.menu().props("no-parent-event") as menu:
        title = ui.label().classes("px-4 pt-2 font-bold").mark("menu-title")
        ui.menu_item("Highlight reach", on_click=highlight_reach).mark("menu-reach")
        ui.menu_item("Highlight as target", on_click=highlight_target).mark("menu-target")
        ui.menu_item("Toggle hidden", on_click=toggle_hidden).mark("menu-hide")
        ui.menu_item("Re-send token", on_click=resend).mark("menu-resend")
        ui.menu_item("Clear highlights", on_click=view.clear_highlights).mark("menu-clear")

    def on_move(e: events.GenericEventArguments) -> None:
        error = game.move(e.args["id"], e.args["q"], e.args["r"])
        if error:
            ui.notify(f"Move rejected: {error}", type="warning")
        else:
            status.set_text(f"Moved {e.args['id']} to {e.args['q']},{e.args['r']}")

    def on_token_click(e: events.GenericEventArguments) -> None:
        token_id = e.args["id"]
        selected["id"] = token_id
        title.set_text(game.tokens[token_id]["name"])
        view.set_active(token_id)
        menu.open()

    def on_cell_click(e: events.GenericEventArguments) -> None:
        status.set_text(f"Cell {e.args['q']},{e.args['r']}")

    def on_cancel() -> None:
        view.clear_highlights()
        view.set_active(None)
        status.set_text("Cancelled")

    view.on_move(on_move).on_token_click(on_token_click).on_cell_click(on_cell_click).on_cancel(on_cancel)


@ui.page("/")
def index(player: bool = False, game: str = "") -> None:
    build_page(game_named("small", game), player)


@ui.page("/square")
def square(game: str = "") -> None:
    build_page(game_named("square", game))


@ui.page("/big")
def big(game: str = "") -> None:
    build_page(game_named("big", game))


@ui.page("/crowd")
def crowd(game: str = "") -> None:
    build_page(game_named("crowd", game), size=(1200, 950))


if __name__ in {"__main__", "__mp_main__"}:
    ui.run(
        port=int(os.environ["VTT_PORT"]),
        reload=False,
        show=False,
        title="Map harness",
        uvicorn_logging_level="warning",
        # a browser busy painting the big map on a loaded machine may miss pings for seconds: NiceGUI would drop
        # its page and the browser would reload it in the middle of a test
        reconnect_timeout=15.0,
    )
