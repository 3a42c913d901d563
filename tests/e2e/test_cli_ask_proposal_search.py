"""/ask's proposal search end to end (`coordbot ask`): a member
named in lower case is the proposer, and a topic no proposal names in its words is found
by meaning, inside the filters, with the fitted cut deciding how many are listed.

The fixture (tests/fixtures/proposal_search/fixture.json) is written for this test; the
cut was fitted on the development communities.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "proposal_search" / "fixture.json"
SOFIA = {1, 4, 6}  # her proposals; 1 and 4 are open


@pytest.fixture
def ask_fixture() -> Path:
    return FIXTURE


def test_a_lowercase_member_is_the_proposer(ask: Any) -> None:
    open_ones, all_of_hers, leading, possessive = ask(
        "anything open from sofia", "proposals by sofia", "sofia open proposals", "sofia's polls"
    )
    assert open_ones["intent"] == "query_proposals"
    assert open_ones["filters"]["status"] == "open"
    assert set(open_ones["proposals"]) == {1, 4}
    assert "Sofia" in open_ones["answer"] or "sofia" in open_ones["answer"]
    assert set(all_of_hers["proposals"]) == SOFIA
    # a name leading the proposals asked for is the proposer too, not a topic word
    assert leading["filters"]["status"] == "open"
    assert set(leading["proposals"]) == {1, 4}
    assert set(possessive["proposals"]) <= SOFIA and possessive["proposals"]


def test_a_topic_in_other_words(ask: Any) -> None:
    (leave,) = ask("any proposals about time off or leave?")
    assert leave["intent"] == "query_proposals"
    found = leave["proposals"]
    assert found and found[0] == 1  # the one that says "leave" comes first
    assert not {4, 5, 6, 7} & set(found)  # laptops, desks, paint, bikes are not time off


def test_the_filters_hold_inside_the_topic(ask: Any) -> None:
    (closed,) = ask("closed proposals about office furniture or desks")
    assert closed["filters"]["status"] == "closed"
    assert closed["proposals"] and set(closed["proposals"]) <= {2, 5, 6}
    assert 5 in closed["proposals"]
