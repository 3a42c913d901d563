"""Which language a question is written in: cheap, offline, no model.

Cyrillic letters mean Russian (the only Cyrillic table); among the Latin-script
languages, the function words and the letters only one of them writes (ñ and ¿ for
Spanish, ã and ç for Portuguese) decide. The member's own language is a strong hint:
it wins unless the text clearly reads as another language, so "¿qué hay abierto?" from
a member whose Telegram is in English is read in Spanish, and a two-word question
with no telling word is read in the member's language.
"""

from __future__ import annotations

import re
from functools import cache

from app.core.ask.cues import Cues, all_cues
from app.i18n import SOURCE_LANGUAGE, normalize

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_CYRILLIC = re.compile(r"[а-яё]", re.I)
_LATIN = re.compile(r"[a-zà-ÿ]", re.I)
HINT_WEIGHT = 1.5  # the member's language counts as this many telling words
MARKER_WEIGHT = 2.0  # a letter only one language writes


@cache
def _tables() -> dict[str, Cues]:
    return all_cues()


@cache
def _vocabulary(language: str) -> re.Pattern[str] | None:
    """The table's cue words (proposals, statuses, dates...): telling words too."""
    cues = _tables()[language]
    parts = [cues.proposal_words, cues.open, cues.closed, cues.cancelled, cues.creation_words,
             cues.deadline_words, cues.doc_words]  # fmt: skip
    pattern = "|".join(p for p in parts if p)
    return re.compile(f"(?:{pattern})", re.I) if pattern else None


def _telling(word: str, language: str, cues: Cues) -> bool:
    if word in cues.stopwords or word in cues.filler:
        return True
    vocabulary = _vocabulary(language)
    return vocabulary is not None and vocabulary.fullmatch(word) is not None


def supported(language: str | None) -> str | None:
    """The table's name for a catalog name or IETF tag, or None without a table."""
    name = normalize(language) if language else None
    return name if name in _tables() else None


def detect_language(text: str, hint: str | None = None) -> str:
    """The table to read ``text`` with; ``hint`` is the member's language."""
    tables = _tables()
    preferred = supported(hint)
    lowered = text.casefold()
    cyrillic, latin = len(_CYRILLIC.findall(lowered)), len(_LATIN.findall(lowered))
    scripts = {
        name: cues
        for name, cues in tables.items()
        if (_CYRILLIC.search(cues.markers) is not None) == (cyrillic > latin)
    }
    if not scripts:
        return preferred or SOURCE_LANGUAGE
    if len(scripts) == 1:
        return next(iter(scripts))
    words = _WORD.findall(lowered)
    scores: dict[str, float] = {}
    for name, cues in scripts.items():
        score = sum(1.0 for w in words if _telling(w, name, cues))
        score += MARKER_WEIGHT * sum(1 for ch in lowered if ch in cues.markers)
        if name == preferred:
            score += HINT_WEIGHT
        scores[name] = score
    best = max(scores, key=lambda n: (scores[n], n == preferred, n == SOURCE_LANGUAGE))
    if scores[best] == 0:
        return preferred or SOURCE_LANGUAGE
    return best
