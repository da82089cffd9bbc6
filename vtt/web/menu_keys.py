"""The token menu's keys (`static/menu_keys.js`): number keys pick rows, Enter confirms a dialog."""

from __future__ import annotations

from pathlib import Path

from nicegui import ui

SCRIPT = (Path(__file__).resolve().parents[2] / "static" / "menu_keys.js").read_text()


def install_menu_keys() -> None:
    """Add the script to the current page (it installs its listener once)."""
    ui.add_body_html(f"<script>{SCRIPT}</script>")
