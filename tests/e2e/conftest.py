"""Every CLI test runs in its own folder with the embedded defaults (SQLite, local Chroma)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    for name in ("DATABASE_URL", "CHROMA_HOST", "TELEGRAM_BOT_TOKEN", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def json_lines(capsys: pytest.CaptureFixture[str]) -> list[dict]:  # type: ignore[type-arg]
    """What the command printed on stdout, one JSON object per line."""
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]
