"""`coordbot import` feeds the fact graph when a model is configured (OPENAI_API_KEY),
and makes no chat request without one; `coordbot facts find` shows what it read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.e2e.conftest import json_lines
from tests.support.fake_openai import FakeOpenAI

GARDEN = "# Garden\n\nMaria manages the rooftop garden. Tom waters it on Mondays.\n"
READING = {
    "facts": [
        {"subject": "Maria", "predicate": "manages", "object": "rooftop garden",
         "confidence": 0.9},
        {"subject": "Tom", "predicate": "waters", "object": "rooftop garden",
         "confidence": 0.7},
    ]
}  # fmt: skip


def test_imported_documents_feed_the_graph(
    env: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("LLM_MAX_RETRIES", "0")
    fake_openai.content = json.dumps(READING)
    (env / "garden.md").write_text(GARDEN)
    assert main(["import", "garden.md", "--json"]) == 0
    [imported] = json_lines(capsys)
    assert imported["chunks_created"] == 1

    assert main(["facts", "find", "--object", "Rooftop Garden", "--json"]) == 0
    assert json_lines(capsys) == [
        {
            "facts": [
                {"subject": "Maria", "predicate": "manages", "object": "rooftop garden",
                 "confidence": 0.9},
                {"subject": "Tom", "predicate": "waters", "object": "rooftop garden",
                 "confidence": 0.7},
            ],
            "count": 2,
            "limit": 10,
            "query": {"subject": None, "predicate": None, "object": "Rooftop Garden"},
        }
    ]  # fmt: skip
    [request] = fake_openai.chat_requests
    assert "Maria manages the rooftop garden." in request["messages"][-1]["content"]
    assert main(["facts", "ask", "Who manages the rooftop garden?"]) == 0
    assert "Maria manages rooftop garden" in capsys.readouterr().out


def test_without_a_key_an_import_makes_no_chat_request(
    env: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)  # a server, but no key
    fake_openai.content = json.dumps(READING)
    (env / "garden.md").write_text(GARDEN)
    assert main(["import", "garden.md", "--json"]) == 0
    assert main(["facts", "find", "--subject", "Maria", "--json"]) == 0
    assert json_lines(capsys)[-1]["count"] == 0
    assert fake_openai.requests == []
