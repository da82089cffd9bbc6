"""Hand-worked tests of Strangled (seed-000 Grapple: "cause Tier 1 Strangled until the head is no longer affected";
reference §5.2: effect GAP, ASSUMPTION "no breathing or speech; each round, 1 Energy Pip per Tier"), table settings
`strangled_energy_per_tier` and `strangled_silences`.

g Holds t in (5, 5) and keeps its head (a Grapple's Called Shot made before) with a suffocating Grapple: t is
Strangled 1. Everyone is the Soulweaver's, so each `end_turn` ends their turn and starts the next one.
"""

from __future__ import annotations

from factories import creature, of_kind, on_turn, only, refused, run, state

from vtt.rules.engine import legal_actions
from vtt.rules.model import GameState, Hold, PartLock, Pool
from vtt.rules.settings import TableSettings

END = {"type": "end_turn"}


def strangled(tiers: int = 1, energy: Pool | None = None, settings: TableSettings | None = None) -> GameState:
    g = creature("g", (5, 5))
    t = creature(
        "t",
        (5, 5),
        skills={"Magic": 2, "Endure": 2},
        abilities=["firebolt", "stone_skin"],
        ailments={"Strangled": tiers},
        energy=energy or Pool(max=6),
    )
    s = on_turn(state(g, t, settings=settings), "g")
    lock = PartLock(held="t", part="head", holder="g", limb="left_arm", strangled=tiers)
    s.holds["h0"] = Hold(id="h0", holders={"g": ["left_arm"]}, held=["t"], locks=[lock])
    limb = s.creatures["g"].limb("left_arm")
    assert limb is not None
    limb.hold_id = "h0"
    return s


def test_strangled_suffers_an_energy_pip_per_tier_as_its_turn_starts() -> None:
    """ASSUMPTION "each round, 1 Energy Pip per Tier": as t's next turn starts, Strangled 1 is 1 Energy Pip."""
    s, events = run(strangled(), END, [])
    assert only(events, "strangled").data == {"tier": 1, "pips": 1}
    assert s.creatures["t"].energy.pips == 1
    s, _ = run(s, END, [])
    assert s.creatures["t"].energy.pips == 2


def test_strangled_on_a_full_energy_pool_becomes_exhausted() -> None:
    """seed-004: "For each Energy Pip you suffer while your Energy Pool is full, suffer Tier 1 Exhausted." Strangled
    2 on a full pool (6/6): 2 Energy Pips, Tier 2 Exhausted."""
    s, events = run(strangled(2, Pool(max=6, pips=6)), END, [])
    assert only(events, "strangled").data == {"tier": 2, "pips": 2}
    assert s.creatures["t"].ailments["Exhausted"] == 2


def test_strangled_ends_with_the_head_lock_and_so_does_the_energy_loss() -> None:
    """seed-000: "until the head is no longer affected": g drops the Hold; t's next turn start costs nothing."""
    s, _ = run(strangled(), {"type": "drop_hold", "creature": "g"}, [])
    assert s.creatures["t"].ailments == {}
    s, events = run(s, END, [])
    assert of_kind(events, "strangled") == [] and s.creatures["t"].energy.pips == 0


def test_the_energy_pips_per_tier_are_a_table_setting() -> None:
    """`strangled_energy_per_tier` 0: no Energy lost."""
    none = TableSettings(defense_prompts="nobody", reactions=False, strangled_energy_per_tier=0)
    s, events = run(strangled(settings=none), END, [])
    assert of_kind(events, "strangled") == [] and s.creatures["t"].energy.pips == 0


def test_a_strangled_creature_cannot_speak_the_words_of_a_spell() -> None:
    """ASSUMPTION "no ... speech"; seed-000: "Manifesting a Spell also ... costs 1 word". Strangled t cannot Manifest
    Firebolt (a Spell) and is not offered it; Stone Skin, a Talent, costs no word: Endure 6, 2 -> 6 (DL 6)."""
    s0 = strangled()
    refused(s0, {"type": "manifest", "creature": "t", "ability": "firebolt", "target": "g"})
    offered = {o.params.get("ability") for o in legal_actions(s0, "t") if o.action == "manifest"}
    assert offered == {"stone_skin"}
    _, events = run(s0, {"type": "manifest", "creature": "t", "ability": "stone_skin"}, [6, 2])
    assert only(events, "manifest").data["success"] is True


def test_speech_is_a_table_setting() -> None:
    """`strangled_silences` False: Firebolt is offered again."""
    talk = TableSettings(defense_prompts="nobody", reactions=False, strangled_silences=False)
    offered = {o.params.get("ability") for o in legal_actions(strangled(settings=talk), "t") if o.action == "manifest"}
    assert offered == {"firebolt", "stone_skin"}
