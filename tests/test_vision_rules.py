"""Hand-worked tests of the rules that read vision (vtt/rules/vision.py, senses.py, reactions.py, tactics.py).

Rules: reference §2.6 "Concealment comes in Tiers for each sense"; gap 9 ASSUMPTION "A penalty equal to the
Concealment Tier against that target for the relevant sense, normally sight"; table settings `dim_concealment` (1)
and `dark_concealment` (3) for a target seen only in dim light or not seen (in darkness); §5.2 Blinded "Every target
has Sight Concealment Tier equal to your Blinded Tier"; §2.6 Awareness table: Sound base DL 6, range -1; Smell base
DL 9, range -1, size and Magnitude lowering the DL and extending the range, each further multiple +1 DL; seed-000
Hinder Attack ("As a creature in your Reach attacks a target other than you") and Distract ("attack creatures that
are Aware of that action").

Maps are on the square grid, (x, y) = (column, row). A Strike rolls Martial 2 against Elude 2 at DL 3; a tie goes to
the defender. Scripted faces, in order: attack, defense (a miss, so no damage dice).
"""

from __future__ import annotations

from typing import Any

from factories import creature, mod_values, on_turn, only, refused, run, state, used, weapon

from vtt.rules import tactics
from vtt.rules.commands import parse_command
from vtt.rules.grid import GridKind
from vtt.rules.model import Board, CarriedLight, Cell, Creature, GameState
from vtt.rules.reactions import offers
from vtt.rules.settings import TableSettings
from vtt.rules.vision import perceived, perceives

STRIKE = {"type": "strike", "creature": "a", "target": "d", "weapon": "sword"}


def table(**settings: Any) -> TableSettings:
    return TableSettings(grid=GridKind.SQUARE, defense_prompts="nobody", reactions=False, **settings)


def duel(
    d_at: Cell = (2, 1), light: dict[Cell, str] | None = None, a_kw: dict[str, Any] | None = None, **settings: Any
) -> GameState:
    """a (a sword in its right hand) at (1, 1) and d at `d_at`, on a's turn."""
    a = creature("a", (1, 1), weapons=[weapon("sword")], grip={"right_arm": "sword"}, **(a_kw or {}))
    d = creature("d", d_at, controller="pat")
    s = state(a, d, cols=8, rows=4, settings=table(**settings), light=light or {})
    return on_turn(s, "a")


def reasons(events: list[Any]) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in only(events, "attack").rolls[0].modifiers]


def test_an_attack_on_a_creature_in_darkness_takes_dark_concealment() -> None:
    """Ambient darkness: d, next to a, is not seen: Sight Concealment `dark_concealment` 3. Martial 7, 1 -> 7 - 3 = 4
    (past DL 3) against Elude 5, 2 -> 5: a miss that would have hit (7 beats 5)."""
    _, events = run(duel(ambient_light="dark"), STRIKE, [7, 1, 5, 2])
    assert reasons(events) == [(-3, "the target is in darkness, not seen: it has Sight Concealment 3, on attack rolls")]
    assert only(events, "attack").data["success"] is False


def test_an_attack_on_a_creature_in_dim_light_takes_dim_concealment() -> None:
    """The map names d's space (2, 1) dim: Sight Concealment 1. Martial 7, 1 -> 6 against Elude 6, 2 -> 6: a tie,
    the defender wins."""
    _, events = run(duel(light={(2, 1): "dim"}), STRIKE, [7, 1, 6, 2])
    assert reasons(events) == [
        (-1, "the target is seen only in dim light: it has Sight Concealment 1, on attack rolls")
    ]
    assert only(events, "attack").data["success"] is False


def test_a_carried_torch_or_dark_sight_lifts_the_darkness() -> None:
    """a carries a torch (bright 1): d, 1 space away, is lit: no Concealment. The same with dark sight 1 instead.
    Martial 4, 1 -> 4 against Elude 5, 2 -> 5: a miss, with no modifier."""
    torch = duel(ambient_light="dark", a_kw={"light": CarriedLight(bright=1, dim=2)})
    _, events = run(torch, STRIKE, [4, 1, 5, 2])
    assert reasons(events) == []
    _, events = run(duel(ambient_light="dark", a_kw={"dark_sight": 1}), STRIKE, [4, 1, 5, 2])
    assert reasons(events) == []


def test_blinded_in_the_dark_takes_the_higher_tier_not_the_sum() -> None:
    """senses: Blinded and darkness hide the same sense: Blinded 1 in the dark is Concealment 3 (not 4); in light,
    Blinded 1 alone is 1. Faces: Martial 7, 1 (-> 4, then 6); Elude 5, 2 (-> 5), then 6, 2 (-> 6): misses."""
    _, events = run(duel(ambient_light="dark", a_kw={"ailments": {"Blinded": 1}}), STRIKE, [7, 1, 5, 2])
    assert [v for v, _ in reasons(events)] == [-3]
    _, events = run(duel(a_kw={"ailments": {"Blinded": 1}}), STRIKE, [7, 1, 6, 2])
    assert [v for v, _ in reasons(events)] == [-1]


def test_a_ranged_shot_at_a_creature_in_dim_light_takes_dim_concealment() -> None:
    """A longbow (launched, range 4) shot at d 3 spaces away in a dim space: -1. Nimble 7, 1 -> 6 against Elude
    6, 2 -> 6: a tie, a miss."""
    bow = weapon("bow", damage=2, name="Bow", ranged="launched", range=4, two_handed=True)
    grip = {"left_arm": "bow", "right_arm": "bow"}
    a = creature("a", (1, 1), skills={"Nimble": 2, "Elude": 2, "Zeal": 1}, weapons=[bow], grip=grip)
    d = creature("d", (4, 1), controller="pat")
    s = on_turn(state(a, d, cols=8, rows=4, settings=table(), light={(4, 1): "dim"}), "a")
    cmd = {"type": "strike", "creature": "a", "target": "d", "weapon": "bow", "ranged": True}
    _, events = run(s, cmd, [7, 1, 6, 2])
    assert mod_values(only(events, "attack")) == [-1]


# ---- Hinder ------------------------------------------------------------------------------------------------


def hinder_field(**settings: Any) -> GameState:
    """a (the Soulweaver's) strikes d; h, a player's creature with a sword, stands next to a: a is in its Reach."""
    a = creature("a", (1, 1), weapons=[weapon("sword")], grip={"right_arm": "sword"})
    d = creature("d", (2, 1), controller="pat")
    h = creature("h", (0, 1), weapons=[weapon("blade")], grip={"right_arm": "blade"}, controller="pat")
    s = state(a, d, h, cols=8, rows=4, settings=table(**settings).model_copy(update={"reactions": True}))
    return on_turn(s, "a")


def hinderers(s: GameState) -> set[str]:
    found = offers(s, parse_command(STRIKE))
    return set(found[1]) if found is not None else set()


def test_hinder_is_offered_only_to_a_creature_that_perceives_the_attacker() -> None:
    """seed-000 Hinder Attack; vision: h sees a in light and is offered Hinder. In darkness, a moving 1 space away
    makes a sound of Magnitude 2 + 0 reaching -1 + 2 = 1 space (§2.6): h hears it, and is offered. With the table
    rolling for hearing (`hearing_automatic` off) h perceives nothing of a in the dark: no offer."""
    assert hinderers(hinder_field()) == {"h"}
    assert hinderers(hinder_field(ambient_light="dark")) == {"h"}
    assert hinderers(hinder_field(ambient_light="dark", hearing_automatic=False)) == set()


def test_a_blinded_hinderer_is_still_offered_with_its_concealment() -> None:
    """reactions: Blinded is Concealment on the hinderer's roll, not a bar: line of sight, light and range decide."""
    s = hinder_field()
    s.creatures["h"].ailments = {"Blinded": 2}
    assert hinderers(s) == {"h"}


# ---- Distract ----------------------------------------------------------------------------------------------


def distract_field(**settings: Any) -> GameState:
    """a (Guile 3) at (1, 1) has used a Major Action; t (Observe 2) at (4, 1), 3 spaces away (within
    `distract_range` 6)."""
    a = creature("a", (1, 1), skills={"Guile": 3, "Elude": 2, "Zeal": 1})
    t = creature("t", (4, 1), skills={"Observe": 2, "Elude": 2, "Zeal": 1}, controller="pat")
    return used(on_turn(state(a, t, cols=8, rows=4, settings=table(**settings)), "a"), "a", "major")


def test_distract_aware_creatures_are_those_that_perceive_the_action() -> None:
    """seed-000 Distract: "attack creatures that are Aware of that action". In light t sees a: Aware. In darkness
    a's moving sound (Magnitude 2, reaching 1 space, §2.6) does not reach t 3 spaces away: t is not Aware of the
    action, and a Distract after it is refused; speech is heard through the dark, so t is Aware of that."""
    lit = distract_field()
    assert tactics.aware_of(lit, lit.creatures["a"], lit.creatures["t"], action="major")
    dark = distract_field(ambient_light="dark")
    a, t = dark.creatures["a"], dark.creatures["t"]
    assert not tactics.aware_of(dark, a, t, action="major")
    assert tactics.aware_of(dark, a, t, action="speak")
    refused(dark, {"type": "distract", "creature": "a", "targets": ["t"], "action": "major"}, [9, 9, 1, 1])


# ---- Smell and the one-creature judgement ------------------------------------------------------------------


def dark_pair(b_at: Cell, b_size: int = 0, **settings: Any) -> GameState:
    a = Creature(id="A", name="A", anchor=(0, 0), ailments={"Deafened": 1})
    b = Creature(id="B", name="B", anchor=b_at, size=b_size)
    board = Board(cols=8, rows=3)
    return GameState(
        settings=TableSettings(grid=GridKind.SQUARE, ambient_light="dark", **settings),
        board=board,
        creatures={"A": a, "B": b},
    )


def test_smell_finds_a_creature_a_deafened_viewer_cannot_hear() -> None:
    """§2.6 Smell: base DL 9, base range -1; ASSUMPTION a scent's Magnitude is the creature's size. A (Deafened 1,
    in the dark) and B (size 0) next to it: the scent reaches max(1, -1 + 0) = 1 space. Off (the default): an
    Observe roll at DL 9 - 0 = 9. With `smell_automatic`: smelled, its space known as a heard one's. Anosmatic 2
    stops that and adds 2: DL 11."""
    p = perceived(dark_pair((1, 0)), "A")
    assert "B" not in p.heard
    (note,) = [n for n in p.awareness if n.sense == "smell"]
    assert (note.dl, note.reach) == (9, 1)
    assert "DL 9" in note.reason
    s = dark_pair((1, 0), smell_automatic=True)
    p = perceived(s, "A")
    assert p.heard == {"B": ((1, 0),)}
    assert p.reasons["B"].startswith("smelled")
    s.creatures["A"].ailments["Anosmatic"] = 2
    p = perceived(s, "A")
    assert "B" not in p.heard
    (note,) = [n for n in p.awareness if n.sense == "smell"]
    assert note.dl == 11


def test_a_larger_creature_is_smelled_farther() -> None:
    """B size 3 (a 2x2 footprint from (2, 0)), 2 spaces from A: its scent of Magnitude 3 reaches -1 + 3 = 2 spaces
    at DL 9 - 3 = 6; size 0 at the same distance is beyond its 1 space: no smell note (its DL would pass 9)."""
    p = perceived(dark_pair((2, 0), b_size=3), "A")
    (note,) = [n for n in p.awareness if n.sense == "smell"]
    assert (note.dl, note.reach, note.distance) == (6, 2, 2)
    assert not [n for n in perceived(dark_pair((2, 0)), "A").awareness if n.sense == "smell"]


def test_perceives_agrees_with_perceived_on_a_hand_drawn_map() -> None:
    """The one-creature judgement is the same computation: on a map with a wall, darkness, a torch and a Blinded
    viewer, `perceives` says seen / heard / nothing exactly where `perceived` does, for every pair."""
    rows = ["A..#..B", "...#...", "C.....D", ".E....."]
    creatures: dict[str, Creature] = {}
    walls: set[Cell] = set()
    for y, line in enumerate(rows):
        for x, ch in enumerate(line):
            if ch == "#":
                walls.add((x, y))
            elif ch.isupper():
                creatures[ch] = Creature(id=ch, name=ch, anchor=(x, y))
    creatures["C"] = creatures["C"].model_copy(update={"light": CarriedLight(bright=2, dim=3)})
    creatures["E"] = creatures["E"].model_copy(update={"ailments": {"Blinded": 1}})
    settings = TableSettings(grid=GridKind.SQUARE, ambient_light="dark", smell_automatic=True)
    s = GameState(
        settings=settings, board=Board(cols=7, rows=4, walls=walls, light={(6, 0): "lit"}), creatures=creatures
    )
    kinds: set[str | None] = set()
    for viewer in creatures:
        p = perceived(s, viewer)
        for other in creatures:
            expected = "seen" if other in p.seen else "heard" if other in p.heard else None
            assert perceives(s, viewer, other) == expected, (viewer, other)
            kinds.add(expected)
    assert kinds == {"seen", "heard", None}
