"""The games a server runs: creating them from map files, the seats (Soulweaver, players) and invitations, and the
live `Table` of each game, opened from the database when someone first comes to it."""

from __future__ import annotations

import asyncio
import gc
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from vtt.rules.dice import DiceSource, RandomDice
from vtt.rules.limits import INVITATIONS_MAX, SEATS_MAX
from vtt.rules.mapfile import MapError, load_map
from vtt.rules.model import SOULWEAVER, GameState
from vtt.rules.settings import TableSettings
from vtt.store import db
from vtt.store.change_feed import ChangeFeed, Heard, listen_url
from vtt.store.db import Seat
from vtt.store.images import BACKGROUND, background_path
from vtt.store.pictures import load_picture
from vtt.table import latency_trace
from vtt.table.archive import (
    Archive,
    ArchiveError,
    check_archive,
    check_archive_offloaded,
    export_archive,
    pictures_named,
    read_archive,
)
from vtt.table.pointers import pointers_of
from vtt.table.table import Table, Viewer

Grid = Literal["hex", "square"]
Creators = Literal["anyone", "admin"]
CREATORS: tuple[Creators, ...] = ("anyone", "admin")
NAME_LIMIT = 60
ADMIN_SECRET = "admin_secret"
"""The server setting holding the admin secret: the browser that opens `/admin/<secret>` may make and import games
when only admins may (`Creators` "admin")."""


IDLE_MINUTES = 30.0
"""Minutes a loaded game nobody watches stays in memory (`Games.unload_idle`): then it is dropped, and loaded again
from its log when someone opens it. A server that has served many games holds only those played lately."""
SWEEP_SECONDS_MAX = 60.0
"""How often, at most, the loaded games are looked over for idle ones."""


class GameError(ValueError):
    """A request about games that cannot be done; nothing was changed."""


@dataclass(frozen=True)
class NewGame:
    game_id: int
    soulweaver: Seat
    invitation: str


def viewer_for(seat: Seat) -> Viewer:
    if seat.role == "soulweaver":
        return Viewer("soulweaver", seat.name)
    return Viewer("player", seat.key)


def clean_name(name: str, what: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise GameError(f"{what} cannot be empty")
    if len(name) > NAME_LIMIT:
        raise GameError(f"{what} is longer than {NAME_LIMIT} characters")
    return name


def parse_game_id(text: str) -> int | None:
    """A game id from a URL, or None when it cannot name a game (not digits, or out of the database's range)."""
    if not text.isascii() or not text.isdigit() or len(text) > 10:
        return None
    number = int(text)
    return number if 0 < number <= db.GAME_ID_MAX else None


class Games:
    def __init__(
        self,
        engine: Engine,
        maps: Path,
        dice: Callable[[], DiceSource] = RandomDice,
        creators: Creators = "anyone",
        idle_minutes: float = IDLE_MINUTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = engine
        self.maps = maps
        self.dice = dice
        self.creators: Creators = creators
        """Who may make and import games: anyone who opens the start page, or only browsers holding the admin
        secret (`may_create`)."""
        self._tables: dict[int, Table] = {}
        self._dice_of: dict[int, Callable[[], DiceSource]] = {}
        self._players: dict[int, dict[str, str]] = {}
        self._locks: dict[int, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._feed: ChangeFeed | None = None
        self._origin = db.origin_of(engine)
        self.idle_seconds = 60 * idle_minutes
        """A loaded game unwatched this long is dropped from memory (0: never)."""
        self._clock = clock
        self._last_watched: dict[int, float] = {}
        """When each loaded game was last asked for or had someone watching (`clock`'s seconds)."""
        self._sweeper: asyncio.Task[None] | None = None

    # ---- who may make games, who may watch -----------------------------------------------------------------

    def admin_secret(self) -> str:
        """The server's admin secret, made and stored in the database the first time it is asked for."""
        return db.setting(self.engine, ADMIN_SECRET, lambda: secrets.token_urlsafe(24))

    def is_admin_secret(self, token: object) -> bool:
        return isinstance(token, str) and secrets.compare_digest(token.encode(), self.admin_secret().encode())

    def may_create(self, token: object) -> bool:
        """Whether a browser holding `token` (its stored admin secret, or None) may make and import games."""
        return self.creators == "anyone" or self.is_admin_secret(token)

    def watchable(self, game_id: int) -> bool | None:
        """Whether spectators may watch the game; None when there is no such game."""
        return db.game_watchable(self.engine, game_id)

    def set_watchable(self, game_id: int, watchable: bool) -> None:
        """The Soulweaver's switch: turned off, the open watch pages are closed."""
        if not db.set_game_watchable(self.engine, game_id, watchable):
            raise GameError(f"there is no game {game_id}")
        self._seats_changed(game_id)

    def replace_seat(self, game_id: int, key: str) -> Seat:
        """Give a player's seat a new secret link: the old link opens nothing any more, and pages open on it are
        closed. The seat keeps its creatures (they know it by its key)."""
        seat = db.replace_seat_secret(self.engine, game_id, key)
        if seat is None:
            raise GameError("there is no such player seat at this game")
        self._seats_changed(game_id)
        return seat

    # ---- games ----------------------------------------------------------------------------------------------

    def map_files(self) -> list[str]:
        """The encounter maps a new game can start from: the `.json` files directly in `maps/`."""
        return sorted(p.name for p in self.maps.glob("*.json"))

    def use_dice(self, game_id: int, dice: Callable[[], DiceSource]) -> None:
        """Roll a game not loaded yet with `dice` instead of the server's dice (a test game's own seed:
        `vtt.web.test_games`)."""
        self._dice_of[game_id] = dice

    def table(self, game_id: int) -> Table:
        """The live table of a game, loaded the first time (from any thread: `load_table` does it off the event
        loop; two callers asking for one game at once get the same table)."""
        table = self._tables.get(game_id)
        if table is not None:
            self._last_watched[game_id] = self._clock()
            return table
        with self._locks_lock:
            lock = self._locks.setdefault(game_id, threading.Lock())
        with lock:
            table = self._tables.get(game_id)
            if table is None:
                dice = self._dice_of.get(game_id, self.dice)
                table = self._tables[game_id] = Table.load(self.engine, game_id, dice)
            self._last_watched[game_id] = self._clock()
        return table

    async def load_table(self, game_id: int) -> Table:
        """`table`, loading a game not yet loaded in a thread, so that a big game's replay stops no other game."""
        table = self._tables.get(game_id)
        if table is not None:
            self._last_watched[game_id] = self._clock()
            await table.catch_up_if_behind()
            return table
        table = await asyncio.to_thread(self.table, game_id)
        if self._feed is not None:
            await table.catch_up()  # what other processes stored while it loaded, before the feed knew of it
            pointers_of(table).publish = partial(self._publish_pointer, game_id)
        # A loaded game is hundreds of thousands of long-lived objects; left to the garbage collector, each of its
        # full collections walks them all on the event loop (a fifth of a second for one 500-creature game, longer
        # with more), stopping every game. Frozen, they are skipped (still freed when nothing refers to them).
        gc.freeze()
        return table

    def create(
        self, name: str, map_name: str, grid: Grid | None, soulweaver_name: str, *, initial: GameState | None = None
    ) -> NewGame:
        """A new game from a map file (`docs/map-format.md`; a scenario file's starting state too); its creator is
        its Soulweaver. `grid` None keeps the map's own grid. Checks everything before writing. `initial`: the
        map's starting state already read and checked (on `grid`), off the event loop (`vtt.table.imports`)."""
        name = clean_name(name, "the game's name")
        who = clean_name(soulweaver_name, "your name")
        if grid not in (None, "hex", "square"):
            raise GameError("the grid is hex or square")
        if map_name not in self.map_files():
            raise GameError(f"no map {map_name!r} in maps/")
        if db.find_game(self.engine, name) is not None:
            raise GameError(f"there is already a game called {name!r}")
        if initial is not None:
            return self._store(name, who, initial, map_name)
        try:
            initial = load_map(json.loads((self.maps / map_name).read_text()))
        except (MapError, json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise GameError(f"{map_name}: {exc}") from None
        state = initial
        if grid is not None:
            settings = TableSettings.model_validate({**initial.settings.model_dump(), "grid": grid})
            state = initial.model_copy(update={"settings": settings})
        return self._store(name, who, state, map_name)

    def _store(self, name: str, who: str, state: GameState, map_label: str) -> NewGame:
        game_id = db.create_game(self.engine, name, state.model_dump(mode="json"), map_label)
        seat = db.add_seat(self.engine, game_id, who, "soulweaver", key=SOULWEAVER)
        made = NewGame(game_id, seat, db.create_invitation(self.engine, game_id))
        # Its creator opens the new game next: its table is made from the state in hand, as loading it would make
        # it (a game with no log is its starting state), without reading the whole state back and checking it
        # again (for the largest map a tenth of a second in which the parser holds the interpreter, and with it
        # every game). Frozen for the garbage collector as `load_table` does.
        self._tables.setdefault(game_id, Table(name, state, self.engine, game_id, self.dice))
        self._last_watched[game_id] = self._clock()
        gc.freeze()
        return made

    def invited_to(self, invitation: str) -> int | None:
        return db.invitation_game(self.engine, invitation)

    def ensure(self, name: str, state: GameState, map_name: str) -> tuple[int, list[Seat], str | None]:
        """The game called `name`, created from `state` if there is none yet, with a seat for the Soulweaver and
        one for each player its creatures name as controller. Returns the game, its seats and, for a new game, its
        invitation."""
        found = db.find_game(self.engine, name)
        if found is not None:
            if not any(s.role == "soulweaver" for s in self.seats(found[0])):
                db.add_seat(self.engine, found[0], "Soulweaver", "soulweaver", key=SOULWEAVER)
            return found[0], self.seats(found[0]), None
        try:
            game_id = db.create_game(self.engine, name, state.model_dump(mode="json"), map_name)
        except IntegrityError:  # another process starting at the same moment made it first
            return self.ensure(name, state, map_name)
        db.add_seat(self.engine, game_id, "Soulweaver", "soulweaver", key=SOULWEAVER)
        for key in sorted({c.controller for c in state.creatures.values() if c.controller}):
            db.add_seat(self.engine, game_id, key, "player", key=key)
        self._players.pop(game_id, None)
        return game_id, self.seats(game_id), db.create_invitation(self.engine, game_id)

    def join(self, invitation: str, name: str) -> Seat:
        game_id = db.invitation_game(self.engine, invitation)
        if game_id is None:
            raise GameError("this invitation is not valid: it was revoked or mistyped")
        who = clean_name(name, "your name")
        if who.lower() in {SOULWEAVER, "time limit", "spectator"}:
            raise GameError(f"{who!r} is a name the table uses itself; pick another")
        if len(self.players(game_id)) >= SEATS_MAX:
            raise GameError(f"this game is full: it has {SEATS_MAX} players already")
        seat = db.add_seat(self.engine, game_id, who, "player")
        self._seats_changed(game_id)
        return seat

    def _seats_changed(self, game_id: int, elsewhere: bool = False) -> None:
        """Seats, invitations or watching changed: forget what is kept of them and tell the open pages; and, when
        the change was made here, the other processes (`elsewhere`: it was made by one of them)."""
        self._players.pop(game_id, None)
        table = self._tables.get(game_id)
        if table is not None:
            table.seats_changed()
        if not elsewhere:
            db.notify(self.engine, f"seats {game_id} {self._origin}")

    # ---- other processes (PostgreSQL) ----------------------------------------------------------------------

    def listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """On PostgreSQL, hear what other processes store for the games loaded here (`vtt.store.change_feed`)."""
        url = listen_url(self.engine)
        if url is None or self._feed is not None:
            return
        self._feed = ChangeFeed(url, loop, self._heard, self._resync, self._origin, self._tables.__contains__)
        self._feed.start()

    def listening(self, seconds: float) -> bool:
        """Whether this process hears the others (within `seconds`); always False on SQLite."""
        return self._feed is not None and self._feed.wait_listening(seconds)

    def _heard(self, heard: Heard) -> None:
        if heard.origin == self._origin:
            return  # said by this process, which has done it already
        if heard.kind == "seats":
            self._seats_changed(heard.game, elsewhere=True)
            return
        table = self._tables.get(heard.game)
        if table is None:
            return
        if heard.kind == "pointer" and heard.data is not None:
            pointers_of(table).show(heard.data)
        elif heard.kind == "log":
            latency_trace.mark("heard", game=heard.game, seq=heard.seq)
            table.heard_of(heard.seq)

    def _publish_pointer(self, game_id: int, message: dict[str, Any]) -> None:
        """A ruler or ping shown here, for the other processes' pages of the game (a thread sends it: the loop does
        not wait for the database)."""
        text = f"pointer {game_id} {json.dumps(message, separators=(',', ':'))}"
        if len(text.encode()) <= db.NOTIFY_BYTES_MAX:
            asyncio.get_running_loop().run_in_executor(None, db.notify, self.engine, text)

    def _resync(self) -> None:
        """The feed was down: what was said meanwhile is lost, so every loaded game catches up from its log."""
        self._players.clear()
        for table in list(self._tables.values()):
            table.seats_changed()
            table.may_be_behind()

    def seat(self, secret: str) -> Seat | None:
        return db.find_seat(self.engine, secret)

    def seats(self, game_id: int) -> list[Seat]:
        return db.seats(self.engine, game_id)

    def players(self, game_id: int) -> dict[str, str]:
        """Seat key → display name, for the players of a game. Kept until its seats change: every page of the
        game asks (a spectator's view too), and a database read on the event loop waits behind any write."""
        known = self._players.get(game_id)
        if known is None:
            known = self._players[game_id] = {s.key: s.name for s in self.seats(game_id) if s.role == "player"}
        return dict(known)

    def invitations(self, game_id: int) -> list[str]:
        return db.open_invitations(self.engine, game_id)

    def invite(self, game_id: int) -> str:
        if len(self.invitations(game_id)) >= INVITATIONS_MAX:
            raise GameError(f"this game has {INVITATIONS_MAX} open invitations already; revoke one first")
        secret = db.create_invitation(self.engine, game_id)
        self._seats_changed(game_id)
        return secret

    def revoke(self, game_id: int, invitation: str) -> None:
        if not db.revoke_invitation(self.engine, game_id, invitation):
            raise GameError("no such open invitation")
        self._seats_changed(game_id)

    def export_game(self, game_id: int) -> dict[str, Any]:
        """The whole game as one JSON-ready archive (`vtt.table.archive`): its name, map, starting state and log."""
        found = db.game_record(self.engine, game_id)
        if found is None:
            raise GameError(f"there is no game {game_id}")
        name, map_name, initial = found
        picture = db.load_upload(self.engine, game_id, BACKGROUND)
        background = None if picture is None else (background_path(game_id), picture.content_type, picture.data)
        log = db.load_log(self.engine, game_id)
        pictures: list[tuple[str, str, bytes]] = []
        for digest in pictures_named(initial, (r["command"] for r in log)):
            stored = load_picture(self.engine, digest)
            if stored is not None:
                pictures.append((digest, stored[0], stored[1]))
        return export_archive(name, map_name, initial, log, background, pictures)

    def import_game(self, data: object, soulweaver_name: str) -> NewGame:
        """A new game from an archive (decoded JSON, or the file's bytes), its importer its Soulweaver; checked in
        full (replayed) before anything is stored, and stored in one transaction. Blocking, and on the calling
        thread: the web uses `import_archive`."""
        who = clean_name(soulweaver_name, "your name")
        try:
            archive = read_archive(data) if isinstance(data, bytes) else check_archive(data)
        except ArchiveError as exc:
            raise GameError(f"this is not a game archive that can be imported: {exc}") from None
        return self._store_archive(archive, who)

    async def import_archive(self, raw: bytes, soulweaver_name: str) -> NewGame:
        """`import_game` for an uploaded file, off the event loop: the check runs in a process of its own with a
        time budget (`check_archive_offloaded`), the storing in a thread."""
        who = clean_name(soulweaver_name, "your name")
        try:
            archive = await asyncio.to_thread(check_archive_offloaded, raw)
        except ArchiveError as exc:
            raise GameError(f"this is not a game archive that can be imported: {exc}") from None
        return await asyncio.to_thread(self._store_archive, archive, who)

    def _store_archive(self, archive: Archive, who: str) -> NewGame:
        base = clean_name(archive.name, "the game's name")
        name, n = base, 1
        while db.find_game(self.engine, name) is not None:
            n += 1
            suffix = f" ({n})"
            name = base[: NAME_LIMIT - len(suffix)] + suffix
        seats = [(who, "soulweaver", SOULWEAVER)] + [(key, "player", key) for key in archive.players()]
        game_id, stored, invitation = db.store_imported_game(
            self.engine,
            name,
            archive.initial_state.model_dump(mode="json"),
            archive.map,
            archive.log,
            seats,
            archive.background,
            archive.pictures,
        )
        return NewGame(game_id, stored[0], invitation)

    def list(self) -> list[db.GameInfo]:
        return db.list_games(self.engine)

    # ---- games nobody watches ----------------------------------------------------------------------------

    def loaded(self) -> tuple[int, ...]:
        """The games whose table is in memory now."""
        return tuple(sorted(self._tables))

    def unload_idle(self) -> tuple[int, ...]:
        """Drop from memory the games idle (`Table.idle`: nobody watching, nothing under way) for `idle_seconds`
        since they were last asked for or watched; returns them. Each is loaded again from its log (every command
        is stored before anyone sees it) when someone opens it; the other processes' messages about it are
        ignored meanwhile, as for any game not loaded."""
        if self.idle_seconds <= 0:
            return ()
        now = self._clock()
        dropped: list[int] = []
        for game_id, table in list(self._tables.items()):
            if not table.idle:
                self._last_watched[game_id] = now
            elif now - self._last_watched.setdefault(game_id, now) >= self.idle_seconds:
                del self._tables[game_id]
                self._last_watched.pop(game_id, None)
                self._players.pop(game_id, None)
                table.close()
                dropped.append(game_id)
        return tuple(dropped)

    def sweep_idle(self) -> None:
        """On the event loop (at start): look over the loaded games every so often and drop the idle ones."""
        if self.idle_seconds > 0 and self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        every = min(SWEEP_SECONDS_MAX, max(1.0, self.idle_seconds / 4))
        while True:
            await asyncio.sleep(every)
            self.unload_idle()

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._feed is not None:
            self._feed.stop()
        for table in list(self._tables.values()):  # a thread may be adding a new game's table
            table.close()
        db.close_async_appender(self.engine)

    def create_from_map(
        self,
        name: str,
        map_data: dict[str, Any],
        soulweaver_name: str,
        map_label: str,
        *,
        state: GameState | None = None,
    ) -> NewGame:
        """A new game from decoded map file data (format 1: an imported Universal VTT map, say); its creator is its
        Soulweaver. The whole map is checked before anything is written; `state`: `map_data` already checked (off
        the event loop, `vtt.table.imports`), its starting state."""
        name = clean_name(name, "the game's name")
        who = clean_name(soulweaver_name, "your name")
        if db.find_game(self.engine, name) is not None:
            raise GameError(f"there is already a game called {name!r}")
        if state is None:
            try:
                state = load_map(map_data)
            except MapError as exc:
                raise GameError(f"{map_label}: {exc}") from None
        return self._store(name, who, state, map_label)
