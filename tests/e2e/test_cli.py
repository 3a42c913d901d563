"""The `coordbot` command line, run in-process with the real settings path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from app.cli import main

FIXTURE = {
    "users": [
        {"telegram_id": 1001, "username": "alice", "first_name": "Alice"},
        {"telegram_id": 1002, "username": "bob"},
    ],
    "proposals": [
        {
            "id": 7,
            "proposer": 1001,
            "title": "Pizza party",
            "description": "Friday pizza on floor 4",
            "type": "multiple_choice",
            "options": ["Yes", "No"],
            "created_at": "2026-05-01T10:00:00Z",
            "deadline": "2026-05-08T10:00:00Z",
            "status": "closed",
            "channel_id": "-1001234567890",
            "votes": [{"user": 1002, "option": "Yes"}, {"user": 1003, "option": "Yes"}],
        },
        {
            "id": 8,
            "title": "Room ideas",
            "type": "free_form",
            "deadline": "2026-12-08T10:00:00Z",
            "submissions": [{"user": 1002, "text": "Plants"}],
        },
    ],
}


def _rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    engine = create_engine(f"sqlite:///{path / 'data' / 'coordbot.sqlite3'}")
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(text(sql))]
    engine.dispose()
    return rows


def test_run_without_token_explains_in_one_line(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "coordbot: TELEGRAM_BOT_TOKEN is not set: put it in the environment or in .env "
        "(see .env.example)."
    ]


def test_seed_is_idempotent_and_computes_results(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = env / "fixture.json"
    fixture.write_text(json.dumps(FIXTURE))
    assert main(["migrate"]) == 0
    for _ in range(2):
        assert main(["seed", str(fixture), "--json"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[-1] == {"users": 2, "proposals": 2, "votes": 2, "submissions": 1, "documents": 0}
    assert _rows(env, "SELECT count(*) FROM submissions") == [(3,)]
    outcome = _rows(env, "SELECT status, outcome FROM proposals WHERE id = 7")
    assert outcome == [("closed", "Yes")]
    assert _rows(env, "SELECT count(*) FROM users") == [(4,)]  # voters seen only by id too


def test_seed_rejects_bad_fixtures_with_one_line(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = env / "bad.json"
    bad.write_text(json.dumps({"proposals": [{"id": 1, "title": "No type"}]}))
    assert main(["seed", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("coordbot: proposal #1 in the fixture is invalid") and "\n" not in err
    bad.write_text("{not json")
    assert main(["seed", str(bad)]) == 2
    assert "Cannot read fixture" in capsys.readouterr().err


def test_parse_date_json_and_batch(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    now = "2026-11-22T10:00:00Z"
    assert main(["parse-date", "last week", "--now", now, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "phrase": "last week",
        "start": "2026-11-09T00:00:00+00:00",
        "end": "2026-11-16T00:00:00+00:00",
    }
    batch = env / "phrases.txt"
    batch.write_text("yesterday\nbanana\nsince Monday\n")
    assert main(["parse-date", "--batch", str(batch), "--now", now, "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0] == {
        "phrase": "yesterday",
        "start": "2026-11-21T00:00:00+00:00",
        "end": "2026-11-22T00:00:00+00:00",
    }
    assert lines[1] == {"phrase": "banana", "start": None, "end": None}
    assert lines[2]["start"] == "2026-11-16T00:00:00+00:00" and lines[2]["end"] is None
    assert main(["parse-date", "x", "--tz", "Mars/Base"]) == 2
    assert "not an IANA time zone" in capsys.readouterr().err


def test_parse_date_batch_answers_line_n_on_line_n(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Blank lines are answered too (no date), so output line N answers input line N;
    a line ends at a newline only, a Windows one included."""
    batch = env / "phrases.txt"
    batch.write_bytes(b"yesterday\n\n   \r\nbanana\r\nlast\x0cweek\n")
    now = "2026-11-22T10:00:00Z"
    assert main(["parse-date", "--batch", str(batch), "--now", now, "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["phrase"] for x in lines] == ["yesterday", "", "", "banana", "last\x0cweek"]
    assert lines[1] == lines[2] == {"phrase": "", "start": None, "end": None}
    assert lines[0]["start"] == "2026-11-21T00:00:00+00:00"
    assert lines[4]["start"] == "2026-11-09T00:00:00+00:00"


def test_parse_date_batch_that_is_not_utf8_is_one_line_of_error(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = env / "phrases.txt"
    batch.write_bytes(b"\xff\xfel\x00a\x00s\x00t\x00\n")
    assert main(["parse-date", "--batch", str(batch), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"coordbot: {batch} is not UTF-8 text (byte 0 is invalid)\n"


def test_parse_date_reads_the_forms_a_probe_found(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One of each class the parse-date probe found misread, through the command line."""
    batch = env / "phrases.txt"
    batch.write_text(
        "01.12.26\nNov '26\n2day\nday after tmrw\nfrom 2025 onwards\nsince new year\n"
        "two weeks back\nlast 24h\nfriday 5pm\nstart of next year\nfrom 1/11 to 15/11\n"
    )
    now, tz = "2026-11-25T10:00:00Z", "Europe/Berlin"
    assert main(["parse-date", "--batch", str(batch), "--now", now, "--tz", tz, "--json"]) == 0
    got = [(x["start"], x["end"]) for x in map(json.loads, capsys.readouterr().out.splitlines())]
    assert got == [
        ("2026-11-30T23:00:00+00:00", "2026-12-01T23:00:00+00:00"),
        ("2026-10-31T23:00:00+00:00", "2026-11-30T23:00:00+00:00"),
        ("2026-11-24T23:00:00+00:00", "2026-11-25T23:00:00+00:00"),
        ("2026-11-26T23:00:00+00:00", "2026-11-27T23:00:00+00:00"),
        ("2024-12-31T23:00:00+00:00", None),
        ("2025-12-31T23:00:00+00:00", None),
        ("2026-11-10T23:00:00+00:00", "2026-11-11T23:00:00+00:00"),
        ("2026-11-24T10:00:00+00:00", "2026-11-25T10:00:00+00:00"),
        ("2026-11-26T23:00:00+00:00", "2026-11-27T23:00:00+00:00"),  # the whole Friday
        ("2026-12-31T23:00:00+00:00", "2027-01-07T23:00:00+00:00"),
        ("2026-10-31T23:00:00+00:00", "2026-11-15T23:00:00+00:00"),
    ]


@pytest.mark.parametrize(
    ("flags", "start"),
    [
        ([], "2026-11-20T00:00:00+00:00"),  # nearest: two days back, not five ahead
        (["--direction", "nearest"], "2026-11-20T00:00:00+00:00"),
        (["--direction", "past"], "2026-11-20T00:00:00+00:00"),
        (["--direction", "future"], "2026-11-27T00:00:00+00:00"),
    ],
)
def test_parse_date_direction(
    env: Path, capsys: pytest.CaptureFixture[str], flags: list[str], start: str
) -> None:
    now = "2026-11-22T10:00:00Z"
    assert main(["parse-date", "Friday", "--now", now, "--json", *flags]) == 0
    assert json.loads(capsys.readouterr().out)["start"] == start


def test_parse_date_direction_with_batch(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = env / "phrases.txt"
    batch.write_text("Dec 25\nTue the 8th\nFriday Oct 27\n")
    now, tz = "2026-11-22T10:00:00Z", "Europe/Berlin"
    args = ["parse-date", "--batch", str(batch), "--now", now, "--tz", tz, "--json"]
    assert main([*args, "--direction", "past"]) == 0
    past = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert main([*args, "--direction", "future"]) == 0
    future = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [p["start"] for p in past] == [
        "2025-12-24T23:00:00+00:00",
        "2026-09-07T22:00:00+00:00",
        None,  # no Friday Oct 27 near today: ambiguous, so no date
    ]
    assert [f["start"] for f in future] == [
        "2026-12-24T23:00:00+00:00",
        "2026-12-07T23:00:00+00:00",
        None,
    ]
    assert future[0]["end"] == "2026-12-25T23:00:00+00:00"


def test_parse_date_rejects_an_unknown_direction(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["parse-date", "Friday", "--direction", "sideways"])
    assert exited.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
