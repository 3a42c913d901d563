"""The words a text is found by: one normalisation for the lexical index and its queries.

Passages, proposals and facts are stored with ``lexical_text`` of their text (the
``lexical`` column, indexed by SQLite FTS5 or PostgreSQL full-text search), and a
question is looked up by ``lexical_terms`` of itself, so both sides meet on the same
terms whatever the writer's spelling:

- NFKC, then case folded ("ﬁ" is "fi", "Ⅻ" is "xii", "ß" is "ss");
- words joined across an inner hyphen or apostrophe ("Wi-Fi", "wi-fi" and "WiFi" are
  all "wifi"; "e-mail" is "email", "co-op" "coop"), but numbers split at a hyphen
  ("10-12" is "10" and "12"); English drops a possessive "'s" ("member's" is "member");
- accents folded ("Café" is "cafe"; Russian keeps "й", which is a letter, and reads "ё"
  as "е");
- punctuation and underscores dropped, numbers kept ("35", "18");
- a short list of function words dropped (``app.nlp.stopwords``);
- each word stemmed by its language's Snowball stemmer ("rules" and "ruled" are
  "rule"); a word with a digit is kept as written.

Terms are runs of letters and digits only: FTS5's unicode61 tokenizer and PostgreSQL's
parser both read them as one token each, so what is indexed is what is searched.

Fast by caching: a text is split by one regular expression, and each distinct word's
term is computed once per process (a million facts repeat few words).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache

import snowballstemmer

from app.nlp.stopwords import STOPWORDS

# The base language of a catalog code -> snowballstemmer's algorithm.
STEMMERS = {
    "ar": "arabic", "ca": "catalan", "cs": "czech", "da": "danish", "de": "german",
    "el": "greek", "en": "english", "es": "spanish", "et": "estonian", "eu": "basque",
    "fi": "finnish", "fr": "french", "hi": "hindi", "hu": "hungarian", "hy": "armenian",
    "id": "indonesian", "it": "italian", "lt": "lithuanian", "nb": "norwegian",
    "ne": "nepali", "nl": "dutch", "no": "norwegian", "pl": "polish", "pt": "portuguese",
    "ro": "romanian", "ru": "russian", "sr": "serbian", "sv": "swedish", "ta": "tamil",
    "tr": "turkish",
}  # fmt: skip
MAX_TERM = 64  # longer runs are noise (hashes, base64), and PostgreSQL caps a token anyway

# Characters that vanish: soft hyphen, zero-width spaces and joiners, word joiner, BOM.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
_APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u02bc\u2018", "'"))
_POSSESSIVE = re.compile(r"(?<=[^\W_])'s\b")
# An inner apostrophe joins ("don't" -> "dont"); so does an inner hyphen, unless it stands
# between two digits (a range or a date: "10-12", "2026-11-18").
_JOIN = re.compile(r"(?<=[^\W_])'(?=[^\W_])|(?<=[^\W\d_])[-\u2010\u2011](?=[^\W_])|"
                   r"(?<=[^\W_])[-\u2010\u2011](?=[^\W\d_])")  # fmt: skip
_WORD = re.compile(r"[^\W_]+")
_SHORT_I = "\ue000"  # stands in for "й" while accents are dropped


def _fold(word: str) -> str:
    """``word`` without accents: "café" -> "cafe", "ёлка" -> "елка", "мой" stays."""
    if word.isascii():
        return word
    protected = word.replace("й", _SHORT_I)
    decomposed = unicodedata.normalize("NFD", protected)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare).replace(_SHORT_I, "й")


def _base(language: str) -> str:
    return language.replace("-", "_").split("_")[0].lower()


@cache
def _stopwords(language: str) -> frozenset[str]:
    words = STOPWORDS.get(language) or next(
        (w for code, w in STOPWORDS.items() if _base(code) == _base(language)), ""
    )
    return frozenset(_fold(w.casefold()) for w in words.split())


@cache
def stemmer(language: str) -> Callable[[str], str] | None:
    """The Snowball stemmer of ``language`` (a catalog name: "es", "pt_BR"); None without one."""
    name = STEMMERS.get(_base(language))
    return snowballstemmer.stemmer(name).stemWord if name else None


def _portuguese_plural(word: str) -> str:
    """Folded, "ações" and "ação" are "acoes" and "acao", which the stemmer no longer
    pairs: the plural "-oes" is read as "-ao" first ("reunioes" -> "reuniao")."""
    return word[:-3] + "ao" if len(word) > 4 and word.endswith("oes") else word


def _term(word: str, language: str) -> str:
    """The index term of one casefolded word; "" for a function word."""
    if len(word) > MAX_TERM:
        return ""
    folded = _fold(word)
    if folded in _stopwords(language):
        return ""
    if any(c.isdigit() for c in folded):
        return folded
    if _base(language) == "pt":
        folded = _portuguese_plural(folded)
    stem = stemmer(language)
    return stem(folded) if stem is not None else folded


# word -> term, per language: a text's words are mostly ones seen before, and a dict
# lookup is what a word then costs. Emptied when full (a bounded memory, not an LRU).
_TERMS: dict[str, dict[str, str]] = {}
MAX_CACHED = 1 << 18


def _cache(language: str) -> dict[str, str]:
    cache = _TERMS.get(language)
    if cache is None or len(cache) > MAX_CACHED:
        cache = _TERMS[language] = {}
    return cache


def _words(text: str, language: str) -> list[str]:
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).translate(_APOSTROPHES)
    text = text.casefold()
    if "'" in text and _base(language) == "en":
        text = _POSSESSIVE.sub("", text)
    if "'" in text or "-" in text or not text.isascii():
        text = _JOIN.sub("", text)
    return _WORD.findall(text)


def lexical_terms(text: str, language: str = "en") -> list[str]:
    """The terms ``text`` is indexed and searched by, in order (repeats kept)."""
    if not text:
        return []
    cache = _cache(language)
    terms = []
    for word in _words(text, language):
        term = cache.get(word)
        if term is None:
            term = cache[word] = _term(word, language)
        if term:
            terms.append(term)
    return terms


def lexical_text(text: str, language: str = "en") -> str:
    """``lexical_terms`` joined by spaces: what the ``lexical`` column holds."""
    return " ".join(lexical_terms(text, language))


# -- what each source is found by -----------------------------------------------------


def proposal_text(title: str, description: str | None, options: Sequence[str] | None) -> str:
    return "\n".join([title, description or "", *(options or [])])


def fact_text(subject: str, predicate: str, obj: str) -> str:
    return f"{subject}\n{predicate}\n{obj}"


def proposal_lexical(
    title: str, description: str | None, options: Sequence[str] | None, language: str
) -> str:
    return lexical_text(proposal_text(title, description, options), language)


def fact_lexical(subject: str, predicate: str, obj: str, language: str) -> str:
    return lexical_text(fact_text(subject, predicate, obj), language)
