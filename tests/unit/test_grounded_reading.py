"""The model's reading is one cue: a bare proposals reading never lists every proposal,
and words the question does not hold never filter."""

from __future__ import annotations

from app.core.ask.analysis import INTENT_DOCS, INTENT_PROPOSALS, AskAnalysis
from app.core.ask.grounded import reconcile
from app.domain.models import ProposalStatus


def test_a_reading_with_no_topic_and_no_filter_does_not_make_a_listing() -> None:
    question = "can I bring my kid along to the space?"
    model = AskAnalysis(intent=INTENT_PROPOSALS)
    rules = AskAnalysis(intent=INTENT_DOCS, content_keywords="bring kid space")
    assert reconcile(model, rules, question) == rules


def test_a_bare_listing_both_readings_share_stands() -> None:
    question = "show me every proposal"
    model = rules = AskAnalysis(intent=INTENT_PROPOSALS)
    assert reconcile(model, rules, question) == rules


def test_the_models_filters_and_topic_are_kept_when_the_question_states_them() -> None:
    question = "any polls still running about the garden from last week?"
    rules = AskAnalysis(intent=INTENT_DOCS, content_keywords="polls running garden")
    model = AskAnalysis(
        intent=INTENT_PROPOSALS,
        content_keywords="garden",
        status=ProposalStatus.OPEN,
        date_phrase="last week",
        date_field="creation",
    )
    assert reconcile(model, rules, question) == model


def test_a_date_or_proposer_the_question_does_not_hold_never_filters() -> None:
    question = "what proposals about the budget did people make?"
    rules = AskAnalysis(intent=INTENT_PROPOSALS, content_keywords="budget")
    model = AskAnalysis(
        intent=INTENT_PROPOSALS, content_keywords="budget", date_phrase="this year",
        date_field="creation", proposer="@alice",
    )  # fmt: skip
    read = reconcile(model, rules, question)
    assert read == AskAnalysis(intent=INTENT_PROPOSALS, content_keywords="budget")
