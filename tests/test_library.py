"""The creature and weapon library (`vtt/library.py`, `vtt/data/*.json`): every entry is a valid creature, the
sizes -2 to 6 are all there, and a library creature can be copied into a game as many times as needed."""

from __future__ import annotations

from typing import Any

import pytest
from factories import run, state

from vtt.library import (
    build_creature,
    creature_library,
    library_creature,
    load_creature_entries,
    load_weapons,
    validate_creature,
    weapon_library,
)
from vtt.rules.abilities import LIBRARY as ABILITIES
from vtt.rules.engine import legal_actions
from vtt.rules.model import Creature
from vtt.rules.turns import begun_on_turn


def entries() -> list[dict[str, Any]]:
    return load_creature_entries()


def test_every_library_creature_is_valid() -> None:
    for i, entry in enumerate(entries()):
        assert validate_creature(entry) == [], (i, entry.get("id"))
    assert len(creature_library()) == len(entries()) >= 10


def test_the_library_covers_sizes_minus_2_to_6() -> None:
    assert {e["size"] for e in entries()} >= set(range(-2, 7))


def test_each_creature_has_a_full_sheet() -> None:
    """Species, size, skills with Tiers, pools, Severe Threshold, a body plan; the collection as a whole has
    Reductions, immunities, vulnerabilities, armour, weapons and a caster."""
    built: list[Creature] = []
    for entry in entries():
        c, problems = build_creature(entry)
        assert c is not None, problems
        assert c.species and c.skills and all(1 <= t <= 12 for t in c.skills.values() if t)
        assert c.severe_threshold is not None and c.grit.max > 0 and c.energy.max > 0 and c.resolve.max > 0
        assert c.limbs and c.parts
        assert isinstance(entry.get("description"), str) and entry["description"]
        built.append(c)
    assert any(c.reductions for c in built) and any(c.armor_reduction for c in built)
    assert any(c.immunities for c in built) and any(c.vulnerabilities for c in built)
    assert any(limb.distal for c in built for limb in c.limbs)
    casters = [c for c in built if c.abilities]
    assert any(ABILITIES[a].kind == "spell" for c in casters for a in c.abilities)
    assert any(ABILITIES[a].kind == "talent" for c in casters for a in c.abilities)


def test_the_weapons_include_a_bow_and_a_thrown_weapon_and_every_one_is_used() -> None:
    weapons = load_weapons()
    assert weapons == weapon_library()
    assert any(w.ranged == "launched" for w in weapons.values())
    assert any(w.ranged == "thrown" for w in weapons.values())
    used = {w for e in entries() for w in e.get("weapons", []) if isinstance(w, str)}
    assert used <= set(weapons)
    assert set(weapons) - used == set(), "a weapon no library creature uses"


def test_validate_creature_names_each_bad_field() -> None:
    problems = validate_creature(
        {"name": "X", "size": "huge", "skills": {"Martial": -1}, "weapons": ["laser"], "grip": {"tail": "dagger"}}
    )
    assert 'weapons[0]: unknown weapon "laser" (not in the weapon library)' in problems
    assert any(p.startswith("size: Input should be a valid integer") for p in problems)
    assert any(p.startswith("skills.Martial: at least 0") for p in problems)
    assert validate_creature({"name": "X", "weapons": ["dagger"], "grip": {"tail": "dagger"}}) == [
        'grip.tail: X has no limb "tail" (limbs: left_arm, right_arm, left_leg, right_leg)'
    ]
    assert validate_creature({"name": "X", "abilities": ["fireball"]})[0].startswith("abilities[0]: no Spell or")
    assert validate_creature({"size": 1}) == ["name: Field required"]
    assert validate_creature({"name": "X", "hp": 3}) == ["hp: unknown key (not part of the format)"]


@pytest.mark.parametrize("entry_id", sorted(creature_library()))
def test_a_library_creature_copies_into_a_game_as_often_as_needed(entry_id: str) -> None:
    """Three copies get three ids; each stands where it was put, with the entry's weapons gripped, and can act."""
    s = state(cols=40, rows=40)
    spots = [(8, 8), (20, 8), (8, 24)]
    for at in spots:
        cmd = library_creature(entry_id, at)
        assert "id" not in cmd["creature"] and cmd["at"] == list(at)
        s, _ = run(s, cmd, [])
    ids = list(s.creatures)
    assert len(ids) == 3 and len(set(ids)) == 3
    entry = creature_library()[entry_id]
    for cid, at in zip(ids, spots, strict=True):
        c = s.creatures[cid]
        assert (c.anchor, c.name, c.size) == (at, entry["name"], entry["size"])
        for limb_id, wid in entry.get("grip", {}).items():
            assert c.limb(limb_id).holding == wid  # type: ignore[union-attr]
    acting = begun_on_turn(s, ids[0])
    assert {"move", "end_turn"} <= {a.action for a in legal_actions(acting, ids[0])}
