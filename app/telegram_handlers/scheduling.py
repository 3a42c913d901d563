"""Deadlines on PTB's JobQueue: one timer per instant something is due, plus a sweep.

A timer holds no proposal: when it fires, the tick closes every proposal whose
deadline has passed (and queues due reminders), reading the proposals table,
which is the truth. So proposals due at the same instant share one timer -- a
thousand deadlines in one second wake the process once, not a thousand times --
and a restart rebuilds the timers from SQL (overdue ones close at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta
from typing import Any

from apscheduler.jobstores.base import JobLookupError
from telegram.ext import Job, JobQueue

from app.domain.clock import Clock
from app.domain.models import Proposal, ProposalStatus

logger = logging.getLogger(__name__)

SWEEP_NAME = "sweep"
MARGIN = timedelta(milliseconds=20)  # fire just after the deadline, never just before
DELIVERY_NAME = "deliver"
CLOSE, REMIND = "close", "remind"


def timer_name(kind: str, when: datetime) -> str:
    return f"{kind}@{when.isoformat()}"


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
        # (kind, instant) -> its timer and the proposals waiting on it; proposal -> its keys
        self._timers: dict[tuple[str, datetime], tuple[Job[Any], set[int]]] = {}
        self._keys: dict[int, list[tuple[str, datetime]]] = {}

    def _arm(self, proposal_id: int, kind: str, when: datetime, now: datetime) -> None:
        key = (kind, when)
        timer = self._timers.get(key)
        if timer is None or timer[0].removed:
            job = self.job_queue.run_once(
                tick_job, when=when - now, name=timer_name(kind, when), data=key
            )
            timer = self._timers[key] = (job, set())
        timer[1].add(proposal_id)
        self._keys.setdefault(proposal_id, []).append(key)

    def schedule(self, proposal: Proposal) -> None:
        """(Re)arm the close timer and, when it applies, the reminder timer."""
        self.unschedule(proposal.id)
        now = self.clock.now()
        self._arm(proposal.id, CLOSE, max(proposal.deadline_at, now) + MARGIN, now)
        remind_at = proposal.deadline_at - self.reminder_before
        long_enough = proposal.deadline_at - proposal.created_at > self.reminder_before
        if self.reminder_before > timedelta(0) and long_enough and remind_at > now:
            self._arm(proposal.id, REMIND, remind_at, now)

    def unschedule(self, proposal_id: int) -> None:
        """Forget a proposal's timers; a timer no other proposal waits on is removed."""
        for key in self._keys.pop(proposal_id, []):
            timer = self._timers.get(key)
            if timer is None:
                continue
            timer[1].discard(proposal_id)
            if not timer[1]:
                del self._timers[key]
                _remove(timer[0])

    def fired(self, key: tuple[str, datetime]) -> None:
        """A timer went off: whoever waited on it is done waiting."""
        timer = self._timers.pop(key, None)
        if timer is not None:
            for pid in timer[1]:
                keys = self._keys.get(pid, [])
                if key in keys:
                    keys.remove(key)
                if not keys:
                    self._keys.pop(pid, None)

    def timers_of(self, proposal_id: int) -> list[Job[Any]]:
        """The live timers a proposal waits on (close first, then its reminder)."""
        return [
            self._timers[key][0]
            for key in self._keys.get(proposal_id, [])
            if key in self._timers and not self._timers[key][0].removed
        ]

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


class DeadlineFollower:
    """Keeps this process's timers in step with deadlines set or moved by any process
    (another replica, the CLI, the MCP server), told by a database notification."""

    def __init__(self, services: Any, scheduler: JobQueueScheduler, delay: float = 0.05) -> None:
        self.services = services
        self.scheduler = scheduler
        self.delay = delay
        self._ids: set[int] = set()
        self._task: asyncio.Task[None] | None = None

    def notified(self, payload: str) -> None:
        with contextlib.suppress(ValueError):
            self._ids.add(int(payload))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._follow(), name="deadline-follower")

    async def _follow(self) -> None:
        await asyncio.sleep(self.delay)  # a burst of notifications: one read
        while self._ids:
            ids, self._ids = sorted(self._ids), set()
            try:
                proposals = await self.services.proposals.get_many(ids)
            except Exception:
                logger.warning("reading %d changed deadlines failed; the sweep covers them",
                               len(ids), exc_info=True)  # fmt: skip
                return
            for proposal in proposals:
                if proposal.status is ProposalStatus.OPEN:
                    self.scheduler.schedule(proposal)
                else:
                    self.scheduler.unschedule(proposal.id)

    async def resync(self) -> None:
        """After notifications were missed (the connection dropped): re-arm every timer."""
        for proposal in await self.services.proposals.open_proposals():
            self.scheduler.schedule(proposal)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


def _remove(job: Job[Any]) -> None:
    with contextlib.suppress(JobLookupError):  # it ran meanwhile
        job.schedule_removal()


async def tick_job(context: Any) -> None:
    """A deadline or reminder time came: close what is due, queue reminders, deliver.

    What this tick closed has its search entry and facts refreshed once the outbox
    has been through (announcements first).
    """
    services = context.services
    job = getattr(context, "job", None)
    if job is not None and isinstance(job.data, tuple) and job.data:
        scheduler = services.scheduler
        if isinstance(scheduler, JobQueueScheduler):
            scheduler.fired(job.data)
    closed = await services.closing.tick()
    try:
        await services.outbox.deliver_due(wait=bool(closed))
    finally:
        if closed:  # another replica may be the one sending the news: after it
            await services.outbox.news_out()
        await services.closing.refresh(closed)


async def delivery_job(context: Any) -> None:
    await context.services.outbox.deliver_due()


async def sweep_job(context: Any) -> None:
    """Catches whatever a missed job, a crash or a Telegram or Chroma outage left behind."""
    try:
        await tick_job(context)
    except Exception:
        logger.exception("the periodic sweep failed; it runs again shortly")
    services = context.services
    if not await services.outbox.news_pending():  # news first; the next sweep catches up
        await services.index.catch_up()


async def reconcile_job(context: Any) -> None:
    """At start-up: index what is missing, remove index entries whose rows are gone."""
    try:
        report = await context.services.index.reconcile()
        logger.info("search index reconciled: %s", report)
    except Exception:
        logger.warning("search index unreachable at start-up; the sweep retries", exc_info=True)
