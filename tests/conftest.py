"""Shared fixtures: real databases (SQLite file, PostgreSQL), a frozen clock, the bot."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.domain.clock import FrozenClock
from app.persistence import knowledge_models  # noqa: F401  (tables for TRUNCATE)
from app.persistence.database import Base, Database
from app.persistence.migrations import upgrade_head

os.environ.setdefault("PTB_TIMEDELTA", "true")
pytest_plugins = ["tests.support.fake_openai"]

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
NOW = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)  # a Wednesday


def _off_loop(fn: Callable[[], object]) -> object:
    """Run blocking set-up (which may call asyncio.run) on a thread of its own."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn).result()


RUN_DB = f"coordbot_test_{os.getpid()}"


async def _pg_admin(statement: str) -> None:
    """CREATE/DROP DATABASE (outside a transaction) through the configured server."""
    engine = create_async_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(statement))
    finally:
        await engine.dispose()


def _pg_available() -> str | None:
    async def probe() -> None:
        engine = create_async_engine(PG_URL)
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        finally:
            await engine.dispose()

    try:
        _off_loop(lambda: asyncio.run(probe()))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this run, migrated from scratch, dropped at the end.

    Its own database, so parallel runs on one server never reset each other's tables.
    In CI a missing server fails the run.
    """
    problem = _pg_available()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_URL} is unreachable in CI: {problem}")
        pytest.skip(f"PostgreSQL unreachable: {problem}")
    _off_loop(lambda: asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{RUN_DB}" WITH (FORCE)')))
    _off_loop(lambda: asyncio.run(_pg_admin(f'CREATE DATABASE "{RUN_DB}"')))
    url = make_url(PG_URL).set(database=RUN_DB).render_as_string(hide_password=False)
    _off_loop(lambda: upgrade_head(url))
    yield url
    _off_loop(lambda: asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{RUN_DB}" WITH (FORCE)')))


@pytest.fixture
def fresh_pg(pg_url: str) -> Iterator[str]:
    """An empty PostgreSQL database of this run's, for a test that migrates it itself."""
    name = f"{RUN_DB}_fresh"
    _off_loop(lambda: asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))
    _off_loop(lambda: asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"')))
    yield make_url(pg_url).set(database=name).render_as_string(hide_password=False)
    _off_loop(lambda: asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    _off_loop(lambda: upgrade_head(f"sqlite+aiosqlite:///{path}"))
    return path


async def _truncate(db: Database) -> None:
    names = ", ".join(t.name for t in reversed(Base.metadata.sorted_tables))
    async with db.engine.begin() as conn:
        await conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))


@pytest.fixture
async def pg_database(pg_url: str) -> AsyncIterator[Database]:
    db = Database(pg_url, pool_size=20)
    await _truncate(db)
    yield db
    await db.dispose()


@pytest.fixture
async def sqlite_database(sqlite_template: Path, tmp_path: Path) -> AsyncIterator[Database]:
    path = tmp_path / "coordbot.sqlite3"
    shutil.copy(sqlite_template, path)
    db = Database(f"sqlite+aiosqlite:///{path}")
    yield db
    await db.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest) -> Database:
    """Each test that takes this runs on both databases."""
    name = "sqlite_database" if request.param == "sqlite" else "pg_database"
    db: Database = request.getfixturevalue(name)
    return db


@pytest.fixture
def clock() -> Iterator[FrozenClock]:
    yield FrozenClock(NOW)


class BotHarness:
    """The real Application with an offline Bot API; tests talk to it like users do."""

    def __init__(self, application: object, request: object, clock: FrozenClock) -> None:
        from tests.support.telegram import RecordingRequest, UpdateFactory

        self.app = application
        self.request: RecordingRequest = request  # type: ignore[assignment]
        self.clock = clock
        self.updates = UpdateFactory(self.app.bot)  # type: ignore[attr-defined]
        self.unexpected: list[BaseException] = []

    @property
    def services(self):  # type: ignore[no-untyped-def]
        return self.app.bot_data.container  # type: ignore[attr-defined]

    def speaks(self, language_code: str, user_id: int = 1001) -> None:
        """From now on ``user_id``'s Telegram app reports ``language_code``."""
        self.updates.language_codes[user_id] = language_code

    async def send(self, text: str, user_id: int = 1001, **kwargs: object) -> list[str]:
        """Send a DM (or a group message with chat_type=...); returns the bot's texts."""
        before = len(self.request.calls)
        await self.app.process_update(self.updates.message(text, user_id=user_id, **kwargs))  # type: ignore[attr-defined]
        return self._texts_since(before)

    async def press(self, data: str, user_id: int = 1001, **kwargs: object) -> list[str]:
        before = len(self.request.calls)
        await self.app.process_update(self.updates.callback(data, user_id=user_id, **kwargs))  # type: ignore[attr-defined]
        return self._texts_since(before)

    def _texts_since(self, index: int) -> list[str]:
        out = []
        for call in self.request.calls[index:]:
            if call.failed:
                continue
            p = call.params
            if call.method in ("sendMessage", "editMessageText"):
                out.append(p["text"])
            elif call.method == "sendPhoto" and p.get("caption"):
                out.append(p["caption"])
            elif call.method == "answerCallbackQuery" and p.get("text"):
                out.append(p["text"])
        return out

    async def run_jobs(self, prefix: str) -> int:
        """Run the queued jobs whose name starts with ``prefix`` (the JobQueue is not started
        in tests, so time never passes by itself); returns how many ran."""
        jobs = [j for j in self.app.job_queue.jobs() if (j.name or "").startswith(prefix)]  # type: ignore[attr-defined]
        for job in jobs:
            await job.run(self.app)
            if job.name != "sweep":
                job.schedule_removal()
        return len(jobs)

    def last_markup(self, method: str = "sendMessage") -> dict:  # type: ignore[type-arg]
        return self.request.last(method).params.get("reply_markup") or {}

    def buttons(self, method: str = "sendMessage") -> list[dict]:  # type: ignore[type-arg]
        rows = self.last_markup(method).get("inline_keyboard", [])
        return [button for row in rows for button in row]


CHANNEL_ID = "-1001234567890"
ADMIN_ID = 4242


def make_settings(**overrides: object):  # type: ignore[no-untyped-def]
    from app.config import Settings

    values: dict[str, object] = dict(
        telegram_bot_token="123456:TEST-TOKEN",
        target_channel_id=CHANNEL_ID,
        admin_telegram_ids=frozenset({ADMIN_ID}),
        bot_timezone="UTC",
        openai_api_key=None,  # the offline backend, unless a test asks for a model
    )
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


async def _bot(
    database: Database, clock: FrozenClock, data_dir: Path, **settings: object
) -> AsyncIterator[BotHarness]:
    from app.domain.errors import CoordBotError
    from app.telegram_handlers.bot import build_application
    from tests.support.telegram import RecordingRequest

    request = RecordingRequest()
    application = build_application(
        make_settings(data_dir=data_dir, **settings),
        request=request,
        clock=clock,
        database=database,
        rate_limit=False,
    )
    harness = BotHarness(application, request, clock)

    async def watch(update: object, context: object) -> None:
        error = context.error  # type: ignore[attr-defined]
        if not isinstance(error, CoordBotError):
            harness.unexpected.append(error)

    application.add_error_handler(watch)
    await application.initialize()
    await application.post_init(application)  # type: ignore[misc]  # what run_polling does
    try:
        yield harness
    finally:
        await application.shutdown()
        await application.post_shutdown(application)  # type: ignore[misc]
    assert harness.unexpected == [], f"handlers raised: {harness.unexpected!r}"


@pytest.fixture
async def bot(
    sqlite_database: Database, clock: FrozenClock, tmp_path: Path
) -> AsyncIterator[BotHarness]:
    async for harness in _bot(sqlite_database, clock, tmp_path / "data"):
        yield harness


@pytest.fixture
async def pg_bot(
    pg_database: Database, clock: FrozenClock, tmp_path: Path
) -> AsyncIterator[BotHarness]:
    async for harness in _bot(pg_database, clock, tmp_path / "data"):
        yield harness
