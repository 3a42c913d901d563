"""What a question asks for, read from its form by a fitted model.

Members ask for a list of proposals ("have we voted on pensions?"), for what a page
says ("do blank votes count?") or for a fact ("who leads the well group?") in words no
cue list foresees: "votes" names proposals in the first and a rule in the second. So a
multinomial logistic regression over the question's embedding and the words members of
more than one development community used (so no community's topic reads as a form)
gives the probabilities of proposals, documents and facts, which the decision reads.
reading.json beside this file; scripts/fit_ask_decision.py refits it. English only: a
question in another language is read by its cue table (multilingual.py) alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from app.core.ask import logistic
from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS, INTENT_PROPOSALS
from app.core.ask.logistic import Logistic

MODEL = Path(__file__).with_name("reading.json")
KINDS = (INTENT_PROPOSALS, INTENT_DOCS, INTENT_FACTS)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(question: str) -> set[str]:
    """The words a question is asked with, and its first word marked as such ("^who")."""
    found = _WORD.findall(question.casefold().replace("’", "'"))
    return {*found, f"^{found[0]}"} if found else set()


EMBEDDED = "embedding:"  # a feature: one dimension of the question's embedding
SAID = "word:"  # a feature: the question holds this word


@dataclass(frozen=True)
class Reading:
    model: Logistic  # multinomial over KINDS (logistic.py)

    @property
    def vocabulary(self) -> tuple[str, ...]:
        return tuple(f.removeprefix(SAID) for f in self.model.features if f.startswith(SAID))

    def read(self, question: str, vector: np.ndarray) -> dict[str, float]:
        p = self.model.probabilities(row(question, vector, self.vocabulary))
        return dict(zip(KINDS, map(float, p), strict=True))


def row(question: str, vector: np.ndarray, vocabulary: Sequence[str]) -> np.ndarray:
    said = words(question)
    return np.concatenate([vector, [float(w in said) for w in vocabulary]])


@cache
def reading(path: Path = MODEL) -> Reading:
    fitted, data = logistic.load(path, None)  # the words it reads are the file's own
    if tuple(data.get("outcomes", ())) != KINDS:
        raise ValueError(f"{path} was fitted for other kinds: refit it")
    return Reading(fitted)


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
    features = (*(f"{EMBEDDED}{i}" for i in range(vectors.shape[1])),
                *(f"{SAID}{w}" for w in words_used))  # fmt: skip
    x = np.array([row(q, v, words_used) for q, v in zip(questions, vectors, strict=True)])
    y = np.zeros((len(kinds), len(KINDS)))
    y[np.arange(len(kinds)), [KINDS.index(k) for k in kinds]] = 1.0
    return Reading(logistic.fit(features, x, y, np.asarray(weights, np.float64), l2, steps))


def as_json(fitted: Reading) -> dict[str, object]:
    return {"outcomes": list(KINDS), **fitted.model.as_json()}
