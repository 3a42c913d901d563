"""`coordbot ask`: the full /ask pipeline, with the bot's answer text."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from app.cli.common import CliError, clock, emit, read_batch, with_container
from app.domain.errors import CoordBotError


def cmd_ask(args: argparse.Namespace) -> int:
    if args.batch:
        if not args.json:
            raise CliError("--batch prints one JSON object per line: add --json")
        questions = read_batch(args.batch)
    elif args.question:
        questions = [" ".join(args.question)]
    else:
        raise CliError("give a QUESTION or --batch FILE")

    async def work(container: Any) -> int:
        failed = 0
        for question in questions:
            try:
                response = await container.context.handle_intelligent_ask(
                    question, user_id=args.user, language=args.language
                )
            except CoordBotError as exc:
                if not args.batch:
                    raise
                failed += 1  # one bad line must not stop the batch
                emit(
                    {
                        "question": question,
                        "error": True,
                        "error_type": type(exc).__name__,
                        "message": exc.user_message,
                    }
                )
                continue
            if args.json:
                emit(response.as_dict())
            else:
                print(response.answer)
        return 1 if failed and failed == len(questions) else 0

    return asyncio.run(with_container(clock(args.now), work))


def register(sub: Any) -> None:
    ask = sub.add_parser("ask", help="ask a question the way /ask does")
    ask.add_argument("question", nargs="*", help="the question (quotes optional)")
    ask.add_argument("--batch", metavar="FILE", help="one question per line")
    ask.add_argument("--user", type=int, metavar="TELEGRAM_ID", help="ask as this member")
    ask.add_argument("--now", metavar="ISO8601", help="fix the clock")
    ask.add_argument(
        "--language",
        metavar="LANG",
        help="the asker's language (en, es, ru, pt_BR...): a hint, the question's own words "
        "decide; the answer is written in the question's language",
    )
    ask.add_argument("--json", action="store_true")
    ask.set_defaults(func=cmd_ask)
