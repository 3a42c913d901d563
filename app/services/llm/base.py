"""What every LLM backend offers, and the data it is given.

A backend does two things for /ask: write the opening of the answer from retrieved
evidence, and answer a question from the keyed evidence found for it, citing the keys
(``answer_grounded``); one for closing: group free-form submissions into named themes;
and one for the fact graph: read the facts a document chunk states. The question itself
is read by the rules (``app.core.ask``), with or without a model. Everything else in
an answer (the list of proposals, how they were found, the hints) is composed by
``core`` from the data itself, so a model can phrase but never invent citations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Protocol


class LLMError(Exception):
    """A backend could not give a usable result (timeout, HTTP error, bad reply). Its
    message may quote what the server sent back, so only its type is logged."""


class Unquoted(LLMError):
    """An LLMError in our own words only: a check that refused the reply ("grounded answer
    gives a number its records do not"), or a request that failed, by type and status. It
    quotes nothing of the question, the evidence, the reply or the server's message, so
    it is logged: an operator sees which check their model fails, and
    bench/ask_model.py counts each."""


@dataclass(frozen=True, slots=True)
class AnswerContext:
    """The retrieved evidence for one answer.

    ``lead`` is the deterministic direct answer (what the offline backend says);
    ``evidence`` holds one line per retrieved item, and is untrusted data: it is
    shown to a model fenced as data, never as instructions. ``cited_ids`` are the
    proposal ids a reply may mention.
    """

    question: str
    lead: str
    evidence: list[str] = field(default_factory=list)
    cited_ids: frozenset[int] = frozenset()
    language: str = "en"  # the catalog name of the question's language: answer in it


@dataclass(frozen=True, slots=True)
class ThemeGroup:
    """One theme of free-form submissions: a short name and the 0-based indices of its
    submissions. A backend's groups are disjoint and never empty."""

    name: str
    members: tuple[int, ...]


class ExtractedFact(NamedTuple):
    """A fact a model read in a document: not yet validated for storage."""

    subject: str
    predicate: str
    object: str
    confidence: float


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    """One retrieved item a model may cite: ``key`` ("D1", "P12", "F1") names it in the
    reply; ``kind`` is "documents", "proposals" or "facts"; ``text`` is public data only
    (a document's sentences, a proposal's public fields, a fact): never votes, voters or
    ideas."""

    key: str
    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class GroundedContext:
    """A question and the bounded evidence found for it (untrusted data, fenced)."""

    question: str
    items: tuple[EvidenceItem, ...]
    language: str = "en"

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(item.key for item in self.items)


@dataclass(frozen=True, slots=True)
class GroundedReply:
    """A model's answer from the evidence: its text, the keys it rests on, and which
    source answers ("documents", "proposals", "facts"), or "none" when the knowledge
    base does not say. A backend returns only replies whose keys were offered."""

    answer: str
    cites: tuple[str, ...]
    source: str


class LLMBackend(Protocol):
    name: str

    async def write_lead(self, context: AnswerContext) -> str:
        """The direct answer (one to three sentences); raises LLMError on failure."""
        ...

    async def answer_grounded(self, context: GroundedContext) -> GroundedReply:
        """The answer from the keyed evidence, citing it; raises LLMError on failure or
        when the reply cites a key that was not offered."""
        ...

    async def group_themes(self, submissions: list[str], max_themes: int) -> list[ThemeGroup]:
        """Named groups of anonymous submissions; raises LLMError on failure."""
        ...

    async def extract_facts(self, text: str) -> list[ExtractedFact]:
        """The facts one passage states; raises LLMError on failure."""
        ...

    async def aclose(self) -> None: ...
