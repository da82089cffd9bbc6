"""The table settings as a Markdown table (docs/settings.md): each setting, its default and the reasoning written
next to it in `vtt/rules/settings.py`. `python -m vtt.settings_doc > docs/settings.md` writes it again."""

from __future__ import annotations

import enum
import json

from vtt.rules.settings import TableSettings

HEADER = """# Table settings

Every assumption the rules leave open is a table setting (`vtt/rules/settings.py`), never a constant in a rule. The
Soulweaver changes them per table (`change_settings`); a new table starts from these defaults. Each row gives the
reasoning written next to the setting (§ numbers are sections of the rules digest, gaps its numbered gaps). This
file is made from the code: `python -m vtt.settings_doc > docs/settings.md`.

| setting | default | what it settles, and why this default |
|---|---|---|
"""


def _shown(value: object) -> str:
    if isinstance(value, enum.Enum):
        value = value.value
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text.replace("|", "\\|")


def settings_markdown() -> str:
    defaults = TableSettings()
    rows = []
    for name, field in TableSettings.model_fields.items():
        reason = " ".join((field.description or "").split()).replace("|", "\\|")
        rows.append(f"| `{name}` | `{_shown(getattr(defaults, name))}` | {reason} |")
    return HEADER + "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(settings_markdown(), end="")
