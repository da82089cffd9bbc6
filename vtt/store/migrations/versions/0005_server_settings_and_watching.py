"""Server settings (the admin secret that lets a browser make and import games) and, per game, whether it may be
watched (`/watch/<game>`; off until its Soulweaver turns it on).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_setting",
        sa.Column("key", sa.String(), primary_key=True),
        sa.Column("value", sa.String(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    # A plain ADD COLUMN (SQLite has it): a batch copy of `game` would trip over the tables that refer to it.
    op.add_column("game", sa.Column("watchable", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("watchable")
    op.drop_table("server_setting")
