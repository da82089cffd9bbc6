"""Start-up: read the encounter file, open the database, rebuild or create the game, serve it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from vtt.rules.dice import RandomDice
from vtt.rules.scenario import ScenarioError, load_scenario
from vtt.store.db import open_engine
from vtt.table.table import Table


def start(host: str, port: int, database_url: str, map_file: Path, game: str | None, seed: int | None = None) -> int:
    try:
        scenario = load_scenario(json.loads(map_file.read_text()))
    except FileNotFoundError:
        print(f"error: no map file {map_file}", file=sys.stderr)
        return 2
    except (ScenarioError, json.JSONDecodeError) as exc:
        print(f"error: {map_file}: {exc}", file=sys.stderr)
        return 2
    engine = open_engine(database_url)
    table = Table.open(engine, game or scenario.name, scenario.state, dice=lambda: RandomDice(seed))
    from vtt.web.app import run

    run(table, host, port)
    return 0
