"""Damage, healing, pools, Serious Injury, Unconscious and Dead (seed-004).

Damage and healing rolls
- Roll d12 equal to the amount; each face reaching the needed value counts: 3 for damage (Injury), 6 for
  healing. Effects change the needed value but never above 12. The roller may roll fewer dice. Damage rises
  by how far the subject's Severe Threshold is below 0.
Reductions
- Damage Reduction against each of the damage's types raises the needed face; several stack. Physical damage
  against a smaller creature treats its Reduction as lower by half the size difference. Immunity prevents
  Injury of the type. Vulnerable is -6 Reduction and makes healing of the type do nothing.
Size
- Physical damage falls by the size difference against larger subjects and rises against smaller ones,
  unless it comes from a Spell.
Strike types
- Bashing: Injury is at least (attack faces >= 6) - (sizes the target is larger), never above the dice rolled.
  Chopping: +1 damage per attack face >= 6, and severing on Serious Injury. Flowing: ignores armour's
  Physical Reduction; Heat, Cold, Acid and Lightning effects by element. Mystical: magical damage. Stabbing:
  -1 physical Reduction per attack face >= 6.
Pools
- Grit Injury adds Grit Pips; a Grit Pip on a full Grit Pool is an Energy Pip; an Energy Pip on a full
  Energy Pool is Tier 1 Exhausted (and risks Ruptured Conduit); a Resolve Pip on a full Resolve Pool is
  Tier 1 Exhausted. After Grit Injury with a full Grit Pool the creature falls Unconscious.
Serious Injury
- Grit Injury also causes Wounded Tiers equal to how far it exceeds the Severe Threshold (a negative
  Threshold counts as 0). Without a targeted part, roll for one. Not from a targeted attack: +half. Chopping:
  the attacker rolls d12 equal to half the Wounded Tier; doubles sever the part. A Called Shot treats the
  Threshold as half (double when below 0) and may turn each Wounded Tier into 2 Trauma Tiers.
Unconscious and Dead
- Unconscious: Prone, drops everything held into its space, Tier 12 Unaware; an Endure roll to wake at the
  end of each of its turns at DL 12 - 1 per consecutive failure. A Fumbled Endure roll while Exhausted is Tier
  12 or more kills: the body becomes a corpse, its non-Curse ongoing abilities end, its Pips and ailments stay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple

from vtt.rules import ailments, called_trauma
from vtt.rules.death import exhaustion_death
from vtt.rules.dice import DiceChange, DiceSource, Modifier, Roll, roll
from vtt.rules.events import Event, event
from vtt.rules.fastmodel import shallow_copy
from vtt.rules.kept_texts import Texts
from vtt.rules.manifest_roll import after_grit_injury
from vtt.rules.model import ContinuingDamage, Creature, Pool
from vtt.rules.parts import roll_part
from vtt.rules.sizes import half
from vtt.rules.txn import Tx
from vtt.rules.words import count

DAMAGE_FACE = 3
HEALING_FACE = 6
MAX_FACE = 12
VULNERABLE_REDUCTION = -6
UNCONSCIOUS_UNAWARE = 12
WAKE_DL = 12
STRONG_FACE = 6
"""Bashing, Chopping and Stabbing count the attack roll's faces of 6 or higher."""

StrikeType = Literal["B", "C", "F", "M", "S"]
PoolName = Literal["grit", "energy", "resolve"]
FLOWING_ELEMENTS = {"fire": "heat", "water": "cold", "earth": "acid", "air": "lightning"}


class Hit(NamedTuple):
    """One instance of damage to a creature, with everything the damage rules need to know about it. A frozen value
    that only the rules make and read (a tuple: built and read without a model's work on every Strike)."""

    target: str
    amount: int
    attacker: str | None = None
    label: str = "damage"
    changes: tuple[DiceChange, ...] = ()
    physical: bool = True
    element: str | None = None
    strike_type: StrikeType | None = None
    from_spell: bool = False
    apply_size: bool = True
    attack_faces: tuple[int, ...] = ()
    targeted: bool = True
    part: str | None = None
    called_shot: bool = False
    max_dice: int | None = None
    """The roller chose to roll at most this many dice."""
    pool: PoolName = "grit"
    continuing: bool = False
    lightning_jump: bool = False
    """Damage from a Lightning jump, which does not jump again itself."""
    material: bool = False
    """Of a Material Element: always physical (seed-004)."""

    @property
    def effective_element(self) -> str | None:
        if self.strike_type == "F" and self.element in FLOWING_ELEMENTS:
            return FLOWING_ELEMENTS[self.element]
        return self.element

    @property
    def is_physical(self) -> bool:
        """seed-004: "The Material Elements are always physical"; Mystical "Deals magical damage"."""
        return self.material or (self.physical and self.strike_type != "M")

    def types(self) -> list[str]:
        out = ["physical" if self.is_physical else "magical"]
        element = self.effective_element
        if element:
            out.append(element)
            if self.element and self.element != element:
                out.append(self.element)
        return out


def _damage_label(label: str, target: str) -> str:
    return f"{label} to {target}"


def _damage_text(dice: int, kind: str, needed: int, injury: int, target: str) -> str:
    return f"Damage {dice}d12 ({kind}), needing {needed}+: {injury} Injury to {target}."


def _pips_text(name: str, amount: int, what: str, pool: PoolName, pips: int, most: int) -> str:
    """The text of `amount` Pips that all fit in the pool, which then holds `pips` of `most`."""
    return f"{name} suffers {amount} {what}: {_POOL_NAMES[pool]} {pips}/{most}."


def _serious_text(
    name: str, part: str, counted: int, shown: int, base: int, bonus: int, wounded: int, continuing: bool
) -> str:
    if continuing:
        how = f"Continuing Damage on the part adds up to {counted} Injury, over Severe Threshold {shown} by {base}"
    else:
        how = f"{counted} Injury exceeds Severe Threshold {shown} by {base}"
    if bonus:
        how += f", +{bonus} (half) as it is not from a targeted attack"
    return f"Serious Injury to {name}'s {part}: {how}: Tier {wounded} Wounded."


_DAMAGE_LABELS = Texts(_damage_label)
_DAMAGE_TEXTS = Texts(_damage_text)
_PIPS_TEXTS = Texts(_pips_text)
_SERIOUS_TEXTS = Texts(_serious_text)


def _continuing_types(c: ContinuingDamage) -> set[str]:
    return {"physical" if c.physical else "magical", *([c.element] if c.element else [])}


def strong_faces(faces: tuple[int, ...]) -> int:
    return sum(1 for f in faces if f >= STRONG_FACE)


def severe_threshold(tx: Tx, c: Creature) -> int:
    if c.severe_threshold is not None:
        return c.severe_threshold
    return c.skill(tx.state.settings.severe_threshold_skill)


def effective_threshold(threshold: int, called_shot: bool) -> int:
    """seed-000 Called Shot: "treats Severe Threshold as half. If Threshold is below 0, instead double it." """
    if not called_shot:
        return threshold
    return threshold * 2 if threshold < 0 else half(threshold)


def needed_face(
    tx: Tx, hit: Hit, target: Creature, attacker: Creature | None, types: list[str] | None = None
) -> tuple[int, list[Modifier]]:
    """The face a damage die needs, with every change to it and its reason (`types`: `hit.types()`, if known)."""
    reasons: list[Modifier] = []
    if types is None:
        types = hit.types()
    if types[0] == "physical":
        physical = target.reductions.get("physical", 0)
        if physical:
            reasons.append(
                Modifier(value=physical, reason="Physical Reduction", key="damage_reduction", source=target.id)
            )
        armour = target.armor_reduction if hit.strike_type != "F" else 0
        if target.armor_reduction and hit.strike_type == "F":
            reasons.append(
                Modifier(value=0, reason="Flowing ignores armour's Physical Reduction", key="flowing", source=target.id)
            )
        if armour:
            reasons.append(
                Modifier(value=armour, reason="armour's Physical Reduction", key="damage_reduction", source=target.id)
            )
        total_physical = physical + armour
        lowered = 0
        if attacker is not None and attacker.size > target.size and total_physical > 0:
            lowered = min(total_physical, half(attacker.size - target.size))
            if lowered:
                reasons.append(
                    Modifier(
                        value=-lowered,
                        reason="physical damage to a smaller creature: half the size difference",
                        key="size",
                    )
                )
        if hit.strike_type == "S" and total_physical - lowered > 0:
            stab = min(total_physical - lowered, strong_faces(hit.attack_faces))
            if stab:
                why = f"Stabbing: {count(stab, 'attack face')} of 6 or more"
                reasons.append(Modifier(value=-stab, reason=why, key="stabbing"))
    if target.reductions:
        for t in types:
            if t == "physical":
                continue
            r = target.reductions.get(t, 0)
            if r:
                why = f"{t.title()} Reduction"
                reasons.append(Modifier(value=r, reason=why, key="damage_reduction", source=target.id))
    if target.vulnerabilities:
        for t in types:
            if t in target.vulnerabilities:
                why = f"Vulnerable to {t}"
                reasons.append(Modifier(value=VULNERABLE_REDUCTION, reason=why, key="vulnerable", source=target.id))
    needed = DAMAGE_FACE
    for m in reasons:
        needed += m.value
    if needed > MAX_FACE:
        reasons.append(
            Modifier(value=MAX_FACE - needed, reason="the needed value can never be above 12", key="face_cap")
        )
        needed = MAX_FACE
    return max(1, needed), reasons


def deal(tx: Tx, hit: Hit, dice: DiceSource) -> list[Event]:
    """Resolve one Hit on a creature: the damage roll, Injury, where it goes, and what follows."""
    (
        target_id,
        amount,
        attacker_id,
        label,
        changes,
        physical,
        element,
        strike_type,
        from_spell,
        apply_size,
        attack_faces,
        targeted,
        part_id,
        called_shot,
        max_dice,
        pool,
        continuing,
        _,  # lightning_jump: `element_effects` reads it
        material,
    ) = hit  # once: each of a named tuple's fields read by name is a look-up of its own
    if amount < 0 or (max_dice is not None and max_dice < 0):
        raise ValueError(f"a Hit rolls no fewer than 0 dice: {hit!r}")
    state = tx.state
    if element is not None and element in state.settings.material_elements and not material:
        hit = hit._replace(material=True)
        material = True
    creatures = state.creatures
    try:  # `tx.get`, without its call
        target = creatures[target_id]
    except KeyError:
        target = tx.get(target_id)
    attacker = creatures.get(attacker_id) if attacker_id else None
    if element is None:  # `hit.types()` of a Hit without an element
        kind = "physical" if material or (physical and strike_type != "M") else "magical"
        types = [kind]
    else:
        types = hit.types()
        kind = types[0] if len(types) == 1 else ", ".join(types)
    if target.immunities:
        immune = [t for t in types if t in target.immunities]
        if immune:
            return _immune(tx, hit, target, immune)
    if strike_type == "C":
        chop = strong_faces(attack_faces)
        if chop:
            changes = (*changes, DiceChange(dice=chop, reason=f"Chopping: {count(chop, 'attack face')} of 6 or more"))
    if types[0] == "physical" and apply_size and not from_spell and attacker is not None:
        diff = attacker.size - target.size
        if diff:
            changes += _SIZE_CHANGES.get((diff, target.size)) or _size_change(diff, target.size)
    threshold = target.severe_threshold
    if threshold is None:
        threshold = target.skills.get(state.settings.severe_threshold_skill, 0)  # `target.skill`
    if called_shot:
        threshold = effective_threshold(threshold, True)
    if threshold < 0:
        changes = (*changes, DiceChange(dice=-threshold, reason=f"Severe Threshold {threshold} is below 0"))
    if max_dice is not None:
        wanted = amount
        for ch in changes:
            wanted += ch.dice
        wanted = max(0, wanted)
        if max_dice < wanted:
            changes = (*changes, DiceChange(dice=max_dice - wanted, reason="the roller chose to roll fewer dice"))
    if target.reductions or target.armor_reduction or target.vulnerabilities:
        needed, reasons = needed_face(tx, hit, target, attacker, types)
    else:  # nothing raises or lowers the face
        needed, reasons = DAMAGE_FACE, []
    dmg = roll(dice, _DAMAGE_LABELS[label, target.name], amount, (), changes)
    injury = 0
    for face in dmg.faces:
        if face >= needed:
            injury += 1
    text = _DAMAGE_TEXTS[dmg.dice, kind, needed, injury, target.name]
    if strike_type == "B":
        larger = max(0, target.size - attacker.size) if attacker else 0
        floor = min(strong_faces(attack_faces) - larger, dmg.dice)
        if floor > injury:
            injury = floor
            text = f"Damage {dmg.dice}d12 ({kind}), needing {needed}+: {injury} Injury to {target.name} "
            text += f"(Bashing raises the Injury to {floor})."
    data = {
        "injury": injury,
        "needed": needed,
        "needed_changes": [m.model_dump() for m in reasons] if reasons else [],
        "types": types,
        "pool": pool,
    }
    events = [event("damage", text, attacker_id, target_id, [dmg], data)]  # by position: cheaper than by keyword
    if injury <= 0:
        return events
    c = tx.creature(target_id)  # one creature to change for the Pips and the Serious Injury
    events += _suffer(tx, c, pool, injury, "Injury")
    if pool == "grit":
        for lb in c.limbs:
            if lb.readied is not None:  # only a limb holding a Ready ability has anything to roll
                events += after_grit_injury(tx, c, injury, dice)
                break
        events += serious_injury(
            tx,
            c,
            target_id,
            attacker_id,
            part_id,
            strike_type,
            targeted,
            called_shot,
            continuing,
            injury,
            threshold,
            dice,
        )
    if element is not None:  # `element_effects` of a Hit without an element is nothing
        events += element_effects(tx, hit, injury, dice)
    return events


def _immune(tx: Tx, hit: Hit, target: Creature, immune: list[str]) -> list[Event]:
    """Immunity to a type of the damage: no Injury, and Continuing Damage of that type on the target ends."""
    removed = [x for x in target.continuing if _continuing_types(x) & set(immune)]
    if removed:
        m = tx.creature(hit.target)
        m.continuing = [x for x in m.continuing if x not in removed]
    return [
        event(
            kind="immune",
            text=f"{target.name} is Immune to {', '.join(immune)}: no Injury.",
            actor=hit.attacker,
            target=hit.target,
        )
    ]


_SIZE_CHANGES: dict[tuple[int, int], tuple[DiceChange]] = {}
"""Physical damage's change by the size difference, by (difference, target size), alone in a tuple (frozen, shared:
added to a Hit's changes, or their tuple itself when it has none)."""


def _size_change(diff: int, target_size: int) -> tuple[DiceChange]:
    found = _SIZE_CHANGES.get((diff, target_size))
    if found is None:
        rel = "smaller" if diff > 0 else "larger"
        why = f"physical damage against a {rel} subject (size {target_size})"
        found = _SIZE_CHANGES[(diff, target_size)] = (DiceChange(dice=diff, reason=why),)
    return found


def _fill(c: Creature, pool: PoolName, amount: int, parts: list[str]) -> int:
    """Add up to `amount` Pips to the pool (replacing the frozen Pool); note its level; return what did not fit."""
    current: Pool = getattr(c, pool)
    pips, most = current.pips, current.max
    added = most - pips
    if added > amount:
        added = amount
    elif added < 0:
        added = 0
    if added:
        setattr(c, pool, _with_pips(current, pips + added))
    parts.append(f"{_POOL_NAMES[pool]} {pips + added}/{most}")
    return amount - added


_POOL_NAMES: dict[str, str] = {"grit": "Grit", "energy": "Energy", "resolve": "Resolve"}
_FILLED: dict[tuple[int, int], tuple[Pool, Pool]] = {}
"""Pools filled so far, by (id of the pool before, its Pips after): the pool before (held, so its id is not reused
while kept) and the pool after. A Pool is frozen: every creature whose pool is filled the same way may share one."""
_FILLED_KEPT = 4096


def _with_pips(current: Pool, pips: int) -> Pool:
    """`current` with `pips` Pips."""
    key = (id(current), pips)
    found = _FILLED.get(key)
    if found is not None and found[0] is current:
        return found[1]
    if len(_FILLED) >= _FILLED_KEPT:
        _FILLED.clear()
    made = shallow_copy(current, pips=pips)
    _FILLED[key] = (current, made)
    return made


def suffer_pips(tx: Tx, target_id: str, pool: PoolName, amount: int, what: str = "Pips") -> list[Event]:
    """Pips into a pool, spilling as the seed says: Grit -> Energy -> Exhausted; Resolve -> Exhausted."""
    if amount <= 0:
        return []
    return _suffer(tx, tx.creature(target_id), pool, amount, what)


def _suffer(tx: Tx, c: Creature, pool: PoolName, amount: int, what: str) -> list[Event]:
    """`suffer_pips` of more than 0 Pips on `c`, a creature this command changes."""
    current: Pool = c.grit if pool == "grit" else getattr(c, pool)
    pips, most = current.pips, current.max
    if pips + amount <= most:  # `_fill_spilling` of Pips that all fit
        filled = _FILLED.get((id(current), pips + amount))  # `_with_pips`, of a pool filled so before
        filled_pool = filled[1] if filled is not None and filled[0] is current else _with_pips(current, pips + amount)
        if pool == "grit":
            c.grit = filled_pool
        else:
            setattr(c, pool, filled_pool)
        text = _PIPS_TEXTS[c.name, amount, what, pool, pips + amount, most]
    else:
        text = _fill_spilling(c, pool, amount, what)
    target_id = c.id
    grit, energy, resolve = c.grit, c.energy, c.resolve
    grit_pips, grit_max = grit.pips, grit.max
    data = {
        "amount": amount,
        "grit": [grit_pips, grit_max],
        "energy": [energy.pips, energy.max],
        "resolve": [resolve.pips, resolve.max],
        "exhausted": c.ailments.get("Exhausted", 0),
    }
    events = [event("pips", text, None, target_id, None, data)]  # by position: cheaper than by keyword
    if pool == "grit" and what == "Injury" and grit_pips >= grit_max and not c.unconscious and not c.dead:
        events += fall_unconscious(tx, target_id)  # `grit.full` after Grit Injury
    return events


def _fill_spilling(c: Creature, pool: PoolName, amount: int, what: str) -> str:
    """Put `amount` Pips into the pool of `c`, spilling past a full one; the text saying where they went."""
    parts: list[str] = []
    spill = _fill(c, pool, amount, parts)
    if pool == "grit" and spill:
        parts.append(f"{spill} past a full Grit Pool become Energy Pips")
        pool = "energy"
        spill = _fill(c, pool, spill, parts)
    if spill and pool == "energy":
        c.ruptured_conduit_risk += spill
        parts.append(f"{spill} past a full Energy Pool: Tier {spill} Exhausted and a risk of Ruptured Conduit")
    elif spill:
        parts.append(f"{spill} past a full Resolve Pool: Tier {spill} Exhausted")
    if spill:
        c.ailments["Exhausted"] = c.ailments.get("Exhausted", 0) + spill
    return f"{c.name} suffers {amount} {what}: {'; '.join(parts)}."


def fall_unconscious(tx: Tx, target_id: str) -> list[Event]:
    c = tx.creature(target_id)
    c.unconscious = True
    c.prone = True
    c.wake_failures = 0
    c.ailments["Unaware"] = c.ailments.get("Unaware", 0) + UNCONSCIOUS_UNAWARE
    dropped: list[str] = []
    for limb in c.limbs:
        if limb.holding:
            weapon = c.weapon(limb.holding)
            if weapon is not None and weapon.id not in dropped:
                tx.drop(c.id, weapon, c.anchor)
                dropped.append(weapon.id)
            tx.own(target_id, limb).holding = None
    names = [w.name for wid in dropped if (w := c.weapon(wid))]
    return [
        event(
            kind="unconscious",
            text=f"{c.name}'s Grit Pool is full: falls Unconscious and Prone (Tier 12 "
            "Unaware)" + (f", dropping {', '.join(names)} into its space" if names else "") + ".",
            target=target_id,
            data={"dropped": dropped},
        )
    ]


def serious_injury(
    tx: Tx,
    c: Creature,
    target_id: str,
    attacker_id: str | None,
    part_id: str | None,
    strike_type: StrikeType | None,
    targeted: bool,
    called_shot: bool,
    continuing: bool,
    injury: int,
    threshold: int,
    dice: DiceSource,
) -> list[Event]:
    """seed-004 Serious Injury after Grit Injury to `c`, the target as this command changes it, from a Hit of these
    fields (`deal`'s, read from it once)."""
    shown = threshold if threshold > 0 else 0  # a negative Threshold counts as 0
    rolls: list[Roll] = []
    if continuing and part_id is not None:
        # seed-004: all Continuing Damage on a part is added together to determine Serious Injury; what the
        # part's total already caused is not caused again.
        counted = c.continuing_injury.get(part_id, 0) + injury
        base = max(0, counted - shown)
        bonus = 0 if targeted else base // 2
        already = c.continuing_wounded.get(part_id, 0)
        c.continuing_injury = {**c.continuing_injury, part_id: counted}  # replaced: see `txn._REPLACED`
        c.continuing_wounded = {**c.continuing_wounded, part_id: max(already, base + bonus)}
        wounded = base + bonus - already
        if wounded <= 0:
            return []
    else:
        counted = injury
        base = counted - shown
        if base <= 0:
            return []
        bonus = 0 if targeted else base // 2
        wounded = base + bonus
        if part_id is None:
            part_id, rolls = roll_part(c, dice, tx.state.settings.part_table)
    part = tx.part_of(c, part_id)
    name = part.name if part is not None else part_id
    if part is not None:
        part.wounded += wounded  # a copy this command owns
    c.ailments["Wounded"] = c.ailments.get("Wounded", 0) + wounded
    text = _SERIOUS_TEXTS[c.name, name, counted, shown, base, bonus, wounded, continuing]
    if called_shot and attacker_id in tx.state.creatures:
        called_trauma.offer(tx, attacker_id, target_id, part_id, wounded)
    events = [event("serious_injury", text, attacker_id, target_id, rolls, {"part": part_id, "wounded": wounded})]
    if strike_type == "C" and wounded // 2 > 0:
        sever = roll(dice, f"Chopping: does {c.name}'s {name} come off?", wounded // 2)
        severed = sever.highest_double is not None
        events.append(
            event(
                kind="sever",
                text=f"Chopping rolls {sever.dice}d12 for severing: "
                + (f"doubles, {c.name}'s {name} is severed!" if severed else "no doubles."),
                actor=attacker_id,
                target=target_id,
                rolls=[sever],
                data={"severed": severed},
            )
        )
        if severed:
            events += sever_part(tx, target_id, part_id)
    return events


SeverHook = Callable[[Tx, str, str], list[Event]]
AFTER_SEVER: list[SeverHook] = []
"""Called with (tx, creature, part id) after a part is severed (a Hold lets go of it: see `hold`)."""


def on_sever(fn: SeverHook) -> SeverHook:
    AFTER_SEVER.append(fn)
    return fn


def sever_part(tx: Tx, target_id: str, part_id: str) -> list[Event]:
    c = tx.creature(target_id)
    part = tx.part(target_id, part_id)
    if part is not None:
        part.severed = True
    limb = c.limb(part_id)
    events: list[Event] = []
    if limb is not None:
        if limb.holding:
            weapon = c.weapon(limb.holding)
            if weapon is not None and not any(lb.holding == weapon.id for lb in c.limbs if lb.id != limb.id):
                tx.drop(c.id, weapon, c.anchor)
        c.limbs = [lb for lb in c.limbs if lb.id != part_id]
        events.append(event(kind="limb_lost", text=f"{c.name} loses the use of its {limb.name}.", target=target_id))
    for hook in AFTER_SEVER:
        events += hook(tx, target_id, part_id)
    return events


def _check_roll(tx: Tx, c: Creature, skill: str, dl: int, label: str, dice: DiceSource) -> tuple[Roll, bool]:
    r = roll(dice, label, c.skill(skill))
    success = r.result >= dl and not (tx.state.settings.fumble_always_fails and r.fumble)
    return r, success


def endure_roll(tx: Tx, target_id: str, dl: int, label: str, dice: DiceSource) -> tuple[Roll, bool, list[Event]]:
    """An Endure roll; a Fumble while Exhausted is Tier 12 or more kills (seed-004 Dead)."""
    c = tx.get(target_id)
    r, ok = _check_roll(tx, c, "Endure", dl, label, dice)
    return r, ok, exhaustion_death(tx, target_id, "Endure", r)


def wake_roll(tx: Tx, target_id: str, dice: DiceSource) -> list[Event]:
    """seed-004: while Unconscious, roll Endure to wake at the end of each turn, DL 12 - 1 per prior failure."""
    c = tx.get(target_id)
    dl = WAKE_DL - c.wake_failures
    r, ok, events = endure_roll(tx, target_id, dl, f"{c.name}: Endure to wake up", dice)
    mutable = tx.creature(target_id)
    if mutable.dead:
        return [
            event(
                kind="wake",
                text=f"{c.name} rolls Endure to wake (DL {dl}): {r.result}.",
                target=target_id,
                rolls=[r],
                data={"dl": dl},
            ),
            *events,
        ]
    if ok:
        mutable.unconscious = False
        mutable.wake_failures = 0
        left = mutable.ailments.get("Unaware", 0) - UNCONSCIOUS_UNAWARE
        if left > 0:
            mutable.ailments["Unaware"] = left
        else:
            mutable.ailments.pop("Unaware", None)
        text = f"{c.name} rolls Endure to wake (DL {dl}): {r.result}, wakes up (still Prone)."
    else:
        mutable.wake_failures += 1
        text = f"{c.name} rolls Endure to wake (DL {dl}): {r.result}, stays Unconscious (next DL {dl - 1})."
    return [event(kind="wake", text=text, target=target_id, rolls=[r], data={"dl": dl, "woke": ok}), *events]


def element_effects(tx: Tx, hit: Hit, injury: int, dice: DiceSource) -> list[Event]:
    """seed-004 Flowing: Heat, Cold, Acid and Lightning after Injury of that element."""
    element = hit.effective_element
    if element is None or hit.continuing:
        return []
    c = tx.get(hit.target)
    if c.dead:
        return []
    if element == "heat":
        r, ok, events = endure_roll(tx, hit.target, 2 * injury, f"{c.name}: Endure against Heat", dice)
        text = f"Heat: {c.name} rolls Endure (DL {2 * injury}): {r.result}, " + (
            "resists." if ok else "fails: Tier 1 Exhausted."
        )
        if not ok:
            m = tx.creature(hit.target)
            m.ailments["Exhausted"] = m.ailments.get("Exhausted", 0) + 1
        return [event(kind="heat", text=text, target=hit.target, rolls=[r], data={"dl": 2 * injury}), *events]
    if element == "cold":
        r, ok = _check_roll(tx, c, "Zeal", 2 * injury, f"{c.name}: Zeal against Cold", dice)
        text = f"Cold: {c.name} rolls Zeal (DL {2 * injury}): {r.result}, "
        if ok:
            text += "resists."
        else:
            kept = []
            for e in tx.state.effects:
                if e.subject == hit.target:
                    if e.rounds > 1:
                        kept.append(e.model_copy(update={"rounds": e.rounds - 1}))
                else:
                    kept.append(e)
            shortened = len(tx.state.effects) - len(kept)
            tx.state.effects = kept
            text += "fails: the ongoing effects on it lose 1 round" + (f" ({shortened} end now)." if shortened else ".")
        return [event(kind="cold", text=text, target=hit.target, rolls=[r], data={"dl": 2 * injury})]
    if element == "acid":
        amount = injury // 2
        if amount <= 0:
            return []
        part, rolls = (hit.part, []) if hit.part else roll_part(c, dice, tx.state.settings.part_table)
        m = tx.creature(hit.target)
        cont = ContinuingDamage(
            id=tx.state.new_id("cd"),
            element="acid",
            physical=hit.is_physical,
            amount=amount,
            part=part,
            rounds=1,
            source=hit.attacker,
        )
        m.continuing = [*m.continuing, cont]
        return [
            event(
                kind="acid",
                text=f"Acid: {c.name} takes Continuing Acid damage {amount} on its "
                f"{part.replace('_', ' ')} for 1 round.",
                target=hit.target,
                rolls=rolls,
                data={"continuing": cont.id},
            )
        ]
    if element == "lightning" and not hit.lightning_jump:
        return lightning_jump(tx, hit, dice, damaged={hit.target})
    return []


def _contacts(tx: Tx, cells: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    """The conductive pieces and connected bodies of water that touch any of `cells`."""
    from vtt.rules.space import grid_of

    grid = grid_of(tx.state)
    board = tx.state.board
    out = [set(piece) for piece in board.conductive if cells & set(piece)]
    if cells & board.water:
        seen: set[tuple[int, int]] = set()
        frontier = [c for c in cells if c in board.water]
        while frontier:
            cell = frontier.pop()
            if cell in seen:
                continue
            seen.add(cell)
            frontier += [n for n in grid.neighbours(cell) if n in board.water and n not in seen]
        out.append(seen)
    return out


def lightning_jump(tx: Tx, hit: Hit, dice: DiceSource, damaged: set[str]) -> list[Event]:
    """seed-004: after Lightning damages a target contacting conductive material or water, deal half damage to a
    random target not already damaged by the lightning in contact with that material or connected water."""
    from vtt.rules.space import Occupancy

    amount = hit.amount // 2
    if amount <= 0:
        return []
    occ = Occupancy(tx.state)
    regions = _contacts(tx, set(occ.cells[hit.target]))
    if not regions:
        return []
    reach = set().union(*regions)
    candidates = sorted(
        cid
        for cid, cells in occ.everyone().items()
        if cid not in damaged and set(cells) & reach and not tx.get(cid).dead
    )
    if not candidates:
        return []
    pick_rolls: list[Roll] = []
    if len(candidates) == 1:
        chosen = candidates[0]
    else:
        n = min(len(candidates), MAX_FACE)
        candidates = candidates[:n]
        limit = (MAX_FACE // n) * n
        while True:
            r = roll(dice, f"Lightning picks one of {n} targets at random", 1)
            pick_rolls.append(r)
            if r.result <= limit:
                chosen = candidates[(r.result - 1) % n]
                break
    events = [
        event(
            kind="lightning",
            text=f"Lightning jumps through the conductor to {tx.get(chosen).name} for half damage ({amount}).",
            actor=hit.attacker,
            target=chosen,
            rolls=pick_rolls,
        )
    ]
    jump = hit._replace(
        target=chosen,
        amount=amount,
        changes=(),
        attack_faces=(),
        part=None,
        called_shot=False,
        label="Lightning",
        lightning_jump=True,
        max_dice=None,
    )
    dealt = deal(tx, jump, dice)
    events += dealt
    if not any(e.kind == "damage" and e.target == chosen and e.data.get("injury", 0) > 0 for e in dealt):
        return events  # seed-004: it jumps on only "After Lightning damages a target"
    return events + lightning_jump(tx, jump, dice, damaged | {chosen})


def heal(
    tx: Tx,
    target_id: str,
    amount: int,
    healer: str | None,
    kind: str | None,
    pool: PoolName,
    dice: DiceSource,
    max_dice: int | None = None,
) -> list[Event]:
    """seed-004 healing: d12 equal to the amount, faces of 6 or more count; Vulnerable to the type: no effect."""
    c = tx.get(target_id)
    if kind and kind in c.vulnerabilities:
        return [
            event(
                kind="heal",
                text=f"{c.name} is Vulnerable to {kind}: the healing has no effect.",
                actor=healer,
                target=target_id,
            )
        ]
    changes = []
    if max_dice is not None and max_dice < amount:
        changes.append(DiceChange(dice=max_dice - amount, reason="the roller chose to roll fewer dice"))
    r = roll(dice, f"healing for {c.name}", amount, dice_changes=changes)
    healed = r.count_at_least(HEALING_FACE)
    m = tx.creature(target_id)
    p = getattr(m, pool)
    removed = min(p.pips, healed)
    p = p.model_copy(update={"pips": p.pips - removed})
    setattr(m, pool, p)
    healing = event(
        kind="heal",
        text=f"Healing {r.dice}d12, needing {HEALING_FACE}+: {healed}; {c.name} loses "
        f"{count(removed, pool.title() + ' Pip')} ({pool.title()} {p.pips}/{p.max}).",
        actor=healer,
        target=target_id,
        rolls=[r],
        data={"healed": healed, "needed": HEALING_FACE},
    )
    return [healing, *(ailments.trauma_after_grit_recovered(tx, target_id, removed) if pool == "grit" else [])]


def continuing_damage(tx: Tx, dice: DiceSource) -> list[Event]:
    """seed-004: Continuing Damage is dealt on the Soulweaver's turn; a part's added-up total stops counting
    once it has no Continuing Damage."""
    events: list[Event] = []
    for cid in sorted(tx.state.creatures):
        c = tx.get(cid)
        if not c.continuing or c.dead:
            continue
        for cont in list(c.continuing):
            hit = Hit(
                target=cid,
                amount=cont.amount,
                attacker=None,
                label=f"Continuing {cont.element or ''} damage",
                physical=cont.physical,
                element=cont.element,
                targeted=False,
                part=cont.part,
                continuing=True,
            )
            events += deal(tx, hit, dice)
        m = tx.creature(cid)
        m.continuing = [x.model_copy(update={"rounds": x.rounds - 1}) for x in m.continuing if x.rounds > 1]
        live = {x.part for x in m.continuing}
        injury = m.continuing_injury
        if any(part not in live for part in injury):  # replaced, not changed in place: see `txn._REPLACED`
            m.continuing_injury = {part: n for part, n in injury.items() if part in live}
            m.continuing_wounded = {
                part: n for part, n in m.continuing_wounded.items() if part in live or part not in injury
            }
    return events
