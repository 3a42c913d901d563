"""`coordbot import`, `query` and `reindex` with the JSON shapes of the CLI contract."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from app.cli import main
from tests.e2e.conftest import json_lines


def test_import_query_reindex(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parking = env / "parking.md"
    parking.write_text("# Parking\nResidents park in the underground garage with a permit.\n")
    pets = env / "pets.txt"
    pets.write_text("Dogs must be kept on a lead in the garden and the hallways.")
    assert main(["import", str(parking), str(pets), "--category", "policy", "--json"]) == 0
    imported = json_lines(capsys)
    assert [set(d) for d in imported] == [
        {"document_id", "title", "chunks_created", "created_at"}
    ] * 2
    assert [d["title"] for d in imported] == ["parking", "pets"]
    uuid.UUID(imported[0]["document_id"])

    assert main(["query", "where can I park?", "--top-k", "1", "--json"]) == 0
    [found] = json_lines(capsys)
    assert found["total"] == 1
    hit = found["results"][0]
    assert set(hit) == {"chunk_id", "content", "similarity", "document"}
    assert hit["document"] == {"id": imported[0]["document_id"], "title": "parking",
                               "category": "policy"}  # fmt: skip

    assert main(["query", "dogs", "--category", "none-such", "--json"]) == 0
    assert json_lines(capsys) == [{"results": [], "total": 0}]
    assert main(["reindex", "--json"]) == 0
    assert json_lines(capsys) == [{"proposals_indexed": 0, "chunks_indexed": 2, "facts_indexed": 0}]


def test_validation_errors_exit_2_with_json(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = env / "a.txt"
    doc.write_text("some text")
    assert main(["import", str(doc), "--chunk-size", "50", "--json"]) == 2
    out = capsys.readouterr()
    assert json.loads(out.out) == {
        "error": True,
        "error_type": "ValidationError",
        "message": "chunk_size must be between 100 and 10000",
    }
    assert main(["query", "x", "--top-k", "0", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["message"] == "top_k must be between 1 and 100"
    assert main(["import", str(env / "missing.txt"), "--json"]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["message"]
    exe = env / "tool.exe"
    exe.write_bytes(b"MZ")
    assert main(["import", str(exe), "--json"]) == 2
    assert "can't read .exe files" in json.loads(capsys.readouterr().out)["message"]
