"""Hand-worked tests of reference §5.1: "An Ailment caused by an ongoing effect cannot be lowered while that effect
lasts", with the Soulweaver's `afflict` command that gives an Ailment from a source.

a and d are the Soulweaver's (size 0, Endure 2, Zeal 1, ...), so every `end_turn` ends a turn of both, then starts
the next round's Soulweaver turn, where effects created by a or d lose a round. Scripted faces are used in order.
"""

from __future__ import annotations

import asyncio
from typing import Any

from factories import creature, of_kind, on_turn, only, refused, run, state

from vtt.rules import ailments
from vtt.rules.ailments import AILMENTS
from vtt.rules.model import AilmentSource, Effect, GameState, Hold, PartLock
from vtt.rules.settings import TableSettings
from vtt.rules.txn import Tx
from vtt.table.table import Table, Viewer

END = {"type": "end_turn"}
SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1, "Endure": 2, "Nature": 1}


def field(d_ailments: dict[str, int] | None = None, rounds: int = 2) -> GameState:
    """a at (6, 5), d at (5, 5); a's ongoing effect "e1" on d lasts `rounds` rounds."""
    a = creature("a", (6, 5), skills=dict(SKILLS))
    d = creature("d", (5, 5), skills=dict(SKILLS), ailments=d_ailments or {})
    s = on_turn(state(a, d), "a")
    s.effects.append(Effect(id="e1", name="Glare", creator="a", subject="d", rounds=rounds))
    return s


def afflict(ailment: str, tiers: int = 1, source: str | None = None, **kw: Any) -> dict[str, Any]:
    return {"type": "afflict", "target": "d", "ailment": ailment, "tiers": tiers, "source": source, **kw}


def test_an_ailment_from_an_ongoing_effect_is_not_rolled_down_while_the_effect_lasts() -> None:
    """reference §5.1: "An Ailment caused by an ongoing effect cannot be lowered while that effect lasts." d's Dazzled
    2 comes from a's effect Glare (2 rounds): two turn ends roll nothing for it. Glare ends as the second round's
    Soulweaver turn starts; the third turn end rolls Endure at DL 6 + 2 = 8: 8, 3 -> 8 drops it to Tier 1."""
    s, events = run(field(), afflict("Dazzled", 2, "e1"), [])
    assert only(events, "ailment").data == {"ailment": "Dazzled", "tier": 2, "source": "effect:e1"}
    assert s.creatures["d"].ailment_sources == [AilmentSource(ailment="Dazzled", tiers=2, source="effect:e1")]
    s, events = run(s, END, [])
    held = only(events, "ailment_held")
    assert held.text == "D's Dazzled (Tier 2) cannot be lowered while its source lasts: the effect Glare."
    assert of_kind(events, "ailment_roll") == []
    s, events = run(s, END, [])
    assert only(events, "ailment_held").data == {"ailment": "Dazzled", "tier": 2}
    assert only(events, "ailment_source_ended").text == "D's Dazzled can be lowered again: the effect e1 has ended."
    assert s.effects == [] and s.creatures["d"].ailment_sources == []
    assert s.creatures["d"].ailments == {"Dazzled": 2}
    s, events = run(s, END, [8, 3])
    assert only(events, "ailment_roll").data == {"ailment": "Dazzled", "dl": 8, "success": True, "tier": 1}


def test_only_the_tiers_beyond_those_of_a_lasting_source_can_be_lowered() -> None:
    """reference §5.1: Tiers of the same name add together; only those the effect did not cause can be lowered. d
    has Dazzled 1 of its own and 2 from Glare (5 rounds): Tier 3 rolls at DL 6 + 3 = 9; 9, 1 succeeds and takes off
    the Tier without a source; the next turn end the 2 left all come from Glare and are not rolled."""
    s, _ = run(field({"Dazzled": 1}, rounds=5), afflict("Dazzled", 2, "effect:e1"), [])
    s, events = run(s, END, [9, 1])
    assert only(events, "ailment_roll").data == {"ailment": "Dazzled", "dl": 9, "success": True, "tier": 2}
    assert s.creatures["d"].ailment_sources == [AilmentSource(ailment="Dazzled", tiers=2, source="effect:e1")]
    s, events = run(s, END, [])
    assert of_kind(events, "ailment_roll") == []
    assert only(events, "ailment_held").data == {"ailment": "Dazzled", "tier": 2}


def test_tiers_that_last_while_their_source_lasts_go_when_it_ends() -> None:
    """seed-000 swallowing: "While swallowed, ... have Tier 2 Crowded": Tiers recorded `ends_with_source` go with
    the source. d has Crowded 2 from the Hold h0 that a holds it in; when a stops being a Holder the Hold ends and
    Crowded goes at once, in the same command."""
    s0 = field()
    s0.holds["h0"] = Hold(id="h0", holders={"a": ["left_arm"]}, held=["d"])
    limb = s0.creatures["a"].limb("left_arm")
    assert limb is not None
    limb.hold_id = "h0"
    s, _ = run(s0, afflict("Crowded", 2, "h0", ends_with_source=True), [])
    assert s.creatures["d"].ailments == {"Crowded": 2}
    s, events = run(s, {"type": "drop_hold", "creature": "a"}, [])
    assert s.holds == {}
    assert only(events, "ailment_source_ended").text == "D's Crowded from the Hold h0 ends with it (Tier 0 left)."
    assert s.creatures["d"].ailments == {} and s.creatures["d"].ailment_sources == []


def test_strangled_from_a_head_lock_cannot_be_lowered_while_the_lock_lasts() -> None:
    """seed-000 Grapple: "cause Tier 1 Strangled until the head is no longer affected": the head lock is its source.
    Even at a table that gives Strangled a defense (Endure), it is not rolled while g keeps t's head."""
    settings = TableSettings(defense_prompts="nobody", reactions=False, ailment_defenses={"Strangled": "Endure"})
    g, t = creature("g", (5, 5)), creature("t", (5, 5), skills=dict(SKILLS), ailments={"Strangled": 1})
    s0 = on_turn(state(g, t, settings=settings), "g")
    s0.holds["h0"] = Hold(
        id="h0",
        holders={"g": ["left_arm"]},
        held=["t"],
        locks=[PartLock(held="t", part="head", holder="g", limb="left_arm", strangled=1)],
    )
    assert ailments.sources(s0, s0.creatures["t"]) == [
        AilmentSource(ailment="Strangled", tiers=1, source="head_lock:h0/g", ends_with_source=True)
    ]
    _, events = run(s0, END, [])
    assert only(events, "ailment_held").text == (
        "T's Strangled (Tier 1) cannot be lowered while its source lasts: G's hold on its head."
    )


def test_a_source_nobody_can_check_lasts_until_it_is_ended() -> None:
    """A kind of source the rules cannot check (here `storm:`, which no rule registers) lasts until
    `end_source`: d's Dazzled 1 from it is not rolled; once ended, Tiers recorded `ends_with_source` go."""
    s, _ = run(field(), afflict("Dazzled", 1, "storm:a", ends_with_source=True), [])
    s, events = run(s, END, [])
    assert only(events, "ailment_held").text.endswith("while its source lasts: storm:a.")
    tx = Tx(s)
    ended = ailments.end_source(tx, "storm:a")
    assert [e.kind for e in ended] == ["ailment_source_ended"]
    assert tx.state.creatures["d"].ailments == {} and tx.state.creatures["d"].ailment_sources == []
    assert s.creatures["d"].ailments == {"Dazzled": 1}


def test_a_creature_source_is_not_an_ongoing_effect() -> None:
    """reference §5.2 Frightened: the source is whom it fears, not an ongoing effect: d's Frightened 1 of a rolls Zeal
    at DL 7 as any Ailment: 7 succeeds and the record goes with the last Tier."""
    s, _ = run(field(), afflict("Frightened", 1, "a"), [])
    assert s.creatures["d"].ailment_sources == [AilmentSource(ailment="Frightened", tiers=1, source="creature:a")]
    s, events = run(s, END, [7])
    assert only(events, "ailment_roll").data == {"ailment": "Frightened", "dl": 7, "success": True, "tier": 0}
    assert s.creatures["d"].ailments == {} and s.creatures["d"].ailment_sources == []


def test_afflict_refuses_what_is_not_an_ailment_a_part_ailment_or_an_unknown_source() -> None:
    """Only the Ailments of reference §5.2; Wounded and Trauma are caused on a part by Serious Injury (seed-004); a
    source must name a creature, an effect or a Hold, and not the afflicted creature itself."""
    s0 = field()
    refused(s0, afflict("Sleepy"))
    refused(s0, afflict("Wounded"))
    refused(s0, afflict("Trauma"))
    refused(s0, afflict("Dazzled", source="nobody"))
    refused(s0, afflict("Dazzled", source="creature:zz"))
    refused(s0, afflict("Dazzled", source="effect:e9"))
    refused(s0, afflict("Frightened", source="d"))


def test_only_the_soulweaver_may_afflict() -> None:
    """Like dealing damage by hand, giving an Ailment is the Soulweaver's."""
    s0 = field()
    s0.creatures["a"].controller = "alice"
    table = Table("t", s0)
    out = asyncio.run(table.submit(Viewer("player", "alice"), afflict("Dazzled")))
    assert (out.ok, out.error) == (False, "only the Soulweaver can do that")
    out = asyncio.run(table.submit(Viewer("soulweaver", "Soulweaver"), afflict("Dazzled")))
    assert out.ok and table.state.creatures["d"].ailments == {"Dazzled": 1}


def test_focused_is_a_condition_without_tiers_not_an_ailment() -> None:
    """reference §5.3 lists Focused / Focus among the conditions (states without Tiers), not the Ailments of §5.2:
    it is `Creature.focus` (seed-000 Distract), never rolled down."""
    assert "Focused" not in AILMENTS and "Focus" not in AILMENTS
    s = field()
    s.creatures["d"].focus = "a"
    s, events = run(s, END, [])
    assert of_kind(events, "ailment_roll") == []
    assert s.creatures["d"].ailments == {}


def test_records_of_an_ailment_edited_away_are_dropped() -> None:
    """The Soulweaver edits Frightened away: its record of whom it feared goes with it, so a later Frightened from
    nobody fears nobody."""
    s, _ = run(field(), afflict("Frightened", 1, "a"), [])
    s, _ = run(s, {"type": "edit_creature", "creature": "d", "changes": {"ailments": {}}}, [])
    assert s.creatures["d"].ailment_sources == []
    s, _ = run(s, afflict("Frightened", 1), [])
    assert ailments.feared(s, s.creatures["d"]) == []
