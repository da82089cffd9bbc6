"""What the map shows of a swallowed creature (seed-000: "they are removed from the [board] and they enter your
stomach"): no token of its own, and on its swallower's token a "Stomach" badge naming what is inside, as far as the
viewer may know (a hidden creature stays the Soulweaver's secret)."""

from __future__ import annotations

from factories import creature, state

from vtt.table.table import Viewer
from vtt.web.tokens import in_stomach, on_map, stomach_badge, token_for

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")


def test_a_swallowed_creature_has_no_token_and_its_swallower_a_stomach_badge() -> None:
    w = creature("w", (10, 10), size=6)
    v = creature("v", (1, 1), controller="alice", swallowed_by="w")
    s = state(w, v, creature("x", (3, 3)), cols=24, rows=24)
    assert (on_map(s.creatures["w"]), on_map(s.creatures["v"])) == (True, False)
    badge = {"name": "Stomach", "tier": 1, "title": "In its stomach: V", "kind": "stomach"}
    assert stomach_badge(s, s.creatures["w"], ALICE) == [badge]
    assert token_for(s, s.creatures["w"], ALICE)["ailments"][0] == badge
    assert stomach_badge(s, s.creatures["x"], ALICE) == []


def test_a_hidden_creature_in_a_stomach_is_named_to_the_soulweaver_only() -> None:
    w = creature("w", (10, 10), size=6)
    v = creature("v", (1, 1), swallowed_by="w", hidden=True)
    s = state(w, v, cols=24, rows=24)
    assert [c.id for c in in_stomach(s, s.creatures["w"], SW)] == ["v"]
    assert in_stomach(s, s.creatures["w"], ALICE) == []
    assert stomach_badge(s, s.creatures["w"], ALICE) == []


def test_a_hidden_creatures_token_is_marked_hidden_for_the_soulweaver() -> None:
    """The Soulweaver's map draws a hidden creature as hidden (the mark is the token's `hidden` field); a creature
    in plain sight carries no such field, so a player's tokens never name it."""
    s = state(creature("g", (2, 2), hidden=True), creature("a", (4, 4), controller="alice"), cols=12, rows=12)
    assert token_for(s, s.creatures["g"], SW)["hidden"] is True
    assert "hidden" not in token_for(s, s.creatures["a"], SW)
    assert "hidden" not in token_for(s, s.creatures["a"], ALICE)
