"""Reactions: Hinder Attack and Hinder Movement (seed-000 Defense actions).

- Hinder Attack: "As a creature in your Reach attacks a target other than you, attack to cause -1 on their
  attack roll, DL 3. If multiple attackers hinder the same attack, the attacker rolls this defense only once and
  uses the same result against all."
- Hinder Movement: "Before a creature in your Reach would move, attack to prevent the movement, DL 3. If they
  would move into or out of a space you occupy, gain +3 on your roll. If multiple attackers Hinder Movement on the
  same movement, the creature rolls this defense only once and uses the same result against each. This counts
  as an Overpower effect." (so the Overpower size rule applies, and a mover 3 or more sizes larger cannot be
  hindered).
- Hinder Spell: "As a creature in your Reach begins to Manifest a Spell, attack to cause -1 on their roll, DL 3. If
  multiple attackers hinder the same Spell, the creature rolls this defense only once and uses the same result
  against all." It triggers on Manifesting or Readying a Spell (not a Talent); the Spell's target may Hinder too
  (the seed excludes nobody). Each success is -1 on the Manifest roll, and so on an attack that uses it.

Hinder Attack is offered against every attack on a target other than the hinderer: a Strike, an Overpower, a
Distract (none of the creatures it attacks may Hinder it), a Collision and a Talent's damaging Manifest (its Manifest
roll is its attack roll). A Collision is a movement too: each creature may answer with Hinder Movement or Hinder
Attack (`React.hinder_as`; the first offered when not named); each kind rolls its own one defense.

How the engine does it: when a command would attack or move and some other creature has the actor in its Reach
(and can act), the command is checked in full without rolling, then it waits: each eligible creature's
controller gets a reaction decision (hinder or pass). When the last one answers, every hinderer rolls its attack,
the actor rolls one defense against all of them, and the command goes on: an attack (or a Manifest roll) with -1
for each successful Hinder Attack (or Hinder Spell), a movement not at all if any Hinder Movement succeeded. Each
reaction is used at most once per trigger (reference gap 12). Only a creature that perceives the actor (sees it,
or knows its space by sound or scent: `vision.perceives`, the computation of fog of war) is offered a Hinder: one
that cannot perceive the trigger cannot answer it. Its Blinded and Deafened are Concealment on its roll (below),
not a bar: line of sight, light and range decide. Which skills roll and defend are table settings. A
creature in a Defensive Stance cannot attack, so it cannot Hinder. Each Hinder is a physical melee attack on the
actor and the actor's one defense is a defense against physical attacks, so everything that changes those applies:
on the hinderer's roll effects (Called Shot), Encumbered, Dazzled, Crowded, Exhausted, Prone's d12, Concealment,
Frightened of the actor, Focus on it, a Prone actor; on the actor's defense effects (Defensive Stance, Charge),
Encumbered, Unstable, Crowded, Exhausted, Concealment; not Frightened, as one roll answers several hinderers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

from vtt.rules import ailments, enraged, guard, vision
from vtt.rules.abilities import LIBRARY
from vtt.rules.checks import AttackResult
from vtt.rules.commands import Command, Distract, Manifest, Move, StrikeSpace, parse_command
from vtt.rules.conditions import defense_modifiers, melee_attack_modifiers
from vtt.rules.death import exhaustion_death
from vtt.rules.dice import DiceSource, Modifier, roll
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.model import SOULWEAVER, Cell, Decision, GameState
from vtt.rules.reach import farthest
from vtt.rules.situational import Situational
from vtt.rules.sizes import can_overpower, overpower_size_modifier
from vtt.rules.space import Occupancy, footprint, grid_of
from vtt.rules.stance import in_stance
from vtt.rules.turns import resolve_blocks
from vtt.rules.txn import Tx

HINDER_DL = 3
HINDER_ATTACK_PENALTY = -1
HINDER_SPELL_PENALTY = -1
HINDER_MOVEMENT_BONUS = 3

ReactionKind = Literal["hinder_attack", "hinder_movement", "hinder_spell"]
KIND_ORDER: tuple[ReactionKind, ...] = ("hinder_movement", "hinder_attack", "hinder_spell")
HINDERS_OF_THE_ROLL: tuple[Literal["hinder_attack", "hinder_spell"], ...] = ("hinder_attack", "hinder_spell")
WHAT: dict[str, str] = {
    "hinder_attack": "attacks",
    "hinder_movement": "is about to move",
    "hinder_spell": "begins to Manifest a Spell",
}
LABELS: dict[str, str] = {
    "hinder_attack": "Hinder Attack",
    "hinder_movement": "Hinder Movement",
    "hinder_spell": "Hinder Spell",
}


class ProbeStop(Exception):
    """Raised by ProbeDice: the command got as far as its first roll, so every check before it passed."""


class ProbeDice:
    """Dice that stop a command at its first roll: used to check a command in full before it waits."""

    def faces(self, count: int, purpose: str) -> list[int]:
        raise ProbeStop(purpose)


class ReactionGroup(BaseModel):
    """A command waiting on the reactions it triggered."""

    id: str
    kind: ReactionKind
    actor: str
    command: dict[str, Any]
    waiting: list[str] = Field(default_factory=list, description="Reaction decisions not answered yet.")
    accepted: dict[str, int] = Field(default_factory=dict, description="Hinderer -> bonus on its roll.")
    chosen: dict[str, ReactionKind] = Field(
        default_factory=dict,
        description="Hinderer -> its Hinder when not `kind` (Hinder Attack on a Collision).",
    )


def trigger(state: GameState, cmd: Command) -> tuple[ReactionKind, str, str | None] | None:
    """What a command triggers (its model's `HINDERED_AS`): (kind, actor, attacked target) or None. A Manifest
    triggers a Hinder only for a Spell."""
    kind = cmd.HINDERED_AS
    actor = getattr(cmd, "creature", None)
    if kind is None or not isinstance(actor, str):
        return None
    if kind == "hinder_spell":
        ab = LIBRARY.get(getattr(cmd, "ability", ""))
        if ab is None:
            return None
        if ab.is_spell:
            return kind, actor, None
        if isinstance(cmd, Manifest) and ab.effect.attacks:  # a Talent's damaging Manifest is an attack
            return "hinder_attack", actor, cmd.target or actor
        return None
    target = getattr(cmd, "target", None) if kind == "hinder_attack" else None
    return kind, actor, target


def offers(state: GameState, cmd: Command) -> tuple[str, dict[str, dict[ReactionKind, int]]] | None:
    """The actor, and each creature that may react with the Hinders it may use (each with its bonus). A Collision
    is a movement and an attack: Hinder Movement and Hinder Attack are both offered."""
    found = trigger(state, cmd)
    if found is None:
        return None
    kind, actor, target = found
    known = state.creatures
    if actor not in known or (target is not None and target not in known):
        return None
    out: dict[str, dict[ReactionKind, int]] = {}
    for hid, bonus in eligible(state, kind, actor, target, cmd).items():
        out.setdefault(hid, {})[kind] = bonus
    if isinstance(cmd, Move) and cmd.collide_with is not None and cmd.collide_with in known:
        for hid, bonus in eligible(state, "hinder_attack", actor, cmd.collide_with, cmd).items():
            out.setdefault(hid, {})["hinder_attack"] = bonus
    return actor, out


def hinder_reach(state: GameState, creature_id: str) -> int:
    """The farthest Reach the creature has with a weapon it grips or a free limb; -1 when it has none."""
    from vtt.rules import strike

    c = state.creatures[creature_id]
    best = -1
    options: list[tuple[str | None, str | None]] = [(w.id, None) for w in c.weapons]
    options += [(None, limb.id) for limb in c.limbs if limb.free]
    for wid, lid in options:
        try:
            arm = strike.armament(state, c, wid, lid)
        except RuleError:
            continue
        best = max(best, strike.arm_reach(state, c, arm))
    return best


def movement_path(state: GameState, cmd: Move) -> list[Cell]:
    if cmd.path is not None:
        return list(cmd.path)
    from vtt.rules.movement import find_path

    c = state.creatures[cmd.creature]
    econ = state.economy.get(cmd.creature)
    budget = econ.movement_left if econ else 0
    return find_path(state, c, cmd.to, budget, state.board.filled())


def eligible(state: GameState, kind: ReactionKind, actor: str, target: str | None, cmd: Command) -> dict[str, int]:
    """Every creature that may react, with the bonus its roll gets."""
    if not state.settings.reactions:
        return {}
    occ = Occupancy(state)
    grid = grid_of(state)
    mover = state.creatures[actor]
    out: dict[str, int] = {}
    entered: set[Cell] = set()
    if kind == "hinder_movement" and isinstance(cmd, Move):
        for step in movement_path(state, cmd):
            entered.update(footprint(state, mover, step))
    start = set(occ.cells[actor])
    targets = {target} if target else set()
    if isinstance(cmd, StrikeSpace):
        targets |= set(occ.at(cmd.space))
    if isinstance(cmd, Distract):
        targets |= set(cmd.targets)
    allies_too = state.settings.hinder_allies
    for hid, h in state.creatures.items():  # the cheapest tests first (each only reads the state)
        if hid == actor or hid in targets or not h.can_act or h.swallowed_by is not None:
            continue
        if h.team == mover.team and not allies_too:
            continue
        if in_stance(state, hid) or resolve_blocks(state, hid):  # seed-004: on a full Resolve Pool, no action but
            continue  # Recovery and the Zeal roll
        if not enraged.may_target(h, actor):  # Enraged: "can only target subjects of your Focus"
            continue
        here, there = occ.cells[hid], occ.cells[actor]
        if here and there and footprint_distance(grid, here, there) > farthest(h):
            continue  # out of any Reach it could have: `hinder_reach` (weighing each weapon and limb) is not asked
        rng = hinder_reach(state, hid)
        if rng < 0 or footprint_distance(grid, here, there) > rng:
            continue
        if vision.perceives(state, hid, actor, ailments=False) is None:  # cannot see, hear or smell the trigger
            continue
        if kind == "hinder_movement":
            if not can_overpower(h.size, mover.size):
                continue
            mine = set(occ.cells[hid])
            out[hid] = HINDER_MOVEMENT_BONUS if (mine & entered or mine & start) else 0
        else:
            out[hid] = 0
    return out


def open_group(tx: Tx, cmd: Command, actor: str, hinderers: dict[str, dict[ReactionKind, int]]) -> list[Event]:
    state = tx.state
    gid = state.new_id("r")
    kinds = [k for k in KIND_ORDER if any(k in offered for offered in hinderers.values())]
    group = ReactionGroup(id=gid, kind=kinds[0], actor=actor, command=cmd.model_dump(mode="json"))
    name = state.creatures[actor].name
    what = " and ".join(WHAT[k] for k in kinds)
    for hid, offered in sorted(hinderers.items()):
        h = state.creatures[hid]
        mine = [k for k in KIND_ORDER if k in offered]
        asks = []
        for k in mine:
            extra = f" (+{offered[k]}: moving into or out of your space)" if offered[k] else ""
            asks.append(f"{LABELS[k]}{extra}")
        decision = Decision(
            id=state.new_id("d"),
            kind="reaction",
            to=h.controller or SOULWEAVER,
            creature=hid,
            prompt=f"{name} {what} within {h.name}'s Reach. {' or '.join(asks)}?",
            options=["hinder", "pass"],
            payload={"group": gid, "kind": mine[0], "bonus": offered[mine[0]], "kinds": dict(offered)},
        )
        tx.pending().append(decision)
        group.waiting.append(decision.id)
    tx.reactions()[gid] = group.model_dump(mode="json")
    names = ", ".join(state.creatures[h].name for h in sorted(hinderers))
    labels = " or ".join(LABELS[k] for k in kinds)
    return [
        Event(
            kind="reaction_window",
            text=f"{name} {what}: {names} may {labels}.",
            actor=actor,
            data={"group": gid, "hinderers": sorted(hinderers), "decisions": list(group.waiting)},
        )
    ]


Dispatch = Callable[[Tx, Command, DiceSource], list[Event]]


def answer(
    tx: Tx, decision: Decision, hinder: bool, dice: DiceSource, dispatch: Dispatch, as_kind: ReactionKind | None = None
) -> list[Event]:
    """`as_kind` names the Hinder used when the decision offers more than one; None: the first offered."""
    state = tx.state
    offered: dict[str, int] = dict(decision.payload.get("kinds") or {decision.payload["kind"]: 0})
    named = as_kind or str(decision.payload["kind"])
    kind = next((k for k in KIND_ORDER if k == named and k in offered), None)
    if hinder and kind is None:
        choices = " or ".join(LABELS[k] for k in offered)
        raise RuleError(f"this reaction can be {choices}, not {LABELS.get(named, 'that')}")
    state.pending = [d for d in state.pending if d.id != decision.id]
    gid = decision.payload["group"]
    group = ReactionGroup.model_validate(state.reactions[gid])
    group.waiting = [w for w in group.waiting if w != decision.id]
    who = state.creatures[decision.creature or ""].name if decision.creature in state.creatures else "?"
    events = [
        Event(kind="reaction", text=f"{who} {'hinders' if hinder else 'does not react'}.", actor=decision.creature)
    ]
    if hinder and decision.creature is not None and kind is not None:
        group.accepted[decision.creature] = int(offered.get(kind, 0))
        if kind != group.kind:
            group.chosen[decision.creature] = kind
    if group.waiting:
        tx.reactions()[gid] = group.model_dump(mode="json")
        return events
    del tx.reactions()[gid]
    return events + resolve(tx, group, dice, dispatch)


def resolve(tx: Tx, group: ReactionGroup, dice: DiceSource, dispatch: Dispatch) -> list[Event]:
    state = tx.state
    cmd = parse_command(group.command)
    events: list[Event] = []
    successes: dict[ReactionKind, list[str]] = {}
    for kind in KIND_ORDER:
        mine = {h: b for h, b in group.accepted.items() if group.chosen.get(h, group.kind) == kind}
        if mine:
            won, rolled = _hinder_rolls(tx, group.actor, kind, mine, dice)
            successes[kind] = won
            events += rolled
    actor = state.creatures[group.actor]
    if tx.get(group.actor).dead:
        return events
    stopped = successes.get("hinder_movement", [])
    if stopped:
        names = ", ".join(state.creatures[h].name for h in stopped)
        return [
            *events,
            Event(
                kind="move_prevented",
                text=f"{names} prevent{'s' if len(stopped) == 1 else ''} {actor.name}'s movement.",
                actor=group.actor,
            ),
        ]
    tx.cleared = True
    tx.situational += tuple(
        Situational(
            scope="manifest_roll" if kind == "hinder_spell" else "attack_roll",
            creature=group.actor,
            modifier=Modifier(
                value=HINDER_SPELL_PENALTY if kind == "hinder_spell" else HINDER_ATTACK_PENALTY,
                reason=f"Hindered by {state.creatures[h].name}",
                key=kind,
                source=h,
            ),
        )
        for kind in HINDERS_OF_THE_ROLL
        for h in successes.get(kind, [])
    )
    return events + dispatch(tx, cmd, dice)


def _hinder_rolls(
    tx: Tx, actor_id: str, kind: ReactionKind, accepted: dict[str, int], dice: DiceSource
) -> tuple[list[str], list[Event]]:
    """Every hinderer of one kind rolls; the actor rolls one defense against all of them."""
    state = tx.state
    s = state.settings
    actor = state.creatures[actor_id]
    if kind == "hinder_attack":
        skill, defense_skill = s.hinder_attack_skill, s.hinder_attack_defense
    elif kind == "hinder_spell":
        skill, defense_skill = s.hinder_spell_skill, s.hinder_spell_defense
    else:
        skill, defense_skill = s.hinder_movement_skill, s.hinder_movement_defense
    label = LABELS[kind]
    rolls = []
    for hid, bonus in sorted(accepted.items()):
        h = state.creatures[hid]
        mods: list[Modifier] = []
        if bonus:
            mods.append(
                Modifier(
                    value=bonus, reason="Hinder Movement into or out of your space", key="hinder_movement", source=hid
                )
            )
        if kind == "hinder_movement":
            size_mod = overpower_size_modifier(h.size, actor.size)
            if size_mod:
                mods.append(size_mod)
        mods += melee_attack_modifiers(state, h, actor)
        changes = ailments.attack_dice_changes(state, h)
        rolls.append((hid, roll(dice, f"{h.name}: {label} on {actor.name}", h.skill(skill), mods, changes)))
    defense = roll(
        dice,
        f"{actor.name}: one {defense_skill} defense against every {label}",
        actor.skill(defense_skill),
        [
            *defense_modifiers(state, actor, defense_skill),
            *ailments.defense_against_modifiers(state, actor, None),
            *guard.guard_modifiers(state, actor, True, False, None),  # a Hinder is a physical melee attack
        ],
    )
    events = exhaustion_death(tx, actor_id, defense_skill, defense)
    won: list[str] = []
    for hid, r in rolls:
        result = AttackResult(
            attack=r,
            dl=HINDER_DL,
            defense_skill=defense_skill,
            defense=defense,
            ties_to=s.ties_to,
            fumble_fails=s.fumble_always_fails,
        )
        h = state.creatures[hid]
        verdict = "succeeds" if result.success else "fails"
        events.append(
            Event(
                kind="hinder",
                text=f"{h.name} rolls {r.result} (DL {HINDER_DL}) against "
                f"{actor.name}'s {defense_skill} {defense.result}: the {label} {verdict}.",
                actor=hid,
                target=actor_id,
                rolls=[r, defense],
                data={"success": result.success, "kind": kind},
            )
        )
        if result.success:
            won.append(hid)
    return won, events


def probe(tx_factory: Callable[[], Tx], cmd: Command, dispatch: Dispatch) -> None:
    """Check a command in full without rolling: RuleError if it is not allowed now."""
    try:
        dispatch(tx_factory(), cmd, ProbeDice())
    except ProbeStop:
        return
