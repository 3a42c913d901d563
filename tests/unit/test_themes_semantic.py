"""Themes by meaning with a small deterministic embedder: clustering, order, naming, caps."""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence

import numpy as np
import pytest

from app.core.closing.themes import ThemeSummarizer, summarize_themes
from app.core.closing.themes_semantic import INLINE_LIMIT, EmbeddingThemeSummarizer, cluster

# Each known word points along one concept axis; places add a little of a shared axis.
CONCEPTS = {
    "plants": 0, "plant": 0, "greenery": 0, "green": 0, "ferns": 0, "flowers": 0,
    "ping": 1, "pong": 1, "tennis": 1, "table": 1,
    "coffee": 2, "espresso": 2, "barista": 2,
    "quiet": 3, "silent": 3, "calls": 3, "booths": 3,
}  # fmt: skip
PLACES = {"balcony", "terrace", "lobby", "reception", "kitchen"}
DIMENSION = 8

PLANTS = ["more plants on the balcony", "greenery on the terrace", "ferns and plants"]
TENNIS = ["a ping pong table in the lobby", "table tennis near reception"]
COFFEE = ["an espresso machine", "barista coffee in the kitchen"]
IDEAS = PLANTS + TENNIS + COFFEE


def concept_vector(text: str) -> np.ndarray:
    vector = np.zeros(DIMENSION)
    for word in text.lower().split():
        if word in CONCEPTS:
            vector[CONCEPTS[word]] += 1.0
        elif word in PLACES:
            vector[DIMENSION - 1] += 0.5
    if not vector.any():  # an unknown text: an axis of its own, away from the concepts
        vector[4 + sum(map(ord, text)) % 3] = 1.0
    return vector / np.linalg.norm(vector)


class ConceptEmbedder:
    """Records what it was asked to embed; fails on demand."""

    def __init__(self, error: Exception | None = None) -> None:
        self.calls: list[list[str]] = []
        self.error = error

    async def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        if self.error is not None:
            raise self.error
        return np.array([concept_vector(t) for t in texts])


async def themes_of(texts: list[str], **kwargs: object) -> list[dict]:  # type: ignore[type-arg]
    return await EmbeddingThemeSummarizer(ConceptEmbedder(), **kwargs).summarize(texts)  # type: ignore[arg-type]


async def test_paraphrases_without_shared_words_are_one_theme() -> None:
    themes = await themes_of(IDEAS)

    assert themes == [
        {"theme": "plants", "count": 3},  # "greenery on the terrace" counted, not named
        {"theme": "table", "count": 2},
        {"theme": "other ideas", "count": 2},  # the coffee ideas share no word to name them
    ]
    # Keyword overlap alone leaves "greenery on the terrace" out.
    assert max(t["count"] for t in summarize_themes(PLANTS)) == 2


async def test_any_order_gives_the_same_themes() -> None:
    texts = [*IDEAS, "quiet booths", "silent calls", "ok", IDEAS[0], "paint the fence blue"]
    embedder = ConceptEmbedder()
    summarizer = EmbeddingThemeSummarizer(embedder, max_themes=10)
    expected = await summarizer.summarize(texts)
    rng = random.Random(20261118)
    for _ in range(30):
        rng.shuffle(texts)
        assert await summarizer.summarize(texts) == expected
    # Distinct texts are embedded once each, in one canonical order.
    assert all(call == embedder.calls[0] for call in embedder.calls)
    assert embedder.calls[0][: len(set(texts)) - 1] == sorted(set(texts) - {"ok"})


def test_threshold_is_inclusive() -> None:
    a, b = np.array([1.0, 0.0]), np.array([0.5, np.sqrt(0.75)])  # cosine 0.5
    vectors = np.array([a, b])

    assert cluster(vectors, [1, 1], 0.5) == [[0, 1]]
    assert cluster(vectors, [1, 1], 0.51) == [[0], [1]]


def test_average_linkage_does_not_chain() -> None:
    # a~b and b~c are 0.71, a and c are unrelated: {a, b} averages 0.35 to c. The tie
    # between a~b and b~c goes to the lower index.
    vectors = np.array([[1.0, 0.0, 0.0], [0.7, 0.7, 0.0], [0.0, 1.0, 0.0]])

    assert cluster(vectors, [1, 1, 1], 0.5) == [[0, 1], [2]]
    assert cluster(vectors, [1, 1, 1], 0.3) == [[0, 1, 2]]


def test_weights_pull_the_average() -> None:
    # a~b is 0.8, c is 0.6 from a and 0.0 from b: {a, b} is 0.3 from c when a and b
    # weigh the same, 0.45 when a stands for three submissions.
    vectors = np.array([[1.0, 0.0], [0.8, 0.6], [0.6, -0.8]])
    assert cluster(vectors, [1, 1, 1], 0.4) == [[0, 1], [2]]
    assert cluster(vectors, [3, 1, 1], 0.4) == [[0, 1, 2]]


def test_edge_cases_of_cluster() -> None:
    assert cluster(np.zeros((0, 4)), [], 0.3) == []
    assert cluster(np.array([[1.0, 0.0]]), [2], 0.3) == [[0]]


async def test_names_are_the_commonest_terms_then_the_most_central() -> None:
    themes = await themes_of(["a ping pong table", "table tennis", "a tennis table"])
    assert themes == [{"theme": "table, tennis", "count": 3}]

    # Every term once: the ones nearest the group's centre (greenery, plants) win over
    # the places (balcony, terrace), then the alphabet decides.
    texts = ["greenery on the balcony", "greenery on the terrace", "plants on the terrace",
             "plants on the balcony"]  # fmt: skip
    themes = await themes_of(texts)
    assert themes == [{"theme": "greenery", "count": 4}]


async def test_a_group_sharing_no_word_is_only_counted() -> None:
    themes = await themes_of(["more plants on the balcony", "greenery on the terrace"])

    assert themes == [{"theme": "other ideas", "count": 2}]


async def test_duplicates_count_and_overflow_goes_to_other_ideas() -> None:
    texts = [*IDEAS, COFFEE[0], COFFEE[0], "quiet booths", "🙂", "ok"]
    themes = await themes_of(texts, max_themes=2)

    assert themes == [
        {"theme": "espresso, machine", "count": 4},  # "an espresso machine" three times
        {"theme": "plants", "count": 3},
        {"theme": "other ideas", "count": 3},  # table tennis (2) and quiet booths (1)
        {"theme": "other", "count": 2},  # no keywords
    ]


async def test_only_texts_without_keywords() -> None:
    embedder = ConceptEmbedder()
    themes = await EmbeddingThemeSummarizer(embedder).summarize(["ok", "🙂"])
    assert themes == [{"theme": "other", "count": 2}]
    assert embedder.calls == []
    assert await EmbeddingThemeSummarizer(embedder).summarize([]) == []


@pytest.mark.parametrize("error", [RuntimeError("more plants on the balcony"), None])
async def test_embedding_failure_falls_back_to_keywords(
    error: Exception | None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    async def wrong_shape(texts: Sequence[str]) -> np.ndarray:
        return np.ones((1, 3))

    embed = ConceptEmbedder(error) if error else wrong_shape
    themes = await EmbeddingThemeSummarizer(embed).summarize(IDEAS)

    assert themes == summarize_themes(IDEAS)
    assert ("RuntimeError" if error else "ValueError") in caplog.text
    assert "balcony" not in caplog.text


async def test_many_texts_are_grouped_off_the_event_loop() -> None:
    texts = [f"plants number{i}" for i in range(INLINE_LIMIT + 5)] + ["table tennis"] * 3
    themes = await themes_of(texts)

    assert themes[0] == {"theme": "plants", "count": INLINE_LIMIT + 5}
    assert themes[1] == {"theme": "table, tennis", "count": 3}


def test_implements_the_protocol() -> None:
    assert isinstance(EmbeddingThemeSummarizer(ConceptEmbedder()), ThemeSummarizer)
