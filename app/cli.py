"""The `coordbot` command line: the same services the bot uses, for operators and scripts."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ValidationError as SettingsError

from app.config import Settings
from app.domain.clock import Clock, FrozenClock, SystemClock
from app.domain.errors import CoordBotError
from app.logging_setup import configure_logging

logger = logging.getLogger("app.cli")


class CliError(Exception):
    """Bad input: a one-line message and a non-zero exit."""


def _settings() -> Settings:
    try:
        return Settings()
    except SettingsError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]).upper() if first["loc"] else "settings"
        raise CliError(f"invalid setting {field}: {first['msg']}") from exc


def _clock(now: str | None) -> Clock:
    if not now:
        return SystemClock()
    try:
        moment = datetime.fromisoformat(now.replace("Z", "+00:00"))
    except ValueError as exc:
        raise CliError(f"--now: '{now}' is not an ISO 8601 date-time") from exc
    if moment.tzinfo is None:  # a bare date-time is read as UTC
        moment = moment.replace(tzinfo=UTC)
    return FrozenClock(moment)


def _emit(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, default=str) + "\n")


def cmd_run(args: argparse.Namespace) -> int:
    settings = _settings()
    if not settings.telegram_bot_token:
        raise CliError(
            "TELEGRAM_BOT_TOKEN is not set: put it in the environment or in .env "
            "(see .env.example)."
        )
    from app.persistence.migrations import upgrade_head
    from app.runner import ConflictExit, run_bot

    upgrade_head(settings.resolved_database_url)
    logger.info("starting the bot (%s)", "webhook" if settings.webhook_url else "polling")
    try:
        return run_bot(settings)
    except ConflictExit as exc:
        raise CliError(str(exc)) from exc


def cmd_migrate(args: argparse.Namespace) -> int:
    from app.persistence.migrations import upgrade_head

    upgrade_head(_settings().resolved_database_url)
    print("database is up to date", file=sys.stderr)
    return 0


async def _with_container(
    clock: Clock, work: Callable[[Any], Awaitable[int]], *, migrate: bool = True
) -> int:
    from app.container import Container

    container = Container(_settings(), clock=clock)
    try:
        if migrate:
            await container.migrate()
        await container.start()
        return await work(container)
    finally:
        await container.stop()


def cmd_seed(args: argparse.Namespace) -> int:
    from app.core.proposal_facts import seed_graph
    from app.core.seed_service import SeedService, load_fixture

    data = load_fixture(Path(args.file))

    async def work(container: Any) -> int:
        report = await SeedService(container.db, container.clock).seed(data)
        for doc in data.get("documents", []):
            await container.documents.knowledge_import(
                doc.get("title", ""),
                doc.get("content", ""),
                source=doc.get("source"),
                category=doc.get("category"),
                proposal_id=doc.get("proposal_id"),
            )
            report.documents += 1
        await container.index.catch_up()
        await seed_graph(container.graph, data)
        if args.json:
            _emit(report.as_dict())
        else:
            print(
                "seeded {users} users, {proposals} proposals, {votes} votes, "
                "{submissions} submissions, {documents} documents".format(**report.as_dict())
            )
        return 0

    return asyncio.run(_with_container(_clock(None), work))


def _read_batch(path: str) -> list[str]:
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from exc
    return [line.strip() for line in lines if line.strip()]


def cmd_parse_date(args: argparse.Namespace) -> int:
    from app.nlp.date_ranges import parse_date_range

    tz = args.tz or _settings().bot_timezone
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise CliError(f"--tz: '{tz}' is not an IANA time zone") from exc
    now = _clock(args.now).now()
    if args.batch:
        phrases = _read_batch(args.batch)
    elif args.phrase:
        phrases = [args.phrase]
    else:
        raise CliError("give a PHRASE or --batch FILE")
    for phrase in phrases:
        found = parse_date_range(phrase, now, tz, args.direction)
        start = found.start.isoformat() if found and found.start else None
        end = found.end.isoformat() if found and found.end else None
        if args.json:
            _emit({"phrase": phrase, "start": start, "end": end})
        elif found is None:
            print(f"{phrase}: no date found")
        else:
            print(f"{phrase}: [{start or '-inf'}, {end or '+inf'})")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coordbot", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="migrate, then run the bot").set_defaults(func=cmd_run)
    sub.add_parser("migrate", help="alembic upgrade head").set_defaults(func=cmd_migrate)
    seed = sub.add_parser("seed", help="load a fixture into the database and the index")
    seed.add_argument("file")
    seed.add_argument("--json", action="store_true")
    seed.set_defaults(func=cmd_seed)
    parse = sub.add_parser("parse-date", help="the date-range parser /ask uses")
    parse.add_argument("phrase", nargs="?")
    parse.add_argument("--batch", metavar="FILE")
    parse.add_argument("--now", metavar="ISO8601")
    parse.add_argument("--tz", metavar="ZONE")
    parse.add_argument("--json", action="store_true")
    parse.add_argument(
        "--direction",
        choices=("past", "future", "nearest"),
        default="nearest",
        help="how a year-less date or a bare weekday is read (default nearest)",
    )
    parse.set_defaults(func=cmd_parse_date)
    from app import cli_knowledge

    cli_knowledge.register(sub)
    from app import cli_facts

    cli_facts.register(sub)
    from app import cli_ask

    cli_ask.register(sub)
    from app import cli_mcp

    cli_mcp.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    args = build_parser().parse_args(argv)
    configure_logging(logging.DEBUG if args.verbose else logging.INFO)
    try:
        return int(args.func(args))
    except CliError as exc:
        print(f"coordbot: {exc}", file=sys.stderr)
        return 2
    except CoordBotError as exc:
        if getattr(args, "json", False):
            _emit({"error": True, "error_type": type(exc).__name__, "message": exc.user_message})
        print(f"coordbot: {exc.user_message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
