"""The token menu and the dialogs that ask what an action still needs.

The menu is the rules' `legal_actions`, one row per kind of action in each group (Strike, Overpower, Tactics...).
The rules list an action once per weapon or limb it can be made with, each naming its menu row (`row`) and what it
is made with (`variant`): a melee Strike, a Shot and a Throw are variants of one "Strike" row. A row with several
opens a sub-list of them, each with its cost and roll preview. Picking a variant is exactly picking that option of
the rules, whose command is then sent as it carries it (`offers.command_for`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from nicegui import ui

from vtt.rules.dice import Modifier
from vtt.rules.events import RuleError
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.offers import ActionOption, RollPreview, TargetOption
from vtt.rules.strike import armament
from vtt.rules.tactics import distract_bonus
from vtt.web.attrs import with_data
from vtt.web.map_pick import as_cell
from vtt.web.menu_facts import OptionFacts

GROUP_ORDER = ["Move", "Strike", "Overpower", "Tactics", "Defense", "Manifest", "Turn"]
# Option params that name what an action is made with: options differing only in these are variants of one kind
# (for options that do not name their row).
VARIANT_PARAMS = ("weapon", "limb")
UNARMED_STRIKE = "Unarmed Strike"
ACTION_WORDS = {"major": "Major Action", "minor": "Minor Action", "speak": "Speaking (no bonus)"}
FIELD_WORDS = {
    "nimble": "Attack Nimble",
    "max_dice": "Damage dice",
    "strike_type": "Strike Type",
    "called_shot": "Part aimed at",
    "free_part": "Part to free",
    "held": "Held creature",
}
"""How the choice dialog names a command's fields; any other field is named by its words."""

Send = Callable[[dict[str, Any]], Awaitable[bool]]
Pick = Callable[[ActionOption], Awaitable[None]]


def preview_text(p: RollPreview | None) -> str:
    if p is None:
        return ""
    mods = sum(m.value for m in p.modifiers)
    dice = p.dice + sum(c.dice for c in p.dice_changes)
    text = f"{max(dice, 0)}d12 {p.skill}"
    if mods:
        text += f" {'+' if mods > 0 else '−'}{abs(mods)}"
    if p.dl is not None:
        text += f" vs DL {p.dl}"
    if p.defense_skill:
        text += f" / {p.defense_skill}"
    return text


def cost_text(cost: dict[str, int]) -> str:
    parts = []
    if cost.get("major"):
        parts.append("Major")
    if cost.get("minor"):
        parts.append("Minor")
    if cost.get("movement"):
        parts.append(f"{cost['movement']} Movement" if cost["movement"] > 1 else "Movement")
    return " · ".join(parts) or "free"


def first_preview(option: ActionOption) -> RollPreview | None:
    return next((t.preview for t in option.targets if t.preview), None)


def needs_target(option: ActionOption) -> bool:
    """Whether the option waits for a click on a creature or a space (else it acts at once, or asks in a dialog)."""
    return option.pick != "none"


def has_no_target(option: ActionOption) -> bool:
    """An action that needs a target or a space and has none now: shown, but it cannot be picked."""
    return needs_target(option) and not option.targets and not option.spaces


def option_detail(option: ActionOption, with_cost: bool = True) -> str:
    """The small line under an action: its cost, the roll it makes, and why it cannot be picked."""
    parts = [cost_text(option.cost)] if with_cost else []
    if preview := preview_text(first_preview(option)):
        parts.append(preview)
    if has_no_target(option):
        parts.append("no target in reach")
    return " · ".join(parts)


# ---- grouping -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One option of the rules as a choice within its kind: `name` is what it is made with ("Sword",
    "Unarmed (left arm)"), or the option's whole label when it has no variants."""

    option: ActionOption
    name: str

    @property
    def short(self) -> str:
        """The name in a kind's summary line: "Unarmed (left arm)" is just "Unarmed" there."""
        return self.name.split(" (", 1)[0] if self.name.startswith("Unarmed (") else self.name


@dataclass
class ActionKind:
    """One row of the menu: an action, made with one of its variants."""

    label: str
    variants: list[Variant] = field(default_factory=list)

    @property
    def first(self) -> ActionOption:
        return self.variants[0].option

    @property
    def group(self) -> str:
        return self.first.group

    @property
    def action(self) -> str:
        return self.first.action

    @property
    def enabled(self) -> list[Variant]:
        return [v for v in self.variants if not has_no_target(v.option)]

    def summary(self) -> str:
        """The line under a kind with several variants: the cost they share and what they are made with."""
        costs = {cost_text(v.option.cost) for v in self.variants}
        names = ", ".join(v.short for v in self.variants)
        text = f"{costs.pop()} · {names}" if len(costs) == 1 else names
        return text if self.enabled else f"{text} · no target in reach"


def _arm_names(state: GameState, c: Creature, params: dict[str, Any]) -> list[str]:
    """The names the rules' labels give to what an option is made with (`Armament.name`), longest first."""
    if params.get("weapon"):
        weapon = c.weapon(str(params["weapon"]))
        return [weapon.name] if weapon is not None else []
    if "limb" not in params:
        return []
    limb_id = params["limb"]
    try:
        name = armament(state, c, None, str(limb_id) if limb_id is not None else None).name
    except RuleError:
        return []
    return [name, "unarmed"]


def split_label(label: str, names: Iterable[str]) -> tuple[str, str] | None:
    """("Impair with Sword", ["Sword"]) -> ("Impair", "Sword"); ("Charge: Unarmed Strike", ...) -> ("Charge:
    Strike", "unarmed ..."). None when the label does not name what the option is made with."""
    names = list(names)
    for name in names:
        for suffix in (f" with {name}", f" ({name})"):
            if label.endswith(suffix) and len(label) > len(suffix):
                return label[: -len(suffix)], name
    if names and label.endswith(UNARMED_STRIKE) and names[-1] == "unarmed":
        return label[: -len(UNARMED_STRIKE)] + "Strike", names[0]
    return None


def _display(name: str) -> str:
    return name[:1].upper() + name[1:]


def group_actions(state: GameState, creature_id: str, actions: Iterable[ActionOption]) -> dict[str, list[ActionKind]]:
    """The menu's rows: for each group (in `GROUP_ORDER`), its kinds of action in the rules' order, each with
    the options that differ only in the weapon or limb they are made with as its variants."""
    c = state.creatures.get(creature_id)
    kinds: dict[tuple[str, ...], ActionKind] = {}
    for option in actions:
        if option.row:
            row = ActionKind(label=option.row)
            found = kinds.setdefault((option.group, "row", option.row), row)
            found.variants.append(Variant(option, option.variant or option.label))
            continue
        params = {k: v for k, v in option.params.items() if k not in VARIANT_PARAMS}
        split = None
        if c is not None and any(k in option.params for k in VARIANT_PARAMS):
            split = split_label(option.label, _arm_names(state, c, option.params))
        label, name = split if split is not None else (option.label, option.label)
        if split is None:
            params = dict(option.params)  # not a variant: only an identical option shares its row
        key = (
            option.group,
            option.action,
            option.command or "",
            label,
            json.dumps(params, sort_keys=True, default=str),
        )
        kinds.setdefault(key, ActionKind(label=label)).variants.append(Variant(option, _display(name)))
    grouped: dict[str, list[ActionKind]] = {g: [] for g in GROUP_ORDER}
    for kind in kinds.values():
        grouped.setdefault(kind.group, []).append(kind)
    return {g: ks for g, ks in grouped.items() if ks}


# ---- the menu -------------------------------------------------------------------------------------------------

Facts = Callable[[ActionOption], OptionFacts]
KEYS = "1234567890"
"""The keys that pick the menu's rows, in order (and a kind's variants once its list is open)."""


def render_menu(menu: ui.menu, kinds: dict[str, list[ActionKind]], pick: Pick, facts: Facts) -> None:
    """The rows of the menu, in the current context (inside `menu`): each group's title and kinds, the groups
    flowing in columns so that the menu fits the window. A kind with one variant is picked by a click (or its
    number key); one with several opens the list of its variants (one at a time). Hovering a row, or pressing it
    long, shows what the action does and its odds against each target."""
    n = 0
    with ui.element("div").classes("menu-groups"):
        for group, group_kinds in kinds.items():
            with ui.element("div").classes("menu-block"):
                ui.label(group).classes("text-xs uppercase tracking-wide text-stone-500 px-2 pt-1 menu-group")
                for kind in group_kinds:
                    key = KEYS[n] if n < len(KEYS) else None
                    n += 1
                    if len(kind.variants) == 1:
                        _action_item(kind.first, kind.first.label, facts(kind.first), pick, key=key)
                    else:
                        _kind_item(menu, kind, pick, facts, key)


def _key_badge(key: str | None) -> None:
    """The row's number key (an empty square keeps a row without one in line)."""
    ui.label(key or "").classes("menu-key" if key is not None else "menu-key menu-key-none")


def _action_item(
    option: ActionOption, label: str, facts: OptionFacts, pick: Pick, variant: bool = False, key: str | None = None
) -> None:
    async def chosen() -> None:
        await pick(option)

    item = ui.menu_item(on_click=chosen, auto_close=True).props("dense" + (" disable" if has_no_target(option) else ""))
    # set as values, not parsed from a props string: labels carry the names of weapons from the map file
    item.props["data-action"] = option.action
    item.props["data-label"] = option.label
    if key is not None:
        item.props["data-key"] = key
    with item.classes("menu-action" + (" menu-variant" if variant else "")):
        _key_badge(key)
        with ui.column().classes("gap-0 menu-text"):
            ui.label(label).classes("text-sm")
            if facts.detail:
                ui.label(facts.detail).classes("text-xs text-stone-500 menu-detail")
        if any(a.optional for a in option.asks):
            _more_choices_button(option, pick)
        _tip(facts.tip)


def _tip(text: str) -> None:
    """What a row does and its odds, beside the menu on hover (or a long press on a touch screen)."""
    ui.tooltip(text).classes("menu-tip").props("anchor='top right' self='top left' :offset='[6, 0]' :delay='300'")


def _more_choices_button(option: ActionOption, pick: Pick) -> None:
    """The same action with its optional choices asked too (a Strike's fewer dice, Nimble, Strike Type): a click
    on the action itself sends it without asking them."""
    asked = option.model_copy(
        update={"optional": [], "asks": [a.model_copy(update={"optional": False}) for a in option.asks]}
    )

    async def chosen() -> None:
        await pick(asked)

    button = ui.button(icon="tune").props("flat dense round size=sm").classes("ml-auto menu-more-choices")
    button.props["aria-label"] = "choose the options first"
    button.tooltip("Choose the options first (fewer dice, Nimble, Strike Type…)")
    button.on("click.stop", chosen)


def _kind_item(menu: ui.menu, kind: ActionKind, pick: Pick, facts: Facts, key: str | None) -> None:
    """A kind with several variants: its row opens the list of variants, each with its cost and odds."""
    disabled = not kind.enabled
    expansion = (
        ui.expansion(kind.label, caption=kind.summary(), group="menu-kinds")
        .props("dense dense-toggle" + (" disable" if disabled else ""))
        .classes("menu-kind w-full")
    )
    expansion.props.update({"data-kind": kind.action, "data-label": kind.label, "data-variants": len(kind.variants)})
    if key is not None:
        expansion.props["data-key"] = key
    with expansion.add_slot("header"):
        _key_badge(key)
        with ui.column().classes("gap-0 menu-text grow"):
            ui.label(kind.label).classes("text-sm")
            ui.label(kind.summary()).classes("text-xs text-stone-500 menu-detail")
        _tip(facts(kind.first).tip.split("\n", 1)[0])
    # Have Quasar fit the menu in the window again once the list is open.
    expansion.on("after-show", lambda: menu.run_method("updatePosition"))
    with expansion:
        for i, v in enumerate(kind.variants):
            _action_item(v.option, v.name, facts(v.option), pick, variant=True, key=KEYS[i] if i < len(KEYS) else None)


# ---- dialogs --------------------------------------------------------------------------------------------------


def field_words(name: str) -> str:
    return FIELD_WORDS.get(name, name.replace("_", " ").capitalize())


def choice_label(state: GameState, field_name: str, value: Any, t: TargetOption) -> str:
    if value is None:
        return "all" if field_name == "max_dice" else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if field_name == "called_shot" and isinstance(value, str):
        margin = t.margins.get(value)
        return value.replace("_", " ") + (f" (beat the defense by {margin})" if margin is not None else "")
    if field_name == "action" and value in ACTION_WORDS:
        return ACTION_WORDS[str(value)]
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"space {tuple(value)}"
    if field_name == "item" and isinstance(value, str):
        c = state.creatures.get(t.target or "")
        w = c.weapon(value) if c else None
        lying = next((i.weapon for i in state.board.items if i.weapon.id == value), None)  # one to pick up
        return w.name if w else lying.name if lying else value
    return str(value)


def choice_dialog(
    state: GameState, option: ActionOption, t: TargetOption, cmd: dict[str, Any], target_name: str, send: Send
) -> None:
    """The fields an action still needs (the object to Disarm, the ailment to Impair, the part of a Called
    Shot...), each from the values the rules allow against this target."""
    selects: dict[str, ui.select] = {}
    with ui.dialog() as dialog, ui.card().classes("p-3 gap-2 choice-dialog"):
        ui.label(f"{option.label}: {target_name}").classes("font-bold")
        for name in [a.field for a in option.asks]:
            values = t.choices.get(name, [])
            labels = {i: choice_label(state, name, v, t) for i, v in enumerate(values)}
            select = ui.select(labels, value=0 if values else None, label=field_words(name))
            selects[name] = with_data(select.props("dense outlined").style("min-width: 14rem"), choose=name)

        async def go() -> None:
            for name, select in selects.items():
                values = t.choices.get(name, [])
                if select.value is None or not values:
                    ui.notify(f"Choose the {field_words(name).lower()}", type="warning")
                    return
                value = values[int(select.value)]
                cmd[name] = list(value) if isinstance(value, tuple) else value
            dialog.close()
            await send(cmd)

        with ui.row().classes("gap-2"):
            ui.button("Go", on_click=go).props("color=primary dense data-go=1")
            ui.button("Cancel", on_click=dialog.close).props("flat dense")
    dialog.open()


def action_preview(option: ActionOption, action: str) -> RollPreview | None:
    """The roll of a Distract made with the Action chosen: the rules preview it with the first Action they allow;
    its bonus (+2 for a Major, +1 for a Minor) is swapped for the chosen Action's."""
    preview = first_preview(option)
    actions = option.targets[0].choices.get("action", []) if option.targets else []
    if preview is None or option.action != "distract" or not actions:
        return preview
    given, chosen = _bonus(str(actions[0])), _bonus(action)
    if given is None or chosen is None:
        return preview
    mods = [chosen if m == given else m for m in preview.modifiers]
    return preview.model_copy(update={"modifiers": mods})


def _bonus(action: str) -> Modifier | None:
    if action == "major":
        return distract_bonus("major")
    if action == "minor":
        return distract_bonus("minor")
    return None


def multi_target_dialog(
    state: GameState,
    option: ActionOption,
    cmd: dict[str, Any],
    names: dict[str, str],
    send: Send,
    on_close: Callable[[], None],
    pick_sound: Callable[[dict[str, Any], list[Cell]], None] | None = None,
    odds: Callable[[RollPreview | None], str] = preview_text,
) -> None:
    """seed-000 Distract: "attack creatures that are Aware of that action ... Creatures that expect you to use
    this action gain +6 on their defense." The creatures the rules allow are listed to tick, each with an
    "expects it" box: the rules let whoever makes the Distract mark a creature that saw it coming, the player as
    much as the Soulweaver (`legal_actions` offers the choice to both). "If your action creates
    a sound at range, creatures instead become Focused on the space where the sound was made": ticked, the space
    is clicked on the map after Go (`pick_sound`)."""
    targets = [t.target for t in option.targets if t.target]
    actions = option.targets[0].choices.get("action", []) if option.targets else []
    attack: dict[str, ui.checkbox] = {}
    expects: dict[str, ui.checkbox] = {}
    actor = state.creatures.get(str(cmd.get("creature", "")))
    # On the right, over the side panels: the creatures it may attack stay in sight, highlighted on the map.
    with (
        ui.dialog().props("position=right") as dialog,
        ui.card().classes("p-3 gap-2 choice-dialog multi-target-dialog"),
    ):
        ui.label((f"{actor.name}: " if actor else "") + option.label).classes("font-bold")
        if first_preview(option) is not None:
            ui.label("One roll, against each creature ticked; its chance against each:").classes(
                "text-xs text-stone-600"
            )
        roll = ui.label().classes("text-sm multi-roll")
        action = None
        if actions:
            action = ui.select(
                {a: choice_label(state, "action", a, option.targets[0]) for a in actions},
                value=actions[0],
                label="action",
                on_change=lambda e: roll.set_text(odds(action_preview(option, str(e.value)))),
            ).props("dense outlined data-choose=action")
        roll.set_text(odds(action_preview(option, str(actions[0]) if actions else "")))
        ui.label("Attack the creatures that are Aware of it:").classes("text-sm")
        with ui.grid(columns="auto auto").classes("gap-1 items-center multi-targets"):
            for tid in targets:
                attack[tid] = with_data(ui.checkbox(names.get(tid, tid)).props("dense"), attack=tid)
                expects[tid] = with_data(
                    ui.checkbox("expects it (+6 defense)").props("dense").classes("text-xs text-stone-600"),
                    expects=tid,
                )
                expects[tid].bind_enabled_from(attack[tid], "value")

        sounds = [c for v in option.targets[0].choices.get("sound_at", []) if (c := as_cell(v))] if targets else []
        sound = None
        if sounds and pick_sound is not None:
            sound = ui.checkbox("It makes a sound at range: click where on the map after Go").props("dense")
            with_data(sound.classes("text-sm"), choose="sound_at")

        async def go() -> None:
            chosen = [tid for tid in targets if attack[tid].value]
            if not chosen:
                ui.notify("Tick at least one creature to attack", type="warning")
                return
            full = dict(cmd)
            full["targets"] = chosen
            full["expects"] = [tid for tid in chosen if expects[tid].value]
            if action is not None:
                full["action"] = action.value
            dialog.close()
            if sound is not None and sound.value and pick_sound is not None:
                pick_sound(full, sounds)
                return
            await send(full)

        with ui.row().classes("gap-2"):
            ui.button("Go", on_click=go).props("color=primary dense data-go=1")
            ui.button("Cancel", on_click=dialog.close).props("flat dense")
    dialog.on_value_change(lambda e: None if e.value else on_close())
    dialog.open()
