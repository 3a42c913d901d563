"""A community's names that hold a filter word: "Open Tuesday", "open data", "new members".

The reading takes "open" for the status of the proposals asked for, "new" for a creation
date and "closing" for a deadline, wherever they stand. In a community's own names they
are no filter: "since when do open tuesdays happen?" asks about the Open Tuesday, "will
our code be open source?" about a licence, "who welcomes new members?" about a role. The
community says which: a filter word is part of a name when the community's own texts
(its documents, proposals and facts) write it beside the question's next or previous word.
Such a pair is held whole while the question is read, so neither word is a filter or a
date, and it stays in the topic searched for.

No list of names: the pairs come from the texts, the filter words from the reading's own
patterns (analysis.py), and the bot's own words ("open proposals", "new polls") and
function words ("open until") never make a name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from app.core.ask.analysis import (
    CREATION_WORDS,
    DEADLINE_WORDS,
    STATUS_PATTERNS,
    TYPE_PATTERNS,
    AskAnalysis,
)
from app.nlp.lexical import lexical_terms

_CUES = [p for p, _ in STATUS_PATTERNS] + [p for p, _ in TYPE_PATTERNS]
_CUES += [CREATION_WORDS, DEADLINE_WORDS]
_WORD = re.compile(r"[^\W\d_]+")
# two words with only spaces or a hyphen between ("open-source" is "open source")
_PAIR = re.compile(r"([^\W\d_]+)[ \t-]+(?=([^\W\d_]+))")
_HELD = "xheld"  # + a letter per name: a word that no reading pattern knows


def filter_words(words: Iterable[str]) -> frozenset[str]:
    """Those of ``words`` (lower case) that the reading takes alone as a filter."""
    return frozenset(w for w in words if any(p.fullmatch(w) for p in _CUES))


def _key(first: str, second: str, language: str) -> str:
    """A pair as its words' stems: "open tuesdays" is the "Open Tuesday" of the texts."""
    return " ".join((lexical_terms(w, language) or [w])[0] for w in (first, second))


def name_pairs(
    texts: Iterable[str], filters: frozenset[str], own: frozenset[str], language: str = "en"
) -> set[str]:
    """The pairs of adjacent words in ``texts`` that join a filter word to a word that is
    neither a filter, nor one of ``own`` (the bot's words and function words)."""
    pairs: set[str] = set()
    for text in texts:
        for match in _PAIR.finditer(text.lower()):
            first, second = match.group(1), match.group(2)
            if (first in filters) == (second in filters):
                continue  # no filter word, or two ("closed yesterday")
            other = second if first in filters else first
            if other not in own and len(other) > 1:
                pairs.add(_key(first, second, language))
    return pairs


def names_in(question: str, pairs: set[str], language: str = "en") -> list[str]:
    """The question's pairs of words that are one of ``pairs``, as the question writes them."""
    found = []
    for match in _PAIR.finditer(question):
        if _key(match.group(1).lower(), match.group(2).lower(), language) in pairs:
            found.append(question[match.start(1) : match.end(2)])
    return found


def hold(question: str, names: Sequence[str]) -> tuple[str, dict[str, str]]:
    """The question with each name written as one word no pattern reads, and what each
    such word stands for."""
    held: dict[str, str] = {}
    for i, name in enumerate(names[:26]):
        token = _HELD + "abcdefghijklmnopqrstuvwxyz"[i]

        def swap(match: re.Match[str], token: str = token) -> str:
            held[token] = match.group(0)
            return token.capitalize() if match.group(0)[:1].isupper() else token

        question = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", swap, question, flags=re.I)
    return question, held


def restore(analysis: AskAnalysis, held: dict[str, str]) -> AskAnalysis:
    """The reading with each held name written back as the question wrote it."""
    if not held:
        return analysis

    def back(text: str | None) -> str | None:
        if text is None:
            return None
        return _WORD.sub(lambda m: held.get(m.group(0).lower(), m.group(0)), text)

    return replace(
        analysis,
        content_keywords=back(analysis.content_keywords),
        proposer=back(analysis.proposer),
        names=tuple(held.values()),
    )
