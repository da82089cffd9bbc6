"""Events: what a command did, in order, each with its rolls and one plain sentence."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from vtt.rules.dice import Roll
from vtt.rules.fastmodel import put_dict, put_extra, put_fields_set, put_private


class Event(BaseModel):
    kind: str
    text: str
    actor: str | None = None
    target: str | None = None
    rolls: list[Roll] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)

    def __init__(
        self,
        *,
        kind: str,
        text: str,
        actor: str | None = None,
        target: str | None = None,
        rolls: Iterable[Roll] = (),
        data: Mapping[str, Any] | None = None,
        **extra: Any,
    ) -> None:
        """Every `apply` builds several events from the rules' own values: those already of the fields' types are
        set as validation would set them, without its cost (the data dict is the one given, not a copy); anything
        else (an event read back with `model_validate`) is validated."""
        rolls = list(rolls)
        if (
            not extra
            and type(kind) is str
            and type(text) is str
            and (actor is None or type(actor) is str)
            and (target is None or type(target) is str)
            and (data is None or type(data) is dict)
        ):
            for r in rolls:
                if type(r) is not Roll:
                    break
            else:
                _fill(self, kind, text, actor, target, rolls, {} if data is None else data)
                return
        given = {"actor": actor, "target": target, "rolls": rolls, **({} if data is None else {"data": data})}
        super().__init__(kind=kind, text=text, **given, **extra)


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
    out: Event = _new_event(Event)
    put_dict(
        out,
        {
            "kind": kind,
            "text": text,
            "actor": actor,
            "target": target,
            "rolls": [] if rolls is None else rolls,
            "data": {} if data is None else data,
        },
    )  # `_fill`, inlined: an apply makes several events
    put_fields_set(out, _FIELDS)
    put_extra(out, None)
    put_private(out, None)
    return out


def _fill(
    out: Event,
    kind: str,
    text: str,
    actor: str | None,
    target: str | None,
    rolls: list[Roll],
    data: dict[str, Any],
) -> None:
    """Set an event's fields as validation would set them, without its cost."""
    put_dict(out, {"kind": kind, "text": text, "actor": actor, "target": target, "rolls": rolls, "data": data})
    put_fields_set(out, _FIELDS)
    put_extra(out, None)
    put_private(out, None)


_new_event = Event.__new__
_FIELDS = set(Event.model_fields)
"""The fields set of every event built without validation, one set for all: each has all its fields set, so
setting a field adds nothing to it."""


class RuleError(ValueError):
    """A command that the rules do not allow now; the state is left exactly as it was.

    `code` is a stable name for the rule that refused (`reach.out_of_reach`), for scenario expectations and
    clients; the sentence is for people and may change. Not every refusal has one yet."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, str | None]]:
        return (type(self), (str(self), self.code))
