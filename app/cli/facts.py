"""`coordbot facts ...`: the fact graph from the command line (see shared CLI.md).

``register(subparsers)`` adds the commands to the parser app/cli.py builds; the
helpers they share with the other commands (``_with_container``, ``_emit``,
``CliError``) are imported from app.cli when a command runs, so the two modules
do not import each other at load time. The operator is trusted: no admin check.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from app.cli.common import CliError, clock, emit, with_container
from app.core.graph.graph_import import ImportReport


def register(subparsers: Any) -> None:
    facts = subparsers.add_parser("facts", help="the fact graph: add, find, ask, import")
    sub = facts.add_subparsers(dest="facts_command", required=True)

    add = sub.add_parser("add", help="store one fact")
    add.add_argument("subject")
    add.add_argument("predicate")
    add.add_argument("object")
    add.add_argument("--confidence", type=float, default=1.0)
    add.add_argument("--json", action="store_true")
    add.set_defaults(func=cmd_add)

    find = sub.add_parser("find", help="find_facts: facts matching a pattern")
    find.add_argument("--subject")
    find.add_argument("--predicate")
    find.add_argument("--object")
    find.add_argument("--limit", type=int)
    find.add_argument("--json", action="store_true")
    find.set_defaults(func=cmd_find)

    ask = sub.add_parser("ask", help="ask_question: a question in plain words")
    ask.add_argument("question")
    ask.add_argument("--context")
    ask.add_argument("--max-results", type=int)
    ask.add_argument("--json", action="store_true")
    ask.set_defaults(func=cmd_ask)

    explore = sub.add_parser("explore", help="explore_connections: what an entity leads to")
    explore.add_argument("entity")
    explore.add_argument("--depth", type=int, default=2, help="hops, at most 4")
    explore.add_argument("--json", action="store_true")
    explore.set_defaults(func=cmd_explore)

    load = sub.add_parser(
        "import", help="bulk-load a TSV: subject, predicate, object[, confidence]"
    )
    load.add_argument("file")
    load.add_argument("--batch-size", type=int, help="lines per transaction")
    load.add_argument("--json", action="store_true")
    load.set_defaults(func=cmd_import)


def _run(work: Any) -> int:
    return asyncio.run(with_container(clock(None), work))


def _print_suggestions(suggestions: list[str]) -> None:
    print("\nSuggestions:\n" + "\n".join(f"- {s}" for s in suggestions))


def cmd_add(args: argparse.Namespace) -> int:
    async def work(container: Any) -> int:
        stored = await container.graph.store_fact(
            args.subject, args.predicate, args.object, args.confidence
        )
        fact = stored.fact
        if args.json:
            emit({**fact.triple(), "confidence": fact.confidence, "source": fact.source,
                   "created": stored.created})  # fmt: skip
        else:
            verb = "stored" if stored.created else "updated"
            print(f"{verb}: {fact.subject} {fact.predicate} {fact.object} "
                  f"(confidence {fact.confidence:g})")  # fmt: skip
        return 0

    return _run(work)


def _show(args: argparse.Namespace, result: Any, *, suggestions: bool = True) -> int:
    """The spec's JSON with --json; otherwise the message (and the spec's next steps)."""
    if args.json:
        emit(result.as_dict())
    else:
        print(result.message)
        if suggestions:
            _print_suggestions(result.suggestions)
    return 0


def cmd_find(args: argparse.Namespace) -> int:
    async def work(container: Any) -> int:
        query = {"subject": args.subject, "predicate": args.predicate, "object": args.object}
        return _show(args, await container.graph.find_facts(query, args.limit))

    return _run(work)


def cmd_ask(args: argparse.Namespace) -> int:
    async def work(container: Any) -> int:
        result = await container.graph.ask_question(args.question, args.context, args.max_results)
        return _show(args, result)

    return _run(work)


def cmd_explore(args: argparse.Namespace) -> int:
    async def work(container: Any) -> int:
        result = await container.graph.explore_connections(args.entity, args.depth)
        return _show(args, result, suggestions=False)

    return _run(work)


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    WIDTH = 30

    def __init__(self, total_bytes: int, stream: IO[str] | None = None) -> None:
        self.total = max(total_bytes, 1)
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.done = 0  # bytes read so far (updated by the reader)
        self.indexed_done = self.indexed_total = 0  # facts whose vectors are stored

    def lines(self, path: Path) -> Iterator[str]:
        with path.open("rb") as handle:
            for raw in handle:
                self.done += len(raw)
                yield raw.decode("utf-8", errors="replace")

    def draw(self, report: ImportReport) -> None:
        if self.enabled:
            self._bar(
                "importing facts",
                self.done / self.total,
                f"{report.committed:,} lines, {report.skipped:,} skipped",
            )

    def indexed(self, done: int, total: int) -> None:
        """The facts' vectors being stored after the load (graph.import_tsv)."""
        self.indexed_total = total or self.indexed_total
        self.indexed_done += done
        if self.enabled and self.indexed_total:
            self._bar(
                "indexing facts ",
                self.indexed_done / self.indexed_total,
                f"{self.indexed_done:,} of {self.indexed_total:,} facts",
            )

    def _bar(self, label: str, done: float, tail: str) -> None:
        """One redraw of the line: ``label [####    ]  42%  tail``."""
        share = min(done, 1.0)
        bar = "#" * int(self.WIDTH * share)
        self.stream.write(f"\r{label} [{bar:<{self.WIDTH}}] {share:4.0%}  {tail}")
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def cmd_import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from exc
    if args.batch_size is not None and args.batch_size < 1:
        raise CliError("--batch-size must be at least 1")
    progress = Progress(size)

    async def work(container: Any) -> int:
        try:
            report = await container.graph.import_tsv(
                progress.lines(path),
                batch_size=args.batch_size,
                progress=progress.draw,
                index_progress=progress.indexed,
            )
        finally:
            progress.finish()
        if args.json:
            emit(report.as_dict())
        else:
            print(
                f"imported {report.imported:,} facts from {report.lines:,} lines "
                f"({report.skipped:,} skipped)"
            )
            for error in report.errors:
                print(f"  {error}", file=sys.stderr)
        return 0

    return _run(work)
