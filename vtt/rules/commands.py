"""Commands: what a player or the Soulweaver asks the rules to do. One pydantic model per command,
told apart by `type`, so a command log is plain JSON."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Cell = tuple[int, int]
Ailment = Literal["Blinded", "Dazzled", "Deafened", "Muted", "Slowed", "Unstable"]
"""seed-000 Impair: the Ailments it may cause."""


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Begin(_Command):
    """Start the fight: every participant rolls Zeal for Priority, round 1 begins."""

    type: Literal["begin"] = "begin"


class EndTurn(_Command):
    """End the current turn (a creature's, or the Soulweaver's)."""

    type: Literal["end_turn"] = "end_turn"


class Move(_Command):
    """Move a creature's anchor to `to`, along `path` (anchor spaces after the start) or the shortest path.
    With `collide_with`, the last step enters that creature's space and fills the Movement Pool to cause a
    Collision."""

    type: Literal["move"] = "move"
    creature: str
    to: Cell
    path: list[Cell] | None = None
    collide_with: str | None = None
    charge: bool = Field(False, description="Charge with the Collision: after Dash and 2 consecutive spaces.")


class Place(_Command):
    """The Soulweaver sets a creature down anywhere it fits (no Movement spent)."""

    type: Literal["place"] = "place"
    creature: str
    to: Cell


class Dash(_Command):
    type: Literal["dash"] = "dash"
    creature: str


class Strike(_Command):
    """A Strike on a creature (`target`), or on a wall or the ground at `space` (`surface`)."""

    type: Literal["strike"] = "strike"
    creature: str
    target: str | None = None
    space: Cell | None = None
    surface: Literal["wall", "ground"] | None = None
    weapon: str | None = Field(None, description="A gripped weapon's id; None strikes unarmed.")
    limb: str | None = Field(None, description="For an unarmed Strike, the limb used.")
    nimble: bool = Field(False, description="Attack Nimble, moving the size penalty to damage.")
    strike_type: Literal["B", "C", "F", "M", "S"] | None = Field(None, description="One of the weapon's types.")
    max_dice: int | None = Field(None, ge=0, description="Roll at most this many damage dice.")
    called_shot: str | None = Field(None, description="Called Shot: the id of the target's part aimed at.")
    as_trauma: bool = Field(False, description="Called Shot: replace each Wounded Tier with 2 Tiers of Trauma.")
    charge: bool = Field(False, description="Charge: after Dash and 2 consecutive spaces; the turn ends after.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")
    ranged: bool = Field(False, description="Shoot or throw the ranged `weapon` at `target` (see `ranged`).")
    long_shot: int = Field(0, ge=0, description="Long Shot: range increments added, -1 on the attack each.")


class StrikeSpace(_Command):
    """A targeted attack on a space: the Soulweaver rolls for each occupant (seed-000)."""

    type: Literal["strike_space"] = "strike_space"
    creature: str
    space: Cell
    weapon: str | None = None
    limb: str | None = None
    strike_type: Literal["B", "C", "F", "M", "S"] | None = None
    charge: bool = Field(False, description="Charge: after Dash and 2 consecutive spaces; the turn ends after.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Grab(_Command):
    type: Literal["grab"] = "grab"
    creature: str
    target: str
    limb: str | None = None
    charge: bool = Field(False, description="Charge: after Dash and 2 consecutive spaces; the turn ends after.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Disarm(_Command):
    """Overpower with a melee weapon (or unarmed): the target drops `item` into the space `to` next to it."""

    type: Literal["disarm"] = "disarm"
    creature: str
    target: str
    item: str = Field(description="The id of the weapon the target holds.")
    to: Cell = Field(description="A space adjacent to the target, where the item falls.")
    weapon: str | None = None
    limb: str | None = None
    charge: bool = False
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Impair(_Command):
    """Overpower with a melee weapon (or unarmed): Tier 1 of the chosen Ailment."""

    type: Literal["impair"] = "impair"
    creature: str
    target: str
    ailment: Ailment
    weapon: str | None = None
    limb: str | None = None
    charge: bool = False
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Reposition(_Command):
    """Overpower with a melee weapon (or unarmed): move the target's anchor to `to`."""

    type: Literal["reposition"] = "reposition"
    creature: str
    target: str
    to: Cell
    weapon: str | None = None
    limb: str | None = None
    charge: bool = False
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Grapple(_Command):
    """Overpower a Held creature with a Free Limb or a limb already in its Hold: +1 Encumbered, join as Holder."""

    type: Literal["grapple"] = "grapple"
    creature: str
    target: str
    limb: str | None = None
    called_shot: str | None = Field(None, description="Called Shot: the part kept from use while in the Hold.")
    suffocate: bool = Field(False, description="Suffocate through a head this creature keeps from use.")
    charge: bool = False
    distal: bool = Field(False, description="Also deal the damage of the Distal on the limb used (seed-000).")
    strike_type: Literal["B", "C", "F", "M", "S"] | None = Field(None, description="One of the Distal's types.")
    swallow: bool = Field(False, description="Swallow a creature 6 or more sizes smaller that this Holder holds.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class BreakHold(_Command):
    """Overpower a Holder (`target`) with a Free Limb or a limb in the Hold to lower what it causes `held`."""

    type: Literal["break_hold"] = "break_hold"
    creature: str
    target: str
    held: str | None = Field(None, description="The Grabbed creature; None when the Holder holds only one.")
    limb: str | None = None
    free_part: str | None = Field(None, description="A part of `held` the Holder keeps from use: free it instead.")
    charge: bool = False
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class Flurry(_Command):
    """Tactic (seed-000): declare a number; for 1 round lose that many d12 on attack rolls and half as many on
    damage rolls; up to that many times this turn, a Strike or Overpower may be a Minor Action (`minor`)."""

    type: Literal["flurry"] = "flurry"
    creature: str
    number: int = Field(ge=1)


class Distract(_Command):
    """Tactic (seed-000): attack the chosen Aware creatures; on success they are Focused on you (or on
    `sound_at`, the space a sound at range came from) and cannot drop Focus until their next turn."""

    type: Literal["distract"] = "distract"
    creature: str
    target: str | None = Field(None, description="One creature attacked (added to `targets`).")
    targets: list[str] = Field(default_factory=list, description="The creatures attacked.")
    action: Literal["major", "minor"] = Field("major", description="The action used: +2 for a Major, +1 for a Minor.")
    expects: list[str] = Field(default_factory=list, description="Creatures that expect it: +6 on their defense.")
    sound_at: Cell | None = Field(None, description="The space of a sound made at range: Focus goes there.")


class StrikeStomach(_Command):
    """A swallowed creature attacks the stomach it is in (seed-000): an unattended object, Durability 2."""

    type: Literal["strike_stomach"] = "strike_stomach"
    creature: str
    target: str | None = Field(None, description="The swallower (the menu's target); None: the one it is in.")
    weapon: str | None = Field(None, description="A gripped weapon's id; None strikes unarmed.")
    limb: str | None = Field(None, description="For an unarmed Strike, the limb used.")
    strike_type: Literal["B", "C", "F", "M", "S"] | None = None
    max_dice: int | None = Field(None, ge=0, description="Roll at most this many damage dice.")
    minor: bool = Field(False, description="Flurry: use it as a Minor Action while the Flurry has uses left.")


class SetFocus(_Command):
    """Focus (reference §5.3, a Minor Action): choose a creature (`target`) or a space as your Focus."""

    type: Literal["focus"] = "focus"
    creature: str
    target: str | None = None
    space: Cell | None = None


class DropFocus(_Command):
    """Drop your Focus (refused while a Distract keeps it until your next turn)."""

    type: Literal["drop_focus"] = "drop_focus"
    creature: str


class PassTime(_Command):
    """The Soulweaver lets minutes pass: each Readied ability rolls Manifest after each minute (seed-000 Ready)."""

    type: Literal["pass_time"] = "pass_time"
    minutes: int = Field(1, ge=1, le=600)


class DefensiveStance(_Command):
    type: Literal["defensive_stance"] = "defensive_stance"
    creature: str


class Manifest(_Command):
    """Manifest a Spell or Talent the creature knows (seed-000): a Major Action, DL 6, 1 Energy; a Spell also uses
    a Free Limb and costs words. `target` is the creature it affects (None: itself)."""

    type: Literal["manifest"] = "manifest"
    creature: str
    ability: str
    target: str | None = None
    boosted: bool = False
    limb: str | None = Field(None, description="The Free Limb a Spell uses; None picks one.")


class Ready(_Command):
    """Manifest a Spell or Talent and keep it in a Free Limb with no effect until it is completed (seed-000)."""

    type: Literal["ready"] = "ready"
    creature: str
    ability: str
    target: str | None = Field(None, description="None or the creature itself (the menu's target): no one else.")
    boosted: bool = False
    limb: str | None = Field(None, description="The Free Limb that keeps it; None picks one.")


class CompleteReady(_Command):
    """Complete a Readied Spell or Talent as a Minor Action: its effect happens now, on `target`."""

    type: Literal["complete_ready"] = "complete_ready"
    creature: str
    target: str | None = None
    limb: str | None = Field(None, description="The limb keeping it; None when only one does.")


class Dismiss(_Command):
    """End an ongoing Spell or Talent the creature Manifested (seed-000); a Spell uses a Free Limb."""

    type: Literal["dismiss"] = "dismiss"
    creature: str
    effect: str = Field(description="The id of the ongoing effect.")
    target: str | None = Field(None, description="The effect's subject, when given (the menu's target).")
    limb: str | None = None


class DropHold(_Command):
    """Stop being a Holder (No Action)."""

    type: Literal["drop_hold"] = "drop_hold"
    creature: str


class Defend(_Command):
    """Answer a defense decision: roll the defense, or decline and fail it."""

    type: Literal["defend"] = "defend"
    decision: str
    roll: bool = True


class React(_Command):
    """Answer a reaction decision: Hinder, or let it pass."""

    type: Literal["react"] = "react"
    decision: str
    hinder: bool = False


class ChooseOrder(_Command):
    """The Soulweaver's order for occupants whose doubles tie (seed-000 targeted attacks)."""

    type: Literal["choose_order"] = "choose_order"
    decision: str
    order: list[str]


class EditCreature(_Command):
    """The Soulweaver changes a creature's sheet: `changes` maps field names to new values (validated)."""

    type: Literal["edit_creature"] = "edit_creature"
    creature: str
    changes: dict[str, Any]


class ChangeSettings(_Command):
    """The Soulweaver changes table settings: `changes` maps setting names to new values (validated)."""

    type: Literal["change_settings"] = "change_settings"
    changes: dict[str, Any]


class Harm(_Command):
    """The Soulweaver deals damage of a chosen type and amount to a creature."""

    type: Literal["harm"] = "harm"
    target: str
    amount: int = Field(ge=0, le=100)
    physical: bool = True
    element: str | None = None
    pool: Literal["grit", "energy", "resolve"] = "grit"
    part: str | None = None


class Afflict(_Command):
    """The Soulweaver gives a creature Tiers of an Ailment (reference §5), from a source or not: `source` is a
    creature (whom a Frightened creature fears), an ongoing effect or a Hold, by id or as "kind:id"; while an
    ongoing source lasts the Tiers cannot be lowered, and with `ends_with_source` they go when it ends."""

    type: Literal["afflict"] = "afflict"
    target: str
    ailment: str
    tiers: int = Field(1, ge=1, le=99)
    source: str | None = None
    ends_with_source: bool = False


class StandUp(_Command):
    """Stand up from Prone (reference §5.3; its cost is table setting `stand_up_cost`)."""

    type: Literal["stand_up"] = "stand_up"
    creature: str


class DropProne(_Command):
    """Drop Prone: No Action, declared at any time (reference §5.3)."""

    type: Literal["drop_prone"] = "drop_prone"
    creature: str


class Heal(_Command):
    """The Soulweaver heals a creature: d12 equal to the amount, faces of 6 or more remove Pips."""

    type: Literal["heal"] = "heal"
    target: str
    amount: int = Field(ge=0, le=100)
    kind: str | None = None
    pool: Literal["grit", "energy", "resolve"] = "grit"


class ZealForMajor(_Command):
    type: Literal["zeal_for_major"] = "zeal_for_major"
    creature: str


class Recover(_Command):
    type: Literal["recover"] = "recover"
    creature: str


class Soothe(_Command):
    type: Literal["soothe"] = "soothe"
    creature: str
    target: str


class BoardObjectSpec(BaseModel):
    """The object an `edit_board` paints (one object filling every painted space)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1, max_length=80)
    size: int = Field(1, ge=-20, le=20, description="Its size on the creature scale (a whole-space wall is 1).")
    durability: int | None = Field(None, ge=0, le=999, description="Its Durability (seed-000); None: not given.")
    reduction: int = Field(0, ge=0, le=99, description="Its Physical Reduction.")
    id: str | None = Field(None, description="Its id; None: made unique from the name.")


class EditBoard(_Command):
    """The Soulweaver paints or erases spaces of one layer of the map (see `board_edit`)."""

    type: Literal["edit_board"] = "edit_board"
    layer: Literal["wall", "water", "uneven", "conductive", "object"]
    paint: list[Cell] = Field(default_factory=list, max_length=20_000)
    erase: list[Cell] = Field(default_factory=list, max_length=20_000)
    tier: int = Field(1, ge=1, le=99, description="The Tier painted Uneven Ground gets.")
    object: BoardObjectSpec | None = Field(None, description="Layer object: the one object the painted spaces make.")


class SetBackground(_Command):
    """The Soulweaver sets the map's background image and how the grid lies on it; `image` None removes it."""

    type: Literal["set_background"] = "set_background"
    image: str | None = None
    offset: tuple[float, float] = (0.0, 0.0)
    cell_px: float = Field(70.0, gt=0, le=10_000)
    opacity: float = Field(1.0, ge=0, le=1)


class AddCreature(_Command):
    """The Soulweaver puts a new creature on the map: `creature` holds `Creature` fields (`id` optional: made
    unique from the name; `anchor` is `at`)."""

    type: Literal["add_creature"] = "add_creature"
    creature: dict[str, Any]
    at: Cell


class RemoveCreature(_Command):
    """The Soulweaver takes a creature off the map and out of the game."""

    type: Literal["remove_creature"] = "remove_creature"
    creature: str


class ResizeBoard(_Command):
    """The Soulweaver changes the map's size; refused if a creature would be cut off."""

    type: Literal["resize_board"] = "resize_board"
    cols: int = Field(ge=1, le=1000)
    rows: int = Field(ge=1, le=1000)


BOARD_COMMANDS: tuple[type, ...] = (EditBoard, SetBackground, AddCreature, RemoveCreature, ResizeBoard)
"""The Soulweaver's map tools: not creature actions, allowed at any time."""


Command = Annotated[
    Begin
    | EndTurn
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
    | DropFocus
    | PassTime
    | Manifest
    | Ready
    | CompleteReady
    | Dismiss
    | EditBoard
    | SetBackground
    | AddCreature
    | RemoveCreature
    | ResizeBoard,
    Field(discriminator="type"),
]
COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)


def parse_command(data: object) -> Command:
    """A command from JSON-like data; raises pydantic.ValidationError naming the bad field."""
    return COMMAND_ADAPTER.validate_python(data)
