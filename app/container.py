"""The composition root: builds every service from Settings and owns their lifetime."""

from __future__ import annotations

import logging

from app.config import Settings
from app.core.closing_service import ClosingService
from app.core.outbox_service import OutboxService
from app.core.proposal_service import ProposalService
from app.core.results_service import ResultsService
from app.core.submission_service import SubmissionService
from app.core.themes import KeywordThemeSummarizer
from app.domain.clock import Clock, SystemClock
from app.domain.interfaces import (
    DeadlineScheduler,
    DeliveryError,
    MessageSender,
    NullPublisher,
    NullScheduler,
    ProposalPublisher,
)
from app.domain.models import OutboxMessage, Proposal
from app.persistence.database import Database
from app.persistence.migrations import upgrade_head_async

logger = logging.getLogger(__name__)


class OfflineSender:
    """Used where no bot runs (CLI): messages wait in the outbox for `coordbot run`."""

    async def deliver(self, message: OutboxMessage, proposal: Proposal | None) -> int | None:
        raise DeliveryError("no Telegram connection in this process", retry_after=60)


class Container:
    """Everything a front door needs, built once; ``stop()`` releases it."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        publisher: ProposalPublisher | None = None,
        scheduler: DeadlineScheduler | None = None,
        sender: MessageSender | None = None,
        database: Database | None = None,
    ) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.db = database or Database(settings.resolved_database_url)
        self.publisher: ProposalPublisher = publisher or NullPublisher()
        self.scheduler: DeadlineScheduler = scheduler or NullScheduler()
        self.proposals = ProposalService(
            self.db,
            self.clock,
            self.publisher,
            self.scheduler,
            target_channel_id=settings.target_channel_id,
            admin_ids=settings.admin_telegram_ids,
        )
        self.submissions = SubmissionService(self.db, self.clock)
        self.results = ResultsService(self.db)
        self.closing = ClosingService(
            self.db,
            self.clock,
            self.scheduler,
            KeywordThemeSummarizer(),
            admin_ids=settings.admin_telegram_ids,
            reminder_before=settings.reminder_before,
        )
        self.outbox = OutboxService(self.db, self.clock, sender or OfflineSender())

    async def migrate(self) -> None:
        await upgrade_head_async(self.db.url)

    async def start(self) -> None:
        logger.info("services started (database: %s)", self.db.dialect)

    async def stop(self) -> None:
        await self.db.dispose()
