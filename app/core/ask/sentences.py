"""The direct answer from documents: the sentences of the passages found that answer.

Offline, /ask quotes what a document says rather than writing anything. The passages
found are read as units (a sentence, a list item, a table row), each with the heading
above it and the unit before it as its context, and one scorer ranks them, the same for
every community: the embedding similarity of the question and the unit (with its
heading), plus the share of the question's terms that the unit and its context contain,
each term weighted by how rare it is among the candidates (a word every candidate has
tells them apart from nothing). The best unit is quoted with what follows it, up to
about MAX_QUOTE characters, and the document is named.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from app.core.ask.models import DocumentHit
from app.nlp.lexical import lexical_terms

MAX_QUOTE = 300
CANDIDATES = 24  # units embedded for one question
AROUND = 200  # characters read before and after a passage, for its whole sentences

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^\s*(?:=+|-+)\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)]|[a-z][.)]|\([a-z0-9]{1,3}\))\s+")
_ROW = re.compile(r"^\s*\|")
_RULE = re.compile(r"^\s*(?:\|?\s*:?-{3,}:?\s*)+\|?\s*$|^\s*(?:[-*_]\s*){3,}$")
_BOLD_LINE = re.compile(r"^\s*(?:\*\*|__)([^*_]{2,80})(?:\*\*|__)\s*:?\s*$")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`)")
# A sentence ends at . ! ? before a capital, a digit or an opening mark; not after a
# one-letter initial or the usual abbreviations.
_END = re.compile(r"(?<=[.!?])[\"”’)\]]*\s+(?=[\"“(\[]?[A-Z0-9À-ÖØ-Þ])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|no|nos|mr|mrs|ms|dr|st|art|sec|approx)\.|\b[A-Z]\.)$", re.I
)


@dataclass(frozen=True, slots=True)
class Unit:
    """One quotable piece of a document, where it is, and what stands before it."""

    start: int  # offset in the document
    end: int
    text: str  # as quoted: whitespace collapsed, Markdown links and emphasis read as text
    heading: str  # the nearest heading above it
    before: str  # the unit before it in the document


@dataclass(frozen=True, slots=True)
class Scored:
    unit: Unit
    hit: DocumentHit  # the passage it was found in
    score: float
    similarity: float  # question to unit, cosine
    covered: float  # weighted share of the question's terms in the unit and its context


def clean(text: str) -> str:
    text = _LINK.sub(r"\1", text)
    return " ".join(_EMPHASIS.sub("", text).split())


def _sentences(text: str, offset: int) -> list[tuple[int, int, str]]:
    """A paragraph's sentences with their offsets."""
    pieces, start = [], 0
    for match in _END.finditer(text):
        if _ABBREVIATION.search(text[: match.start()]):
            continue
        pieces.append((start, match.start()))
        start = match.end()
    pieces.append((start, len(text)))
    return [(offset + a, offset + b, text[a:b]) for a, b in pieces if text[a:b].strip()]


@lru_cache(maxsize=256)
def segment(content: str) -> tuple[Unit, ...]:
    """A document's units in order, each with its heading and the unit before it."""
    units: list[Unit] = []
    heading, before = "", ""
    block: list[tuple[int, str]] = []  # lines of the paragraph or list item being read

    def flush() -> None:
        nonlocal before
        if not block:
            return
        first = block[0][0]
        joined = "\n".join(line for _, line in block)
        item = _ITEM.match(joined)
        body_offset = first + (item.end() if item else 0)
        body = joined[item.end() :] if item else joined
        parts = [(first, first + len(joined), body)] if item else _sentences(body, body_offset)
        for start, end, text in parts:
            quoted = clean(text)
            if len(quoted) > 1:
                units.append(Unit(start, end, quoted, heading, before))
                before = quoted
        block.clear()

    lines = content.split("\n")
    offset = 0
    for i, line in enumerate(lines):
        here, offset = offset, offset + len(line) + 1
        following = lines[i + 1] if i + 1 < len(lines) else ""
        titled = _HEADING.match(line) or _BOLD_LINE.match(line)
        if titled or (line.strip() and _UNDERLINE.match(following) and not _ITEM.match(line)):
            flush()
            heading = clean(titled.group(1) if titled else line)
            continue
        if not line.strip() or _UNDERLINE.match(line) or _RULE.match(line):
            flush()
            continue
        if _ROW.match(line):
            flush()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            block.append((here, " | ".join(c for c in cells if c)))
            flush()
            continue
        if _ITEM.match(line):
            flush()
        block.append((here, line))
    flush()
    return tuple(units)


def around(content: str, passage: str) -> tuple[Unit, ...]:
    """The units of a document that a passage of it overlaps (whole, not cut)."""
    units = segment(content)
    at = content.find(passage)
    if at < 0:  # the passage is not the document's text as stored: read it alone
        return segment(passage)
    start, end = at - AROUND, at + len(passage) + AROUND
    return tuple(u for u in units if u.end > at and u.start < at + len(passage)) or tuple(
        u for u in units if u.end > start and u.start < end
    )


def _weights(terms: set[str], candidates: Sequence[set[str]]) -> dict[str, float]:
    """Each question term's weight: rarer among the candidates, heavier."""
    n = len(candidates)
    return {t: math.log(1 + (n + 1) / (1 + sum(t in c for c in candidates))) for t in terms}


def coverage(question_terms: set[str], unit_terms: set[str], weights: dict[str, float]) -> float:
    total = sum(weights.values())
    return sum(w for t, w in weights.items() if t in unit_terms) / total if total else 0.0


def unit_text(unit: Unit, title: str) -> str:
    """What is embedded for a unit: the text, led by its heading (or the title)."""
    lead = unit.heading or title
    return f"{lead}: {unit.text}" if lead else unit.text


def context_terms(unit: Unit, title: str, language: str) -> set[str]:
    return set(lexical_terms(f"{title} {unit.heading} {unit.before} {unit.text}", language))


def quote(best: Scored, units: Sequence[Unit]) -> str:
    """The best unit and what follows it in the document, up to about MAX_QUOTE."""
    text = best.unit.text
    following = [u for u in units if u.start >= best.unit.end]
    for unit in following:
        if len(text) + 1 + len(unit.text) > MAX_QUOTE or unit.heading != best.unit.heading:
            break
        text = f"{text} {unit.text}"
    if len(text) > MAX_QUOTE:
        cut = text[:MAX_QUOTE].rsplit(" ", 1)[0]
        text = cut.rstrip(",;:") + " …"
    return text


def rank(
    question: str,
    question_vector: np.ndarray,
    candidates: Sequence[tuple[Unit, DocumentHit]],
    vectors: np.ndarray,
    weight: float,
    language: str = "en",
) -> list[Scored]:
    """The candidates scored, best first: cosine + ``weight`` x weighted term coverage."""
    terms = set(lexical_terms(question, language))
    unit_terms = [context_terms(u, h.title, language) for u, h in candidates]
    weights = _weights(terms, unit_terms)
    similarities = vectors @ question_vector if len(candidates) else np.zeros(0)
    scored = [
        Scored(unit, hit, float(s) + weight * c, float(s), c)
        for (unit, hit), s, c in zip(
            candidates,
            similarities,
            (coverage(terms, ut, weights) for ut in unit_terms),
            strict=True,
        )
    ]
    return sorted(scored, key=lambda s: -s.score)


def shortlist(
    question: str, passages: Sequence[tuple[DocumentHit, str]], language: str = "en"
) -> list[tuple[Unit, DocumentHit]]:
    """The units worth embedding: those of the passages (with the document text each
    came from), in passage order, cut to CANDIDATES by the terms they share."""
    seen: set[tuple[str, int]] = set()
    found: list[tuple[Unit, DocumentHit]] = []
    for hit, content in passages:
        for unit in around(content, hit.content):
            key = (hit.document_id, unit.start)
            if key not in seen:
                seen.add(key)
                found.append((unit, hit))
    if len(found) <= CANDIDATES:
        return found
    terms = set(lexical_terms(question, language))
    shared = [len(terms & context_terms(u, h.title, language)) for u, h in found]
    order = sorted(range(len(found)), key=lambda i: (-shared[i], i))[:CANDIDATES]
    return [found[i] for i in sorted(order)]
