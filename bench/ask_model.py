"""/ask per community through a model: the gold sets against any OpenAI-compatible server.

    OPENAI_API_KEY=x OPENAI_BASE_URL=http://127.0.0.1:8000/v1 \\
        .venv/bin/python bench/ask_model.py [--community NAME ...] [--limit N [--spread]]
        [--offline] [--misses]

The same measures as bench/ask_gold.py, with the OpenAI backend:
each community is seeded offline (a model reading facts out of every document would
change the data and take hours on a small CPU), then its questions (the first N with
--limit, for slow models; N spread evenly through the set with --spread, since a gold
set is grouped by kind) go through `coordbot ask --batch --json` with the model
configured, then once more offline on the same data. --offline asks them offline only.
Printed per community: every measure and the offline path's on the same questions (with
the measures the model path fell below, and how many questions each path alone got
right), seconds per question, chat calls per question and the
seconds spent in them, prompt and reply tokens per answered call (the server's usage;
a server that reuses a cached prompt prefix still counts it), all counted at the openai
client, and the steps that fell back to the offline path, by what failed (counted from
LLMService's warnings, which never quote a question). A held-out community's misses are
never shown, only its figures. Not part of the tests: it needs a server (for example
llama-cpp-python's, serving a small instruct GGUF).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from tests.support import ask_gold  # noqa: E402

OFF = ("DATABASE_URL", "CHROMA_HOST", "TELEGRAM_BOT_TOKEN")
MODEL_SETTINGS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_ANSWER_MODEL")


class Fallbacks(logging.Handler):
    """Counts LLMService's "LLM <step> failed (<what>)" warnings by step and what failed:
    the check that refused a reply, or the request's failure (llm/base.Unquoted)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args if isinstance(record.args, tuple) else ()
        if record.name == "app.services.llm.service" and len(args) >= 2:
            self.seen[f"{args[0]}: {args[1]}"] += 1


@contextmanager
def counted_chat_calls() -> Iterator[Counter[str]]:
    """Every chat completion the openai client makes in this process, by outcome."""
    from openai.resources.chat.completions import AsyncCompletions

    calls: Counter[str] = Counter()
    create = AsyncCompletions.create

    async def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls["calls"] += 1
        started = time.perf_counter()
        try:
            completion = await create(self, *args, **kwargs)
        except Exception:
            calls["errors"] += 1
            raise
        finally:
            calls["milliseconds"] += round((time.perf_counter() - started) * 1000)
        usage = getattr(completion, "usage", None)
        calls["prompt_tokens"] += getattr(usage, "prompt_tokens", 0) or 0
        calls["completion_tokens"] += getattr(usage, "completion_tokens", 0) or 0
        return completion

    AsyncCompletions.create = counting  # type: ignore[assignment,method-assign]
    try:
        yield calls
    finally:
        AsyncCompletions.create = create  # type: ignore[method-assign]


@contextmanager
def offline() -> Iterator[None]:
    """The model's settings set aside (while a community is seeded)."""
    kept = {name: os.environ.pop(name) for name in MODEL_SETTINGS if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(kept)


def measure(
    names: list[str] | None,
    show_misses: bool,
    limit: int | None,
    spread: bool = False,
    model: bool = True,
) -> dict[str, Any]:
    for name in OFF:
        os.environ.pop(name, None)
    fallbacks = Fallbacks()
    logging.getLogger("app.services.llm.service").addHandler(fallbacks)
    out: dict[str, Any] = {}
    for community in ask_gold.communities():
        if names and community.name not in names:
            continue
        with tempfile.TemporaryDirectory(prefix=f"model-{community.name}-") as tmp:
            work = Path(tmp)
            os.environ["DATA_DIR"] = str(work / "data")
            with offline():
                ask_gold.seed(community)
            fallbacks.seen.clear()
            with counted_chat_calls() as calls, nullcontext() if model else offline():
                rows, seconds = ask_gold.ask_all(community, work, work / "data", limit, spread)
            figures = ask_gold.report(community, rows, seconds, show_misses)
            asked = max(1, len(rows))
            figures["chat_calls_per_question"] = round(calls["calls"] / asked, 2)
            answered = max(1, calls["calls"] - calls["errors"])
            figures["chat_seconds_per_question"] = round(calls["milliseconds"] / 1000 / asked, 2)
            figures["prompt_tokens_per_call"] = round(calls["prompt_tokens"] / answered)
            figures["reply_tokens_per_call"] = round(calls["completion_tokens"] / answered)
            figures["chat_errors"] = calls["errors"]
            figures["fallbacks"] = dict(fallbacks.seen)
            if model:
                figures |= against_offline(community, work, rows, figures, limit, spread)
            out[community.name] = figures
            print(f"{community.name}: done ({len(rows)} questions)", file=sys.stderr)
    return out


def against_offline(
    community: ask_gold.Community,
    work: Path,
    rows: list[dict[str, Any]],
    model: dict[str, Any],
    limit: int | None,
    spread: bool,
) -> dict[str, Any]:
    """The same questions asked offline on the same data: its measures, those the model
    path (``rows``, measured as ``model``) fell below (the issue: never worse than the
    offline path), and how many questions each path got right that the other missed
    (which ones, for a development community only)."""
    with offline():
        plain, _ = ask_gold.ask_all(community, work, work / "data", limit, spread)
    figures = ask_gold.summarise(plain, 0.0)
    measures = {m: figures[m] for m in (*ask_gold.MEASURES, "fact_lead")}
    below = [m for m in measures if None not in (model[m], measures[m])
             and model[m] < measures[m]]  # fmt: skip
    missed_with_model = {q["question"] for q in ask_gold.misses(rows)}
    missed_offline = {q["question"] for q in ask_gold.misses(plain)}
    lost, gained = missed_with_model - missed_offline, missed_offline - missed_with_model
    out: dict[str, Any] = {
        "offline": measures,
        "below_offline": below,
        "questions_lost_to_offline": len(lost),
        "questions_gained_on_offline": len(gained),
    }
    if not community.held_out:
        out["lost"], out["gained"] = sorted(lost), sorted(gained)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--community", action="extend", nargs="+", help="only these")
    parser.add_argument("--limit", type=int, help="the first N questions of each community")
    parser.add_argument("--spread", action="store_true", help="N spaced through the set")
    parser.add_argument("--offline", action="store_true", help="the same, without the model")
    parser.add_argument("--misses", action="store_true", help="development misses too")
    args = parser.parse_args()
    if not os.environ.get("OPENAI_API_KEY") and not args.offline:
        parser.error("set OPENAI_API_KEY (any value for a local server) and OPENAI_BASE_URL")
    figures = measure(args.community, args.misses, args.limit, args.spread, not args.offline)
    backend = "offline" if args.offline else "openai"
    print(json.dumps({"backend": backend, "pipeline": "general", "spread": args.spread,
                      "base_url": os.environ.get("OPENAI_BASE_URL"),
                      "model": os.environ.get("OPENAI_MODEL"), "limit": args.limit,
                      "communities": figures}, indent=1, ensure_ascii=False))  # fmt: skip


if __name__ == "__main__":
    main()
