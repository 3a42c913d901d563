"""The general parts of /ask: rank fusion, the fitted decision, the sentence scorer."""

from __future__ import annotations

from dataclasses import replace
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from app.core.ask import decision, knowledge_answers, logistic, sentences
from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS, INTENT_PROPOSALS
from app.core.ask.models import DocumentHit
from app.core.ask.passages import RRF_K, fuse
from app.i18n.translator import Translator
from app.nlp.units import Unit, segment
from app.services.llm import LLMService


def test_reciprocal_rank_fusion_rewards_agreement() -> None:
    fused = dict(fuse(["a", "b", "c"], ["c", "d"]))
    assert fused["c"] == pytest.approx(1 / (RRF_K + 3) + 1 / (RRF_K + 1))
    assert fused["a"] == pytest.approx(1 / (RRF_K + 1))
    assert [k for k, _ in fuse(["a", "b", "c"], ["c", "d"])] == ["c", "a", "b", "d"]
    assert fuse() == [] and fuse([], []) == []


def _signals(**values: float) -> decision.Signals:
    fields = dict.fromkeys(decision.Signals.__dataclass_fields__, 0.0)
    return decision.Signals(**(fields | values))


def test_the_decision_is_fitted_from_labelled_signals() -> None:
    rng = np.random.default_rng(7)
    rows, labels = [], []
    for _ in range(200):
        noise = float(rng.normal(0, 0.05))
        rows.append(_signals(cue_proposals=1.0, proposal_found=1.0, passage_cosine=0.2 + noise))
        labels.append("proposals")
        rows.append(_signals(passage_cosine=0.7 + noise, sentence_cosine=0.7, passage_cover=0.8))
        labels.append("documents")
        rows.append(_signals(fact_score=1.5, fact_cover=0.8 + noise, asks_who=1.0))
        labels.append("facts")
        rows.append(_signals(passage_cosine=0.2 + noise, sentence_cosine=0.2))
        labels.append("nothing")
    model = decision.fit(rows, labels, [1.0] * len(rows), l2=0.1, steps=500)
    right = [
        decision.decide(row, model).source == label for row, label in zip(rows, labels, strict=True)
    ]
    assert sum(right) / len(right) > 0.95
    for row, expected in zip(rows[:4], labels[:4], strict=True):
        chosen = decision.decide(row, model)
        assert chosen.source == expected
        assert sum(chosen.probabilities.values()) == pytest.approx(1.0)
    nothing = decision.decide(rows[3], model)
    assert nothing.source == "nothing" and nothing.intent == INTENT_DOCS
    # when nothing answers, the kind of question is what its form reads as
    who = decision.decide(replace(rows[3], form_facts=0.8, form_proposals=0.1), model)
    assert who.source == "nothing" and who.intent == INTENT_FACTS
    listed = decision.decide(replace(rows[0], form_facts=0.9, form_proposals=0.0), model)
    assert listed.source == "proposals" and listed.intent == INTENT_PROPOSALS  # answered


def test_the_shipped_models_read_the_signals_of_this_code() -> None:
    assert decision.model().features == tuple(decision.Signals.__dataclass_fields__)
    assert sentences.scorer().weights.shape == (len(sentences.FEATURES),)


DOC = """## Lockers
Lockers are on the ground floor. Each locker holds 35 litres.
Keys are kept by the caretaker.
## Parking
Cars park in the yard.
"""


def _hit(content: str, fused: float = 0.03) -> DocumentHit:
    return DocumentHit("d1", "House rules", "c1", content, 0.5, fused)


def test_features_and_the_quote() -> None:
    units = segment(DOC)
    candidates = [sentences.Candidate(u, _hit(DOC[:60]), units, i) for i, u in enumerate(units)]
    vectors = np.eye(len(units), 4, dtype=np.float32)
    question = np.array([1.0, 0.0, 0.0, 0.0], dtype=np.float32)
    rows = sentences.features(
        "how big are the lockers?", question, candidates, vectors, [_hit(DOC[:60])], {"d1": DOC}
    )
    assert rows.shape == (len(units), len(sentences.FEATURES))
    by_name = [dict(zip(sentences.FEATURES, row, strict=True)) for row in rows]
    assert by_name[0]["cosine"] == 1.0 and by_name[1]["cosine"] == 0.0
    assert by_name[0]["passage"] == 1.0 and by_name[3]["passage"] == 0.0  # in the passage or not
    assert by_name[0]["covered"] > by_name[3]["covered"]  # "lockers" under its heading
    # "how big" asks a quantity: only the unit that gives a number has it
    assert [r["quantity"] for r in by_name] == [0.0, 1.0, 0.0, 0.0]
    # each candidate against the question's best one
    assert by_name[0]["cosine_gap"] == 0.0 and by_name[1]["cosine_gap"] == -1.0
    assert max(r["covered_gap"] for r in by_name) == 0.0
    assert by_name[3]["covered_gap"] == by_name[3]["covered"] - by_name[0]["covered"]
    ranked = sentences.rank(candidates, rows)
    assert ranked[0].unit.text in {u.text for u in units}
    second = next(s for s in ranked if s.unit == units[1])
    # the quote goes on under the same heading, and stops at the next one
    assert sentences.quote(second) == "Each locker holds 35 litres. Keys are kept by the caretaker."


def test_a_quantity_is_asked_by_the_questions_form_and_given_by_a_number() -> None:
    asked = ["how many seats are there?", "when does the bar close", "minimum age to join"]
    assert all(sentences.asks_quantity(q) for q in asked)
    assert not sentences.asks_quantity("who runs the bar?")
    assert sentences.states_number("open until 22:00") and sentences.states_number("twice a year")
    assert not sentences.states_number("Keys are kept by the caretaker.")


def test_a_unit_that_introduces_a_list_is_quoted_with_it() -> None:
    doc = (
        "## Reporting\nIf you email us, please include:\n- your name\n- when it happened\n"
        "- what happened\n## Other\nWe reply within three days.\n"
    )
    units = segment(doc)
    hit = DocumentHit("d1", "Guide", "c1", doc, 0.5, 0.03)
    ranked = [sentences.Scored(units[i], hit, units, 1.0 - i / 10, 0.5, 0.5, ()) for i in (0, 2, 4)]
    [(_, said)] = sentences.quotes(ranked)
    # the list comes with its introduction, once, and the next heading's unit still fits
    assert said == (
        "If you email us, please include: your name when it happened what happened "
        "We reply within three days."
    )


def test_a_long_quote_is_cut_at_a_word() -> None:
    long = "Word " * 100
    units = segment(long.strip() + ".")
    scored = sentences.Scored(units[0], _hit(long), units, 0.9, 0.5, 0.5, ())
    said = sentences.quote(scored)
    assert len(said) <= sentences.MAX_QUOTE + 2 and said.endswith("…")


def scored(unit: Unit, hit: DocumentHit, every: tuple[Unit, ...], score: float) -> sentences.Scored:
    return sentences.Scored(unit, hit, every, score, 0.5, 0.5, ())


def test_the_answer_quotes_the_best_units_of_two_documents_at_most() -> None:
    units = segment(DOC)
    other = segment("Bikes are kept in the shed. The shed is locked at night.")

    house, sheds = _hit(DOC), DocumentHit("d2", "Sheds", "c2", "Bikes", 0.4, 0.02)
    third = DocumentHit("d3", "Garden", "c3", "Roses", 0.3, 0.01)
    best = [
        scored(units[2], house, units, 0.9),  # the best, then a unit before it
        scored(other[1], sheds, other, 0.8),
        scored(segment("Roses bloom.")[0], third, (), 0.7),  # a third document: left out
        scored(units[0], house, units, 0.6),
    ]
    quoted = sentences.quotes(best)
    assert [hit.title for hit, _ in quoted] == ["House rules", "Sheds"]
    # each document's units in the document's order, whatever their scores
    assert quoted[0][1] == "Lockers are on the ground floor. Keys are kept by the caretaker."
    assert quoted[1][1] == "The shed is locked at night."
    long = scored(segment("Word " * 70 + "end.")[0], house, (), 0.95)
    quoted = sentences.quotes([long, *best])  # the best always, cut; nothing else fits
    assert len(quoted) == 1 and quoted[0][1].endswith("…")
    assert len(quoted[0][1]) <= sentences.MAX_QUOTE + 2


def test_a_unit_the_quote_already_says_is_not_quoted_again() -> None:
    page = (
        "We run a free shuttle bus between the station and the site during the event.\n\n"
        "We run a free shuttle bus between the station and the site during the event, "
        "but not during setup.\n\nThe bus is run by Ledbury Coaches."
    )
    units = segment(page)
    hit = _hit(page)
    other = DocumentHit("d2", "Travel FAQ", "c2", "Shuttle", 0.4, 0.02)
    again = segment("We run a free shuttle bus between the station and the site.")
    best = [
        scored(units[0], hit, units, 0.9),
        scored(units[1], hit, units, 0.8),  # says the first and more: it takes its place
        scored(again[0], other, again, 0.75),  # another page repeating it: left out
        scored(units[2], hit, units, 0.7),  # the room saved holds what the page adds
    ]
    [(quoted_hit, said)] = sentences.quotes(best)
    assert quoted_hit.title == "House rules"
    assert said == f"{units[1].text} {units[2].text}"


def test_a_unit_that_does_not_fit_whole_fills_the_room_left() -> None:
    first = (
        "Members pay their share of the heating, the water and the building insurance by "
        "the fifth of each month, into the account the treasurer names at the general meeting."
    )  # one sentence of 167 characters
    second = (
        "Late payers are reminded once by the treasurer, and after a second month the board "
        "writes to them to agree a plan that spreads what is owed over the next six months."
    )
    text = f"{first}\n\n{second}"
    units = segment(text)
    hit = _hit(text)
    best = [scored(units[0], hit, units, 0.9), scored(units[1], hit, units, 0.8)]
    [(_, said)] = sentences.quotes(best)
    # the best whole, then the next cut at a word to the room left, and marked so
    assert said.startswith(f"{first} Late payers are reminded once")
    assert said.endswith("…") and len(said) <= sentences.MAX_QUOTE
    # less room than a line: the next unit is left out rather than cut to a fragment
    longer = segment(
        first[:-1] + ", or by standing order on the first working day of each month, which the "
        "treasurer sets up on request."
    )
    best = [scored(longer[0], hit, longer, 0.9), scored(units[1], hit, units, 0.8)]
    assert sentences.MAX_QUOTE - len(longer[0].text) < sentences.SHORTEST_PART
    assert [said for _, said in sentences.quotes(best)] == [longer[0].text]


def test_the_sentence_scorer_is_fitted() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, (400, len(sentences.FEATURES)))
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(np.float64)
    fitted = logistic.fit(sentences.FEATURES, x, y, np.ones(len(y)), l2=0.01, steps=500)
    assert ((fitted.probabilities(x) > 0.5) == (y == 1)).mean() > 0.95


async def test_the_answer_names_each_quoted_document_and_cites_it_first() -> None:
    units, other = segment(DOC), segment("Bikes are kept in the shed.")
    house, sheds = _hit(DOC), DocumentHit("d2", "Sheds", "c2", "Bikes", 0.4, 0.02)
    passages = [house, DocumentHit("d3", "Garden", "c3", "Roses", 0.45, 0.025), sheds]
    best = [scored(units[1], house, units, 0.9), scored(other[0], sheds, other, 0.8)]
    tr = Translator("en", ZoneInfo("UTC"))
    response = await knowledge_answers.documents("lockers?", passages, LLMService(), tr, "", best)
    lead = response.answer.split("\n\n")[0]
    assert lead == (
        "According to “House rules”: Each locker holds 35 litres.\n"
        "According to “Sheds”: Bikes are kept in the shed."
    )
    assert [h.title for h in response.documents] == ["House rules", "Sheds", "Garden"]


def test_what_was_found_reads_as_documents_first() -> None:
    def hit(document: str, chunk: str) -> DocumentHit:
        return DocumentHit(document, f"Doc {document}", chunk, "text", 0.5, 0.01)

    found = [hit("a", "1"), hit("a", "2"), hit("b", "3"), hit("a", "4"), hit("c", "5")]
    ordered = knowledge_answers.by_document(found)
    # each document's best passage first, in their order; then the others, none lost
    assert [(h.document_id, h.chunk_id) for h in ordered] == [
        ("a", "1"), ("b", "3"), ("c", "5"), ("a", "2"), ("a", "4"),
    ]  # fmt: skip
    assert knowledge_answers.by_document([]) == []


def test_why_proposals_claims_their_words_only_when_some_are_listed() -> None:
    from types import SimpleNamespace

    from app.core.ask.context_service import _why_proposals

    g = SimpleNamespace(filters=SimpleNamespace(active=False), signals=SimpleNamespace(
        proposal_cover=1.0))  # fmt: skip
    assert _why_proposals(g) == "it asks about proposals, and some contain its words"
    assert _why_proposals(g, listed=False) == "it asks about proposals"
    g.filters.active = True
    assert _why_proposals(g, listed=False).startswith("it asks for proposals by status")
