"""Properties of small pure helpers: tallies, message splitting, validation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.closing.results import tally_free_form, tally_multiple_choice
from app.core.proposals import validation
from app.domain.errors import ValidationError
from app.telegram_handlers.formatting import split_message

options_st = st.lists(st.text(min_size=1, max_size=8), min_size=2, max_size=10, unique=True)


@given(options_st, st.data())
def test_tally_counts_every_option_and_names_winners(
    options: list[str], data: st.DataObject
) -> None:
    counts = {o: data.draw(st.integers(0, 50)) for o in options}
    raw, outcome = tally_multiple_choice(options, counts)
    assert [r["option"] for r in raw["options"]] == options
    assert raw["total_votes"] == sum(counts.values())
    if raw["total_votes"]:
        assert abs(sum(r["percent"] for r in raw["options"]) - 100) < 0.5 + 0.05 * len(options)
        best = max(counts.values())
        assert raw["winners"] == [o for o in options if counts[o] == best]
        if len(raw["winners"]) == 1:
            assert outcome == raw["winners"][0]
        else:
            assert outcome == "Tie: " + ", ".join(raw["winners"])
    else:
        assert outcome == "No votes" and raw["winners"] == []


def test_free_form_outcome() -> None:
    assert tally_free_form(0)[1] == "No submissions"
    assert tally_free_form(1)[1] == "1 submission"
    assert tally_free_form(3)[0] == {"type": "free_form", "total_submissions": 3}


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=20000))
def test_split_message_keeps_text_and_limit(text: str) -> None:
    parts = split_message(text, limit=500)
    assert all(len(p) <= 500 for p in parts)
    assert "\n".join(parts).replace("\n", "") == text.replace("\n", "")


def test_split_prefers_line_boundaries() -> None:
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(200))
    parts = split_message(text)
    assert len(parts) == 3 and all(p.startswith("line ") for p in parts)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("Yes, No", ["Yes", "No"]), ("A\nB\nC, D", ["A", "B", "C, D"]), (" a ,, b ", ["a", "b"])],
)
def test_split_options(raw: str, expected: list[str]) -> None:
    assert validation.split_options(raw) == expected


def test_deadline_window() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert validation.check_deadline(now + timedelta(days=365), now)
    for bad in (now, now - timedelta(seconds=1), now + timedelta(days=365, seconds=1)):
        with pytest.raises(ValidationError):
            validation.check_deadline(bad, now)
