"""Hand-worked tests of Frightened (reference §5.2: "Zeal (Mind). The text is cut off." GAP; ASSUMPTION: "penalty
equal to Tier on rolls against the source, and you cannot willingly move closer to it"), table settings
`frightened_penalty_per_tier`, `frightened_on_defense`, `frightened_no_approach`.

a (sword, Martial 2, Elude 2) is Frightened of d; both are the Soulweaver's, on its turn. A Strike rolls Martial
against Elude at DL 3; scripted faces: attack, defense, damage.
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, refused, run, state, weapon

from vtt.rules.engine import legal_actions
from vtt.rules.grid import footprint_distance
from vtt.rules.model import AilmentSource, GameState
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, grid_of

SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Zeal": 1}


def field(a_at: tuple[int, int] = (6, 5), tiers: int = 2, settings: TableSettings | None = None) -> GameState:
    """a at `a_at` Frightened (Tier `tiers`) of d at (5, 5); x stands at (7, 5)."""
    a = creature(
        "a",
        a_at,
        skills=dict(SKILLS),
        weapons=[weapon("sword")],
        grip={"right_arm": "sword"},
        ailments={"Frightened": tiers},
        ailment_sources=[AilmentSource(ailment="Frightened", tiers=tiers, source="creature:d")],
    )
    d = creature("d", (5, 5), skills=dict(SKILLS))
    x = creature("x", (7, 5), skills=dict(SKILLS))
    return on_turn(state(a, d, x, settings=settings), "a")


def strike(who: str, target: str, **kw: Any) -> dict[str, Any]:
    return {"type": "strike", "creature": who, "target": target, **kw}


def mods(roll: Any) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in roll.modifiers]


def test_frightened_is_a_penalty_equal_to_tier_on_attacks_against_its_source() -> None:
    """Frightened 2 of d: a's Strike on d has -2: Martial 8, 1 -> 6 against Elude 5, 2 -> 5: a hit (damage 1, 1:
    no Injury)."""
    _, events = run(field(), strike("a", "d", weapon="sword"), [8, 1, 5, 2, 1, 1])
    attack = only(events, "attack")
    assert mods(attack.rolls[0]) == [(-2, "Frightened (Tier 2) of D: on attack rolls against it")]
    assert attack.rolls[0].result == 6 and attack.data["success"] is True


def test_frightened_changes_nothing_against_others() -> None:
    """Only rolls against the source: a's Strike on x (next to it) has no modifier: 8, 1 -> 8."""
    _, events = run(field(), strike("a", "x", weapon="sword"), [8, 1, 5, 2, 1, 1])
    assert mods(only(events, "attack").rolls[0]) == []


def test_frightened_is_a_penalty_on_defenses_against_its_source() -> None:
    """`frightened_on_defense` (ASSUMPTION): a defense is a roll against the attacker. d strikes a unarmed: Martial
    6, 1 -> 6 against a's Elude 7, 2 -> 7 - 2 = 5: a hit (1 damage die: 1, no Injury). With the setting off, a's 7
    is a tie and the defender wins."""
    _, events = run(field(), strike("d", "a"), [6, 1, 7, 2, 1])
    attack = only(events, "attack")
    assert mods(attack.rolls[1]) == [(-2, "Frightened (Tier 2) of D: on defense rolls against it")]
    assert attack.data["success"] is True
    off = TableSettings(defense_prompts="nobody", reactions=False, frightened_on_defense=False)
    _, events = run(field(settings=off), strike("d", "a"), [6, 1, 7, 2])
    attack = only(events, "attack")
    assert mods(attack.rolls[1]) == [] and attack.data["success"] is False


def test_the_penalty_per_tier_is_a_table_setting() -> None:
    """`frightened_penalty_per_tier` 0: Frightened changes no roll."""
    none = TableSettings(defense_prompts="nobody", reactions=False, frightened_penalty_per_tier=0)
    _, events = run(field(settings=none), strike("a", "d", weapon="sword"), [8, 1, 5, 2, 1, 1])
    assert mods(only(events, "attack").rolls[0]) == []


def test_a_frightened_creature_cannot_move_closer_to_its_source() -> None:
    """ASSUMPTION: "you cannot willingly move closer to it". a is 3 spaces from d: a move to (7, 5) (2 from d) is
    refused, as is a path through it; a move away to (9, 5) is fine."""
    s0 = field(a_at=(8, 5))
    refused(s0, {"type": "move", "creature": "a", "to": [7, 4]})
    refused(s0, {"type": "move", "creature": "a", "to": [8, 4], "path": [[7, 5], [8, 4]]})
    s, _ = run(s0, {"type": "move", "creature": "a", "to": [9, 5]}, [])
    assert s.creatures["a"].anchor == (9, 5)


def test_legal_moves_of_a_frightened_creature_keep_its_distance() -> None:
    """The Move option lists no space closer to d than a's 3 spaces, and does list spaces at 3 and farther."""
    s0 = field(a_at=(8, 5))
    (move,) = [o for o in legal_actions(s0, "a") if o.action == "move"]
    occ, grid = Occupancy(s0), grid_of(s0)
    dists = {cell: footprint_distance(grid, (cell,), occ.cells["d"]) for cell in move.spaces}
    assert min(dists.values()) == 3
    assert (9, 5) in move.spaces and (7, 5) not in move.spaces


def test_being_moved_is_not_moving_willingly() -> None:
    """Only willing moves are held back: the Soulweaver may place a next to d."""
    s, _ = run(field(a_at=(8, 5)), {"type": "place", "creature": "a", "to": [6, 5]}, [])
    assert s.creatures["a"].anchor == (6, 5)


def test_moving_closer_is_allowed_when_the_table_turns_it_off() -> None:
    """`frightened_no_approach` False: a moves to (6, 5), next to d."""
    off = TableSettings(defense_prompts="nobody", reactions=False, frightened_no_approach=False)
    s, _ = run(field(a_at=(8, 5), settings=off), {"type": "move", "creature": "a", "to": [6, 5]}, [])
    assert s.creatures["a"].anchor == (6, 5)


def test_frightened_without_a_source_holds_back_nothing() -> None:
    """An Edit that gives Frightened with no source: nobody is feared, so no roll changes and every move is allowed."""
    s0 = field(a_at=(8, 5))
    s0.creatures["a"].ailment_sources = []
    s, _ = run(s0, {"type": "move", "creature": "a", "to": [6, 5]}, [])
    _, events = run(s, strike("a", "d", weapon="sword"), [8, 1, 5, 2, 1, 1])
    assert mods(only(events, "attack").rolls[0]) == []
