"""The fitted reading of a question's form (app/core/ask/reading.py)."""

from __future__ import annotations

import numpy as np
import pytest

from app.core.ask import reading
from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS, INTENT_PROPOSALS


def test_words_mark_the_first_one() -> None:
    assert reading.words("Who’s the treasurer?") == {"who's", "the", "treasurer", "^who's"}
    assert reading.words("  ?? ") == set()


def test_only_words_of_more_than_one_community_are_read() -> None:
    asked = [("any votes on bikes?", "a"), ("any votes on paint?", "b"), ("bikes", "b")]
    assert reading.vocabulary(asked) == ("^any", "any", "bikes", "on", "votes")


def test_the_reading_is_fitted_from_labelled_questions() -> None:
    """Forms, not topics: the same topic words under each form, random vectors."""
    rng = np.random.default_rng(3)
    forms = {
        INTENT_PROPOSALS: "have we voted on {}",
        INTENT_DOCS: "how does {} work",
        INTENT_FACTS: "who leads the {} group",
    }
    topics = ["bikes", "laundry", "garden", "roof", "parking", "music"]
    questions, kinds = [], []
    for topic in topics:
        for kind, form in forms.items():
            questions.append(form.format(topic))
            kinds.append(kind)
    vectors = rng.normal(size=(len(questions), 8))
    words = reading.vocabulary([(q, str(i % 2)) for i, q in enumerate(questions)])
    model = reading.fit(questions, vectors, kinds, [1.0] * len(kinds), words, l2=0.1, steps=300)
    for kind, form in forms.items():
        read = model.read(form.format("choir"), rng.normal(size=8))  # a topic never seen
        assert max(read, key=lambda k: read[k]) == kind
        assert sum(read.values()) == pytest.approx(1.0)
    assert "choir" not in model.vocabulary


def test_the_shipped_reading_reads_the_bundled_embedding() -> None:
    shipped = reading.reading()
    assert shipped.model.weights.shape == (3, 384 + len(shipped.vocabulary))
    assert shipped.model.mean.shape == (384 + len(shipped.vocabulary),)
