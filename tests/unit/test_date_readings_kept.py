"""Nothing that read as a date before the forms of issue 25 reads differently now.

Recorded with `coordbot parse-date --batch` (and ``parse_deadline`` in four languages)
before those forms were added, over every string of the tests and 250 phrases more:
every phrase that gave a range or a deadline then, with what it gave in four zones and
three directions. Two readings changed on purpose, and the file holds the new ones: "the
end of" a week, a month or a year, now its last day (README, "Asking questions"; 19
phrases), and "within 2 weeks", "within 3 days", "within a week", now the window from
now (back from now when the question looks back) where they read as one day two weeks
off. Three more changed on purpose later: "beginning of the year" is its first seven
days, as "beginning of the month" is (the edges of every period follow one rule); "2day"
is today, no longer two days off (chat shorthand with a digit is spelt out first); and
"December 1st at 6pm" is the day "December 1st" is (a time of day after a day reads as
that day), no longer a year back when the nearest is next week. A new form may give a
range to a phrase that had none, never a different range to one that had one.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from app.domain.errors import DateParseError
from app.nlp.date_ranges import parse_date_range
from app.nlp.dates import parse_deadline

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "dates"
RANGES = [json.loads(x) for x in (FOLDER / "ranges_read_before.jsonl").read_text().splitlines()]
DEADLINES = [
    json.loads(x) for x in (FOLDER / "deadlines_read_before.jsonl").read_text().splitlines()
]


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def test_the_record_is_large() -> None:
    assert len(RANGES) > 350 and sum(len(r["readings"]) for r in RANGES) > 4500
    assert len(DEADLINES) > 1200 and sum(len(r["readings"]) for r in DEADLINES) > 2500


@pytest.mark.parametrize("record", RANGES, ids=lambda r: r["phrase"][:40])
def test_a_range_read_before_reads_the_same(record: dict) -> None:  # type: ignore[type-arg]
    got = {}
    for key in record["readings"]:
        tz, now, direction = key.split(" ")
        found = parse_date_range(record["phrase"], datetime.fromisoformat(now), tz, direction)  # type: ignore[arg-type]
        got[key] = [_iso(found.start), _iso(found.end)] if found else [None, None]
    assert got == record["readings"]


@pytest.mark.parametrize("record", DEADLINES, ids=lambda r: f"{r['language']}-{r['phrase'][:40]}")
def test_a_deadline_read_before_reads_the_same(record: dict) -> None:  # type: ignore[type-arg]
    got = {}
    for key in record["readings"]:
        tz, now = key.split(" ")
        try:
            found = parse_deadline(
                record["phrase"], datetime.fromisoformat(now), tz, record["language"]
            )
            got[key] = found.isoformat()
        except DateParseError:
            got[key] = None
    assert got == record["readings"]
