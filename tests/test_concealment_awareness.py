"""Hand-worked tests of Concealment on Awareness and on Distract rolls (vtt/rules/senses.py, vision.py, tactics.py).

Rules: reference §2.6 "Blinded gives every target Sight Concealment equal to the Blinded Tier, counted from you.
Deafened works the same way for Sound"; "Awareness is used ... using the Observe skill" with Sight base DL 0, range
4; gap 9 ASSUMPTION "A penalty equal to the Concealment Tier against that target for the relevant sense";
seed-000 Distract "attack creatures that are Aware of that action"; table settings `dim_concealment` (1) and
`concealment_distract_per_tier` (1).

Distract layout: a (Guile 3) at (5, 5), t (Observe 2) beside it at (6, 5); a has used a Major Action (+2). Faces:
a's Guile roll, then t's Observe defense.
"""

from __future__ import annotations

from typing import Any

from factories import creature, on_turn, only, run, state, used, weapon

from vtt.rules.grid import GridKind
from vtt.rules.model import Board, Creature, GameState
from vtt.rules.settings import TableSettings
from vtt.rules.vision import perceived

A_SKILLS = {"Martial": 4, "Elude": 2, "Athletics": 4, "Guile": 3, "Zeal": 1}
T_SKILLS = {"Martial": 2, "Elude": 2, "Athletics": 2, "Observe": 2, "Zeal": 1}


def field(a_kw: dict[str, Any] | None = None, **t_kw: Any) -> GameState:
    a = creature("a", (5, 5), skills=A_SKILLS, weapons=[weapon("sword")], grip={"right_arm": "sword"}, **(a_kw or {}))
    t = creature("t", (6, 5), skills=T_SKILLS, **t_kw)
    return used(on_turn(state(a, t), "a"), "a", "major")


def distract(**kw: Any) -> dict[str, Any]:
    return {"type": "distract", "creature": "a", "targets": ["t"], **kw}


def reasons(roll_index: int, events: list[Any]) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in only(events, "attack").rolls[roll_index].modifiers]


def test_a_blinded_distracter_takes_its_concealment_on_the_distract_roll() -> None:
    """gap 9 ASSUMPTION: Concealment is a penalty on attack rolls; a Distract is an attack roll. a Blinded 2:
    Guile 8, 2, 1 -> 8 + 2 (Major Action) - 2 = 8 against Observe 7, 4 -> 7: success, t is Focused on a."""
    s, events = run(field(a_kw={"ailments": {"Blinded": 2}}), distract(), [8, 2, 1, 7, 4])
    assert [v for v, _ in reasons(0, events)] == [2, -2]
    assert "Blinded (Tier 2)" in reasons(0, events)[1][1]
    assert s.creatures["t"].focus == "a"


def test_a_deafened_target_perceives_speech_through_concealment() -> None:
    """seed-000 Distract "After you ... speak"; the speech reaches t through Deafened 3: Sound Concealment 3, +3 on
    its Observe defense (`concealment_distract_per_tier` 1). Guile 6, 2, 1 -> 6 (speaking: no bonus) against
    Observe 4, 1 -> 4 + 3 = 7: t is not drawn."""
    s, events = run(field(ailments={"Deafened": 3}), distract(action="speak"), [6, 2, 1, 4, 1])
    assert reasons(1, events)[0][0] == 3
    assert only(events, "attack").data["success"] is False
    assert s.creatures["t"].focus is None


def test_an_action_is_perceived_through_the_better_sense() -> None:
    """A Distract after an action reaches t by sight or sound, whichever is less concealed: t Deafened 3 but not
    Blinded sees it plainly: no bonus. Guile 6, 2, 1 -> 6 + 2 = 8 against Observe 4, 1 -> 4: success."""
    _, events = run(field(ailments={"Deafened": 3}), distract(), [6, 2, 1, 4, 1])
    assert reasons(1, events) == []
    assert only(events, "attack").data["success"] is True


def test_blinded_and_deafened_target_takes_the_lower_concealment() -> None:
    """t Blinded 1 and Deafened 3: the action reaches it through Sight at Concealment 1: +1. Guile 6, 2, 1 -> 8
    against Observe 6, 1 -> 6 + 1 = 7: success (8 beats 7)."""
    _, events = run(field(ailments={"Blinded": 1, "Deafened": 3}), distract(), [6, 2, 1, 6, 1])
    assert [v for v, _ in reasons(1, events)] == [1]
    assert only(events, "attack").data["success"] is True


def test_concealment_on_distract_defense_can_be_turned_off() -> None:
    """`concealment_distract_per_tier` 0: the Deafened target defends without it. Guile 6, 2, 1 -> 6 against
    Observe 4, 1 -> 4: success."""
    s0 = field(ailments={"Deafened": 3})
    s0 = s0.model_copy(update={"settings": s0.settings.model_copy(update={"concealment_distract_per_tier": 0})})
    _, events = run(s0, distract(action="speak"), [6, 2, 1, 4, 1])
    assert reasons(1, events) == []
    assert only(events, "attack").data["success"] is True


def test_awareness_dl_rises_by_dim_light_concealment() -> None:
    """§2.6 Awareness by Sight: base DL 0, range 4 for a size 0 subject; B 9 spaces away is two multiples past the
    first: DL 2. Seen only in dim light it has Sight Concealment `dim_concealment` 1, which makes the Observe roll
    DL 3; in light, DL 2."""
    board = Board(cols=10, rows=1, light={(9, 0): "dim"})
    settings = TableSettings(grid=GridKind.SQUARE, sight_automatic=False)
    a, b = Creature(id="A", name="A", anchor=(0, 0)), Creature(id="B", name="B", anchor=(9, 0))
    s = GameState(settings=settings, board=board, creatures={"A": a, "B": b})
    (note,) = [n for n in perceived(s, "A").awareness if n.sense == "sight"]
    assert (note.dl, note.dim) == (3, 1)
    assert "dim light" in note.reason
    s.board = Board(cols=10, rows=1)
    (note,) = [n for n in perceived(s, "A").awareness if n.sense == "sight"]
    assert (note.dl, note.dim) == (2, 0)
