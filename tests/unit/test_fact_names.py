"""Entities named by their words or their initials, and the terms a fact path is read by."""

from __future__ import annotations

from app.core.ask.fact_names import EntityIndex, initials
from app.core.ask.fact_paths import kind_asked, relation_terms

NAMES = [
    "Software Steering Council",
    "Executive Council",
    "Board of Directors",
    "Standing Sub-Committee",
    "Aiko",
    "every other Monday",
]


def test_a_name_is_known_by_its_initials_with_and_without_function_words() -> None:
    assert initials("Board of Directors") == {"bod", "bd"}
    assert initials("Software Steering Council") == {"ssc"}
    assert initials("Standing Sub-Committee") == {"ssc"}  # a hyphen splits words
    assert initials("Aiko") == set()  # one word has no abbreviation


def test_the_question_names_entities_by_initials_and_by_words() -> None:
    index = EntityIndex.build(NAMES)
    found = index.named("when does the SSC usually meet?")
    by_initials = {n.name for n in found if n.by_initials}
    assert by_initials == {"Software Steering Council", "Standing Sub-Committee"}
    assert all(n.share == 1.0 for n in found if n.by_initials)
    board = index.named("who chairs the board")
    assert [n.name for n in board] == ["Board of Directors"]
    assert board[0].share == 0.5 and board[0].terms == {"board"}


def test_a_function_word_is_no_abbreviation() -> None:
    index = EntityIndex.build(["Information Technology", "Ultra Stable"])
    assert index.named("is it ok for us") == []


def test_the_vocabulary_holds_names_and_relations() -> None:
    index = EntityIndex.build(NAMES, relations=[relation_terms("chaired by")])
    assert {"chair", "council", "monday"} <= index.vocabulary


def test_irregular_verbs_meet_their_base_form() -> None:
    assert relation_terms("led by") == relation_terms("who leads") - {"who"} == {"lead"}
    assert relation_terms("Met with") == {"meet"}


def test_the_kind_a_question_asks_for() -> None:
    assert kind_asked("what street is the office on?") == {"street"}
    assert kind_asked("Which group deals with trademarks?") == {"group"}
    assert kind_asked("who chairs the board?") == set()


def test_a_term_most_names_hold_weighs_less_than_a_rare_one() -> None:
    from app.core.ask.fact_paths import _rarity

    index = EntityIndex.build(NAMES, relations=[{"chair"}, {"meet"}])
    assert index.documents == len(NAMES) + 2
    assert index.frequency["council"] == 2 and index.frequency["chair"] == 1
    weights = _rarity({"council", "execut", "chair", "hey"}, index)
    assert "hey" not in weights  # a word the graph does not know is not asked of it
    assert weights["council"] < weights["execut"] == weights["chair"]
