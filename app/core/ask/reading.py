"""What a question asks for, read from its form by a fitted model.

Members ask for a list of proposals ("have we voted on pensions?"), for what a page
says ("do blank votes count?") or for a fact of the graph ("who leads the well group?")
in words no list of cues foresees: "votes" names proposals in the first and a rule in
the second. This reading learns the difference from the development communities'
labelled questions instead: a multinomial logistic regression over the question's
embedding (the bundled model's, which /ask computes anyway) and the words it is asked
with, among the words members of more than one development community used (so a word
of one community's topics is not read as a form). It gives three probabilities,
proposals, documents and facts, which the decision (decision.py) reads beside the
searches' scores. Its coefficients live in reading.json beside this file;
scripts/fit_ask_decision.py refits them.

The embedding model and the words are English: a question in another language is read
by that language's cue table (multilingual.py) alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS, INTENT_PROPOSALS

MODEL = Path(__file__).with_name("reading.json")
KINDS = (INTENT_PROPOSALS, INTENT_DOCS, INTENT_FACTS)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(question: str) -> set[str]:
    """The words a question is asked with, and its first word marked as such ("^who")."""
    found = _WORD.findall(question.casefold().replace("’", "'"))
    return {*found, f"^{found[0]}"} if found else set()


@dataclass(frozen=True)
class Reading:
    vocabulary: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # (kinds, features)
    bias: np.ndarray  # (kinds,)

    def row(self, question: str, vector: np.ndarray) -> np.ndarray:
        said = words(question)
        return np.concatenate([vector, [float(w in said) for w in self.vocabulary]])

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """One row of KINDS probabilities per row of features."""
        z = ((rows - self.mean) / self.scale) @ self.weights.T + self.bias
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def read(self, question: str, vector: np.ndarray) -> dict[str, float]:
        p = self.probabilities(self.row(question, vector)[None, :])[0]
        return dict(zip(KINDS, map(float, p), strict=True))

    def as_json(self) -> dict[str, object]:
        return {
            "kinds": list(KINDS),
            "vocabulary": list(self.vocabulary),
            "mean": [round(float(v), 6) for v in self.mean],
            "scale": [round(float(v), 6) for v in self.scale],
            "weights": [[round(float(v), 6) for v in row] for row in self.weights],
            "bias": [round(float(v), 6) for v in self.bias],
        }


@cache
def reading(path: Path = MODEL) -> Reading:
    data = json.loads(path.read_text())
    if tuple(data["kinds"]) != KINDS:
        raise ValueError(f"{path} was fitted for other kinds: refit it")
    return Reading(
        tuple(data["vocabulary"]),
        np.array(data["mean"]),
        np.array(data["scale"]),
        np.array(data["weights"]),
        np.array(data["bias"]),
    )


def vocabulary(questions: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The words (question, community) pairs show in more than one community."""
    seen: dict[str, set[str]] = {}
    for question, community in questions:
        for word in words(question):
            seen.setdefault(word, set()).add(community)
    return tuple(sorted(w for w, where in seen.items() if len(where) > 1))


def fit(
    questions: Sequence[str],
    vectors: np.ndarray,
    kinds: Sequence[str],
    weights: Sequence[float],
    words_used: tuple[str, ...],
    l2: float = 10.0,
    steps: int = 1500,
) -> Reading:
    """Weighted multinomial logistic regression by gradient descent (numpy only)."""
    blank = Reading(words_used, np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0))
    x = np.array([blank.row(q, v) for q, v in zip(questions, vectors, strict=True)])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = (x - mean) / scale
    y = np.zeros((len(kinds), len(KINDS)))
    y[np.arange(len(kinds)), [KINDS.index(k) for k in kinds]] = 1.0
    w = np.asarray(weights, dtype=np.float64)
    w = w / w.sum()
    coef, bias = np.zeros((len(KINDS), z.shape[1])), np.zeros(len(KINDS))
    for _ in range(steps):
        logits = z @ coef.T + bias
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        error = (p - y) * w[:, None]
        coef -= error.T @ z + l2 * coef / len(kinds)
        bias -= error.sum(axis=0)
    return Reading(words_used, mean, scale, coef, bias)
