"""Events: what a command did, in order, each with its rolls and one plain sentence."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from vtt.rules.dice import Roll
from vtt.rules.records import Record


@dataclass(init=False, slots=True)
class Event(Record):
    """One thing a command did: its kind, one plain sentence, who did it to whom, its rolls and its figures."""

    kind: str
    text: str
    actor: str | None = None
    target: str | None = None
    rolls: list[Roll] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        *,
        kind: str,
        text: str,
        actor: str | None = None,
        target: str | None = None,
        rolls: Iterable[Roll] = (),
        data: Mapping[str, Any] | None = None,
    ) -> None:
        """An event of the rules' own values, of the fields' types, is set from them (the data dict is the one
        given, not a copy); of anything else (a roll's dump, a string that is not a `str`), it is the event pydantic
        validates from them, or a ValidationError."""
        rolls = list(rolls)
        if (
            type(kind) is str
            and type(text) is str
            and (actor is None or type(actor) is str)
            and (target is None or type(target) is str)
            and (data is None or type(data) is dict)
        ):
            for r in rolls:
                if type(r) is not Roll:
                    break
            else:
                self.kind = kind
                self.text = text
                self.actor = actor
                self.target = target
                self.rolls = rolls
                self.data = {} if data is None else data
                return
        given = {"kind": kind, "text": text, "actor": actor, "target": target, "rolls": rolls}
        valid = Event.model_validate(given if data is None else {**given, "data": data})
        for name in _FIELDS:
            setattr(self, name, getattr(valid, name))


def event(
    kind: str,
    text: str,
    actor: str | None = None,
    target: str | None = None,
    rolls: list[Roll] | None = None,
    data: dict[str, Any] | None = None,
) -> Event:
    """`Event(...)` of values the rules made, of the fields' types, built without checking them: the list of rolls
    and the data dict given become the event's own (the caller keeps no name for them)."""
    out: Event = new_event(Event)
    out.kind = kind
    out.text = text
    out.actor = actor
    out.target = target
    out.rolls = [] if rolls is None else rolls
    out.data = {} if data is None else data
    return out


new_event = object.__new__
"""`new_event(Event)` is an event with no field set yet: one that sets every field itself is `event(...)` without
its call."""
_FIELDS = Event.__match_args__


class RuleError(ValueError):
    """A command that the rules do not allow now; the state is left exactly as it was.

    `code` is a stable name for the rule that refused (`reach.out_of_reach`), for scenario expectations and
    clients; the sentence is for people and may change. Not every refusal has one yet."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, str | None]]:
        return (type(self), (str(self), self.code))
