"""The forms of a word that count as the same word, per language.

English uses ``key_terms.word_forms`` (plurals, -ing, -ed and friends); any language
with a Snowball stemmer compares stems, so "parques" finds "parque" and "парковке"
finds "Парковка".
"""

from __future__ import annotations

from functools import cache, lru_cache

import snowballstemmer

from app.core.ask.cues import load
from app.nlp.key_terms import word_forms

MIN_STEM = 4


@cache
def _stemmer(language: str) -> snowballstemmer.stemmer | None:  # type: ignore[name-defined]
    cues = load(language)
    if cues is None or cues.stemmer is None or language == "en":
        return None
    return snowballstemmer.stemmer(cues.stemmer)


@lru_cache(maxsize=65536)
def forms(word: str, language: str = "en") -> frozenset[str]:
    """``word`` and the forms it shares with its other inflections (lower-cased)."""
    stemmer = _stemmer(language)
    if stemmer is None:
        return word_forms(word)
    low = word.casefold()
    stemmed = stemmer.stemWord(low)
    # A stem this short is a function word too: "comida" -> "com" ("with").
    return frozenset({low, stemmed} if len(stemmed) >= MIN_STEM else {low})


def stem(word: str, language: str = "en") -> str:
    """The stem a language's stemmer gives ``word`` (the word itself without one)."""
    stemmer = _stemmer(language)
    return stemmer.stemWord(word.casefold()) if stemmer is not None else word.casefold()
