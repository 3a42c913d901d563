"""Benchmark: the fact graph at scale, on SQLite and PostgreSQL.

Generates a deterministic graph (1,000,000 facts by default: people, things, places,
companies, and drugs -> diseases -> symptoms chains), bulk-loads it through
GraphService.import_tsv (the `coordbot facts import` path), then times find_facts,
ask_question and two-hop questions through the service, as the bot calls them.

    python bench/graph.py [--facts 1000000] [--queries 300] [--databases sqlite,postgres]
                          [--reload]

--reload also times loading the same file again into the full table (the upsert path).

Targets: load >= 50,000 facts/s, find_facts p95 <= 5 ms, ask_question p95 <= 30 ms,
two-hop p95 <= 50 ms. Prints one JSON object on stdout; logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from common import (
    DEFAULT_URL,
    exclusive_use,
    latency_summary,
    log_to_stderr,
    logger,
    prepare_postgres,
)

from app.core.graph.graph_service import GraphService
from app.domain.clock import FrozenClock
from app.persistence.database import Database
from app.persistence.migrations import upgrade_head

TARGETS = {
    "load_facts_per_s": 50_000,
    "find_p95_ms": 5.0,
    "ask_p95_ms": 30.0,
    "two_hop_p95_ms": 50.0,
}
PEOPLE, THINGS, PLACES, COMPANIES = 100_000, 150_000, 5_000, 10_000
DRUGS, DISEASES, SYMPTOMS = 5_000, 20_000, 3_000
PERSON_THING = ["invented", "owns", "designed", "sold", "repaired", "built", "uses", "likes"]
PERSON_PLACE = ["born in", "lives in", "died in", "visited"]
PERSON_COMPANY = ["works for", "founded", "invested in"]
OTHER = [f"relation {i}" for i in range(30)]
SPEC = [
    ("Einstein", "is", "scientist"), ("Einstein", "invented", "relativity"),
    ("Einstein", "born_in", "Germany"), ("Edison", "invented", "light_bulb"),
    ("Tesla", "invented", "AC_motor"), ("Bell", "invented", "telephone"),
]  # fmt: skip


def generate(path: Path, total: int, seed: int = 7) -> dict[str, Any]:
    """Write ``total`` TSV lines; returns what the queries may ask about."""
    rnd = random.Random(seed)
    lines = ["\t".join(f) for f in SPEC]
    treats: dict[int, list[int]] = {}
    for drug in range(DRUGS):  # the chains two-hop questions follow
        treats[drug] = rnd.sample(range(DISEASES), 3)
        lines += [f"Drug {drug}\ttreats\tDisease {d}" for d in treats[drug]]
    for disease in range(DISEASES):
        lines += [f"Disease {disease}\thas symptom\tSymptom {s}"
                  for s in rnd.sample(range(SYMPTOMS), 4)]  # fmt: skip
    while len(lines) < total:
        kind = rnd.random()
        person = f"Person {rnd.randrange(PEOPLE)}"
        if kind < 0.6:
            line = f"{person}\t{rnd.choice(PERSON_THING)}\tThing {rnd.randrange(THINGS)}"
        elif kind < 0.75:
            line = f"{person}\t{rnd.choice(PERSON_PLACE)}\tPlace {rnd.randrange(PLACES)}"
        elif kind < 0.9:
            line = f"{person}\t{rnd.choice(PERSON_COMPANY)}\tCompany {rnd.randrange(COMPANIES)}"
        else:
            line = (
                f"Thing {rnd.randrange(THINGS)}\t{rnd.choice(OTHER)}\tThing {rnd.randrange(THINGS)}"
            )
        lines.append(f"{line}\t{rnd.randint(50, 100) / 100}")
    path.write_text("\n".join(lines[:total]) + "\n", encoding="utf-8")
    return {"drugs": DRUGS}


def find_queries(rnd: random.Random, n: int) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for i in range(n):
        shape = i % 4
        if shape == 0:
            out.append({"subject": f"person {rnd.randrange(PEOPLE)}"})
        elif shape == 1:
            out.append({"object": f"Thing {rnd.randrange(THINGS)}"})
        elif shape == 2:
            out.append({"predicate": rnd.choice(PERSON_THING + PERSON_PLACE)})
        else:
            out.append({"subject": f"Person {rnd.randrange(PEOPLE)}", "predicate": "owns"})
    return out


def ask_questions(rnd: random.Random, n: int) -> list[str]:
    templates = [
        "What did Person {p} invent?",
        "Who invented Thing {t}?",
        "Where was Person {p} born?",
        "which things does person {p} own?",
        "How many things did Person {p} design?",
        "Who works for Company {c}?",
    ]
    return [
        templates[i % len(templates)].format(
            p=rnd.randrange(PEOPLE), t=rnd.randrange(THINGS), c=rnd.randrange(COMPANIES)
        )
        for i in range(n)
    ]


async def timed(calls: list[Callable[[], Awaitable[Any]]]) -> tuple[list[float], list[Any]]:
    seconds, results = [], []
    for call in calls:
        started = time.perf_counter()
        results.append(await call())
        seconds.append(time.perf_counter() - started)
    return seconds, results


async def run_one(
    name: str, url: str, tsv: Path, total: int, queries: int, reload: bool = False
) -> dict[str, Any]:
    db = Database(url)
    graph = GraphService(db, FrozenClock(datetime(2026, 11, 22, tzinfo=UTC)))
    try:
        logger.info("%s: loading %d facts", name, total)
        started = time.perf_counter()
        with tsv.open(encoding="utf-8") as handle:
            report = await graph.import_tsv(handle)
        load_seconds = time.perf_counter() - started
        stored = await graph.count()
        reload_rate = None
        if reload:
            logger.info("%s: loading the same %d facts again", name, total)
            started = time.perf_counter()
            with tsv.open(encoding="utf-8") as handle:
                again = await graph.import_tsv(handle)
            reload_rate = round(again.lines / (time.perf_counter() - started))
            if await graph.count() != stored:
                raise SystemExit(f"{name}: loading the file again changed the number of facts")
        rnd = random.Random(11)
        await graph.ask_question("What did Einstein invent?")  # warm: vocabulary, pool
        logger.info("%s: timing queries", name)
        find_s, _ = await timed(
            [lambda q=q: graph.find_facts(q, 10) for q in find_queries(rnd, queries)]  # type: ignore[misc]
        )
        ask_s, asked = await timed(
            [lambda q=q: graph.ask_question(q) for q in ask_questions(rnd, queries)]  # type: ignore[misc]
        )
        hop_questions = [
            f"What symptoms do diseases treated by Drug {rnd.randrange(DRUGS)} have?"
            for _ in range(queries)
        ]
        hop_s, hopped = await timed([lambda q=q: graph.ask_question(q) for q in hop_questions])  # type: ignore[misc]
    finally:
        await db.dispose()
    load_rate = report.lines / load_seconds
    find, ask, hop = latency_summary(find_s), latency_summary(ask_s), latency_summary(hop_s)
    result: dict[str, Any] = {
        "database": name,
        "load": {
            "lines": report.lines,
            "facts_stored": stored,
            "seconds": round(load_seconds, 2),
            "facts_per_s": round(load_rate),
        },
        "find_facts": find,
        "ask_question": {**ask, "answered": sum(bool(r.relevant_facts) for r in asked)},
        "two_hop": {
            **hop,
            "answered_as_chain": sum(bool(r.chain and r.chain.complete) for r in hopped),
        },
        "meets_targets": {
            "load": load_rate >= TARGETS["load_facts_per_s"],
            "find_facts": find["p95_ms"] <= TARGETS["find_p95_ms"],
            "ask_question": ask["p95_ms"] <= TARGETS["ask_p95_ms"],
            "two_hop": hop["p95_ms"] <= TARGETS["two_hop_p95_ms"],
        },
    }
    if reload_rate is not None:
        result["load"]["reload_facts_per_s"] = reload_rate
    return result


def cpu_calibration() -> float:
    """Seconds for 10M pure-Python additions: compare machines before comparing numbers."""
    started = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return round(time.perf_counter() - started, 2)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        tsv = Path(tmp) / "facts.tsv"
        logger.info("generating %d facts", args.facts)
        generate(tsv, args.facts)
        for name in args.databases.split(","):
            if name == "sqlite":
                url = f"sqlite+aiosqlite:///{Path(tmp) / 'graph.sqlite3'}"
                await asyncio.to_thread(upgrade_head, url)
                results.append(await run_one(name, url, tsv, args.facts, args.queries, args.reload))
            elif name == "postgres":
                async with exclusive_use(args.database_url):
                    await prepare_postgres(args.database_url)
                    results.append(
                        await run_one(
                            name, args.database_url, tsv, args.facts, args.queries, args.reload
                        )
                    )
            else:
                raise SystemExit(f"unknown database {name!r}: use sqlite and/or postgres")
    return {
        "benchmark": "graph",
        "facts": args.facts,
        "queries_each": args.queries,
        "cpu_calibration_10M_loop_s": cpu_calibration(),
        "targets": TARGETS,
        "results": results,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--database-url", default=DEFAULT_URL + "_graph")
    parser.add_argument(
        "--reload", action="store_true", help="also time loading the same file again"
    )
    args = parser.parse_args()
    log_to_stderr()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
