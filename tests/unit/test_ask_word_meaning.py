"""A topic's cover by meaning, word for word, with the bundled embedding model: a category
a member names ("money", "equipment") is near the words the proposals that answer it use,
though they never use it. The titles are those of the development communities'
proposals (tests/fixtures/communities)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pytest

from app.core.ask.word_meaning import WordMeaning, words
from app.services.embeddings import OnnxMiniLMEmbedder
from app.services.vector_db_service import VectorDBService


class Counted:
    """The real model behind VectorDBService.embed, counting the texts it embeds."""

    def __init__(self) -> None:
        self.model = OnnxMiniLMEmbedder()
        self.embedded: list[str] = []

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded += texts
        return await asyncio.to_thread(self.model.embed_array, list(texts))


@pytest.fixture(scope="module")
def model() -> Counted:
    return Counted()


def _meaning(model: Counted, kept: int = 1000) -> WordMeaning:
    model.embedded.clear()
    return WordMeaning(cast(VectorDBService, model), kept=kept)


def test_words_are_the_texts_content_words_once() -> None:
    assert words("The Financial aid budget for 2027, and the BUDGET's cap") == [
        "financial",
        "aid",
        "budget",
        "budget's",
        "cap",
    ]
    assert words("ok, so we go on 12 May") == []  # filler, numbers and two letters go
    assert words("") == []


async def test_a_category_is_covered_by_the_words_that_mean_it(model: Counted) -> None:
    meaning = _meaning(model)
    money = await meaning.covers(
        "money", ["Financial aid budget for 2027", "Lightning talk slots each day"]
    )
    assert money[0][0] > money[1][0] + 0.15
    gear = await meaning.covers(
        "equipment",
        ["Loaner laptops for installation emergencies", "Elect the steering group chair"],
    )
    assert gear[0][0] > gear[1][0] + 0.1
    # a word the text holds covers itself whole
    same = await meaning.covers("volunteers", ["Volunteer hours per person for volunteers"])
    assert same[0] == pytest.approx((1.0, 1.0), abs=1e-3)


async def test_the_cover_is_the_mean_over_the_topics_words(model: Counted) -> None:
    meaning = _meaning(model)
    ((both, closest_both),) = await meaning.covers("parking budget", ["Budget for bike parking"])
    ((half, closest_half),) = await meaning.covers("parking budget", ["Budget for the party"])
    assert closest_both == pytest.approx(1.0, abs=1e-3)
    assert closest_half == pytest.approx(1.0, abs=1e-3)  # "budget" is held either way
    assert both > half  # only the first also holds "parking"


async def test_nothing_to_compare_covers_nothing(model: Counted) -> None:
    meaning = _meaning(model)
    assert await meaning.covers("the of and", ["Budget for 2027"]) == [(0.0, 0.0)]
    assert await meaning.covers("budget", ["", "2027"]) == [(0.0, 0.0), (0.0, 0.0)]
    assert model.embedded == []  # nothing was embedded for them


async def test_each_word_is_embedded_once_and_the_oldest_forgotten(model: Counted) -> None:
    meaning = _meaning(model, kept=4)
    await meaning.covers("money", ["budget grant"])
    await meaning.covers("money", ["budget grant"])
    assert sorted(model.embedded) == ["budget", "grant", "money"]  # one call, once each
    await meaning.covers("parking", ["bike"])  # five words now: "money" is the oldest
    known = cast(Any, meaning)._known
    assert list(known) == ["budget", "grant", "parking", "bike"]


async def test_a_word_forgotten_while_another_question_embeds_is_not_lost(
    model: Counted,
) -> None:
    """Two questions at once: the first finds "money" kept, waits for its other words,
    and meanwhile the second makes room by forgetting "money"."""
    meaning = _meaning(model, kept=2)
    await meaning.covers("money", ["budget"])
    second_done = asyncio.Event()
    embed = model.embed

    async def first_waits(texts: Sequence[str]) -> np.ndarray:
        if "grant" in texts:
            await second_done.wait()
        return await embed(texts)

    cast(Any, meaning).vectors = type("Slow", (), {"embed": staticmethod(first_waits)})()

    async def second() -> list[tuple[float, float]]:
        try:
            return await meaning.covers("parking", ["bike"])
        finally:
            second_done.set()

    first, other = await asyncio.gather(meaning.covers("money", ["grant"]), second())
    assert first[0][0] > 0.3 and other[0][0] > 0.3
    assert len(cast(Any, meaning)._known) == 2
