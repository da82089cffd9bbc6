"""A creature's pools on its sheet, named for what they mean (reference §4.3, seed-004: Pips fill a pool, and a
full pool has its effect): "Grit: 3 of 4 left", with the Injury taken beside it and a bar of what is left, so that
an unhurt creature's Grit never reads like 0 hit points."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import NamedTuple

from nicegui import ui

from vtt.rules.model import Pool
from vtt.web.attrs import with_data


class PoolWords(NamedTuple):
    name: str
    taken: str
    full: str


POOL_WORDS = {
    "grit": PoolWords("Grit", "Injury taken", "Injury fills Grit: with Grit full, the creature falls Unconscious."),
    "energy": PoolWords(
        "Energy", "used", "Costs and Injury beyond a full Grit fill Energy: each Pip past full gives Exhausted."
    ),
    "resolve": PoolWords(
        "Resolve",
        "used",
        "With Resolve full, the only Major Action is Recovery with a DL 12 Zeal roll: each Pip past full gives "
        "Exhausted.",
    ),
}

EditPips = Callable[[str, int], Awaitable[None]]
"""Sets a pool's Pips (the Soulweaver's buttons): the pool's name and its new Pips."""


def pool_text(pool_name: str, pool: Pool) -> str:
    """ "Grit: 3 of 4 left" (what may still fill before the pool is full), or "Grit: none" for a pool of size 0."""
    name = POOL_WORDS[pool_name].name
    if pool.max <= 0:
        return f"{name}: none"
    return f"{name}: {max(0, pool.max - pool.pips)} of {pool.max} left"


def taken_text(pool_name: str, pool: Pool) -> str:
    """ "1 Injury taken", "2 used"."""
    return f"{pool.pips} {POOL_WORDS[pool_name].taken}"


def render_pool(pool_name: str, pool: Pool, edit: EditPips | None) -> None:
    """One pool's row: its words, a bar of what is left, the Pips taken; with `edit`, the Soulweaver's − and +
    (one Pip less or more taken)."""
    words = POOL_WORDS[pool_name]
    left = max(0, pool.max - pool.pips)
    row = ui.row().classes("w-full items-center gap-1 no-wrap pool-row")
    with with_data(row, pool=pool_name, left=left, max=pool.max, pips=pool.pips):
        ui.label(pool_text(pool_name, pool)).classes("text-xs pool-text").props["title"] = words.full
        share = min(100, round(100 * left / pool.max)) if pool.max else 0
        with ui.element("div").classes(
            {"grit": "pool-bar pool-grit", "energy": "pool-bar pool-energy", "resolve": "pool-bar pool-resolve"}[
                pool_name
            ]
        ) as bar:
            ui.element("div").classes("pool-fill").style(f"width: {int(share)}%")
        bar.props["title"] = words.full
        ui.label(taken_text(pool_name, pool)).classes("text-xs text-stone-600 pool-taken")
        if edit is not None:
            less = ui.button("−", on_click=lambda: edit(pool_name, max(0, pool.pips - 1)))
            less.props("dense flat size=sm").classes("pip-button")
            less.props["title"] = f"One Pip less in {words.name}"
            more = ui.button("+", on_click=lambda: edit(pool_name, pool.pips + 1))
            more.props("dense flat size=sm").classes("pip-button")
            more.props["title"] = f"One Pip more in {words.name}"
