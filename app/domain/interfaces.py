"""Ports the core calls out through; adapters live at the edges."""

from __future__ import annotations

from typing import Protocol

from app.domain.models import Proposal


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
