"""A picture on a library creature (issue 12 item 5): the Soulweaver uploads it in the library form (checked like
the sheet's: a file that is not an image is refused in plain words), saves the creature, and the token placed from
the library in the map editor draws that picture, served by its hash."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, FilePayload, Page, expect

from e2e.conftest import ROOT, NewGame, TableGame, open_page, wait_ready
from e2e.helpers import cell_xy
from e2e.test_token_picture import _png

ARENA = ROOT / "e2e" / "maps" / "arena.json"
FREE = (12, 2)
pytestmark = pytest.mark.usefixtures("table_timeouts")


@pytest.fixture
def arena(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    data: dict[str, Any] = json.loads(ARENA.read_text())
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data))
    with new_game(path, seed=7) as server:
        yield server


def _upload(page: Page, name: str, mime: str, data: bytes) -> None:
    page.locator(".creature-form [data-field=picture-upload] input[type=file]").set_input_files(
        files=[FilePayload(name=name, mimeType=mime, buffer=data)]
    )


def test_a_library_creatures_picture_goes_onto_the_token_placed_from_the_library(
    browser: Browser, arena: TableGame
) -> None:
    picture = _png(12, 12)
    href = f"/api/pictures/{hashlib.sha256(picture).hexdigest()}"
    page = open_page(browser, arena.url + arena.seat("soulweaver"), "[data-token-id]")  # holds the seat
    page.goto(arena.url + "/library")
    wait_ready(page)
    page.locator("input[data-field=name]").fill("Painted Bat")

    _upload(page, "bat.png", "image/png", b"<svg onload=alert(1)></svg>")
    expect(page.get_by_text("That file is not a PNG, JPEG or WebP image.")).to_be_visible()
    expect(page.locator("[data-field=picture-preview]")).to_have_count(0)
    _upload(page, "bat.png", "image/png", picture)
    preview = page.locator("[data-field=picture-preview] img")
    expect(preview).to_have_attribute("src", href)
    page.wait_for_function("(img) => img.complete && img.naturalWidth === 12", arg=preview.element_handle())
    expect(page.locator(".creature-form [data-action=remove-picture]")).to_be_visible()
    page.locator("[data-action=save-creature]").click()
    expect(page.locator('.library-item[data-key="user:painted_bat"]')).to_have_count(1)

    page.goto(arena.url + arena.seat("soulweaver"))
    wait_ready(page)
    page.wait_for_selector("[data-token-id]")
    page.locator("[data-action=edit-map]").click()
    page.locator(".library-panel").get_by_text("Place creatures").click()
    page.locator("[data-field=library-entry]").click()
    page.get_by_role("option", name="Painted Bat (yours)", exact=True).click()
    expect(page.locator(".library-hint")).to_contain_text("Click a space to place a Painted Bat")
    page.mouse.click(*cell_xy(page, FREE))
    expect(page.locator(".roll-log")).to_contain_text("Painted Bat")
    image = page.locator('[data-token-id="painted_bat"] image[data-role=picture]')
    expect(image).to_have_count(1)
    expect(image).to_have_attribute("href", href)
    served = page.request.get(arena.url + href)
    assert served.status == 200 and served.body() == picture
