"""The Soulweaver's map tools (`vtt.rules.board_edit`), worked by hand: edit_board, set_background, add_creature,
remove_creature and resize_board. They are commands in the log (so undo, redo and replay work for them), not
creature actions: `legal_actions` never lists them and they need nobody's turn.

Hex grid, axial (q, r) on a 10x8 map laid out odd-r: (q, r) is on it when 0 <= q + (r - (r & 1)) // 2 < 10 and
0 <= r < 8, so (9, 1) is on it and (10, 1) is not; in row 2, q runs from -1 to 8.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from factories import creature, on_turn, only, refused, run, state
from pydantic import ValidationError

from vtt.rules.commands import parse_command
from vtt.rules.dice import ScriptedDice
from vtt.rules.engine import LogEntry, apply, legal_actions, replay
from vtt.rules.model import BACKGROUND_DATA_LIMIT, GameState
from vtt.table.table import Table, Viewer

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")
PNG = "data:image/png;base64,iVBORw0KGgo="
BOARD_TOOLS = {"edit_board", "set_background", "add_creature", "remove_creature", "resize_board"}


def game() -> GameState:
    """Ayla (alice's) at (2, 2), an orc at (5, 3), on a 10x8 map."""
    return state(creature("ayla", (2, 2), controller="alice"), creature("orc", (5, 3)), cols=10, rows=8)


def edit(layer: str, paint: list[Any] | None = None, erase: list[Any] | None = None, **kw: Any) -> dict[str, Any]:
    return {"type": "edit_board", "layer": layer, "paint": paint or [], "erase": erase or [], **kw}


# ---------------------------------------------------------------------------------------------------------
# edit_board
# ---------------------------------------------------------------------------------------------------------


def test_painting_and_erasing_walls_changes_only_the_new_state() -> None:
    s0 = game()
    s1, events = run(s0, edit("wall", [[4, 4], [5, 4]]), [])
    assert s1.board.walls == {(4, 4), (5, 4)}
    assert s0.board.walls == set()
    assert only(events, "board_edit").data == {"layer": "wall", "painted": [(4, 4), (5, 4)], "erased": []}
    assert (4, 4) in s1.board.filled()
    s2, events = run(s1, edit("wall", [[5, 4]], [[4, 4], [2, 6]]), [])
    assert s2.board.walls == {(5, 4)}
    # (5, 4) was a wall already and (2, 6) was not one: the event names only what changed.
    ev = only(events, "board_edit")
    assert ev.data["painted"] == [] and ev.data["erased"] == [(4, 4)]
    assert ev.text == "The Soulweaver erases 1 space of wall."
    assert (4, 4) not in s2.board.filled()


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        (edit("wall", [[2, 2]]), "Ayla stands in (2, 2): a wall cannot be painted over a creature"),
        (edit("wall", [[10, 1]]), "(10, 1) is off the 10x8 map"),
        (edit("water", [[3, 8]]), "(3, 8) is off the 10x8 map"),
        (edit("wall", [[3, 3]], [[3, 3]]), "(3, 3) cannot be both painted and erased"),
        (edit("wall"), "paint or erase at least one space"),
        (edit("object", [[3, 3]]), "painting an object needs its name, size and Durability"),
        (edit("wall", [[3, 3]], object={"name": "Crate"}), "go with painting objects only: choose the Object tool"),
        (edit("object", [[5, 3], [6, 3]], object={"name": "Crate"}), "Orc stands in (5, 3)"),
    ],
)
def test_edit_board_refusals_name_the_reason(command: dict[str, Any], reason: str) -> None:
    s = game()
    before = s.model_dump()
    with pytest.raises(Exception, match=reason.replace("(", r"\(").replace(")", r"\)").replace("`", "`")):
        apply(s, command, ScriptedDice([]))
    assert s.model_dump() == before


def test_painting_an_object_makes_one_object_over_every_painted_space() -> None:
    crate = {"name": "Crate", "size": 1, "durability": 3}
    s, events = run(game(), edit("object", [[7, 1], [6, 1], [7, 1]], object=crate), [])
    (obj,) = s.board.objects
    assert (obj.id, obj.name, obj.cells, obj.size, obj.durability) == ("crate", "Crate", [(6, 1), (7, 1)], 1, 3)
    assert only(events, "board_edit").text == (
        "The Soulweaver places the Crate (crate, size 1, Durability 3) over 2 spaces."
    )
    s, _ = run(s, edit("object", [[1, 6]], object=crate), [])
    assert [o.id for o in s.board.objects] == ["crate", "crate_2"]
    # Over another object, or a wall: refused; a wall over an object: refused too.
    refused(s, edit("object", [[7, 1], [8, 1]], object=crate))
    s_wall, _ = run(s, edit("wall", [[3, 5]]), [])
    refused(s_wall, edit("object", [[3, 5]], object=crate))
    refused(s, edit("wall", [[6, 1]]))
    # Erasing one space of the first crate removes all of it; the other stays.
    s, events = run(s, edit("object", erase=[[6, 1]]), [])
    assert [o.id for o in s.board.objects] == ["crate_2"]
    ev = only(events, "board_edit")
    assert ev.data["removed"] == ["crate"] and ev.data["erased"] == [(6, 1), (7, 1)]


def test_uneven_ground_is_painted_with_a_tier_and_repainted_or_erased() -> None:
    s, events = run(game(), edit("uneven", [[3, 3], [4, 3]], tier=2), [])
    assert s.board.uneven == {(3, 3): 2, (4, 3): 2}
    assert only(events, "board_edit").text == "The Soulweaver paints 2 spaces of Tier 2 Uneven Ground."
    s, events = run(s, edit("uneven", [[3, 3]], [[4, 3]], tier=3), [])
    assert s.board.uneven == {(3, 3): 3}
    assert only(events, "board_edit").data == {"layer": "uneven", "painted": [(3, 3)], "erased": [(4, 3)], "tier": 3}
    # Painting Uneven Ground where a creature stands is fine: it is the floor.
    s, _ = run(s, edit("uneven", [[2, 2]]), [])
    assert s.board.uneven[(2, 2)] == 1


def test_conductive_spaces_that_touch_become_one_piece() -> None:
    """(1, 1) and (3, 1) do not touch; (2, 1) is next to both (E and W), so painting it joins them; erasing it again
    splits them."""
    s, _ = run(game(), edit("conductive", [[1, 1], [3, 1]]), [])
    assert s.board.conductive == [[(1, 1)], [(3, 1)]]
    s, _ = run(s, edit("conductive", [[2, 1]]), [])
    assert s.board.conductive == [[(1, 1), (2, 1), (3, 1)]]
    s, _ = run(s, edit("conductive", erase=[[2, 1]]), [])
    assert s.board.conductive == [[(1, 1)], [(3, 1)]]


def test_water_is_painted_under_creatures_and_erased() -> None:
    s, _ = run(game(), edit("water", [[2, 2], [3, 2]]), [])
    assert s.board.water == {(2, 2), (3, 2)}
    s, _ = run(s, edit("water", erase=[[2, 2]]), [])
    assert s.board.water == {(3, 2)}


# ---------------------------------------------------------------------------------------------------------
# set_background
# ---------------------------------------------------------------------------------------------------------


def test_a_background_sets_the_image_and_the_grid_alignment() -> None:
    cmd = {"type": "set_background", "image": PNG, "offset": [12, -4.5], "cell_px": 64, "opacity": 0.5}
    s, events = run(game(), cmd, [])
    bg = s.board.background
    assert bg is not None and (bg.image, bg.offset, bg.cell_px, bg.opacity) == (PNG, (12, -4.5), 64, 0.5)
    assert "grid origin at (12.0, -4.5), 64 pixels a space, opacity 0.5" in only(events, "background").text
    s, _ = run(s, {"type": "set_background", "image": "https://example.org/map.webp", "cell_px": 100}, [])
    assert s.board.background is not None and s.board.background.image == "https://example.org/map.webp"
    s, _ = run(s, {"type": "set_background", "image": "/api/images/7.png"}, [])
    s, _ = run(s, {"type": "set_background", "image": None}, [])
    assert s.board.background is None


@pytest.mark.parametrize(
    ("image", "reason"),
    [
        ("data:image/gif;base64,R0lGOD==", "image/png, image/jpeg or image/webp"),
        ("data:image/png;base64,not base64!", "base64"),
        ("data:image/png;base64," + "A" * BACKGROUND_DATA_LIMIT, "at most"),
        ("http://example.org/map.png", "an /api/... path"),
        ("/api/../etc/passwd", "'..'"),
        ("file:///etc/passwd", "an /api/... path"),
    ],
)
def test_a_bad_background_image_is_refused(image: str, reason: str) -> None:
    refused(game(), {"type": "set_background", "image": image})
    with pytest.raises(Exception, match=reason.replace(".", r"\.").replace("(", r"\(")):
        apply(game(), {"type": "set_background", "image": image}, ScriptedDice([]))


def test_background_numbers_are_checked_when_the_command_is_read() -> None:
    for bad in ({"opacity": 1.5}, {"cell_px": 0}, {"offset": [1]}):
        with pytest.raises(ValidationError):
            parse_command({"type": "set_background", "image": PNG, **bad})


# ---------------------------------------------------------------------------------------------------------
# add_creature, remove_creature
# ---------------------------------------------------------------------------------------------------------

GOBLIN = {"name": "Goblin", "size": -1, "skills": {"Martial": 2, "Elude": 3}}


def test_adding_a_creature_twice_gives_each_copy_its_own_id() -> None:
    s, events = run(game(), {"type": "add_creature", "creature": GOBLIN, "at": [7, 5]}, [])
    assert only(events, "creature_added").text == "The Soulweaver adds Goblin (goblin) at (7, 5)."
    s, _ = run(s, {"type": "add_creature", "creature": GOBLIN, "at": [7, 5]}, [])
    s, _ = run(s, {"type": "add_creature", "creature": GOBLIN, "at": [6, 5]}, [])
    assert [c for c in s.creatures if c.startswith("goblin")] == ["goblin", "goblin_2", "goblin_3"]
    g = s.creatures["goblin_2"]
    assert (g.anchor, g.size, g.skills) == ((7, 5), -1, {"Martial": 2, "Elude": 3})


@pytest.mark.parametrize(
    ("body", "at", "reason"),
    [
        ({**GOBLIN, "skills": {"Martial": "lots"}}, [7, 5], "creature.skills.Martial: Input should be a valid integer"),
        ({**GOBLIN, "grit": {"max": -1}}, [7, 5], "creature.grit.max: at least 0"),
        ({**GOBLIN, "hp": 3}, [7, 5], "creature.hp: unknown key"),
        ({"size": 0}, [7, 5], "creature.name: Field required"),
        ({**GOBLIN, "id": "orc"}, [7, 5], "there is already a creature 'orc': give the new one another id"),
        ({**GOBLIN, "id": "soulweaver"}, [7, 5], "reserved"),
        ({**GOBLIN, "limbs": [{"id": "arm", "name": "arm", "holding": "axe"}]}, [7, 5], "does not carry weapon"),
        (GOBLIN, [10, 1], "off the map"),
        ({**GOBLIN, "size": 1}, [5, 3], "does not fit in (5, 3) beside Orc"),
    ],
)
def test_a_bad_creature_is_refused_naming_the_field(body: dict[str, Any], at: list[int], reason: str) -> None:
    s = game()
    before = s.model_dump()
    with pytest.raises(Exception, match=reason.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        apply(s, {"type": "add_creature", "creature": body, "at": at}, ScriptedDice([]))
    assert s.model_dump() == before


def test_a_creature_cannot_be_added_into_a_wall() -> None:
    s, _ = run(game(), edit("wall", [[7, 5]]), [])
    refused(s, {"type": "add_creature", "creature": GOBLIN, "at": [7, 5]})


def test_a_player_creature_added_mid_fight_joins_after_everyone_in_priority() -> None:
    """reference §3: "When a participant joins a timed activity, its Zeal roll is its Priority" and participants who
    join later are placed after everyone already in Priority, i.e. before the Soulweaver, whose turn ends the round.
    The goblin (Zeal 1) rolls 7: Priority 7, second of three."""
    s = on_turn(game(), "ayla")
    assert s.turn.entries == ["ayla", "soulweaver"]
    body = {**GOBLIN, "skills": {"Zeal": 1}, "controller": "bob"}
    s, events = run(s, {"type": "add_creature", "creature": body, "at": [7, 5]}, [7])
    assert s.turn.entries == ["ayla", "goblin", "soulweaver"]
    assert s.turn.current == "ayla"
    assert s.turn.priority["goblin"] == 7
    assert only(events, "priority").text == (
        "Goblin joins the fight and rolls Zeal for Priority: 7. It takes place 2 of 3 in the turn order."
    )


def test_a_soulweaver_creature_added_in_the_soulweavers_turn_may_act_at_once() -> None:
    s = on_turn(game(), "orc")
    assert s.turn.current == "soulweaver"
    s, _ = run(s, {"type": "add_creature", "creature": GOBLIN, "at": [7, 5]}, [])
    actions = {a.action for a in legal_actions(s, "goblin")}
    assert {"move", "end_turn"} <= actions


def test_removing_a_creature_takes_it_out_of_the_turn_order_and_focus() -> None:
    s = on_turn(game(), "orc")  # the Soulweaver's turn; only the Soulweaver is in the order
    s, _ = run(s, {"type": "add_creature", "creature": {**GOBLIN, "controller": "bob"}, "at": [7, 5]}, [])
    assert s.turn.entries == ["goblin", "soulweaver"] and s.turn.index == 1
    ayla = s.creatures["ayla"].model_copy(update={"focus": "goblin", "focus_locked": True})
    s = s.model_copy(update={"creatures": {**s.creatures, "ayla": ayla}})
    s, events = run(s, {"type": "remove_creature", "creature": "goblin"}, [])
    assert "goblin" not in s.creatures
    assert s.turn.entries == ["soulweaver"] and s.turn.index == 0 and s.turn.current == "soulweaver"
    assert s.creatures["ayla"].focus is None and not s.creatures["ayla"].focus_locked
    assert only(events, "creature_removed").text == "The Soulweaver removes Goblin (goblin) from the game."
    refused(s, {"type": "remove_creature", "creature": "goblin"})


def test_the_creature_whose_turn_it_is_cannot_be_removed() -> None:
    refused(on_turn(game(), "ayla"), {"type": "remove_creature", "creature": "ayla"})


def test_removing_a_holder_ends_its_hold() -> None:
    """The orc, sharing Ayla's space (Grab Reach is Reach - 1 = 0), Grabs her: Athletics 2 dice 9, 4 against her
    Elude 2 dice 3, 2 (Grab has DL 0). Removing the orc ends the Hold."""
    s = on_turn(state(creature("ayla", (2, 2), controller="alice"), creature("orc", (2, 2)), cols=10, rows=8), "orc")
    s, _ = run(s, {"type": "grab", "creature": "orc", "target": "ayla"}, [9, 4, 3, 2])
    assert s.holds
    s, events = run(s, {"type": "remove_creature", "creature": "orc"}, [])
    assert not s.holds and "orc" not in s.creatures
    assert next(e.kind for e in events) == "hold_left"


# ---------------------------------------------------------------------------------------------------------
# resize_board
# ---------------------------------------------------------------------------------------------------------


def test_resizing_drops_what_falls_off_the_map_but_never_a_creature() -> None:
    s, _ = run(game(), edit("wall", [[8, 1], [1, 1]]), [])
    s, _ = run(s, edit("object", [[7, 0], [8, 0]], object={"name": "Cart"}), [])
    s, _ = run(s, edit("uneven", [[4, 6]], tier=2), [])
    refused(s, {"type": "resize_board", "cols": 5, "rows": 8})  # the orc at (5, 3) is in column 6
    s, events = run(s, {"type": "resize_board", "cols": 8, "rows": 6}, [])
    assert (s.board.cols, s.board.rows) == (8, 6)
    assert s.board.walls == {(1, 1)} and s.board.objects == [] and s.board.uneven == {}
    assert only(events, "board_resized").text == (
        "The Soulweaver resizes the map from 10x8 to 8x6; off the map now and dropped: 1 wall space, "
        "1 Uneven Ground space, object cart."
    )
    s, _ = run(s, {"type": "resize_board", "cols": 40, "rows": 30}, [])
    assert (s.board.cols, s.board.rows) == (40, 30) and s.board.walls == {(1, 1)}


# ---------------------------------------------------------------------------------------------------------
# Not creature actions; the log, undo and replay
# ---------------------------------------------------------------------------------------------------------

TOOLS: list[dict[str, Any]] = [
    edit("wall", [[4, 4]]),
    edit("object", [[6, 6]], object={"name": "Barrel", "durability": 2}),
    edit("uneven", [[3, 5]], tier=2),
    {"type": "set_background", "image": PNG, "cell_px": 50},
    {"type": "add_creature", "creature": GOBLIN, "at": [7, 5]},
    {"type": "remove_creature", "creature": "goblin"},
    {"type": "resize_board", "cols": 12, "rows": 9},
]


def test_the_map_tools_are_no_creatures_actions_and_need_no_turn() -> None:
    """legal_actions lists what a creature may do; the map tools are the Soulweaver's, sent at any time: before the
    fight, in a player's turn and in the Soulweaver's."""
    for s in (game(), on_turn(game(), "ayla"), on_turn(game(), "orc")):
        for cmd in TOOLS:
            for cid in s.creatures:
                assert not BOARD_TOOLS & {a.action for a in legal_actions(s, cid)}
                assert not BOARD_TOOLS & {a.command for a in legal_actions(s, cid) if a.command}
            s, _ = run(s, cmd, [])
        assert s.board.walls == {(4, 4)} and (s.board.cols, s.board.rows) == (12, 9)


def test_the_map_tools_replay_from_the_log() -> None:
    s0 = on_turn(game(), "ayla")
    s, log = s0, []
    for cmd in TOOLS:
        s, _ = run(s, cmd, [])
        log.append(LogEntry(command=cmd, faces=[]))
    again, _ = replay(s0, log)
    assert again.model_dump() == s.model_dump()


def _submit(table: Table, viewer: Viewer, cmd: dict[str, Any]) -> Any:
    return asyncio.run(table.submit(viewer, cmd))


@pytest.mark.parametrize("cmd", [*TOOLS[:5], {"type": "remove_creature", "creature": "orc"}, TOOLS[6]])
def test_only_the_soulweaver_may_use_the_map_tools(cmd: dict[str, Any]) -> None:
    table = Table("t", on_turn(game(), "ayla"))
    out = _submit(table, ALICE, cmd)
    assert not out.ok and out.error == "only the Soulweaver can do that"
    assert _submit(table, Viewer("spectator", "sam"), cmd).error == "spectators watch; they do not play"
    assert _submit(table, SW, cmd).ok


def test_a_map_edit_is_undone_and_redone() -> None:
    table = Table("t", game())
    assert _submit(table, SW, edit("wall", [[4, 4]])).ok
    assert _submit(table, SW, {"type": "add_creature", "creature": GOBLIN, "at": [7, 5]}).ok
    assert _submit(table, SW, {"type": "undo"}).ok
    assert "goblin" not in table.state.creatures and table.state.board.walls == {(4, 4)}
    assert _submit(table, SW, {"type": "undo"}).ok
    assert table.state.board.walls == set()
    assert _submit(table, SW, {"type": "redo"}).ok
    assert table.state.board.walls == {(4, 4)}
