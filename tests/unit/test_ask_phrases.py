"""A community's names that hold a filter word are read whole (app/core/ask/phrases.py)."""

from __future__ import annotations

from app.core.ask.multilingual import read_question
from app.core.ask.phrases import filter_words, name_pairs, names_in

TEXTS = [
    "We hold an Open Tuesday every week. Our tools are open-source and use open data.",
    "New members are welcome. This poll is open until Friday; see the open proposals.",
]
OWN = frozenset("the is until see this are our and use we an every".split())


def pairs() -> set[str]:
    words = {w.lower().strip(".;") for t in TEXTS for w in t.replace("-", " ").split()}
    return name_pairs(TEXTS, filter_words(words), OWN | {"proposals", "poll"})


def test_filter_words_are_the_ones_the_reading_takes_alone() -> None:
    assert filter_words({"open", "new", "closing", "polls", "tuesday", "data"}) == {
        "open", "new", "closing", "polls"
    }  # fmt: skip


def test_names_are_pairs_the_texts_write_with_a_filter_word() -> None:
    found = pairs()
    assert {"open tuesday", "open sourc", "open data", "new member"} <= found
    assert "open until" not in found and "open propos" not in found  # own words, no name


def test_a_question_names_them_in_any_case_and_number() -> None:
    assert names_in("since when do OPEN TUESDAYS happen?", pairs()) == ["OPEN TUESDAYS"]
    assert names_in("is the code open-source?", pairs()) == ["open-source"]
    assert names_in("which proposals are open?", pairs()) == []


def test_a_name_is_a_topic_and_never_a_filter() -> None:
    read = read_question("since when do open tuesdays happen?", "en", ["open tuesdays"])
    assert (read.status, read.date_phrase, read.names) == (None, None, ("open tuesdays",))
    assert read.content_keywords == "open tuesdays"  # "happen" is a filler
    plain = read_question("since when do open tuesdays happen?", "en")
    assert plain.status is not None  # what the name keeps from being read
