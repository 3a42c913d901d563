"""Users: registered on first contact, refreshed when their names change."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.models import User
from app.persistence.models import UserRow
from app.persistence.repositories.base import dialect_insert, prebuilt

_USERS = cast(Table, UserRow.__table__)


def _build_upsert(insert: Any) -> Any:
    stmt = insert(_USERS)
    excluded = stmt.excluded
    changed = or_(
        _USERS.c.username.is_distinct_from(excluded.username),
        _USERS.c.first_name.is_distinct_from(excluded.first_name),
        _USERS.c.last_name.is_distinct_from(excluded.last_name),
    )
    return stmt.on_conflict_do_update(
        index_elements=[_USERS.c.telegram_id],
        set_={
            "username": excluded.username,
            "first_name": excluded.first_name,
            "last_name": excluded.last_name,
            "updated_at": excluded.updated_at,
        },
        where=changed,
    )


def to_user(row: UserRow) -> User:
    return User(
        telegram_id=row.telegram_id,
        username=row.username,
        first_name=row.first_name,
        last_name=row.last_name,
    )


class UserRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def upsert(self, user: User, now: datetime) -> None:
        await self.session.execute(
            prebuilt(self.session, "users.upsert", _build_upsert),
            {
                "telegram_id": user.telegram_id,
                "username": user.username,
                "first_name": user.first_name,
                "last_name": user.last_name,
                "created_at": now,
                "updated_at": now,
            },
        )

    async def ensure_exists(self, telegram_id: int, now: datetime) -> None:
        """Make a placeholder row for an id seen only by number (fixtures, CLI)."""
        stmt = (
            dialect_insert(self.session, UserRow)
            .values(telegram_id=telegram_id, created_at=now, updated_at=now)
            .on_conflict_do_nothing(index_elements=[UserRow.telegram_id])
        )
        await self.session.execute(stmt)

    async def get(self, telegram_id: int) -> User | None:
        row = await self.session.get(UserRow, telegram_id)
        return to_user(row) if row else None

    async def find_by_username(self, username: str) -> User | None:
        name = username.lstrip("@").lower()
        row = await self.session.scalar(
            select(UserRow).where(func.lower(UserRow.username) == name).limit(1)
        )
        return to_user(row) if row else None

    async def find_by_name(self, name: str) -> list[User]:
        """People a question may mean by ``name``: the username, else the first name
        (case-insensitive). Several people can share a first name."""
        wanted = name.lstrip("@").lower()
        rows = (
            await self.session.scalars(
                select(UserRow).where(func.lower(UserRow.username) == wanted).limit(5)
            )
        ).all()
        if not rows:
            rows = (
                await self.session.scalars(
                    select(UserRow).where(func.lower(UserRow.first_name) == wanted).limit(5)
                )
            ).all()
        return [to_user(r) for r in rows]
