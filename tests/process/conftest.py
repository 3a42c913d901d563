"""`coordbot run` as a real process against the Bot API stand-in, on SQLite and PostgreSQL.

Every process a test starts is stopped by it (the fixture kills leftovers); ports
are free ones picked at run time; waits are deadlines on observable state.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from app.persistence.database import Database
from tests.conftest import _off_loop
from tests.support.botapi import BotApiStandIn, running_stand_in
from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = -1001234567890
ADMIN = 4242


def http_get(url: str, timeout: float = 5.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def wait_until(condition: Callable[[], Any], timeout: float = 20.0, what: str = "it") -> Any:
    """Poll ``condition`` until it is truthy; the short waits are between polls, not the test."""
    deadline = time.monotonic() + timeout
    delay = 0.01
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(delay)
        delay = min(delay * 2, 0.2)


class BotRun:
    """One `coordbot run` process."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.port = int(env["HTTP_PORT"])
        self._out = log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", "run"],
            env=env,
            cwd=env["DATA_DIR"],
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def get(self, path: str) -> tuple[int, str]:
        return http_get(self.url + path)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_healthy(self, timeout: float = 60.0) -> None:
        def up() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"bot exited {self.proc.returncode}:\n{self.output()}")
            try:
                return self.get("/healthz")[0] == 200
            except OSError:
                return False

        wait_until(up, timeout, "the bot's /healthz")

    def wait_exit(self, timeout: float = 15.0) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(f"bot still running after {timeout}s:\n{self.output()}") from exc

    def terminate(self, timeout: float = 15.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.wait_exit(timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def close(self) -> None:
        self.kill()
        self._out.close()


class Deployment:
    """Starts bots against one stand-in and one database; stops them all at the end."""

    def __init__(self, api: BotApiStandIn, db_url: str, tmp: Path) -> None:
        self.api = api
        self.db_url = db_url
        self.tmp = tmp
        self.runs: list[BotRun] = []

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("OPENAI_", "CHROMA_", "WEBHOOK_", "TELEGRAM_", "HTTP_"))
        }
        data = self.tmp / "data"
        data.mkdir(exist_ok=True)
        env.update(
            PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
            TELEGRAM_BOT_TOKEN=self.api.token,
            TELEGRAM_API_BASE_URL=self.api.base_url,
            DATABASE_URL=self.db_url,
            DATA_DIR=str(data),
            TARGET_CHANNEL_ID=str(CHANNEL),
            ADMIN_TELEGRAM_IDS=str(ADMIN),
            BOT_TIMEZONE="UTC",
            REMINDER_BEFORE_HOURS="0",
            SWEEP_INTERVAL_SECONDS="0.5",
            HTTP_HOST="127.0.0.1",
            HTTP_PORT=str(free_port()),
            EMBEDDING_BACKEND="local",
            PTB_TIMEDELTA="true",
        )
        env.update(extra)
        return env

    def start(self, *, webhook: bool = False, **extra: str) -> BotRun:
        env = self.env(**extra)
        if webhook:
            env.setdefault("WEBHOOK_URL", f"http://127.0.0.1:{env['HTTP_PORT']}/tg/hook")
            env.setdefault("WEBHOOK_SECRET", "s3cret-token")
        run = BotRun(env, self.tmp / f"bot{len(self.runs)}.log")
        self.runs.append(run)
        return run

    def close(self) -> None:
        for run in self.runs:
            run.close()

    # ----- the database, as the test sees it --------------------------------------
    def sql(self, statement: str, **params: Any) -> list[tuple[Any, ...]]:
        async def go() -> list[tuple[Any, ...]]:
            db = Database(_async_url(self.db_url))
            try:
                async with db.transaction() as session:
                    result = await session.execute(text(statement), params)
                    return [tuple(r) for r in result.fetchall()] if result.returns_rows else []
            finally:
                await db.dispose()

        return _off_loop(lambda: asyncio.run(go()))  # type: ignore[return-value]


def _async_url(url: str) -> str:
    return (
        url.replace("sqlite:///", "sqlite+aiosqlite:///", 1)
        if url.startswith("sqlite:///")
        else url
    )


async def _truncate_all(url: str) -> None:
    from tests.conftest import _truncate

    db = Database(url)
    try:
        await _truncate(db)
    finally:
        await db.dispose()


@pytest.fixture
def botapi() -> Iterator[BotApiStandIn]:
    with running_stand_in() as api:
        yield api


@pytest.fixture(params=["sqlite", "postgres"])
def deployment(
    request: pytest.FixtureRequest,
    botapi: BotApiStandIn,
    tmp_path: Path,
) -> Iterator[Deployment]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'data' / 'coordbot.sqlite3'}"
    else:
        url = request.getfixturevalue("pg_url")
        _off_loop(lambda: asyncio.run(_truncate_all(url)))
    dep = Deployment(botapi, url, tmp_path)
    try:
        yield dep
    finally:
        dep.close()


@pytest.fixture
def pg_deployment(botapi: BotApiStandIn, tmp_path: Path, pg_url: str) -> Iterator[Deployment]:
    _off_loop(lambda: asyncio.run(_truncate_all(pg_url)))
    dep = Deployment(botapi, pg_url, tmp_path)
    try:
        yield dep
    finally:
        dep.close()


def create_proposal(
    api: BotApiStandIn, user_id: int, line: str, number: int, pid: int | None = None
) -> dict[str, Any]:
    """/propose in one line (``number``-th for this user), through to the channel post."""
    api.send(user_id, f"/propose {line}")
    api.send(user_id, "3 days")
    api.send(user_id, "/skip")

    def summary() -> dict[str, Any] | None:
        found = [
            m for m in api.messages(user_id) if "Please check your proposal" in m.get("text", "")
        ]
        return found[number - 1] if len(found) >= number else None

    api.press(user_id, "pc:yes", api.wait_for(summary, what="the summary"))
    return api.wait_text(CHANNEL, f"New proposal #{pid or number}")
