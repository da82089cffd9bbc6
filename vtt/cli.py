"""`vtt`: start the table, or run a scenario file through the rules core."""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

from vtt.table.registry import CREATORS, IDLE_MINUTES

DEFAULT_MAP = Path(__file__).resolve().parents[1] / "maps" / "demo.json"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="vtt", description="Soulshards: Rising Legends virtual tabletop")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: 0.0.0.0)")
    p.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("VTT_PORT", 8080)),
        help="port to listen on (default: $VTT_PORT or 8080)",
    )
    p.add_argument(
        "--database",
        metavar="URL",
        default=os.environ.get("DATABASE_URL"),
        help="SQLAlchemy database URL (default: $DATABASE_URL, else a SQLite file vtt.sqlite in the working folder)",
    )
    p.add_argument("--map", metavar="FILE", type=Path, default=DEFAULT_MAP, help="encounter file to start from")
    p.add_argument("--game", default=None, help="name of the game in the database (default: the map's name)")
    p.add_argument(
        "--seed",
        type=int,
        default=int(os.environ["VTT_SEED"]) if os.environ.get("VTT_SEED") else None,
        help="seed the dice, for a repeatable demo or test (default: $VTT_SEED, else unseeded)",
    )
    p.add_argument(
        "--creators",
        choices=CREATORS,
        default=os.environ.get("VTT_CREATORS") or "admin",
        help="who may make and import games: 'admin' (browsers that opened the admin link printed at start-up) or "
        "'anyone' who opens the start page (default: $VTT_CREATORS, else admin)",
    )
    p.add_argument(
        "--watchable",
        action="store_true",
        help="let spectators watch the start-up game (its Soulweaver can turn it off; every other game starts "
        "unwatched)",
    )
    p.add_argument(
        "--idle-minutes",
        type=float,
        default=None,
        metavar="MINUTES",
        help=f"drop a game from memory when nobody has watched it this long; it is loaded again from the database "
        f"when opened (default: $VTT_IDLE_MINUTES, else {IDLE_MINUTES:g}; 0 keeps every game loaded)",
    )
    p.add_argument(
        "--test-games",
        action="store_true",
        help="for the browser tests only: let programs on this machine make fresh games with dice seeded their own "
        "way (POST /test-games, see vtt/web/test_games.py); never use it for play",
    )
    sub = p.add_subparsers(dest="command")
    sc = sub.add_parser("scenario", help="run a scenario file through the rules and print its events as JSON")
    sc.add_argument("file")
    sc.add_argument("--pretty", action="store_true")
    sc.add_argument("--text", action="store_true")
    sc.add_argument("--check", action="store_true")
    sc.add_argument("--menu", metavar="CREATURE")
    sc.add_argument("--after", metavar="N")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.creators not in CREATORS:  # from $VTT_CREATORS: argparse checks only what is typed
        parser.error(f"VTT_CREATORS must be one of {', '.join(CREATORS)}, not {args.creators!r}")
    if args.command == "scenario":
        from vtt.rules.__main__ import main as scenario_main

        flags = [args.file] + [f"--{name}" for name in ("pretty", "text", "check") if getattr(args, name)]
        flags += [
            x
            for name in ("menu", "after")
            if getattr(args, name) is not None
            for x in (f"--{name}", getattr(args, name))
        ]
        return scenario_main(flags)
    idle = idle_minutes(args.idle_minutes)
    if idle is None:
        parser.error("the idle minutes (--idle-minutes or VTT_IDLE_MINUTES) must be a number, 0 or more")
    from vtt.web.start import start

    database = args.database or "sqlite:///vtt.sqlite"
    return start(
        args.host,
        args.port,
        database,
        args.map,
        args.game,
        args.seed,
        args.creators,
        args.watchable,
        idle,
        test_games=args.test_games,
    )


def idle_minutes(given: float | None) -> float | None:
    """The minutes a game nobody watches stays loaded: `given` (`--idle-minutes`), else `$VTT_IDLE_MINUTES`, else
    `IDLE_MINUTES`; None when that is not a number of 0 or more."""
    if given is None:
        text = os.environ.get("VTT_IDLE_MINUTES", "").strip()
        if not text:
            return IDLE_MINUTES
        try:
            given = float(text)
        except ValueError:
            return None
    return given if math.isfinite(given) and given >= 0 else None


if __name__ == "__main__":
    sys.exit(main())
