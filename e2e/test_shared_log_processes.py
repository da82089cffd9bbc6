"""Commands for one game sent to two real `vtt` processes on one PostgreSQL database, at random and some at the
same moment (the seat API's `POST /commands`): the stored log stays one sequence.

Hypothesis picks the commands, the process each goes to, and which pairs are sent together (two threads). After
each run: the log in the database runs 1..N with no gap, every acknowledged command is stored once at the place its
answer named (no command lost or doubled, no two answers naming one place), and both processes, once they have
heard everything, show the same state and log length as the database holds.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from e2e.conftest import AppServer, stop_checked
from e2e.pg_server import PostgresDatabases
from vtt.store import db

pytestmark = pytest.mark.xdist_group("shared_log_processes")  # one worker: the module starts two servers

MAP: dict[str, Any] = {
    "version": 1,
    "name": "Shared log",
    "description": "Ayla (alice), the Orc and a Goblin.",
    "settings": {"reactions": False, "defense_prompts": "nobody"},
    "board": {"cols": 12, "rows": 9, "walls": [], "objects": []},
    "weapons": [{"id": "sword", "name": "Sword", "damage": 3}],
    "creatures": [
        {
            "id": "ayla",
            "name": "Ayla",
            "anchor": [2, 5],
            "controller": "alice",
            "skills": {"Martial": 3, "Elude": 2},
            "weapons": ["sword"],
            "grip": {"right_arm": "sword"},
        },
        {"id": "orc", "name": "Orc", "anchor": [3, 5], "skills": {"Elude": 1}},
        {"id": "goblin", "name": "Goblin", "anchor": [7, 2]},
    ],
    "commands": [],
}
COMMANDS: list[tuple[str, dict[str, Any]]] = [
    ("soulweaver", {"type": "place", "creature": "goblin", "to": [8, 2]}),
    ("soulweaver", {"type": "place", "creature": "goblin", "to": [7, 2]}),
    ("soulweaver", {"type": "place", "creature": "orc", "to": [3, 5]}),
    ("soulweaver", {"type": "place", "creature": "orc", "to": [5, 5]}),
    ("soulweaver", {"type": "begin"}),
    ("alice", {"type": "strike", "creature": "ayla", "target": "orc", "weapon": "sword"}),
    ("alice", {"type": "chat", "text": "hello"}),
    ("soulweaver", {"type": "undo"}),
    ("soulweaver", {"type": "redo"}),
    ("soulweaver", {"type": "end_turn"}),
]
HEARD_SECONDS = 15.0


class Cluster:
    """Two processes serving the game, and the database's URL."""

    def __init__(self, url: str, servers: list[AppServer]) -> None:
        self.url = url
        self.servers = servers
        self.secrets = {key: servers[0].seat(key).rsplit("/", 1)[1] for key in ("soulweaver", "alice")}
        self.client = httpx.Client(timeout=30)

    def post(self, process: int, key: str, command: dict[str, Any]) -> dict[str, Any]:
        url = f"{self.servers[process].url}/api/seat/{self.secrets[key]}/commands"
        answer: dict[str, Any] = self.client.post(url, json={"command": command}).json()
        return answer

    def state(self, process: int) -> dict[str, Any]:
        url = f"{self.servers[process].url}/api/seat/{self.secrets['soulweaver']}/state"
        view: dict[str, Any] = self.client.get(url).json()
        return view


@pytest.fixture(scope="module")
def cluster(postgres: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    databases = PostgresDatabases(postgres)
    url = databases.new()
    map_path = Path(tmp_path_factory.mktemp("shared-log")) / "shared.json"
    map_path.write_text(json.dumps(MAP))
    servers: list[AppServer] = []
    try:
        for seed in (5, 6):
            args = ["--map", str(map_path), "--database", url, "--seed", str(seed)]
            servers.append(AppServer(module="vtt.cli", args=args).start())
        made = Cluster(url, servers)
        yield made
        made.client.close()
    finally:
        for server in servers:
            stop_checked(server)
        databases.drop_all()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.sampled_from([0, 1]), st.sampled_from(range(len(COMMANDS))), st.booleans()),
        min_size=1,
        max_size=10,
    )
)
def test_commands_sent_to_two_processes_make_one_log(cluster: Cluster, steps: list[tuple[int, int, bool]]) -> None:
    engine = db.open_engine(cluster.url)
    before = len(db.load_log(engine, 1))
    answers: list[tuple[dict[str, Any], dict[str, Any]]] = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        i = 0
        while i < len(steps):
            batch = steps[i : i + 2] if steps[i][2] else steps[i : i + 1]
            futures = [
                (COMMANDS[c][1], pool.submit(cluster.post, process, COMMANDS[c][0], COMMANDS[c][1]))
                for process, c, _ in batch
            ]
            answers += [(command, future.result()) for command, future in futures]
            i += len(batch)
    try:
        stored = db.load_log(engine, 1)
    finally:
        engine.dispose()
    assert [r["seq"] for r in stored] == list(range(1, len(stored) + 1))
    seqs = [answer["seq"] for _, answer in answers if answer["ok"]]
    assert len(seqs) == len(set(seqs)), f"two answers name one place of the log: {seqs}"
    assert sorted(seqs) == list(range(before + 1, len(stored) + 1)), "a stored command nobody was told of"
    for command, answer in answers:
        if answer["ok"]:
            assert stored[answer["seq"] - 1]["command"]["type"] == command["type"]
    deadline = time.monotonic() + HEARD_SECONDS
    while True:
        views = [cluster.state(0), cluster.state(1)]
        if all(v["log_length"] == len(stored) for v in views) and views[0]["state"] == views[1]["state"]:
            break
        assert time.monotonic() < deadline, "the two processes did not come to the same state as the database"
        time.sleep(0.05)
