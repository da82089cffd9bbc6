"""Start-up: open the database, make sure the starting encounter's game exists, print its links (and, when only
admins make games, the admin link), serve."""

from __future__ import annotations

import json
import os
import secrets
import sys
from pathlib import Path

from vtt.rules.dice import RandomDice
from vtt.rules.mapfile import MapError, load_map, map_name
from vtt.store.db import open_engine
from vtt.store.single_process import SecondProcess, claim
from vtt.table.registry import IDLE_MINUTES, Creators, Games

MAPS = Path(os.environ.get("VTT_MAPS") or Path(__file__).resolve().parents[2] / "maps")
"""The encounter maps the New game form offers (`VTT_MAPS` names another folder: the benchmarks use it)."""
SECRET_FILE = Path(".vtt-secret")


def storage_secret() -> str:
    """The key that signs browsers' cookies: `VTT_STORAGE_SECRET`, else one kept in `.vtt-secret` here."""
    if os.environ.get("VTT_STORAGE_SECRET"):
        return os.environ["VTT_STORAGE_SECRET"]
    if not SECRET_FILE.exists():
        SECRET_FILE.write_text(secrets.token_urlsafe(32))
        SECRET_FILE.chmod(0o600)
    return SECRET_FILE.read_text().strip()


def start(
    host: str,
    port: int,
    database_url: str,
    map_file: Path,
    game: str | None,
    seed: int | None = None,
    creators: Creators = "admin",
    watchable: bool = False,
    idle_minutes: float = IDLE_MINUTES,
    test_games: bool = False,
) -> int:
    try:
        data = json.loads(map_file.read_text())
        initial = load_map(data)
    except FileNotFoundError:
        print(f"error: no map file {map_file}", file=sys.stderr)
        return 2
    except (MapError, json.JSONDecodeError) as exc:
        print(f"error: {map_file}: {exc}", file=sys.stderr)
        return 2
    engine = open_engine(database_url)
    try:
        claim(engine)
    except SecondProcess as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    games = Games(engine, MAPS, dice=lambda: RandomDice(seed), creators=creators, idle_minutes=idle_minutes)
    name = game or map_name(data) or map_file.stem
    game_id, seats, invitation = games.ensure(name, initial, map_file.name)
    if watchable:
        games.set_watchable(game_id, True)
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    print(f"Soulshards VTT: {base}/  (game {name!r}, #{game_id})")
    if creators == "admin":
        print(f"  admin: {base}/admin/{games.admin_secret()}   <- open it to make and import games in that browser")
    else:
        print("  anyone who opens the start page may make and import games (--creators anyone)")
    for seat in seats:
        print(f"  seat {seat.key}: {base}/play/{seat.secret}")
    for inv in [invitation] if invitation else games.invitations(game_id):
        print(f"  invitation: {base}/join/{inv}")
    if test_games:
        print(f"  test games: programs on this machine may make games at {base}/test-games (not for play)")
    sys.stdout.flush()
    from vtt.web.app import run

    if test_games:
        from nicegui import app

        from vtt.web.test_games import make_test_games_router

        app.include_router(make_test_games_router(games))

    run(games, host, port, storage_secret())
    return 0
