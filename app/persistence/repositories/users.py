"""Users: registered on first contact, refreshed when their names change."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.models import User
from app.persistence.models import UserRow
from app.persistence.repositories.base import dialect_insert, prebuilt

_USERS = cast(Table, UserRow.__table__)
_NAME_PARTS = re.compile(r"[._\-\d]+")  # what separates a username's parts: "sofia_r"


def _fold(text: str) -> str:
    """``text`` without accents ("sofía" -> "sofia")."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _build_upsert(insert: Any) -> Any:
    stmt = insert(_USERS)
    excluded = stmt.excluded
    changed = or_(
        _USERS.c.username.is_distinct_from(excluded.username),
        _USERS.c.first_name.is_distinct_from(excluded.first_name),
        _USERS.c.last_name.is_distinct_from(excluded.last_name),
        _USERS.c.language_code.is_distinct_from(excluded.language_code),
    )
    return stmt.on_conflict_do_update(
        index_elements=[_USERS.c.telegram_id],
        set_={
            "username": excluded.username,
            "first_name": excluded.first_name,
            "last_name": excluded.last_name,
            # A member seen without a code (a channel, an old client) keeps the last one.
            "language_code": func.coalesce(excluded.language_code, _USERS.c.language_code),
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
        language=row.language,
        language_code=row.language_code,
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
                "language_code": user.language_code,
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

    async def set_language(self, telegram_id: int, language: str | None, now: datetime) -> None:
        await self.session.execute(
            update(UserRow)
            .where(UserRow.telegram_id == telegram_id)
            .values(language=language, updated_at=now)
        )

    async def chosen_languages(self) -> dict[int, str]:
        """Every member who chose a language with /language, and the language."""
        rows = await self.session.execute(
            select(UserRow.telegram_id, UserRow.language).where(UserRow.language.is_not(None))
        )
        return {telegram_id: language for telegram_id, language in rows if language}

    async def names(self, limit: int) -> list[str]:
        """Members' usernames and first and last names, at most ``limit`` members (the
        words /ask must never correct as typos)."""
        rows = await self.session.execute(
            select(UserRow.username, UserRow.first_name, UserRow.last_name).limit(limit)
        )
        return [name for row in rows.all() for name in row if name]

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
        (case-insensitive), else a first name that differs only by its accents ("sofia"
        for "Sofía"), else a username whose first part it is ("sofia" for "sofia_r").
        Several people can share a first name."""
        wanted = name.lstrip("@").lower()
        if not wanted:
            return []
        for column in (UserRow.username, UserRow.first_name):
            rows = (
                await self.session.scalars(
                    select(UserRow).where(func.lower(column) == wanted).limit(5)
                )
            ).all()
            if rows:
                return [to_user(r) for r in rows]
        bare = _fold(wanted)
        near = (
            await self.session.scalars(
                select(UserRow)
                .where(
                    or_(
                        func.length(UserRow.first_name) == len(wanted),
                        func.lower(UserRow.username).startswith(wanted, autoescape=True),
                    )
                )
                .limit(200)
            )
        ).all()
        accents = [r for r in near if _fold((r.first_name or "").lower()) == bare]
        parts = [r for r in near if _NAME_PARTS.split((r.username or "").lower())[0] == wanted]
        return [to_user(r) for r in (accents or parts)[:5]]
