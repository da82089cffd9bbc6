"""Fixtures shared by the storage tests: a fresh database on SQLite and, where PostgreSQL is available, on
PostgreSQL too (see `e2e/pg_server.py`)."""

from e2e.pg_server import database_url, postgres, postgres_databases

__all__ = ["database_url", "postgres", "postgres_databases"]
