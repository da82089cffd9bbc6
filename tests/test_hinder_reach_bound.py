"""Who may Hinder is found without weighing the weapons and limbs of creatures too far off to reach the actor.

reference §2.3 Reach: Reach 1 (0 below size -1), a Reach-granting limb adds half the size rounded up, a weapon's Extend
X adds X less the amount its usage Tier is above the wielder's skill. `reach.farthest` is a bound read off a creature's
size and weapons: no limb and weapon of it reaches farther, so `reactions.eligible` passes over a creature farther than
it without asking `hinder_reach`.
"""

from __future__ import annotations

import random

from factories import creature, on_turn, state, weapon
from hypothesis import given
from hypothesis import strategies as st

from vtt.rules import reactions
from vtt.rules.commands import Strike
from vtt.rules.model import GameState
from vtt.rules.reach import farthest, reach
from vtt.rules.settings import TableSettings

REACTING = TableSettings(defense_prompts="nobody", reactions=True)
ARMS = ("left_arm", "right_arm")


@given(seed=st.integers(0, 2**32 - 1))
def test_no_limb_and_weapon_reaches_farther_than_the_bound(seed: int) -> None:
    """Random sizes, skills and weapons (Extend 0 to 4, usage Tier 1 to 4, some two-handed), gripped or not: the
    Reach of every limb with every weapon (and unarmed), and so the Hinder's Reach, is at most `farthest`."""
    rng = random.Random(seed)
    weapons = [
        weapon(f"w{i}", extend=rng.randint(0, 4), tier=rng.randint(1, 4), two_handed=rng.random() < 0.3)
        for i in range(rng.randint(0, 3))
    ]
    grip = {arm: rng.choice(weapons).id for arm in ARMS if weapons and rng.random() < 0.7}
    h = creature(
        "h", (5, 5), size=rng.randint(-4, 8), skills={"Martial": rng.randint(0, 4)}, weapons=weapons, grip=grip
    )
    s = state(h, creature("a", (0, 0)), cols=30, rows=30)
    bound = farthest(h)
    assert reactions.hinder_reach(s, "h") <= bound
    for limb in h.limbs:
        for w in [None, *weapons]:
            assert reach(h, limb, w, s.settings.strike_skill) <= bound


def _spear_at(col: int) -> GameState:
    """a (blue, at (5, 5)) strikes t next to it; h (red, size 0, a spear of Extend 3 gripped) waits `col - 5` spaces
    east of a on its row: its Reach is 1 + 3 = 4."""
    spear = weapon("spear", extend=3)
    a = creature("a", (5, 5), side="blue", weapons=[weapon("sword")], grip={"right_arm": "sword"})
    t = creature("t", (5, 6), side="red")
    h = creature("h", (col, 5), side="red", weapons=[spear], grip={"right_arm": "spear"})
    return on_turn(state(a, t, h, settings=REACTING), "a")


def test_a_hinderer_at_the_edge_of_its_reach_is_offered_and_one_a_space_beyond_is_not() -> None:
    """seed-000 Hinder Attack: "As a creature in your Reach attacks". h's Reach 4: 4 spaces off it may Hinder a's
    Strike; 5 spaces off it may not."""
    strike = Strike(creature="a", target="t", weapon="sword")
    assert farthest(_spear_at(9).creatures["h"]) == 4
    assert reactions.offers(_spear_at(9), strike) == ("a", {"h": {"hinder_attack": 0}})
    assert reactions.offers(_spear_at(10), strike) == ("a", {})
