"""Whether the passages found are about what the question names, not only near it.

A passage can match an off-topic question closely enough on its other words: "where
can I park my boat?" lies near the parking policy, "what is the password for
netflix?" near the guest wifi page. One similarity threshold cannot tell these from
"is the gym open on Sundays?", which the fitness room page answers although it never
says "gym". What tells them apart is the thing the question names.

A subject word is a word of a phrase the question puts after an article, a possessive
or "for"/"about" ("the gym", "my boat", "for netflix", "the garden shed"). When such
a word appears nowhere in the community's texts (its proposals, documents and facts),
what would answer (passages, facts, entries of the bot's manual) must still be about it
in meaning: the word close to one of those texts as a whole (SUBJECT_NEAR_PASSAGE), or
to one of their words (SUBJECT_NEAR_WORD: "gym" and "fitness", "clothes" and
"laundry"). A boat is neither close to the parking policy nor to any of its words,
so the question gets "nothing found" and the answer says which word nothing covers.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

import numpy as np

from app.core.ask.analysis import STOP_WORDS
from app.core.ask.chatter import CHATTER
from app.core.ask.spelling import Lexicon
from app.nlp.key_terms import word_forms

Embed = Callable[[Sequence[str]], Awaitable[np.ndarray]]

SUBJECT_NEAR_PASSAGE = 0.35  # cosine of the word to the passage (MiniLM, int8)
SUBJECT_NEAR_WORD = 0.6  # cosine of the word to the passage's closest word
PASSAGES_READ = 3
_SUBJECT = re.compile(
    r"\b(?:the|a|an|my|our|your|their|his|her|its|for|about)\s+"
    r"(?=([a-z][a-z-]{2,}(?:\s+[a-z][a-z-]{2,}){0,2}))",
    re.I,
)
_WORDS = re.compile(r"[a-z]{3,}")
CACHE_LIMIT = 50_000
KEYWORD_QUERY = 4  # at most this many words with no question word: a keyword query
_ASKING = re.compile(
    r"^\s*(?:who|whom|whose|what|when|where|which|why|how|is|are|was|were|do|does|did|"
    r"can|could|should|will|would|may|has|have)\b",
    re.I,
)
# Words naming a kind of text, not a subject: "sauna rules" asks about the sauna.
GENERIC = frozenset("rule rules policy policies info information details guide hours times".split())


def keyword_query(question: str) -> bool:
    """A few words with no question around them: "kitchen robot", "sauna rules"."""
    words = _WORDS.findall(question.lower())
    return 0 < len(words) <= KEYWORD_QUERY and not _ASKING.match(question) and "?" not in question


def subjects(question: str, lexicon: Lexicon) -> list[str]:
    """What the question names that must be covered by what answers it: in a keyword
    query, every word ("kitchen robot"); otherwise the foreign subject words."""
    if keyword_query(question):
        words = [w for w in _WORDS.findall(question.lower()) if w not in STOP_WORDS]
        return [w for w in dict.fromkeys(words) if w not in CHATTER and w not in GENERIC]
    return foreign_subjects(question, lexicon)


def foreign_subjects(question: str, lexicon: Lexicon) -> list[str]:
    """The subject words of the question that none of the community's texts contain."""
    found = []
    for match in _SUBJECT.finditer(question):
        # "the golf club", "the national election": the phrase's foreign words up to the
        # first known one; a word after a known one may be a verb ("the budget plan for")
        for word in match.group(1).lower().split():
            word = word.strip("-")
            if word in STOP_WORDS or lexicon.contains(word):
                break
            found.append(word)
    return list(dict.fromkeys(found))


class Coverage:
    """Word vectors, embedded once and kept, to judge whether a passage covers a word."""

    def __init__(self, embed: Embed) -> None:
        self.embed = embed
        self._vectors: dict[str, np.ndarray] = {}

    async def uncovered(self, words: list[str], answers: Sequence[str]) -> list[str]:
        """The words none of the texts that would answer (passages, facts, manual entries)
        contains or is about in meaning."""
        if not words or not answers:
            return list(words)
        texts = [" ".join(a.split()) for a in answers[:PASSAGES_READ]]
        present = {f for t in texts for w in _WORDS.findall(t.lower()) for f in word_forms(w)}
        words = [w for w in words if not word_forms(w) & present]
        if not words:
            return []
        own = sorted({w for t in texts for w in _WORDS.findall(t.lower()) if w not in STOP_WORDS})
        vectors = await self._vectors_of([*words, *own])
        passage_vectors = np.asarray(await self.embed(texts), dtype=np.float32)
        own_matrix = np.stack([vectors[w] for w in own]) if own else None
        left = []
        for word in words:
            v = vectors[word]
            near_passage = float(np.max(passage_vectors @ v))
            near_word = float(np.max(own_matrix @ v)) if own_matrix is not None else 0.0
            if near_passage < SUBJECT_NEAR_PASSAGE and near_word < SUBJECT_NEAR_WORD:
                left.append(word)
        return left

    async def _vectors_of(self, words: list[str]) -> dict[str, np.ndarray]:
        new = [w for w in dict.fromkeys(words) if w not in self._vectors]
        if new:
            if len(self._vectors) + len(new) > CACHE_LIMIT:
                self._vectors.clear()
            for word, vector in zip(new, await self.embed(new), strict=True):
                self._vectors[word] = np.asarray(vector, dtype=np.float32)
        return {w: self._vectors[w] for w in words}
