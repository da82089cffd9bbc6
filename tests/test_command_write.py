"""The command log's write path (`db.append_command`): a command is stored whole or not at all, a place of the log
is taken once, and on SQLite a committed command outlives a server killed right after the commit (WAL with
synchronous=NORMAL: no wait for the disk on each move, nothing lost when the process dies)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlalchemy import text

from vtt.store import db

ROOT = Path(__file__).resolve().parents[1]
PLACE = {"type": "place", "creature": "orc", "to": [4, 2]}
EVENTS = [{"kind": "place", "text": "The Soulweaver places Orc at (4, 2).", "data": {"creature": "orc"}}]


def test_a_command_is_stored_with_its_sender_faces_events_and_a_snapshot_after_it(database_url: str) -> None:
    engine = db.open_engine(database_url)
    game = db.create_game(engine, "g", {"start": True})
    db.append_command(engine, game, 1, "soulweaver", PLACE, [3, 6], EVENTS)
    assert db.snapshot_seqs(engine, game) == []
    db.store_snapshot(engine, game, 1, {"after": 1})
    (row,) = db.load_log(engine, game)
    assert (row["seq"], row["sender"], row["command"], row["faces"], row["events"]) == (
        1,
        "soulweaver",
        PLACE,
        [3, 6],
        EVENTS,
    )
    assert row["time"].startswith("20") and db.snapshot_seqs(engine, game) == [1]
    assert db.snapshot_state(engine, game, 1) == {"after": 1}
    engine.dispose()


def test_a_taken_place_of_the_log_is_refused_and_changes_nothing(database_url: str) -> None:
    engine = db.open_engine(database_url)
    game = db.create_game(engine, "g", {})
    db.append_command(engine, game, 1, "soulweaver", PLACE, [], EVENTS)
    with pytest.raises(db.SeqTaken):
        db.append_command(engine, game, 1, "alice", {"type": "dash", "creature": "ayla"}, [5], [])
    assert [(r["seq"], r["sender"]) for r in db.load_log(engine, game)] == [(1, "soulweaver")]
    engine.dispose()


def test_sqlite_keeps_its_log_ahead_and_does_not_wait_for_the_disk_on_each_commit(tmp_path: Path) -> None:
    engine = db.open_engine(f"sqlite:///{tmp_path}/game.sqlite")
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
    engine.dispose()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_command_committed_just_before_the_server_is_killed_is_kept(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/game.sqlite"
    engine = db.open_engine(url)
    game = db.create_game(engine, "g", {})
    engine.dispose()
    script = textwrap.dedent(
        f"""
        import os, signal
        from vtt.store import db
        engine = db.open_engine({url!r})
        for seq in range(1, 4):
            db.append_command(engine, {game}, seq, "soulweaver", {PLACE!r}, [seq], {EVENTS!r})
        os.kill(os.getpid(), signal.SIGKILL)  # no clean shutdown, no checkpoint, no close
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()
    engine = db.open_engine(url)
    assert [(r["seq"], r["faces"]) for r in db.load_log(engine, game)] == [(1, [1]), (2, [2]), (3, [3])]
    engine.dispose()
