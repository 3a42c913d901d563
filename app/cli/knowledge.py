"""`coordbot import`, `query` and `reindex`: knowledge_import / knowledge_query for operators."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from app.cli.common import clock, emit, with_container
from app.domain.errors import ValidationError


class Progress:
    """A one-line progress bar on a terminal's stderr; silent otherwise."""

    def __init__(self, label: str, total: int = 0) -> None:
        self.label, self.total, self.done = label, total, 0
        self.enabled = sys.stderr.isatty()

    def __call__(self, advanced: int, total: int = 0) -> None:
        if total:
            self.total = total
        self.done += advanced
        if self.enabled:
            width = 30
            share = self.done / self.total if self.total else 0.0
            bar = "#" * int(width * min(share, 1.0))
            sys.stderr.write(f"\r{self.label} [{bar:<{width}}] {self.done}/{self.total or '?'}")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def cmd_import(args: argparse.Namespace) -> int:
    from app.services.text_extraction import extract_text

    files = [Path(f) for f in args.files]
    texts: list[tuple[Path, str]] = []
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ValidationError(f"cannot read {path}: {exc.strerror}") from exc
        texts.append((path, extract_text(path.name, data)))

    async def work(container: Any) -> int:
        progress = Progress("importing", len(texts))
        for path, text in texts:
            result = await container.documents.knowledge_import(
                args.title or path.stem,
                text,
                source=args.source or str(path),
                category=args.category,
                chunk_size=args.chunk_size,
                chunk_overlap=args.chunk_overlap,
                proposal_id=args.proposal,
            )
            progress(1)
            if args.json:
                emit(result.as_dict())
            else:
                note = " (already imported)" if result.existing else ""
                print(f"{result.document_id}  {result.title}: {result.chunks_created} chunks{note}")
        progress.close()
        return 0

    return asyncio.run(with_container(clock(None), work))


def cmd_query(args: argparse.Namespace) -> int:
    async def work(container: Any) -> int:
        result = await container.documents.knowledge_query(
            args.text,
            top_k=args.top_k,
            category=args.category,
            document_id=args.document_id,
        )
        if args.json:
            emit(result)
            return 0
        if not result["results"]:
            print("no matching chunks")
        for item in result["results"]:
            doc = item["document"]
            print(f"{item['similarity']:.3f}  {doc['title']} ({doc['id']})")
            print("    " + item["content"][:200].replace("\n", " "))
        return 0

    return asyncio.run(with_container(clock(None), work))


def cmd_reindex(args: argparse.Namespace) -> int:
    async def work(container: Any) -> int:
        relexed = await container.lexical.recompute()  # the word index, first
        progress = Progress("reindexing")
        report = await container.index.reindex(progress)
        progress.close()
        if args.json:
            emit(report)
        else:
            print(
                f"indexed {report['proposals_indexed']} proposals, "
                f"{report['chunks_indexed']} chunks and {report['facts_indexed']} facts"
            )
            print(f"search terms recomputed: {relexed} rows")
        return 0

    return asyncio.run(with_container(clock(None), work))


def register(sub: Any) -> None:
    imp = sub.add_parser("import", help="knowledge_import for each file")
    imp.add_argument("files", nargs="+", metavar="FILE")
    imp.add_argument("--title")
    imp.add_argument("--category")
    imp.add_argument("--source")
    imp.add_argument("--chunk-size", type=int, default=500)
    imp.add_argument("--chunk-overlap", type=int, default=50)
    imp.add_argument("--proposal", type=int, metavar="ID")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(func=cmd_import)

    query = sub.add_parser("query", help="knowledge_query")
    query.add_argument("text")
    query.add_argument("--top-k", type=int, default=5)
    query.add_argument("--category")
    query.add_argument("--document-id", metavar="UUID")
    query.add_argument("--json", action="store_true")
    query.set_defaults(func=cmd_query)

    reindex = sub.add_parser(
        "reindex", help="rebuild the vector index and the lexical terms from SQL"
    )
    reindex.add_argument("--json", action="store_true")
    reindex.set_defaults(func=cmd_reindex)
