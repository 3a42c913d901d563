"""/ask reads a community's own names whole when they hold a filter word: "Open
Tuesday" is an event, "open data" and "open source" are things, none a status; "new
members" are people, not a creation date. Which pairs are names is read from the
community's own texts (app/core/ask/phrases.py); the same words outside such a name
still filter.

The community is the project house of tests/fixtures/communities/housing, which holds an
"Open Tuesday" every week, and the civic-tech group of tests/fixtures/communities/civic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

COMMUNITIES = Path(__file__).resolve().parents[1] / "fixtures" / "communities"
NO_FILTER = {"status": None, "proposal_type": None, "date_field": None, "start": None, "end": None}


@pytest.fixture
def ask_fixture() -> Path:
    return COMMUNITIES / "housing" / "fixture.json"


def test_a_name_holding_a_filter_word_is_read_as_a_topic(ask: Any) -> None:
    since, when = ask("since when do open tuesdays happen?", "When is the Open Tuesday?")
    for out in (since, when):
        assert out["filters"] == NO_FILTER  # neither "open" nor "tuesday" filters
    assert "open tuesdays" in since["content_keywords"]
    assert "Open Tuesday" in when["content_keywords"]
    assert "open proposals" not in since["answer"]


def test_the_same_words_outside_a_name_still_filter(ask: Any) -> None:
    open_now, on_tuesday = ask("which proposals are open?", "anything created on tuesday?")
    assert open_now["filters"]["status"] == "open"
    assert on_tuesday["filters"]["date_field"] == "creation"
    assert on_tuesday["filters"]["start"] is not None
