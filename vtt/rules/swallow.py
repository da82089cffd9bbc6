"""Swallowing (seed-000 Grapple).

"If you are a Holder and the creature is at least 6 sizes smaller than you, you can use Grapple to attempt to swallow
the creature. On success, they are removed from the and they enter your stomach. While swallowed, there is no light,
they cannot breathe, and have Tier 2 Crowded. They can attack your stomach as an unattended object with 2 Durability
and 0 Physical Reduction. If there are 6 Tiers of Wounded to the stomach, they fall out."

- The `swallow` flag of a Grapple (see `overpower.grapple`) is allowed when the grappler is a Holder of the target's
  Hold, the target is at least 6 sizes smaller, and the grappler has a stomach (its "stomach" body part) without 6
  Tiers of Wounded already (whatever it swallowed would fall out at once). It goes with no Called Shot and no
  suffocating. On success the creature leaves every Hold (it is no longer within touch: the Grapple adds no
  Encumbered Tier), `Creature.swallowed_by` names the swallower, and it is off the board: `space.Occupancy` leaves
  it out, so nobody reaches, sees or collides with it, it fills no space, and no command may name it as a target
  (`check_command`); the Soulweaver's Harm, Heal, Afflict, edits and `place` still may (placing it sets it down
  outside: it is no longer swallowed).
- What being swallowed causes are Ailments with a source (reference §5.1, `ailments.add_ailment`): "swallowed:<the
  swallower's id>", a kind of source registered here that lasts while the creature's `swallowed_by` names that
  swallower. Its Tiers cannot be lowered while it lasts and go with it (`ends_with_source`): when the creature falls
  out or is placed out, `ailments.lapse_sources` takes them away after the command.
  - "Tier 2 Crowded": 2 Tiers of Crowded from the source (Crowded's effect on rolls: see `ailments`).
  - "they cannot breathe": the reference's Strangled is the Ailment of not breathing (§5.2 ASSUMPTION: no
    breathing or speech; Energy Pips each turn): table setting `swallowed_strangled` (1) Tiers of Strangled from
    the source, with Strangled's effects (`ailment_turns.strangled_at_turn_start`, `can_speak`); 0 turns it off. The
    seed gives no Tier; 1 is the Tier a Grapple's suffocating causes (seed-000), and the reference has no separate
    suffocation rule.
- "there is no light": not an Ailment but darkness: the Sight Concealment Blinded gives, at table setting
  `swallowed_darkness` (1; 0: none), on the swallowed creature's attacks (`senses`). The reference gives darkness
  no Tier (GAP, see the setting).
- "Their only target is the stomach": while swallowed a creature may attack the stomach (`strike_stomach`, a Strike:
  a Major Action, or a Flurry's Minor Action), declare a Flurry, drop its Focus, Dismiss its own ongoing abilities,
  use Recovery or the Zeal roll on a full Resolve Pool, and end its turn; nothing else.
- The stomach is "an unattended object with 2 Durability and 0 Physical Reduction": the attack is a Strike at DL 3
  with nobody defending (unattended), taking the attacker's ailments (Crowded), the darkness's Concealment and
  Frightened of the swallower as any attack on it would. Its size is the swallower's less its stomach part's offset
  (`stomach_size`; seed-000: "arms and stomach are 4 sizes smaller"), unless table setting `stomach_size` gives
  one. Damage is counted as for any Strike (faces of 3 or more; Chopping,
  Bashing, Devastating, Flurry's lost dice; Physical Reduction 0, so Stabbing lowers nothing), and goes to the
  object, not to the swallower's pools. Wounded Tiers follow the Serious Injury rule with the Durability standing
  for the Severe Threshold (ASSUMPTION; table setting `stomach_threshold`): Injury beyond 2. It is a targeted
  attack, so there is no extra half.
- "Wounded to the stomach" is Wounded on the swallower's "stomach" body part (`BodyPart.wounded`, read with
  `ailments.wounded_tiers`), counted in its Wounded total like any Wounded: the Tiers the swallowed creature cuts
  and those a Serious Injury from outside lands on the stomach add up.
- "If there are 6 Tiers of Wounded to the stomach, they fall out": checked after every command (`spill`), whatever
  wounded the stomach: every creature in that stomach is set down in a free space adjacent to the swallower (the
  first, in the grid's order, where it can stand -- `why_cannot_stand`; if none is free, the nearest farther out),
  and is back on the board; what its source caused goes with it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from vtt.rules import ailments, tactics
from vtt.rules.checks import AttackResult
from vtt.rules.commands import COMMAND_MODELS, Command, Dismiss, creature_fields, creature_ids
from vtt.rules.conditions import attack_modifiers, limb_action_modifiers
from vtt.rules.damage import DAMAGE_FACE, strong_faces
from vtt.rules.dice import DiceChange, DiceSource, Modifier, Roll, roll
from vtt.rules.events import Event, RuleError
from vtt.rules.hold import leave_holds
from vtt.rules.model import STOMACH, Cell, Creature, GameState, Weapon
from vtt.rules.situational import attack_roll
from vtt.rules.sizes import physical_damage_size_change, strike_size_modifier
from vtt.rules.space import Occupancy, grid_of, why_cannot_stand
from vtt.rules.strike import (
    STRIKE_DL,
    Armament,
    armament,
    attack_limbs,
    base_damage,
    choose_strike_type,
    weapon_changes,
    weapon_modifiers,
)
from vtt.rules.turns import require_active
from vtt.rules.txn import Tx
from vtt.rules.words import count

SWALLOW_SIZES = 6
"""seed-000: "at least 6 sizes smaller than you"."""
SWALLOWED_CROWDED = 2
"""seed-000: "have Tier 2 Crowded"."""
STOMACH_DURABILITY = 2
STOMACH_REDUCTION = 0
"""seed-000: "an unattended object with 2 Durability and 0 Physical Reduction"."""
FALL_OUT_WOUNDED = 6
"""seed-000: "If there are 6 Tiers of Wounded to the stomach, they fall out"."""
SOURCE = "swallowed"
"""The kind of Ailment source being swallowed is: "swallowed:<the swallower's id>"."""


def source_of(swallower_id: str) -> str:
    return f"{SOURCE}:{swallower_id}"


def _inside_whom(state: GameState, swallower_id: str) -> str:
    sw = state.creatures.get(swallower_id)
    return f"being in {sw.name if sw is not None else swallower_id}'s stomach"


@ailments.source_kind(SOURCE, describe=_inside_whom)
def _still_inside(state: GameState, c: Creature, swallower_id: str) -> bool:
    """Being swallowed lasts while the creature's `swallowed_by` names that swallower."""
    return c.swallowed_by == swallower_id


def swallower(state: GameState, c: Creature) -> Creature | None:
    return state.creatures.get(c.swallowed_by) if c.swallowed_by is not None else None


def cannot_breathe(c: Creature) -> bool:
    """seed-000: while swallowed "they cannot breathe"."""
    return c.swallowed_by is not None


def no_light(c: Creature) -> bool:
    """seed-000: while swallowed "there is no light"."""
    return c.swallowed_by is not None


def contents(state: GameState, swallower_id: str) -> list[str]:
    """The creatures in this creature's stomach."""
    return [cid for cid, c in state.creatures.items() if c.swallowed_by == swallower_id]


def stomach_wounded(c: Creature) -> int:
    """Tiers of Wounded to the creature's stomach (seed-000), Wounded on its stomach part."""
    return ailments.wounded_tiers(c, STOMACH)


def has_stomach(c: Creature) -> bool:
    part = c.part(STOMACH)
    return part is not None and not part.severed


def stomach_size(state: GameState, sw: Creature) -> int:
    """The size the stomach counts as: table setting `stomach_size`, else the swallower's size less its stomach
    part's offset (seed-000: the stomach is 4 sizes smaller than a standard humanoid)."""
    if state.settings.stomach_size is not None:
        return state.settings.stomach_size
    part = sw.part(STOMACH)
    return sw.size - (part.size_offset if part is not None else 0)


def stomach_threshold(state: GameState) -> int:
    t = state.settings.stomach_threshold
    return STOMACH_DURABILITY if t is None else t


def why_not_swallow(state: GameState, c: Creature, target: Creature) -> str | None:
    """Why `c` cannot Grapple `target` to swallow it (the Grapple's own conditions aside); None when it can."""
    hold = next((h for h in state.holds.values() if target.id in h.held), None)
    if hold is None or c.id not in hold.holders:
        return f"{c.name} is not a Holder of {target.name}: only its Holder can swallow it"
    if c.size - target.size < SWALLOW_SIZES:
        return f"{target.name} (size {target.size}) is not at least {SWALLOW_SIZES} sizes smaller than {c.name}"
    if not has_stomach(c):
        return f"{c.name} has no stomach to swallow {target.name} into"
    if (wounded := stomach_wounded(c)) >= FALL_OUT_WOUNDED:
        return f"{c.name}'s stomach has {wounded} Tiers of Wounded: whatever it swallows falls out"
    return None


def swallow(tx: Tx, swallower_id: str, target_id: str) -> list[Event]:
    """A successful Grapple to swallow: the creature leaves its Holds and the board and is in the stomach."""
    events = leave_holds(tx, target_id)
    t = tx.creature(target_id)
    t.swallowed_by = swallower_id
    source = source_of(swallower_id)
    crowded = ailments.add_ailment(tx, target_id, "Crowded", SWALLOWED_CROWDED, source, ends_with_source=True)
    s = tx.state.settings
    strangled = ailments.tier(t, "Strangled")
    if s.swallowed_strangled:
        strangled = ailments.add_ailment(
            tx, target_id, "Strangled", s.swallowed_strangled, source, ends_with_source=True
        )
    sw = tx.get(swallower_id)
    dark = f"no light (Sight Concealment {s.swallowed_darkness})" if s.swallowed_darkness else "no light"
    breath = f"no breath (Tier {s.swallowed_strangled} Strangled)" if s.swallowed_strangled else "no breath"
    events.append(
        Event(
            kind="swallowed",
            text=f"{sw.name} swallows {t.name}: it is off the board, in {sw.name}'s stomach, with {dark}, {breath} "
            f"and Tier {SWALLOWED_CROWDED} Crowded (now Tier {crowded}), until it is out.",
            actor=swallower_id,
            target=target_id,
            data={"swallower": swallower_id, "crowded": crowded, "strangled": strangled},
        )
    )
    return events


def landing(state: GameState, sw: Creature, c: Creature) -> Cell | None:
    """The space a creature falling out of `sw` lands in: the first free one adjacent, else the nearest farther."""
    grid = grid_of(state)
    occ = Occupancy(state)
    mine = occ.cells[sw.id]
    board = state.board
    inner = set(mine)
    for radius in range(1, board.cols + board.rows + 1):
        area = grid.area_within(mine, radius)
        ring = sorted(area - inner)
        inner = area
        for cell in ring:
            if why_cannot_stand(state, c, cell, occ) is None:
                return cell
    return None


def release(tx: Tx, creature_id: str, to: Cell | None) -> list[Event]:
    """The creature is out of the stomach, back on the board at `to` (None: where it stands). The Ailments being
    swallowed caused end with it when the command is over (`ailments.lapse_sources`)."""
    swallower_id = tx.get(creature_id).swallowed_by
    if swallower_id is None:  # not swallowed: nothing to change
        return []
    c = tx.creature(creature_id)
    sw = tx.get(swallower_id)
    c.swallowed_by = None
    if to is not None:
        c.anchor = to
    return [
        Event(
            kind="fell_out",
            text=f"{c.name} is out of {sw.name}'s stomach, at {c.anchor}.",
            actor=creature_id,
            target=sw.id,
            data={"swallower": sw.id, "to": c.anchor},
        )
    ]


def fall_out(tx: Tx, swallower_id: str) -> list[Event]:
    """seed-000: with 6 Tiers of Wounded to the stomach, everything swallowed falls out next to the swallower."""
    events: list[Event] = []
    for cid in contents(tx.state, swallower_id):
        to = landing(tx.state, tx.get(swallower_id), tx.get(cid))
        events += release(tx, cid, to)
    return events


def release_for_place(tx: Tx, creature_id: str) -> list[Event]:
    """The Soulweaver places a swallowed creature: it is no longer in the stomach."""
    return release(tx, creature_id, None)


def full_stomach(c: Creature) -> bool:
    """Whether `c` has 6 Tiers of Wounded to its stomach: whatever it swallowed falls out (`spill`)."""
    part = c.part(STOMACH)
    return part is not None and part.wounded >= FALL_OUT_WOUNDED


def spill(tx: Tx) -> list[Event]:
    """After a command: every stomach the command changed that has 6 Tiers of Wounded lets what it holds fall out,
    however it was wounded (from inside, or a Serious Injury from outside landing on the stomach)."""
    events: list[Event] = []
    creatures = tx.state.creatures
    full = [cid for cid in tx._creatures if (c := creatures.get(cid)) is not None and full_stomach(c)]
    for cid in sorted(full):
        if contents(tx.state, cid):
            events += fall_out(tx, cid)
    return events


# --------------------------------------------------------------------------------------------------------
# Attacking the stomach from inside
# --------------------------------------------------------------------------------------------------------


def stomach_plan(
    state: GameState, c: Creature, sw: Creature, arm: Armament, minor: bool
) -> tuple[list[Modifier], list[DiceChange]]:
    """The modifiers and dice changes of a Strike on the stomach from inside (the preview is the roll's)."""
    mods: list[Modifier] = []
    size_mod = strike_size_modifier(c.size, stomach_size(state, sw), " (the stomach)")
    if size_mod:
        mods.append(size_mod)
    mods += weapon_modifiers(state, c, arm, 0)
    mods += limb_action_modifiers(state, c)
    mods += attack_modifiers(state, c)
    mods += ailments.attack_against_modifiers(state, c, sw)  # no light: Concealment (`senses`); Frightened of it
    changes = [*ailments.attack_dice_changes(state, c), *tactics.flurry_weapon_changes(arm.weapon, minor)]
    return mods, changes


def strike_stomach(
    tx: Tx,
    creature: str,
    target: str | None,
    weapon: str | None,
    limb: str | None,
    strike_type: str | None,
    max_dice: int | None,
    minor: bool,
    dice: DiceSource,
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    sw = swallower(state, c)
    if sw is None:
        raise RuleError(f"{c.name} is not swallowed: it has no stomach to attack from inside")
    if target is not None and target != sw.id:
        raise RuleError(f"{c.name} is in {sw.name}'s stomach: it can attack no other")
    if not has_stomach(sw):
        raise RuleError(f"{sw.name} has no stomach part left to attack: the Soulweaver may place {c.name} out")
    arm = armament(state, c, weapon, limb)
    chosen = choose_strike_type(arm.weapon, strike_type)
    mods, changes = stomach_plan(state, c, sw, arm, minor)
    paid = tactics.pay_attack(tx, c.id, minor, attack_limbs(state, c, arm))
    label = f"{c.name}: Strike on {sw.name}'s stomach with {arm.name}"
    skill = state.settings.strike_skill
    attack = attack_roll(tx, dice, c.id, label, c.skill(skill), mods, changes)
    s = state.settings
    result = AttackResult(
        attack=attack,
        dl=STRIKE_DL,
        defense_skill="none",
        defense=None,
        ties_to=s.ties_to,
        fumble_fails=s.fumble_always_fails,
    )
    verdict = "hits" if result.success else "misses"
    events = [
        *paid,
        Event(
            kind="attack",
            text=f"{c.name} rolled {attack.result} (DL {STRIKE_DL}; the stomach is unattended): the Strike {verdict} "
            f"{sw.name}'s stomach.",
            actor=c.id,
            target=sw.id,
            rolls=[attack],
            data={"action": "strike_stomach", "dl": STRIKE_DL, "success": result.success},
        ),
    ]
    if not result.success:
        return events
    damage, damage_changes = base_damage(state, c, arm)
    params: dict[str, Any] = {
        "damage": damage,
        "changes": damage_changes,
        "weapon": arm.weapon,
        "strike_type": chosen,
        "max_dice": max_dice,
    }
    return events + stomach_damage(tx, c, sw, params, attack, dice)


def stomach_damage(
    tx: Tx, c: Creature, sw: Creature, params: dict[str, Any], attack: Roll, dice: DiceSource
) -> list[Event]:
    """The damage roll against the stomach (an object: no pools), its Wounded Tiers, and falling out at 6."""
    state = tx.state
    weapon: Weapon | None = params["weapon"]
    changes: list[DiceChange] = [*params["changes"], *weapon_changes(weapon, attack)]
    strike_type = params["strike_type"]
    strong = strong_faces(attack.faces)
    if strike_type == "C" and strong:
        changes.append(DiceChange(dice=strong, reason=f"Chopping: {count(strong, 'attack face')} of 6 or more"))
    change = physical_damage_size_change(c.size, stomach_size(state, sw))
    if change:
        rel = "smaller" if change > 0 else "larger"
        changes.append(DiceChange(dice=change, reason=f"physical damage against a {rel} subject (the stomach)"))
    amount: int = params["damage"]
    wanted = max(0, amount + sum(ch.dice for ch in changes))
    max_dice: int | None = params["max_dice"]
    if max_dice is not None and max_dice < wanted:
        changes.append(DiceChange(dice=max_dice - wanted, reason="the roller chose to roll fewer dice"))
    needed = DAMAGE_FACE + STOMACH_REDUCTION
    dmg = roll(dice, f"{c.name}: damage to {sw.name}'s stomach", amount, dice_changes=changes)
    injury = dmg.count_at_least(needed)
    note = ""
    if strike_type == "B":
        larger = max(0, stomach_size(state, sw) - c.size)
        floor = min(strong - larger, dmg.dice)
        if floor > injury:
            note = f" (Bashing raises the Injury to {floor})"
            injury = floor
    threshold = stomach_threshold(state)
    wounded = max(0, injury - threshold)
    events = [
        Event(
            kind="damage",
            text=f"Damage {dmg.dice}d12, needing {needed}+: {injury} Injury to {sw.name}'s stomach{note}.",
            actor=c.id,
            target=sw.id,
            rolls=[dmg],
            data={"injury": injury, "needed": needed, "stomach": True},
        )
    ]
    if wounded <= 0:
        return events
    now = wound_stomach(tx, sw.id, wounded)
    events.append(
        Event(
            kind="stomach_wounded",
            text=f"{injury} Injury exceeds the stomach's Durability {threshold} by {wounded}: Tier {wounded} Wounded "
            f"to {sw.name}'s stomach (now {now} of {FALL_OUT_WOUNDED}).",
            actor=c.id,
            target=sw.id,
            data={"wounded": wounded, "stomach_wounded": now, "part": STOMACH},
        )
    )
    if now >= FALL_OUT_WOUNDED:
        events += fall_out(tx, sw.id)
    return events


def wound_stomach(tx: Tx, swallower_id: str, tiers: int) -> int:
    """Tiers of Wounded on the swallower's stomach part (and in its Wounded total); returns the stomach's Tier."""
    part = tx.part(swallower_id, STOMACH)
    if part is None:
        raise RuleError(f"{tx.get(swallower_id).name} has no stomach part")
    part.wounded += tiers
    m = tx.creature(swallower_id)
    m.ailments["Wounded"] = m.ailments.get("Wounded", 0) + tiers
    return part.wounded


# --------------------------------------------------------------------------------------------------------
# What a swallowed creature may do, and who may name it
# --------------------------------------------------------------------------------------------------------


def check_command(state: GameState, cmd: Command, actor: str | None, c: Creature | None) -> None:
    """A swallowed creature may only attack the stomach (and declare a Flurry, drop its Focus); nobody else may
    name it: it is off the board. `actor` is the creature the command's `creature` names, if any, and `c` that
    creature if it is in the state (the engine does not ask this of the Soulweaver's own commands: they are not
    limited)."""
    if c is not None and c.swallowed_by is not None and not cmd.WHILE_SWALLOWED:
        sw = state.creatures.get(c.swallowed_by)
        inside = f"{sw.name}'s stomach" if sw else "a stomach"
        raise RuleError(f"{c.name} is inside {inside}: it can only attack the stomach")
    others = _OTHERS_NAMED.get(type(cmd))
    if others:
        creatures = state.creatures
        values = cmd.__dict__
        for name in others:  # `creature_ids(cmd, others)`, without its call and list when each names one or none
            named = values[name]
            if isinstance(named, str):
                if named != actor and (t := creatures.get(named)) is not None and t.swallowed_by is not None:
                    raise _off_the_board(t)
            elif named is not None:
                for tid in creature_ids(cmd, (name,)):
                    if tid != actor and (t := creatures.get(tid)) is not None and t.swallowed_by is not None:
                        raise _off_the_board(t)


def _off_the_board(t: Creature) -> RuleError:
    return RuleError(f"{t.name} has been swallowed: it is off the board")


_OTHERS_NAMED: dict[type[BaseModel], tuple[str, ...]] = {
    m: () if m is Dismiss else tuple(name for name in creature_fields(m) if name != "creature") for m in COMMAND_MODELS
}
"""The fields of each kind of command that may name a creature besides the one it is for (a Dismiss's `target` only
names the subject of the caster's own effect)."""
