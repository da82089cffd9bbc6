"""docs/settings.md lists every table setting with its default and reasoning, made from the code."""

from __future__ import annotations

from pathlib import Path

from vtt.rules.settings import TableSettings
from vtt.settings_doc import settings_markdown

DOC = Path(__file__).resolve().parents[1] / "docs" / "settings.md"


def test_the_settings_page_is_the_one_the_code_makes() -> None:
    assert DOC.read_text(encoding="utf-8") == settings_markdown(), (
        "docs/settings.md is out of date: python -m vtt.settings_doc > docs/settings.md"
    )


def test_every_setting_has_a_row_with_its_reasoning() -> None:
    text = settings_markdown()
    for name, field in TableSettings.model_fields.items():
        assert f"| `{name}` |" in text
        assert field.description, f"{name} has no reasoning next to it"
