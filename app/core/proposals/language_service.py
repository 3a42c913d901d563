"""Which language a member reads: the one chosen with /language, else their app's.

Choices are few and read on every update, so they are kept in memory and reloaded from
the database at most every ``refresh_seconds``: a choice made on one replica reaches
the others within that time, and an update costs no query.
"""

from __future__ import annotations

import asyncio

from app.domain.clock import Clock
from app.domain.models import User
from app.persistence.database import Database
from app.persistence.repositories.users import UserRepository


class LanguageService:
    def __init__(self, db: Database, clock: Clock, refresh_seconds: float = 30.0) -> None:
        self.db = db
        self.clock = clock
        self.refresh_seconds = refresh_seconds
        self._chosen: dict[int, str] = {}
        self._loaded_at: float | None = None
        self._lock = asyncio.Lock()

    async def chosen(self, telegram_id: int) -> str | None:
        """The language this member chose, or None (then their app's language applies)."""
        now = self.clock.now().timestamp()
        if self._loaded_at is None or now - self._loaded_at >= self.refresh_seconds:
            async with self._lock:
                if self._loaded_at is None or now - self._loaded_at >= self.refresh_seconds:
                    async with self.db.transaction() as session:
                        self._chosen = await UserRepository(session).chosen_languages()
                    self._loaded_at = now
        return self._chosen.get(telegram_id)

    async def choose(self, user: User, language: str | None) -> None:
        """Remember ``language`` for ``user``; None goes back to the app's language."""
        now = self.clock.now()
        async with self.db.transaction() as session:
            users = UserRepository(session)
            await users.upsert(user, now)
            await users.set_language(user.telegram_id, language, now)
        if language is None:
            self._chosen.pop(user.telegram_id, None)
        else:
            self._chosen[user.telegram_id] = language
