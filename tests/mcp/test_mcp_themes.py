"""Free-form themes as an agent reads them (`get_proposal`, `proposal://`) over stdio: a
theme two ideas share is shown, one idea's words never are, and results stored before
the rule show no theme of a single idea either."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from tests.conftest import _off_loop
from tests.mcp.support import server_env, stdio_client, structured

USERS = [{"telegram_id": 7200000 + n, "username": f"member{n}"} for n in range(1, 6)]
IDEAS = {
    1: ["Rātā", "Pōhutukawa", "The Snug"],
    2: ["I think Ana is underpaid compared to Cy"],
    3: ["More plants please", "Green plants everywhere", "The Snug"],
}
LONE_WORDS = {"rātā", "pōhutukawa", "snug", "ana", "underpaid", "compared", "cy", "green"}


def proposal(pid: int, ideas: list[str]) -> dict[str, Any]:
    return {
        "id": pid, "proposer": 7200001, "title": f"Ideas {pid}", "description": "Name it",
        "type": "free_form", "status": "closed",
        "created_at": "2026-04-01T10:00:00Z", "deadline": "2026-04-15T10:00:00Z",
        "submissions": [{"user": 7200001 + i, "text": text} for i, text in enumerate(ideas)],
    }  # fmt: skip


@pytest.fixture
def ideas_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Three closed free-form proposals seeded by `coordbot seed` on SQLite."""
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_URL", "CHROMA_HOST", "TELEGRAM_BOT_TOKEN", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    env = server_env(tmp_path / "data")
    monkeypatch.setenv("DATA_DIR", env["DATA_DIR"])
    fixture = tmp_path / "ideas.json"
    data = {"users": USERS, "proposals": [proposal(pid, ideas) for pid, ideas in IDEAS.items()]}
    fixture.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert _off_loop(lambda: main(["seed", str(fixture)])) == 0
    return env


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.lower()))


async def results(env: dict[str, str], cwd: Path) -> tuple[dict[int, Any], str]:
    """Each proposal's result from get_proposal, and everything the client received."""
    seen: list[str] = []
    found: dict[int, Any] = {}
    async with stdio_client(env, cwd) as client:
        for pid in IDEAS:
            reply = await client.call_tool("get_proposal", {"proposal_id": pid})
            found[pid] = structured(reply)["result"]
            seen.append(json.dumps(reply.structured_content, ensure_ascii=False))
            seen += [getattr(block, "text", "") for block in reply.content]
            page = await client.read_resource(f"proposal://{pid}")
            seen.append(page.contents[0].text)  # type: ignore[union-attr]
    return found, "\n".join(seen)


async def test_agents_see_shared_themes_and_never_one_ideas_words(
    ideas_env: dict[str, str], tmp_path: Path
) -> None:
    found, seen = await results(ideas_env, tmp_path)

    assert found[1]["themes"] == [{"theme": "other ideas", "count": 3}]
    assert found[2]["themes"] == [{"theme": "other ideas", "count": 1}]
    assert found[3]["themes"] == [
        {"theme": "plants", "count": 2},
        {"theme": "other ideas", "count": 1},
    ]
    assert not words_of(seen) & LONE_WORDS


async def test_results_stored_before_the_rule_show_no_theme_of_one_idea(
    ideas_env: dict[str, str], tmp_path: Path
) -> None:
    old = {"type": "free_form", "total_submissions": 3,
           "themes": [{"theme": "rātā", "count": 1}, {"theme": "pōhutukawa", "count": 1},
                      {"theme": "snug", "count": 1}]}  # fmt: skip
    with sqlite3.connect(Path(ideas_env["DATA_DIR"]) / "coordbot.sqlite3") as db:
        db.execute("UPDATE proposals SET raw_results = ? WHERE id = 1", (json.dumps(old),))

    found, seen = await results(ideas_env, tmp_path)

    assert found[1]["themes"] == [{"theme": "other ideas", "count": 3}]
    assert not words_of(seen) & LONE_WORDS
