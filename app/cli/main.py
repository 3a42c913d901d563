"""The `coordbot` command line: the same services the bot uses, for operators and scripts."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from app.cli import ask, dates, facts, knowledge, mcp, operate
from app.cli.common import CliError, emit
from app.domain.errors import CoordBotError
from app.logging_setup import configure_logging

COMMAND_GROUPS = (operate, dates, knowledge, facts, ask, mcp)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coordbot", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)
    for group in COMMAND_GROUPS:
        group.register(sub)
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
            emit({"error": True, "error_type": type(exc).__name__, "message": exc.user_message})
        print(f"coordbot: {exc.user_message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
