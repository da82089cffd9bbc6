"""The creature library page (`/library`): the starter library and the creatures users made, and a form that makes
or edits a creature.

The form covers every part of a creature: species, size, skills with their Tiers, the Grit, Energy and Resolve
pools, the Severe Threshold, Reductions and armour, immunities and vulnerabilities, the body plan (limbs with their
distals, body parts), weapons and which limb holds which, and the Spells and Talents it knows. It only gathers what
was typed: `vtt.library.validate_creature` checks it, and each problem is shown next to the field it names
(`skills.Martial: ...` under the Martial skill). Nothing is stored until the whole creature is good. Creatures made
here are stored server-wide (`library_creature` table) and offered in the map editor next to the starter library.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from nicegui import ui
from sqlalchemy.engine import Engine

from vtt.library import creature_library, validate_creature, weapon_library
from vtt.rules.abilities import LIBRARY as ABILITIES
from vtt.rules.model import humanoid_limbs, humanoid_parts
from vtt.store import db
from vtt.store.pictures import PictureError, picture_path
from vtt.web.attrs import with_data
from vtt.web.map_editor import USER_PREFIX, LibraryEntry, library_entries, whole_number
from vtt.web.picture_controls import render_picture_buttons, store_library_picture

SKILLS = ("Martial", "Athletics", "Elude", "Endure", "Nimble", "Guile", "Observe", "Poise", "Magic", "Zeal")
DAMAGE_TYPES = ("physical", "magical", "fire", "water", "earth", "air", "heat", "cold", "acid", "lightning")
LIMB_KINDS = ("arm", "leg", "tail", "tentacle", "wing", "head", "other")
STRIKE_TYPES = {"B": "Bashing", "C": "Chopping", "F": "Flowing", "M": "Mystical", "S": "Stabbing"}
GENERAL = ""
"""Where problems that name no field of the form are shown: above the Save button."""


def route_errors(errors: Iterable[str], keys: Iterable[str]) -> dict[str, list[str]]:
    """Each `path: message` problem under the longest field key that its path starts with (`limbs[2]` takes
    `limbs[2].kind: ...`, `skills.Martial` takes `skills.Martial: ...`); the others under `GENERAL`."""
    known = sorted(set(keys), key=len, reverse=True)
    out: dict[str, list[str]] = {}
    for error in errors:
        path, sep, message = error.partition(": ")
        if not sep:
            path, message = "", error
        where = next(
            (k for k in known if k and (path == k or path.startswith(k + ".") or path.startswith(k + "["))), GENERAL
        )
        out.setdefault(where, []).append(error if where == GENERAL else message)
    return out


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:40] or "creature"


def user_key(name: str, taken: Iterable[str], current: str | None = None) -> str:
    """The library key for a user's creature called `name`: `user:<slug>`, made unique among `taken` (its own
    `current` key is kept when it is being edited)."""
    if current is not None:
        return current
    used = set(taken)
    base = USER_PREFIX + slug(name)
    key, n = base, 2
    while key in used:
        key, n = f"{base}_{n}", n + 1
    return key


def _blank_entry() -> dict[str, Any]:
    return {
        "name": "",
        "species": "",
        "size": 0,
        "color": "#7a5c3e",
        "skills": {"Martial": 1, "Elude": 1, "Endure": 1},
        "grit": {"max": 6},
        "energy": {"max": 6},
        "resolve": {"max": 6},
        "limbs": [limb.model_dump(mode="json", exclude_defaults=True) for limb in humanoid_limbs()],
        "parts": [part.model_dump(mode="json", exclude_defaults=True) for part in humanoid_parts()],
    }


class CreatureForm:
    """The form: every field of a creature entry, with a place for each field's problems."""

    def __init__(
        self, engine: Engine, saved: Callable[[str], None], may_edit: Callable[[], bool] = lambda: True
    ) -> None:
        self.engine = engine
        self.saved = saved
        self.may_edit = may_edit
        """Asked on every save and delete, on the server: only a Soulweaver changes the server's library."""
        self.key: str | None = None
        """The user entry being edited; None for a new one."""
        self.entry: dict[str, Any] = _blank_entry()
        self.errors: list[str] = []
        self.checked = False
        self._slots: dict[str, ui.label] = {}
        self._fields: dict[str, Any] = {}
        self.skills: list[dict[str, Any]] = []
        self.reductions: list[dict[str, Any]] = []
        self.limbs: list[dict[str, Any]] = []
        self.parts: list[dict[str, Any]] = []
        self.grip: dict[str, str] = {}
        self.custom_weapons: dict[str, dict[str, Any]] = {}
        with ui.card().classes("w-full p-4 gap-3 creature-form"):
            self.title = ui.label("New creature").classes("text-xl font-bold text-stone-800 form-title")
            self.body = ui.column().classes("w-full gap-3")
        self.load(None, _blank_entry())

    # ---- loading an entry --------------------------------------------------------------------------------------

    def load(self, key: str | None, entry: dict[str, Any], title: str | None = None) -> None:
        self.key = key
        self.entry = copy.deepcopy(entry)
        self.errors = []
        self.checked = False
        e = self.entry
        self.skills = [{"name": k, "tier": v} for k, v in dict(e.get("skills") or {}).items()]
        self.reductions = [{"type": k, "amount": v} for k, v in dict(e.get("reductions") or {}).items()]
        limbs = e.get("limbs")
        parts = e.get("parts")
        self.limbs = copy.deepcopy(
            limbs
            if isinstance(limbs, list)
            else [limb.model_dump(mode="json", exclude_defaults=True) for limb in humanoid_limbs()]
        )
        self.parts = copy.deepcopy(
            parts
            if isinstance(parts, list)
            else [part.model_dump(mode="json", exclude_defaults=True) for part in humanoid_parts()]
        )
        self.grip = {str(k): str(v) for k, v in dict(e.get("grip") or {}).items()}
        weapons = e.get("weapons") or []
        self.custom_weapons = {str(w.get("id")): w for w in weapons if isinstance(w, dict)}
        self.title.set_text(title or (f"Edit {e.get('name')}" if key else "New creature"))
        self._render()

    def _render(self) -> None:
        self.body.clear()
        self._slots = {}
        self._fields = {}
        e = self.entry
        with self.body:
            with ui.row().classes("w-full gap-3 items-start"):
                self._text("name", "Name", e.get("name", "")).classes("grow")
                self._text("species", "Species", e.get("species") or "").classes("w-48")
                self._num("size", "Size", e.get("size", 0)).classes("w-24")
                with ui.column().classes("gap-0"):
                    self._fields["color"] = ui.color_input("Colour", value=str(e.get("color") or "#7a5c3e")).props(
                        "dense outlined data-field=color"
                    )
                    self._slot("color")
            with ui.row().classes("w-full gap-3 items-center no-wrap"):
                description = "Description (a line for the library list)"
                self._text("description", description, e.get("description", "")).classes("grow min-w-0")
                with ui.column().classes("gap-0 shrink-0"):
                    self._picture_section()
                    self._slot("picture")
            self._section("Skills and their Tiers", self._skills_section)
            with ui.row().classes("w-full gap-3 items-start"):
                for pool in ("grit", "energy", "resolve"):
                    value = dict(e.get(pool) or {}).get("max", 6)
                    self._num(f"{pool}.max", f"{pool.title()} Pool", value).classes("w-32")
                self._num("severe_threshold", "Severe Threshold", e.get("severe_threshold"), clearable=True).classes(
                    "w-36"
                )
                self._num("movement_pool", "Movement Pool", e.get("movement_pool"), clearable=True).classes("w-36")
                self._num("bulk", "Bulk", e.get("bulk", 0)).classes("w-24")
            ui.label(
                "Empty Severe Threshold: the table's rule (the Endure Tier); empty Movement Pool: the table's."
            ).classes("text-xs text-stone-500 -mt-2")
            self._section("Damage: armour, Reductions, immunities, vulnerabilities", self._damage_section)
            self._section("Body plan: limbs (with claws or fangs) and body parts", self._body_section)
            self._section("Weapons and what holds them", self._weapons_section)
            with ui.column().classes("w-full gap-0"):
                self._fields["abilities"] = (
                    ui.select(
                        {k: f"{a.name} ({a.kind})" for k, a in ABILITIES.items()},
                        value=[a for a in e.get("abilities") or [] if isinstance(a, str)],
                        multiple=True,
                        label="Spells and Talents",
                        on_change=self._changed,
                    )
                    .props("dense outlined use-chips data-field=abilities")
                    .classes("w-full")
                )
                self._slot("abilities")
            self._slot(GENERAL).classes("text-sm")
            with ui.row().classes("gap-2"):
                ui.button("Save to the library", on_click=self.save).props("color=primary data-action=save-creature")
                ui.button("Check", on_click=self.check).props("outline data-action=check-creature")
                if self.key is not None:
                    ui.button("Delete", on_click=self.delete).props("flat color=negative data-action=delete-creature")
        self._show_errors()

    # ---- field helpers -------------------------------------------------------------------------------------

    def _slot(self, key: str) -> ui.label:
        label = with_data(ui.label("").classes("text-xs text-red-700 field-error"), error_for=key)
        label.set_visibility(False)
        self._slots[key] = label
        return label

    def _text(self, key: str, label: str, value: Any) -> ui.column:
        """A text field and the place for its problems, in a column the caller sizes."""
        with ui.column().classes("gap-0") as column:
            field = ui.input(label, value=str(value or ""), on_change=self._changed).props("dense outlined")
            self._fields[key] = with_data(field, field=key).classes("w-full")
            self._slot(key)
        return column

    def _num(self, key: str, label: str, value: Any, clearable: bool = False) -> ui.column:
        """A number field and the place for its problems, in a column the caller sizes."""
        with ui.column().classes("gap-0") as column:
            field = ui.number(label, value=value, on_change=self._changed).props("dense outlined")
            if clearable:
                field.props("clearable")
            self._fields[key] = with_data(field, field=key).classes("w-full")
            self._slot(key)
        return column

    @contextmanager
    def _row(self, slot: str) -> Iterator[ui.row]:
        """A row of fields with the place for its problems under it."""
        with ui.column().classes("gap-0"):
            with ui.row().classes("gap-1 items-center no-wrap") as row:
                yield row
            self._slot(slot)

    def _section(self, title: str, body: Callable[[], None]) -> None:
        with ui.column().classes("w-full gap-1 form-section"):
            ui.label(title).classes("text-sm font-bold text-stone-700")
            body()

    def _row_input(self, row: dict[str, Any], key: str, label: str, field: str) -> ui.input:
        def set_value(e: Any) -> None:
            row[key] = e.value
            self._changed()

        element = ui.input(label, value=str(row.get(key) or ""), on_change=set_value).props("dense outlined")
        return with_data(element, field=field)

    def _row_number(self, row: dict[str, Any], key: str, label: str, field: str) -> ui.number:
        def set_value(e: Any) -> None:
            row[key] = whole_number(e.value)
            self._changed()

        return with_data(ui.number(label, value=row.get(key), on_change=set_value).props("dense outlined"), field=field)

    # ---- the token picture ---------------------------------------------------------------------------------

    @ui.refreshable_method
    def _picture_section(self) -> None:
        """The token picture (checked and stored like the sheet's) with its upload and remove buttons."""
        current = self.entry.get("picture")
        digest = current if isinstance(current, str) else None
        with ui.row().classes("gap-2 items-center no-wrap library-picture"):
            if digest is not None:
                try:
                    source = picture_path(digest)
                except ValueError:
                    source = None
                if source is not None:
                    image = (
                        ui.image(source)
                        .classes("rounded-full border border-stone-400")
                        .style("width: 40px; height: 40px")
                    )
                    with_data(image.props("fit=cover"), field="picture-preview")
            render_picture_buttons(digest, self._store_picture, self._set_picture)

    async def _store_picture(self, data: bytes) -> str:
        if not self.may_edit():
            raise PictureError(READ_ONLY)
        return await store_library_picture(self.engine, data)

    async def _set_picture(self, digest: str | None) -> None:
        if digest is None:
            self.entry.pop("picture", None)
        else:
            self.entry["picture"] = digest
        self._picture_section.refresh()
        self._changed()

    # ---- sections with rows --------------------------------------------------------------------------------

    @ui.refreshable_method
    def _skills_section(self) -> None:
        with ui.row().classes("w-full gap-2 flex-wrap items-start skills-rows"):
            for i, row in enumerate(self.skills):
                name = str(row.get("name") or "")
                with self._row(f"skills.{name}" if name else f"skills[{i}]") as row_element:
                    row_element.classes("skill-row")
                    options = sorted({*SKILLS, name} - {""})

                    def set_name(e: Any, r: dict[str, Any] = row) -> None:
                        r["name"] = e.value or ""
                        self._changed()

                    select = ui.select(
                        options, value=name or None, with_input=True, new_value_mode="add-unique", on_change=set_name
                    )
                    with_data(select.props("dense outlined").classes("w-36"), field=f"skill-name-{i}")
                    self._row_number(row, "tier", "Tier", f"skill-tier-{i}").classes("w-20")
                    ui.button(
                        icon="close", on_click=lambda _, j=i: self._drop(self.skills, j, self._skills_section)
                    ).props("dense flat round size=sm")
            ui.button("Add a skill", icon="add", on_click=self._add_skill).props(
                "dense flat no-caps data-action=add-skill"
            )
        self._show_errors()

    def _add_skill(self) -> None:
        have = {str(r.get("name")) for r in self.skills}
        name = next((s for s in SKILLS if s not in have), "")
        self.skills.append({"name": name, "tier": 1})
        self._skills_section.refresh()

    def _drop(self, rows: list[dict[str, Any]], index: int, section: Any) -> None:
        if 0 <= index < len(rows):
            rows.pop(index)
        section.refresh()
        self._changed()

    @ui.refreshable_method
    def _damage_section(self) -> None:
        e = self.entry
        with ui.row().classes("w-full gap-3 items-start"):
            self._num("armor_reduction", "Armour (physical Reduction)", e.get("armor_reduction", 0)).classes("w-56")
            for key, label in (("immunities", "Immune to"), ("vulnerabilities", "Vulnerable to")):
                with ui.column().classes("gap-0 grow"):
                    values = [v for v in e.get(key) or [] if isinstance(v, str)]
                    self._fields[key] = (
                        ui.select(
                            sorted({*DAMAGE_TYPES, *values}),
                            value=values,
                            multiple=True,
                            label=label,
                            new_value_mode="add-unique",
                            on_change=self._changed,
                        )
                        .props("dense outlined use-chips use-input")
                        .classes("w-full min-w-40")
                    )
                    with_data(self._fields[key], field=key)
                    self._slot(key)
        ui.label("Reductions by damage type").classes("text-xs text-stone-600")
        with ui.row().classes("w-full gap-2 flex-wrap items-start"):
            for i, row in enumerate(self.reductions):
                kind = str(row.get("type") or "")
                with self._row(f"reductions.{kind}" if kind else f"reductions[{i}]") as row_element:
                    row_element.classes("reduction-row")

                    def set_type(ev: Any, r: dict[str, Any] = row) -> None:
                        r["type"] = ev.value or ""
                        self._changed()

                    kinds = ui.select(
                        sorted({*DAMAGE_TYPES, kind} - {""}),
                        value=kind or None,
                        with_input=True,
                        new_value_mode="add-unique",
                        on_change=set_type,
                    )
                    with_data(kinds.props("dense outlined").classes("w-32"), field=f"reduction-type-{i}")
                    self._row_number(row, "amount", "Reduction", f"reduction-amount-{i}").classes("w-24")
                    ui.button(
                        icon="close", on_click=lambda _, j=i: self._drop(self.reductions, j, self._damage_section)
                    ).props("dense flat round size=sm")
            ui.button("Add a Reduction", icon="add", on_click=self._add_reduction).props("dense flat no-caps")
        self._show_errors()

    def _add_reduction(self) -> None:
        have = {str(r.get("type")) for r in self.reductions}
        self.reductions.append({"type": next((t for t in DAMAGE_TYPES if t not in have), ""), "amount": 1})
        self._damage_section.refresh()

    @ui.refreshable_method
    def _body_section(self) -> None:
        plans = {"": "Humanoid (two arms, two legs)"} | {
            eid: f"Like the {entry.get('name', eid)}" for eid, entry in creature_library().items() if "limbs" in entry
        }
        ui.select(plans, value=None, label="Start from a body plan", on_change=self._body_plan).props(
            "dense outlined clearable data-field=body-plan"
        ).classes("w-72")
        ui.label("Limbs").classes("text-xs text-stone-600")
        for i, limb in enumerate(self.limbs):
            distal = limb.get("distal") if isinstance(limb.get("distal"), dict) else None
            with self._row(f"limbs[{i}]") as row_element:
                row_element.classes("limb-row")
                self._row_input(limb, "id", "Id", f"limb-id-{i}").classes("w-28")
                self._row_input(limb, "name", "Name", f"limb-name-{i}").classes("w-32")

                def set_kind(ev: Any, r: dict[str, Any] = limb) -> None:
                    r["kind"] = ev.value
                    self._changed()

                def set_grip(ev: Any, r: dict[str, Any] = limb) -> None:
                    r["can_grip"] = bool(ev.value)
                    self._weapons_section.refresh()
                    self._changed()

                kind = ui.select(list(LIMB_KINDS), value=limb.get("kind", "arm"), label="Kind", on_change=set_kind)
                with_data(kind.props("dense outlined").classes("w-24"), field=f"limb-kind-{i}")
                grips = ui.checkbox("grips", value=bool(limb.get("can_grip", True)), on_change=set_grip)
                with_data(grips.props("dense"), field=f"limb-grip-{i}")
                self._distal_fields(limb, distal, i)
                ui.button(icon="close", on_click=lambda _, j=i: self._drop_limb(j)).props("dense flat round size=sm")
        ui.button("Add a limb", icon="add", on_click=self._add_limb).props("dense flat no-caps")
        ui.label("Body parts (sizes smaller than the creature)").classes("text-xs text-stone-600")
        with ui.row().classes("w-full gap-2 flex-wrap"):
            for i, part in enumerate(self.parts):
                with self._row(f"parts[{i}]") as row_element:
                    row_element.classes("part-row")
                    self._row_input(part, "name", "Part", f"part-name-{i}").classes("w-28")
                    self._row_number(part, "size_offset", "Smaller by", f"part-offset-{i}").classes("w-20")
                    ui.button(
                        icon="close", on_click=lambda _, j=i: self._drop(self.parts, j, self._body_section)
                    ).props("dense flat round size=sm")
            ui.button("Add a part", icon="add", on_click=self._add_part).props("dense flat no-caps")
        self._show_errors()

    def _distal_fields(self, limb: dict[str, Any], distal: dict[str, Any] | None, i: int) -> None:
        """A claw, fang or talon on the limb: a name (empty: none) and its damage dice."""
        holder: dict[str, Any] = {"name": (distal or {}).get("name", ""), "damage": (distal or {}).get("damage")}

        def update() -> None:
            name = str(holder["name"] or "").strip()
            if not name:
                limb.pop("distal", None)
            else:
                found = limb.get("distal")
                old: dict[str, Any] = found if isinstance(found, dict) else {}
                limb["distal"] = {**old, "id": old.get("id") or slug(name), "name": name, "damage": holder["damage"]}
            self._changed()

        def set_name(ev: Any) -> None:
            holder["name"] = ev.value
            update()

        def set_damage(ev: Any) -> None:
            holder["damage"] = whole_number(ev.value)
            update()

        name = ui.input("Claw/fang", value=str(holder["name"]), on_change=set_name)
        with_data(name.props("dense outlined").classes("w-28"), field=f"distal-name-{i}")
        dice = ui.number("Dice", value=holder["damage"], on_change=set_damage)
        with_data(dice.props("dense outlined").classes("w-16"), field=f"distal-damage-{i}")

    def _body_plan(self, e: Any) -> None:
        entry = creature_library().get(str(e.value)) if e.value else None
        if e.value and entry is None:
            return
        limbs = entry.get("limbs") if entry else None
        parts = entry.get("parts") if entry else None
        self.limbs = (
            copy.deepcopy(limbs)
            if isinstance(limbs, list)
            else [limb.model_dump(mode="json", exclude_defaults=True) for limb in humanoid_limbs()]
        )
        self.parts = (
            copy.deepcopy(parts)
            if isinstance(parts, list)
            else [part.model_dump(mode="json", exclude_defaults=True) for part in humanoid_parts()]
        )
        limb_ids = {str(limb.get("id")) for limb in self.limbs}
        self.grip = {k: v for k, v in self.grip.items() if k in limb_ids}
        self._body_section.refresh()
        self._weapons_section.refresh()
        self._changed()

    def _add_limb(self) -> None:
        n = len(self.limbs) + 1
        self.limbs.append({"id": f"limb_{n}", "name": f"limb {n}", "kind": "other", "can_grip": False})
        self._body_section.refresh()

    def _drop_limb(self, index: int) -> None:
        self._drop(self.limbs, index, self._body_section)
        self._weapons_section.refresh()

    def _add_part(self) -> None:
        self.parts.append({"id": "", "name": "", "size_offset": 4})
        self._body_section.refresh()

    @ui.refreshable_method
    def _weapons_section(self) -> None:
        library = weapon_library()
        options = {
            wid: f"{w.name} ({w.damage} dice{', two-handed' if w.two_handed else ''})" for wid, w in library.items()
        }
        options |= {wid: f"{w.get('name', wid)} (own weapon)" for wid, w in self.custom_weapons.items()}
        carried = [w if isinstance(w, str) else str(w.get("id")) for w in self.entry.get("weapons") or []]
        with ui.column().classes("gap-0 w-full"):
            self._fields["weapons"] = (
                ui.select(
                    options,
                    value=[w for w in carried if w in options],
                    multiple=True,
                    label="Weapons carried",
                    on_change=self._weapons_changed,
                )
                .props("dense outlined use-chips data-field=weapons")
                .classes("w-full")
            )
            self._slot("weapons")
        gripping = [limb for limb in self.limbs if limb.get("can_grip", True)]
        with ui.row().classes("gap-2 flex-wrap items-start"):
            for limb in gripping:
                limb_id = str(limb.get("id") or "")
                held = {"": "nothing"} | {w: options.get(w, w) for w in carried if w in options}

                def set_grip(ev: Any, lid: str = limb_id) -> None:
                    if ev.value:
                        self.grip[lid] = ev.value
                    else:
                        self.grip.pop(lid, None)
                    self._changed()

                with ui.column().classes("gap-0"):
                    holds = ui.select(
                        held,
                        value=self.grip.get(limb_id, "") if self.grip.get(limb_id) in held else "",
                        label=f"{limb.get('name') or limb_id} holds",
                        on_change=set_grip,
                    )
                    with_data(holds.props("dense outlined").classes("w-44"), field=f"grip-{limb_id}")
                    self._slot(f"grip.{limb_id}")
        self._slot("grip")
        self._show_errors()

    def _weapons_changed(self, e: Any) -> None:
        chosen = list(e.value or [])
        self.entry["weapons"] = [self.custom_weapons.get(w, w) for w in chosen]
        self.grip = {k: v for k, v in self.grip.items() if v in chosen}
        self._weapons_section.refresh()
        self._changed()

    # ---- gathering, checking, saving ----------------------------------------------------------------------------

    def gather(self) -> tuple[dict[str, Any], list[str]]:
        """The entry as the form shows it, and the problems of the form's own rows (an unnamed skill, a skill
        twice); everything else is for `validate_creature`."""
        problems: list[str] = []
        data: dict[str, Any] = {k: v for k, v in self.entry.items() if k not in ("id",)}
        f = self._fields
        for key in ("name", "species", "description"):
            data[key] = str(f[key].value or "").strip()
        if not data["name"]:
            problems.append("name: give the creature a name")
        if not data["species"]:
            data["species"] = None
        if not data["description"]:
            data.pop("description")
        data["color"] = str(f["color"].value or "")
        for key in ("size", "severe_threshold", "movement_pool", "bulk", "armor_reduction"):
            data[key] = whole_number(f[key].value)
        for key in ("severe_threshold", "movement_pool"):
            if data[key] is None:
                data.pop(key)
        for pool in ("grit", "energy", "resolve"):
            data[pool] = {**dict(self.entry.get(pool) or {}), "max": whole_number(f[f"{pool}.max"].value)}
        skills: dict[str, Any] = {}
        for i, row in enumerate(self.skills):
            name = str(row.get("name") or "").strip()
            if not name:
                problems.append(f"skills[{i}]: give the skill a name")
            elif name in skills:
                problems.append(f"skills.{name}: {name} is listed twice")
            else:
                skills[name] = row.get("tier")
        data["skills"] = skills
        reductions: dict[str, Any] = {}
        for i, row in enumerate(self.reductions):
            kind = str(row.get("type") or "").strip()
            if not kind:
                problems.append(f"reductions[{i}]: pick the damage type")
            elif kind in reductions:
                problems.append(f"reductions.{kind}: {kind} is listed twice")
            else:
                amount = row.get("amount")
                if isinstance(amount, int) and amount < 0:
                    problems.append(f"reductions.{kind}: a Reduction is 0 or more (got {amount})")
                reductions[kind] = amount
        data["reductions"] = reductions
        data["immunities"] = list(f["immunities"].value or [])
        data["vulnerabilities"] = list(f["vulnerabilities"].value or [])
        data["limbs"] = copy.deepcopy(self.limbs)
        parts = copy.deepcopy(self.parts)
        for part in parts:
            if not part.get("id") and part.get("name"):
                part["id"] = slug(str(part["name"]))
        data["parts"] = parts
        data["weapons"] = copy.deepcopy(self.entry.get("weapons") or [])
        data["grip"] = dict(self.grip)
        data["abilities"] = list(f["abilities"].value or [])
        return data, problems

    def check(self) -> bool:
        data, problems = self.gather()
        self.errors = problems + validate_creature(data)
        self.checked = True
        self._show_errors()
        return not self.errors

    def _changed(self, *_: Any) -> None:
        if self.checked:
            self.check()

    def _show_errors(self) -> None:
        slots = {k: v for k, v in self._slots.items() if not v.is_deleted}
        routed = route_errors(self.errors, slots)
        for key, label in slots.items():
            messages = routed.get(key, [])
            label.set_text("; ".join(messages))
            label.set_visibility(bool(messages))

    def _refused(self) -> bool:
        if self.may_edit():
            return False
        ui.notify(READ_ONLY, type="warning", position="top")
        return True

    def save(self) -> None:
        if self._refused():
            return
        if not self.check():
            ui.notify(
                f"Not saved: {len(self.errors)} problem{'s' if len(self.errors) != 1 else ''} (shown by the fields)",
                type="warning",
                position="top",
            )
            ui.run_javascript(
                "document.querySelector('.creature-form .field-error:not(.hidden)')"
                "?.scrollIntoView({block: 'center', behavior: 'smooth'})"
            )
            return
        data, _ = self.gather()
        taken = [c.key for c in db.library_creatures(self.engine)]
        key = user_key(str(data["name"]), taken, self.key)
        data["id"] = key.removeprefix(USER_PREFIX)
        db.save_library_creature(self.engine, key, str(data["name"]), data)
        self.key = key
        self.entry = data
        self.title.set_text(f"Edit {data['name']}")
        ui.notify(f"{data['name']} is in the library", type="positive", position="top")
        self.saved(key)

    def delete(self) -> None:
        if self.key is None or self._refused():
            return
        name = self.entry.get("name", self.key)
        db.delete_library_creature(self.engine, self.key)
        ui.notify(f"{name} was taken out of the library", position="top")
        self.load(None, _blank_entry())
        self.saved("")


READ_ONLY = "Only a Soulweaver changes the library: open one of your games as its Soulweaver in this browser first."


def render_library(engine: Engine, may_edit: Callable[[], bool] = lambda: True) -> None:
    """The page: the library's list on the left, the form on the right. `may_edit` says, on the server, whether
    this browser may save and delete."""
    with ui.row().classes("w-full p-6 gap-6 items-start no-wrap library-page"):
        with ui.column().classes("w-80 gap-2 shrink-0"):
            ui.link("← Soulshards VTT", "/").classes("text-sm")
            ui.label("Creature library").classes("text-2xl font-bold text-stone-800")
            new_button = ui.button("New creature", icon="add").props(
                "color=primary dense no-caps data-action=new-creature"
            )
            listing = ui.column().classes("w-full gap-1 library-list")
        with ui.column().classes("grow gap-2 min-w-0"):
            if not may_edit():
                ui.label(READ_ONLY).classes("text-sm text-amber-900 read-only-note")
            form = CreatureForm(engine, lambda _: show_list(), may_edit)
    new_button.on_click(lambda: form.load(None, _blank_entry()))

    def open_entry(entry: LibraryEntry) -> None:
        if entry.user_made:
            form.load(entry.key, entry.data)
        else:
            copy_of = {k: v for k, v in entry.data.items() if k != "id"}
            copy_of["name"] = f"{entry.name} (copy)"
            form.load(None, copy_of, title=f"New creature from the starter {entry.name}")

    def show_list() -> None:
        listing.clear()
        with listing:
            entries = library_entries(engine)
            for group, made in (("Starter library", False), ("Made here", True)):
                ui.label(group).classes("text-sm font-bold text-stone-600 mt-2")
                shown = [e for e in entries if e.user_made == made]
                if not shown:
                    ui.label("None yet: save one with the form.").classes("text-xs text-stone-500")
                for entry in shown:
                    card = ui.card().classes("w-full p-2 gap-0 cursor-pointer library-item")
                    with with_data(card, key=entry.key).on("click", lambda _, x=entry: open_entry(x)):
                        ui.label(entry.name).classes("font-bold text-sm")
                        if entry.description:
                            ui.label(entry.description).classes("text-xs text-stone-600")
                        ui.label("edit" if made else "copy to a new creature").classes("text-xs text-blue-800")

    show_list()
