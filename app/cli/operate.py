"""Operating the bot: `coordbot run`, `migrate` and `seed`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

from app.cli.common import CliError, clock, emit, settings, with_container

logger = logging.getLogger("app.cli")


def cmd_run(args: argparse.Namespace) -> int:
    config = settings()
    if not config.telegram_bot_token:
        raise CliError(
            "TELEGRAM_BOT_TOKEN is not set: put it in the environment or in .env "
            "(see .env.example)."
        )
    from app.persistence.migrations import upgrade_head
    from app.runner import ConflictExit, run_bot

    upgrade_head(config.resolved_database_url, config.bot_language)
    logger.info("starting the bot (%s)", "webhook" if config.webhook_url else "polling")
    try:
        return run_bot(config)
    except ConflictExit as exc:
        raise CliError(str(exc)) from exc


def cmd_migrate(args: argparse.Namespace) -> int:
    from app.persistence.migrations import upgrade_head

    config = settings()
    upgrade_head(config.resolved_database_url, config.bot_language)
    print("database is up to date", file=sys.stderr)
    return 0


def cmd_seed(args: argparse.Namespace) -> int:
    from app.core.graph.proposal_facts import seed_graph
    from app.core.proposals.seed_service import SeedService, load_fixture

    data = load_fixture(Path(args.file))

    async def work(container: Any) -> int:
        report = await SeedService(
            container.db, container.clock, language=container.settings.bot_language
        ).seed(data)
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
            emit(report.as_dict())
        else:
            print(
                "seeded {users} users, {proposals} proposals, {votes} votes, "
                "{submissions} submissions, {documents} documents".format(**report.as_dict())
            )
        return 0

    return asyncio.run(with_container(clock(None), work))


def register(sub: Any) -> None:
    sub.add_parser("run", help="migrate, then run the bot").set_defaults(func=cmd_run)
    sub.add_parser("migrate", help="alembic upgrade head").set_defaults(func=cmd_migrate)
    seed = sub.add_parser("seed", help="load a fixture into the database and the index")
    seed.add_argument("file")
    seed.add_argument("--json", action="store_true")
    seed.set_defaults(func=cmd_seed)
