"""Plain data the services pass around; no framework imports."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

from app.domain.messages import N_

T = TypeVar("T")


class ProposalType(StrEnum):
    MULTIPLE_CHOICE = "multiple_choice"
    FREE_FORM = "free_form"

    @property
    def label(self) -> str:
        """English; a front door shows ``tr(label)`` (the literals are message ids)."""
        if self is ProposalType.MULTIPLE_CHOICE:
            return N_("Multiple choice")
        return N_("Free form")


class ProposalStatus(StrEnum):
    OPEN = "open"
    CLOSED = "closed"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class User:
    telegram_id: int
    username: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    language: str | None = None  # chosen with /language
    language_code: str | None = None  # what the member's Telegram app reports

    @property
    def display_name(self) -> str:
        if self.username:
            return f"@{self.username}"
        name = " ".join(p for p in (self.first_name, self.last_name) if p)
        return name or f"user {self.telegram_id}"


@dataclass(frozen=True, slots=True)
class Proposal:
    id: int
    proposer_id: int
    title: str
    description: str
    proposal_type: ProposalType
    options: list[str]
    created_at: datetime
    deadline_at: datetime
    status: ProposalStatus
    target_channel_id: str | None = None
    channel_message_id: int | None = None
    closed_at: datetime | None = None
    outcome: str | None = None
    raw_results: dict[str, Any] | None = None
    context_text: str | None = None
    proposer: User | None = None

    @property
    def is_multiple_choice(self) -> bool:
        return self.proposal_type is ProposalType.MULTIPLE_CHOICE

    def accepts_votes_at(self, now: datetime) -> bool:
        return self.status is ProposalStatus.OPEN and now < self.deadline_at

    def awaits_close_at(self, now: datetime) -> bool:
        """Open in the database, but its deadline has passed: nobody can vote or send an
        idea any more, and the close (the bot's deadline job, which announces the result)
        has not run yet, as when no bot process is running."""
        return self.status is ProposalStatus.OPEN and now >= self.deadline_at


@dataclass(frozen=True, slots=True)
class Submission:
    id: int
    proposal_id: int
    submitter_id: int
    response_content: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class ProposalDraft:
    """What a proposer asked for, before it is validated and stored."""

    title: str
    description: str
    proposal_type: ProposalType
    options: list[str] = field(default_factory=list)
    deadline_at: datetime | None = None
    context_text: str | None = None


@dataclass(frozen=True, slots=True)
class VoteReceipt:
    """The outcome of a vote: what the voter chose and whether it replaced an earlier one."""

    proposal: Proposal
    choice: str
    changed: bool
    previous: str | None = None


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    items: list[T]
    page: int
    page_size: int
    total: int

    @property
    def has_next(self) -> bool:
        return (self.page + 1) * self.page_size < self.total

    @property
    def has_previous(self) -> bool:
        return self.page > 0


class OutboxKind(StrEnum):
    RESULT = "result"  # the announcement replying to the channel post
    CLOSED_POST = "closed_post"  # the channel post re-rendered as closed, without buttons
    PROPOSER_DM = "proposer_dm"  # the result, privately to the proposer
    REMINDER = "reminder"  # "voting ends soon" in the channel
    RESULT_CHART = "result_chart"  # the bar chart, right after the announcement

    @property
    def priority(self) -> int:
        """Lower goes first: the announcement before the slower-to-render chart."""
        return {"result": 0, "closed_post": 1, "reminder": 1, "proposer_dm": 2}.get(self.value, 3)


@dataclass(frozen=True, slots=True)
class OutboxMessage:
    id: int
    kind: OutboxKind
    proposal_id: int | None
    chat_id: str
    payload: dict[str, Any]
    attempts: int


@dataclass(frozen=True, slots=True)
class ProposalResults:
    """What /view_results shows: the stored tally, and anonymous ideas for free form."""

    proposal: Proposal
    submissions: list[str] = field(default_factory=list)
