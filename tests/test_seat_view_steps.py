"""A seat view derived from the view of the state before (`SeatView(..., previous, changed)`, what the table builds
after each command) is the view built from scratch: the same secret creatures, secret names, and the same texts
reworded, and the same creatures in each stomach. Random steps hide and show creatures, swallow and free them, move
them, rename them (onto each other's names, so a hidden creature's name is now and then also a visible one's, and
tells nothing), remove them (hidden ones are then "gone", still secret in the log), add new ones, and under fog of
war change which creatures the seat sees; the derived view's lazily worked out parts (name counts, secret names, the
name matcher, the stomachs) are asked at random moments, so both the parts carried over from the view before and
those worked out afresh are compared."""

from __future__ import annotations

from dataclasses import dataclass

from factories import creature, state
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules.model import Creature, GameState
from vtt.rules.positions import changed as creatures_changed
from vtt.table.fog import SeatVision
from vtt.table.seat_view import SeatView
from vtt.table.state_steps import Steps, stomachs
from vtt.table.table import Viewer

NAMES = ("Goblin", "Goblin Chief", "Shade", "(Shade)", "Ayla", "Orc")
IDS = tuple(f"c{i}" for i in range(8))
SEATS = (Viewer("spectator", "spectator"), Viewer("player", "alice"), Viewer("soulweaver", "Mira"))


@dataclass(frozen=True)
class Edit:
    kind: str  # "hide", "show", "rename", "remove", "add", "sight", "swallow", "free", "move"
    cid: str
    name: str
    seen: frozenset[str]


edits = st.builds(
    Edit,
    kind=st.sampled_from(("hide", "show", "rename", "remove", "add", "sight", "swallow", "free", "move")),
    cid=st.sampled_from(IDS),
    name=st.sampled_from(NAMES),
    seen=st.frozensets(st.sampled_from(IDS)),
)


def _start() -> GameState:
    cs = [creature(cid, (i, 0), name=NAMES[i % len(NAMES)], hidden=i % 3 == 0) for i, cid in enumerate(IDS[:6])]
    return state(*cs)


def _step(s: GameState, edit: Edit) -> GameState:
    """One step as the rules make it: a new creatures mapping, every untouched creature the same object."""
    creatures: dict[str, Creature] = dict(s.creatures)
    c = creatures.get(edit.cid)
    if edit.kind == "add" and c is None:
        creatures[edit.cid] = creature(edit.cid, (IDS.index(edit.cid), 1), name=edit.name)
    elif c is not None and edit.kind == "remove":
        del creatures[edit.cid]
    elif c is not None and edit.kind in ("hide", "show"):
        creatures[edit.cid] = c.model_copy(update={"hidden": edit.kind == "hide"})
    elif c is not None and edit.kind == "rename":
        creatures[edit.cid] = c.model_copy(update={"name": edit.name})
    elif c is not None and edit.kind in ("swallow", "free"):
        swallower = IDS[NAMES.index(edit.name)]  # any id: the index only groups by it
        creatures[edit.cid] = c.model_copy(update={"swallowed_by": swallower if edit.kind == "swallow" else None})
    elif c is not None and edit.kind == "move":
        creatures[edit.cid] = c.model_copy(update={"anchor": (c.anchor[0], c.anchor[1] + 1)})
    return s.model_copy(update={"creatures": creatures})


def _vision(seen: frozenset[str]) -> SeatVision:
    return SeatVision(spaces=frozenset(), remembered=frozenset(), seen=seen)


def _gone(before: GameState, after: GameState, gone: dict[str, str]) -> None:
    """As the table keeps them: creatures removed while hidden."""
    for cid, c in before.creatures.items():
        if cid not in after.creatures and c.hidden:
            gone[cid] = c.name


def _same(derived: SeatView, fresh: SeatView) -> None:
    assert derived.stomachs == stomachs(fresh.state)
    assert derived.hidden == fresh.hidden
    assert dict(derived._secret) == dict(fresh._secret)
    assert derived.hidden_names == fresh.hidden_names
    assert derived._name_counts == fresh._name_counts
    for name in NAMES:
        text = f"{name} strikes {name}'s foe, then Goblin Chief and {name}."
        assert derived.text_names_hidden(text) == fresh.text_names_hidden(text)
        assert derived.reword_text(text, ids=True) == fresh.reword_text(text, ids=True)
    for cid in IDS:
        assert derived.mentions({"target": cid, "text": cid}) == fresh.mentions({"target": cid, "text": cid})


@settings(max_examples=150, deadline=None)
@given(
    seat=st.sampled_from(SEATS),
    fog=st.booleans(),
    steps=st.lists(st.tuples(edits, st.booleans()), min_size=1, max_size=12),
)
def test_a_view_derived_from_the_one_before_is_the_view_built_afresh(
    seat: Viewer, fog: bool, steps: list[tuple[Edit, bool]]
) -> None:
    before = _start()
    gone: dict[str, str] = {}
    vision = _vision(frozenset(IDS[:3])) if fog else None
    view = SeatView(before, seat, gone, vision)
    for edit, ask in steps:
        after = _step(before, edit)
        _gone(before, after, gone)
        if fog and edit.kind == "sight":
            vision = _vision(edit.seen)
        derived = SeatView(after, seat, gone, vision, view, creatures_changed(before, after))
        if ask:  # worked out now, so that the next step carries them over
            _same(derived, SeatView(after, seat, gone, vision))
        before, view = after, derived
    _same(view, SeatView(before, seat, gone, vision))


def test_steps_tell_which_creatures_a_step_changed_and_the_state_it_came_from() -> None:
    start = _start()
    renamed = _step(start, Edit("rename", "c1", "Orc", frozenset()))
    removed = _step(renamed, Edit("remove", "c2", "", frozenset()))
    steps = Steps(kept=2)
    assert steps.add(start, renamed) == {"c1"}
    assert steps.add(renamed, removed) == {"c2"}
    assert steps.into(removed) == (renamed, frozenset({"c2"}))
    assert steps.into(renamed) == (start, frozenset({"c1"}))
    steps.add(removed, removed)
    assert steps.into(renamed) is None  # only the last two are kept
    assert creatures_changed(start, start) == frozenset()
