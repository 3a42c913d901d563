"""Votes per second through the full handler stack on PostgreSQL.

    python bench/votes.py [--voters 1000] [--concurrency 64] [--pool-size 10]
                          [--database-url postgresql+asyncpg://...] [--profile out.pstats]

Each vote is a real ``telegram.Update`` (a press of ``v:<proposal>:<option>``) handed to
``Application.process_update``: handler matching, SubmissionService.vote, PostgreSQL, and the
answerCallbackQuery alert sent to an offline Bot API (RecordingRequest). Distinct voters, one
proposal, bounded concurrency. Prints one JSON object on stdout; logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (
    CHANNEL_ID,
    DEFAULT_URL,
    exclusive_use,
    latency_summary,
    logger,
    prepare_postgres,
    settings,
    start_bot_benchmark,
    write_profile,
)

TARGET_VOTES_PER_SECOND = 300
OPTIONS = ["Alpha", "Bravo", "Charlie", "Delta"]
RECORDED = "Vote recorded"
WARMUP_VOTES = 20
FIRST_VOTER = 1_000_000
FIRST_WARMUP_VOTER = 900_000


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--voters", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument(
        "--pool-size",
        type=int,
        default=10,
        help="Database(pool_size=...); the app's default is 10 (+10 overflow)",
    )
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--profile", metavar="PATH", help="cProfile the measured phase into PATH")
    parser.add_argument(
        "--uvloop", action="store_true", help="run on uvloop instead of the default asyncio loop"
    )
    return parser.parse_args(argv)


async def create_proposal(app: Any, title: str, now: datetime) -> int:
    from app.domain.models import ProposalDraft, ProposalType, User

    created = await app.bot_data.container.proposals.create_proposal(
        User(telegram_id=1, username="bench", first_name="Bench"),
        ProposalDraft(
            title=title,
            description="Benchmark proposal",
            proposal_type=ProposalType.MULTIPLE_CHOICE,
            options=list(OPTIONS),
            deadline_at=now + timedelta(days=3),
        ),
    )
    return int(created.proposal.id)


cpu_seconds: list[float] = []  # this process's CPU time per dispatch() call


async def dispatch(
    app: Any, updates: list[Any], concurrency: int, profiler: cProfile.Profile | None = None
) -> tuple[float, list[float]]:
    """Process ``updates`` with at most ``concurrency`` in flight; (wall seconds, latencies)."""
    gate = asyncio.Semaphore(concurrency)
    latencies: list[float] = []

    async def one(update: Any) -> None:
        async with gate:
            started = time.perf_counter()
            await app.process_update(update)
            latencies.append(time.perf_counter() - started)

    if profiler is not None:
        profiler.enable()
    started = time.perf_counter()
    cpu_started = time.process_time()
    await asyncio.gather(*(one(u) for u in updates))
    elapsed = time.perf_counter() - started
    cpu_seconds.append(time.process_time() - cpu_started)
    if profiler is not None:
        profiler.disable()
    return elapsed, latencies


def vote_updates(factory: Any, pid: int, first_uid: int, count: int) -> list[Any]:
    return [
        factory.callback(
            f"v:{pid}:{i % len(OPTIONS)}",
            user_id=first_uid + i,
            chat_id=int(CHANNEL_ID),
            chat_type="channel",
        )
        for i in range(count)
    ]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from app.domain.clock import FrozenClock
    from app.persistence.database import Database
    from app.persistence.repositories.submissions import SubmissionRepository
    from app.telegram_handlers.bot import build_application
    from tests.support.telegram import RecordingRequest, UpdateFactory

    await prepare_postgres(args.database_url)
    load_before = round(os.getloadavg()[0], 2)  # other work on the machine skews the figures
    now = datetime.now(UTC)
    request = RecordingRequest()
    database = Database(args.database_url, pool_size=args.pool_size)
    app = build_application(
        settings(),
        request=request,
        clock=FrozenClock(now),
        database=database,
        rate_limit=False,
    )
    await app.initialize()
    try:
        factory = UpdateFactory(app.bot)
        warm_pid = await create_proposal(app, "Warm-up", now)
        pid = await create_proposal(app, "Benchmark", now)
        await dispatch(
            app,
            vote_updates(factory, warm_pid, FIRST_WARMUP_VOTER, WARMUP_VOTES),
            args.concurrency,
        )

        updates = vote_updates(factory, pid, FIRST_VOTER, args.voters)  # built before timing
        request.clear()
        profiler = cProfile.Profile() if args.profile else None
        elapsed, latencies = await dispatch(app, updates, args.concurrency, profiler)

        answers: dict[str, list[str]] = {}
        for call in request.calls_to("answerCallbackQuery"):
            answers.setdefault(str(call.params["callback_query_id"]), []).append(
                str(call.params.get("text", ""))
            )
        outcomes = Counter(
            "no answer" if not got else got[0][:60] if RECORDED not in got[0] else RECORDED
            for got in (answers.get(u.callback_query.id, []) for u in updates)
        )
        recorded = outcomes.pop(RECORDED, 0)
        for outcome, n in outcomes.most_common():
            logger.warning("%d vote(s) not recorded: %s", n, outcome)
        async with database.transaction() as session:
            stored = await SubmissionRepository(session).count_for_proposal(pid)
    finally:
        await app.shutdown()

    if profiler is not None:
        write_profile(profiler, args.profile)

    votes_per_second = args.voters / elapsed if elapsed > 0 else float("inf")
    return {
        "benchmark": "votes",
        "database": "postgresql",
        "voters": args.voters,
        "concurrency": args.concurrency,
        "pool_size": args.pool_size,
        "seconds": round(elapsed, 3),
        "client_cpu_ms_per_vote": round(1000 * cpu_seconds[-1] / max(args.voters, 1), 2),
        "loadavg_1m_before": load_before,
        "event_loop": "uvloop" if args.uvloop else "asyncio",
        "votes_per_second": round(votes_per_second, 1),
        **latency_summary(latencies),
        "stored_rows": stored,
        "lost_votes": args.voters - stored,
        "errors": args.voters - recorded,
        "target_votes_per_second": TARGET_VOTES_PER_SECOND,
        "meets_target": votes_per_second >= TARGET_VOTES_PER_SECOND
        and stored == args.voters
        and recorded == args.voters,
    }


async def guarded(args: argparse.Namespace) -> dict[str, Any]:
    async with exclusive_use(args.database_url):
        return await run(args)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    start_bot_benchmark()
    if args.uvloop:
        import uvloop

        result = uvloop.run(guarded(args))
    else:
        result = asyncio.run(guarded(args))
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
