"""Group free-form submissions by meaning with the local embedding model.

Keyword overlap misses paraphrases ("a ping pong table" and "table tennis near
reception" share one word; "more plants" and "greenery on the terrace" share none),
so submissions are embedded and clustered by cosine similarity: average-linkage
agglomerative clustering that merges the two most similar groups while their mean
pairwise similarity is at least :data:`THRESHOLD`. Each group is named by its most
common keywords, as the keyword grouping does; among equally common ones the keyword
whose embedding is closest to the group's centre wins ("plants", not "balcony").

Determinism: distinct texts are embedded and clustered in sorted order (duplicates
count as weight) and every tie goes to the lowest index, so the same submissions in
any order give the same themes. What is shown of the groups is decided by
:func:`~app.core.closing.themes.shown_themes` (no theme of a single idea, no word of
one idea in a name). If embedding fails the keyword grouping answers instead; only
the exception's type is logged, never a submission.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from app.core.closing.themes import (
    keyword_lists,
    name_group,
    shown_themes,
    summarize_themes,
    surface_form,
)

logger = logging.getLogger(__name__)

#: Mean pairwise cosine similarity (all-MiniLM-L6-v2) at which two groups merge.
#: Calibrated on two idea lists (an office, a residential building: 10 topics of 3-6
#: paraphrases each plus 10 unrelated ideas, and 60 random subsets of each): 0.3 gave
#: the best agreement with the hand labels at about 92% pair precision; 0.25 starts
#: merging neighbouring topics, 0.35 and up splits paraphrases apart.
THRESHOLD = 0.3
#: More distinct keywords than this are not embedded; names then break ties by the alphabet.
MAX_TERMS = 2000
#: Clustering more distinct texts than this runs in a worker thread.
INLINE_LIMIT = 200

Embed = Callable[[Sequence[str]], Awaitable[np.ndarray]]


def cluster(vectors: np.ndarray, weights: Sequence[int], threshold: float) -> list[list[int]]:
    """Average-linkage clusters of ``vectors`` by cosine (row indices, each list sorted).

    ``weights`` say how many submissions each row stands for. Merging stops when no two
    groups have a weighted mean cosine similarity of at least ``threshold``. A merged
    group keeps the lower index, and every argmax takes the first of equal values.
    """
    n = len(vectors)
    if n == 0:
        return []
    sim = _unit(vectors) @ _unit(vectors).T
    np.fill_diagonal(sim, -np.inf)
    sizes = np.asarray(weights, dtype=np.float64)
    members = [[i] for i in range(n)]
    active = np.ones(n, dtype=bool)
    best = sim.argmax(axis=1)  # each row's most similar group, cached
    best_sim = sim[np.arange(n), best]
    while True:
        i = int(np.argmax(best_sim))
        if not best_sim[i] >= threshold:
            break
        a, b = sorted((i, int(best[i])))
        merged = (sizes[a] * sim[a] + sizes[b] * sim[b]) / (sizes[a] + sizes[b])
        sim[a, :] = merged
        sim[:, a] = merged
        sim[a, a] = sim[b, :] = sim[:, b] = -np.inf
        sizes[a] += sizes[b]
        members[a] += members[b]
        members[b] = []
        active[b] = False
        best_sim[b] = -np.inf
        # Rows that pointed at a or b look again; the others may now prefer a.
        stale = np.flatnonzero(active & ((best == a) | (best == b)))
        for k in {a, *stale.tolist()}:
            best[k] = int(np.argmax(sim[k]))
            best_sim[k] = sim[k, best[k]]
        closer = active & (sim[:, a] > best_sim)
        best[closer] = a
        best_sim[closer] = sim[closer, a]
    return [sorted(m) for m in members if m]


def _unit(vectors: np.ndarray) -> np.ndarray:
    v = np.asarray(vectors, dtype=np.float64)
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


@dataclass(frozen=True, slots=True)
class Submissions:
    """Submissions read for grouping: what to embed, in a canonical order."""

    texts: list[str]
    stems: dict[str, list[str]]  # text -> its keyword stems
    surfaces: dict[str, Counter[str]]
    unique: list[str]  # distinct texts with keywords, sorted
    terms: list[str]  # the stems to embed for naming, sorted (none past MAX_TERMS)
    no_keywords: int

    @classmethod
    def of(cls, texts: Sequence[str]) -> Submissions:
        stem_lists, surfaces = keyword_lists(list(texts))
        stems = dict(zip(texts, stem_lists, strict=True))
        unique = sorted(t for t, s in stems.items() if s)
        terms = sorted({stem for t in unique for stem in stems[t]})
        return cls(
            texts=list(texts),
            stems=stems,
            surfaces=surfaces,
            unique=unique,
            terms=terms if len(terms) <= MAX_TERMS else [],
            no_keywords=sum(1 for s in stem_lists if not s),
        )

    def to_embed(self) -> list[str]:
        """The distinct texts, then the surface form of every term."""
        return self.unique + [surface_form(t, self.surfaces) for t in self.terms]


def semantic_themes(
    subs: Submissions,
    vectors: np.ndarray,
    *,
    max_themes: int = 5,
    threshold: float = THRESHOLD,
) -> list[dict[str, Any]]:
    """Themes of ``subs`` given the vectors of ``subs.to_embed()``, in that order."""
    if max_themes < 1:
        raise ValueError("max_themes must be at least 1")
    text_vectors = _unit(vectors[: len(subs.unique)])
    term_vectors = dict(zip(subs.terms, _unit(vectors[len(subs.unique) :]), strict=True))
    positions: dict[str, list[int]] = {}
    for index, text in enumerate(subs.texts):
        positions.setdefault(text, []).append(index)
    weights = [len(positions[t]) for t in subs.unique]
    groups: list[tuple[str, list[int]]] = []
    for group in cluster(text_vectors, weights, threshold):
        centre = sum(weights[i] * text_vectors[i] for i in group)

        def closeness(stem: str, centre: np.ndarray = centre) -> float:
            vector = term_vectors.get(stem)
            return float(vector @ centre) if vector is not None else 0.0

        members = [subs.stems[subs.unique[i]] for i in group for _ in range(weights[i])]
        name = name_group(members, subs.surfaces, closeness)
        groups.append((name, [p for i in group for p in positions[subs.unique[i]]]))
    return shown_themes(subs.texts, groups, max_themes, no_keywords=subs.no_keywords)


class EmbeddingThemeSummarizer:
    """Themes by meaning, through ``embed`` (``VectorDBService.embed``: off the loop)."""

    def __init__(self, embed: Embed, max_themes: int = 5, threshold: float = THRESHOLD) -> None:
        self.embed = embed
        self.max_themes = max_themes
        self.threshold = threshold

    async def summarize(self, texts: list[str]) -> list[dict[str, Any]]:
        subs = Submissions.of(texts)
        if not subs.unique:
            return summarize_themes(texts, self.max_themes)  # nothing to embed
        wanted = subs.to_embed()
        try:
            vectors = np.asarray(await self.embed(wanted), dtype=np.float64)
            if vectors.shape[0] != len(wanted) or vectors.ndim != 2:
                raise ValueError("embeddings of the wrong shape")
            if not np.isfinite(vectors).all():
                raise ValueError("embeddings that are not finite")
        except Exception as exc:  # the keyword grouping still answers
            logger.warning(
                "embedding submissions failed (%s); grouping by keywords", type(exc).__name__
            )
            return summarize_themes(texts, self.max_themes)
        group = partial(
            semantic_themes, subs, vectors, max_themes=self.max_themes, threshold=self.threshold
        )
        return await asyncio.to_thread(group) if len(subs.unique) > INLINE_LIMIT else group()
