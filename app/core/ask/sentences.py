"""The direct answer from documents: the sentence of the documents found that answers.

Offline, /ask quotes what a document says rather than writing anything. Every unit
(sentence, list item, table row: app/nlp/units.py) of the best documents is a candidate,
read with its heading and the unit before it as context, and one fitted scorer ranks
them, the same for every community, over FEATURES (sentences.json beside this file;
scripts/fit_ask_decision.py refits it with the decision).

The answer quotes the best-scored units, not the best one and what follows it: on the
development communities the sentence that says the answer is the best one about half the
time and one of the four best some three times in four, while the unit after the best
rarely holds it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from app.core.ask import logistic
from app.core.ask.logistic import Logistic
from app.core.ask.models import DocumentHit
from app.nlp.lexical import lexical_terms
from app.nlp.units import Unit, segment

MODEL = Path(__file__).with_name("sentences.json")
MAX_QUOTE = 300
QUOTED = 4  # the best units considered for the answer's quote
QUOTED_DOCUMENTS = 2  # documents an answer's quote names at most
SHORTEST_PART = 60  # a unit cut shorter than about a line says too little to quote
DOCUMENTS = 3  # the best documents whose units are candidates
FEATURES = (
    "cosine", "covered", "own", "passage", "document_rank",
    "quantity",  # the question asks how many, how long, when ... and the unit gives a number
    "cosine_gap",  # its cosine minus the best candidate's: candidates compete per question
    "covered_gap",  # its covered share minus the best candidate's
)  # fmt: skip
# The question-form cue a number answers, and the number that answers it
_QUANTITY = re.compile(
    r"\b(?:how (?:many|much|long|often|old|big|large|small|far|soon|early|late|quickly|fast)|"
    r"when|what time|minimum|maximum|min|max|limit|number|age|cost|price|fee|deadline|"
    r"frequency)\b",
    re.I,
)
_NON_WORD = re.compile(r"[\W_]+")
_NUMBER = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
    r"hundred|thousand|once|twice|half|quarter|daily|weekly|monthly|yearly|annually|"
    r"quarterly)\b",
    re.I,
)


def asks_quantity(question: str) -> bool:
    """ "how many ...?", "when ...?", "minimum age": a number or a time answers it."""
    return bool(_QUANTITY.search(question))


def states_number(text: str) -> bool:
    return bool(_NUMBER.search(text))


@dataclass(frozen=True, slots=True)
class Candidate:
    unit: Unit
    hit: DocumentHit  # the best passage of the unit's document
    units: tuple[Unit, ...]  # every unit of that document, for the quote
    index: int  # the unit's place among them


@dataclass(frozen=True, slots=True)
class Scored:
    unit: Unit
    hit: DocumentHit
    units: tuple[Unit, ...]
    score: float  # the fitted model's probability that the unit answers
    similarity: float  # question to unit, cosine
    covered: float  # weighted share of the question's terms in the unit and its context
    features: tuple[float, ...]


def quote(best: Scored) -> str:
    """One unit and what follows it under its heading, up to about MAX_QUOTE characters
    (a model's evidence: grounded.py)."""
    chosen = [best.unit]
    for unit in (u for u in best.units if u.start >= best.unit.end):
        size = sum(len(u.text) + 1 for u in chosen)
        if size + len(unit.text) > MAX_QUOTE or unit.heading != best.unit.heading:
            break
        chosen.append(unit)
    return cut(" ".join(u.text for u in chosen))


def quotes(best: Sequence[Scored]) -> list[tuple[DocumentHit, str]]:
    """The answer's quote: the QUOTED best units in about MAX_QUOTE characters (the best
    one always, cut at a word if it is longer; a later one that does not fit is cut to
    the room left, when that is at least SHORTEST_PART), from at most QUOTED_DOCUMENTS
    documents: the documents by their best unit, each one's units in its own order. A
    unit ending in a colon brings what it introduces. A unit whose words the quote
    already holds is left out, and one that holds a quoted unit's words and more takes
    its place: pages repeat themselves (a banner and the text below it, two pages
    saying the same), and the room saved holds what they add."""
    chosen: list[tuple[Scored, str]] = []
    for scored in best[:QUOTED]:
        said = _said(scored)
        words = _words(said)
        if any(words <= _words(text) for _, text in chosen):
            continue  # says nothing the quote does not: the page, or another, repeats it
        rest = [p for p in chosen if not _words(p[1]) <= words]  # it says those and more
        documents = {c.hit.document_id for c, _ in rest} | {scored.hit.document_id}
        if rest and len(documents) > QUOTED_DOCUMENTS:
            continue
        size = sum(len(text) + 1 for _, text in rest)
        if rest and size + len(said) > MAX_QUOTE:
            room = MAX_QUOTE - size - len(" …")
            if room < SHORTEST_PART:
                continue
            said = cut(said, room)
        if any(_within(scored, c, text) for c, text in rest):
            continue  # already quoted with the unit that introduces it
        chosen = [*rest, (scored, said)]
    parts = []
    for document_id in dict.fromkeys(c.hit.document_id for c, _ in chosen):
        own = sorted(
            (pair for pair in chosen if pair[0].hit.document_id == document_id),
            key=lambda pair: pair[0].unit.start,
        )
        parts.append((own[0][0].hit, cut(" ".join(text for _, text in own))))
    return parts


def _words(text: str) -> set[str]:
    return set(_NON_WORD.split(text.casefold())) - {""}


def _said(scored: Scored) -> str:
    """A unit as quoted: one that introduces what follows it ("please include:") says
    nothing alone, so it is quoted with what follows under its heading."""
    return quote(scored) if scored.unit.text.endswith(":") else scored.unit.text


def _within(scored: Scored, other: Scored, said: str) -> bool:
    """Whether ``scored`` is part of the quote ``said`` of ``other``."""
    return (
        scored.hit.document_id == other.hit.document_id
        and other.unit.start <= scored.unit.start
        and scored.unit.text in said
    )


def cut(text: str, size: int = MAX_QUOTE) -> str:
    if len(text) > size:
        text = text[:size].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return text


def context(unit: Unit, title: str) -> str:
    return f"{title} {unit.heading} {unit.before} {unit.text}"


def rarity(among: int, holding: int) -> float:
    """A term's weight when ``holding`` of ``among`` texts hold it: rarer, heavier."""
    return math.log(1 + (among + 1) / (1 + holding))


def _weights(terms: set[str], candidates: Sequence[Set[str]]) -> dict[str, float]:
    """Each question term's weight among the candidates."""
    return {t: rarity(len(candidates), sum(t in c for c in candidates)) for t in terms}


def weighted_share(weights: dict[str, float], present: Set[str]) -> float:
    """The share of the terms' weight that ``present`` holds."""
    total = sum(weights.values())
    return sum(w for t, w in weights.items() if t in present) / total if total else 0.0


def features(
    question: str,
    question_vector: np.ndarray,
    candidates: Sequence[Candidate],
    vectors: np.ndarray,
    passages: Sequence[DocumentHit],
    contents: dict[str, str],
    language: str = "en",
) -> np.ndarray:
    """One row of FEATURES per candidate."""
    terms = set(lexical_terms(question, language))
    own, in_context = [], []
    for c in candidates:
        unit_own, unit_context = _unit_terms(contents[c.hit.document_id], language)[c.index]
        own.append(unit_own)
        in_context.append(unit_context | _title_terms(c.hit.title, language))
    weights = _weights(terms, in_context)
    plain = dict.fromkeys(terms, 1.0)
    order = list(dict.fromkeys(h.document_id for h in passages))
    best_fused = max((h.fused for h in passages), default=0.0) or 1.0
    spans = [(h.document_id, *_span(contents.get(h.document_id, ""), h), h.fused) for h in passages]
    quantity = asks_quantity(question)
    cosines = vectors @ question_vector
    covered = [weighted_share(weights, t) for t in in_context]
    best_cosine, best_covered = float(np.max(cosines)), max(covered)
    rows = []
    for c, share, own_terms, cosine in zip(candidates, covered, own, cosines, strict=True):
        held = max(
            (
                f
                for d, a, b, f in spans
                if d == c.hit.document_id and a < c.unit.end and b > c.unit.start
            ),
            default=0.0,
        )
        rows.append(
            (
                float(cosine),
                share,
                weighted_share(plain, own_terms),
                held / best_fused,
                float(order.index(c.hit.document_id)) if c.hit.document_id in order else 3.0,
                float(quantity and states_number(c.unit.text)),
                float(cosine) - best_cosine,
                share - best_covered,
            )
        )
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))


@lru_cache(maxsize=128)
def _unit_terms(content: str, language: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each unit's own terms and those of its context (heading, unit before), once per
    document text: members ask about the same pages."""
    return tuple(
        (
            frozenset(lexical_terms(u.text, language)),
            frozenset(lexical_terms(f"{u.heading} {u.before} {u.text}", language)),
        )
        for u in segment(content)
    )


@lru_cache(maxsize=1024)
def _title_terms(title: str, language: str) -> frozenset[str]:
    return frozenset(lexical_terms(title, language))


def _span(content: str, hit: DocumentHit) -> tuple[int, int]:
    at = content.find(hit.content)
    return (at, at + len(hit.content)) if at >= 0 else (-1, -1)


@cache
def scorer(path: Path = MODEL) -> Logistic:
    """The fitted logistic regression over FEATURES (logistic.py)."""
    return logistic.load(path, FEATURES)[0]


def rank(
    candidates: Sequence[Candidate], rows: np.ndarray, fitted: Logistic | None = None
) -> list[Scored]:
    """The candidates by the fitted scorer, best first."""
    scores = (fitted or scorer()).probabilities(rows)
    scored = [
        Scored(c.unit, c.hit, c.units, float(s), float(r[0]), float(r[1]), tuple(map(float, r)))
        for c, s, r in zip(candidates, scores, rows, strict=True)
    ]
    return sorted(scored, key=lambda s: -s.score)
