"""What find_facts, ask_question and explore_connections return, in the specs' shapes.

``as_dict()`` is the JSON contract (CLI.md, specs 000 and 001): keep its keys
exactly. ``message`` is the human text every front door shows, and
``suggestions`` the specs' next steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.persistence.repositories.facts import Fact

FIND_SUGGESTIONS = (
    "Use 'explore_connections' to find related entities",
    "Try 'ask_question' to understand these facts in context",
)
FIND_EMPTY_SUGGESTIONS = (
    "Try using fewer constraints in your query",
    "Check spelling and capitalization of entity names",
    "Use 'ask_question' for natural language queries",
)
ASK_SUGGESTIONS = (
    "Try rephrasing your question for different results",
    "Use 'find_facts' for more specific searches",
    "Add context to disambiguate entities",
)
NO_FACTS = "No facts found matching your query"
NO_ANSWER = "No relevant information found for your question"
ANSWER_HEADER = "Based on the knowledge graph:"
DISPLAYED = 5


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def format_facts_for_display(facts: list[Fact], max_display: int = DISPLAYED) -> str:
    """Spec 001: numbered "subject predicate object" lines, then "... and N more"."""
    lines = [f"{i}. {f.subject} {f.predicate} {f.object}" for i, f in enumerate(facts, 1)]
    shown = lines[:max_display]
    if len(facts) > max_display:
        shown.append(f"... and {len(facts) - max_display} more")
    return "\n".join(shown)


@dataclass(frozen=True)
class FindFactsResult:
    facts: list[Fact]
    limit: int
    query: dict[str, str | None]

    @property
    def count(self) -> int:
        return len(self.facts)

    @property
    def message(self) -> str:
        if not self.facts:
            return NO_FACTS
        return f"Found {plural(self.count, 'fact')}:\n{format_facts_for_display(self.facts)}"

    @property
    def suggestions(self) -> list[str]:
        return list(FIND_SUGGESTIONS if self.facts else FIND_EMPTY_SUGGESTIONS)

    def as_dict(self) -> dict[str, Any]:
        return {
            "facts": [{**f.triple(), "confidence": f.confidence} for f in self.facts],
            "count": self.count,
            "limit": self.limit,
            "query": {k: self.query.get(k) for k in ("subject", "predicate", "object")},
        }


@dataclass(frozen=True)
class ScoredFact:
    fact: Fact
    relevance: float
    context_score: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {**self.fact.triple(), "relevance": self.relevance}


@dataclass(frozen=True)
class AskResult:
    question: str
    context: str | None
    key_terms: list[str]
    relevant_facts: list[ScoredFact]
    answer_text: str  # the generated sentence(s), without the header
    # The hop-by-hop trail when the question was answered as a chain (see multihop).
    chain: Any = None

    @property
    def answer(self) -> str:
        if not self.relevant_facts:
            return NO_ANSWER
        return f"{ANSWER_HEADER}\n\n{self.answer_text}"

    @property
    def message(self) -> str:
        if not self.relevant_facts:
            return NO_ANSWER
        found = plural(len(self.relevant_facts), "relevant fact")
        return f"{self.answer}\n\nFound {found}"

    @property
    def suggestions(self) -> list[str]:
        return list(ASK_SUGGESTIONS)

    def as_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "context": self.context,
            "key_terms": list(self.key_terms),
            "relevant_facts": [f.as_dict() for f in self.relevant_facts],
            "answer": self.answer,
        }


@dataclass(frozen=True)
class Connection:
    fact: Fact
    depth: int
    path: list[Fact]  # from the start entity to this fact, this fact last

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.fact.triple(),
            "depth": self.depth,
            "path": [f.triple() for f in self.path],
        }


@dataclass(frozen=True)
class ExploreResult:
    entity: str
    max_depth: int
    connections: list[Connection] = field(default_factory=list)

    @property
    def message(self) -> str:
        if not self.connections:
            return f"No connections found for {self.entity}"
        lines = [
            " -> ".join(f"{f.subject} {f.predicate} {f.object}" for f in c.path)
            for c in self.connections[:DISPLAYED]
        ]
        more = len(self.connections) - DISPLAYED
        if more > 0:
            lines.append(f"... and {more} more")
        found = plural(len(self.connections), "connection")
        return f"Found {found} of {self.entity} within {plural(self.max_depth, 'hop')}:\n" + (
            "\n".join(lines)
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "entity": self.entity,
            "max_depth": self.max_depth,
            "connections": [c.as_dict() for c in self.connections],
            "count": len(self.connections),
        }
