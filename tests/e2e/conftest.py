"""Every CLI test runs in its own folder with the embedded defaults (SQLite, local Chroma)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main

ASK_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ask" / "fixture.json"
ASK_NOW = "2026-11-18T12:00:00Z"


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


@pytest.fixture
def ask_fixture() -> Path:
    """The community `ask` seeds: a test module overrides it to seed its own."""
    return ASK_FIXTURE


@pytest.fixture
def ask(env: Path, capsys: pytest.CaptureFixture[str], ask_fixture: Path) -> Any:
    """`coordbot ask --batch --json` over ``ask_fixture`` (the gold set's community
    unless a module says otherwise), seeded once, at ASK_NOW."""
    assert main(["seed", str(ask_fixture)]) == 0
    capsys.readouterr()

    def run(*questions: str) -> list[dict[str, Any]]:
        batch = env / "questions.txt"
        batch.write_text("\n".join(questions) + "\n")
        assert main(["ask", "--batch", str(batch), "--now", ASK_NOW, "--json"]) == 0
        return json_lines(capsys)

    return run
