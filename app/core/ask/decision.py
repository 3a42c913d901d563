"""Which source answers a question, or that none does: one small fitted model.

Every question is searched in all three sources before anything is decided. What was
found is summed up in a few signals that mean the same in any community: how the
question reads (the reading's cue: proposals, facts or documents; whether it states a
filter; whether it asks "who"), how strongly each source matched (the best passage's
and sentence's cosine, the best proposal's and fact's), how much of the question's
content the best of each covers, and how much of it the community never mentions. A
multinomial logistic regression over them gives each outcome a probability: proposals,
documents, facts, or nothing. Its coefficients live in decision.json beside this file;
scripts/fit_ask_decision.py refits them from the development communities' labelled
questions (tests/fixtures/communities).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

import numpy as np

from app.core.ask import logistic
from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS, INTENT_PROPOSALS
from app.core.ask.fact_search import FactsFound
from app.core.ask.logistic import Logistic
from app.core.ask.models import DocumentHit
from app.core.ask.proposal_search import SearchOutcome, share
from app.core.ask.sentences import Scored, context
from app.nlp.lexical import lexical_terms

MODEL = Path(__file__).with_name("decision.json")
OUTCOMES = ("proposals", "documents", "facts", "nothing")
INTENTS = {"proposals": INTENT_PROPOSALS, "documents": INTENT_DOCS, "facts": INTENT_FACTS}
_WHO = re.compile(r"^\W*(?:who|whom|whose)\b", re.I)


@dataclass(frozen=True, slots=True)
class Signals:
    """What one question's searches found, as numbers a community's words do not change."""

    cue_proposals: float  # the rules' reading says it asks for proposals
    cue_facts: float  # ... about a named person, group or thing (who/what/where)
    filtered: float  # it states a status, type, date or proposer
    asks_who: float
    form_proposals: float  # the fitted reading of its form (reading.py): asks for proposals
    form_facts: float  # ... for a fact of the graph
    proposal_found: float  # some proposal matched inside the filters
    proposal_chance: float  # the proposal cut's belief in its best candidate (proposal_cut.py)
    proposal_cover: float  # share of the topic's words the best proposal contains
    proposal_cosine: float
    passage_cosine: float  # the best passage's cosine to the question
    passage_cover: float  # share of the question's terms in the best passage (with title)
    passage_margin: float  # best cosine minus the best of another document
    sentence_cosine: float  # the best sentence's cosine to the question
    sentence_cover: float  # share of the question's terms in it and its context
    sentence_score: float  # the sentence scorer's belief that it answers (sentences.py)
    fact_score: float  # the fact path scorer's score of the best path (fact_search)
    fact_cover: float  # share of the question's terms the best path holds before its answer
    fact_relation: float  # ... of those not naming where it starts: the relation asked
    fact_margin: float  # its score minus the best path's ending elsewhere
    fact_predicate: float  # its relation's cosine minus the graph's closest relation's
    unmentioned: float  # share of the question's terms the community never mentions

    def vector(self) -> np.ndarray:
        return np.array(list(asdict(self).values()), dtype=np.float64)


@dataclass(frozen=True, slots=True)
class Decision:
    source: str  # one of OUTCOMES
    probabilities: dict[str, float]
    form: str = INTENT_DOCS  # the kind of question its form reads as (reading.py)

    @property
    def intent(self) -> str:
        """The kind of question: the source that answers it; when nothing does, what its
        form asks for ("who painted the Mona Lisa?" asks for a fact; no source came close
        enough to tell, and the likeliest one was wrong more often than the form,
        leaving each development community out in turn)."""
        return INTENTS.get(self.source, self.form)


def signals(
    question: str,
    intent: str,
    filtered: bool,
    topic: str | None,
    proposals: SearchOutcome,
    passages: Sequence[DocumentHit],
    best: Sequence[Scored],
    facts: FactsFound | None,
    language: str,
    form: dict[str, float] | None = None,
    unmentioned: float = 0.0,
) -> Signals:
    """``intent`` is the rules' reading (the cue); ``form`` the fitted reading's
    probabilities (reading.py); without it (a question not in English) the cue stands in.
    ``unmentioned``: the share of its terms nothing in the community mentions
    (spelling.Speller.unmentioned)."""
    asked = set(lexical_terms(question, language))
    # the best proposal kept, else the best candidate the cut left out: how near it came
    near = max(proposals.candidates, key=lambda r: r.score, default=None)
    top = proposals.ranked[0] if proposals.ranked else near
    chance = near.score if near is not None else float(bool(proposals.ranked))
    topic_terms = set(lexical_terms(topic or "", language))
    lead = max(passages, key=lambda h: h.similarity) if passages else None
    other = max(
        (h.similarity for h in passages if lead and h.document_id != lead.document_id), default=0.0
    )
    sentence = best[0] if best else None
    path = facts.best if facts is not None else None
    cue = {k: float(intent == k) for k in (INTENT_PROPOSALS, INTENT_FACTS)}
    return Signals(
        cue_proposals=cue[INTENT_PROPOSALS],
        cue_facts=cue[INTENT_FACTS],
        filtered=float(filtered),
        asks_who=float(bool(_WHO.match(question))),
        form_proposals=(form or cue)[INTENT_PROPOSALS],
        form_facts=(form or cue)[INTENT_FACTS],
        proposal_found=float(bool(proposals.ranked)),
        proposal_chance=chance,
        proposal_cover=share(topic_terms, _proposal_text(top), language) if top else 0.0,
        proposal_cosine=float(top.similarity or 0.0) if top else 0.0,
        passage_cosine=lead.similarity if lead else 0.0,
        passage_cover=share(asked, f"{lead.title} {lead.content}", language) if lead else 0.0,
        passage_margin=(lead.similarity - other) if lead else 0.0,
        sentence_cosine=sentence.similarity if sentence else 0.0,
        sentence_cover=share(asked, _context(sentence), language) if sentence else 0.0,
        sentence_score=sentence.score if sentence else 0.0,
        fact_score=path.score if path else 0.0,
        fact_cover=path.cover if path else 0.0,
        fact_relation=path.relation if path else 0.0,
        fact_margin=facts.margin if facts is not None else 0.0,
        fact_predicate=facts.predicate_gap if facts is not None else -1.0,
        unmentioned=unmentioned,
    )


def _proposal_text(ranked: object) -> str:
    proposal = ranked.proposal  # type: ignore[attr-defined]
    return " ".join([proposal.title, proposal.description, *proposal.options])


def _context(scored: Scored) -> str:
    return context(scored.unit, scored.hit.title)


@cache
def model(path: Path = MODEL) -> Logistic:
    """The fitted multinomial logistic regression over the signals (logistic.py)."""
    fitted, data = logistic.load(path, _FEATURES)
    if tuple(data["outcomes"]) != OUTCOMES:
        raise ValueError(f"{path} was fitted for other outcomes: refit it")
    return fitted


_FEATURES = tuple(Signals.__dataclass_fields__)


def decide(found: Signals, fitted: Logistic | None = None) -> Decision:
    p = (fitted or model()).probabilities(found.vector())
    probabilities = {k: float(v) for k, v in zip(OUTCOMES, p, strict=True)}
    source = max(probabilities, key=lambda k: probabilities[k])
    form = {
        INTENT_PROPOSALS: found.form_proposals,
        INTENT_FACTS: found.form_facts,
        INTENT_DOCS: 1.0 - found.form_proposals - found.form_facts,
    }
    return Decision(source, probabilities, max(form, key=lambda k: form[k]))


def fit(
    rows: Sequence[Signals],
    labels: Sequence[str],
    weights: Sequence[float],
    l2: float = 1.0,
    steps: int = 3000,
) -> Logistic:
    x = np.array([r.vector() for r in rows])
    y = np.zeros((len(rows), len(OUTCOMES)))
    y[np.arange(len(rows)), [OUTCOMES.index(label) for label in labels]] = 1.0
    return logistic.fit(_FEATURES, x, y, np.array(weights, dtype=np.float64), l2, steps)
