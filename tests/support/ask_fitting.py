"""What the scripts that refit /ask's models share (scripts/fit_proposal_cut.py,
scripts/fit_ask_decision.py): every development community seeded and its questions
searched as /ask searches them, the rows cached, each community weighed the same, and
models judged by leaving one community out at a time. Held-out communities are never
read here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from app.domain.clock import FrozenClock
from tests.support import ask_gold

Row = dict[str, Any]
Record = Callable[[Row, Any], Row | None]
Model = TypeVar("Model")
Score = TypeVar("Score")


def arguments(description: str | None, cache: Path) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--cache", default=str(cache))
    parser.add_argument("--reuse", action="store_true", help="read the cached rows")
    parser.add_argument("--dry-run", action="store_true", help="do not write the model")
    return parser.parse_args()


def rows(args: argparse.Namespace, record: Record, wanted: Callable[[Row], bool]) -> list[Row]:
    """The cached rows with ``--reuse``, else every development question ``wanted`` read
    afresh (``record(item, gathered)`` makes its row, or None) and cached."""
    cache = Path(args.cache)
    if args.reuse and cache.exists():
        return [json.loads(line) for line in cache.read_text().splitlines() if line]
    os.environ.pop("OPENAI_API_KEY", None)
    found: list[Row] = []
    for community in ask_gold.communities():
        if community.held_out:
            continue
        with tempfile.TemporaryDirectory(prefix=f"fit-{community.name}-") as tmp:
            os.environ["DATA_DIR"] = str(Path(tmp) / "data")
            ask_gold.seed(community)
            items = [i for i in community.load() if wanted(i)]
            read = asyncio.run(_inspect(items, record))
        found += [r | {"community": community.name} for r in read]
        print(f"{community.name}: {len(read)} questions", file=sys.stderr)
    cache.write_text("".join(json.dumps(r) + "\n" for r in found))
    return found


async def _inspect(items: list[Row], record: Record) -> list[Row]:
    """Each question searched as /ask searches it (ContextService.inspect), at its "now"."""
    from app.cli.common import settings
    from app.container import Container

    out = []
    by_now: dict[str, list[Row]] = defaultdict(list)
    for item in items:
        by_now[item["now"]].append(item)
    for now, group in by_now.items():
        moment = datetime.fromisoformat(now.replace("Z", "+00:00"))
        container = Container(settings(), clock=FrozenClock(moment))
        await container.start()
        try:
            for item in group:
                gathered = await container.context.inspect(" ".join(item["question"].split()))
                row = record(item, gathered)
                if row is not None:
                    out.append(row)
        finally:
            await container.stop()
    return out


def community_weights(data: list[Row], size: Callable[[Row], int] = lambda r: 1) -> list[float]:
    """Each row's weight, ``size(row)`` items to a row: each community weighs the same,
    and each row the same within it."""
    sizes = Counter(r["community"] for r in data)
    return [1.0 / (size(r) * sizes[r["community"]]) for r in data]


def left_out(
    data: list[Row], fit: Callable[[list[Row]], Model]
) -> Iterator[tuple[str, Model, list[Row]]]:
    """(community, the model fitted without it, its rows) for each community in turn."""
    for name in sorted({r["community"] for r in data}):
        yield (
            name,
            fit([r for r in data if r["community"] != name]),
            [r for r in data if r["community"] == name],
        )


def left_out_by_penalty(
    data: list[Row],
    penalties: Sequence[float],
    fit: Callable[[list[Row], float], Model],
    score: Callable[[Model, list[Row]], Score],
) -> dict[str, dict[str, Score]]:
    """For each penalty (its str), each community's ``score`` under the model fitted at
    that penalty without it."""
    scores: dict[str, dict[str, Score]] = {}
    for p in penalties:

        def at_p(rows: list[Row], p: float = p) -> Model:
            return fit(rows, p)

        scores[str(p)] = {name: score(model, own) for name, model, own in left_out(data, at_p)}
    return scores
