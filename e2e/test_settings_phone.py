"""The Settings dialog on a phone (390 by 844): nothing in it is wider than the screen, in every group opened, so
it never scrolls sideways."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import ROOT, NewGame, TableGame, open_as
from vtt.rules.setting_groups import GROUPS
from vtt.rules.settings import TableSettings

ARENA = ROOT / "e2e" / "maps" / "arena.json"
pytestmark = pytest.mark.usefixtures("table_timeouts")

OVERFLOW = """(dialog) => {
  const name = (el) => {
    const setting = el.closest("[data-setting]")?.dataset.setting;
    return `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join(".")}${setting ? " of " + setting : ""}`;
  };
  const edge = (el) => el.getBoundingClientRect().right + parseFloat(getComputedStyle(el).marginRight || "0");
  const width = Math.min(document.documentElement.clientWidth, dialog.getBoundingClientRect().right);
  const wide = [];
  for (const el of [dialog, ...dialog.querySelectorAll("*")]) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.left < -0.5 || box.right > width + 0.5) wide.push(`${name(el)}: ${Math.round(box.right)} > ${width}`);
  }
  for (const area of dialog.querySelectorAll(".q-scrollarea__container")) {
    if (area.scrollWidth <= area.clientWidth + 1) continue;
    const right = area.getBoundingClientRect().left + area.clientWidth;
    const inside = [...area.querySelectorAll("*")].filter((el) => edge(el) > right + 0.5);
    const names = inside.slice(0, 3).map(name).join(", ");
    wide.push(`the list scrolls sideways (${area.scrollWidth} > ${area.clientWidth}): ${names}`);
  }
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) wide.push(`the page ${page.scrollWidth} > ${page.clientWidth}`);
  return wide.slice(0, 12);
}"""


@pytest.fixture
def arena(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    path = tmp_path / "map.json"
    path.write_text(ARENA.read_text())
    with new_game(path, seed=7) as server:
        yield server


def test_the_settings_dialog_fits_a_phone(browser: Browser, arena: TableGame) -> None:
    gm = open_as(browser, arena, "as=soulweaver")
    gm.set_viewport_size({"width": 1280, "height": 800})  # on a phone the button is in the Panels drawer
    gm.locator("[data-action=settings]").click()
    dialog = gm.locator(".settings-dialog")
    expect(dialog).to_be_visible()
    gm.set_viewport_size({"width": 390, "height": 844})
    # a search opens every group with a match (all of them for "e"); cleared, every setting shows, groups open
    finder = dialog.locator("input[data-field=find-setting]")
    finder.fill("e")
    expect(dialog.locator(".q-expansion-item--expanded[data-group]")).to_have_count(len(GROUPS))
    finder.fill("")
    expect(dialog.locator(".q-expansion-item--expanded[data-group]")).to_have_count(len(GROUPS))
    expect(dialog.locator("[data-setting]:visible")).to_have_count(len(TableSettings.model_fields))
    assert dialog.evaluate(OVERFLOW) == []
