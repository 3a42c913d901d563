"""The composition root: builds every service from Settings and owns their lifetime."""

from __future__ import annotations

import logging

from app.config import Settings
from app.core.proposal_service import ProposalService
from app.core.submission_service import SubmissionService
from app.domain.clock import Clock, SystemClock
from app.domain.interfaces import NullPublisher, ProposalPublisher
from app.persistence.database import Database
from app.persistence.migrations import upgrade_head_async

logger = logging.getLogger(__name__)


class Container:
    """Everything a front door needs, built once; ``stop()`` releases it."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        publisher: ProposalPublisher | None = None,
        database: Database | None = None,
    ) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.db = database or Database(settings.resolved_database_url)
        self.publisher: ProposalPublisher = publisher or NullPublisher()
        self.proposals = ProposalService(
            self.db,
            self.clock,
            self.publisher,
            target_channel_id=settings.target_channel_id,
            admin_ids=settings.admin_telegram_ids,
        )
        self.submissions = SubmissionService(self.db, self.clock)

    async def migrate(self) -> None:
        await upgrade_head_async(self.db.url)

    async def start(self) -> None:
        logger.info("services started (database: %s)", self.db.dialect)

    async def stop(self) -> None:
        await self.db.dispose()
