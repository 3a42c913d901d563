"""What /ask works with: the filters read from a question, and the answer it gives.

``AskResponse.as_dict()`` is the JSON contract of `coordbot ask` (CLI.md): keep
its keys exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.domain.models import Proposal, ProposalStatus, ProposalType
from app.persistence.repositories.facts import Fact

CREATION = "creation"
DEADLINE = "deadline"


@dataclass(frozen=True, slots=True)
class AskFilters:
    """Structured filters over proposals. Date bounds are a half-open UTC range."""

    status: ProposalStatus | None = None
    proposal_type: ProposalType | None = None
    date_field: str | None = None  # CREATION | DEADLINE, set when a range is
    start: datetime | None = None
    end: datetime | None = None
    proposer_id: int | None = None
    proposer_name: str | None = None  # as it is shown ("@alice"), when filtered by
    now: datetime | None = None  # when the filters are applied: "open" is open then

    @property
    def has_range(self) -> bool:
        return self.date_field is not None and (self.start is not None or self.end is not None)

    @property
    def active(self) -> bool:
        return (
            self.status is not None
            or self.proposal_type is not None
            or self.has_range
            or self.proposer_id is not None
        )

    def sql(self) -> dict[str, Any]:
        """Keyword arguments for ProposalRepository's dynamic-criteria methods."""
        bounds = (self.start, self.end) if self.has_range else None
        return {
            "status": self.status,
            "proposal_type": self.proposal_type,
            "date_range": bounds if self.date_field == DEADLINE else None,
            "creation_date_range": bounds if self.date_field == CREATION else None,
            "proposer_id": self.proposer_id,
            "open_at": self.now,
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status.value if self.status else None,
            "proposal_type": self.proposal_type.value if self.proposal_type else None,
            "date_field": self.date_field if self.has_range else None,
            "start": self.start.isoformat() if self.has_range and self.start else None,
            "end": self.end.isoformat() if self.has_range and self.end else None,
        }


@dataclass(frozen=True, slots=True)
class DocumentHit:
    document_id: str
    title: str
    chunk_id: str
    content: str
    similarity: float  # cosine to the question
    fused: float = 0.0  # reciprocal-rank-fusion score of words and meaning (passages)


@dataclass(slots=True)
class AskResponse:
    """One answered question: what was understood, what was found, what was said."""

    question: str
    intent: str
    answer: str
    content_keywords: str | None = None
    filters: AskFilters = field(default_factory=AskFilters)
    proposals: list[Proposal] = field(default_factory=list)  # in the order listed
    documents: list[DocumentHit] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "intent": self.intent,
            "content_keywords": self.content_keywords,
            "filters": self.filters.as_dict(),
            "proposals": [p.id for p in self.proposals],
            "documents": [
                {"document_id": d.document_id, "chunk_id": d.chunk_id, "similarity": d.similarity}
                for d in self.documents
            ],
            "facts": [
                {"subject": f.subject, "predicate": f.predicate, "object": f.object}
                for f in self.facts
            ],
            "answer": self.answer,
        }
