"""Ports the core calls out through; adapters live at the edges."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from app.domain.models import OutboxMessage, Proposal


class ProposalPublisher(Protocol):
    """Shows proposals to the community (the Telegram channel in production)."""

    async def publish(self, proposal: Proposal) -> int | None:
        """Post a new proposal; returns the channel message id, or None if not posted."""
        ...

    async def refresh(self, proposal: Proposal) -> None:
        """Re-render an existing post after an edit, cancel or close."""
        ...


class NullPublisher:
    """For front doors without a channel (CLI, seeding)."""

    async def publish(self, proposal: Proposal) -> int | None:
        return None

    async def refresh(self, proposal: Proposal) -> None:
        return None


class DeliveryError(Exception):
    """A message could not be delivered now; says whether and when to try again."""

    def __init__(self, reason: str, *, retry_after: float | None = None, permanent: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.permanent = permanent


class MessageSender(Protocol):
    """Delivers one outbox message; returns the sent message id when there is one."""

    async def deliver(self, message: OutboxMessage, proposal: Proposal | None) -> int | None: ...


class DeadlineScheduler(Protocol):
    """Arranges for proposals to close at their deadline (and be reminded before it)."""

    def schedule(self, proposal: Proposal) -> None: ...

    def unschedule(self, proposal_id: int) -> None: ...

    def kick_delivery(self) -> None:
        """Deliver the outbox soon (something was just enqueued)."""
        ...


class NullScheduler:
    """For front doors without a running bot (CLI): the next `coordbot run` catches up."""

    def schedule(self, proposal: Proposal) -> None:
        return None

    def unschedule(self, proposal_id: int) -> None:
        return None

    def kick_delivery(self) -> None:
        return None


class ProposalIndexer(Protocol):
    """Told after a commit which proposals changed, so search reflects them."""

    async def proposals_changed(self, ids: list[int]) -> None: ...


class NullIndexer:
    async def proposals_changed(self, ids: list[int]) -> None:
        return None


class DocumentHook(Protocol):
    """Told after a commit that a document's text changed or that it is gone, so what is
    derived from it (its facts) follows. Never raises: the document is already saved."""

    async def document_changed(
        self, document_id: str, content_hash: str, chunks: Sequence[str]
    ) -> None: ...

    async def document_removed(self, document_id: str) -> None: ...


class NullDocumentHook:
    async def document_changed(
        self, document_id: str, content_hash: str, chunks: Sequence[str]
    ) -> None:
        return None

    async def document_removed(self, document_id: str) -> None:
        return None


class FactIndex(Protocol):
    """The facts' derived index (their vectors), told to catch up after a bulk write so
    the first question after it does not pay for the indexing."""

    async def current(
        self,
        signature: int | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None: ...


class NullFactIndex:
    async def current(
        self,
        signature: int | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        return None
