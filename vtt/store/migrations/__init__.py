"""Alembic migrations of the game database; `vtt.store.db.open_engine` runs them up to the newest."""
