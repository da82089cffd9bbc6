"""The table settings as Markdown (docs/settings.md): one section per group of the Settings dialog
(`vtt.rules.setting_groups`), each setting with its default and the reasoning written next to it in
`vtt/rules/settings.py`. `python -m vtt.settings_doc > docs/settings.md` writes it again."""

from __future__ import annotations

import enum
import json

from vtt.rules.setting_groups import BEFORE_FIGHT, grouped, label
from vtt.rules.settings import TableSettings

HEADER = """# Table settings

Every assumption the rules leave open is a table setting (`vtt/rules/settings.py`), never a constant in a rule. The
Soulweaver changes them per table in the Settings dialog of the Soulweaver's tools (each change is one logged,
undoable command); a new table starts from these defaults. Each row gives the reasoning written next to the setting
(§ numbers are sections of the rules digest, gaps its numbered gaps); settings marked *before the fight* only make
sense before the fight begins. The sections are the dialog's groups (`vtt/rules/setting_groups.py`). This file is
made from the code: `python -m vtt.settings_doc > docs/settings.md`.
"""

TABLE_HEAD = """| setting | name shown | default | what it settles, and why this default |
|---|---|---|---|
"""


def _shown(value: object) -> str:
    if isinstance(value, enum.Enum):
        value = value.value
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text.replace("|", "\\|")


def settings_markdown() -> str:
    defaults = TableSettings()
    sections = []
    for group, names in grouped().items():
        rows = []
        for name in names:
            field = TableSettings.model_fields[name]
            reason = " ".join((field.description or "").split()).replace("|", "\\|")
            when = " *before the fight*" if name in BEFORE_FIGHT else ""
            shown = label(name).replace("|", "\\|")
            rows.append(f"| `{name}` | {shown}{when} | `{_shown(getattr(defaults, name))}` | {reason} |")
        sections.append(f"## {group}\n\n{TABLE_HEAD}" + "\n".join(rows) + "\n")
    return HEADER + "\n" + "\n".join(sections)


if __name__ == "__main__":
    print(settings_markdown(), end="")
