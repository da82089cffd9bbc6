"""What one seat (the Soulweaver, a player, a spectator) may see of a game: the one place that decides it.

Hidden creatures exist only for the Soulweaver. For anyone else they are left out of everything: the state (and
every field of a visible creature, hold, effect or decision that names one), the events of the log, the prompts of
decisions, the reasons a command was refused, the menu of legal actions and the turn panel. The pages and the API
only render what a `SeatView` gives them.

Two checks find a hidden creature: structural (a string that is its id, or a source "kind:id" naming it, anywhere
in a JSON value) and by name (its name in any text, matched with boundaries that also work for names beginning or
ending with punctuation). A text that names one is reworded for the seat ("a creature you cannot see") where the
seat must still be told something — its own decision, its own defense roll, its refused command — and left out
everywhere else.

With fog of war on (`vtt.table.fog`), a creature the seat's creatures do not perceive is treated exactly as a
hidden one; one they only hear is sent as its spaces under an opaque id (`heard_json`), and the board as the
spaces the seat remembers (walls, objects, terrain and loose items elsewhere are left out until seen).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from vtt.rules import legal_actions
from vtt.rules.engine import ActionOption
from vtt.rules.model import SOULWEAVER, Creature, Decision, GameState
from vtt.rules.turns import active_creatures, is_active, places_before_fight
from vtt.table.fog import fog_marks_command, fog_marks_scrubbed
from vtt.table.heard_targets import heard_options
from vtt.table.state_steps import stomachs

if TYPE_CHECKING:
    from vtt.table.fog import SeatVision
    from vtt.table.table import LogRecord, Viewer

Json = dict[str, Any]

UNSEEN = "a creature you cannot see"
UNSEEN_POSSESSIVE = "an unseen creature's"
HEARD_NAME = "Something heard"
"""What a creature the seat only hears is called (its token's name on the map too)."""
UNSEEN_REF = "?"
"""Stands for a hidden creature where a field must say that there is one (a visible creature swallowed by a hidden
one is still off the board); it is never a creature's id (ids start with a letter or digit)."""
WAITING = "The table waits for the Soulweaver."
NOTES_KEY = "notes"


def _word_bounded(name: str) -> str:
    """A pattern for `name` that does not match inside a longer word; a name beginning or ending with punctuation
    ("(Shade)", "Shade!") needs no boundary on that side."""
    left = r"(?<!\w)" if name[:1].isalnum() or name[:1] == "_" else ""
    right = r"(?!\w)" if name[-1:].isalnum() or name[-1:] == "_" else ""
    return left + re.escape(name) + right


def _ref_target(value: str) -> str:
    """The creature id a reference names: the id itself, or the id of a source "kind:id" (`creature:orc`)."""
    return value.split(":", 1)[1] if ":" in value else value


@dataclass(frozen=True)
class TurnRow:
    text: str
    current: bool
    entry: str = ""
    """The creature id of the entry, or the Soulweaver's."""
    name: str = ""


@dataclass(frozen=True)
class TurnPanel:
    """The turn panel as one seat may see it: equal panels draw the same, so a changed one is redrawn."""

    started: bool
    round: int = 0
    rows: tuple[TurnRow, ...] = ()
    economy: tuple[str, ...] = ()
    can_begin: bool = False
    can_end_turn: bool = False


class SeatView:
    """One seat's view of one state. Cheap to build; build a new one for each state."""

    def __init__(
        self,
        state: GameState,
        viewer: Viewer,
        gone: Mapping[str, str] | None = None,
        vision: SeatVision | None = None,
        previous: SeatView | None = None,
        changed: AbstractSet[str] = frozenset(),
    ) -> None:
        """`gone`: creatures removed from the game while hidden (id -> name), still secret in the log. `vision`:
        what the seat perceives with fog of war on (None: every creature not hidden). `previous`: this seat's view
        of the state `state` was made from, and `changed` the creatures that step added, removed or replaced: what
        `previous` worked out for the others is kept (`vtt.table.state_steps`)."""
        self.state = state
        self.viewer = viewer
        self.vision = None if viewer.is_soulweaver else vision
        if previous is not None:
            self._stomachs_since(previous, changed)
        gone = gone or {}
        if viewer.is_soulweaver:
            self._secret: Mapping[str, str] = {}
            self.hidden: frozenset[str] = frozenset()
            return
        if previous is None or previous.viewer != viewer or (previous.vision is None) != (self.vision is None):
            everyone = [*state.creatures, *gone]
            self._secret = {cid: name for cid in everyone if (name := self._secret_name(cid, gone)) is not None}
            self.hidden = frozenset(self._secret)
            return
        ids = set(changed)
        if self.vision is not None and previous.vision is not None and self.vision is not previous.vision:
            ids |= self.vision.seen ^ previous.vision.seen
        ids.update(cid for cid in gone if cid not in previous._secret)
        self._secret = self._secret_since(previous, ids, gone)
        self.hidden = previous.hidden if self._secret is previous._secret else frozenset(self._secret)
        self._names_since(previous, ids)

    def _secret_name(self, creature_id: str, gone: Mapping[str, str]) -> str | None:
        """The name of a creature this seat may not know of (hidden, not perceived, or removed while hidden), or
        None for one it sees."""
        c = self.state.creatures.get(creature_id)
        if c is None:
            return gone.get(creature_id)
        if c.hidden or (self.vision is not None and creature_id not in self.vision.seen):
            return c.name
        return None

    def _secret_since(self, previous: SeatView, ids: AbstractSet[str], gone: Mapping[str, str]) -> Mapping[str, str]:
        """`previous`'s secret creatures with those of `ids` looked at again (the same mapping when none changed)."""
        secret = previous._secret
        copied: dict[str, str] | None = None
        for cid in ids:
            name = self._secret_name(cid, gone)
            if (name is None) == (cid not in secret) and (name is None or secret[cid] == name):
                continue
            if copied is None:
                copied = dict(secret)
            if name is None:
                del copied[cid]
            else:
                copied[cid] = name
        return secret if copied is None else copied

    def _names_since(self, previous: SeatView, ids: AbstractSet[str]) -> None:
        """Keep `previous`'s count of the names its visible creatures bear, and what it derived from the names, as
        far as the creatures of `ids` leave them the same."""
        counts: dict[str, int] | None = previous.__dict__.get("_name_counts")
        if counts is None:
            return
        new = dict(counts)
        crossed = False  # a name that no visible creature bore before, or bears now, was found
        before, after = previous.state.creatures, self.state.creatures
        for cid in ids:
            was, now = before.get(cid), after.get(cid)
            if was is not None and cid not in previous.hidden:
                new[was.name] -= 1
                if not new[was.name]:
                    del new[was.name]
                    crossed = True
            if now is not None and cid not in self.hidden:
                crossed = crossed or now.name not in new
                new[now.name] = new.get(now.name, 0) + 1
        self.__dict__["_name_counts"] = new
        if crossed or self._secret is not previous._secret:
            return
        for kept in ("hidden_names", "_matcher", "_needles", "_id_matcher"):
            if kept in previous.__dict__:
                self.__dict__[kept] = previous.__dict__[kept]

    def _stomachs_since(self, previous: SeatView, changed: AbstractSet[str]) -> None:
        """Keep `previous`'s index of who is in whose stomach when the step swallowed, freed or changed no creature
        in a stomach."""
        known: dict[str, list[Creature]] | None = previous.__dict__.get("stomachs")
        if known is None:
            return
        before, after = previous.state.creatures, self.state.creatures
        for cid in changed:
            for c in (before.get(cid), after.get(cid)):
                if c is not None and c.swallowed_by is not None:
                    return
        self.__dict__["stomachs"] = known

    @cached_property
    def stomachs(self) -> dict[str, list[Creature]]:
        """The creatures in each swallower's stomach (`state_steps.stomachs`), hidden ones among them. Shared: never
        change it."""
        return stomachs(self.state)

    @cached_property
    def _name_counts(self) -> dict[str, int]:
        """How many creatures this seat sees bear each name."""
        counts: dict[str, int] = {}
        for cid, c in self.state.creatures.items():
            if cid not in self.hidden:
                counts[c.name] = counts.get(c.name, 0) + 1
        return counts

    @cached_property
    def hidden_names(self) -> frozenset[str]:
        """The names of the creatures the seat may not know of. A name that a visible creature also bears tells
        nothing: only the others are secret."""
        if not self._secret:
            return frozenset()
        counts = self._name_counts
        return frozenset(n for n in self._secret.values() if n and n not in counts)

    @cached_property
    def _matcher(self) -> re.Pattern[str] | None:
        """All names, longest first, so that a visible "Goblin Chief" is not taken for a hidden "Goblin"."""
        if not self.hidden_names:
            return None
        names = sorted({n for n in [*self._name_counts, *self.hidden_names] if n}, key=len, reverse=True)
        return re.compile("|".join(_word_bounded(n) for n in names))

    @cached_property
    def _id_matcher(self) -> re.Pattern[str] | None:
        if not self.hidden:
            return None
        ids = sorted(self.hidden, key=len, reverse=True)
        return re.compile("|".join(rf"(?<![\w.\-]){re.escape(i)}(?![\w.\-])" for i in ids))

    # ---- creatures -------------------------------------------------------------------------------------------

    def sees(self, creature_id: object) -> bool:
        """Whether the creature exists for this seat: an id it may not see is answered as one that does not exist."""
        return isinstance(creature_id, str) and creature_id in self.state.creatures and creature_id not in self.hidden

    def creature(self, creature_id: object) -> Creature | None:
        if not isinstance(creature_id, str) or creature_id in self.hidden:
            return None
        return self.state.creatures.get(creature_id)

    def creatures(self) -> list[Creature]:
        return [c for cid, c in self.state.creatures.items() if cid not in self.hidden]

    def names(self) -> dict[str, str]:
        """Each creature the seat sees by its name, and each it only hears, by its opaque id, as "Something heard"."""
        names = {c.id: c.name for c in self.creatures()}
        if self.vision is not None:
            names.update(dict.fromkeys(self.vision.heard, HEARD_NAME))
        return names

    def name_of(self, creature_id: str) -> str | None:
        """`names()[creature_id]` without building the whole mapping: None for an id it does not hold."""
        c = self.creature(creature_id)
        if c is not None:
            return c.name
        return HEARD_NAME if self.hears(creature_id) else None

    def hears(self, opaque_id: object) -> bool:
        """Whether `opaque_id` is the id of a creature this seat only hears (`heard_json`)."""
        return self.vision is not None and isinstance(opaque_id, str) and opaque_id in self.vision.heard

    def in_stomach(self, swallower: Creature) -> list[Creature]:
        return [c for c in self.stomachs.get(swallower.id, ()) if c.id not in self.hidden]

    def where_swallowed(self, creature_id: str) -> str | None:
        """ "in the Wyrm's stomach" for a swallowed creature; "in a stomach" when the swallower is hidden."""
        c = self.state.creatures.get(creature_id)
        sw = self.state.creatures.get(c.swallowed_by or "") if c is not None else None
        if sw is None:
            return None
        return f"in {sw.name}'s stomach" if self.sees(sw.id) else "in a stomach"

    def may_act_for(self, creature: Creature) -> bool:
        if self.viewer.is_spectator or not self.sees(creature.id):
            return False
        return self.viewer.is_soulweaver or creature.controller == self.viewer.key

    def controls(self, creature_id: object) -> bool:
        """Whether this seat is a player whose creature (one it can see) this is."""
        c = self.creature(creature_id)
        return c is not None and not self.viewer.is_spectator and c.controller == self.viewer.key

    # ---- finding and rewording hidden creatures ----------------------------------------------------------

    def text_names_hidden(self, text: str) -> bool:
        if self._matcher is None:
            return False
        return any(m.group(0) in self.hidden_names for m in self._matcher.finditer(text))

    def _is_hidden_ref(self, value: str) -> bool:
        return value in self.hidden or _ref_target(value) in self.hidden

    @cached_property
    def _needles(self) -> tuple[str, ...]:
        """The hidden ids and names as they appear inside a JSON text."""
        return tuple(json.dumps(s, ensure_ascii=False)[1:-1] for s in self.hidden | self.hidden_names)

    def mentions(self, value: Any) -> bool:
        """Whether a JSON value names a hidden creature: by id (a string or a key, or a source "kind:id") or by
        name in any of its texts."""
        if not self.hidden:
            return False
        text = json.dumps(value, ensure_ascii=False, default=str)
        if not any(needle in text for needle in self._needles):
            return False  # neither as an id nor as a name: the precise search below could only say no
        return self._mentions(value)

    def _mentions(self, value: Any) -> bool:
        if isinstance(value, str):
            return self._is_hidden_ref(value) or self.text_names_hidden(value)
        if isinstance(value, dict):
            return any(self._mentions(k) or self._mentions(v) for k, v in value.items())
        if isinstance(value, list | tuple):
            return any(self._mentions(v) for v in value)
        return False

    def reword_text(self, text: str, ids: bool = False) -> str:
        """`text` with each hidden creature's name (and, `ids`, id) told as "a creature you cannot see"."""
        if self._matcher is not None:
            text = self._matcher.sub(lambda m: self._unseen(m) if m.group(0) in self.hidden_names else m.group(0), text)
        if ids and self._id_matcher is not None:
            text = self._id_matcher.sub(self._unseen, text)
        return text

    @staticmethod
    def _unseen(m: re.Match[str]) -> str:
        before = m.string[: m.start()].rstrip()
        start = not before or before[-1] in ".!?:"
        possessive = m.string.startswith("'s", m.end())
        word = UNSEEN_POSSESSIVE if possessive else UNSEEN
        # The possessive "'s" stays in the text after the match: take it out of the replacement's own.
        word = word[: -len("'s")] if possessive else word
        return word[:1].upper() + word[1:] if start else word

    def reword(self, value: Any) -> Any:
        """A JSON value with hidden creatures taken out: an id becomes None (left out of a list, or as a key), a
        name in a text is reworded."""
        if isinstance(value, str):
            return None if self._is_hidden_ref(value) else self.reword_text(value)
        if isinstance(value, dict):
            return {k: self.reword(v) for k, v in value.items() if not self._is_hidden_ref(k)}
        if isinstance(value, list | tuple):
            return [self.reword(v) for v in value if not (isinstance(v, str) and self._is_hidden_ref(v))]
        return value

    # ---- the state ---------------------------------------------------------------------------------------------

    def creature_json(self, c: Creature) -> Json:
        if self.viewer.is_soulweaver:
            return c.model_dump(mode="json")
        data = c.model_dump(mode="json", exclude={"notes"})
        if not self.hidden:
            return data
        if data.get("focus") in self.hidden:
            data["focus"] = None
        if data.get("swallowed_by") in self.hidden:
            data["swallowed_by"] = UNSEEN_REF
        data["ailment_sources"] = [s for s in data["ailment_sources"] if not self._is_hidden_ref(s["source"])]
        for cont in data["continuing"]:
            if isinstance(cont.get("source"), str) and self.mentions(cont["source"]):
                cont["source"] = None
        return data

    def decision_json(self, d: Decision) -> Json | None:
        """A pending decision as this seat may see it. One that names a hidden creature is worded without it for
        the seat that answers it; anyone else learns only that the table waits for the Soulweaver."""
        data = d.model_dump(mode="json")
        if not self.mentions(data):
            return data
        if d.to == self.viewer.key and not self.viewer.is_spectator and (d.creature is None or self.sees(d.creature)):
            worded: Json = self.reword(data)
            worded["prompt"] = self.reword_text(d.prompt, ids=True)
            return worded if not self.mentions(worded) else self._waiting(d)
        return self._waiting(d)

    def _waiting(self, d: Decision) -> Json:
        return {"id": d.id, "kind": "wait", "to": SOULWEAVER, "creature": None, "prompt": WAITING, "options": []}

    def decisions(self) -> list[Json]:
        """The pending decisions as this seat may see them (worked out once per view: a new list each call, its
        dicts shared, never to be changed)."""
        return list(self._decisions)

    @cached_property
    def _decisions(self) -> tuple[Json, ...]:
        return tuple(j for d in self.state.pending if (j := self.decision_json(d)) is not None)

    def mine(self, decision: Json) -> bool:
        """Whether this seat answers the decision (the Soulweaver answers every one)."""
        return self.viewer.is_soulweaver or (decision["kind"] != "wait" and decision["to"] == self.viewer.key)

    def scrub(self, data: Json) -> Json:
        """A (partial) dump of a `GameState` without creatures, as this seat may see it. Changes `data` in place
        and returns it."""
        if "board" in data and not self.viewer.is_soulweaver:
            data["board"] = fog_marks_scrubbed(data["board"], self.vision is not None)
        if self.vision is not None and "board" in data:
            data["board"] = self._board_seen(data["board"])
        hidden = self.hidden
        if not hidden:
            return data
        if "turn" in data:
            data["turn"] = self._scrub_turn(data["turn"])
        if "economy" in data:
            data["economy"] = {k: v for k, v in data["economy"].items() if k not in hidden}
        if "holds" in data:
            holds = {k: self._scrub_hold(h) for k, h in data["holds"].items()}
            data["holds"] = {k: h for k, h in holds.items() if h is not None}
        if "effects" in data:
            data["effects"] = [
                self.reword({**e, "creator": None if e["creator"] in hidden else e["creator"]})
                for e in data["effects"]
                if e["subject"] not in hidden
            ]
        if "pending" in data:
            data["pending"] = self.decisions()
        if "reactions" in data:
            data["reactions"] = {k: v for k, v in data["reactions"].items() if not self.mentions(v)}
        if "board" in data:
            for item in data["board"]["items"]:
                if item.get("owner") in hidden:
                    item["owner"] = None
        return data

    def _board_seen(self, board: Json) -> Json:
        """The board as the seat knows it: of walls, objects, terrain, light and loose items, only what lies in the
        spaces it remembers (an object by its remembered spaces)."""
        assert self.vision is not None
        known = self.vision.remembered

        def seen(cell: Any) -> bool:
            return isinstance(cell, list | tuple) and len(cell) >= 2 and (cell[0], cell[1]) in known

        def seen_key(key: str) -> bool:
            q, _, r = key.partition(",")
            return q.lstrip("-").isdigit() and r.lstrip("-").isdigit() and (int(q), int(r)) in known

        objects = [{**o, "cells": [c for c in o["cells"] if seen(c)]} for o in board.get("objects", [])]
        conductive = [[c for c in piece if seen(c)] for piece in board.get("conductive", [])]
        return {
            **board,
            "walls": [c for c in board.get("walls", []) if seen(c)],
            "objects": [o for o in objects if o["cells"]],
            "items": [i for i in board.get("items", []) if seen(i.get("cell"))],
            "conductive": [piece for piece in conductive if piece],
            "water": [c for c in board.get("water", []) if seen(c)],
            "uneven": {k: v for k, v in board.get("uneven", {}).items() if seen_key(k)},
            "light": {k: v for k, v in board.get("light", {}).items() if seen_key(k)},
        }

    def fog_json(self) -> Json | None:
        """With fog of war: the spaces the seat perceives now and those it remembers (as `[q, r]` lists), and the
        creatures it only hears. None: it sees everything."""
        if self.vision is None:
            return None
        return {
            "visible": [list(c) for c in sorted(self.vision.spaces)],
            "remembered": [list(c) for c in sorted(self.vision.remembered - self.vision.spaces)],
            "heard": self.heard_json(),
        }

    def heard_json(self) -> list[Json]:
        """The creatures only heard: `{"id": <an opaque id of this seat's>, "heard": true, "cells": [[q, r], ...]}`,
        never their real id, name or anything else."""
        if self.vision is None:
            return []
        return [
            {"id": hid, "heard": True, "cells": [list(c) for c in cells]}
            for hid, cells in sorted(self.vision.heard.items())
        ]

    def sees_space(self, cell: tuple[int, int]) -> bool:
        """Whether the seat's creatures perceive the space now (every space without fog of war)."""
        return self.vision is None or cell in self.vision.spaces

    def _scrub_turn(self, turn: Json) -> Json:
        """The turn order without hidden creatures; `index` is -1 while a hidden creature has the turn."""
        hidden = self.hidden
        entries: list[str] = turn["entries"]
        index: int = turn["index"]
        started = turn["round"] > 0 and 0 <= index < len(entries)
        out = {
            **turn,
            "entries": [e for e in entries if e not in hidden],
            "priority": {k: v for k, v in turn["priority"].items() if k not in hidden},
        }
        if started:
            out["index"] = -1 if entries[index] in hidden else sum(1 for e in entries[:index] if e not in hidden)
        return out

    def _scrub_hold(self, hold: Json) -> Json | None:
        hidden = self.hidden
        holders = {k: v for k, v in hold["holders"].items() if k not in hidden}
        held = [x for x in hold["held"] if x not in hidden]
        if not holders and not held:
            return None
        return {
            **hold,
            "holders": holders,
            "held": held,
            "extra_encumbered": {k: v for k, v in hold["extra_encumbered"].items() if k not in hidden},
            "caused": {
                k: {x: n for x, n in v.items() if x not in hidden} for k, v in hold["caused"].items() if k not in hidden
            },
            "locks": [lk for lk in hold["locks"] if lk["held"] not in hidden and lk["holder"] not in hidden],
        }

    def state_json(self) -> Json:
        """The state as the seat may see it; with fog of war, `fog` (`fog_json`) as well."""
        data = self.scrub(self.state.model_dump(mode="json", exclude={"creatures"}))
        out = {"creatures": {c.id: self.creature_json(c) for c in self.creatures()}, **data}
        fog = self.fog_json()
        if fog is not None:
            out["fog"] = fog
        return out

    # ---- the log -----------------------------------------------------------------------------------------------

    def command_json(self, command: Json) -> Json | None:
        """A logged command as this seat may see it: None when it names a hidden creature; without the
        Soulweaver's notes (a placed creature's, or a sheet's edit)."""
        if self.viewer.is_soulweaver:
            return command
        if self.mentions(command):
            return None
        out = fog_marks_command(command)
        for key in ("creature", "changes"):
            value = out.get(key)
            if isinstance(value, dict) and NOTES_KEY in value:
                out[key] = {k: v for k, v in value.items() if k != NOTES_KEY}
        return out

    def _sources_scrubbed(self, event: Json) -> Json:
        """The event with each roll modifier's `source` that is a hidden creature told as None, like an effect's
        hidden creator: the modifier's reason says what the seat may know. The same event when there is none."""
        rolls = event.get("rolls")
        if not self.hidden or not isinstance(rolls, list):
            return event

        def hidden_source(m: Any) -> bool:
            return isinstance(m, dict) and isinstance(m.get("source"), str) and self._is_hidden_ref(m["source"])

        def scrubbed(r: Any) -> Any:
            mods = r.get("modifiers") if isinstance(r, dict) else None
            if not isinstance(mods, list) or not any(hidden_source(m) for m in mods):
                return r
            return {**r, "modifiers": [{**m, "source": None} if hidden_source(m) else m for m in mods]}

        new = [scrubbed(r) for r in rolls]
        if all(a is b for a, b in zip(new, rolls, strict=True)):
            return event
        return {**event, "rolls": new}

    def event_json(self, event: Json) -> Json | None:
        """An event as this seat may see it. One that tells of a hidden creature is left out, except for the
        player whose creature it happens to (a defender sees their own defense roll): for them it is reworded. A
        roll modifier's hidden source alone does not hide the event: it is told as None (`_sources_scrubbed`)."""
        event = self._sources_scrubbed(event)
        if not self.mentions(event):
            return event
        if not (self.controls(event.get("actor")) or self.controls(event.get("target"))):
            return None
        worded: Json = self.reword(event)
        if event.get("actor") in self.hidden:
            worded["actor"] = None
        if event.get("target") in self.hidden:
            worded["target"] = None
        return None if self.mentions(worded) else worded

    def sees_record(self, record: LogRecord) -> bool:
        """Whether this seat may know of the record at all: a whisper (a chat record with an addressee) is for its
        sender, its addressee and the Soulweaver alone; spectators read only what was said to everyone. Every
        other record is seen, in part (`events`)."""
        if not record.is_chat:
            return True
        to = record.command.get("to")
        if to is None:
            return True
        if self.viewer.is_spectator:
            return False
        return self.viewer.is_soulweaver or self.viewer.key in (record.sender, to)

    def events(self, record: LogRecord, log: Sequence[LogRecord]) -> list[Json]:
        """The events of a record this seat may see (none: the record is not shown). An undo or redo of commands
        about a hidden creature says only how many it took back or played again. A chat record is what its sender
        wrote, shown as written to those it was for (`sees_record`)."""
        if record.is_chat:
            return record.events if self.sees_record(record) else []
        if self.viewer.is_soulweaver or not self.hidden:
            return record.events
        if record.is_meta:
            seqs = [s for s in record.command.get("seqs", []) if isinstance(s, int) and 0 < s <= len(log)]
            if any(self.record_mentions(log[s - 1]) for s in seqs):
                verb = "takes back" if record.kind == "undo" else "plays again"
                text = f"The Soulweaver {verb} {len(seqs)} command{'s' if len(seqs) != 1 else ''}."
                return [{"kind": record.kind, "text": text, "actor": None, "target": None, "rolls": [], "data": {}}]
            return record.events
        return [j for e in record.events if (j := self.event_json(e)) is not None]

    def record_mentions(self, record: LogRecord) -> bool:
        return self.mentions(record.command) or any(self.mentions(self._sources_scrubbed(e)) for e in record.events)

    # ---- refusals, menus and the turn panel ----------------------------------------------------------------

    def refusal(self, reason: str | None) -> str | None:
        """The reason a command was refused, worded for this seat: it never names a creature the seat cannot
        see."""
        if reason is None or not self.hidden:
            return reason
        worded = self.reword_text(reason, ids=True)
        return worded if not self.mentions(worded) else "that is not possible now"

    def menu(self, creature_id: str) -> list[ActionOption]:
        """The legal actions this seat may take for the creature (none for a creature it cannot see or does not
        act for), without a hidden creature as a target or anywhere in an option."""
        c = self.creature(creature_id)
        if c is None or not self.may_act_for(c):
            return []
        actions = legal_actions(self.state, creature_id)
        if self.vision is not None:
            actions = heard_options(self._within_sight(actions), self.vision)
        if not self.hidden:
            return actions
        out: list[ActionOption] = []
        for a in actions:
            kept = [t for t in a.targets if t.target not in self.hidden]
            if a.targets and not kept:
                continue
            option = a.model_copy(update={"targets": kept}) if len(kept) != len(a.targets) else a
            dumped = option.model_dump(mode="json")
            if self.mentions(dumped):
                option = ActionOption.model_validate(self.reword(dumped))
            if not self.mentions(option.model_dump(mode="json")):
                out.append(option)
        return out

    def _within_sight(self, actions: list[ActionOption]) -> list[ActionOption]:
        """The options without spaces the seat does not perceive now, as places to go or aim at (an option left with
        none is left out); creatures as targets are left to `hidden`. A targeted attack on a space may also aim at
        one the seat remembers or hears a creature in (how a creature it cannot see is attacked)."""
        out: list[ActionOption] = []
        vision = self.vision
        known = (
            vision.remembered | {c for cells in vision.heard.values() for c in cells} if vision is not None else set()
        )
        for a in actions:
            if a.action == "strike_space":
                spaces = [s for s in a.spaces if self.sees_space(s) or s in known]
            else:
                spaces = [s for s in a.spaces if self.sees_space(s)]
            targets = [t for t in a.targets if t.target is not None or t.space is None or self.sees_space(t.space)]
            if (a.spaces and not spaces) or (a.targets and not targets):
                continue
            if len(spaces) != len(a.spaces) or len(targets) != len(a.targets):
                a = a.model_copy(update={"spaces": spaces, "targets": targets})
            out.append(a)
        return out

    def turn_panel(self) -> TurnPanel:
        return self._turn_panel

    @cached_property
    def _turn_panel(self) -> TurnPanel:
        """The turn panel, worked out once per view (a `TurnPanel` is frozen)."""
        state = self.state
        if not state.turn.started:
            return TurnPanel(started=False, can_begin=self.viewer.is_soulweaver)
        names = self.name_of
        rows: list[TurnRow] = []
        for i, entry in enumerate(state.turn.entries):
            if entry != SOULWEAVER and names(entry) is None:
                continue
            is_current = i == state.turn.index
            name = "Soulweaver (all other creatures)" if entry == SOULWEAVER else names(entry) or ""
            prio = state.turn.priority.get(entry)
            text = f"{'▶ ' if is_current else ''}{name}" + (f" · Priority {prio}" if prio is not None else "")
            if (where := self.where_swallowed(entry)) is not None:
                text += f" · {where}"
            rows.append(TurnRow(text, is_current, entry, name))
        economy: list[str] = []
        for cid in active_creatures(state):
            econ = state.economy.get(cid)
            if econ is None or (named := names(cid)) is None:
                continue
            economy.append(
                f"{named}: Major {econ.major} · Minor {econ.minor} · Movement {econ.movement_left}"
                f"/{econ.movement_max} left"
            )
        current = self.creature(state.turn.current)
        mine = self.viewer.is_soulweaver or (
            current is not None and not self.viewer.is_spectator and current.controller == self.viewer.key
        )
        return TurnPanel(
            started=True,
            round=state.turn.round,
            rows=tuple(rows),
            economy=tuple(economy),
            can_end_turn=mine and not state.pending,
        )

    def move_preview(self, preview: Json) -> Json:
        """A drag's move preview (`MovePreview.as_json`) as this seat may see it: a Collision with a hidden creature
        is left out (a space with no other is then no Collision at all), and so is a reason not to end a move that
        names one (that space then looks free; a drop there is refused in this seat's words). With fog of war, only
        the spaces the seat perceives now, reached by a path through them, are kept: no peeking round a corner."""
        if self.vision is not None:
            preview = self._preview_in_sight(preview)
        if not self.hidden:
            return preview
        blocked: dict[str, Any] = preview.get("blocked") or {}
        kept_blocked = {cell: why for cell, why in blocked.items() if not self.mentions(why)}
        collisions: Json = {}
        for cell, found in (preview.get("collisions") or {}).items():
            targets = [t for t in found.get("targets", []) if self.sees(t.get("target"))]
            if targets:
                collisions[cell] = {**found, "targets": targets, "move_in": cell not in kept_blocked}
        out = {**preview, "blocked": kept_blocked, "collisions": collisions}
        why_not = out.get("why_not")
        if isinstance(why_not, str):
            out["why_not"] = self.refusal(why_not)
        if not self.mentions(out):
            return out
        reworded: Json = self.reword(out)
        return reworded

    def _preview_in_sight(self, preview: Json) -> Json:
        spaces = self.vision.spaces if self.vision is not None else frozenset()
        paths: dict[str, str] = preview.get("paths") or {}

        def cell(key: str) -> tuple[int, int] | None:
            q, _, r = key.partition(",")
            try:
                return int(q), int(r)
            except ValueError:
                return None

        kept: dict[str, bool] = {}

        def in_sight(key: str) -> bool:
            """Whether the space and every space on the path to it are perceived now."""
            chain: list[str] = []
            on_chain: set[str] = set()
            at, ok = key, True
            while True:
                if at in kept:
                    ok = kept[at]
                    break
                chain.append(at)
                on_chain.add(at)
                c = cell(at)
                if c is None or c not in spaces:
                    ok = False
                    break
                parent = paths.get(at)
                if parent is None or parent in on_chain:
                    break  # the start
                at = parent
            for k in chain:
                kept[k] = ok
            return kept[key]

        def filtered(value: Any) -> Any:
            return {k: v for k, v in (value or {}).items() if in_sight(k)}

        return {
            **preview,
            "reachable": filtered(preview.get("reachable")),
            "paths": filtered(paths),
            "blocked": filtered(preview.get("blocked")),
            "collisions": filtered(preview.get("collisions")),
        }

    def may_drag(self, creature: Creature) -> bool:
        """The Soulweaver drags any token; a player only their own creature, on its turn (or before the fight, if
        the table lets players place their creatures then)."""
        if self.viewer.is_soulweaver:
            return True
        if not self.controls(creature.id):
            return False
        return places_before_fight(self.state, self.viewer.key, creature) or is_active(self.state, creature.id)
