"""The side panel as a bottom sheet on a phone or a portrait tablet: the map takes the whole screen, and a button
that is always on screen opens the panels (turn, prompts, sheet, chat, roll log) over the lower part of the map and
closes them again. On a wider screen the panels sit beside the map and the button is not shown (``table.css``:
the layout switches by the window's width alone, so the page never asks the browser its size)."""

from __future__ import annotations

from nicegui import ui

from vtt.web.attrs import with_data

OPEN_TEXT = "Panels"
CLOSE_TEXT = "Map"


class PanelDrawer:
    """The open-and-close button of the side panel; `layout` is the element holding the map and the panel."""

    def __init__(self, layout: ui.element) -> None:
        self.layout = layout
        self.open = False
        self.waiting = 0
        self.button = ui.button(OPEN_TEXT, icon="view_sidebar", on_click=self.toggle)
        self.button.props("no-caps push color=brown-10 text-color=white")
        self.button.classes("panel-toggle")
        with_data(self.button, role="panel-toggle", open="false")
        self.button.props["aria-label"] = "Open the panels: turn, sheet, chat and roll log"
        with self.button:
            self.badge = ui.badge("", color="negative").props("floating").classes("panel-waiting")
        self.badge.set_visibility(False)

    def toggle(self) -> None:
        self.set_open(not self.open)

    def set_open(self, open_: bool) -> None:
        self.open = open_
        if open_:
            self.layout.classes(add="panels-open")
        else:
            self.layout.classes(remove="panels-open")
        self.button.set_text(CLOSE_TEXT if open_ else OPEN_TEXT)
        self.button.props["icon"] = "map" if open_ else "view_sidebar"
        self.button.props["data-open"] = "true" if open_ else "false"
        self.button.props["aria-label"] = (
            "Close the panels and show the whole map" if open_ else "Open the panels: turn, sheet, chat and roll log"
        )
        self.button.update()
        self._show_badge()

    def set_waiting(self, count: int) -> None:
        """How many decisions wait for this viewer: shown on the button while the panels are closed."""
        self.waiting = count
        self._show_badge()

    def _show_badge(self) -> None:
        self.badge.set_text(str(self.waiting))
        self.badge.set_visibility(self.waiting > 0 and not self.open)
