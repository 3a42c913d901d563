"""How many of the ranked proposals a question asks for: one fitted cut.

The list a member wants is some head of the fused ranking (proposal_search.py), and where
it ends differs with every question: "parking" has three proposals that say it, "events"
a dozen that never use the word. So no hand-set floor decides it: a logistic regression
over a few general features of each candidate (its closeness in meaning against the
other candidates', the falls above and below it, the share of the topic's words it
holds), fitted by scripts/fit_proposal_cut.py into proposal_cut.json, gives the
probability that the question asks for it; the fitted threshold keeps it or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from app.core.ask import logistic
from app.core.ask.logistic import Logistic

MODEL = Path(__file__).with_name("proposal_cut.json")
HEAD = 10  # the longest list whose end is looked for in a fall in meaning
Z_EPSILON = 1e-3  # keeps the z-score of a question whose candidates tie finite
FEATURES = (
    "cosine",  # its meaning: the mean of its cosines to the topic and to the question
    "cosine_z",  # that against the question's candidates: (cos - mean) / std
    "drop_above",  # the largest fall in it between the best candidate and it
    "drop_below",  # the fall in it from it to the next candidate down
    "cover",  # share of the topic's terms its title, description and options hold
    "no_words",  # 1 when no candidate holds any of the topic's terms: meaning alone
    "fall_below",  # the largest fall in it below it, within the HEAD nearest candidates
    "filtered_few",  # 1 / the candidates when the question states a filter, else 0
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One proposal the fusion returned, before the cut."""

    proposal_id: int
    fused: float  # its reciprocal-rank-fusion score
    rank: int  # 1-based place in the fused ranking
    cosine: float  # to the topic (0: the model does not read the question's language)
    cover: float
    asked: float | None = None  # its cosine to the whole question (None: not read)


def features(candidates: Sequence[Candidate], filtered: bool = False) -> np.ndarray:
    """Each candidate's FEATURES row, read against the others of the same question:
    where a list ends shows in a fall in meaning and in the words the better ones hold,
    not in any absolute score alone (short topics embed low and close together). A bare
    topic ("pets") embeds weakly, the question around it ("any proposals about pets")
    with noise of its own: their mean reads meaning better than either. The largest fall
    below a candidate (among the nearest HEAD) sets the few far above the rest apart:
    three proposals about dogs and cats, then everything else well below them. Inside a
    filter ("open proposals about money") the candidates are that filter's few, and a
    list asked for with a filter holds more of them the fewer they are; without one, how
    many candidates there are says only how big the community is, so it is not read."""
    if not candidates:
        return np.zeros((0, len(FEATURES)))
    cosine = np.array(
        [c.cosine if c.asked is None else (c.cosine + c.asked) / 2 for c in candidates]
    )
    cover = np.array([c.cover for c in candidates])
    order = np.argsort(-cosine, kind="stable")
    ranked = cosine[order]
    falls = ranked[:-1] - ranked[1:]
    drop_above, drop_below = np.empty_like(cosine), np.empty_like(cosine)
    drop_above[order] = np.maximum.accumulate(np.concatenate([[0.0], falls]))
    drop_below[order] = np.concatenate([falls, [0.0]])
    head = falls[:HEAD]
    fall_below = np.zeros_like(cosine)
    fall_below[order[: len(head)]] = np.maximum.accumulate(head[::-1])[::-1]
    no_words = float(not cover.any())
    return np.column_stack(
        [
            cosine,
            (cosine - cosine.mean()) / (cosine.std() + Z_EPSILON),
            drop_above,
            drop_below,
            cover,
            np.full_like(cosine, no_words),
            fall_below,
            np.full_like(cosine, 1.0 / len(candidates) if filtered else 0.0),
        ]
    ).astype(np.float64)


@dataclass(frozen=True)
class Cut(Logistic):
    """The logistic regression over FEATURES, and the probability that keeps."""

    threshold: float = 0.5

    def as_json(self) -> dict[str, object]:
        return super().as_json() | {"threshold": round(float(self.threshold), 4)}


@cache
def cut(path: Path = MODEL) -> Cut:
    model, data = logistic.load(path, FEATURES)
    return Cut(**vars(model), threshold=float(data["threshold"]))


def fit(
    rows: np.ndarray, labels: np.ndarray, weights: np.ndarray, l2: float = 1.0,
    threshold: float = 0.5, steps: int = 3000,
) -> Cut:  # fmt: skip
    model = logistic.fit(FEATURES, rows, labels, weights, l2, steps)
    return Cut(**vars(model), threshold=threshold)
