"""Keyword themes of free-form submissions: grouping, naming, caps and determinism."""

from __future__ import annotations

import random

import pytest

from app.core.closing.themes import (
    KeywordThemeSummarizer,
    ThemeSummarizer,
    summarize_themes,
)

PLANTS = ["More plants", "A plant wall would be nice", "Green plants everywhere!"]
COFFEE = ["A better coffee machine", "New coffee maker please", "Fix the coffee machine"]
TENNIS = ["Table tennis in the lobby", "A ping pong table", "Could we get a tennis table?"]
IDEAS = PLANTS + COFFEE + TENNIS


def theme_named(themes: list[dict], word: str) -> dict:
    matches = [t for t in themes if word in t["theme"]]
    assert len(matches) == 1, (word, themes)
    return matches[0]


def test_three_topics_give_three_themes_of_three() -> None:
    themes = summarize_themes(IDEAS)

    assert [t["count"] for t in themes] == [3, 3, 3]
    assert theme_named(themes, "plant")["count"] == 3
    assert theme_named(themes, "coffee")["count"] == 3
    tennis = theme_named(themes, "table")
    assert "tennis" in tennis["theme"]
    assert all(set(t) == {"theme", "count"} for t in themes)
    # Sorted by count, then name.
    assert [t["theme"] for t in themes] == sorted(t["theme"] for t in themes)


def test_empty_input() -> None:
    assert summarize_themes([]) == []


def test_a_single_text_is_only_counted() -> None:
    assert summarize_themes(["Table tennis in the lobby"]) == [{"theme": "other ideas", "count": 1}]


def test_no_theme_holds_one_idea_or_names_one_ideas_words() -> None:
    themes = summarize_themes(["Rātā", "Pōhutukawa", "The Snug"])
    assert themes == [{"theme": "other ideas", "count": 3}]

    texts = ["Plants on the balcony", "Plants by the windows", "I think Ana is underpaid"]
    themes = summarize_themes(texts)
    assert themes == [{"theme": "plants", "count": 2}, {"theme": "other ideas", "count": 1}]


def test_words_of_one_idea_stay_out_of_a_shared_themes_name() -> None:
    # All three share "tennis"; "lobby" and "reception" are each one idea's word.
    texts = ["Table tennis in the lobby", "Tennis table at reception", "tennis lessons"]
    themes = summarize_themes(texts)

    assert themes == [{"theme": "tennis, table", "count": 3}]


def test_shuffled_input_gives_the_same_counts() -> None:
    expected = sorted(t["count"] for t in summarize_themes(IDEAS))
    rng = random.Random(20261118)
    for _ in range(50):
        shuffled = IDEAS[:]
        rng.shuffle(shuffled)
        assert sorted(t["count"] for t in summarize_themes(shuffled)) == expected


def test_shuffled_noisy_input_gives_the_same_themes() -> None:
    texts = [
        *IDEAS,
        "Plants on every desk",
        "Standing desks",
        "Height adjustable desks",
        "Quiet room for calls",
        "A quiet zone without calls",
        "Some greenery near the windows",
        "ok",
    ]
    expected = summarize_themes(texts, max_themes=10)
    assert sum(t["count"] for t in expected) == len(texts)
    rng = random.Random(7)
    for _ in range(50):
        rng.shuffle(texts)
        assert summarize_themes(texts, max_themes=10) == expected


def test_themes_over_the_cap_are_other_ideas() -> None:
    texts = [*IDEAS, "Quiet room for calls", "A quiet zone for calls", "Standing desks"]
    themes = summarize_themes(texts, max_themes=2)

    assert len(themes) == 3
    assert [t["count"] for t in themes[:2]] == [3, 3]
    assert themes[2] == {"theme": "other ideas", "count": 6}
    assert sum(t["count"] for t in themes) == len(texts)


def test_stop_word_only_texts_go_to_other() -> None:
    themes = summarize_themes(["I think we should maybe", "ok", "🙂", "More plants", "plants!"])

    assert themes == [{"theme": "plants", "count": 2}, {"theme": "other", "count": 3}]
    assert summarize_themes(["I would really like that, could be"]) == [
        {"theme": "other", "count": 1}
    ]


def test_plural_and_inflected_forms_share_a_theme() -> None:
    themes = summarize_themes(["plants", "plant", "planting", "planted", "more plants"])

    assert themes == [{"theme": "plants", "count": 5}]


def test_invalid_cap() -> None:
    with pytest.raises(ValueError):
        summarize_themes(IDEAS, max_themes=0)


async def test_keyword_summarizer_implements_the_protocol() -> None:
    summarizer = KeywordThemeSummarizer(max_themes=2)

    assert isinstance(summarizer, ThemeSummarizer)
    themes = await summarizer.summarize(IDEAS)
    assert themes == [*summarize_themes(IDEAS)[:2], {"theme": "other ideas", "count": 3}]
