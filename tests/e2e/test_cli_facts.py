"""`coordbot facts add|find|ask|explore|import`, and facts from `coordbot seed`,
with the JSON shapes of the CLI contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.e2e.conftest import json_lines


def test_add_find_and_ask(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["facts", "add", "Einstein", "invented", "relativity"]) == 0
    assert capsys.readouterr().out == "stored: Einstein invented relativity (confidence 1)\n"
    assert main(["facts", "add", "einstein", "is", "scientist", "--confidence", "0.8",
                 "--json"]) == 0  # fmt: skip
    assert json_lines(capsys) == [
        {"subject": "einstein", "predicate": "is", "object": "scientist", "confidence": 0.8,
         "source": "manual", "created": True}
    ]  # fmt: skip

    assert main(["facts", "find", "--subject", "EINSTEIN", "--limit", "1", "--json"]) == 0
    assert json_lines(capsys) == [
        {
            "facts": [{"subject": "Einstein", "predicate": "invented", "object": "relativity",
                       "confidence": 1.0}],
            "count": 1,
            "limit": 1,
            "query": {"subject": "EINSTEIN", "predicate": None, "object": None},
        }
    ]  # fmt: skip
    assert main(["facts", "find", "--object", "scientist"]) == 0
    assert capsys.readouterr().out.startswith("Found 1 fact:\n1. einstein is scientist\n")

    assert main(["facts", "ask", "What did Einstein invent?", "--context", "physics",
                 "--max-results", "1", "--json"]) == 0  # fmt: skip
    assert json_lines(capsys) == [
        {
            "question": "What did Einstein invent?",
            "context": "physics",
            "key_terms": ["Einstein", "invent"],
            "relevant_facts": [{"subject": "Einstein", "predicate": "invented",
                                "object": "relativity", "relevance": 0.6}],
            "answer": "Based on the knowledge graph:\n\nEinstein invented relativity",
        }
    ]  # fmt: skip
    assert main(["facts", "ask", "Who is Newton?"]) == 0
    assert capsys.readouterr().out.startswith("No relevant information found for your question\n")

    assert main(["facts", "explore", "relativity", "--json"]) == 0
    [explored] = json_lines(capsys)
    assert explored["count"] == 2 and explored["max_depth"] == 2


def test_bad_input_exits_2_with_one_line(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["facts", "find", "--json"]) == 2
    out = capsys.readouterr()
    assert json.loads(out.out) == {
        "error": True,
        "error_type": "ValidationError",
        "message": "At least one of subject, predicate, or object must be specified in the query",
    }
    assert out.err.strip().startswith("coordbot: At least one of subject")
    assert main(["facts", "ask", "   "]) == 2
    assert capsys.readouterr().err.strip() == "coordbot: Question cannot be empty"
    assert main(["facts", "add", "x", "is", "y", "--confidence", "3"]) == 2
    assert "Confidence must be a number between 0 and 1" in capsys.readouterr().err
    assert main(["facts", "import", str(env / "missing.tsv")]) == 2
    assert capsys.readouterr().err.startswith("coordbot: cannot read")


def test_import_tsv(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tsv = env / "facts.tsv"
    lines = [f"Gadget {i}\tinvented by\tEdison\t0.5" for i in range(120)]
    tsv.write_text("# subject, predicate, object, confidence\n" + "\n".join(lines)
                   + "\nbad line\nGadget 1\tinvented by\tEdison\n")  # fmt: skip
    assert main(["facts", "import", str(tsv), "--batch-size", "50", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == {
        "lines": 123,
        "imported": 121,
        "skipped": 1,
        "errors": [
            "line 122: expected 3 or 4 tab-separated fields (subject, predicate, object[, "
            "confidence]), got 1"
        ],
    }
    assert "importing facts" not in out.err  # no progress bar when stderr is not a terminal
    assert main(["facts", "find", "--object", "edison", "--limit", "200", "--json"]) == 0
    [found] = json_lines(capsys)
    assert found["count"] == 100 and found["limit"] == 100
    assert found["facts"][1]["confidence"] == 1.0  # the later line won


def test_seed_loads_fixture_facts_and_proposal_facts(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = env / "fixture.json"
    fixture.write_text(
        json.dumps(
            {
                "users": [{"telegram_id": 1001, "username": "alice"}],
                "proposals": [
                    {"id": 7, "proposer": 1001, "title": "Pizza party", "type": "multiple_choice",
                     "options": ["Yes", "No"], "deadline": "2026-05-08T10:00:00Z",
                     "status": "closed", "votes": [{"user": 1002, "option": "Yes"}]}
                ],
                "facts": [{"subject": "Einstein", "predicate": "invented",
                           "object": "relativity", "confidence": 0.9}],
            }
        )
    )  # fmt: skip
    for _ in range(2):
        assert main(["seed", str(fixture)]) == 0
    capsys.readouterr()
    assert main(["facts", "ask", "who proposed the pizza party?", "--json"]) == 0
    [asked] = json_lines(capsys)
    assert asked["answer"] == "Based on the knowledge graph:\n\nalice proposed Pizza party"
    assert main(["facts", "find", "--subject", "pizza party", "--predicate", "has outcome",
                 "--json"]) == 0  # fmt: skip
    assert [f["object"] for f in json_lines(capsys)[0]["facts"]] == ["Yes"]
    assert main(["facts", "find", "--subject", "einstein", "--json"]) == 0
    assert json_lines(capsys)[0]["facts"][0]["confidence"] == 0.9
