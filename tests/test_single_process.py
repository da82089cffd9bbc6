"""One process to an SQLite database: a second one on the same file is refused with what to do instead."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine

from vtt.store.db import open_engine
from vtt.store.single_process import SecondProcess, claim, lock_path
from vtt.web.start import start

DEMO = Path(__file__).resolve().parents[1] / "maps" / "demo.json"


def test_a_second_claim_on_one_sqlite_file_is_refused_naming_postgresql(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'game.sqlite'}"
    claim(open_engine(url))
    with pytest.raises(SecondProcess, match="PostgreSQL"):
        claim(open_engine(url))


def test_another_sqlite_file_is_not_held(tmp_path: Path) -> None:
    claim(open_engine(f"sqlite:///{tmp_path / 'one.sqlite'}"))
    claim(open_engine(f"sqlite:///{tmp_path / 'two.sqlite'}"))


def test_postgresql_and_in_memory_databases_take_no_file_lock() -> None:
    assert lock_path(create_engine("postgresql+psycopg://vtt@localhost/vtt")) is None
    assert lock_path(open_engine("sqlite://")) is None


def test_the_server_does_not_start_on_a_database_another_process_serves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'game.sqlite'}"
    claim(open_engine(url))
    assert start("127.0.0.1", 0, url, DEMO, None) == 2
    assert "another vtt process is already serving" in capsys.readouterr().err
