"""The token menu's keys (`static/menu_keys.js`): number keys pick rows, Enter confirms a dialog."""

from __future__ import annotations

from nicegui import ui


class MenuKeys(ui.element, component="../../static/menu_keys.js"):
    """A hidden element listening to the page's keys while it is on the page."""
