"""Tables. Telegram ids are 64-bit; every timestamp is UTC-aware."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.persistence.database import Base, UTCDateTime


class UserRow(Base):
    __tablename__ = "users"

    telegram_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    username: Mapped[str | None] = mapped_column(String(64))
    first_name: Mapped[str | None] = mapped_column(String(255))
    last_name: Mapped[str | None] = mapped_column(String(255))
    # The language chosen with /language, and the one Telegram last reported.
    language: Mapped[str | None] = mapped_column(String(16))
    language_code: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)

    __table_args__ = (Index("ix_users_username", "username"),)


class ProposalRow(Base):
    __tablename__ = "proposals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    proposer_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("users.telegram_id"), nullable=False
    )
    title: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False)
    proposal_type: Mapped[str] = mapped_column(String(32), nullable=False)
    options: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    target_channel_id: Mapped[str | None] = mapped_column(String(64))
    channel_message_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    deadline_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(16), nullable=False, default="open")
    outcome: Mapped[str | None] = mapped_column(Text)
    raw_results: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    context_text: Mapped[str | None] = mapped_column(Text)
    # The index entry is current when indexed_revision == revision (see IndexService).
    revision: Mapped[int] = mapped_column(Integer, nullable=False, default=1, server_default="1")
    indexed_revision: Mapped[int] = mapped_column(
        Integer, nullable=False, default=0, server_default="0"
    )
    # The draft it was created from (/propose step by step): created once per draft.
    origin: Mapped[str | None] = mapped_column(String(40))
    # app.nlp.lexical.proposal_lexical of title, description and options (the lexical
    # index, app.persistence.lexical_schema); ProposalRepository keeps it current.
    lexical: Mapped[str | None] = mapped_column(Text, deferred=True)

    __table_args__ = (
        Index("uq_proposals_origin", "origin", unique=True),
        Index("ix_proposals_status", "status"),
        Index("ix_proposals_deadline_at", "deadline_at"),
        Index("ix_proposals_created_at", "created_at"),
        Index("ix_proposals_proposal_type", "proposal_type"),
        Index("ix_proposals_proposer_id", "proposer_id"),
    )


class SubmissionRow(Base):
    __tablename__ = "submissions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    proposal_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("proposals.id", ondelete="CASCADE"), nullable=False
    )
    submitter_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("users.telegram_id"), nullable=False
    )
    response_content: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)

    __table_args__ = (
        UniqueConstraint("proposal_id", "submitter_id", name="uq_submissions_proposal_submitter"),
        Index("ix_submissions_submitter_id", "submitter_id"),
    )


class ProcessedUpdateRow(Base):
    """A webhook update taken by some replica: Telegram retries any non-2xx, so one
    update can arrive twice (or at two replicas); the first claim handles it, and a
    claim whose holder died is taken over."""

    __tablename__ = "processed_updates"

    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    # The handling replica's liveness key (app.persistence.liveness); None before 0011.
    holder: Mapped[int | None] = mapped_column(BigInteger)
    done_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (Index("ix_processed_updates_claimed_at", "claimed_at"),)


class ConversationStateRow(Base):
    """One member's conversation steps and draft, shared by every replica (webhook mode)."""

    __tablename__ = "conversation_states"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    state: Mapped[bytes] = mapped_column(LargeBinary, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)


class OutboxRow(Base):
    """A message the bot owes the world, written in the transaction that decided it."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(32), nullable=False)
    priority: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    proposal_id: Mapped[int | None] = mapped_column(Integer)
    chat_id: Mapped[str] = mapped_column(String(64), nullable=False)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    dedupe_key: Mapped[str] = mapped_column(String(120), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str | None] = mapped_column(String(200))
    result_message_id: Mapped[int | None] = mapped_column(BigInteger)
    # Set while a sender has claimed the row (cleared when it is sent or rescheduled).
    leased_until: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (
        UniqueConstraint("dedupe_key", name="uq_outbox_dedupe_key"),
        Index("ix_outbox_pending", "sent_at", "failed_at", "next_attempt_at", "priority"),
        Index("ix_outbox_proposal_id", "proposal_id"),
    )


def _norm_text(length: int) -> String:
    return String(length).with_variant(String(length, collation="C"), "postgresql")  # type: ignore[return-value]


class FactRow(Base):
    """One (subject, predicate, object) fact of the graph, as written and normalised.

    The ``*_norm`` columns (casefolded, underscores as spaces, single spaces) carry
    the case-insensitive lookups and the one-row-per-triple rule.
    """

    __tablename__ = "facts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subject: Mapped[str] = mapped_column(String(300), nullable=False)
    predicate: Mapped[str] = mapped_column(String(100), nullable=False)
    object: Mapped[str] = mapped_column(String(300), nullable=False)
    # Byte order on PostgreSQL (migration 0006): compared for equality only.
    subject_norm: Mapped[str] = mapped_column(_norm_text(300), nullable=False)
    predicate_norm: Mapped[str] = mapped_column(_norm_text(100), nullable=False)
    object_norm: Mapped[str] = mapped_column(_norm_text(300), nullable=False)
    confidence: Mapped[float] = mapped_column(nullable=False, default=1.0)  # float -> Float
    # "manual", "proposal:<id>" or "document:<id>": what to remove when the origin goes.
    source: Mapped[str] = mapped_column(String(100), nullable=False, default="manual")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    # app.nlp.lexical.fact_lexical of the triple as written (the lexical index).
    lexical: Mapped[str | None] = mapped_column(Text, deferred=True)

    __table_args__ = (
        UniqueConstraint("subject_norm", "predicate_norm", "object_norm", name="uq_facts_triple"),
        # (x, id): equality lookups come back in insertion order straight from the index.
        Index("ix_facts_predicate_norm", "predicate_norm", "id"),
        Index("ix_facts_object_norm", "object_norm", "id"),
        {"sqlite_autoincrement": True},  # an id is never handed out twice (migration 0013)
    )


# Only non-manual facts are deleted by source, so manual bulk loads skip this index.
Index(
    "ix_facts_source",
    FactRow.source,
    postgresql_where=FactRow.source != "manual",
    sqlite_where=FactRow.source != "manual",
)
