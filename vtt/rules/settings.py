"""Table settings: every ASSUMPTION of reference.md is a setting here, never a constant in a rule.

Each field names the reference section it settles. A group changes them per table; the defaults are the
reference's proposed defaults (reference §9).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from vtt.rules.grid import GridKind

Cell = tuple[int, int]
Sense = Literal["sight", "sound", "smell"]


CONFLICT_DL = (
    "every conflict attack seed-000 gives a DL (Strike, Disarm, Impair, Reposition, Collision and the three Hinders) "
    "has DL 3, so this attack of the same kind has DL 3 too (ASSUMPTION by analogy)"
)


def _sight() -> list[Sense]:
    return ["sight"]


class TableSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _older_swallow_setting(cls, data: Any) -> Any:
        """Tables saved before "no light" was Concealment had a flat `swallowed_attack_penalty` (0 by default):
        0 now means the new default, a penalty p the Concealment Tier p (the same penalty at 1 per Tier)."""
        if not isinstance(data, dict) or "swallowed_attack_penalty" not in data:
            return data
        data = dict(data)
        penalty = data.pop("swallowed_attack_penalty")
        if isinstance(penalty, int) and penalty > 0:
            data.setdefault("swallowed_darkness", penalty)
        return data

    rules_version: str = Field("seeds", description="Rule revision followed: the seeds' newer one (§0).")
    grid: GridKind = Field(GridKind.HEX, description="Hex (axial) or square spaces (§2.1).")
    ties_to: Literal["defender", "attacker"] = Field("defender", description="Who wins ties (§1.3, gap 1).")
    fumble_always_fails: bool = Field(True, description="A Fumble is always a failure (§1.5).")
    major_actions: int = Field(1, ge=0, description="Major Actions per turn (§3, DERIVED).")
    minor_actions: int = Field(2, ge=0, description="Minor Actions per turn (§3, gap 11).")
    movement_pool: int = Field(5, ge=0, description="Spaces in a Movement Pool (§2.5, gap 6).")
    dash_adds_pool: bool = Field(True, description="Dash is a Minor Action adding a second pool (gap 6).")
    npcs_roll_priority: bool = Field(
        False, description="NPCs roll their own Priority instead of acting on the Soulweaver's turn (gap 22)."
    )
    players_place_before_fight: bool = Field(
        True,
        description="Before the fight begins (round 0) players set their own creatures down anywhere they fit, as "
        "the Soulweaver may, with no Movement spent. The rules move creatures only in turns (reference §3), and "
        "before Priority is rolled there are none: the group arranges its starting places, which the rules leave to "
        "the table. True: players place their own tokens, saving the Soulweaver a round of requests; a table that "
        "wants the Soulweaver alone to set the scene turns it off.",
    )
    space_capacity: float = Field(
        1.0, gt=0, description="Area one space holds; a creature of size s fills 2^(s-1) (§2.2, gap 3)."
    )
    creatures_obstruct: bool = Field(
        False, description="Creatures other than the target count as physical obstruction (§2.6)."
    )
    defense_prompts: Literal["players", "everyone", "nobody"] = Field(
        "players",
        description="Whose defenses wait for a choice to roll or decline; the rest roll at once (§1.3).",
    )
    strike_skill: str = Field("Martial", description="Skill a melee Strike rolls (§4.1).")
    strike_defense: str = Field("Elude", description="Skill a Strike attacks (ASSUMPTION).")
    unarmed_damage: int = Field(1, ge=0, description="Damage dice of an unarmed limb (§6.3, gap 20).")
    two_handed_grip: int = Field(2, ge=1, description="Limbs needed to Grip a Two-handed weapon (§6.3).")
    ranged_skill: str = Field("Nimble", description="Skill a ranged Strike rolls (§4.1).")
    thrown_range_default: int = Field(
        3, ge=1, description="Range of a thrown weapon whose data gives none (§6.3 Thrown / Launched ranges, gap)."
    )
    launched_range_default: int = Field(
        10, ge=1, description="Range of a launched weapon whose data gives none (§6.3 Thrown / Launched ranges, gap)."
    )
    thrown_weapon_drops: bool = Field(
        True, description="A thrown weapon leaves the hand and lies in the space it was thrown at (gap)."
    )
    grab_dl: int = Field(3, ge=0, description=f"DL of Grab: the seed names none (seed-000 Grab); {CONFLICT_DL}.")
    collision_damage: int = Field(1, ge=0, description="Damage dice of a Collision before size (gap).")
    grab_skill: str = Field("Athletics", description="Skill Grab rolls (§1.3).")
    grab_defense: str = Field("Elude", description="Skill Grab attacks (§1.3).")
    collision_skill: str = Field("Athletics", description="Skill a Collision rolls (ASSUMPTION).")
    collision_defense: str = Field("Athletics", description="Skill a Collision attacks (ASSUMPTION).")
    hold_escape_skill: str = Field(
        "Athletics", description="Skill an effect moving a Hold member out rolls (seed-000 Hold)."
    )
    bulk_limit_per_athletics: float = Field(10, gt=0, description="Bulk Limit = this x (Athletics + 1) (§4.5, gap 15).")
    bulk_per_encumbered: float = Field(
        10, gt=0, description="Each this much Bulk over the limit is 1 Tier of Encumbered (§4.5, gap 15)."
    )
    severe_threshold_skill: str = Field("Endure", description="Severe Threshold = this skill's Tier (§4.4, gap 14).")
    part_table: list[tuple[int, int, str]] | None = Field(
        None, description="d12 part roll: (from face, to face, part id); 12 rolls again for head, eyes, ears (§7)."
    )
    soothe_cost: Literal["major", "minor"] = Field("minor", description="Action that Soothes Acid (gap).")
    reactions: bool = Field(
        True, description="Offer Hinder Attack, Hinder Movement and Hinder Spell as reactions (seed-000)."
    )
    hinder_allies: bool = Field(False, description="Creatures may Hinder their own side too (§2.5, gap 8).")
    hinder_attack_skill: str = Field("Martial", description="Skill a Hinder Attack rolls (gap).")
    hinder_attack_defense: str = Field("Martial", description="Skill the hindered attacker defends with (gap).")
    hinder_movement_skill: str = Field("Athletics", description="Skill a Hinder Movement rolls (gap).")
    hinder_movement_defense: str = Field("Athletics", description="Skill the hindered mover defends with (gap).")
    full_resolve_moves: bool = Field(
        False,
        description="A creature whose Resolve Pool is full may still move, and stand up paying Movement. seed-004: "
        '"the only actions you can use are Recovery and roll Zeal"; whether moving is an action is not said (gap). '
        "ASSUMPTION False, the strict reading: moving is something a creature does with its turn, and the rule "
        "leaves it only Recovery and the Zeal roll.",
    )
    reaction_seconds: int = Field(30, ge=0, description="How long the table waits for a reaction (0: forever).")
    reaction_timeout: Literal["pass", "hinder"] = Field("pass", description="The answer when the time runs out.")
    defense_seconds: int = Field(
        0,
        ge=0,
        description="How long the table waits for a defender to choose to roll or decline (0: forever). The rules "
        "have the defender choose (§1.3) and set no time for it; a defense left waiting holds up the whole table, "
        "so a group may give it a limit, as it has one for reactions. Off by default: a defense is part of the "
        "attack, and the table should not choose for a defender unasked.",
    )
    defense_timeout: Literal["roll", "decline"] = Field(
        "roll",
        description="The answer when a defense's time runs out, given by the time limit in the Soulweaver's name. "
        "Roll by default: rolling is what a defender nearly always chooses, and declining fails the defense.",
    )
    physical_dice: bool = Field(
        False,
        description="Each roll asks the person rolling to type the faces of real dice (the count the rules ask for, "
        "each 1 to 12), marked as typed in the log. The rules roll d12s (reference §1.1) and say nothing of who "
        "rolls them or how. False: the table rolls, which is quick and lets the time limit answer a reaction; a "
        "group that likes the feel of its own dice turns it on (the time limit's own answers still use the "
        "table's dice, as nobody is there to type them).",
    )
    disarm_skill: str = Field("Athletics", description="Skill Disarm rolls (seed-000 names none; gap).")
    impair_skill: str = Field("Athletics", description="Skill Impair rolls (gap).")
    impair_defense: str = Field("Athletics", description="Skill Impair attacks (gap).")
    reposition_skill: str = Field("Athletics", description="Skill Reposition rolls (gap).")
    reposition_defense: str = Field("Athletics", description="Skill Reposition attacks (gap).")
    grapple_skill: str = Field("Athletics", description="Skill Grapple rolls (gap).")
    grapple_defense: str = Field("Athletics", description="Skill Grapple attacks (gap).")
    break_hold_skill: str = Field("Athletics", description="Skill Break Hold rolls (gap).")
    break_hold_defense: str = Field("Athletics", description="Skill Break Hold attacks (gap).")
    grapple_dl: int = Field(
        3, ge=0, description=f"DL of Grapple: the seed names none (seed-000 Grapple); {CONFLICT_DL}."
    )
    break_hold_dl: int = Field(
        3, ge=0, description=f"DL of Break Hold: the seed names none (seed-000 Break Hold); {CONFLICT_DL}."
    )
    suffocate_also_grapples: bool = Field(
        True, description="A Grapple made to suffocate also adds its Encumbered Tier (seed-000 is silent; gap)."
    )
    stomach_threshold: int | None = Field(
        None,
        ge=0,
        description="Severe Threshold of a stomach attacked from inside; None: its Durability 2 (seed-000 swallow; "
        "ASSUMPTION: an object's Durability works as its Severe Threshold for Wounded).",
    )
    speech_magnitude: int = Field(
        2,
        ge=0,
        description="The sound Tier (Magnitude) of speech. Muted lowers the sound Tier you can speak by half its "
        "Tier (§5.2, the older Mute); at 0 or less you cannot speak (no words for Spells, no Distract by speaking). "
        "The sources give speech no Magnitude (gap). ASSUMPTION 2: moving makes a sound of Magnitude 2 + your size "
        "(§2.4), so an ordinary voice is as loud as a size 0 creature's steps; Muted Tier 4 silences it.",
    )
    knowledge_skills: list[str] = Field(
        default_factory=lambda: ["Magic"],
        description="Skills whose rolls are Knowledge rolls, on which Enraged is a penalty equal to its Tier (§5.2). "
        "The seeds name Knowledge rolls but no skill (gap). ASSUMPTION Magic: Knowledge belongs to Wit, the knowing "
        "attribute, and Magic is the one Wit skill the sources show (§4.1); a table with a Knowledge skill lists it.",
        max_length=40,
    )
    pick_up_cost: Literal["minor", "major"] = Field(
        "minor",
        description="Picking up a weapon lying within your Reach into free limbs (§4.5). The reference makes letting "
        "go No Action but gives picking up no cost (gap). ASSUMPTION a Minor Action: taking something into a Free "
        "Limb is a small action, as Focus and completing a Readied effect are; a Major Action would cost a thrower "
        "its whole turn's attack to get its weapon back.",
    )
    guard_on_defense: bool = Field(
        True,
        description="Guard (§4.6): the highest Guard value among the weapons you grip adds to your defense against "
        "physical melee attacks you perceive (not while Unaware or Prone). The seeds give weapons a Guard value and "
        'say that an object being attacked "cannot be used for Guard" (seed-000) but not what Guard does (gap): '
        "ASSUMPTION, the reference's proposed default. Off: Guard does nothing.",
    )
    object_broken_at: int = Field(
        6,
        ge=0,
        description="Tiers of Wounded (Injury beyond its Durability) that break an object on the map; 0: never. The "
        "seeds give an object a Durability but say nothing of breaking it (gap). ASSUMPTION 6: seed-000's stomach, "
        '"an unattended object with 2 Durability", gives way at "6 Tiers of Wounded", and a part at 6 Tiers '
        "cannot be used (`wounded_unusable_at`, §5.2).",
    )
    stomach_size: int | None = Field(
        None,
        description="Size a stomach attacked from inside counts as for the Strike size rules. None: derived from the "
        "swallower, its size less its stomach part's offset (seed-000 Called Shot: \"arms and stomach are 4 sizes "
        "smaller\" than a standard humanoid), as a part's size is everywhere else in the seeds.",
    )
    swallowed_darkness: int = Field(
        1,
        ge=0,
        description="No light while swallowed (seed-000): every target has this Sight Concealment for a swallowed "
        "creature, as Blinded gives (§2.6, §5.2); 0: none. The reference gives darkness no Tier (gap). ASSUMPTION 1: "
        "a creature with no light sees nothing, as a Blinded one does, and Tier 1 is the Blinded the seeds' own "
        "action causes (Impair); the stomach it attacks touches it on every side, so a higher Tier, which would make "
        "cutting its way out very hard, has no ground in the seeds.",
    )
    swallowed_strangled: int = Field(
        1,
        ge=0,
        description="A swallowed creature cannot breathe (seed-000): Tiers of Strangled it has while swallowed, "
        "the Ailment of not breathing (§5.2 ASSUMPTION: no breathing or speech, Energy Pips each turn); 0: none.",
    )
    defensive_stance_cost: Literal["major", "minor"] = Field(
        "major", description="Action that enters a Defensive Stance (seed-000 names none; gap)."
    )
    manifest_dl: int = Field(6, ge=0, description="DL to Manifest a Spell or Talent (seed-000; the older revision: 3).")
    spell_skill: str = Field("Magic", description="Skill a Spell's Manifest roll uses (§4.1).")
    talent_skill: str = Field("Endure", description="Skill a Talent's Manifest roll uses (§4.1).")
    words_per_turn: int = Field(
        2, ge=0, description="Words a creature may spend on Spells each turn (seed-000 names the cost, no supply; gap)."
    )
    manifest_needs_sight: bool = Field(
        True,
        description="A Spell or Talent on another creature needs line of sight, unless the ability says otherwise: "
        "walls and objects block it, creatures too with `creatures_obstruct` (gap).",
    )
    dismiss_cost: Literal["major", "minor", "none"] = Field(
        "minor", description="Action that Dismisses an ongoing Spell or Talent (seed-000 names none; gap)."
    )
    hinder_spell_skill: str = Field("Martial", description="Skill a Hinder Spell rolls (gap).")
    hinder_spell_defense: str = Field("Magic", description="Skill the hindered caster defends with (gap).")
    footprints: dict[int, list[Cell]] | None = Field(
        None, description="Footprint shapes by size, overriding the grid's defaults (§2.2, gap 3)."
    )
    ailment_reduction: bool = Field(
        True, description="When a turn ends, each reducible Ailment rolls its defense to lose a Tier (§5.1)."
    )
    physical_skills: list[str] = Field(
        default_factory=lambda: ["Athletics", "Endure", "Martial", "Elude", "Nimble"],
        description="Might and Finesse Skills: an attack rolled with one is physical (seed-004 Damage and Strike "
        "Types), a Talent's Manifest roll (Endure) too. Might: Athletics, Endure, Martial, Finesse: Elude (reference "
        "§4.1 FACT); ASSUMPTION: Nimble is Finesse (the skill of ranged weapons, whose attacks are physical).",
    )
    material_elements: list[str] = Field(
        default_factory=lambda: ["earth"],
        description='Elements whose damage is always physical (seed-004: "The Material Elements are always '
        'physical"; the seeds name no list: gap). ASSUMPTION earth: of the four Elements the seeds name, Earth '
        "alone is solid matter that strikes by its mass; Fire, Water and Air act as Heat, Cold and Lightning when "
        "they flow. A table reading Material as all four classical Elements lists them all.",
    )
    overexertion_dl: int = Field(
        3,
        ge=0,
        description="Overexertion (after each minute in Conflict): Endure at this DL + the Overexertion rolls "
        "already made this scene; a failure is Tier 1 Exhausted. The seeds give no DL (reference §3, gap); "
        "ASSUMPTION 3, the DL of most conflict actions, rising so that a long Conflict wears a creature down.",
    )
    trauma_per_grit_pip: int = Field(
        1,
        ge=0,
        description="Trauma: Tiers it drops by for each Grit Pip the creature recovers by healing; 0: none. The older "
        'revision says "recovering Grit lowers the Tier" and gives no rate (reference §5.2, gap); ASSUMPTION 1: the '
        "rule ties the two counts together, Pip for Tier. An edit of the sheet by the Soulweaver is not recovery.",
    )
    trauma_energy_damage: bool = Field(
        True,
        description="Trauma: a failed Endure defense against it deals half its Tier as Energy damage. The newer "
        "revision only says Trauma brings the Endure rolls that Exhaustion kills on (seed-004 Dead); the older one "
        "gives this failure effect (reference §5.2, ASSUMPTION: keep it, else Trauma does nothing but roll).",
    )
    ailment_defenses: dict[str, str] = Field(
        default_factory=lambda: {"Muted": "Nature", "Slowed": "Zeal", "Unstable": "Endure"},
        description="Defense skills of Ailments the newer revision does not show (older revision; §5.2, gap 18).",
    )
    unstable_defense_divisor: int = Field(
        2, ge=1, description="Unstable: Tier / this on defenses against physical attacks (older Unsteady; gap 18)."
    )
    crowded_penalty_per_tier: int = Field(
        1, ge=0, description="Crowded: this x Tier on attack rolls and on defenses that use limbs (§5.2, gap 18)."
    )
    limb_defenses: list[str] = Field(
        default_factory=lambda: ["Athletics", "Elude", "Nimble"],
        description="Defenses that use limbs, which Crowded lowers (§5.2, gap 18).",
    )
    prone_attack_dice: int = Field(-1, description="Prone: d12 changed on your physical attacks (§5.3, gap 17).")
    prone_melee_against: int = Field(1, description="Prone: melee attackers against you get this (§5.3, gap 17).")
    prone_ranged_against: int = Field(-1, description="Prone: ranged attackers against you get this (§5.3, gap 17).")
    slowed_pips_divisor: int = Field(
        2, ge=1, description="Slowed: Tier / this Movement Pips as your turn starts (older Slow; §5.2, gap 18)."
    )
    frightened_penalty_per_tier: int = Field(
        1, ge=0, description="Frightened: this x Tier on rolls against its source (§5.2 ASSUMPTION, gap 18)."
    )
    frightened_on_defense: bool = Field(
        True, description="Frightened: the penalty is on defense rolls against the source's attacks too (ASSUMPTION)."
    )
    frightened_no_approach: bool = Field(
        True, description="Frightened: it cannot willingly move closer to its source (§5.2 ASSUMPTION, gap 18)."
    )
    strangled_energy_per_tier: int = Field(
        1, ge=0, description="Strangled: Energy Pips per Tier as its turn starts, once a round (§5.2 ASSUMPTION)."
    )
    strangled_silences: bool = Field(
        True, description="Strangled: no breathing or speech, so no words for Spells (§5.2 ASSUMPTION)."
    )
    attack_senses: list[Sense] = Field(
        default_factory=_sight,
        description="Senses an attacker finds its target with; its Concealment is the lowest among them (§2.6, gap 9).",
    )
    concealment_attack_per_tier: int = Field(
        1, ge=0, description="Concealment: this x Tier penalty on attacks against a concealed target (§2.6, gap 9)."
    )
    concealment_distract_per_tier: int = Field(
        1,
        ge=0,
        description="Concealment: this x Tier bonus on a Distract target's defense when the diversion reaches it "
        "through Concealment (its Deafened for speech; the better of its Sight and Sound otherwise). seed-000: a "
        "Distract attacks creatures Aware of the action, and Awareness is an Observe roll that Concealment makes "
        "harder (§2.6; how much is gap 9): ASSUMPTION 1 per Tier, as on attacks; 0 = none.",
    )
    concealment_defense_per_tier: int = Field(
        0,
        ge=0,
        description="Concealment: this x Tier penalty on the defenses of a creature whose senses are "
        "concealed, e.g. Blinded (the reference is silent: GAP; 0 = none).",
    )
    wounded_penalty_per_tier: int = Field(
        1, ge=0, description="Wounded: this x the part's Tier on attack rolls made with that part (§5.2 ASSUMPTION)."
    )
    wounded_unusable_at: int = Field(
        6, ge=0, description="Wounded: a part with this many Tiers cannot be used; 0: never (§5.2 ASSUMPTION)."
    )
    stand_up_cost: Literal["half_movement", "minor", "major"] = Field(
        "half_movement", description="Standing up from Prone: half your Movement Pool, or an action (§5.3, gap 17)."
    )
    prone_move_extra: int = Field(
        1, ge=0, description="Prone: Movement added for each space moved while Prone (§5.3, gap 17)."
    )
    uneven_move_extra: int = Field(
        1, ge=0, description="Uneven Ground: Movement added for a step into it, like difficult terrain (§2.5, gap 7)."
    )
    uneven_balance: bool = Field(
        True, description="Uneven Ground: entering it calls for a Balance Mobility roll, Prone on failure (gap 7)."
    )
    uneven_balance_dl: int = Field(
        3, ge=0, description="Uneven Ground of Tier T: the Balance roll's DL is this + T (§2.5 ASSUMPTION: 3 + T)."
    )
    balance_skill: str = Field("Athletics", description="Skill a Balance Mobility roll uses (§2.5, Balance).")
    flurry_cost: Literal["none", "minor", "major"] = Field(
        "none", description="Action declaring a Flurry (seed-000 names none; a declaration like Called Shot; gap)."
    )
    flurry_max: int = Field(6, ge=1, description="Largest number a Flurry may declare (seed-000 names none; gap).")
    distract_skill: str = Field("Guile", description="Skill a Distract rolls (seed-000 names none; gap).")
    distract_defense: str = Field("Observe", description="Skill a Distract attacks (seed-000 names none; gap).")
    distract_dl: int = Field(3, ge=0, description=f"DL of Distract (seed-000 names none; gap); {CONFLICT_DL}.")
    distract_range: int = Field(
        6, ge=0, description="Distract: creatures within this many spaces, not Unaware or Unconscious, are Aware (gap)."
    )
    focus_range: int = Field(
        6, ge=0, description="Focus: a creature or space within this many spaces may be chosen (§5.3, truncated; gap)."
    )
    drop_focus_cost: Literal["none", "minor", "major"] = Field(
        "none", description="Action that drops Focus (§5.3 names none; gap)."
    )
    focus_bonus: int = Field(1, description="Focus: bonus on your rolls against your Focus (§5.3 ASSUMPTION).")
    ambient_light: Literal["lit", "dim", "dark"] = Field(
        "lit", description="Light of every space the map's light layer does not name (vision; the rules name none)."
    )
    dim_concealment: int = Field(
        1,
        ge=0,
        description="Sight Concealment of a creature seen only in dim light (§2.6; the rules give no Tier: gap).",
    )
    dark_concealment: int = Field(
        3,
        ge=0,
        description="Sight Concealment of a creature in darkness, found without sight (§2.6; the rules give darkness "
        "no Tier: gap, as `swallowed_darkness`).",
    )
    sight_automatic: bool = Field(
        True,
        description="A creature in line of sight and in light is seen without an Awareness roll (Sight's base DL is "
        "0, §2.6); off: beyond Sight's range the table rolls Observe.",
    )
    hearing_automatic: bool = Field(
        True,
        description="A moving creature within the range of its own sound is heard without an Awareness roll (its "
        "space is known, nothing more); beyond it the table rolls Observe (§2.6).",
    )
    smell_automatic: bool = Field(
        False,
        description="A creature within the range of its scent (§2.6 Smell: base DL 9, base range -1; the rules give a "
        "scent no Magnitude, ASSUMPTION its size: 1 space for size 0 to 2) is smelled without an Awareness roll, its "
        "space known like a heard one's. Off by default: at DL 9 - size smelling is no sure thing, so the table rolls "
        "Observe; a table whose creatures hunt by scent turns it on.",
    )
    fog_of_war: bool = Field(
        False,
        description="Fog of war: each player's browser gets only what their creatures perceive (vision: line of "
        "sight, light, hearing) and the spaces they saw before, greyed; spectators get what the players' creatures "
        "perceive together; the Soulweaver sees everything. The rules leave what players know of the map to the "
        "table: off by default, so a table plays as on a shared battle map until its Soulweaver turns it on.",
    )
