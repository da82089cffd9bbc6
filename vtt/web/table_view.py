"""One person's view of the table: the map, the token menus, the turn order, the creature sheet, the
pending decisions and the roll log. Every click becomes a command sent to the Table, which checks it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import background_tasks, core, events, ui

from vtt.rules.ailments import AILMENTS, PART_AILMENTS
from vtt.rules.events import RuleError
from vtt.rules.limits import SKILL_TIER_MAX, SOULWEAVER_DICE_MAX
from vtt.rules.model import SOULWEAVER, Cell, Creature, GameState
from vtt.rules.move_preview import preview_move
from vtt.rules.offers import ActionOption, TargetOption, command_for
from vtt.rules.space import Occupancy, footprint, grid_of, why_cannot_stand
from vtt.rules.turns import active_creatures, is_active
from vtt.table import latency_trace
from vtt.table.chat import ROLL
from vtt.table.registry import Games
from vtt.table.seat_view import SeatView, TurnPanel
from vtt.table.table import Change, LogRecord, Table, Viewer
from vtt.web.action_menu import (
    choice_dialog,
    group_actions,
    has_no_target,
    multi_target_dialog,
    render_menu,
)
from vtt.web.after_paint import AfterPaint
from vtt.web.attrs import with_data
from vtt.web.bounded_number import bounded_number, whole_in
from vtt.web.chat_panel import ChatPanel
from vtt.web.dice_dialog import submit_typed
from vtt.web.fog_brush import FogBrush
from vtt.web.fog_view import PageFog
from vtt.web.game_files import export_game
from vtt.web.gm_panel import render_gm_panel, render_sheet_controls
from vtt.web.map_editor import MapEditor, board_patch
from vtt.web.map_pick import CLICK_SPACE, PickHint, SpacePick, space_pick
from vtt.web.map_pointers import MapPointers
from vtt.web.map_view import MapView
from vtt.web.menu_facts import odds_with, option_facts
from vtt.web.menu_keys import MenuKeys
from vtt.web.one_message import Call, Carrier, one_message
from vtt.web.order_candidates import order_candidates
from vtt.web.panel_drawer import PanelDrawer
from vtt.web.picture_controls import render_picture_controls
from vtt.web.pool_rows import render_pool
from vtt.web.prompt_banner import PromptBanner, answers
from vtt.web.roll_log import RollLog
from vtt.web.sheet_key import sheet_facts
from vtt.web.tokens import on_map, seat_token, shown_tokens

CELL_PX = 26.0
FLUSH_DELAY = 0.1
"""Seconds between a change's map patch and its log entry and panel updates. Long enough for the patch to reach every
page before the server and the pages spend on the rest: on a small machine with eight pages open the last page's patch
took up to 70 ms, and a second frame drawn by the faster pages meanwhile made it wait longer."""
_waiting: list[TableView] = []
"""The pages whose log entries and panels are sent at the end of `FLUSH_DELAY`, by one task for all the pages a change
reached (a task a page made and woke 8 tasks a move)."""
_waiting_task: asyncio.Task[None] | None = None
ELEMENTS = {
    "": "none",
    "fire": "Fire",
    "water": "Water",
    "earth": "Earth",
    "air": "Air",
    "heat": "Heat",
    "cold": "Cold",
    "acid": "Acid",
    "lightning": "Lightning",
}
AFFLICTIONS = sorted(name for name in AILMENTS if name not in PART_AILMENTS)
"""The Ailments the Soulweaver's Afflict… gives (Wounded and Trauma come from Serious Injury on a part)."""
MAX_AFFLICT_TIERS = 6
ANSWER_DATA = {"reaction": "react", "trauma": "trauma"}
"""The data attribute naming a decision's answer on the side panel's buttons (`data-react="hinder"`); the answers
themselves are `prompt_banner.answers`, which the banner offers too."""


def _percent(p: float) -> str:
    """A chance as a whole percentage; never "0%" or "100%" for what may still happen or fail."""
    n = round(p * 100)
    if n <= 0 < p:
        return "under 1%"
    if n >= 100 and p < 1:
        return "over 99%"
    return f"{n}%"


def _signed(n: int) -> str:
    return f" {'+' if n > 0 else '−'} {abs(n)}" if n else ""


def _collision_roll_text(name: str, t: dict[str, Any]) -> str:
    """The Collision roll in plain words, from a move preview's target entry."""
    dice = t["dice"]
    roll = f"Roll {dice} {'die' if dice == 1 else 'dice'}{_signed(t['modifier'])} against DL {t['dl']}"
    skill = t["defense_skill"]
    if t.get("defense_dice") is None:
        roll += f"; {name} cannot defend"
    elif t["defense_dice"] == 0 and not t["defense_modifier"]:
        roll += f"; {name} has no {skill} to defend with"
    else:
        roll += f"; {name} defends with {skill} {t['defense_dice']}{_signed(t['defense_modifier'])}"
    damage = t.get("damage")
    if damage is None:
        roll += f". {name} takes no damage from it."
    else:
        low, high = damage["likely"]
        likely = str(low) if low == high else f"{low} to {high}"
        roll += f". Likely Injury: {likely}."
    return roll


def _swallowers(before: GameState, after: GameState, ids: set[str]) -> set[str]:
    """The swallowers of these creatures, before and after a change: a creature swallowed, or out again, changes
    its swallower's token too (its "Stomach" badge)."""
    out: set[str] = set()
    for cid in ids:
        for s in (before, after):
            c = s.creatures.get(cid)
            if c is not None and c.swallowed_by is not None:
                out.add(c.swallowed_by)
    return out


class TableView:
    """Built once per page; subscribes to the Table and patches what changed."""

    def __init__(
        self, table: Table, viewer: Viewer, games: Games | None = None, base_url: str = "", secret: str | None = None
    ) -> None:
        """`secret`: the seat link the page was opened with (None: a watch page, or no stored game)."""
        self.table = table
        self.viewer = viewer
        self.games = games
        self.base_url = base_url
        self.selected: str | None = None
        self.choosing: tuple[str, ActionOption] | None = None
        self.picking: SpacePick | None = None
        self._seat_of: SeatView | None = None
        state = table.state
        board = state.board
        seat = self._seat()
        self.fog = PageFog(table, viewer, seat, secret)
        self.tokens = {**shown_tokens(table, viewer, seat), **self.fog.heard}
        with ui.row().classes("w-full h-full no-wrap gap-0 items-stretch table-layout") as layout:
            # The menu sits beside the map, not in its slot: a slot would make every update of the menu (or of
            # anything on the page) re-render the whole map component.
            with ui.column().classes("grow h-full p-0 map-pane"), ui.element("div").classes("map-wrap"):
                self.map = MapView(
                    grid=str(state.settings.grid),
                    cols=board.cols,
                    rows=board.rows,
                    cell=CELL_PX,
                    tokens=self.tokens,
                    shared_tokens=True,
                    tools=not viewer.is_spectator,
                    **self.fog.map_props(seat),
                ).classes("w-full h-full")
                self.fog.view = self.map
                self.banner = PromptBanner(self.send)
                self.menu_anchor = ui.element("div").classes("menu-anchor")
                # beside the clicked token (the anchor is the token's box), never over it
                with self.menu_anchor:
                    self.menu = ui.menu().props("no-parent-event anchor='center right' self='center left'")
                self.menu.props(":offset='[10, 0]'").classes("token-menu")
                with self.menu:
                    self.menu_body = ui.column().classes("gap-0 p-1")
                self.hint = PickHint()
                MenuKeys()
            # Two parts that scroll each on its own, so that the roll log stays in sight below a long sheet.
            # drawn by the browser after the map's first frame
            with AfterPaint().classes("nicegui-column side-pane h-full no-wrap gap-0 p-0"):
                with ui.column().classes("side-panels w-full no-wrap gap-2 p-2"):
                    self.decisions = ui.column().classes("w-full gap-1")
                    self.turn_panel = ui.column().classes("w-full gap-1")
                    self.sheet = ui.column().classes("w-full gap-1")
                    if viewer.is_soulweaver:
                        self.fog.render_preview_select(
                            self._players, lambda: self.fog.refresh_fog(self.map, self._seat())
                        )
                        brush = FogBrush(table, self.fog, self.map, self.send)
                    self.editor: MapEditor | None = None
                    if viewer.is_soulweaver:
                        engine = games.engine if games is not None else table.engine
                        stored = games is not None and table.game_id is not None
                        export = self._export_game if stored else None
                        self.editor = MapEditor(table, engine, self.map, self.send, export)
                        brush.attach(self.editor)
                    self.gm_panel = ui.column().classes("w-full gap-1")
                with ui.column().classes("side-talk w-full no-wrap gap-2 p-2"):
                    ui.label("Roll log").classes("text-sm font-bold text-stone-700 roll-log-title")
                    with ui.element("div").classes("log-frame"):
                        self.log = RollLog()
                    self.chat = ChatPanel(viewer, self._players, self.send)
        self.carrier = Carrier()  # a change's patches go to the browser as one message, its log entry in one more
        self.drawer = PanelDrawer(layout)
        self.map.on_move(self._on_move)
        self.map.on_drag_start(self._on_drag_start)
        self.map.on_refused(lambda _: ui.notify(f"Move rejected: {self._why_not_drag()}", type="warning"))
        self.map.on_token_click(self._on_token_click)
        self.map.on_cell_click(self._on_cell_click)
        self.map.on_cancel(lambda _: self._cancel())
        self.pointers = MapPointers(
            table, viewer, self.map, self._seat_name, lambda: self._seat().turn_panel().can_end_turn, self.send
        )
        self._active: str | None = None
        self._flush_task: asyncio.Task[None] | None = None
        self._log_calls: list[Call] = []
        """The log's and chat's calls since the last flush (`_flush`), in their order."""
        self._panel_keys: dict[str, object] = {}
        self._turn_parts: tuple[ui.column, ui.button, ui.column] | None = None
        self._render_panels()
        self._set_active()
        for record in table.log:
            self._add_to_log(record, drawn=False)
        table.subscribe(self)

    async def _export_game(self) -> None:
        if self.games is not None and self.table.game_id is not None:
            await export_game(self.games, self.table.game_id, self.table.name)

    def _seat(self) -> SeatView:
        """What this viewer may see of the table's current state (kept while the state is the same)."""
        seat = self._seat_of
        if seat is None or seat.state is not self.table.state:
            seat = self._seat_of = self.table.seat_view(self.viewer)
        return seat

    def _names(self) -> dict[str, str]:
        return self._seat().names()

    def _sees(self, creature: Creature) -> bool:
        """Hidden creatures are the Soulweaver's alone: no token, name, menu entry or log line for anyone else."""
        return self._seat().sees(creature.id)

    def _shown(self, creature: Creature) -> bool:
        """Whether the creature has a token on this page: seen, and not in a stomach (off the board)."""
        return self._sees(creature) and on_map(creature)

    def _token(self, state: GameState, c: Creature) -> dict[str, Any]:
        seat = self._seat() if state is self.table.state else self.table.seat_view(self.viewer, state)
        return seat_token(self.table, self.viewer, seat, c)

    # ---- permissions (the table re-checks every command) ------------------------------------------------

    def may_act_for(self, creature: Creature) -> bool:
        return self._seat().may_act_for(creature)

    # ---- the table changed --------------------------------------------------------------------------------

    def table_changed(self, change: Change) -> None:
        """Patch the tokens that changed at once, in one message; send the log entry (worded for the seat as it is
        now) and render the panels `FLUSH_DELAY` later, together. What everyone watches is the map: drawn in the
        patch's frame, the entry cost a page's compositor more than the token (one damaged rectangle spanning both),
        and with many pages on one machine the later pages' patches waited for it (`bench/web.py`)."""
        with one_message(self.carrier):
            self._take_change(change)
        with one_message(self.carrier, into=self._log_calls):
            record = change.record
            self._add_to_log(record)
            if record.is_meta:
                self._mark_undone(record.command.get("seqs", []), record.kind == "undo")
        if self._flush_task is None or self._flush_task.done():
            self._flush_task = _flush_later(self)

    def _take_change(self, change: Change) -> None:
        before, state = change.before, change.after
        was, seat = self.table.seat_view(self.viewer, before), self._seat()
        if before.board is not state.board:
            self._board_changed(before, state, self.fog.board_fogged(was, seat))
        if (
            before.turn.index != state.turn.index
            or before.turn.round != state.turn.round
            or before.holds != state.holds
            or before.pending != state.pending
        ):
            ids = set(state.creatures) | set(self.tokens)
        else:
            ids = change.changed_creatures
        ids = ids | _swallowers(before, state, ids) | (was.hidden ^ seat.hidden)  # changed, or came into sight
        for cid in sorted(ids):
            if cid in self.fog.heard:
                continue  # a creature only heard: `fog.changed` keeps its token
            c = state.creatures.get(cid)
            if c is None or not self._shown(c):
                if self.tokens.pop(cid, None) is not None:
                    self.map.remove_token(cid)
                continue
            token, shown = self._token(state, c), self.tokens.get(cid)
            if token is not shown and token != shown:
                self.tokens[cid] = token
                self.map.patch_token(token)
        self.fog.changed(self.map, seat, self.tokens)
        self._set_active()

    def _board_changed(self, before: GameState, after: GameState, fogged: bool = False) -> None:
        """`fogged`: the walls, objects and terrain are left to the fog of war (`PageFog.changed`)."""
        patch = board_patch(before.board, after.board)
        if fogged:
            patch = {k: v for k, v in patch.items() if k not in ("walls", "objects", "terrain")}
        if patch:
            self.map.set_board(**patch)
        if self.editor is not None:
            self.editor.board_changed(before.board, after.board)

    def _mark_undone(self, seqs: list[int], undone: bool) -> None:
        self.log.mark_undone(seqs, undone)

    def _add_to_log(self, record: LogRecord, drawn: bool = True) -> None:
        """Newest first; `drawn=False` while the page is built. Chat goes to the chat panel; a roll typed there to
        the roll log as well, with its dice."""
        shown = self._seat().events(record, self.table.log)
        if record.is_chat:
            self.chat.add(record, shown, drawn)
            if record.kind != ROLL:
                return
        self.log.add_record(record, shown, drawn)

    def _set_active(self) -> None:
        active = active_creatures(self.table.state)
        now = active[0] if len(active) == 1 else None
        if now != self._active:
            self._active = now
            self.map.set_active(now)

    # ---- commands -------------------------------------------------------------------------------------------

    async def send(self, command: dict[str, Any]) -> bool:
        outcome = await submit_typed(self.table, self.viewer, command)
        if not outcome.ok:
            reason = outcome.error or "the table refused that"
            ui.notify(reason[:1].upper() + reason[1:], type="warning", position="top")
        return outcome.ok

    async def _on_move(self, e: events.GenericEventArguments) -> None:
        latency_trace.mark("handler")
        try:
            cid, to = str(e.args["id"]), (int(e.args["q"]), int(e.args["r"]))
            seen = {cid: int(e.args["v"])}
        except (KeyError, TypeError, ValueError):
            ui.notify("Move rejected: a malformed drop", type="warning")
            return
        state = self.table.state
        c = self._seat().creature(cid)
        if c is None:  # a creature this viewer cannot see is answered as one that does not exist: not at all
            return
        ok = False
        if self._may_drag(state, c):
            ok = await self._drag(state, c, to, seen)
        else:
            ui.notify(f"Move rejected: {self._why_not_drag()}", type="warning")
        if not ok:
            self._snap_back_everywhere(cid)

    def _on_drag_start(self, e: events.GenericEventArguments) -> None:
        """A drag began: send this browser the move preview of the dragged creature, as its seat may see it (one
        preview a drag; the browser draws the rest). The Soulweaver's free placement of a creature not on its turn
        has no preview, and is answered here without a task."""
        if self._previewable(e.args["id"]) is not None:
            background_tasks.create(self._send_preview(e.args["id"]), name="move-preview")

    def _previewable(self, cid: str) -> Creature | None:
        """The dragged creature, when it has a move preview to show this viewer now."""
        state = self.table.state
        c = self._seat().creature(cid)
        if c is None or not self._may_drag(state, c) or not is_active(state, c.id):
            return None
        return c

    async def _send_preview(self, cid: str) -> None:
        for _ in range(2):  # once more if the table changed while the preview was worked out
            state = self.table.state
            if self._previewable(cid) is None:
                return
            preview = await self._preview(state, cid)
            if preview is not None and self.table.state is state:
                self.map.show_move_preview(preview)
                return

    async def _preview(self, state: GameState, cid: str) -> dict[str, Any] | None:
        """The move preview of `cid` in `state`, worked out off the event loop, filtered for this seat."""
        try:
            found = await asyncio.to_thread(lambda: preview_move(state, cid).as_json())
        except RuleError:
            return None
        return self.table.seat_view(self.viewer, state).move_preview(found)

    def _why_not_drag(self) -> str:
        if self.viewer.is_spectator:
            return "spectators watch; they do not move tokens"
        return "you can only drag your own creature, on its turn (or before the fight, when the table allows it)"

    def _may_drag(self, state: GameState, c: Creature) -> bool:
        return self._seat().may_drag(c)

    async def _drag(self, state: GameState, c: Creature, to: Cell, seen: dict[str, int]) -> bool:
        """A drop: a Move for a creature on its turn, the Soulweaver's free placement otherwise. Dropping a
        creature on its turn onto occupied spaces asks whether to collide (seed-000 Collision) or share."""
        if to == c.anchor:
            return False
        if is_active(state, c.id):
            occupants = self._occupants_at(state, c, to)
            if occupants:
                preview = await self._preview(state, c.id)
                if self.table.state is not state:
                    ui.notify("Move rejected: the table changed meanwhile; drag again", type="warning", position="top")
                    return False
                self._ask_collision(state, c, to, occupants, seen, preview)
                return True
            move = {"type": "move", "creature": c.id, "to": list(to)}
            outcome = await submit_typed(self.table, self.viewer, move, seen)
            if outcome.ok:
                self._show_where_it_is(c.id)
                return True
            if not self.viewer.is_soulweaver:
                ui.notify(f"Move rejected: {outcome.error}", type="warning", position="top")
                return False
        outcome = await submit_typed(self.table, self.viewer, {"type": "place", "creature": c.id, "to": list(to)}, seen)
        if not outcome.ok:
            ui.notify(f"Move rejected: {outcome.error}", type="warning", position="top")
        return outcome.ok

    def _show_where_it_is(self, cid: str) -> None:
        """This view moved the token optimistically on the drop. An accepted move may still leave the creature
        where it was (it waits for reactions, or a Hinder stopped it), and then no patch follows: re-send the
        token as the table has it. Nothing is sent when the change's patch has already answered the drop."""
        self.map.answer_drop(cid)

    def _occupants_at(self, state: GameState, c: Creature, to: Cell) -> list[str]:
        occ = Occupancy(state)
        return [o for o in occ.occupants(footprint(state, c, to), exclude=c.id) if self._sees(state.creatures[o])]

    def _ask_collision(
        self,
        state: GameState,
        c: Creature,
        to: Cell,
        occupants: list[str],
        seen: dict[str, int],
        preview: dict[str, Any] | None = None,
    ) -> None:
        """Ask how to enter occupied spaces: each Collision the rules allow there with its odds (and as a Charge
        where that is legal), moving in where there is room, or cancelling. `preview` is the seat's move preview
        (`MovePreview.as_json`); without it, or for a space it cannot reach, the choices come without odds."""
        key = f"{to[0]},{to[1]}"
        reachable: dict[str, int] = (preview or {}).get("reachable") or {}
        found: dict[str, Any] | None = ((preview or {}).get("collisions") or {}).get(key)
        if preview is not None and key in reachable:
            fits = found["move_in"] if found is not None else key not in (preview.get("blocked") or {})
        else:
            fits = why_cannot_stand(state, c, to, Occupancy(state)) is None
        odds = {t["target"]: t for t in (found or {}).get("targets", [])}

        async def go(collide_with: str | None, charge: bool = False) -> None:
            dialog.close()
            cmd: dict[str, Any] = {"type": "move", "creature": c.id, "to": list(to)}
            if collide_with:
                cmd["collide_with"] = collide_with
            if charge:
                cmd["charge"] = True
            outcome = await submit_typed(self.table, self.viewer, cmd, seen)
            if not outcome.ok:
                ui.notify(f"Move rejected: {outcome.error}", type="warning", position="top")
                self._snap_back_everywhere(c.id)
            else:
                self._show_where_it_is(c.id)

        def cancel() -> None:
            dialog.close()
            self._snap_back_everywhere(c.id)

        with ui.dialog().props("persistent") as dialog, ui.card().classes("p-3 gap-2 collision-dialog"):
            ui.label(f"{c.name} moves into an occupied space.").classes("font-bold")
            if key in reachable and preview is not None:
                ui.label(f"Getting there costs {reachable[key]} of {preview['movement_left']} Movement left.").classes(
                    "text-sm"
                )
            ui.label("Fill the Movement Pool to collide (DL 3, Overpower), or just move in?").classes("text-sm")
            with ui.column().classes("gap-2"):
                for oid in occupants:
                    self._collision_choices(state, oid, odds if preview is not None else None, found, go)
            with ui.row().classes("gap-2"):
                if fits:
                    move_in = ui.button("Move in", on_click=lambda: go(None)).props("dense outline")
                    with_data(move_in, choice="move-in")
                ui.button("Cancel", on_click=cancel).props("flat dense")
        dialog.open()

    def _collision_choices(
        self,
        state: GameState,
        oid: str,
        odds: dict[str, Any] | None,
        found: dict[str, Any] | None,
        go: Callable[..., Awaitable[None]],
    ) -> None:
        """The Collide (and Charge) buttons for one occupant, with their odds when the preview has them."""
        name = state.creatures[oid].name
        if odds is None:
            collide = ui.button(f"Collide with {name}", on_click=lambda _: go(oid))
            with_data(collide.props("color=negative dense"), collide=oid)
            return
        t = odds.get(oid)
        if t is None:
            ui.label(f"{name} cannot be collided with here.").classes("text-sm text-stone-600")
            return
        with ui.row().classes("gap-2 items-center"):
            collide = ui.button(f"Collide with {name}: {_percent(t['chance'])}", on_click=lambda _: go(oid))
            with_data(collide.props("color=negative dense"), collide=oid)
            if found is not None and found.get("charge") and t.get("charge_chance") is not None:
                charge = ui.button(
                    f"Charge into {name}: {_percent(t['charge_chance'])}", on_click=lambda _: go(oid, True)
                )
                with_data(charge.props("color=deep-orange dense"), collide=oid, charge="yes")
        ui.label(_collision_roll_text(name, t)).classes("text-xs text-stone-600 collision-roll")

    def _snap_back_everywhere(self, cid: str) -> None:
        for view in list(self.table._listeners):
            if isinstance(view, TableView) and cid in view.tokens:
                view.map.snap_back(cid)

    # ---- the token menu ------------------------------------------------------------------------------------

    async def _on_token_click(self, e: events.GenericEventArguments) -> None:
        cid = str(e.args.get("id"))
        seat = self._seat()
        seen = seat.sees(cid)
        aimed = seen or seat.hears(cid)  # a creature only heard is a target by its opaque id (`heard_targets`)
        if self.picking is not None:
            cell = self._cell_of(cid) if aimed else None
            if cell is not None:
                await self._pick_space(cell)
            return
        if self.choosing is not None:
            await self._choose_target(target=cid if aimed else None)
            return
        if not seen:  # a hidden id is answered exactly as an id that does not exist: nothing happens
            return
        self.selected = cid
        self._render_panels()
        self._anchor_menu(e.args)
        self._open_menu(cid)

    def _anchor_menu(self, args: dict[str, Any]) -> None:
        """Put the menu's anchor over the clicked token's box (the browser's numbers, checked as numbers)."""
        try:
            x, y = float(args["x"]), float(args["y"])
            w, h = float(args.get("w", 1)), float(args.get("h", 1))
        except (KeyError, TypeError, ValueError):
            return
        w, h = min(max(w, 1.0), 4000.0), min(max(h, 1.0), 4000.0)
        left, top = x - w / 2, y - h / 2
        self.menu_anchor.style(
            f"left: {round(left, 1)}px; top: {round(top, 1)}px; width: {round(w, 1)}px; height: {round(h, 1)}px"
        )

    def _open_menu(self, cid: str) -> None:
        """The clicked creature's menu, then one for each creature in its stomach: a swallowed creature has no
        token, so its player (and the Soulweaver) act for it from its swallower's token."""
        state = self.table.state
        seat = self._seat()
        c = seat.creature(cid)
        if c is None:
            return
        self.menu_body.clear()
        with self.menu_body:
            ui.label(c.name).classes("font-bold px-2 pt-1 menu-title")
            self._menu_section(state, c)
            for inner in seat.in_stomach(c):
                with with_data(ui.element("div").classes("menu-stomach"), creature=inner.id):
                    ui.separator().classes("my-1")
                    ui.label(f"In its stomach: {inner.name}").classes("font-bold px-2 pt-1 menu-title")
                    self._menu_section(state, inner)
        self.menu.open()

    def _menu_section(self, state: GameState, c: Creature) -> None:
        """A creature's actions (when the viewer acts for it) and the Soulweaver's tools for it."""
        cid = c.id
        actions = self._seat().menu(cid)
        if not actions:
            why = "not its turn" if self.may_act_for(c) else "not your creature"
            if state.pending:
                why = "the table waits for a decision"
            ui.label(f"No actions: {why}.").classes("text-xs text-stone-500 px-2 pb-1")
        names = self._names()
        render_menu(
            self.menu,
            group_actions(state, cid, actions),
            lambda option: self._choose(cid, option),
            lambda option: option_facts(state, cid, option, names, has_no_target(option)),
        )
        if self.viewer.is_soulweaver:
            ui.label("Soulweaver").classes("text-xs uppercase tracking-wide text-stone-500 px-2 pt-1")
            for label, kind in (("Deal damage…", "harm"), ("Heal…", "heal")):
                item = ui.menu_item(label, on_click=lambda _, k=kind: self._harm_dialog(cid, k))
                with_data(item.props("dense").classes("menu-action text-sm"), action=kind)
            ui.menu_item("Afflict…", on_click=lambda: self._afflict_dialog(cid)).props(
                "dense data-action=afflict"
            ).classes("menu-action text-sm")

    def _afflict_dialog(self, cid: str) -> None:
        """The Soulweaver gives Tiers of an Ailment (reference §5.2), with no source (the `afflict` command)."""
        c = self.table.state.creatures.get(cid)
        if c is None:
            return
        with ui.dialog() as dialog, ui.card().classes("p-3 gap-2 afflict-dialog"):
            ui.label(f"Afflict {c.name}").classes("font-bold")
            ailment = ui.select(AFFLICTIONS, value=AFFLICTIONS[0], label="Ailment").props(
                "dense outlined options-dense data-field=ailment"
            )
            problem = f"Tiers must be a whole number from 1 to {MAX_AFFLICT_TIERS}"
            tiers = bounded_number("Tiers", 1, 1, MAX_AFFLICT_TIERS).props("dense outlined data-field=tiers")

            async def go() -> None:
                n = whole_in(tiers.value, 1, MAX_AFFLICT_TIERS)
                if n is None:
                    ui.notify(problem, type="warning")
                    return
                cmd = {"type": "afflict", "target": cid, "ailment": str(ailment.value), "tiers": n}
                if await self.send(cmd):
                    dialog.close()

            with ui.row().classes("gap-2"):
                ui.button("Apply", on_click=go).props("color=primary dense data-apply=1")
                ui.button("Cancel", on_click=dialog.close).props("flat dense")
        dialog.open()

    def _harm_dialog(self, cid: str, kind: str) -> None:
        """The Soulweaver deals damage or healing of a chosen type and amount (seed-004 rules apply)."""
        c = self.table.state.creatures.get(cid)
        if c is None:
            return
        with ui.dialog() as dialog, ui.card().classes("p-3 gap-2 harm-dialog"):
            ui.label(f"{'Damage to' if kind == 'harm' else 'Heal'} {c.name}").classes("font-bold")
            amount = bounded_number("Amount (d12)", 1, 0, SOULWEAVER_DICE_MAX).props("dense outlined data-field=amount")
            # each field as wide as the dialog: a select is only as wide as its value, and "none" cut "Element" short
            pool = (
                ui.select({"grit": "Grit", "energy": "Energy", "resolve": "Resolve"}, value="grit", label="Pool")
                .props("dense outlined")
                .classes("w-full")
            )
            physical = element = heal_kind = None
            if kind == "harm":
                physical = (
                    ui.select({True: "Physical", False: "Magical"}, value=True, label="Kind")
                    .props("dense outlined")
                    .classes("w-full")
                )
                element = ui.select(ELEMENTS, value="", label="Element").props("dense outlined").classes("w-full")
            else:
                heal_kind = ui.input("Healing type (optional)").props("dense outlined").classes("w-full")

            async def go() -> None:
                n = whole_in(amount.value, 0, SOULWEAVER_DICE_MAX)
                if n is None:
                    ui.notify(f"The amount must be a whole number from 0 to {SOULWEAVER_DICE_MAX}", type="warning")
                    return
                if kind == "harm":
                    cmd: dict[str, Any] = {
                        "type": "harm",
                        "target": cid,
                        "amount": n,
                        "pool": pool.value,
                        "physical": bool(physical.value if physical else True),
                        "element": (element.value or None) if element else None,
                    }
                else:
                    cmd = {
                        "type": "heal",
                        "target": cid,
                        "amount": n,
                        "pool": pool.value,
                        "kind": (heal_kind.value or None) if heal_kind else None,
                    }
                if await self.send(cmd):
                    dialog.close()

            with ui.row().classes("gap-2"):
                ui.button("Apply", on_click=go).props("color=primary dense data-apply=1")
                ui.button("Cancel", on_click=dialog.close).props("flat dense")
        dialog.open()

    async def _choose(self, cid: str, option: ActionOption) -> None:
        """The command the option carries is sent once what it still needs is chosen: a click on the map (a target
        or a space, `pick`), then its open choices (`asks`)."""
        self.menu.close()
        if option.pick == "none":
            cmd = command_for(option)
            if cmd is None:
                return
            if any(a.several and a.kind == "creature" for a in option.asks):
                # Several creatures at once (Distract): ticked in a dialog, their tokens highlighted meanwhile.
                self.choosing = None
                self.map.set_highlights(self._highlights(cid, option))
                multi_target_dialog(
                    self.table.state,
                    option,
                    cmd,
                    self._names(),
                    self.send,
                    self.map.clear_highlights,
                    lambda full, cells: self._start_pick(
                        SpacePick(cmd=full, fields=["sound_at"], cells={"sound_at": cells}, what=option.label)
                    ),
                    lambda preview: odds_with(self.table.state, cid, option, self._names(), preview),
                )
                return
            if option.targets and any(not a.optional for a in option.asks):
                # An action on oneself (Flurry, Ready) needs no click on the map, only its choices.
                self._choice_dialog(option, option.targets[0], cmd)
                return
            await self.send(cmd)
            return
        self.choosing = (cid, option)
        self.map.set_highlights(self._highlights(cid, option))
        if option.pick == "space":
            self.hint.show(f"{option.label}: choose a space. {CLICK_SPACE}")
        else:
            odds = option_facts(self.table.state, cid, option, self._names(), False).pick_hint()
            self.hint.show(f"{option.label}: choose a target (Escape cancels)" + (f". {odds}" if odds else ""))

    def _highlights(self, cid: str, option: ActionOption) -> list[dict[str, Any]]:
        state = self.table.state
        out: list[dict[str, Any]] = []
        if option.reach is not None and cid in self.tokens:
            grid = grid_of(state)
            mine = self.tokens[cid]["cells"]
            area = grid.area_within([tuple(c) for c in mine], option.reach)
            out.append({"kind": "reach", "cells": [list(c) for c in sorted(area)]})
        if option.spaces:
            kind = "target" if option.action == "strike_wall" else "space"
            out.append({"kind": kind, "cells": [list(c) for c in option.spaces]})
        for t in option.targets:
            if t.target and t.target in self.tokens:
                out.append({"kind": "target", "cells": self.tokens[t.target]["cells"]})
            if t.path:
                out.append({"kind": "path", "cells": [list(c) for c in t.path]})
        return out

    async def _choose_target(self, target: str | None = None, space: Cell | None = None) -> None:
        """A click on the map while an option waits for its target or space: the command it carries for that
        click, once its open choices are asked (a click on a token picks the token's space when spaces are asked)."""
        assert self.choosing is not None
        _, option = self.choosing
        if option.pick == "space" and space is None:
            space = self._cell_of(target)
        cmd = command_for(option, target=target, space=space)
        if cmd is None:
            if option.pick == "space":
                return  # a click beside the highlighted spaces: ignored, the hint stays
            ui.notify("That is not a legal choice for this action (Escape cancels)", type="warning", position="top")
            return
        t = next((x for x in option.targets if target is not None and x.target == target), None)
        if t is not None and any(not a.optional for a in option.asks):
            self._cancel()
            self._choice_dialog(option, t, cmd)
            return
        self._cancel()
        await self.send(cmd)

    def _choice_dialog(self, option: ActionOption, t: TargetOption, cmd: dict[str, Any]) -> None:
        """The fields the action still needs: the ones that are spaces are clicked on the map (after the others,
        which a dialog asks)."""
        target_name = self._names().get(t.target or "", t.target or "")
        spaces = [a.field for a in option.asks if a.kind == "space"]
        others = [a for a in option.asks if a.kind != "space"]
        what = f"{option.label} on {target_name}" if t.target else option.label
        target_cells = self.tokens[t.target]["cells"] if t.target in self.tokens else []

        async def then(full: dict[str, Any]) -> bool:
            self._start_pick(space_pick(option, t, full, spaces, what, target_cells))
            return True

        if not others:
            self._start_pick(space_pick(option, t, cmd, spaces, what, target_cells))
            return
        asked = option.model_copy(update={"asks": others})
        choice_dialog(self.table.state, asked, t, cmd, target_name, then if spaces else self.send)

    def _start_pick(self, pick: SpacePick) -> None:
        self.choosing = None
        self.picking = pick
        self.map.set_highlights(pick.highlights())
        self.hint.show(pick.hint())

    async def _pick_space(self, cell: Cell) -> None:
        """A click on the map while spaces are picked: a highlighted one fills the field; any other is ignored."""
        pick = self.picking
        if pick is None or cell not in pick.legal:
            return
        if not pick.fill(cell):
            self._start_pick(pick)
            return
        self._cancel()
        await self.send(pick.cmd)

    def _cell_of(self, target: str | None) -> Cell | None:
        if target is None or target not in self.tokens:
            return None
        q, r = self.tokens[target]["cells"][0]
        return (int(q), int(r))

    async def _on_cell_click(self, e: events.GenericEventArguments) -> None:
        try:
            cell = (int(e.args["q"]), int(e.args["r"]))
        except (KeyError, TypeError, ValueError):
            return
        if self.picking is not None:
            await self._pick_space(cell)
            return
        if self.choosing is None:
            return
        await self._choose_target(space=cell)

    def _cancel(self) -> None:
        self.choosing = None
        self.picking = None
        self.hint.hide()
        self.map.clear_highlights()
        self.menu.close()

    # ---- panels --------------------------------------------------------------------------------------------

    def _flush(self) -> None:
        """Send the log entries held since the last flush, then render the panels that changed."""
        if self._log_calls:
            calls, self._log_calls = self._log_calls, []
            self.carrier.run(calls)
        self._render_panels()

    def _render_panels(self) -> None:
        """Rebuild a panel only when what it shows changed."""
        seat = self._seat()
        keys: dict[str, object] = {
            "decisions": seat.decisions(),
            "turn": (seat.turn_panel(), self._order_candidates() if self.viewer.is_soulweaver else ()),
            "sheet": (self.selected, sheet_facts(seat.creature(self.selected)), self._inside(self.selected)),
            "gm": (self.table.can_undo(), self.table.can_redo()) if self.viewer.is_soulweaver else None,
        }
        for name, render in (
            ("gm", self._render_gm),
            ("decisions", self._render_decisions),
            ("turn", self._render_turn),
            ("sheet", self._render_sheet),
        ):
            if self._panel_keys.get(name, object()) != keys[name]:
                self._panel_keys[name] = keys[name]
                render()
        self.banner.show(seat, self.table)

    def _inside(self, cid: str | None) -> tuple[Creature, ...]:
        seat = self._seat()
        c = seat.creature(cid)
        return tuple(seat.in_stomach(c)) if c is not None else ()

    def _select(self, cid: str) -> None:
        """Show this creature's sheet (a swallowed one has no token to click)."""
        self.selected = cid
        self._render_panels()

    def seats_changed(self) -> None:
        self.chat.seats_changed()
        if self.viewer.is_soulweaver:
            self._panel_keys.pop("gm", None)
            self._panel_keys.pop("sheet", None)
            self._render_panels()

    def _render_gm(self) -> None:
        self.gm_panel.clear()
        if self.viewer.is_soulweaver:
            with self.gm_panel:
                render_gm_panel(self.table, self.games, self.base_url, self.send)

    def _players(self) -> dict[str, str]:
        if self.games is None or self.table.game_id is None:
            return {}
        return self.games.players(self.table.game_id)

    def _render_decisions(self) -> None:
        seat = self._seat()
        self.decisions.clear()
        self.drawer.set_waiting(sum(1 for d in seat.decisions() if seat.mine(d)))
        with self.decisions:
            for d in seat.decisions():
                mine = seat.mine(d)
                kind = str(d["kind"])
                card = ui.card().classes("w-full p-2 decision " + ("decision-mine" if mine else "decision-wait"))
                with with_data(card, decision_kind=kind):
                    if not mine:
                        who = "the Soulweaver" if d["to"] == SOULWEAVER else d["to"]
                        text = d["prompt"] if kind == "wait" else f"The table waits for {who}: {d['prompt']}"
                        ui.label(text).classes("text-sm")
                        continue
                    ui.label(d["prompt"]).classes("text-sm")
                    i = str(d["id"])
                    if kind == "order":
                        self._order_picker(i, [str(o) for o in d["options"]])
                    elif offered := answers(d):
                        with ui.row().classes("gap-2"):
                            for a in offered:
                                button = ui.button(a.label, on_click=lambda _, c=a.command: self.send(dict(c)))
                                button.props("dense flat" if a.tone == "plain" else "dense")
                                if a.tone != "plain":
                                    button.props["color"] = a.tone
                                if kind in ANSWER_DATA:
                                    with_data(button, **{ANSWER_DATA[kind]: a.key})

    def _order_picker(self, decision_id: str, options: list[str]) -> None:
        names = self._names()
        order: list[str] = []
        label = ui.label("Order: ").classes("text-xs")

        def pick(oid: str) -> None:
            if oid not in order:
                order.append(oid)
            label.set_text("Order: " + ", ".join(names.get(x, x) for x in order))

        with ui.row().classes("gap-1"):
            for oid in options:
                ui.button(names.get(oid, oid), on_click=lambda _, o=oid: pick(o)).props("dense outline")
        ui.button(
            "Use this order",
            on_click=lambda: self.send({"type": "choose_order", "decision": decision_id, "order": list(order)}),
        ).props("dense")

    def _turn_card(self) -> tuple[ui.column, ui.button, ui.column]:
        """The turn panel's card, made once: its body and tools are rebuilt as the turn changes, but its End turn
        button stays the same element, so a click landing while the panel is rebuilt is never lost."""
        if self._turn_parts is None:
            with self.turn_panel, ui.card().classes("w-full p-2 gap-1 turn-panel"):
                body = ui.column().classes("w-full gap-1")
                end = ui.button("End turn", on_click=self._end_turn).props("dense color=primary")
                tools = ui.column().classes("w-full gap-1")
            self._turn_parts = (body, end, tools)
        return self._turn_parts

    async def _end_turn(self) -> None:
        if self._seat().turn_panel().can_end_turn:
            await self.send({"type": "end_turn"})

    def _render_turn(self) -> None:
        panel: TurnPanel = self._seat().turn_panel()
        body, end, tools = self._turn_card()
        body.clear()
        tools.clear()
        end.set_visibility(panel.started and panel.can_end_turn)
        with body:
            if not panel.started:
                ui.label("The fight has not begun.").classes("text-sm")
                if panel.can_begin:
                    ui.button("Begin: roll Priority", on_click=lambda: self.send({"type": "begin"})).props(
                        "dense color=primary"
                    )
                return
            ui.label(f"Round {panel.round}").classes("font-bold text-sm")
            gm = self.viewer.is_soulweaver
            for row in panel.rows:
                with with_data(ui.row().classes("w-full items-center gap-1 no-wrap turn-entry"), entry=row.entry):
                    ui.label(row.text).classes(
                        "text-sm grow " + ("font-bold text-amber-800" if row.current else "text-stone-700")
                    )
                    if gm and row.entry != SOULWEAVER:
                        self._order_buttons(row.entry, row.name)
            for line in panel.economy:
                ui.label(line).classes("text-xs text-stone-600 economy")
        if gm:
            with tools:
                ui.separator()
                self._order_tools(self.table.state.turn.current == SOULWEAVER)

    def _order_candidates(self) -> tuple[tuple[str, str], ...]:
        """The creatures the Soulweaver may add to the turn order: able to act and in it not yet."""
        return order_candidates(self.table)

    def _order_buttons(self, cid: str, name: str) -> None:
        """The Soulweaver's small buttons on one entry of the order: up, down, out."""
        for action, icon, words in (
            ("up", "arrow_upward", f"Move {name} up"),
            ("down", "arrow_downward", f"Move {name} down"),
            ("out", "close", f"Take {name} out of the order"),
        ):
            command: dict[str, Any] = (
                {"type": "leave_order", "creature": cid}
                if action == "out"
                else {"type": "shift_order", "creature": cid, "direction": action}
            )
            button = ui.button(icon=icon, on_click=lambda _, c=command: self.send(c)).props(
                "flat dense round size=xs color=grey-8"
            )
            button.props["aria-label"] = words
            button.props["title"] = words
            with_data(button, order_action=action, creature=cid)

    def _order_tools(self, soulweavers_turn: bool) -> None:
        """The Soulweaver's "Add to the order" picker and "Re-roll Priority" (only in the Soulweaver's turn, when
        the round's turns are over)."""
        candidates = dict(self._order_candidates())
        if candidates:
            with ui.row().classes("w-full items-center gap-1 no-wrap"):
                picker = ui.select(candidates, label="Add to the order").props("dense outlined options-dense")
                picker.classes("grow min-w-40")
                with_data(picker, field="order-add")

                async def add() -> None:
                    if picker.value in candidates:
                        await self.send({"type": "join_order", "creature": picker.value})

                ui.button("Add", on_click=add).props("dense no-caps data-action=order-add")
        reroll = ui.button("Re-roll Priority", on_click=lambda: self.send({"type": "reroll_priority"}))
        reroll.props("dense flat no-caps data-action=reroll-priority")
        if not soulweavers_turn:
            reroll.props("disable")
            reroll.props["title"] = "Priority is rolled again in the Soulweaver's turn, when the round's turns are over"

    def _render_sheet(self) -> None:
        seat = self._seat()
        self.sheet.clear()
        c = seat.creature(self.selected)
        if c is None:
            return
        gm = self.viewer.is_soulweaver
        with self.sheet, ui.card().classes("w-full p-2 gap-1 sheet"):
            status = " · Dead" if c.dead else " · Unconscious" if c.unconscious else ""
            ui.label(f"{c.name} · size {c.size}{status}").classes("font-bold text-sm")
            if (where := self._where_swallowed(c.id)) is not None:
                ui.label(where[:1].upper() + where[1:] + ", off the board").classes(
                    "text-xs text-amber-900 swallowed-in"
                )
            inside = seat.in_stomach(c)
            if inside:
                with ui.row().classes("gap-1 items-center stomach-contents"):
                    ui.label("In its stomach:").classes("text-xs font-bold text-amber-900")
                    for inner in inside:
                        button = ui.button(inner.name, on_click=lambda _, x=inner.id: self._select(x))
                        with_data(button.props("dense flat no-caps size=sm").classes("text-xs"), creature=inner.id)
            with ui.row().classes("gap-1 flex-wrap items-center skills"):
                for skill, tier in sorted(c.skills.items()):
                    if gm:
                        tier_input = ui.number(skill, value=tier, min=0, max=SKILL_TIER_MAX, step=1, precision=0)
                        with_data(tier_input.props("dense outlined").classes("skill-input"), skill=skill).on(
                            "change", lambda e, k=skill: self._edit_skill(c.id, k, e.args)
                        )
                    else:
                        ui.label(f"{skill} {tier}").classes("text-xs skill")
            for pool_name in ("grit", "energy", "resolve"):
                edit = (lambda name, pips, cid=c.id: self._edit(cid, name, pips)) if gm else None
                render_pool(pool_name, getattr(c, pool_name), edit)
            ailments = ", ".join(f"{k} {v}" for k, v in sorted(c.ailments.items()) if v)
            ui.label(f"Ailments: {ailments or 'none'}").classes("text-xs")
            hurt = [p for p in c.parts if p.wounded or p.trauma or p.severed]
            if hurt:
                ui.label("Body").classes("text-xs font-bold mt-1")
                for part in hurt:
                    bits = [
                        f"Wounded {part.wounded}" if part.wounded else "",
                        f"Trauma {part.trauma}" if part.trauma else "",
                        "severed" if part.severed else "",
                    ]
                    ui.label(f"{part.name}: {', '.join(b for b in bits if b)}").classes("text-xs body-part")
            for limb in c.limbs:
                held = c.weapon(limb.holding) if limb.holding else None
                holding = held.name if held else limb.holding
                state_text = f"holds {holding}" if holding else ("in a Hold" if limb.hold_id else "free")
                ui.label(f"{limb.name}: {state_text}").classes("text-xs text-stone-600")
            if c.continuing:
                for cont in c.continuing:
                    ui.label(
                        f"Continuing {cont.element or ''} damage {cont.amount} on the {cont.part.replace('_', ' ')}"
                    ).classes("text-xs text-amber-900")
            if gm:
                render_sheet_controls(c, self._players(), self.send)
                engine = self.editor.engine if self.editor is not None else None
                render_picture_controls(c, engine, self.table.game_id, self.send)

    def _where_swallowed(self, cid: str) -> str | None:
        """ "in the Wyrm's stomach" for a swallowed creature (its swallower as this viewer may know it)."""
        return self._seat().where_swallowed(cid)

    async def _edit(self, cid: str, pool_name: str, pips: int) -> None:
        c = self.table.state.creatures[cid]
        pool = getattr(c, pool_name)
        await self.send(
            {"type": "edit_creature", "creature": cid, "changes": {pool_name: {"max": pool.max, "pips": pips}}}
        )

    async def _edit_skill(self, cid: str, skill: str, value: Any) -> None:
        c = self.table.state.creatures.get(cid)
        if c is None:
            return
        try:
            tier = int(float(value))
        except (TypeError, ValueError):
            ui.notify(f"{skill} must be a whole number", type="warning")
            return
        await self.send({"type": "edit_creature", "creature": cid, "changes": {"skills": {**c.skills, skill: tier}}})

    def _seat_name(self) -> str:
        """This seat's name as the others at the table see it beside its ruler or ping."""
        if self.viewer.is_soulweaver:
            return "Soulweaver"
        return self._players().get(self.viewer.key, self.viewer.name)

    def close(self) -> None:
        self.table.unsubscribe(self)
        self.pointers.close()


def _flush_later(view: TableView) -> asyncio.Task[None]:
    """Flush the page `FLUSH_DELAY` from now, with the other pages waiting then; returns the task."""
    global _waiting_task
    task = _waiting_task
    if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
        _waiting.clear()  # pages of a loop that has ended (a test's)
        task = _waiting_task = background_tasks.create(_flush_waiting(), name="table-view-flush")
    _waiting.append(view)
    return task


async def _flush_waiting() -> None:
    global _waiting_task
    await asyncio.sleep(FLUSH_DELAY)
    views = list(_waiting)
    _waiting.clear()
    _waiting_task = None
    for view in views:
        view._flush_task = None
    for view in views:
        try:
            view._flush()
        except Exception as e:  # one page's failure is its own: the others are still flushed
            core.app.handle_exception(e)
