"""/ask reads a word of state inside a name the community writes as part of the name,
not as a filter (`coordbot ask`).

The festival development community (tests/fixtures/communities/festival) writes "live
captions" in its pages and in a proposal. "Live" is also a word for open proposals, so
"who proposed the live captions on the stages" searched the open ones only, and the
captions proposal, closed, was not found.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "communities" / "festival" / "fixture.json"
)
CAPTIONS = 5


@pytest.fixture
def ask_fixture() -> Path:
    return FIXTURE


def test_a_name_with_a_word_of_state_is_no_filter(ask: Any) -> None:
    named, both = ask(
        "who proposed the live captions on the stages", "any live proposals about live captions?"
    )
    assert named["intent"] == "query_proposals"
    assert named["filters"]["status"] is None
    assert CAPTIONS in named["proposals"]
    assert "Live captions on stages" in named["answer"]
    # the word of state outside the name still asks for open proposals
    assert both["filters"]["status"] == "open"
    assert CAPTIONS not in both["proposals"]
