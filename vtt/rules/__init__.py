"""The pure rules core: state + command + dice -> new state + events. No UI, no storage, no global random."""

from vtt.rules.commands import Command, parse_command
from vtt.rules.dice import DiceSource, RandomDice, RecordingDice, ScriptedDice, TypedDice
from vtt.rules.engine import ActionOption, LogEntry, apply, legal_actions, replay
from vtt.rules.events import Event, RuleError
from vtt.rules.model import GameState

__all__ = [
    "ActionOption",
    "Command",
    "DiceSource",
    "Event",
    "GameState",
    "LogEntry",
    "RandomDice",
    "RecordingDice",
    "RuleError",
    "ScriptedDice",
    "TypedDice",
    "apply",
    "legal_actions",
    "parse_command",
    "replay",
]
