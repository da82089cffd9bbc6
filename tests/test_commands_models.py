"""The command models: every text field is a checked type, the creatures a command names are found from the fields
marked `CreatureRef`, a command's traits live on its model, and every kind of command has a handler in the engine.
"""

from __future__ import annotations

import asyncio
import typing
from typing import Annotated, Any, Literal

import pytest
from factories import creature, on_turn, state
from pydantic import BaseModel, ValidationError

from vtt.rules import engine
from vtt.rules.commands import (
    COMMAND_MODELS,
    BackgroundImage,
    Move,
    SourceRef,
    Strike,
    creature_fields,
    creature_refs,
    parse_command,
)
from vtt.rules.limits import CREATURE_SIZE_MAX, CreatureRef, Ident, Name, Notes
from vtt.table.table import Table, Viewer

CHECKED_TYPES = (Ident, CreatureRef, Name, Notes, SourceRef, BackgroundImage)
"""The checked string types a command field may have: ids (of creatures or other things), text, an Ailment's
source ("kind:id") and a background image's address. Anything else that is a string must be a `Literal`."""
CHECKS = [check for t in CHECKED_TYPES for check in typing.get_args(t)[1:]]
SW = Viewer("soulweaver", "Mira")
ALICE = Viewer("player", "alice")


def unchecked_strings(annotation: Any, metadata: tuple[Any, ...] = (), where: str = "") -> list[str]:
    """Where in `annotation` a `str` is taken without one of the checked types' validators (nested models, lists,
    optionals and dict keys and values included)."""
    if annotation is str:
        return [] if any(m in CHECKS for m in metadata) else [where]
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return unchecked_strings(typing.get_args(annotation)[0], (*metadata, *annotation.__metadata__), where)
    if origin is Literal:
        return []
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [
            found
            for name, info in annotation.model_fields.items()
            for found in unchecked_strings(info.annotation, tuple(info.metadata), f"{annotation.__name__}.{name}")
        ]
    return [found for arg in typing.get_args(annotation) for found in unchecked_strings(arg, (), where)]


def test_every_string_field_of_every_command_is_an_id_a_creature_reference_text_or_a_literal() -> None:
    """A new field typed plain `str` (or a list, optional or dict of them) makes this fail, so it cannot be missed
    by the table's creature check or go unchecked."""
    assert len(COMMAND_MODELS) == 50
    found = [where for model in COMMAND_MODELS for where in unchecked_strings(model)]
    assert found == []


def test_the_string_field_check_finds_plain_strings_wherever_they_are() -> None:
    class Careless(BaseModel):
        creature: CreatureRef
        note: str
        names: list[str] | None = None
        tags: dict[str, Ident] = {}
        kind: Literal["a", "b"] = "a"

    assert unchecked_strings(Careless) == ["Careless.note", "Careless.names", "Careless.tags"]


def test_creature_refs_are_found_from_the_field_marks_of_any_model() -> None:
    class Probe(BaseModel):
        who: CreatureRef
        whom: list[CreatureRef]
        maybe: CreatureRef | None = None
        weapon: Ident
        label: Name

    assert creature_fields(Probe) == ("who", "whom", "maybe")
    assert creature_refs(Probe(who="a", whom=["b", "c"], weapon="w", label="x")) == {"a", "b", "c"}


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ({"type": "break_hold", "creature": "a", "target": "b", "held": "c", "free_part": "head"}, {"a", "b", "c"}),
        (
            {"type": "distract", "creature": "a", "target": "b", "targets": ["c"], "expects": ["d"]},
            {"a", "b", "c", "d"},
        ),
        ({"type": "move", "creature": "a", "to": [1, 1], "collide_with": "b"}, {"a", "b"}),
        ({"type": "choose_order", "decision": "d1", "order": ["a", "b"]}, {"a", "b"}),
        ({"type": "strike", "creature": "a", "weapon": "sword", "limb": "right_arm", "called_shot": "head"}, {"a"}),
        ({"type": "afflict", "target": "b", "ailment": "Frightened", "source": "effect:e1"}, {"b"}),
        ({"type": "begin"}, set()),
    ],
)
def test_the_creatures_a_command_names(command: dict[str, Any], named: set[str]) -> None:
    """Only creature fields count: weapons, limbs, parts, decisions and effects are not creatures."""
    assert creature_refs(parse_command(command)) == named


@pytest.mark.parametrize(
    ("command", "where", "why"),
    [
        ({"type": "move", "creature": "", "to": [1, 1]}, "move.creature", "an id may not be empty"),
        ({"type": "strike", "creature": "a", "weapon": "<b>"}, "strike.weapon", "an id may use only"),
        ({"type": "break_hold", "creature": "a", "target": "b", "held": "x" * 65}, "break_hold.held", "at most 64"),
        ({"type": "distract", "creature": "a", "expects": ["ok", "no way"]}, "distract.expects.1", "an id may"),
        ({"type": "edit_board", "layer": "object", "object": {"name": "a\x00"}}, "edit_board.object.name", "control"),
    ],
)
def test_a_bad_id_or_name_is_refused_when_the_command_is_read(command: dict[str, Any], where: str, why: str) -> None:
    with pytest.raises(ValidationError) as caught:
        parse_command(command)
    first = caught.value.errors()[0]
    assert ".".join(str(p) for p in first["loc"]) == where
    assert why in first["msg"]


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (
            {"type": "edit_creature", "creature": "orc", "changes": {"size": 10**6}},
            f"edit creature.changes.size: at most {CREATURE_SIZE_MAX}",
        ),
        (
            {"type": "edit_creature", "creature": "orc", "changes": {"name": "Orc\ud800"}},
            "edit creature.changes.name: holds a broken character (a lone surrogate); type it again",
        ),
        (
            {"type": "add_creature", "creature": {"name": "Ogre", "size": 10**6}, "at": [5, 5]},
            f"add creature.creature.size: at most {CREATURE_SIZE_MAX}",
        ),
        (
            {
                "type": "add_creature",
                "creature": {"name": "Ogre", "weapons": [{"id": "club", "name": 3}]},
                "at": [5, 5],
            },
            "add creature.creature.weapons[0].name: Input should be a valid string",
        ),
    ],
)
def test_a_creature_body_or_changes_are_checked_field_by_field_when_the_command_is_read(
    command: dict[str, Any], message: str
) -> None:
    """The table refuses them in plain words naming the field, and the game is left exactly as it was."""
    table = Table("t", state(creature("orc", (3, 2))))
    before = table.state.model_dump()
    out = asyncio.run(table.submit(SW, command))
    assert (out.ok, out.error) == (False, f"malformed command: {message}")
    assert table.state.model_dump() == before and table.log == []


def test_good_creature_changes_still_pass_and_unknown_keys_are_left_for_the_rules() -> None:
    edit = parse_command({"type": "edit_creature", "creature": "orc", "changes": {"size": 3, "name": "Big Orc"}})
    assert edit.model_dump()["changes"] == {"size": 3, "name": "Big Orc"}
    table = Table("t", state(creature("orc", (3, 2))))
    out = asyncio.run(table.submit(SW, {"type": "edit_creature", "creature": "orc", "changes": {"anchor": [1, 1]}}))
    assert out.error == "these fields cannot be edited: anchor"


# ---- traits ----------------------------------------------------------------------------------------------------


def _kinds(trait: str, value: object) -> set[str]:
    """The `type` of every command whose model has `trait` set to `value`."""
    return {str(m.model_fields["type"].default) for m in COMMAND_MODELS if getattr(m, trait) == value}


def test_who_may_send_each_command() -> None:
    """The Soulweaver's tools (starting the fight, editing the turn order, the GM's tools on creatures, the map
    tools, ordering tied occupants); answers go from the one the decision waits on; ending a turn from the
    controller of the creature whose turn it is; everything else from the controller of the acting creature."""
    assert _kinds("SENT_BY", "soulweaver") == {
        "begin",
        "join_order",
        "leave_order",
        "shift_order",
        "reroll_priority",
        "place",
        "choose_order",
        "edit_creature",
        "harm",
        "heal",
        "afflict",
        "change_settings",
        "pass_time",
        "edit_board",
        "set_background",
        "mark_fog",
        "add_creature",
        "remove_creature",
        "resize_board",
    }
    assert _kinds("SENT_BY", "decision") == {"defend", "react", "choose_trauma"}
    assert _kinds("SENT_BY", "turn") == {"end_turn"}
    actors = _kinds("SENT_BY", "actor")
    assert all("creature" in m.model_fields for m in COMMAND_MODELS if m.model_fields["type"].default in actors)


def test_while_a_decision_waits_only_answers_are_taken() -> None:
    assert _kinds("ANSWERS_DECISION", True) == {"defend", "react", "choose_order", "choose_trauma"}


def test_a_swallowed_creature_may_attack_the_stomach_flurry_drop_focus_dismiss_recover_and_roll_zeal() -> None:
    """seed-000 (see `swallow`): what a swallowed creature can do."""
    assert _kinds("WHILE_SWALLOWED", True) == {
        "strike_stomach",
        "flurry",
        "drop_focus",
        "dismiss",
        "recover",
        "zeal_for_major",
    }


def test_the_attacker_of_a_command() -> None:
    """Strikes, Overpowers and Distract attack; a Move attacks only when it ends in a Collision."""
    assert _kinds("ATTACK", True) == {
        "strike",
        "strike_space",
        "grab",
        "disarm",
        "impair",
        "reposition",
        "grapple",
        "break_hold",
        "distract",
        "strike_stomach",
    }
    assert Strike(creature="a", target="b").attacker() == "a"
    assert Move(creature="a", to=(1, 1)).attacker() is None
    assert Move(creature="a", to=(1, 1), collide_with="b").attacker() == "a"
    assert parse_command({"type": "dash", "creature": "a"}).attacker() is None


def test_what_each_command_may_be_hindered_as() -> None:
    assert _kinds("HINDERED_AS", "hinder_movement") == {"move"}
    assert _kinds("HINDERED_AS", "hinder_spell") == {"manifest", "ready"}
    assert _kinds("HINDERED_AS", "hinder_attack") == _kinds("ATTACK", True) - {"strike_stomach"}


# ---- the engine's registry --------------------------------------------------------------------------------------


def test_every_kind_of_command_has_exactly_one_handler() -> None:
    assert set(engine.HANDLERS) == set(COMMAND_MODELS)
    with pytest.raises(ValueError, match="has a handler already"):
        engine.handles(Move)(lambda tx, cmd, dice: [])


def test_a_player_naming_a_hidden_creature_anywhere_in_a_command_is_told_there_is_no_such_creature() -> None:
    table = Table(
        "t",
        on_turn(
            state(creature("ayla", (2, 2), controller="alice"), creature("rat", (8, 8), hidden=True)),
            "ayla",
        ),
    )
    for command in (
        {"type": "distract", "creature": "ayla", "expects": ["rat"]},
        {"type": "focus", "creature": "ayla", "target": "rat"},
        {"type": "move", "creature": "ayla", "to": [7, 8], "collide_with": "rat"},
    ):
        assert asyncio.run(table.submit(ALICE, command)).error == "no such creature"
    assert table.log == []
