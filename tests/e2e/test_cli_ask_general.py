"""/ask on a community it was never fitted on: words normalised once, the sentence that
answers quoted with its document named, and "nothing found" when nothing answers.

The fixture (tests/fixtures/general/fixture.json) is written for this test alone; the
decision and the sentence scorer were fitted on other communities. It is the only pipeline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.core.ask.answers import NO_ANSWER

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "general" / "fixture.json"


@pytest.fixture
def ask_fixture() -> Path:
    return FIXTURE


def test_the_sentence_that_answers_is_quoted(ask: Any) -> None:
    age, size, wifi = ask(
        "what's the minimum age to become a member?",
        "how big are the storage boxes?",
        "how do visitors connect to the wifi",
    )
    assert "aged 18 or over" in age["answer"] and "“Membership rules”" in age["answer"]
    assert "35 litres" in size["answer"] and "“Storage room”" in size["answer"]
    # "wifi" finds the page that writes "Wi-Fi"
    assert "Courtyard-Guest" in wifi["answer"] and "“Internet access”" in wifi["answer"]
    for out in (age, size, wifi):
        assert out["intent"] == "query_general_docs" and out["documents"]
        lead = out["answer"].split("\n\n")[0]
        assert len(lead) <= 360  # one or two sentences before the sources, not a page


def test_nothing_found_when_nothing_answers(ask: Any) -> None:
    (travel,) = ask("what is our policy on time travel?")
    assert travel["answer"].startswith(NO_ANSWER)
    assert travel["documents"] == [] and travel["proposals"] == []


def test_proposals_and_facts_still_answer(ask: Any) -> None:
    listing, fact = ask("which proposals are open?", "who leads the garden group?")
    assert listing["intent"] == "query_proposals" and listing["proposals"] == [1]
    assert fact["intent"] == "query_facts" and "Ana" in fact["answer"]


def test_facts_named_by_initials_and_reached_in_two_hops(ask: Any) -> None:
    short, chain = ask(
        "when does the RAB meet?",  # the Residents Advisory Board, by its initials
        "who chairs the board that the garden group reports to?",
    )
    assert short["intent"] == "query_facts"
    assert "the last Friday of the month" in short["answer"]
    assert chain["intent"] == "query_facts"
    assert "So the answer is: Carmen" in chain["answer"]
    assert "I followed the connections from “Garden group”" in chain["answer"]


def test_a_question_about_how_votes_work_is_read_from_its_form(ask: Any) -> None:
    """ "votes" names proposals in one question and a rule in another: the fitted reading
    of the question's form tells them apart, not the word."""
    rule, blank, listing = ask(
        "once a vote gets called, how many days do people have to cast it?",
        "do blank votes count towards anything",
        "have we voted on the washing machine?",
    )
    for out in (rule, blank):
        assert out["intent"] == "query_general_docs" and out["proposals"] == []
        assert "“House meetings”" in out["answer"]
    assert "seven days" in rule["answer"]
    assert "quorum" in blank["answer"]
    assert listing["intent"] == "query_proposals" and listing["proposals"] == [1]


def test_a_question_about_one_proposals_content_is_answered_from_it(ask: Any) -> None:
    """A member asks about one proposal's content, not for a list: its form reads as a
    document question, and only the proposal search's strong match says where the answer
    is. The development communities' questions seldom ask this way, so a refit of the
    decision can forget it at the same accuracy (one did in session 29): this keeps it."""
    cost, decided = ask(
        "what does the washing machine proposal cost",
        "what did we decide about the washing machine?",
    )
    for out in (cost, decided):
        assert out["intent"] == "query_proposals" and out["proposals"] == [1]
        assert "#1 Buy a second washing machine" in out["answer"]
    # not only a listing: what the proposal says about it leads the answer
    lead = cost["answer"].split("\n\n")[0]
    assert lead.startswith("#1 “Buy a second washing machine”:") and "600 EUR" in lead
