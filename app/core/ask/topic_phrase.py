"""Status words inside a topic: "polls about closing the space", "proposals about the open day".

The analysis reads "open", "closing", "results" or "over" as filters and drops them from
the search words, which is right in "open proposals about parking" and wrong when the
word is part of what the proposals are about. What follows "about" (up to a clause of
its own: "that are still open", "created last week", a comma) names the topic, so a
status read only from a word inside it is no filter, and the bot's own words inside it
("closing", "open") are search words like any other.
"""

from __future__ import annotations

import re
from dataclasses import replace

from app.core.ask.analysis import (
    CREATION_WORDS,
    DEADLINE_WORDS,
    INTENT_PROPOSALS,
    STATUS_PATTERNS,
    AskAnalysis,
)

_ABOUT = re.compile(
    r"\b(?:about|regarding|concerning|re|on the (?:subject|topic) of|to do with|related to)\s+",
    re.I,
)
_END = re.compile(
    r"\s*(?:\b(?:that|which|who|whose|are|is|was|were|will|have|has|had|can|could|"
    r"created|made|proposed|submitted|posted|started|"
    r"from|by|since|before|after|during|between|this|last|next|in \d{4}|still|and|or)\b|"
    r"[,;?!.])",
    re.I,
)
# Status words that are prepositions or adverbs inside a topic: never search words.
_FUNCTION = frozenset("over past live current currently right now at the moment".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


_BOT_WORDS = [p for p, _ in STATUS_PATTERNS] + [DEADLINE_WORDS, CREATION_WORDS]


def is_bot_word(word: str) -> bool:
    """A status, deadline or creation word ("open", "closing") that can also be a topic."""
    low = word.lower()
    return low not in _FUNCTION and any(p.fullmatch(low) for p in _BOT_WORDS)


def topic_span(question: str) -> tuple[int, int] | None:
    """Where the topic after "about" is in the question, if it has one."""
    about = _ABOUT.search(question)
    if about is None:
        return None
    end = _END.search(question, about.end())
    stop = end.start() if end else len(question)
    return (about.end(), stop) if stop > about.end() else None


def reread(question: str, analysis: AskAnalysis) -> AskAnalysis:
    """The analysis with status words inside the topic read as topic words."""
    if analysis.intent != INTENT_PROPOSALS:
        return analysis
    span = topic_span(question)
    if span is None:
        return analysis
    inside = question[span[0] : span[1]]
    outside = f"{question[: span[0]]} {question[span[1] :]}"
    status = analysis.status
    if status is not None and not any(p.search(outside) for p, s in STATUS_PATTERNS if s == status):
        status = None  # "proposals about the open day": "open" is part of the topic
    bot_words = [p for p, _ in STATUS_PATTERNS]
    if analysis.date_phrase is None:  # else "closing" belongs to the date: "closing in May"
        bot_words += [DEADLINE_WORDS, CREATION_WORDS]
    restored = []
    for word in _WORD.findall(inside):
        low = word.lower()
        if low in _FUNCTION:
            continue
        if any(p.fullmatch(word) for p in bot_words):
            restored.append(low)
    if status == analysis.status and not restored:
        return analysis
    known = (analysis.content_keywords or "").split()
    words = [*restored, *(w for w in known if w.lower() not in restored)]
    return replace(analysis, status=status, content_keywords=" ".join(words) or None)
