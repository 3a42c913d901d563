"""A seeded community (tests/mcp/community.json) on SQLite or PostgreSQL, for servers
started as subprocesses. Seeding goes through `coordbot seed`, like an operator's."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.cli import main
from app.persistence.database import Database
from tests.conftest import _off_loop
from tests.mcp.support import FIXTURE, server_env


def _seed(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], fixture: Path = FIXTURE) -> None:
    for name in ("DATABASE_URL", "CHROMA_HOST", "TELEGRAM_BOT_TOKEN", "OPENAI_API_KEY",
                 "MCP_TOKEN", "MCP_ALLOWED_HOSTS"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        if name != "PYTHONPATH":
            monkeypatch.setenv(name, value)
    assert _off_loop(lambda: main(["seed", str(fixture)])) == 0  # asyncio.run off the loop


@pytest.fixture
def sqlite_community(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)
    env = server_env(tmp_path / "data")
    _seed(monkeypatch, env)
    return env


@pytest.fixture
def pg_community(
    pg_database: Database, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    """The run's PostgreSQL database, emptied (pg_database) and seeded."""
    monkeypatch.chdir(tmp_path)
    env = server_env(tmp_path / "data", pg_url)
    _seed(monkeypatch, env)
    return env


@pytest.fixture(params=["sqlite", "postgres"])
def community(request: pytest.FixtureRequest) -> dict[str, str]:
    """The seeded community on each database in turn: the server's environment."""
    name = "sqlite_community" if request.param == "sqlite" else "pg_community"
    env: dict[str, str] = request.getfixturevalue(name)
    return env


@pytest.fixture
def ended_community(
    community: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    """The seeded community plus proposal 5, still open in the database though its
    deadline passed an hour ago: no bot process ran the deadline job that closes it."""
    now = datetime.now(UTC)
    laundry = {
        "id": 5, "proposer": 7100001, "title": "Laundry room hours", "type": "multiple_choice",
        "description": "Should the laundry room open at 7 instead of 8?",
        "options": ["Open at 7", "Keep 8"], "status": "open",
        "created_at": (now - timedelta(days=7)).isoformat(),
        "deadline": (now - timedelta(hours=1)).isoformat(),
        "votes": [{"user": 7100002, "option": "Open at 7"}],
    }  # fmt: skip
    extra = tmp_path / "ended.json"
    extra.write_text(json.dumps({"proposals": [laundry]}), encoding="utf-8")
    _seed(monkeypatch, community, extra)
    return community
