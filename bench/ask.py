"""/ask latency through the Telegram handler with 10,000 proposals, 20,000 chunks, 100,000 facts.

    python bench/ask.py [--proposals 10000] [--chunks 20000] [--facts 100000] [--questions 200]
                        [--data-dir DIR] [--rebuild] [--database-url URL]
                        [--openai-questions 30] [--profile PATH]

Targets (the issue): p95 at most 150 ms on 2 cores with the offline backend; with the
OpenAI backend (against tests/support/fake_openai.py) at most 2 chat calls and 1 embedding
call per /ask.

Data set: about 2,000 distinct sentences embedded once by the real model, combined into
proposals, document chunks and facts (bench/ask_corpus.py), written to SQL and Chroma and
kept under --data-dir for the next run (bench/ask_dataset.py).

Measurement. The real Application (``build_application`` with the offline
``RecordingRequest``), ``post_init`` as run_polling does, one explicit ``reconcile()`` (it
must index nothing), 10 warm-up questions, then --questions /ask DMs cycling through ~30
question templates (bench/ask_questions.py), one at a time, each a real Update through
``Application.process_update``; the time is until the handler has replied. The time each
question spends per phase (embedding, Chroma, SQL, fact graph, LLM steps) comes from
bench/ask_probes.py, so a slow p95 says where it goes. Then the OpenAI part
(bench/ask_openai.py) counts chat and embedding calls per /ask against the fake server.

Prints one JSON object on stdout; logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ask_community import ASKER, NOW, SEED, users
from bench.ask_dataset import (
    add_dataset_arguments,
    default_data_dir,
    ensure_dataset,
    run_guarded,
)
from bench.ask_openai import openai_part
from bench.ask_probes import Phases, capture_intents
from bench.ask_questions import questions
from bench.common import (
    DEFAULT_URL,
    latency_summary,
    logger,
    percentile,
    settings,
    start_bot_benchmark,
    write_profile,
)

TARGET_P95_MS = 150
WARMUP = 10


@dataclass
class Run:
    seconds: list[float] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    phases: list[dict[str, float]] = field(default_factory=list)
    calls: list[Counter[str]] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)


async def ask_all(app: Any, request: Any, factory: Any, asked: list[tuple], phases: Phases) -> Run:
    run = Run()
    for kind, question in asked:
        update = factory.message(f"/ask {question}", user_id=ASKER, first_name="Alice")
        before = len(request.calls)
        phases.reset()
        started = time.perf_counter()
        await app.process_update(update)
        run.seconds.append(time.perf_counter() - started)
        spent, calls = phases.reset()
        run.kinds.append(kind)
        run.questions.append(question)
        run.phases.append(spent)
        run.calls.append(calls)
        sent = [c for c in request.calls[before:] if c.method == "sendMessage" and not c.failed]
        run.replies.append(str(sent[-1].params.get("text", "")) if sent else "")
    return run


def summary_ms(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    return {"n": len(ms), "p50_ms": round(statistics.median(ms), 1),
            "p95_ms": round(percentile(ms, 95), 1), "max_ms": round(ms[-1], 1)}  # fmt: skip


def phase_table(run: Run, pick: list[int]) -> dict[str, dict[str, float]]:
    names = sorted({k for i in pick for k in run.phases[i]})
    table = {}
    for name in names:
        ms = sorted(run.phases[i].get(name, 0.0) * 1000 for i in pick)
        table[name] = {
            "mean_ms": round(statistics.fmean(ms), 2), "p95_ms": round(percentile(ms, 95), 2),
            "calls_per_q": round(statistics.fmean(run.calls[i][name] for i in pick), 2),
        }  # fmt: skip
    return table


def report(run: Run, intents: list[str]) -> dict[str, Any]:
    slow = sorted(range(len(run.seconds)), key=lambda i: -run.seconds[i])[
        : max(1, len(run.seconds) // 20)
    ]
    by_intent = {
        intent: summary_ms([s for s, x in zip(run.seconds, intents, strict=True) if x == intent])
        for intent in sorted(set(intents))
    }
    by_kind = {
        kind: {
            **summary_ms([s for s, k in zip(run.seconds, run.kinds, strict=True) if k == kind]),
            "no_answer": sum(
                1 for r, k in zip(run.replies, run.kinds, strict=True)
                if k == kind and ("couldn't find" in r or "cannot find" in r or not r)
            ),
        }
        for kind in dict.fromkeys(run.kinds)
    }  # fmt: skip
    return {
        **latency_summary(run.seconds),
        "by_intent": by_intent,
        "by_kind": by_kind,
        "phases_all": phase_table(run, list(range(len(run.seconds)))),
        "phases_slowest_5pct": phase_table(run, slow),
        "slowest": [
            {
                "ms": round(run.seconds[i] * 1000, 1),
                "kind": run.kinds[i],
                "intent": intents[i],
                "question": run.questions[i],
                "phases_ms": {k: round(v * 1000, 1) for k, v in run.phases[i].items()},
            }
            for i in slow[:5]
        ],
    }


async def measure(config: Any, args: argparse.Namespace) -> dict[str, Any]:
    from app.domain.clock import FrozenClock
    from app.domain.errors import CoordBotError
    from app.persistence.database import Database
    from app.telegram_handlers.bot import build_application
    from tests.support.telegram import RecordingRequest, UpdateFactory

    request = RecordingRequest()
    app = build_application(
        config, request=request, clock=FrozenClock(NOW),
        database=Database(config.resolved_database_url), rate_limit=False,
        freeze_gc=True,  # as `coordbot run` does
    )  # fmt: skip
    errors: list[BaseException] = []

    async def on_error(update: object, context: Any) -> None:
        if context.error is not None and not isinstance(context.error, CoordBotError):
            errors.append(context.error)

    app.add_error_handler(on_error)
    await app.initialize()
    await app.post_init(app)  # type: ignore[misc]  # what run_polling does
    container = app.bot_data.container
    try:
        started = time.perf_counter()
        reconciled = await container.index.reconcile()
        reconcile_s = time.perf_counter() - started
        factory = UpdateFactory(app.bot)
        rnd = random.Random(SEED + 1)
        people = users()
        warm = questions(WARMUP, rnd, people, args.proposals)
        asked = questions(args.questions, rnd, people, args.proposals)
        phases = Phases()
        phases.watch(container)
        started = time.perf_counter()
        await ask_all(app, request, factory, warm[:1], phases)
        first_ms = (time.perf_counter() - started) * 1000
        await ask_all(app, request, factory, warm[1:], phases)
        intents: list[str] = []
        capture_intents(container, intents)
        profiler = cProfile.Profile() if args.profile else None
        load_before = round(os.getloadavg()[0], 2)
        cpu = time.process_time()
        if profiler:
            profiler.enable()
        run = await ask_all(app, request, factory, asked, phases)
        if profiler:
            profiler.disable()
        cpu_ms = 1000 * (time.process_time() - cpu) / len(asked)
        measured = report(run, intents[: len(asked)])
        openai = {"skipped": "--openai-questions 0"}
        if args.openai_questions:
            openai_asked = questions(args.openai_questions, random.Random(SEED + 2), people,
                                     args.proposals)  # fmt: skip
            openai = await openai_part(app, request, factory, config, openai_asked)
    finally:
        await app.shutdown()
        await app.post_shutdown(app)  # type: ignore[misc]
    if profiler:
        write_profile(profiler, args.profile)
    for error in errors[:3]:
        logger.warning("handler error: %r", error)
    return {
        "reconcile_at_start": {**reconciled, "seconds": round(reconcile_s, 2)},
        "first_question_ms": round(first_ms, 1),
        "loadavg_1m_before": load_before,
        "cpu_ms_per_question": round(cpu_ms, 1),
        "handler_errors": len(errors),
        "unanswered": sum(not r for r in run.replies),
        **measured,
        "openai": openai,
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    config = settings().model_copy(
        update={"data_dir": args.data_dir, "database_url": args.database_url or None}
    )
    dataset = await ensure_dataset(config, args)
    result = await measure(config, args)
    p95 = result["p95_ms"]
    from app.services.onnx_cpu import cpu_flags, int8_products_saturate

    return {
        "benchmark": "ask",
        "proposals": dataset["counts"]["proposals"],
        "chunks": dataset["counts"]["chunks"],
        "facts": dataset["counts"]["facts"],
        "database": "postgresql" if args.database_url else "sqlite",
        "backend": "offline",
        "cpus": len(os.sched_getaffinity(0)),
        "cpu": cpu_flags(),  # which embedding code path ran: it depends on the CPU
        "int8_products_saturate": int8_products_saturate(),
        "questions": args.questions,
        "target_p95_ms": TARGET_P95_MS,
        "meets_target": p95 <= TARGET_P95_MS,
        "build_seconds": dataset["build_seconds"],
        "dataset": {k: v for k, v in dataset.items() if k not in ("version", "database")},
        **result,
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--openai-questions", type=int, default=31, help="0 skips the part")
    add_dataset_arguments(parser, f"PostgreSQL instead of SQLite (e.g. {DEFAULT_URL}_ask)")
    parser.add_argument("--profile", metavar="PATH", help="cProfile the measured questions")
    args = parser.parse_args(argv)
    default_data_dir(args, "ask")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    start_bot_benchmark()
    sys.stdout.write(json.dumps(asyncio.run(run_guarded(run, args))) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
