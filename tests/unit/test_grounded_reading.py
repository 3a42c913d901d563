"""The model's reading is one cue: it narrows a proposal question, never widens one."""

from __future__ import annotations

from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS, INTENT_PROPOSALS, AskAnalysis
from app.core.ask.grounded import reconcile
from app.domain.models import ProposalStatus


def test_a_reading_with_no_topic_and_no_filter_does_not_make_a_listing() -> None:
    question = "can I bring my kid along to the space?"
    model = AskAnalysis(intent=INTENT_PROPOSALS)
    rules = AskAnalysis(intent=INTENT_DOCS, content_keywords="bring kid space")
    assert reconcile(model, rules, question) == rules


def test_the_rules_kind_of_question_stands() -> None:
    question = "who runs the bike workshop?"
    model = AskAnalysis(intent=INTENT_PROPOSALS, content_keywords="bike workshop",
                        status=ProposalStatus.OPEN)  # fmt: skip
    rules = AskAnalysis(intent=INTENT_FACTS, content_keywords="bike workshop")
    assert reconcile(model, rules, question) == rules


def test_the_model_adds_a_filter_or_topic_the_question_states() -> None:
    question = "any polls still running about the garden from last week?"
    rules = AskAnalysis(intent=INTENT_PROPOSALS)
    model = AskAnalysis(
        intent=INTENT_PROPOSALS,
        content_keywords="garden",
        status=ProposalStatus.OPEN,
        date_phrase="last week",
        date_field="creation",
    )
    read = reconcile(model, rules, question)
    assert read.content_keywords == "garden" and read.status is ProposalStatus.OPEN
    assert (read.date_phrase, read.date_field) == ("last week", "creation")


def test_words_the_question_does_not_hold_never_filter() -> None:
    question = "what proposals did people make?"
    rules = AskAnalysis(intent=INTENT_PROPOSALS)
    model = AskAnalysis(
        intent=INTENT_PROPOSALS, content_keywords="budget", date_phrase="this year",
        date_field="creation", proposer="alice",
    )  # fmt: skip
    assert reconcile(model, rules, question) == rules


def test_the_rules_own_filters_are_kept_over_the_models() -> None:
    question = "closed proposals about parking"
    rules = AskAnalysis(intent=INTENT_PROPOSALS, content_keywords="parking",
                        status=ProposalStatus.CLOSED)  # fmt: skip
    model = AskAnalysis(intent=INTENT_PROPOSALS, content_keywords="closed parking proposals",
                        status=ProposalStatus.OPEN)  # fmt: skip
    assert reconcile(model, rules, question) == rules
