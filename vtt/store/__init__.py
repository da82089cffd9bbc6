"""Storage: SQLModel tables for games and their append-only command log."""
