"""Benchmark: many proposals reaching their deadline together, with the scheduler running.

1,000 proposals with 100 votes each share one deadline a few seconds ahead. The real
Application runs its JobQueue (one close job per proposal plus the sweep) against
PostgreSQL and an offline Bot API that timestamps every accepted call. Reports the time
from the deadline to each announcement being accepted, and closes per second.

    python bench/close.py [--proposals 1000] [--votes 100] [--lead 10] [--profile PATH]

Prints one JSON object on stdout; logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from common import (
    CHANNEL_ID,
    DEFAULT_URL,
    latency_summary,
    log_to_stderr,
    prepare_postgres,
    settings,
    write_profile,
)
from sqlalchemy import insert, select

from app.domain.clock import SystemClock
from app.nlp.lexical import proposal_lexical
from app.persistence.database import Database
from app.persistence.models import OutboxRow, ProposalRow, SubmissionRow, UserRow
from app.telegram_handlers.bot import build_application
from tests.support.telegram import RecordingRequest


def announcement_of(method: str, params: dict[str, Any]) -> int | None:
    """The proposal id whose result text this accepted call is, if it is one."""
    reply_to = (params.get("reply_parameters") or {}).get("message_id")
    if method != "sendMessage" or reply_to is None or str(params.get("chat_id")) != CHANNEL_ID:
        return None
    return int(reply_to) - 10_000


class TimedRequest(RecordingRequest):
    """Records when each Bot API call was accepted (wall clock)."""

    def __init__(self) -> None:
        super().__init__()
        self.accepted: list[tuple[str, dict[str, Any], float]] = []
        self.announced: set[int] = set()

    async def do_request(self, url: str, method: str, request_data: Any = None, **kw: Any) -> Any:
        result = await super().do_request(url, method, request_data, **kw)
        call = self.calls[-1]
        if not call.failed:
            self.accepted.append((call.method, call.params, time.time()))
            if (pid := announcement_of(call.method, call.params)) is not None:
                self.announced.add(pid)
        return result


async def load(db: Database, proposals: int, votes: int, deadline: datetime) -> None:
    now = datetime.now(UTC)
    options = ["Yes", "No", "Abstain", "Later"]
    async with db.transaction() as session:
        await session.execute(
            insert(UserRow),
            [{"telegram_id": u, "created_at": now, "updated_at": now} for u in range(1, votes + 2)],
        )
        await session.execute(
            insert(ProposalRow),
            [
                {"id": i, "proposer_id": 1, "title": f"Proposal {i}", "description": "Benchmark",
                 "proposal_type": "multiple_choice", "options": options,
                 "target_channel_id": CHANNEL_ID, "channel_message_id": 10_000 + i,
                 "created_at": now - timedelta(hours=1), "deadline_at": deadline,
                 "status": "open",
                 "lexical": proposal_lexical(f"Proposal {i}", "Benchmark", options, "en")}
                for i in range(1, proposals + 1)
            ],
        )  # fmt: skip
        rows = [
            {"proposal_id": i, "submitter_id": u + 2, "response_content": options[(i + u) % 4 % 3],
             "created_at": now, "updated_at": now}
            for i in range(1, proposals + 1)
            for u in range(votes)
        ]  # fmt: skip
        for start in range(0, len(rows), 10_000):
            await session.execute(insert(SubmissionRow), rows[start : start + 10_000])


async def run(args: argparse.Namespace) -> dict[str, Any]:
    await prepare_postgres(args.database_url)
    db = Database(args.database_url, pool_size=10)
    request = TimedRequest()
    app = build_application(
        settings(), request=request, clock=SystemClock(), database=db, rate_limit=False
    )
    load_started = time.time()
    deadline = datetime.now(UTC) + timedelta(seconds=args.lead)
    await load(db, args.proposals, args.votes, deadline)
    load_seconds = time.time() - load_started
    if datetime.now(UTC) > deadline - timedelta(seconds=2):
        raise SystemExit("loading took longer than --lead; raise it")

    await app.initialize()
    await app.post_init(app)  # type: ignore[misc]  # arms one job per open proposal + sweep
    await app.start()  # starts the JobQueue; deadlines now fire on their own
    # Profiles the event loop's thread from the deadline until the last result text.
    profiler = cProfile.Profile(time.thread_time) if args.profile else None  # CPU, not waits
    try:
        if profiler is not None:
            await asyncio.sleep(max(0.0, deadline.timestamp() - time.time()))
            profiler.enable()
        give_up = time.time() + args.timeout
        while time.time() < give_up:
            await asyncio.sleep(0.05 if profiler is not None else 0.2)
            if len(request.announced) >= args.proposals:
                if profiler is not None:
                    profiler.disable()
                    write_profile(profiler, args.profile)
                    profiler = None
                if args.until_announced:
                    break
            async with db.transaction() as session:
                pending = await session.scalar(
                    select(OutboxRow.id).where(OutboxRow.sent_at.is_(None)).limit(1)
                )
                opened = await session.scalar(
                    select(ProposalRow.id).where(ProposalRow.status == "open").limit(1)
                )
            if pending is None and opened is None:
                break
        async with db.transaction() as session:
            closed_at = list(await session.scalars(select(ProposalRow.closed_at)))
    finally:
        await app.stop()
        await app.shutdown()

    t0 = deadline.timestamp()
    announced: dict[int, float] = {}  # the result text, replying to the proposal's post
    charted: dict[int, float] = {}  # the bar chart that follows it
    duplicates = 0
    for method, params, at in request.accepted:
        if (pid := announcement_of(method, params)) is not None:
            seen = announced
        elif method == "sendPhoto" and str(params.get("chat_id")) == CHANNEL_ID:
            seen, pid = charted, int(params["reply_parameters"]["message_id"]) - 10_000
        else:
            continue
        duplicates += pid in seen
        seen.setdefault(pid, at)
    latencies = [announced[p] - t0 for p in sorted(announced)]
    chart_latencies = [charted[p] - t0 for p in sorted(charted)]
    closes = [c.timestamp() - t0 for c in closed_at if c is not None]
    close_span = max(closes) if closes else float("nan")
    summary = latency_summary(latencies)
    return {
        "benchmark": "close",
        "database": "postgresql",
        "proposals": args.proposals,
        "votes_per_proposal": args.votes,
        "load_seconds": round(load_seconds, 2),
        "announced": len(announced),
        "duplicate_announcements": duplicates,
        "deadline_to_announcement": summary,
        "deadline_to_last_announcement_s": round(max(latencies), 3) if latencies else None,
        "charts": len(charted),
        "deadline_to_chart": latency_summary(chart_latencies),
        "deadline_to_last_close_s": round(close_span, 3),
        "closes_per_second": round(len(closes) / close_span, 1) if closes else 0.0,
        "target_p95_ms": 2000,
        "meets_target": len(announced) == args.proposals and summary["p95_ms"] <= 2000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--proposals", type=int, default=1000)
    parser.add_argument("--votes", type=int, default=100)
    parser.add_argument("--lead", type=float, default=15.0, help="seconds from load to deadline")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--database-url", default=DEFAULT_URL + "_close")
    parser.add_argument(
        "--until-announced",
        action="store_true",
        help="stop once every result text is out (charts and other messages unmeasured)",
    )
    parser.add_argument(
        "--profile", metavar="PATH", help="cProfile the deadline-to-last-announcement window"
    )
    args = parser.parse_args()
    log_to_stderr()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
