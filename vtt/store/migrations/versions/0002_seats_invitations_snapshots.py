"""Shared tables: users, seats (memberships), invitations, snapshots; a game remembers its map; one command
per sequence number in a game.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "user",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "membership",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("user.id"), nullable=False),
        sa.Column("role", sa.String(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("secret", sa.String(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_membership_game_id", "membership", ["game_id"])
    op.create_index("ix_membership_user_id", "membership", ["user_id"])
    op.create_index("ix_membership_secret", "membership", ["secret"], unique=True)
    op.create_index("ux_membership_game_key", "membership", ["game_id", "key"], unique=True)
    op.create_table(
        "invitation",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("secret", sa.String(), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_invitation_game_id", "invitation", ["game_id"])
    op.create_index("ix_invitation_secret", "invitation", ["secret"], unique=True)
    op.create_table(
        "snapshot",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_snapshot_game_id", "snapshot", ["game_id"])
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("map", sa.String(), nullable=False, server_default=""))
    op.create_index("ux_command_game_seq", "command", ["game_id", "seq"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_command_game_seq", "command")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("map")
    op.drop_table("snapshot")
    op.drop_table("invitation")
    op.drop_table("membership")
    op.drop_table("user")
