"""Commands: what a player or the Soulweaver asks the rules to do. One pydantic model per command,
told apart by `type`, so a command log is plain JSON.

Every field that names a creature is a `CreatureRef` (the table finds them by that mark: `creature_refs`); every
other id is an `Ident`, and text is a `Name` or `Notes`. What the rules and the table need to know about a kind of
command (who may send it, whether it attacks, ...) is a class attribute of its model: see `_Command`."""

from __future__ import annotations

import typing
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

from vtt.rules.limits import (
    AFFLICT_TIERS_MAX,
    CREATURE_REF,
    CREATURE_SIZE_MAX,
    CREATURE_SIZE_MIN,
    CREATURES_MAX,
    ID_MAX,
    MAP_CELLS_MAX,
    MAP_FILE_BYTES_MAX,
    SOULWEAVER_DICE_MAX,
    CreatureRef,
    Ident,
    Name,
    Notes,
    check_ident,
    plain_message,
    text_error,
)
from vtt.rules.model import Creature
from vtt.rules.paths import json_path

Cell = tuple[int, int]
Ailment = Literal["Blinded", "Dazzled", "Deafened", "Muted", "Slowed", "Unstable"]
"""seed-000 Impair: the Ailments it may cause."""
Sender = Literal["soulweaver", "actor", "decision", "turn"]
Hindrance = Literal["hinder_attack", "hinder_movement", "hinder_spell"]


def _check_source(value: str) -> str:
    if len(value) > SOURCE_MAX:
        raise ValueError(f"a source is at most {SOURCE_MAX} characters")
    kind, colon, ident = value.partition(":")
    for part in [kind, *(ident.split("/") if colon else [])]:
        check_ident(part)
    return value


def _check_image(value: str) -> str:
    why = text_error(value, IMAGE_ADDRESS_MAX)
    if why is not None:
        raise ValueError(why)
    return value


SOURCE_MAX = 4 * ID_MAX
SourceRef = Annotated[str, AfterValidator(_check_source)]
"""What caused an Ailment: the id of a creature, an ongoing effect or a Hold, bare or as "kind:id" (see
`ailments.resolve_source`; some kinds name a path of ids, "head_lock:hold/holder")."""
IMAGE_ADDRESS_MAX = MAP_FILE_BYTES_MAX
BackgroundImage = Annotated[str, AfterValidator(_check_image)]
"""A map background's address as text (bounded, no control characters); the rules check its form: an /api/ path of
this server, a data:image URL or an https URL (`model.background_image_error`)."""


class _Command(BaseModel):
    """A command's traits are class attributes, read by the rules and the table instead of lists of commands."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    SENT_BY: ClassVar[Sender] = "actor"
    """Who may send it (the Soulweaver may send anything): only the Soulweaver; the controller of its `creature`;
    the one the decision it answers waits on; the controller of the creature whose turn it is."""
    ANSWERS_DECISION: ClassVar[bool] = False
    """It answers a pending decision: the only kind of command the table takes while one waits."""
    ATTACK: ClassVar[bool] = False
    """Its `creature` attacks (refused in a Defensive Stance)."""
    WHILE_SWALLOWED: ClassVar[bool] = False
    """A swallowed creature may send it."""
    HINDERED_AS: ClassVar[Hindrance | None] = None
    """The reaction it may trigger (a Hinder), if any."""

    def attacker(self) -> str | None:
        """The creature this command makes attack, if it attacks."""
        creature = getattr(self, "creature", None)
        return creature if self.ATTACK and isinstance(creature, str) else None


# ---- the checks of a creature's fields, for commands that carry a creature or changes to one ------------------

_CREATURE_FIELD_LIMITS: dict[str, Any] = {
    "id": Ident,
    "name": Name,
    "species": Name | None,
    "notes": Notes,
    "size": Annotated[int, Field(ge=CREATURE_SIZE_MIN, le=CREATURE_SIZE_MAX)],
}
"""The limits a command applies to a creature's fields on top of the `Creature` model's own field types."""


@cache
def _creature_field_checks() -> dict[str, tuple[TypeAdapter[Any], ...]]:
    """Each creature field's checks: the command's limits on it, then the `Creature` model's own field type."""
    checks: dict[str, list[TypeAdapter[Any]]] = {}
    for key, limit in _CREATURE_FIELD_LIMITS.items():
        checks.setdefault(key, []).append(TypeAdapter(limit))
    for key, info in Creature.model_fields.items():
        annotation: Any = Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
        checks.setdefault(key, []).append(TypeAdapter(annotation))
    return {key: tuple(found) for key, found in checks.items()}


def _check_creature_fields(data: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
    """Each value of `data` checked against the type of the creature field its key names. Keys that name no field
    are left for the rules to refuse, in their own words. The error's message starts with the path of the bad value
    from the command (`creature.skills.Martial: ...`); its context holds that path (`where`) and the reason (`why`)."""
    for key, value in data.items():
        for check in _creature_field_checks().get(key, ()):
            try:
                check.validate_python(value)
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                where = json_path(f"{info.field_name}.{key}", [p for p in first["loc"] if isinstance(p, str | int)])
                why = plain_message(first)
                raise PydanticCustomError("creature_field", "{where}: {why}", {"where": where, "why": why}) from None
    return data


class Begin(_Command):
    """Start the fight: every participant rolls Zeal for Priority, round 1 begins."""

    type: Literal["begin"] = "begin"
    SENT_BY = "soulweaver"


class EndTurn(_Command):
    """End the current turn (a creature's, or the Soulweaver's)."""

    type: Literal["end_turn"] = "end_turn"
    SENT_BY = "turn"


class JoinOrder(_Command):
    """The Soulweaver adds a creature to the turn order mid-fight: it rolls Zeal for Priority and takes the place
    `position` (0 first), or, with None, the place after everyone already in Priority."""

    type: Literal["join_order"] = "join_order"
    SENT_BY = "soulweaver"
    creature: CreatureRef
    position: int | None = Field(None, ge=0, le=CREATURES_MAX)


class LeaveOrder(_Command):
    """The Soulweaver takes a creature out of the turn order; it stays on the map."""

    type: Literal["leave_order"] = "leave_order"
    SENT_BY = "soulweaver"
    creature: CreatureRef


class ShiftOrder(_Command):
    """The Soulweaver moves a creature one place earlier ("up") or later ("down") in the turn order."""

    type: Literal["shift_order"] = "shift_order"
    SENT_BY = "soulweaver"
    creature: CreatureRef
    direction: Literal["up", "down"]


class RerollPriority(_Command):
    """The Soulweaver has every creature in the turn order roll Priority again (in the Soulweaver's turn)."""

    type: Literal["reroll_priority"] = "reroll_priority"
    SENT_BY = "soulweaver"


class Move(_Command):
    """Move a creature's anchor to `to`, along `path` (anchor spaces after the start) or the shortest path.
    With `collide_with`, the last step enters that creature's space and fills the Movement Pool to cause a
    Collision."""

    type: Literal["move"] = "move"
    HINDERED_AS = "hinder_movement"
    creature: CreatureRef
    to: Cell
    path: list[Cell] | None = None
    collide_with: CreatureRef | None = None
    charge: bool = Field(False, description="Charge with the Collision: after Dash and 2 consecutive spaces.")

    def attacker(self) -> str | None:
        """A move is an attack when it ends in a Collision."""
        return self.creature if self.collide_with is not None else None


class Place(_Command):
    """The Soulweaver sets a creature down anywhere it fits (no Movement spent)."""

    type: Literal["place"] = "place"
    SENT_BY = "soulweaver"
    creature: CreatureRef
    to: Cell


class Dash(_Command):
    type: Literal["dash"] = "dash"
    creature: CreatureRef


class Strike(_Command):
    """A Strike on a creature (`target`), or on a wall or the ground at `space` (`surface`)."""

    type: Literal["strike"] = "strike"
    ATTACK = True
    HINDERED_AS = "hinder_attack"
    creature: CreatureRef
    target: CreatureRef | None = None
    space: Cell | None = None
    surface: Literal["wall", "ground"] | None = None
    weapon: Ident | None = Field(None, description="A gripped weapon's id; None strikes unarmed.")
    limb: Ident | None = Field(None, description="For an unarmed Strike, the limb used.")
    nimble: bool = Field(False, description="Attack Nimble, moving the size penalty to damage.")
    strike_type: Literal["B", "C", "F", "M", "S"] | None = Field(None, description="One of the weapon's types.")
    max_dice: int | None = Field(None, ge=0, description="Roll at most this many damage dice.")
    called_shot: Ident | None = Field(None, description="Called Shot: the id of the target's part aimed at.")
    charge: bool = Field(False, description="Charge: after Dash and 2 consecutive spaces; the turn ends after.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")
    ranged: bool = Field(False, description="Shoot or throw the ranged `weapon` at `target` (see `ranged`).")
    long_shot: int = Field(0, ge=0, description="Long Shot: range increments added, -1 on the attack each.")


class StrikeSpace(_Command):
    """A targeted attack on a space: the Soulweaver rolls for each occupant (seed-000)."""

    type: Literal["strike_space"] = "strike_space"
    ATTACK = True
    HINDERED_AS = "hinder_attack"
    creature: CreatureRef
    space: Cell
    weapon: Ident | None = None
    limb: Ident | None = None
    strike_type: Literal["B", "C", "F", "M", "S"] | None = None
    charge: bool = Field(False, description="Charge: after Dash and 2 consecutive spaces; the turn ends after.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")
    ranged: bool = Field(False, description="Shoot or throw the ranged `weapon` at the space (see `ranged`).")
    long_shot: int = Field(0, ge=0, description="Long Shot: range increments added, -1 on the attack each.")


class Grab(_Command):
    type: Literal["grab"] = "grab"
    ATTACK = True
    HINDERED_AS = "hinder_attack"
    creature: CreatureRef
    target: CreatureRef
    limb: Ident | None = None
    charge: bool = Field(False, description="Charge: after Dash and 2 consecutive spaces; the turn ends after.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Disarm(_Command):
    """Overpower with a melee weapon (or unarmed): the target drops `item` into the space `to` next to it."""

    type: Literal["disarm"] = "disarm"
    ATTACK = True
    HINDERED_AS = "hinder_attack"
    creature: CreatureRef
    target: CreatureRef
    item: Ident = Field(description="The id of the weapon the target holds.")
    to: Cell = Field(description="A space adjacent to the target, where the item falls.")
    weapon: Ident | None = None
    limb: Ident | None = None
    charge: bool = False
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Impair(_Command):
    """Overpower with a melee weapon (or unarmed): Tier 1 of the chosen Ailment."""

    type: Literal["impair"] = "impair"
    ATTACK = True
    HINDERED_AS = "hinder_attack"
    creature: CreatureRef
    target: CreatureRef
    ailment: Ailment
    weapon: Ident | None = None
    limb: Ident | None = None
    charge: bool = False
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Reposition(_Command):
    """Overpower with a melee weapon (or unarmed): move the target's anchor to `to`."""

    type: Literal["reposition"] = "reposition"
    ATTACK = True
    HINDERED_AS = "hinder_attack"
    creature: CreatureRef
    target: CreatureRef
    to: Cell
    weapon: Ident | None = None
    limb: Ident | None = None
    charge: bool = False
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Grapple(_Command):
    """Overpower a Held creature with a Free Limb or a limb already in its Hold: +1 Encumbered, join as Holder."""

    type: Literal["grapple"] = "grapple"
    ATTACK = True
    HINDERED_AS = "hinder_attack"
    creature: CreatureRef
    target: CreatureRef
    limb: Ident | None = None
    called_shot: Ident | None = Field(None, description="Called Shot: the part kept from use while in the Hold.")
    suffocate: bool = Field(False, description="Suffocate through a head this creature keeps from use.")
    charge: bool = False
    distal: bool = Field(False, description="Also deal the damage of the Distal on the limb used (seed-000).")
    strike_type: Literal["B", "C", "F", "M", "S"] | None = Field(None, description="One of the Distal's types.")
    swallow: bool = Field(False, description="Swallow a creature 6 or more sizes smaller that this Holder holds.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class BreakHold(_Command):
    """Overpower a Holder (`target`) with a Free Limb or a limb in the Hold to lower what it causes `held`."""

    type: Literal["break_hold"] = "break_hold"
    ATTACK = True
    HINDERED_AS = "hinder_attack"
    creature: CreatureRef
    target: CreatureRef
    held: CreatureRef | None = Field(None, description="The Grabbed creature; None when the Holder holds only one.")
    limb: Ident | None = None
    free_part: Ident | None = Field(None, description="A part of `held` the Holder keeps from use: free it instead.")
    charge: bool = False
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Flurry(_Command):
    """Tactic (seed-000): declare a number; for 1 round lose that many d12 on attack rolls and half as many on
    damage rolls; up to that many times this turn, a Strike or Overpower may be a Minor Action (`minor`)."""

    type: Literal["flurry"] = "flurry"
    WHILE_SWALLOWED = True
    creature: CreatureRef
    number: int = Field(ge=1)


class Distract(_Command):
    """Tactic (seed-000): attack the chosen Aware creatures; on success they are Focused on you (or on
    `sound_at`, the space a sound at range came from) and cannot drop Focus until their next turn."""

    type: Literal["distract"] = "distract"
    ATTACK = True
    HINDERED_AS = "hinder_attack"
    creature: CreatureRef
    target: CreatureRef | None = Field(None, description="One creature attacked (added to `targets`).")
    targets: list[CreatureRef] = Field(
        default_factory=list, max_length=CREATURES_MAX, description="The creatures attacked."
    )
    action: Literal["major", "minor", "speak"] = Field(
        "major", description="What it follows: a Major Action used (+2), a Minor Action used (+1), or speaking."
    )
    expects: list[CreatureRef] = Field(
        default_factory=list, max_length=CREATURES_MAX, description="Creatures that expect it: +6 on their defense."
    )
    sound_at: Cell | None = Field(None, description="The space of a sound made at range: Focus goes there.")


class StrikeStomach(_Command):
    """A swallowed creature attacks the stomach it is in (seed-000): an unattended object, Durability 2."""

    type: Literal["strike_stomach"] = "strike_stomach"
    ATTACK = True
    WHILE_SWALLOWED = True
    creature: CreatureRef
    target: CreatureRef | None = Field(None, description="The swallower (the menu's target); None: the one it is in.")
    weapon: Ident | None = Field(None, description="A gripped weapon's id; None strikes unarmed.")
    limb: Ident | None = Field(None, description="For an unarmed Strike, the limb used.")
    strike_type: Literal["B", "C", "F", "M", "S"] | None = None
    max_dice: int | None = Field(None, ge=0, description="Roll at most this many damage dice.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class SetFocus(_Command):
    """Focus (reference §5.3, a Minor Action): choose a creature (`target`) or a space as your Focus."""

    type: Literal["focus"] = "focus"
    creature: CreatureRef
    target: CreatureRef | None = None
    space: Cell | None = None


class PickUp(_Command):
    """Pick up a weapon lying within Reach (a thrown, dropped or Disarmed one) into free limbs (see `gear`)."""

    type: Literal["pick_up"] = "pick_up"
    creature: CreatureRef
    item: Ident = Field(description="The id of the weapon lying on the map.")


class DropFocus(_Command):
    """Drop your Focus (refused while a Distract keeps it until your next turn)."""

    type: Literal["drop_focus"] = "drop_focus"
    WHILE_SWALLOWED = True
    creature: CreatureRef


class PassTime(_Command):
    """The Soulweaver lets minutes pass: each Readied ability rolls Manifest after each minute (seed-000 Ready)."""

    type: Literal["pass_time"] = "pass_time"
    SENT_BY = "soulweaver"
    minutes: int = Field(1, ge=1, le=600)


class DefensiveStance(_Command):
    type: Literal["defensive_stance"] = "defensive_stance"
    creature: CreatureRef


class Manifest(_Command):
    """Manifest a Spell or Talent the creature knows (seed-000): a Major Action, DL 6, 1 Energy; a Spell also uses
    a Free Limb and costs words. `target` is the creature it affects (None: itself)."""

    type: Literal["manifest"] = "manifest"
    HINDERED_AS = "hinder_spell"
    creature: CreatureRef
    ability: Ident
    target: CreatureRef | None = None
    boosted: bool = False
    limb: Ident | None = Field(None, description="The Free Limb a Spell uses; None picks one.")


class Ready(_Command):
    """Manifest a Spell or Talent and keep it in a Free Limb with no effect until it is completed (seed-000)."""

    type: Literal["ready"] = "ready"
    HINDERED_AS = "hinder_spell"
    creature: CreatureRef
    ability: Ident
    target: CreatureRef | None = Field(None, description="None or the creature itself (the menu's target).")
    boosted: bool = False
    limb: Ident | None = Field(None, description="The Free Limb that keeps it; None picks one.")


class CompleteReady(_Command):
    """Complete a Readied Spell or Talent as a Minor Action: its effect happens now, on `target`."""

    type: Literal["complete_ready"] = "complete_ready"
    creature: CreatureRef
    target: CreatureRef | None = None
    limb: Ident | None = Field(None, description="The limb keeping it; None when only one does.")


class Dismiss(_Command):
    """End an ongoing Spell or Talent the creature Manifested (seed-000); a Spell uses a Free Limb."""

    type: Literal["dismiss"] = "dismiss"
    WHILE_SWALLOWED = True
    creature: CreatureRef
    effect: Ident = Field(description="The id of the ongoing effect.")
    target: CreatureRef | None = Field(None, description="The effect's subject, when given (the menu's target).")
    limb: Ident | None = None


class DropHold(_Command):
    """Stop being a Holder (No Action)."""

    type: Literal["drop_hold"] = "drop_hold"
    creature: CreatureRef


class Defend(_Command):
    """Answer a defense decision: roll the defense, or decline and fail it."""

    type: Literal["defend"] = "defend"
    SENT_BY = "decision"
    ANSWERS_DECISION = True
    decision: Ident
    roll: bool = True


class React(_Command):
    """Answer a reaction decision: Hinder, or let it pass."""

    type: Literal["react"] = "react"
    SENT_BY = "decision"
    ANSWERS_DECISION = True
    decision: Ident
    hinder: bool = False
    hinder_as: Hindrance | None = Field(
        None, description="Which Hinder, when the decision offers more than one (a Collision); None: the first."
    )


class ChooseTrauma(_Command):
    """Answer a Called Shot's Trauma decision: replace the Wounded it caused with twice as much Trauma, or not."""

    type: Literal["choose_trauma"] = "choose_trauma"
    SENT_BY = "decision"
    ANSWERS_DECISION = True
    decision: Ident
    trauma: bool = False


class ChooseOrder(_Command):
    """The Soulweaver's order for occupants whose doubles tie (seed-000 targeted attacks)."""

    type: Literal["choose_order"] = "choose_order"
    SENT_BY = "soulweaver"
    ANSWERS_DECISION = True
    decision: Ident
    order: list[CreatureRef] = Field(max_length=CREATURES_MAX)


class EditCreature(_Command):
    """The Soulweaver changes a creature's sheet: `changes` maps field names to new values (validated)."""

    type: Literal["edit_creature"] = "edit_creature"
    SENT_BY = "soulweaver"
    creature: CreatureRef
    changes: dict[Ident, Any]

    _changes_ok = field_validator("changes")(_check_creature_fields)


class ChangeSettings(_Command):
    """The Soulweaver changes table settings: `changes` maps setting names to new values (validated)."""

    type: Literal["change_settings"] = "change_settings"
    SENT_BY = "soulweaver"
    changes: dict[Ident, Any]


class Harm(_Command):
    """The Soulweaver deals damage of a chosen type and amount to a creature."""

    type: Literal["harm"] = "harm"
    SENT_BY = "soulweaver"
    target: CreatureRef
    amount: int = Field(ge=0, le=SOULWEAVER_DICE_MAX)
    physical: bool = True
    element: Ident | None = None
    pool: Literal["grit", "energy", "resolve"] = "grit"
    part: Ident | None = None


class Afflict(_Command):
    """The Soulweaver gives a creature Tiers of an Ailment (reference §5), from a source or not: `source` is a
    creature (whom a Frightened creature fears), an ongoing effect or a Hold, by id or as "kind:id"; while an
    ongoing source lasts the Tiers cannot be lowered, and with `ends_with_source` they go when it ends."""

    type: Literal["afflict"] = "afflict"
    SENT_BY = "soulweaver"
    target: CreatureRef
    ailment: Ident
    tiers: int = Field(1, ge=1, le=AFFLICT_TIERS_MAX)
    source: SourceRef | None = None
    ends_with_source: bool = False


class StandUp(_Command):
    """Stand up from Prone (reference §5.3; its cost is table setting `stand_up_cost`)."""

    type: Literal["stand_up"] = "stand_up"
    creature: CreatureRef


class DropProne(_Command):
    """Drop Prone: No Action, declared at any time (reference §5.3)."""

    type: Literal["drop_prone"] = "drop_prone"
    creature: CreatureRef


class Heal(_Command):
    """The Soulweaver heals a creature: d12 equal to the amount, faces of 6 or more remove Pips."""

    type: Literal["heal"] = "heal"
    SENT_BY = "soulweaver"
    target: CreatureRef
    amount: int = Field(ge=0, le=SOULWEAVER_DICE_MAX)
    kind: Name | None = Field(
        None, description="The type of healing, as typed; a creature Vulnerable to it gains none."
    )
    pool: Literal["grit", "energy", "resolve"] = "grit"


class ZealForMajor(_Command):
    type: Literal["zeal_for_major"] = "zeal_for_major"
    WHILE_SWALLOWED = True
    creature: CreatureRef


class Recover(_Command):
    type: Literal["recover"] = "recover"
    WHILE_SWALLOWED = True
    creature: CreatureRef


class Soothe(_Command):
    type: Literal["soothe"] = "soothe"
    creature: CreatureRef
    target: CreatureRef


class BoardObjectSpec(BaseModel):
    """The object an `edit_board` paints (one object filling every painted space)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: Name = Field(min_length=1)
    size: int = Field(1, ge=-20, le=20, description="Its size on the creature scale (a whole-space wall is 1).")
    durability: int | None = Field(None, ge=0, le=999, description="Its Durability (seed-000); None: not given.")
    reduction: int = Field(0, ge=0, le=99, description="Its Physical Reduction.")
    id: Ident | None = Field(None, description="Its id; None: made unique from the name.")


class EditBoard(_Command):
    """The Soulweaver paints or erases spaces of one layer of the map (see `board_edit`)."""

    type: Literal["edit_board"] = "edit_board"
    SENT_BY = "soulweaver"
    layer: Literal["wall", "water", "uneven", "conductive", "object"]
    paint: list[Cell] = Field(default_factory=list, max_length=20_000)
    erase: list[Cell] = Field(default_factory=list, max_length=20_000)
    tier: int = Field(1, ge=1, le=99, description="The Tier painted Uneven Ground gets.")
    object: BoardObjectSpec | None = Field(None, description="Layer object: the one object the painted spaces make.")


class SetBackground(_Command):
    """The Soulweaver sets the map's background image and how the grid lies on it; `image` None removes it."""

    type: Literal["set_background"] = "set_background"
    SENT_BY = "soulweaver"
    image: BackgroundImage | None = None
    offset: tuple[float, float] = (0.0, 0.0)
    cell_px: float = Field(70.0, gt=0, le=10_000)
    opacity: float = Field(1.0, ge=0, le=1)


class MarkFog(_Command):
    """The Soulweaver reveals spaces to every player, hides them from every player, or clears those marks, under
    fog of war (see `fog_marks`)."""

    type: Literal["mark_fog"] = "mark_fog"
    SENT_BY = "soulweaver"
    mark: Literal["reveal", "hide", "clear"]
    cells: list[Cell] = Field(min_length=1, max_length=MAP_CELLS_MAX)


class AddCreature(_Command):
    """The Soulweaver puts a new creature on the map: `creature` holds `Creature` fields (`id` optional: made
    unique from the name; `anchor` is `at`)."""

    type: Literal["add_creature"] = "add_creature"
    SENT_BY = "soulweaver"
    creature: dict[Ident, Any]
    at: Cell

    _creature_ok = field_validator("creature")(_check_creature_fields)


class RemoveCreature(_Command):
    """The Soulweaver takes a creature off the map and out of the game."""

    type: Literal["remove_creature"] = "remove_creature"
    SENT_BY = "soulweaver"
    creature: CreatureRef


class ResizeBoard(_Command):
    """The Soulweaver changes the map's size; refused if a creature would be cut off."""

    type: Literal["resize_board"] = "resize_board"
    SENT_BY = "soulweaver"
    cols: int = Field(ge=1, le=1000)
    rows: int = Field(ge=1, le=1000)


Command = Annotated[
    Begin
    | EndTurn
    | JoinOrder
    | LeaveOrder
    | ShiftOrder
    | RerollPriority
    | Move
    | Place
    | Dash
    | Strike
    | StrikeSpace
    | Grab
    | Disarm
    | Impair
    | Reposition
    | Grapple
    | BreakHold
    | Flurry
    | Distract
    | DefensiveStance
    | DropHold
    | Defend
    | React
    | ChooseOrder
    | ChooseTrauma
    | EditCreature
    | ChangeSettings
    | Harm
    | Afflict
    | StandUp
    | DropProne
    | Heal
    | ZealForMajor
    | Recover
    | Soothe
    | StrikeStomach
    | SetFocus
    | PickUp
    | DropFocus
    | PassTime
    | Manifest
    | Ready
    | CompleteReady
    | Dismiss
    | EditBoard
    | SetBackground
    | MarkFog
    | AddCreature
    | RemoveCreature
    | ResizeBoard,
    Field(discriminator="type"),
]
COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)


def parse_command(data: object) -> Command:
    """A command from JSON-like data; raises pydantic.ValidationError naming the bad field."""
    return COMMAND_ADAPTER.validate_python(data)


COMMAND_MODELS: tuple[type[_Command], ...] = typing.get_args(typing.get_args(Command)[0])
"""Every kind of command, in the order of the `Command` union."""


def _names_creature(annotation: Any) -> bool:
    """Whether a field's type is, or holds, a `CreatureRef`."""
    if typing.get_origin(annotation) is Annotated:
        return CREATURE_REF in annotation.__metadata__ or _names_creature(typing.get_args(annotation)[0])
    return any(_names_creature(arg) for arg in typing.get_args(annotation))


@cache
def creature_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of a command model that name creatures (marked `CreatureRef`)."""
    return tuple(
        name
        for name, info in model.model_fields.items()
        if CREATURE_REF in info.metadata or _names_creature(info.annotation)
    )


def creature_refs(cmd: BaseModel) -> set[str]:
    """Every creature id `cmd` names, found from its model's `CreatureRef` fields."""
    return set(creature_ids(cmd))


def creature_ids(cmd: BaseModel, fields: tuple[str, ...] | None = None) -> list[str]:
    """Every creature id `cmd` names, in the order of its `CreatureRef` fields (an id named twice is listed twice);
    given `fields` (some of those), the ids they name."""
    ids: list[str] = []
    if fields is None:
        model = type(cmd)
        fields = _COMMAND_CREATURE_FIELDS.get(model) or creature_fields(model)
    values = cmd.__dict__  # every field's value (getattr would cost a call each)
    for name in fields:
        value = values[name]
        if isinstance(value, str):
            ids.append(value)
        elif isinstance(value, (list, tuple)):  # a tuple of types: `list | tuple` would be built on every call
            ids.extend(v for v in value if isinstance(v, str))
    return ids


_COMMAND_CREATURE_FIELDS: dict[type[BaseModel], tuple[str, ...]] = {m: creature_fields(m) for m in COMMAND_MODELS}
"""`creature_fields` of every kind of command, read without the call (a Strike asks for its own on every apply)."""
