"""Chunking: the spec's fixed window with overlap, without cutting words."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.nlp.chunking import chunk_text


def test_spec_example_without_whitespace() -> None:
    # Step = chunk_size - chunk_overlap = 4. (The spec's drawing shows a step of 6 for its
    # third chunk, which contradicts its own rule; we follow the rule.)
    assert chunk_text("AAAAAABBBBBBCCCCCC", 6, 2) == ["AAAAAA", "AABBBB", "BBBBCC", "CCCCCC"]


def test_words_are_not_cut() -> None:
    text = " ".join(f"word{i:03d}" for i in range(200))
    chunks = chunk_text(text, 100, 20)
    words = set(text.split())
    for chunk in chunks:
        assert len(chunk) <= 100
        assert set(chunk.split()) <= words  # every piece is a whole word
    assert chunks[0].startswith("word000") and chunks[-1].endswith("word199")


def test_overlap_repeats_the_end_of_the_previous_chunk() -> None:
    text = " ".join(f"w{i}" for i in range(300))
    chunks = chunk_text(text, 120, 30)
    for before, after in itertools.pairwise(chunks):
        first_word = after.split()[0]
        assert first_word in before.split()[-8:]


def test_short_text_is_one_chunk_and_bad_parameters_fail() -> None:
    assert chunk_text("Parking is on level -2.", 500, 50) == ["Parking is on level -2."]
    with pytest.raises(ValueError):
        chunk_text("x", 100, 100)


@given(st.lists(st.text("abcdefgh", min_size=1, max_size=12), max_size=300), st.data())
def test_every_word_lands_whole_in_some_chunk(words: list[str], data: st.DataObject) -> None:
    size = data.draw(st.integers(30, 400))
    overlap = data.draw(st.integers(0, size - 1))
    text = " ".join(words)
    chunks = chunk_text(text, size, overlap)
    assert all(len(c) <= size for c in chunks)
    pieces = [set(c.split()) for c in chunks]
    assert all(any(word in p for p in pieces) for word in words)
