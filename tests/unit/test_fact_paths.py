"""Fact paths scored together score as one at a time: the scorer reads what a question
holds of each entity and relation once, and takes all the walks' cosines at once, and
neither may change a single float of a path's features."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from app.core.ask.fact_names import EntityIndex
from app.core.ask.fact_paths import Path, PathScorer, relation_terms
from app.nlp.key_terms import normalize
from app.persistence.repositories.facts import Fact

TRIPLES = [
    ("Code of Conduct Committee", "appointed by", "Executive Council"),
    ("Executive Council", "meets", "weekly on Wednesdays"),
    ("Executive Council", "chaired by", "Priya"),
    ("Code of Conduct Committee", "chaired by", "Mateus"),
    ("Software Steering Council", "meets", "every other Monday"),
    ("Software Steering Council", "chaired by", "Aiko"),
    ("Aiko", "works with", "Priya"),
]
FACTS = [
    Fact(i, s, p, o, 1.0, "manual", normalize(s), normalize(p), normalize(o))
    for i, (s, p, o) in enumerate(TRIPLES, 1)
]
NO_VECTOR = 5  # a fact Chroma has not caught up with yet
QUESTIONS = [
    "when does the body that appoints the conduct committee meet?",
    "who chairs the EC?",  # by initials
    "what day does the SSC meet?",  # by initials, and a kind asked
    "who works with aiko",
]


def _walks() -> list[tuple[tuple[Fact, ...], str]]:
    """Every fact read both ways, and every pair of facts read from either end of the
    first (most of them not a path: not joined, a detour, or back where they started)."""
    one = [((f,), end) for f in FACTS for end in (f.subject, f.object)]
    two = [((f, g), end) for f in FACTS for g in FACTS if g != f for end in (f.subject, f.object)]
    return one + two


def _scorer(question: str) -> PathScorer:
    index = EntityIndex.build(
        sorted({name for f in FACTS for name in (f.subject, f.object)}),
        relations=[relation_terms(p) for p in sorted({f.predicate for f in FACTS})],
    )
    named = {n.norm: n for n in index.named(question)}
    q = np.random.default_rng(7).standard_normal(384).astype(np.float32)
    gaps = {"chaired by": -0.25, "meets": 0.0}  # "appointed by" has none
    return PathScorer(question, index, named, relation_terms(question), q, gaps, {"priya"})


def _vectors() -> dict[int, np.ndarray]:
    rng = np.random.default_rng(11)
    return {f.id: rng.standard_normal(384).astype(np.float32) for f in FACTS if f.id != NO_VECTOR}


def _cosine(path: Path, q: np.ndarray, vectors: dict[int, np.ndarray]) -> float:
    """A path's cosine as written plainly: that of its facts' mean vector."""
    found = [vectors[f.id] for f in path.facts if f.id in vectors]
    if not found:
        return 0.0
    mean = found[0] if len(found) == 1 else np.mean(np.vstack(found), axis=0)
    return float(mean @ q) / (float(np.linalg.norm(mean)) * float(np.linalg.norm(q)))


@pytest.mark.parametrize("question", QUESTIONS)
def test_paths_scored_together_are_those_scored_one_at_a_time(question: str) -> None:
    vectors, walks = _vectors(), _walks()
    scorer = _scorer(question)
    together = scorer.scored(scorer.read(walks), vectors)
    alone = []
    for walk in walks:
        fresh = _scorer(question)  # nothing read for another walk
        alone += fresh.scored(fresh.read([walk]), vectors)
    # the same paths in the same order, their features to the last bit; the fitted
    # scorer's matrix product may round a score's last bit by how many rows it holds
    assert [replace(p, score=0.0) for p in together] == [replace(p, score=0.0) for p in alone]
    assert [p.score for p in together] == pytest.approx([p.score for p in alone], abs=1e-12)
    assert {len(p.facts) for p in together} == {1, 2}
    assert any(NO_VECTOR in {f.id for f in p.facts} for p in together)


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_cosine_is_that_of_the_facts_mean_vector(question: str) -> None:
    vectors, scorer = _vectors(), _scorer(question)
    paths = scorer.scored(scorer.read(_walks()), vectors)
    for path in paths:
        assert path.cosine == _cosine(path, scorer.q, vectors)  # the same floats
    lone = [p for p in paths if {f.id for f in p.facts} == {NO_VECTOR}]
    assert lone and all(p.cosine == 0.0 for p in lone)


def test_a_detour_is_no_path() -> None:
    scorer = _scorer("when does the conduct committee meet?")
    appointed, meets = FACTS[0], FACTS[1]  # "appointed by" is not asked
    assert scorer.read([((appointed, meets), appointed.subject)]) == []
