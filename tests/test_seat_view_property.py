"""A property of the seat view: in random games played through a real `Table`, nothing a player or a spectator
receives names a creature hidden from them — not the state, a change message, the log, a prompt, a refusal, a
menu or the turn panel.

Each game has a few creatures with distinctive random ids and names (some beginning or ending with punctuation)
that cannot turn up in other text by chance, random sides, controllers and hidden flags, on a small map. It is
played with random legal commands (from `legal_actions`, as a menu offers them), answers to the pending decisions,
the Soulweaver hiding and showing creatures, and commands a player sends that the table refuses.

Half the games have fog of war on, and a few walls (and a third are in darkness, where creatures next to each other
are heard and not seen): then a creature the seat's creatures do not perceive (worked out
here from `vision.seat_perception`, not from the seat view's own cache) is as secret as a hidden one, and a creature
only heard is sent by an opaque id, never by its own (and a Strike on it, offered by the menu by that id, is
played and reported without its id or name).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from factories import creature, state, weapon
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from vtt.rules.dice import RandomDice
from vtt.rules.engine import ActionOption
from vtt.rules.model import SOULWEAVER, GameState
from vtt.rules.settings import TableSettings
from vtt.rules.turns import active_creatures
from vtt.rules.vision import seat_perception
from vtt.table.fog import HEARD_PREFIX
from vtt.table.table import Change, Table, Viewer
from vtt.web.api import change_message

SW = Viewer("soulweaver", "Mira")
PLAYERS = ("alice", "bob")
WATCHER = Viewer("spectator", "spectator")
VIEWERS = (Viewer("player", "alice"), Viewer("player", "bob"), WATCHER)
LETTERS = "qxzjvw"
STEPS = 12
Draw = Callable[[st.SearchStrategy[Any]], Any]


@dataclass
class Secret:
    """What must not reach a seat: the hidden creatures' ids and names when it was sent."""

    ids: frozenset[str]
    names: frozenset[str]

    def found_in(self, value: Any) -> list[str]:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        return sorted(s for s in self.ids | self.names if s in text)


def secrets(s: GameState, viewer: Viewer | None = None) -> Secret:
    """The creatures `viewer` may not know of: the hidden ones, and with fog of war those its creatures (a
    spectator: every player's creatures) do not perceive."""
    secret = {c.id for c in s.creatures.values() if c.hidden}
    if viewer is not None and s.settings.fog_of_war and not viewer.is_soulweaver:
        own = [
            cid
            for cid, c in s.creatures.items()
            if not c.hidden and (c.controller is not None if viewer.is_spectator else c.controller == viewer.key)
        ]
        seen = seat_perception(s, own).seen | set(own)
        secret |= set(s.creatures) - seen
    shown = {c.name for c in s.creatures.values() if c.id not in secret}
    return Secret(frozenset(secret), frozenset(s.creatures[cid].name for cid in secret) - shown)


@dataclass(eq=False)
class Recorder:
    """A listener, as the API's websocket hub is: each change as each seat receives it."""

    table: Table
    seen: list[tuple[Viewer, Secret, frozenset[str], Any]] = field(default_factory=list)

    def table_changed(self, change: Change) -> None:
        for viewer in VIEWERS:
            message = change_message(self.table, change, viewer)
            could_see = frozenset(change.before.creatures) - secrets(change.before, viewer).ids
            self.seen.append((viewer, secrets(change.after, viewer), could_see, message))


@st.composite
def games(draw: st.DrawFn) -> GameState:
    count = draw(st.integers(2, 5))
    tokens = draw(st.lists(st.text(LETTERS, min_size=5, max_size=5), min_size=count, max_size=count))
    cells = draw(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=count, max_size=count, unique=True))
    sword = weapon("sword", damage=2)
    made = []
    for i, (token, cell) in enumerate(zip(tokens, cells, strict=True)):
        core = f"Vq{token}{i}"
        name = draw(st.sampled_from([core, f"({core})", f"{core}!", f"{core} the Grim", f"'{core}'"]))
        made.append(
            creature(
                f"k{token}{i}",
                cell,
                name=name,
                controller=draw(st.sampled_from([None, *PLAYERS])),
                side=draw(st.sampled_from([None, "red", "blue"])),
                hidden=draw(st.booleans()),
                weapons=[sword],
                grip={"right_arm": "sword"} if draw(st.booleans()) else {},
            )
        )
    rules = TableSettings(
        defense_prompts=draw(st.sampled_from(["players", "everyone", "nobody"])),
        reactions=draw(st.booleans()),
        reaction_seconds=0,
        fog_of_war=draw(st.booleans()),
        ambient_light=draw(st.sampled_from(["lit", "lit", "dark"])),
    )
    free = st.tuples(st.integers(0, 5), st.integers(0, 5)).filter(lambda c: c not in cells)
    walls = set(draw(st.lists(free, max_size=6)))
    return state(*made, cols=6, rows=6, walls=walls, settings=rules)


def sender_for(s: GameState, controller: str | None) -> Viewer:
    return SW if controller is None else Viewer("player", controller)


def command_from(draw: Draw, cid: str, option: ActionOption) -> dict[str, Any]:
    """The command a menu sends for an option: its target, a space, its choices (as the table page builds it)."""
    if option.action == "end_turn":
        return {"type": "end_turn"}
    cmd: dict[str, Any] = {"type": option.command or option.action, "creature": cid}
    cmd.update({k: v for k, v in option.params.items() if v is not None})
    if option.targets:
        t = draw(st.sampled_from(option.targets))
        if t.target is not None:
            cmd["targets" if cmd["type"] == "distract" else "target"] = (
                [t.target] if cmd["type"] == "distract" else t.target
            )
        if t.space is not None and cmd["type"] == "move":
            cmd["to"] = list(t.space)
            if option.action == "collision":
                cmd["collide_with"] = cmd.pop("target", None)
        cmd.update(t.params)
        for name in option.choose:
            values = t.choices.get(name, [])
            if values:
                cmd[name] = draw(st.sampled_from(values))
    elif option.spaces:
        space = list(draw(st.sampled_from(option.spaces)))
        cmd["to" if cmd["type"] == "move" else "space"] = space
    return cmd


async def play(draw: Draw, table: Table, refusals: list[tuple[Viewer, Secret, str]]) -> None:
    async def send(viewer: Viewer, cmd: dict[str, Any]) -> None:
        outcome = await table.submit(viewer, cmd)
        if not outcome.ok and viewer != SW:
            refusals.append((viewer, secrets(table.state, viewer), str(outcome.error)))
        if str(cmd.get("target", "")).startswith(HEARD_PREFIX):
            event(f"a Strike on a creature only heard, by its opaque id: {'played' if outcome.ok else 'refused'}")

    await send(SW, {"type": "begin"})
    for _ in range(STEPS):
        s = table.state
        kind = draw(st.sampled_from(["act", "act", "act", "hide", "refused", "end"]))
        if s.pending:
            d = draw(st.sampled_from(s.pending))
            who = SW if d.to == SOULWEAVER else Viewer("player", d.to)
            if d.kind == "defense":
                await send(who, {"type": "defend", "decision": d.id, "roll": draw(st.booleans())})
            elif d.kind == "reaction":
                await send(who, {"type": "react", "decision": d.id, "hinder": draw(st.booleans())})
            else:
                await send(who, {"type": "choose_order", "decision": d.id, "order": draw(st.permutations(d.options))})
        elif kind == "hide":
            cid = draw(st.sampled_from(sorted(s.creatures)))
            hide = {"type": "edit_creature", "creature": cid, "changes": {"hidden": not s.creatures[cid].hidden}}
            await send(SW, hide)
        elif kind == "refused":
            player = Viewer("player", draw(st.sampled_from(PLAYERS)))
            actor = draw(st.sampled_from(sorted(s.creatures)))
            target = draw(st.sampled_from(sorted(s.creatures)))
            cmd = draw(
                st.sampled_from(
                    [
                        {"type": "strike", "creature": actor, "target": target, "weapon": "sword"},
                        {"type": "grab", "creature": actor, "target": target},
                        {"type": "move", "creature": actor, "to": [5, 5]},
                        {"type": "end_turn"},
                        {"type": "harm", "target": target, "amount": 1},
                    ]
                )
            )
            await send(player, cmd)
        elif kind == "end" or not active_creatures(s):
            current = s.creatures.get(s.turn.current or "")
            await send(sender_for(s, current.controller if current else None), {"type": "end_turn"})
        else:
            cid = draw(st.sampled_from(active_creatures(s)))
            sender = sender_for(s, s.creatures[cid].controller)
            options = table.seat_view(sender).menu(cid)  # what the sender's page offers
            attacks = [o for o in options if o.targets and o.action != "move"]
            if options:
                option = draw(st.sampled_from(attacks if attacks and draw(st.integers(0, 3)) else options))
                await send(sender, command_from(draw, cid, option))
        check_views(table, whole_log=kind == "hide")
    check_views(table, whole_log=True)


def check_views(table: Table, whole_log: bool) -> None:
    """What each seat is shown now: its state, its menus, its turn panel and the log (the newest entry; the whole
    log, as a page opened now shows it, when `whole_log`)."""
    for viewer in VIEWERS:
        secret = secrets(table.state, viewer)
        seat = table.seat_view(viewer)
        shown: list[Any] = [seat.state_json(), seat.decisions(), str(seat.turn_panel())]
        for record in table.log if whole_log else table.log[-1:]:
            shown += [seat.command_json(record.command), seat.events(record, table.log)]
        for cid in active_creatures(table.state):  # a menu has actions only while its creature is active
            shown.append([a.model_dump(mode="json") for a in seat.menu(cid)])
        assert secret.found_in(shown) == [], viewer


@settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(game=games(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_nothing_a_player_or_spectator_receives_names_a_hidden_creature(
    game: GameState, seed: int, data: st.DataObject
) -> None:
    table = Table("property", game, dice=lambda: RandomDice(seed))
    recorder = Recorder(table)
    table.subscribe(recorder)
    refusals: list[tuple[Viewer, Secret, str]] = []
    try:
        asyncio.run(play(data.draw, table, refusals))
    finally:
        table.close()
    played = [r for r in table.log if not r.is_meta]
    event(f"commands played: {min(len(played), 10) // 5 * 5}+")
    answered = any(r.kind in {"defend", "react", "choose_order"} for r in played)
    event(f"decisions answered: {'some' if answered else 'none'}")
    event(f"refused: {'some' if refusals else 'none'}")
    worded = any(m["events"] and m["command"] is None for v, _, _, m in recorder.seen if v != WATCHER)
    event(f"events worded for a defender: {'some' if worded else 'none'}")
    hidden_acted = any(
        r.command.get("creature") in secrets(r.before).ids
        for r in played
        if r.before is not None and r.kind != "edit_creature"
    )
    event(f"a hidden creature acted: {'yes' if hidden_acted else 'no'}")
    unseen = game.settings.fog_of_war and any(
        secrets(game, v).ids - secrets(game).ids for v in VIEWERS if not v.is_spectator
    )
    event(f"fog of war: {'a creature out of sight' if unseen else 'on' if game.settings.fog_of_war else 'off'}")
    for viewer, secret, could_see, message in recorder.seen:
        assert set(message["gone"]) <= could_see, (viewer, message["gone"])
        assert secret.found_in({**message, "gone": []}) == [], (viewer, message)
    for viewer, secret, reason in refusals:
        assert secret.found_in(reason) == [], (viewer, reason)
    for _, _, _, message in recorder.seen:
        for heard in (message.get("fog") or {}).get("heard", []):
            assert set(heard) == {"id", "heard", "cells"} and heard["id"] not in table.state.creatures, heard
