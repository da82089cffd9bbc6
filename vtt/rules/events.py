"""Events: what a command did, in order, each with its rolls and one plain sentence."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from vtt.rules.dice import Roll


class Event(BaseModel):
    kind: str
    text: str
    actor: str | None = None
    target: str | None = None
    rolls: list[Roll] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)


class RuleError(ValueError):
    """A command that the rules do not allow now; the state is left exactly as it was.

    `code` is a stable name for the rule that refused (`reach.out_of_reach`), for scenario expectations and
    clients; the sentence is for people and may change. Not every refusal has one yet."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, str | None]]:
        return (type(self), (str(self), self.code))
