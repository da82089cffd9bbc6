"""The menu's Talents (seed-000): Manifest, Ready, completing a Readied ability and Dismiss."""

from __future__ import annotations

from vtt.rules import (
    ailments,
    manifest,
    stance,
    turns,
)
from vtt.rules.abilities import LIBRARY, Ability
from vtt.rules.dice import Modifier
from vtt.rules.model import Creature, GameState
from vtt.rules.offers import (
    ActionOption,
    RollPreview,
    make_option,
    make_preview,
    make_target,
)
from vtt.rules.space import Occupancy
from vtt.rules.words import count


def manifest_preview(state: GameState, c: Creature, ab: Ability, dl: int | None = None) -> RollPreview:
    skill = manifest.skill_of(state, ab)
    return make_preview(
        label=f"{c.name}: Manifest {ab.name}",
        skill=skill,
        dice=c.skill(skill),
        modifiers=ailments.manifest_modifiers(c, state, skill),
        dl=manifest.dl_of(state, c, ab)[0] if dl is None else dl,
        defense_skill=ab.effect.defense or "Elude" if ab.effect.attacks else None,
    )


def manifest_options(
    state: GameState, occ: Occupancy, c: Creature, major_ok: bool, minor_ok: bool
) -> list[ActionOption]:
    """Manifest, Ready, completing a Readied ability and Dismiss (seed-000), each exactly when it is allowed."""
    out: list[ActionOption] = []
    econ = state.economy[c.id]
    for aid in c.abilities:
        ab = LIBRARY.get(aid)
        if ab is None or not major_ok:
            continue
        note = "; ".join(manifest.dl_of(state, c, ab)[1])
        boosts = [b for b in (False, True) if manifest.why_not_manifest(state, c, ab, b, readying=False) is None]
        attacking_ok = not ab.effect.attacks or not stance.in_stance(state, c.id)
        if boosts and attacking_ok:
            preview = manifest_preview(state, c, ab)
            choices = {"boosted": boosts} if len(boosts) > 1 else {}
            options = [
                make_target(target=tid, preview=preview, note=note, choices=choices)
                for tid in manifest.targets(state, occ, c, ab)
            ]
            if options:
                out.append(
                    make_option(
                        action="manifest",
                        group="Manifest",
                        label=f"Manifest {ab.name}",
                        cost={"major": 1, "energy": 1, "words": ab.word_cost(False)},
                        params={"ability": ab.id},
                        targets=options,
                        reach=ab.effect.range,
                        choose=["boosted"] if choices else [],
                    )
                )
        readies = [b for b in (False, True) if manifest.why_not_manifest(state, c, ab, b, readying=True) is None]
        if readies:
            out.append(
                make_option(
                    action="ready",
                    group="Manifest",
                    label=f"Ready {ab.name}",
                    cost={"major": 1, "energy": 1, "words": ab.word_cost(False)},
                    params={"ability": ab.id},
                    targets=[
                        make_target(
                            target=c.id,
                            preview=manifest_preview(state, c, ab),
                            note=note or "kept in a Free Limb with no effect until completed",
                            choices={"boosted": readies} if len(readies) > 1 else {},
                        )
                    ],
                    choose=["boosted"] if len(readies) > 1 else [],
                )
            )
    for limb in manifest.readied_limbs(c) if minor_ok else []:
        assert limb.readied is not None
        ab = LIBRARY[limb.readied.ability]
        if ab.effect.attacks and stance.in_stance(state, c.id):
            continue
        preview = manifest_preview(state, c, ab, limb.readied.dl).model_copy(
            update={
                "dice": 0,
                "modifiers": [
                    Modifier(value=limb.readied.roll.result, reason="the Readied roll", key="readied", source=c.id)
                ],
            }
        )
        done = [make_target(target=tid, preview=preview) for tid in manifest.targets(state, occ, c, ab)]
        if done:
            out.append(
                make_option(
                    action="complete_ready",
                    group="Manifest",
                    label=f"Complete {ab.name} ({limb.readied.roll.result})",
                    cost={"minor": 1},
                    params={"limb": limb.id},
                    targets=done,
                    reach=ab.effect.range,
                )
            )
    cost = state.settings.dismiss_cost
    unblocked = not turns.resolve_blocks(state, c.id) or econ.major_unlocked
    dismiss_paid = (cost == "none" and unblocked) or (cost == "major" and major_ok) or (cost == "minor" and minor_ok)
    for e in manifest.ongoing(state, c.id) if dismiss_paid else []:
        if manifest.why_not_dismiss(state, c, e) is None:
            out.append(
                make_option(
                    action="dismiss",
                    group="Manifest",
                    label=f"Dismiss {e.name} on {state.creatures[e.subject].name}",
                    cost={} if cost == "none" else {cost: 1},
                    params={"effect": e.id},
                    targets=[make_target(target=e.subject, note=f"{count(e.rounds, 'round')} left")],
                )
            )
    return out
