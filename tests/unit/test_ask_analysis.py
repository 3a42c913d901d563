"""The offline reading of /ask questions: intent, filters and keywords."""

from __future__ import annotations

import pytest

from app.core.ask.analysis import analyze_question, date_direction
from app.core.ask.spelling import Lexicon
from app.domain.models import ProposalStatus as S
from app.domain.models import ProposalType as T

P, D, F = "query_proposals", "query_general_docs", "query_facts"

CASES = [
    # question, intent, keywords, status, type, date phrase, date field, proposer
    ("which open proposals about funding were created this month?", P, "funding", S.OPEN, None,
     "this month", "creation", None),
    ("how does parking work?", D, "parking work", None, None, None, None, None),
    ("who proposed the pizza party?", P, "pizza party", None, None, None, None, None),
    ("which proposals did alice make?", P, None, None, None, None, None, "alice"),
    ("show closed polls from last week", P, None, S.CLOSED, T.MULTIPLE_CHOICE, "from last week",
     "deadline", None),
    ("what proposals are closing next week?", P, None, None, None, "next week", "deadline", None),
    ("who invented relativity?", F, "invented relativity", None, None, None, None, None),
    ("what did Edison invent?", F, "Edison invent", None, None, None, None, None),
    ("any free form ideas about the garden?", P, "garden", None, T.FREE_FORM, None, None, None),
    ("list cancelled proposals", P, None, S.CANCELLED, None, None, None, None),
    ("proposals by @bob about events", P, "events", None, None, None, None, "bob"),
    ("what is the pet policy?", D, "pet policy", None, None, None, None, None),
    ("Which proposals mention parking?", P, "parking", None, None, None, None, None),
    ("how many proposals were created in May 2026?", P, None, None, None, "in May 2026",
     "creation", None),
    # a closing word without a date or a status is no filter
    ("when does the laundry close", D, "laundry", None, None, None, None, None),
    ("what time do quiet hours start on saturday", D, "time quiet hours saturday", None,
     None, None, None, None),
    ("what's open?", P, None, S.OPEN, None, None, None, None),
    ("any cancelled events?", P, "events", S.CANCELLED, None, None, None, None),
    ("which proposals about the gym are open", P, "gym", S.OPEN, None, None, None, None),
    ("what closes on Tue the 24th?", P, None, None, None, "on Tue the 24th", "deadline", None),
    # "live" is a status
    ("any live polls?", P, None, S.OPEN, T.MULTIPLE_CHOICE, None, None, None),
    # cancelled is the narrower state, whatever word of ending comes first
    ("which proposals ended up getting cancelled?", P, None, S.CANCELLED, None, None,
     None, None),
    ("anything open rn", P, None, S.OPEN, None, None, None, None),
    # "idea collections" names free-form proposals as a whole, not a topic
    ("idea collections started in the last month", P, None, None, T.FREE_FORM,
     "in the last month", "creation", None),
    ("any idea collection about the garden?", P, "garden", None, T.FREE_FORM, None, None, None),
    # "votes" are the proposals members vote on, as "polls" (free-form ones collect ideas)
    ("which votes wrap up this week?", P, None, None, T.MULTIPLE_CHOICE, "this week",
     "deadline", None),
    ("any votes about parking?", P, "parking", None, T.MULTIPLE_CHOICE, None, None, None),
    # every form of a verb of ending reads a date as the deadline, not the creation
    ("what votes finished in september?", P, None, S.CLOSED, T.MULTIPLE_CHOICE,
     "in september", "deadline", None),
    ("polls that wrapped up last week", P, None, S.CLOSED, T.MULTIPLE_CHOICE, "last week",
     "deadline", None),
    ("anything completed in october?", P, None, S.CLOSED, None, "in october", "deadline", None),
    ("proposals concluded last month", P, None, S.CLOSED, None, "last month", "deadline", None),
    ("what did we decide in 2025?", P, None, None, None, "in 2025", "deadline", None),
    # what is coming up, or still going on, is still ahead: open
    ("any brainstorms still taking ideas?", P, None, S.OPEN, T.FREE_FORM, None, None, None),
    ("still nothing on the parking proposals?", P, "parking", None, None, None, None, None),
    ("which events are coming up?", P, "events", S.OPEN, None, None, None, None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("question", "intent", "keywords", "status", "kind", "phrase", "field", "proposer"), CASES
)
def test_analysis(
    question: str,
    intent: str,
    keywords: str | None,
    status: S | None,
    kind: T | None,
    phrase: str | None,
    field: str | None,
    proposer: str | None,
) -> None:
    got = analyze_question(question)
    assert (got.intent, got.content_keywords, got.status, got.proposal_type) == (
        intent, keywords, status, kind,
    )  # fmt: skip
    assert (got.date_phrase, got.date_field, got.proposer) == (phrase, field, proposer)


@pytest.mark.parametrize("junk", ["", "   ", "???", "the of and", "🙂" * 10, "x" * 600])
def test_never_raises(junk: str) -> None:
    assert analyze_question(junk).intent in {P, D, F}


@pytest.mark.parametrize(
    ("question", "direction"),
    [
        ("what closes on Tue the 8th?", "future"),
        ("which open proposals end Sept 8?", "future"),
        ("proposals due Friday", "future"),
        ("what closed on the 8th?", "past"),
        # every verb that reads a date as the deadline says which way it lies
        ("what did we decide in march?", "past"),
        ("what are we deciding in march?", "future"),
        ("did anything close on the 8th?", "past"),
        ("which proposals were created on Friday?", "past"),
        ("closed polls from Sept", "past"),
        ("proposals about parking made in Sept", "past"),
        ("proposals about parking from Sept", "nearest"),  # nothing says which Sept
        ("proposals about the garden on the 8th", "nearest"),
    ],
)
def test_date_direction(question: str, direction: str) -> None:
    analysis = analyze_question(question)
    assert analysis.date_phrase is not None
    assert date_direction(question, analysis) == direction


def test_a_name_the_community_writes_with_a_word_of_state_is_no_filter() -> None:
    names = Lexicon(
        [
            "All our code is open source. We publish open source tools.",
            "Live captions on every stage; live captions need a volunteer.",
            "The garden is open on Sundays. The office is open on Mondays.",
        ]
    ).names
    assert names == {"open source", "live captions"}  # "open on": no word of content
    asked = analyze_question("will the code we build be open source?", names)
    assert asked.status is None and asked.intent == D
    who = analyze_question("who proposed the live captions on the stages", names)
    assert who.status is None and who.content_keywords == "captions stages"
    # the same word of state outside the name is still a filter
    both = analyze_question("open proposals about open source", names)
    assert both.status is S.OPEN and both.content_keywords == "source"
    assert analyze_question("what's open right now", names).status is S.OPEN
    # a community that never writes the phrase reads the word of state as before
    assert analyze_question("who proposed the live captions").status is S.OPEN
