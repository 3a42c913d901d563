"""Themes by meaning with the real all-MiniLM-L6-v2 model: paraphrases group, the rest don't.

These lists are a slice of the ones THRESHOLD was calibrated on (see themes_semantic).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import numpy as np
import pytest

from app.core.closing.themes_semantic import THRESHOLD, EmbeddingThemeSummarizer, cluster
from app.services.embeddings import OnnxMiniLMEmbedder

OFFICE = {
    "table tennis": ["a ping pong table in the lobby", "table tennis near reception",
                     "Could we get a ping-pong table?", "table tennis for lunch breaks"],
    "greenery": ["more plants on the balcony", "greenery on the terrace",
                 "Put some green plants in the office", "living wall with ferns"],
    "coffee": ["a better coffee machine", "espresso maker in the kitchen",
               "real coffee instead of instant", "a barista-style espresso machine"],
    "quiet": ["a quiet room for phone calls", "silent zone for focused work",
              "phone booths so calls don't disturb others", "a library-style no-talking area"],
    "desks": ["standing desks", "height adjustable desks", "ergonomic chairs",
              "sit-stand workstations"],
    "light": ["brighter lighting in the corridor", "more natural light",
              "replace the flickering lamps", "daylight lamps for winter"],
}  # fmt: skip
UNRELATED = ["fix the leaking roof", "lower the rent", "paint the fence blue",
             "install solar panels"]  # fmt: skip


@pytest.fixture(scope="module")
def model() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder().load()


def vectors(model: OnnxMiniLMEmbedder, texts: Sequence[str]) -> np.ndarray:
    return model.embed_array(list(texts))


def groups_of(model: OnnxMiniLMEmbedder, texts: list[str]) -> list[set[str]]:
    found = cluster(vectors(model, texts), [1] * len(texts), THRESHOLD)
    return [{texts[i] for i in group} for group in found]


def test_paraphrases_without_shared_words_group_and_unrelated_ideas_do_not(
    model: OnnxMiniLMEmbedder,
) -> None:
    tennis = ["a ping pong table in the lobby", "table tennis near reception"]
    plants = ["more plants on the balcony", "greenery on the terrace"]
    texts = [*tennis, *plants, "fix the leaking roof", "lower the rent"]

    groups = groups_of(model, texts)

    assert sorted(groups, key=sorted) == sorted(
        [set(tennis), set(plants), {"fix the leaking roof"}, {"lower the rent"}], key=sorted
    )


def test_every_topic_of_an_office_list_is_one_theme(model: OnnxMiniLMEmbedder) -> None:
    topic_of = {text: topic for topic, texts in OFFICE.items() for text in texts}
    texts = [*topic_of, *UNRELATED]

    groups = groups_of(model, texts)

    for group in groups:  # no group mixes topics, or a topic with an unrelated idea
        topics = {topic_of.get(text, text) for text in group}
        assert len(topics) == 1, group
    for topic, members in OFFICE.items():  # and each topic keeps at least 3 of its 4 together
        assert max(len(group & set(members)) for group in groups) >= 3, topic


async def test_themes_are_named_by_their_terms_and_independent_of_order(
    model: OnnxMiniLMEmbedder,
) -> None:
    async def embed(texts: Sequence[str]) -> np.ndarray:
        return await asyncio.to_thread(model.embed_array, list(texts))

    summarizer = EmbeddingThemeSummarizer(embed, max_themes=6)
    texts = [*OFFICE["table tennis"], *OFFICE["coffee"], *OFFICE["greenery"][:2], *UNRELATED]

    themes = await summarizer.summarize(texts)

    assert sum(t["count"] for t in themes) == len(texts)
    # The two greenery ideas group by meaning but share no word to name them by.
    assert [t["count"] for t in themes] == [4, 4, 6]
    assert themes[2]["theme"] == "other ideas"
    names = [t["theme"] for t in themes[:2]]
    assert any("coffee" in n or "espresso" in n for n in names)
    assert any("table" in n or "tennis" in n or "ping" in n for n in names)
    rng = random.Random(3)
    for _ in range(5):
        rng.shuffle(texts)
        assert await summarizer.summarize(texts) == themes
