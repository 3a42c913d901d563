"""/ask lists a proposal whose title holds every word of the topic (`coordbot ask`),
however far its meaning falls from a one-word topic.

The civic development community (tests/fixtures/communities/civic) has two proposals
with "website" in their titles, an accessibility audit (closed) and a review rule for
pull requests (open). The fitted cut reads meaning first, and the one word "website"
sits far from either in meaning: before titles counted, "website proposals" found none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "communities" / "civic" / "fixture.json"
)
AUDIT, REVIEWS = 31, 46  # "Accessibility audit for the website", "... website pull requests"


@pytest.fixture
def ask_fixture() -> Path:
    return FIXTURE


def test_a_title_that_names_the_topic_is_listed(ask: Any) -> None:
    listed, closed, about = ask(
        "website proposals", "closed website proposals", "proposals about the website"
    )
    assert listed["intent"] == "query_proposals"
    assert {AUDIT, REVIEWS} <= set(listed["proposals"])
    assert "website" in listed["answer"]
    # the filter still holds: the open one is not closed
    assert closed["filters"]["status"] == "closed"
    assert AUDIT in closed["proposals"] and REVIEWS not in closed["proposals"]
    assert {AUDIT, REVIEWS} <= set(about["proposals"])
