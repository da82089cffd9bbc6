"""The options made once for every menu of a creature (`menu_shared`: End turn, a Defensive Stance, Drop Focus, Stop
holding) are what making and filling them in anew gives, for any creature and any cost the table's settings name,
and a menu that holds them is the menu made with each of them made anew."""

from __future__ import annotations

import random
from itertools import product
from typing import get_args

import pytest
from test_menu_build import played, random_fight

from vtt.rules import menu_shared, offers, positions
from vtt.rules.engine import legal_actions
from vtt.rules.fastmodel import shallow_copy
from vtt.rules.menu_shared import Paid, finished
from vtt.rules.model import GameState
from vtt.rules.offers import PAID, ActionOption, finish, make_option

SHARED = {"end_turn", "defensive_stance", "drop_focus", "drop_hold"}
KINDS: tuple[tuple[str, offers.Group, str], ...] = (
    ("end_turn", "Turn", "End turn"),
    ("defensive_stance", "Defense", "Defensive Stance"),
    ("drop_focus", "Tactics", "Drop Focus"),
    ("drop_hold", "Overpower", "Stop holding"),
)


def _made_anew(creature_id: str, action: str, group: offers.Group, label: str, paid: Paid = "none") -> ActionOption:
    return finish(make_option(action=action, group=group, label=label, cost=dict(PAID[paid])), creature_id)


def test_a_shared_option_is_the_option_made_anew_for_its_creature_and_cost() -> None:
    """Asked in a random order for random creatures, kinds and costs (each asked several times), `finished` gives
    what making and filling the option in gives, the same object for the same values."""
    menu_shared.forget()
    rng = random.Random(3)
    paids: tuple[Paid, ...] = get_args(Paid)
    asks = [ask for ask in product(["a", "b", "hero", "c7"], KINDS, paids) for _ in range(3)]
    rng.shuffle(asks)
    seen: dict[tuple[str, ...], ActionOption] = {}
    for cid, (action, group, label), paid in asks:
        got = finished(cid, action, group, label, paid)
        assert got.model_dump() == _made_anew(cid, action, group, label, paid).model_dump()
        assert got.send["type"] == action and got.send.get("creature", cid) == cid
        assert got.cost == ({} if paid == "none" else {paid: 1})
        assert seen.setdefault((cid, action, paid), got) is got
    assert len(seen) == 4 * len(KINDS) * 3


def test_shared_options_are_dropped_when_too_many_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(menu_shared, "KEPT_MAX", 3)
    menu_shared.forget()
    first = finished("a", "end_turn", "Turn", "End turn")
    for cid in "bcd":
        finished(cid, "end_turn", "Turn", "End turn")
    again = finished("a", "end_turn", "Turn", "End turn")
    assert again is not first and again.model_dump() == first.model_dump()


def _menus(s: GameState) -> dict[str, list[dict[str, object]]]:
    return {cid: [o.model_dump() for o in legal_actions(s, cid)] for cid in s.creatures}


def _with_costs(s: GameState, stance: str, soothe: str, drop_focus: str) -> GameState:
    settings = s.settings.model_copy(
        update={"defensive_stance_cost": stance, "soothe_cost": soothe, "drop_focus_cost": drop_focus}
    )
    return shallow_copy(s, settings=settings, creatures=dict(s.creatures))


@pytest.mark.parametrize("seed", range(12))
def test_a_menu_with_shared_options_is_the_menu_made_with_each_made_anew(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every creature's menu on the states of a random fight, under each cost of a Defensive Stance, Soothe and
    Drop Focus (the same creatures asked under one cost, then another), equals the menu made with every shared
    option made and filled in anew, nothing kept."""
    states = played(seed, random_fight(seed), 5)
    costs = list(product(["major", "minor"], ["major", "minor"], ["none", "minor", "major"]))
    random.Random(seed).shuffle(costs)
    positions.forget()
    shared = [_menus(_with_costs(s, *cost)) for s in states for cost in costs]
    offered = sum(o["action"] in SHARED for menus in shared for menu in menus.values() for o in menu)
    positions.forget()
    monkeypatch.setattr(menu_shared, "finished", _made_anew)
    anew = [_menus(_with_costs(s, *cost)) for s in states for cost in costs]
    assert shared == anew
    assert offered >= 24


def test_a_menu_hands_on_the_shared_option_as_it_is() -> None:
    """Two states' menus of one creature hold the very same End turn, filled in once; the kept menu of a state
    hands it out again, and a new menu list each time."""
    positions.forget()
    states = played(1, random_fight(1), 3)
    actor = states[0].turn.current
    assert actor is not None
    first = legal_actions(states[0], actor)
    other = legal_actions(_with_costs(states[0], "major", "major", "none"), actor)
    ends = [o for o in first if o.action == "end_turn"]
    assert len(ends) == 1 and next(o for o in other if o.action == "end_turn") is ends[0]
    assert ends[0].send == {"type": "end_turn"} and ends[0].pick == "none"
    again = legal_actions(states[0], actor)
    assert again is not first and again == first
