"""How far a text's words mean the topic's words: the cover of a topic by meaning.

A member asks for a category ("anything about money?", "equipment proposals") in a word
the proposals that answer it rarely use: they say "budget", "financial aid", "laptops",
"microphone". A whole proposal embeds far from one word, and the share of the topic's
words it holds is zero, yet word for word the closeness is plain: "money" is near
"financial" and "budget", "equipment" near "laptops". So each of the topic's words is
matched with the closest word of the text by the same embedding model, and two numbers
say how well the text covers the topic by meaning: the mean of those closest cosines
over the topic's words (the words' cover, as ``share`` is by spelling) and the closest
pair of all. The community's own words are the vocabulary: no list of topics or
synonyms.

Word vectors are kept in memory (a member's topics and the proposals' words recur),
the missing ones embedded in one call per question.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from app.core.ask.analysis import STOP_WORDS
from app.services.vector_db_service import VectorDBService

KEPT_WORDS = 20_000  # word vectors kept in memory (about 30 MB at 384 dimensions)
SHORTEST = 3  # shorter words ("tv", "ok") embed as noise alone
_WORD = re.compile(r"[^\W\d_][\w'-]*", re.UNICODE)


def words(text: str) -> list[str]:
    """The words of ``text`` whose meaning is compared: lower-cased, in order, once,
    without filler words and numbers."""
    found = (w.casefold().strip("'-") for w in _WORD.findall(text))
    return list(dict.fromkeys(w for w in found if len(w) >= SHORTEST and w not in STOP_WORDS))


class WordMeaning:
    """Word vectors from the embedding model, kept for the words met most recently."""

    def __init__(self, vectors: VectorDBService, kept: int = KEPT_WORDS) -> None:
        self.vectors = vectors
        self.kept = kept
        self._known: OrderedDict[str, np.ndarray] = OrderedDict()

    async def covers(self, topic: str, texts: Sequence[str]) -> list[tuple[float, float]]:
        """For each text: (the mean over the topic's words of the cosine of the text's
        closest word, the closest pair's cosine); (0, 0) for a text or topic without
        words."""
        asked = words(topic)
        said = [words(t) for t in texts]
        if not asked or not any(said):
            return [(0.0, 0.0)] * len(texts)
        vectors = await self._vectors([*asked, *(w for ws in said for w in ws)])
        topic_matrix = np.vstack([vectors[w] for w in asked])
        out = []
        for ws in said:
            if not ws:
                out.append((0.0, 0.0))
                continue
            closest = (topic_matrix @ np.vstack([vectors[w] for w in ws]).T).max(axis=1)
            out.append((float(closest.mean()), float(closest.max())))
        return out

    async def _vectors(self, wanted: Sequence[str]) -> dict[str, np.ndarray]:
        """The vectors of ``wanted``: those kept, and the others embedded in one call.
        What is kept is read before the call: another question may make room meanwhile."""
        wanted = list(dict.fromkeys(wanted))
        found = {w: self._known[w] for w in wanted if w in self._known}
        missing = [w for w in wanted if w not in found]
        if missing:
            fresh = await self.vectors.embed(missing)
            found |= {
                w: np.asarray(v, dtype=np.float32) for w, v in zip(missing, fresh, strict=True)
            }
        for word in wanted:
            self._known[word] = found[word]
            self._known.move_to_end(word)
        while len(self._known) > self.kept:
            self._known.popitem(last=False)
        return found
