"""Closing proposals at their deadline, exactly once, and owing the world the news.

Closing is a compare-and-set (open -> closed); the tally and the outbox rows
for the announcement, the closed post and the proposer's DM are written in the
same transaction, so a crash after the close loses nothing and concurrent
closers produce one close and one announcement. Free-form themes may come from a
model or the embedding model, so they are computed before that transaction, never
inside it: after the deadline no submission can change (submissions are accepted
only while now < deadline), and the close checks they did not.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.closing.results import tally_free_form, tally_multiple_choice
from app.core.closing.themes import ThemeSummarizer, fold_small_themes, summarize_themes
from app.core.proposals.proposal_service import not_found
from app.domain.clock import Clock
from app.domain.errors import ConflictError, PermissionDeniedError
from app.domain.interfaces import DeadlineScheduler, NullIndexer, ProposalIndexer
from app.domain.models import OutboxKind, Proposal, ProposalStatus, ProposalType
from app.persistence.database import Database
from app.persistence.repositories.outbox import OutboxRepository
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.submissions import SubmissionRepository

logger = logging.getLogger(__name__)

BATCH = 500
THEME_CONCURRENCY = 4  # free-form proposals summarised at once


def already_ended(proposal_id: int, status: ProposalStatus) -> ConflictError:
    if status is ProposalStatus.CANCELLED:
        return ConflictError("Proposal #{id} is already cancelled.", id=proposal_id)
    return ConflictError("Proposal #{id} is already closed.", id=proposal_id)


class Themes(NamedTuple):
    """A free-form proposal's themes and the submissions they were computed from."""

    texts: list[str]
    themes: list[dict[str, Any]]


class ClosingService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        scheduler: DeadlineScheduler,
        themes: ThemeSummarizer,
        indexer: ProposalIndexer | None = None,
        *,
        admin_ids: frozenset[int] = frozenset(),
        reminder_before: timedelta = timedelta(hours=24),
    ) -> None:
        self.db = db
        self.clock = clock
        self.scheduler = scheduler
        self.themes = themes
        self.indexer: ProposalIndexer = indexer or NullIndexer()
        self.admin_ids = admin_ids
        self.reminder_before = reminder_before
        self._ticking = False
        self._again = False

    async def close_due(self) -> list[int]:
        """Close every open proposal whose deadline has passed; returns the ids closed here."""
        now = self.clock.now()
        closed: list[int] = []
        # First the proposals no other transaction holds (replicas whose timers fire
        # together split the work instead of queueing on the same rows), then whatever
        # was passed over: rows a vote in flight held, or another closer (whose share the
        # compare-and-set then leaves alone).
        for skip_locked in (True, False):
            while True:
                async with self.db.transaction() as session:
                    repo = ProposalRepository(session)
                    due = await repo.due_ids(now, BATCH, skip_locked=skip_locked)
                    free_form = await repo.free_form_ids(due)
                    # Multiple choice needs no themes: it closes at once, as one batch.
                    others = sorted(set(due) - set(free_form))
                    closed += await self._close(session, others, now, {})
                    texts = await SubmissionRepository(session).contents_for_proposals(free_form)
                if free_form:  # past the deadline their submissions can no longer change
                    themes = await self._summarize(texts)
                    async with self.db.transaction() as session:
                        closed += await self._close(session, free_form, now, themes)
                if len(due) < BATCH:
                    break
        if closed:
            logger.info("closed %d proposal(s) at their deadline", len(closed))
            self.scheduler.kick_delivery()
        return closed

    async def refresh(self, ids: list[int]) -> None:
        """Bring the search index and the facts of closed proposals up to date.

        Called once their announcements are out: with a thousand deadlines at once,
        this bookkeeping would otherwise compete with the news for the CPU.
        """
        if ids:
            await self.indexer.proposals_changed(ids)

    async def close_early(self, user_id: int, proposal_id: int) -> Proposal:
        """An admin closes a proposal before its deadline."""
        if user_id not in self.admin_ids:
            raise PermissionDeniedError("Only admins can close a proposal early.")
        now = self.clock.now()
        texts: dict[int, list[str]] = {}
        async with self.db.transaction() as session:
            proposal = await ProposalRepository(session).get_proposal_by_id(proposal_id)
            if proposal is None:
                raise not_found(proposal_id)
            if proposal.proposal_type is ProposalType.FREE_FORM:
                texts = await SubmissionRepository(session).contents_for_proposals([proposal_id])
        if proposal.status is not ProposalStatus.OPEN:
            raise already_ended(proposal_id, proposal.status)
        themes = await self._summarize(texts)
        async with self.db.transaction() as session:
            repo = ProposalRepository(session)
            if not await self._close(session, [proposal_id], now, themes):
                current = await repo.get_proposal_by_id(proposal_id)
                status = current.status if current else proposal.status
                raise already_ended(proposal_id, status)
            closed = await repo.get_proposal_by_id(proposal_id)
        assert closed is not None
        logger.info("proposal %s closed early by an admin", proposal_id)
        self.scheduler.unschedule(proposal_id)
        self.scheduler.kick_delivery()
        await self.indexer.proposals_changed([proposal_id])
        return closed

    async def _summarize(self, texts: dict[int, list[str]]) -> dict[int, Themes]:
        """Themes of each proposal's submissions, computed with no transaction open (a
        model or the embedding model may take seconds), a few proposals at a time."""
        slots = asyncio.Semaphore(THEME_CONCURRENCY)

        async def one(pid: int, items: list[str]) -> list[dict[str, Any]]:
            if not items:
                return []
            async with slots:
                try:
                    return await self.themes.summarize(items)
                except Exception as exc:  # never lose a close over its summary
                    logger.warning("themes of proposal %s failed (%s); grouping by keywords",
                                   pid, type(exc).__name__)  # fmt: skip
                    return summarize_themes(items)

        pids = list(texts)
        found = await asyncio.gather(*(one(pid, texts[pid]) for pid in pids))
        return {pid: Themes(texts[pid], themes) for pid, themes in zip(pids, found, strict=True)}

    async def _close(
        self, session: AsyncSession, ids: list[int], now: datetime, themes: dict[int, Themes]
    ) -> list[int]:
        """Compare-and-set ``ids`` to closed and store their results and announcements.

        ``themes`` are the free-form summaries computed beforehand; the submissions are
        read again under the close, and a proposal whose submissions changed meanwhile
        (an early close racing a late idea) is summarised by keywords right here.
        """
        proposals_repo = ProposalRepository(session)
        closed = await proposals_repo.close_open(ids, now)
        if not closed:
            return []
        proposals = await proposals_repo.get_proposals_by_ids(closed)
        subs = SubmissionRepository(session)
        mc = [p.id for p in proposals if p.proposal_type is ProposalType.MULTIPLE_CHOICE]
        ff = [p.id for p in proposals if p.proposal_type is ProposalType.FREE_FORM]
        counts = await subs.counts_for_proposals(mc)
        texts = await subs.contents_for_proposals(ff)
        results: list[dict[str, Any]] = []
        outbox: list[dict[str, Any]] = []
        for p in proposals:
            if p.proposal_type is ProposalType.MULTIPLE_CHOICE:
                raw, outcome = tally_multiple_choice(p.options, counts[p.id])
            else:
                raw, outcome = tally_free_form(len(texts[p.id]))
                raw["themes"] = self._themes_of(p.id, texts[p.id], themes.get(p.id))
            results.append({"id": p.id, "outcome": outcome, "raw_results": raw})
            outbox += self._announcements(p, charted=bool(raw.get("total_votes")))
        await proposals_repo.store_results(results)
        await OutboxRepository(session).enqueue_many(outbox, now)
        return closed

    @staticmethod
    def _themes_of(pid: int, texts: list[str], ready: Themes | None) -> list[dict[str, Any]]:
        if not texts:
            return []
        if ready is not None and ready.texts == texts:
            return fold_small_themes(ready.themes)  # whichever summarizer wrote them
        logger.info("submissions to proposal %s changed while closing; grouping by keywords", pid)
        return summarize_themes(texts)

    @staticmethod
    def _announcements(p: Proposal, *, charted: bool) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        if p.target_channel_id:
            rows.append(
                {"kind": OutboxKind.RESULT, "proposal_id": p.id, "chat_id": p.target_channel_id,
                 "dedupe_key": f"result:{p.id}"}
            )  # fmt: skip
            if charted:  # sent after the text, so a chart's render time never delays the news
                rows.append(
                    {"kind": OutboxKind.RESULT_CHART, "proposal_id": p.id,
                     "chat_id": p.target_channel_id, "dedupe_key": f"result_chart:{p.id}"}
                )  # fmt: skip
            if p.channel_message_id is not None:
                rows.append(
                    {"kind": OutboxKind.CLOSED_POST, "proposal_id": p.id,
                     "chat_id": p.target_channel_id, "dedupe_key": f"closed_post:{p.id}"}
                )  # fmt: skip
        rows.append(
            {"kind": OutboxKind.PROPOSER_DM, "proposal_id": p.id, "chat_id": str(p.proposer_id),
             "dedupe_key": f"proposer_dm:{p.id}"}
        )  # fmt: skip
        return rows

    async def enqueue_due_reminders(self) -> int:
        """Queue the channel reminder for proposals entering their last stretch."""
        if self.reminder_before <= timedelta(0):
            return 0
        now = self.clock.now()
        async with self.db.transaction() as session:
            due = await ProposalRepository(session).needing_reminder(now, self.reminder_before)
            outbox = OutboxRepository(session)
            queued = await outbox.existing_keys([self._reminder_key(p) for p in due])
            fresh = [p for p in due if self._reminder_key(p) not in queued]
            await outbox.enqueue_many(
                [
                    {"kind": OutboxKind.REMINDER, "proposal_id": p.id,
                     "chat_id": p.target_channel_id, "dedupe_key": self._reminder_key(p)}
                    for p in fresh
                ],
                now,
            )  # fmt: skip
        if fresh:
            self.scheduler.kick_delivery()
        return len(fresh)

    @staticmethod
    def _reminder_key(p: Proposal) -> str:
        # A moved deadline earns a new reminder.
        return f"reminder:{p.id}:{int(p.deadline_at.timestamp())}"

    async def tick(self) -> list[int]:
        """Close what is due and queue reminders; returns the ids this call closed.

        Many deadlines can fire together; calls that arrive while a tick runs are
        folded into one more pass of that tick instead of queueing up.
        """
        if self._ticking:
            self._again = True
            return []
        self._ticking = True
        closed: list[int] = []
        try:
            while True:
                self._again = False
                closed += await self.close_due()
                await self.enqueue_due_reminders()
                if not self._again:
                    return closed
        finally:
            self._ticking = False
