"""The game state: a plain, serialisable model of the board, the creatures, the turn and what waits.

Everything here is data; the rules that change it live in their own modules and go through `engine.apply`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.dataclasses import dataclass
from pydantic_core import ArgsKwargs

from vtt.rules import limits as L
from vtt.rules.dice import Roll
from vtt.rules.limits import (
    ACTIONS_PER_TURN_MAX,
    LIGHT_RADIUS_MAX,
    TERRAIN_CELLS_MAX,
    Color,
    Ident,
    Name,
    Notes,
    PictureHash,
)
from vtt.rules.records import Record, WeakRecord, read_as_the_model, refusing_unknown_keys
from vtt.rules.settings import TableSettings

Cell = tuple[int, int]
SOULWEAVER = "soulweaver"
STOMACH = "stomach"
"""The body part a swallowed creature is in (seed-000 Grapple); its Wounded Tiers make them fall out."""

LightLevel = Literal["lit", "dim", "dark"]
LimbKind = Literal["arm", "leg", "tail", "tentacle", "wing", "head", "other"]
REACH_LIMBS: frozenset[str] = frozenset({"arm", "leg", "tail", "tentacle", "wing"})


class Pool(BaseModel):
    """A pool that Pips fill (seed-004): Grit, Energy, Resolve. Replaced, never changed in place."""

    model_config = ConfigDict(frozen=True)
    max: int = Field(ge=0, le=L.POOL_MAX)
    pips: int = Field(0, ge=0, le=L.POOL_MAX)

    @property
    def full(self) -> bool:
        return self.pips >= self.max


class Weapon(BaseModel):
    """A weapon's data (reference §6.3): damage dice, usage Tier, size it is made for and properties."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: Ident
    name: Name
    damage: int = Field(ge=0, le=L.DICE_MAX)
    tier: int = Field(1, ge=0, le=L.DICE_MAX, description="Usage Tier; above the wielder's skill Tier it is a penalty.")
    made_for_size: int = Field(0, ge=L.CREATURE_SIZE_MIN, le=L.CREATURE_SIZE_MAX)
    lightweight: bool = False
    two_handed: bool = False
    extend: int = Field(0, ge=0, le=L.MAP_SIDE_MAX)
    accurate: bool = False
    devastating: bool = False
    strike_types: tuple[Literal["B", "C", "F", "M", "S"], ...] = Field(
        (), description="Strike types (seed-004): Bashing, Chopping, Flowing, Mystical, Stabbing; none by default."
    )
    element: Name | None = Field(None, description="The weapon's Element (fire, water, earth, air...).")
    guard: int = Field(0, ge=0, le=L.DICE_MAX, description="Its Guard value (reference §4.6; see `guard`).")
    ammo: int | None = Field(
        None, ge=0, le=L.AMMO_MAX, description="A launched weapon's ammunition left; None: not counted (see `gear`)."
    )
    ranged: Literal["thrown", "launched"] | None = Field(
        None, description="A ranged weapon: thrown (may also be a melee weapon) or launched (not a melee weapon)."
    )
    range: int | None = Field(
        None,
        ge=1,
        le=L.MAP_SIDE_MAX * 2,
        description="Range in spaces; None: the table's thrown or launched default (§6.3).",
    )


class Readied(BaseModel):
    """seed-000 Ready: a Spell or Talent Manifested and kept in a Free Limb, with no effect until completed."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ability: Ident
    roll: Roll = Field(description="The Manifest roll made when it was Readied; its result is used on completion.")
    dl: int = Field(description="The DL that Manifest roll had to reach.")
    boosted: bool = False
    minutes: int = Field(0, ge=0, description="Minutes it has been kept Ready (seed-000: a roll after each minute).")


class Distal(BaseModel):
    """A distal on a limb (reference §4.5: "distals attach to limbs"): a claw, fang or talon. A Grapple made with the
    limb may also deal its damage (seed-000 Grapple)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: Ident
    name: Name
    damage: int = Field(ge=0, le=L.DICE_MAX, description="Damage dice.")
    strike_types: tuple[Literal["B", "C", "F", "M", "S"], ...] = Field((), description="Strike types (seed-004).")
    element: Name | None = None


class Limb(BaseModel):
    """A limb or other part that can act: it grips, grabs and strikes unarmed while free."""

    model_config = ConfigDict(extra="forbid")
    id: Ident
    name: Name
    kind: LimbKind = "arm"
    can_grip: bool = True
    holding: Ident | None = None
    hold_id: Ident | None = None
    readied: Readied | None = Field(None, description="A Readied Spell or Talent kept in this limb (seed-000).")
    distal: Distal | None = Field(None, description="A claw, fang or talon on this limb (reference §4.5).")

    @property
    def grants_reach(self) -> bool:
        return self.kind in REACH_LIMBS

    @property
    def free(self) -> bool:
        return self.holding is None and self.hold_id is None and self.readied is None


@dataclass(slots=True, kw_only=True)
class BodyPart(Record):
    """A part of the body (reference §7): how many sizes smaller than the creature, and its injuries. A slotted
    record (cheap to copy: a hit copies the part it wounds), validated and written as the model it was (same
    constraints, defaults, errors in the same order, unknown keys refused, same JSON)."""

    id: Ident = Field()
    name: Name = Field()
    size_offset: int = Field(
        ge=-L.PART_OFFSET_MAX,
        le=L.PART_OFFSET_MAX,
        description="Sizes smaller than the whole creature (torso 2, head 5...).",
    )
    wounded: int = Field(default=0, ge=0)
    trauma: int = Field(default=0, ge=0)
    severed: bool = Field(default=False)

    @model_validator(mode="wrap")
    @classmethod
    def _read_as_the_model(cls, data: Any, handler: ModelWrapValidatorHandler[BodyPart]) -> BodyPart:
        """Keywords or a dict, read as the model read them: unknown keys refused."""
        return read_as_the_model(BodyPart, BODY_PART_FIELDS, data, handler)


BODY_PART_FIELDS: frozenset[str] = frozenset(BodyPart.__dataclass_fields__)
BodyPart.model_fields = BodyPart.__pydantic_fields__


def humanoid_parts() -> list[BodyPart]:
    return [
        BodyPart(id="torso", name="torso", size_offset=2),
        BodyPart(id=STOMACH, name="stomach", size_offset=4),
        BodyPart(id="left_leg", name="left leg", size_offset=3),
        BodyPart(id="right_leg", name="right leg", size_offset=3),
        BodyPart(id="left_arm", name="left arm", size_offset=4),
        BodyPart(id="right_arm", name="right arm", size_offset=4),
        BodyPart(id="head", name="head", size_offset=5),
        BodyPart(id="left_eye", name="left eye", size_offset=9),
        BodyPart(id="right_eye", name="right eye", size_offset=9),
        BodyPart(id="left_ear", name="left ear", size_offset=9),
        BodyPart(id="right_ear", name="right ear", size_offset=9),
    ]


class ContinuingDamage(BaseModel):
    """Continuing Damage (seed-004): dealt on the Soulweaver's turn, to one part each time."""

    model_config = ConfigDict(extra="forbid")
    id: str
    element: str | None = None
    physical: bool = False
    amount: int = Field(ge=0)
    part: str
    rounds: int = Field(1, ge=0)
    source: str | None = None


class AilmentSource(BaseModel):
    """Tiers of an Ailment that a source caused (reference §5.1: "An Ailment caused by an ongoing effect cannot be
    lowered while that effect lasts"). `source` is "kind:id": `effect:<id>`, `hold:<id>`, `swallowed:<swallower>`,
    `creature:<id>` (not an ongoing effect: whom a Frightened creature fears)... see `ailments.SOURCE_KINDS`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ailment: str
    tiers: int = Field(ge=1)
    source: str
    ends_with_source: bool = Field(
        False, description="The Tiers go when the source ends (an 'until' or 'while' rule); else they become reducible."
    )


def humanoid_limbs() -> list[Limb]:
    return [
        Limb(id="left_arm", name="left arm", kind="arm"),
        Limb(id="right_arm", name="right arm", kind="arm"),
        Limb(id="left_leg", name="left leg", kind="leg", can_grip=False),
        Limb(id="right_leg", name="right leg", kind="leg", can_grip=False),
    ]


class CarriedLight(BaseModel):
    """Light a creature carries (a torch, a lantern): spaces within `bright` of it are lit, within `dim` dim, where
    its light reaches them in a straight line (walls and objects block it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    bright: int = Field(0, ge=0, le=LIGHT_RADIUS_MAX)
    dim: int = Field(0, ge=0, le=LIGHT_RADIUS_MAX)


@dataclass(slots=True, kw_only=True)
class Creature(Record):
    """A creature on the board: a slotted record (cheap to copy and to read), validated on `Creature(...)` and
    `model_validate` as the model it was (same constraints, defaults and error locations, unknown keys refused), and
    written as that model wrote it. Every field is declared with `Field`: pydantic checks a dataclass's fields
    without one after those with one, and the errors are listed in the model's order."""

    id: Ident = Field()
    name: Name = Field()
    species: Name | None = Field(
        default=None,
        description="What kind of creature it is (goblin, wolf...); shown, no rule.",
    )
    size: int = Field(default=0, ge=L.CREATURE_SIZE_MIN, le=L.CREATURE_SIZE_MAX)
    anchor: Cell = Field()
    footprint: list[Cell] | None = Field(
        default=None, max_length=L.FOOTPRINT_CELLS_MAX, description="Offsets overriding the size's footprint shape."
    )
    controller: Name | None = Field(default=None, description="The player who controls it; None is the Soulweaver.")
    side: Name | None = Field(
        default=None, description="Its side; None: the players' creatures one, the Soulweaver's the other."
    )
    color: Color = Field(default="#7a5c3e")
    picture: PictureHash | None = Field(
        default=None, description="The token's picture (an uploaded image's hash); None: initials."
    )
    hidden: bool = Field(default=False, description="Known to the Soulweaver only: never shown or sent to anyone else.")
    notes: Notes = Field(default="", description="The Soulweaver's notes; never sent to a player.")
    skills: dict[Name, Annotated[int, Field(ge=0, le=L.SKILL_TIER_MAX)]] = Field(
        default_factory=dict, max_length=L.SKILLS_MAX
    )
    grit: Pool = Field(default_factory=lambda: Pool(max=6))
    energy: Pool = Field(default_factory=lambda: Pool(max=6))
    resolve: Pool = Field(default_factory=lambda: Pool(max=6))
    limbs: list[Limb] = Field(default_factory=humanoid_limbs, max_length=L.LIMBS_MAX)
    weapons: list[Weapon] = Field(default_factory=list, max_length=L.WEAPONS_MAX)
    bulk: float = Field(default=0, ge=0, description="The creature's own Bulk, carried by others in a Hold.")
    gear_bulk: float = Field(default=0, ge=0, description="Bulk the creature carries.")
    ailments: dict[Name, int] = Field(default_factory=dict, max_length=L.DAMAGE_TYPES_MAX)
    ailment_failures: dict[str, int] = Field(
        default_factory=dict, description="Consecutive failed end-of-turn defense rolls per Ailment (§5.1)."
    )
    ailment_sources: list[AilmentSource] = Field(
        default_factory=list,
        description="What caused some of the Ailments' Tiers (§5.1); the rest have no source.",
    )
    severe_threshold: int | None = Field(default=None, description="None: the table's skill Tier (Endure).")
    reductions: dict[Name, int] = Field(
        default_factory=dict,
        max_length=L.DAMAGE_TYPES_MAX,
        description="Damage Reduction by damage type: physical, magical or an element.",
    )
    armor_reduction: int = Field(default=0, ge=0, description="Physical Reduction from armour (Flowing ignores it).")
    immunities: list[Name] = Field(default_factory=list, max_length=L.DAMAGE_TYPES_MAX)
    vulnerabilities: list[Name] = Field(default_factory=list, max_length=L.DAMAGE_TYPES_MAX)
    parts: list[BodyPart] = Field(default_factory=humanoid_parts, max_length=L.PARTS_MAX)
    continuing: list[ContinuingDamage] = Field(default_factory=list)
    continuing_injury: dict[str, int] = Field(
        default_factory=dict, description="Continuing Damage Injury added up per part for Serious Injury."
    )
    continuing_wounded: dict[str, int] = Field(
        default_factory=dict,
        description="Wounded Tiers already caused from a part's added-up Continuing Damage.",
    )
    prone: bool = Field(default=False)
    unconscious: bool = Field(default=False)
    wake_failures: int = Field(default=0, ge=0, description="Consecutive failed Endure rolls to wake.")
    recoveries: int = Field(
        default=0, ge=0, description="Recoveries used; AP may be assigned after each (reference §4.3, advancement)."
    )
    dead: bool = Field(default=False)
    ruptured_conduit_risk: int = Field(
        default=0, ge=0, description="Energy Pips suffered on a full Energy Pool (may cause Ruptured Conduit)."
    )
    movement_pool: int | None = Field(default=None, ge=0, description="Overrides the table's Movement Pool.")
    minor_actions: int | None = Field(default=None, ge=0, description="Overrides the table's Minor Actions.")
    abilities: list[Ident] = Field(
        default_factory=list, max_length=L.ABILITIES_MAX, description="Ids of the Spells and Talents it knows."
    )
    focus: str | None = Field(default=None, description="The creature it is Focused on (seed-000 Distract, §5.3).")
    focus_space: Cell | None = Field(
        default=None,
        description="The space it is Focused on (a Distract's sound at range).",
    )
    focus_locked: bool = Field(default=False, description="Distract: it cannot drop its Focus until its next turn.")
    light: CarriedLight | None = Field(default=None, description="Light it carries (a torch), if any.")
    dark_sight: int = Field(
        default=0,
        ge=0,
        le=LIGHT_RADIUS_MAX,
        description="Spaces within which it sees without light (0: it needs light).",
    )
    swallowed_by: str | None = Field(
        default=None,
        description="seed-000 Grapple: the creature whose stomach it is in; it is off the board meanwhile.",
    )
    in_conflict: bool = Field(
        default=False, description="In Conflict (reference §3), as the Soulweaver marks it; Enraged 6+ is always in it."
    )
    overexertion_rolls: int = Field(
        default=0, ge=0, description="Overexertion rolls made this scene: each raises the next one's DL by 1."
    )

    @model_validator(mode="wrap")
    @classmethod
    def _read_as_the_model(cls, data: Any, handler: ModelWrapValidatorHandler[Creature]) -> Creature:
        """Keywords or a dict, read as the model read them: old saves converted, unknown keys refused."""
        given = data.kwargs or {} if isinstance(data, ArgsKwargs) and not data.args else data
        if not isinstance(given, dict):
            return handler(data)
        given = _stomach_wounded_was_a_count(given)
        made: Creature = refusing_unknown_keys(CREATURE_FIELDS, given, handler, "Creature")
        return made

    def skill(self, name: str) -> int:
        return self.skills.get(name, 0)

    def limb(self, limb_id: str) -> Limb | None:
        for limb in self.limbs:  # plain loops: asked many times by every command
            if limb.id == limb_id:
                return limb
        return None

    def weapon(self, weapon_id: str) -> Weapon | None:
        for w in self.weapons:
            if w.id == weapon_id:
                return w
        return None

    @property
    def team(self) -> str:
        if self.side:
            return self.side
        return "party" if self.controller is not None else "foes"

    def part(self, part_id: str) -> BodyPart | None:
        for p in self.parts:
            if p.id == part_id:
                return p
        return None

    def gripping_limbs(self, weapon_id: str) -> list[Limb]:
        return [limb for limb in self.limbs if limb.holding == weapon_id]

    @property
    def can_act(self) -> bool:
        return not (self.dead or self.unconscious)


def _stomach_wounded_was_a_count(data: dict[str, Any]) -> dict[str, Any]:
    """Games and scenarios saved before Wounded per part counted Wounded to a swallower's stomach apart, in
    `stomach_wounded`: those Tiers are Wounded on its stomach part now (and in its Wounded total)."""
    if "stomach_wounded" not in data:
        return data
    data = dict(data)
    tiers = data.pop("stomach_wounded")
    if not isinstance(tiers, int) or tiers <= 0:
        return data
    raw = data.get("parts")
    parts = [
        p.model_dump() if isinstance(p, BodyPart) else dict(p) if isinstance(p, dict) else p
        for p in (raw if isinstance(raw, list) else [p.model_dump() for p in humanoid_parts()])
    ]
    stomach = next((p for p in parts if isinstance(p, dict) and p.get("id") == STOMACH), None)
    if stomach is None:
        raise ValueError("stomach_wounded: the creature has no stomach part")
    stomach["wounded"] = int(stomach.get("wounded", 0)) + tiers
    ailments = dict(data.get("ailments") or {})
    ailments["Wounded"] = int(ailments.get("Wounded", 0)) + tiers
    data["parts"], data["ailments"] = parts, ailments
    return data


CREATURE_FIELDS: frozenset[str] = frozenset(Creature.__dataclass_fields__)
Creature.model_fields = Creature.__pydantic_fields__


class BoardObject(BaseModel):
    """An object that fills spaces (a pillar, a crate); walls are simply filled spaces.

    `size` is the object's size on the creature scale (a wall filling a whole space is a size 1 object, seed-000).
    `durability` is its Durability (seed-000 names it for an unattended object, the stomach: Durability 2); None
    when the map gives none. Injury beyond it is `wounded`; at the table's `object_broken_at` Tiers it is `broken`:
    it stays on the map but no longer fills its spaces (see `objects`)."""

    model_config = ConfigDict(extra="forbid")
    id: Ident
    name: Name
    cells: list[Cell] = Field(min_length=1, max_length=L.OBJECT_CELLS_MAX)
    size: int = Field(1, ge=L.CREATURE_SIZE_MIN, le=L.CREATURE_SIZE_MAX)
    durability: int | None = Field(None, ge=0, description="The object's Durability (seed-000); None: not given.")
    reduction: int = Field(0, ge=0, description="Its Physical Reduction (seed-000: the stomach has 0).")
    wounded: int = Field(0, ge=0, description="Tiers of Wounded: Injury beyond its Durability (see `objects`).")
    broken: bool = Field(False, description="Broken: it no longer fills its spaces (see `objects`).")


class LooseItem(BaseModel):
    """Something lying in a space: a dropped weapon."""

    model_config = ConfigDict(extra="forbid")
    weapon: Weapon
    cell: Cell
    owner: str | None = None


BACKGROUND_DATA_LIMIT = 11_200_000
"""Longest `data:` URL a background may be (characters): an 8 MiB picture, the upload limit, in base64 with its
prefix, so that a map file exported with its uploaded picture loads again."""
URL_LIMIT = 2048
_DATA_URL = re.compile(r"data:image/(png|jpeg|webp);base64,[A-Za-z0-9+/]*={0,2}")
_API_PATH = re.compile(r"/api/[A-Za-z0-9._~%/?&=+-]*")
_HTTPS_URL = re.compile(r"https://[A-Za-z0-9.-]+(:[0-9]+)?(/[^\s\"'<>\\]*)?")


def background_image_error(image: str) -> str | None:
    """Why `image` cannot be a map's background, or None: it must be an `/api/...` path of this server, a
    `data:image/png|jpeg|webp;base64,...` URL of at most `BACKGROUND_DATA_LIMIT` characters, or an https URL."""
    if image.startswith("data:"):
        if len(image) > BACKGROUND_DATA_LIMIT:
            return f"the data URL is {len(image)} characters long; at most {BACKGROUND_DATA_LIMIT} (upload it instead)"
        if not _DATA_URL.fullmatch(image):
            return "a data URL must be data:image/png, image/jpeg or image/webp with ;base64, and base64 text"
        return None
    if len(image) > URL_LIMIT:
        return f"the address is longer than {URL_LIMIT} characters"
    if image.startswith("/api/"):
        if ".." in image or not _API_PATH.fullmatch(image):
            return "an /api/ path may not contain '..', spaces or unusual characters"
        return None
    if image.startswith("https://"):
        return None if _HTTPS_URL.fullmatch(image) else "not a valid https URL"
    return "the image must be an /api/... path, a data:image/png|jpeg|webp;base64 URL or an https:// URL"


class Background(BaseModel):
    """A map's background image and how the grid lies on it: the image's pixel `offset` [x, y] of the grid's
    origin (the top-left corner of space (0, 0)'s bounding box), `cell_px` pixels of the image per space (a square's
    side; for hexes, the distance between the centres of neighbouring hexes) and its `opacity`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    image: str
    offset: tuple[float, float] = (0.0, 0.0)
    cell_px: float = Field(70.0, gt=0, le=10_000)
    opacity: float = Field(1.0, ge=0, le=1)

    @field_validator("image")
    @classmethod
    def _image_ok(cls, v: str) -> str:
        why = background_image_error(v)
        if why is not None:
            raise ValueError(why)
        return v


def _as_cell_key(key: Any) -> Any:
    """A JSON object key "q,r" (how a dict keyed by spaces is written in JSON) as the space (q, r)."""
    if isinstance(key, str) and "," in key:
        q, _, r = key.partition(",")
        try:
            return (int(q), int(r))
        except ValueError:
            return key
    return key


class Board(BaseModel):
    """The map: its size, what fills spaces (walls, objects), the terrain (Uneven Ground Tiers, water, conductive
    material), things lying around and the background image. The rules replace these collections, never change
    them in place (see `filled`)."""

    model_config = ConfigDict(extra="forbid")
    cols: int = Field(ge=1, le=L.MAP_SIDE_MAX)
    rows: int = Field(ge=1, le=L.MAP_SIDE_MAX)
    walls: set[Cell] = Field(default_factory=set, max_length=L.WALLS_MAX)
    objects: list[BoardObject] = Field(default_factory=list, max_length=L.OBJECTS_MAX)
    items: list[LooseItem] = Field(default_factory=list, max_length=L.ITEMS_MAX)
    conductive: list[list[Cell]] = Field(
        default_factory=list,
        max_length=L.TERRAIN_CELLS_MAX,
        description="Connected pieces of conductive material, each a list of spaces.",
    )
    water: set[Cell] = Field(
        default_factory=set,
        max_length=L.TERRAIN_CELLS_MAX,
        description="Spaces of water; touching spaces are connected.",
    )
    uneven: dict[Cell, Annotated[int, Field(ge=1, le=99)]] = Field(
        default_factory=dict,
        max_length=L.TERRAIN_CELLS_MAX,
        description="Uneven Ground: space -> its Tier (reference §2.5: marbles make Tier 2 Uneven Ground).",
    )
    light: dict[Cell, LightLevel] = Field(
        default_factory=dict,
        max_length=TERRAIN_CELLS_MAX,
        description="Light of single spaces: lit, dim or dark; a space not named has the table's ambient light.",
    )
    background: Background | None = None
    revealed: set[Cell] = Field(
        default_factory=set,
        max_length=L.MAP_CELLS_MAX,
        description="Spaces the Soulweaver revealed to every player under fog of war (`fog_marks`).",
    )
    hidden: set[Cell] = Field(
        default_factory=set,
        max_length=L.MAP_CELLS_MAX,
        description="Spaces the Soulweaver hid from every player under fog of war, even in sight (`fog_marks`).",
    )

    @field_validator("light", mode="before")
    @classmethod
    def _light_as_cells(cls, v: Any) -> Any:
        if isinstance(v, dict):
            return {_as_cell_key(k): level for k, level in v.items()}
        if isinstance(v, list | tuple):  # [[q, r, "dim"], ...], the map file's form
            out: dict[Any, Any] = {}
            for item in v:
                if not (isinstance(item, list | tuple) and len(item) == 3):
                    raise ValueError('each light entry is [q, r, "lit" or "dim" or "dark"]')
                out[(item[0], item[1])] = item[2]
            return out
        return v

    @field_validator("uneven", mode="before")
    @classmethod
    def _uneven_as_cells(cls, v: Any) -> Any:
        if isinstance(v, dict):
            return {_as_cell_key(k): t for k, t in v.items()}
        if isinstance(v, list | tuple):  # [[q, r, tier], ...], the map file's form
            out: dict[Any, Any] = {}
            for item in v:
                if not (isinstance(item, list | tuple) and len(item) == 3):
                    raise ValueError("each Uneven Ground entry is [q, r, tier]")
                out[(item[0], item[1])] = item[2]
            return out
        return v

    @field_validator("water", "walls", "revealed", "hidden", mode="before")
    @classmethod
    def _cells_as_tuples(cls, v: Any, info: ValidationInfo) -> Any:
        if isinstance(v, list | set | tuple):
            limit = L.WALLS_MAX if info.field_name == "walls" else L.TERRAIN_CELLS_MAX
            if len(v) > limit:  # before a set of millions is built
                raise ValueError(f"at most {limit} spaces (this has {len(v)})")
            return {tuple(c) if isinstance(c, list | tuple) else c for c in v}
        return v

    @field_validator("conductive")
    @classmethod
    def _conductive_bounded(cls, v: list[list[Cell]]) -> list[list[Cell]]:
        total = sum(len(piece) for piece in v)
        if total > L.TERRAIN_CELLS_MAX:
            raise ValueError(f"at most {L.TERRAIN_CELLS_MAX} spaces in all (this has {total})")
        return v

    def filled(self) -> frozenset[Cell]:
        """Spaces filled by walls or objects: nothing enters them and they obstruct. Kept until the walls or
        the objects are replaced (the rules replace them, never change them in place)."""
        walls, objects = self.walls, self.objects
        kept = _FILLED.get((id(walls), id(objects)))
        if kept is not None and kept[0] is walls and kept[1] is objects:
            return kept[2]
        out = set(walls)
        for obj in objects:
            if not obj.broken:
                out.update(obj.cells)
        found = frozenset(out)
        if len(_FILLED) >= FILLED_KEPT:
            _FILLED.clear()
        _FILLED[(id(walls), id(objects))] = (walls, objects, found)
        return found


FILLED_KEPT = 256
"""How many boards' walls and objects `Board.filled` keeps the filled spaces of."""
_FILLED: dict[tuple[int, int], tuple[set[Cell], list[BoardObject], frozenset[Cell]]] = {}
"""`Board.filled` by the ids of the walls and objects it was worked out from (held, so the ids stay theirs): kept
apart from the board, so two boards equal in their fields compare equal whether or not one was asked."""


class Economy(BaseModel):
    """What a creature has left this turn (reference §3)."""

    major: int = 0
    minor: int = 0
    movement_max: int = 0
    movement_spent: int = 0
    dashed: bool = False
    consecutive_spaces: int = 0
    attacked: bool = False
    manifested: bool = False
    words_spent: int = Field(0, ge=0, description="Words spent on Spells this turn (table setting words_per_turn).")
    charging: bool = Field(False, description="A Charge was declared: the turn ends when its attack is resolved.")
    major_unlocked: bool = Field(False, description="A DL 12 Zeal roll allows a Major Action on a full Resolve Pool.")
    flurry_uses: int = Field(0, ge=0, description="Flurry: Strikes or Overpowers left to use as a Minor Action.")
    balance: int | None = Field(
        None, description="The Balance Mobility roll made this turn (Uneven Ground): it holds for the round (§2.5)."
    )
    balance_fumbled: bool = Field(False, description="That Balance roll was a Fumble: it holds as a failure.")
    turn_over: bool = Field(False, description="Its turn ended after a Charge while the Soulweaver's turn goes on.")
    distractable: list[Literal["major", "minor"]] = Field(
        default_factory=list,
        max_length=ACTIONS_PER_TURN_MAX,
        description="Actions used this turn that no Distract has followed yet (seed-000: 'After you use an action').",
    )

    @property
    def movement_left(self) -> int:
        return max(0, self.movement_max - self.movement_spent)


class Effect(BaseModel):
    """An ongoing effect; "for 1 round" ends when its creator's next turn starts (reference §3)."""

    id: Ident
    name: Name
    creator: str
    subject: str
    modifiers: dict[str, int] = Field(default_factory=dict)
    rounds: int = 1
    curse: bool = False
    ability: str | None = Field(None, description="The Spell or Talent this ongoing effect is, if any.")
    limbs: list[str] = Field(default_factory=list, description="Flurry: the subject's limbs that cannot attack.")


class PartLock(BaseModel):
    """A part of a Held creature that a Holder's Grapple with a Called Shot keeps from being used while in the
    Hold (seed-000 Grapple), with the Holder's limb that holds it and the Strangled Tiers it causes."""

    held: str
    part: str
    holder: str
    limb: str
    strangled: int = Field(0, ge=0, description="Tiers of Strangled caused by suffocating through this head.")


class Hold(BaseModel):
    """A Hold (seed-000 Grab): Holders with the limbs they use, and the Held."""

    id: str
    holders: dict[str, list[str]] = Field(default_factory=dict)
    held: list[str] = Field(default_factory=list)
    extra_encumbered: dict[str, int] = Field(default_factory=dict)
    caused: dict[str, dict[str, int]] = Field(
        default_factory=dict,
        description="Holder -> Held -> Tiers of Encumbered that Holder causes (Grab 2, Grapple +1, Break Hold -2).",
    )
    locks: list[PartLock] = Field(default_factory=list)

    @property
    def members(self) -> list[str]:
        return list(dict.fromkeys([*self.holders, *self.held]))


class TurnOrder(BaseModel):
    round: int = 0
    entries: list[str] = Field(default_factory=list, description="Creature ids in Priority, then the Soulweaver.")
    index: int = 0
    priority: dict[str, int] = Field(default_factory=dict)

    @property
    def started(self) -> bool:
        return self.round > 0

    @property
    def current(self) -> str | None:
        return self.entries[self.index] if self.started and self.entries else None


class Decision(BaseModel):
    """A choice someone else must make before an action can go on: a pending decision."""

    id: str
    kind: Literal["defense", "order", "reaction", "trauma"]
    to: str = Field(description="Who answers: a player id or the Soulweaver.")
    creature: str | None = Field(None, description="The creature deciding, for a defense.")
    prompt: str
    options: list[str]
    payload: dict[str, Any] = Field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class GameState(WeakRecord):
    """The whole game: a slotted record (cheap to copy and to read), validated on `GameState(...)` and
    `model_validate` as the model it was (same constraints, defaults and error locations, unknown keys refused), and
    written as that model wrote it. Every field is declared with `Field`: pydantic checks a dataclass's fields
    without one after those with one, and the errors are listed in the model's order."""

    settings: TableSettings = Field(default_factory=TableSettings)
    board: Board = Field()
    creatures: dict[str, Creature] = Field(default_factory=dict, max_length=L.CREATURES_MAX)
    turn: TurnOrder = Field(default_factory=TurnOrder)
    economy: dict[str, Economy] = Field(default_factory=dict)
    holds: dict[str, Hold] = Field(default_factory=dict)
    effects: list[Effect] = Field(default_factory=list)
    pending: list[Decision] = Field(default_factory=list)
    reactions: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Commands waiting on the reactions they triggered, by group id."
    )
    next_id: int = Field(default=1)
    version: int = Field(default=0)

    @model_validator(mode="wrap")
    @classmethod
    def _read_as_the_model(cls, data: Any, handler: ModelWrapValidatorHandler[GameState]) -> GameState:
        """Keywords or a dict, read as the model read them: unknown keys refused."""
        return read_as_the_model(GameState, STATE_FIELDS, data, handler)

    def new_id(self, prefix: str) -> str:
        value = f"{prefix}{self.next_id}"
        self.next_id += 1
        return value

    def hold_of(self, creature_id: str) -> Hold | None:
        return next((h for h in self.holds.values() if creature_id in h.members), None)


STATE_FIELDS: frozenset[str] = frozenset(GameState.__dataclass_fields__)
GameState.model_fields = GameState.__pydantic_fields__
