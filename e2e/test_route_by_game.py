"""The seat API behind nginx is routed by game (`deploy/nginx-vtt.conf`): every client of a game that connects to
`/api/game/<game>/seat/<secret>/events` reaches one process. Routing is only for speed: when that process dies
(SIGKILL), the game's clients reconnect through nginx to the other process, which serves the same game from the
shared log, and the database's log is what the clients were answered."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from e2e.conftest import AppServer, stop_checked
from e2e.nginx_proxy import UPSTREAM_HEADER, NginxProxy, nginx_binary
from e2e.pg_server import PostgresDatabases
from e2e.test_scale_out import MAP
from vtt.store import db

pytestmark = pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed here (.ci/run installs it)")

GAME = 1
"""The game the servers make from the map in a new database."""
CONNECTIONS = 4


def _server(map_path: Path, url: str, seed: int) -> AppServer:
    args = ["--map", str(map_path), "--database", url, "--seed", str(seed)]
    return AppServer(module="vtt.cli", args=args, env={"VTT_STORAGE_SECRET": "route-by-game"})


def _open(stack: ExitStack, proxy: NginxProxy, secret: str) -> tuple[ClientConnection, str, dict[str, Any]]:
    """A websocket of the seat through nginx (closed with `stack`), the process it reached, and its first message
    (the state)."""
    url = f"{proxy.url.replace('http://', 'ws://')}/api/game/{GAME}/seat/{secret}/events"
    ws = stack.enter_context(connect(url, open_timeout=30))
    assert ws.response is not None
    first: dict[str, Any] = json.loads(ws.recv(timeout=30))
    assert first["kind"] == "state"
    return ws, ws.response.headers[UPSTREAM_HEADER], first


def _play(ws: ClientConnection, ident: str, command: dict[str, Any]) -> dict[str, Any]:
    """Send a command and return its outcome (the change it caused comes before it)."""
    ws.send(json.dumps({"id": ident, "command": command}))
    while (message := json.loads(ws.recv(timeout=30)))["kind"] != "outcome":
        pass
    answer: dict[str, Any] = message
    return answer


def _change(ws: ClientConnection, seq: int) -> None:
    while (message := json.loads(ws.recv(timeout=30)))["kind"] != "change" or message["seq"] != seq:
        pass


def test_a_games_clients_reach_one_process_and_move_together_when_it_dies(tmp_path: Path, postgres: str) -> None:
    databases = PostgresDatabases(postgres)
    url = databases.new()
    map_path = tmp_path / "two.json"
    map_path.write_text(json.dumps(MAP))
    servers = [_server(map_path, url, 3), _server(map_path, url, 4)]
    try:
        for server in servers:
            server.start()
        soulweaver = servers[0].seat("soulweaver").rsplit("/", 1)[1]
        alice = servers[0].seat("alice").rsplit("/", 1)[1]
        with NginxProxy([s.port for s in servers]) as proxy:
            with ExitStack() as before:
                opened = [_open(before, proxy, secret) for secret in [soulweaver, alice] * (CONNECTIONS // 2)]
                reached = {upstream for _, upstream, _ in opened}
                assert len(reached) == 1, f"the game's clients reached {reached}"
                gm, watcher = opened[0][0], opened[1][0]
                outcome = _play(gm, "drag", {"type": "place", "creature": "orc", "to": [3, 4]})
                assert (outcome["ok"], outcome["seq"]) == (True, 1)
                _change(watcher, 1)
                port = int(reached.pop().rsplit(":", 1)[1])
                dead = next(s for s in servers if s.port == port)
                assert dead.process is not None
                dead.process.kill()
                dead.process.wait(timeout=10)

            with ExitStack() as after:
                gm, upstream, first = _open(after, proxy, soulweaver)
                assert not upstream.endswith(f":{port}")
                assert first["log_length"] == 1
                assert first["state"]["creatures"]["orc"]["anchor"] == [3, 4]
                watcher, _, _ = _open(after, proxy, alice)
                outcome = _play(gm, "back", {"type": "place", "creature": "orc", "to": [7, 4]})
                assert (outcome["ok"], outcome["seq"]) == (True, 2)
                _change(watcher, 2)
            engine = db.open_engine(url)
            try:
                stored = db.load_log(engine, GAME)
            finally:
                engine.dispose()
            assert [(r["seq"], r["command"]["to"]) for r in stored] == [(1, [3, 4]), (2, [7, 4])]
    finally:
        for server in servers:
            if server.process is not None and server.process.poll() is None:
                stop_checked(server)
            else:
                server.stop()
        databases.drop_all()
