"""`coordbot ask`: the /ask pipeline from the command line, JSON as in CLI.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.e2e.conftest import json_lines

NOW = "2026-11-18T12:00:00Z"
FIXTURE = {
    "users": [
        {"telegram_id": 1001, "username": "alice", "first_name": "Alice"},
        {"telegram_id": 1002, "username": "bob", "first_name": "Bob"},
    ],
    "proposals": [
        {"id": 1, "proposer": 1001, "title": "Pizza party", "description": "Friday pizza on floor 4",
         "type": "multiple_choice", "options": ["Yes", "No"], "created_at": "2026-11-10T10:00:00Z",
         "deadline": "2026-11-14T10:00:00Z", "status": "closed",
         "votes": [{"user": 1002, "option": "Yes"}]},
        {"id": 2, "proposer": 1002, "title": "Apply for a city grant",
         "description": "Request funding from the city culture fund for the summer festival",
         "type": "multiple_choice", "options": ["Yes", "No"], "created_at": "2026-11-17T10:00:00Z",
         "deadline": "2026-11-25T10:00:00Z", "status": "open"},
        {"id": 3, "proposer": 1001, "title": "Bike parking", "description": "Turn two car spots into bike parking",
         "type": "free_form", "created_at": "2026-10-03T10:00:00Z", "deadline": "2026-11-28T10:00:00Z",
         "status": "open", "submissions": [{"user": 1002, "text": "Secret idea text"}]},
    ],
    "documents": [
        {"title": "Parking policy", "category": "policy",
         "content": "Members may park in the courtyard on weekdays. Each member gets one parking "
                    "permit per year. Visitors register their car at the front desk."},
    ],
    "facts": [
        {"subject": "Community Garden", "predicate": "managed by", "object": "Alice"},
        {"subject": "Alice", "predicate": "member of", "object": "Green Committee"},
        {"subject": "Green Committee", "predicate": "meets in", "object": "Room 3"},
    ],
}  # fmt: skip


@pytest.fixture
def seeded(env: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    fixture = env / "fixture.json"
    fixture.write_text(json.dumps(FIXTURE))
    assert main(["seed", str(fixture)]) == 0
    capsys.readouterr()
    return env


def test_ask_json_has_the_cli_shape(seeded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    question = "which open proposals about funding were created this month?"
    assert main(["ask", question, "--now", NOW, "--json"]) == 0
    [out] = json_lines(capsys)
    assert out == {
        "question": question,
        "intent": "query_proposals",
        "content_keywords": "funding",
        "filters": {
            "status": "open",
            "proposal_type": None,
            "date_field": "creation",
            "start": "2026-11-01T00:00:00+00:00",
            "end": "2026-12-01T00:00:00+00:00",
        },
        "proposals": [2],
        "documents": [],
        "facts": [],
        "answer": out["answer"],
    }
    assert out["answer"].startswith(
        "I found 1 open proposal about “funding” created between 1 Nov 2026 and 30 Nov 2026."
    )
    assert "#2 Apply for a city grant" in out["answer"]


def test_batch_answers_every_line_and_reports_bad_ones(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = seeded / "questions.txt"
    batch.write_text(
        "how does parking work?\n\nwhere does the committee that Alice is a member of meet?\n"
        + "x" * 501
        + "\nwhat did I propose?\n"
    )
    assert main(["ask", "--batch", str(batch), "--now", NOW, "--user", "1001", "--json"]) == 0
    docs, blank, facts, too_long, mine = json_lines(capsys)  # answer N is line N
    assert blank["question"] == "" and blank["error_type"] == "ValidationError"
    assert docs["intent"] == "query_general_docs" and docs["documents"][0]["similarity"] > 0.3
    assert docs["answer"].startswith("According to “Parking policy”: Members may park")
    assert facts["intent"] == "query_facts"
    assert facts["facts"][:2] == [
        {"subject": "Alice", "predicate": "member of", "object": "Green Committee"},
        {"subject": "Green Committee", "predicate": "meets in", "object": "Room 3"},
    ]
    assert facts["answer"].startswith(
        "Alice member of Green Committee. Green Committee meets in Room 3. "
        "So the answer is: Room 3."
    )
    assert too_long["error"] is True and too_long["error_type"] == "ValidationError"
    assert mine["proposals"] == [3, 1] or mine["proposals"] == [1, 3]
    assert "Secret idea text" not in json.dumps([docs, facts, mine])


def test_batch_that_is_not_utf8_is_one_line_of_error(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = seeded / "questions.txt"
    batch.write_bytes(b"what did we decide in caf\xe9?\n")
    assert main(["ask", "--batch", str(batch), "--now", NOW, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"coordbot: {batch} is not UTF-8 text (byte 25 is invalid)\n"


def test_plain_output_is_the_bot_answer_text(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ask", "who", "proposed", "the", "pizza", "party?", "--now", NOW]) == 0
    out = capsys.readouterr().out
    assert out.startswith("I found 1 proposal about “pizza party”.\n\n#1 Pizza party (closed")
    assert "proposed by @alice" in out
    assert main(["ask", "--now", NOW]) == 2
    assert "give a QUESTION or --batch FILE" in capsys.readouterr().err
    assert main(["ask", "#99", "what?", "--now", NOW]) == 2
    assert "There is no proposal #99." in capsys.readouterr().err


def test_the_stronger_source_answers_a_bare_topic(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = seeded / "questions.txt"
    batch.write_text(
        "when is the pizza party?\nwhere does the green committee meet?\n"
        "show me proposals from last month\n"
    )
    assert main(["ask", "--batch", str(batch), "--now", NOW, "--json"]) == 0
    pizza, committee, october = json_lines(capsys)
    assert pizza["intent"] == "query_proposals"
    assert committee["intent"] == "query_facts"
    assert committee["facts"][0] == {
        "subject": "Green Committee", "predicate": "meets in", "object": "Room 3"
    }  # fmt: skip
    assert october["filters"]["start"] == "2026-10-01T00:00:00+00:00"
    assert october["filters"]["end"] == "2026-11-01T00:00:00+00:00"
    assert october["proposals"] == [3]
