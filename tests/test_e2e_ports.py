"""The browser tests' server start (`e2e/conftest.py`): a server counts as started only once it listens itself, and a
port another program took first makes it start again on another port."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from e2e import conftest
from e2e.conftest import AppServer, accepts, listens

HOLD_A_PORT = """
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen()
print(s.getsockname()[1], flush=True)
sys.stdin.read()
"""

LISTEN_ON_VTT_PORT = """
import os, socket, time
s = socket.socket()
s.bind(("127.0.0.1", int(os.environ["VTT_PORT"])))
s.listen()
time.sleep(60)
"""


def test_listens_names_only_the_process_that_holds_the_port() -> None:
    with socket.socket() as mine:
        mine.bind(("127.0.0.1", 0))
        mine.listen()
        port = mine.getsockname()[1]
        other = subprocess.Popen([sys.executable, "-c", HOLD_A_PORT], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        try:
            assert other.stdout is not None
            others_port = int(other.stdout.readline())
            assert listens(os.getpid(), port)
            assert not listens(os.getpid(), others_port)
            assert listens(other.pid, others_port)
        finally:
            other.kill()
            other.wait()


def test_a_server_whose_port_was_taken_starts_on_another(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    script = tmp_path / "listen.py"
    script.write_text(LISTEN_ON_VTT_PORT)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        taken_port = taken.getsockname()[1]
        picks = iter([taken_port])
        free_port = conftest.free_port
        monkeypatch.setattr(conftest, "free_port", lambda: next(picks, None) or free_port())
        with AppServer(script) as server:
            assert server.process is not None
            assert server.port != taken_port
            assert listens(server.process.pid, server.port)
        assert "already in use" not in server.output().lower()  # the output is the last start's


def test_accepts_says_whether_anything_listens_on_a_port() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        assert not accepts(port)  # bound, not listening
        held.listen()
        assert accepts(port)
