"""Word stems per language, for matching words whatever their ending.

Snowball stemmers for the languages the bot has catalogs in (and a few more a new
catalog may bring); a language without one matches whole words. Pure text helpers.
"""

from __future__ import annotations

import re
from functools import cache

import snowballstemmer

# Catalog language (its base, "pt" for "pt_BR") -> Snowball algorithm.
ALGORITHMS = {
    "en": "english", "es": "spanish", "ru": "russian", "pt": "portuguese", "fr": "french",
    "de": "german", "it": "italian", "nl": "dutch", "pl": "polish", "uk": "russian",
    "tr": "turkish", "ca": "catalan", "sv": "swedish", "fi": "finnish", "ro": "romanian",
}  # fmt: skip
MIN_LENGTH = 3  # shorter words are mostly articles and prepositions in every language
# Longer function words that carry no topic: question words, pronouns, auxiliaries.
STOP_WORDS = {
    "es": "cómo como cuál cuáles cuándo cuando dónde donde quién quiénes qué porque para "
          "esto esta este estos estas eso esa ese sobre desde hasta entre puedo puede "
          "pueden quiero hacer hago tengo tiene mis tus sus nuestro nuestra también",
    "pt": "como qual quais quando onde quem porque para isto isso este esta esse essa "
          "sobre desde até entre posso pode podem quero fazer faço tenho tem meus minha "
          "minhas seus suas nosso nossa também numa pelo pela",
    "ru": "как какой какая какие какое когда где кто что почему зачем чтобы этот эта "
          "это эти свой своя своё свои мой моя моё мои наш ваш можно могу может хочу "
          "сделать есть для про между через тоже также меня мне",
}  # fmt: skip
_WORD = re.compile(r"[^\W\d_]+")


@cache
def _stemmer(language: str) -> snowballstemmer.Stemmer | None:  # type: ignore[name-defined]
    algorithm = ALGORITHMS.get(language.replace("-", "_").split("_")[0].casefold())
    return snowballstemmer.stemmer(algorithm) if algorithm else None


@cache
def _stop_words(language: str) -> frozenset[str]:
    return frozenset(STOP_WORDS.get(language, "").split())


def stems(text: str, language: str) -> set[str]:
    """The stems of ``text``'s words longer than ``MIN_LENGTH`` letters, in ``language``."""
    base = language.replace("-", "_").split("_")[0].casefold()
    stop = _stop_words(base)
    words = [w for w in _WORD.findall(text.casefold()) if len(w) > MIN_LENGTH and w not in stop]
    stemmer = _stemmer(language)
    return set(stemmer.stemWords(words)) if stemmer else set(words)
