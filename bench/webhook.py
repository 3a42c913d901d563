"""Updates per second through the webhook HTTP path, deadline-to-announcement latency, and
how long members' DMs wait behind a channel's backlog.

    python bench/webhook.py [--voters 1000] [--proposals 1000] [--concurrency 32]
                            [--backlog 1000] [--dms 100]
                            [--database-url postgresql+asyncpg://.../coordbot_bench_webhook]

Real `coordbot run` processes in webhook mode on PostgreSQL, against the Bot API stand-in
(tests/support/botapi.py) on 127.0.0.1, PTB's client-side rate limiter off (the stand-in
has no limits) but for the fairness run. Four runs:

* votes through 1 replica, then through 2 (round robin): each vote is a callback-query
  update POSTed to the webhook with the secret; the 200 comes back once it is handled.
  Reports votes/s and per-update latency (p50/p95);
* announcements: ``--proposals`` open proposals, two replicas, every deadline in the same
  second; for each proposal the time from its deadline to the stand-in receiving its
  result message (p50/p95/max);
* fairness: one replica with PTB's rate limiter on, as in production; ``--backlog``
  channel messages queued (half the proposals closing at once: a result and a chart
  each), then ``--dms`` proposals of as many members close, a DM each: for each DM the
  time from being queued (the outbox row) to the stand-in receiving it (p50/p95/max),
  and the channel's pace meanwhile.

Prints one JSON object on stdout; logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import asyncpg
import httpx

from bench.common import (
    CHANNEL_ID,
    REPO_ROOT,
    _asyncpg_dsn,
    exclusive_use,
    latency_summary,
    log_to_stderr,
    logger,
    prepare_postgres,
)
from tests.support.botapi import running_stand_in
from tests.support.net import free_port

DEFAULT_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/coordbot_bench_webhook"
SECRET = "bench-secret"
TARGET_VOTES_PER_SECOND = 300
TARGET_ANNOUNCEMENT_P95_S = 2.0
TARGET_DM_P95_S = 5.0


def _env(
    api: Any, url: str, data: Path, port: int, hook_port: int, rate_limit: bool = False
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CHROMA_"))}
    env.update(
        PYTHONPATH=str(REPO_ROOT),
        TELEGRAM_BOT_TOKEN=api.token,
        TELEGRAM_API_BASE_URL=api.base_url,
        TELEGRAM_RATE_LIMIT="true" if rate_limit else "false",
        DATABASE_URL=url,
        DATA_DIR=str(data),
        TARGET_CHANNEL_ID=CHANNEL_ID,
        REMINDER_BEFORE_HOURS="0",
        SWEEP_INTERVAL_SECONDS="1",
        HTTP_HOST="127.0.0.1",
        HTTP_PORT=str(port),
        PTB_TIMEDELTA="true",
        LOG_LEVEL="WARNING",
    )
    if hook_port:  # `coordbot seed` runs without a webhook
        env.update(WEBHOOK_URL=f"http://127.0.0.1:{hook_port}/hook", WEBHOOK_SECRET=SECRET)
    return env


class Replicas:
    def __init__(
        self, api: Any, url: str, data: Path, count: int, rate_limit: bool = False
    ) -> None:
        self.ports = [free_port() for _ in range(count)]
        self.procs = []
        for port in self.ports:
            env = _env(api, url, data, port, self.ports[0], rate_limit)
            log = (data / f"bot-{port}.log").open("wb")
            self.procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "app", "run"],
                    env=env,
                    cwd=data,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )

    async def ready(self, limit: float = 120.0) -> None:
        deadline = time.monotonic() + limit
        async with httpx.AsyncClient() as client:
            for port in self.ports:
                while True:
                    try:
                        if (await client.get(f"http://127.0.0.1:{port}/readyz")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    if time.monotonic() > deadline:
                        raise SystemExit(f"replica on port {port} did not become ready")
                    await asyncio.sleep(0.1)

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()

    @property
    def hooks(self) -> list[str]:
        return [f"http://127.0.0.1:{port}/hook" for port in self.ports]


def _seed(
    url: str,
    data: Path,
    api: Any,
    proposals: int,
    deadline: str,
    proposer: Any = lambda i: 1001,
    votes: Any = lambda i: [],
) -> None:
    fixture = {
        "users": [{"telegram_id": 1001, "first_name": "Ann"}],
        "proposals": [
            {
                "id": i,
                "proposer": proposer(i),
                "title": f"Item {i}",
                "description": f"Proposal {i}",
                "type": "multiple_choice",
                "options": ["Yes", "No"],
                "status": "open",
                "created_at": "2026-01-01T00:00:00Z",
                "deadline": deadline,
                "channel_id": CHANNEL_ID,
                "votes": votes(i),
            }
            for i in range(1, proposals + 1)
        ],
    }
    path = data / "seed.json"
    path.write_text(json.dumps(fixture))
    env = _env(api, url, data, 0, 0)
    subprocess.run(
        [sys.executable, "-m", "app", "seed", str(path)],
        env=env,
        cwd=data,
        check=True,
        capture_output=True,
    )


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _votes(
    api: Any,
    hooks: list[str],
    voters: int,
    concurrency: int,
    first_user: int = 10_000,
    pids: list[int] | None = None,
) -> dict[str, Any]:
    pids = pids or []
    calls = len(api.calls_to("answerCallbackQuery"))
    post = {
        "message_id": 1,
        "date": int(time.time()),
        "chat": {"id": int(CHANNEL_ID), "type": "channel", "title": "Proposals"},
        "text": "New proposal #1",
    }
    updates = [api.callback_update(first_user + i, f"v:1:{i % 2}", post) for i in range(voters)]
    latencies: list[float] = []
    failures = 0
    answered = 0
    gate = asyncio.Semaphore(concurrency)
    headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}
    # aiohttp: an httpx client in this process capped the rate before the bot did.
    connector = aiohttp.TCPConnector(limit=concurrency)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:

        async def one(i: int, update: dict[str, Any]) -> None:
            nonlocal failures, answered
            async with gate:
                start = time.perf_counter()
                body = json.dumps(update).encode()
                async with client.post(hooks[i % len(hooks)], data=body, headers=headers) as r:
                    reply = await r.read()
                    latencies.append(time.perf_counter() - start)
                    failures += r.status != 200
                    # The bot may answer the button in its HTTP reply (a webhook reply).
                    answered += b"answerCallbackQuery" in reply

        cpu = [_cpu_seconds(pid) for pid in pids]
        started = time.perf_counter()
        await asyncio.gather(*(one(i, u) for i, u in enumerate(updates)))
        elapsed = time.perf_counter() - started
        cpu = [_cpu_seconds(pid) - before for pid, before in zip(pids, cpu, strict=True)]
    answered += len(api.calls_to("answerCallbackQuery")) - calls  # or with a call of its own
    return {
        "votes": voters,
        "failed": failures,
        "seconds": round(elapsed, 2),
        "votes_per_second": round(voters / elapsed, 1),
        "bot_cpu_ms_per_vote": round(1000 * sum(cpu) / voters, 2),
        "answered": answered,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        **latency_summary(latencies),
    }


async def _count_votes(url: str) -> int:
    conn = await asyncpg.connect(_asyncpg_dsn(url))
    try:
        return int(await conn.fetchval("SELECT count(*) FROM submissions"))
    finally:
        await conn.close()


async def _vote_run(url: str, replicas: int, args: argparse.Namespace) -> dict[str, Any]:
    await prepare_postgres(url)
    with running_stand_in() as api, tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        _seed(url, data, api, 1, "2099-01-01T00:00:00Z")
        group = Replicas(api, url, data, replicas)
        try:
            await group.ready()
            await _votes(api, group.hooks, 100, args.concurrency, 1_000_000)  # warm-up: others
            pids = [p.pid for p in group.procs]
            result = await _votes(api, group.hooks, args.voters, args.concurrency, pids=pids)
        finally:
            group.stop()
        result["stored"] = await _count_votes(url) - 100
        return {"replicas": replicas, **result}


async def _announce_run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    await prepare_postgres(url)
    with running_stand_in() as api, tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        _seed(url, data, api, args.proposals, "2099-01-01T00:00:00Z")
        group = Replicas(api, url, data, 2)
        try:
            await group.ready()
            pids = [p.pid for p in group.procs]
            cpu = [_cpu_seconds(pid) for pid in pids]
            conn = await asyncpg.connect(_asyncpg_dsn(url))
            try:
                deadline = await conn.fetchval(
                    "UPDATE proposals SET deadline_at = date_trunc('second', now()) "
                    "+ interval '3 seconds' RETURNING deadline_at"
                )
            finally:
                await conn.close()
            wanted = args.proposals
            pattern = re.compile(r"Results: Item (\d+)</b>")
            limit = time.monotonic() + 300
            seen: dict[int, float] = {}
            while len(seen) < wanted and time.monotonic() < limit:
                for call in api.calls_to("sendMessage"):
                    m = pattern.search(str(call.params.get("text", "")))
                    if m and call.status == 200:
                        seen.setdefault(int(m[1]), call.at)
                await asyncio.sleep(0.2)
            # Both replicas, from before the deadline to the last announcement seen: closing,
            # sending, marking, and whatever else they did meanwhile (sweeps, bookkeeping).
            cpu = [_cpu_seconds(pid) - before for pid, before in zip(pids, cpu, strict=True)]
        finally:
            group.stop()
        at = deadline.astimezone(UTC).timestamp() if isinstance(deadline, datetime) else 0.0
        delays = [t - at for t in seen.values()]
        summary = latency_summary(delays)
        return {
            "proposals": wanted,
            "announced": len(seen),
            "first_s": round(min(delays), 3) if delays else None,
            "bot_cpu_ms_per_proposal": round(1000 * sum(cpu) / max(wanted, 1), 2),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "replicas": 2,
            **{k.replace("_ms", "_s"): round(v / 1000, 3) for k, v in summary.items()},
        }


async def _fairness_run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """DMs queued behind a channel's backlog, PTB's rate limiter on."""
    await prepare_postgres(url)
    half = args.backlog // 2  # proposals whose result and chart fill the channel's queue
    members = range(1, args.dms + 1)  # member k proposed proposal half + k
    with running_stand_in() as api, tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        _seed(
            url, data, api, half + args.dms, "2099-01-01T00:00:00Z",
            proposer=lambda i: 1001 if i <= half else 20_000 + i - half,
            votes=lambda i: [{"user": 3001, "option": "Yes"}] if i <= half else [],
        )  # fmt: skip
        group = Replicas(api, url, data, 1, rate_limit=True)
        conn = await asyncpg.connect(_asyncpg_dsn(url))
        try:
            await group.ready()
            await conn.execute("UPDATE proposals SET deadline_at = now() WHERE id <= $1", half)
            limit = time.monotonic() + 300
            while time.monotonic() < limit:  # the backlog is queued, the channel started
                queued = await conn.fetchval(
                    "SELECT count(*) FROM outbox WHERE chat_id = $1", CHANNEL_ID
                )
                started = any(
                    c.status == 200 and str(c.params.get("chat_id")) == CHANNEL_ID
                    for c in api.calls_to("sendMessage")
                )
                if queued >= 2 * half and started:
                    break
                await asyncio.sleep(0.2)
            await conn.execute("UPDATE proposals SET deadline_at = now() WHERE id > $1", half)
            wanted = {str(20_000 + k) for k in members}
            seen: dict[str, float] = {}
            limit = time.monotonic() + 300
            while len(seen) < len(wanted) and time.monotonic() < limit:
                for call in api.calls_to("sendMessage"):
                    chat = str(call.params.get("chat_id"))
                    if chat in wanted and call.status == 200:
                        seen.setdefault(chat, call.at)
                await asyncio.sleep(0.2)
            rows = await conn.fetch(
                "SELECT chat_id, created_at FROM outbox WHERE kind = 'proposer_dm' "
                "AND chat_id = ANY($1::text[])",
                sorted(wanted),
            )
            backlog_left = await conn.fetchval(
                "SELECT count(*) FROM outbox WHERE chat_id = $1 AND sent_at IS NULL", CHANNEL_ID
            )
        finally:
            await conn.close()
            group.stop()
        queued_at = {r["chat_id"]: r["created_at"].timestamp() for r in rows}
        waits = [seen[c] - queued_at[c] for c in seen if c in queued_at]
        channel = sorted(
            c.at for c in api.calls if c.status == 200
            and c.method in ("sendMessage", "sendPhoto")
            and str(c.params.get("chat_id")) == CHANNEL_ID
        )  # fmt: skip
        span = channel[-1] - channel[0] if len(channel) > 1 else 0.0
        summary = latency_summary(waits)
        return {
            "channel_backlog": 2 * half,
            "dms": len(wanted),
            "dms_sent": len(seen),
            "channel_sent_meanwhile": len(channel),
            "channel_per_minute": round(60 * (len(channel) - 1) / span, 1) if span else None,
            "channel_left": int(backlog_left),
            "rate_limiter": True,
            "load_average": [round(x, 2) for x in os.getloadavg()],
            **{k.replace("_ms", "_s"): round(v / 1000, 3) for k, v in summary.items()},
        }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--voters", type=int, default=1000)
    parser.add_argument("--proposals", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--backlog", type=int, default=1000, help="channel messages queued")
    parser.add_argument("--dms", type=int, default=100, help="DMs queued after them")
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument(
        "--only",
        choices=["votes1", "votes2", "announce", "fairness"],
        help="one run instead of all four",
    )
    args = parser.parse_args()
    log_to_stderr()
    url = args.database_url
    runs: dict[str, Any] = {}
    async with exclusive_use(url):
        if args.only in (None, "votes1"):
            runs["votes_1_replica"] = await _vote_run(url, 1, args)
            logger.info("1 replica: %s", runs["votes_1_replica"])
        if args.only in (None, "votes2"):
            runs["votes_2_replicas"] = await _vote_run(url, 2, args)
            logger.info("2 replicas: %s", runs["votes_2_replicas"])
        if args.only in (None, "announce"):
            runs["announcements"] = await _announce_run(url, args)
            logger.info("announcements: %s", runs["announcements"])
        if args.only in (None, "fairness"):
            runs["fairness"] = await _fairness_run(url, args)
            logger.info("fairness: %s", runs["fairness"])
    met: dict[str, bool] = {}
    if "votes_1_replica" in runs:
        rate = runs["votes_1_replica"]["votes_per_second"]
        met["votes_per_second"] = rate >= TARGET_VOTES_PER_SECOND
    if "announcements" in runs:
        p95 = runs["announcements"].get("p95_s", 1e9)
        met["announcement_p95"] = p95 <= TARGET_ANNOUNCEMENT_P95_S
    if "fairness" in runs:
        fair = runs["fairness"]
        all_sent = fair["dms_sent"] == fair["dms"]
        met["dm_p95"] = all_sent and fair.get("p95_s", 1e9) <= TARGET_DM_P95_S
    print(
        json.dumps(
            {
                "benchmark": "webhook",
                "cpus": os.cpu_count(),
                **runs,
                "targets": {
                    "votes_per_second_1_replica": TARGET_VOTES_PER_SECOND,
                    "announcement_p95_s": TARGET_ANNOUNCEMENT_P95_S,
                    "dm_p95_s_behind_a_channel_backlog": TARGET_DM_P95_S,
                },
                "met": met,
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
