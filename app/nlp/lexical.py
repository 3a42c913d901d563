"""PLACEHOLDER until the lexical-index branch lands: same interface."""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

import snowballstemmer

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)
_STOP = frozenset(
    """a an the and or but if of to in on at by for with about from into onto over under as is
    are was were be been being am do does did have has had can could will would shall should
    may might must what which who whom whose where when why how there here this that these
    those it its they them their we us our you your i me my he she his her him so than then
    not no""".split()
)


@cache
def _stemmer(language: str) -> snowballstemmer.stemmer:  # type: ignore[name-defined]
    names = {"en": "english", "es": "spanish", "ru": "russian", "pt_BR": "portuguese"}
    return snowballstemmer.stemmer(names.get(language, "english"))


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=65536)
def _stem(word: str, language: str) -> str:
    return str(_stemmer(language).stemWord(word))


def lexical_terms(text: str, language: str = "en") -> list[str]:
    def stem(word: str) -> str:
        return _stem(word, language)

    out = []
    for match in _WORD.finditer(_fold(text)):
        word = match.group(0)
        word = re.sub(r"['’]s$", "", word)
        word = re.sub(r"[-'’]", "", word)
        if word in _STOP:
            continue
        out.append(stem(word))
    return out


def lexical_text(text: str, language: str = "en") -> str:
    return " ".join(lexical_terms(text, language))
