"""The options of the token menu (`engine.legal_actions`): each action a creature may take now, its targets or
spaces, its cost, its roll preview, and the command it sends.

An option's command is ready to send: `ActionOption.send` holds its type, its creature and every field fixed by the
option (weapon, Charge, Minor Action...); each target's `TargetOption.send` adds the target (and its space, path and
own fields). What is still open is typed in `asks`: the field it fills, whether its value is a creature, a space
picked on the map or another value, whether it takes a list, and whether it may be left out. A menu sends:

- `pick == "none"`: the `send` of the option's only target, else the option's `send`;
- `pick == "creature"`: the `send` of the target clicked;
- `pick == "space"`: the option's `send` with the space clicked (one of `spaces`) in the field `at`;
- `pick == "creature_or_space"`: either, as clicked;

each with the values chosen for its `asks` merged in (the values allowed are the chosen target's `choices[field]`;
with no target clicked, the first target's). The builders of the options live next to the action family they offer
(`move_offers`, `strike_offers`, `ranged_offers`, `overpower_offers`, `hold_offers`, `tactic_offers`,
`manifest_offers`, `focus_offers`, `gear_offers`, `defense_offers`, `swallow_offers`); `finish` fills the commands in
once a creature's menu is complete (`engine.legal_actions`).
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from functools import cache
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, Field

from vtt.rules import positions, strike
from vtt.rules.commands import COMMAND_MODELS, creature_fields
from vtt.rules.dice import DiceChange, Modifier
from vtt.rules.events import RuleError
from vtt.rules.fastmodel import construct, put_dict, put_extra, put_fields_set, put_private
from vtt.rules.frozen import NO_DICT, NO_LIST, FrozenDict, FrozenList
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.space import Occupancy

Group = Literal["Move", "Strike", "Overpower", "Tactics", "Defense", "Manifest", "Turn"]
Pick = Literal["none", "creature", "space", "creature_or_space"]
AskKind = Literal["value", "creature", "space"]
_M = TypeVar("_M", bound=BaseModel)


class RollPreview(BaseModel):
    label: str
    skill: str
    dice: int
    dice_changes: list[DiceChange] = Field(default_factory=list)
    modifiers: list[Modifier] = Field(default_factory=list)
    dl: int | None = None
    defense_skill: str | None = None
    damage: int = Field(0, description="The damage dice a hit rolls before the target's size and Threshold.")
    damage_changes: list[DiceChange] = Field(default_factory=list)


class Ask(BaseModel):
    """A field of the command still to choose once the target is known; its values are the target's `choices`."""

    field: str = Field(description="The command field it fills.")
    kind: AskKind = Field(
        "value",
        description="`creature`: creature ids; `space`: spaces, picked on the map; `value`: other values, picked "
        "from a list.",
    )
    several: bool = Field(False, description="The field takes a list: any of the values, no repeats.")
    optional: bool = Field(
        False, description="It may be left out: the command then plays as with the first of its values."
    )


class TargetOption(BaseModel):
    target: str | None = None
    space: Cell | None = None
    preview: RollPreview | None = None
    path: list[Cell] = Field(default_factory=list)
    note: str = ""
    choices: dict[str, list[Any]] = Field(
        default_factory=dict, description="Command field -> the values it may take against this target."
    )
    margins: dict[str, int] = Field(
        default_factory=dict, description="Called Shot: part id -> by how much the attack must beat the defense."
    )
    params: dict[str, Any] = Field(
        default_factory=dict, description="Command fields sent with this target (a ranged Strike's `long_shot`)."
    )
    send: dict[str, Any] = Field(
        default_factory=dict,
        description="The command sent for this target: the option's `send` with the target and `params`; the "
        "values chosen for the option's `asks` are merged into it.",
    )


class ActionOption(BaseModel):
    action: str
    group: Group
    label: str
    cost: dict[str, int] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict)
    targets: list[TargetOption] = Field(default_factory=list)
    spaces: list[Cell] = Field(default_factory=list)
    reach: int | None = None
    choose: list[str] = Field(
        default_factory=list, description="Command fields to pick from the chosen target's `choices`."
    )
    command: str | None = Field(
        None, description="The command type to send when it is not `action` (Called Shot, Charge): params go with it."
    )
    several: list[str] = Field(
        default_factory=list, description="Fields of `choose` taking a list: any of their `choices`, no repeats."
    )
    optional: list[str] = Field(
        default_factory=list,
        description="Fields of `choose` that may be left out: the command then plays as with the first of their "
        "`choices` (a Strike's Nimble, Strike Type and fewer damage dice). A menu may send without asking them.",
    )
    send: dict[str, Any] = Field(
        default_factory=dict,
        description="The command this option sends: type, creature and the fields it fixes (`params`). A target's "
        "`send` adds the target; `at` names the field a space fills.",
    )
    pick: Pick | None = Field(
        None,
        description="What is clicked on the map first: nothing, a creature among `targets`, a space among `spaces`, "
        "or either. Left None by a builder, `finish` derives it from the targets and spaces.",
    )
    at: str | None = Field(None, description="The command field a space picked among `spaces` fills.")
    asks: list[Ask] = Field(default_factory=list, description="The fields of `choose`, typed (see `Ask`).")
    row: str = Field(
        "",
        description="The menu row of the action: options with the same group and row are one action made with "
        "different weapons or limbs (`variant`), offered as a second step. Empty: a row of its own (`label`).",
    )
    variant: str = Field("", description="What this option of its row is made with (`Sword`, `Shortbow (shoot)`).")


# ---- shared by the builders --------------------------------------------------------------------------------------
# The builders make their options from values the rules worked out (each already of its field's type), so they are
# built without validation: a menu is worked out for every creature after every change.


_new = object.__new__


def _built(cls: type[_M], data: dict[str, Any]) -> _M:
    """A `cls` holding `data` (every field, in the model's order), not validated."""
    out = _new(cls)
    put_dict(out, data)
    put_fields_set(out, _ALL_SET[cls])
    put_extra(out, None)
    put_private(out, None)
    return out


def _copied(model: _M, **changes: Any) -> _M:
    """`model.model_copy(update=changes)` of an option, a target or a preview, not validated."""
    data = model.__dict__.copy()
    data.update(changes)
    return _built(type(model), data)


_ALL_SET: dict[type[BaseModel], set[str]] = {
    cls: set(cls.model_fields) for cls in (ActionOption, TargetOption, RollPreview)
}
"""The fields set of every option, target and preview built here, one set for each model: each has all its fields
set (as an event built without validation has), so setting a field adds nothing to it."""
_PREVIEW_SET = _ALL_SET[RollPreview]


# Every field's default as the model has it; an empty list or dict is the one shared frozen empty (`frozen`), so
# an option made with few fields holds no container of its own.
_OPTION: dict[str, Any] = {
    "action": None,
    "group": None,
    "label": None,
    "cost": NO_DICT,
    "params": NO_DICT,
    "targets": NO_LIST,
    "spaces": NO_LIST,
    "reach": None,
    "choose": NO_LIST,
    "command": None,
    "several": NO_LIST,
    "optional": NO_LIST,
    "send": NO_DICT,
    "pick": None,
    "at": None,
    "asks": NO_LIST,
    "row": "",
    "variant": "",
}
_TARGET: dict[str, Any] = {
    "target": None,
    "space": None,
    "preview": None,
    "path": NO_LIST,
    "note": "",
    "choices": NO_DICT,
    "margins": NO_DICT,
    "params": NO_DICT,
    "send": NO_DICT,
}
_PREVIEW: dict[str, Any] = {
    "label": None,
    "skill": None,
    "dice": None,
    "dice_changes": NO_LIST,
    "modifiers": NO_LIST,
    "dl": None,
    "defense_skill": None,
    "damage": 0,
    "damage_changes": NO_LIST,
}


MAJOR = FrozenDict(major=1)
MINOR = FrozenDict(minor=1)
"""The cost of an option paid with a Major Action or with a Minor Action: one dict shared by every such option."""
PAID: dict[str, FrozenDict] = {"none": NO_DICT, "major": MAJOR, "minor": MINOR}
"""The cost of an option paid as a table setting names it (no Action, a Major or a Minor Action)."""


def _maker(cls: type[_M], defaults: dict[str, Any]) -> Callable[..., _M]:
    """`cls(**values)` not validated, each field not given at its default (`defaults`): what `_built` does, in the
    maker's own body (a menu builds some 60 options, targets and previews; a call of `_built` was a tenth of each)."""
    fields_set = _ALL_SET[cls]

    def make(**values: Any) -> _M:
        out = _new(cls)
        put_dict(out, {**defaults, **values})
        put_fields_set(out, fields_set)
        put_extra(out, None)
        put_private(out, None)
        return out

    return make


make_option = _maker(ActionOption, _OPTION)
"""`ActionOption(**values)`, not validated (each default as the model has it: tests/test_menu_build checks)."""
make_target = _maker(TargetOption, _TARGET)
"""`TargetOption(**values)`, not validated."""
make_preview = _maker(RollPreview, _PREVIEW)
"""`RollPreview(**values)`, not validated."""


def preview_of(
    label: str,
    skill: str,
    dice: int,
    dice_changes: list[DiceChange],
    modifiers: list[Modifier],
    dl: int | None,
    defense_skill: str | None,
    damage: int = 0,
    damage_changes: list[DiceChange] = NO_LIST,
) -> RollPreview:
    """`make_preview` with every field given in the model's order (no defaults to merge: a menu makes one for each
    attack on each target), built in its own body as the makers are (`_maker`)."""
    out = _new(RollPreview)
    put_dict(
        out,
        {
            "label": label,
            "skill": skill,
            "dice": dice,
            "dice_changes": dice_changes,
            "modifiers": modifiers,
            "dl": dl,
            "defense_skill": defense_skill,
            "damage": damage,
            "damage_changes": damage_changes,
        },
    )
    put_fields_set(out, _PREVIEW_SET)
    put_extra(out, None)
    put_private(out, None)
    return out


def plan_preview(plan: strike.AttackPlan) -> RollPreview:
    return preview_of(
        plan.label,
        plan.skill,
        plan.dice,
        plan.dice_changes,
        plan.modifiers,
        plan.dl,
        plan.defense_skill,
        plan.damage,
        plan.damage_changes,
    )


def arms(state: GameState, c: Creature) -> list[strike.Armament]:
    """What the creature can attack with now: each usable weapon, and unarmed once (the first free limb it can
    strike with)."""
    out: list[strike.Armament] = []
    for w in c.weapons:
        try:
            out.append(strike.armament(state, c, w.id, None))
        except RuleError:
            continue
    for limb in c.limbs:
        if limb.free:
            try:
                out.append(strike.armament(state, c, None, limb.id))
            except RuleError:
                continue
            break
    return out


def arm_params(arm: strike.Armament) -> dict[str, Any]:
    return {"weapon": arm.weapon.id} if arm.weapon else {"limb": None}


def arm_variant(arm: strike.Armament) -> str:
    """The name of a weapon or of an unarmed limb as a row's variant: "Sword", "Unarmed (left arm)"."""
    return arm.name[:1].upper() + arm.name[1:]


def charged(option: ActionOption) -> ActionOption:
    """The option as a Charge (seed-000): the same command with `charge` set."""
    return _copied(
        option,
        action="charge",
        command=option.command or option.action,
        group="Tactics",
        label=f"Charge: {option.label}",
        params={**option.params, "charge": True},
        row=f"Charge: {option.row}" if option.row else "",
    )


def flurried(option: ActionOption) -> ActionOption:
    """The option as a Flurry's Minor Action (seed-000): the same command with `minor` set."""
    return _copied(
        option,
        action="flurry_attack",
        command=option.command or option.action,
        group="Tactics",
        label=f"Flurry (Minor Action): {option.label}",
        cost=MINOR,
        params={**option.params, "minor": True},
        row=f"Flurry (Minor Action): {option.row}" if option.row else "",
    )


# ---- the commands ------------------------------------------------------------------------------------------------


@cache
def _models() -> dict[str, type[BaseModel]]:
    return {str(m.model_fields["type"].default): m for m in COMMAND_MODELS}


def _names_space(annotation: Any) -> bool:
    """Whether a field's type is, or holds, a space (a pair of whole numbers)."""
    if typing.get_origin(annotation) is Annotated:
        return _names_space(typing.get_args(annotation)[0])
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is tuple:
        return args == (int, int)
    return any(_names_space(arg) for arg in args)


def _shape(kind: str) -> tuple[bool, bool, str | None, Pick]:
    """Whether the command `kind` takes a `creature` and a `target`, the field a space picked on the map fills
    (`space` or `to`), and what a menu clicks for it when its option offers nothing to click now: a command that
    names a target or a space waits for one (shown as out of reach)."""
    fields = _models()[kind].model_fields
    at = "space" if "space" in fields else "to" if "to" in fields else None
    waits: Pick = "creature" if "target" in fields else "space" if at is not None else "none"
    return "creature" in fields, "target" in fields, at, waits


@cache
def ask_kind(kind: str, name: str) -> AskKind:
    """How the command `kind` takes its field `name`: creature ids, spaces or other values."""
    model = _models()[kind]
    if name in creature_fields(model):
        return "creature"
    info = model.model_fields.get(name)
    return "space" if info is not None and _names_space(info.annotation) else "value"


def _plain(value: Any) -> Any:
    """A command value as JSON has it: a space as a list (a list of spaces, a path, made without a call per space)."""
    if isinstance(value, _SEQUENCES):
        if len(value) == 2 and type(value[0]) is int and type(value[1]) is int:  # a space
            return list(value)
        return [
            (list(v) if len(v) == 2 and type(v[0]) is int and type(v[1]) is int else _plain(v))
            if isinstance(v, _SEQUENCES)
            else v
            for v in value
        ]
    return value


_SEQUENCES = (tuple, list)


def finish(option: ActionOption, creature_id: str) -> ActionOption:
    """`option` with its command filled in: the option's, each target's, the open choices typed. The option and
    its targets are filled in where they are the first time they are met (their `send` still the shared empty
    default: a builder made them for this menu alone), the option keeping its list of targets; one met again
    (shared by two options) is copied, in a list of the option's own."""
    values = option.__dict__
    kind = values["command"] or values["action"]
    try:
        has_creature, has_target, space_field, waits = _SHAPES[kind]
    except KeyError:
        has_creature, has_target, space_field, waits = _SHAPES[kind] = _shape(kind)
    send: dict[str, Any] = {"type": kind, "creature": creature_id} if has_creature else {"type": kind}
    params = values["params"]
    if params:
        for k, v in params.items():
            if v is not None:
                send[k] = _plain(v) if isinstance(v, _SEQUENCES) else v
    choose = values["choose"]
    if choose:
        asks, listed = _asking(kind, tuple(choose), tuple(values["several"]), tuple(values["optional"]))
    else:
        asks, listed = NO_LIST, False
    targets = values["targets"]
    other = False  # a target other than the creature itself or a space
    if targets:
        # Each target is filled in here, not in a function of its own (that call cost about 700 instructions).
        # A command that takes its creatures as a list (Distract's `targets`) gets them from that choice alone.
        named = has_target and not listed
        spaced = space_field == "space"
        copies: list[TargetOption] | None = None  # the targets, once one had to be copied
        for i, t in enumerate(targets):
            sent = send.copy()
            given = t.__dict__
            target = given["target"]
            if target is not None:
                if target != creature_id:
                    other = True
                if named:
                    sent["target"] = target
            elif spaced and given["space"] is not None:
                sent["space"] = _plain(given["space"])
                other = True
            else:
                other = True
            target_params = given["params"]
            if target_params:
                for k, v in target_params.items():
                    sent[k] = _plain(v) if isinstance(v, _SEQUENCES) else v
            if given["send"] is NO_DICT:
                given["send"] = sent
                if copies is not None:
                    copies.append(t)
            else:
                if copies is None:
                    copies = targets[:i]
                copies.append(_copied(t, send=sent))
        if copies is not None:
            targets = copies
    spaces = values["spaces"]
    at = space_field if spaces else None
    pick = values["pick"]
    if pick is None:
        if targets:
            pick = "creature_or_space" if spaces else "creature" if other else "none"
        else:
            pick = "space" if spaces else waits
    if values["send"] is NO_DICT:
        values["send"] = send
        values["targets"] = targets
        values["pick"] = pick
        values["at"] = at
        values["asks"] = asks
        return option
    return _copied(option, send=send, targets=targets, pick=pick, at=at, asks=asks)


_SHAPES: dict[str, tuple[bool, bool, str | None, Pick]] = {}
"""`_shape` of each command met (a command kind's shape never changes; there are a few dozen kinds)."""


@cache
def _asking(
    kind: str, choose: tuple[str, ...], several: tuple[str, ...], optional: tuple[str, ...]
) -> tuple[FrozenList[Ask], bool]:
    """The `Ask` of each field of `choose`, and whether one takes a list of creatures. The same list of the same
    `Ask` objects is handed to every menu: nothing changes them."""
    asks = FrozenList(
        construct(Ask, field=f, kind=ask_kind(kind, f), several=f in several, optional=f in optional) for f in choose
    )
    return asks, any(a.several and a.kind == "creature" for a in asks)


def kept_menu(
    state: GameState, creature_id: str, options: Callable[[GameState, Occupancy, str], list[ActionOption]]
) -> list[ActionOption]:
    """The menu of `creature_id` in `state`: `options` of them (given the state's occupancy) filled in
    (`finish_menu`), made once for the state (kept with its occupancy, `positions.kept`) and handed out again in a
    list of its own. Its options are shared by every reader: not to be changed (a seat's view copies those it
    changes)."""
    occ = positions.occupancy(state)
    found = positions.kept(
        occ, ("menu", creature_id), lambda: finish_menu(options(state, occ, creature_id), creature_id)
    )
    return list(found)


def finish_menu(options: list[ActionOption], creature_id: str) -> list[ActionOption]:
    """`finish` of each option of a menu just built, but those filled in already for every menu of the creature
    (`menu_shared`), handed on as they are."""
    return [o if o.send is not NO_DICT else finish(o, creature_id) for o in options]


def command_for(
    option: ActionOption, target: str | None = None, space: Cell | None = None, chosen: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The command a menu sends for `option` with the target or space clicked and the values `chosen` for its asks;
    None when the click is not one the option offers."""
    cmd: dict[str, Any] | None = None
    t = next((x for x in option.targets if target is not None and x.target == target), None)
    if option.pick == "none":
        cmd = dict(option.targets[0].send if len(option.targets) == 1 else option.send)
    elif t is not None and option.pick in ("creature", "creature_or_space"):
        cmd = dict(t.send)
    elif space is not None and option.at is not None and space in option.spaces:
        cmd = {**option.send, option.at: [space[0], space[1]]}
    if cmd is None:
        return None
    cmd.update({k: _plain(v) for k, v in (chosen or {}).items()})
    return cmd
