"""Deadlines on PTB's JobQueue: a one-off job per open proposal, plus a sweep.

Jobs hold only a proposal id; the proposals table is the truth, so nothing is
pickled and a restart rebuilds every job from SQL (overdue ones close at once).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from telegram.ext import Job, JobQueue

from app.domain.clock import Clock
from app.domain.models import Proposal

logger = logging.getLogger(__name__)

SWEEP_NAME = "sweep"
MARGIN = timedelta(milliseconds=20)  # fire just after the deadline, never just before
DELIVERY_NAME = "deliver"


class JobQueueScheduler:
    def __init__(
        self,
        job_queue: JobQueue[Any],
        clock: Clock,
        reminder_before: timedelta,
        sweep_interval: float = 60.0,
    ) -> None:
        self.job_queue = job_queue
        self.clock = clock
        self.reminder_before = reminder_before
        self.sweep_interval = sweep_interval

    def _remove(self, name: str) -> None:
        for job in self.job_queue.get_jobs_by_name(name):
            job.schedule_removal()

    def schedule(self, proposal: Proposal) -> None:
        """(Re)arm the close job and, when it applies, the reminder job."""
        self.unschedule(proposal.id)
        now = self.clock.now()
        when = max(proposal.deadline_at, now) + MARGIN
        self.job_queue.run_once(tick_job, when=when - now, name=f"close:{proposal.id}")
        remind_at = proposal.deadline_at - self.reminder_before
        long_enough = proposal.deadline_at - proposal.created_at > self.reminder_before
        if self.reminder_before > timedelta(0) and long_enough and remind_at > now:
            self.job_queue.run_once(tick_job, when=remind_at - now, name=f"remind:{proposal.id}")

    def unschedule(self, proposal_id: int) -> None:
        self._remove(f"close:{proposal_id}")
        self._remove(f"remind:{proposal_id}")

    def kick_delivery(self) -> None:
        if not self.job_queue.get_jobs_by_name(DELIVERY_NAME):
            self.job_queue.run_once(delivery_job, when=0, name=DELIVERY_NAME)

    def start(self, open_proposals: list[Proposal]) -> None:
        """Arm every open proposal and the periodic sweep (which runs right away)."""
        for proposal in open_proposals:
            self.schedule(proposal)
        self.job_queue.run_repeating(
            sweep_job, interval=self.sweep_interval, first=0, name=SWEEP_NAME
        )
        self.job_queue.run_once(reconcile_job, when=0, name="reconcile")

    def jobs(self) -> tuple[Job[Any], ...]:
        return self.job_queue.jobs()


async def tick_job(context: Any) -> None:
    """A deadline or reminder time came: close what is due, queue reminders, deliver.

    What this tick closed has its search entry and facts refreshed once the outbox
    has been through (announcements first).
    """
    services = context.services
    closed = await services.closing.tick()
    try:
        await services.outbox.deliver_due(wait=bool(closed))
    finally:
        await services.closing.refresh(closed)


async def delivery_job(context: Any) -> None:
    await context.services.outbox.deliver_due()


async def sweep_job(context: Any) -> None:
    """Catches whatever a missed job, a crash or a Telegram or Chroma outage left behind."""
    try:
        await tick_job(context)
    except Exception:
        logger.exception("the periodic sweep failed; it runs again shortly")
    await context.services.index.catch_up()


async def reconcile_job(context: Any) -> None:
    """At start-up: index what is missing, remove index entries whose rows are gone."""
    try:
        report = await context.services.index.reconcile()
        logger.info("search index reconciled: %s", report)
    except Exception:
        logger.warning("search index unreachable at start-up; the sweep retries", exc_info=True)
