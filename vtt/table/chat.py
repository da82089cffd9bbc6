"""Chat, whispers and dice typed at the table: records of the game's log that change nothing in the game.

A message is `{"type": "chat", "text": "...", "to": null}` (to everyone), or with `"to"` a seat's key: the
Soulweaver (`"soulweaver"`) or a player. A text beginning with `/roll` is a roll instead: `/roll 3d12+2` rolls three
d12 with the table's dice; its result is the single highest face plus 2 (reference §1.1), its doubles (§1.4) and a
Fumble, more than half of the dice showing 1 (§1.5), are marked. A roll is stored as `{"type": "roll", "dice": 3,
"modifier": 2, "to": null}` with the faces it used, so that loading the game or importing its archive rolls it
again exactly.

Who may read a record (everyone, or its sender, its addressee and the Soulweaver) is `SeatView.sees_record`'s
to decide; this module only checks and builds the records.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from vtt.rules.dice import DiceSource, Modifier, roll
from vtt.rules.events import Event
from vtt.rules.limits import CHAT_MAX, ROLL_DICE_MAX, ROLL_MODIFIER_MAX, text_error
from vtt.rules.model import SOULWEAVER

CHAT = "chat"
ROLL = "roll"
CHAT_KINDS = frozenset({CHAT, ROLL})
KEYS = {CHAT: frozenset({"type", "text", "to"}), ROLL: frozenset({"type", "dice", "modifier", "to"})}
ROLL_HOW = "write a roll as /roll 3d12+2: how many d12, then a bonus or penalty if any"
_ROLL = re.compile(r"/roll\s*(\d*)\s*d\s*12\s*(?:([+\-−])\s*(\d+))?", re.IGNORECASE)


class ChatError(ValueError):
    """A message the table does not take, with the reason in plain words."""


@dataclass(frozen=True)
class ChatEntry:
    """What the log keeps of a message or a roll: its command (as stored) and its one event."""

    command: dict[str, Any]
    events: list[dict[str, Any]]


def roll_label(dice: int, modifier: int) -> str:
    """`3d12+2`, `1d12−1`, `2d12`."""
    if modifier == 0:
        return f"{dice}d12"
    return f"{dice}d12{'+' if modifier > 0 else '−'}{abs(modifier)}"


def parse_roll(text: str) -> tuple[int, int]:
    """`/roll 3d12+2` → (3, 2); `/roll d12` is one die. `ChatError` says how to write one."""
    found = _ROLL.fullmatch(text.strip())
    if found is None:
        raise ChatError(ROLL_HOW)
    count_text, sign, amount = found.groups()
    dice = int(count_text) if count_text else 1
    modifier = int(amount) if amount else 0
    return _checked_roll(dice, -modifier if sign in ("-", "−") else modifier)


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _checked_roll(dice: object, modifier: object) -> tuple[int, int]:
    n, m = _whole(dice), _whole(modifier)
    if n is None or not 1 <= n <= ROLL_DICE_MAX:
        raise ChatError(f"a roll has 1 to {ROLL_DICE_MAX} d12")
    if m is None or not -ROLL_MODIFIER_MAX <= m <= ROLL_MODIFIER_MAX:
        limit = ROLL_MODIFIER_MAX
        raise ChatError(f"a roll's bonus or penalty is a whole number from −{limit} to +{limit}")
    return n, m


def _addressee(to: object, sender: str, seats: Collection[str]) -> str | None:
    if to is None:
        return None
    if not isinstance(to, str) or to not in seats:
        raise ChatError("a whisper goes to someone at this table: the Soulweaver or a player")
    if to == sender:
        raise ChatError("a whisper goes to someone else, not to yourself")
    return to


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ChatError("a message is text")
    text = value.strip()
    if not text:
        raise ChatError("the message is empty: write something first")
    if len(text) > CHAT_MAX:
        raise ChatError(f"a message is at most {CHAT_MAX} characters (this one has {len(text)})")
    why = text_error(text, CHAT_MAX, multiline=True)
    if why is not None:
        raise ChatError(f"the message {why}")
    return text


def chat_entry(sender: str, command: dict[str, Any], dice: DiceSource, seats: Collection[str]) -> ChatEntry:
    """Check a message or roll sent by `sender` (a seat's key) and build its log entry, rolling with `dice`.
    `seats` are the keys a whisper may go to (the Soulweaver's and the players'). `ChatError` says what is
    wrong; nothing is rolled then."""
    kind = command.get("type")
    if kind not in KEYS:
        raise ChatError("not a chat message")
    unknown = sorted(str(k) for k in command if k not in KEYS[str(kind)])
    if unknown:
        raise ChatError(f"a {kind} has no part called {unknown[0][:40]!r}")
    to = _addressee(command.get("to"), sender, seats)
    if kind == CHAT:
        text = _text(command.get("text"))
        if not text.lower().startswith("/roll"):
            if text.startswith("/"):
                raise ChatError("the chat knows one command, /roll (for example /roll 3d12+2)")
            event = Event(kind=CHAT, text=text, data={"to": to})
            return ChatEntry({"type": CHAT, "text": text, "to": to}, [event.model_dump(mode="json")])
        count, modifier = parse_roll(text)
    else:
        count, modifier = _checked_roll(command.get("dice"), command.get("modifier", 0))
    label = roll_label(count, modifier)
    mods = [Modifier(value=modifier, reason="typed with the roll", key="typed")] if modifier else []
    result = roll(dice, label, count, mods)
    marks = [f"doubles {d.face}" for d in result.doubles] + (["Fumble"] if result.fumble else [])
    text = f"Rolls {label}: {result.result}" + "".join(f" · {m}" for m in marks)
    event = Event(kind=ROLL, text=text, rolls=[result], data={"to": to})
    return ChatEntry({"type": ROLL, "dice": count, "modifier": modifier, "to": to}, [event.model_dump(mode="json")])


def addressee_name(to: object, players: dict[str, str]) -> str:
    """Who a record is for, as a page shows it."""
    if to is None:
        return "everyone"
    if to == SOULWEAVER:
        return "the Soulweaver"
    return players.get(str(to), str(to))
