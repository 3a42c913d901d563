"""MCP tool-call latency over stdio against the same calls in-process, on bench/ask.py's data
set (10,000 proposals, 20,000 chunks, 100,000 facts).

    python bench/mcp.py [--calls 100] [--proposals 10000] [--chunks 20000] [--facts 100000]
                        [--data-dir DIR] [--rebuild] [--database-url URL]

Target (issue 12): for knowledge_query, find_facts, ask_question and ask, the p95 over
stdio is within 20 ms of the p95 of the same call made in-process.

In-process: ``MCPServer.call_tool`` on the server ``coordbot mcp`` builds (the same tool
functions, argument validation and result conversion, no transport) in this process.
Over stdio: `coordbot mcp` started as a subprocess by the SDK's client, each call timed
from ``client.call_tool`` until its result is parsed (and checked against the tool's
output schema, as the SDK's client does). Each call is made on both sides back to back,
the order alternating, so load from other work on the machine falls on both alike; both
are warmed up first. The arguments: questions from bench/ask_questions.py (documents,
facts, every /ask kind) and fact patterns naming the community's people and things.

Prints one JSON object on stdout; logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# `python bench/mcp.py` puts bench/ first on the path, where this file would shadow the SDK.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bench.ask_community import SEED, TOPICS, users  # noqa: E402
from bench.ask_dataset import (  # noqa: E402
    add_dataset_arguments,
    default_data_dir,
    ensure_dataset,
    run_guarded,
)
from bench.ask_questions import questions  # noqa: E402
from bench.common import (  # noqa: E402
    REPO_ROOT,
    latency_summary,
    log_to_stderr,
    percentile,
    settings,
)

TARGET_OVERHEAD_P95_MS = 20.0
WARMUP = 5
WARMUP_ASK = 31  # one question of each template in bench/ask_questions.py
TOOLS = ("knowledge_query", "find_facts", "ask_question", "ask")


def workload(n: int, n_proposals: int, seed: int = SEED + 12) -> dict[str, list[dict[str, Any]]]:
    """``n`` argument sets per tool, the same for both sides."""
    rnd = random.Random(seed)
    people = users()
    asked = questions(max(n, 31) * 4, rnd, people, n_proposals)
    docs = [q for kind, q in asked if kind == "docs"]
    facts = [q for kind, q in asked if kind == "facts"]
    things = [thing for ts, _ in TOPICS.values() for thing in ts]
    patterns: list[dict[str, Any]] = []
    for i in range(n):
        person = rnd.choice(people[:200])
        patterns.append(
            {"query": {"subject": f"{person.first_name} {person.last_name}"}}
            if i % 2 == 0
            else {"query": {"predicate": "manages", "object": f"the {rnd.choice(things)}"}}
        )
    return {
        "knowledge_query": [{"query": q, "top_k": 5} for q in (docs * 4)[:n]],
        "find_facts": [{**p, "limit": 10} for p in patterns],
        "ask_question": [{"question": q, "max_results": 5} for q in (facts * 4)[:n]],
        "ask": [{"question": q} for _, q in asked[:n]],
    }


async def measure(config: Any, work: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Both sides open at once, each call made in-process and over stdio back to back (the
    order alternating), so both see the same load on a shared machine."""
    from mcp import Client, StdioServerParameters

    from app.container import Container
    from app.mcp.server import build_server

    env = {"DATA_DIR": str(config.data_dir), "PYTHONPATH": str(REPO_ROOT),
           "PTB_TIMEDELTA": "true", "LOG_LEVEL": "WARNING"}  # fmt: skip
    if config.database_url:
        env["DATABASE_URL"] = config.database_url
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "app.cli", "mcp"], env=env,
        cwd=str(config.data_dir),
    )  # fmt: skip
    container = Container(config)
    try:
        await container.start()
        server = build_server(container)
        started = time.perf_counter()
        async with Client(params, read_timeout_seconds=300) as client:
            connect_s = time.perf_counter() - started
            sides = {
                "in_process": lambda name, args: server.call_tool(name, args),
                "stdio": lambda name, args: client.call_tool(name, args),
            }
            result = await _timed(sides, work)
    finally:
        await container.stop()
    return {**result, "connect_seconds": round(connect_s, 2)}


async def _timed(sides: dict[str, Any], work: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Warm-up first: every /ask kind once (other arguments than the measured ones)."""
    warm = workload(WARMUP_ASK, 10_000, seed=SEED + 13)
    out: dict[str, Any] = {}
    for name in TOOLS:
        for args in warm[name][: WARMUP_ASK if name == "ask" else WARMUP]:
            for call in sides.values():
                await call(name, args)
        seconds: dict[str, list[float]] = {side: [] for side in sides}
        errors = dict.fromkeys(sides, 0)
        for i, args in enumerate(work[name]):
            order = list(sides) if i % 2 == 0 else list(reversed(sides))
            for side in order:
                started = time.perf_counter()
                result = await sides[side](name, args)
                seconds[side].append(time.perf_counter() - started)
                errors[side] += bool(getattr(result, "is_error", False))
        out[name] = {
            side: {**latency_summary(seconds[side]), "n": len(seconds[side]),
                   "tool_errors": errors[side]}
            for side in sides
        }  # fmt: skip
        # The same call's extra time over stdio, call by call: the transport's own cost.
        extra = sorted(
            1000 * (r - local)
            for r, local in zip(seconds["stdio"], seconds["in_process"], strict=True)
        )
        out[name]["paired_extra_ms"] = {
            "p50": round(statistics.median(extra), 2), "p95": round(percentile(extra, 95), 2)
        }  # fmt: skip
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    config = settings().model_copy(
        update={"data_dir": args.data_dir, "database_url": args.database_url or None}
    )
    dataset = await ensure_dataset(config, args)
    work = workload(args.calls, args.proposals)
    load = os.getloadavg()[0]  # other work on the machine shows in both sides alike
    measured = await measure(config, work)
    tools = {}
    for name in TOOLS:
        local, remote = measured[name]["in_process"], measured[name]["stdio"]
        overhead = remote["p95_ms"] - local["p95_ms"]
        tools[name] = {
            "in_process": local,
            "stdio": remote,
            "p50_overhead_ms": round(remote["p50_ms"] - local["p50_ms"], 2),
            "p95_overhead_ms": round(overhead, 2),
            "paired_extra_ms": measured[name]["paired_extra_ms"],
            "meets_target": overhead <= TARGET_OVERHEAD_P95_MS,
        }
    return {
        "benchmark": "mcp",
        "transport": "stdio",
        "proposals": dataset["counts"]["proposals"],
        "chunks": dataset["counts"]["chunks"],
        "facts": dataset["counts"]["facts"],
        "database": "postgresql" if args.database_url else "sqlite",
        "cpus": len(os.sched_getaffinity(0)),
        "calls_per_tool": args.calls,
        "stdio_connect_seconds": measured["connect_seconds"],
        "loadavg_1m_before": round(load, 2),
        "target_p95_overhead_ms": TARGET_OVERHEAD_P95_MS,
        "meets_target": all(t["meets_target"] for t in tools.values()),
        "tools": tools,
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=100, help="measured calls per tool")
    add_dataset_arguments(parser, "PostgreSQL instead of SQLite")
    args = parser.parse_args(argv)
    default_data_dir(args, "mcp")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    log_to_stderr()
    sys.stdout.write(json.dumps(asyncio.run(run_guarded(run, args))) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
