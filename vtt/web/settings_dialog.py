"""The Soulweaver's Settings dialog: every table setting (`vtt/rules/settings.py`) under its group
(`vtt/rules/setting_groups.py`), each with a control fitting its type, its rule text and its default. Save sends
the settings changed as one `change_settings` command through the table, which logs it, lets it be undone, and
refuses a bad value in plain words leaving the game as it was. Only the Soulweaver's page offers it; the table
refuses the command from anyone else."""

from __future__ import annotations

import enum
import json
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from annotated_types import Ge, Gt
from nicegui import ui
from nicegui.element import Element

from vtt.rules.model import GameState
from vtt.rules.setting_groups import (
    BEFORE_FIGHT,
    FIXED,
    choice_label,
    grouped,
    label,
    plain_description,
    shown_value,
)
from vtt.rules.settings import TableSettings
from vtt.table.table import Table
from vtt.web.attrs import with_data

Send = Callable[[dict[str, Any]], Awaitable[bool]]
Kind = Literal["switch", "number", "select", "multi", "skill", "skills", "text", "json"]

ELEMENTS = ["earth", "fire", "water", "air"]
"""The four Elements the seeds name, offered for `material_elements` (a table may type others)."""


@dataclass(frozen=True)
class Control:
    """How one setting is edited: the kind of control, its choices (for a select) and its bounds (a number)."""

    kind: Kind
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    whole: bool = True
    optional: bool = False


def _literal_values(annotation: Any) -> tuple[Any, ...] | None:
    if typing.get_origin(annotation) is Literal:
        return typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return tuple(m.value for m in annotation)
    return None


def control_for(name: str) -> Control:
    """The control fitting a setting's type: a switch for on and off, a number with its bounds, a select for a
    fixed set of choices, a multi-select for a list of names, JSON text for a table of values."""
    field = TableSettings.model_fields[name]
    annotation = field.annotation
    args = typing.get_args(annotation)
    optional = type(None) in args
    if optional:
        (annotation,) = [a for a in args if a is not type(None)]
    minimum: float | None = None
    for meta in field.metadata:
        if isinstance(meta, Ge):
            minimum = float(meta.ge)  # type: ignore[arg-type]
        elif isinstance(meta, Gt):
            minimum = float(meta.gt)  # type: ignore[arg-type]
    if annotation is bool:
        return Control("switch")
    if annotation in (int, float):
        return Control("number", minimum=minimum, whole=annotation is int, optional=optional)
    if (values := _literal_values(annotation)) is not None:
        return Control("select", choices=values)
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        if (values := _literal_values(item)) is not None:
            return Control("multi", choices=values)
        if item is str:
            return Control("skills" if name.endswith(("_skills", "_defenses")) else "multi")
    if annotation is str:
        return Control("skill" if name.endswith(("_skill", "_defense")) else "text")
    return Control("json", optional=optional)


def known_skills(state: GameState) -> list[str]:
    """Skill names to offer: every skill a setting names now or by default, and every skill a creature has."""
    names: set[str] = set()
    for settings in (TableSettings(), state.settings):
        for name, value in settings.model_dump().items():
            if control_for(name).kind == "skill":
                names.add(str(value))
            elif control_for(name).kind == "skills":
                names.update(str(v) for v in value)
    for c in state.creatures.values():
        names.update(c.skills)
    return sorted(names)


def _default_note(name: str, value: Any, default: Any) -> str:
    if value == default:
        return "default"
    return f"changed · default: {shown_value(getattr(TableSettings(), name))}"


def read_control(control: Control, element: Any) -> Any:
    """The value a control holds, as the command sends it; ValueError with plain words when it cannot be read."""
    value = element.value
    if control.kind == "json":
        text = str(value or "").strip()
        if not text:
            if control.optional:
                return None
            raise ValueError("is empty: write its value, or reset it to the default")
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"is not written as JSON (line {exc.lineno}, column {exc.colno})") from None
    if control.kind == "number":
        if value is None or value == "":
            if control.optional:
                return None
            raise ValueError("needs a number")
        number = float(value)
        if control.whole:
            if not number.is_integer():
                raise ValueError("must be a whole number")
            return int(number)
        return number
    if control.kind in ("multi", "skills"):
        return list(value or [])
    return value


def _json_text(value: Any) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False)


def _make_control(name: str, control: Control, value: Any, skills: list[str]) -> Any:
    """The NiceGUI element editing one setting, holding `value` (its JSON form)."""
    if control.kind == "switch":
        return ui.switch(value=bool(value)).props("dense")
    if control.kind == "number":
        number = ui.number(value=value, min=control.minimum, step=1 if control.whole else 0.5)
        if control.whole:
            number.props["precision"] = 0
        if control.optional:
            number.props["clearable"] = True
            number.props["placeholder"] = "not set (derived)"
        return number.props("dense outlined").classes("w-44 max-w-full")
    if control.kind == "select":
        options = {v: choice_label(v) for v in control.choices}
        select = ui.select(options, value=value).props("dense outlined options-dense").classes("w-72 max-w-full")
        if name in FIXED:
            select.disable()
        return select
    if control.kind in ("multi", "skills"):
        choices = list(control.choices) or (skills if control.kind == "skills" else ELEMENTS)
        options = {
            v: choice_label(v) if control.choices else v for v in [*choices, *(v for v in value if v not in choices)]
        }
        typed: dict[str, Any] = {} if control.choices else {"new_value_mode": "add-unique", "with_input": True}
        several = ui.select(options, value=list(value), multiple=True, **typed)
        return several.props("dense outlined options-dense use-chips").classes("w-full max-w-xl")
    if control.kind == "skill":
        options = {s: s for s in [*skills, *([value] if value not in skills else [])]}
        skill = ui.select(options, value=value, new_value_mode="add-unique", with_input=True)
        return skill.props("dense outlined options-dense").classes("w-72 max-w-full")
    if control.kind == "text":
        return ui.input(value=str(value)).props("dense outlined").classes("w-72 max-w-full")
    element = ui.textarea(value=_json_text(value)).props("dense outlined autogrow").classes("w-full text-xs")
    element.props["placeholder"] = "empty: not set (the rules' own)"
    return element


@dataclass
class _Row:
    name: str
    control: Control
    element: Any
    block: Element
    note: ui.label


@dataclass
class _Group:
    """One group of the list; its rows are built the first time it opens (or a search finds something in it)."""

    expansion: ui.expansion
    names: list[str]
    built: bool = False


def _words(name: str) -> str:
    """What the finder searches in a setting: its name, its plain name and its rule text."""
    return f"{name} {label(name)} {plain_description(name)}".lower()


def open_settings_dialog(table: Table, send: Send) -> None:
    """The dialog over every table setting, built from the settings as they are now: every group's heading, the
    rows of the groups that are open."""
    current = table.state.settings.model_dump(mode="json")
    defaults = TableSettings().model_dump(mode="json")
    words = {name: _words(name) for name in current}
    skills: list[str] = []
    rows: dict[str, _Row] = {}
    groups: list[_Group] = []
    # Under the page's content, not the Soulweaver's panel: the panel is redrawn whenever the game changes.
    with (
        ui.context.client.content,
        ui.dialog() as dialog,
        ui.card().classes("p-3 gap-2 no-wrap settings-dialog").style("width: 760px; max-width: 96vw"),
    ):
        dialog.props("persistent")
        with ui.row().classes("w-full items-center gap-2 no-wrap"):
            ui.label("Table settings").classes("text-lg font-bold grow")
            find = ui.input(placeholder="Find a setting").props("dense outlined clearable data-field=find-setting")
            find.classes("w-48")
        ui.label(
            "Each setting settles a rule the seeds leave open. Saving changes them for everyone at once; it is "
            "logged, and Undo takes it back."
        ).classes("text-xs text-stone-600")

        def found() -> str:
            return str(find.value or "").strip().lower()

        def build(group: _Group) -> None:
            if group.built:
                return
            group.built = True
            if not skills:
                skills.extend(known_skills(table.state))
            sought = found()
            with group.expansion:
                for name in group.names:
                    rows[name] = _setting_row(name, current[name], defaults[name], skills)
                    if sought and sought not in words[name]:
                        rows[name].block.set_visibility(False)

        with ui.scroll_area().classes("settings-list").style("height: min(60vh, 640px)") as scroll:
            # Quasar sizes the scrolled content to its widest child: held to the dialog's width, nothing in it
            # is wider than a phone's screen and it never scrolls sideways.
            scroll.props["content-style"] = {"width": "100%"}
            scroll.props["content-active-style"] = {"width": "100%"}
            for index, (heading, names) in enumerate(grouped().items()):
                expansion = ui.expansion(heading, value=index == 0).props("dense header-class=font-bold")
                expansion.classes("w-full settings-group")
                with_data(expansion, group=heading)
                group = _Group(expansion, names)
                groups.append(group)
                expansion.on_value_change(lambda e, group=group: build(group) if e.value else None)
                if index == 0:
                    build(group)

        def filter_rows() -> None:
            sought = found()
            for group in groups:
                shown = [n for n in group.names if not sought or sought in words[n]]
                if sought and shown:
                    build(group)
                for n in group.names:
                    if n in rows:
                        rows[n].block.set_visibility(n in shown)
                # A group stays in the list (greyed when nothing in it matches): Quasar cannot open a hidden one.
                group.expansion.set_enabled(bool(shown))
                if sought:
                    group.expansion.set_value(bool(shown))
            scroll.scroll_to(pixels=0)

        find.on_value_change(filter_rows)

        async def save() -> None:
            # A setting whose group was never opened still holds its value: only the built rows can have changed.
            changes: dict[str, Any] = {}
            for name in (n for group in groups for n in group.names if n in rows):
                if name in FIXED:
                    continue
                try:
                    value = read_control(rows[name].control, rows[name].element)
                except ValueError as exc:
                    ui.notify(f"{label(name)} {exc}", type="warning", position="top")
                    return
                if value != current[name]:
                    changes[name] = value
            if not changes:
                ui.notify("No setting was changed", position="top")
                dialog.close()
                return
            if await send({"type": "change_settings", "changes": changes}):
                dialog.close()

        with ui.row().classes("gap-2 justify-end w-full"):
            ui.button("Cancel", on_click=dialog.close).props("flat dense data-action=cancel-settings")
            ui.button("Save", on_click=save).props("color=primary dense data-action=save-settings")
    dialog.on_value_change(lambda e: None if e.value else dialog.delete())
    dialog.open()


def _setting_row(name: str, value: Any, default: Any, skills: list[str]) -> _Row:
    control = control_for(name)
    description = plain_description(name)
    with ui.column().classes("w-full gap-1 q-py-sm setting") as block:
        with_data(block, setting=name)
        with ui.row().classes("w-full items-center gap-2"):
            ui.label(label(name)).classes("text-sm font-bold setting-name")
            note = ui.label(_default_note(name, value, default)).classes(
                "text-xs rounded-borders q-px-xs bg-grey-3 text-grey-9 setting-default"
            )
            if name in FIXED:
                ui.label("fixed for this game").classes(
                    "text-xs rounded-borders q-px-xs bg-grey-4 text-grey-10 setting-when"
                ).tooltip("Its map was drawn for it: choose it when making a game")
            elif name in BEFORE_FIGHT:
                ui.label("before the fight").classes(
                    "text-xs rounded-borders q-px-xs bg-light-blue-1 text-light-blue-10 setting-when"
                ).tooltip("Only makes sense before the fight begins")
        element = _make_control(name, control, value, skills)
        with_data(element, field=name)
        ui.label(description).classes("text-xs text-stone-600 setting-rule")
    row = _Row(name, control, element, block, note)

    def changed() -> None:
        try:
            now = read_control(control, element)
        except ValueError:
            now = None
        note.set_text(_default_note(name, now, default))
        note.classes(
            replace="text-xs rounded-borders q-px-xs bg-amber-3 text-amber-10 setting-default setting-changed"
            if now != default
            else "text-xs rounded-borders q-px-xs bg-grey-3 text-grey-9 setting-default"
        )

    element.on_value_change(changed)
    changed()
    return row
